//! YAML text → `DocSet`, with positions and comments.
//!
//! The structure comes from saphyr-parser's event stream (with spans); plain block YAML
//! gets the very same events faster from `block_scanner`. saphyr does not
//! report comments, so they are recovered by a forward line scanner that runs in lock
//! step with the events: the text between two events (outside every scalar's span) is
//! scanned for `#` at line start or after whitespace. Comments are then attached the way
//! the reference does:
//! - an own-line comment belongs to the first item (doc, map item, array item) that
//!   starts on a later line (comments after a document's last node go to the next
//!   document, comments after the file's last node go to `DocSet.meta.comments`);
//! - a trailing comment belongs to the last item that starts on its line (for
//!   `- a: #@ x` that is the map item `a`).
//!
//! Everything is linear in the input size.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::sync::Arc;

use saphyr_parser::{Event, Marker, Parser, ScalarStyle, ScanError, Span, StrInput};

use self::errors::{alias_name_at, check_characters, map_scan_error, Failure, Place};
use super::block_scanner::{BlockScanner, Unsupported};
use super::node::{
    Array, ArrayItem, Comment, Doc, DocSet, FileId, Map, MapItem, Meta, Node, Pos, Str, ThinVec,
};
use super::scalar::{
    core_tag, resolve_plain_owned, resolve_plain_strict, resolve_tagged, strict_error_message,
    CoreTag,
};

#[derive(Clone, Debug, Default)]
pub struct ParseOptions {
    /// `--strict`: only unambiguous plain scalars are accepted.
    pub strict: bool,
    /// How many nodes alias expansion may still copy. Shared by every file of a run, so
    /// that many small files cannot each expand up to the limit.
    pub aliases: AliasBudget,
}

/// The nodes alias expansion may copy (a "billion laughs" guard): shared by clones.
#[derive(Clone, Debug)]
pub struct AliasBudget(Arc<std::sync::atomic::AtomicUsize>);

impl Default for AliasBudget {
    fn default() -> Self {
        AliasBudget(Arc::new(std::sync::atomic::AtomicUsize::new(
            MAX_ALIAS_NODES,
        )))
    }
}

impl AliasBudget {
    /// What alias expansion may still copy.
    pub fn left(&self) -> usize {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// What parses that succeeded have copied from this budget.
    pub fn spent(&self) -> usize {
        MAX_ALIAS_NODES - self.left()
    }

    /// Gives the budget back what it held when [`AliasBudget::left`] said `left`: parses
    /// done again in another order spend it again.
    pub(crate) fn restore(&self, left: usize) {
        self.0.store(left, std::sync::atomic::Ordering::Relaxed);
    }

    /// Spends `n` if that much is left; a parse that copied `n` nodes from a budget of its
    /// own gives the same result as a parse from this one exactly when it is.
    pub fn try_spend(&self, n: usize) -> bool {
        use std::sync::atomic::Ordering;
        self.0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                left.checked_sub(n)
            })
            .is_ok()
    }

    /// Spends what a parse that succeeded copied (an attempt that gives up spends nothing).
    fn spend(&self, n: usize) {
        use std::sync::atomic::Ordering;
        let _ = self
            .0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                Some(left.saturating_sub(n))
            });
    }
}

/// A parse error. `Display` gives the go-yaml style text, e.g.
/// `yaml: line 4: could not find expected ':'`; callers add the file context.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct YamlError {
    pub message: String,
    pub line: Option<u32>,
    /// 1-based, where the scanner stopped on `line` (not in the message).
    pub column: Option<u32>,
}

impl YamlError {
    /// `yaml: line N: msg` (or `yaml: msg` without a line).
    fn at(line: Option<u32>, msg: &str) -> Self {
        let message = match line {
            Some(l) => format!("yaml: line {l}: {msg}"),
            None => format!("yaml: {msg}"),
        };
        YamlError {
            message,
            line,
            column: None,
        }
    }
}

/// Maximum nesting of collections.
pub const MAX_DEPTH: usize = 1000;
/// Maximum number of nodes copied by alias expansion in one run.
const MAX_ALIAS_NODES: usize = 5_000_000;
/// How many spots go-yaml accepts but saphyr rejects are patched (a tab after `:`,
/// quoted or flow lines indented less than saphyr wants); each patch keeps line numbers
/// and values unchanged, and costs one more parse of the text.
pub(super) const MAX_PATCHES: usize = 32;

/// Parse a YAML stream (all documents of one file).
pub fn parse(src: &str, file: FileId, opts: &ParseOptions) -> Result<DocSet, YamlError> {
    parse_keeping(src, file, opts, Keep::Trees)
}

/// [`parse`], keeping of each document what `keep` says.
pub(crate) fn parse_keeping(
    src: &str,
    file: FileId,
    opts: &ParseOptions,
    keep: Keep,
) -> Result<DocSet, YamlError> {
    parse_counted(src, file, opts, keep).map(|p| p.ds)
}

/// What a parse keeps of each document it finishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Keep {
    /// The document's tree.
    Trees,
    /// Its meta (position, comments) and whether it holds a value (`true` standing for
    /// any value): for a file that is only checked for errors, as an inspection's
    /// templates are. Each tree is freed as its document ends, so a large file is never
    /// held whole, and its memory serves the next document.
    Shapes,
}

