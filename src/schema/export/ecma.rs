//! `matches=` patterns (RE2) as JSON Schema / OpenAPI `pattern`s, which are ECMA-262
//! regular expressions.
//!
//! A pattern written only with constructs that are spelled and mean the same in both
//! dialects is exported as written ([`same_in_ecma`]). Any other is translated from its
//! meaning (the HIR of [`re2::rewrite`]'s pattern, which is what ytt runs): literals and
//! character classes as explicit characters and ranges (so `(?i)abc` becomes
//! `[Aa][Bb][Cc]`, `.` becomes `[^\n]`), groups as `(?:…)`, repetitions as they are,
//! `\A`/`^` and `\z`/`$` as `^`/`$`, `(?m)^`/`(?m)$` as lookarounds, ASCII word
//! boundaries as `\b`/`\B`. What has no exact translation (Unicode word boundaries,
//! CRLF line anchors, classes of more than [`MAX_RANGES`] ranges) is an error: the rule
//! is then not exported.
//!
//! The output is valid with and without ECMA-262's `u` flag; it means the same in both
//! for patterns over the Basic Multilingual Plane, and exactly ytt's meaning with `u`
//! (the flag JSON Schema validators such as ajv use).

use regex_syntax::ast::{self, Ast, ClassSetItem};
use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, Hir, HirKind, Look};

use crate::validations::re2;

/// Largest character class translated (Unicode categories are thousands of ranges).
const MAX_RANGES: usize = 64;

/// The ECMA-262 pattern matching what the RE2 `pattern` matches.
pub fn translate(pattern: &str) -> Result<String, String> {
    let tree = ast::parse::Parser::new()
        .parse(pattern)
        .map_err(|e| e.to_string())?;
    if same_in_ecma(&tree, pattern, false) {
        return Ok(pattern.to_owned());
    }
    let rewritten = re2::rewrite(pattern)?;
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(&rewritten)
        .map_err(|e| e.to_string())?;
    let mut out = String::new();
    emit(&hir, &mut out, 0)?;
    Ok(out)
}

/// ECMA-262's syntax characters: escaped to stand for themselves.
const SYNTAX: &str = "^$\\.*+?()[]{}|/";

/// Whether the pattern is written only with constructs that ECMA-262 spells and reads
/// the same way (with and without the `u` flag).
fn same_in_ecma(a: &Ast, src: &str, in_repetition: bool) -> bool {
    match a {
        Ast::Empty(_) => true,
        Ast::Literal(l) => literal_ok(l, false),
        Ast::Assertion(x) => {
            !in_repetition
                && matches!(
                    x.kind,
                    ast::AssertionKind::StartLine | ast::AssertionKind::EndLine
                )
        }
        Ast::ClassPerl(c) => matches!(c.kind, ast::ClassPerlKind::Digit | ast::ClassPerlKind::Word),
        Ast::ClassBracketed(b) => match &b.kind {
            ast::ClassSet::Item(i) => set_item_ok(i, true),
            ast::ClassSet::BinaryOp(_) => false,
        },
        Ast::Repetition(r) => {
            let op_ok = match &r.op.kind {
                ast::RepetitionKind::ZeroOrOne
                | ast::RepetitionKind::ZeroOrMore
                | ast::RepetitionKind::OneOrMore => true,
                // `{,n}` is the `regex` crate's, not ECMA-262's
                ast::RepetitionKind::Range(range) => {
                    range.is_valid()
                        && !src
                            .get(r.op.span.start.offset..)
                            .is_some_and(|t| t.starts_with("{,"))
                }
            };
            op_ok && same_in_ecma(&r.ast, src, true)
        }
        Ast::Group(g) => {
            let kind_ok = match &g.kind {
                ast::GroupKind::CaptureIndex(_) => true,
                ast::GroupKind::NonCapturing(flags) => flags.items.is_empty(),
                ast::GroupKind::CaptureName { .. } => false,
            };
            kind_ok && same_in_ecma(&g.ast, src, false)
        }
        Ast::Alternation(x) => x.asts.iter().all(|s| same_in_ecma(s, src, false)),
        Ast::Concat(x) => x.asts.iter().all(|s| same_in_ecma(s, src, false)),
        Ast::Flags(_) | Ast::Dot(_) | Ast::ClassUnicode(_) => false,
    }
}

