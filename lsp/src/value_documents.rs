//! Data-values and schema documents — `#@data/values` and `#@data/values-schema`
//! documents (overlays on them included) and `--data-values-file` files: where in them a
//! position is, as the path of the data value it names, and the hover, definition and
//! completion there (`crate::values` says what is known of the path). Each returns None
//! where the position is not in such a document.
//!
//! The item under the cursor is found by the engine's parser (its positions); the keys
//! around the cursor while typing, and its document's annotations, by their columns and
//! comments (a document being typed seldom parses).

use std::path::Path;

use lsp_types::{CompletionResponse, GotoDefinitionResponse, Hover, Position};
use ytt::frontend::Seg;
use ytt::workspace::values::{is_data_values_doc, is_schema_doc, is_values_annotation};
use ytt::yaml::parser::{parse, ParseOptions};
use ytt::yaml::{Doc, FileId, Node};

use crate::values::{self, RunFacts};
use crate::{hover, text};

/// `textDocument/hover` on a key (or its value) of a data-values or schema document.
pub fn hover(
    runs: &[&RunFacts],
    file: &Path,
    text: &str,
    pos: Position,
    base: &Path,
) -> Option<Hover> {
    let path = path_at(text, pos, is_values_file(runs, file))?;
    let markdown = values::hover(runs, &path, base)?;
    let range = text::engine_range(text, pos.line + 1, None);
    Some(hover::of_markdown(markdown, Some(range)))
}

/// `textDocument/definition` on a key of a data-values or schema document: its schema
/// declaration and the lines that set it.
pub fn definition(
    runs: &[&RunFacts],
    file: &Path,
    text: &str,
    pos: Position,
) -> Option<GotoDefinitionResponse> {
    let path = path_at(text, pos, is_values_file(runs, file))?;
    let found = values::definition(runs, &path);
    (!found.is_empty()).then_some(GotoDefinitionResponse::Array(found))
}

/// `textDocument/completion` in a data-values or schema document: the keys the schema
/// (or the final values) has under the cursor's parent that are not written yet; after
/// `key: `, the values a `one_of` rule allows.
pub fn completion(
    runs: &[&RunFacts],
    file: &Path,
    text: &str,
    pos: Position,
) -> Option<CompletionResponse> {
    let items = match completing(text, pos, is_values_file(runs, file))? {
        Completing::Key { parent, present } => values::complete(runs, &parent, &present),
        Completing::Value(path) => values::allowed(runs, &path),
    };
    Some(CompletionResponse::Array(items))
}

fn is_values_file(runs: &[&RunFacts], file: &Path) -> bool {
    runs.iter().any(|r| r.values_files.contains(file))
}

/// Whether a document holds data values or a schema (any document of a values file).
fn holds_values(doc: &Doc, values_file: bool) -> bool {
    values_file || is_data_values_doc(doc) || is_schema_doc(doc)
}

/// The path of the innermost item on the position's line, in a data-values or schema
/// document (array items by their index in the document).
pub fn path_at(text: &str, pos: Position, values_file: bool) -> Option<Vec<Seg>> {
    let docs = parse(text, FileId::default(), &ParseOptions::default()).ok()?;
    let line = pos.line + 1;
    let mut found = None;
    for doc in docs.docs.iter().filter(|d| holds_values(d, values_file)) {
        innermost(&doc.value, line, &mut Vec::new(), &mut found);
    }
    found
}

fn innermost(n: &Node, line: u32, path: &mut Vec<Seg>, found: &mut Option<Vec<Seg>>) {
    let mut visit = |seg: Seg, item_line: u32, value: &Node, found: &mut Option<Vec<Seg>>| {
        path.push(seg);
        if item_line == line {
            *found = Some(path.clone());
        }
        innermost(value, line, path, found);
        path.pop();
    };
    match n {
        Node::Map(m) => {
            for i in &m.items {
                visit(Seg::Key(i.key.key_text()), i.meta.pos.line, &i.value, found);
            }
        }
        Node::Array(a) => {
            for (index, i) in a.items.iter().enumerate() {
                visit(Seg::Index(index), i.meta.pos.line, &i.value, found);
            }
        }
        _ => {}
    }
}

/// What is typed at a position of a data-values or schema document.
#[derive(Debug, PartialEq)]
pub enum Completing {
    /// A key under `parent`; `present`: the keys written beside it.
    Key {
        parent: Vec<Seg>,
        present: Vec<String>,
    },
    /// The value of the item at this path (after `key: `).
    Value(Vec<Seg>),
}

