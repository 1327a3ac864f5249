//! Applying overlay nodes: matching right items to left items, checking the expected
//! number of matches, the operations (merge, remove, replace, insert, append, assert,
//! noop) on values, and the annotation edits on matched nodes (see
//! [`super::annotations`]).

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use super::annotations::{Edits, Protected};
use super::errors::{OverlayError, Result};
use super::matching::{compare_subset, lines_suffix, parse_expects_str, Expects, Matcher};
use super::record::{self, Applied, MatchLog, Matched, Verdict};
use super::Host;
use crate::template::annotations::{
    OVERLAY_APPEND, OVERLAY_ASSERT, OVERLAY_INSERT, OVERLAY_MATCH, OVERLAY_MATCH_CHILD_DEFAULTS,
    OVERLAY_MATCH_CHILD_DEFAULTS_KEYWORDS, OVERLAY_MATCH_KEYWORDS, OVERLAY_MERGE, OVERLAY_NOOP,
    OVERLAY_REMOVE, OVERLAY_REPLACE,
};
use crate::yaml::keys::{self, KeyIndex};
use crate::yaml::{
    Annotation, Array, ArrayItem, Doc, DocSet, Map, MapItem, Meta, Node, Pos, ThinVec, ValueRef,
    Written,
};

/// How a map's items are found by key while another map is merged into it.
enum LeftKeys {
    /// Not looked for yet.
    Unbuilt,
    Built(KeyIndex),
    /// A scan for each: a small map, or one whose items moved.
    Scan,
}

/// True for the annotations the overlay engine interprets (`overlay/...`); they are left
/// out of nodes the engine adds to the result.
pub fn is_overlay_annotation(a: &Annotation) -> bool {
    a.name.starts_with("overlay/")
}

/// Applies one overlay document onto every document of `left`. Document indexes given to
/// matchers count across all document sets; appended documents (`@overlay/append`,
/// unmatched merges, `or_add`) go into the last document set.
pub fn apply_to_docsets<H: Host + ?Sized>(
    left: &mut Vec<DocSet>,
    overlay: &Doc,
    host: &mut H,
) -> Result<()> {
    Engine::new(host).doc(left, overlay)
}

/// Applies each document of `overlay`, in order, onto the documents of `left` (see
/// [`apply_to_docsets`]).
pub fn apply_docset<H: Host + ?Sized>(
    left: &mut Vec<DocSet>,
    overlay: &DocSet,
    host: &mut H,
) -> Result<()> {
    let mut e = Engine::new(host);
    for d in &overlay.docs {
        e.doc(left, d)?;
    }
    Ok(())
}

/// Applies an overlay node onto `left`: a right map merges into a left map, a right array
/// is applied item by item onto a left array, a scalar (or a collection over null)
/// replaces the left value.
/// `protected`: annotations the overlay may not edit.
pub fn apply_node<H: Host + ?Sized>(
    mut left: Node,
    right: &Node,
    protected: Option<Protected>,
    host: &mut H,
) -> Result<Node> {
    let mut e = Engine::new(host);
    e.protected = protected;
    let mut meta = Meta::default();
    e.merge_into(
        &mut left,
        &mut meta,
        right,
        &Meta::default(),
        &Defaults::default(),
    )?;
    Ok(left)
}

/// Applies a data-values (or schema) document onto the values so far (`left`, held by a
/// document with metadata `left_meta`): like [`apply_node`], with the document's own
/// `@overlay/match-child-defaults` applying to its items, and its annotation edits (and
/// `@overlay/noop`) to the document; errors name the document, as in overlay
/// post-processing. `protected`: annotations the overlay may not edit.
pub fn apply_doc_value<H: Host + ?Sized>(
    mut left: Node,
    left_meta: &mut Meta,
    (right, right_meta): (&Node, &Meta),
    protected: Option<Protected>,
    host: &mut H,
) -> Result<Node> {
    let mut e = Engine::new(host);
    e.protected = protected;
    let mut apply = || -> Result<()> {
        let defaults = e.child_defaults(right_meta, &Defaults::default())?;
        let (op, _) = e.op(right_meta)?;
        if op != Op::Noop {
            let mut meta = Meta::default();
            e.merge_into(&mut left, &mut meta, right, right_meta, &defaults)?;
        }
        if let Some(edits) = Edits::read(right_meta, e.host)? {
            edits.check(right_meta, protected)?;
            left_meta.annotations = edits.apply(&left_meta.annotations, right_meta);
        }
        Ok(())
    };
    apply().map_err(|err| {
        let frame = format!(
            "Document on line {}",
            describe(e.host.names(), &right_meta.pos)
        );
        err.within_node(frame, &right_meta.pos)
    })?;
    Ok(left)
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Merge,
    Remove,
    Replace,
    Insert,
    Append,
    Assert,
    /// The matched node's value stays as it is; only annotation edits apply.
    Noop,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Doc,
    MapItem,
    ArrayItem,
}

/// An expected number of matches; `when` expectations skip the node when unmet.
#[derive(Debug, Clone)]
struct Expectation {
    expects: Expects,
    when: bool,
}

