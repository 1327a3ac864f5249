//! Data-values schemas: the type tree built from `@data/values-schema` documents
//! ([`Schema::build`]), the default data values it implies ([`Schema::defaults`]), and
//! checking data values against it ([`Schema::check`]) with the reference's reports.
//!
//! Checking also prepares data values for the validations engine: each value node gets
//! its schema node's `schema/validation` annotations (and those implied by
//! `@schema/validation-defaults-for-strings`), positioned where they were written.

pub mod build;
pub mod check;
pub mod export;
pub mod report;
pub mod types;

use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::overlay::Host;
use crate::template::annotations::{SCHEMA_TYPE, SCHEMA_VALIDATION_DEFAULTS_FOR_STRINGS};
use crate::yaml::{Annotation, Meta, Node, Pos};
use check::{Holder, Violation, ViolationKind};
pub use report::Sources;
use report::{Item, Report, Source};
pub use types::{Kind, Type};

/// A library's schema: the type of its data-values document.
#[derive(Clone, Debug, PartialEq)]
pub struct Schema {
    pub root: Type,
}

/// The text of the flag a value came from, to show in reports instead of a file line:
/// values whose position names `source` are shown as `text`.
#[derive(Clone, Copy, Debug)]
pub struct FlagOrigin<'a> {
    pub source: &'a str,
    pub text: &'a str,
}

impl Schema {
    /// Builds the schema from the merged schema document. The error is the reference's
    /// report (`Invalid schema ...`).
    pub fn build(
        value: &Node,
        meta: &Meta,
        host: &mut dyn Host,
        sources: &Sources,
    ) -> Result<Schema, Diagnostic> {
        build::Builder::new(host, sources)
            .document(value, meta)
            .map(|root| Schema { root })
            .map_err(|r| r.diagnostic(sources))
    }

    /// The first data values: every key with its default.
    pub fn defaults(&self) -> Node {
        let mut v = self.root.default.clone();
        let mut meta = Meta::at(self.root.pos.clone());
        let mut ignored = Vec::new();
        check::check(&self.root, &mut v, &mut meta, Holder::Doc, &mut ignored);
        v
    }

    /// The metadata of the defaults document: the schema document's position and
    /// validations.
    pub fn defaults_meta(&self) -> Meta {
        let mut meta = Meta::at(self.root.pos.clone());
        meta.annotations = self.root.validations.iter().cloned().collect();
        meta
    }

    /// Checks data values (the document's value and metadata), filling in defaults and
    /// attaching validations. The error is the reference's report of every violation.
    pub fn check(
        &self,
        values: &mut Node,
        meta: &mut Meta,
        flag: Option<FlagOrigin>,
        sources: &Sources,
    ) -> Result<(), Diagnostic> {
        if !meta.pos.is_known() {
            meta.pos = self.root.pos.clone();
        }
        let mut out = Vec::new();
        check::check(&self.root, values, meta, Holder::Doc, &mut out);
        if out.is_empty() {
            return Ok(());
        }
        Err(violations_report(sources, &out, flag).diagnostic(sources))
    }
}

/// `@schema/validation-defaults-for-strings` on a schema document that overlays earlier
/// ones applies to the values that document declares, and only to them: before the
/// overlay is applied, it is put on each item of the document (keeping where it was
/// written), as if written there. Items it is put on stay with the values the document
/// adds; items merged into values declared elsewhere keep their own annotations, so those
/// values keep their own defaults. It stops at an item with its own defaults (nearest
/// wins) and at an "any type" fragment (which takes no schema annotations).
///
/// A document that edits the annotations of the document it overlays
/// (`@overlay/replace-ann` …) is not spread: its annotations are the edit.
pub fn spread_document_defaults(value: &mut Node, meta: &Meta, host: &mut dyn Host) {
    if crate::overlay::annotations::has_edits(meta) {
        return;
    }
    let Some(d) = meta
        .annotations
        .iter()
        .find(|a| a.name == SCHEMA_VALIDATION_DEFAULTS_FOR_STRINGS)
    else {
        return;
    };
    spread(value, d, host);
}

