//! `@ytt:overlay`: `apply(left, *rights)` and the matchers `all`, `index(i)`,
//! `map_key(name)`, `subset(expected)`, `and_op(...)`, `or_op(...)`, `not_op(m)`.
//!
//! Matchers are native callables (`m(index_or_key, left, right) -> bool`); the engine
//! recognises them through [`EvalHost`] and runs them without calling back into Starlark.
//! [`EvalHost`] is the overlay engine's [`Host`] over a running evaluator: it resolves
//! annotation arguments (`ValueRef`s) through the template runtime and calls them.

use std::fmt;

use allocative::Allocative;
use anyhow::{anyhow, bail};
use starlark::any::ProvidesStaticType;
use starlark::coerce::Coerce;
use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::eval::{Arguments, Evaluator};
use starlark::starlark_complex_value;
use starlark::starlark_module;
use starlark::values::tuple::UnpackTuple;
use starlark::values::{
    Freeze, FreezeResult, Freezer, NoSerialize, StarlarkPagable, StarlarkValue, Trace, Value,
    ValueLike,
};
use starlark::ErrorKind;
use starlark_derive::starlark_value;

use crate::eval::convert::{from_node_in_fragment, scalar_value, to_node};
use crate::eval::fragment::{FragmentNode, YamlFragment};
use crate::eval::runtime::{names_of, runtime_of, Runtime};
use crate::eval::wording::message_text;
use crate::overlay::{apply_docset, apply_node, Host, MatchLog, Matcher, OverlayError};
use crate::typenames::starlark_go;
use crate::yaml::{DocSet, FileNames, Node, ValueRef};

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("overlay", |b| {
        overlay_members(b);
        b.set(
            "all",
            FrozenOverlayMatcher {
                kind: MKind::Leaf(Matcher::All),
                name: "overlay.all",
                children: Vec::new(),
            },
        );
    });
}

// ---- matchers -----------------------------------------------------------------------

#[derive(Debug, Clone)]
pub enum MKind {
    Leaf(Matcher),
    And,
    Or,
    Not,
}

impl Default for MKind {
    fn default() -> Self {
        MKind::Leaf(Matcher::All)
    }
}

/// A matcher made by `@ytt:overlay`; `children` are the matchers combined by `and_op`,
/// `or_op` and `not_op` (any callables).
#[derive(Debug, Trace, Coerce, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative)]
#[repr(C)]
pub struct OverlayMatcherGen<V> {
    #[trace(static)]
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    kind: MKind,
    #[trace(static)]
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    name: &'static str,
    children: Vec<V>,
}
starlark_complex_value!(pub OverlayMatcher);

impl<'v> Freeze for OverlayMatcher<'v> {
    type Frozen = FrozenOverlayMatcher;
    fn freeze(self, freezer: &Freezer) -> FreezeResult<Self::Frozen> {
        let mut children = Vec::with_capacity(self.children.len());
        for v in self.children {
            children.push(v.freeze(freezer)?);
        }
        Ok(OverlayMatcherGen {
            kind: self.kind,
            name: self.name,
            children,
        })
    }
}

impl<V> fmt::Display for OverlayMatcherGen<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<built-in function {}>", self.name)
    }
}

fn other(e: impl fmt::Display) -> starlark::Error {
    starlark::Error::new_other(anyhow!("{e}"))
}

