//! The YAML node tree shared by every pipeline step: parsed templates, plain YAML inputs,
//! evaluated output documents and data values. Items (documents, map items, array items)
//! carry metadata: where they came from and the comments attached to them.

use std::fmt;
use std::sync::{Arc, Mutex};

pub use thin_vec::ThinVec;

/// A file name, interned in the run's [`FileNames`]. Every item carries a position: an id
/// instead of a shared string makes each item 16 bytes smaller and copying a position
/// free of atomic reference counting (measured on bench/fleet and bench/overlays).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FileId(u32);

impl FileId {
    pub fn is_none(self) -> bool {
        self.0 == 0
    }
}

/// The file names of one run: what a [`FileId`] stands for. A run makes its own table
/// (runs share nothing), gives every file its id before parsing it (the parser copies the
/// id into each position), and reports name positions through it. Clones share the table.
#[derive(Clone, Default)]
pub struct FileNames(Arc<Mutex<Names>>);

/// The interned names; id `n` is `names[n - 1]` (0: no file).
#[derive(Default)]
struct Names {
    names: Vec<Arc<str>>,
    ids: std::collections::HashMap<Arc<str>, u32>,
}

impl FileNames {
    /// The id of file `name`, the same for every call with an equal name.
    pub fn id(&self, name: &str) -> FileId {
        let mut t = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&id) = t.ids.get(name) {
            return FileId(id);
        }
        let name: Arc<str> = Arc::from(name);
        t.names.push(name.clone());
        let id = t.names.len() as u32;
        t.ids.insert(name, id);
        FileId(id)
    }

    /// The name of file `id`: none for [`FileId::default`] or an id of another table.
    pub fn name(&self, id: FileId) -> Option<Arc<str>> {
        let i = (id.0 as usize).checked_sub(1)?;
        let t = self.0.lock().unwrap_or_else(|e| e.into_inner());
        t.names.get(i).cloned()
    }

    /// A position with its file's name.
    pub fn locate(&self, pos: &Pos) -> Location {
        Location {
            file: self.name(pos.file),
            line: pos.line,
            column: None,
        }
    }

    /// A position as reports print it (see [`Location`]'s `Display`).
    pub fn describe(&self, pos: &Pos) -> String {
        self.locate(pos).to_string()
    }

    /// A position on line `line` of file `name`.
    pub fn pos(&self, name: &str, line: u32) -> Pos {
        Pos {
            file: self.id(name),
            line,
        }
    }
}

impl fmt::Debug for FileNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.0.lock().unwrap_or_else(|e| e.into_inner());
        f.debug_list().entries(t.names.iter()).finish()
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
    pub fn new(file: FileId, line: u32) -> Self {
        Pos { file, line }
    }

    pub fn unknown() -> Self {
        Pos::default()
    }

    pub fn is_known(&self) -> bool {
        !self.file.is_none() && self.line > 0
    }
}

/// A position resolved against its run's file names: what outlives the run (a schema
/// export, a report) holds. Displays as reports print positions: `file.yml:12`, the bare
/// name for line 0, `(unknown)` for no file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Location {
    pub file: Option<Arc<str>>,
    /// 1-based; 0: the file as a whole.
    pub line: u32,
    /// 1-based, in characters, where the step that made it knows it (a YAML syntax
    /// error); not displayed (reports name lines only).
    pub column: Option<u32>,
}

