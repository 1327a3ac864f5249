//! What a `load()` reaches: the file a module path names (relative to the loading file,
//! `/` from its library's root, `@name:` in a `_ytt_lib/name` of its directory or one
//! above it within its library) and the names a module exports. The files come from the
//! caller (a [`Workspace`]): the server reads the disk and the open documents, the
//! playground its files in memory.

use std::path::{Component, Path, PathBuf};

use ytt::files::FileKind;
use ytt::frontend::syntax;
use ytt::Modules;

use crate::names;
use crate::source::Source;

/// The files a load can reach, and how to read them.
pub struct Workspace<'a> {
    /// The root library's directory (the workspace folder).
    pub root: &'a Path,
    /// Every file under it, listed when a feature first needs them (a hover on a data
    /// value does not: a large folder costs nothing there).
    pub files: &'a dyn Fn() -> &'a [PathBuf],
    /// A file's text (an open document's unsaved text first).
    pub read: &'a dyn Fn(&Path) -> Option<String>,
    /// The `@ytt:` modules the runs register.
    pub modules: &'a Modules,
}

/// The directory of the library `file` is in: below the innermost `_ytt_lib` above it,
/// its first directory (a library named by a longer path, `@github.com/org/lib:`, is
/// found by `resolve` all the same; only `/` paths inside it start from that first
/// directory), or the root.
pub fn library_root(root: &Path, file: &Path) -> PathBuf {
    let mut best = root.to_path_buf();
    let mut at = PathBuf::new();
    let mut comps = file.components().peekable();
    while let Some(c) = comps.next() {
        at.push(c);
        if c.as_os_str() == "_ytt_lib" {
            if let Some(name) = comps.next() {
                at.push(name);
                best = at.clone();
            }
        }
    }
    best
}

/// The `_ytt_lib` directories a file can name a library from: in its directory and each
/// one above it, up to its library's root.
fn library_dirs(ws: &Workspace, file: &Path) -> Vec<PathBuf> {
    let top = library_root(ws.root, file);
    let mut out = Vec::new();
    let mut dir = file.parent();
    while let Some(d) = dir {
        out.push(d.join("_ytt_lib"));
        if d == top || !d.starts_with(&top) {
            break;
        }
        dir = d.parent();
    }
    out
}

/// `a/./b/../c` as `a/c`.
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// The file `module` names when `from` loads it (None for `@ytt:` modules and files
/// that are not there).
pub fn resolve(ws: &Workspace, from: &Path, module: &str) -> Option<PathBuf> {
    if module.starts_with("@ytt:") {
        return None;
    }
    let candidates: Vec<PathBuf> = if let Some(rest) = module.strip_prefix('@') {
        let (lib, path) = rest.split_once(':')?;
        (library_dirs(ws, from).into_iter())
            .map(|d| normal(&d.join(lib).join(path)))
            .collect()
    } else if let Some(rest) = module.strip_prefix('/') {
        vec![normal(&library_root(ws.root, from).join(rest))]
    } else {
        vec![normal(&from.parent()?.join(module))]
    };
    candidates.into_iter().find(|c| (ws.files)().contains(c))
}

/// Can a load name this file (a template or a Starlark file, by the engine's rule)?
pub fn loadable(path: &Path) -> bool {
    matches!(
        FileKind::from_path(&path.to_string_lossy()),
        FileKind::Starlark | FileKind::YamlTemplate | FileKind::TextTemplate
    )
}

/// The libraries `from` can name with `@name:` (their names, with their directories).
pub fn libraries(ws: &Workspace, from: &Path) -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = Vec::new();
    for dir in library_dirs(ws, from) {
        for f in (ws.files)().iter().filter(|f| f.starts_with(&dir)) {
            let Ok(rest) = f.strip_prefix(&dir) else {
                continue;
            };
            // a library's name is its path under `_ytt_lib`: its first directory here
            if let Some(Component::Normal(name)) = rest.components().next() {
                let name = name.to_string_lossy().into_owned();
                if rest.components().count() > 1 && !out.iter().any(|(n, _)| *n == name) {
                    out.push((name, dir.join(rest.components().next().unwrap())));
                }
            }
        }
    }
    out.sort();
    out
}

