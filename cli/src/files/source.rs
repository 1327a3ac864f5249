//! Input files on disk, found and read under one set of rules for every input flag (`-f`,
//! `--data-values-file`, `--data-value-file`), as the reference finds them:
//!
//! - a path given is checked first: a symbolic link must be allowed ([`check_symlink`])
//!   and is a file, whatever it leads to (`link/` names the directory a link leads to);
//!   a directory is walked;
//! - a directory is listed whole (`Listing files 'dir':`), each directory's entries by
//!   name: subdirectories are walked, every symbolic link must be allowed whatever it is
//!   named and is never followed into a directory, regular files and named pipes are
//!   files, anything else (a socket, a device) is refused;
//! - a regular file is read at once; anything else (a named pipe, what an allowed link
//!   leads to) is read only when its contents are needed, as the reference opens it: a
//!   `-f` file when it is a template (the run asks for it: `cmd::reader`), a data values
//!   file always. What is read is a regular file or a named pipe, never a device, and at
//!   most [`MAX_INPUT_BYTES`].
//!
//! Paths are text: bytes that are not UTF-8 (a file name, an argument) are carried
//! (`ytt::bytestr`) and turned back into the bytes they stand for on disk.

use std::fs;
use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::{anyhow, bail, Result};

use super::outdir::go_clean;
use super::{go_io_error, platform};
use ytt::diagnostic::indent;
pub use ytt::files::SourceFile;
use ytt::files::Unread;

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

/// Reads `r` whole, refusing more than [`MAX_INPUT_BYTES`]; `size` (what the file's
/// metadata says, 0 when unknown) sizes the buffer, so that a large file is not copied as
/// the buffer grows.
fn read_limited(mut r: impl Read, name: &str, size: u64) -> Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(size.min(MAX_INPUT_BYTES) as usize + 1);
    r.by_ref()
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(|e| anyhow!("{}", go_io_error("read", name, &e)))?;
    if buf.len() as u64 > MAX_INPUT_BYTES {
        bail!("{}", too_large(name));
    }
    Ok(buf)
}

