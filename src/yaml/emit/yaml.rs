//! The YAML emitter: block style as produced by ytt's fork of go-yaml v2 (a port of
//! libyaml's emitter). This follows the emitter's state (column, indent, whitespace and
//! indention flags) so block scalars, `? ` complex keys and nested sequences come out
//! byte-identical.

use std::borrow::Cow;
use std::fmt::Write as _;

use super::float::write_float_yaml;
use crate::yaml::node::{DocSet, Node};
use crate::yaml::scalar::reads_as_non_string;

/// The default output: the documents joined by `---\n` (empty documents have already
/// left the set, see `Doc::is_empty`; those still here print, e.g. as `{}`).
pub fn yaml_docset(ds: &DocSet, out: &mut String) {
    super::split::append(out, yaml_texts(ds));
}

/// [`yaml_docset`] in parts to be written one after the other: a large output is
/// written on every core, a part per run of documents (`split`); a document written
/// ahead (`Doc::written`) is its text as it is.
pub fn yaml_texts(ds: &DocSet) -> Vec<Cow<'_, str>> {
    let docs = &ds.docs;
    let mut parts = Vec::new();
    let mut at = 0;
    while at < docs.len() {
        if let Some(text) = docs[at].written.text() {
            if at > 0 {
                parts.push(Cow::Borrowed("---\n"));
            }
            parts.push(Cow::Borrowed(text));
            at += 1;
            continue;
        }
        // the documents up to the next one written ahead (all of them, usually)
        let end = docs[at..]
            .iter()
            .position(|d| d.written.text().is_some())
            .map_or(docs.len(), |n| at + n);
        let texts = super::split::write_docs(&docs[at..end], |run, first, out| {
            for (i, doc) in run.iter().enumerate() {
                if at + first + i > 0 {
                    out.push_str("---\n");
                }
                write_document(&doc.value, out);
            }
            Ok::<(), std::convert::Infallible>(())
        });
        let Ok(texts) = texts;
        parts.extend(texts.into_iter().map(Cow::Owned));
        at = end;
    }
    parts
}

/// A single value as a one-document YAML text (`yaml.encode()`): `a: 1\n`, `foo\n`, `{}\n`.
pub fn yaml_node(n: &Node) -> String {
    let mut out = String::new();
    write_document(n, &mut out);
    out
}

/// Appends one document (the value followed by its final line break).
pub fn write_document(n: &Node, out: &mut String) {
    let mut e = Emitter {
        out,
        column: 0,
        indent: -1,
        whitespace: true,
        indention: true,
        simple_key_context: false,
        mapping_context: false,
    };
    e.emit_node(n, false, false);
    // document end: an implicit end still breaks the line
    e.write_indent();
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

struct Emitter<'a> {
    out: &'a mut String,
    /// Column in characters.
    column: usize,
    indent: i32,
    /// The last written character is whitespace (or nothing on the line yet).
    whitespace: bool,
    /// Only indentation has been written on the current line.
    indention: bool,
    simple_key_context: bool,
    mapping_context: bool,
}

const BEST_INDENT: i32 = 2;
/// Keys longer than this (in bytes) are written as `? key` complex keys.
const MAX_SIMPLE_KEY_LEN: usize = 128;

