//! go-yaml's wording and line numbers for saphyr's errors, and the patches for what
//! go-yaml accepts but saphyr rejects (included from parser.rs as `mod errors`).
//!
//! saphyr follows YAML 1.2 more strictly than go-yaml (a port of libyaml) in a few spots;
//! where go-yaml accepts the text, the offending spot is patched so that values and line
//! numbers stay the same, and the text is parsed again ([`Failure::Retry`]); where both
//! reject it, the error is given go-yaml's message and line.

use saphyr_parser::{Marker, ScanError};

use super::{utf8_len, YamlError};

pub(super) enum Failure {
    Yaml(YamlError),
    /// saphyr rejected something go-yaml accepts: parse this patched text instead.
    Retry(String, YamlError),
    /// The fast block scanner met something outside its subset: parse with saphyr.
    Unsupported,
}

impl From<YamlError> for Failure {
    fn from(e: YamlError) -> Self {
        Failure::Yaml(e)
    }
}

/// go-yaml's reader rejects control characters anywhere in the input.
pub(super) fn check_characters(src: &str) -> Result<(), YamlError> {
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let bad = match c {
            0x09 | 0x0A | 0x0D | 0x20..=0x7E => false,
            0x7F => true,
            0x00..=0x1F => true,
            // U+0080..U+009F except U+0085
            0xC2 => matches!(b.get(i + 1), Some(&n) if (0x80..=0x9F).contains(&n) && n != 0x85),
            // U+FFFE, U+FFFF
            0xEF => b.get(i + 1) == Some(&0xBF) && matches!(b.get(i + 2), Some(0xBE | 0xBF)),
            _ => false,
        };
        if bad {
            return Err(YamlError::at(None, "control characters are not allowed"));
        }
        i += 1;
    }
    Ok(())
}

/// Byte offset of the `idx`-th char (saphyr markers count chars).
pub(super) fn char_to_byte(s: &str, idx: usize) -> Option<usize> {
    if s.is_ascii() {
        return (idx <= s.len()).then_some(idx);
    }
    s.char_indices()
        .map(|(b, _)| b)
        .chain(std::iter::once(s.len()))
        .nth(idx)
}

/// Map a saphyr error to go-yaml's wording and line numbering: scanner errors report
/// the 1-based line of the problem, parser errors report it 0-based (one less).
pub(super) fn map_scan_error(e: &ScanError, text: &str) -> Failure {
    let info = e.info();
    let m = e.marker();
    let line = m.line() as u32;
    let scanner = |msg: &str| Failure::Yaml(YamlError::at(Some(line), msg));
    let parser = |msg: &str| {
        let l = line.saturating_sub(1);
        Failure::Yaml(YamlError::at((l > 0).then_some(l), msg))
    };
    if info.starts_with("unexpected character") || info.starts_with("tabs disallowed") {
        return scanner("found character that cannot start any token");
    }
    if info.starts_with("simple key expect") {
        let l = simple_key_error_line(text, m);
        return Failure::Yaml(YamlError::at(Some(l), "could not find expected ':'"));
    }
    if info == "':' must be followed by a valid YAML whitespace" {
        let err = YamlError::at(Some(line), "found character that cannot start any token");
        // the marker is on the char after the blank following ':'
        let tab_at = m.index().checked_sub(1).filter(|&i| {
            char_to_byte(text, i)
                .and_then(|b| text.as_bytes().get(b))
                .is_some_and(|&c| c == b'\t')
        });
        return if let Some(b) = tab_at.and_then(|i| char_to_byte(text, i)) {
            let mut t = text.to_owned();
            t.replace_range(b..b + 1, " ");
            Failure::Retry(t, err)
        } else {
            Failure::Yaml(err)
        };
    }
    if info == "invalid indentation in quoted scalar" {
        let err = YamlError::at(Some(line), "did not find expected key");
        return match pad_quoted(text, m) {
            Some(t) => Failure::Retry(t, err),
            None => Failure::Yaml(err),
        };
    }
    // Inside a flow collection go-yaml (like libyaml) checks no indentation at all, so
    // `args: [` … `]` with the closing bracket (or any line) in the key's column is
    // accepted; saphyr wants flow lines indented past the enclosing block (YAML 1.2
    // §8.2.3) and stops at the first line that is not: "invalid indentation" at a token
    // that opens its line (a `]` or `}`, or a quoted scalar or collection), "… in flow
    // construct" at a plain scalar. That line is indented and the text parsed again: in
    // flow context a line's leading blanks are insignificant (they separate tokens or
    // are folded away), so values and line numbers do not change.
    if info == "invalid indentation" || info == "invalid indentation in flow construct" {
        let err = YamlError::at(Some(line), "did not find expected ',' or ']'");
        return match pad_line(text, m) {
            Some(t) => Failure::Retry(t, err),
            None => Failure::Yaml(err),
        };
    }
    if info == "while scanning a plain scalar, found a tab" {
        return scanner("found a tab character that violates indentation");
    }
    if info.contains("found unknown anchor") {
        let name = alias_name_at(text, m.index());
        return Failure::Yaml(YamlError::at(
            None,
            &format!("unknown anchor '{name}' referenced"),
        ));
    }
    match info {
        "while parsing a block mapping, did not find expected key" => {
            return parser("did not find expected key")
        }
        "while parsing a block collection, did not find expected '-' indicator" => {
            return parser("did not find expected '-' indicator")
        }
        "while parsing a flow sequence, expected ',' or ']'" => {
            return parser("did not find expected ',' or ']'")
        }
        "while parsing a flow mapping, did not find expected ',' or '}'" => {
            return parser("did not find expected ',' or '}'")
        }
        "while parsing a node, did not find expected node content" => {
            return parser("did not find expected node content")
        }
        "did not find expected <document start>" | "did not find expected <document-start>" => {
            return parser("did not find expected <document start>")
        }
        "the handle wasn't declared" => return parser("found undefined tag handle"),
        "invalid content after document end marker" => {
            return scanner("did not find expected <document start>")
        }
        _ => {}
    }
    // "while scanning X, found Y" → "found Y" (go-yaml keeps the context separately)
    let msg = match info.find(", ") {
        Some(i) if info.starts_with("while ") => &info[i + 2..],
        _ => info,
    };
    scanner(msg)
}

