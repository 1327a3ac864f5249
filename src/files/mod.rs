//! Input files as the engine takes them: in memory, with their kinds and file marks.
//!
//! - [`marks`]: `--file-mark path:key=value`.
//! - [`bulk`]: `--bulk-in` / `--bulk-out` JSON.
//! - `library`: a library's files (the root's, or a `_ytt_lib/<name>` folder's) and
//!   paths in it, as `load()`, `data.list()` and `data.read()` see them.
//!
//! Finding and reading files (paths, directories, standard input, symlink rules) and
//! writing output directories belong to the command line (`ytt-cli`).

pub mod bulk;
pub(crate) mod library;
pub mod marks;

use std::sync::Arc;

/// A file as found on the command line (or in `--bulk-in`), before file marks.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The relative path it was found under: the path inside its `-f` directory, the base
    /// name of a single file, `stdin.yml`, or the name of `name=path`. `/`-separated.
    pub rel_path: String,
    pub data: Arc<[u8]>,
    /// Set when `data` has not been read (see [`Unread`]).
    pub unread: Option<Unread>,
}

impl SourceFile {
    pub fn new(rel_path: impl Into<String>, data: impl Into<Arc<[u8]>>) -> SourceFile {
        SourceFile {
            rel_path: rel_path.into(),
            data: data.into(),
            unread: None,
        }
    }
}

/// A file whose contents were not read when it was found: one that is not a regular file
/// (a named pipe, what an allowed link leads to), which the reference opens only when its
/// contents are needed. The host reads it when it is a template (by its kind, after file
/// marks); a data file is read by `data.read()` only, which cannot read here and reports
/// `error`.
#[derive(Clone, Debug)]
pub struct Unread {
    /// Where the host finds it.
    pub path: String,
    /// What `data.read()` of it reports.
    pub error: Arc<str>,
}

/// How a file takes part in a run (by extension, or by `--file-mark type=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    YamlTemplate,
    YamlPlain,
    TextTemplate,
    TextPlain,
    Starlark,
    Data,
}

impl FileKind {
    /// The kind a file has by the extension of its relative path (§2.1): `.yml`/`.yaml`
    /// YAML template, `.txt` text template, `.star` Starlark, anything else data.
    pub fn from_path(rel_path: &str) -> FileKind {
        match extension(rel_path) {
            Some("yml") | Some("yaml") => FileKind::YamlTemplate,
            Some("txt") => FileKind::TextTemplate,
            Some("star") => FileKind::Starlark,
            _ => FileKind::Data,
        }
    }

    /// The kind named by `--file-mark path:type=<name>`.
    pub fn from_mark_name(name: &str) -> Option<FileKind> {
        Some(match name {
            "yaml-template" => FileKind::YamlTemplate,
            "yaml-plain" => FileKind::YamlPlain,
            "text-template" => FileKind::TextTemplate,
            "text-plain" => FileKind::TextPlain,
            "starlark" => FileKind::Starlark,
            "data" => FileKind::Data,
            _ => return None,
        })
    }

    pub fn is_yaml(self) -> bool {
        matches!(self, FileKind::YamlTemplate | FileKind::YamlPlain)
    }

    pub fn is_text(self) -> bool {
        matches!(self, FileKind::TextTemplate | FileKind::TextPlain)
    }
}

/// The last `.`-extension of the file name of `rel_path`, without the dot.
fn extension(rel_path: &str) -> Option<&str> {
    let base = base_name(rel_path);
    base.rfind('.').map(|i| &base[i + 1..])
}

fn base_name(rel_path: &str) -> &str {
    rel_path.rsplit('/').next().unwrap_or(rel_path)
}

