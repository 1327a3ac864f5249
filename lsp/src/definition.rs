//! Go to definition (`textDocument/definition`) through a file's names: a `load()`'s
//! module path to the file it names, a loaded name (in the `load()` or where it is
//! used) to its `def` or assignment in that file, a name of the file's own to its `def`
//! or top-level assignment. Data values are not this module's: None there.

use std::path::Path;

use lsp_types::{Location, Position, Range};
use ytt::frontend::syntax::TokenKind;

use crate::loading::{self, Workspace};
use crate::names::{self, Binding};
use crate::source::Source;
use crate::{text, uri};

/// Where the name or module path at `pos` of `text` (the file at `path`) is defined.
pub fn definition(ws: &Workspace, text: &str, path: &Path, pos: Position) -> Option<Location> {
    let source = Source::read(text, path);
    let at = text::offset_of_position(text, pos);
    let loads = names::loads(&source);
    let inside = |r: (usize, usize)| r.0 <= at && at <= r.1;
    // a module path: the file
    if let Some(l) = loads.iter().find(|l| inside(l.module.range)) {
        let file = loading::resolve(ws, path, &l.module.value)?;
        return Some(Location::new(uri::from_path(&file), Range::default()));
    }
    // a name in a load: the definition in the loaded file
    for l in &loads {
        if let Some(n) =
            (l.names.iter()).find(|n| inside(n.local_range) || inside(n.exported.range))
        {
            return in_file(ws, path, &l.module.value, &n.exported.value);
        }
    }
    let toks = &source.tokens;
    let t = (toks.iter()).find(|t| t.kind == TokenKind::Name && t.start <= at && at <= t.end)?;
    let i = toks.iter().position(|x| x == t)?;
    if i > 0 && source.token_text(&toks[i - 1]) == "." {
        return None;
    }
    let name = source.token_text(t);
    // loaded under this name
    for l in &loads {
        if let Some(n) = l.names.iter().find(|n| n.local == name) {
            return in_file(ws, path, &l.module.value, &n.exported.value);
        }
    }
    let own = names::bindings(&source);
    let b = find(&source, &own, name)?;
    Some(Location::new(uri::from_path(path), range(text, b.range)))
}

/// The definition of `name` in the file `module` names.
fn in_file(ws: &Workspace, from: &Path, module: &str, name: &str) -> Option<Location> {
    let file = loading::resolve(ws, from, module)?;
    let text = (ws.read)(&file)?;
    let source = Source::read(&text, &file);
    let all = names::bindings(&source);
    let b = find(&source, &all, name)?;
    Some(Location::new(uri::from_path(&file), range(&text, b.range)))
}

/// The top-level binding of `name` (its first `def`, else its first assignment).
fn find<'b>(source: &Source, all: &'b [Binding], name: &str) -> Option<&'b Binding> {
    let top = |b: &&Binding| b.name == name && loading::top_level(source, b.range.0);
    all.iter()
        .filter(top)
        .find(|b| b.is_def)
        .or_else(|| all.iter().find(top))
}

fn range(text: &str, (start, end): (usize, usize)) -> Range {
    Range::new(
        text::position_of_offset(text, start),
        text::position_of_offset(text, end),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loading::in_memory;

    fn at(text: &str, line: u32, col: u32) -> Option<(String, u32, u32)> {
        let files = [
            ("/w/a.yml", None),
            ("/w/h.star", Some("x = 1\ndef f():\n  x = 2\nend\n")),
            ("/w/_ytt_lib/g/u.lib.yml", Some("#@ def hello():\n#@ end\n")),
        ];
        let at = Position::new(line, col);
        let l = in_memory(&files, &ytt::Modules::default(), |ws| {
            definition(ws, text, Path::new("/w/a.yml"), at)
        })?;
        Some((
            l.uri.as_str().to_owned(),
            l.range.start.line,
            l.range.start.character,
        ))
    }

    #[test]
    fn through_loads_to_files_and_names() {
        let t = "#@ load(\"h.star\", \"f\", y=\"x\")\n#@ load(\"@g:u.lib.yml\", \"hello\")\na: #@ f() + y + hello()\n";
        assert_eq!(at(t, 0, 10), Some(("file:///w/h.star".into(), 0, 0)));
        assert_eq!(at(t, 0, 19), Some(("file:///w/h.star".into(), 1, 4)));
        // `y` is `x` of h.star: its top-level assignment, not the one in `f`
        assert_eq!(at(t, 2, 12), Some(("file:///w/h.star".into(), 0, 0)));
        assert_eq!(at(t, 2, 6), Some(("file:///w/h.star".into(), 1, 4)));
        assert_eq!(
            at(t, 2, 17),
            Some(("file:///w/_ytt_lib/g/u.lib.yml".into(), 0, 7))
        );
        assert_eq!(
            at(t, 1, 10),
            Some(("file:///w/_ytt_lib/g/u.lib.yml".into(), 0, 0))
        );
    }

    #[test]
    fn local_names_and_what_is_not_there() {
        let t = "#@ def g():\n#@ end\na: #@ g()\nb: #@ missing()\n#@ load(\"nope.star\", \"z\")\n";
        assert_eq!(at(t, 2, 6), Some(("file:///w/a.yml".into(), 0, 7)));
        assert_eq!(at(t, 3, 7), None);
        assert_eq!(at(t, 4, 12), None);
    }
}