/// Indent the continuation lines of the quoted scalar starting at `m` (its leading blanks
/// are folded away, so the value does not change).
pub(super) fn pad_quoted(text: &str, m: &Marker) -> Option<String> {
    let start = char_to_byte(text, m.index())?;
    let b = text.as_bytes();
    let quote = *b.get(start)?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let want = m.col() + 1;
    let mut out = String::with_capacity(text.len() + 64);
    out.push_str(&text[..=start]);
    let mut i = start + 1;
    let mut changed = false;
    while i < b.len() {
        let c = b[i];
        if c == quote {
            if quote == b'\'' && b.get(i + 1) == Some(&b'\'') {
                out.push_str("''");
                i += 2;
                continue;
            }
            break;
        }
        if c == b'\\' && quote == b'"' && i + 1 < b.len() && b[i + 1] != b'\n' {
            out.push('\\');
            i += 1;
            continue;
        }
        if c == b'\n' {
            out.push('\n');
            i += 1;
            let ws = b[i..].iter().take_while(|&&x| x == b' ').count();
            let rest_blank = b[i + ws..]
                .first()
                .is_none_or(|&x| x == b'\n' || x == b'\r');
            if ws < want && !rest_blank {
                out.extend(std::iter::repeat_n(' ', want - ws));
                changed = true;
            }
            continue;
        }
        let l = utf8_len(c);
        out.push_str(text.get(i..i + l)?);
        i += l;
    }
    if !changed {
        return None;
    }
    out.push_str(text.get(i..)?);
    Some(out)
}

/// Indent the line of `m` (inside a flow collection) one level deeper than the previous
/// non-blank line.
pub(super) fn pad_line(text: &str, m: &Marker) -> Option<String> {
    let here = char_to_byte(text, m.index())?;
    let line_start = text[..here].rfind('\n').map_or(0, |p| p + 1);
    let prev_indent = text[..line_start.saturating_sub(1)]
        .rsplit('\n')
        .find(|l| !l.trim().is_empty())
        .map_or(0, |l| l.len() - l.trim_start_matches(' ').len());
    let cur = text[line_start..]
        .bytes()
        .take_while(|&x| x == b' ')
        .count();
    let add = (prev_indent + 1).saturating_sub(cur).max(1);
    let mut out = String::with_capacity(text.len() + add);
    out.push_str(&text[..line_start]);
    out.extend(std::iter::repeat_n(' ', add));
    out.push_str(&text[line_start..]);
    Some(out)
}

/// go-yaml reports a missing `:` where the next token starts (after blank and comment
/// lines), or at the end of the stream; saphyr stops before comment lines.
pub(super) fn simple_key_error_line(text: &str, m: &Marker) -> u32 {
    let marker_line = m.line() as u32;
    let Some(start) = char_to_byte(text, m.index()) else {
        return marker_line;
    };
    let mut line = marker_line;
    for (i, l) in text[start..].split('\n').enumerate() {
        let t = l.trim_start_matches([' ', '\t', '\r']);
        if !(t.is_empty() || t.starts_with('#')) {
            return marker_line + i as u32;
        }
        line = marker_line + i as u32;
    }
    // end of stream: the last line (a final newline starts an empty last line)
    line.max(marker_line)
}

pub(super) fn alias_name_at(text: &str, idx: usize) -> String {
    let Some(b) = char_to_byte(text, idx) else {
        return String::new();
    };
    let rest = &text[b..];
    let rest = rest.strip_prefix('*').unwrap_or(rest);
    rest.chars()
        .take_while(|c| !c.is_whitespace() && !matches!(c, ',' | '[' | ']' | '{' | '}'))
        .collect()
}