fn spread(n: &mut Node, d: &Arc<Annotation>, host: &mut dyn Host) {
    let mut put = |meta: &mut Meta, value: &mut Node| {
        if meta.has_annotation(SCHEMA_VALIDATION_DEFAULTS_FOR_STRINGS) {
            return;
        }
        let any = meta
            .annotation(SCHEMA_TYPE)
            .and_then(|t| t.kwarg("any"))
            .is_some_and(|r| matches!(host.value(r), Ok(Node::Bool(true))));
        if any {
            return;
        }
        meta.annotations.push(d.clone());
        spread(value, d, host);
    };
    match n {
        Node::Map(m) => {
            for i in &mut m.items {
                put(&mut i.meta, &mut i.value);
            }
        }
        Node::Array(a) => {
            for i in &mut a.items {
                put(&mut i.meta, &mut i.value);
            }
        }
        _ => {}
    }
}

fn source_of(sources: &Sources, pos: &Pos, calculated: &str, flag: Option<FlagOrigin>) -> Source {
    match sources.names().name(pos.file) {
        Some(f) if pos.line > 0 => {
            if let Some(fl) = flag {
                if &*f == fl.source {
                    return Source::Text {
                        name: f.to_string(),
                        line: pos.line,
                        text: fl.text.to_owned(),
                    };
                }
            }
            Source::File {
                name: f.to_string(),
                from: pos.line,
                to: pos.line,
            }
        }
        _ => Source::Calculated {
            text: calculated.to_owned(),
        },
    }
}

/// `One or more data values were invalid` with an item per violation.
pub fn violations_report(
    sources: &Sources,
    violations: &[Violation],
    flag: Option<FlagOrigin>,
) -> Report {
    let items = violations
        .iter()
        .map(|v| match &v.kind {
            ViolationKind::Mismatch {
                found,
                expected,
                by,
            } => Item {
                summary: None,
                source: source_of(sources, &v.pos, &v.calculated, flag),
                found: Some((*found).to_owned()),
                expected: Some(format!("{expected} (by {})", sources.describe(by))),
                hints: vec![],
            },
            ViolationKind::Undeclared {
                key,
                allowed,
                map_pos,
            } => {
                let expected = match allowed.len() {
                    1 => format!("a map item with the key named \"{}\"", allowed[0]),
                    2..=9 => {
                        // listed sorted and unquoted, as the reference does
                        let mut keys: Vec<&str> = allowed.iter().map(|k| k.as_str()).collect();
                        keys.sort_unstable();
                        format!("one of {{ {} }}", keys.join(", "))
                    }
                    _ => "a key declared in map".to_owned(),
                };
                let hints = did_you_mean(key, allowed)
                    .map(|k| vec![format!("did you mean \"{k}\"?")])
                    .unwrap_or_default();
                Item {
                    summary: Some("Given data value is not declared in schema".into()),
                    source: source_of(sources, &v.pos, &v.calculated, flag),
                    found: Some(key.clone()),
                    expected: Some(format!("{expected} (from {})", sources.describe(map_pos))),
                    hints,
                }
            }
        })
        .collect();
    Report::new("One or more data values were invalid", items)
}

/// The declared key closest to `key`, when it is close enough to be a typo.
fn did_you_mean<'a>(key: &str, allowed: &'a [String]) -> Option<&'a str> {
    let len = key.chars().count();
    allowed
        .iter()
        .map(|k| (levenshtein(key, k), k))
        .filter(|(d, _)| *d > 0 && d * 2 <= len.max(2))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k.as_str())
}

fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_keys_only() {
        let allowed = vec!["hostname".to_owned(), "port".to_owned()];
        assert_eq!(did_you_mean("hostnme", &allowed), Some("hostname"));
        assert_eq!(did_you_mean("prot", &allowed), Some("port"));
        assert_eq!(did_you_mean("not_in_schema", &allowed), None);
        assert_eq!(levenshtein("kitten", "sitting"), 3);
    }

    /// Every annotation argument is `True`.
    struct AllTrue(crate::yaml::FileNames);

    impl Host for AllTrue {
        fn names(&self) -> &crate::yaml::FileNames {
            &self.0
        }
        fn value(&mut self, _: crate::yaml::ValueRef) -> anyhow::Result<Node> {
            Ok(Node::Bool(true))
        }
        fn is_callable(&mut self, _: crate::yaml::ValueRef) -> anyhow::Result<bool> {
            Ok(false)
        }
        fn call(&mut self, _: crate::yaml::ValueRef, _: &[&Node]) -> anyhow::Result<Node> {
            anyhow::bail!("not callable")
        }
    }

    #[test]
    fn document_string_defaults_spread_to_the_items_it_declares() {
        use crate::yaml::parser::{parse, ParseOptions};
        let file = crate::yaml::FileNames::default().id("spread-test.yml");
        let ann = |name: &str, line: u32, kwargs: Vec<(String, crate::yaml::ValueRef)>| {
            Arc::new(Annotation::new(name, Pos::new(file, line), vec![], kwargs))
        };
        let src = "a: ''\nb:\n  c: ''\n  d: [x]\ne: {f: ''}\ng: {h: ''}\n";
        let mut value = parse(src, file, &ParseOptions::default())
            .unwrap()
            .docs
            .remove(0)
            .value;
        let Node::Map(m) = &mut value else { panic!() };
        let own = ann(SCHEMA_VALIDATION_DEFAULTS_FOR_STRINGS, 4, vec![]);
        m.items[2].meta.annotations.push(own.clone());
        let any = crate::yaml::ValueRef {
            serial: 0,
            index: 0,
        };
        m.items[3]
            .meta
            .annotations
            .push(ann(SCHEMA_TYPE, 5, vec![("any".into(), any)]));
        let d = ann(SCHEMA_VALIDATION_DEFAULTS_FOR_STRINGS, 1, vec![]);
        let mut meta = Meta::default();
        meta.annotations.push(d.clone());
        spread_document_defaults(&mut value, &meta, &mut AllTrue(Default::default()));
        let Node::Map(m) = &value else { panic!() };
        let defaults = |meta: &Meta| {
            meta.annotation(SCHEMA_VALIDATION_DEFAULTS_FOR_STRINGS)
                .map(|a| a.pos.line)
        };
        assert_eq!(defaults(&m.items[0].meta), Some(1), "a");
        assert_eq!(defaults(&m.items[1].meta), Some(1), "b");
        let Node::Map(b) = &m.items[1].value else {
            panic!()
        };
        assert_eq!(defaults(&b.items[0].meta), Some(1), "b.c");
        let Node::Array(list) = &b.items[1].value else {
            panic!()
        };
        assert_eq!(defaults(&list.items[0].meta), Some(1), "b.d[0]");
        // an item's own default stops it; so does an "any type" fragment
        assert_eq!(defaults(&m.items[2].meta), Some(4), "e");
        let Node::Map(e) = &m.items[2].value else {
            panic!()
        };
        assert_eq!(defaults(&e.items[0].meta), None, "e.f inherits e's");
        assert_eq!(defaults(&m.items[3].meta), None, "g: any type");
        // a document editing the annotations of the one it overlays is not spread
        let mut plain = parse("x: ''\n", file, &ParseOptions::default())
            .unwrap()
            .docs
            .remove(0)
            .value;
        meta.annotations.push(ann("overlay/replace-ann", 1, vec![]));
        spread_document_defaults(&mut plain, &meta, &mut AllTrue(Default::default()));
        let Node::Map(x) = &plain else { panic!() };
        assert!(x.items[0].meta.annotations.is_empty());
    }
}