/// A parse, and how many patches it took (at most [`MAX_PATCHES`] for a whole file):
/// `yaml::pieces` joins parses of parts of a stream.
pub(super) struct Parsed {
    pub ds: DocSet,
    pub patches: usize,
    /// The most frames (document and collections) open at once.
    pub deepest: usize,
}

pub(super) fn parse_counted(
    src: &str,
    file: FileId,
    opts: &ParseOptions,
    keep: Keep,
) -> Result<Parsed, YamlError> {
    check_characters(src)?;
    // Plain block YAML takes the fast path. It gives up on anything else; errors, too,
    // are left to saphyr, whose events decide their wording and position (the fast
    // events are saphyr's only once the whole text is in the subset).
    if let Ok(p) = parse_once(BlockScanner::new(src), src, file, opts, keep) {
        return Ok(p);
    }
    let mut patched: Option<String> = None;
    let mut first_err: Option<YamlError> = None;
    for patches in 0..=MAX_PATCHES {
        let text = patched.as_deref().unwrap_or(src);
        match parse_once(Parser::new_from_str(text), text, file, opts, keep) {
            Ok(p) => return Ok(Parsed { patches, ..p }),
            Err(Failure::Yaml(e)) => return Err(e),
            Err(Failure::Retry(t, e)) => {
                first_err.get_or_insert(e);
                patched = Some(t);
            }
            // only the fast path gives up; never saphyr
            Err(Failure::Unsupported) => break,
        }
    }
    Err(first_err.unwrap_or_else(|| YamlError::at(None, "unknown problem parsing YAML content")))
}

/// For plain (non-template) files: a map keeps the first position of a duplicated key
/// with the last value (recursively).
pub fn dedup_last_wins_deep(node: &mut Node) {
    match node {
        Node::Map(m) => {
            dedup_last_wins(m);
            for it in &mut m.items {
                dedup_last_wins_deep(&mut it.value);
            }
        }
        Node::Array(a) => {
            for it in &mut a.items {
                dedup_last_wins_deep(&mut it.value);
            }
        }
        _ => {}
    }
}

