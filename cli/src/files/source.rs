//! `-f` arguments → files: paths, directories (walked recursively, sorted within each
//! argument), `-` (standard input, named `stdin.yml`), `name=path`, and the rules every
//! input file is read under (`-f`, `--data-values-file`, `--data-value-file`): the
//! symlink policy, regular files and named pipes only, a size limit.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{anyhow, bail, Result};

use super::{go_io_error, platform};
pub use ytt::files::SourceFile;

/// The name standard input gets when no `name=-` is given.
pub const STDIN_NAME: &str = "stdin.yml";

/// The symlink policy (`--allow-symlink-destination`,
/// `--dangerous-allow-all-symlink-destinations`).
#[derive(Clone, Debug, Default)]
pub struct SourceOptions {
    pub allow_symlink_destinations: Vec<String>,
    pub allow_all_symlink_destinations: bool,
}

static STDIN_READ: AtomicBool = AtomicBool::new(false);

/// The most bytes read from one input (a file, a pipe, standard input): configuration is
/// far smaller, and an endless stream is refused instead of read until memory runs out.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// Reads `r` whole, refusing more than [`MAX_INPUT_BYTES`].
/// Reads at most [`MAX_INPUT_BYTES`]; `size` (what the file's metadata says, 0 when
/// unknown) sizes the buffer, so that a large file is not copied as the buffer grows.
fn read_limited(mut r: impl Read, name: &str, size: u64) -> Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(size.min(MAX_INPUT_BYTES) as usize + 1);
    r.by_ref()
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(|e| anyhow!("{}", go_io_error("read", name, &e)))?;
    if buf.len() as u64 > MAX_INPUT_BYTES {
        bail!(
            "Expected '{name}' to hold at most {} MiB, but it holds more",
            MAX_INPUT_BYTES >> 20
        );
    }
    Ok(buf)
}

/// Reads all of standard input. Standard input can be read only once per run; a second
/// read (`-` given to two flags) is an error.
pub fn read_stdin() -> Result<Vec<u8>> {
    if STDIN_READ.swap(true, Ordering::SeqCst) {
        bail!(
            "Standard input has already been read, has the '-' argument been used in more than one flag?"
        );
    }
    read_limited(std::io::stdin().lock(), "/dev/stdin", 0)
}

/// Reads a file named by an input flag: a symbolic link only when the symlink policy
/// allows its destination; then only a regular file or a named pipe (standard input as
/// `/dev/stdin`, process substitution such as `<(cmd)`) — never a device such as
/// `/dev/zero` — and no more than [`MAX_INPUT_BYTES`].
pub fn read_input(path: &str, opts: &SourceOptions) -> Result<Vec<u8>> {
    fs::symlink_metadata(path)
        .map_err(|e| anyhow!("Checking file '{path}': {}", go_io_error("lstat", path, &e)))?;
    check_symlink(Path::new(path), opts)?;
    let meta = fs::metadata(path)
        .map_err(|e| anyhow!("Checking file '{path}': {}", go_io_error("stat", path, &e)))?;
    check_file_type(path, &meta.file_type())?;
    read_file(path)
}

/// Checks a directory named by an input flag against the symlink policy (it may be a
/// link); its files are then read with [`walk_dir`].
pub fn read_input_dir_check(path: &str, opts: &SourceOptions) -> Result<()> {
    check_symlink(Path::new(path), opts)
}

/// Collects the files named by `-f` arguments, in command-line order (each directory's
/// files sorted by relative path).
pub fn collect(args: &[String], opts: &SourceOptions) -> Result<Vec<SourceFile>> {
    let mut out = Vec::new();
    for arg in args {
        collect_one(arg, opts, &mut out)?;
    }
    Ok(out)
}

fn collect_one(arg: &str, opts: &SourceOptions, out: &mut Vec<SourceFile>) -> Result<()> {
    let pieces: Vec<&str> = arg.split('=').collect();
    let (name, path) = match pieces.len() {
        1 => (None, arg),
        2 => (Some(pieces[0]).filter(|n| !n.is_empty()), pieces[1]),
        _ => bail!(
            "Expected file '{arg}' to only have single '=' sign to for relative path assignment"
        ),
    };

    if path == "-" {
        let name = name.unwrap_or(STDIN_NAME).to_owned();
        let data = read_stdin().map_err(|e| anyhow!("Reading file '{name}':\n  {e}"))?;
        out.push(SourceFile {
            rel_path: name,
            data: data.into(),
        });
        return Ok(());
    }

    if path.starts_with("http://") || path.starts_with("https://") {
        bail!(
            "Reading URL '{path}': fetching files over HTTP(S) is not supported by this ytt (no network access); download the file and pass its local path"
        );
    }

    // the path itself first (a dangling link is reported by the `stat` that follows)
    fs::symlink_metadata(path)
        .map_err(|e| anyhow!("Checking file '{path}': {}", go_io_error("lstat", path, &e)))?;
    let meta = fs::metadata(path)
        .map_err(|e| anyhow!("Checking file '{path}': {}", go_io_error("stat", path, &e)))?;

    if meta.is_dir() {
        check_symlink(Path::new(path), opts)?;
        let mut group = Vec::new();
        walk_dir(Path::new(path), "", opts, &|_| true, &mut group)?;
        group.sort_by(|a: &SourceFile, b| a.rel_path.cmp(&b.rel_path));
        out.extend(group);
        return Ok(());
    }

    let rel_path = match name {
        Some(n) => n.to_owned(),
        None => base_name(path),
    };
    let data = read_input(path, opts)?;
    out.push(SourceFile {
        rel_path,
        data: data.into(),
    });
    Ok(())
}

