//! A fast event source for plain block YAML, the common shape of large data files.
//!
//! saphyr-parser's scanner and parser took ~40% of the run time of `bench/validations`
//! (a 3.7 MB data-values file of `key: value` lines and `- ` items): they are general
//! (flow collections, quoting, multi-line scalars, simple-key bookkeeping) and work
//! char by char. This module handles one line at a time and produces exactly the
//! `(Event, Span)` sequence `saphyr_parser::Parser::new_from_str` produces for the
//! subset it understands:
//! - `\n`-separated lines indented with spaces, blank lines, comments (own-line and
//!   trailing, which produce no events);
//! - `---` document markers (alone on their line, or with a comment);
//! - block mappings (`key: value`, `key:`), block sequences (`- value`, `-`,
//!   `- key: value`), including indentless sequences (`key:` then `- x` at its column);
//! - keys and values that are single-line plain scalars.
//!
//! On anything else (quotes, flow collections, anchors, tags, block scalars, multi-line
//! scalars, tabs, `\r`, directives, `...`, whatever saphyr might reject) it yields
//! [`Unsupported`], and the caller parses the whole text again with saphyr, which stays
//! the reference.
//!
//! Span rules mirrored from saphyr (all markers count chars; see its scanner):
//! - collection starts are empty spans at the first key / the `-` (an indentless
//!   sequence starts at the first char after `- `, or at the line end);
//! - collection ends are empty spans at the first token of the line that closes them
//!   (or at the stream end: the end of the text, moved to the start of a new line);
//! - an empty value is an empty span at its `:`; an empty sequence entry is an empty
//!   span at the end of its `-` line;
//! - `DocumentEnd` takes the span of the next `---` (or of the stream end); an implicit
//!   `DocumentStart` takes the span of the first collection start.

use std::borrow::Cow;
use std::collections::VecDeque;

use saphyr_parser::{Event, Marker, ScalarStyle, Span};

/// The text is outside the subset: parse it with saphyr instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unsupported;

/// Keys longer than this (in bytes) are left to saphyr, which stops considering a
/// simple key 1024 chars after its start.
const MAX_KEY_LEN: usize = 1000;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Map,
    Seq,
    /// a sequence whose `-` are at the column of its parent mapping's keys
    IndentlessSeq,
}

#[derive(Clone, Copy)]
struct Coll {
    indent: usize,
    kind: Kind,
}

/// What the previous content line left open.
#[derive(Clone, Copy)]
enum Pending {
    /// before the document's root node
    Root,
    /// `key:` without a value: a nested collection, an indentless sequence, or an
    /// empty scalar (at the `:`) follows
    EmptyValue(Marker),
    /// `-` without a value: a nested collection or an empty scalar (at the line end)
    EmptyEntry(Marker),
    /// a scalar value ended the line: a more indented line would continue it
    Scalar,
}

/// A plain scalar on one line: byte range within the line.
struct Plain {
    start: usize,
    end: usize,
}

/// The entry a content line holds.
enum Entry {
    /// `key:` / `key: value`: key, `:` position, value (`None` when empty)
    Pair(Plain, usize, Option<Plain>),
    /// `-` / `- value` / `- key: value`; `usize` is where the entry's content starts
    /// (after the blanks) or the line end
    Dash(usize, DashValue),
}

enum DashValue {
    Empty,
    Scalar(Plain),
    Pair(Plain, usize, Option<Plain>),
}

/// One line of the text.
struct Line<'a> {
    bytes: &'a [u8],
    /// byte offset of its first byte in the text
    start: usize,
    /// char index of its first char
    cstart: usize,
    /// 1-based line number
    no: usize,
    ascii: bool,
}

impl Line<'_> {
    fn mark(&self, at: usize) -> Marker {
        let col = if self.ascii {
            at
        } else {
            count_chars(&self.bytes[..at])
        };
        Marker::new(self.cstart + col, self.no, col)
    }
}

/// Whether a line holds U+FEFF (a byte order mark) or a line break that is not ASCII:
/// U+0085, U+2028, U+2029 (the reference reads them as line breaks).
fn has_bom_or_unicode_break(line: &[u8]) -> bool {
    (0..line.len()).any(|i| {
        line[i..].starts_with(&[0xEF, 0xBB, 0xBF]) || super::parser::unicode_break_at(&line[i..])
    })
}

fn count_chars(b: &[u8]) -> usize {
    // every byte but UTF-8 continuation bytes starts a char
    b.iter().filter(|&&c| (c as i8) >= -0x40).count()
}