/// Collapse duplicate keys of one map: the first item's position (and comments) stay,
/// the last value wins. Keys compare by type and value (`1` and `1.0` differ).
pub fn dedup_last_wins(map: &mut Map) {
    if map.items.len() < 2 {
        return;
    }
    let same = |a: &Node, b: &Node| match (a, b) {
        (Node::Float(x), Node::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
        _ => a == b,
    };
    let n = map.items.len();
    // most maps have no duplicate: a small one is checked without allocating
    let keys = |i: usize| &map.items[i].key;
    if n <= 32 && !(1..n).any(|i| (0..i).any(|j| same(keys(j), keys(i)))) {
        return;
    }
    // index of the first occurrence for every item
    let mut first: Vec<usize> = Vec::with_capacity(n);
    let mut any_dup = false;
    if n <= 32 {
        for i in 0..n {
            let f = (0..i)
                .find(|&j| first[j] == j && same(&map.items[j].key, &map.items[i].key))
                .unwrap_or(i);
            any_dup |= f != i;
            first.push(f);
        }
    } else {
        let mut seen: std::collections::HashMap<KeyRepr, usize> =
            std::collections::HashMap::with_capacity(n);
        for (i, it) in map.items.iter().enumerate() {
            let f = *seen.entry(KeyRepr::of(&it.key)).or_insert(i);
            any_dup |= f != i;
            first.push(f);
        }
    }
    if !any_dup {
        return;
    }
    let items = std::mem::take(&mut map.items);
    let mut out: Vec<Option<MapItem>> = Vec::with_capacity(n);
    for (i, it) in items.into_iter().enumerate() {
        let f = first[i];
        if f == i {
            out.push(Some(it));
        } else {
            out.push(None);
            if let Some(Some(orig)) = out.get_mut(f) {
                orig.value = it.value;
            }
        }
    }
    map.items = out.into_iter().flatten().collect();
}

#[derive(Hash, PartialEq, Eq)]
enum KeyRepr {
    Null,
    Bool(bool),
    Int(i128),
    Float(u64),
    Str(String),
    Other(String),
}

impl KeyRepr {
    fn of(n: &Node) -> KeyRepr {
        match n {
            Node::Null => KeyRepr::Null,
            Node::Bool(b) => KeyRepr::Bool(*b),
            Node::Int(i) => KeyRepr::Int(i.get()),
            Node::Float(f) if f.is_nan() => KeyRepr::Float(u64::MAX),
            Node::Float(f) => KeyRepr::Float((f + 0.0).to_bits()),
            Node::Str(s) => KeyRepr::Str(s.to_string()),
            other => KeyRepr::Other(format!("{other:?}")),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Comment scanner
// ---------------------------------------------------------------------------------------

/// Walks the source forward in lock step with the events, finding comments and block
/// sequence dashes in the text between events (scalar spans are skipped).
struct LineScanner<'s> {
    src: &'s str,
    ascii: bool,
    /// byte offset / char index of the cursor
    pos: usize,
    cpos: usize,
    /// 1-based line of the cursor
    line: u32,
    /// a non-blank character precedes the cursor on its line
    content: bool,
    /// the cursor is at line start or after a blank
    prev_ws: bool,
    /// lines of `- ` indicators not yet claimed by an array item
    dashes: VecDeque<u32>,
    /// tabs in the indentation of lines scanned since the last check (see
    /// `Builder::check_tabs`)
    tabs: Vec<TabAt>,
    /// only blanks since the end of a plain scalar
    after_plain: bool,
}

/// A tab in the blanks that start a line.
struct TabAt {
    line: u32,
    /// byte offset
    pos: usize,
    /// only blanks between the end of a plain scalar and this tab
    after_plain: bool,
}

impl<'s> LineScanner<'s> {
    fn new(src: &'s str) -> Self {
        LineScanner {
            src,
            ascii: src.is_ascii(),
            pos: 0,
            cpos: 0,
            line: 1,
            content: false,
            prev_ws: true,
            dashes: VecDeque::new(),
            tabs: Vec::new(),
            after_plain: false,
        }
    }

    /// Scan up to (not including) char index `target`, collecting comments.
    fn scan_to(&mut self, target: usize, out: &mut Vec<Comment>) {
        let b = self.src.as_bytes();
        while self.cpos < target && self.pos < b.len() {
            let c = b[self.pos];
            match c {
                b'\n' => {
                    self.line += 1;
                    self.content = false;
                    self.prev_ws = true;
                    self.pos += 1;
                    self.cpos += 1;
                }
                b'\t' => {
                    if !self.content {
                        self.tabs.push(TabAt {
                            line: self.line,
                            pos: self.pos,
                            after_plain: self.after_plain,
                        });
                    }
                    self.prev_ws = true;
                    self.pos += 1;
                    self.cpos += 1;
                }
                b' ' | b'\r' => {
                    self.prev_ws = true;
                    self.pos += 1;
                    self.cpos += 1;
                }
                b'#' if self.prev_ws => {
                    self.after_plain = false;
                    let start = self.pos + 1;
                    // a comment ends at a line break, NEL, LS and PS included (as saphyr's)
                    let end = b[start..]
                        .iter()
                        .enumerate()
                        .position(|(i, &x)| x == b'\n' || unicode_break_at(&b[start + i..]))
                        .map_or(b.len(), |p| start + p);
                    let text = self.src[start..end]
                        .strip_suffix('\r')
                        .unwrap_or(&self.src[start..end]);
                    out.push(Comment {
                        line: self.line,
                        text: text.to_owned(),
                        own_line: !self.content,
                    });
                    self.cpos += if self.ascii {
                        end - self.pos
                    } else {
                        self.src[self.pos..end].chars().count()
                    };
                    self.pos = end;
                    self.content = true;
                    self.prev_ws = false;
                }
                b'-' if self.prev_ws
                    && matches!(
                        b.get(self.pos + 1),
                        None | Some(b' ' | b'\t' | b'\n' | b'\r')
                    ) =>
                {
                    self.dashes.push_back(self.line);
                    self.after_plain = false;
                    self.content = true;
                    self.prev_ws = false;
                    self.pos += 1;
                    self.cpos += 1;
                }
                _ if c >= 0x80 && unicode_break_at(&b[self.pos..]) => {
                    // a line break for the YAML structure, not for line numbers
                    self.content = false;
                    self.prev_ws = true;
                    self.pos += utf8_len(c);
                    self.cpos += 1;
                }
                _ => {
                    self.content = true;
                    self.after_plain = false;
                    self.prev_ws = false;
                    self.pos += utf8_len(c);
                    self.cpos += 1;
                }
            }
        }
    }

    /// Jump over a scalar's span (its text is never scanned for comments). Quoted
    /// scalars are lexed to their closing quote: saphyr's span for them also covers
    /// trailing blanks and comments.
    fn skip_scalar(&mut self, style: ScalarStyle, end: &Marker) {
        self.after_plain = style == ScalarStyle::Plain;
        match style {
            ScalarStyle::SingleQuoted => self.skip_quoted(b'\'', end),
            ScalarStyle::DoubleQuoted => self.skip_quoted(b'"', end),
            _ => self.skip_to(end),
        }
    }

    fn skip_to(&mut self, end: &Marker) {
        let target = end.index();
        if target <= self.cpos {
            return;
        }
        let n = target - self.cpos;
        let b = self.src.as_bytes();
        if self.ascii {
            self.pos = (self.pos + n).min(b.len());
        } else {
            let mut left = n;
            while left > 0 && self.pos < b.len() {
                self.pos += utf8_len(b[self.pos]);
                left -= 1;
            }
        }
        self.cpos = target;
        self.line = end.line() as u32;
        self.resync_line_state();
    }

    /// Recompute `content` / `prev_ws` from the text before the cursor on its line.
    fn resync_line_state(&mut self) {
        let b = self.src.as_bytes();
        let pos = self.pos.min(b.len());
        let mut i = pos;
        let mut content = false;
        while i > 0 && b[i - 1] != b'\n' {
            if !matches!(b[i - 1], b' ' | b'\t' | b'\r') {
                content = true;
                break;
            }
            i -= 1;
        }
        self.content = content;
        self.prev_ws = pos == 0 || matches!(b[pos - 1], b' ' | b'\t' | b'\r' | b'\n');
    }

    fn skip_quoted(&mut self, quote: u8, end: &Marker) {
        let b = self.src.as_bytes();
        let limit_c = end.index();
        // anchor / tag before the opening quote
        while self.pos < b.len() && self.cpos < limit_c && b[self.pos] != quote {
            if b[self.pos] == b'\n' {
                self.line += 1;
            }
            self.pos += utf8_len(b[self.pos]);
            self.cpos += 1;
        }
        if self.pos >= b.len() || self.cpos >= limit_c {
            self.skip_to(end);
            return;
        }
        // opening quote
        self.pos += 1;
        self.cpos += 1;
        while self.pos < b.len() {
            let c = b[self.pos];
            if c == quote {
                if quote == b'\'' && b.get(self.pos + 1) == Some(&b'\'') {
                    self.pos += 2;
                    self.cpos += 2;
                    continue;
                }
                self.pos += 1;
                self.cpos += 1;
                break;
            }
            if c == b'\\' && quote == b'"' && self.pos + 1 < b.len() {
                self.pos += 1;
                self.cpos += 1;
                let n = b[self.pos];
                if n == b'\n' {
                    self.line += 1;
                }
                self.pos += utf8_len(n);
                self.cpos += 1;
                continue;
            }
            if c == b'\n' {
                self.line += 1;
            }
            self.pos += utf8_len(c);
            self.cpos += 1;
        }
        self.content = true;
        self.prev_ws = false;
    }

    /// The byte of the char just before char index `end` (which must be ≥ the cursor):
    /// used to tell flow collections (`[`, `{`) from block ones.
    fn byte_before(&self, end: usize) -> Option<u8> {
        if end == 0 || end <= self.cpos {
            return None;
        }
        let b = self.src.as_bytes();
        if self.ascii {
            return b.get(end - 1).copied();
        }
        let mut p = self.pos;
        for _ in self.cpos..end - 1 {
            if p >= b.len() {
                return None;
            }
            p += utf8_len(b[p]);
        }
        b.get(p).copied()
    }

    /// The column (in chars) of byte offset `pos`.
    fn column_of(&self, pos: usize) -> usize {
        let pos = pos.min(self.src.len());
        let start = self.src.as_bytes()[..pos]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1);
        self.src.get(start..pos).map_or(0, |l| l.chars().count())
    }

    /// The column of char index `idx`.
    fn column_of_char(&self, idx: usize) -> usize {
        let pos = if self.ascii {
            idx
        } else {
            self.src
                .char_indices()
                .nth(idx)
                .map_or(self.src.len(), |(b, _)| b)
        };
        self.column_of(pos)
    }

    /// Claim the pending dash of a block sequence item whose value starts at `line`.
    fn take_dash(&mut self, value_line: u32) -> u32 {
        match self.dashes.front() {
            Some(&d) if d <= value_line => {
                self.dashes.pop_front();
                d
            }
            _ => value_line,
        }
    }
}

/// Whether the bytes start with NEL (U+0085), LS (U+2028) or PS (U+2029), which the
/// reference reads as line breaks (YAML 1.1).
pub(super) fn unicode_break_at(b: &[u8]) -> bool {
    matches!(b, [0xC2, 0x85, ..] | [0xE2, 0x80, 0xA8 | 0xA9, ..])
}

fn utf8_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xFF => 4,
        _ => 1, // continuation byte: never a lead when walking char by char
    }
}

