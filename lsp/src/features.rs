//! What the server answers at a position, from every source at once: a data value's
//! facts first (a key of a data-values or schema document, a `data.values` read in code),
//! then what an `#@overlay/match` matched in the last render, then what the file's text
//! alone says. One place, which the server and the playground
//! both call: pure functions of a [`Context`].

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use lsp_types::{
    CodeActionOrCommand, CompletionResponse, CompletionTextEdit, Diagnostic,
    GotoDefinitionResponse, Hover, HoverContents, InlayHint, InlayHintLabel, InlayHintTooltip,
    Location, Position, Range, TextEdit, Uri,
};
use ytt::frontend::Seg;
use ytt::yaml::Node;

use crate::loading::Workspace;
use crate::reads::{self, Read};
use crate::values::{self, RunFacts};
use crate::{actions, completion, declare, definition, hover, overlays, uri, value_documents};

/// How long a value shown beside its read may be.
const HINT_CHARS: usize = 40;

/// A request's file and what is known around it.
pub struct Context<'a, 'w> {
    pub text: &'a str,
    pub path: &'a Path,
    /// The data values of the runs the file belongs to (those that got that far).
    pub runs: &'a [&'a RunFacts],
    /// Where a hover's file names start from.
    pub base: &'a Path,
    /// The files a `load()` reaches, and the `@ytt:` modules.
    pub ws: &'a Workspace<'w>,
}

/// The keys of a read as a data value's path.
fn segs(keys: &[String]) -> Vec<Seg> {
    keys.iter().cloned().map(Seg::Key).collect()
}

/// The data value read at `pos`, if any (`data` or `values` under the cursor: none).
fn read_at(cx: &Context, pos: Position) -> Option<Read> {
    reads::data_value_read_at(cx.text, cx.path, pos).filter(|r| !r.path.is_empty())
}

/// `textDocument/hover`.
pub fn hover(cx: &Context, pos: Position) -> Option<Hover> {
    if let Some(h) = value_documents::hover(cx.runs, cx.path, cx.text, pos, cx.base) {
        return Some(h);
    }
    if let Some(read) = read_at(cx, pos) {
        let markdown = values::hover(cx.runs, &segs(&read.path), cx.base)?;
        return Some(hover::of_markdown(markdown, Some(read.range)));
    }
    let text = hover::hover(cx.ws.modules, cx.text, cx.path, pos);
    let Some(matched) = overlays::hover(cx.runs, cx.path, cx.text, pos, cx.base) else {
        return text;
    };
    // on the annotation's arguments, a function's documentation follows what it matched
    let (markdown, range) = match text {
        Some(Hover {
            contents: HoverContents::Markup(doc),
            range,
        }) => (format!("{matched}\n\n---\n\n{}", doc.value), range),
        _ => (matched, None),
    };
    Some(hover::of_markdown(markdown, range))
}

/// `textDocument/completion`.
pub fn completion(cx: &Context, pos: Position) -> Option<CompletionResponse> {
    if let Some(c) = value_documents::completion(cx.runs, cx.path, cx.text, pos) {
        return Some(c);
    }
    if let Some(partial) = reads::data_value_partial_at(cx.text, cx.path, pos) {
        let mut items = values::complete(cx.runs, &segs(&partial.parent), &[]);
        for item in &mut items {
            item.text_edit = Some(CompletionTextEdit::Edit(TextEdit {
                range: partial.typed,
                new_text: item.label.clone(),
            }));
        }
        return Some(CompletionResponse::Array(items));
    }
    completion::completion(cx.ws, cx.text, cx.path, pos).map(CompletionResponse::Array)
}

/// `textDocument/definition`.
pub fn definition(cx: &Context, pos: Position) -> Option<GotoDefinitionResponse> {
    if let Some(d) = value_documents::definition(cx.runs, cx.path, cx.text, pos) {
        return Some(d);
    }
    if let Some(read) = read_at(cx, pos) {
        let found = values::definition(cx.runs, &segs(&read.path));
        return (!found.is_empty()).then_some(GotoDefinitionResponse::Array(found));
    }
    if let Some(found) = overlays::definition(cx.runs, cx.path, cx.text, pos) {
        return Some(GotoDefinitionResponse::Array(found));
    }
    definition::definition(cx.ws, cx.text, cx.path, pos).map(GotoDefinitionResponse::Scalar)
}

