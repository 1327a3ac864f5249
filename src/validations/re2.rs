//! `matches=` patterns with RE2's meaning (the regular-expression dialect of ytt's Go
//! implementation), run by the `regex` crate.
//!
//! The two dialects share their syntax; they differ in the Perl classes and word
//! boundaries, which are ASCII in RE2 and Unicode in the `regex` crate. A pattern is
//! rewritten before it is compiled: `\d` → `[0-9]`, `\s` → `[\t\n\f\r ]`,
//! `\w` → `[0-9A-Za-z_]` (and their negations, inside classes too), `\b` → `(?-u:\b)`,
//! `\B` → `(?-u:\B)`. Schema export translates the same rewritten pattern (its HIR) to
//! ECMA-262, so what ytt checks and what the exported `pattern` checks are one thing.

use regex::Regex;
use regex_syntax::ast::{self, Ast, ClassSetItem};

/// Patterns longer than this are refused (compiling them is the cost).
const MAX_LEN: usize = 10_000;

/// The pattern in the `regex` crate's syntax with RE2's meaning; the error is the
/// parser's message.
pub fn rewrite(pattern: &str) -> Result<String, String> {
    if pattern.len() > MAX_LEN {
        return Err(format!("pattern is longer than {MAX_LEN} characters"));
    }
    let mut tree = ast::parse::Parser::new()
        .parse(pattern)
        .map_err(|e| e.to_string())?;
    if !needs_rewrite(pattern) {
        return Ok(pattern.to_owned());
    }
    rewrite_ast(&mut tree, 0)?;
    let mut out = String::with_capacity(pattern.len() + 16);
    ast::print::Printer::new()
        .print(&tree, &mut out)
        .map_err(|e| e.to_string())?;
    Ok(out)
}

/// Compiles `pattern` with RE2's meaning.
pub fn compile(pattern: &str) -> Result<Regex, String> {
    let rewritten = rewrite(pattern)?;
    Regex::new(&rewritten).map_err(|e| e.to_string())
}

/// Whether the pattern has an escape that [`rewrite`] changes (a fast path: most
/// patterns have none).
fn needs_rewrite(pattern: &str) -> bool {
    let b = pattern.as_bytes();
    b.windows(2)
        .any(|w| w[0] == b'\\' && b"dDsSwWbB".contains(&w[1]))
}

/// The RE2 (ASCII) version of a Perl class, as a bracketed class.
fn perl_class(c: &ast::ClassPerl) -> ast::ClassBracketed {
    let body = match c.kind {
        ast::ClassPerlKind::Digit => "0-9",
        ast::ClassPerlKind::Space => "\\t\\n\\f\\r ",
        ast::ClassPerlKind::Word => "0-9A-Za-z_",
    };
    let text = format!("[{}{body}]", if c.negated { "^" } else { "" });
    let parsed = ast::parse::Parser::new().parse(&text);
    match &parsed {
        Ok(Ast::ClassBracketed(b)) => (**b).clone(),
        _ => unreachable!("a fixed class parses"),
    }
}

fn ascii_boundary(negated: bool) -> Ast {
    let text = if negated { "(?-u:\\B)" } else { "(?-u:\\b)" };
    ast::parse::Parser::new()
        .parse(text)
        .expect("a fixed group parses")
}

fn rewrite_ast(a: &mut Ast, depth: usize) -> Result<(), String> {
    if depth > 500 {
        return Err("pattern is nested too deeply".into());
    }
    match a {
        Ast::ClassPerl(c) => *a = Ast::ClassBracketed(Box::new(perl_class(c))),
        Ast::Assertion(x) => match x.kind {
            ast::AssertionKind::WordBoundary => *a = ascii_boundary(false),
            ast::AssertionKind::NotWordBoundary => *a = ascii_boundary(true),
            _ => {}
        },
        Ast::ClassBracketed(b) => rewrite_set(&mut b.kind, depth + 1)?,
        Ast::Repetition(r) => rewrite_ast(&mut r.ast, depth + 1)?,
        Ast::Group(g) => rewrite_ast(&mut g.ast, depth + 1)?,
        Ast::Alternation(x) => {
            for s in &mut x.asts {
                rewrite_ast(s, depth + 1)?;
            }
        }
        Ast::Concat(x) => {
            for s in &mut x.asts {
                rewrite_ast(s, depth + 1)?;
            }
        }
        _ => {}
    }
    Ok(())
}

fn rewrite_set(s: &mut ast::ClassSet, depth: usize) -> Result<(), String> {
    if depth > 500 {
        return Err("pattern is nested too deeply".into());
    }
    match s {
        ast::ClassSet::Item(i) => rewrite_item(i, depth + 1),
        ast::ClassSet::BinaryOp(op) => {
            rewrite_set(&mut op.lhs, depth + 1)?;
            rewrite_set(&mut op.rhs, depth + 1)
        }
    }
}

fn rewrite_item(i: &mut ClassSetItem, depth: usize) -> Result<(), String> {
    match i {
        ClassSetItem::Perl(c) => *i = ClassSetItem::Bracketed(Box::new(perl_class(c))),
        ClassSetItem::Bracketed(b) => rewrite_set(&mut b.kind, depth + 1)?,
        ClassSetItem::Union(u) => {
            for x in &mut u.items {
                rewrite_item(x, depth + 1)?;
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perl_classes_are_ascii() {
        let d = compile(r"^\d+$").unwrap();
        assert!(d.is_match("123"));
        assert!(!d.is_match("١٢٣"), "Arabic-Indic digits are not RE2 \\d");
        let w = compile(r"^[\w-]+$").unwrap();
        assert!(w.is_match("a_b-9"));
        assert!(!w.is_match("é"));
        let s = compile(r"^\s$").unwrap();
        assert!(s.is_match(" "));
        assert!(!s.is_match("\u{0B}"), "RE2 \\s has no vertical tab");
        let nd = compile(r"^[^\D]$").unwrap();
        assert!(nd.is_match("5"));
        let b = compile(r"\bx\b").unwrap();
        assert!(b.is_match("a x b"));
        assert!(
            b.is_match("éxé"),
            "ASCII boundary: é is not a word character"
        );
        assert_eq!(rewrite("^[a-z0-9-]+$").unwrap(), "^[a-z0-9-]+$");
        assert!(compile("(").is_err());
    }
}