#[starlark_value(type = "function")]
impl<'v, V: ValueLike<'v>> StarlarkValue<'v> for OverlayMatcherGen<V>
where
    Self: ProvidesStaticType<'v>,
{
    fn invoke(
        &self,
        _me: Value<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        args.no_named_args()?;
        let [k, l, r] = args.positional(eval.heap())?;
        let b = match &self.kind {
            MKind::Leaf(m) => {
                let conv = |v: Value<'v>| to_node(v).map_err(other);
                let (k, l, r) = match m {
                    Matcher::All => (Node::Null, Node::Null, Node::Null),
                    Matcher::Index(_) => (conv(k)?, Node::Null, Node::Null),
                    Matcher::Subset(_) => (Node::Null, conv(l)?, Node::Null),
                    _ => (conv(k)?, conv(l)?, conv(r)?),
                };
                m.matches(&k, &l, &r).map_err(other)?
            }
            MKind::And | MKind::Or => {
                let and = matches!(self.kind, MKind::And);
                let mut result = and;
                for c in &self.children {
                    let v = eval.eval_function(c.to_value(), &[k, l, r], &[])?;
                    if v.to_bool() != and {
                        result = !and;
                        break;
                    }
                }
                result
            }
            MKind::Not => {
                let Some(c) = self.children.first() else {
                    return Err(other("overlay.not_op: missing matcher"));
                };
                !eval.eval_function(c.to_value(), &[k, l, r], &[])?.to_bool()
            }
        };
        Ok(Value::new_bool(b))
    }
}

/// The matcher behind `v` when it (and everything it combines) is one of ours.
pub fn native_matcher(v: Value) -> Option<Matcher> {
    let m = OverlayMatcher::from_value(v)?;
    let kids = || -> Option<Vec<Matcher>> {
        m.children
            .iter()
            .map(|c| native_matcher(c.to_value()))
            .collect()
    };
    Some(match &m.kind {
        MKind::Leaf(x) => x.clone(),
        MKind::And => Matcher::And(kids()?),
        MKind::Or => Matcher::Or(kids()?),
        MKind::Not => Matcher::Not(Box::new(kids()?.into_iter().next()?)),
    })
}

fn is_callable(v: Value) -> bool {
    v.get_type() == "function" || OverlayMatcher::from_value(v).is_some()
}

fn combine<'v>(
    name: &'static str,
    kind: MKind,
    items: Vec<Value<'v>>,
) -> anyhow::Result<OverlayMatcher<'v>> {
    for v in &items {
        if !is_callable(*v) {
            bail!(
                "{name}: Expected argument to be a function, but was {}",
                starlark_go(*v)
            );
        }
    }
    Ok(OverlayMatcherGen {
        kind,
        name,
        children: items,
    })
}

#[starlark_module]
fn overlay_members(builder: &mut GlobalsBuilder) {
    /// `overlay.apply(left, right1, right2, …)`: applies each right side onto the left in
    /// turn and returns the result as a yamlfragment.
    fn apply<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        if !kwargs.is_empty() {
            bail!("overlay.apply: unexpected keyword arguments");
        }
        let Some((left, rights)) = args.items.split_first() else {
            bail!("overlay.apply: got 0 arguments, want at least 1");
        };
        apply_values(*left, rights, eval)
    }

    /// Matcher: the document / array index equals `i`.
    fn index<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<OverlayMatcher<'v>> {
        let v = one_arg("overlay.index", &args.items, &kwargs)?;
        let Some(i) = v.unpack_i32() else {
            bail!(
                "overlay.index: Expected argument to be an int, but was {}",
                starlark_go(v)
            );
        };
        Ok(leaf("overlay.index", Matcher::Index(i as i64)))
    }

    /// Matcher: `left[name] == right[name]`.
    fn map_key<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<OverlayMatcher<'v>> {
        let v = one_arg("overlay.map_key", &args.items, &kwargs)?;
        let Some(s) = v.unpack_str() else {
            bail!(
                "overlay.map_key: Expected argument to be a string, but was {}",
                starlark_go(v)
            );
        };
        Ok(leaf(
            "overlay.map_key",
            Matcher::MapKey(Node::Str(s.into())),
        ))
    }

    /// Matcher: the left node contains `expected`.
    fn subset<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<OverlayMatcher<'v>> {
        let v = one_arg("overlay.subset", &args.items, &kwargs)?;
        let expected = to_node(v).map_err(|e| anyhow!("overlay.subset: {e:#}"))?;
        Ok(leaf("overlay.subset", Matcher::Subset(expected)))
    }

    /// Matcher: all of the given matchers match.
    fn and_op<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
    ) -> anyhow::Result<OverlayMatcher<'v>> {
        combine("overlay.and_op", MKind::And, args.items)
    }

    /// Matcher: any of the given matchers matches.
    fn or_op<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
    ) -> anyhow::Result<OverlayMatcher<'v>> {
        combine("overlay.or_op", MKind::Or, args.items)
    }

    /// Matcher: the given matcher does not match.
    fn not_op<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<OverlayMatcher<'v>> {
        let v = one_arg("overlay.not_op", &args.items, &kwargs)?;
        combine("overlay.not_op", MKind::Not, vec![v])
    }
}

