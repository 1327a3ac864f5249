//! Addressing data values to private libraries: `@library/ref "@path~alias@..."` on
//! documents and `@lib:` selectors on flags. An envelope carries such values down the
//! library tree, one reference segment per level, and records whether it was delivered.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::bail;

use super::values::CliValues;
use crate::yaml::{Meta, Node};

/// One `@path~alias` segment of a library reference.
#[derive(Clone, Debug, PartialEq)]
pub struct RefSegment {
    pub path: Option<String>,
    pub alias: Option<String>,
}

impl RefSegment {
    /// Whether `library.get(path, alias=alias)` is the library this segment names.
    pub fn matches(&self, path: &str, alias: Option<&str>) -> bool {
        self.path.as_deref().is_none_or(|p| p == path)
            && self.alias.as_deref().is_none_or(|a| Some(a) == alias)
    }
}

/// Parses `@path`, `@~alias`, `@path~alias`, chained (`@a@b~x`).
pub fn parse_ref(s: &str) -> anyhow::Result<Vec<RefSegment>> {
    let Some(rest) = s.strip_prefix('@') else {
        bail!("Expected library ref to start with '@', got: '{s}'");
    };
    let mut segments = Vec::new();
    for part in rest.split('@') {
        let pieces: Vec<&str> = part.split('~').collect();
        let (path, alias) = match pieces.as_slice() {
            [p] => (*p, None),
            [p, a] => (*p, Some(*a)),
            _ => bail!(
                "Expected library ref to have form: '@path', '@~alias', or '@path~alias', got: '{s}'"
            ),
        };
        if alias == Some("") {
            bail!("Expected library alias to not be empty");
        }
        if path.is_empty() && alias.is_none() {
            bail!("Expected library path to not be empty");
        }
        segments.push(RefSegment {
            path: (!path.is_empty()).then(|| path.to_owned()),
            alias: alias.map(str::to_owned),
        });
    }
    Ok(segments)
}

/// What an envelope carries.
#[derive(Clone, Debug)]
pub enum Payload {
    /// A `@data/values` document (its value and document metadata;
    /// `after_library_module=True` ones are applied last).
    Doc {
        value: Node,
        meta: Meta,
        after_module: bool,
    },
    /// Values from the command line.
    /// (Shared: envelopes are copied down the library tree; the values can be large.)
    Cli(Arc<CliValues>),
    /// A `@data/values-schema` document (its value and document metadata).
    Schema { value: Node, meta: Meta },
}

#[derive(Clone, Debug)]
pub struct Envelope {
    /// Segments still to go, from the library holding the envelope.
    pub refs: Vec<RefSegment>,
    /// The reference as written, for messages.
    pub original: String,
    /// Where it was written (`values.yml:4`, `(data-value arg):1`).
    pub origin: String,
    pub payload: Payload,
    used: Arc<AtomicBool>,
}

impl Envelope {
    pub fn new(refs: Vec<RefSegment>, original: String, origin: String, payload: Payload) -> Self {
        Envelope {
            refs,
            original,
            origin,
            payload,
            used: Arc::new(AtomicBool::new(false)),
        }
    }

    pub fn is_used(&self) -> bool {
        self.used.load(Ordering::SeqCst)
    }

    /// The envelopes for `library.get(path, alias)`: those whose next segment names it,
    /// one segment shorter, each with its own delivery record. The originals are marked
    /// delivered.
    pub fn deliver(envelopes: &[Envelope], path: &str, alias: Option<&str>) -> Vec<Envelope> {
        envelopes
            .iter()
            .filter(|e| e.refs.first().is_some_and(|s| s.matches(path, alias)))
            .map(|e| {
                e.used.store(true, Ordering::SeqCst);
                Envelope {
                    refs: e.refs[1..].to_vec(),
                    original: e.original.clone(),
                    origin: e.origin.clone(),
                    payload: e.payload.clone(),
                    used: Arc::new(AtomicBool::new(false)),
                }
            })
            .collect()
    }

    /// The error for envelopes nobody took.
    pub fn check_all_used(envelopes: &[Envelope]) -> anyhow::Result<()> {
        let schemas: Vec<String> = envelopes
            .iter()
            .filter(|e| !e.is_used() && matches!(e.payload, Payload::Schema { .. }))
            .map(|e| {
                format!(
                    "Schema belonging to library '{}' on line {}",
                    e.original, e.origin
                )
            })
            .collect();
        if !schemas.is_empty() {
            bail!(
                "Expected all provided library schema documents to be used but found unused:\n  {}",
                schemas.join("\n  ")
            );
        }
        let unused: Vec<String> = envelopes
            .iter()
            .filter(|e| !e.is_used())
            .map(|e| {
                format!(
                    "Data Value belonging to library '{}' on line {}",
                    e.original, e.origin
                )
            })
            .collect();
        if !unused.is_empty() {
            bail!(
                "Expected all provided library data values documents to be used but found unused:\n  {}",
                unused.join("\n  ")
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        assert_eq!(
            parse_ref("@lib").unwrap(),
            vec![RefSegment {
                path: Some("lib".into()),
                alias: None
            }]
        );
        assert_eq!(
            parse_ref("@~inst1@lib~x").unwrap(),
            vec![
                RefSegment {
                    path: None,
                    alias: Some("inst1".into())
                },
                RefSegment {
                    path: Some("lib".into()),
                    alias: Some("x".into())
                }
            ]
        );
        assert_eq!(
            parse_ref("@lib~").unwrap_err().to_string(),
            "Expected library alias to not be empty"
        );
        assert!(parse_ref("@~123~abc~inst1")
            .unwrap_err()
            .to_string()
            .starts_with(
                "Expected library ref to have form: '@path', '@~alias', or '@path~alias', got:"
            ));
    }

    #[test]
    fn delivery_marks_and_strips() {
        let e = Envelope::new(
            parse_ref("@~a@b").unwrap(),
            "@~a@b".into(),
            "v.yml:1".into(),
            Payload::Doc {
                value: Node::Null,
                meta: Meta::default(),
                after_module: false,
            },
        );
        let envs = vec![e];
        assert!(Envelope::check_all_used(&envs).is_err());
        let got = Envelope::deliver(&envs, "lib", Some("a"));
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].refs.len(), 1);
        assert!(Envelope::check_all_used(&envs).is_ok());
        assert!(Envelope::check_all_used(&got).is_err());
        assert!(Envelope::deliver(&envs, "lib", None).is_empty());
    }
}
