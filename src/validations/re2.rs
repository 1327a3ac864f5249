//! Go's regular expressions (RE2, the dialect of ytt's Go implementation), run by the
//! `regex` crate: one place for what Go refuses and how it words it, used by
//! `@ytt:regexp`, `matches=` rules, `assert.matches` and CEL's `matches()`.
//!
//! The two dialects share their syntax. Go refuses a few things the `regex` crate takes
//! ([`check_go_syntax`]: a repeat count over 1000, alone or multiplied by the counts it is
//! nested in, a repetition of a repetition, Perl flags other than `imsU`, `(?<`, unknown
//! POSIX classes); every error is worded as Go's (`error parsing regexp: invalid repeat
//! count: `{2000}``, [`go_error`] for the `regex` crate's). The two differ in meaning in
//! the Perl classes and word boundaries, which are ASCII in RE2 and Unicode in the `regex`
//! crate. A pattern is rewritten before it is compiled: `\d` → `[0-9]`, `\s` →
//! `[\t\n\f\r ]`, `\w` → `[0-9A-Za-z_]` (and their negations, inside classes too), `\b`
//! → `(?-u:\b)`, `\B` → `(?-u:\B)`. Schema export translates the same rewritten pattern
//! (its HIR) to ECMA-262, so what ytt checks and what the exported `pattern` checks are
//! one thing.

use regex::{Regex, RegexBuilder};

/// Patterns longer than this are refused (compiling them is the cost).
const MAX_LEN: usize = 10_000;

/// How large a compiled pattern may be: Go compiles `\pL{1000}` (a Unicode class
/// repeated as often as Go allows), which takes the `regex` crate about 40 MB.
const SIZE_LIMIT: usize = 64 << 20;

const DIGIT: &str = "0-9";
const WORD: &str = "0-9A-Za-z_";
const SPACE: &str = "\\t\\n\\f\\r ";

/// Go's largest repeat count, for one repetition and for repetitions nested in one another
/// (the product of their counts).
const MAX_REPEAT: u64 = 1000;

/// The pattern in the `regex` crate's syntax with RE2's meaning; the error is Go's.
pub fn rewrite(pattern: &str) -> Result<String, String> {
    if pattern.len() > MAX_LEN {
        return Err(format!("pattern is longer than {MAX_LEN} characters"));
    }
    check_go_syntax(pattern)?;
    Ok(translate(pattern))
}

/// Compiles `pattern` with RE2's meaning; the error is Go's.
pub fn compile(pattern: &str) -> Result<Regex, String> {
    let rewritten = rewrite(pattern)?;
    RegexBuilder::new(&rewritten)
        .size_limit(SIZE_LIMIT)
        .build()
        .map_err(|e| go_error(&rewritten, &e.to_string()))
}

