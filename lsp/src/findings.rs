//! What an analysis reports, in the server's own terms: problems with where they are (a
//! file and a range in the protocol's positions) and the places related to them. The
//! engine's diagnostics become findings in `analysis`; findings become the protocol's
//! diagnostics in `publish`.

use std::path::PathBuf;

use lsp_types::Range;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// A place in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct At {
    pub path: PathBuf,
    pub range: Range,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub at: At,
    pub message: String,
}

/// One problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Where it is; none for a problem of the run as a whole (a flag, a missing library),
    /// which is shown on the run's open files and its entry in the project file.
    pub at: Option<At>,
    pub severity: Severity,
    /// The step that found it: the engine's kinds (`yaml`, `template`, `evaluation`,
    /// `overlay`, `schema`, `validation`, `input`, `other`), `stopped` for a run stopped
    /// by the server's budgets, `project` for the project file.
    pub code: &'static str,
    pub message: String,
    pub related: Vec<Related>,
}

impl Finding {
    pub fn error(at: Option<At>, code: &'static str, message: impl Into<String>) -> Finding {
        Finding {
            at,
            severity: Severity::Error,
            code,
            message: message.into(),
            related: Vec::new(),
        }
    }
}
