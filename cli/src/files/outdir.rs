//! Writing output files under a directory (`--output-files`,
//! `--dangerous-emptied-output-directory`).
//!
//! Everything is checked before the disk is touched: every output path must be relative
//! and stay inside the directory, no two files may share a destination, and the emptied
//! directory may not be `/`, `.` or the current directory (or one of its parents). If
//! writing fails midway, what this run created is removed again.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Result};

use super::go_io_error;
use super::platform::{self, path_of_text};

/// Refuses an output relative path that is empty, absolute or climbs out of the output
/// directory with `..`.
pub fn check_output_rel_path(rel_path: &str) -> Result<()> {
    if rel_path.is_empty() {
        bail!("Expected output file path to be non-empty");
    }
    if rel_path.contains('\0') {
        bail!("Expected output file path '{rel_path}' to not contain NUL characters");
    }
    if rel_path.starts_with('/') || rel_path.starts_with('\\') {
        bail!("Expected output file path '{rel_path}' to be relative, but it is absolute (refusing to write outside of the output directory)");
    }
    let cleaned = go_clean(&rel_path.replace('\\', "/"));
    if cleaned == ".." || cleaned.starts_with("../") {
        bail!("Expected output file path '{rel_path}' to stay inside the output directory, but it climbs out with '..'");
    }
    if cleaned == "." {
        bail!("Expected output file path '{rel_path}' to name a file inside the output directory");
    }
    Ok(())
}

/// `filepath.Join(dir, rel)` of Go: joined with `/` and cleaned.
pub fn go_join(dir: &str, rel: &str) -> String {
    let joined = match (dir.is_empty(), rel.is_empty()) {
        (true, _) => rel.to_owned(),
        (false, true) => dir.to_owned(),
        _ => format!("{dir}/{rel}"),
    };
    go_clean(&joined)
}

/// `path.Clean` of Go.
pub fn go_clean(p: &str) -> String {
    if p.is_empty() {
        return ".".to_owned();
    }
    let rooted = p.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for c in p.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|l| *l != "..") {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                }
            }
            c => parts.push(c),
        }
    }
    let body = parts.join("/");
    match (rooted, body.is_empty()) {
        (true, _) => format!("/{body}"),
        (false, true) => ".".to_owned(),
        (false, false) => body,
    }
}

/// A set of output files to be written under `dir`.
pub struct OutputDirectory {
    pub dir: String,
    /// `(relative path, content)`, in writing order.
    pub files: Vec<(String, Vec<u8>)>,
    /// `--dangerous-emptied-output-directory`: remove `dir` first.
    pub empty_first: bool,
}

impl OutputDirectory {
    /// Checks everything that can be checked without writing.
    pub fn check(&self) -> Result<()> {
        if self.empty_first {
            check_emptiable(&self.dir)?;
        }
        let mut seen = std::collections::HashSet::new();
        for (rel, _) in &self.files {
            check_output_rel_path(rel)?;
            let dest = go_join(&self.dir, rel);
            if !seen.insert(dest.clone()) {
                bail!("Multiple files have same output destination paths: {dest}");
            }
            if !self.empty_first {
                refuse_links_inside(&self.dir, rel)?;
            }
        }
        Ok(())
    }

    /// Writes the files (after [`check`](Self::check)); returns the `creating: <path>` lines.
    pub fn write(&self) -> Result<String> {
        self.check()?;
        let mut created: Vec<PathBuf> = Vec::new();
        let result = self.write_inner(&mut created);
        if result.is_err() {
            if self.empty_first {
                let _ = fs::remove_dir_all(path_of_text(&self.dir));
            } else {
                for p in created.iter().rev() {
                    if p.is_dir() {
                        let _ = fs::remove_dir(p);
                    } else {
                        let _ = fs::remove_file(p);
                    }
                }
            }
        }
        result
    }

    fn write_inner(&self, created: &mut Vec<PathBuf>) -> Result<String> {
        if self.empty_first {
            match fs::remove_dir_all(path_of_text(&self.dir)) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => bail!(
                    "Removing output directory: {}",
                    go_io_error("unlinkat", &self.dir, &e)
                ),
            }
        }
        create_dirs(&path_of_text(&self.dir), created)?;
        let mut log = String::new();
        for (rel, content) in &self.files {
            let dest = go_join(&self.dir, rel);
            log.push_str(&format!("creating: {dest}\n"));
            let dest_path = path_of_text(&dest);
            if let Some(parent) = dest_path.parent() {
                create_dirs(parent, created)?;
            }
            // checked again as the file is written: an earlier file's directory is known
            refuse_links_inside(&self.dir, rel)?;
            let existed = dest_path.exists();
            let mut f = platform::private_file(
                fs::OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(true),
            )
            .open(&dest_path)
            .map_err(|e| anyhow!("Writing file '{dest}': {}", go_io_error("open", &dest, &e)))?;
            if !existed {
                created.push(dest_path.clone());
            }
            f.write_all(content).map_err(|e| {
                anyhow!("Writing file '{dest}': {}", go_io_error("write", &dest, &e))
            })?;
        }
        Ok(log)
    }
}

/// Refuses to write `rel` under `dir` through a symbolic link inside `dir` (a directory
/// on the way, or the file itself): it could lead anywhere. `dir` itself may be a link.
fn refuse_links_inside(dir: &str, rel: &str) -> Result<()> {
    let mut path = dir.to_owned();
    for part in go_clean(rel).split('/') {
        path = format!("{}/{part}", path.trim_end_matches('/'));
        match fs::symlink_metadata(path_of_text(&path)) {
            Ok(m) if m.file_type().is_symlink() => bail!(
                "Expected output path '{path}' to not be a symbolic link (refusing to write through it, outside of the output directory)"
            ),
            Ok(_) => {}
            // nothing there yet: nothing below it either
            Err(_) => return Ok(()),
        }
    }
    Ok(())
}