fn leaf<'v>(name: &'static str, m: Matcher) -> OverlayMatcher<'v> {
    OverlayMatcherGen {
        kind: MKind::Leaf(m),
        name,
        children: Vec::new(),
    }
}

fn one_arg<'v>(
    fname: &str,
    args: &[Value<'v>],
    kwargs: &SmallMap<String, Value<'v>>,
) -> anyhow::Result<Value<'v>> {
    super::args::check_positional(fname, args, kwargs, 1, 1)?;
    Ok(args[0])
}

// ---- apply --------------------------------------------------------------------------

/// What `overlay.apply` is working on.
enum Side {
    /// An empty fragment: becomes whatever the first right side needs.
    Unset,
    Docs(Vec<DocSet>),
    Node(Node),
}

enum Right {
    Empty,
    Docs(std::sync::Arc<FragmentNode>),
    Node(Node),
}

fn right_side(v: Value) -> anyhow::Result<Right> {
    // `None` holds nothing to apply, like an empty fragment: `overlay.apply(x, None)` is x
    if v.is_none() {
        return Ok(Right::Empty);
    }
    if let Some(f) = v.downcast_ref::<YamlFragment>() {
        return Ok(match &*f.node {
            FragmentNode::Empty => Right::Empty,
            FragmentNode::DocSet(_) => Right::Docs(f.node.clone()),
            FragmentNode::Map(m) => Right::Node(Node::Map(m.clone())),
            FragmentNode::Array(a) => Right::Node(Node::Array(a.clone())),
        });
    }
    Ok(Right::Node(to_node(v)?))
}

/// `overlay.apply(left, *rights)`.
pub fn apply_values<'v>(
    left: Value<'v>,
    rights: &[Value<'v>],
    eval: &mut Evaluator<'v, '_, '_>,
) -> anyhow::Result<Value<'v>> {
    let wrap = |e: anyhow::Error| anyhow!("overlay.apply: {e:#}");
    let mut side = match right_side(left).map_err(wrap)? {
        Right::Empty => Side::Unset,
        Right::Docs(f) => match &*f {
            FragmentNode::DocSet(ds) => Side::Docs(vec![ds.clone()]),
            _ => Side::Unset,
        },
        Right::Node(n) => Side::Node(n),
    };
    for r in rights {
        let right = right_side(*r).map_err(wrap)?;
        let mut host = EvalHost::new(eval);
        side = match (side, right) {
            (s, Right::Empty) => s,
            (Side::Unset, Right::Docs(f)) => {
                let mut docs = vec![DocSet::default()];
                if let FragmentNode::DocSet(rds) = &*f {
                    apply_docset(&mut docs, rds, &mut host)
                        .map_err(|e| OverlayError::nested("overlay.apply", e))?;
                }
                Side::Docs(docs)
            }
            (Side::Docs(mut docs), Right::Docs(f)) => {
                if let FragmentNode::DocSet(rds) = &*f {
                    apply_docset(&mut docs, rds, &mut host)
                        .map_err(|e| OverlayError::nested("overlay.apply", e))?;
                }
                Side::Docs(docs)
            }
            (Side::Unset, Right::Node(rn)) => Side::Node(
                apply_node(Node::Null, &rn, None, &mut host)
                    .map_err(|e| OverlayError::nested("overlay.apply", e))?,
            ),
            (Side::Node(n), Right::Node(rn)) => Side::Node(
                apply_node(n, &rn, None, &mut host)
                    .map_err(|e| OverlayError::nested("overlay.apply", e))?,
            ),
            (Side::Docs(_), Right::Node(rn)) => bail!(
                "overlay.apply: Expected right side to be a document set, but was {}",
                rn.type_name()
            ),
            (Side::Node(n), Right::Docs(_)) => bail!(
                "overlay.apply: Expected right side to be a {}, but was a document set",
                n.type_name()
            ),
        };
    }
    let heap = eval.heap();
    Ok(match side {
        Side::Unset => heap.alloc(YamlFragment::new(FragmentNode::Empty)),
        Side::Docs(sets) => {
            let mut ds = DocSet::default();
            for s in sets {
                ds.docs.extend(s.docs);
            }
            heap.alloc(YamlFragment::new(FragmentNode::DocSet(ds)))
        }
        Side::Node(n) => match n {
            Node::Map(m) => heap.alloc(YamlFragment::new(FragmentNode::Map(m))),
            Node::Array(a) => heap.alloc(YamlFragment::new(FragmentNode::Array(a))),
            other => scalar_value(heap, &other),
        },
    })
}