// ---------------------------------------------------------------------------------------
// Tree builder
// ---------------------------------------------------------------------------------------

struct PendingKey {
    key: Node,
    meta: Meta,
    merge: bool,
}

enum Frame {
    Doc {
        meta: Meta,
        value: Option<Node>,
    },
    Map {
        items: ThinVec<MapItem>,
        pending: Option<PendingKey>,
        anchor: usize,
        shape: Shape,
    },
    Seq {
        items: ThinVec<ArrayItem>,
        pending: Option<Meta>,
        anchor: usize,
        shape: Shape,
    },
}

/// How a collection is written (for go-yaml's error messages and tab rules).
#[derive(Clone, Copy)]
struct Shape {
    flow: bool,
    /// a block sequence whose `-` are in the column of its mapping's keys
    indentless: bool,
    /// char index of the collection's start (its first key or `-`)
    start: usize,
}

struct Builder {
    file: FileId,
    stack: Vec<Frame>,
    docs: Vec<Doc>,
    /// anchor id → (comment-free copy, node count)
    anchors: Vec<Option<(Node, usize)>>,
    /// Nodes copied by alias expansion so far, and how many the run has left.
    alias_nodes: usize,
    alias_budget: usize,
    /// own-line comments not yet claimed, in line order
    pending_own: Vec<Comment>,
    /// trailing comments waiting for the last item on their line
    pending_trailing: Vec<Comment>,
    doc_count: usize,
    deepest: usize,
    keep: Keep,
}

impl Builder {
    fn new(file: FileId, alias_budget: usize, keep: Keep) -> Self {
        Builder {
            file,
            stack: Vec::with_capacity(16),
            docs: Vec::new(),
            anchors: Vec::new(),
            alias_nodes: 0,
            alias_budget,
            pending_own: Vec::new(),
            pending_trailing: Vec::new(),
            doc_count: 0,
            deepest: 0,
            keep,
        }
    }

