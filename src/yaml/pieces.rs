//! A large YAML stream cut into pieces, so that they parse on several threads
//! (`parse_in_pieces`, for a library's files and a data values file) and join into the
//! very document set one parse of the whole text gives. A stream is cut at document starts, and a large document
//! before items of a block sequence at column 0 (a file holding one long list).
//!
//! A line starting with `---` and a blank or a line break is a document start for saphyr
//! wherever it is (inside a quoted scalar or a flow collection it is an error, which the
//! piece before it meets too, as an unterminated scalar or collection; a block scalar's
//! lines are indented, at the root too, as in libyaml). So a piece is parsed through the
//! `---` (and the blank or break after it) that starts the next one: the piece's last
//! document ends as it does in one parse (a scalar's span, a comment's owner), and the
//! empty document that `---` opens holds the comments before it, which belong to the
//! next piece's first document. [`join`] refuses pieces when a piece failed, when that
//! empty document is not there, or when the pieces took more patches than a whole file
//! may: the caller then parses the whole text, which decides the result and the error.
//!
//! A line starting with `- ` (or a lone `-`) at column 0 is an item of the root sequence
//! or of the root map's last value, once such a line came before it with no other line at
//! column 0 in between: it ends whatever the item before it holds (a block scalar's
//! content, a plain scalar's lines, nested collections are all indented) as the end of
//! the text does, and a quoted scalar or flow collection left open fails the piece before
//! the cut. So a document is cut before such an item when the line before it is neither
//! blank nor a comment (which would belong to the item, or in a kept block scalar, to the
//! scalar), and the next piece, parsed alone as a root sequence, gives further items of
//! the sequence the document so far ends in. [`join`] refuses when that sequence is not
//! the one at column 0 (its first item is not on the line the cut found), when comments
//! were left over at the end of the piece before the cut, or when the piece nests as
//! deep as the limit (it is a level deeper in the whole text). The cuts of a sequence
//! are dropped when another line at column 0 follows it (a key after the list): the
//! piece holding it would fail.
//!
//! Cuts are only made where line numbers are plain to count: not in a text with `%`
//! directives (they belong to the next document), a byte order mark, a lone carriage
//! return or a Unicode line break (saphyr counts them as lines, `\n` counting does not).

use std::borrow::Cow;
use std::ops::Range;

use super::node::{Array, Doc, DocSet, FileId, Meta, Node, ThinVec};
use super::parser::{
    parse, parse_counted, AliasBudget, Keep, ParseOptions, YamlError, MAX_DEPTH, MAX_PATCHES,
};
use crate::cores::{on_cores, Pipeline};
use std::sync::Arc;

/// Below this many bytes of YAML, a second thread costs more than it saves.
const PARALLEL_FROM: usize = 64 << 10;

/// Pieces of a large file are at least this large.
const PIECE_MIN: usize = 64 << 10;

/// A piece of a text: where it is, and how it meets its neighbours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    pub range: Range<usize>,
    /// The piece holds further items of the sequence the piece before it ends in: the
    /// line of that sequence's first item.
    continues: Option<u32>,
    /// The next piece continues this piece's last sequence (rather than starting with a
    /// document).
    continued: bool,
}

/// One piece parsed alone.
pub struct Piece {
    parsed: super::parser::Parsed,
    /// The line of the `---` that starts the next piece, parsed with this one.
    next_start: Option<u32>,
    continues: Option<u32>,
    continued: bool,
}