fn create_dirs(dir: &Path, created: &mut Vec<PathBuf>) -> Result<()> {
    if dir.as_os_str().is_empty() || dir.is_dir() {
        return Ok(());
    }
    if let Some(parent) = dir.parent() {
        create_dirs(parent, created)?;
    }
    platform::private_dir(&mut fs::DirBuilder::new())
        .create(dir)
        .or_else(|e| {
            if dir.is_dir() {
                Ok(())
            } else {
                let d = dir.to_string_lossy();
                Err(anyhow!(
                    "Creating directory '{d}': {}",
                    go_io_error("mkdir", &d, &e)
                ))
            }
        })?;
    created.push(dir.to_path_buf());
    Ok(())
}

/// The emptied directory may not be `/`, `.`, `./`, empty, nor (once resolved) the root,
/// the current directory or one of its parents.
fn check_emptiable(dir: &str) -> Result<()> {
    let refuse = || {
        anyhow!("Expected output directory path to not be one of '/', '.', './', '' or a parent of the current directory, but was '{dir}'")
    };
    if matches!(dir, "/" | "." | "./" | "") {
        return Err(refuse());
    }
    let cleaned = go_clean(dir);
    if cleaned == "/" || cleaned == "." || cleaned.split('/').all(|c| c == "..") {
        return Err(refuse());
    }
    if let (Ok(target), Ok(cwd)) = (fs::canonicalize(path_of_text(dir)), std::env::current_dir()) {
        let cwd = fs::canonicalize(&cwd).unwrap_or(cwd);
        if target == Path::new("/") || cwd.starts_with(&target) {
            return Err(refuse());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_and_join() {
        assert_eq!(go_join("out/", "a.yml"), "out/a.yml");
        assert_eq!(go_join("./out", "x/../a.yml"), "out/a.yml");
        assert_eq!(go_join("/tmp/o", "a/b.txt"), "/tmp/o/a/b.txt");
        assert_eq!(go_clean("../a/.."), "..");
        assert_eq!(go_clean("/.."), "/");
    }

    #[test]
    fn rel_paths() {
        assert!(check_output_rel_path("a/b.yml").is_ok());
        assert!(check_output_rel_path("/etc/x").is_err());
        assert!(check_output_rel_path("../x").is_err());
        assert!(check_output_rel_path("a/../../x").is_err());
        assert!(check_output_rel_path("a/../x").is_ok());
        assert!(check_output_rel_path("a/..").is_err());
        assert!(check_output_rel_path("").is_err());
    }

    #[test]
    fn refused_dirs() {
        for d in ["/", ".", "./", "", "..", "a/..", "/.."] {
            assert!(check_emptiable(d).is_err(), "{d}");
        }
    }

    fn files(list: &[(&str, &str)]) -> Vec<(String, Vec<u8>)> {
        list.iter()
            .map(|(n, c)| (n.to_string(), c.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn writes_nested_files_and_logs() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out").to_string_lossy().into_owned();
        let od = OutputDirectory {
            dir: format!("{dir}/"),
            files: files(&[("t.txt", "text"), ("a/b.yml", "b: 1\n")]),
            empty_first: false,
        };
        let log = od.write().unwrap();
        assert_eq!(
            log,
            format!("creating: {dir}/t.txt\ncreating: {dir}/a/b.yml\n")
        );
        assert_eq!(
            fs::read_to_string(format!("{dir}/a/b.yml")).unwrap(),
            "b: 1\n"
        );
        assert_eq!(fs::read_to_string(format!("{dir}/t.txt")).unwrap(), "text");
    }

    #[test]
    fn emptied_directory_loses_old_files() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        fs::create_dir_all(dir.join("old")).unwrap();
        fs::write(dir.join("old/x.yml"), "x").unwrap();
        let od = OutputDirectory {
            dir: dir.to_string_lossy().into_owned(),
            files: files(&[("n.yml", "n: 1\n")]),
            empty_first: true,
        };
        od.write().unwrap();
        assert!(!dir.join("old").exists());
        assert!(dir.join("n.yml").exists());
    }

    #[test]
    fn refusals_happen_before_writing() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("keep.yml"), "k").unwrap();
        let dir_s = dir.to_string_lossy().into_owned();
        for (list, msg) in [
            (
                vec![("a.yml", ""), ("x/../a.yml", "")],
                "Multiple files have same output destination paths",
            ),
            (
                vec![("a.yml", ""), ("../escape.yml", "")],
                "climbs out with '..'",
            ),
            (vec![("a.yml", ""), ("/etc/x.yml", "")], "to be relative"),
        ] {
            let od = OutputDirectory {
                dir: dir_s.clone(),
                files: files(&list),
                empty_first: true,
            };
            let err = od.write().unwrap_err().to_string();
            assert!(err.contains(msg), "{err}");
            assert!(dir.join("keep.yml").exists());
            assert!(!dir.join("a.yml").exists());
        }
        assert!(!tmp.path().join("escape.yml").exists());
    }

    #[test]
    fn failed_write_leaves_nothing_behind() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        // `a` is a file, so `a/b.yml` cannot be created.
        let od = OutputDirectory {
            dir: dir.to_string_lossy().into_owned(),
            files: files(&[("first.yml", "f"), ("a", "x"), ("a/b.yml", "b")]),
            empty_first: false,
        };
        assert!(od.write().is_err());
        assert!(!dir.exists());
    }
}
