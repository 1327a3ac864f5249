//! `@ytt:assert`: `equals`, `fail`, `try_to`, `validate`, `valid`, and assertion objects
//! (`type()` is `@ytt:assert.assertion`, with a `.check(value)` method returning True or
//! failing): the reference's `min`, `max`, `min_len`, `max_len`, `not_null`,
//! `one_not_null` and `one_of`, which check Starlark values in the reference's words, and
//! one made from each named rule whose definition offers it (`len`, `starts_with`, …;
//! `ytt::module_api::rules`).

use std::cmp::Ordering;
use std::fmt;

use allocative::Allocative;
use anyhow::{anyhow, bail};
use starlark::any::ProvidesStaticType;
use starlark::coerce::Coerce;
use starlark::collections::SmallMap;
use starlark::environment::{GlobalsBuilder, Methods, MethodsBuilder};
use starlark::eval::Evaluator;
use starlark::starlark_complex_value;
use starlark::starlark_module;
use starlark::values::dict::DictRef;
use starlark::values::list::AllocList;
use starlark::values::none::NoneType;
use starlark::values::tuple::UnpackTuple;
use starlark::values::{
    Freeze, FreezeResult, Freezer, Heap, NoSerialize, StarlarkPagable, StarlarkValue, Trace, Value,
    ValueLike,
};
use starlark_derive::starlark_value;

use ytt::module_api::rules::{Assert, Cx, Def, NamedRule};
use ytt::module_api::{
    call_catching, check_positional, error_message, from_node, go_str, is_function, sequence_items,
    starlark_go, struct_fields, to_node, validate_fragment, validate_value, FragmentNode,
    YamlFragment,
};
use ytt::yaml::Node;

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("assert", assert_members);
}

pub use ytt::module_api::LambdaError;

fn lambda_fail(function: &'static str, msg: impl Into<String>) -> anyhow::Error {
    LambdaError {
        function,
        message: format!("fail: {}", msg.into()),
    }
    .into()
}

/// What an assertion object checks.
#[derive(Debug, Clone, PartialEq, Default)]
enum Kind {
    #[default]
    Min,
    Max,
    MinLen,
    MaxLen,
    NotNull,
    OneNotNull,
    OneOf,
    /// Made from a named rule's definition (`function` is its name).
    Made {
        function: &'static str,
        rule: NamedRule,
    },
}

impl Kind {
    fn function(&self) -> &'static str {
        match self {
            Kind::Min => "assert.min",
            Kind::Max => "assert.max",
            Kind::MinLen => "assert.min_len",
            Kind::MaxLen => "assert.max_len",
            Kind::NotNull => "assert.not_null",
            Kind::OneNotNull => "assert.one_not_null",
            Kind::OneOf => "assert.one_of",
            Kind::Made { function, .. } => function,
        }
    }

    /// The name of the checking lambda's parameter, for argument-count errors.
    fn param(&self) -> &'static str {
        match self {
            Kind::NotNull => "value",
            _ => "val",
        }
    }
}

/// An assertion object. `args` holds the argument of one of the reference's functions
/// (the bound for `min`/`max`/`min_len`/`max_len`, the keys for `one_not_null` unless
/// `all_keys`, the allowed values for `one_of`).
#[derive(Debug, Trace, Coerce, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative)]
#[repr(C)]
pub struct AssertionGen<V> {
    #[trace(static)]
    #[starlark_pagable(skip)]
    #[allocative(skip)]
    kind: Kind,
    all_keys: bool,
    args: Vec<V>,
}
starlark_complex_value!(pub Assertion);

impl<'v> Freeze for Assertion<'v> {
    type Frozen = FrozenAssertion;
    fn freeze(self, freezer: &Freezer) -> FreezeResult<Self::Frozen> {
        let mut args = Vec::with_capacity(self.args.len());
        for v in self.args {
            args.push(v.freeze(freezer)?);
        }
        Ok(AssertionGen {
            kind: self.kind,
            all_keys: self.all_keys,
            args,
        })
    }
}

impl<V> fmt::Display for AssertionGen<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@ytt:assert.assertion({})", self.kind.function())
    }
}

starlark::methods_static!(ASSERTION_METHODS = assertion_methods);