    fn add_comments(&mut self, found: &mut Vec<Comment>) {
        for c in found.drain(..) {
            if c.own_line {
                self.pending_own.push(c);
            } else {
                self.pending_trailing.push(c);
            }
        }
    }

    /// Metadata for an item starting at `line`: first settle trailing comments of earlier
    /// lines, then claim the own-line comments above `owner_line`.
    fn new_meta(&mut self, pos_line: u32, owner_line: u32) -> Meta {
        self.flush_trailing(Some(owner_line));
        let n = self
            .pending_own
            .iter()
            .take_while(|c| c.line < owner_line)
            .count();
        let comments = if n == 0 {
            ThinVec::new()
        } else {
            self.pending_own.drain(..n).collect()
        };
        Meta {
            pos: Pos::new(self.file, pos_line),
            comments,
            ..Meta::default()
        }
    }

    /// Attach trailing comments on lines before `before` (all when `None`) to the last
    /// item starting on their line; without such an item they act as own-line comments.
    fn flush_trailing(&mut self, before: Option<u32>) {
        if self.pending_trailing.is_empty() {
            return;
        }
        let n = match before {
            Some(l) => self
                .pending_trailing
                .iter()
                .take_while(|c| c.line < l)
                .count(),
            None => self.pending_trailing.len(),
        };
        if n == 0 {
            return;
        }
        let mut all = std::mem::take(&mut self.pending_trailing);
        let rest = all.split_off(n);
        self.pending_trailing = rest;
        for c in all {
            match self.last_item_on_line(c.line) {
                Some(meta) => meta.comments.push(c),
                None => {
                    let c = Comment {
                        own_line: true,
                        ..c
                    };
                    let at = self.pending_own.partition_point(|o| o.line <= c.line);
                    self.pending_own.insert(at, c);
                }
            }
        }
    }

    /// The most recently created item, if it starts on `line`.
    fn last_item_on_line(&mut self, line: u32) -> Option<&mut Meta> {
        let idx = self.stack.iter().rposition(|f| match f {
            Frame::Doc { .. } => true,
            Frame::Map { items, pending, .. } => pending.is_some() || !items.is_empty(),
            Frame::Seq { items, pending, .. } => pending.is_some() || !items.is_empty(),
        });
        let Some(i) = idx else {
            let d = self.docs.last_mut()?;
            return chain_pick(&mut d.meta, &mut d.value, line);
        };
        match &mut self.stack[i] {
            Frame::Doc { meta, value } => match value {
                Some(v) => chain_pick(meta, v, line),
                None => (meta.pos.line == line).then_some(meta),
            },
            Frame::Map { items, pending, .. } => match pending {
                Some(p) => (p.meta.pos.line == line).then_some(&mut p.meta),
                None => {
                    let it = items.last_mut()?;
                    chain_pick(&mut it.meta, &mut it.value, line)
                }
            },
            Frame::Seq { items, pending, .. } => match pending {
                Some(m) => (m.pos.line == line).then_some(m),
                None => {
                    let it = items.last_mut()?;
                    chain_pick(&mut it.meta, &mut it.value, line)
                }
            },
        }
    }

    fn begin_doc(&mut self, pos_line: u32, owner_line: u32) {
        let meta = self.new_meta(pos_line, owner_line);
        self.doc_count += 1;
        self.stack.push(Frame::Doc { meta, value: None });
    }

    fn end_doc(&mut self) -> Result<(), YamlError> {
        self.flush_trailing(None);
        match self.stack.pop() {
            Some(Frame::Doc { meta, value }) => {
                let value = match (self.keep, value) {
                    (_, None | Some(Node::Null)) => Node::Null,
                    (Keep::Trees, Some(v)) => v,
                    (Keep::Shapes, Some(_)) => Node::Bool(true),
                };
                self.docs.push(Doc::new(value, meta));
                Ok(())
            }
            _ => Err(YamlError::at(None, "internal error: unbalanced document")),
        }
    }

    /// Where the next node goes, for go-yaml's error messages.
    fn place(&self) -> Place {
        match self.stack.last() {
            Some(Frame::Map { shape, .. }) if shape.flow => Place::FlowMap,
            Some(Frame::Map { pending, .. }) => Place::BlockMap {
                next_key: pending.is_none(),
            },
            Some(Frame::Seq { shape, .. }) if shape.flow => Place::FlowSeq,
            Some(Frame::Seq { shape, .. }) => Place::BlockSeq {
                indentless: shape.indentless,
            },
            Some(Frame::Doc { .. }) | None => Place::Root,
        }
    }