/// What is typed at `pos`, where its document holds data values or a schema: the parents
/// are the keys above at smaller columns, the items of arrays (`- `) index 0.
pub fn completing(text: &str, pos: Position, values_file: bool) -> Option<Completing> {
    let lines: Vec<&str> = text.split('\n').collect();
    let at = pos.line as usize;
    let current = *lines.get(at)?;
    if !values_file && !annotated_values(&lines[..at]) {
        return None;
    }
    let before = &current[..text::offset_of_position(current, Position::new(0, pos.character))];
    let typed = Line::read(before)?;
    // the line's own array items are parents of what is typed
    let mut parents: Vec<(usize, Seg)> = typed.items.clone();
    let key_col = typed.column;
    if let Some(key) = typed.key.filter(|k| k.1) {
        let mut path = parents_above(
            &lines[..at],
            first_column(&parents, key_col),
            !parents.is_empty(),
        );
        path.extend(parents.drain(..).map(|(_, s)| s));
        path.push(Seg::Key(key.0));
        return Some(Completing::Value(path));
    }
    let limit = first_column(&parents, key_col);
    let mut parent = parents_above(&lines[..at], limit, !parents.is_empty());
    let mut present = Vec::new();
    if parents.is_empty() {
        present = siblings(&lines[..at], &lines[at + 1..], key_col);
    }
    parent.extend(parents.drain(..).map(|(_, s)| s));
    Some(Completing::Key { parent, present })
}

/// Whether the document that the lines `above` end in is annotated `@data/values` or
/// `@data/values-schema`: an annotation in the comments before its `---`, or on it.
fn annotated_values(above: &[&str]) -> bool {
    let start = above.iter().rposition(|l| l.starts_with("---"));
    let header = match start {
        Some(i) => {
            let before = above[..i].iter().rev().take_while(|l| l.starts_with('#'));
            let on = above[i].trim_start_matches('-').trim_start();
            before
                .chain(std::iter::once(&on))
                .copied()
                .collect::<Vec<&str>>()
        }
        None => above
            .iter()
            .take_while(|l| l.starts_with('#'))
            .copied()
            .collect(),
    };
    header.iter().any(|l| {
        let Some(annotation) = l.strip_prefix("#@") else {
            return false;
        };
        let name = annotation
            .split(|c: char| c.is_whitespace() || c == '(')
            .next();
        name.is_some_and(is_values_annotation)
    })
}

/// The column of the first item a line opens (its first `- `, or its key).
fn first_column(items: &[(usize, Seg)], key_col: usize) -> usize {
    items.first().map_or(key_col, |(c, _)| *c)
}

/// The path of the items above that hold a line starting at `limit` (with an array item
/// when `item`): each key or array item at a smaller column than the one below it, up
/// to the document's start.
fn parents_above(above: &[&str], limit: usize, item: bool) -> Vec<Seg> {
    let (mut limit, mut item) = (limit, item);
    let mut path = Vec::new();
    for line in above.iter().rev() {
        if limit == 0 && !item {
            break;
        }
        if line.starts_with("---") {
            break;
        }
        let Some(l) = opening(line) else { continue };
        let mut opened: Vec<(usize, Seg)> = l.items;
        if let Some((key, _)) = l.key {
            opened.push((l.column, Seg::Key(key)));
        }
        for (col, seg) in opened.into_iter().rev() {
            // an array's `- ` may be written at its key's column
            let holds = col < limit || (item && col == limit && matches!(seg, Seg::Key(_)));
            if holds {
                item = matches!(seg, Seg::Index(_));
                path.push(seg);
                limit = col;
            }
        }
    }
    path.reverse();
    path
}

/// The keys written at column `col` in the block the cursor's line is in.
fn siblings(above: &[&str], below: &[&str], col: usize) -> Vec<String> {
    let mut keys = Vec::new();
    let mut scan = |line: &&str| -> bool {
        if line.starts_with("---") {
            return false;
        }
        let Some(l) = opening(line) else {
            return true;
        };
        let start = first_column(&l.items, l.column);
        if start < col {
            // the parent's line holds, after its `- `, a sibling at `col`
            if let (Some((key, _)), false) = (&l.key, l.items.is_empty()) {
                if l.column == col {
                    keys.push(key.clone());
                }
            }
            return false;
        }
        // (a `- ` at the column is an array's item, written at its key's column)
        if start == col && l.items.is_empty() {
            if let Some((key, _)) = l.key {
                keys.push(key);
            }
        }
        true
    };
    for line in above.iter().rev() {
        if !scan(line) {
            break;
        }
    }
    for line in below {
        if !scan(line) {
            break;
        }
    }
    keys
}