#[starlark_value(type = "@ytt:assert.assertion")]
impl<'v, V: ValueLike<'v>> StarlarkValue<'v> for AssertionGen<V>
where
    Self: ProvidesStaticType<'v>,
{
    fn get_methods() -> Option<&'static Methods> {
        Some(ASSERTION_METHODS.methods())
    }
}

struct Parts<'v> {
    kind: &'v Kind,
    all_keys: bool,
    args: Vec<Value<'v>>,
}

fn parts<'v>(v: Value<'v>) -> Option<Parts<'v>> {
    if let Some(a) = v.downcast_ref::<Assertion<'v>>() {
        return Some(Parts {
            kind: &a.kind,
            all_keys: a.all_keys,
            args: a.args.clone(),
        });
    }
    v.downcast_ref::<FrozenAssertion>().map(|a| Parts {
        kind: &a.kind,
        all_keys: a.all_keys,
        args: a.args.iter().map(|v| v.to_value()).collect(),
    })
}

/// True when `v` is an assertion object (for `@assert/validate`).
pub fn is_assertion(v: Value) -> bool {
    parts(v).is_some()
}

#[starlark_module]
fn assertion_methods(builder: &mut MethodsBuilder) {
    /// Checks `value`; returns True or fails.
    fn check<'v>(
        this: Value<'v>,
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<bool> {
        let p = parts(this).ok_or_else(|| anyhow!("check: not an assertion object"))?;
        run_check(&p, &args.items, &kwargs, heap)
    }
}

fn run_check<'v>(
    p: &Parts<'v>,
    args: &[Value<'v>],
    kwargs: &SmallMap<String, Value<'v>>,
    heap: Heap<'v>,
) -> anyhow::Result<bool> {
    let f = p.kind.function();
    if *p.kind == Kind::OneNotNull {
        check_positional("check", args, kwargs, 1, 1)?;
        return check_one_not_null(p, args[0], heap).map_err(|e| anyhow!("check: {e}"));
    }
    // the reference's lambda(val) argument checking
    let lambda_err = |message: String| -> anyhow::Error {
        LambdaError {
            function: f,
            message,
        }
        .into()
    };
    if let Some((k, _)) = kwargs.iter().next() {
        return Err(lambda_err(format!(
            "function lambda got an unexpected keyword argument \"{k}\""
        )));
    }
    match args.len() {
        0 => {
            return Err(lambda_err(format!(
                "function lambda missing 1 argument ({})",
                p.kind.param()
            )))
        }
        1 => {}
        n => {
            return Err(lambda_err(format!(
                "function lambda accepts 1 positional argument ({n} given)"
            )))
        }
    }
    let v = args[0];
    let arg0 = p.args.first().copied().unwrap_or_else(Value::new_none);
    let inner = |e: anyhow::Error| -> anyhow::Error {
        if e.downcast_ref::<LambdaError>().is_some() {
            e
        } else {
            lambda_err(e.to_string())
        }
    };
    match p.kind {
        Kind::Min | Kind::Max => {
            let bound = roundtrip(heap, arg0)?;
            let val = roundtrip(heap, v)?;
            let ord = val
                .compare(bound)
                .map_err(|e| lambda_err(error_message(&e)))?;
            match (p.kind, ord) {
                (Kind::Min, Ordering::Less) => {
                    Err(lambda_fail(f, format!("value < {}", go_str(bound))))
                }
                (Kind::Max, Ordering::Greater) => {
                    Err(lambda_fail(f, format!("value > {}", go_str(bound))))
                }
                _ => Ok(true),
            }
        }
        Kind::MinLen | Kind::MaxLen => {
            let len = v.length().map_err(|e| lambda_err(error_message(&e)))?;
            let ord = heap
                .alloc(len)
                .compare(arg0)
                .map_err(|e| lambda_err(error_message(&e)))?;
            match (p.kind, ord) {
                (Kind::MinLen, Ordering::Less) | (Kind::MaxLen, Ordering::Greater) => {
                    Err(lambda_fail(f, format!("length = {len}")))
                }
                _ => Ok(true),
            }
        }
        Kind::NotNull => {
            if v.is_none() {
                Err(lambda_fail(f, "value is null"))
            } else {
                Ok(true)
            }
        }
        Kind::OneOf => {
            let found = one_of_contains(&p.args, v).map_err(inner)?;
            if found {
                Ok(true)
            } else {
                Err(lambda_fail(f, "not one of allowed values"))
            }
        }
        // handled before the lambda-style argument checks above
        Kind::OneNotNull => check_one_not_null(p, v, heap).map_err(|e| anyhow!("check: {e}")),
        Kind::Made { rule, .. } => {
            let node = to_node(v).map_err(|e| lambda_err(format!("{e:#}")))?;
            let cx = Cx {
                heap,
                arg: arg0,
                budget: None,
            };
            rule.check(&node, &cx)
                .map_err(|failure| lambda_fail(f, failure.text()))?;
            Ok(true)
        }
    }
}