/// Where to cut `src` into pieces of about `size` bytes or more, the first at 0, each
/// starting at a document start or at an item of a sequence at column 0. One piece, the
/// whole text, when it cannot be cut.
pub fn cut(src: &str, size: usize) -> Vec<Cut> {
    let size = size.max(1);
    if src.len() < 2 * size || !plain_lines(src) {
        return vec![Cut::plain(0..src.len())];
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
    let mut cuts = Vec::with_capacity(ranges.len());
    for r in ranges {
        if r.len() >= 2 * size {
            cut_items(src, r, size, &mut cuts);
        } else {
            cuts.push(Cut::plain(r));
        }
    }
    cuts
}

impl Cut {
    fn plain(range: Range<usize>) -> Self {
        Cut {
            range,
            continues: None,
            continued: false,
        }
    }
}

/// Cuts `range` (whole documents) before items of sequences at column 0, about `size`
/// bytes apart (see the module's comment), pushing its pieces to `out`.
fn cut_items(src: &str, range: Range<usize>, size: usize, out: &mut Vec<Cut>) {
    let b = src.as_bytes();
    let mut line = memchr::memchr_iter(b'\n', &b[..range.start]).count() as u32 + 1;
    // (offset of an item's line, line of its sequence's first item)
    let mut cuts: Vec<(usize, u32)> = Vec::new();
    // the first item of the sequence being read, and how many cuts came before it
    let mut seq: Option<(u32, usize)> = None;
    let mut prev_plain = false;
    let mut last = range.start;
    // the first line of a range after a document start is the end of the line before
    let starts = std::iter::once(range.start)
        .chain(memchr::memchr_iter(b'\n', &b[range.clone()]).map(|i| range.start + i + 1));
    for (k, s) in starts.enumerate() {
        if k > 0 {
            line += 1;
        }
        if s >= range.end {
            break;
        }
        match b[s] {
            b' ' => {
                let first = b[s..range.end].iter().find(|&&c| c != b' ');
                prev_plain = !matches!(first, None | Some(b'#' | b'\n' | b'\r'));
            }
            b'\n' | b'\r' | b'#' => prev_plain = false,
            b'-' if matches!(b.get(s + 1), None | Some(b' ' | b'\n' | b'\r')) => {
                match seq {
                    None => seq = Some((line, cuts.len())),
                    Some((first, _)) => {
                        if prev_plain && s - last >= size && range.end - s >= size / 2 {
                            cuts.push((s, first));
                            last = s;
                        }
                    }
                }
                prev_plain = true;
            }
            _ => {
                // a key, a document marker, a tab …: the pieces of the sequence before
                // it would hold it
                if let Some((_, before)) = seq.take() {
                    cuts.truncate(before);
                    last = cuts.last().map_or(range.start, |c| c.0);
                }
                prev_plain = true;
            }
        }
    }
    let mut start = range.start;
    let mut continues = None;
    for (at, first) in cuts {
        out.push(Cut {
            range: start..at,
            continues,
            continued: true,
        });
        start = at;
        continues = Some(first);
    }
    out.push(Cut {
        range: start..range.end,
        continues,
        continued: false,
    });
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

/// Parses a piece of `src` (one of [`cut`]), and the `---` after it, with the line
/// numbers it has in `src`.
pub fn parse_piece(
    src: &str,
    cut: &Cut,
    file: FileId,
    opts: &ParseOptions,
) -> Result<Piece, YamlError> {
    parse_piece_keeping(src, cut, file, opts, Keep::Trees)
}

/// [`parse_piece`], keeping of each document what `keep` says.
pub(crate) fn parse_piece_keeping(
    src: &str,
    cut: &Cut,
    file: FileId,
    opts: &ParseOptions,
    keep: Keep,
) -> Result<Piece, YamlError> {
    let b = src.as_bytes();
    let range = cut.range.clone();
    let before = memchr::memchr_iter(b'\n', &b[..range.start]).count() as u32;
    let next_start = (range.end < src.len() && !cut.continued)
        .then(|| before + memchr::memchr_iter(b'\n', &b[range.clone()]).count() as u32 + 1);
    // `---` and the blank or break after it (ASCII: the end is a char boundary)
    let end = match next_start {
        Some(_) => (range.end + 4).min(src.len()),
        None => range.end,
    };
    let mut parsed = parse_counted(&src[range.start..end], file, opts, keep)?;
    if before > 0 {
        for d in &mut parsed.ds.docs {
            shift_meta(&mut d.meta, before);
            shift_node(&mut d.value, before);
        }
        for c in &mut parsed.ds.meta.comments {
            c.line += before;
        }
    }
    Ok(Piece {
        parsed,
        next_start,
        continues: cut.continues,
        continued: cut.continued,
    })
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
        if let Some(first_item) = piece.continues {
            if piece.parsed.deepest > MAX_DEPTH || part.docs.is_empty() {
                return None;
            }
            let items = part.docs.remove(0);
            continue_sequence(ds.docs.last_mut()?, first_item, items)?;
        } else if !carried.is_empty() {
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
        } else if piece.continued && !part.meta.comments.is_empty() {
            // comments after the last node belong to the next piece's first item
            return None;
        }
        ds.docs.append(&mut part.docs);
        ds.meta = part.meta;
    }
    Some(ds)
}

/// Parses one text as [`parse`] does, in pieces on every core when it is large (a data
/// values file given on the command line).
pub fn parse_text(src: &str, file: FileId, opts: &ParseOptions) -> Result<DocSet, YamlError> {
    let threads = cores_for(src.len());
    if threads >= 2 {
        let texts = [Some((Cow::Borrowed(src), file))];
        let keep = [Keep::Trees];
        if let Some(Some(ds)) =
            parse_in_pieces(threads, &texts, &keep, opts.strict, &opts.aliases).pop()
        {
            return Ok(ds);
        }
    }
    parse(src, file, opts)
}

/// How many threads parse `bytes` of YAML.
pub(crate) fn cores_for(bytes: usize) -> usize {
    // (asking for the cores reads cgroup files: not for a small run)
    match bytes {
        0..PARALLEL_FROM => 1,
        _ => crate::cores::available(),
    }
}

/// The document set of each text (and its file name), from its pieces parsed on
/// `threads` threads, keeping of each text what `keep` says; `None` where a serial parse
/// must decide: a text that is missing, a piece that failed, pieces that did not join, or
/// what they copied by alias expansion (a budget of their own each) not fitting in
/// `budget`, spent in the order of the texts.
pub(crate) fn parse_in_pieces(
    threads: usize,
    texts: &[Option<(Cow<'_, str>, FileId)>],
    keep: &[Keep],
    strict: bool,
    budget: &AliasBudget,
) -> Vec<Option<DocSet>> {
    let plan = Plan::new(
        threads,
        texts.iter().map(|t| t.as_ref().map(|(src, _)| &**src)),
    );
    let parsed = on_cores(
        threads,
        "ytt-parse",
        crate::cores::TREE_STACK,
        plan.units.len(),
        |u| {
            let (i, _, cut) = &plan.units[u];
            let (src, name) = texts[*i].as_ref()?;
            parse_unit(src, cut, *name, keep.get(*i).copied(), strict)
        },
    );
    plan.assemble(parsed, budget)
}

/// Texts parsed as [`parse_in_pieces`] parses them, on a helper thread while the caller
/// goes on: [`ParseLater::finish`] gives their document sets, the caller parsing the
/// pieces the helper has not started.
pub(crate) struct ParseLater {
    plan: Plan,
    /// Of each unit (a piece), its parse and what it copied.
    parsed: Pipeline<usize, Option<(Piece, usize)>>,
}

impl ParseLater {
    /// Starts parsing each text (its bytes, its file name), keeping what `keep` says.
    /// A text that is not UTF-8 gives no document set: the serial parse decides it.
    pub(crate) fn start(texts: Vec<(Arc<[u8]>, FileId)>, keep: Vec<Keep>, strict: bool) -> Self {
        // a text too small to cut is one piece: the helper checks that it is UTF-8
        let size = piece_size(2, texts.iter().map(|(b, _)| b.len()).sum());
        let cuts = texts.iter().map(|(b, _)| match b.len() < 2 * size {
            true => Some(vec![Cut::plain(0..b.len())]),
            false => std::str::from_utf8(b).ok().map(|src| cut(src, size)),
        });
        let plan = Plan::from_cuts(cuts);
        let units = plan.units.clone();
        let parsed = Pipeline::start(
            "ytt-parse",
            crate::cores::TREE_STACK,
            (0..units.len()).collect(),
            move |u| {
                let (i, _, cut) = &units[u];
                let (bytes, name) = &texts[*i];
                let src = std::str::from_utf8(bytes).ok()?;
                parse_unit(src, cut, *name, keep.get(*i).copied(), strict)
            },
        );
        ParseLater { plan, parsed }
    }

    /// Whether the helper is still parsing.
    pub(crate) fn busy(&self) -> bool {
        self.parsed.busy()
    }

    /// Every text's document set as [`parse_in_pieces`] gives it, `budget` spent in the
    /// order of the texts.
    pub(crate) fn finish(self, budget: &AliasBudget) -> Vec<Option<DocSet>> {
        let parsed = self.parsed.take_all().into_iter().map(Option::flatten);
        self.plan.assemble(parsed.collect(), budget)
    }
}

/// How texts are cut into units of work: each unit a piece of a text, largest first.
struct Plan {
    /// (text, its piece's index, the piece)
    units: Vec<(usize, usize, Cut)>,
    /// Of each text, how many pieces it has: `None` for a text that is missing.
    pieces: Vec<Option<usize>>,
}

impl Plan {
    fn new<'a>(threads: usize, texts: impl Iterator<Item = Option<&'a str>> + Clone) -> Plan {
        let size = piece_size(threads, texts.clone().flatten().map(str::len).sum());
        Plan::from_cuts(texts.map(|t| t.map(|src| cut(src, size))))
    }

    /// The plan of texts cut as `cuts` says (`None`: a text that is missing).
    fn from_cuts(cuts: impl Iterator<Item = Option<Vec<Cut>>>) -> Plan {
        let mut units = Vec::new();
        let mut pieces = Vec::new();
        for (i, cuts) in cuts.enumerate() {
            pieces.push(cuts.as_ref().map(Vec::len));
            units.extend(
                cuts.into_iter()
                    .flatten()
                    .enumerate()
                    .map(|(k, c)| (i, k, c)),
            );
        }
        units.sort_by_key(|(_, _, c)| std::cmp::Reverse(c.range.len()));
        Plan { units, pieces }
    }

    /// Each text's document set from its parsed pieces (`parsed[u]`: unit `u`'s piece and
    /// what it copied), as [`parse_in_pieces`] describes.
    fn assemble(
        &self,
        parsed: Vec<Option<(Piece, usize)>>,
        budget: &AliasBudget,
    ) -> Vec<Option<DocSet>> {
        let mut slots: Vec<Vec<Option<(Piece, usize)>>> = self
            .pieces
            .iter()
            .map(|n| (0..n.unwrap_or(0)).map(|_| None).collect())
            .collect();
        for ((i, k, _), piece) in self.units.iter().zip(parsed) {
            slots[*i][*k] = piece;
        }
        slots
            .into_iter()
            .zip(&self.pieces)
            .map(|(pieces, count)| {
                // a missing text is the serial parse's to decide (it has no pieces: joining
                // none would give an empty document set)
                count.as_ref()?;
                let pieces: Vec<(Piece, usize)> = pieces.into_iter().collect::<Option<_>>()?;
                let copied = pieces.iter().map(|(_, c)| c).sum();
                let ds = join(pieces.into_iter().map(|(p, _)| p).collect())?;
                budget.try_spend(copied).then_some(ds)
            })
            .collect()
    }
}

/// How large the pieces of `bytes` of text parsed on `threads` threads are.
fn piece_size(threads: usize, bytes: usize) -> usize {
    PIECE_MIN.max(bytes / (threads * 4))
}

/// One unit: a piece of `src` parsed with an alias budget of its own, and what it copied.
fn parse_unit(
    src: &str,
    cut: &Cut,
    name: FileId,
    keep: Option<Keep>,
    strict: bool,
) -> Option<(Piece, usize)> {
    let opts = ParseOptions {
        strict,
        aliases: AliasBudget::default(),
    };
    let keep = keep.unwrap_or(Keep::Trees);
    let piece = parse_piece_keeping(src, cut, name, &opts, keep).ok()?;
    Some((piece, opts.aliases.spent()))
}

/// Appends the items a piece holds (its first document, a root sequence) to the
/// sequence at column 0 that `doc` ends in: its root, or its root map's last value,
/// whose first item is on line `first_item`.
fn continue_sequence(doc: &mut Doc, first_item: u32, items: Doc) -> Option<()> {
    let Node::Array(Array { items: more }) = items.value else {
        return None;
    };
    if !items.meta.comments.is_empty() {
        return None;
    }
    let seq = match &mut doc.value {
        Node::Array(a) => a,
        Node::Map(m) => match &mut m.items.last_mut()?.value {
            Node::Array(a) => a,
            _ => return None,
        },
        _ => return None,
    };
    if seq.items.first()?.meta.pos.line != first_item {
        return None;
    }
    seq.items.extend(more);
    Some(())
}

#[cfg(test)]
#[path = "pieces_tests.rs"]
mod tests;
