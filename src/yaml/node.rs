//! The YAML node tree shared by every pipeline step: parsed templates, plain YAML inputs,
//! evaluated output documents and data values. Items (documents, map items, array items)
//! carry metadata: where they came from and the comments attached to them.

use std::cell::Cell;
use std::fmt;
use std::sync::{Arc, Mutex};

pub use thin_vec::ThinVec;

/// A file name, interned. Every item carries a position: an id instead of a shared
/// string makes each item 16 bytes smaller and copying a position free of atomic
/// reference counting (measured on bench/fleet and bench/overlays).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FileId(u32);

/// The interned names; id `n` is `names[n - 1]` (0: no file).
#[derive(Default)]
struct Names {
    names: Vec<Arc<str>>,
    ids: std::collections::HashMap<Arc<str>, u32>,
}

static NAMES: Mutex<Option<Names>> = Mutex::new(None);

thread_local! {
    /// The last name interned on this thread, by address: the parser asks for the same
    /// `Arc` once per node. Only addresses of names held by `NAMES` are cached (they are
    /// never freed, so an address cannot be reused for another name).
    static LAST: Cell<(usize, u32)> = const { Cell::new((0, 0)) };
}

impl FileId {
    pub fn of(name: &Arc<str>) -> FileId {
        let addr = Arc::as_ptr(name) as *const u8 as usize;
        let (last_addr, last_id) = LAST.get();
        if last_addr == addr && last_id != 0 {
            return FileId(last_id);
        }
        let mut guard = NAMES.lock().unwrap_or_else(|e| e.into_inner());
        let table = guard.get_or_insert_with(Names::default);
        let id = match table.ids.get(name) {
            Some(&id) => id,
            None => {
                table.names.push(name.clone());
                let id = table.names.len() as u32;
                table.ids.insert(name.clone(), id);
                id
            }
        };
        if Arc::ptr_eq(&table.names[id as usize - 1], name) {
            LAST.set((addr, id));
        }
        FileId(id)
    }

    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    pub fn name(self) -> Option<Arc<str>> {
        if self.0 == 0 {
            return None;
        }
        let guard = NAMES.lock().unwrap_or_else(|e| e.into_inner());
        guard
            .as_ref()
            .and_then(|t| t.names.get(self.0 as usize - 1).cloned())
    }
}

/// An integer node's value, in the int64 and uint64 ranges (as go-yaml reads them). Kept
/// in two 8-byte halves: nodes live inside Starlark values, whose heap aligns to 8 bytes,
/// and an `i128` needs 16.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Int {
    hi: i64,
    lo: u64,
}

impl Int {
    pub fn new(i: i128) -> Int {
        Int {
            hi: (i >> 64) as i64,
            lo: i as u64,
        }
    }

    pub fn get(self) -> i128 {
        (i128::from(self.hi) << 64) | i128::from(self.lo)
    }
}

impl From<i32> for Int {
    fn from(i: i32) -> Int {
        Int::new(i.into())
    }
}

impl From<i64> for Int {
    fn from(i: i64) -> Int {
        Int::new(i.into())
    }
}

impl From<u64> for Int {
    fn from(u: u64) -> Int {
        Int::new(u.into())
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

impl fmt::Debug for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

/// A source position. `line` is 1-based; 0 means "not from a file" (computed in memory).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pos {
    pub file: FileId,
    pub line: u32,
}

impl Pos {
    pub fn new(file: &Arc<str>, line: u32) -> Self {
        Pos {
            file: FileId::of(file),
            line,
        }
    }

    pub fn unknown() -> Self {
        Pos::default()
    }

    pub fn is_known(&self) -> bool {
        !self.file.is_none() && self.line > 0
    }

    /// `file.yml:12`, as printed in reports.
    pub fn describe(&self) -> String {
        match self.file.name() {
            Some(f) if self.line > 0 => format!("{f}:{}", self.line),
            Some(f) => f.to_string(),
            None => "(unknown)".to_owned(),
        }
    }
}

/// A `#` comment attached to an item: `text` is everything after the `#`
/// (so `@ x = 1`, `!note`, `@overlay/match by="name"`).
#[derive(Clone, Debug, PartialEq)]
pub struct Comment {
    pub line: u32,
    pub text: String,
    /// True when the comment stands alone on its line (it belongs to the node below),
    /// false when it trails a node on the same line.
    pub own_line: bool,
}

/// Metadata of an item node. Most items have no comments or annotations left, so both
/// lists are thin (one pointer each): an item node's size matters for large inputs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Meta {
    pub pos: Pos,
    pub comments: ThinVec<Comment>,
    /// Annotations evaluated by a template (`#@overlay/match by=...` …). Shared: a
    /// schema puts the same validation on every value of a type.
    pub annotations: ThinVec<Arc<Annotation>>,
}