/// `textDocument/references` of a data value (its read in code, or its key in a values
/// or schema document): every read of it, or of a value inside it, in the files its runs
/// read; with its declaration when asked.
pub fn references(cx: &Context, pos: Position, declaration: bool) -> Option<Vec<Location>> {
    let path: Vec<String> = match read_at(cx, pos) {
        Some(read) => read.path,
        None => {
            let values_file = cx.runs.iter().any(|r| r.values_files.contains(cx.path));
            let segs = value_documents::path_at(cx.text, pos, values_file)?;
            // a read names keys only: a path through an array item is read as a whole
            (segs.into_iter())
                .map_while(|s| match s {
                    Seg::Key(k) => Some(k),
                    Seg::Index(_) => None,
                })
                .collect()
        }
    };
    if path.is_empty() {
        return None;
    }
    let mut found = Vec::new();
    if declaration {
        found.extend(
            values::definition(cx.runs, &segs(&path))
                .into_iter()
                .take(1),
        );
    }
    let mut seen: BTreeSet<&PathBuf> = BTreeSet::new();
    for run in cx.runs {
        for (file, bytes) in run.files.values() {
            if !seen.insert(file) {
                continue;
            }
            // the editor's text of the asking file, the run's of the others
            let owned;
            let text = if file == cx.path {
                cx.text
            } else {
                owned = String::from_utf8_lossy(bytes);
                &owned
            };
            let uri = uri::from_path(file);
            for read in reads::data_value_reads(text, file) {
                if read.path.starts_with(&path) {
                    found.push(Location {
                        uri: uri.clone(),
                        range: read.range,
                    });
                }
            }
        }
    }
    Some(found)
}

/// `textDocument/inlayHint`: beside each read of a data value in `range`, its final value
/// (of the first run that has it), shortened.
pub fn inlay_hints(cx: &Context, range: Range) -> Vec<InlayHint> {
    let reads = reads::data_value_reads(cx.text, cx.path);
    (reads.into_iter())
        .filter(|r| !r.path.is_empty() && r.range.end >= range.start && r.range.start <= range.end)
        .filter_map(|r| {
            let path = segs(&r.path);
            let value = cx.runs.iter().find_map(|run| run.value(&path))?;
            Some(InlayHint {
                position: r.range.end,
                label: InlayHintLabel::String(format!("= {}", short(value))),
                kind: None,
                text_edits: None,
                tooltip: Some(InlayHintTooltip::String(format!(
                    "data.values.{}: the last render's value",
                    r.path.join(".")
                ))),
                padding_left: Some(true),
                padding_right: None,
                data: None,
            })
        })
        .collect()
}

/// A value on one line: a scalar as YAML writes it, a map or array by its size.
fn short(value: &Node) -> String {
    let one_line = match value {
        Node::Map(m) if !m.items.is_empty() => format!("{{…{} keys}}", m.items.len()),
        Node::Array(a) if !a.items.is_empty() => format!("[…{} items]", a.items.len()),
        _ => ytt::yaml::emit::yaml_node(value)
            .trim_end()
            .replace('\n', " "),
    };
    match one_line.char_indices().nth(HINT_CHARS) {
        Some((cut, _)) => format!("{}…", &one_line[..cut]),
        None => one_line,
    }
}

/// `textDocument/codeAction`: declaring an undeclared data value in the schema, then the
/// fixes the diagnostics' messages suggest.
pub fn code_actions(
    cx: &Context,
    uri: &Uri,
    range: Range,
    diagnostics: &[Diagnostic],
) -> Vec<CodeActionOrCommand> {
    let read = |p: &Path| (cx.ws.read)(p);
    let declared = declare::actions(cx.runs, diagnostics, &read);
    let fixes = actions::code_actions(uri, cx.text, cx.path, range, diagnostics);
    (declared.into_iter().map(CodeActionOrCommand::CodeAction))
        .chain(fixes)
        .collect()
}
