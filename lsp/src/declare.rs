//! The code action "Declare `a.b` in the schema", offered on the engine's report of a
//! data value the schema does not declare. The engine says it in two ways:
//!
//! - a values file or a flag (merged, then checked): the schema report's item `Given
//!   data value is not declared in schema`, with the value's source line, `found: KEY`
//!   and the map it is missing from, `(from schema.yml:LINE)`;
//! - a `@data/values` document (an overlay on the schema's defaults): the overlay's
//!   `Map item (key 'K') on line FILE:LINE` chain, ending in `Expected number of matched
//!   nodes to be 1, but was 0`; the map it is missing from is the schema's field at the
//!   chain's parent path.
//!
//! The key is inserted at the end of that map's block in the schema file, at its
//! children's indentation, with the value given as its default: the schema infers the
//! type from it.

use std::path::Path;

use lsp_types::{
    CodeAction, CodeActionKind, Diagnostic, DocumentChanges, OneOf,
    OptionalVersionedTextDocumentIdentifier, Position, Range, TextDocumentEdit, TextEdit,
    WorkspaceEdit,
};
use ytt::frontend::Seg;
use ytt::schema::export::{Field, FieldKind};
use ytt::yaml::emit::yaml_node;
use ytt::yaml::parser::{parse, ParseOptions};
use ytt::yaml::{FileId, Location, Map, MapItem, Meta, Node};

use crate::uri;
use crate::values::RunFacts;

const UNDECLARED: &str = "Given data value is not declared in schema";
const UNMATCHED: &str = "Expected number of matched nodes to be 1, but was 0";

/// A file's text as the editor has it.
type TextOf<'a> = &'a dyn Fn(&Path) -> Option<String>;

/// The actions declaring the undeclared data values `diagnostics` report, in the schema
/// of the runs (`runs`); `text_of` reads a file's text as the editor has it.
pub fn actions(runs: &[&RunFacts], diagnostics: &[Diagnostic], text_of: TextOf) -> Vec<CodeAction> {
    let mut out: Vec<CodeAction> = Vec::new();
    for d in diagnostics {
        for run in runs {
            for undeclared in undeclared(&d.message, run, text_of) {
                let Some(action) = declare(run, &undeclared, text_of) else {
                    continue;
                };
                if !out.iter().any(|a| a.title == action.title) {
                    out.push(CodeAction {
                        diagnostics: Some(vec![d.clone()]),
                        ..action
                    });
                }
            }
        }
    }
    out
}

/// A data value the schema does not declare.
struct Undeclared {
    /// The key, and the path of the map it is missing from (when known).
    key: String,
    parent: Option<Vec<Seg>>,
    /// Where the schema's map is (its item's line, or its document's).
    map: Location,
    /// The value given.
    value: Node,
}

/// What `message` reports as undeclared, with the positions `run` knows.
fn undeclared(message: &str, run: &RunFacts, text_of: TextOf) -> Vec<Undeclared> {
    if message.contains(UNDECLARED) {
        return message
            .split(UNDECLARED)
            .skip(1)
            .filter_map(|item| from_report(item, run, text_of))
            .collect();
    }
    if message.contains(UNMATCHED) && message.contains("Overlaying data values") {
        return from_overlay(message, run, text_of).into_iter().collect();
    }
    Vec::new()
}

/// An item of the schema report: its source (`file:` then `  N | text`), `found: KEY`,
/// `(from FILE:LINE)`.
fn from_report(item: &str, run: &RunFacts, text_of: TextOf) -> Option<Undeclared> {
    let lines: Vec<&str> = item.lines().collect();
    let source = lines
        .iter()
        .find(|l| l.ends_with(':'))?
        .trim_end_matches(':');
    let (line, written) = lines.iter().find_map(|l| {
        let (n, text) = l.split_once(" | ")?;
        Some((n.trim().parse::<u32>().ok()?, text))
    })?;
    let key = lines
        .iter()
        .find_map(|l| l.trim().strip_prefix("= found: "))?;
    let from = item.rsplit_once("(from ")?.1.split_once(')')?.0;
    let (file, map_line) = from.rsplit_once(':')?;
    let value = match run.files.get(source) {
        Some(_) => value_in_file(run, source, line, key, text_of)?,
        None => value_of_flag(source, written, key)?,
    };
    let map = Location::new(file, map_line.parse().ok()?);
    Some(Undeclared {
        key: key.to_owned(),
        parent: run
            .facts
            .schema
            .as_ref()
            .and_then(|s| s.root.as_ref())
            .and_then(|root| declared_at(root, &map)),
        map,
        value,
    })
}

/// The path of the schema's map declared at `at`.
fn declared_at(f: &Field, at: &Location) -> Option<Vec<Seg>> {
    if f.pos == *at {
        return Some(Vec::new());
    }
    let (seg, child) = match &f.kind {
        FieldKind::Map(items) => items
            .iter()
            .find_map(|(k, child)| Some((Seg::Key(k.key_text()), declared_at(child, at)?)))?,
        FieldKind::Array(item) => (Seg::Index(0), declared_at(item, at)?),
        _ => return None,
    };
    Some(std::iter::once(seg).chain(child).collect())
}