// ---- host ---------------------------------------------------------------------------

/// The overlay engine's [`Host`] over a running evaluator: annotation arguments are
/// resolved through the template runtime found in `eval.extra`.
pub struct EvalHost<'h, 'v, 'a, 'e> {
    eval: &'h mut Evaluator<'v, 'a, 'e>,
    rt: Option<&'a Runtime>,
    /// The run's (none outside a run: positions are then unknown).
    names: FileNames,
}

impl<'h, 'v, 'a, 'e> EvalHost<'h, 'v, 'a, 'e> {
    pub fn new(eval: &'h mut Evaluator<'v, 'a, 'e>) -> Self {
        let rt = runtime_of(eval).ok();
        let names = names_of(eval);
        EvalHost { eval, rt, names }
    }

    fn resolve(&mut self, r: ValueRef) -> anyhow::Result<Value<'v>> {
        let rt = self
            .rt
            .ok_or_else(|| anyhow!("internal error: overlay annotations outside of a template"))?;
        rt.resolve(self.eval, r)
    }
}

impl Host for EvalHost<'_, '_, '_, '_> {
    fn names(&self) -> &FileNames {
        &self.names
    }

    fn value(&mut self, r: ValueRef) -> anyhow::Result<Node> {
        let v = self.resolve(r)?;
        to_node(v)
    }

    fn is_callable(&mut self, r: ValueRef) -> anyhow::Result<bool> {
        Ok(is_callable(self.resolve(r)?))
    }

    fn call(&mut self, r: ValueRef, args: &[&Node]) -> anyhow::Result<Node> {
        let f = self.resolve(r)?;
        match (self.rt, f.unpack_frozen()) {
            // A frozen function (a template's annotation value, a loaded module's) runs in
            // an evaluator of its own, whose heap, with the copies of the nodes it was
            // given, is freed after the call. On the running evaluator's heap every
            // document a function matcher looked at stayed until the end of the overlays:
            // a third of `package`'s page faults. (The frozen function stays alive: the
            // running module holds its heap.)
            (Some(rt), Some(frozen)) => crate::eval::exec::with_evaluator(rt, |eval| {
                call_with(eval, frozen.to_value(), args)
            }),
            _ => call_with(self.eval, f, args),
        }
    }

    fn type_name(&mut self, r: ValueRef) -> anyhow::Result<String> {
        Ok(starlark_go(self.resolve(r)?))
    }

