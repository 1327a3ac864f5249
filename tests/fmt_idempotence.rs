//! `ytt fmt` over every YAML input of the conformance corpus (`../shared/conformance`)
//! and of this project's tests and examples: formatting the output again changes nothing,
//! and the output reads back as the same documents with the same comments.
//!
//! Two losses of the reference are copied (`docs/compatibility.md`): an empty map or
//! array prints as nothing (null when read back), and keys are written unquoted with
//! Go's `%s`. Files where either applies are counted apart: with emptied collections
//! the comments must still be kept and the second output be a fixed point; with keys
//! `%s` cannot spell, the output may not even read back.

mod common;

use std::path::{Path, PathBuf};

use ytt::fmt::format_text;
use ytt::yaml::emit::yaml_node;
use ytt::yaml::parser::{parse, ParseOptions};
use ytt::yaml::{Comment, DocSet, FileNames, Node};

/// With the conformance corpus, there are about 2,900 YAML files, a few of them invalid on purpose.
const MIN_CHECKED: usize = 2500;

/// What the check of one file found.
enum Outcome {
    /// Idempotent, same documents, same comments.
    Kept,
    /// Empty collections became null: same comments, and the output of the output is a
    /// fixed point.
    EmptiedCollections,
    /// A key the reference writes with `%s` would not read back: not checked further.
    KeySpelling,
    /// Not YAML the formatter accepts.
    Rejected,
}

#[test]
fn formatting_is_idempotent_and_keeps_values_and_comments() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let corpus =
        common::conformance_cases("formatting_is_idempotent_and_keeps_values_and_comments");
    let mut files = Vec::new();
    if let Some(corpus) = &corpus {
        yaml_files(corpus, &mut files);
        // the cases' inputs, not their expected outputs
        files.retain(|f| {
            f.strip_prefix(corpus)
                .is_ok_and(|rel| rel.components().any(|c| c.as_os_str() == "files"))
        });
    }
    yaml_files(&root.join("tests"), &mut files);
    yaml_files(&root.join("examples"), &mut files);
    files.sort();

    let (mut kept, mut emptied, mut keys, mut rejected) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for path in &files {
        match check(path) {
            Ok(Outcome::Kept) => kept += 1,
            Ok(Outcome::EmptiedCollections) => emptied += 1,
            Ok(Outcome::KeySpelling) => keys += 1,
            Ok(Outcome::Rejected) => rejected += 1,
            Err(why) => failures.push(format!("{}: {why}", path.display())),
        }
    }
    eprintln!(
        "fmt: {} files: {kept} idempotent and lossless, {emptied} with emptied collections, \
         {keys} with keys spelled by %s, {rejected} rejected",
        files.len()
    );
    assert!(
        failures.is_empty(),
        "{} files:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        corpus.is_none() || kept >= MIN_CHECKED,
        "only {kept} files checked (at least {MIN_CHECKED} expected)"
    );
}

fn check(path: &Path) -> Result<Outcome, String> {
    let opts = ParseOptions::default();
    let Ok(src) = std::fs::read_to_string(path) else {
        return Ok(Outcome::Rejected);
    };
    let file = FileNames::default().id(&path.display().to_string());
    let Ok(once) = format_text(&src, &opts) else {
        return Ok(Outcome::Rejected);
    };
    let before = parse(&src, file, &opts).map_err(|e| e.to_string())?;
    let loss = reference_loss(&before);
    if loss == Some(Loss::KeySpelling) {
        return Ok(Outcome::KeySpelling);
    }
    let after =
        parse(&once, file, &opts).map_err(|e| format!("the output does not parse: {e}\n{once}"))?;
    let twice = format_text(&once, &opts).map_err(|e| e.to_string())?;
    if loss == Some(Loss::EmptyCollection) {
        let thrice = format_text(&twice, &opts).map_err(|e| e.to_string())?;
        return match (comments(&before) == comments(&after), thrice == twice) {
            (true, true) => Ok(Outcome::EmptiedCollections),
            (false, _) => Err(format!("comments differ\n--- output\n{once}")),
            (_, false) => Err(format!("not a fixed point\n--- twice\n{twice}")),
        };
    }
    if let Some(why) = differs(&before, &after) {
        return Err(format!("{why}\n--- output\n{once}"));
    }
    if twice != once {
        return Err(format!(
            "not idempotent\n--- once\n{once}--- twice\n{twice}"
        ));
    }
    Ok(Outcome::Kept)
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yml" || e == "yaml") {
            out.push(path);
        }
    }
}

/// Ordered by how much of the check they rule out.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Loss {
    /// An empty map or array as a map or array item's value.
    EmptyCollection,
    /// A key that `%s` does not spell as YAML reads it back (not a string, or a string
    /// that needs quotes).
    KeySpelling,
}

/// The worst reference loss that applies to a file.
fn reference_loss(ds: &DocSet) -> Option<Loss> {
    let mut worst = None;
    for d in &ds.docs {
        node_loss(&d.value, &mut worst);
    }
    worst
}

fn node_loss(n: &Node, worst: &mut Option<Loss>) {
    let empty = |v: &Node| match v {
        Node::Map(m) => m.items.is_empty(),
        Node::Array(a) => a.items.is_empty(),
        _ => false,
    };
    match n {
        Node::Map(m) => {
            for it in &m.items {
                let spelled_back = match &it.key {
                    Node::Str(s) => yaml_node(&it.key) == format!("{s}\n"),
                    _ => false,
                };
                if !spelled_back {
                    *worst = (*worst).max(Some(Loss::KeySpelling));
                }
                if empty(&it.value) {
                    *worst = (*worst).max(Some(Loss::EmptyCollection));
                }
                node_loss(&it.value, worst);
            }
        }
        Node::Array(a) => {
            for it in &a.items {
                if empty(&it.value) {
                    *worst = (*worst).max(Some(Loss::EmptyCollection));
                }
                node_loss(&it.value, worst);
            }
        }
        _ => {}
    }
}

/// Where two parses differ: the documents that stay in a document set (an empty one
/// prints as a bare `---`), compared as the YAML output writes them, and every comment,
/// in order.
fn differs(a: &DocSet, b: &DocSet) -> Option<String> {
    let docs = |ds: &DocSet| -> Vec<String> {
        ds.docs
            .iter()
            .filter(|d| !d.is_empty())
            .map(|d| yaml_node(&d.value))
            .collect()
    };
    let (da, db) = (docs(a), docs(b));
    if da != db {
        return Some(format!(
            "documents differ:\n{}\n---- read back:\n{}",
            da.join("---\n"),
            db.join("---\n")
        ));
    }
    let (ca, cb) = (comments(a), comments(b));
    (ca != cb).then(|| format!("comments differ:\n{ca:?}\n{cb:?}"))
}

fn comments(ds: &DocSet) -> Vec<String> {
    fn text(c: &Comment) -> String {
        c.text.trim_end().to_owned()
    }
    fn walk(n: &Node, out: &mut Vec<String>) {
        match n {
            Node::Map(m) => {
                for it in &m.items {
                    out.extend(it.meta.comments.iter().map(text));
                    walk(&it.value, out);
                }
            }
            Node::Array(a) => {
                for it in &a.items {
                    out.extend(it.meta.comments.iter().map(text));
                    walk(&it.value, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for d in &ds.docs {
        out.extend(d.meta.comments.iter().map(text));
        walk(&d.value, &mut out);
    }
    out.extend(ds.meta.comments.iter().map(text));
    out
}