impl Location {
    /// Line `line` of file `file`.
    pub fn new(file: &str, line: u32) -> Location {
        Location {
            file: Some(Arc::from(file)),
            line,
            column: None,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            Some(name) if self.line > 0 => write!(f, "{name}:{}", self.line),
            Some(name) => f.write_str(name),
            None => f.write_str("(unknown)"),
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

/// Adds an annotation written on a node. A node holds one annotation of each name: one
/// written after another of the same name replaces it, in its place, as the reference
/// keeps the last (both are evaluated, in order, before).
pub fn put_annotation(annotations: &mut ThinVec<Arc<Annotation>>, a: Arc<Annotation>) {
    match annotations.iter_mut().find(|b| b.name == a.name) {
        Some(b) => *b = a,
        None => annotations.push(a),
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

/// Items in a thin vector (one pointer): a [`Node`] is 24 bytes, a map item 72.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Map {
    pub items: ThinVec<MapItem>,
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
    pub items: ThinVec<ArrayItem>,
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
    /// The document's YAML text when it was written ahead (`emit::AheadWriter`), to be
    /// used as long as the value is what was written: a step that edits a written
    /// document (applying overlays) drops it.
    pub written: Written,
}

/// A document's text written ahead of the output ([`Doc::written`]). A cache: two
/// documents are equal or not whatever their texts.
#[derive(Clone, Debug, Default)]
pub struct Written(Option<String>);

impl Written {
    pub fn new(text: String) -> Self {
        Written(Some(text))
    }

    pub fn text(&self) -> Option<&str> {
        self.0.as_deref()
    }
}

impl PartialEq for Written {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Doc {
    /// A document as written in YAML.
    pub fn new(value: Node, meta: Meta) -> Self {
        Doc {
            value,
            meta,
            computed: false,
            written: Written::default(),
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

    /// The type name the reference uses in messages about nodes (`integer`, `map`, …;
    /// the other vocabularies are in `typenames`).
    pub fn type_name(&self) -> &'static str {
        match self {
            Node::Null => "null",
            Node::Bool(_) => "boolean",
            Node::Int(_) => "integer",
            Node::Float(_) => "float",
            Node::Str(_) => "string",
            Node::Map(_) => "map",
            Node::Array(_) => "array",
        }
    }

    /// Compare two nodes by value only (ignoring metadata); ints and floats compare
    /// numerically, as Starlark's `==` does (validations' rules, schema lookups).
    pub fn value_eq(&self, other: &Node) -> bool {
        self.eq_by(other, true)
    }

    /// Compare two nodes by value only (ignoring metadata) as the overlay engine matches
    /// them: an integer never equals a float, whatever their values (the reference's
    /// matchers compare Go values: `map_key` and `subset` do not match `1` with `1.0`,
    /// nor a map item's key `1` with `1.0`).
    pub fn same_as(&self, other: &Node) -> bool {
        self.eq_by(other, false)
    }

    fn eq_by(&self, other: &Node, numbers_cross: bool) -> bool {
        match (self, other) {
            (Node::Int(a), Node::Float(b)) | (Node::Float(b), Node::Int(a)) => {
                numbers_cross && (a.get() as f64) == *b
            }
            (Node::Map(a), Node::Map(b)) => {
                a.items.len() == b.items.len()
                    && a.items.iter().zip(&b.items).all(|(x, y)| {
                        x.key.eq_by(&y.key, numbers_cross) && x.value.eq_by(&y.value, numbers_cross)
                    })
            }
            (Node::Array(a), Node::Array(b)) => {
                a.items.len() == b.items.len()
                    && (a.items.iter())
                        .zip(&b.items)
                        .all(|(x, y)| x.value.eq_by(&y.value, numbers_cross))
            }
            _ => self == other,
        }
    }
}

impl Map {
    pub fn get(&self, key: &Node) -> Option<&Node> {
        self.get_by(key, Node::value_eq)
    }

    /// The value of the item whose key is `key` as the overlay engine finds keys
    /// ([`Node::same_as`]).
    pub fn get_same(&self, key: &Node) -> Option<&Node> {
        self.get_by(key, Node::same_as)
    }

    fn get_by(&self, key: &Node, eq: fn(&Node, &Node) -> bool) -> Option<&Node> {
        self.items
            .iter()
            .find(|i| eq(&i.key, key))
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

    /// Output trees hold hundreds of thousands of items, each written to fresh memory:
    /// the string's spare tag values hold the other variants (a map or an array is one
    /// pointer), so a node is no larger than its string.
    #[test]
    fn nodes_and_items_stay_small() {
        use std::mem::size_of;
        assert_eq!(size_of::<Node>(), 24);
        assert_eq!(size_of::<MapItem>(), 72);
        assert_eq!(size_of::<ArrayItem>(), 48);
    }

    #[test]
    fn file_ids_are_interned_by_name_in_their_own_table() {
        let names = FileNames::default();
        let (a, b) = (names.id("node-test-a.yml"), names.id("node-test-b.yml"));
        assert_eq!(names.id(&String::from("node-test-a.yml")), a);
        assert_ne!(a, b);
        assert_eq!(names.name(a).as_deref(), Some("node-test-a.yml"));
        assert_eq!(names.name(b).as_deref(), Some("node-test-b.yml"));
        assert!(FileId::default().is_none() && names.name(FileId::default()).is_none());
        assert_eq!(names.describe(&Pos::new(a, 3)), "node-test-a.yml:3");
        assert_eq!(names.describe(&Pos::new(a, 0)), "node-test-a.yml");
        assert_eq!(names.describe(&Pos::unknown()), "(unknown)");
        // another run's table knows nothing of these ids, and numbers its own
        let other = FileNames::default();
        assert!(other.name(b).is_none());
        assert_eq!(other.describe(&Pos::new(b, 1)), "(unknown)");
        assert_eq!(
            other.id("node-test-b.yml"),
            a,
            "ids count from 1 in every table"
        );
        // clones share the table
        let shared = names.clone();
        let c = shared.id("node-test-c.yml");
        assert_eq!(names.name(c).as_deref(), Some("node-test-c.yml"));
    }

    #[test]
    fn a_later_annotation_replaces_one_of_the_same_name_in_its_place() {
        let ann = |name: &str, line| {
            Arc::new(Annotation::new(
                name,
                Pos::new(FileId::default(), line),
                vec![],
                vec![],
            ))
        };
        let mut anns = ThinVec::new();
        put_annotation(&mut anns, ann("overlay/match", 1));
        put_annotation(&mut anns, ann("overlay/replace", 2));
        put_annotation(&mut anns, ann("overlay/match", 3));
        let got: Vec<(&str, u32)> = anns.iter().map(|a| (a.name.as_str(), a.pos.line)).collect();
        assert_eq!(got, [("overlay/match", 3), ("overlay/replace", 2)]);
    }
}