    fn matcher(&mut self, r: ValueRef) -> anyhow::Result<Option<Matcher>> {
        Ok(native_matcher(self.resolve(r)?))
    }

    fn log(&self) -> Option<MatchLog> {
        self.rt?.overlay_log.clone()
    }
}

/// `f(*args)` with the nodes as Starlark values, its result as a node.
fn call_with<'v>(
    eval: &mut Evaluator<'v, '_, '_>,
    f: Value<'v>,
    args: &[&Node],
) -> anyhow::Result<Node> {
    let heap = eval.heap();
    let vals: Vec<Value> = args
        .iter()
        .map(|n| from_node_in_fragment(heap, n))
        .collect();
    // an overlay error raised in the called code (`overlay.apply` in a `via=` lambda)
    // keeps its structure; any other error is its message
    let res = eval.eval_function(f, &vals, &[]).map_err(|e| {
        let nested = match e.kind() {
            ErrorKind::Native(a) | ErrorKind::Other(a) => a.downcast_ref::<OverlayError>(),
            _ => None,
        };
        match nested {
            Some(o) => anyhow::Error::new(o.clone()),
            None => anyhow!("{}", message_text(&e)),
        }
    })?;
    to_node(res)
}

#[cfg(test)]
mod tests {
    use crate::modules::testutil::eval;

    #[test]
    fn matchers_are_callable() {
        let load = "load('@ytt:overlay', 'overlay')\n";
        let e = |code: &str| eval(&format!("{load}{code}"));
        assert_eq!(e("overlay.all(0, None, None)"), "True");
        assert_eq!(e("overlay.index(2)(2, None, None)"), "True");
        assert_eq!(e("overlay.index(2)(1, None, None)"), "False");
        assert_eq!(
            e("overlay.subset({'a': 1})(0, {'a': 1, 'b': 2}, None)"),
            "True"
        );
        assert_eq!(e("overlay.subset({'a': 2})(0, {'a': 1}, None)"), "False");
        assert_eq!(e("overlay.map_key('a')(0, {'a': 1}, {'a': 1})"), "True");
        // an integer never matches a float (Node::same_as)
        assert_eq!(e("overlay.map_key('a')(0, {'a': 1}, {'a': 1.0})"), "False");
        assert_eq!(
            e("overlay.and_op(overlay.all, lambda i, l, r: l > 1)(0, 2, None)"),
            "True"
        );
        assert_eq!(
            e("overlay.or_op(overlay.not_op(overlay.all))(0, 2, None)"),
            "False"
        );
        assert_eq!(e("type(overlay.all)"), "function");
    }

    #[test]
    fn matcher_argument_errors() {
        let load = "load('@ytt:overlay', 'overlay')\n";
        let e = |code: &str| eval(&format!("{load}{code}"));
        assert_eq!(
            e("overlay.and_op(1)"),
            "ERR overlay.and_op: Expected argument to be a function, but was starlark.Int"
        );
        assert_eq!(
            e("overlay.map_key('a')(0, 1, {'a': 1})"),
            "ERR overlay.map_key_matcher: Expected left side to be a map, but was int"
        );
    }

    #[test]
    fn apply_on_plain_values() {
        let load = "load('@ytt:overlay', 'overlay')\n";
        let e = |code: &str| eval(&format!("{load}{code}"));
        assert_eq!(
            e("str(overlay.apply({'a': 1}, {'a': 2}))"),
            "yamlfragment(*yamlmeta.Map)"
        );
        assert_eq!(e("overlay.apply({'a': 1}, {'a': 2})['a']"), "2");
        assert_eq!(e("len(overlay.apply([1], [2, 3]))"), "3");
        assert_eq!(
            e("overlay.apply({'a': 1}, {'b': 2})"),
            "ERR overlay.apply: Map item (key 'b') on line ?: Expected number of matched nodes to be 1, but was 0"
        );
    }
}
