//! Overlay errors: what went wrong plus the chain of overlay nodes it happened under
//! (`Document on line f.yml:4`, `Map item (key 'a') on line f.yml:5`, …).
//!
//! The reference prints the chain two ways: on one line inside `overlay.apply(...)` and
//! once an error went through `library.eval()`
//! (`Document on line f.yml:4: Map item (key 'a') on line f.yml:5: msg`), and indented
//! one level per node after `Overlaying (in following order: …):` in overlay
//! post-processing and data values. Indented, where the error comes from decides where
//! it goes: a message of the engine's own gets a line of its own below the node; an
//! error of code the overlay called (a `via=` or `by=` function) follows the node on its
//! line; an overlay error raised inside such code (`overlay.apply` in a `via=` lambda)
//! follows the node as its prefix (`overlay.apply:`) and goes on, indented, below.

use std::fmt;

use crate::diagnostic::{Diagnostic, Kind, Quotable};
use crate::yaml::{FileNames, Pos};

/// What went wrong, below the overlay nodes.
#[derive(Debug, Clone, PartialEq)]
enum Cause {
    /// A message of the overlay engine.
    Message(String),
    /// The error of code the overlay called, as its message reads.
    Call(String),
    /// An overlay error raised by `prefix` (`overlay.apply`, `overlay.map_key_matcher`).
    Nested {
        prefix: String,
        inner: Box<OverlayError>,
    },
}

/// An error raised while applying an overlay.
#[derive(Debug, Clone, PartialEq)]
pub struct OverlayError {
    /// Overlay nodes from the innermost outwards (pushed while unwinding).
    frames: Vec<String>,
    /// Where the innermost overlay node that names a position is.
    pos: Option<Pos>,
    cause: Cause,
}

impl OverlayError {
    /// A message of the overlay engine.
    pub fn new(message: impl Into<String>) -> Self {
        OverlayError {
            frames: Vec::new(),
            pos: None,
            cause: Cause::Message(message.into()),
        }
    }

    /// The error of code an overlay called (its message, without a backtrace).
    pub fn call(message: impl Into<String>) -> Self {
        OverlayError {
            frames: Vec::new(),
            pos: None,
            cause: Cause::Call(message.into()),
        }
    }

    /// `inner`, raised by the Starlark function `prefix` (`overlay.apply`).
    pub fn nested(prefix: impl Into<String>, inner: OverlayError) -> Self {
        OverlayError {
            frames: Vec::new(),
            pos: inner.pos.clone(),
            cause: Cause::Nested {
                prefix: prefix.into(),
                inner: Box::new(inner),
            },
        }
    }

    /// Adds the overlay node the error happened under (called while unwinding, so
    /// innermost first).
    pub fn within(mut self, frame: impl Into<String>) -> Self {
        self.frames.push(frame.into());
        self
    }

    /// Adds the overlay node at `pos` the error happened under (see [`Self::within`]).
    pub fn within_node(mut self, frame: impl Into<String>, pos: &Pos) -> Self {
        self.pos.get_or_insert_with(|| pos.clone());
        self.within(frame)
    }

    /// The error as a diagnostic reading `text` (the report of the step that applied the
    /// overlay), located with the run's file `names`.
    pub fn diagnostic(&self, names: &FileNames, text: String) -> Diagnostic {
        let d = Diagnostic::new(Kind::Overlay, text);
        match &self.pos {
            Some(p) => d.at(names.locate(p)),
            None => d,
        }
    }

    /// The overlay nodes, outermost first.
    pub fn frames(&self) -> impl Iterator<Item = &str> {
        self.frames.iter().rev().map(String::as_str)
    }

    /// One line: `Document on line f.yml:4: Map item (key 'a') on line f.yml:5: msg`.
    pub fn inline(&self) -> String {
        let mut out = String::new();
        for f in self.frames() {
            out.push_str(f);
            out.push_str(": ");
        }
        match &self.cause {
            Cause::Message(m) | Cause::Call(m) => out.push_str(m),
            Cause::Nested { prefix, inner } => {
                out.push_str(prefix);
                out.push_str(": ");
                out.push_str(&inner.inline());
            }
        }
        out
    }

    /// One node per line, the first indented by `level` × 2 spaces and each next one by
    /// two more:
    ///
    /// ```text
    ///   Document on line overlay.yml:4:
    ///     Map item (key 'map') on line overlay.yml:5:
    ///       Expected number of matched nodes to be 1, but was 0
    /// ```
    pub fn indented(&self, level: usize) -> String {
        let mut out = String::new();
        let frames: Vec<&str> = self.frames().collect();
        let depth = level + frames.len();
        for (i, f) in frames.iter().enumerate() {
            out.push_str(&"  ".repeat(level + i));
            out.push_str(f);
            out.push(':');
            if i + 1 < frames.len() {
                out.push('\n');
            }
        }
        // what follows the last node: on its line, or on lines of their own below it
        let (same_line, below): (Option<&str>, Option<String>) = match &self.cause {
            Cause::Message(m) => (None, Some(format!("{}{m}", "  ".repeat(depth)))),
            Cause::Call(m) => (Some(m), None),
            // below its caller's line: one level deeper than the last node, or than the
            // prefix when there is no node
            Cause::Nested { prefix, inner } => (
                Some(prefix),
                Some(inner.indented(depth + usize::from(frames.is_empty()))),
            ),
        };
        if let Some(text) = same_line {
            if frames.is_empty() {
                out.push_str(&"  ".repeat(level));
            } else {
                out.push(' ');
            }
            out.push_str(text);
            if below.is_some() {
                out.push(':');
            }
        }
        if let Some(text) = below {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&text);
        }
        out
    }
}