/// Go's error for what Go refuses and the `regex` crate takes, the first in the pattern.
/// Go's other errors (an unclosed group, a bad range, …) are the `regex` crate's too,
/// worded by [`go_error`].
pub fn check_go_syntax(pattern: &str) -> Result<(), String> {
    let b = pattern.as_bytes();
    // per open group, the largest product of repeat counts in it so far
    let mut groups: Vec<u64> = vec![1];
    // the product of the last atom, when a repetition may follow it
    let mut atom: Option<u64> = None;
    // where the last repetition read starts, when it is the last thing read
    let mut repeated_from: Option<usize> = None;
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let repeat = match b[i] {
            b'*' | b'+' | b'?' => Some((i + 1, None)),
            b'{' => repeat_count(b, i).map(|(end, min, max)| (end, Some((min, max)))),
            _ => None,
        };
        if let Some((end, counts)) = repeat {
            // a `?` right after makes it non-greedy, as part of it
            let end = end + usize::from(b.get(end) == Some(&b'?'));
            if let Some(from) = repeated_from {
                return go_fail("invalid nested repetition operator", &pattern[from..end]);
            }
            let count_text = &pattern[i..end].trim_end_matches('?');
            let product = match (atom, counts) {
                // nothing to repeat: the `regex` crate says so (in Go's words)
                (None, _) => None,
                (Some(inner), None) => Some(inner),
                (Some(inner), Some((min, max))) => {
                    if min > MAX_REPEAT || max.is_some_and(|m| m > MAX_REPEAT || m < min) {
                        return go_fail("invalid repeat count", count_text);
                    }
                    // Go bounds a repeat of two or more by the product of the counts it
                    // is nested in; a count of 0 repeats nothing
                    let count = max.unwrap_or(min);
                    if count >= 2 && inner * count > MAX_REPEAT {
                        return go_fail("invalid repeat count", count_text);
                    }
                    Some(if count == 0 { 1 } else { inner * count.max(1) })
                }
            };
            if let Some(p) = product {
                if let Some(g) = groups.last_mut() {
                    *g = (*g).max(p);
                }
                repeated_from = Some(start);
            }
            atom = product;
            i = end;
            continue;
        }
        let mut product = 1;
        match b[i] {
            b'\\' => i = skip_escape(pattern, i),
            b'[' => i = skip_class(pattern, i)?,
            b'(' if b.get(i + 1) == Some(&b'?') => {
                let (end, opens) = perl_group(pattern, i)?;
                i = end;
                atom = None;
                repeated_from = None;
                if opens {
                    groups.push(1);
                }
                continue;
            }
            b'(' | b'|' => {
                if b[i] == b'(' {
                    groups.push(1);
                }
                i += 1;
                atom = None;
                repeated_from = None;
                continue;
            }
            b')' if groups.len() > 1 => {
                product = groups.pop().unwrap_or(1);
                i += 1;
            }
            _ => i = char_end(pattern, i),
        }
        if let Some(g) = groups.last_mut() {
            *g = (*g).max(product);
        }
        atom = Some(product);
        repeated_from = None;
    }
    Ok(())
}

fn go_fail<T>(code: &str, text: &str) -> Result<T, String> {
    Err(format!("error parsing regexp: {code}: `{text}`"))
}

/// The end of the character at byte `i`.
fn char_end(s: &str, i: usize) -> usize {
    s[i..].chars().next().map_or(i, |c| i + c.len_utf8())
}

/// `{n}`, `{n,}` or `{n,m}` at `i` (else `{` is a literal, as in Go): where it ends, `n`,
/// and `m` (`None` for no bound).
fn repeat_count(b: &[u8], i: usize) -> Option<(usize, u64, Option<u64>)> {
    let number = |mut j: usize| -> Option<(usize, u64)> {
        let from = j;
        let mut v: u64 = 0;
        while j < b.len() && b[j].is_ascii_digit() {
            v = v.saturating_mul(10).saturating_add(u64::from(b[j] - b'0'));
            j += 1;
        }
        (j > from).then_some((j, v))
    };
    let (j, min) = number(i + 1)?;
    match b.get(j)? {
        b'}' => Some((j + 1, min, Some(min))),
        b',' if b.get(j + 1) == Some(&b'}') => Some((j + 2, min, None)),
        b',' => {
            let (k, max) = number(j + 1)?;
            (b.get(k) == Some(&b'}')).then_some((k + 1, min, Some(max)))
        }
        _ => None,
    }
}

/// The end of the escape at `i`: `\p{…}`, `\x{…}`, `\Q…\E` whole, else the backslash and
/// the character after it.
fn skip_escape(s: &str, i: usize) -> usize {
    let b = s.as_bytes();
    match b.get(i + 1) {
        None => i + 1,
        Some(b'p' | b'P' | b'x') if b.get(i + 2) == Some(&b'{') => b[i..]
            .iter()
            .position(|&c| c == b'}')
            .map_or(b.len(), |k| i + k + 1),
        Some(b'Q') => s[i + 2..].find("\\E").map_or(b.len(), |k| i + 2 + k + 2),
        Some(_) => char_end(s, i + 1),
    }
}

