//! `--file-mark path:key=value`: renaming, excluding, retyping and selecting files for
//! output. `path` is matched against the file's original relative path: exactly, or as a
//! glob where the first `**/*` matches any characters and the first `*` matches within one
//! path segment.

use anyhow::{bail, Result};
use regex::Regex;

use super::SourceFile;
use super::{is_library_path, FileKind, InputFile};

#[derive(Debug)]
struct Marked {
    orig_rel_path: String,
    rel_path: String,
    kind: Option<FileKind>,
    excluded: bool,
    for_output: bool,
    exclusive_for_output: bool,
}

/// Applies `marks` (in order) to `files` and returns the input files of the run: excluded
/// files removed, kinds decided by `type=` marks or by the (possibly renamed) path.
pub fn apply(files: Vec<SourceFile>, marks: &[String]) -> Result<Vec<InputFile>> {
    let mut marked: Vec<Marked> = files
        .iter()
        .map(|f| Marked {
            orig_rel_path: f.rel_path.clone(),
            rel_path: f.rel_path.clone(),
            kind: None,
            excluded: false,
            for_output: false,
            exclusive_for_output: false,
        })
        .collect();

    for mark in marks {
        let Some((path, kv)) = mark.split_once(':') else {
            bail!("Expected file mark '{mark}' to be in format path:key=value");
        };
        let Some((key, value)) = kv.split_once('=') else {
            bail!("Expected file mark '{mark}' key-value portion to be in format key=value");
        };
        let matcher = Matcher::new(path);
        let mut matched = false;
        for m in marked.iter_mut() {
            if !matcher.matches(&m.orig_rel_path) {
                continue;
            }
            matched = true;
            match key {
                "path" => m.rel_path = value.to_owned(),
                "exclude" => m.excluded = parse_true(mark, value)?,
                "type" => match FileKind::from_mark_name(value) {
                    Some(k) => m.kind = Some(k),
                    None => bail!("Unknown value in file mark '{mark}'"),
                },
                "for-output" => m.for_output = parse_true(mark, value)?,
                "exclusive-for-output" => m.exclusive_for_output = parse_true(mark, value)?,
                _ => bail!("Unknown key in file mark '{mark}'"),
            }
        }
        if !matched {
            bail!("Expected file mark '{mark}' to match at least one file by path, but did not");
        }
    }

    Ok(files
        .into_iter()
        .zip(marked)
        .filter(|(_, m)| !m.excluded)
        .map(|(f, m)| InputFile {
            kind: m.kind.unwrap_or_else(|| FileKind::from_path(&m.rel_path)),
            is_library: is_library_path(&m.rel_path),
            rel_path: m.rel_path,
            data: f.data,
            for_output: m.for_output,
            exclusive_for_output: m.exclusive_for_output,
            unread: f.unread,
        })
        .collect())
}

fn parse_true(mark: &str, value: &str) -> Result<bool> {
    match value {
        "true" => Ok(true),
        _ => bail!("Unknown value in file mark '{mark}'"),
    }
}

struct Matcher {
    exact: String,
    re: Option<Regex>,
}

impl Matcher {
    fn new(pattern: &str) -> Matcher {
        let escaped = regex::escape(pattern);
        let re = escaped.replacen(&regex::escape("**/*"), ".+", 1).replacen(
            &regex::escape("*"),
            "[^/]+",
            1,
        );
        Matcher {
            exact: pattern.to_owned(),
            re: Regex::new(&format!("^{re}$")).ok(),
        }
    }

    fn matches(&self, path: &str) -> bool {
        path == self.exact || self.re.as_ref().is_some_and(|r| r.is_match(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(paths: &[&str]) -> Vec<SourceFile> {
        paths
            .iter()
            .map(|p| SourceFile::new(*p, Vec::new()))
            .collect()
    }

    fn names(files: &[InputFile]) -> Vec<&str> {
        files.iter().map(|f| f.rel_path.as_str()).collect()
    }

    #[test]
    fn globs() {
        let m = Matcher::new("d*.yml");
        assert!(m.matches("d1.yml"));
        assert!(!m.matches("x/d1.yml"));
        let m = Matcher::new("**/*.yml");
        assert!(m.matches("a/b/c.yml"));
        // `**/*` becomes `.+`: top-level files match too.
        assert!(m.matches("c.yml"));
        assert!(!m.matches("c.yaml"));
        let m = Matcher::new("a.yml");
        assert!(!m.matches("axyml"));
    }

    #[test]
    fn exclude_rename_type() {
        let files = apply(
            src(&["a.yml", "b.txt", "c.star1"]),
            &[
                "a.yml:exclude=true".into(),
                "b.txt:path=x/b.lib.txt".into(),
                "c.star1:type=starlark".into(),
                "c.star1:for-output=true".into(),
            ],
        )
        .unwrap();
        assert_eq!(names(&files), ["x/b.lib.txt", "c.star1"]);
        assert_eq!(files[0].kind, FileKind::TextTemplate);
        assert!(files[0].is_library);
        assert_eq!(files[1].kind, FileKind::Starlark);
        assert!(!files[1].is_library);
        assert!(files[1].for_output);
    }

    #[test]
    fn errors() {
        let e = apply(src(&["a.yml"]), &["nope.yml:exclude=true".into()]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "Expected file mark 'nope.yml:exclude=true' to match at least one file by path, but did not"
        );
        assert!(apply(src(&["a.yml"]), &["a.yml".into()]).is_err());
        assert!(apply(src(&["a.yml"]), &["a.yml:type".into()]).is_err());
        assert!(apply(src(&["a.yml"]), &["a.yml:type=x".into()]).is_err());
        assert!(apply(src(&["a.yml"]), &["a.yml:exclude=false".into()]).is_err());
        assert!(apply(src(&["a.yml"]), &["a.yml:color=red".into()]).is_err());
    }
}