/// Expectations set by `@overlay/match-child-defaults` for descendants.
#[derive(Debug, Clone, Default)]
struct Defaults(Option<Expectation>);

enum By {
    Native(Matcher),
    Func(ValueRef),
    /// Map items without `by`: key equality.
    KeyEq,
    /// Array items without `by`: nothing matches.
    Nothing,
}

struct MatchInfo {
    by: By,
    expectation: Expectation,
}

/// The arguments of the node's operation annotation.
#[derive(Default)]
struct OpArgs {
    via: Option<ValueRef>,
    or_add: bool,
    before: bool,
    after: bool,
}

/// A position as overlay errors name it: `file.yml:3`, or `?` when it is not known (a
/// node made in code, from a dict).
fn describe(names: &crate::yaml::FileNames, pos: &Pos) -> String {
    let at = names.locate(pos);
    match at.file {
        Some(_) => at.to_string(),
        None => "?".to_owned(),
    }
}

fn err<T>(msg: impl Into<String>) -> Result<T> {
    Err(OverlayError::new(msg))
}

fn unknown_kwarg(annotation: &str, kwarg: &str) -> String {
    format!("Unknown '{annotation}' annotation keyword argument '{kwarg}'")
}

/// A misspelt argument of a matching annotation (`expect=`) would silently change what
/// matches: it is an error.
fn known_kwargs(a: &Annotation, known: &[&str]) -> Result<()> {
    match a.kwargs.iter().find(|(k, _)| !known.contains(&k.as_str())) {
        Some((k, _)) => err(unknown_kwarg(&a.name, k)),
        None => Ok(()),
    }
}

/// A copy of `meta` without overlay annotations.
fn clean_meta(meta: &Meta) -> Meta {
    Meta {
        pos: meta.pos.clone(),
        comments: meta.comments.clone(),
        annotations: meta
            .annotations
            .iter()
            .filter(|a| !is_overlay_annotation(a))
            .cloned()
            .collect(),
    }
}

/// A copy of `n` whose items carry no overlay annotations.
fn clean(n: &Node) -> Node {
    n.copy_with_meta(&clean_meta)
}

/// Everything the annotations of one overlay node say, read once per application.
struct NodeInfo {
    op: Op,
    args: OpArgs,
    matching: MatchInfo,
    child_defaults: Defaults,
    /// How the annotations of each matched node change.
    edits: Option<Edits>,
}

impl NodeInfo {
    /// The annotations of a matched node after the edits (`right`: the overlay node's
    /// metadata); `None` when the node asks for none.
    fn edited(&self, left: &Meta, right: &Meta) -> Option<ThinVec<Arc<Annotation>>> {
        self.edits
            .as_ref()
            .map(|e| e.apply(&left.annotations, right))
    }

    /// Applies the edits to a matched node that stays.
    fn edit(&self, left: &mut Meta, right: &Meta) {
        if let Some(a) = self.edited(left, right) {
            left.annotations = a;
        }
    }

    /// The metadata of the node that replaces a matched one: the overlay node's, with the
    /// matched node's annotations edited when the overlay node asks for it.
    fn replacing(&self, left: &Meta, right: &Meta) -> Meta {
        let mut meta = clean_meta(right);
        if let Some(a) = self.edited(left, right) {
            meta.annotations = a;
        }
        meta
    }
}

struct Engine<'h, H: Host + ?Sized> {
    host: &'h mut H,
    /// Annotations already read, by the address of the overlay node's metadata (the
    /// overlay tree is borrowed, unchanged, for the engine's lifetime), so that an overlay
    /// applied to many documents reads its arguments once.
    infos: HashMap<*const Meta, Rc<NodeInfo>>,
    /// Annotations the overlay may not edit.
    protected: Option<Protected>,
    /// Where what each `@overlay/match` node matched is noted (a front end asked).
    log: Option<MatchLog>,
}

impl<'h, H: Host + ?Sized> Engine<'h, H> {
    fn new(host: &'h mut H) -> Self {
        let log = host.log();
        Engine {
            host,
            infos: HashMap::new(),
            protected: None,
            log,
        }
    }
}

