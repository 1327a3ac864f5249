//! A large YAML stream cut at document starts, so that its pieces parse on several
//! threads (`workspace::compile::parse_yaml_files`) and join into the very document set
//! one parse of the whole text gives.
//!
//! A line starting with `---` and a blank or a line break is a document start for saphyr
//! wherever it is (inside a quoted scalar or a flow collection it is an error, which the
//! piece before it meets too, as an unterminated scalar or collection), with one
//! exception: a document whose root is a block scalar at indentation 0 takes such lines
//! in. So a piece is parsed through the `---` (and the blank or break after it) that
//! starts the next one: the piece's last document ends as it does in one parse (a
//! scalar's span, a comment's owner), and the empty document that `---` opens holds the
//! comments before it, which belong to the next piece's first document. [`join`] refuses
//! pieces when a piece failed, when that empty document is not there (a root block scalar
//! took the `---` in), or when the pieces took more patches than a whole file may: the
//! caller then parses the whole text, which decides the result and the error.
//!
//! Cuts are only made where line numbers are plain to count: not in a text with `%`
//! directives (they belong to the next document), a byte order mark, a lone carriage
//! return or a Unicode line break (saphyr counts them as lines, `\n` counting does not).

use std::ops::Range;
use std::sync::Arc;

use super::node::{DocSet, Meta, Node, ThinVec};
use super::parser::{parse_counted, ParseOptions, YamlError, MAX_PATCHES};

/// One piece parsed alone.
pub struct Piece {
    parsed: super::parser::Parsed,
    /// The line of the `---` that starts the next piece, parsed with this one.
    next_start: Option<u32>,
}

/// Where to cut `src` into pieces of about `size` bytes or more, each starting at a
/// document start (the first at 0). One range, the whole text, when it cannot be cut.
pub fn cut(src: &str, size: usize) -> Vec<Range<usize>> {
    let size = size.max(1);
    if src.len() < 2 * size || !plain_lines(src) {
        return std::iter::once(0..src.len()).collect();
    }
    let b = src.as_bytes();
    let finder = memchr::memmem::Finder::new(b"\n---");
    let mut starts = vec![0];
    let mut from = size;
    while from < b.len() {
        let Some(at) = finder.find(&b[from - 1..]).map(|i| from + i) else {
            break;
        };
        if matches!(b.get(at + 3), None | Some(b' ' | b'\t' | b'\n' | b'\r')) {
            if b.len() - at < size / 2 {
                break;
            }
            starts.push(at);
            from = at + size;
        } else {
            from = at + 1;
        }
    }
    let mut ranges: Vec<Range<usize>> = starts.windows(2).map(|w| w[0]..w[1]).collect();
    ranges.push(*starts.last().unwrap_or(&0)..src.len());
    ranges
}

/// Whether line `n` of `src` starts after the `n - 1`th `\n`, and no cut could separate a
/// document from a directive before it.
fn plain_lines(src: &str) -> bool {
    let b = src.as_bytes();
    if b.first() == Some(&b'%') || memchr::memmem::find(b, b"\n%").is_some() {
        return false;
    }
    if memchr::memchr_iter(b'\r', b).any(|i| b.get(i + 1) != Some(&b'\n')) {
        return false;
    }
    // BOM (EF BB BF), NEL (C2 85), LS and PS (E2 80 A8/A9)
    src.is_ascii()
        || !["\u{feff}", "\u{85}", "\u{2028}", "\u{2029}"]
            .iter()
            .any(|s| memchr::memmem::find(b, s.as_bytes()).is_some())
}

/// Parses `src[range]` (a range of [`cut`]), and the `---` after it, with the line
/// numbers it has in `src`.
pub fn parse_piece(
    src: &str,
    range: Range<usize>,
    file: &Arc<str>,
    opts: &ParseOptions,
) -> Result<Piece, YamlError> {
    let b = src.as_bytes();
    let before = memchr::memchr_iter(b'\n', &b[..range.start]).count() as u32;
    let next_start = (range.end < src.len())
        .then(|| before + memchr::memchr_iter(b'\n', &b[range.clone()]).count() as u32 + 1);
    // `---` and the blank or break after it (ASCII: the end is a char boundary)
    let end = match next_start {
        Some(_) => (range.end + 4).min(src.len()),
        None => range.end,
    };
    let mut parsed = parse_counted(&src[range.start..end], file, opts)?;
    if before > 0 {
        for d in &mut parsed.ds.docs {
            shift_meta(&mut d.meta, before);
            shift_node(&mut d.value, before);
        }
        for c in &mut parsed.ds.meta.comments {
            c.line += before;
        }
    }
    Ok(Piece { parsed, next_start })
}

fn shift_meta(meta: &mut Meta, by: u32) {
    meta.pos.line += by;
    for c in &mut meta.comments {
        c.line += by;
    }
}

fn shift_node(node: &mut Node, by: u32) {
    match node {
        Node::Map(m) => {
            for i in &mut m.items {
                shift_meta(&mut i.meta, by);
                shift_node(&mut i.value, by);
            }
        }
        Node::Array(a) => {
            for i in &mut a.items {
                shift_meta(&mut i.meta, by);
                shift_node(&mut i.value, by);
            }
        }
        _ => {}
    }
}

/// The document set of the whole text, from its pieces in order; `None` when a parse of
/// the whole text must decide (see the module's comment).
pub fn join(pieces: Vec<Piece>) -> Option<DocSet> {
    let patches: usize = pieces.iter().map(|p| p.parsed.patches).sum();
    if patches > MAX_PATCHES {
        return None;
    }
    let mut ds = DocSet::default();
    // comments before a `---` that starts a piece belong to that piece's first document
    let mut carried = ThinVec::new();
    for piece in pieces {
        let mut part = piece.parsed.ds;
        if !carried.is_empty() {
            let first = part.docs.first_mut()?;
            carried.extend(first.meta.comments.drain(..));
            first.meta.comments = std::mem::take(&mut carried);
        }
        if let Some(line) = piece.next_start {
            let opened = part.docs.pop()?;
            let empty = opened.value.is_null() && part.meta.comments.is_empty();
            if opened.meta.pos.line != line || !empty {
                return None;
            }
            carried = opened.meta.comments;
        }
        ds.docs.append(&mut part.docs);
        ds.meta = part.meta;
    }
    Some(ds)
}

#[cfg(test)]
#[path = "pieces_tests.rs"]
mod tests;
