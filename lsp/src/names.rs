//! The names a file binds: what its `load()` statements bring in (from which module, and
//! under which local name), its `def`s and its top-level assignments.

use crate::source::{Source, Token};
use ytt::frontend::syntax::TokenKind;

/// A string literal's value and its byte range (quotes included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Literal {
    pub value: String,
    pub range: (usize, usize),
}

/// A name a `load()` binds: `"x"` or `local = "x"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    pub local: String,
    pub local_range: (usize, usize),
    /// The module's name for it.
    pub exported: Literal,
}

/// A `load(module, names...)` statement (possibly being typed: no `)` yet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Load {
    pub module: Literal,
    pub names: Vec<Loaded>,
    /// From `load` to its `)` (or its last token).
    pub range: (usize, usize),
}

/// A `def name(...)` or a top-level `name = ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    pub name: String,
    pub range: (usize, usize),
    pub is_def: bool,
}

/// The value of a string literal token (its quotes off; escapes read as written, but
/// `\"` and `\\`).
pub fn literal(source: &Source, t: &Token) -> Option<Literal> {
    if t.kind != TokenKind::String {
        return None;
    }
    let raw = source.token_text(t);
    let raw = raw.strip_prefix(['r', 'b']).unwrap_or(raw);
    let quote = if raw.starts_with("\"\"\"") || raw.starts_with("'''") {
        3
    } else {
        1
    };
    let inner = raw.get(quote..raw.len().saturating_sub(quote))?;
    Some(Literal {
        value: inner.replace("\\\"", "\"").replace("\\\\", "\\"),
        range: (t.start, t.end),
    })
}

fn is_op(source: &Source, t: Option<&Token>, op: &str) -> bool {
    t.is_some_and(|t| t.kind == TokenKind::Operator && source.token_text(t) == op)
}

/// The file's `load()` statements.
pub fn loads(source: &Source) -> Vec<Load> {
    let toks = &source.tokens;
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.kind != TokenKind::Keyword || source.token_text(t) != "load" {
            continue;
        }
        if !is_op(source, toks.get(i + 1), "(") {
            continue;
        }
        let Some(module) = toks.get(i + 2).and_then(|m| literal(source, m)) else {
            continue;
        };
        let mut names = Vec::new();
        let mut j = i + 3;
        let mut end = toks[i + 2].end;
        while let Some(t) = toks.get(j) {
            end = t.end;
            match t.kind {
                _ if is_op(source, Some(t), ")") => break,
                _ if is_op(source, Some(t), ",") => j += 1,
                TokenKind::String => {
                    if let Some(lit) = literal(source, t) {
                        names.push(Loaded {
                            local: lit.value.clone(),
                            local_range: lit.range,
                            exported: lit,
                        });
                    }
                    j += 1;
                }
                TokenKind::Name if is_op(source, toks.get(j + 1), "=") => {
                    if let Some(lit) = toks.get(j + 2).and_then(|s| literal(source, s)) {
                        names.push(Loaded {
                            local: source.token_text(t).to_owned(),
                            local_range: (t.start, t.end),
                            exported: lit,
                        });
                    }
                    j += 3;
                }
                _ => break,
            }
        }
        out.push(Load {
            module,
            names,
            range: (t.start, end),
        });
    }
    out
}

/// The file's `def`s (at any depth) and top-level assignments (`name = ...` starting a
/// line of code at its first column, or a YAML template's `#@ name = ...`).
pub fn bindings(source: &Source) -> Vec<Binding> {
    let toks = &source.tokens;
    let text = source.text;
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.kind == TokenKind::Keyword && source.token_text(t) == "def" {
            if let Some(name) = toks.get(i + 1).filter(|n| n.kind == TokenKind::Name) {
                out.push(Binding {
                    name: source.token_text(name).to_owned(),
                    range: (name.start, name.end),
                    is_def: true,
                });
            }
            continue;
        }
        if t.kind != TokenKind::Name || !is_op(source, toks.get(i + 1), "=") {
            continue;
        }
        // the first token of its line of code: at the line's start in a `.star` file, the
        // code span's start in a template
        let line_start = text[..t.start].rfind('\n').map_or(0, |n| n + 1);
        let top = match source.code_at(t.start) {
            Some(c) if c.start > line_start => text[c.start..t.start].trim().is_empty(),
            _ => line_start == t.start,
        };
        if top {
            out.push(Binding {
                name: source.token_text(t).to_owned(),
                range: (t.start, t.end),
                is_def: false,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn loads_bind_names() {
        let t =
            "#@ load(\"@ytt:data\", \"data\", d=\"data\")\n#@ load(\"helpers.star\", 'f', \"g\"\n";
        let s = Source::read(t, Path::new("a.yml"));
        let l = loads(&s);
        assert_eq!(l.len(), 2);
        assert_eq!(l[0].module.value, "@ytt:data");
        let names: Vec<(&str, &str)> = (l[0].names.iter())
            .map(|n| (n.local.as_str(), n.exported.value.as_str()))
            .collect();
        assert_eq!(names, [("data", "data"), ("d", "data")]);
        // still being typed
        assert_eq!(l[1].names.len(), 2);
    }

    #[test]
    fn defs_and_top_level_assignments() {
        let t = "x = 1\ndef f(a):\n  y = a\n  def g():\n    return 1\n  end\nend\n";
        let s = Source::read(t, Path::new("a.star"));
        let all = bindings(&s);
        let b: Vec<(&str, bool)> = all.iter().map(|b| (b.name.as_str(), b.is_def)).collect();
        assert_eq!(b, [("x", false), ("f", true), ("g", true)]);
        let s = Source::read("#@ z = 2\na: #@ z\n", Path::new("a.yml"));
        assert_eq!(bindings(&s)[0].name, "z");
    }
}
