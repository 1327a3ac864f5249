//! Completion from a file's text (`textDocument/completion`): annotation names after
//! `#@` and an annotation's keyword arguments; in a `load()`, the module paths (`@ytt:`
//! modules, `@name:` libraries, the files a load can name) and the names the module
//! exports; after `module.`, what an `@ytt:` module offers. Data values (`data.values.`)
//! are not this module's: it answers None there.

use std::path::{Path, PathBuf};

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, Documentation, Position, Range,
    TextEdit,
};
use ytt::frontend::syntax::{self, TokenKind};

use crate::loading::{self, Workspace};
use crate::names::{self, Load};
use crate::reference;
use crate::source::{Language, Source};
use crate::text;

/// What to offer at `pos` of `text` (the file at `path`), or None where this module has
/// nothing to say.
pub fn completion(
    ws: &Workspace,
    text: &str,
    path: &Path,
    pos: Position,
) -> Option<Vec<CompletionItem>> {
    let source = Source::read(text, path);
    let at = text::offset_of_position(text, pos);
    if let Some(items) = annotation_names(&source, at) {
        return Some(items);
    }
    if let Some(items) = annotation_keywords(&source, at) {
        return Some(items);
    }
    let loads = names::loads(&source);
    if let Some(items) = in_load(ws, &source, path, &loads, at) {
        return Some(items);
    }
    module_members(ws, &source, &loads, at)
}

fn range(text: &str, start: usize, end: usize) -> Range {
    Range::new(
        text::position_of_offset(text, start),
        text::position_of_offset(text, end),
    )
}

fn item(
    label: String,
    kind: CompletionItemKind,
    detail: Option<String>,
    edit: Range,
) -> CompletionItem {
    CompletionItem {
        text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(edit, label.clone()))),
        label,
        kind: Some(kind),
        detail,
        ..CompletionItem::default()
    }
}

/// After `#@` in a YAML template, the name being typed (`#@over|`, `#@|`).
fn annotation_names(source: &Source, at: usize) -> Option<Vec<CompletionItem>> {
    if source.language != Language::Yaml {
        return None;
    }
    let text = source.text;
    let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    let before = &text[line_start..at];
    let hash = before.rfind("#@")?;
    let typed = &before[hash + 2..];
    if !typed
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_'))
    {
        return None;
    }
    // the comment starts there: at the line's start or after a blank
    if hash > 0 && !before[..hash].ends_with([' ', '\t']) {
        return None;
    }
    let edit = range(text, line_start + hash + 2, at);
    Some(
        (syntax::annotations().into_iter())
            .map(|(name, _)| item(name.to_owned(), CompletionItemKind::KEYWORD, None, edit))
            .collect(),
    )
}

/// In an annotation's arguments, where a keyword argument may start: its keywords.
fn annotation_keywords(source: &Source, at: usize) -> Option<Vec<CompletionItem>> {
    let a = (source.annotations.iter()).find(|a| a.args.start <= at && at <= a.args.end)?;
    let text = source.text;
    // what is typed of a name, and what comes before it
    let typed_start = text[..at]
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1)
        .max(a.args.start);
    let before = text[a.args.start..typed_start].trim_end();
    if !(before.is_empty() || before.ends_with(',')) {
        return Some(Vec::new());
    }
    let keywords = (syntax::annotations().into_iter())
        .find(|(n, _)| *n == a.name)?
        .1;
    let edit = range(text, typed_start, at);
    Some(
        (keywords.into_iter())
            .map(|k| {
                let mut i = item(format!("{k}="), CompletionItemKind::PROPERTY, None, edit);
                i.label = k.to_owned();
                i
            })
            .collect(),
    )
}

/// Inside a `load(` string: module paths in the first, exported names in the others.
fn in_load(
    ws: &Workspace,
    source: &Source,
    path: &Path,
    loads: &[Load],
    at: usize,
) -> Option<Vec<CompletionItem>> {
    let text = source.text;
    let inside = |r: (usize, usize)| r.0 < at && (at < r.1 || (at == r.1 && !closed(text, r)));
    // a load being typed may have no statement yet: `load("` is an unterminated string
    if let Some(l) = loads.iter().find(|l| inside(l.module.range)) {
        let start = l.module.range.0 + 1;
        return Some(module_paths(
            ws,
            path,
            &text[start..at],
            range(text, start, at),
        ));
    }
    match unterminated_load(source, at) {
        Some((start, None)) => {
            return Some(module_paths(
                ws,
                path,
                &text[start..at],
                range(text, start, at),
            ));
        }
        Some((start, Some(module))) => {
            return Some(exported(ws, path, &module, range(text, start, at)))
        }
        None => {}
    }
    let l = loads
        .iter()
        .find(|l| l.range.0 < at && at <= l.range.1 + 1)?;
    // a string among the names (`"x"` or `local="x"`)
    let name = (l.names.iter()).find(|n| inside(n.exported.range))?;
    let start = name.exported.range.0 + 1;
    Some(exported(ws, path, &l.module.value, range(text, start, at)))
}

