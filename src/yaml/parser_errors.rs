//! go-yaml's wording and line numbers for saphyr's errors, and the patches for what
//! go-yaml accepts but saphyr rejects (included from parser.rs as `mod errors`).
//!
//! saphyr follows YAML 1.2 more strictly than go-yaml (a port of libyaml) in a few spots.
//! Where the difference is a scanner rule, the vendored saphyr carries the change
//! (`vendor/saphyr-parser/PATCHES.md`). Where go-yaml accepts a text for other reasons,
//! the offending spot is patched so that values and line numbers stay the same, and the
//! text is parsed again ([`Failure::Retry`]); where both reject it, the error is given
//! go-yaml's message and line.

use saphyr_parser::{Marker, ScanError};

use super::YamlError;

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

/// go-yaml's reader decodes the input as UTF-8 and rejects what is not printable: the
/// first offending character of the stream decides the message. Bytes that are not
/// UTF-8 arrive carried (`crate::bytestr`: a file, `data.read()`, a Starlark string):
/// the reader sees the bytes they stand for.
pub(super) fn check_characters(src: &str) -> Result<(), YamlError> {
    if crate::bytestr::may_carry(src) {
        return check_bytes(&crate::bytestr::encode(src));
    }
    check_printable(src)
}

/// libyaml's reader on bytes: a UTF-8 sequence's leading octet, its length, its trailing
/// octets, the shortest form, a Unicode scalar value, then the printable characters
/// (YAML 1.1: tab, line breaks, U+0020..U+007E, NEL, U+00A0..U+D7FF, U+E000..U+FFFD,
/// U+10000..U+10FFFF; a byte order mark is one of them).
fn check_bytes(b: &[u8]) -> Result<(), YamlError> {
    let fail = |msg: &str| Err(YamlError::at(None, msg));
    let mut i = 0;
    while i < b.len() {
        let lead = b[i];
        let (width, mut value) = match lead {
            0x00..=0x7F => (1, u32::from(lead)),
            _ if lead & 0xE0 == 0xC0 => (2, u32::from(lead & 0x1F)),
            _ if lead & 0xF0 == 0xE0 => (3, u32::from(lead & 0x0F)),
            _ if lead & 0xF8 == 0xF0 => (4, u32::from(lead & 0x07)),
            _ => return fail("invalid leading UTF-8 octet"),
        };
        let Some(seq) = b.get(i..i + width) else {
            return fail("incomplete UTF-8 octet sequence");
        };
        for &c in &seq[1..] {
            if c & 0xC0 != 0x80 {
                return fail("invalid trailing UTF-8 octet");
            }
            value = value << 6 | u32::from(c & 0x3F);
        }
        let shortest = match width {
            1 => true,
            2 => value >= 0x80,
            3 => value >= 0x800,
            _ => value >= 0x10000,
        };
        if !shortest {
            return fail("invalid length of a UTF-8 sequence");
        }
        if (0xD800..=0xDFFF).contains(&value) || value > 0x10FFFF {
            return fail("invalid Unicode character");
        }
        let printable = matches!(value, 0x09 | 0x0A | 0x0D | 0x20..=0x7E | 0x85)
            || (0xA0..=0xD7FF).contains(&value)
            || (0xE000..=0xFFFD).contains(&value)
            || value >= 0x10000;
        if !printable {
            return fail("control characters are not allowed");
        }
        i += width;
    }
    Ok(())
}