pub struct BlockScanner<'a> {
    text: &'a str,
    /// byte offset, char index and 1-based number of the next line
    pos: usize,
    cpos: usize,
    line_no: usize,
    /// chars on the last line read
    last_cols: usize,
    queue: VecDeque<(Event<'a>, Span)>,
    stack: Vec<Coll>,
    pending: Pending,
    in_doc: bool,
    done: bool,
}

impl<'a> BlockScanner<'a> {
    pub fn new(text: &'a str) -> Self {
        let mut queue = VecDeque::with_capacity(16);
        queue.push_back((Event::StreamStart, Span::empty(Marker::new(0, 1, 0))));
        BlockScanner {
            text,
            pos: 0,
            cpos: 0,
            line_no: 1,
            last_cols: 0,
            queue,
            stack: Vec::with_capacity(16),
            pending: Pending::Root,
            in_doc: false,
            done: false,
        }
    }

    /// The next event, `None` after `StreamEnd`, `Err` (once) when the text is outside
    /// the subset.
    pub fn next_event(&mut self) -> Option<Result<(Event<'a>, Span), Unsupported>> {
        loop {
            if let Some(ev) = self.queue.pop_front() {
                return Some(Ok(ev));
            }
            if self.done {
                return None;
            }
            if self.step().is_err() {
                self.done = true;
                self.queue.clear();
                return Some(Err(Unsupported));
            }
        }
    }

    fn push(&mut self, ev: Event<'a>, at: Marker) {
        self.queue.push_back((ev, Span::empty(at)));
    }

    fn scalar(&mut self, line: &Line<'a>, p: &Plain) {
        let v = &self.text[line.start + p.start..line.start + p.end];
        let span = Span::new(line.mark(p.start), line.mark(p.end));
        self.queue.push_back((
            Event::Scalar(Cow::Borrowed(v), ScalarStyle::Plain, 0, None),
            span,
        ));
    }

    /// Consume lines up to and including the next content line (or the end), queueing
    /// its events.
    fn step(&mut self) -> Result<(), Unsupported> {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() {
            let rest = &bytes[self.pos..];
            let len = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            let lb = &rest[..len];
            let (mut any, mut ctl) = (0u8, false);
            for &b in lb {
                any |= b;
                ctl |= b < 0x20;
            }
            // tabs, `\r` and other controls are left to saphyr, and so are a byte order
            // mark (U+FEFF) and the line breaks beyond ASCII (NEL, LS, PS)
            if ctl {
                return Err(Unsupported);
            }
            let ascii = any < 0x80;
            if !ascii && has_bom_or_unicode_break(lb) {
                return Err(Unsupported);
            }
            let line = Line {
                bytes: lb,
                start: self.pos,
                cstart: self.cpos,
                no: self.line_no,
                ascii,
            };
            self.pos += len + 1;
            self.last_cols = if ascii { len } else { count_chars(lb) };
            self.cpos += self.last_cols + 1;
            self.line_no += 1;
            let indent = lb.iter().take_while(|&&b| b == b' ').count();
            if indent == lb.len() || lb[indent] == b'#' {
                continue; // blank or comment line
            }
            return self.content_line(&line, indent);
        }
        self.end_of_stream();
        Ok(())
    }