impl<H: Host + ?Sized> Engine<'_, H> {
    /// `file.yml:3`, a position in a message.
    /// A position as overlay errors name it: `?` when it is not known (a node made in
    /// code from a dict).
    fn describe(&self, pos: &Pos) -> String {
        describe(self.host.names(), pos)
    }

    // ---- annotations -------------------------------------------------------------

    fn op(&mut self, meta: &Meta) -> Result<(Op, OpArgs)> {
        let mut found: Option<(Op, &Annotation)> = None;
        for a in &meta.annotations {
            let op = match a.name.as_str() {
                OVERLAY_MERGE => Op::Merge,
                OVERLAY_REMOVE => Op::Remove,
                OVERLAY_REPLACE => Op::Replace,
                OVERLAY_INSERT => Op::Insert,
                OVERLAY_APPEND => Op::Append,
                OVERLAY_ASSERT => Op::Assert,
                OVERLAY_NOOP => Op::Noop,
                _ => continue,
            };
            if found.is_some() {
                return err("Expected to find only one overlay operation");
            }
            found = Some((op, a));
        }
        let Some((op, ann)) = found else {
            return Ok((Op::Merge, OpArgs::default()));
        };
        let mut args = OpArgs::default();
        if matches!(op, Op::Merge | Op::Remove | Op::Append | Op::Noop) {
            // these take no arguments, and the reference ignores any it is given
            return Ok((op, args));
        }
        for (k, r) in &ann.kwargs {
            match (op, k.as_str()) {
                (Op::Replace | Op::Insert | Op::Assert, "via") => {
                    if !self.host.is_callable(*r)? {
                        let t = self.host.type_name(*r)?;
                        return err(format!(
                            "Expected '{}' annotation keyword argument 'via' to be function, but was {t}",
                            ann.name
                        ));
                    }
                    args.via = Some(*r);
                }
                (Op::Replace, "or_add") => args.or_add = self.bool_kwarg(&ann.name, k, *r)?,
                (Op::Insert, "before") => args.before = self.bool_kwarg(&ann.name, k, *r)?,
                (Op::Insert, "after") => args.after = self.bool_kwarg(&ann.name, k, *r)?,
                _ => return err(unknown_kwarg(&ann.name, k)),
            }
        }
        Ok((op, args))
    }

    fn bool_kwarg(&mut self, ann: &str, kwarg: &str, r: ValueRef) -> Result<bool> {
        match self.host.value(r) {
            Ok(Node::Bool(b)) => Ok(b),
            _ => {
                let t = self.host.type_name(r)?;
                err(format!(
                    "Expected '{ann}' annotation keyword argument '{kwarg}' to be a boolean, but was {t}"
                ))
            }
        }
    }

    /// The expectation an annotation (`overlay/match` or `overlay/match-child-defaults`)
    /// states, if any.
    fn expectation(&mut self, ann: &Annotation) -> Result<Option<Expectation>> {
        let given: Vec<&(String, ValueRef)> = ann
            .kwargs
            .iter()
            .filter(|(k, _)| matches!(k.as_str(), "expects" | "missing_ok" | "when"))
            .collect();
        if given.len() > 1 {
            // named in this order: missing_ok, expects, when
            let mut names: Vec<&str> = given.iter().map(|(k, _)| k.as_str()).collect();
            names.sort_by_key(|k| {
                ["missing_ok", "expects", "when"]
                    .iter()
                    .position(|n| n == k)
            });
            return err(format!(
                "Expected only one of keyword arguments ('{}', '{}') specified",
                names[0], names[1]
            ));
        }
        let Some((k, r)) = given.first().map(|(k, r)| (k.as_str(), *r)) else {
            return Ok(None);
        };
        if k == "missing_ok" {
            let ok = self.bool_kwarg(&ann.name, k, r)?;
            return Ok(Some(Expectation {
                expects: Expects::missing_ok(ok),
                when: false,
            }));
        }
        let expects = self.expects_value(&ann.name, k, r)?;
        Ok(Some(Expectation {
            expects,
            when: k == "when",
        }))
    }

    fn expects_value(&mut self, ann: &str, kwarg: &str, r: ValueRef) -> Result<Expects> {
        if self.host.is_callable(r)? {
            return Ok(Expects::Func(r));
        }
        let bad = |t: String| {
            OverlayError::new(format!(
                "Expected '{ann}' annotation keyword argument '{kwarg}' to be either int, string or function, but was {t}"
            ))
        };
        let v = match self.host.value(r) {
            Ok(v) => v,
            Err(_) => return Err(bad(self.host.type_name(r)?)),
        };
        let one = |v: &Node| -> Result<Expects> {
            match v {
                Node::Int(i) => Ok(Expects::Exactly(i64::try_from(i.get()).unwrap_or(i64::MAX))),
                Node::Str(s) => parse_expects_str(s, kwarg).map_err(OverlayError::new),
                other => Err(bad(format!("starlark.{}", other.type_name()))),
            }
        };
        match &v {
            Node::Array(a) => {
                let mut alts = Vec::with_capacity(a.items.len());
                for i in &a.items {
                    alts.push(one(&i.value)?);
                }
                Ok(Expects::OneOf(alts))
            }
            Node::Int(_) | Node::Str(_) => one(&v),
            _ => Err(bad(self.host.type_name(r)?)),
        }
    }

    fn child_defaults(&mut self, meta: &Meta, inherited: &Defaults) -> Result<Defaults> {
        match meta.annotation(OVERLAY_MATCH_CHILD_DEFAULTS) {
            Some(a) => match known_kwargs(a, OVERLAY_MATCH_CHILD_DEFAULTS_KEYWORDS)
                .and_then(|()| self.expectation(a))?
            {
                Some(e) => Ok(Defaults(Some(e))),
                None => Ok(inherited.clone()),
            },
            None => Ok(inherited.clone()),
        }
    }

    fn match_info(&mut self, meta: &Meta, kind: Kind, defaults: &Defaults) -> Result<MatchInfo> {
        let ann = meta.annotation(OVERLAY_MATCH);
        if let Some(a) = ann {
            known_kwargs(a, OVERLAY_MATCH_KEYWORDS)?;
        }
        if let (Kind::Doc, Some(a)) = (kind, ann) {
            if a.kwargs.is_empty() {
                return err(
                    "Expected 'overlay/match' annotation to have at least one keyword argument (by=..., expects=...)",
                );
            }
        }
        let by = match ann.and_then(|a| a.kwarg("by")) {
            Some(r) => self.by(r, kind)?,
            None => match kind {
                Kind::Doc => By::Native(Matcher::All),
                Kind::MapItem => By::KeyEq,
                Kind::ArrayItem => By::Nothing,
            },
        };
        let own = match ann {
            Some(a) => self.expectation(a)?,
            None => None,
        };
        let expectation = own.or_else(|| defaults.0.clone()).unwrap_or(Expectation {
            expects: Expects::Exactly(1),
            when: false,
        });
        Ok(MatchInfo { by, expectation })
    }

    fn by(&mut self, r: ValueRef, kind: Kind) -> Result<By> {
        if let Some(m) = self.host.matcher(r)? {
            return Ok(By::Native(m));
        }
        if self.host.is_callable(r)? {
            return Ok(By::Func(r));
        }
        if kind != Kind::Doc {
            if let Ok(Node::Str(s)) = self.host.value(r) {
                return Ok(By::Native(Matcher::MapKey(Node::Str(s))));
            }
        }
        let t = self.host.type_name(r)?;
        err(format!(
            "Expected 'overlay/match' annotation keyword argument 'by' to be function, but was {t}"
        ))
    }

    /// Whether `left` (at `index_or_key`) is matched by `by` for the overlay node `right`.
    fn test(&mut self, by: &By, index_or_key: &Node, left: &Node, right: &Node) -> Result<bool> {
        match by {
            By::Native(m) => m
                .matches(index_or_key, left, right)
                .map_err(|e| OverlayError::nested(e.matcher, OverlayError::new(e.message))),
            By::Func(r) => match self.host.call(*r, &[index_or_key, left, right])? {
                Node::Bool(b) => Ok(b),
                other => err(format!(
                    "Expected 'overlay/match' annotation keyword argument 'by' function to return a boolean, but was {}",
                    other.type_name()
                )),
            },
            By::KeyEq => Ok(false),
            By::Nothing => Ok(false),
        }
    }

    /// Notes an application of `right` (`matched`: the nodes it matched, `go`: what
    /// [`Self::expect`] said of them) when it is annotated `@overlay/match`; called only
    /// when asked (`self.log`), out of the way of the engine's own work.
    #[cold]
    #[inline(never)]
    fn note<'n>(
        &self,
        right: &Meta,
        e: &Expectation,
        matched: impl Iterator<Item = (&'n Node, &'n Meta)>,
        go: &Result<bool>,
    ) {
        let Some(log) = self
            .log
            .as_ref()
            .filter(|_| right.has_annotation(OVERLAY_MATCH))
        else {
            return;
        };
        let names = self.host.names();
        let verdict = match go {
            Ok(true) => Verdict::Applied,
            Ok(false) => Verdict::Skipped,
            Err(err) => Verdict::Failed(err.inline()),
        };
        let when = if e.when { "when " } else { "" };
        log.push(Applied {
            overlay: names.locate(&right.pos),
            matched: (matched.map(|(n, m)| Matched {
                at: names.locate(&m.pos),
                about: record::about(n),
            }))
            .collect(),
            expects: format!("{when}{}", record::written(&e.expects)),
            verdict,
        });
    }

    /// Checks the number of matches: Ok(true) to go on, Ok(false) to skip the node (an
    /// unmet `when`).
    fn expect(&mut self, e: &Expectation, positions: &[&Pos]) -> Result<bool> {
        let n = positions.len() as i64;
        if self.met(&e.expects, n)? {
            return Ok(true);
        }
        if e.when {
            return Ok(false);
        }
        if let Expects::Func(_) = e.expects {
            return err(format!(
                "Expectation of number of matched nodes failed{}",
                lines_suffix(self.host.names(), positions)
            ));
        }
        err(format!(
            "Expected number of matched nodes to be {}, but was {n}{}",
            e.expects.describe(),
            lines_suffix(self.host.names(), positions)
        ))
    }

    fn met(&mut self, e: &Expects, n: i64) -> Result<bool> {
        Ok(match e {
            Expects::Exactly(x) => n == *x,
            Expects::AtLeast(x) => n >= *x,
            Expects::OneOf(alts) => {
                for a in alts {
                    if self.met(a, n)? {
                        return Ok(true);
                    }
                }
                false
            }
            Expects::Func(r) => match self.host.call(*r, &[&Node::Int(n.into())])? {
                Node::Bool(b) => b,
                _ => return err(
                    "Expected keyword argument 'expects' to have a function that returns a boolean",
                ),
            },
        })
    }

    /// The node's operation, matching and child defaults (cached per node).
    fn node_info(&mut self, meta: &Meta, kind: Kind, defaults: &Defaults) -> Result<Rc<NodeInfo>> {
        let key = meta as *const Meta;
        if let Some(i) = self.infos.get(&key) {
            return Ok(i.clone());
        }
        let (op, args) = self.op(meta)?;
        if kind == Kind::MapItem && matches!(op, Op::Insert | Op::Append) {
            let name = if op == Op::Insert { "insert" } else { "append" };
            return err(format!(
                "Found @overlay/{name} on map item ({}); only array items can be annotated with @overlay/{name}",
                self.describe(&meta.pos)
            ));
        }
        let matching = if op == Op::Append
            || (kind == Kind::ArrayItem && !meta.has_annotation(OVERLAY_MATCH))
        {
            // appended, or an unannotated array item: matches nothing, merging appends
            MatchInfo {
                by: By::Nothing,
                expectation: Expectation {
                    expects: Expects::Exactly(0),
                    when: false,
                },
            }
        } else {
            self.match_info(meta, kind, defaults)?
        };
        let child_defaults = self.child_defaults(meta, defaults)?;
        let edits = Edits::read(meta, self.host)?;
        if let Some(e) = &edits {
            e.check(meta, self.protected)?;
        }
        if edits.is_some() && matches!(op, Op::Remove | Op::Insert | Op::Append) {
            let name = match op {
                Op::Remove => "remove",
                Op::Insert => "insert",
                _ => "append",
            };
            return err(format!(
                "Found an annotation edit (@overlay/replace-ann, @overlay/merge-anns or @overlay/remove-anns) with @overlay/{name} ({}); annotations are edited on a matched node that stays: use @overlay/merge, @overlay/replace, @overlay/assert or @overlay/noop",
                self.describe(&meta.pos)
            ));
        }
        let info = Rc::new(NodeInfo {
            op,
            args,
            matching,
            child_defaults,
            edits,
        });
        self.infos.insert(key, info.clone());
        Ok(info)
    }

    // ---- operations ----------------------------------------------------------------

    /// The value a `replace` (or `insert`) puts in place of `left`.
    fn new_value(&mut self, via: Option<ValueRef>, left: &Node, right: &Node) -> Result<Node> {
        match via {
            Some(r) => Ok(self.host.call(r, &[left, right])?),
            None => Ok(clean(right)),
        }
    }

    fn assert(&mut self, via: Option<ValueRef>, left: &Node, right: &Node) -> Result<()> {
        let Some(r) = via else {
            return compare_subset(left, right).map_err(|m| {
                OverlayError::new(format!("Expected objects to equal, but did not: {m}"))
            });
        };
        match self.host.call(r, &[left, right])? {
            Node::Null | Node::Bool(true) => Ok(()),
            Node::Bool(false) => err("Expected via invocation to return true, but was false"),
            Node::Array(a) if a.items.len() == 2 => match (&a.items[0].value, &a.items[1].value) {
                (Node::Bool(true), Node::Str(_)) => Ok(()),
                (Node::Bool(false), Node::Str(msg)) => err(format!(
                    "Expected via invocation to return true, but was false with message: {msg}"
                )),
                _ => err(
                    "Expected via invocation to return NoneType, Bool or Tuple(Bool,String), but returned neither of those",
                ),
            },
            _ => err(
                "Expected via invocation to return NoneType, Bool or Tuple(Bool,String), but returned neither of those",
            ),
        }
    }

    /// After an assertion, the overlay's children still apply to the left node.
    fn descend(&mut self, left: &mut Node, right: &Node, defaults: &Defaults) -> Result<()> {
        match (left, right) {
            (Node::Map(l), Node::Map(r)) => self.merge_map(l, r, defaults),
            (Node::Array(l), Node::Array(r)) => self.merge_array(l, r, defaults),
            _ => Ok(()),
        }
    }

    /// Merges `right` into `left`: maps recursively, arrays item by item; anything else
    /// (or anything over null) replaces the left value, which then takes the right item's
    /// position.
    fn merge_into(
        &mut self,
        left: &mut Node,
        left_meta: &mut Meta,
        right: &Node,
        right_meta: &Meta,
        defaults: &Defaults,
    ) -> Result<()> {
        match (right, &mut *left) {
            (Node::Map(r), Node::Map(l)) => self.merge_map(l, r, defaults),
            (Node::Array(r), Node::Array(l)) => self.merge_array(l, r, defaults),
            (Node::Map(_), l) if !l.is_null() => {
                err(format!("Expected map, but was {}", l.type_name()))
            }
            (Node::Array(_), l) if !l.is_null() => {
                err(format!("Expected array, but was {}", l.type_name()))
            }
            _ => {
                *left = clean(right);
                left_meta.pos = right_meta.pos.clone();
                Ok(())
            }
        }
    }

    fn merge_map(&mut self, left: &mut Map, right: &Map, defaults: &Defaults) -> Result<()> {
        // the left map's keys, indexed when many items look for theirs
        let mut index = LeftKeys::Unbuilt;
        for ri in &right.items {
            let lookups = right.items.len();
            self.map_item(left, ri, defaults, &mut index, lookups)
                .map_err(|e| {
                    let frame = format!(
                        "Map item (key '{}') on line {}",
                        crate::yaml::emit::key_go(&ri.key),
                        self.describe(&ri.meta.pos)
                    );
                    e.within_node(frame, &ri.meta.pos)
                })?;
        }
        Ok(())
    }

    fn map_item(
        &mut self,
        left: &mut Map,
        ri: &MapItem,
        defaults: &Defaults,
        index: &mut LeftKeys,
        lookups: usize,
    ) -> Result<()> {
        let ni = self.node_info(&ri.meta, Kind::MapItem, defaults)?;
        let info = &ni.matching;
        let mut idxs = Vec::new();
        match &info.by {
            By::KeyEq => {
                if let LeftKeys::Unbuilt = index {
                    *index = match KeyIndex::for_lookups(left, lookups) {
                        Some(built) => LeftKeys::Built(built),
                        None => LeftKeys::Scan,
                    };
                }
                let built = match index {
                    LeftKeys::Built(built) => Some(&*built),
                    _ => None,
                };
                idxs = keys::positions(left, built, &ri.key);
            }
            by => {
                for (i, li) in left.items.iter().enumerate() {
                    if self.test(by, &li.key, &li.value, &ri.value)? {
                        idxs.push(i);
                    }
                }
            }
        }
        let positions: Vec<&Pos> = idxs.iter().map(|&i| &left.items[i].meta.pos).collect();
        let go = self.expect(&info.expectation, &positions);
        if self.log.is_some() {
            let matched = (idxs.iter()).map(|&i| (&left.items[i].value, &left.items[i].meta));
            self.note(&ri.meta, &info.expectation, matched, &go);
        }
        if !go? {
            return Ok(());
        }
        let before = left.items.len();
        // an item matched by `by=` may be replaced by one of another key
        let rekeys = ni.op == Op::Replace && !matches!(info.by, By::KeyEq);
        self.edit_items(&mut left.items, ri, idxs, &ni)?;
        if let LeftKeys::Built(built) = index {
            if rekeys || left.items.len() < before {
                // items moved or changed keys: the rest of this map is scanned, as a map
                // whose keys are removed one by one would be rebuilt for each
                *index = LeftKeys::Scan;
            } else {
                for (at, item) in left.items.iter().enumerate().skip(before) {
                    built.add(&item.key, at);
                }
            }
        }
        Ok(())
    }

    fn merge_array(&mut self, left: &mut Array, right: &Array, defaults: &Defaults) -> Result<()> {
        for ri in &right.items {
            self.array_item(left, ri, defaults).map_err(|e| {
                let frame = format!("Array item on line {}", self.describe(&ri.meta.pos));
                e.within_node(frame, &ri.meta.pos)
            })?;
        }
        Ok(())
    }

    fn array_item(&mut self, left: &mut Array, ri: &ArrayItem, defaults: &Defaults) -> Result<()> {
        let ni = self.node_info(&ri.meta, Kind::ArrayItem, defaults)?;
        let (op, args, info) = (ni.op, &ni.args, &ni.matching);
        if op == Op::Append {
            push_compact(
                &mut left.items,
                ArrayItem {
                    value: clean(&ri.value),
                    meta: clean_meta(&ri.meta),
                },
            );
            return Ok(());
        }
        let mut idxs = Vec::new();
        if !matches!(info.by, By::Nothing) {
            for (i, li) in left.items.iter().enumerate() {
                if self.test(
                    &info.by,
                    &Node::Int((i as u64).into()),
                    &li.value,
                    &ri.value,
                )? {
                    idxs.push(i);
                }
            }
        }
        let positions: Vec<&Pos> = idxs.iter().map(|&i| &left.items[i].meta.pos).collect();
        let go = self.expect(&info.expectation, &positions);
        if self.log.is_some() {
            let matched = (idxs.iter()).map(|&i| (&left.items[i].value, &left.items[i].meta));
            self.note(&ri.meta, &info.expectation, matched, &go);
        }
        if !go? {
            return Ok(());
        }
        if op != Op::Insert {
            return self.edit_items(&mut left.items, ri, idxs, &ni);
        }
        if idxs.is_empty() || !(args.before || args.after) {
            return Ok(());
        }
        let old = std::mem::take(&mut left.items);
        let mut out = ThinVec::with_capacity(old.len() + 2 * idxs.len());
        let mut next = idxs.iter().copied().peekable();
        for (i, item) in old.into_iter().enumerate() {
            if next.peek() == Some(&i) {
                next.next();
                let value = match self.new_value(args.via, &item.value, &ri.value) {
                    Ok(v) => v,
                    Err(e) => {
                        left.items = out;
                        return Err(e);
                    }
                };
                let new = ArrayItem {
                    value,
                    meta: clean_meta(&ri.meta),
                };
                if args.before && args.after {
                    out.push(new.clone());
                    out.push(item);
                    out.push(new);
                } else if args.before {
                    out.push(new);
                    out.push(item);
                } else {
                    out.push(item);
                    out.push(new);
                }
            } else {
                out.push(item);
            }
        }
        left.items = out;
        Ok(())
    }

    /// What `op` does to the items of a map or an array that `ri` matched (`idxs`), or
    /// without a match: merge (or add), remove, replace (or add), assert, nothing.
    /// Insertion and appending are an array's own.
    fn edit_items<I: Item>(
        &mut self,
        items: &mut ThinVec<I>,
        ri: &I,
        idxs: Vec<usize>,
        ni: &NodeInfo,
    ) -> Result<()> {
        let (args, child_defaults) = (&ni.args, &ni.child_defaults);
        match ni.op {
            Op::Merge => {
                if idxs.is_empty() {
                    push_compact(items, ri.like(clean(ri.value()), clean_meta(ri.meta())));
                }
                for i in idxs {
                    let (value, meta) = items[i].parts_mut();
                    self.merge_into(value, meta, ri.value(), ri.meta(), child_defaults)?;
                    ni.edit(meta, ri.meta());
                }
            }
            Op::Remove => {
                for i in idxs.into_iter().rev() {
                    items.remove(i);
                }
            }
            Op::Replace => {
                if idxs.is_empty() && args.or_add {
                    let value = self.new_value(args.via, &Node::Null, ri.value())?;
                    push_compact(items, ri.like(value, clean_meta(ri.meta())));
                }
                // the whole item is replaced: the right item's key (an item matched by
                // `by=` may get a new one) and its annotations (a schema's replaced rules
                // do not survive, unless the item edits them), not only its value
                for i in idxs {
                    let value = self.new_value(args.via, items[i].value(), ri.value())?;
                    let meta = ni.replacing(items[i].meta(), ri.meta());
                    items[i] = ri.like(value, meta);
                }
            }
            Op::Assert => {
                for i in idxs {
                    self.assert(args.via, items[i].value(), ri.value())?;
                    let (value, meta) = items[i].parts_mut();
                    self.descend(value, ri.value(), child_defaults)?;
                    ni.edit(meta, ri.meta());
                }
            }
            Op::Noop => {
                for i in idxs {
                    ni.edit(items[i].parts_mut().1, ri.meta());
                }
            }
            Op::Insert | Op::Append => {}
        }
        Ok(())
    }

    fn doc(&mut self, left: &mut Vec<DocSet>, rd: &Doc) -> Result<()> {
        self.doc_inner(left, rd).map_err(|e| {
            let frame = format!("Document on line {}", self.describe(&rd.meta.pos));
            e.within_node(frame, &rd.meta.pos)
        })
    }

    fn push_doc(left: &mut Vec<DocSet>, doc: Doc) {
        if left.is_empty() {
            left.push(DocSet::default());
        }
        if let Some(last) = left.last_mut() {
            last.docs.push(doc);
        }
    }

    fn doc_inner(&mut self, left: &mut Vec<DocSet>, rd: &Doc) -> Result<()> {
        let ni = self.node_info(&rd.meta, Kind::Doc, &Defaults::default())?;
        let (op, args, info, child_defaults) = (ni.op, &ni.args, &ni.matching, &ni.child_defaults);
        let new_doc = |value: Node| Doc {
            value,
            meta: clean_meta(&rd.meta),
            computed: rd.computed,
            written: Written::default(),
        };
        if op == Op::Append {
            Self::push_doc(left, new_doc(clean(&rd.value)));
            return Ok(());
        }
        // (docset, doc) of each matched document, in order
        let mut idxs: Vec<(usize, usize)> = Vec::new();
        let mut global = 0i64;
        for (s, set) in left.iter().enumerate() {
            for (d, doc) in set.docs.iter().enumerate() {
                if self.test(&info.by, &Node::Int(global.into()), &doc.value, &rd.value)? {
                    idxs.push((s, d));
                }
                global += 1;
            }
        }
        let positions: Vec<&Pos> = idxs
            .iter()
            .map(|&(s, d)| &left[s].docs[d].meta.pos)
            .collect();
        let go = self.expect(&info.expectation, &positions);
        if self.log.is_some() {
            let matched =
                (idxs.iter()).map(|&(s, d)| (&left[s].docs[d].value, &left[s].docs[d].meta));
            self.note(&rd.meta, &info.expectation, matched, &go);
        }
        if !go? {
            return Ok(());
        }
        match op {
            // Documents are added only by append, insert and `replace or_add=True`: a
            // merge (or remove) that matches no document leaves the set as it is.
            Op::Merge => {
                for (s, d) in idxs {
                    let doc = &mut left[s].docs[d];
                    self.merge_into(
                        &mut doc.value,
                        &mut doc.meta,
                        &rd.value,
                        &rd.meta,
                        child_defaults,
                    )?;
                    ni.edit(&mut doc.meta, &rd.meta);
                }
            }
            Op::Remove => Self::remove_docs(left, &idxs),
            Op::Replace => {
                if idxs.is_empty() && args.or_add {
                    let value = self.new_value(args.via, &Node::Null, &rd.value)?;
                    Self::push_doc(left, new_doc(value));
                }
                // the whole document is replaced, its annotations included (unless edited)
                for (s, d) in idxs {
                    let old = &left[s].docs[d];
                    let value = self.new_value(args.via, &old.value, &rd.value)?;
                    let meta = ni.replacing(&old.meta, &rd.meta);
                    left[s].docs[d] = Doc {
                        meta,
                        ..new_doc(value)
                    };
                }
            }
            Op::Insert => self.insert_docs(left, &idxs, args, &rd.value, &new_doc)?,
            Op::Assert => {
                for (s, d) in idxs {
                    let doc = &mut left[s].docs[d];
                    self.assert(args.via, &doc.value, &rd.value)?;
                    self.descend(&mut doc.value, &rd.value, child_defaults)?;
                    ni.edit(&mut doc.meta, &rd.meta);
                }
            }
            Op::Noop => {
                for (s, d) in idxs {
                    ni.edit(&mut left[s].docs[d].meta, &rd.meta);
                }
            }
            Op::Append => {}
        }
        Ok(())
    }

    /// Removes the documents at `idxs` (in order).
    fn remove_docs(left: &mut [DocSet], idxs: &[(usize, usize)]) {
        let mut k = 0;
        for (s, set) in left.iter_mut().enumerate() {
            if idxs.get(k).is_none_or(|&(ms, _)| ms != s) {
                continue;
            }
            let mut d = 0;
            set.docs.retain(|_| {
                let remove = idxs.get(k) == Some(&(s, d));
                if remove {
                    k += 1;
                }
                d += 1;
                !remove
            });
        }
    }

    /// Inserts a new document before and/or after each document at `idxs` (in order).
    fn insert_docs(
        &mut self,
        left: &mut [DocSet],
        idxs: &[(usize, usize)],
        args: &OpArgs,
        right: &Node,
        new_doc: &dyn Fn(Node) -> Doc,
    ) -> Result<()> {
        if !(args.before || args.after) {
            return Ok(());
        }
        let mut k = 0;
        for (s, set) in left.iter_mut().enumerate() {
            if idxs.get(k).is_none_or(|&(ms, _)| ms != s) {
                continue;
            }
            let old = std::mem::take(&mut set.docs);
            let mut out = Vec::with_capacity(old.len() + 2);
            let mut failed = None;
            for (d, doc) in old.into_iter().enumerate() {
                if failed.is_none() && idxs.get(k) == Some(&(s, d)) {
                    k += 1;
                    match self.new_value(args.via, &doc.value, right) {
                        Ok(value) => {
                            let new = new_doc(value);
                            if args.before && args.after {
                                out.push(new.clone());
                                out.push(doc);
                                out.push(new);
                            } else if args.before {
                                out.push(new);
                                out.push(doc);
                            } else {
                                out.push(doc);
                                out.push(new);
                            }
                            continue;
                        }
                        Err(e) => failed = Some(e),
                    }
                }
                out.push(doc);
            }
            set.docs = out;
            if let Some(e) = failed {
                return Err(e);
            }
        }
        Ok(())
    }
}