/// What a line of block YAML opens: its array items (`- `) and its key.
#[derive(Debug)]
struct Line {
    /// Each `- `, at its column, as the item it opens.
    items: Vec<(usize, Seg)>,
    /// The column after the indentation and the `- `s.
    column: usize,
    /// The key written there, and whether its `:` is written (a value may follow).
    key: Option<(String, bool)>,
}

/// A line above the cursor's that opens something (not blank, not a comment).
fn opening(line: &str) -> Option<Line> {
    Line::read(line).filter(|l| l.key.is_some() || !l.items.is_empty())
}

impl Line {
    /// None for a line with nothing on it but a comment.
    fn read(line: &str) -> Option<Line> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let mut col = line.len() - line.trim_start_matches(' ').len();
        let mut rest = &line[col..];
        if rest.starts_with('#') {
            return None;
        }
        let mut items = Vec::new();
        while rest == "-" || rest.starts_with("- ") {
            items.push((col, Seg::Index(0)));
            let after = rest[1..].trim_start_matches(' ');
            col += rest.len() - after.len();
            rest = after;
        }
        let key = match rest
            .find(": ")
            .or_else(|| rest.strip_suffix(':').map(str::len))
        {
            Some(i) => Some((unquoted(&rest[..i]), true)),
            None if rest.is_empty() => None,
            None => Some((unquoted(rest), false)),
        };
        Some(Line {
            items,
            column: col,
            key,
        })
    }
}

fn unquoted(key: &str) -> String {
    let key = key.trim();
    for q in ['"', '\''] {
        if let Some(inner) = key.strip_prefix(q).and_then(|k| k.strip_suffix(q)) {
            return inner.to_owned();
        }
    }
    key.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: &str) -> Seg {
        Seg::Key(k.into())
    }

    const VALUES: &str = "#@data/values
---
app:
  replicas: 2
  ports:
  - name: http
    port: 80
---
other: 1
";

    #[test]
    fn a_position_names_the_innermost_item_on_its_line() {
        let at = |line, col| path_at(VALUES, Position::new(line, col), false);
        assert_eq!(at(3, 5), Some(vec![key("app"), key("replicas")]));
        assert_eq!(
            at(5, 4),
            Some(vec![key("app"), key("ports"), Seg::Index(0), key("name")])
        );
        // a document that is neither data values nor a schema, unless a values file
        assert_eq!(at(8, 1), None);
        assert_eq!(
            path_at(VALUES, Position::new(8, 1), true),
            Some(vec![key("other")])
        );
        assert_eq!(at(1, 0), None);
    }

    #[test]
    fn a_key_being_typed_is_under_the_keys_above_it() {
        let text =
            "#@data/values-schema\n---\napp:\n  replicas: 1\n  re\n  ports:\n  - name: x\n    po\n";
        let at = |line, col| completing(text, Position::new(line, col), false);
        assert_eq!(
            at(4, 4),
            Some(Completing::Key {
                parent: vec![key("app")],
                present: vec!["replicas".into(), "ports".into()],
            })
        );
        assert_eq!(
            at(7, 6),
            Some(Completing::Key {
                parent: vec![key("app"), key("ports"), Seg::Index(0)],
                present: vec!["name".into()],
            })
        );
        assert_eq!(
            at(3, 12),
            Some(Completing::Value(vec![key("app"), key("replicas")]))
        );
        // a new array item
        let text = "#@data/values\n---\nlist:\n- \n";
        assert_eq!(
            completing(text, Position::new(3, 2), false),
            Some(Completing::Key {
                parent: vec![key("list"), Seg::Index(0)],
                present: vec![],
            })
        );
        // a blank line at the document's top level
        let text = "#@data/values\n---\na: 1\n\n";
        assert_eq!(
            completing(text, Position::new(3, 0), false),
            Some(Completing::Key {
                parent: vec![],
                present: vec!["a".into()],
            })
        );
        // not a data-values document
        assert_eq!(completing("a:\n  b\n", Position::new(1, 3), false), None);
    }
}