fn exported(ws: &Workspace, path: &Path, module: &str, edit: Range) -> Vec<CompletionItem> {
    (loading::exports(ws, path, module).into_iter())
        .map(|n| {
            item(
                n,
                CompletionItemKind::FUNCTION,
                Some(module.to_owned()),
                edit,
            )
        })
        .collect()
}

/// Is this string token closed (its last character its opening quote)?
fn closed(text: &str, (start, end): (usize, usize)) -> bool {
    let s = &text[start..end];
    s.len() >= 2 && s.chars().last() == s.chars().next()
}

/// A string of a `load(` on the cursor's line left open at the cursor (the lexer stops
/// there): where what is typed of it starts, and the module the load names when the
/// string is not the first.
fn unterminated_load(source: &Source, at: usize) -> Option<(usize, Option<String>)> {
    let text = source.text;
    let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    let before = &text[line_start..at];
    let open = before.rfind("load(")? + 5;
    // the strings after `load(`: (quote, start after it, closed)
    let mut strings: Vec<(usize, Option<usize>)> = Vec::new();
    let mut quote: Option<(char, usize)> = None;
    for (i, c) in before[open..].char_indices() {
        let i = open + i;
        match quote {
            Some((q, start)) if c == q => {
                strings.push((start, Some(i)));
                quote = None;
            }
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some((c, i + 1)),
            None => {}
        }
    }
    let (_, start) = quote?;
    let module = match strings.first() {
        Some(&(s, Some(e))) => Some(before[s..e].to_owned()),
        _ => None,
    };
    Some((line_start + start, module))
}

fn module_paths(ws: &Workspace, path: &Path, typed: &str, edit: Range) -> Vec<CompletionItem> {
    let mut out = Vec::new();
    for m in syntax::module_names(ws.modules) {
        out.push(item(
            format!("@ytt:{m}"),
            CompletionItemKind::MODULE,
            None,
            edit,
        ));
    }
    // in a library named by `@name:`, its files; else the libraries, and the files
    // around this one
    if let Some((lib, _)) = typed.strip_prefix('@').and_then(|r| r.split_once(':')) {
        if let Some((_, dir)) = loading::libraries(ws, path)
            .into_iter()
            .find(|(n, _)| n == lib)
        {
            for f in files_under(ws, &dir, None) {
                out.push(item(
                    format!("@{lib}:{f}"),
                    CompletionItemKind::FILE,
                    None,
                    edit,
                ));
            }
        }
        return out;
    }
    for (name, _) in loading::libraries(ws, path) {
        out.push(item(
            format!("@{name}:"),
            CompletionItemKind::FOLDER,
            None,
            edit,
        ));
    }
    if let Some(dir) = path.parent() {
        for f in files_under(ws, dir, Some(path)) {
            out.push(item(f, CompletionItemKind::FILE, None, edit));
        }
    }
    out
}

/// The loadable files under `dir` (not in a `_ytt_lib` below it), relative to it.
fn files_under(ws: &Workspace, dir: &Path, except: Option<&Path>) -> Vec<String> {
    let mut out: Vec<String> = ((ws.files)().iter())
        .filter(|f| Some(f.as_path()) != except && loading::loadable(f))
        .filter_map(|f| f.strip_prefix(dir).ok().map(PathBuf::from))
        .filter(|rel| !rel.components().any(|c| c.as_os_str() == "_ytt_lib"))
        .map(|rel| rel.to_string_lossy().replace('\\', "/"))
        .collect();
    out.sort();
    out
}