fn literal_ok(l: &ast::Literal, in_class: bool) -> bool {
    match l.kind {
        ast::LiteralKind::Verbatim => {
            let c = l.c;
            !c.is_control()
                && (c as u32) < 0x10000
                && (in_class || !"{}]".contains(c))
                && !(in_class && c == '[')
        }
        ast::LiteralKind::Meta => SYNTAX.contains(l.c) || (in_class && l.c == '-'),
        ast::LiteralKind::Special(ref k) => matches!(
            k,
            ast::SpecialLiteralKind::FormFeed
                | ast::SpecialLiteralKind::Tab
                | ast::SpecialLiteralKind::LineFeed
                | ast::SpecialLiteralKind::CarriageReturn
                | ast::SpecialLiteralKind::VerticalTab
        ),
        _ => false,
    }
}

fn set_item_ok(i: &ClassSetItem, top: bool) -> bool {
    match i {
        ClassSetItem::Literal(l) => literal_ok(l, true),
        ClassSetItem::Range(r) => literal_ok(&r.start, true) && literal_ok(&r.end, true),
        ClassSetItem::Perl(c) => {
            matches!(c.kind, ast::ClassPerlKind::Digit | ast::ClassPerlKind::Word)
        }
        ClassSetItem::Union(u) => top && u.items.iter().all(|x| set_item_ok(x, false)),
        ClassSetItem::Empty(_)
        | ClassSetItem::Ascii(_)
        | ClassSetItem::Unicode(_)
        | ClassSetItem::Bracketed(_) => false,
    }
}

fn push_char(c: char, in_class: bool, out: &mut String) {
    match c {
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        '\u{0C}' => out.push_str("\\f"),
        '\u{0B}' => out.push_str("\\v"),
        c if SYNTAX.contains(c) || (in_class && c == '-') => {
            out.push('\\');
            out.push(c);
        }
        c if c.is_control() || c.is_whitespace() && c != ' ' || is_format(c) => {
            let mut buf = [0u16; 2];
            for unit in c.encode_utf16(&mut buf) {
                out.push_str(&format!("\\u{:04X}", unit));
            }
        }
        c => out.push(c),
    }
}

/// Invisible format characters (shown escaped).
fn is_format(c: char) -> bool {
    matches!(c as u32, 0xAD | 0x200B..=0x200F | 0x2028..=0x202E | 0x2060..=0x2064 | 0xFEFF)
}

fn class(cls: &ClassUnicode, out: &mut String) -> Result<(), String> {
    let ranges = cls.ranges();
    if ranges.len() == 1 && ranges[0].start() == '\0' && ranges[0].end() == '\u{10FFFF}' {
        out.push_str("[\\s\\S]");
        return Ok(());
    }
    let mut negated = cls.clone();
    negated.negate();
    let (neg, shown): (bool, &[ClassUnicodeRange]) = if negated.ranges().len() < ranges.len() {
        (true, negated.ranges())
    } else {
        (false, ranges)
    };
    if shown.len() > MAX_RANGES {
        return Err(format!(
            "a character class of {} ranges has no compact ECMA-262 form",
            shown.len()
        ));
    }
    if !neg && shown.len() == 1 && shown[0].start() == shown[0].end() {
        push_char(shown[0].start(), false, out);
        return Ok(());
    }
    out.push('[');
    if neg {
        out.push('^');
    }
    for r in shown {
        push_char(r.start(), true, out);
        if r.end() != r.start() {
            if r.end() as u32 > r.start() as u32 + 1 {
                out.push('-');
            }
            push_char(r.end(), true, out);
        }
    }
    out.push(']');
    Ok(())
}

/// Whether `h` prints as one ECMA-262 atom (a quantifier applies to all of it).
fn is_atom(h: &Hir) -> bool {
    match h.kind() {
        HirKind::Literal(l) => std::str::from_utf8(&l.0).is_ok_and(|s| s.chars().count() == 1),
        HirKind::Class(_) => true,
        HirKind::Capture(_) => true,
        _ => false,
    }
}