impl fmt::Display for OverlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.inline())
    }
}

impl std::error::Error for OverlayError {}

/// An error of code the overlay called: an overlay error raised inside it keeps its
/// structure (see the module doc); anything else is its message.
impl From<anyhow::Error> for OverlayError {
    fn from(e: anyhow::Error) -> Self {
        match e.downcast::<OverlayError>() {
            Ok(o) => o,
            Err(e) => OverlayError::call(format!("{e:#}")),
        }
    }
}

pub type Result<T> = std::result::Result<T, OverlayError>;

/// Overlaying failed: `Overlaying (in following order: a.yml, b.yml):` (or `Overlaying
/// data values (…):`) then the error, one node per line — or on one line once it is the
/// message of a Starlark call (`library.eval()`).
#[derive(Debug)]
pub struct OverlayingError {
    /// What was overlaid: `""` for overlay files on output documents, `" data values"`.
    pub step: &'static str,
    /// The files overlaid, in the order they were applied.
    pub order: String,
    pub error: OverlayError,
}

impl OverlayingError {
    /// The failure of the run: a diagnostic on the error's overlay node (see
    /// [`OverlayError::pos`]) named in the run's file `names`, with its one-line form.
    pub(crate) fn report(&self, names: &FileNames) -> Quotable {
        Quotable {
            diagnostic: self.error.diagnostic(names, self.to_string()),
            one_line: self.inline(),
        }
    }

    fn inline(&self) -> String {
        format!(
            "Overlaying{} (in following order: {}): {}",
            self.step,
            self.order,
            self.error.inline()
        )
    }
}

impl fmt::Display for OverlayingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Overlaying{} (in following order: {}):\n{}",
            self.step,
            self.order,
            self.error.indented(1)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_inline_and_indented() {
        let e = OverlayError::new("boom")
            .within("Map item (key 'a') on line f.yml:5")
            .within("Document on line f.yml:4");
        assert_eq!(
            e.inline(),
            "Document on line f.yml:4: Map item (key 'a') on line f.yml:5: boom"
        );
        assert_eq!(
            e.indented(1),
            "  Document on line f.yml:4:\n    Map item (key 'a') on line f.yml:5:\n      boom"
        );
    }

    #[test]
    fn errors_of_called_code_follow_their_node() {
        let e = OverlayError::call("unknown binary op: string + int")
            .within("Map item (key 'a') on line f.yml:5")
            .within("Document on line f.yml:4");
        assert_eq!(
            e.indented(1),
            "  Document on line f.yml:4:\n    Map item (key 'a') on line f.yml:5: unknown binary op: string + int"
        );
        assert_eq!(
            e.inline(),
            "Document on line f.yml:4: Map item (key 'a') on line f.yml:5: unknown binary op: string + int"
        );
    }

    #[test]
    fn nested_overlay_errors_go_on_below_their_caller() {
        let inner = OverlayError::new("Expected number of matched nodes to be 1, but was 0")
            .within("Map item (key 'b') on line g.yml:2");
        let e = OverlayError::nested("overlay.apply", inner)
            .within("Map item (key 'a') on line f.yml:5")
            .within("Document on line f.yml:4");
        assert_eq!(
            e.indented(1),
            "  Document on line f.yml:4:\n    Map item (key 'a') on line f.yml:5: overlay.apply:\n      Map item (key 'b') on line g.yml:2:\n        Expected number of matched nodes to be 1, but was 0"
        );
        assert_eq!(
            e.inline(),
            "Document on line f.yml:4: Map item (key 'a') on line f.yml:5: overlay.apply: Map item (key 'b') on line g.yml:2: Expected number of matched nodes to be 1, but was 0"
        );
        // a nested message without nodes of its own
        let e = OverlayError::nested(
            "overlay.map_key_matcher",
            OverlayError::new("Expected to find map item with key 'kind', but did not"),
        )
        .within("Document on line f.yml:4");
        assert_eq!(
            e.indented(1),
            "  Document on line f.yml:4: overlay.map_key_matcher:\n    Expected to find map item with key 'kind', but did not"
        );
    }

    #[test]
    fn errors_of_called_code_keep_a_nested_overlay_error() {
        let inner = OverlayError::new("boom");
        let e: OverlayError =
            anyhow::Error::new(OverlayError::nested("overlay.apply", inner.clone())).into();
        assert_eq!(e, OverlayError::nested("overlay.apply", inner));
        let e: OverlayError = anyhow::anyhow!("plain").into();
        assert_eq!(e, OverlayError::call("plain"));
    }
}
