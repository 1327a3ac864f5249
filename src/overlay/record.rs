//! What each `@overlay/match` node matched, each time it was applied, noted for a front
//! end that asks (a language server shows it on the annotation). The engine notes an
//! application only when its [`super::Host`] gives it a [`MatchLog`]: nothing is noted,
//! and nothing is made for it, otherwise.

use std::sync::{Arc, Mutex};

use super::matching::Expects;
use crate::yaml::{Location, Node};

/// One application of an overlay node annotated `@overlay/match` (a document, a map
/// item or an array item): where the node is, what it matched and what came of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    /// The overlay node (a document's `---` line, an item's line).
    pub overlay: Location,
    /// The nodes it matched, in their order.
    pub matched: Vec<Matched>,
    /// The number of matches expected, as `expects=` writes it (`1`, `1+`, `[0, 1]`, `a
    /// function`), the default's included; after `when ` for `when=`.
    pub expects: String,
    pub verdict: Verdict,
}

/// A node an overlay node matched.
#[derive(Clone, Debug, PartialEq)]
pub struct Matched {
    /// Where it is (no file: a node made in code from a dict).
    pub at: Location,
    /// What it is, when it says (`Deployment web`: its `kind` and `metadata.name`, or
    /// its `name`).
    pub about: Option<String>,
}

/// What came of the number of matches.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// As expected: the operation applied to each match.
    Applied,
    /// `when=` did not hold: the node was skipped.
    Skipped,
    /// Not as expected: the run's error.
    Failed(String),
}

/// Where the applications of a run are noted, in order, while it goes on: a run that
/// fails leaves those before the failure, and the failed one.
#[derive(Clone, Debug, Default)]
pub struct MatchLog(Arc<Mutex<Vec<Applied>>>);

impl MatchLog {
    /// The applications noted so far.
    pub fn take(&self) -> Vec<Applied> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }

    pub(super) fn push(&self, applied: Applied) {
        (self.0.lock().unwrap_or_else(|e| e.into_inner())).push(applied);
    }
}

/// How `expects=` would write the expectation.
pub(super) fn written(e: &Expects) -> String {
    match e {
        Expects::Exactly(n) => n.to_string(),
        Expects::AtLeast(n) => format!("{n}+"),
        Expects::OneOf(alts) => {
            let alts: Vec<String> = alts.iter().map(written).collect();
            format!("[{}]", alts.join(", "))
        }
        Expects::Func(_) => "a function".to_owned(),
    }
}

/// What a matched node says it is: a map's `kind` and `metadata.name` (or `name`), those
/// it has, as scalars.
pub(super) fn about(node: &Node) -> Option<String> {
    let Node::Map(m) = node else {
        return None;
    };
    let scalar = |n: &Node| (n.is_scalar() && !n.is_null()).then(|| n.key_text());
    let kind = m.get_str("kind").and_then(scalar);
    let name = match m.get_str("metadata") {
        Some(Node::Map(meta)) => meta.get_str("name").and_then(scalar),
        _ => None,
    }
    .or_else(|| m.get_str("name").and_then(scalar));
    let parts: Vec<String> = kind.into_iter().chain(name).collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parser::{parse, ParseOptions};
    use crate::yaml::FileNames;

    fn node(src: &str) -> Node {
        let names = FileNames::default();
        let docs = parse(src, names.id("in.yml"), &ParseOptions::default()).expect("YAML");
        docs.docs.into_iter().next().expect("a document").value
    }

    #[test]
    fn a_node_says_its_kind_and_name() {
        let about = |src| about(&node(src));
        assert_eq!(
            about("kind: Deployment\nmetadata:\n  name: web\n"),
            Some("Deployment web".into())
        );
        assert_eq!(about("kind: ConfigMap\n"), Some("ConfigMap".into()));
        assert_eq!(about("name: app\nimage: x\n"), Some("app".into()));
        assert_eq!(about("name: 3\n"), Some("3".into()));
        // nothing that says: a map without them, a null or a map name, a scalar
        assert_eq!(about("kind: null\nname: {a: 1}\n"), None);
        assert_eq!(about("a: 1\n"), None);
        assert_eq!(about("x\n"), None);
    }

    #[test]
    fn expectations_are_written_as_expects_takes_them() {
        assert_eq!(written(&Expects::Exactly(1)), "1");
        assert_eq!(written(&Expects::AtLeast(2)), "2+");
        assert_eq!(written(&Expects::missing_ok(true)), "[0, 1]");
    }
}
