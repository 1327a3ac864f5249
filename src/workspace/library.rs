//! A library: the files of one directory tree (the root, or a `_ytt_lib/<name>` folder),
//! with path lookups as `load()`, `data.list()` and `data.read()` see them.

use std::sync::Arc;

use crate::files::InputFile;

pub const PRIVATE_LIB_DIR: &str = "_ytt_lib";

/// A file of a library: its path inside the library, and the input file (whose
/// `rel_path`, relative to the root, is what messages show).
#[derive(Debug, Clone)]
pub struct LibFile {
    pub path: String,
    pub file: Arc<InputFile>,
}

#[derive(Debug)]
pub struct Library {
    /// Files of this library (not those of its private libraries), in input order.
    pub files: Vec<LibFile>,
    /// Every file under the library's root, private libraries included.
    all: Vec<LibFile>,
}

impl Library {
    /// The root library: every file not inside a `_ytt_lib` directory.
    pub fn root(files: &[Arc<InputFile>]) -> Self {
        let all: Vec<LibFile> = files
            .iter()
            .map(|f| LibFile {
                path: f.rel_path.clone(),
                file: f.clone(),
            })
            .collect();
        Self::from_all(all)
    }

    fn from_all(all: Vec<LibFile>) -> Self {
        let files = all
            .iter()
            .filter(|f| !is_private(&f.path))
            .cloned()
            .collect();
        Library { files, all }
    }

    /// The private library `_ytt_lib/<path>` next to directory `from_dir`, if it exists.
    pub fn child(&self, from_dir: &str, path: &str) -> Option<Library> {
        let prefix = format!(
            "{}/",
            join(&join(from_dir, PRIVATE_LIB_DIR), path.trim_matches('/'))
        );
        let all: Vec<LibFile> = self
            .all
            .iter()
            .filter_map(|f| {
                f.path.strip_prefix(&prefix).map(|rest| LibFile {
                    path: rest.to_owned(),
                    file: f.file.clone(),
                })
            })
            .collect();
        if all.is_empty() {
            return None;
        }
        Some(Self::from_all(all))
    }

    /// Whether `from_dir` has a `_ytt_lib` directory next to it.
    pub fn has_private_dir(&self, from_dir: &str) -> bool {
        let prefix = format!("{}/", join(from_dir, PRIVATE_LIB_DIR));
        self.all.iter().any(|f| f.path.starts_with(&prefix))
    }

    pub fn find(&self, path: &str) -> Option<&Arc<InputFile>> {
        self.files.iter().find(|f| f.path == path).map(|f| &f.file)
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
            let Some(rest) = f.path.strip_prefix(&prefix) else {
                continue;
            };
            let shown = if absolute {
                format!("/{}", f.path)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::FileKind;

    fn file(path: &str) -> Arc<InputFile> {
        Arc::new(InputFile {
            rel_path: path.to_owned(),
            data: Arc::from(&b""[..]),
            kind: FileKind::YamlTemplate,
            is_library: false,
            for_output: false,
            exclusive_for_output: false,
        })
    }

    #[test]
    fn private_libraries_are_separate() {
        let files = vec![
            file("config.yml"),
            file("_ytt_lib/lib/a.yml"),
            file("_ytt_lib/lib/_ytt_lib/nested/b.yml"),
            file("sub/c.yml"),
        ];
        let root = Library::root(&files);
        assert_eq!(root.list("", ""), vec!["config.yml", "sub/c.yml"]);
        let lib = root.child("", "lib").unwrap();
        assert_eq!(lib.list("", ""), vec!["a.yml"]);
        assert_eq!(lib.find("a.yml").unwrap().rel_path, "_ytt_lib/lib/a.yml");
        let nested = lib.child("", "nested").unwrap();
        assert_eq!(nested.list("", ""), vec!["b.yml"]);
        assert!(root.child("sub", "lib").is_none());
        assert!(root.has_private_dir(""));
    }
}