/// A map item or an array item, as the operations of an overlay edit them alike.
trait Item: Sized {
    fn value(&self) -> &Node;
    fn meta(&self) -> &Meta;
    fn parts_mut(&mut self) -> (&mut Node, &mut Meta);
    /// An item in this one's place (with its key, for a map item) holding `value`.
    fn like(&self, value: Node, meta: Meta) -> Self;
}

impl Item for MapItem {
    fn value(&self) -> &Node {
        &self.value
    }
    fn meta(&self) -> &Meta {
        &self.meta
    }
    fn parts_mut(&mut self) -> (&mut Node, &mut Meta) {
        (&mut self.value, &mut self.meta)
    }
    fn like(&self, value: Node, meta: Meta) -> Self {
        MapItem {
            key: self.key.clone(),
            value,
            meta,
        }
    }
}

impl Item for ArrayItem {
    fn value(&self) -> &Node {
        &self.value
    }
    fn meta(&self) -> &Meta {
        &self.meta
    }
    fn parts_mut(&mut self) -> (&mut Node, &mut Meta) {
        (&mut self.value, &mut self.meta)
    }
    fn like(&self, value: Node, meta: Meta) -> Self {
        ArrayItem { value, meta }
    }
}

/// Pushes without doubling the vector: overlays add a few items to many small maps and
/// arrays (parsed at their exact size), and doubling each would cost more memory than the
/// edited documents themselves. Growth stays geometric (×1.25).
fn push_compact<T>(items: &mut ThinVec<T>, item: T) {
    if items.len() == items.capacity() {
        items.reserve_exact(1 + items.len() / 4);
    }
    items.push(item);
}
