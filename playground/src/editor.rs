//! Hover and completion in the page's editor: the language server's own answers
//! (`ytt_lsp::features`), over what the last run left — its files and what it found of
//! its data values — and the text of the file in the editor as it is now.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_types::{CompletionResponse, Hover, Position};
use serde::Deserialize;
use ytt::frontend::Facts;
use ytt_lsp::features::{self, Context};
use ytt_lsp::{RunFacts, Workspace};

/// Where the page's files are for the language server, which works on paths: the file
/// `config/app.yml` is `/config/app.yml`, and a hover names it `config/app.yml`.
const ROOT: &str = "/";

/// What the last run left.
pub struct LastRun {
    /// Its files, by path, with their text.
    files: Vec<(String, Arc<[u8]>)>,
    /// Its data values (those of an earlier run, marked stale, when this one did not get
    /// that far).
    facts: Option<RunFacts>,
}

impl LastRun {
    pub const fn new() -> LastRun {
        LastRun {
            files: Vec::new(),
            facts: None,
        }
    }

    /// Keeps the files of a run and what it found of its data values.
    pub fn update(&mut self, files: Vec<(String, String)>, facts: Option<Facts>) {
        self.files = (files.into_iter())
            .map(|(path, text)| (path, Arc::from(text.into_bytes())))
            .collect();
        match facts {
            Some(facts) => {
                let root = Path::new(ROOT);
                self.facts = Some(RunFacts::new("playground", facts, root, &self.files));
            }
            None => {
                if let Some(kept) = &mut self.facts {
                    kept.stale = true;
                }
            }
        }
    }
}

impl Default for LastRun {
    fn default() -> Self {
        LastRun::new()
    }
}

/// What the page asks: a position (the protocol's: line from 0, column in UTF-16 units,
/// as the textarea counts) in a file whose text is `text`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Query {
    pub path: String,
    pub text: String,
    pub line: u32,
    pub character: u32,
}

/// Calls `feature` with a context over the last run's files and `q`'s text of its file.
fn at<R>(last: &LastRun, q: &Query, feature: impl FnOnce(&Context, Position) -> R) -> R {
    let root = Path::new(ROOT);
    let path = root.join(&q.path);
    let mut files: Vec<PathBuf> = last.files.iter().map(|(p, _)| root.join(p)).collect();
    if !files.contains(&path) {
        files.push(path.clone());
    }
    let read = |p: &Path| {
        if p == path {
            return Some(q.text.clone());
        }
        (last.files.iter())
            .find(|(name, _)| root.join(name) == p)
            .map(|(_, bytes)| String::from_utf8_lossy(bytes).into_owned())
    };
    let modules = ytt_stdlib::modules();
    let ws = Workspace {
        root,
        files: &|| &files,
        read: &read,
        modules: &modules,
    };
    let runs: Vec<&RunFacts> = last.facts.iter().collect();
    let cx = Context {
        text: &q.text,
        path: &path,
        runs: &runs,
        base: root,
        ws: &ws,
    };
    feature(&cx, Position::new(q.line, q.character))
}

/// The hover at `q`'s position.
pub fn hover(last: &LastRun, q: &Query) -> Option<Hover> {
    at(last, q, features::hover)
}

/// The completion at `q`'s position.
pub fn completion(last: &LastRun, q: &Query) -> Option<CompletionResponse> {
    at(last, q, features::completion)
}

#[cfg(test)]
mod tests {
    use lsp_types::{CompletionTextEdit, HoverContents};
    use ytt::frontend::FactsSink;

    use super::*;
    use crate::run::{run_with_facts, File, Request};

    const SCHEMA: &str =
        "#@data/values-schema\n---\n#@schema/desc \"How many pods\"\nreplicas: 1\nname: app\n";
    const VALUES: &str = "#@data/values\n---\nreplicas: 3\n";
    const TEMPLATE: &str = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:json\", \"json\")\nr: #@ data.values.replicas\nj: #@ json.encode(1)\n";