fn emit(h: &Hir, out: &mut String, depth: usize) -> Result<(), String> {
    if depth > 500 {
        return Err("pattern is nested too deeply".into());
    }
    match h.kind() {
        HirKind::Empty => {}
        HirKind::Literal(l) => {
            let s = std::str::from_utf8(&l.0).map_err(|_| "a literal that is not UTF-8")?;
            for c in s.chars() {
                push_char(c, false, out);
            }
        }
        HirKind::Class(Class::Unicode(c)) => class(c, out)?,
        HirKind::Class(Class::Bytes(b)) => {
            let ranges = b
                .ranges()
                .iter()
                .map(|r| {
                    if r.end() < 0x80 {
                        Ok(ClassUnicodeRange::new(r.start() as char, r.end() as char))
                    } else {
                        Err("a class of bytes beyond ASCII".to_owned())
                    }
                })
                .collect::<Result<Vec<_>, _>>()?;
            class(&ClassUnicode::new(ranges), out)?;
        }
        HirKind::Look(l) => out.push_str(match l {
            Look::Start => "^",
            Look::End => "$",
            Look::StartLF => "(?<![^\\n])",
            Look::EndLF => "(?![^\\n])",
            Look::WordAscii => "\\b",
            Look::WordAsciiNegate => "\\B",
            other => {
                return Err(format!(
                    "the assertion {other:?} has no ECMA-262 equivalent"
                ))
            }
        }),
        HirKind::Repetition(r) => {
            if is_atom(&r.sub) {
                emit(&r.sub, out, depth + 1)?;
            } else {
                out.push_str("(?:");
                emit(&r.sub, out, depth + 1)?;
                out.push(')');
            }
            match (r.min, r.max) {
                (0, None) => out.push('*'),
                (1, None) => out.push('+'),
                (0, Some(1)) => out.push('?'),
                (m, None) => out.push_str(&format!("{{{m},}}")),
                (m, Some(n)) if m == n => out.push_str(&format!("{{{m}}}")),
                (m, Some(n)) => out.push_str(&format!("{{{m},{n}}}")),
            }
            if !r.greedy {
                out.push('?');
            }
        }
        HirKind::Capture(c) => {
            out.push_str("(?:");
            emit(&c.sub, out, depth + 1)?;
            out.push(')');
        }
        HirKind::Concat(subs) => {
            for s in subs {
                if matches!(s.kind(), HirKind::Alternation(_)) {
                    out.push_str("(?:");
                    emit(s, out, depth + 1)?;
                    out.push(')');
                } else {
                    emit(s, out, depth + 1)?;
                }
            }
        }
        HirKind::Alternation(subs) => {
            for (i, s) in subs.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                emit(s, out, depth + 1)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::translate;

    #[test]
    fn patterns_common_to_both_dialects_stay_as_written() {
        for p in [
            "^[a-z0-9-]+$",
            "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
            r"^\d{1,3}(\.\d{1,3}){3}$",
            r"^https://",
            r"\.git$",
            r"^[\w.-]+$",
            "a|b",
            "^x*?y$",
        ] {
            assert_eq!(translate(p).unwrap(), p, "{p}");
        }
    }

    #[test]
    fn re2_only_syntax_is_translated() {
        assert_eq!(
            translate("(?i)^(virtio|scsi)$").unwrap(),
            "^(?:[Vv][Ii][Rr][Tt][Ii][Oo]|[Ss\u{17F}][Cc][Ss\u{17F}][Ii])$"
        );
        assert_eq!(translate(r"\Aabc\z").unwrap(), "^abc$");
        assert_eq!(translate("^a.b$").unwrap(), "^a[^\\n]b$");
        assert_eq!(translate(r"^\s+$").unwrap(), "^[\\t\\n\\f\\r ]+$");
        assert_eq!(translate("(?P<x>ab)+").unwrap(), "(?:ab)+");
        assert_eq!(translate("(?m)^a$").unwrap(), "(?<![^\\n])a(?![^\\n])");
        assert_eq!(translate(r"[^\d]").unwrap(), r"[^\d]");
        assert_eq!(translate(r"[^\s]").unwrap(), "[^\\t\\n\\f\\r ]");
        assert_eq!(translate(r"\x{41}").unwrap(), "A");
        // the `regex` crate's `u` flag is not Go's: refused, as ytt refuses it
        assert!(translate(r"(?-u:\b)").is_err());
        assert!(translate(r"\pL+").is_err());
        assert!(translate("(").is_err());
    }

    #[test]
    fn translations_are_valid_rust_regexes_with_the_same_meaning() {
        // the output also parses as a `regex` pattern (minus the lookarounds); spot-check
        // meaning on a few inputs
        let t = translate("(?i)^(virtio|scsi)$").unwrap();
        let re = regex::Regex::new(&t).unwrap();
        assert!(re.is_match("VirtIO"));
        assert!(!re.is_match("ide"));
    }
}