    fn content_line(&mut self, line: &Line<'a>, indent: usize) -> Result<(), Unsupported> {
        let b = line.bytes;
        if indent == 0 {
            if b.starts_with(b"---") && b.get(3).is_none_or(|&c| c == b' ') {
                return self.document_start(line);
            }
            if b.starts_with(b"...") && b.get(3).is_none_or(|&c| c == b' ') || b[0] == b'%' {
                return Err(Unsupported);
            }
        }
        let entry = parse_entry(b, indent)?;
        // for a `-` entry: where its content starts (after the blanks), or the line end
        let dash = match entry {
            Entry::Dash(content, _) => Some(content),
            Entry::Pair(..) => None,
        };
        let is_dash = dash.is_some();
        let at = line.mark(indent);
        if !self.in_doc {
            self.in_doc = true;
            self.pending = Pending::Root;
            self.push(Event::DocumentStart(false), at);
        }
        // does this line start a collection nested in the previous line's entry?
        let top = self.stack.last().copied();
        let nested = match self.pending {
            Pending::Root => true,
            Pending::EmptyValue(_) | Pending::EmptyEntry(_) => {
                top.is_some_and(|t| indent > t.indent)
            }
            Pending::Scalar => false,
        };
        if nested {
            let (kind, ev) = if is_dash {
                (Kind::Seq, Event::SequenceStart(0, None))
            } else {
                (Kind::Map, Event::MappingStart(0, None))
            };
            self.stack.push(Coll { indent, kind });
            self.push(ev, at);
        } else {
            let top = top.ok_or(Unsupported)?;
            match (self.pending, dash) {
                // `key:` then `- x` at the key's column: an indentless sequence, which
                // starts where the entry's content starts
                (Pending::EmptyValue(_), Some(content)) if indent == top.indent => {
                    self.stack.push(Coll {
                        indent,
                        kind: Kind::IndentlessSeq,
                    });
                    self.push(Event::SequenceStart(0, None), line.mark(content));
                }
                (Pending::EmptyValue(m) | Pending::EmptyEntry(m), _) => {
                    self.push(empty_scalar(), m);
                }
                // a more indented line would continue the scalar (or be an error)
                (Pending::Scalar, _) if indent > top.indent => return Err(Unsupported),
                _ => {}
            }
            while let Some(t) = self.stack.last() {
                let close = t.indent > indent
                    || (t.kind == Kind::IndentlessSeq && t.indent == indent && !is_dash);
                if !close {
                    break;
                }
                let ev = if t.kind == Kind::Map {
                    Event::MappingEnd
                } else {
                    Event::SequenceEnd
                };
                self.stack.pop();
                self.push(ev, at);
            }
            let fits = self
                .stack
                .last()
                .is_some_and(|t| t.indent == indent && (t.kind == Kind::Map) != is_dash);
            if !fits {
                return Err(Unsupported);
            }
        }
        match entry {
            Entry::Pair(key, colon, value) => self.pair(line, key, colon, value),
            Entry::Dash(end, DashValue::Empty) => {
                self.pending = Pending::EmptyEntry(line.mark(end));
            }
            Entry::Dash(_, DashValue::Scalar(v)) => {
                self.scalar(line, &v);
                self.pending = Pending::Scalar;
            }
            Entry::Dash(_, DashValue::Pair(key, colon, value)) => {
                self.stack.push(Coll {
                    indent: key.start,
                    kind: Kind::Map,
                });
                self.push(Event::MappingStart(0, None), line.mark(key.start));
                self.pair(line, key, colon, value);
            }
        }
        Ok(())
    }

    fn pair(&mut self, line: &Line<'a>, key: Plain, colon: usize, value: Option<Plain>) {
        self.scalar(line, &key);
        match value {
            Some(v) => {
                self.scalar(line, &v);
                self.pending = Pending::Scalar;
            }
            None => self.pending = Pending::EmptyValue(line.mark(colon)),
        }
    }

    /// Settle what the previous line left open, close every collection and end the
    /// document with `span` (a `---` or the stream end). Collections indented more
    /// than `tail.0` close at `tail.1` (see `end_of_stream`), the others at `span`.
    fn end_document(&mut self, span: Span, tail: Option<(usize, Marker)>) {
        if !self.in_doc {
            return;
        }
        match self.pending {
            Pending::Root => self.queue.push_back((empty_scalar(), span)),
            Pending::EmptyValue(m) | Pending::EmptyEntry(m) => self.push(empty_scalar(), m),
            Pending::Scalar => {}
        }
        while let Some(t) = self.stack.pop() {
            let ev = if t.kind == Kind::Map {
                Event::MappingEnd
            } else {
                Event::SequenceEnd
            };
            let at = match tail {
                Some((col, m)) if t.indent > col => m,
                _ => span.start,
            };
            self.push(ev, at);
        }
        self.queue.push_back((Event::DocumentEnd, span));
        self.in_doc = false;
    }

    fn document_start(&mut self, line: &Line<'a>) -> Result<(), Unsupported> {
        // `--- value` (a root node on the marker's line) is left to saphyr
        let after = &line.bytes[3..];
        let blanks = after.iter().take_while(|&&c| c == b' ').count();
        if blanks < after.len() && after[blanks] != b'#' {
            return Err(Unsupported);
        }
        let span = Span::new(line.mark(0), line.mark(3));
        self.end_document(span, None);
        self.queue.push_back((Event::DocumentStart(true), span));
        self.in_doc = true;
        self.pending = Pending::Root;
        Ok(())
    }