/// The names module `module` exports when `from` loads it: an `@ytt:` module's members,
/// a file's top-level `def`s and assignments that do not start with `_`.
pub fn exports(ws: &Workspace, from: &Path, module: &str) -> Vec<String> {
    if let Some(name) = module.strip_prefix("@ytt:") {
        return (syntax::module_names(ws.modules).into_iter())
            .filter(|n| n == name)
            .map(|_| name.to_owned())
            .collect();
    }
    let Some(file) = resolve(ws, from, module) else {
        return Vec::new();
    };
    let Some(text) = (ws.read)(&file) else {
        return Vec::new();
    };
    let source = Source::read(&text, &file);
    let mut out: Vec<String> = (names::bindings(&source).into_iter())
        .filter(|b| !b.name.starts_with('_') && top_level(&source, b.range.0))
        .map(|b| b.name)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Is the binding at byte `at` at the top level (its line's code not indented in a
/// `.star` file, the code's first token in a template)?
pub fn top_level(source: &Source, at: usize) -> bool {
    let line_start = source.text[..at].rfind('\n').map_or(0, |n| n + 1);
    let before = &source.text[line_start..at];
    match source.code_at(at) {
        Some(c) if c.start > line_start => source.text[c.start..at].trim() == "def",
        _ => before.is_empty() || before == "def ",
    }
}

/// A workspace under `/w` made of `files` (a path, and its text when it can be read), for
/// the features' tests.
#[cfg(test)]
pub(crate) fn in_memory<R>(
    files: &[(&str, Option<&str>)],
    modules: &Modules,
    f: impl FnOnce(&Workspace) -> R,
) -> R {
    let paths: Vec<PathBuf> = files.iter().map(|(p, _)| PathBuf::from(p)).collect();
    let read = |p: &Path| {
        (files.iter())
            .find(|(f, _)| Path::new(f) == p)
            .and_then(|(_, text)| text.map(str::to_owned))
    };
    let listed = || paths.as_slice();
    f(&Workspace {
        root: Path::new("/w"),
        files: &listed,
        read: &read,
        modules,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_paths_resolve_as_ytt_resolves_them() {
        let files = [
            "/w/a.yml",
            "/w/lib/h.star",
            "/w/_ytt_lib/g/x.lib.yml",
            "/w/_ytt_lib/g/sub/y.star",
        ]
        .map(|p| (p, None));
        in_memory(&files, &Modules::default(), |ws| {
            let from = Path::new("/w/a.yml");
            assert_eq!(
                resolve(ws, from, "lib/h.star"),
                Some("/w/lib/h.star".into())
            );
            assert_eq!(
                resolve(ws, from, "@g:x.lib.yml"),
                Some("/w/_ytt_lib/g/x.lib.yml".into())
            );
            assert_eq!(resolve(ws, from, "@ytt:data"), None);
            // `/` is the library's root
            let inner = Path::new("/w/_ytt_lib/g/sub/y.star");
            assert_eq!(
                resolve(ws, inner, "/x.lib.yml"),
                Some("/w/_ytt_lib/g/x.lib.yml".into())
            );
            assert_eq!(
                resolve(ws, inner, "../x.lib.yml"),
                Some("/w/_ytt_lib/g/x.lib.yml".into())
            );
            assert_eq!(
                libraries(ws, from),
                [("g".to_owned(), PathBuf::from("/w/_ytt_lib/g"))]
            );
            assert!(libraries(ws, inner).is_empty());
        });
    }

    #[test]
    fn a_file_exports_its_public_top_level_names() {
        let files = [("/w/h.star", Some("a = 1\n_b = 2\ndef f():\n  c = 3\nend\n"))];
        in_memory(&files, &Modules::default(), |ws| {
            assert_eq!(exports(ws, Path::new("/w/x.yml"), "h.star"), ["a", "f"]);
        });
    }
}
