//! Diagnostics: a failed run as a value — which step of the pipeline failed, where
//! (file, line, and column where the step knows it), and the reference's report, whose
//! text is what the command line prints after `ytt: Error: `.
//!
//! A diagnostic is born where a step fails (the parser's error, a template's compile
//! error, a Starlark error with its frames, an overlay's, a schema or validation report)
//! and keeps its kind and location while the steps around it add their lines to the
//! text (`Overlaying data values (in following order: …)`, `library.eval: …`): they
//! reword it (`Diagnostic::reworded`, `Reword`) instead of formatting it into a new
//! error. `Diagnostic::from_error` finds it again at the end of the run.

use std::fmt;
use std::sync::Arc;

use crate::yaml::Location;

/// The step of the pipeline a failure comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
#[non_exhaustive]
pub enum Kind {
    /// An input that cannot be read as its kind requires (YAML that is not UTF-8).
    Input,
    /// YAML syntax.
    Yaml,
    /// A template that does not compile (its blocks, its code's syntax, an annotation
    /// in the wrong place).
    Template,
    /// Starlark evaluation: a failing expression, `fail()`, `assert.fail`.
    Evaluation,
    /// An overlay that does not apply.
    Overlay,
    /// A schema that is malformed, or data values it does not accept.
    Schema,
    /// Validation rules that failed, on data values or output documents.
    Validation,
    /// Anything else (data values from flags, library references, options).
    Other,
}

/// A failure of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Diagnostic {
    kind: Kind,
    location: Option<Location>,
    text: Arc<str>,
    frames: Vec<Frame>,
    violations: Vec<Violation>,
}

/// A template line a Starlark error went through.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Frame {
    /// `<toplevel>`, or the function the line is in.
    pub function: String,
    pub location: Location,
    /// The line's source text, as the report shows it.
    pub source: String,
}

/// A value a validation rule rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Violation {
    /// Where in the values or documents (`a.b[0]`, `(document)`).
    pub path: String,
    /// What the rule wanted (`a value >= 10`), or its custom message.
    pub message: String,
    /// What was found instead (`value < 10`), when the rule says.
    pub found: Option<String>,
    /// Where the value came from (none for a value computed in memory).
    pub value: Option<Location>,
    /// Where the rule was written.
    pub rule: Option<Location>,
    /// A `warn=True` rule: reported, not failed.
    pub warning: bool,
}

impl Diagnostic {
    pub(crate) fn new(kind: Kind, text: impl Into<String>) -> Self {
        Diagnostic {
            kind,
            location: None,
            text: Arc::from(text.into()),
            frames: Vec::new(),
            violations: Vec::new(),
        }
    }

    /// The same, with the template lines it went through (innermost first) after its own.
    pub(crate) fn with_frames(mut self, frames: impl IntoIterator<Item = Frame>) -> Self {
        self.frames.extend(frames);
        self
    }

    /// The same, with the values validation rules rejected.
    pub(crate) fn with_violations(mut self, violations: Vec<Violation>) -> Self {
        self.violations = violations;
        self
    }