/// The overlay's chain `Map item (key 'K') on line FILE:LINE:` down to the key no item of
/// the schema's defaults matched.
fn from_overlay(message: &str, run: &RunFacts, text_of: TextOf) -> Option<Undeclared> {
    let mut path = Vec::new();
    let mut last = None;
    for l in message.lines() {
        let Some(rest) = l.trim().strip_prefix("Map item (key '") else {
            continue;
        };
        let (key, rest) = rest.split_once("') on line ")?;
        let (file, line) = rest.trim_end_matches(':').rsplit_once(':')?;
        path.push(Seg::Key(key.to_owned()));
        last = Some((key.to_owned(), file.to_owned(), line.parse::<u32>().ok()?));
    }
    let (key, file, line) = last?;
    path.pop();
    let map = run.field(&path)?.pos.clone();
    Some(Undeclared {
        value: value_in_file(run, &file, line, &key, text_of)?,
        key,
        parent: Some(path),
        map,
    })
}

/// The value of the item `key` on line `line` of the run's file `name`, as the editor
/// has it.
fn value_in_file(
    run: &RunFacts,
    name: &str,
    line: u32,
    key: &str,
    text_of: TextOf,
) -> Option<Node> {
    let (path, _) = run.files.get(name)?;
    let docs = parse(&text_of(path)?, FileId::default(), &ParseOptions::default()).ok()?;
    docs.docs.iter().find_map(|d| item_on(&d.value, line, key))
}

fn item_on(n: &Node, line: u32, key: &str) -> Option<Node> {
    match n {
        Node::Map(m) => m.items.iter().find_map(|i| {
            if i.meta.pos.line == line && i.key.key_text() == key {
                return Some(i.value.clone());
            }
            item_on(&i.value, line, key)
        }),
        Node::Array(a) => a.items.iter().find_map(|i| item_on(&i.value, line, key)),
        _ => None,
    }
}

/// The value a flag (`a.b.c=value`) gives under its key `key`: the rest of its path as
/// maps around its value (read as YAML for `--data-value-yaml`, else a string).
fn value_of_flag(source: &str, written: &str, key: &str) -> Option<Node> {
    let (path, value) = written.split_once('=')?;
    let path = path.rsplit_once(':').map_or(path, |(_, p)| p);
    let keys: Vec<&str> = path.split('.').collect();
    let at = keys.iter().position(|k| *k == key)?;
    let mut node = if source.starts_with("(data-value-yaml") {
        let docs = parse(value, FileId::default(), &ParseOptions::default()).ok()?;
        docs.docs.into_iter().next().map_or(Node::Null, |d| d.value)
    } else {
        Node::Str(value.into())
    };
    for k in keys[at + 1..].iter().rev() {
        node = map_of(k, node);
    }
    Some(node)
}

fn map_of(key: &str, value: Node) -> Node {
    Node::Map(Map {
        items: vec![MapItem {
            key: Node::Str(key.into()),
            value,
            meta: Meta::default(),
        }]
        .into(),
    })
}

/// The action inserting `u` into the schema file its map is in.
fn declare(run: &RunFacts, u: &Undeclared, text_of: TextOf) -> Option<CodeAction> {
    let (path, _) = run.files.get(u.map.file.as_deref()?)?;
    let schema = text_of(path)?;
    let (at, indent) = insertion(&schema, u.map.line)?;
    let yaml = yaml_node(&map_of(&u.key, u.value.clone()));
    let mut new: String = yaml
        .lines()
        .map(|l| format!("{}{l}\n", " ".repeat(indent)))
        .collect();
    let at = if at.line as usize >= schema.split('\n').count() {
        // after a last line without its line break
        new.insert(0, '\n');
        crate::text::position_of_offset(&schema, schema.len())
    } else {
        at
    };
    let shown = match &u.parent {
        Some(parent) if !parent.is_empty() => {
            let mut full = parent.clone();
            full.push(Seg::Key(u.key.clone()));
            crate::values::dotted(&full)
        }
        _ => u.key.clone(),
    };
    let edit = TextEdit::new(Range::new(at, at), new);
    let change = TextDocumentEdit {
        text_document: OptionalVersionedTextDocumentIdentifier {
            uri: uri::from_path(path),
            version: None,
        },
        edits: vec![OneOf::Left(edit)],
    };
    Some(CodeAction {
        title: format!("Declare `{shown}` in the schema"),
        kind: Some(CodeActionKind::QUICKFIX),
        edit: Some(WorkspaceEdit {
            document_changes: Some(DocumentChanges::Edits(vec![change])),
            ..WorkspaceEdit::default()
        }),
        ..CodeAction::default()
    })
}

