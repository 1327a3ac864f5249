//! The violation report: one entry per validated node and annotation, in the order the
//! validations ran.

use std::fmt::Write as _;

use crate::diagnostic::{self, Diagnostic, Kind};

use super::rules::Violation;
use crate::messages::Messages;
use crate::yaml::{FileNames, Pos};

/// What was validated: names the report's header.
#[derive(Clone, Debug, PartialEq)]
pub enum Subject {
    DataValues,
    OutputDocuments,
    /// `assert.validate(key, …)`.
    Value(String),
    /// `assert.valid(fragment)`.
    Fragment,
}

impl Subject {
    pub fn header(&self) -> String {
        match self {
            Subject::DataValues => "Validating final data values:".into(),
            Subject::OutputDocuments => "Validating output documents:".into(),
            Subject::Value(key) => format!("assert.validate: Validating {key}:"),
            Subject::Fragment => "assert.valid: Validating fragment:".into(),
        }
    }
}

/// The violations of one annotation's rules on one node.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// `a.b[0]`, or `(document)`.
    pub path: String,
    /// Where the value came from (none for a value without a position).
    pub from: Option<Pos>,
    /// Which document `from` is in, when that line made nodes of several output
    /// documents: `document 2 of 3: Deployment web-2`.
    pub document: Option<String>,
    pub violations: Vec<Violation>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub subject: Subject,
    pub errors: Vec<Entry>,
    /// Violations of `warn=True` validations.
    pub warnings: Vec<Entry>,
}

impl Report {
    pub fn new(subject: Subject) -> Self {
        Report {
            subject,
            errors: Vec::new(),
            warnings: Vec::new(),
        }
    }

    pub fn push(&mut self, e: Entry, warn: bool) {
        if warn {
            self.warnings.push(e);
        } else {
            self.errors.push(e);
        }
    }

    /// An error that stopped validation (a bad annotation, a failing `when=`), under this
    /// report's header.
    pub fn wrap(&self, e: anyhow::Error) -> anyhow::Error {
        crate::diagnostic::reword(e, |e| format!("{}\n{e:#}", self.subject.header()))
    }

    /// The error report (the text after `ytt: Error: `), when some rule failed; `names`
    /// are the run's file names.
    pub fn error_text(&self, names: &FileNames) -> Option<String> {
        if self.errors.is_empty() {
            return None;
        }
        Some(format!(
            "{}\n{}",
            self.subject.header(),
            entries(names, &self.errors)
        ))
    }

    /// The warning report printed on stderr, when some `warn=True` rule failed.
    pub fn warning_text(&self, names: &FileNames) -> Option<String> {
        if self.warnings.is_empty() {
            return None;
        }
        // a message line of its own: without the error report's trailing empty lines
        Some(format!(
            "Warning: {}\n{}",
            self.subject.header(),
            entries(names, &self.warnings).trim_end()
        ))
    }

    /// Gives the warnings to the run's messages (asked for only when there are any: see
    /// `Runtime::gate`); the violations, if any, are the error.
    pub fn finish(
        self,
        names: &FileNames,
        messages: impl FnOnce() -> Messages,
    ) -> anyhow::Result<()> {
        if let Some(w) = self.warning_text(names) {
            messages().line(&w);
        }
        let Some(text) = self.error_text(names) else {
            return Ok(());
        };
        // located on the first value a rule rejected
        let d = Diagnostic::new(Kind::Validation, text).with_violations(self.violations(names));
        Err(match self.errors.iter().find_map(|e| e.from.as_ref()) {
            Some(from) => d.at(names.locate(from)),
            None => d,
        }
        .into())
    }
}

impl Report {
    /// Every violation, errors then warnings, each with where its value and its rule are.
    fn violations(&self, names: &FileNames) -> Vec<diagnostic::Violation> {
        let known = |p: &Pos| p.is_known().then(|| names.locate(p));
        let errors = self.errors.iter().map(|e| (e, false));
        let warnings = self.warnings.iter().map(|e| (e, true));
        errors
            .chain(warnings)
            .flat_map(|(e, warning)| {
                e.violations.iter().map(move |v| diagnostic::Violation {
                    path: e.path.clone(),
                    message: match (&v.message, v.rule_error) {
                        (Some(m), _) => m.clone(),
                        (None, true) => format!("rule error: {}", v.desc),
                        (None, false) => v.desc.clone(),
                    },
                    found: v.found.clone(),
                    value: e.from.as_ref().and_then(known),
                    rule: known(&v.by),
                    warning,
                })
            })
            .collect()
    }
}

/// The entries, each followed by an empty line, the last one too: the reference's report
/// ends with `\n\n` (then the `\n` that ends the error), whatever wraps it.
fn entries(names: &FileNames, list: &[Entry]) -> String {
    let mut out = String::new();
    for e in list {
        let _ = writeln!(out, "  {}", e.path);
        match (&e.from, &e.document) {
            (Some(from), Some(doc)) => {
                let _ = writeln!(out, "    from: {} ({doc})", names.describe(from));
            }
            (Some(from), None) => {
                let _ = writeln!(out, "    from: {}", names.describe(from));
            }
            _ => {}
        }
        for v in &e.violations {
            match &v.message {
                None if v.rule_error => {
                    let _ = writeln!(
                        out,
                        "    - rule error: {} (by: {})",
                        v.desc,
                        names.describe(&v.by)
                    );
                    if let Some(f) = &v.found {
                        let _ = writeln!(out, "      error: {f}");
                    }
                }
                Some(m) => {
                    let _ = writeln!(out, "    - {m} (by: {})", names.describe(&v.by));
                }
                None => {
                    let _ = writeln!(
                        out,
                        "    - must be: {} (by: {})",
                        v.desc,
                        names.describe(&v.by)
                    );
                    if let Some(f) = &v.found {
                        let _ = writeln!(out, "      found: {f}");
                    }
                }
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_entries() {
        let names = FileNames::default();
        let file = names.id("s.yml");
        let mut r = Report::new(Subject::DataValues);
        r.push(
            Entry {
                path: "a".into(),
                from: Some(Pos::new(file, 2)),
                document: Some("document 2 of 3: Deployment web-2".into()),
                violations: vec![Violation {
                    desc: "a value >= 10".into(),
                    by: Pos::new(file, 1),
                    found: Some("value < 10".into()),
                    message: None,
                    rule_error: false,
                }],
            },
            false,
        );
        r.push(
            Entry {
                path: "(document)".into(),
                from: Some(Pos::new(file, 3)),
                document: None,
                violations: vec![Violation {
                    desc: "x".into(),
                    by: Pos::new(file, 4),
                    found: None,
                    message: Some("custom".into()),
                    rule_error: false,
                }],
            },
            false,
        );
        assert_eq!(
            r.error_text(&names).unwrap(),
            "Validating final data values:\n  a\n    from: s.yml:2 (document 2 of 3: Deployment web-2)\n    - must be: a value >= 10 (by: s.yml:1)\n      found: value < 10\n\n  (document)\n    from: s.yml:3\n    - custom (by: s.yml:4)\n\n"
        );
        assert!(r.warning_text(&names).is_none());
    }
}