/// An assertion object made from the definition of the named rule `name`: its argument
/// read as the keyword's (none stands for `True`), refused in the function's words.
fn make_rule<'v>(
    heap: Heap<'v>,
    name: &str,
    args: &UnpackTuple<Value<'v>>,
    kwargs: &SmallMap<String, Value<'v>>,
) -> anyhow::Result<Value<'v>> {
    let def = Def::find(name);
    let Some((
        def,
        Assert::Made {
            function,
            takes_arg,
        },
    )) = def.map(|d| (d, d.assert))
    else {
        bail!("assert.{name}: no assertion is made from this rule");
    };
    let want = usize::from(takes_arg);
    check_positional(function, &args.items, kwargs, want, want)?;
    let arg = args.items.first().copied().unwrap_or(Value::new_bool(true));
    let (rule, _) = def
        .parse(arg, heap)
        .map_err(|e| anyhow!(e.function(function, arg)))?;
    Ok(heap.alloc(AssertionGen {
        kind: Kind::Made { function, rule },
        all_keys: false,
        args: Vec::new(),
    }))
}

/// The value as it would read back from YAML (fragments become lists/dicts, structs dicts).
fn roundtrip<'v>(heap: Heap<'v>, v: Value<'v>) -> anyhow::Result<Value<'v>> {
    Ok(from_node(heap, &to_node(v)?))
}

fn one_of_contains<'v>(allowed: &[Value<'v>], v: Value<'v>) -> anyhow::Result<bool> {
    let vn = to_node(v).ok();
    for a in allowed {
        let equal = match (&vn, to_node(*a).ok()) {
            (Some(x), Some(y)) => x.value_eq(&y),
            _ => v.equals(*a).map_err(|e| anyhow!(error_message(&e)))?,
        };
        if equal {
            return Ok(true);
        }
    }
    Ok(false)
}

/// (key, value-is-null) entries of a map-like value.
fn map_entries<'v>(heap: Heap<'v>, v: Value<'v>) -> anyhow::Result<Vec<(Value<'v>, bool)>> {
    if let Some(d) = DictRef::from_value(v) {
        return Ok(d.iter().map(|(k, v)| (k, v.is_none())).collect());
    }
    if let Some(fields) = struct_fields(v) {
        return Ok(fields
            .into_iter()
            .map(|(k, v)| (heap.alloc(k), v.is_none()))
            .collect());
    }
    if let Some(f) = v.downcast_ref::<YamlFragment>() {
        if let FragmentNode::Map(m) = &*f.node {
            return Ok(m
                .items
                .iter()
                .map(|i| (from_node(heap, &i.key), i.value.is_null()))
                .collect());
        }
    }
    bail!("value must be a map or dict, but was '{}'", v.get_type())
}

fn check_one_not_null<'v>(p: &Parts<'v>, v: Value<'v>, heap: Heap<'v>) -> anyhow::Result<bool> {
    let entries = map_entries(heap, v)?;
    if entries.is_empty() {
        bail!("value is empty");
    }
    let mut not_null: Vec<Value<'v>> = Vec::new();
    if p.all_keys {
        not_null.extend(entries.iter().filter(|(_, null)| !null).map(|(k, _)| *k));
    } else {
        for key in &p.args {
            for (k, null) in &entries {
                if !null && same_key(*k, *key) {
                    not_null.push(*key);
                    break;
                }
            }
        }
    }
    match not_null.len() {
        0 => bail!("all values are null"),
        1 => Ok(true),
        _ => bail!("{} are not null", heap.alloc(AllocList(not_null)).to_repr()),
    }
}