/// Where a child of the map on line `line` (from 1: a key's line, or a document's `---`)
/// goes in `schema`: after the last line of the map's block, at its children's
/// indentation. None when the map is written on its line (a flow map).
fn insertion(schema: &str, line: u32) -> Option<(Position, usize)> {
    let lines: Vec<&str> = schema.split('\n').collect();
    let at = (line as usize).checked_sub(1)?;
    let parent = *lines.get(at)?;
    let document = parent.starts_with("---") || parent.trim_start().starts_with("#@");
    let parent_col = if document {
        None
    } else {
        let content = parent.trim_start_matches([' ', '-']);
        let (_, value) = content.split_once(':')?;
        let value = value.trim();
        if !(value.is_empty() || value.starts_with('#')) {
            return None;
        }
        Some(parent.len() - content.len())
    };
    let mut children = None;
    let mut last = at;
    for (i, l) in lines.iter().enumerate().skip(at + 1) {
        if l.starts_with("---") {
            break;
        }
        let content = l.trim_start();
        if content.is_empty() {
            continue;
        }
        let col = l.len() - content.len();
        if parent_col.is_some_and(|p| col <= p) {
            break;
        }
        if content.starts_with('#') {
            continue;
        }
        children.get_or_insert(col);
        last = i;
    }
    let indent = children.unwrap_or(parent_col.map_or(0, |p| p + 2));
    Some((Position::new(last as u32 + 1, 0), indent))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::tests::{facts_of, SCHEMA};

    fn run() -> RunFacts {
        facts_of(&[("schema.yml", SCHEMA)], &[])
    }

    fn inserted(actions: &[CodeAction]) -> Vec<(String, String, u32)> {
        actions
            .iter()
            .map(|a| {
                let Some(DocumentChanges::Edits(changes)) =
                    &a.edit.as_ref().unwrap().document_changes
                else {
                    panic!("edits")
                };
                let OneOf::Left(edit) = &changes[0].edits[0] else {
                    panic!("an edit")
                };
                (
                    a.title.clone(),
                    edit.new_text.clone(),
                    edit.range.start.line,
                )
            })
            .collect()
    }

    fn diagnostic(message: &str) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            ..Diagnostic::default()
        }
    }

    #[test]
    fn a_flag_or_values_file_key_is_declared_in_its_map() {
        let run = run();
        let text_of = |_: &Path| Some(SCHEMA.to_owned());
        let report = "Overlaying data values (in following order: additional data values): \nOne or more data values were invalid\n====================================\n\nGiven data value is not declared in schema\n(data-value-yaml arg):\n    |\n  1 | app.db.host=[x]\n    |\n\n    = found: db\n    = expected: one of { level, ports, replicas } (from schema.yml:4)\n";
        let actions = actions(&[&run], &[diagnostic(report)], &text_of);
        assert_eq!(
            inserted(&actions),
            [(
                "Declare `app.db` in the schema".into(),
                "  db:\n    host:\n    - x\n".into(),
                11
            )]
        );
    }

    #[test]
    fn a_data_values_document_key_is_declared_under_its_parent() {
        let run = facts_of(
            &[
                ("schema.yml", SCHEMA),
                ("v.yml", "#@data/values\n---\napp: {}\n"),
            ],
            &[],
        );
        // the editor's text, not the run's
        let values = "#@data/values\n---\napp:\n  extra:\n    size: 2\n";
        let text_of = |p: &Path| match p.ends_with("v.yml") {
            true => Some(values.to_owned()),
            false => Some(SCHEMA.to_owned()),
        };
        let report = "Overlaying data values (in following order: v.yml):\n  Document on line v.yml:2:\n    Map item (key 'app') on line v.yml:3:\n      Map item (key 'extra') on line v.yml:4:\n        Expected number of matched nodes to be 1, but was 0";
        let actions = actions(&[&run], &[diagnostic(report)], &text_of);
        assert_eq!(
            inserted(&actions),
            [(
                "Declare `app.extra` in the schema".into(),
                "  extra:\n    size: 2\n".into(),
                11
            )]
        );
    }

    #[test]
    fn a_child_goes_after_the_maps_block_at_its_childrens_indentation() {
        let run = run();
        // a schema file whose last line has no line break
        let text_of = |_: &Path| Some(SCHEMA.trim_end().to_owned());
        let report = "Given data value is not declared in schema\n(data-value arg):\n    |\n  1 | x=1\n    |\n\n    = found: x\n    = expected: a map item with the key named \"app\" (from schema.yml:2)\n";
        let actions = actions(&[&run], &[diagnostic(report)], &text_of);
        assert_eq!(
            inserted(&actions),
            [(
                "Declare `x` in the schema".into(),
                "\nx: \"1\"\n".into(),
                10
            )]
        );
        let schema = "#@data/values-schema\n---\na:\n  # note\n    b: 1\n\n    c: 2\n\nd: {}\ne:\n";
        assert_eq!(insertion(schema, 3), Some((Position::new(7, 0), 4)));
        // the document: at its end, at column 0
        assert_eq!(insertion(schema, 2), Some((Position::new(10, 0), 0)));
        // a map written on its line; a map without children
        assert_eq!(insertion(schema, 9), None);
        assert_eq!(insertion(schema, 10), Some((Position::new(10, 0), 2)));
    }
}