fn too_large(name: &str) -> String {
    format!(
        "Expected '{name}' to hold at most {} MiB, but it holds more",
        MAX_INPUT_BYTES >> 20
    )
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

/// A file found on disk, not read yet.
#[derive(Debug)]
pub struct Found {
    /// The name it goes by: its path inside the directory given (`/`-separated), or the
    /// base name of the path given.
    pub rel_path: String,
    /// Its path on disk.
    pub path: String,
    /// A regular file (through a link or not), read at once; anything else is read only
    /// when its contents are needed.
    pub regular: bool,
    /// Its size when it was found (a regular file that is not a link; else 0).
    pub size: u64,
}

impl Found {
    /// The file with its contents when it is a regular file, else unread.
    fn into_source(self) -> Result<SourceFile> {
        if self.regular {
            return Ok(SourceFile::new(self.rel_path, read_shared(&self.path)?));
        }
        // what `data.read()` reports: the reference's error when reading cannot work
        let error = match fs::metadata(platform::path_of_text(&self.path)) {
            Ok(m) if m.is_dir() => read(&self.path).err(),
            _ => None,
        }
        .map_or_else(
            || {
                format!(
                    "File '{}' is not a regular file (a named pipe, or what a link leads to): it is read only when it is a template",
                    self.path
                )
            },
            |e| format!("{e:#}"),
        );
        Ok(SourceFile {
            rel_path: self.rel_path,
            data: Vec::new().into(),
            unread: Some(Unread {
                path: self.path,
                error: error.into(),
            }),
        })
    }
}

/// The files a path given on the command line names: the files of a directory (walked),
/// or the file itself. Errors name the path as the reference does (`Checking file …`,
/// `Checking symlink file …`, `Listing files …`).
pub fn find(path: &str, opts: &SourceOptions) -> Result<Vec<Found>> {
    let disk = platform::path_of_text(path);
    let lmeta = fs::symlink_metadata(&disk)
        .map_err(|e| anyhow!("Checking file '{path}': {}", go_io_error("lstat", path, &e)))?;
    let link = lmeta.file_type().is_symlink();
    if link {
        check_symlink(path, opts)?;
    }
    if link {
        // a file, whatever it leads to, as in a directory: never walked into (a
        // dangling link fails when it is read, if it is)
        let regular = fs::metadata(&disk).is_ok_and(|m| m.is_file());
        return Ok(vec![Found {
            rel_path: base_name(path),
            path: path.to_owned(),
            regular,
            size: 0,
        }]);
    }
    if lmeta.is_dir() {
        let mut found = Vec::new();
        list_dir(path, "", opts, &mut found)
            .map_err(|e| anyhow!("Listing files '{path}':\n{}", indent(&format!("{e:#}"), 2)))?;
        // each directory's files in the order of their relative paths
        found.sort_by(|a, b| a.rel_path.cmp(&b.rel_path));
        return Ok(found);
    }
    let ft = lmeta.file_type();
    if !ft.is_file() && !platform::is_fifo(&ft) {
        bail!("Expected file '{path}' to be a regular file, but was not");
    }
    Ok(vec![Found {
        rel_path: base_name(path),
        path: path.to_owned(),
        regular: ft.is_file(),
        size: file_size(&lmeta),
    }])
}

/// The size of a regular file (not a link), else 0 (`Found::size`).
fn file_size(meta: &fs::Metadata) -> u64 {
    if meta.file_type().is_file() {
        meta.len()
    } else {
        0
    }
}

/// Lists the files under directory `dir` into `out` (see the module's rules), named
/// `rel_prefix/…`.
fn list_dir(dir: &str, rel_prefix: &str, opts: &SourceOptions, out: &mut Vec<Found>) -> Result<()> {
    let entries = fs::read_dir(platform::path_of_text(dir))
        .map_err(|e| anyhow!("{}", go_io_error("open", dir, &e)))?;
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| anyhow!("{}", go_io_error("readdirent", dir, &e)))?;
        names.push(platform::text_of_os(&entry.file_name()));
    }
    names.sort_by(|a, b| ytt::bytestr::encode(a).cmp(&ytt::bytestr::encode(b)));
    for name in names {
        // (joined as Go's `filepath.Join`: cleaned)
        let path = go_clean(&format!("{dir}/{name}"));
        let rel_path = if rel_prefix.is_empty() {
            name
        } else {
            format!("{rel_prefix}/{name}")
        };
        let disk = platform::path_of_text(&path);
        let lmeta = fs::symlink_metadata(&disk).map_err(|e| {
            anyhow!(
                "Checking file '{path}': {}",
                go_io_error("lstat", &path, &e)
            )
        })?;
        let ft = lmeta.file_type();
        let regular = if ft.is_dir() {
            list_dir(&path, &rel_path, opts, out)?;
            continue;
        } else if ft.is_symlink() {
            // never followed into a directory
            check_symlink(&path, opts)?;
            fs::metadata(&disk).is_ok_and(|m| m.is_file())
        } else if ft.is_file() || platform::is_fifo(&ft) {
            ft.is_file()
        } else {
            bail!("Expected file '{path}' to be a regular file, but was not");
        };
        out.push(Found {
            rel_path,
            path,
            regular,
            size: file_size(&lmeta),
        });
    }
    Ok(())
}

/// Reads a file: a regular file or a named pipe (through a link or not), never a
/// directory or a device, and no more than [`MAX_INPUT_BYTES`]. Errors are the
/// reference's (`open x: no such file or directory`, `read x: is a directory`).
pub fn read(path: &str) -> Result<Vec<u8>> {
    let (f, size) = open_to_read(path)?;
    read_limited(f, path, size).map_err(|e| anyhow!("Reading file '{path}': {e:#}"))
}