/// The end of the character class at `i`, checked as Go reads it, in order: a POSIX
/// class must have a name Go knows, a range of two literal characters must not run
/// backwards (other ranges are the `regex` crate's to refuse), and it must be closed.
fn skip_class(s: &str, i: usize) -> Result<usize, String> {
    const POSIX: [&str; 14] = [
        "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
        "space", "upper", "word", "xdigit",
    ];
    let b = s.as_bytes();
    let mut j = i + 1;
    if b.get(j) == Some(&b'^') {
        j += 1;
    }
    // the class's items: where each starts and ends, and the character it stands for
    // when that is one literal character (`-` unescaped marks a range)
    let mut items: Vec<(usize, usize, Option<char>)> = Vec::new();
    let mut first = true;
    while j < b.len() && (b[j] != b']' || first) {
        first = false;
        let (end, c) = match b[j] {
            b'\\' => {
                let end = skip_escape(s, j);
                let c = s[j + 1..end]
                    .chars()
                    .next()
                    .filter(char::is_ascii_punctuation);
                (end, c.filter(|_| end == j + 2))
            }
            b'[' if b.get(j + 1) == Some(&b':') && s[j + 2..].contains(":]") => {
                let end = j + 2 + s[j + 2..].find(":]").unwrap_or(0) + 2;
                let name = &s[j + 2..end - 2];
                if !POSIX.contains(&name.strip_prefix('^').unwrap_or(name)) {
                    return go_fail("invalid character class range", &s[j..end]);
                }
                (end, None)
            }
            _ => (char_end(s, j), s[j..].chars().next()),
        };
        items.push((j, end, c));
        j = end;
    }
    let mut k = 0;
    while k + 2 < items.len() {
        let (from, _, lo) = items[k];
        let dash = items[k + 1];
        let (_, to, hi) = items[k + 2];
        if b[dash.0] == b'-' && dash.1 == dash.0 + 1 {
            if let (Some(lo), Some(hi)) = (lo, hi) {
                if lo > hi {
                    return go_fail("invalid character class range", &s[from..to]);
                }
            }
            k += 3;
        } else {
            k += 1;
        }
    }
    if j == b.len() {
        return go_fail("missing closing ]", &s[i..]);
    }
    Ok(j + 1)
}

/// A group starting `(?` at `i`: Go's named capture `(?P<name>`, or flags (`imsU`, one
/// `-` followed by at least one) ending in `:` (a group) or `)` (flags only). Where it
/// ends, and whether it opens a group.
fn perl_group(s: &str, i: usize) -> Result<(usize, bool), String> {
    let b = s.as_bytes();
    let rest = &s[i..];
    if rest.starts_with("(?P") {
        if !rest.starts_with("(?P<") {
            return go_fail("invalid or unsupported Perl syntax", "(?P");
        }
        let Some(k) = rest.find('>') else {
            return go_fail("invalid named capture", rest);
        };
        let name = &rest[4..k];
        if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
            return go_fail("invalid named capture", &rest[..=k]);
        }
        return Ok((i + k + 1, true));
    }
    let mut j = i + 2;
    let mut negated = false;
    let mut flag_after_sign = false;
    while j < b.len() {
        let c = b[j];
        match c {
            b'i' | b'm' | b's' | b'U' => flag_after_sign = true,
            b'-' if !negated => {
                negated = true;
                flag_after_sign = false;
            }
            b':' | b')' if !negated || flag_after_sign => return Ok((j + 1, c == b':')),
            _ => return go_fail("invalid or unsupported Perl syntax", &s[i..char_end(s, j)]),
        }
        j += 1;
    }
    go_fail("invalid or unsupported Perl syntax", rest)
}