    /// The last run of `files`, as the page's worker keeps it.
    fn last_run(files: &[(&str, &str)]) -> LastRun {
        let req = Request {
            files: (files.iter())
                .map(|(path, text)| File {
                    path: (*path).into(),
                    text: (*text).into(),
                })
                .collect(),
            ..Request::default()
        };
        let sink = FactsSink::default();
        let out = run_with_facts(req, None, Some(sink.clone()));
        assert!(out.error.is_none(), "{}", out.stderr);
        let mut last = LastRun::new();
        let files = files.iter().map(|(p, t)| (p.to_string(), t.to_string()));
        last.update(files.collect(), sink.take());
        last
    }

    fn query(path: &str, text: &str, line: u32, character: u32) -> Query {
        Query {
            path: path.into(),
            text: text.into(),
            line,
            character,
        }
    }

    fn markdown(h: Option<Hover>) -> String {
        match h.expect("a hover").contents {
            HoverContents::Markup(m) => m.value,
            other => panic!("{other:?}"),
        }
    }

    fn files() -> [(&'static str, &'static str); 3] {
        [
            ("config/schema.yml", SCHEMA),
            ("values.yml", VALUES),
            ("t.yml", TEMPLATE),
        ]
    }

    #[test]
    fn hover_on_a_read_shows_the_value_and_what_set_it() {
        let last = last_run(&files());
        let md = markdown(hover(&last, &query("t.yml", TEMPLATE, 2, 22)));
        assert!(md.contains("`replicas`: integer"), "{md}");
        assert!(md.contains("```yaml\n3\n```"), "{md}");
        assert!(md.contains("How many pods"), "{md}");
        assert!(
            md.contains("1. schema default, `config/schema.yml:4`")
                && md.contains("2. data values, `values.yml:3`"),
            "{md}"
        );
    }

    #[test]
    fn hover_on_a_key_of_a_values_document() {
        let last = last_run(&files());
        let md = markdown(hover(&last, &query("values.yml", VALUES, 2, 1)));
        assert!(md.contains("`replicas`: integer"), "{md}");
    }

    #[test]
    fn hover_on_a_function_of_a_module_shows_its_signature() {
        let last = last_run(&files());
        let md = markdown(hover(&last, &query("t.yml", TEMPLATE, 3, 13)));
        assert!(md.contains("encode("), "{md}");
    }

    #[test]
    fn completion_of_data_values_uses_the_text_as_typed() {
        let last = last_run(&files());
        // typed after the run: the read is not in the run's text
        let text = format!("{TEMPLATE}x: #@ data.values.\n");
        let Some(CompletionResponse::Array(items)) =
            completion(&last, &query("t.yml", &text, 4, 18))
        else {
            panic!("no completion")
        };
        let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
        assert_eq!(labels, ["name", "replicas"]);
        let Some(CompletionTextEdit::Edit(edit)) = &items[1].text_edit else {
            panic!("no edit")
        };
        assert_eq!(
            edit.range,
            lsp_types::Range::new(Position::new(4, 18), Position::new(4, 18))
        );
    }

    #[test]
    fn completion_of_load_paths_reaches_the_other_files() {
        let last = last_run(&files());
        let text = "#@ load(\"\n";
        let Some(CompletionResponse::Array(items)) = completion(&last, &query("t.yml", text, 0, 9))
        else {
            panic!("no completion")
        };
        let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
        assert!(
            labels.contains(&"@ytt:data") && labels.contains(&"values.yml"),
            "{labels:?}"
        );
    }

    #[test]
    fn a_run_without_values_keeps_the_last_ones_as_stale() {
        let mut last = last_run(&files());
        last.update(vec![("t.yml".into(), TEMPLATE.into())], None);
        let md = markdown(hover(&last, &query("t.yml", TEMPLATE, 2, 22)));
        assert!(md.contains("the last analysis stopped"), "{md}");
    }
}