/// [`read`], into the shared buffer a [`SourceFile`] holds: a file of the size its
/// metadata gives is read straight into it, not into a buffer copied after (that was
/// fresh memory twice over for every byte read).
fn read_shared(path: &str) -> Result<Arc<[u8]>> {
    let (mut f, size) = open_to_read(path)?;
    let n = match usize::try_from(size) {
        Ok(n) if n > 0 && size <= MAX_INPUT_BYTES => n,
        _ => return read(path).map(Into::into),
    };
    let io =
        |e: std::io::Error| anyhow!("Reading file '{path}': {}", go_io_error("read", path, &e));
    // SAFETY: zeroed bytes are initialised `u8`s
    let mut buf = unsafe { Arc::<[u8]>::new_zeroed_slice(n).assume_init() };
    let Some(bytes) = Arc::get_mut(&mut buf) else {
        return read(path).map(Into::into);
    };
    let filled = fill(&mut f, bytes).map_err(io)?;
    if filled < n {
        // it shrank since its size was taken
        return Ok(buf[..filled].into());
    }
    let mut more = [0u8; 1];
    if f.read(&mut more).map_err(io)? == 0 {
        return Ok(buf);
    }
    // it grew: the rest is read as any stream is, within the same limit
    let mut bytes = [&buf[..], &more[..]].concat();
    f.take(MAX_INPUT_BYTES + 1 - bytes.len() as u64)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        bail!("Reading file '{path}': {}", too_large(path));
    }
    Ok(bytes.into())
}