/// The `regex` crate's parse error (its text: the pattern, a caret line under the
/// offending part, `error: …`) in Go's words: `error parsing regexp: <code>: `<text>``.
pub fn go_error(pattern: &str, text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let message = lines
        .iter()
        .find_map(|l| l.strip_prefix("error: "))
        .unwrap_or("invalid regexp")
        .trim();
    // The offending text, from the caret line under the (single-line) pattern.
    let snippet = lines
        .iter()
        .position(|l| l.trim_start().starts_with('^'))
        .filter(|&k| k >= 1 && !pattern.contains('\n'))
        .and_then(|k| {
            let caret = lines[k];
            let start = caret.find('^')?.checked_sub(4)?;
            let len = caret.trim().len();
            let chars: Vec<char> = pattern.chars().collect();
            (start < chars.len()).then(|| {
                chars[start..(start + len).min(chars.len())]
                    .iter()
                    .collect::<String>()
            })
        })
        .unwrap_or_default();
    let (code, arg) = if message.starts_with("unclosed group") {
        ("missing closing )", pattern.to_owned())
    } else if message.starts_with("unopened group") {
        ("unexpected )", pattern.to_owned())
    } else if message.starts_with("unclosed character class") {
        let from = pattern.rfind('[').unwrap_or(0);
        ("missing closing ]", pattern[from..].to_owned())
    } else if message.starts_with("invalid character class range") {
        ("invalid character class range", snippet)
    } else if message.starts_with("repetition operator missing expression") {
        ("missing argument to repetition operator", snippet)
    } else if message.starts_with("invalid repetition count")
        || message.starts_with("repetition quantifier")
        || message.contains("decimal literal")
    {
        ("invalid repeat count", snippet)
    } else if message.starts_with("incomplete escape sequence") {
        ("trailing backslash at end of expression", String::new())
    } else if message.contains("escape") || message.starts_with("backreferences") {
        ("invalid escape sequence", snippet)
    } else if message.contains("Unicode property") || message.contains("Unicode class") {
        ("invalid character class range", snippet)
    } else if message.contains("capture group name") || message.contains("group name") {
        ("invalid named capture", snippet)
    } else if message.contains("flag") || message.starts_with("look-around") {
        ("invalid or unsupported Perl syntax", snippet)
    } else if message.contains("size limit") {
        // the compiled program is larger than the `regex` crate allows
        ("expression too large", pattern.to_owned())
    } else {
        (message, snippet)
    };
    format!("error parsing regexp: {code}: `{arg}`")
}

