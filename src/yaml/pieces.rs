//! A large YAML stream cut at document starts, so that its pieces parse on several
//! threads (`workspace::compile::parse_yaml_files`) and join into the very document set
//! one parse of the whole text gives.
//!
//! A line starting with `---` and a blank or a line break is a document start for saphyr
//! wherever it is (inside a quoted scalar or a flow collection it is an error, which the
//! piece before it meets too, as an unterminated scalar or collection), with one
//! exception: a document whose root is a block scalar at indentation 0 takes such lines
//! in. [`join`] refuses pieces in that case, and whenever a piece failed, did not hold a
//! document, or the pieces took more patches than a whole file may: the caller then
//! parses the whole text, which decides the result and the error.
//!
//! Cuts are only made where line numbers are plain to count: not in a text with `%`
//! directives (they belong to the next document), a byte order mark, a lone carriage
//! return or a Unicode line break (saphyr counts them as lines, `\n` counting does not).

use std::ops::Range;
use std::sync::Arc;

use super::node::{DocSet, Meta, Node};
use super::parser::{parse_counted, ParseOptions, YamlError, MAX_PATCHES};

/// One piece parsed alone.
pub struct Piece(super::parser::Parsed);

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

/// Parses `src[range]` (a range of [`cut`]) with the line numbers it has in `src`.
pub fn parse_piece(
    src: &str,
    range: Range<usize>,
    file: &Arc<str>,
    opts: &ParseOptions,
) -> Result<Piece, YamlError> {
    let before = memchr::memchr_iter(b'\n', &src.as_bytes()[..range.start]).count() as u32;
    let mut parsed = parse_counted(&src[range], file, opts)?;
    if before > 0 {
        for d in &mut parsed.ds.docs {
            shift_meta(&mut d.meta, before);
            shift_node(&mut d.value, before);
        }
        for c in &mut parsed.ds.meta.comments {
            c.line += before;
        }
    }
    Ok(Piece(parsed))
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
    let patches: usize = pieces.iter().map(|p| p.0.patches).sum();
    let (_, init) = pieces.split_last()?;
    if patches > MAX_PATCHES || init.iter().any(|p| p.0.padded || p.0.open_end) {
        return None;
    }
    let mut pieces = pieces.into_iter();
    let mut ds = pieces.next()?.0.ds;
    for p in pieces {
        // comments after a piece's last node belong to the next document, as in one parse
        let mut next = p.0.ds;
        let left = std::mem::take(&mut ds.meta.comments);
        if let Some(first) = next.docs.first_mut() {
            if !left.is_empty() {
                let mut comments = left;
                comments.extend(first.meta.comments.drain(..));
                first.meta.comments = comments;
            }
        }
        ds.docs.append(&mut next.docs);
        ds.meta = next.meta;
    }
    Some(ds)
}

#[cfg(test)]
#[path = "pieces_tests.rs"]
mod tests;