    /// go-yaml's rule for tabs in the indentation of a line (the blanks before its first
    /// token), in block context: after a plain scalar they may continue it, so a tab left
    /// of the scalar's minimum indentation (one more than the column of the innermost
    /// block collection) is "found a tab character that violates indentation"; anywhere
    /// else such a tab is "found character that cannot start any token" (libyaml skips
    /// tabs only where no simple key may start). Flow collections allow tabs anywhere.
    /// saphyr allows a tab past the block indentation, so the line scanner reports
    /// every indentation tab here.
    fn check_tabs(&self, scan: &mut LineScanner) -> Result<(), YamlError> {
        if scan.tabs.is_empty() {
            return Ok(());
        }
        let tabs = std::mem::take(&mut scan.tabs);
        let flow = match self.stack.last() {
            Some(Frame::Map { shape, .. } | Frame::Seq { shape, .. }) => shape.flow,
            _ => false,
        };
        if flow {
            return Ok(());
        }
        for t in tabs {
            if !t.after_plain {
                return Err(YamlError::at(
                    Some(t.line),
                    "found character that cannot start any token",
                ));
            }
            if (scan.column_of(t.pos) as isize) < self.block_indent(scan) + 1 {
                return Err(YamlError::at(
                    Some(t.line),
                    "found a tab character that violates indentation",
                ));
            }
        }
        Ok(())
    }

    /// The column of the innermost block collection (-1 at a document's root); an
    /// indentless sequence has its mapping's.
    fn block_indent(&self, scan: &LineScanner) -> isize {
        for f in self.stack.iter().rev() {
            match f {
                Frame::Map { shape, .. } | Frame::Seq { shape, .. } if !shape.indentless => {
                    return scan.column_of_char(shape.start) as isize;
                }
                Frame::Doc { .. } => return -1,
                _ => {}
            }
        }
        -1
    }

    fn expects_key(&self) -> bool {
        matches!(self.stack.last(), Some(Frame::Map { pending: None, .. }))
    }

    /// A value (scalar, alias or collection) starts at `line`; in a sequence this creates
    /// the array item.
    fn value_start(&mut self, scan: &mut LineScanner, line: u32) -> Result<(), YamlError> {
        let flow = match self.stack.last() {
            Some(Frame::Seq { shape, .. }) => shape.flow,
            Some(_) => return Ok(()),
            None => {
                return Err(YamlError::at(
                    Some(line),
                    "internal error: value outside of a document",
                ))
            }
        };
        let item_line = if flow { line } else { scan.take_dash(line) };
        let meta = self.new_meta(item_line, item_line);
        if let Some(Frame::Seq { pending, .. }) = self.stack.last_mut() {
            *pending = Some(meta);
        }
        Ok(())
    }

    /// A scalar or alias value (or key).
    fn leaf(
        &mut self,
        scan: &mut LineScanner,
        node: Node,
        line: u32,
        merge: bool,
    ) -> Result<(), YamlError> {
        if self.expects_key() {
            if !node.is_scalar() {
                return Err(complex_key(line));
            }
            let meta = self.new_meta(line, line);
            if let Some(Frame::Map { pending, .. }) = self.stack.last_mut() {
                *pending = Some(PendingKey {
                    key: node,
                    meta,
                    merge,
                });
            }
            return Ok(());
        }
        self.value_start(scan, line)?;
        self.put_value(node)
    }

    fn start_collection(
        &mut self,
        scan: &mut LineScanner,
        is_map: bool,
        anchor: usize,
        shape: Shape,
        line: u32,
    ) -> Result<(), YamlError> {
        if self.expects_key() {
            return Err(complex_key(line));
        }
        self.value_start(scan, line)?;
        self.deepest = self.deepest.max(self.stack.len() + 1);
        if self.stack.len() > MAX_DEPTH {
            return Err(YamlError::at(
                Some(line),
                &format!("exceeded max depth of {MAX_DEPTH}"),
            ));
        }
        self.stack.push(if is_map {
            Frame::Map {
                items: ThinVec::new(),
                pending: None,
                anchor,
                shape,
            }
        } else {
            Frame::Seq {
                items: ThinVec::new(),
                pending: None,
                anchor,
                shape,
            }
        });
        Ok(())
    }

    fn end_collection(&mut self) -> Result<(), YamlError> {
        let (node, anchor) = match self.stack.pop() {
            // collections are kept as long as the run: drop the growth slack (small
            // maps would otherwise keep room for four items)
            Some(Frame::Map {
                mut items,
                pending,
                anchor,
                ..
            }) => {
                if pending.is_some() {
                    return Err(YamlError::at(None, "internal error: key without value"));
                }
                items.shrink_to_fit();
                (Node::Map(Map { items }), anchor)
            }
            Some(Frame::Seq {
                mut items, anchor, ..
            }) => {
                items.shrink_to_fit();
                (Node::Array(Array { items }), anchor)
            }
            _ => return Err(YamlError::at(None, "internal error: unbalanced collection")),
        };
        self.store_anchor(anchor, &node);
        self.put_value(node)
    }

    fn store_anchor(&mut self, anchor: usize, node: &Node) {
        if anchor == 0 {
            return;
        }
        let mut copy = node.clone();
        let count = strip_comments(&mut copy);
        if self.anchors.len() <= anchor {
            self.anchors.resize_with(anchor + 1, || None);
        }
        self.anchors[anchor] = Some((copy, count));
    }

    fn alias(&mut self, id: usize, name: impl FnOnce() -> String) -> Result<Node, YamlError> {
        match self.anchors.get(id) {
            Some(Some((node, count))) => {
                self.alias_nodes += count;
                if self.alias_nodes > self.alias_budget {
                    return Err(YamlError::at(None, "document contains excessive aliasing"));
                }
                Ok(node.clone())
            }
            _ => Err(YamlError::at(
                None,
                &format!("anchor '{}' value contains itself", name()),
            )),
        }
    }

