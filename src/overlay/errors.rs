//! Overlay errors: a message plus the chain of overlay nodes it happened under
//! (`Document on line f.yml:4`, `Map item (key 'a') on line f.yml:5`, …).
//!
//! The reference prints the chain two ways: on one line inside `overlay.apply(...)`
//! (`Document on line f.yml:4: Map item (key 'a') on line f.yml:5: msg`) and indented one
//! level per node after `Overlaying (in following order: …):` in overlay post-processing.

use std::fmt;

/// An error raised while applying an overlay.
#[derive(Debug, Clone, PartialEq)]
pub struct OverlayError {
    /// Overlay nodes from the innermost outwards (pushed while unwinding).
    frames: Vec<String>,
    /// What went wrong.
    pub message: String,
}

impl OverlayError {
    pub fn new(message: impl Into<String>) -> Self {
        OverlayError {
            frames: Vec::new(),
            message: message.into(),
        }
    }

    /// Adds the overlay node the error happened under (called while unwinding, so
    /// innermost first).
    pub fn within(mut self, frame: impl Into<String>) -> Self {
        self.frames.push(frame.into());
        self
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
        out.push_str(&self.message);
        out
    }

    /// One node per line, the first indented by `level` × 2 spaces and each next one by
    /// two more, each ending in `:`; the message last:
    ///
    /// ```text
    ///   Document on line overlay.yml:4:
    ///     Map item (key 'map') on line overlay.yml:5:
    ///       Expected number of matched nodes to be 1, but was 0
    /// ```
    pub fn indented(&self, level: usize) -> String {
        let mut out = String::new();
        let mut depth = level;
        for f in self.frames() {
            out.push_str(&"  ".repeat(depth));
            out.push_str(f);
            out.push_str(":\n");
            depth += 1;
        }
        out.push_str(&"  ".repeat(depth));
        out.push_str(&self.message);
        out
    }
}

impl fmt::Display for OverlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.inline())
    }
}

impl std::error::Error for OverlayError {}

impl From<anyhow::Error> for OverlayError {
    fn from(e: anyhow::Error) -> Self {
        OverlayError::new(format!("{e:#}"))
    }
}

pub type Result<T> = std::result::Result<T, OverlayError>;

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
}
