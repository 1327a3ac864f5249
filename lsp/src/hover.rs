//! Hover on code (`textDocument/hover`): an `@ytt:` module's function or value
//! (`json.encode`, under the name the module was loaded as) and Starlark's built-ins —
//! the signature (the engine's where it names its parameters, else the one in
//! `reference`) and what it does. A data value's read (`data.values.a`) is not this
//! module's: None there.

use std::path::Path;

use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position, Range};
use ytt::frontend::syntax::{self, Member, TokenKind};
use ytt::Modules;

use crate::completion::loaded_module;
use crate::names;
use crate::reads;
use crate::reference;
use crate::source::Source;
use crate::text;

/// What the name at `pos` of `text` (the file at `path`) is, when it is a module's
/// member or a built-in.
pub fn hover(modules: &Modules, text: &str, path: &Path, pos: Position) -> Option<Hover> {
    // a data value's read is the data values' hover
    if reads::data_value_read_at(text, path, pos).is_some() {
        return None;
    }
    let source = Source::read(text, path);
    let at = text::offset_of_position(text, pos);
    let toks = &source.tokens;
    let i = toks
        .iter()
        .position(|t| t.kind == TokenKind::Name && t.start <= at && at <= t.end)?;
    let name = source.token_text(&toks[i]);
    let after_dot = i >= 2
        && source.token_text(&toks[i - 1]) == "."
        && toks[i - 2].kind == TokenKind::Name
        && toks[i - 2].end == toks[i - 1].start;
    let loads = names::loads(&source);
    let (qualified, engine): (String, Option<Member>) = if after_dot {
        let module = loaded_module(&loads, source.token_text(&toks[i - 2]))?;
        let member = syntax::module_members(modules, module)?
            .into_iter()
            .find(|m| m.name == name)?;
        (format!("{module}.{name}"), Some(member))
    } else if let Some(module) = loaded_module(&loads, name) {
        let members: Vec<String> = (syntax::module_members(modules, module)?.into_iter())
            .map(|m| m.name)
            .collect();
        let doc = format!("`@ytt:{module}`: {}", members.join(", "));
        return Some(markdown(
            &format!("(module) {name}"),
            &doc,
            &source,
            toks[i].start,
            toks[i].end,
        ));
    } else {
        // a name of the file's own shadows the built-in
        let own = names::bindings(&source).iter().any(|b| b.name == name)
            || loads
                .iter()
                .any(|l| l.names.iter().any(|n| n.local == name));
        if own || (i > 0 && source.token_text(&toks[i - 1]) == ".") {
            return None;
        }
        let builtin = syntax::builtins().into_iter().find(|m| m.name == name)?;
        (name.to_owned(), Some(builtin))
    };
    let (signature, doc) = reference::describe(&qualified, engine)?;
    Some(markdown(
        &signature,
        &doc,
        &source,
        toks[i].start,
        toks[i].end,
    ))
}

fn markdown(signature: &str, doc: &str, source: &Source, start: usize, end: usize) -> Hover {
    let mut value = format!("```python\n{signature}\n```");
    if !doc.is_empty() {
        value.push_str("\n\n");
        value.push_str(doc);
    }
    let range = Range::new(
        text::position_of_offset(source.text, start),
        text::position_of_offset(source.text, end),
    );
    of_markdown(value, Some(range))
}

/// A hover that shows `value`, Markdown, over `range`.
pub fn of_markdown(value: String, range: Option<Range>) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str, path: &str, line: u32, col: u32) -> Option<String> {
        let h = hover(
            &ytt_stdlib::modules(),
            text,
            Path::new(path),
            Position::new(line, col),
        )?;
        match h.contents {
            HoverContents::Markup(m) => Some(m.value),
            _ => None,
        }
    }

    #[test]
    fn module_functions_under_their_local_name() {
        let t = "#@ load(\"@ytt:json\", j=\"json\")\na: #@ j.encode({})\n";
        let h = shown(t, "a.yml", 1, 9).unwrap();
        assert!(
            h.starts_with("```python\njson.encode(value, indent=0"),
            "{h}"
        );
        assert!(h.contains("JSON string"));
        // the engine's own signature where it names parameters
        let t = "#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace([])\n";
        assert!(shown(t, "a.yml", 1, 17)
            .unwrap()
            .contains("template.replace(value)"));
        // the module's name: its members
        assert!(shown(t, "a.yml", 1, 9).unwrap().contains("replace"));
    }

    #[test]
    fn builtins_unless_the_file_defines_the_name() {
        let h = shown("x = len([1])\n", "a.star", 0, 5).unwrap();
        assert!(
            h.contains("len(a, /) -> int") && h.contains("number of items"),
            "{h}"
        );
        assert_eq!(
            shown("def len(x):\n  return 1\nend\ny = len(1)\n", "a.star", 3, 5),
            None
        );
        assert_eq!(shown("y = x.len\n", "a.star", 0, 7), None);
        // a data value's read is not this module's, but the module's other members are
        let t = "load(\"@ytt:data\", \"data\")\nx = data.values.a\ny = data.read(\"f\")\n";
        assert_eq!(shown(t, "a.star", 1, 10), None);
        assert!(shown(t, "a.star", 2, 10)
            .unwrap()
            .contains("data.read(path)"));
    }
}