fn base_name(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    match trimmed.rsplit('/').next() {
        Some(b) if !b.is_empty() => b.to_owned(),
        _ => path.to_owned(),
    }
}

/// Reads a file already checked (`check_symlink`, `check_file_type`).
fn read_file(path: &str) -> Result<Vec<u8>> {
    let f = fs::File::open(path)
        .map_err(|e| anyhow!("Reading file '{path}': {}", go_io_error("open", path, &e)))?;
    let size = f.metadata().map_or(0, |m| m.len());
    read_limited(f, path, size).map_err(|e| anyhow!("Reading file '{path}': {e:#}"))
}

fn check_file_type(path: &str, ft: &fs::FileType) -> Result<()> {
    if ft.is_file() || platform::is_fifo(ft) {
        Ok(())
    } else if ft.is_dir() {
        bail!("Expected file '{path}' to be a regular file or a named pipe, but it is a directory")
    } else {
        bail!("Expected file '{path}' to be a regular file, but was not")
    }
}

/// The files under `dir` (recursively, each directory sorted by name) whose name `keep`
/// accepts, read under the same rules as any input (see [`read_input`]); symbolic links
/// to directories are not followed, so no directory is walked twice.
pub fn walk_dir(
    dir: &Path,
    rel_prefix: &str,
    opts: &SourceOptions,
    keep: &dyn Fn(&str) -> bool,
    out: &mut Vec<SourceFile>,
) -> Result<()> {
    let dir_str = dir.to_string_lossy();
    let entries = fs::read_dir(dir).map_err(|e| {
        anyhow!(
            "Walking directory '{dir_str}': {}",
            go_io_error("open", &dir_str, &e)
        )
    })?;
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| {
            anyhow!(
                "Walking directory '{dir_str}': {}",
                go_io_error("readdirent", &dir_str, &e)
            )
        })?;
        names.push(entry.file_name());
    }
    names.sort();
    for name in names {
        let name_str = name.to_string_lossy().into_owned();
        let full = dir.join(&name);
        let full_str = full.to_string_lossy().into_owned();
        let rel = if rel_prefix.is_empty() {
            name_str
        } else {
            format!("{rel_prefix}/{name_str}")
        };
        let lmeta = fs::symlink_metadata(&full).map_err(|e| {
            anyhow!(
                "Checking file '{full_str}': {}",
                go_io_error("lstat", &full_str, &e)
            )
        })?;
        let ft = lmeta.file_type();
        if ft.is_dir() {
            walk_dir(&full, &rel, opts, keep, out)?;
            continue;
        }
        if !keep(&rel) {
            continue;
        }
        let ft = if ft.is_symlink() {
            check_symlink(&full, opts)?;
            fs::metadata(&full)
                .map_err(|e| {
                    anyhow!(
                        "Checking file '{full_str}': {}",
                        go_io_error("stat", &full_str, &e)
                    )
                })?
                .file_type()
        } else {
            ft
        };
        // Symlinked directories are not followed.
        check_file_type(&full_str, &ft)?;
        let data = read_file(&full_str)?;
        out.push(SourceFile {
            rel_path: rel,
            data: data.into(),
        });
    }
    Ok(())
}

/// A symlink is accepted when every symlink is allowed, when it leads to a named pipe
/// (`/dev/stdin`, process substitution), or when its fully resolved destination is inside
/// one of the allowed destinations.
fn check_symlink(path: &Path, opts: &SourceOptions) -> Result<()> {
    let path_str = path.to_string_lossy();
    let lmeta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) => bail!(
            "Checking file '{path_str}': {}",
            go_io_error("lstat", &path_str, &e)
        ),
    };
    if !lmeta.file_type().is_symlink() || opts.allow_all_symlink_destinations {
        return Ok(());
    }
    if let Ok(m) = fs::metadata(path) {
        if platform::is_fifo(&m.file_type()) {
            return Ok(());
        }
    }
    let dest = fs::canonicalize(path).map_err(|e| {
        anyhow!(
            "Checking symlink file '{path_str}':\n  {}",
            go_io_error("lstat", &path_str, &e)
        )
    })?;
    for allowed in &opts.allow_symlink_destinations {
        let allowed_path = canonical_or_absolute(Path::new(allowed));
        if dest.starts_with(&allowed_path) {
            return Ok(());
        }
    }
    bail!(
        "Checking symlink file '{path_str}':\n  Expected symlink file '{path_str}' -> '{}' to be allowed, but was not. Symlinks are disallowed as a security feature, use `--allow-symlink-destination` flags to override",
        dest.display()
    )
}

fn canonical_or_absolute(p: &Path) -> PathBuf {
    if let Ok(c) = fs::canonicalize(p) {
        return c;
    }
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|d| d.join(p))
            .unwrap_or_else(|_| p.to_path_buf())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_names() {
        assert_eq!(base_name("files/a.yml"), "a.yml");
        assert_eq!(base_name("a.yml"), "a.yml");
        assert_eq!(base_name("/x/y/"), "y");
    }

    #[test]
    fn too_many_equals() {
        let err = collect(&["a=b=c".to_owned()], &SourceOptions::default()).unwrap_err();
        assert!(err.to_string().contains("single '=' sign"));
    }

    #[test]
    fn missing_file() {
        let err = collect(&["nope/x.yml".to_owned()], &SourceOptions::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Checking file 'nope/x.yml': lstat nope/x.yml: no such file or directory"
        );
    }
}