    /// A finished value goes into its parent.
    fn put_value(&mut self, node: Node) -> Result<(), YamlError> {
        match self.stack.last_mut() {
            Some(Frame::Doc { value, .. }) => {
                *value = Some(node);
                Ok(())
            }
            Some(Frame::Seq { items, pending, .. }) => {
                let meta = pending.take().unwrap_or_default();
                items.push(ArrayItem { value: node, meta });
                Ok(())
            }
            Some(Frame::Map { items, pending, .. }) => {
                let Some(p) = pending.take() else {
                    return Err(YamlError::at(None, "internal error: value without key"));
                };
                if p.merge {
                    merge_into(items, p.meta, node)
                } else {
                    items.push(MapItem {
                        key: p.key,
                        value: node,
                        meta: p.meta,
                    });
                    Ok(())
                }
            }
            None => Err(YamlError::at(
                None,
                "internal error: value outside of a document",
            )),
        }
    }

    fn finish(mut self) -> Parsed {
        self.flush_trailing(None);
        if self.docs.is_empty() {
            self.docs
                .push(Doc::new(Node::Null, Meta::at(Pos::new(self.file, 1))));
        }
        Parsed {
            ds: DocSet {
                docs: self.docs,
                meta: Meta {
                    pos: Pos::new(self.file, 0),
                    comments: self.pending_own.into(),
                    ..Meta::default()
                },
            },
            patches: 0,
            deepest: self.deepest,
        }
    }
}

fn complex_key(line: u32) -> YamlError {
    YamlError::at(
        Some(line),
        "complex (collection) map keys are not supported",
    )
}

/// On the chain of last items below (and including) `meta`, the deepest one starting on
/// `line`.
fn chain_pick<'m>(meta: &'m mut Meta, value: &'m mut Node, line: u32) -> Option<&'m mut Meta> {
    let mut best = None;
    {
        let (mut m, mut v) = (&*meta, &*value);
        let mut depth = 0usize;
        loop {
            if m.pos.line == line {
                best = Some(depth);
            }
            let next = match v {
                Node::Map(mm) => mm.items.last().map(|it| (&it.meta, &it.value)),
                Node::Array(a) => a.items.last().map(|it| (&it.meta, &it.value)),
                _ => None,
            };
            match next {
                Some((nm, nv)) => {
                    m = nm;
                    v = nv;
                    depth += 1;
                }
                None => break,
            }
        }
    }
    let target = best?;
    let (mut m, mut v) = (meta, value);
    for _ in 0..target {
        let (nm, nv) = match v {
            Node::Map(mm) => {
                let it = mm.items.last_mut()?;
                (&mut it.meta, &mut it.value)
            }
            Node::Array(a) => {
                let it = a.items.last_mut()?;
                (&mut it.meta, &mut it.value)
            }
            _ => return None,
        };
        m = nm;
        v = nv;
    }
    Some(m)
}

/// Clear comments in a copied subtree (aliases copy the node, not its templating);
/// returns the number of nodes.
fn strip_comments(n: &mut Node) -> usize {
    match n {
        Node::Map(m) => {
            let mut c = 1;
            for it in &mut m.items {
                it.meta.comments.clear();
                c += strip_comments(&mut it.value);
            }
            c
        }
        Node::Array(a) => {
            let mut c = 1;
            for it in &mut a.items {
                it.meta.comments.clear();
                c += strip_comments(&mut it.value);
            }
            c
        }
        _ => 1,
    }
}

