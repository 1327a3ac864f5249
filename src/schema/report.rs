//! The reference's schema error reports: a titled block of items, each showing the source
//! lines involved in a gutter, then `= found:`, `= expected:` and `= hint:` lines.
//!
//! ```text
//! One or more data values were invalid
//! ====================================
//!
//! values.yml:
//!     |
//!   4 | port: "80"
//!     |
//!
//!     = found: string
//!     = expected: integer (by schema.yml:9)
//! ```
//!
//! Source lines are read from the run's [`Sources`], filled by the workspace as it reads
//! libraries and data-values files.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use crate::diagnostic::{Diagnostic, Kind};
use crate::yaml::{FileNames, Location, Pos};

/// A registered file: its bytes, and where its lines start (computed on first use).
struct SourceText {
    data: Arc<[u8]>,
    line_starts: Option<Vec<usize>>,
}

/// The run's files: their names (what positions' ids stand for) and their texts, by the
/// names positions give them (what reports quote). Owned by the run (`workspace::Run`),
/// so that runs share nothing.
#[derive(Default)]
pub struct Sources {
    names: FileNames,
    texts: RefCell<HashMap<String, SourceText>>,
}

impl Sources {
    /// The sources of a run whose files are named in `names`.
    pub fn new(names: FileNames) -> Sources {
        Sources {
            names,
            texts: RefCell::default(),
        }
    }

    pub fn names(&self) -> &FileNames {
        &self.names
    }

    /// `file.yml:12`: see [`FileNames::describe`].
    pub fn describe(&self, pos: &Pos) -> String {
        self.names.describe(pos)
    }

    /// Makes the text of file `name` (as positions name it) available to reports.
    pub fn register(&self, name: &str, data: Arc<[u8]>) {
        let mut s = self.texts.borrow_mut();
        if let Some(existing) = s.get(name) {
            if Arc::ptr_eq(&existing.data, &data) {
                return;
            }
        }
        s.insert(
            name.to_owned(),
            SourceText {
                data,
                line_starts: None,
            },
        );
    }

    /// Line `line` (1-based) of registered file `name`, without its line break.
    pub fn line(&self, name: &str, line: u32) -> Option<String> {
        if line == 0 {
            return None;
        }
        let mut s = self.texts.borrow_mut();
        let src = s.get_mut(name)?;
        let data = &src.data;
        let starts = src.line_starts.get_or_insert_with(|| {
            let mut v = vec![0];
            v.extend(
                data.iter()
                    .enumerate()
                    .filter(|(_, b)| **b == b'\n')
                    .map(|(i, _)| i + 1),
            );
            v
        });
        let start = *starts.get(line as usize - 1)?;
        if start > data.len() {
            return None;
        }
        let end = starts.get(line as usize).map_or(data.len(), |e| e - 1);
        let text = String::from_utf8_lossy(&data[start..end.max(start)]);
        Some(text.strip_suffix('\r').unwrap_or(&text).to_owned())
    }

    /// The line of the comment `#@name ...` written for the node on `node_line` of file
    /// `name`: the node's own line (a trailing comment) or the comment lines right above
    /// it.
    pub fn annotation_line(&self, name: &str, node_line: u32, annotation: &str) -> Option<u32> {
        let is_it = |text: &str| -> bool {
            let Some(rest) = text.trim_start().strip_prefix("#@") else {
                return false;
            };
            let rest = rest.trim_start();
            match rest.strip_prefix(annotation) {
                Some(after) => after.is_empty() || after.starts_with([' ', '\t', '(']),
                None => false,
            }
        };
        if let Some(own) = self.line(name, node_line) {
            if let Some(idx) = own.find("#@") {
                if is_it(&own[idx..]) {
                    return Some(node_line);
                }
            }
        }
        let mut l = node_line;
        while l > 1 {
            l -= 1;
            let text = self.line(name, l)?;
            let t = text.trim();
            if t.is_empty() {
                continue;
            }
            if !t.starts_with('#') {
                return None;
            }
            if is_it(t) {
                return Some(l);
            }
        }
        None
    }
}

/// What an item of a report shows above its `= found:` line.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// Lines `from..=to` of a file.
    File { name: String, from: u32, to: u32 },
    /// A value from the command line: `name:` then one line of text.
    Text {
        name: String,
        line: u32,
        text: String,
    },
    /// A value computed in memory: `Data value calculated:` and its YAML.
    Calculated { text: String },
}

/// One problem in a report.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// A line (or block) printed before the source.
    pub summary: Option<String>,
    pub source: Source,
    pub found: Option<String>,
    pub expected: Option<String>,
    pub hints: Vec<String>,
}

/// A titled list of problems.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub title: String,
    pub items: Vec<Item>,
}

/// A title underlined with `=`.
pub fn titled(title: &str) -> String {
    format!("{title}\n{}\n", "=".repeat(title.chars().count()))
}

impl Report {
    pub fn new(title: impl Into<String>, items: Vec<Item>) -> Self {
        Report {
            title: title.into(),
            items,
        }
    }