    fn end_of_stream(&mut self) {
        // saphyr's stream end mark is after the last char, moved to the start of a new
        // line; but first the collections indented more than the end of an unterminated
        // last line close there (`cpos` and `line_no` count a line break after it)
        let unterminated = self.pos > self.text.len();
        let chars = self.cpos - usize::from(unterminated);
        let end = Marker::new(chars, self.line_no, 0);
        let tail = unterminated.then(|| {
            let col = self.last_cols;
            (col, Marker::new(chars, self.line_no - 1, col))
        });
        let span = Span::empty(end);
        self.end_document(span, tail);
        self.queue.push_back((Event::StreamEnd, span));
        self.done = true;
    }
}

/// saphyr's event for an empty value.
fn empty_scalar<'a>() -> Event<'a> {
    Event::Scalar(Cow::Borrowed(""), ScalarStyle::Plain, 0, None)
}

/// Parse a content line (at `indent`, not a comment) into its entry.
fn parse_entry(b: &[u8], indent: usize) -> Result<Entry, Unsupported> {
    if b[indent] == b'-' && b.get(indent + 1).is_none_or(|&c| c == b' ') {
        let content = skip_spaces(b, indent + 1);
        if content == b.len() || b[content] == b'#' {
            // saphyr's block entry token comes after the blanks and the comment
            return Ok(Entry::Dash(b.len(), DashValue::Empty));
        }
        // `- - x` (a sequence in a sequence on one line) is left to saphyr
        let (plain, stop) = scan_plain(b, content)?;
        let value = match stop {
            Stop::Colon(colon) => {
                let value = pair_value(b, &plain, colon)?;
                DashValue::Pair(plain, colon, value)
            }
            Stop::End => DashValue::Scalar(plain),
        };
        return Ok(Entry::Dash(content, value));
    }
    match scan_plain(b, indent)? {
        (key, Stop::Colon(colon)) => {
            let value = pair_value(b, &key, colon)?;
            Ok(Entry::Pair(key, colon, value))
        }
        // a scalar alone on its line: a document's root or a continuation line
        (_, Stop::End) => Err(Unsupported),
    }
}

/// The value after `key:` at `colon`: `None` when empty (or only a comment).
fn pair_value(b: &[u8], key: &Plain, colon: usize) -> Result<Option<Plain>, Unsupported> {
    if colon - key.start > MAX_KEY_LEN {
        return Err(Unsupported);
    }
    let v = skip_spaces(b, colon + 1);
    if v == b.len() || b[v] == b'#' {
        return Ok(None);
    }
    match scan_plain(b, v)? {
        (value, Stop::End) => Ok(Some(value)),
        // `a: b: c`
        (_, Stop::Colon(_)) => Err(Unsupported),
    }
}

fn skip_spaces(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i] == b' ' {
        i += 1;
    }
    i
}

enum Stop {
    /// the end of the line or a comment
    End,
    /// a `:` followed by a blank or the line end, at this offset
    Colon(usize),
}

/// A single-line plain scalar starting at `start` (a non-blank char).
fn scan_plain(b: &[u8], start: usize) -> Result<(Plain, Stop), Unsupported> {
    let next_blank = |i: usize| b.get(i + 1).is_none_or(|&c| c == b' ');
    let ok_start = match b[start] {
        // indicators: a block entry, complex key or value when a blank follows
        b'-' | b'?' | b':' => !next_blank(start),
        // flow collections, aliases, anchors, tags, block scalars, quotes, reserved
        b'[' | b']' | b'{' | b'}' | b',' | b'*' | b'&' | b'!' | b'|' | b'>' | b'\'' | b'"'
        | b'%' | b'@' | b'`' | b'#' => false,
        _ => true,
    };
    if !ok_start {
        return Err(Unsupported);
    }
    let mut i = start;
    loop {
        // a word: up to a blank or a `:` followed by a blank
        while i < b.len() && b[i] != b' ' {
            if b[i] == b':' && next_blank(i) {
                return Ok((Plain { start, end: i }, Stop::Colon(i)));
            }
            i += 1;
        }
        let end = i;
        i = skip_spaces(b, i);
        if i == b.len() || b[i] == b'#' {
            return Ok((Plain { start, end }, Stop::End));
        }
        if b[i] == b':' && next_blank(i) {
            return Ok((Plain { start, end }, Stop::Colon(i)));
        }
    }
}

#[cfg(test)]
#[path = "block_scanner_tests.rs"]
mod tests;