/// A Go pattern (checked by [`check_go_syntax`]) in the `regex` crate's syntax with the
/// same meaning: Perl classes and word boundaries made ASCII, `\Q…\E` quoted, a `[` (not
/// starting a POSIX class) and `&`/`~` inside a class escaped (the `regex` crate reads
/// nested classes and set operations there), a `{` that starts no repeat escaped, an
/// empty flag group `(?)` dropped.
fn translate(p: &str) -> String {
    let b = p.as_bytes();
    let mut out = String::with_capacity(p.len() + 8);
    let mut in_class = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\\' {
            let Some(n) = p[i + 1..].chars().next() else {
                out.push('\\');
                break;
            };
            i += 1 + n.len_utf8();
            if n == 'Q' {
                let end = p[i..].find("\\E").map_or(p.len(), |k| i + k);
                let lit = &p[i..end];
                i = (end + 2).min(p.len());
                if in_class {
                    for ch in lit.chars() {
                        out.push_str(&regex::escape(ch.encode_utf8(&mut [0; 4])));
                    }
                } else {
                    out.push_str(&regex::escape(lit));
                }
                continue;
            }
            let perl = match n {
                'd' => Some((DIGIT, false)),
                'D' => Some((DIGIT, true)),
                'w' => Some((WORD, false)),
                'W' => Some((WORD, true)),
                's' => Some((SPACE, false)),
                'S' => Some((SPACE, true)),
                _ => None,
            };
            match (perl, in_class) {
                (Some((set, false)), true) => out.push_str(set),
                (Some((set, negated)), _) => {
                    out.push_str(if negated { "[^" } else { "[" });
                    out.push_str(set);
                    out.push(']');
                }
                (None, false) if n == 'b' || n == 'B' => {
                    out.push_str("(?-u:\\");
                    out.push(n);
                    out.push(')');
                }
                (None, _) => {
                    out.push('\\');
                    out.push(n);
                }
            }
            continue;
        }
        if in_class {
            match c {
                b']' => {
                    in_class = false;
                    out.push(']');
                }
                // a POSIX class `[:alpha:]` is copied through `:]`
                b'[' if b.get(i + 1) == Some(&b':') && p[i + 2..].contains(":]") => {
                    let end = i + 2 + p[i + 2..].find(":]").unwrap_or(0) + 2;
                    out.push_str(&p[i..end]);
                    i = end;
                    continue;
                }
                b'[' | b'&' | b'~' => {
                    out.push('\\');
                    out.push(char::from(c));
                }
                _ => {
                    let end = char_end(p, i);
                    out.push_str(&p[i..end]);
                    i = end;
                    continue;
                }
            }
            i += 1;
            continue;
        }
        match c {
            b'{' if repeat_count(b, i).is_none() => out.push_str("\\{"),
            b'(' if p[i..].starts_with("(?)") => i += 2,
            b'[' => {
                out.push('[');
                in_class = true;
                if b.get(i + 1) == Some(&b'^') {
                    out.push('^');
                    i += 1;
                }
                if b.get(i + 1) == Some(&b']') {
                    out.push_str("\\]");
                    i += 1;
                }
            }
            _ => {
                let end = char_end(p, i);
                out.push_str(&p[i..end]);
                i = end;
                continue;
            }
        }
        i += 1;
    }
    out
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
        assert_eq!(
            translate(r"\d\D[\d\S]\b"),
            r"[0-9][^0-9][0-9[^\t\n\f\r ]](?-u:\b)"
        );
        // what Go reads as literals
        assert_eq!(translate("a{,5}b{1001c{1,2,3}"), r"a\{,5}b\{1001c\{1,2,3}");
        assert_eq!(translate("[[:foo]]"), r"[\[:foo]]");
        assert_eq!(translate("(?)a"), "a");
    }

    /// Rule (measured on the reference's `regexp.match`): what Go refuses that the
    /// `regex` crate takes, and every error, in Go's words with the offending text.
    #[test]
    fn errors_are_gos() {
        for (pattern, error) in [
            ("a{2000}", "invalid repeat count: `{2000}`"),
            ("a{1001,}", "invalid repeat count: `{1001,}`"),
            ("a{5,1001}", "invalid repeat count: `{5,1001}`"),
            ("x{2,1}", "invalid repeat count: `{2,1}`"),
            ("((a{100}){100}){100}", "invalid repeat count: `{100}`"),
            ("(a{500}){3}", "invalid repeat count: `{3}`"),
            ("(a{2,}){600}", "invalid repeat count: `{600}`"),
            ("(a{2}|b{600}){2}", "invalid repeat count: `{2}`"),
            ("a**", "invalid nested repetition operator: `**`"),
            ("a+*", "invalid nested repetition operator: `+*`"),
            ("a*??", "invalid nested repetition operator: `*??`"),
            ("a{2}{3}", "invalid nested repetition operator: `{2}{3}`"),
            ("a{2}?{3}", "invalid nested repetition operator: `{2}?{3}`"),
            ("(?i", "invalid or unsupported Perl syntax: `(?i`"),
            ("(?x)a", "invalid or unsupported Perl syntax: `(?x`"),
            ("(?=a)", "invalid or unsupported Perl syntax: `(?=`"),
            ("(?<n>a)", "invalid or unsupported Perl syntax: `(?<`"),
            ("(?-)", "invalid or unsupported Perl syntax: `(?-)`"),
            ("(?--i)", "invalid or unsupported Perl syntax: `(?--`"),
            ("(?P=n)", "invalid or unsupported Perl syntax: `(?P`"),
            ("(?P<a-b>a)", "invalid named capture: `(?P<a-b>`"),
            ("(?P<n", "invalid named capture: `(?P<n`"),
            ("[[:foo:]]", "invalid character class range: `[:foo:]`"),
            ("(", "missing closing ): `(`"),
            ("a)", "unexpected ): `a)`"),
            ("[z-a]", "invalid character class range: `z-a`"),
            ("x[a", "missing closing ]: `[a`"),
            ("[[:alpha:]", "missing closing ]: `[[:alpha:]`"),
            ("[a-cz-a]{2000}", "invalid character class range: `z-a`"),
            ("[[:alpha:]z-a]", "invalid character class range: `z-a`"),
            ("*", "missing argument to repetition operator: `*`"),
            ("\\8", "invalid escape sequence: `\\8`"),
        ] {
            assert_eq!(
                compile(pattern).err(),
                Some(format!("error parsing regexp: {error}")),
                "{pattern}"
            );
        }
        for pattern in [
            "a{1000}",
            "(a{500}){2}",
            "(a{0}){1000}",
            "(a*){1000}",
            "x{1000}y{1000}",
            "a*?",
            "a??",
            "(?i-s:a)",
            "(?U)a",
            "(?)",
            "[[:^alpha:]]",
            "a{,5}",
            r"\pL{1000}",
            "[]a]",
            "[a-]",
            "[-a]",
            r"[\]-a]",
        ] {
            assert!(compile(pattern).is_ok(), "{pattern}");
        }
    }
}