impl Emitter<'_> {
    #[inline]
    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    #[inline]
    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    /// Writes text that contains no line breaks.
    #[inline]
    fn put_str(&mut self, s: &str) {
        self.out.push_str(s);
        self.column += char_count(s);
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        if self.column < indent {
            self.put_spaces(indent - self.column);
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn put_spaces(&mut self, mut n: usize) {
        const SPACES: &str = "                                                                ";
        self.column += n;
        while n > 0 {
            let k = n.min(SPACES.len());
            self.out.push_str(&SPACES[..k]);
            n -= k;
        }
    }

    fn write_indicator(
        &mut self,
        indicator: &str,
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        self.put_str(indicator);
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    #[inline]
    fn increase_indent(&mut self, flow: bool, indentless: bool) -> i32 {
        let saved = self.indent;
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
        saved
    }

    fn emit_node(&mut self, n: &Node, mapping: bool, simple_key: bool) {
        self.mapping_context = mapping;
        self.simple_key_context = simple_key;
        match n {
            Node::Map(m) if m.items.is_empty() => self.emit_empty_flow("{", "}"),
            Node::Array(a) if a.items.is_empty() => self.emit_empty_flow("[", "]"),
            Node::Map(m) => {
                let saved = self.increase_indent(false, false);
                for item in &m.items {
                    self.write_indent();
                    if is_simple_key(&item.key) {
                        self.emit_node(&item.key, true, true);
                        self.write_indicator(":", false, false, false);
                    } else {
                        self.write_indicator("?", true, false, true);
                        self.emit_node(&item.key, true, false);
                        self.write_indent();
                        self.write_indicator(":", true, false, true);
                    }
                    self.emit_node(&item.value, true, false);
                }
                self.indent = saved;
            }
            Node::Array(a) => {
                let indentless = self.mapping_context && !self.indention;
                let saved = self.increase_indent(false, indentless);
                for item in &a.items {
                    self.write_indent();
                    self.write_indicator("-", true, false, true);
                    self.emit_node(&item.value, false, false);
                }
                self.indent = saved;
            }
            Node::Str(s) => self.emit_string(s),
            Node::Null => self.emit_plain_ascii("null"),
            Node::Bool(b) => self.emit_plain_ascii(if *b { "true" } else { "false" }),
            Node::Int(i) => {
                if !self.whitespace {
                    self.put(' ');
                }
                let start = self.out.len();
                let _ = write!(self.out, "{i}");
                self.column += self.out.len() - start;
                self.whitespace = false;
                self.indention = false;
            }
            Node::Float(f) => {
                if !self.whitespace {
                    self.put(' ');
                }
                let start = self.out.len();
                write_float_yaml(self.out, *f);
                self.column += self.out.len() - start;
                self.whitespace = false;
                self.indention = false;
            }
        }
    }

    fn emit_empty_flow(&mut self, open: &str, close: &str) {
        let saved = self.increase_indent(true, false);
        self.write_indicator(open, true, true, false);
        self.indent = saved;
        self.write_indicator(close, false, false, false);
    }

    /// A scalar that is always written plain (null, bools).
    fn emit_plain_ascii(&mut self, s: &str) {
        if !self.whitespace {
            self.put(' ');
        }
        self.out.push_str(s);
        self.column += s.len();
        self.whitespace = false;
        self.indention = false;
    }

    fn emit_string(&mut self, s: &str) {
        match scalar_of(s) {
            Scalar::Text(t) => self.emit_utf8_string(&t),
            Scalar::Binary(text) => self.emit_binary(&text),
        }
    }

    /// Bytes that are not UTF-8, as go-yaml writes them: `!!binary` and their base64
    /// (`text`, see [`scalar_of`]), a literal block when it is broken into lines.
    fn emit_binary(&mut self, text: &str) {
        // base64 is always fit for a plain scalar: go-yaml writes it plain (or literal)
        self.write_indicator(BINARY_TAG, true, false, false);
        let saved = self.increase_indent(true, false);
        if text.ends_with('\n') {
            self.write_literal(text);
        } else {
            self.put(' ');
            self.put_str(text);
            self.whitespace = false;
            self.indention = false;
        }
        self.indent = saved;
    }

    fn emit_utf8_string(&mut self, s: &str) {
        if is_simple_plain_ascii(s.as_bytes()) {
            // fast path: no indicators, spaces, breaks or special characters
            if reads_as_non_string(s) {
                let saved = self.increase_indent(true, false);
                self.write_double_quoted(s);
                self.indent = saved;
            } else {
                if !self.whitespace {
                    self.put(' ');
                }
                self.out.push_str(s);
                self.column += s.len();
                self.whitespace = false;
                self.indention = false;
            }
            return;
        }
        let a = analyze(s.as_bytes());
        // the style go-yaml's encoder asks for
        let mut style = if s.contains('\n') {
            Style::Literal
        } else if reads_as_non_string(s) {
            Style::Double
        } else {
            Style::Plain
        };
        // the emitter's choice (yaml_emitter_select_scalar_style)
        if self.simple_key_context && a.multiline {
            style = Style::Double;
        }
        if style == Style::Plain
            && (!a.block_plain_allowed || (s.is_empty() && self.simple_key_context))
        {
            style = Style::Single;
        }
        if style == Style::Single && !a.single_quoted_allowed {
            style = Style::Double;
        }
        if style == Style::Literal && (!a.block_allowed || self.simple_key_context) {
            style = Style::Double;
        }

        let saved = self.increase_indent(true, false);
        match style {
            Style::Plain => {
                // plain scalars never contain line breaks here
                if !self.whitespace {
                    self.put(' ');
                }
                self.put_str(s);
                self.whitespace = false;
                self.indention = false;
            }
            Style::Single => self.write_single_quoted(s),
            Style::Double => self.write_double_quoted(s),
            Style::Literal => self.write_literal(s),
        }
        self.indent = saved;
    }

    fn write_single_quoted(&mut self, s: &str) {
        self.write_indicator("'", true, false, false);
        if !s.contains(is_break_char) {
            // one line: the text with its quotes doubled (the loop below does the same
            // a character at a time)
            for (i, part) in s.split('\'').enumerate() {
                if i > 0 {
                    self.out.push_str("''");
                    self.column += 2;
                }
                self.put_str(part);
            }
            self.indention = false;
            self.write_indicator("'", false, false, false);
            self.whitespace = false;
            self.indention = false;
            return;
        }
        let mut breaks = false;
        for c in s.chars() {
            if c == ' ' {
                self.put(' ');
            } else if is_break_char(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                if c == '\n' {
                    self.put_break();
                } else {
                    self.out.push(c);
                    self.column = 0;
                }
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_double_quoted(&mut self, s: &str) {
        self.write_indicator("\"", true, false, false);
        // libyaml's BOM check looks at the start of the value, not at the current
        // character: a value starting with U+FEFF gets every character escaped.
        let escape_all = s.starts_with('\u{FEFF}');
        let start = self.out.len();
        let mut extra_cols = 0usize;
        let mut rest = s;
        while !rest.is_empty() {
            // a run of printable ASCII without quotes or backslashes goes out as it is
            let run = if escape_all {
                0
            } else {
                rest.bytes()
                    .position(|b| !(0x20..0x7F).contains(&b) || b == b'"' || b == b'\\')
                    .unwrap_or(rest.len())
            };
            self.out.push_str(&rest[..run]);
            rest = &rest[run..];
            let Some(c) = rest.chars().next() else {
                break;
            };
            rest = &rest[c.len_utf8()..];
            if escape_all
                || !is_printable_char(c)
                || c == '\u{FEFF}'
                || is_break_char(c)
                || c == '"'
                || c == '\\'
            {
                let out = &mut *self.out;
                out.push('\\');
                match c {
                    '\0' => out.push('0'),
                    '\x07' => out.push('a'),
                    '\x08' => out.push('b'),
                    '\t' => out.push('t'),
                    '\n' => out.push('n'),
                    '\x0b' => out.push('v'),
                    '\x0c' => out.push('f'),
                    '\r' => out.push('r'),
                    '\x1b' => out.push('e'),
                    '"' => out.push('"'),
                    '\\' => out.push('\\'),
                    '\u{85}' => out.push('N'),
                    '\u{A0}' => out.push('_'),
                    '\u{2028}' => out.push('L'),
                    '\u{2029}' => out.push('P'),
                    _ => {
                        let v = c as u32;
                        let _ = if v <= 0xFF {
                            write!(out, "x{v:02X}")
                        } else if v <= 0xFFFF {
                            write!(out, "u{v:04X}")
                        } else {
                            write!(out, "U{v:08X}")
                        };
                    }
                }
            } else {
                self.out.push(c);
                if c.len_utf8() > 1 {
                    extra_cols += c.len_utf8() - 1;
                }
            }
        }
        // escapes are ASCII: column advances by bytes minus the extra bytes of raw chars
        self.column += self.out.len() - start - extra_cols;
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_literal(&mut self, s: &str) {
        self.write_indicator("|", true, false, false);
        // block scalar hints
        let b = s.as_bytes();
        let first = s.chars().next();
        if first.is_some_and(|c| c == ' ' || is_break_char(c)) {
            self.write_indicator("2", false, false, false);
        }
        let mut chars = s.chars().rev();
        let chomp = match chars.next() {
            None => Some("-"),
            Some(last) if !is_break_char(last) => Some("-"),
            Some(last) => {
                if last.len_utf8() == b.len() {
                    Some("+")
                } else {
                    match chars.next() {
                        Some(prev) if is_break_char(prev) => Some("+"),
                        _ => None,
                    }
                }
            }
        };
        if let Some(ch) = chomp {
            self.write_indicator(ch, false, false, false);
        }
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for line in SplitBreaks::new(s) {
            match line {
                Piece::Text(t) => {
                    if breaks {
                        self.write_indent();
                    }
                    self.put_str(t);
                    self.indention = false;
                    breaks = false;
                }
                Piece::Break(c) => {
                    if c == '\n' {
                        self.put_break();
                    } else {
                        self.out.push(c);
                        self.column = 0;
                    }
                    self.indention = true;
                    breaks = true;
                }
            }
        }
    }
}

enum Piece<'a> {
    Text(&'a str),
    Break(char),
}

/// Splits a string into runs of non-break text and single break characters.
struct SplitBreaks<'a> {
    s: &'a str,
}

impl<'a> SplitBreaks<'a> {
    fn new(s: &'a str) -> Self {
        SplitBreaks { s }
    }
}

impl<'a> Iterator for SplitBreaks<'a> {
    type Item = Piece<'a>;
    fn next(&mut self) -> Option<Piece<'a>> {
        let s = self.s;
        if s.is_empty() {
            return None;
        }
        match find_break(s) {
            Some((0, c)) => {
                self.s = &s[c.len_utf8()..];
                Some(Piece::Break(c))
            }
            found => {
                let end = found.map_or(s.len(), |(i, _)| i);
                self.s = &s[end..];
                Some(Piece::Text(&s[..end]))
            }
        }
    }
}

/// The first line break of `s` (offset and character). Searched by byte: a break is
/// `\n`, `\r` or a character starting with 0xC2 (U+0085) or 0xE2 (U+2028, U+2029), so
/// most bytes are passed over with one comparison (rather than decoded as characters).
fn find_break(s: &str) -> Option<(usize, char)> {
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(p) = b[from..]
        .iter()
        .position(|&c| matches!(c, b'\n' | b'\r' | 0xC2 | 0xE2))
    {
        let at = from + p;
        let c = s[at..].chars().next()?;
        if is_break_char(c) {
            return Some((at, c));
        }
        from = at + c.len_utf8();
    }
    None
}

/// Starts with an ASCII letter or digit and holds only `[A-Za-z0-9_./-]`: libyaml's
/// analysis allows every style for such a value.
#[inline]
fn is_simple_plain_ascii(b: &[u8]) -> bool {
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b.len() <= MAX_SIMPLE_KEY_LEN
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'/' | b'-'))
}

#[inline]
fn char_count(s: &str) -> usize {
    // count bytes that start a character
    s.as_bytes().iter().filter(|&&b| (b & 0xC0) != 0x80).count()
}

/// What go-yaml hands the emitter for a string: its text, or for bytes that are not UTF-8
/// the base64 text of a `!!binary` scalar, broken into lines of 70 characters (each
/// ending in a line break) when it is longer.
enum Scalar<'a> {
    Text(Cow<'a, str>),
    Binary(String),
}

const BINARY_TAG: &str = "!!binary";

fn scalar_of(s: &str) -> Scalar<'_> {
    if crate::bytestr::may_carry(s) {
        match crate::bytestr::as_utf8(s) {
            // a reserved char of the input, not a carried byte
            Ok(Cow::Owned(t)) => return Scalar::Text(Cow::Owned(t)),
            Ok(Cow::Borrowed(_)) => {}
            Err(bytes) => {
                use base64::Engine as _;
                const LINE: usize = 70;
                let enc = base64::engine::general_purpose::STANDARD.encode(bytes);
                if enc.len() < LINE {
                    return Scalar::Binary(enc);
                }
                let mut t = String::with_capacity(enc.len() + enc.len() / LINE + 1);
                for chunk in enc.as_bytes().chunks(LINE) {
                    t.push_str(std::str::from_utf8(chunk).unwrap_or(""));
                    t.push('\n');
                }
                return Scalar::Binary(t);
            }
        }
    }
    Scalar::Text(Cow::Borrowed(s))
}

/// libyaml's check for an implicit key: at most 128 bytes (its tag included) on one line.
fn is_simple_key(key: &Node) -> bool {
    match key {
        // ASCII carries no bytes (see `crate::bytestr`): the common case, checked first
        Node::Str(s) if s.is_ascii() => {
            s.len() <= MAX_SIMPLE_KEY_LEN && !s.bytes().any(|b| b == b'\n' || b == b'\r')
        }
        Node::Str(s) => match scalar_of(s) {
            Scalar::Text(t) => t.len() <= MAX_SIMPLE_KEY_LEN && !t.chars().any(is_break_char),
            Scalar::Binary(b) => {
                BINARY_TAG.len() + b.len() <= MAX_SIMPLE_KEY_LEN && !b.contains('\n')
            }
        },
        Node::Map(m) => m.items.is_empty(),
        Node::Array(a) => a.items.is_empty(),
        _ => true,
    }
}

#[inline]
fn is_break_char(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

#[inline]
fn is_printable_char(c: char) -> bool {
    let v = c as u32;
    v == 0x0A
        || (0x20..=0x7E).contains(&v)
        || (0xA0..=0xD7FF).contains(&v)
        || ((0xE000..=0xFFFD).contains(&v) && v != 0xFEFF)
}

/// What libyaml's scalar analysis allows for a value (block context only: ytt never
/// writes flow collections except the empty `{}` / `[]`).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Analysis {
    pub multiline: bool,
    pub block_plain_allowed: bool,
    pub single_quoted_allowed: bool,
    pub block_allowed: bool,
}

#[inline]
fn is_blank_at(b: &[u8], i: usize) -> bool {
    i < b.len() && (b[i] == b' ' || b[i] == b'\t')
}

#[inline]
fn utf8_width(b: u8) -> usize {
    if b & 0x80 == 0 {
        1
    } else if b & 0xE0 == 0xC0 {
        2
    } else if b & 0xF0 == 0xE0 {
        3
    } else if b & 0xF8 == 0xF0 {
        4
    } else {
        1
    }
}

pub(crate) fn analyze(value: &[u8]) -> Analysis {
    if value.is_ascii() {
        return analyze_ascii(value);
    }
    analyze_chars(value)
}

/// How an ASCII byte takes part in [`analyze`]: most bytes (letters, digits, most
/// punctuation) only end runs of spaces and breaks.
const OTHER: u8 = 0;
const SPACE: u8 = 1;
const BREAK: u8 = 2;
const TAB: u8 = 3;
const COLON: u8 = 4;
const HASH: u8 = 5;
const NUL: u8 = 6;
const CONTROL: u8 = 7;

const ASCII_CLASS: [u8; 128] = {
    let mut t = [OTHER; 128];
    let mut c = 0;
    while c < 0x20 {
        t[c] = CONTROL;
        c += 1;
    }
    t[0] = NUL;
    t[0x7F] = CONTROL;
    t[b' ' as usize] = SPACE;
    t[b'\n' as usize] = BREAK;
    t[b'\r' as usize] = BREAK;
    t[b'\t' as usize] = TAB;
    t[b':' as usize] = COLON;
    t[b'#' as usize] = HASH;
    t
};

/// [`analyze_chars`] for ASCII text, a byte at a time with a table (measured on
/// bench/package: a fifth of the instructions).
fn analyze_ascii(value: &[u8]) -> Analysis {
    let n = value.len();
    let Some((&first, &last)) = value.first().zip(value.last()) else {
        return analyze_chars(value);
    };
    let blank_at = |i: usize| matches!(value.get(i), Some(b' ' | b'\t'));
    let mut block_indicators = value.starts_with(b"---")
        || value.starts_with(b"...")
        || match first {
            b'#' | b',' | b'[' | b']' | b'{' | b'}' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\''
            | b'"' | b'%' | b'@' | b'`' => true,
            b'?' | b':' | b'-' => n == 1 || blank_at(1),
            _ => false,
        };
    let mut special_characters = false;
    let mut line_breaks = false;
    let mut break_space = false;
    let mut space_break = false;
    let mut previous_space = false;
    let mut previous_break = false;
    let mut preceded_by_whitespace = true;
    let mut i = 0;
    while i < n {
        let class = ASCII_CLASS[usize::from(value[i])];
        if class == OTHER {
            i += 1;
            while i < n && ASCII_CLASS[usize::from(value[i])] == OTHER {
                i += 1;
            }
            previous_space = false;
            previous_break = false;
            preceded_by_whitespace = false;
            continue;
        }
        match class {
            SPACE => {
                break_space |= previous_break;
                previous_space = true;
                previous_break = false;
            }
            BREAK => {
                // `\r` is not printable
                special_characters |= value[i] == b'\r';
                line_breaks = true;
                space_break |= previous_space;
                previous_space = false;
                previous_break = true;
            }
            COLON => {
                block_indicators |= i > 0 && (i + 1 == n || blank_at(i + 1));
                previous_space = false;
                previous_break = false;
            }
            HASH => {
                block_indicators |= i > 0 && preceded_by_whitespace;
                previous_space = false;
                previous_break = false;
            }
            _ => {
                // tabs, NUL and other control characters
                special_characters = true;
                previous_space = false;
                previous_break = false;
            }
        }
        preceded_by_whitespace = matches!(class, SPACE | BREAK | TAB | NUL);
        i += 1;
    }
    finish_analysis(
        first == b' ',
        matches!(first, b'\n' | b'\r'),
        last == b' ',
        matches!(last, b'\n' | b'\r'),
        line_breaks,
        special_characters,
        block_indicators,
        break_space,
        space_break,
    )
}

/// libyaml's analysis, a character at a time.
fn analyze_chars(value: &[u8]) -> Analysis {
    if value.is_empty() {
        return Analysis {
            multiline: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let mut block_indicators = false;
    let mut line_breaks = false;
    let mut special_characters = false;
    let mut leading_space = false;
    let mut leading_break = false;
    let mut trailing_space = false;
    let mut trailing_break = false;
    let mut break_space = false;
    let mut space_break = false;
    let mut previous_space = false;
    let mut previous_break = false;

    if value.starts_with(b"---") || value.starts_with(b"...") {
        block_indicators = true;
    }
    let mut preceded_by_whitespace = true;
    let mut i = 0;
    while i < value.len() {
        let b = value[i];
        let w = utf8_width(b);
        let followed_by_whitespace = i + w >= value.len() || is_blank_at(value, i + w);
        let indicator = if i == 0 {
            match b {
                b'#' | b',' | b'[' | b']' | b'{' | b'}' | b'&' | b'*' | b'!' | b'|' | b'>'
                | b'\'' | b'"' | b'%' | b'@' | b'`' => true,
                b'?' | b':' | b'-' => followed_by_whitespace,
                _ => false,
            }
        } else {
            match b {
                b':' => followed_by_whitespace,
                b'#' => preceded_by_whitespace,
                _ => false,
            }
        };
        block_indicators |= indicator;
        // decode the character
        let c = if w == 1 {
            b as char
        } else {
            std::str::from_utf8(&value[i..(i + w).min(value.len())])
                .ok()
                .and_then(|s| s.chars().next())
                .unwrap_or('\u{FFFD}')
        };
        if !is_printable_char(c) {
            special_characters = true;
        }
        let is_brk = is_break_char(c);
        if c == ' ' {
            if i == 0 {
                leading_space = true;
            }
            if i + w == value.len() {
                trailing_space = true;
            }
            if previous_break {
                break_space = true;
            }
            previous_space = true;
            previous_break = false;
        } else if is_brk {
            line_breaks = true;
            if i == 0 {
                leading_break = true;
            }
            if i + w == value.len() {
                trailing_break = true;
            }
            if previous_space {
                space_break = true;
            }
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = c == ' ' || c == '\t' || is_brk || c == '\0';
        i += w;
    }

    finish_analysis(
        leading_space,
        leading_break,
        trailing_space,
        trailing_break,
        line_breaks,
        special_characters,
        block_indicators,
        break_space,
        space_break,
    )
}

#[allow(clippy::too_many_arguments)]
fn finish_analysis(
    leading_space: bool,
    leading_break: bool,
    trailing_space: bool,
    trailing_break: bool,
    line_breaks: bool,
    special_characters: bool,
    block_indicators: bool,
    break_space: bool,
    space_break: bool,
) -> Analysis {
    let mut a = Analysis {
        multiline: line_breaks,
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        a.block_plain_allowed = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
    }
    if space_break || special_characters {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
        a.block_allowed = false;
    }
    if line_breaks {
        a.block_plain_allowed = false;
    }
    if block_indicators {
        a.block_plain_allowed = false;
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ASCII analysis agrees with the character one on every string of up to five
    /// characters over an alphabet of each byte class, and the break search with a
    /// character scan.
    #[test]
    fn ascii_analysis_matches_the_general_one() {
        const ALPHABET: &[u8] = b" \n\r\t:#a-?\0\x01\x7f.'";
        let mut strings: Vec<Vec<u8>> = vec![Vec::new()];
        for len in 1..=5 {
            let mut next = Vec::new();
            for s in strings.iter().filter(|s| s.len() == len - 1) {
                for &c in ALPHABET {
                    let mut t = s.clone();
                    t.push(c);
                    next.push(t);
                }
            }
            strings.extend(next);
        }
        for extra in [&b"---x"[..], b"...", b"a: b", b"a #b", b"a#b", b"x:", b"-"] {
            strings.push(extra.to_vec());
        }
        for s in &strings {
            assert_eq!(analyze_ascii(s), analyze_chars(s), "{s:?}");
        }
    }

    #[test]
    fn breaks_are_found_by_byte() {
        for s in [
            "",
            "abc",
            "a\nb",
            "\r",
            "é\u{85}x",
            "x\u{2028}",
            "\u{2029}",
            "¢€\u{2027}y\n",
        ] {
            let want = s.char_indices().find(|&(_, c)| is_break_char(c));
            assert_eq!(find_break(s), want, "{s:?}");
        }
    }
}
