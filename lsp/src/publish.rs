//! Findings as the protocol's diagnostics, file by file: each where it is, a problem of
//! a run as a whole on the run's open files and its entry in the project file; messages
//! of a run of a project with several runs name the run. The same problem found by two
//! runs is shown once.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Range,
};

use crate::documents::Documents;
use crate::findings::{Finding, Severity};
use crate::project::RunSpec;
use crate::text;

/// The findings of one run, and the open files it stands for.
pub struct RunFindings<'a> {
    pub spec: &'a RunSpec,
    pub findings: &'a [Finding],
    pub members: &'a [PathBuf],
}

/// Every file's diagnostics, in a stable order.
pub fn diagnostics<'a>(
    runs: impl IntoIterator<Item = RunFindings<'a>>,
    projects: &BTreeMap<PathBuf, Vec<Finding>>,
    docs: &Documents,
) -> BTreeMap<PathBuf, Vec<Diagnostic>> {
    let mut out: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
    for (file, findings) in projects {
        for f in findings {
            if let Some(at) = &f.at {
                out.entry(file.clone())
                    .or_default()
                    .push(diagnostic(f, at.range, None, docs));
            }
        }
    }
    for run in runs {
        let label = run.spec.labelled.then_some(run.spec.name.as_str());
        for f in run.findings {
            if let Some(at) = &f.at {
                out.entry(at.path.clone())
                    .or_default()
                    .push(diagnostic(f, at.range, label, docs));
                continue;
            }
            // the run as a whole: its open files' first line, and its project entry
            for path in run.members {
                let range = first_line(path, docs);
                out.entry(path.clone())
                    .or_default()
                    .push(diagnostic(f, range, label, docs));
            }
            if let Some(entry) = &run.spec.entry {
                out.entry(entry.path.clone()).or_default().push(diagnostic(
                    f,
                    entry.range,
                    label,
                    docs,
                ));
            }
        }
    }
    for list in out.values_mut() {
        list.sort_by(|a, b| {
            (a.range.start, a.range.end, &a.message).cmp(&(b.range.start, b.range.end, &b.message))
        });
        list.dedup_by(|a, b| a.range == b.range && a.message == b.message);
    }
    out
}

fn first_line(path: &Path, docs: &Documents) -> Range {
    let text = docs.get(path).map_or("", |d| &d.text);
    text::engine_range(text, 1, None)
}

fn diagnostic(f: &Finding, range: Range, label: Option<&str>, docs: &Documents) -> Diagnostic {
    let message = match label {
        Some(run) => format!("[{run}] {}", f.message),
        None => f.message.clone(),
    };
    let related: Vec<DiagnosticRelatedInformation> = f
        .related
        .iter()
        .map(|r| DiagnosticRelatedInformation {
            location: Location::new(docs.uri_of(&r.at.path), r.at.range),
            message: r.message.clone(),
        })
        .collect();
    Diagnostic {
        range,
        severity: Some(match f.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(f.code.to_owned())),
        source: Some("ytt".to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Diagnostic::default()
    }
}
