//! Which runs a file belongs to, and the project file that states them.
//!
//! A run is a `ytt` command line and the directory its relative paths start from. A file
//! belongs to:
//!
//! - the runs of its project: the runs of the nearest project file ([`PROJECT_FILE`]) in
//!   its directory or above, up to the workspace folder it is in; without one, the folder
//!   itself as `ytt -f FOLDER` (the default run). A project file the client names (the
//!   `projectFile` setting) is every file's project instead, while it can be read. Of
//!   those, the runs whose inputs hold it;
//! - the run of its library, when it is under `_ytt_lib/NAME/`: `ytt -f …/_ytt_lib/NAME`,
//!   the library rendered on its own with its own defaults;
//! - when nothing else holds it, a run of its own: `ytt -f FILE`.
//!
//! The project file is TOML, not YAML: ytt reads every `.yml` file under a `-f` directory
//! as a template, so a YAML project file beside the templates would be rendered into their
//! output; a `.toml` file is a data file to ytt, read only by `data.read()`.
//!
//! ```toml
//! [[run]]
//! name = "staging"
//! args = ["-f", "config/", "--data-values-file", "values/staging.yml"]
//!
//! [[run]]
//! name = "production"
//! args = "-f config/ --data-values-file values/production.yml -v env=prod"
//! ```
//!
//! `args` are the command line's own flags, as a list or as one line split at whitespace
//! (a leading `ytt` is dropped); relative paths start from the project file's directory.

use std::path::{Component, Path, PathBuf};

use serde::Deserialize;

use crate::findings::{At, Finding};
use crate::text;

/// The project file's name.
pub const PROJECT_FILE: &str = "ytt-lsp.toml";

/// A run's identity: what its findings and its last render are kept under.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RunKey {
    /// A run named in a project file.
    Project { file: PathBuf, name: String },
    /// A workspace folder without a project file: `ytt -f FOLDER`.
    Folder(PathBuf),
    /// A library directory (`…/_ytt_lib/NAME`) on its own.
    Library(PathBuf),
    /// One file on its own.
    Alone(PathBuf),
}

/// A run to analyse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSpec {
    pub key: RunKey,
    /// The name it is shown by.
    pub name: String,
    /// The arguments, as written (template flags, no program name).
    pub args: Vec<String>,
    /// Where relative paths in `args` start.
    pub dir: PathBuf,
    /// Its messages name it (one of several runs of a project file).
    pub labelled: bool,
    /// Its entry in the project file: where a problem of the run as a whole is shown too.
    pub entry: Option<At>,
}