fn same_key<'v>(a: Value<'v>, b: Value<'v>) -> bool {
    // bool and int keys never match each other (False is not 0 as a YAML key)
    if (a.unpack_bool().is_some()) != (b.unpack_bool().is_some()) {
        return false;
    }
    a.equals(b).unwrap_or(false)
}

fn make<'v>(heap: Heap<'v>, kind: Kind, all_keys: bool, args: Vec<Value<'v>>) -> Value<'v> {
    heap.alloc(AssertionGen {
        kind,
        all_keys,
        args,
    })
}

/// Equality as the reference sees it: same YAML encoding.
fn yaml_equal(a: Value, b: Value) -> anyhow::Result<bool> {
    let is_docset = |v: Value| {
        v.downcast_ref::<YamlFragment>()
            .is_some_and(|f| matches!(&*f.node, FragmentNode::DocSet(_)))
    };
    if is_docset(a) != is_docset(b) {
        return Ok(false);
    }
    let (x, y) = (to_node(a)?, to_node(b)?);
    Ok(node_yaml_eq(&x, &y))
}

/// Node equality where ints and floats with the same YAML text compare equal.
fn node_yaml_eq(a: &Node, b: &Node) -> bool {
    match (a, b) {
        (Node::Float(x), Node::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
        (Node::Map(x), Node::Map(y)) => {
            x.items.len() == y.items.len()
                && x.items
                    .iter()
                    .zip(&y.items)
                    .all(|(p, q)| node_yaml_eq(&p.key, &q.key) && node_yaml_eq(&p.value, &q.value))
        }
        (Node::Array(x), Node::Array(y)) => {
            x.items.len() == y.items.len()
                && x.items
                    .iter()
                    .zip(&y.items)
                    .all(|(p, q)| node_yaml_eq(&p.value, &q.value))
        }
        _ => a.value_eq(b),
    }
}

#[starlark_module]
fn assert_members(builder: &mut GlobalsBuilder) {
    /// Fails unless both values have the same YAML encoding.
    fn equals<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<NoneType> {
        let f = "assert.equals";
        check_positional(f, &args.items, &kwargs, 2, 2)?;
        let (expected, actual) = (args.items[0], args.items[1]);
        for v in [expected, actual] {
            if is_function(v) {
                bail!(
                    "{f}: expected argument not to be a function, but was {}",
                    starlark_go(v)
                );
            }
        }
        if yaml_equal(expected, actual).map_err(|e| anyhow!("{f}: {e}"))? {
            return Ok(NoneType);
        }
        let enc = |v: Value| super::yaml::encode_value(v).map_err(|e| anyhow!("{f}: {e}"));
        bail!(
            "{f}: Not equal:\n(expected type: {})\n{}\n\n(was type: {})\n{}",
            expected.get_type(),
            enc(expected)?,
            actual.get_type(),
            enc(actual)?
        )
    }

    /// Fails with `fail: <msg>`.
    fn fail<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<NoneType> {
        check_positional("assert.fail", &args.items, &kwargs, 1, 1)?;
        let v = args.items[0];
        let msg = match v.unpack_str() {
            Some(s) => s.to_owned(),
            None => v.to_str(),
        };
        bail!("assert.fail: fail: {msg}")
    }

    /// Calls `fn()`: `(result, None)` on success, `(None, "error message")` on failure.
    fn try_to<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<(Value<'v>, Value<'v>)> {
        let f = "assert.try_to";
        check_positional(f, &args.items, &kwargs, 1, 1)?;
        let func = args.items[0];
        if !is_function(func) {
            bail!(
                "{f}: expected argument to be a function, but was {}",
                starlark_go(func)
            );
        }
        match call_catching(eval, func, &[]) {
            Ok(v) => Ok((v, Value::new_none())),
            Err(e) => {
                let msg = error_message(&e);
                Ok((Value::new_none(), eval.heap().alloc(msg)))
            }
        }
    }

    /// Assertion: value >= minimum.
    fn min<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        check_positional("assert.min", &args.items, &kwargs, 1, 1)?;
        Ok(make(heap, Kind::Min, false, args.items))
    }

    /// Assertion: value <= maximum.
    fn max<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        check_positional("assert.max", &args.items, &kwargs, 1, 1)?;
        Ok(make(heap, Kind::Max, false, args.items))
    }

    /// Assertion: len(value) >= n.
    fn min_len<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        check_positional("assert.min_len", &args.items, &kwargs, 1, 1)?;
        Ok(make(heap, Kind::MinLen, false, args.items))
    }

    /// Assertion: len(value) <= n.
    fn max_len<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        check_positional("assert.max_len", &args.items, &kwargs, 1, 1)?;
        Ok(make(heap, Kind::MaxLen, false, args.items))
    }

    /// Assertion: value is not None. With an argument, checks it right away.
    fn not_null<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        let f = "assert.not_null";
        check_positional(f, &args.items, &kwargs, 0, 1)?;
        match args.items.first() {
            None => Ok(make(heap, Kind::NotNull, false, Vec::new())),
            Some(v) if v.is_none() => bail!("{f}: fail: value is null"),
            Some(_) => Ok(Value::new_bool(true)),
        }
    }

    /// Assertion: exactly one of the given keys (default: all keys) has a non-null value.
    fn one_not_null<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        let f = "assert.one_not_null";
        if args.items.len() > 1 {
            // the reference words this one without "at most"
            bail!("{f}: got {} arguments, want 1", args.items.len());
        }
        check_positional(f, &args.items, &kwargs, 0, 1)?;
        let Some(keys) = args.items.first().copied() else {
            return Ok(make(heap, Kind::OneNotNull, true, Vec::new()));
        };
        if keys.unpack_bool() == Some(true) {
            return Ok(make(heap, Kind::OneNotNull, true, Vec::new()));
        }
        match sequence_items(heap, keys) {
            Some(items) => Ok(make(heap, Kind::OneNotNull, false, items)),
            None => bail!(
                "{f}: expected a sequence of keys, but was a '{}'",
                keys.get_type()
            ),
        }
    }

    /// Assertion: len(value) == n.
    fn len<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        make_rule(heap, "len", &args, &kwargs)
    }

    /// Assertion: a string starting with the prefix.
    fn starts_with<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        make_rule(heap, "starts_with", &args, &kwargs)
    }

    /// Assertion: a string ending with the suffix.
    fn ends_with<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        make_rule(heap, "ends_with", &args, &kwargs)
    }

    /// Assertion: a string containing the substring, a list containing the element, a map
    /// containing the key.
    fn contains<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        make_rule(heap, "contains", &args, &kwargs)
    }

    /// Assertion: a string matching the (RE2) regular expression.
    fn matches<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        make_rule(heap, "matches", &args, &kwargs)
    }

    /// Assertion: a string of the named format (`email`, `ipv4`, `quantity`, …).
    fn format<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        make_rule(heap, "format", &args, &kwargs)
    }

    /// Assertion: an even number.
    fn even<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        make_rule(heap, "even", &args, &kwargs)
    }

    /// Assertion: an odd number.
    fn odd<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        make_rule(heap, "odd", &args, &kwargs)
    }

    /// Assertion: a multiple of n.
    fn multiple_of<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        make_rule(heap, "multiple_of", &args, &kwargs)
    }

    /// Runs validation rules (as `@assert/validate` takes them) on `value`; fails with the
    /// violation report. Returns the value.
    fn validate<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        let f = "assert.validate";
        if args.items.len() < 2 {
            bail!("{f}: got {} arguments, want at least 2", args.items.len());
        }
        let Some(key) = args.items[0].unpack_str() else {
            bail!(
                "{f}: expected first argument (the key) to be a string, but was {}",
                args.items[0].get_type()
            );
        };
        let value = args.items[1];
        let node = to_node(value).map_err(|e| anyhow!("{f}: {e:#}"))?;
        let kwargs: Vec<(String, Value<'v>)> = kwargs.into_iter().collect();
        validate_value(eval, key, &node, &args.items[2..], &kwargs)
            .map_err(|e| anyhow!("{f}: {e:#}"))?
            .report(eval)?;
        Ok(value)
    }

    /// Runs the `@assert/validate` annotations on the nodes of a yaml fragment; fails with
    /// the violation report. Returns the fragment.
    fn valid<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        let f = "assert.valid";
        check_positional(f, &args.items, &kwargs, 1, 1)?;
        let v = args.items[0];
        let Some(frag) = v.downcast_ref::<YamlFragment>() else {
            bail!("{f}: expected a yamlfragment, but was {}", v.get_type());
        };
        let node = frag.node.clone();
        validate_fragment(eval, &node)?.report(eval)?;
        Ok(v)
    }

    /// Assertion: value is one of the given values (a sequence, or several arguments).
    fn one_of<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        let f = "assert.one_of";
        check_positional(f, &args.items, &kwargs, 1, usize::MAX)?;
        if args.items.len() > 1 {
            return Ok(make(heap, Kind::OneOf, false, args.items));
        }
        let seq = args.items[0];
        match sequence_items(heap, seq) {
            Some(items) => Ok(make(heap, Kind::OneOf, false, items)),
            None => bail!("{f}: expected a sequence, but was a '{}'", seq.get_type()),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::eval;
    use ytt::module_api::rules::{Assert, RULES};

    /// The namespace offers what the rules' definitions say: the reference's functions,
    /// and one made from each definition that offers it, named after its function.
    #[test]
    fn functions_follow_the_rules() {
        for def in RULES {
            let function = format!("assert.{}", def.name);
            match def.assert {
                Assert::Reference => {
                    assert_eq!(eval(&format!("type({function})")), "function", "{function}")
                }
                Assert::Made {
                    function: made,
                    takes_arg,
                } => {
                    assert_eq!(made, function);
                    let call = if takes_arg {
                        format!("{function}(1, 2)")
                    } else {
                        format!("{function}(1)")
                    };
                    let want = if takes_arg { 1 } else { 0 };
                    assert_eq!(
                        eval(&call),
                        format!("ERR {function}: got {} arguments, want {want}", want + 1),
                        "{function}"
                    );
                }
                Assert::None => assert!(eval(&function).starts_with("ERR "), "{function}"),
            }
        }
    }

    #[test]
    fn arg_counts() {
        assert_eq!(
            eval(r#"assert.equals("foo")"#),
            "ERR assert.equals: got 1 arguments, want 2"
        );
        for f in ["min", "max", "min_len", "max_len"] {
            assert_eq!(
                eval(&format!("assert.{f}()")),
                format!("ERR assert.{f}: got 0 arguments, want 1")
            );
            assert_eq!(
                eval(&format!("assert.{f}(1, 2)")),
                format!("ERR assert.{f}: got 2 arguments, want 1")
            );
        }
        assert_eq!(
            eval("assert.not_null(1, 2)"),
            "ERR assert.not_null: got 2 arguments, want at most 1"
        );
        assert_eq!(
            eval("assert.one_of()"),
            "ERR assert.one_of: got 0 arguments, want at least 1"
        );
        assert_eq!(
            eval("assert.one_not_null([], [])"),
            "ERR assert.one_not_null: got 2 arguments, want 1"
        );
    }

    #[test]
    fn fail_and_try_to() {
        assert_eq!(
            eval(r#"assert.fail("boom")"#),
            "ERR assert.fail: fail: boom"
        );
        assert_eq!(
            eval(r#"assert.try_to(lambda: assert.fail("boom"))"#),
            r#"(None, "assert.fail: fail: boom")"#
        );
        assert_eq!(eval(r#"assert.try_to(lambda: (1, 2))"#), "((1, 2), None)");
        assert_eq!(eval(r#"assert.try_to(lambda: "foo")"#), r#"("foo", None)"#);
        assert_eq!(
            eval(r#"assert.try_to("invalid")"#),
            "ERR assert.try_to: expected argument to be a function, but was starlark.String"
        );
        assert_eq!(
            eval(r#"assert.try_to(lambda: fail("x"))"#),
            r#"(None, "fail: x")"#
        );
    }

    #[test]
    fn equals() {
        for ok in [
            r#""foo", "foo""#,
            "1, 1",
            "3.14159, 3.14159",
            "True, True",
            "None, None",
            "[1, 2], [1, 2]",
            r#"{"foo": "bar"}, {"foo": "bar"}"#,
            "[1, 2], (1, 2)",
        ] {
            assert_eq!(eval(&format!("assert.equals({ok})")), "None", "{ok}");
        }
        assert_eq!(
            eval("assert.equals(lambda: 1, 2)"),
            "ERR assert.equals: expected argument not to be a function, but was *starlark.Function"
        );
    }

    #[test]
    fn equals_message() {
        assert_eq!(
            eval("assert.equals([1, 2], [2, 3])"),
            "ERR assert.equals: Not equal:\n(expected type: list)\n- 1\n- 2\n\n\n(was type: list)\n- 2\n- 3\n"
        );
        assert_eq!(
            eval(r#"assert.equals("foo", "bar")"#),
            "ERR assert.equals: Not equal:\n(expected type: string)\nfoo\n\n\n(was type: string)\nbar\n"
        );
    }

    #[test]
    fn min_max() {
        assert_eq!(eval("assert.max(2).check(2)"), "True");
        assert_eq!(eval(r#"assert.max("c").check("b")"#), "True");
        assert_eq!(eval(r#"assert.max(["b", 2]).check(["a", 1])"#), "True");
        assert_eq!(eval("assert.min(2).check(3)"), "True");
        assert_eq!(eval(r#"assert.min(["a", 1]).check(["b", 2])"#), "True");
        assert_eq!(eval("assert.min(3).check(2)"), "ERR fail: value < 3");
        assert_eq!(eval("assert.max(2).check(3)"), "ERR fail: value > 2");
        assert_eq!(eval("assert.max(2.0).check(3)"), "ERR fail: value > 2");
        assert_eq!(eval(r#"assert.min("c").check("b")"#), "ERR fail: value < c");
        assert_eq!(eval("type(assert.min(1))"), "@ytt:assert.assertion");
        assert_eq!(
            eval("assert.min(1).check()"),
            "ERR function lambda missing 1 argument (val)"
        );
    }

    #[test]
    fn lengths() {
        assert_eq!(eval(r#"assert.max_len(2).check("o0")"#), "True");
        assert_eq!(eval(r#"assert.max_len(2).check({"a": 1, "b": 2})"#), "True");
        assert_eq!(eval(r#"assert.min_len(2.0).check([1, 2])"#), "True");
        assert_eq!(
            eval(r#"assert.max_len(2).check("abc")"#),
            "ERR fail: length = 3"
        );
        assert_eq!(
            eval(r#"assert.min_len(2).check("a")"#),
            "ERR fail: length = 1"
        );
    }

    #[test]
    fn not_null() {
        assert_eq!(eval(r#"assert.not_null().check("a")"#), "True");
        assert_eq!(eval(r#"assert.not_null("a")"#), "True");
        assert_eq!(
            eval("assert.not_null().check(None)"),
            "ERR fail: value is null"
        );
        assert_eq!(
            eval("assert.try_to(lambda: assert.not_null(None))"),
            r#"(None, "assert.not_null: fail: value is null")"#
        );
        assert_eq!(
            eval("assert.not_null().check()"),
            "ERR function lambda missing 1 argument (value)"
        );
        assert_eq!(
            eval("assert.not_null().check(1, 2)"),
            "ERR function lambda accepts 1 positional argument (2 given)"
        );
    }

    #[test]
    fn one_not_null() {
        let m = r#"{"foo": "x", "bar": None, "baz": None, "qux": "y"}"#;
        assert_eq!(
            eval(&format!("assert.one_not_null().check({m})")),
            r#"ERR check: ["foo", "qux"] are not null"#
        );
        assert_eq!(
            eval(&format!(
                r#"assert.one_not_null(["foo", "bar"]).check({m})"#
            )),
            "True"
        );
        assert_eq!(
            eval(r#"assert.one_not_null(True).check({"a": None, "b": 1})"#),
            "True"
        );
        assert_eq!(
            eval(r#"assert.one_not_null().check({"a": None})"#),
            "ERR check: all values are null"
        );
        assert_eq!(
            eval("assert.one_not_null().check({})"),
            "ERR check: value is empty"
        );
        assert_eq!(
            eval(r#"assert.one_not_null().check(["foo"])"#),
            "ERR check: value must be a map or dict, but was 'list'"
        );
        assert_eq!(
            eval("assert.one_not_null().check({}, {})"),
            "ERR check: got 2 arguments, want 1"
        );
        assert_eq!(
            eval("assert.one_not_null(13)"),
            "ERR assert.one_not_null: expected a sequence of keys, but was a 'int'"
        );
        assert_eq!(
            eval(
                r#"assert.one_not_null([0, False, 0.1, "foo"]).check({0: None, False: None, 0.1: None, "foo": 1})"#
            ),
            "True"
        );
        assert_eq!(
            eval(r#"assert.one_not_null(["foo", "nope"]).check({"foo": 1, "bar": None})"#),
            "True"
        );
    }

    #[test]
    fn one_of() {
        assert_eq!(
            eval(r#"assert.one_of(["aws", "azure"]).check("azure")"#),
            "True"
        );
        assert_eq!(
            eval(r#"assert.one_of(("aws", "azure")).check("azure")"#),
            "True"
        );
        assert_eq!(
            eval(r#"assert.one_of("aws", 4, False, {"azure": "v"}).check({"azure": "v"})"#),
            "True"
        );
        assert_eq!(
            eval(r#"assert.one_of("aws", "azure").check("gcp")"#),
            "ERR fail: not one of allowed values"
        );
        assert_eq!(
            eval("assert.one_of(4)"),
            "ERR assert.one_of: expected a sequence, but was a 'int'"
        );
        assert_eq!(
            eval(r#"assert.one_of("a,b")"#),
            "ERR assert.one_of: expected a sequence, but was a 'string'"
        );
        assert_eq!(
            eval("assert.one_of(1, 2).check()"),
            "ERR function lambda missing 1 argument (val)"
        );
    }

    #[test]
    fn added_assertions() {
        assert_eq!(eval("assert.len(2).check([1, 2])"), "True");
        assert_eq!(
            eval(r#"assert.len(2).check("abc")"#),
            "ERR fail: length = 3"
        );
        assert_eq!(eval(r#"assert.starts_with("a").check("ab")"#), "True");
        assert_eq!(
            eval(r#"assert.ends_with("z").check("ab")"#),
            "ERR fail: value does not end with \"z\""
        );
        assert_eq!(eval(r#"assert.contains("b").check({"b": 1})"#), "True");
        assert_eq!(
            eval(r#"assert.matches("^[0-9]+$").check("12a")"#),
            "ERR fail: value does not match \"^[0-9]+$\""
        );
        assert_eq!(
            eval(r#"assert.format("uuid").check("x")"#),
            "ERR fail: value is not a valid uuid"
        );
        assert_eq!(eval("assert.even().check(3)"), "ERR fail: value is odd");
        assert_eq!(eval("assert.odd().check(3)"), "True");
        assert_eq!(
            eval("assert.multiple_of(4).check(6)"),
            "ERR fail: value is not a multiple of 4"
        );
        assert_eq!(
            eval(r#"assert.len("2")"#),
            "ERR assert.len: expected argument to be an int, but was string"
        );
        // a length beyond 64 bits is refused, as `len=` refuses it (it was taken as 0)
        assert_eq!(
            eval("assert.len(1180591620717411303424)"),
            "ERR assert.len: expected argument to be an int, but was int"
        );
        assert_eq!(
            eval("assert.even(1)"),
            "ERR assert.even: got 1 arguments, want 0"
        );
        assert!(eval(r#"assert.format("colour")"#)
            .starts_with("ERR assert.format: unknown format \"colour\""));
        assert!(eval(r#"assert.matches("(")"#)
            .starts_with("ERR assert.matches: invalid regular expression"));
        assert_eq!(
            eval("assert.multiple_of(0)"),
            "ERR assert.multiple_of: expected a non-zero number"
        );
        assert_eq!(eval(r#"assert.validate("k", 3, min=1)"#), "3");
        assert_eq!(
            eval(r#"assert.validate("k", 0, min=1)"#),
            "ERR assert.validate: Validating k:\n  k\n    - must be: a value >= 1 (by: (unknown))\n      found: value < 1\n\n"
        );
        assert_eq!(
            eval("assert.valid(1)"),
            "ERR assert.valid: expected a yamlfragment, but was int"
        );
    }
}