/// After `name.` where `name` is an `@ytt:` module loaded: its members.
fn module_members(
    ws: &Workspace,
    source: &Source,
    loads: &[Load],
    at: usize,
) -> Option<Vec<CompletionItem>> {
    let toks = &source.tokens;
    // the token the cursor ends or is after: a name being typed, or the `.`
    let i = toks.iter().rposition(|t| t.start < at && at <= t.end)?;
    let (dot, typed_start) = match toks[i].kind {
        TokenKind::Name if i > 0 && source.token_text(&toks[i - 1]) == "." => {
            (i - 1, toks[i].start)
        }
        TokenKind::Operator if source.token_text(&toks[i]) == "." => (i, at),
        _ => return None,
    };
    let module_tok = toks.get(dot.checked_sub(1)?)?;
    if module_tok.kind != TokenKind::Name || module_tok.end != toks[dot].start {
        return None;
    }
    let local = source.token_text(module_tok);
    let module = loaded_module(loads, local)?;
    let members = syntax::module_members(ws.modules, module)?;
    let edit = range(source.text, typed_start, at);
    Some(
        (members.into_iter())
            .map(|m| {
                let name = m.name.clone();
                let (signature, doc) =
                    reference::describe(&format!("{module}.{name}"), Some(m)).unwrap_or_default();
                let mut i = item(name, CompletionItemKind::FUNCTION, Some(signature), edit);
                i.documentation = (!doc.is_empty()).then_some(Documentation::String(doc));
                i
            })
            .collect(),
    )
}

/// The `@ytt:` module a local name was loaded as (`load("@ytt:json", j="json")`: `j`).
pub fn loaded_module<'l>(loads: &'l [Load], local: &str) -> Option<&'l str> {
    loads.iter().find_map(|l| {
        let module = l.module.value.strip_prefix("@ytt:")?;
        (l.names.iter())
            .any(|n| n.local == local && n.exported.value == module)
            .then_some(module)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loading::in_memory;

    fn labels(text: &str, path: &str, line: u32, col: u32) -> Option<Vec<String>> {
        let files = [
            ("/w/a.yml", None),
            ("/w/h.star", Some("def f():\nend\n_g = 1\nk = 2\n")),
            ("/w/sub/x.lib.yml", None),
            ("/w/_ytt_lib/g/u.star", None),
            ("/w/v.json", None),
        ];
        in_memory(&files, &ytt_stdlib::modules(), |ws| {
            completion(
                ws,
                text,
                &PathBuf::from(format!("/w/{path}")),
                Position::new(line, col),
            )
            .map(|items| items.into_iter().map(|i| i.label).collect())
        })
    }

    #[test]
    fn annotation_names_and_keywords() {
        let names = labels("#@over\na: 1\n", "a.yml", 0, 6).unwrap();
        assert!(names.contains(&"overlay/match".to_owned()));
        assert!(names.contains(&"schema/validation".to_owned()));
        let kw = labels("#@overlay/match by=\"a\", \na: 1\n", "a.yml", 0, 24).unwrap();
        assert_eq!(kw, ["by", "expects", "missing_ok", "when"]);
        // within a value: nothing
        assert_eq!(
            labels("#@overlay/match by=\"a\"\n", "a.yml", 0, 21).unwrap(),
            Vec::<String>::new()
        );
        // not in a .star file
        assert_eq!(labels("#@over", "h.star", 0, 6), None);
    }

    #[test]
    fn load_paths_and_names() {
        let paths = labels("#@ load(\"\")\n", "a.yml", 0, 9).unwrap();
        assert!(paths.contains(&"@ytt:data".to_owned()) && paths.contains(&"@ytt:json".to_owned()));
        assert!(paths.contains(&"@g:".to_owned()));
        assert!(
            paths.contains(&"h.star".to_owned()) && paths.contains(&"sub/x.lib.yml".to_owned())
        );
        assert!(!paths.contains(&"v.json".to_owned()) && !paths.contains(&"a.yml".to_owned()));
        // being typed, with no closing quote
        let typed = labels("#@ load(\"@g:", "a.yml", 0, 12).unwrap();
        assert!(typed.contains(&"@g:u.star".to_owned()));
        let exported = labels("#@ load(\"h.star\", \"\")\n", "a.yml", 0, 19).unwrap();
        assert_eq!(exported, ["f", "k"]);
        let open = labels("#@ load(\"h.star\", x=\"", "a.yml", 0, 21).unwrap();
        assert_eq!(open, ["f", "k"]);
        let ytt = labels("load(\"@ytt:json\", \"\")\n", "h.star", 0, 19).unwrap();
        assert_eq!(ytt, ["json"]);
    }

    #[test]
    fn members_of_a_loaded_module() {
        let t = "#@ load(\"@ytt:json\", j=\"json\")\na: #@ j.enc\n";
        let members = labels(t, "a.yml", 1, 10).unwrap();
        assert!(members.contains(&"encode".to_owned()), "{members:?}");
        assert_eq!(labels("a: #@ x.\n", "a.yml", 0, 8), None);
    }
}