impl RunSpec {
    fn of_path(key: RunKey, name: String, path: &Path) -> RunSpec {
        RunSpec {
            dir: path.parent().unwrap_or(path).to_path_buf(),
            args: vec!["-f".into(), path.to_string_lossy().into_owned()],
            key,
            name,
            labelled: false,
            entry: None,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self.key {
            RunKey::Project { .. } => "project",
            RunKey::Folder(_) => "folder",
            RunKey::Library(_) => "library",
            RunKey::Alone(_) => "alone",
        }
    }
}

/// The runs of a project: a project file's, or a workspace folder's default run.
#[derive(Debug, PartialEq, Eq)]
pub struct Project {
    /// The project file, when there is one.
    pub file: Option<PathBuf>,
    pub runs: Vec<RunSpec>,
    /// What is wrong with the project file.
    pub errors: Vec<Finding>,
}

/// The project `path` is in: the project file `chosen` by the client when it can be read;
/// else the nearest project file at or above its directory, up to the deepest workspace
/// folder holding it (to the root when none does), else that folder's default run. `read`
/// gives a project file's text (an open document's, or the disk's).
pub fn project_of(
    path: &Path,
    folders: &[PathBuf],
    chosen: Option<&Path>,
    read: &dyn Fn(&Path) -> Option<String>,
) -> Option<Project> {
    if let Some((file, text)) = chosen.and_then(|f| Some((f, read(f)?))) {
        return Some(parse(file, &text));
    }
    let folder = folders
        .iter()
        .filter(|f| path.starts_with(f) && path != f.as_path())
        .max_by_key(|f| f.components().count());
    for dir in path.ancestors().skip(1) {
        let file = dir.join(PROJECT_FILE);
        if let Some(text) = read(&file) {
            return Some(parse(&file, &text));
        }
        if Some(dir) == folder.map(PathBuf::as_path) {
            break;
        }
    }
    let folder = folder?;
    let name = folder
        .file_name()
        .map_or_else(|| folder.to_string_lossy(), |n| n.to_string_lossy())
        .into_owned();
    Some(Project {
        file: None,
        runs: vec![RunSpec {
            dir: folder.clone(),
            ..RunSpec::of_path(RunKey::Folder(folder.clone()), name, folder)
        }],
        errors: Vec::new(),
    })
}

/// The run of the library `path` is in (the innermost `_ytt_lib/NAME` directory above
/// it).
pub fn library_of(path: &Path) -> Option<RunSpec> {
    let parts: Vec<Component> = path.components().collect();
    // `_ytt_lib` followed by a directory name, then at least the file's name
    let i = (0..parts.len().saturating_sub(2))
        .rev()
        .find(|&i| parts[i].as_os_str() == "_ytt_lib")?;
    let dir: PathBuf = parts[..i + 2].iter().collect();
    let name = format!("@{}", parts[i + 1].as_os_str().to_string_lossy());
    Some(RunSpec {
        dir: dir.clone(),
        ..RunSpec::of_path(RunKey::Library(dir.clone()), name, &dir)
    })
}

/// `path` on its own: `ytt -f FILE`.
pub fn alone(path: &Path) -> RunSpec {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    RunSpec::of_path(RunKey::Alone(path.to_path_buf()), name, path)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProjectFile {
    #[serde(default)]
    run: Vec<toml::Spanned<RunEntry>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RunEntry {
    name: Option<String>,
    args: Args,
}

#[derive(Deserialize)]
#[serde(untagged, expecting = "a list of arguments, or a command line")]
enum Args {
    List(Vec<String>),
    Line(String),
}

/// Reads project file `file` (its text `text`).
pub fn parse(file: &Path, text: &str) -> Project {
    let at = |span: std::ops::Range<usize>| {
        let start = text::position_of_offset(text, span.start);
        // the first line of what the span covers
        let line_end = text[span.start.min(text.len())..]
            .find('\n')
            .map_or(text.len(), |i| span.start + i);
        let end = text::position_of_offset(text, span.end.min(line_end).max(span.start));
        Some(At {
            path: file.to_path_buf(),
            range: lsp_types::Range::new(start, end),
        })
    };
    let mut project = Project {
        file: Some(file.to_path_buf()),
        runs: Vec::new(),
        errors: Vec::new(),
    };
    let parsed: ProjectFile = match toml::from_str(text) {
        Ok(p) => p,
        Err(e) => {
            let place = e.span().and_then(at);
            project.errors.push(Finding::error(
                place,
                "project",
                format!("{PROJECT_FILE}: {}", e.message()),
            ));
            return project;
        }
    };
    let dir = file.parent().unwrap_or(Path::new("/")).to_path_buf();
    let several = parsed.run.len() > 1;
    for (i, entry) in parsed.run.into_iter().enumerate() {
        let span = entry.span();
        let entry = entry.into_inner();
        let name = entry.name.unwrap_or_else(|| format!("run {}", i + 1));
        let mut args = match entry.args {
            Args::List(list) => list,
            Args::Line(line) => line.split_whitespace().map(str::to_owned).collect(),
        };
        if args.first().map(String::as_str) == Some("ytt") {
            args.remove(0);
        }
        if project.runs.iter().any(|r| r.name == name) {
            project.errors.push(Finding::error(
                at(span),
                "project",
                format!("{PROJECT_FILE}: a second run named '{name}' (run names are unique)"),
            ));
            continue;
        }
        project.runs.push(RunSpec {
            key: RunKey::Project {
                file: file.to_path_buf(),
                name: name.clone(),
            },
            name,
            args,
            dir: dir.clone(),
            labelled: several,
            entry: at(span),
        });
    }
    if project.runs.is_empty() && project.errors.is_empty() {
        project.errors.push(Finding::error(
            at(0..0),
            "project",
            format!("{PROJECT_FILE} names no run: add a [[run]] with the run's args"),
        ));
    }
    project
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn files(list: &[(&str, &str)]) -> impl Fn(&Path) -> Option<String> {
        let map: BTreeMap<PathBuf, String> = list
            .iter()
            .map(|(p, t)| (PathBuf::from(p), t.to_string()))
            .collect();
        move |p| map.get(p).cloned()
    }

    #[test]
    fn a_folder_without_a_project_file_is_run_whole() {
        let p = project_of(
            Path::new("/w/app/config/a.yml"),
            &[PathBuf::from("/w"), PathBuf::from("/w/app")],
            None,
            &files(&[]),
        )
        .unwrap();
        assert_eq!(p.runs.len(), 1);
        assert_eq!(p.runs[0].key, RunKey::Folder("/w/app".into()));
        assert_eq!(p.runs[0].args, ["-f", "/w/app"]);
        assert_eq!(
            project_of(Path::new("/elsewhere/a.yml"), &[], None, &files(&[])),
            None
        );
    }

    #[test]
    fn the_nearest_project_file_states_the_runs() {
        let toml = "[[run]]\nname = \"a\"\nargs = [\"-f\", \"config/\"]\n\n[[run]]\nargs = \"ytt -f config/ -v x=1\"\n";
        let p = project_of(
            Path::new("/w/app/config/a.yml"),
            &[PathBuf::from("/w")],
            None,
            &files(&[("/w/app/ytt-lsp.toml", toml), ("/w/ytt-lsp.toml", "")]),
        )
        .unwrap();
        assert_eq!(p.errors, []);
        let names: Vec<_> = p.runs.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["a", "run 2"]);
        assert_eq!(p.runs[1].args, ["-f", "config/", "-v", "x=1"]);
        assert_eq!(p.runs[0].dir, PathBuf::from("/w/app"));
        assert!(p.runs[0].labelled);
        assert_eq!(p.runs[1].entry.as_ref().unwrap().range.start.line, 4);
        // above the workspace folder, project files are not looked for
        let p = project_of(
            Path::new("/w/a.yml"),
            &[PathBuf::from("/w")],
            None,
            &files(&[("/ytt-lsp.toml", toml)]),
        )
        .unwrap();
        assert_eq!(p.file, None);
    }

    #[test]
    fn a_chosen_project_file_is_every_files_project_while_it_can_be_read() {
        let toml = "[[run]]\nargs = \"-f ../config\"\n";
        let read = files(&[("/w/ci/staging.toml", toml), ("/w/ytt-lsp.toml", toml)]);
        let chosen = Some(Path::new("/w/ci/staging.toml"));
        for path in ["/w/config/a.yml", "/elsewhere/b.yml"] {
            let p = project_of(Path::new(path), &[PathBuf::from("/w")], chosen, &read).unwrap();
            assert_eq!(p.file.as_deref(), chosen);
            assert_eq!(p.runs[0].dir, PathBuf::from("/w/ci"));
        }
        // one that cannot be read: the project file is looked for as without it
        let p = project_of(
            Path::new("/w/config/a.yml"),
            &[PathBuf::from("/w")],
            Some(Path::new("/w/missing.toml")),
            &read,
        )
        .unwrap();
        assert_eq!(p.file, Some(PathBuf::from("/w/ytt-lsp.toml")));
    }

    #[test]
    fn a_broken_project_file_is_reported_where_it_is_broken() {
        let p = parse(Path::new("/w/ytt-lsp.toml"), "[[run]]\nargs = 3\n");
        assert_eq!(p.runs, []);
        let e = &p.errors[0];
        assert_eq!(e.at.as_ref().unwrap().range.start.line, 1);
        assert!(e.message.contains("a list of arguments"), "{}", e.message);
        let p = parse(Path::new("/w/ytt-lsp.toml"), "[[runs]]\n");
        assert!(
            p.errors[0].message.contains("unknown field"),
            "{:?}",
            p.errors
        );
        let p = parse(Path::new("/w/ytt-lsp.toml"), "# nothing\n");
        assert!(p.errors[0].message.contains("names no run"));
        let p = parse(
            Path::new("/w/ytt-lsp.toml"),
            "[[run]]\nname='a'\nargs=[]\n[[run]]\nname='a'\nargs=[]\n",
        );
        assert_eq!((p.runs.len(), p.errors.len()), (1, 1));
    }

    #[test]
    fn libraries_and_lone_files() {
        let r = library_of(Path::new("/w/_ytt_lib/a/_ytt_lib/b/x/t.yml")).unwrap();
        assert_eq!(r.key, RunKey::Library("/w/_ytt_lib/a/_ytt_lib/b".into()));
        assert_eq!(
            (r.name.as_str(), r.args[1].as_str()),
            ("@b", "/w/_ytt_lib/a/_ytt_lib/b")
        );
        assert_eq!(library_of(Path::new("/w/_ytt_lib/t.yml")), None);
        assert_eq!(library_of(Path::new("/w/config/t.yml")), None);
        let r = alone(Path::new("/w/t.yml"));
        assert_eq!(
            (r.args[1].as_str(), r.dir.as_path()),
            ("/w/t.yml", Path::new("/w"))
        );
    }
}
