//! A library: the files of one directory tree (the root, or a `_ytt_lib/<name>` folder),
//! with path lookups as `load()`, `data.list()` and `data.read()` see them.

use std::sync::Arc;

use super::InputFile;

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

    /// The private library `name` next to directory `from_dir` (`library.get(name)`,
    /// `load("@name:…")`), or the reference's message. A name is a path of directories
    /// under `from_dir/_ytt_lib`, walked one segment at a time: each must name a
    /// directory exactly (so an empty segment, `.` and `..` lead nowhere), and a
    /// library's own `_ytt_lib` is private to it. The messages name the segments found.
    pub fn child(&self, from_dir: &str, name: &str) -> Result<Library, String> {
        let mut dir = join(from_dir, PRIVATE_LIB_DIR);
        let mut found = 0;
        for segment in name.split('/') {
            let found_so_far = &name[..found.max(1) - 1];
            let next = format!("{dir}/{segment}");
            if segment.is_empty() || !self.has_dir(&next) {
                return Err(format!(
                    "Expected to find library '{name}', but did not find '{found_so_far}'"
                ));
            }
            if segment == PRIVATE_LIB_DIR {
                return Err(format!("Could not load private library '{found_so_far}'"));
            }
            found += segment.len() + 1;
            dir = next;
        }
        let prefix = format!("{dir}/");
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
        Ok(Self::from_all(all))
    }

    /// Whether some file of the library (its private libraries' included) is under `dir`.
    fn has_dir(&self, dir: &str) -> bool {
        let prefix = format!("{dir}/");
        self.all.iter().any(|f| f.path.starts_with(&prefix))
    }

    /// Whether `from_dir` has a `_ytt_lib` directory next to it.
    pub fn has_private_dir(&self, from_dir: &str) -> bool {
        self.has_dir(&join(from_dir, PRIVATE_LIB_DIR))
    }

    /// The file at `path` as `load()` and `data.read()` look it up from directory
    /// `from_dir` (see [`Library::walk`]): its path in the library and the file, or the
    /// reference's message.
    pub fn find_from(
        &self,
        from_dir: &str,
        path: &str,
    ) -> Result<(String, &Arc<InputFile>), String> {
        let (base, path) = start(from_dir, path);
        let (dirs, name) = match path.rfind('/') {
            Some(i) => (&path[..i], &path[i + 1..]),
            None => ("", path),
        };
        let walked = match dirs {
            "" if !path.contains('/') => Ok(base.to_owned()),
            dirs => self.walk(base, dirs),
        };
        let dir =
            walked.map_err(|e| format!("Expected to find file '{path}', but did not: {e}"))?;
        let full = join(&dir, name);
        match self.files.iter().find(|f| !name.is_empty() && f.path == full) {
            Some(f) => Ok((full, &f.file)),
            None => Err(format!(
                "Expected to find file '{path}' (hint: only files included via -f flag are available)"
            )),
        }
    }

    /// `data.list(dir)`: every file under `dir` (from `from_dir`, see [`Library::walk`]),
    /// named from there (with a leading `/` when `dir` has one): those directly in it
    /// first, in input order, then those below.
    pub fn list(&self, from_dir: &str, dir: &str) -> Result<Vec<String>, String> {
        let absolute = dir.starts_with('/');
        let (base, dir) = start(from_dir, dir);
        let dir = if dir.is_empty() {
            base.to_owned()
        } else {
            self.walk(base, dir)?
        };
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        let mut direct = Vec::new();
        let mut nested = Vec::new();
        for f in &self.files {
            let Some(rest) = f.path.strip_prefix(&prefix) else {
                continue;
            };
            let shown = if absolute {
                format!("/{rest}")
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
        Ok(direct)
    }

    /// The directory that `dirs` (pieces separated by `/`) lead to from directory `base`,
    /// one piece at a time as the reference walks them: each must name a directory of the
    /// library exactly (so `.`, `..` and an empty piece lead nowhere), and a private
    /// library is never entered. The error names the pieces that led somewhere:
    /// `Did not find 'a'` for `a/b` without `a/b`.
    fn walk(&self, base: &str, dirs: &str) -> Result<String, String> {
        let mut dir = base.to_owned();
        let mut walked = 0;
        for piece in dirs.split('/') {
            if piece == PRIVATE_LIB_DIR {
                return Err(format!("Encountered private library '{PRIVATE_LIB_DIR}'"));
            }
            let next = join(&dir, piece);
            let prefix = format!("{next}/");
            let exists = !piece.is_empty()
                && piece != "."
                && piece != ".."
                && self.files.iter().any(|f| f.path.starts_with(&prefix));
            if !exists {
                return Err(format!("Did not find '{}'", &dirs[..walked.max(1) - 1]));
            }
            walked += piece.len() + 1;
            dir = next;
        }
        Ok(dir)
    }
}

/// Where a lookup starts: the library root for a path with a leading `/` (one `/` taken
/// off, as the reference does), else directory `from_dir`; and the path from there.
fn start<'p>(from_dir: &'p str, path: &'p str) -> (&'p str, &'p str) {
    match path.strip_prefix('/') {
        Some(rest) => ("", rest),
        None => (from_dir, path),
    }
}