    /// The report as a diagnostic of kind `Schema`, located on its first item's source.
    pub fn diagnostic(&self, sources: &Sources) -> Diagnostic {
        let d = Diagnostic::new(Kind::Schema, self.render(sources));
        match self.items.first().map(|i| &i.source) {
            Some(Source::File { name, from, .. }) => d.at(Location::new(name, *from)),
            Some(Source::Text { name, line, .. }) => d.at(Location::new(name, *line)),
            _ => d,
        }
    }

    pub fn render(&self, sources: &Sources) -> String {
        let width = self
            .items
            .iter()
            .map(|i| match &i.source {
                Source::File { to, .. } => to.to_string().len(),
                Source::Text { line, .. } => line.to_string().len(),
                Source::Calculated { .. } => 1,
            })
            .max()
            .unwrap_or(1);
        let pad = " ".repeat(width + 3);
        let mut out = titled(&self.title);
        out.push('\n');
        let rendered: Vec<String> = self
            .items
            .iter()
            .map(|item| {
                let mut s = String::new();
                if let Some(summary) = &item.summary {
                    s.push_str(summary);
                    s.push('\n');
                }
                match &item.source {
                    Source::File { name, from, to } => {
                        s.push_str(&format!("{name}:\n{pad}|\n"));
                        for l in *from..=*to {
                            let text = sources.line(name, l).unwrap_or_default();
                            s.push_str(&format!("  {l:>width$} | {text}\n"));
                        }
                        s.push_str(&format!("{pad}|\n"));
                    }
                    Source::Text { name, line, text } => {
                        s.push_str(&format!("{name}:\n{pad}|\n"));
                        s.push_str(&format!("  {line:>width$} | {text}\n"));
                        s.push_str(&format!("{pad}|\n"));
                    }
                    Source::Calculated { text } => {
                        s.push_str(&format!("Data value calculated:\n{pad}#\n"));
                        for l in text.lines() {
                            s.push_str(&format!("{pad}# {l}\n"));
                        }
                        s.push_str(&format!("{pad}#\n"));
                    }
                }
                s.push('\n');
                match &item.found {
                    Some(f) => s.push_str(&format!("{pad}= found: {f}\n")),
                    None => s.push('\n'),
                }
                match &item.expected {
                    Some(e) => s.push_str(&format!("{pad}= expected: {e}\n")),
                    None => s.push('\n'),
                }
                for h in &item.hints {
                    s.push_str(&format!("{pad}= hint: {h}\n"));
                }
                s
            })
            .collect();
        out.push_str(&rendered.join("\n"));
        out.push('\n');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_items_with_a_shared_gutter_width() {
        let sources = Sources::default();
        sources.register(
            "report-test.yml",
            Arc::from(&b"a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6\ng: 7\nh: 8\ni: 9\nj: 10\n"[..]),
        );
        let r = Report::new(
            "One or more data values were invalid",
            vec![
                Item {
                    summary: None,
                    source: Source::File {
                        name: "report-test.yml".into(),
                        from: 2,
                        to: 2,
                    },
                    found: Some("integer".into()),
                    expected: Some("string (by s.yml:3)".into()),
                    hints: vec![],
                },
                Item {
                    summary: Some("Given data value is not declared in schema".into()),
                    source: Source::File {
                        name: "report-test.yml".into(),
                        from: 10,
                        to: 10,
                    },
                    found: None,
                    expected: None,
                    hints: vec!["h".into()],
                },
            ],
        );
        assert_eq!(
            r.render(&sources),
            "One or more data values were invalid\n====================================\n\n\
             report-test.yml:\n     |\n   2 | b: 2\n     |\n\n     = found: integer\n     = expected: string (by s.yml:3)\n\n\
             Given data value is not declared in schema\nreport-test.yml:\n     |\n  10 | j: 10\n     |\n\n\n\n     = hint: h\n\n"
        );
    }

    #[test]
    fn calculated_values_use_a_hash_gutter() {
        let sources = Sources::default();
        let r = Report::new(
            "T",
            vec![Item {
                summary: None,
                source: Source::Calculated {
                    text: "foo: \"4\"".into(),
                },
                found: Some("string".into()),
                expected: Some("integer".into()),
                hints: vec![],
            }],
        );
        assert_eq!(
            r.render(&sources),
            "T\n=\n\nData value calculated:\n    #\n    # foo: \"4\"\n    #\n\n    = found: string\n    = expected: integer\n\n"
        );
    }

    #[test]
    fn finds_annotation_comment_lines() {
        let sources = Sources::default();
        sources.register(
            "ann-test.yml",
            Arc::from(&b"#@data/values-schema\n---\n#@schema/desc \"x\"\n\n#@ schema/default 1\nfoo: 0 #@schema/nullable\n"[..]),
        );
        assert_eq!(
            sources.annotation_line("ann-test.yml", 6, "schema/desc"),
            Some(3)
        );
        assert_eq!(
            sources.annotation_line("ann-test.yml", 6, "schema/default"),
            Some(5)
        );
        assert_eq!(
            sources.annotation_line("ann-test.yml", 6, "schema/nullable"),
            Some(6)
        );
        assert_eq!(
            sources.annotation_line("ann-test.yml", 6, "schema/title"),
            None
        );
        // another run's sources know nothing of this file
        assert_eq!(Sources::default().line("ann-test.yml", 1), None);
        assert_eq!(
            sources.annotation_line("ann-test.yml", 2, "data/values-schema"),
            Some(1)
        );
    }
}