/// The printable check of [`check_bytes`] on text known to be UTF-8.
fn check_printable(src: &str) -> Result<(), YamlError> {
    const BLOCK: usize = 32;
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        // a block of printable ASCII, line breaks and tabs is skipped whole (the test
        // vectorizes: 1 instead of 10 instructions a byte)
        if let Some(block) = b.get(i..i + BLOCK) {
            let odd = block.iter().fold(false, |acc, &c| {
                acc | (c.wrapping_sub(0x20) >= 0x5F && c != b'\n' && c != b'\t' && c != b'\r')
            });
            if !odd {
                i += BLOCK;
                continue;
            }
        }
        for i in i..(i + BLOCK).min(b.len()) {
            let bad = match b[i] {
                0x09 | 0x0A | 0x0D | 0x20..=0x7E => false,
                0x7F => true,
                0x00..=0x1F => true,
                // U+0080..U+009F except U+0085
                0xC2 => {
                    matches!(b.get(i + 1), Some(&n) if (0x80..=0x9F).contains(&n) && n != 0x85)
                }
                // U+FFFE, U+FFFF
                0xEF => b.get(i + 1) == Some(&0xBF) && matches!(b.get(i + 2), Some(0xBE | 0xBF)),
                _ => false,
            };
            if bad {
                return Err(YamlError::at(None, "control characters are not allowed"));
            }
        }
        i += BLOCK;
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
/// `place` is where the builder stands, `cursor` the byte offset up to which the text
/// has been read into events (saphyr's scanner may be further on).
pub(super) fn map_scan_error(e: &ScanError, text: &str, place: Place, cursor: usize) -> Failure {
    let info = e.info();
    let m = e.marker();
    let line = m.line() as u32;
    // the scanner stops on the offending character: its line and column
    let scanner = |msg: &str| {
        Failure::Yaml(YamlError {
            column: Some(m.col() as u32 + 1),
            ..YamlError::at(Some(line), msg)
        })
    };
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
    if info == "while scanning a plain scalar, found a tab" {
        // saphyr points at the scalar, go-yaml at the tab that follows it
        let l = leading_tab_line(text, m).unwrap_or(line);
        return Failure::Yaml(YamlError::at(
            Some(l),
            "found a tab character that violates indentation",
        ));
    }
    if info.starts_with("invalid trailing content after") {
        return after_quoted(text, m, place, cursor);
    }
    if info == "comments must be separated from other tokens by whitespace" {
        // go-yaml starts a comment at a `#` right after a token (`"a"#c`, `[a]#c`, `|#c`)
        return match char_to_byte(text, m.index()) {
            Some(at) => Failure::Retry(insert_blank(text, at), YamlError::at(Some(line), info)),
            None => scanner(info),
        };
    }
    if info == "comment intercepting the multiline text" {
        return after_comment(text, m, place);
    }
    if info == "while scanning a quoted scalar, found unexpected end of stream" {
        // saphyr points at the scalar; go-yaml's scanner reports where it stopped, the
        // end of the stream
        let (line, column) = end_of_stream(text);
        return Failure::Yaml(YamlError {
            column: Some(column),
            ..YamlError::at(Some(line), "found unexpected end of stream")
        });
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

/// The line and column (1-based) of the end of `text`: after its last line break (`\n`,
/// `\r\n` or a lone `\r`, as the scanner counts them), at the end of its last line.
fn end_of_stream(text: &str) -> (u32, u32) {
    let b = text.as_bytes();
    let breaks = b
        .iter()
        .enumerate()
        .filter(|&(i, &c)| c == b'\n' || (c == b'\r' && b.get(i + 1) != Some(&b'\n')))
        .count();
    let last = text.rfind(['\n', '\r']).map_or(text, |i| &text[i + 1..]);
    (breaks as u32 + 1, last.chars().count() as u32 + 1)
}

/// go-yaml reports a missing `:` where the next token starts (after blank and comment
/// lines), or at the end of the stream; saphyr stops before comment lines.
pub(super) fn simple_key_error_line(text: &str, m: &Marker) -> u32 {
    let marker_line = m.line() as u32;
    match char_to_byte(text, m.index()) {
        Some(start) => token_line_from(text, start, marker_line),
        None => marker_line,
    }
}

/// The line of the first token at or after byte `start` (on line `line`), skipping blank
/// and comment lines; at the end of the stream, its last line.
fn token_line_from(text: &str, start: usize, line: u32) -> u32 {
    let mut last = line;
    for (i, l) in text[start..].split('\n').enumerate() {
        let t = l.trim_start_matches([' ', '\t', '\r']);
        if !(t.is_empty() || t.starts_with('#')) {
            return line + i as u32;
        }
        last = line + i as u32;
    }
    // end of stream: the last line (a final newline starts an empty last line)
    last.max(line)
}

/// The first line after the one of `m` whose indentation holds a tab.
fn leading_tab_line(text: &str, m: &Marker) -> Option<u32> {
    let start = char_to_byte(text, m.index())?;
    text[start..]
        .split('\n')
        .enumerate()
        .skip(1)
        .find(|(_, l)| {
            l.bytes()
                .take_while(|&c| c == b' ' || c == b'\t')
                .any(|c| c == b'\t')
        })
        .map(|(i, _)| m.line() as u32 + i as u32)
}

/// Where a node that saphyr stopped at sits: what go-yaml's parser expects after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// the root node of a document
    Root,
    /// in a block mapping; `next_key`: in key position (the previous item is complete)
    BlockMap {
        next_key: bool,
    },
    /// an item of a block sequence; `indentless`: its `-` are in the column of the
    /// keys of the mapping holding it
    BlockSeq {
        indentless: bool,
    },
    FlowSeq,
    FlowMap,
}

/// Content after a quoted scalar on its line. saphyr refuses it in the scanner; go-yaml
/// reads it as the next token, so the outcome is a comment or go-yaml's error:
/// - `"a"#c`: a comment (go-yaml needs no blank before `#` after a token): a blank is
///   inserted and the text parsed again;
/// - `@`, `` ` ``, `%`: no token starts with them: "found character that cannot start any
///   token"; in block context `- ` and `? ` after a scalar are "block sequence entries" /
///   "mapping keys are not allowed in this context" (scanner errors, on that line);
/// - any other token ends the scalar's node and the parser stops at it with the message
///   of the collection around it ("did not find expected key", "… '-' indicator",
///   "… ',' or ']'", "… <document start>"; parser errors, reported one line up as go-yaml
///   does). A quoted scalar that starts its line in block context may begin a simple
///   key: with a `: ` later on the line it is one (the parser then stops at the content
///   after it: "did not find expected key"), and where it must be one (a mapping's next
///   key) and no `: ` follows, the scanner reports "could not find expected ':'" at the
///   next line holding a token.
fn after_quoted(text: &str, m: &Marker, place: Place, cursor: usize) -> Failure {
    let line = m.line() as u32;
    // the scanner stops on the offending character: its line and column
    let scanner = |msg: &str| {
        Failure::Yaml(YamlError {
            column: Some(m.col() as u32 + 1),
            ..YamlError::at(Some(line), msg)
        })
    };
    let parser = |msg: &str| {
        let l = line.saturating_sub(1);
        Failure::Yaml(YamlError::at((l > 0).then_some(l), msg))
    };
    let Some(at) = char_to_byte(text, m.index()) else {
        return parser("did not find expected key");
    };
    let b = text.as_bytes();
    let c = b.get(at).copied().unwrap_or(b'\n');
    let blank_after = matches!(b.get(at + 1), None | Some(b' ' | b'\t' | b'\r' | b'\n'));
    match c {
        b'#' => {
            let err = YamlError::at(Some(line), "did not find expected key");
            return Failure::Retry(insert_blank(text, at), err);
        }
        b'@' | b'`' | b'%' => return scanner("found character that cannot start any token"),
        _ => {}
    }
    let open = opening_quote(text, at);
    // saphyr's scanner reads ahead of its events over a possible simple key (`- [ "a"`):
    // a flow collection opened since the builder's last event holds the scalar
    let place = open
        .and_then(|o| text.get(cursor.min(o)..o))
        .and_then(innermost_open_bracket)
        .unwrap_or(place);
    let flow = matches!(place, Place::FlowSeq | Place::FlowMap);
    if !flow && blank_after && c == b'-' {
        return scanner("block sequence entries are not allowed in this context");
    }
    if !flow && blank_after && c == b'?' {
        return scanner("mapping keys are not allowed in this context");
    }
    match place {
        Place::FlowSeq => return parser("did not find expected ',' or ']'"),
        Place::FlowMap => return parser("did not find expected ',' or '}'"),
        _ => {}
    }
    let (may_be_key, starts_line) = open.map_or((false, false), |o| line_prefix(text, o));
    if may_be_key && has_value_indicator(&text[at..]) {
        return parser("did not find expected key");
    }
    if may_be_key && starts_line && place == (Place::BlockMap { next_key: true }) {
        let next_line = text[at..].find('\n').map(|i| at + i + 1);
        let l = match next_line {
            Some(nl) => token_line_from(text, nl, line + 1),
            None => line,
        };
        return Failure::Yaml(YamlError::at(Some(l), "could not find expected ':'"));
    }
    match place {
        Place::Root => parser("did not find expected <document start>"),
        Place::BlockSeq { indentless: false } => parser("did not find expected '-' indicator"),
        _ => parser("did not find expected key"),
    }
}

/// The byte offset of the opening quote of the quoted scalar that ends (with blanks
/// after it) before byte `at`.
fn opening_quote(text: &str, at: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = at;
    while i > 0 && matches!(b[i - 1], b' ' | b'\t') {
        i -= 1;
    }
    let close = i.checked_sub(1)?;
    let q = b[close];
    if q != b'"' && q != b'\'' {
        return None;
    }
    let mut j = close;
    loop {
        let k = text[..j].rfind(q as char)?;
        // a `''` pair or a `\"` escape is part of the scalar
        let escaped = match q {
            b'\'' => k > 0 && b[k - 1] == b'\'',
            _ => b[..k].iter().rev().take_while(|&&x| x == b'\\').count() % 2 == 1,
        };
        if !escaped {
            return Some(k);
        }
        j = if q == b'\'' { k - 1 } else { k };
    }
}

/// For a token starting at byte `open`: whether it may start a simple key (only blanks
/// and `- ` / `? ` indicators before it on its line) and whether it starts its line.
fn line_prefix(text: &str, open: usize) -> (bool, bool) {
    let line_start = text[..open].rfind('\n').map_or(0, |p| p + 1);
    let before = &text[line_start..open];
    let starts_line = before.bytes().all(|c| c == b' ');
    let mut rest = before.trim_start_matches(' ');
    while let Some(r) = rest.strip_prefix(['-', '?']) {
        if !r.starts_with([' ', '\t']) {
            return (false, starts_line);
        }
        rest = r.trim_start_matches([' ', '\t']);
    }
    (rest.is_empty(), starts_line)
}

/// The flow collection left open by the indicators in `between` (text between tokens:
/// blanks, comments, indicators, anchors and tags).
fn innermost_open_bracket(between: &str) -> Option<Place> {
    let mut open = Vec::new();
    let mut prev_blank = true;
    let mut chars = between.chars();
    while let Some(c) = chars.next() {
        match c {
            '#' if prev_blank => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '[' => open.push(Place::FlowSeq),
            '{' => open.push(Place::FlowMap),
            ']' | '}' => {
                open.pop();
            }
            _ => {}
        }
        prev_blank = c.is_whitespace();
    }
    open.pop()
}

fn insert_blank(text: &str, at: usize) -> String {
    let mut t = String::with_capacity(text.len() + 1);
    t.push_str(&text[..at]);
    t.push(' ');
    t.push_str(&text[at..]);
    t
}

/// saphyr refuses a plain scalar, a comment after it and a more indented line right
/// below (`a: x # c` then `  y`); go-yaml ends the scalar at the comment and reads the
/// next line as a new token, which the parser refuses with the message of the collection
/// around the scalar (a tab in that line's indentation is refused first).
fn after_comment(text: &str, m: &Marker, place: Place) -> Failure {
    let line = m.line() as u32;
    let next = char_to_byte(text, m.index())
        .and_then(|at| text[at..].find('\n').map(|i| &text[at + i + 1..]));
    if next.is_some_and(|l| {
        l.bytes()
            .take_while(|&c| c == b' ' || c == b'\t')
            .any(|c| c == b'\t')
    }) {
        return Failure::Yaml(YamlError::at(
            Some(line + 1),
            "found character that cannot start any token",
        ));
    }
    // the parser error is at the next line, reported one up: the comment's line
    let msg = match place {
        Place::Root => "did not find expected <document start>",
        Place::BlockSeq { indentless: false } => "did not find expected '-' indicator",
        _ => "did not find expected key",
    };
    Failure::Yaml(YamlError::at((line > 0).then_some(line), msg))
}

/// Whether a `:` followed by a blank (or the line end) comes on this line, outside quotes
/// and before a comment.
fn has_value_indicator(line: &str) -> bool {
    let b = line.as_bytes();
    let mut i = 0;
    let mut prev_blank = true;
    while i < b.len() && b[i] != b'\n' {
        match b[i] {
            b'#' if prev_blank => return false,
            q @ (b'"' | b'\'') if prev_blank => {
                // to the closing quote (`\"` and `''` do not close)
                i += 1;
                while i < b.len() {
                    if q == b'"' && b[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if b[i] == q {
                        if q == b'\'' && b.get(i + 1) == Some(&b'\'') {
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    i += 1;
                }
            }
            b':' if matches!(b.get(i + 1), None | Some(b' ' | b'\t' | b'\r' | b'\n')) => {
                return true
            }
            _ => {}
        }
        prev_blank = matches!(b.get(i), Some(b' ' | b'\t'));
        i += 1;
    }
    false
}

pub(super) fn alias_name_at(text: &str, idx: usize) -> String {
    let Some(b) = char_to_byte(text, idx) else {
        return String::new();
    };
    let rest = &text[b..];
    let rest = rest.strip_prefix('*').unwrap_or(rest);
    // an anchor's name: letters, digits, `_` and `-` (libyaml's rule, patched into saphyr)
    rest.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
        .collect()
}