impl Meta {
    pub fn at(pos: Pos) -> Self {
        Meta {
            pos,
            ..Meta::default()
        }
    }

    pub fn annotation(&self, name: &str) -> Option<&Annotation> {
        self.annotations
            .iter()
            .find(|a| a.name == name)
            .map(|a| &**a)
    }

    pub fn has_annotation(&self, name: &str) -> bool {
        self.annotation(name).is_some()
    }
}

/// A handle to a Starlark value evaluated as an annotation argument; the evaluator that
/// made it resolves it (`serial` names the module evaluation, `index` the value in it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ValueRef {
    pub serial: u32,
    pub index: u32,
}

/// An evaluated annotation on a node.
#[derive(Clone, Debug, PartialEq)]
pub struct Annotation {
    pub name: String,
    /// Where the annotation was written.
    pub pos: Pos,
    pub args: Vec<ValueRef>,
    pub kwargs: Vec<(String, ValueRef)>,
    /// Where each argument was written, when they were not all written at `pos`: an
    /// annotation an overlay merged (`@overlay/merge-anns`) keeps the position of each
    /// argument, so that each rule reports where it was written. Positional arguments
    /// first, then keyword arguments; empty when every argument was written at `pos`.
    pub arg_pos: Vec<Pos>,
}

impl Annotation {
    /// An annotation whose arguments were all written where it was.
    pub fn new(
        name: impl Into<String>,
        pos: Pos,
        args: Vec<ValueRef>,
        kwargs: Vec<(String, ValueRef)>,
    ) -> Self {
        Annotation {
            name: name.into(),
            pos,
            args,
            kwargs,
            arg_pos: Vec::new(),
        }
    }

    pub fn kwarg(&self, name: &str) -> Option<ValueRef> {
        self.kwargs.iter().find(|(k, _)| k == name).map(|(_, v)| *v)
    }

    /// Where positional argument `i` was written.
    pub fn arg_pos(&self, i: usize) -> &Pos {
        self.arg_pos.get(i).unwrap_or(&self.pos)
    }

    /// Where keyword argument `i` was written.
    pub fn kwarg_pos(&self, i: usize) -> &Pos {
        self.arg_pos.get(self.args.len() + i).unwrap_or(&self.pos)
    }
}

/// A string scalar's text.
pub type Str = compact_str::CompactString;