/// A library file, never an output of its own: `.star` by extension (still run for its
/// effects, see `workspace::execution::library_outputs`), or a file whose second-to-last
/// extension is `lib` (`x.lib.yml`, `x.lib.yaml`, `x.lib.txt`: evaluated only when
/// `load()`ed). Decided by the path, never by a `type=` mark.
pub fn is_library_path(rel_path: &str) -> bool {
    let base = base_name(rel_path);
    let parts: Vec<&str> = base.split('.').collect();
    if parts.len() > 2 && parts[parts.len() - 2] == "lib" {
        return matches!(parts[parts.len() - 1], "yml" | "yaml" | "txt");
    }
    extension(rel_path) == Some("star")
}

/// True for a file inside a private library directory (`_ytt_lib`, at any depth).
pub fn is_private_path(rel_path: &str) -> bool {
    let mut comps: Vec<&str> = rel_path.split('/').collect();
    comps.pop();
    comps.contains(&"_ytt_lib")
}

#[derive(Clone, Debug)]
pub struct InputFile {
    /// Path relative to its `-f` root (or as named by `name=path`), `/`-separated.
    pub rel_path: String,
    pub data: Arc<[u8]>,
    pub kind: FileKind,
    /// A library file (`.star`, `*.lib.yml`, `*.lib.yaml`, `*.lib.txt`): evaluated only when loaded.
    pub is_library: bool,
    /// `--file-mark path:for-output=true`.
    pub for_output: bool,
    /// `--file-mark path:exclusive-for-output=true`.
    pub exclusive_for_output: bool,
    /// Set when `data` has not been read (see [`Unread`]).
    pub unread: Option<Unread>,
}

impl InputFile {
    /// A file of the kind its path says, unmarked.
    pub fn new(rel_path: impl Into<String>, data: impl Into<Arc<[u8]>>) -> InputFile {
        let rel_path = rel_path.into();
        InputFile {
            kind: FileKind::from_path(&rel_path),
            is_library: is_library_path(&rel_path),
            rel_path,
            data: data.into(),
            for_output: false,
            exclusive_for_output: false,
            unread: None,
        }
    }
}

/// The files of the root library, as `--files-inspect` lists them: in input order (a
/// directory's files in the order of its walk, by name), those inside `_ytt_lib` left
/// out. Returns indices into `rel_paths`.
pub fn accessible_order<S: AsRef<str>>(rel_paths: &[S]) -> Vec<usize> {
    (0..rel_paths.len())
        .filter(|&i| !is_private_path(rel_paths[i].as_ref()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_extension() {
        assert_eq!(FileKind::from_path("a/b.yml"), FileKind::YamlTemplate);
        assert_eq!(FileKind::from_path("b.yaml"), FileKind::YamlTemplate);
        assert_eq!(FileKind::from_path("b.txt"), FileKind::TextTemplate);
        assert_eq!(FileKind::from_path("b.star"), FileKind::Starlark);
        assert_eq!(FileKind::from_path("b.json"), FileKind::Data);
        assert_eq!(FileKind::from_path("x.yml/b"), FileKind::Data);
        assert!(is_library_path("a/x.lib.yml"));
        assert!(is_library_path("x.lib.txt"));
        assert!(is_library_path("x.star"));
        assert!(!is_library_path("lib.yml"));
        assert!(!is_library_path("x.lib.json"));
        assert!(!is_library_path("x.yml"));
    }

    #[test]
    fn private_paths() {
        assert!(is_private_path("_ytt_lib/a/x.yml"));
        assert!(is_private_path("d/_ytt_lib/x.yml"));
        assert!(!is_private_path("_ytt_lib"));
        assert!(!is_private_path("a/x.yml"));
    }

    #[test]
    fn accessible_order_keeps_input_order_without_private_files() {
        let paths = [
            "a/x.yml",
            "b.yml",
            "_ytt_lib/l/y.yml",
            "a/b/z.yml",
            "c.yml",
            "a/w.yml",
        ];
        let order: Vec<&str> = accessible_order(&paths)
            .into_iter()
            .map(|i| paths[i])
            .collect();
        assert_eq!(order, ["a/x.yml", "b.yml", "a/b/z.yml", "c.yml", "a/w.yml"]);
    }
}