/// Reads into `buf` until it is full or the input ends: how much was read.
fn fill(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match r.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Opens a file [`read`] may read, and its size as its metadata gives it.
fn open_to_read(path: &str) -> Result<(fs::File, u64)> {
    let f = fs::File::open(platform::path_of_text(path))
        .map_err(|e| anyhow!("{}", go_io_error("open", path, &e)))?;
    let meta = f
        .metadata()
        .map_err(|e| anyhow!("{}", go_io_error("stat", path, &e)))?;
    let ft = meta.file_type();
    if ft.is_dir() {
        let e = std::io::Error::from(std::io::ErrorKind::IsADirectory);
        bail!("{}", go_io_error("read", path, &e));
    }
    if !ft.is_file() && !platform::is_fifo(&ft) {
        bail!("Expected file '{path}' to be a regular file, but was not");
    }
    Ok((f, meta.len()))
}

/// Collects the files named by `-f` arguments, in command-line order (each directory's
/// files sorted by relative path): `path`, `name=path` (one file renamed), `-` (standard
/// input, `stdin.yml` unless named).
pub fn collect(args: &[String], opts: &SourceOptions) -> Result<Vec<SourceFile>> {
    collect_listing(args, opts, &mut |_| ())
}

/// [`collect`], showing `listed` the files of each argument once they are found, before
/// they are read.
pub fn collect_listing(
    args: &[String],
    opts: &SourceOptions,
    listed: &mut dyn FnMut(&[Found]),
) -> Result<Vec<SourceFile>> {
    let mut out = Vec::new();
    for arg in args {
        collect_one(arg, opts, &mut out, listed)?;
    }
    Ok(out)
}

/// A file argument of `-f` or `--data-values-file`: `path`, or `name=path` (the one file
/// `path` names goes by `name`; an empty name is none).
pub fn split_name(arg: &str) -> Result<(Option<&str>, &str)> {
    let pieces: Vec<&str> = arg.split('=').collect();
    Ok(match pieces.len() {
        1 => (None, arg),
        2 => (Some(pieces[0]).filter(|n| !n.is_empty()), pieces[1]),
        _ => bail!(
            "Expected file '{arg}' to only have single '=' sign to for relative path assignment"
        ),
    })
}

/// The files `path` names (see [`find`]), the one file it names itself going by `name`
/// when one is given (a directory's files keep theirs).
pub fn find_named(name: Option<&str>, path: &str, opts: &SourceOptions) -> Result<Vec<Found>> {
    let mut found = find(path, opts)?;
    if let (Some(name), [single]) = (name, found.as_mut_slice()) {
        if single.path == path {
            single.rel_path = name.to_owned();
        }
    }
    Ok(found)
}

fn collect_one(
    arg: &str,
    opts: &SourceOptions,
    out: &mut Vec<SourceFile>,
    listed: &mut dyn FnMut(&[Found]),
) -> Result<()> {
    let (name, path) = split_name(arg)?;

    if path == "-" {
        let name = name.unwrap_or(STDIN_NAME).to_owned();
        let data = read_stdin().map_err(|e| anyhow!("Reading file '{name}':\n  {e}"))?;
        out.push(SourceFile::new(name, data));
        return Ok(());
    }

    refuse_url(path)?;
    let found = find_named(name, path, opts)?;
    listed(&found);
    for f in found {
        out.push(f.into_source()?);
    }
    Ok(())
}

/// A `-f` path that is a URL: this ytt does not fetch files.
pub fn refuse_url(path: &str) -> Result<()> {
    if path.starts_with("http://") || path.starts_with("https://") {
        bail!(
            "Reading URL '{path}': fetching files over HTTP(S) is not supported by this ytt (no network access); download the file and pass its local path"
        );
    }
    Ok(())
}

/// The files a `--data-values-file` path names (see [`find_named`]): the file given, or
/// a directory's files — every file directly in it, whatever its name, and the YAML files
/// (`.yml`, `.yaml`) of its subdirectories, as the reference takes them (a `.txt` or
/// `.toml` beside the YAML files is read as YAML, and fails as such).
pub fn find_values_files(
    name: Option<&str>,
    path: &str,
    opts: &SourceOptions,
) -> Result<Vec<Found>> {
    let found = find_named(name, path, opts)?;
    let given = matches!(found.as_slice(), [f] if f.path == path);
    let is_yaml = |name: &str| name.ends_with(".yml") || name.ends_with(".yaml");
    // a listed file's relative path is under the directory given
    let direct = |rel: &str| !rel.contains('/');
    Ok(found
        .into_iter()
        .filter(|f| given || direct(&f.rel_path) || is_yaml(&f.rel_path))
        .collect())
}

/// The file a `--data-value-file` path names (see [`find`]): the file given, or the one
/// file of a directory holding one, as in the reference.
pub fn find_value_file(path: &str, opts: &SourceOptions) -> Result<Found> {
    let found = find(path, opts)
        .map_err(|e| anyhow!("Finding file '{path}':\n{}", indent(&format!("{e:#}"), 2)))?;
    match <[Found; 1]>::try_from(found) {
        Ok([file]) => Ok(file),
        Err(_) => bail!("Expected '{path}' to be a file, but is a directory"),
    }
}

fn base_name(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    match trimmed.rsplit('/').next() {
        Some(b) if !b.is_empty() => b.to_owned(),
        _ => path.to_owned(),
    }
}

/// The symlink policy, for every link met, given or found in a directory: a link is
/// followed when every destination is allowed, when it leads to a named pipe
/// (`/dev/stdin`, process substitution `<(cmd)`), or when its destination — resolved as
/// Go's `filepath.EvalSymlinks` resolves it, and made absolute — is an allowed
/// destination or inside one (each made absolute, not resolved). The errors are the
/// reference's, naming the destination as resolved (`'in/l1' -> 'in'`).
fn check_symlink(path: &str, opts: &SourceOptions) -> Result<()> {
    if opts.allow_all_symlink_destinations {
        return Ok(());
    }
    if fs::metadata(platform::path_of_text(path)).is_ok_and(|m| platform::is_fifo(&m.file_type())) {
        return Ok(());
    }
    let fail = |msg: String| anyhow!("Checking symlink file '{path}':\n{}", indent(&msg, 2));
    let dest = eval_symlinks(path).map_err(|e| match e {
        // (the reference puts an error that is not an I/O error on a line of its own)
        Eval::TooManyLinks => fail("Eval symlink:\n  EvalSymlinks: too many links".into()),
        Eval::Io(e) => fail(format!("Eval symlink: {e}")),
    })?;
    let at = absolute(&dest);
    let allowed = opts.allow_symlink_destinations.iter().any(|a| {
        let a = absolute(a);
        a == "/" || at == a || at.strip_prefix(&a).is_some_and(|r| r.starts_with('/'))
    });
    if allowed {
        return Ok(());
    }
    Err(fail(format!(
        "Expected symlink file '{path}' -> '{dest}' to be allowed, but was not (hint: symlinks are disallowed as a security feature, use '--allow-symlink-destination' flags to override)"
    )))
}

/// Why a link's destination could not be resolved.
enum Eval {
    TooManyLinks,
    Io(String),
}

/// Go's `filepath.EvalSymlinks`: `path` with the links on its way replaced by their
/// destinations, one component at a time (a relative destination replaces the link's
/// name), then cleaned; relative when `path` is and no destination is absolute. A `..`
/// removes the component before it, except where none is left (it is kept: `in/..`),
/// and the error names the path built so far (`lstat in/../t.yml`).
fn eval_symlinks(path: &str) -> Result<String, Eval> {
    const MAX_LINKS: usize = 255;
    let root = |p: &str| usize::from(p.starts_with('/'));
    let mut vol_len = root(path);
    let mut dest = path[..vol_len].to_owned();
    let mut rest = path[vol_len..].to_owned();
    let mut links = 0;
    loop {
        let trimmed = rest.trim_start_matches('/');
        let Some(part) = trimmed.split('/').next().filter(|p| !p.is_empty()) else {
            break;
        };
        let part = part.to_owned();
        let after = trimmed[part.len()..].to_owned();
        rest.clone_from(&after);
        if part == "." {
            continue;
        }
        if part == ".." {
            match dest[vol_len..].rfind('/').map(|r| r + vol_len) {
                Some(r) if &dest[r + 1..] != ".." => dest.truncate(r),
                _ => {
                    if dest.len() > vol_len {
                        dest.push('/');
                    }
                    dest.push_str("..");
                }
            }
            continue;
        }
        if !dest.is_empty() && !dest.ends_with('/') {
            dest.push('/');
        }
        dest.push_str(&part);
        let disk = platform::path_of_text(&dest);
        let meta =
            fs::symlink_metadata(&disk).map_err(|e| Eval::Io(go_io_error("lstat", &dest, &e)))?;
        if !meta.file_type().is_symlink() {
            if !meta.is_dir() && !after.trim_start_matches('/').is_empty() {
                return Err(Eval::Io("not a directory".into()));
            }
            continue;
        }
        links += 1;
        if links > MAX_LINKS {
            return Err(Eval::TooManyLinks);
        }
        let target =
            fs::read_link(&disk).map_err(|e| Eval::Io(go_io_error("readlink", &dest, &e)))?;
        let target = platform::text_of_os(target.as_os_str());
        rest = format!("{target}{after}");
        if target.starts_with('/') {
            dest = "/".into();
            vol_len = 1;
        } else {
            // the link's name is replaced by its destination
            let r = dest[vol_len..].rfind('/').map_or(vol_len, |r| r + vol_len);
            dest.truncate(r);
        }
    }
    Ok(go_clean(&dest))
}

/// `path` made absolute from the current directory, cleaned (links are not resolved).
fn absolute(path: &str) -> String {
    if path.starts_with('/') {
        return go_clean(path);
    }
    let cwd = std::env::current_dir()
        .map(|d| platform::text_of_os(d.as_os_str()))
        .unwrap_or_default();
    go_clean(&format!("{cwd}/{path}"))
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

    /// A file is read whole into the buffer a source file keeps, whatever its size; the
    /// files of an argument are listed (with their sizes) before they are read.
    #[test]
    fn files_are_read_whole_and_listed_first() {
        let tmp = tempfile::tempdir().unwrap();
        let big: Vec<u8> = (0..200_000u32).map(|i| b'a' + (i % 26) as u8).collect();
        std::fs::write(tmp.path().join("big.yml"), &big).unwrap();
        std::fs::write(tmp.path().join("empty.yml"), b"").unwrap();
        std::fs::write(tmp.path().join("small.yml"), b"a: 1\n").unwrap();
        let dir = tmp.path().to_str().unwrap().to_owned();
        let mut lists = Vec::new();
        let files = collect_listing(&[dir], &SourceOptions::default(), &mut |found| {
            lists.push(
                found
                    .iter()
                    .map(|f| (f.rel_path.clone(), f.size))
                    .collect::<Vec<_>>(),
            );
        })
        .unwrap();
        assert_eq!(
            lists,
            [[
                ("big.yml".to_owned(), 200_000),
                ("empty.yml".to_owned(), 0),
                ("small.yml".to_owned(), 5)
            ]]
        );
        let data: Vec<&[u8]> = files.iter().map(|f| &*f.data).collect();
        assert_eq!(data, [&big[..], b"", b"a: 1\n"]);
        let err = read_shared(&format!("{}/none.yml", tmp.path().display())).unwrap_err();
        assert!(
            err.to_string().contains("no such file or directory"),
            "{err}"
        );
    }

    /// A file that changed between its size being taken and its end: what it holds.
    #[test]
    fn a_file_is_read_to_its_end_whatever_its_size_said() {
        let mut short = std::io::Cursor::new(b"abc".to_vec());
        let mut buf = [0u8; 5];
        assert_eq!(fill(&mut short, &mut buf).unwrap(), 3);
        assert_eq!(&buf[..3], b"abc");
        let mut long = std::io::Cursor::new(b"abcdefg".to_vec());
        assert_eq!(fill(&mut long, &mut buf).unwrap(), 5);
        assert_eq!(&buf, b"abcde");
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

    /// A directory given to `--data-values-file` stands for every file directly in it and
    /// the YAML files of its subdirectories; a file given is taken whatever its name. `--data-value-file` takes one file, or the directory
    /// that holds one.
    #[test]
    fn data_value_flags_find_their_files() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("values");
        fs::create_dir_all(dir.join("one")).unwrap();
        fs::create_dir_all(dir.join("two")).unwrap();
        for f in ["a.yml", "b.yaml", "notes.txt", "one/only.txt", "two/c.yml"] {
            fs::write(dir.join(f), "x: 1\n").unwrap();
        }
        let text = |p: &std::path::Path| p.to_str().unwrap().to_owned();
        let names =
            |found: Vec<Found>| -> Vec<String> { found.into_iter().map(|f| f.rel_path).collect() };
        let opts = SourceOptions::default();
        let listed = find_values_files(None, &text(&dir), &opts).unwrap();
        assert_eq!(names(listed), ["a.yml", "b.yaml", "notes.txt", "two/c.yml"]);
        let notes = text(&dir.join("notes.txt"));
        assert_eq!(
            names(find_values_files(None, &notes, &opts).unwrap()),
            ["notes.txt"]
        );
        let named = find_values_files(Some("v.yml"), &notes, &opts).unwrap();
        assert_eq!(names(named), ["v.yml"]);

        let only = find_value_file(&text(&dir.join("one")), &opts).unwrap();
        assert_eq!(only.path, text(&dir.join("one/only.txt")));
        let err = find_value_file(&text(&dir), &opts).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("Expected '{}' to be a file, but is a directory", text(&dir))
        );
    }
}
