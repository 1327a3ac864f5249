//! A library: the files of one directory tree (the root, or a `_ytt_lib/<name>` folder),
//! with path lookups as `load()`, `data.list()` and `data.read()` see them.

use std::sync::Arc;

use crate::files::InputFile;

pub const PRIVATE_LIB_DIR: &str = "_ytt_lib";

#[derive(Debug)]
pub struct Library {
    /// Files of this library, with paths relative to the library root, in input order.
    pub files: Vec<Arc<InputFile>>,
}

impl Library {
    /// The root library: every file not inside a `_ytt_lib` directory.
    pub fn root(files: &[Arc<InputFile>]) -> Self {
        Library {
            files: files
                .iter()
                .filter(|f| !is_private(&f.rel_path))
                .cloned()
                .collect(),
        }
    }

    pub fn find(&self, path: &str) -> Option<&Arc<InputFile>> {
        self.files.iter().find(|f| f.rel_path == path)
    }

    /// `data.list(dir)`: files of the library under `dir` (relative to the library root
    /// when `dir` starts with `/`, which the results then also start with).
    pub fn list(&self, from_dir: &str, dir: &str) -> Vec<String> {
        let absolute = dir.starts_with('/');
        let base = if absolute {
            dir.trim_start_matches('/').to_owned()
        } else {
            join(from_dir, dir)
        };
        let prefix = if base.is_empty() {
            String::new()
        } else {
            format!("{}/", base.trim_end_matches('/'))
        };
        let mut direct = Vec::new();
        let mut nested = Vec::new();
        for f in &self.files {
            let Some(rest) = f.rel_path.strip_prefix(&prefix) else {
                continue;
            };
            let shown = if absolute {
                format!("/{}", f.rel_path)
            } else {
                rest.to_owned()
            };
            if rest.contains('/') {
                nested.push(shown);
            } else {
                direct.push(shown);
            }
        }
        direct.extend(nested);
        direct
    }
}

pub fn is_private(rel_path: &str) -> bool {
    rel_path
        .split('/')
        .any(|segment| segment == PRIVATE_LIB_DIR)
}

/// The directory part of a relative path (`a/b.yml` → `a`, `b.yml` → ``).
pub fn dir_of(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

/// Joins a relative path onto a directory.
pub fn join(dir: &str, path: &str) -> String {
    let path = path.trim_start_matches("./");
    if dir.is_empty() {
        path.to_owned()
    } else if path.is_empty() {
        dir.to_owned()
    } else {
        format!("{dir}/{path}")
    }
}