/// The order in which the reference evaluates a library's templates (their outputs stay in
/// input order): a directory's own files in input order, then each of its subdirectories,
/// in the order they first appear, the same way. Indices into `paths`.
pub fn evaluation_order<'p>(paths: impl IntoIterator<Item = &'p str>) -> Vec<usize> {
    #[derive(Default)]
    struct Dir<'p> {
        files: Vec<usize>,
        dirs: Vec<(&'p str, Dir<'p>)>,
    }
    fn visit(dir: &Dir, order: &mut Vec<usize>) {
        order.extend(&dir.files);
        for (_, sub) in &dir.dirs {
            visit(sub, order);
        }
    }
    let mut root = Dir::default();
    let mut count = 0;
    for (i, path) in paths.into_iter().enumerate() {
        let mut dir = &mut root;
        let mut pieces = path.split('/');
        let mut piece = pieces.next();
        while let (Some(name), Some(next)) = (piece, pieces.next()) {
            let at = match dir.dirs.iter().position(|(n, _)| *n == name) {
                Some(at) => at,
                None => {
                    dir.dirs.push((name, Dir::default()));
                    dir.dirs.len() - 1
                }
            };
            dir = &mut dir.dirs[at].1;
            piece = Some(next);
        }
        dir.files.push(i);
        count = i + 1;
    }
    let mut order = Vec::with_capacity(count);
    visit(&root, &mut order);
    order
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
            unread: None,
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
        assert_eq!(
            root.list("", ""),
            Ok(vec!["config.yml".to_owned(), "sub/c.yml".to_owned()])
        );
        let lib = root.child("", "lib").unwrap();
        assert_eq!(lib.list("", ""), Ok(vec!["a.yml".to_owned()]));
        assert_eq!(
            lib.find_from("", "a.yml").unwrap().1.rel_path,
            "_ytt_lib/lib/a.yml"
        );
        let nested = lib.child("", "nested").unwrap();
        assert_eq!(nested.list("", ""), Ok(vec!["b.yml".to_owned()]));
        assert!(root.child("sub", "lib").is_err());
        assert!(root.has_private_dir(""));
    }

    /// Rule (measured): a library name is a path of exact directory names under
    /// `_ytt_lib`; a library's own `_ytt_lib` is private to it; the message names the
    /// segments found.
    #[test]
    fn library_names_are_paths_of_exact_segments() {
        let root = Library::root(&[
            file("_ytt_lib/lib/l.yml"),
            file("_ytt_lib/lib/_ytt_lib/inner/i.yml"),
            file("_ytt_lib/github.com/org/repo/r.yml"),
            file("_ytt_lib/other/o.yml"),
        ]);
        let paths = |name: &str| {
            root.child("", name)
                .map(|l| l.all.iter().map(|f| f.path.clone()).collect::<Vec<_>>())
        };
        assert_eq!(paths("lib").unwrap(), ["l.yml", "_ytt_lib/inner/i.yml"]);
        assert_eq!(paths("github.com/org").unwrap(), ["repo/r.yml"]);
        assert_eq!(paths("github.com/org/repo").unwrap(), ["r.yml"]);
        let not_found = |name: &str, found: &str| {
            format!("Expected to find library '{name}', but did not find '{found}'")
        };
        for (name, found) in [
            ("", ""),
            ("nope", ""),
            ("lib/", "lib"),
            ("lib//", "lib"),
            ("/lib", ""),
            ("./lib", ""),
            ("lib/.", "lib"),
            ("other/../lib", "other"),
            ("_ytt_lib/lib", ""),
            ("lib/inner", "lib"),
            ("other/_ytt_lib", "other"),
            ("github.com/org/repo/", "github.com/org/repo"),
            ("LIB", ""),
        ] {
            assert_eq!(paths(name).unwrap_err(), not_found(name, found), "{name:?}");
        }
        for name in ["lib/_ytt_lib/inner", "lib/_ytt_lib", "lib/_ytt_lib/inner/x"] {
            assert_eq!(
                paths(name).unwrap_err(),
                "Could not load private library 'lib'",
                "{name:?}"
            );
        }
    }

    /// Measured on the reference with `print` in each file: `-f .` and `-f y -f sub -f a.yml`.
    #[test]
    fn templates_are_evaluated_a_directory_s_files_first() {
        let order = |paths: &[&str]| -> Vec<String> {
            evaluation_order(paths.iter().copied())
                .into_iter()
                .map(|i| paths[i].to_owned())
                .collect()
        };
        assert_eq!(order(&[]), Vec::<String>::new());
        assert_eq!(
            order(&[
                "a.yml",
                "sub/b.yml",
                "sub/c/d.yml",
                "sub/e.yml",
                "y/q.yml",
                "z.yml"
            ]),
            [
                "a.yml",
                "z.yml",
                "sub/b.yml",
                "sub/e.yml",
                "sub/c/d.yml",
                "y/q.yml"
            ]
        );
        // input order, not name order, for files and for directories
        assert_eq!(
            order(&["q.yml", "b.yml", "c/d.yml", "e.yml", "a.yml", "b/x.yml", "c/a.yml"]),
            ["q.yml", "b.yml", "e.yml", "a.yml", "c/d.yml", "c/a.yml", "b/x.yml"]
        );
    }

    /// The reference's lookups, as measured: one directory at a time from the asking
    /// file's directory (the root after one leading `/`), each by its exact name.
    #[test]
    fn paths_are_walked_one_directory_at_a_time() {
        let files = vec![
            file("t.yml"),
            file("lib/h.star"),
            file("a/y.star"),
            file("sub/deep/x.star"),
            file("_ytt_lib/l/z.star"),
        ];
        let root = Library::root(&files);
        let find = |from: &str, path: &str| root.find_from(from, path).map(|(full, _)| full);
        let missing =
            |p: &str, e: &str| Err(format!("Expected to find file '{p}', but did not: {e}"));
        let hint = |p: &str| {
            Err(format!(
                "Expected to find file '{p}' (hint: only files included via -f flag are available)"
            ))
        };
        assert_eq!(find("", "lib/h.star"), Ok("lib/h.star".to_owned()));
        assert_eq!(find("", "/lib/h.star"), Ok("lib/h.star".to_owned()));
        assert_eq!(find("sub", "/lib/h.star"), Ok("lib/h.star".to_owned()));
        assert_eq!(find("sub", "deep/x.star"), Ok("sub/deep/x.star".to_owned()));
        assert_eq!(find("", "lib/nope.star"), hint("lib/nope.star"));
        assert_eq!(find("", "/lib/nope.star"), hint("lib/nope.star"));
        assert_eq!(find("", "nope.star"), hint("nope.star"));
        assert_eq!(find("", "a/"), hint("a/"));
        assert_eq!(find("", "nodir/x"), missing("nodir/x", "Did not find ''"));
        assert_eq!(find("", "a/b/x"), missing("a/b/x", "Did not find 'a'"));
        assert_eq!(
            find("", "./lib/h.star"),
            missing("./lib/h.star", "Did not find ''")
        );
        assert_eq!(
            find("", "lib/./h.star"),
            missing("lib/./h.star", "Did not find 'lib'")
        );
        assert_eq!(
            find("", "lib//h.star"),
            missing("lib//h.star", "Did not find 'lib'")
        );
        assert_eq!(
            find("", "lib/h.star/x"),
            missing("lib/h.star/x", "Did not find 'lib'")
        );
        assert_eq!(
            find("", "//lib/h.star"),
            missing("/lib/h.star", "Did not find ''")
        );
        assert_eq!(
            find("sub", "../lib/h.star"),
            missing("../lib/h.star", "Did not find ''")
        );
        assert_eq!(find("sub", "x.star"), hint("x.star"));
        let private = "Encountered private library '_ytt_lib'";
        assert_eq!(
            find("", "_ytt_lib/l/z.star"),
            missing("_ytt_lib/l/z.star", private)
        );

        let list = |from: &str, dir: &str| root.list(from, dir);
        let names = |n: &[&str]| Ok(n.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            list("", ""),
            names(&["t.yml", "lib/h.star", "a/y.star", "sub/deep/x.star"])
        );
        assert_eq!(list("", "/lib"), names(&["/h.star"]));
        assert_eq!(
            list("sub", "/"),
            names(&["/t.yml", "/lib/h.star", "/a/y.star", "/sub/deep/x.star"])
        );
        assert_eq!(list("sub", ""), names(&["deep/x.star"]));
        assert_eq!(list("", "sub/deep"), names(&["x.star"]));
        assert_eq!(list("", "lib/"), Err("Did not find 'lib'".to_owned()));
        assert_eq!(list("", "."), Err("Did not find ''".to_owned()));
        assert_eq!(list("sub", ".."), Err("Did not find ''".to_owned()));
        assert_eq!(list("", "a/y.star"), Err("Did not find 'a'".to_owned()));
        assert_eq!(list("", "_ytt_lib"), Err(private.to_owned()));
    }
}