/// A value in the tree: a scalar or a collection.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Node {
    #[default]
    Null,
    Bool(bool),
    Int(Int),
    Float(f64),
    /// Inline up to 24 bytes: most keys and scalars of a tree copy without allocating.
    Str(Str),
    Map(Map),
    Array(Array),
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Map {
    pub items: Vec<MapItem>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MapItem {
    /// Always a scalar (string, int, bool, float or null).
    pub key: Node,
    pub value: Node,
    pub meta: Meta,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Array {
    pub items: Vec<ArrayItem>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ArrayItem {
    pub value: Node,
    pub meta: Meta,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Doc {
    pub value: Node,
    pub meta: Meta,
    /// The value was computed by an expression (`--- #@ {}`) rather than written as YAML
    /// (or built from YAML fragments): see [`Doc::is_empty`].
    pub computed: bool,
}

impl Doc {
    /// A document as written in YAML.
    pub fn new(value: Node, meta: Meta) -> Self {
        Doc {
            value,
            meta,
            computed: false,
        }
    }

    /// Whether the document leaves the document set: its value is null, or a map or array
    /// without items that was written as YAML — `--- {}`, `--- []`, `--- null`, a
    /// document holding only comments or code, a body whose items were all skipped by
    /// `if`/`for`. A map or array computed by an expression (`--- #@ {}`) is a value the
    /// template asked for and stays, even empty.
    pub fn is_empty(&self) -> bool {
        match &self.value {
            Node::Null => true,
            Node::Map(m) => m.items.is_empty() && !self.computed,
            Node::Array(a) => a.items.is_empty() && !self.computed,
            _ => false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct DocSet {
    pub docs: Vec<Doc>,
    /// Comments after the last document that no node claimed.
    pub meta: Meta,
}

impl Node {
    /// A map key as messages print it.
    pub fn key_text(&self) -> String {
        match self {
            Node::Str(s) => s.to_string(),
            Node::Int(i) => i.to_string(),
            Node::Float(f) => f.to_string(),
            Node::Bool(b) => b.to_string(),
            Node::Null => "null".to_owned(),
            other => other.type_name().to_owned(),
        }
    }

    /// A copy of this node whose items carry `meta(item's metadata)`.
    pub fn copy_with_meta(&self, meta: &dyn Fn(&Meta) -> Meta) -> Node {
        match self {
            Node::Map(m) => Node::Map(Map {
                items: m
                    .items
                    .iter()
                    .map(|i| MapItem {
                        key: i.key.clone(),
                        value: i.value.copy_with_meta(meta),
                        meta: meta(&i.meta),
                    })
                    .collect(),
            }),
            Node::Array(a) => Node::Array(Array {
                items: a
                    .items
                    .iter()
                    .map(|i| ArrayItem {
                        value: i.value.copy_with_meta(meta),
                        meta: meta(&i.meta),
                    })
                    .collect(),
            }),
            other => other.clone(),
        }
    }

    /// Drops the annotations `keep` rejects from every item below this node.
    pub fn retain_annotations(&mut self, keep: &dyn Fn(&Annotation) -> bool) {
        match self {
            Node::Map(m) => {
                for i in &mut m.items {
                    i.meta.annotations.retain(|a| keep(a));
                    i.value.retain_annotations(keep);
                }
            }
            Node::Array(a) => {
                for i in &mut a.items {
                    i.meta.annotations.retain(|a| keep(a));
                    i.value.retain_annotations(keep);
                }
            }
            _ => {}
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Node::Null)
    }

    pub fn is_scalar(&self) -> bool {
        !matches!(self, Node::Map(_) | Node::Array(_))
    }

    /// The type name the reference uses in messages about nodes (see
    /// [`crate::typenames`]).
    pub fn type_name(&self) -> &'static str {
        crate::typenames::node(self)
    }

    /// Compare two nodes by value only (ignoring metadata); ints and floats compare
    /// numerically, as the reference's overlay matchers do.
    pub fn value_eq(&self, other: &Node) -> bool {
        match (self, other) {
            (Node::Int(a), Node::Float(b)) | (Node::Float(b), Node::Int(a)) => {
                (a.get() as f64) == *b
            }
            (Node::Map(a), Node::Map(b)) => {
                a.items.len() == b.items.len()
                    && a.items
                        .iter()
                        .zip(&b.items)
                        .all(|(x, y)| x.key.value_eq(&y.key) && x.value.value_eq(&y.value))
            }
            (Node::Array(a), Node::Array(b)) => {
                a.items.len() == b.items.len()
                    && a.items
                        .iter()
                        .zip(&b.items)
                        .all(|(x, y)| x.value.value_eq(&y.value))
            }
            _ => self == other,
        }
    }
}

impl Map {
    pub fn get(&self, key: &Node) -> Option<&Node> {
        self.items
            .iter()
            .find(|i| i.key.value_eq(key))
            .map(|i| &i.value)
    }

    pub fn get_str(&self, key: &str) -> Option<&Node> {
        self.items
            .iter()
            .find(|i| matches!(&i.key, Node::Str(k) if k == key))
            .map(|i| &i.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_ids_are_interned_by_name() {
        let a: Arc<str> = Arc::from("node-test-a.yml");
        let a2: Arc<str> = Arc::from("node-test-a.yml");
        let b: Arc<str> = Arc::from("node-test-b.yml");
        let (ia, ib) = (FileId::of(&a), FileId::of(&b));
        assert_eq!(FileId::of(&a2), ia, "same name, another allocation");
        assert_eq!(FileId::of(&a), ia, "cached address");
        assert_ne!(ia, ib);
        assert_eq!(ia.name().as_deref(), Some("node-test-a.yml"));
        assert_eq!(ib.name().as_deref(), Some("node-test-b.yml"));
        assert!(FileId::default().is_none() && FileId::default().name().is_none());
        assert_eq!(Pos::new(&a2, 3).describe(), "node-test-a.yml:3");
        assert_eq!(Pos::unknown().describe(), "(unknown)");
    }
}
