//! The files around a document, for the features that follow `load()`: listed from the
//! disk under the document's workspace folder, read from the open documents first.

use std::path::{Path, PathBuf};

use ytt::Modules;

use crate::documents::Documents;
use crate::loading::Workspace;

/// How many files a listing holds at most (a folder with more is listed in part).
const MAX_FILES: usize = 20_000;

/// Calls `f` with the workspace `path` is in: its root library's directory (`root`, when
/// a run that reads it says where that is; else the workspace folder holding it, or its
/// directory), the files under it, and the texts of `docs` over the disk's.
pub fn with_workspace<R>(
    folders: &[PathBuf],
    docs: &Documents,
    modules: &Modules,
    path: &Path,
    root: Option<PathBuf>,
    f: impl FnOnce(&Workspace) -> R,
) -> R {
    let root = root.unwrap_or_else(|| {
        (folders.iter())
            .filter(|d| path.starts_with(d))
            .max_by_key(|d| d.components().count())
            .cloned()
            .or_else(|| path.parent().map(Path::to_path_buf))
            .unwrap_or_default()
    });
    let listed = std::cell::OnceCell::new();
    let files = || -> &[PathBuf] {
        listed.get_or_init(|| {
            let mut files = Vec::new();
            list(&root, &mut files);
            for p in docs.paths() {
                if p.starts_with(&root) && !files.contains(p) {
                    files.push(p.clone());
                }
            }
            files
        })
    };
    let read = |p: &Path| match docs.get(p) {
        Some(d) => Some(d.text.to_string()),
        None => std::fs::read_to_string(p).ok(),
    };
    f(&Workspace {
        root: &root,
        files: &files,
        read: &read,
        modules,
    })
}

/// The files under `dir` (hidden ones and their directories left out).
fn list(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        if out.len() >= MAX_FILES {
            return;
        }
        let path = e.path();
        if e.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        match e.file_type() {
            Ok(t) if t.is_dir() => list(&path, out),
            Ok(_) => out.push(path),
            Err(_) => {}
        }
    }
}