/// `<<: *anchor` (or `!!merge <<: *anchor`): the anchored map's items are inserted as
/// they are, at the position of the `<<` key. Nothing is overridden here: an explicit
/// key that repeats a merged one stays a second item, as in the reference's parser
/// (`ytt fmt` prints both). What a repeated key means is decided by the reader of the
/// tree: plain YAML keeps the first position with the last value
/// ([`dedup_last_wins`], so `<<: *a` then `k: v` overrides `a`'s `k` in place), a
/// template reports it unless the later item carries `@yaml/map-key-override`.
/// Only a map merges: `<<: [*a, *b]` is the reference's error.
fn merge_into(
    items: &mut ThinVec<MapItem>,
    merge_meta: Meta,
    value: Node,
) -> Result<(), YamlError> {
    let Node::Map(src) = value else {
        return Err(YamlError::at(
            None,
            "map merge requires map or sequence of maps as the value",
        ));
    };
    let mut comments = Some(merge_meta.comments);
    for mut it in src.items {
        if let Some(mut c) = comments.take() {
            // comments above the `<<` line go to the first merged item
            c.append(&mut it.meta.comments);
            it.meta.comments = c;
        }
        items.push(it);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// The event loop
// ---------------------------------------------------------------------------------------

/// Where `parse_once` gets its events: saphyr's parser or the fast block scanner.
trait EventSource<'a> {
    fn next_event(&mut self) -> Option<Result<(Event<'a>, Span), SourceError>>;
}

/// Why an event source stopped.
enum SourceError {
    /// saphyr's error: given go-yaml's wording by `parse_once`, which knows the context
    Scan(ScanError),
    /// the fast block scanner gives up
    Unsupported,
}

impl<'a> EventSource<'a> for Parser<'a, StrInput<'a>> {
    fn next_event(&mut self) -> Option<Result<(Event<'a>, Span), SourceError>> {
        Parser::next_event(self).map(|r| r.map_err(SourceError::Scan))
    }
}

impl<'a> EventSource<'a> for BlockScanner<'a> {
    fn next_event(&mut self) -> Option<Result<(Event<'a>, Span), SourceError>> {
        BlockScanner::next_event(self).map(|r| r.map_err(|Unsupported| SourceError::Unsupported))
    }
}

/// Build the documents from the events of `events` (a pure function of `text`, so a
/// source that gives up can be replaced by another one from the start).
fn parse_once<'a>(
    mut events: impl EventSource<'a>,
    text: &str,
    file: FileId,
    opts: &ParseOptions,
    keep: Keep,
) -> Result<Parsed, Failure> {
    let mut scan = LineScanner::new(text);
    let mut b = Builder::new(file, opts.aliases.left(), keep);
    let mut found: Vec<Comment> = Vec::new();

    while let Some(res) = events.next_event() {
        let (ev, span): (Event, Span) = match res {
            Ok(x) => x,
            Err(SourceError::Unsupported) => return Err(Failure::Unsupported),
            Err(SourceError::Scan(e)) => {
                // saphyr's scanner reads ahead of its events: a tab go-yaml stops at may
                // come before the spot saphyr complains about
                let cursor = scan.pos;
                scan.scan_to(e.marker().index(), &mut found);
                b.check_tabs(&mut scan)?;
                return Err(map_scan_error(&e, text, b.place(), cursor));
            }
        };
        scan.scan_to(span.start.index(), &mut found);
        if !scan.tabs.is_empty() {
            b.check_tabs(&mut scan)?;
        }
        if !found.is_empty() {
            b.add_comments(&mut found);
        }
        let line = span.start.line() as u32;
        match ev {
            Event::StreamStart | Event::Nothing => {}
            Event::StreamEnd => break,
            Event::DocumentStart(explicit) => {
                if explicit {
                    b.begin_doc(line, line);
                } else if b.doc_count > 0 {
                    let l = line.saturating_sub(1);
                    return Err(YamlError::at(
                        (l > 0).then_some(l),
                        "did not find expected <document start>",
                    )
                    .into());
                } else {
                    // implicit first document: positioned at line 1, but it claims no
                    // comments (they belong to its first item)
                    b.begin_doc(1, 0);
                }
            }
            Event::DocumentEnd => b.end_doc()?,
            Event::Scalar(value, style, anchor, tag) => {
                // a merge key: a plain `<<`, or `<<` tagged `!!merge` in any style
                let merge = value == "<<"
                    && match &tag {
                        None => style == ScalarStyle::Plain,
                        Some(t) => core_tag(&t.handle, &t.suffix) == CoreTag::Merge,
                    };
                let value: Str = match value {
                    // short text is kept inline: no allocation
                    Cow::Borrowed(v) => v.into(),
                    // a scalar that grew as it was scanned may hold twice its length;
                    // below 16 bytes spare, the allocator's size classes give nothing back
                    Cow::Owned(mut v) => {
                        if v.capacity() - v.len() > 16 {
                            v.shrink_to_fit();
                        }
                        v.into()
                    }
                };
                let node = match &tag {
                    Some(t) => resolve_tagged(core_tag(&t.handle, &t.suffix), &value)
                        .map_err(|m| YamlError::at(None, &m))?,
                    None if style == ScalarStyle::Plain => {
                        if opts.strict && !merge {
                            resolve_plain_strict(&value).map_err(|d| YamlError {
                                message: strict_error_message(&d),
                                line: Some(line),
                                column: None,
                            })?
                        } else {
                            resolve_plain_owned(value)
                        }
                    }
                    None => Node::Str(value),
                };
                if anchor != 0 {
                    b.store_anchor(anchor, &node);
                }
                b.leaf(&mut scan, node, line, merge)?;
                scan.skip_scalar(style, &span.end);
            }
            Event::Alias(id) => {
                // its name only for the error (finding it costs a pass over the text)
                let node = b.alias(id, || alias_name_at(text, span.start.index()))?;
                b.leaf(&mut scan, node, line, false)?;
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                let is_map = matches!(ev, Event::MappingStart(..));
                let open = if is_map { b'{' } else { b'[' };
                let flow = span.end.index() > span.start.index()
                    && scan.byte_before(span.end.index()) == Some(open);
                // a block sequence starts at its first `-`, an indentless one (as a
                // mapping's value, `-` in the keys' column) after it
                let at_dash =
                    !scan.content && scan.byte_before(span.start.index() + 1) == Some(b'-');
                let shape = Shape {
                    flow,
                    indentless: !is_map && !flow && !at_dash,
                    start: span.start.index(),
                };
                b.start_collection(&mut scan, is_map, anchor, shape, line)?;
            }
            Event::SequenceEnd | Event::MappingEnd => b.end_collection()?,
        }
    }
    opts.aliases.spend(b.alias_nodes);
    Ok(b.finish())
}

#[path = "parser_errors.rs"]
mod errors;

#[cfg(test)]
#[path = "parser_tests.rs"]
mod tests;
