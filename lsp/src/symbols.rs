//! A file's outline (`textDocument/documentSymbol`): a YAML file's documents (with the
//! keys of data-values and schema documents beneath them), the `def`s of its code, and a
//! `.star` file's top-level assignments.

use std::path::Path;

use lsp_types::{DocumentSymbol, Range, SymbolKind};
use ytt::frontend::syntax::{self, CommentKind};
use ytt::yaml::parser::{self, ParseOptions};
use ytt::yaml::{Doc, FileId, Map, Node};

use crate::names;
use crate::source::{Language, Source};
use crate::text;

/// The outline of `text`, the file at `path`.
pub fn document_symbols(text: &str, path: &Path) -> Vec<DocumentSymbol> {
    let source = Source::read(text, path);
    let mut code: Vec<DocumentSymbol> = (names::bindings(&source).into_iter())
        .filter(|b| b.is_def || source.language == Language::Starlark)
        .map(|b| {
            let r = range(text, b.range);
            symbol(
                b.name,
                if b.is_def {
                    SymbolKind::FUNCTION
                } else {
                    SymbolKind::VARIABLE
                },
                r,
                Vec::new(),
            )
        })
        .collect();
    if source.language != Language::Yaml {
        return code;
    }
    let lines = text.split('\n').count() as u32;
    let docs = parser::parse(text, FileId::default(), &ParseOptions::default()).ok();
    // each document: from its `---` (or the file's start) to the next one
    let starts = &source.documents;
    // code before the first document stands alone
    let mut out: Vec<DocumentSymbol> = Vec::new();
    if let Some(&first) = starts.first() {
        out.extend(code.iter().filter(|s| s.range.start.line < first).cloned());
        code.retain(|s| s.range.start.line >= first);
    } else {
        out.append(&mut code);
    }
    for (n, &start) in starts.iter().enumerate() {
        let next = starts.get(n + 1).map_or(lines, |&s| s);
        // to its last line that is not blank
        let end = (start..next)
            .rev()
            .find(|&l| {
                text::line_len(text, l) > 0
                    && !text
                        .split('\n')
                        .nth(l as usize)
                        .unwrap_or("")
                        .trim()
                        .is_empty()
            })
            .unwrap_or(start);
        let whole = Range::new(
            lsp_types::Position::new(start, 0),
            lsp_types::Position::new(end, text::line_len(text, end)),
        );
        let doc = docs
            .as_ref()
            .and_then(|d| d.docs.iter().find(|d| doc_line(d) == start + 1));
        let (name, keys) = match doc.and_then(kind_of) {
            Some(kind) => (
                format!("document {} ({kind})", n + 1),
                doc.map_or(Vec::new(), |d| map_keys(text, &d.value)),
            ),
            None => (format!("document {}", n + 1), Vec::new()),
        };
        let inside = |s: &DocumentSymbol| s.range.start.line >= start && s.range.start.line <= end;
        let mut children: Vec<DocumentSymbol> =
            code.iter().filter(|s| inside(s)).cloned().collect();
        code.retain(|s| !inside(s));
        children.extend(keys);
        children.sort_by_key(|s| s.range.start);
        out.push(symbol(name, SymbolKind::MODULE, whole, children));
    }
    out.sort_by_key(|s| s.range.start);
    out
}

/// The line (from 1) a document starts on.
fn doc_line(d: &Doc) -> u32 {
    d.meta.pos.line.max(1)
}

/// `data/values`, `data/values-schema` or whatever of them a document's annotations say.
fn kind_of(d: &Doc) -> Option<&'static str> {
    d.meta
        .comments
        .iter()
        .find_map(|c| match syntax::classify(c) {
            CommentKind::Annotation { name, .. } if name == "data/values" => Some("data values"),
            CommentKind::Annotation { name, .. } if name == "data/values-schema" => Some("schema"),
            _ => None,
        })
}

/// The keys of a map, nested.
fn map_keys(text: &str, node: &Node) -> Vec<DocumentSymbol> {
    match node {
        Node::Map(m) => keys_of(text, m),
        Node::Array(a) => a
            .items
            .iter()
            .flat_map(|i| map_keys(text, &i.value))
            .collect(),
        _ => Vec::new(),
    }
}

fn keys_of(text: &str, m: &Map) -> Vec<DocumentSymbol> {
    (m.items.iter())
        .map(|item| {
            let key = item.key.key_text();
            let line = item.meta.pos.line.saturating_sub(1);
            let content = text.split('\n').nth(line as usize).unwrap_or("");
            let col = content.find(key.as_str()).unwrap_or(0);
            let start = text::position_in_line(content, line, col);
            let end = text::position_in_line(content, line, col + key.len());
            let kind = match item.value {
                Node::Map(_) => SymbolKind::OBJECT,
                Node::Array(_) => SymbolKind::ARRAY,
                _ => SymbolKind::FIELD,
            };
            symbol(
                key,
                kind,
                Range::new(start, end),
                map_keys(text, &item.value),
            )
        })
        .collect()
}

fn range(text: &str, (start, end): (usize, usize)) -> Range {
    Range::new(
        text::position_of_offset(text, start),
        text::position_of_offset(text, end),
    )
}

#[allow(deprecated)]
fn symbol(
    name: String,
    kind: SymbolKind,
    range: Range,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    DocumentSymbol {
        name,
        detail: None,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: Range::new(range.start, range.start),
        children: (!children.is_empty()).then_some(children),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: &[DocumentSymbol]) -> Vec<String> {
        s.iter()
            .map(|s| match &s.children {
                Some(c) => format!("{}[{}]", s.name, names(c).join(" ")),
                None => s.name.clone(),
            })
            .collect()
    }

    #[test]
    fn documents_defs_and_keys() {
        let t = "#@data/values-schema\n---\nport: 8080\napp:\n  name: x\n---\n#@ def f():\na: 1\n#@ end\nb: #@ f()\n";
        let s = document_symbols(t, Path::new("a.yml"));
        assert_eq!(
            names(&s),
            ["document 1 (schema)[port app[name]]", "document 2[f]"]
        );
    }

    #[test]
    fn star_files_list_defs_and_assignments() {
        let t = "x = 1\n_y = 2\ndef f():\n  z = 3\n  return z\nend\n";
        assert_eq!(
            names(&document_symbols(t, Path::new("a.star"))),
            ["x", "_y", "f"]
        );
    }

    #[test]
    fn a_broken_file_still_has_documents_and_defs() {
        let t = "#@ def f():\na: [\n#@ end\n";
        assert_eq!(
            names(&document_symbols(t, Path::new("a.yml"))),
            ["document 1[f]"]
        );
        // code before the first `---` stands alone
        let t = "#@ def f():\n#@ end\n---\na: 1\n";
        assert_eq!(
            names(&document_symbols(t, Path::new("a.yml"))),
            ["f", "document 1"]
        );
    }
}