    /// The same, located (no location when `location` names no file).
    pub(crate) fn at(mut self, location: Location) -> Self {
        self.location = location.file.is_some().then_some(location);
        self
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Where it failed: the innermost position the failing step knows (the template
    /// line of a Starlark error's innermost frame, the value a schema rejected, the
    /// first value a validation rule rejected, the overlay node that did not match).
    pub fn location(&self) -> Option<&Location> {
        self.location.as_ref()
    }

    /// The report, as the reference words it (what follows `ytt: Error: `).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The template lines a Starlark error went through, innermost first (through a
    /// library's run or a loaded file: theirs, then the caller's).
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// The values validation rules rejected, in the order they were validated (with the
    /// warnings of the same run).
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// The same failure, its text rewritten by a step around it.
    pub(crate) fn reworded(self, f: impl FnOnce(&str) -> String) -> Self {
        let text = Arc::from(f(&self.text));
        Diagnostic { text, ..self }
    }

    /// The diagnostic `e` carries, innermost first: a diagnostic, alone or with the form a
    /// library's error quotes it in ([`Quotable`]).
    pub(crate) fn of(e: &anyhow::Error) -> Option<Diagnostic> {
        e.chain().find_map(|c| {
            (c.downcast_ref::<Diagnostic>())
                .or_else(|| Some(&c.downcast_ref::<Quotable>()?.diagnostic))
                .cloned()
        })
    }

    /// The diagnostic of a run's error: its text as the command line prints it, with the
    /// kind and location of the diagnostic it carries (none: [`Kind::Other`]). Public for
    /// an embedder's own steps around a run (reading data-value flags, say).
    pub fn from_error(e: anyhow::Error) -> Diagnostic {
        let text = format!("{e:#}");
        match Diagnostic::of(&e) {
            Some(d) => d.reworded(|_| text),
            None => Diagnostic::new(Kind::Other, text),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::error::Error for Diagnostic {}

/// A diagnostic whose report a library's error quotes on one line, in words of its own
/// (an overlay's: one node per line on its own, `Document on line f.yml:4: Map item
/// (key 'a') on line f.yml:5: msg` quoted). Its text is the diagnostic's.
#[derive(Debug)]
pub(crate) struct Quotable {
    pub diagnostic: Diagnostic,
    pub one_line: String,
}

impl fmt::Display for Quotable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.diagnostic.fmt(f)
    }
}

impl std::error::Error for Quotable {}

/// `text` with every line indented by `n` spaces: how a step nests the report of the
/// step below it in its own.
pub fn indent(text: &str, n: usize) -> String {
    let pad = " ".repeat(n);
    text.lines()
        .map(|l| format!("{pad}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Rewording an error while keeping the diagnostic it carries.
pub(crate) trait Reword<T> {
    /// The error's text rewritten by `f`, which is given the error; its diagnostic's
    /// kind and location kept (an error that carries none stays one of kind `Other`).
    fn reword(self, f: impl FnOnce(&anyhow::Error) -> String) -> anyhow::Result<T>;
}

impl<T> Reword<T> for anyhow::Result<T> {
    fn reword(self, f: impl FnOnce(&anyhow::Error) -> String) -> anyhow::Result<T> {
        self.map_err(|e| reword(e, f))
    }
}

/// `e`, its text rewritten by `f` (see [`Reword`]).
pub(crate) fn reword(e: anyhow::Error, f: impl FnOnce(&anyhow::Error) -> String) -> anyhow::Error {
    let text = f(&e);
    let d = match Diagnostic::of(&e) {
        Some(d) => d.reworded(|_| text),
        None => Diagnostic::new(Kind::Other, text),
    };
    anyhow::Error::new(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn located(file: &str, line: u32) -> Location {
        Location {
            file: Some(Arc::from(file)),
            line,
            column: Some(3),
        }
    }

    #[test]
    fn rewording_keeps_the_kind_and_the_location() {
        let inner: anyhow::Result<()> = Err(Diagnostic::new(Kind::Yaml, "yaml: line 2: bad")
            .at(located("a.yml", 2))
            .into());
        let outer = inner
            .reword(|e| format!("Unmarshaling 'a.yml': {e}"))
            .reword(|e| format!("Overlaying:\n  {e:#}"));
        let d = Diagnostic::from_error(outer.unwrap_err());
        assert_eq!(d.kind(), Kind::Yaml);
        assert_eq!(d.location(), Some(&located("a.yml", 2)));
        assert_eq!(
            d.text(),
            "Overlaying:\n  Unmarshaling 'a.yml': yaml: line 2: bad"
        );
        assert_eq!(d.to_string(), d.text());
    }

    #[test]
    fn context_keeps_it_too_and_an_error_without_one_is_other() {
        use anyhow::Context as _;
        let inner: anyhow::Result<()> = Err(Diagnostic::new(Kind::Schema, "invalid")
            .at(located("s.yml", 4))
            .into());
        let d = Diagnostic::from_error(inner.context("Checking").unwrap_err());
        assert_eq!((d.kind(), d.text()), (Kind::Schema, "Checking: invalid"));
        let plain = Diagnostic::from_error(anyhow::anyhow!("no file"));
        assert_eq!((plain.kind(), plain.location()), (Kind::Other, None));
        // a location naming no file is none
        let unknown = Diagnostic::new(Kind::Overlay, "x").at(Location::default());
        assert_eq!(unknown.location(), None);
    }
}
