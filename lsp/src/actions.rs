//! Quick fixes (`textDocument/codeAction`) for misspelled names: the engine's messages
//! that suggest one (`undefined: x (did you mean y?)`, `struct has no .x field or method
//! (did you mean .y?)`, `load: name x not found in module m (did you mean y?)`, a data
//! value the schema does not declare with `did you mean "y"?`) replace the word on the
//! diagnostic's line; an annotation ytt does not know (it ignores it without a word)
//! near one it knows is replaced by that one.

use std::collections::HashMap;
use std::path::Path;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Diagnostic, Range, TextEdit, Uri,
    WorkspaceEdit,
};
use ytt::frontend::syntax;

use crate::source::Source;
use crate::text;

/// The fixes for `range` of `text` (the file at `path`, `uri`), given the diagnostics
/// the client sends for it.
pub fn code_actions(
    uri: &Uri,
    text: &str,
    path: &Path,
    range: Range,
    diagnostics: &[Diagnostic],
) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    for d in diagnostics {
        for (wrong, right, after_dot) in suggestions(&d.message) {
            if let Some(r) = find_word(text, d.range, &wrong, after_dot) {
                let title = format!("Change to '{right}'");
                out.push(fix(uri, title, r, right, Some(d.clone())));
            }
        }
    }
    let source = Source::read(text, path);
    let known: Vec<&str> = syntax::annotations().into_iter().map(|(n, _)| n).collect();
    for a in &source.annotations {
        if a.line < range.start.line || a.line > range.end.line || known.contains(&a.name.as_str())
        {
            continue;
        }
        if let Some(right) = syntax::nearest(&a.name, known.iter().copied()) {
            let r = Range::new(
                text::position_of_offset(text, a.name_range.0),
                text::position_of_offset(text, a.name_range.1),
            );
            out.push(fix(
                uri,
                format!("Change to '#@{right}'"),
                r,
                right.to_owned(),
                None,
            ));
        }
    }
    out
}

/// The misspelled words and the ones suggested, from an engine's message (and whether
/// the word follows a `.`): a schema's report lists each undeclared value with its hint.
fn suggestions(message: &str) -> Vec<(String, String, bool)> {
    let mut items = message.split("= found: ");
    let first = items.next().unwrap_or("");
    let mut out: Vec<(String, String, bool)> = suggestion(first).into_iter().collect();
    for item in items {
        let wrong = item.split('\n').next().unwrap_or("").trim();
        if let Some(right) = between(item, "did you mean \"", "\"?") {
            out.push((wrong.to_owned(), right, false));
        }
    }
    out
}

fn between(s: &str, start: &str, end: &str) -> Option<String> {
    let from = s.find(start)? + start.len();
    let to = s[from..].find(end)? + from;
    Some(s[from..to].to_owned())
}

/// A misspelled name and the one suggested, from a Starlark error's message.
fn suggestion(message: &str) -> Option<(String, String, bool)> {
    if let Some(right) = between(message, "(did you mean .", "?)") {
        let wrong = between(message, "has no .", " field or method")?;
        return Some((wrong, right, true));
    }
    if let Some(right) = between(message, "(did you mean ", "?)") {
        let wrong = between(message, "undefined: ", " (")
            .or_else(|| between(message, "load: name ", " not found"))?;
        return Some((wrong, right, false));
    }
    None
}

/// The whole word `word` on the lines of `range` (after a `.` when `after_dot`).
fn find_word(text: &str, range: Range, word: &str, after_dot: bool) -> Option<Range> {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    for line in range.start.line..=range.end.line {
        let start = text::offset_of_position(text, lsp_types::Position::new(line, 0));
        let content = text[start..].split('\n').next().unwrap_or("");
        for (i, _) in content.match_indices(word) {
            let before = content[..i].chars().next_back();
            let after = content[i + word.len()..].chars().next();
            let bounded = !before.is_some_and(ident) && !after.is_some_and(ident);
            if bounded && (!after_dot || before == Some('.')) {
                return Some(Range::new(
                    text::position_of_offset(text, start + i),
                    text::position_of_offset(text, start + i + word.len()),
                ));
            }
        }
    }
    None
}

fn fix(
    uri: &Uri,
    title: String,
    range: Range,
    new: String,
    diagnostic: Option<Diagnostic>,
) -> CodeActionOrCommand {
    let edit = WorkspaceEdit {
        changes: Some(HashMap::from([(
            uri.clone(),
            vec![TextEdit::new(range, new)],
        )])),
        ..WorkspaceEdit::default()
    };
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: diagnostic.map(|d| vec![d]),
        edit: Some(edit),
        is_preferred: Some(true),
        ..CodeAction::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::Position;

    fn edits(text: &str, line: u32, message: &str) -> Vec<(String, String)> {
        let uri: Uri = "file:///w/a.yml".parse().unwrap();
        let r = Range::new(Position::new(line, 0), Position::new(line, 80));
        let d = Diagnostic {
            range: r,
            message: message.to_owned(),
            ..Diagnostic::default()
        };
        let all = code_actions(&uri, text, Path::new("/w/a.yml"), r, &[d]);
        (all.into_iter())
            .filter_map(|a| match a {
                CodeActionOrCommand::CodeAction(a) => {
                    let e = &a.edit?.changes?[&uri][0];
                    let start = text::offset_of_position(text, e.range.start);
                    let end = text::offset_of_position(text, e.range.end);
                    Some((text[start..end].to_owned(), e.new_text.clone()))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_engines_suggestions_replace_the_word() {
        let t = "#@ x = 1\na: #@ xx + xxx\n";
        assert_eq!(
            edits(t, 1, "undefined: xx (did you mean x?)"),
            [("xx".into(), "x".into())]
        );
        let t = "a: #@ data.values.nme + nme\n";
        assert_eq!(
            edits(
                t,
                0,
                "struct has no .nme field or method (did you mean .name?)"
            ),
            [("nme".into(), "name".into())]
        );
        let t = "#@ load(\"h.star\", \"lables\")\n";
        assert_eq!(
            edits(
                t,
                0,
                "load: name lables not found in module h.star (did you mean labels?)"
            ),
            [("lables".into(), "labels".into())]
        );
        assert!(edits("a: 1\n", 0, "undefined: zz").is_empty());
        // a schema's report: each undeclared value found on the line, with its hint
        let report = "Given data value is not declared in schema\n  = found: nmae\n  = hint: did you mean \"name\"?\n\n  = found: other\n";
        assert_eq!(
            edits("nmae: x\n", 0, report),
            [("nmae".into(), "name".into())]
        );
    }

    #[test]
    fn unknown_annotations_near_known_ones() {
        let t = "#@overlay/mach by=\"x\"\na: 1\n#@my/own\nb: 2\n";
        assert_eq!(
            edits(t, 0, ""),
            [("overlay/mach".into(), "overlay/match".into())]
        );
        assert!(edits(t, 2, "").is_empty());
    }
}
