//! The cost of evaluating a `cel=` rule, counted as the Kubernetes API server counts it,
//! and the limits it sets: an evaluation is cancelled once its cost passes
//! [`PER_CALL_LIMIT`] (`operation cancelled: actual cost limit exceeded`), and the rules
//! of one object may cost [`RUNTIME_BUDGET`] in all.
//!
//! The units are those of cel-go's runtime cost model (`interpreter/runtimecost.go`) and
//! of the Kubernetes CEL libraries (`k8s.io/apiserver/pkg/cel/library/cost.go`):
//!
//! - an identifier, a field selection, an index, a presence test (`has`): 1; a literal,
//!   `&&`, `||`, `?:` and a comprehension itself: 0; creating a list 10, a map 30;
//! - a function or operator call: 1, except those whose work grows with their operands:
//!   `==`, `!=`, `<`, `<=`, `>`, `>=` cost a tenth of the smaller operand's size (the
//!   length of a string, the items of a list, ...), `in` a list its size, `+` on strings
//!   a tenth of both lengths, `startsWith`/`endsWith` a tenth of the string, `contains`
//!   and `matches` the product of the tenths (a quarter of the pattern); Kubernetes'
//!   functions what its library says (`isSorted`, `sum`, `min`, `max`, `indexOf`,
//!   `lastIndexOf` a traversal of the list, `replace`/`split` two tenths of the string,
//!   `find`/`findAll` like `matches`, ...);
//! - a comprehension (`all`, `exists`, `exists_one`, `map`, `filter`) costs what its
//!   condition and step cost, once per element.
//!
//! Where Kubernetes has no number for a function whose work grows with its operand, ytt-rs
//! counts one per element so that the bound holds: `lists.range(n)` n, `sort()`
//! n·(⌊log₂n⌋ + 1), `distinct()` n², `slice`, `flatten`, `reverse` their elements, `charAt`
//! and `strings.quote` a tenth of their string, `format` a traversal of its arguments.
//!
//! The `cel` crate has no cost tracking, so the rule's expression is instrumented when it
//! compiles ([`instrument`]): the static cost of every stretch of the expression that is
//! evaluated as a whole (the root; each side of `&&`/`||` and branch of `?:` that may be
//! skipped; the body of a comprehension, once per element) is computed once, and a call
//! to one of the functions below, placed where that stretch is evaluated, charges it to
//! the evaluation's [`Meter`] (a variable of its context: the engine keeps no state
//! outside a run).
//! Calls whose cost depends on their operands get their operands wrapped, to charge the
//! operands' sizes. Every wrapper returns its operand unchanged (not copied), and the
//! shapes the interpreter's fast paths recognise in `map`, `filter`, `all` and `exists`
//! are kept. Once the limit is passed every charge fails: a comprehension stops at its
//! next element, whatever the condition or step would have done with an error.

use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use cel::common::ast::{operators, CallExpr, EntryExpr, Expr, IdedExpr, LiteralValue};
use cel::common::types::{CelBytes, CelInt, CelString, Kind, Type, DYN_TYPE, INT_TYPE};
use cel::common::value::{CowVal, StaticVal, Val};
use cel::{DeclarationError, Env, ExecutionError};

/// Kubernetes' `PerCallLimit`: the cost one evaluation of a rule may reach.
pub const PER_CALL_LIMIT: u64 = 1_000_000;
/// Kubernetes' `RuntimeCELCostBudget`: what the rules of one custom resource may cost.
pub const RUNTIME_BUDGET: u64 = 10_000_000;

/// cel-go's `StringTraversalCostFactor`.
const TRAVERSAL: f64 = 0.1;
/// cel-go's `RegexStringLengthCostFactor`.
const REGEX: f64 = 0.25;
const LIST_CREATE: u64 = 10;
const MAP_CREATE: u64 = 30;
const STRUCT_CREATE: u64 = 40;

const COST: &str = "@ytt.cost";
const SIZE: &str = "@ytt.size";
const PUSH: &str = "@ytt.push";
const POP: &str = "@ytt.pop";

/// Functions called with a namespace as their target: the target is not evaluated.
const NAMESPACED: &[&str] = &[
    "optional.of",
    "optional.ofNonZeroValue",
    "optional.none",
    "ip.isCanonical",
    "strings.quote",
    "lists.range",
];

/// The cost of a call, from the size of one of its operands (or of its result) and a
/// number known when the rule compiles.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(i64)]
enum One {
    /// ⌈size/10⌉.
    Tenth,
    /// ⌈2·size/10⌉.
    Fifth,
    /// `in`: the size of a list, 1 for anything else.
    InList,
    /// Kubernetes' `traversalCost`: a tenth of every string, 1 per scalar, all the way down.
    Deep,
    /// A comparison with a literal of size p: ⌈min(p, size)/10⌉.
    MinWith,
    /// `+` with a string literal of length p: ⌈(p + size)/10⌉ on strings, else 1.
    AddWith,
    /// `matches`/`find` on a string, with a pattern costing p: ⌈(1 + size)/10⌉·p.
    Matches,
    /// `contains` with a substring costing p: ⌈size/10⌉·p.
    TenthTimes,
    /// `string(bytes)`: a tenth of the bytes, else 1.
    FromBytes,
    /// `bytes(string)`: a tenth of the string, else 1.
    FromString,
    /// `containsIP`/`containsCIDR`: p, plus a tenth of a string operand.
    PlusString,
    /// `lists.range(n)`: n.
    Count,
    /// The size itself (elements copied).
    Elements,
    /// `sort()`: n·(⌊log₂n⌋ + 1).
    Sort,
    /// `distinct()`: n².
    Squared,
}

const ONES: [One; 15] = [
    One::Tenth,
    One::Fifth,
    One::InList,
    One::Deep,
    One::MinWith,
    One::AddWith,
    One::Matches,
    One::TenthTimes,
    One::FromBytes,
    One::FromString,
    One::PlusString,
    One::Count,
    One::Elements,
    One::Sort,
    One::Squared,
];

/// The cost of a call from the sizes of two operands, in the order they are evaluated.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(i64)]
enum Two {
    /// Comparisons: ⌈min/10⌉.
    Min,
    /// `+`: ⌈(a + b)/10⌉ on strings and bytes, else 1.
    Add,
    /// `contains`: ⌈a/10⌉·⌈b/10⌉.
    Product,
    /// `s.matches(re)`, `s.find(re)` (the pattern is evaluated first).
    PatternThenString,
    /// `matches(s, re)`.
    StringThenPattern,
}

const TWOS: [Two; 5] = [
    Two::Min,
    Two::Add,
    Two::Product,
    Two::PatternThenString,
    Two::StringThenPattern,
];

/// What the interpreter tells about an operand.
#[derive(Clone, Copy, Debug)]
struct Operand {
    size: u64,
    text: bool,
}

impl Operand {
    fn of(v: &dyn Val) -> Operand {
        let size = v
            .as_sizer()
            .map_or(1, |s| u64::try_from(*s.size().inner()).unwrap_or(0));
        let text = matches!(v.get_type().kind(), Kind::String | Kind::Bytes);
        Operand { size, text }
    }
}

fn ceil(x: f64) -> u64 {
    x.ceil() as u64
}

fn tenth(size: u64) -> u64 {
    ceil(size as f64 * TRAVERSAL)
}

fn one(f: One, p: u64, v: &dyn Val) -> u64 {
    let o = Operand::of(v);
    let kind = v.get_type().kind();
    match f {
        One::Tenth => tenth(o.size),
        One::Fifth => ceil(o.size as f64 * 2.0 * TRAVERSAL),
        One::InList => match kind {
            Kind::List => o.size,
            _ => 1,
        },
        One::Deep => deep(v, 0),
        One::MinWith => tenth(p.min(o.size)),
        One::AddWith if o.text => tenth(p + o.size),
        One::AddWith => 1,
        One::Matches => tenth(1 + o.size).saturating_mul(p),
        One::TenthTimes => tenth(o.size).saturating_mul(p),
        One::FromBytes if kind == Kind::Bytes => tenth(o.size),
        One::FromString if kind == Kind::String => tenth(o.size),
        One::FromBytes | One::FromString => 1,
        One::PlusString if kind == Kind::String => p + tenth(o.size),
        One::PlusString => p,
        One::Count => v
            .downcast_ref::<CelInt>()
            .map_or(1, |n| u64::try_from(*n.inner()).unwrap_or(0)),
        One::Elements => o.size,
        One::Sort => o.size.saturating_mul(u64::from(o.size.max(1).ilog2() + 1)),
        One::Squared => o.size.saturating_mul(o.size),
    }
}

fn two(f: Two, a: Operand, b: Operand) -> u64 {
    let pattern = |s: u64, re: u64| tenth(1 + s).saturating_mul(ceil(re as f64 * REGEX));
    match f {
        Two::Min => tenth(a.size.min(b.size)),
        Two::Add if a.text && b.text => tenth(a.size + b.size),
        Two::Add => 1,
        Two::Product => tenth(a.size).saturating_mul(tenth(b.size)),
        Two::PatternThenString => pattern(b.size, a.size),
        Two::StringThenPattern => pattern(a.size, b.size),
    }
}

/// Kubernetes' `traversalCost`: strings and bytes a tenth of their length (rounded down),
/// lists and maps the sum over their items (and keys), anything else 1.
fn deep(v: &dyn Val, depth: usize) -> u64 {
    if depth > 1_000 {
        return 1;
    }
    if let Some(s) = v.downcast_ref::<CelString>() {
        return (s.inner().len() as f64 * TRAVERSAL) as u64;
    }
    if let Some(b) = v.downcast_ref::<CelBytes>() {
        return (b.inner().len() as f64 * TRAVERSAL) as u64;
    }
    let map = matches!(v.get_type().kind(), Kind::Map);
    let list = matches!(v.get_type().kind(), Kind::List);
    let Some(items) = v.as_iterable().filter(|_| map || list) else {
        return 1;
    };
    let mut cost = 0u64;
    let mut it = items.iter();
    while let Some(item) = it.next() {
        cost = cost.saturating_add(deep(item, depth + 1));
        if map {
            if let Some(value) = v.as_indexer().and_then(|ix| ix.get(item).ok()) {
                cost = cost.saturating_add(deep(value.as_ref(), depth + 1));
            }
        }
    }
    cost
}

// ---- the meter -------------------------------------------------------------------

/// The cost of one evaluation, bound to the variable [`METER`] of its context: the
/// functions below find it as their first argument.
#[derive(Debug)]
pub struct Meter {
    cost: AtomicU64,
    limit: u64,
    /// Sizes of the first operands of two-operand costs, by the id of their call (as in
    /// cel-go, an operand whose call failed may be left behind: a later pop of an
    /// outer call drops it).
    pending: Mutex<Vec<(i64, Operand)>>,
}

impl Meter {
    /// A meter whose evaluation's static part costs `base`.
    pub fn new(base: u64, limit: u64) -> Meter {
        Meter {
            cost: AtomicU64::new(base),
            limit,
            pending: Mutex::new(Vec::new()),
        }
    }

    /// The cost counted so far.
    pub fn spent(&self) -> u64 {
        self.cost.load(Ordering::Relaxed)
    }

    fn charge(&self, k: u64) -> Result<(), ExecutionError> {
        let cost = self.spent().saturating_add(k);
        self.cost.store(cost, Ordering::Relaxed);
        if cost > self.limit {
            Err(ExecutionError::function_error(
                "cost",
                "operation cancelled: actual cost limit exceeded",
            ))
        } else {
            Ok(())
        }
    }

    fn pending(&self) -> std::sync::MutexGuard<'_, Vec<(i64, Operand)>> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The value to bind to [`METER`].
    pub fn val(self: &Arc<Meter>) -> Box<dyn Val> {
        Box::new(MeterVal(Arc::clone(self)))
    }
}

/// The variable instrumented expressions find their [`Meter`] in (not a CEL identifier:
/// no rule can name it).
pub const METER: &str = "@ytt_meter";

static METER_TYPE: Type = meter_type();

const fn meter_type() -> Type {
    Type::new_unspecified_type("ytt.meter")
}

#[derive(Debug)]
struct MeterVal(Arc<Meter>);

impl Val for MeterVal {
    fn get_type(&self) -> &Type {
        &METER_TYPE
    }

    fn cel_type() -> &'static Type {
        &METER_TYPE
    }

    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(MeterVal(Arc::clone(&self.0)))
    }

    fn as_any(&self) -> Option<&dyn Any> {
        Some(self)
    }
}

impl StaticVal for MeterVal {}

// ---- the functions the instrumented expression calls -------------------------------

fn malformed() -> ExecutionError {
    ExecutionError::function_error("cost", "malformed instrumentation")
}

fn int_arg(v: &CowVal<'_, '_>) -> Result<i64, ExecutionError> {
    v.downcast_ref::<CelInt>()
        .map(|i| *i.inner())
        .ok_or_else(malformed)
}

fn meter<'a>(v: &'a CowVal<'_, '_>) -> Result<&'a Meter, ExecutionError> {
    v.downcast_ref::<MeterVal>()
        .map(|m| m.0.as_ref())
        .ok_or_else(malformed)
}

fn args<'b, 'v, const N: usize>(
    args: Vec<CowVal<'b, 'v>>,
) -> Result<[CowVal<'b, 'v>; N], ExecutionError> {
    args.try_into().map_err(|_| malformed())
}

/// `@ytt.cost(meter, k, x)`: charges k, returns x.
fn cost_fn<'b, 'v>(a: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [m, k, x] = args(a)?;
    meter(&m)?.charge(int_arg(&k)? as u64)?;
    Ok(x)
}

/// `@ytt.size(meter, formula, p, x)`: charges a cost of x's size, returns x.
fn size_fn<'b, 'v>(a: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [m, f, p, x] = args(a)?;
    let f = ONES
        .get(int_arg(&f)? as usize)
        .copied()
        .unwrap_or(One::Tenth);
    meter(&m)?.charge(one(f, int_arg(&p)? as u64, x.as_ref()))?;
    Ok(x)
}

/// `@ytt.push(meter, id, x)`: notes x's size for the `@ytt.pop` of the same call,
/// returns x.
fn push_fn<'b, 'v>(a: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [m, id, x] = args(a)?;
    let id = int_arg(&id)?;
    meter(&m)?.pending().push((id, Operand::of(x.as_ref())));
    Ok(x)
}

/// `@ytt.pop(meter, id, formula, x)`: charges the cost of the call from the size pushed
/// for it and x's, returns x.
fn pop_fn<'b, 'v>(a: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [m, id, f, x] = args(a)?;
    let (m, id) = (meter(&m)?, int_arg(&id)?);
    let f = TWOS.get(int_arg(&f)? as usize).copied().unwrap_or(Two::Min);
    let first = {
        let mut pending = m.pending();
        pending.iter().rposition(|(i, _)| *i == id).map(|at| {
            let first = pending[at].1;
            pending.truncate(at);
            first
        })
    };
    let b = Operand::of(x.as_ref());
    m.charge(first.map_or(1, |a| two(f, a, b)))?;
    Ok(x)
}

/// Declares the functions instrumented expressions call.
pub fn register(env: &mut Env) -> Result<(), DeclarationError> {
    let (m, i, d) = (meter_type, || INT_TYPE, || DYN_TYPE);
    env.add_overload(COST, "ytt.cost", vec![m(), i(), d()], cost_fn)?;
    env.add_overload(SIZE, "ytt.size", vec![m(), i(), i(), d()], size_fn)?;
    env.add_overload(PUSH, "ytt.push", vec![m(), i(), d()], push_fn)?;
    env.add_overload(POP, "ytt.pop", vec![m(), i(), i(), d()], pop_fn)?;
    Ok(())
}

// ---- instrumentation -------------------------------------------------------------

/// Instruments `expr` to charge its cost as it is evaluated; returns the cost of the part
/// always evaluated (the root's), which the [`Meter`] starts from, and whether anything
/// else is charged (else the evaluation needs no meter: its cost is the root's).
pub fn instrument(expr: &mut IdedExpr) -> (u64, bool) {
    let first = max_id(expr, 0) + 1;
    let mut ins = Instrumenter { next_id: first };
    let base = ins.walk(expr, 0);
    (base, ins.next_id != first)
}

fn max_id(e: &IdedExpr, depth: usize) -> u64 {
    let mut m = e.id;
    if depth > 1_000 {
        return m;
    }
    let d = depth + 1;
    match &e.expr {
        Expr::Call(c) => {
            if let Some(t) = &c.target {
                m = m.max(max_id(t, d));
            }
            for a in &c.args {
                m = m.max(max_id(a, d));
            }
        }
        Expr::Select(s) => m = m.max(max_id(&s.operand, d)),
        Expr::Comprehension(c) => {
            for x in [
                &c.iter_range,
                &c.accu_init,
                &c.loop_cond,
                &c.loop_step,
                &c.result,
            ] {
                m = m.max(max_id(x, d));
            }
        }
        Expr::List(l) => {
            for x in &l.elements {
                m = m.max(max_id(x, d));
            }
        }
        Expr::Map(map) => {
            for entry in &map.entries {
                if let EntryExpr::MapEntry(me) = &entry.expr {
                    m = m.max(max_id(&me.key, d)).max(max_id(&me.value, d));
                }
            }
        }
        Expr::Struct(s) => {
            for entry in &s.entries {
                if let EntryExpr::StructField(f) = &entry.expr {
                    m = m.max(max_id(&f.value, d));
                }
            }
        }
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
    }
    m
}

/// How a call is priced.
enum Pricing {
    Static(u64),
    /// From one operand (`None`: the call's result).
    One(Option<Slot>, One, u64),
    /// From two operands, the first evaluated first.
    Two(Slot, Slot, Two),
}

/// An operand of a call.
#[derive(Clone, Copy, PartialEq)]
enum Slot {
    Target,
    Arg(usize),
}

/// The size of a literal operand, when it is one.
fn literal_size(e: &IdedExpr) -> Option<(u64, bool)> {
    match &e.expr {
        Expr::Literal(LiteralValue::String(s)) => Some((s.inner().chars().count() as u64, true)),
        Expr::Literal(LiteralValue::Bytes(b)) => Some((b.inner().len() as u64, true)),
        Expr::Literal(_) => Some((1, false)),
        Expr::List(l) => Some((l.elements.len() as u64, false)),
        Expr::Map(m) => Some((m.entries.len() as u64, false)),
        _ => None,
    }
}

fn pricing(c: &CallExpr, name: &str) -> Pricing {
    let member = c.target.is_some();
    // the operand Kubernetes' cost functions call `args[0]`
    let first = if member { Slot::Target } else { Slot::Arg(0) };
    let has = |n: usize| c.args.len() > n || (member && n == 0);
    let arity = c.args.len() + usize::from(member);
    match (name, arity) {
        (
            operators::EQUALS
            | operators::NOT_EQUALS
            | operators::LESS
            | operators::LESS_EQUALS
            | operators::GREATER
            | operators::GREATER_EQUALS,
            2,
        ) => match (literal_size(&c.args[0]), literal_size(&c.args[1])) {
            (Some((a, _)), Some((b, _))) => Pricing::Static(tenth(a.min(b))),
            (Some((0, _)), None) | (None, Some((0, _))) => Pricing::Static(0),
            // ⌈min(s, n)/10⌉ is 1 unless the other side is empty
            (Some((s, _)), None) | (None, Some((s, _))) if s <= 10 => Pricing::Static(1),
            (Some((s, _)), None) => Pricing::One(Some(Slot::Arg(1)), One::MinWith, s),
            (None, Some((s, _))) => Pricing::One(Some(Slot::Arg(0)), One::MinWith, s),
            (None, None) => Pricing::Two(Slot::Arg(0), Slot::Arg(1), Two::Min),
        },
        (operators::IN, 2) => match &c.args[1].expr {
            Expr::List(l) => Pricing::Static(l.elements.len() as u64),
            Expr::Map(_) | Expr::Literal(_) => Pricing::Static(1),
            _ => Pricing::One(Some(Slot::Arg(1)), One::InList, 0),
        },
        (operators::ADD, 2) => match (literal_size(&c.args[0]), literal_size(&c.args[1])) {
            (Some((_, false)), _) | (_, Some((_, false))) => Pricing::Static(1),
            (Some((a, true)), Some((b, true))) => Pricing::Static(tenth(a + b)),
            (Some((s, true)), None) => Pricing::One(Some(Slot::Arg(1)), One::AddWith, s),
            (None, Some((s, true))) => Pricing::One(Some(Slot::Arg(0)), One::AddWith, s),
            (None, None) => Pricing::Two(Slot::Arg(0), Slot::Arg(1), Two::Add),
        },
        ("startsWith" | "endsWith", 2) => Pricing::One(Some(first), One::Tenth, 0),
        ("matches" | "find" | "findAll", 2 | 3) => {
            // the string and the pattern: a member call evaluates its arguments first
            let (s, re) = if member {
                (Slot::Target, Slot::Arg(0))
            } else {
                (Slot::Arg(0), Slot::Arg(1))
            };
            let re_expr = match re {
                Slot::Arg(i) => &c.args[i],
                Slot::Target => return Pricing::Static(1),
            };
            match literal_size(re_expr) {
                Some((len, _)) => Pricing::One(Some(s), One::Matches, ceil(len as f64 * REGEX)),
                None if member => Pricing::Two(re, s, Two::PatternThenString),
                None => Pricing::Two(s, re, Two::StringThenPattern),
            }
        }
        ("contains", 2) if member => match literal_size(&c.args[0]) {
            Some((len, _)) => Pricing::One(Some(Slot::Target), One::TenthTimes, tenth(len)),
            None => Pricing::Two(Slot::Arg(0), Slot::Target, Two::Product),
        },
        ("string", 1) => Pricing::One(Some(first), One::FromBytes, 0),
        ("bytes", 1) => Pricing::One(Some(first), One::FromString, 0),
        // Kubernetes' library (`CallCost`)
        ("isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf", _) if has(0) => {
            Pricing::One(Some(first), One::Deep, 0)
        }
        (
            "url" | "lowerAscii" | "upperAscii" | "substring" | "trim" | "cidr" | "isIP" | "isCIDR"
            | "quantity" | "isQuantity",
            _,
        ) if has(0) => Pricing::One(Some(first), One::Tenth, 0),
        ("ip", 1) if member => Pricing::Static(1),
        ("ip", 1) => Pricing::One(Some(first), One::Tenth, 0),
        ("replace" | "split", _) if has(0) => Pricing::One(Some(first), One::Fifth, 0),
        ("ip.isCanonical", 1) => Pricing::One(Some(first), One::Fifth, 0),
        ("join", _) => Pricing::One(None, One::Fifth, 0),
        ("containsIP", 2) => Pricing::One(Some(Slot::Arg(0)), One::PlusString, 1),
        ("containsCIDR", 2) => Pricing::One(Some(Slot::Arg(0)), One::PlusString, 3),
        // no number in Kubernetes, but work that grows with the operand
        ("lists.range", 1) => Pricing::One(Some(first), One::Count, 0),
        ("sort", 1) => Pricing::One(Some(first), One::Sort, 0),
        ("distinct", 1) => Pricing::One(Some(first), One::Squared, 0),
        ("slice" | "flatten" | "reverse", _) if member => {
            Pricing::One(Some(first), One::Elements, 0)
        }
        ("charAt" | "strings.quote", _) if has(0) => Pricing::One(Some(first), One::Tenth, 0),
        ("format", 2) if member => Pricing::One(Some(Slot::Arg(0)), One::Deep, 0),
        _ => Pricing::Static(1),
    }
}

struct Instrumenter {
    next_id: u64,
}

impl Instrumenter {
    fn node(&mut self, expr: Expr) -> IdedExpr {
        let id = self.next_id;
        self.next_id += 1;
        IdedExpr { id, expr }
    }

    fn int(&mut self, n: u64) -> IdedExpr {
        let n = i64::try_from(n).unwrap_or(i64::MAX);
        self.node(Expr::Literal(LiteralValue::Int(CelInt::from(n))))
    }

    /// Replaces `e` with `name(meter, lead..., e)`.
    fn wrap(&mut self, e: &mut IdedExpr, name: &str, lead: Vec<IdedExpr>) {
        let inner = std::mem::take(e);
        let mut args = vec![self.node(Expr::Ident(METER.to_owned()))];
        args.extend(lead);
        args.push(inner);
        *e = self.node(Expr::Call(CallExpr {
            func_name: name.to_owned(),
            target: None,
            args,
        }));
    }

    /// Makes `e` charge `k` whenever it is evaluated.
    fn charge(&mut self, e: &mut IdedExpr, k: u64) {
        let k = self.int(k);
        self.wrap(e, COST, vec![k]);
    }

    /// A stretch evaluated only sometimes: charged where it is evaluated.
    fn region(&mut self, e: &mut IdedExpr, extra: u64, depth: usize) {
        let k = self.walk(e, depth) + extra;
        if k > 0 {
            self.charge(e, k);
        }
    }

    /// Instruments `e`'s sub-stretches and operands; returns the static cost of `e`.
    fn walk(&mut self, e: &mut IdedExpr, depth: usize) -> u64 {
        if depth > 1_000 {
            return 1;
        }
        let d = depth + 1;
        match &mut e.expr {
            Expr::Literal(_) | Expr::Unspecified => 0,
            Expr::Ident(_) => 1,
            Expr::Select(s) => 1 + self.walk(&mut s.operand, d),
            Expr::List(l) => {
                LIST_CREATE + l.elements.iter_mut().map(|x| self.walk(x, d)).sum::<u64>()
            }
            Expr::Map(m) => {
                let mut k = MAP_CREATE;
                for entry in &mut m.entries {
                    if let EntryExpr::MapEntry(me) = &mut entry.expr {
                        k += self.walk(&mut me.key, d) + self.walk(&mut me.value, d);
                    }
                }
                k
            }
            Expr::Struct(s) => {
                let mut k = STRUCT_CREATE;
                for entry in &mut s.entries {
                    if let EntryExpr::StructField(f) = &mut entry.expr {
                        k += self.walk(&mut f.value, d);
                    }
                }
                k
            }
            Expr::Comprehension(c) => {
                let once = self.walk(&mut c.iter_range, d)
                    + self.walk(&mut c.accu_init, d)
                    + self.walk(&mut c.result, d);
                self.body(c, d);
                once
            }
            Expr::Call(c) => self.call(c, d),
        }
    }

    fn call(&mut self, c: &mut CallExpr, d: usize) -> u64 {
        let name = c.func_name.as_str();
        if c.target.is_none()
            && c.args.len() == 2
            && (name == operators::LOGICAL_AND || name == operators::LOGICAL_OR)
        {
            let k = self.walk(&mut c.args[0], d);
            self.region(&mut c.args[1], 0, d);
            return k;
        }
        if c.target.is_none() && c.args.len() == 3 && name == operators::CONDITIONAL {
            let k = self.walk(&mut c.args[0], d);
            self.region(&mut c.args[1], 0, d);
            self.region(&mut c.args[2], 0, d);
            return k;
        }
        // `ns.f(x)` calls the function `ns.f`: the namespace is not evaluated
        let qualified = match c.target.as_deref() {
            Some(IdedExpr {
                expr: Expr::Ident(ns),
                ..
            }) => Some(format!("{ns}.{name}")).filter(|q| NAMESPACED.contains(&q.as_str())),
            _ => None,
        };
        let mut k = 0;
        if qualified.is_none() {
            if let Some(t) = &mut c.target {
                k += self.walk(t, d);
            }
        }
        for a in &mut c.args {
            k += self.walk(a, d);
        }
        let pricing = match &qualified {
            Some(q) => {
                let global = CallExpr {
                    func_name: q.clone(),
                    target: None,
                    args: c.args.clone(),
                };
                pricing(&global, q)
            }
            None => pricing(c, name),
        };
        match pricing {
            Pricing::Static(n) => k + n,
            Pricing::One(Some(slot), f, p) => {
                let (f, p) = (self.int(f as u64), self.int(p));
                self.wrap(slot_of(c, slot), SIZE, vec![f, p]);
                k
            }
            // from the call's result: the call is wrapped
            Pricing::One(None, f, p) => {
                let (f, p) = (self.int(f as u64), self.int(p));
                let inner = std::mem::take(c);
                let inner = self.node(Expr::Call(inner));
                let m = self.node(Expr::Ident(METER.to_owned()));
                *c = CallExpr {
                    func_name: SIZE.to_owned(),
                    target: None,
                    args: vec![m, f, p, inner],
                };
                k
            }
            Pricing::Two(a, b, f) => {
                let id = self.next_id;
                self.next_id += 1;
                let (id_a, id_b, f) = (self.int(id), self.int(id), self.int(f as u64));
                self.wrap(slot_of(c, a), PUSH, vec![id_a]);
                self.wrap(slot_of(c, b), POP, vec![id_b, f]);
                k
            }
        }
    }

    /// Places the per-element charge of a comprehension where the interpreter evaluates
    /// it once per element and stops at its failure, keeping the shapes of its fast paths.
    fn body(&mut self, c: &mut cel::common::ast::ComprehensionExpr, d: usize) {
        let accu = c.accu_var.clone();
        let is_accu = |e: &IdedExpr| matches!(&e.expr, Expr::Ident(n) if *n == accu);
        // `map`/`filter`: `@result + [e]`, or `guard ? @result + [e] : @result`
        if is_accu(&c.result) && matches!(c.loop_cond.expr, Expr::Literal(_)) {
            let cond = self.walk(&mut c.loop_cond, d);
            if let Expr::Call(step) = &mut c.loop_step.expr {
                if step.target.is_none() && step.func_name == operators::CONDITIONAL {
                    if let [guard, then, otherwise] = step.args.as_mut_slice() {
                        if is_accu(otherwise) {
                            if let Some(items) = appended(then, &is_accu) {
                                // the guard also pays for `@result` when it is false
                                self.region(guard, cond + 1, d);
                                let k = self.walk(items, d);
                                // `@result`, `+` and the list, less the 1 paid by the guard
                                self.charge(items, k + LIST_CREATE + 1);
                                return;
                            }
                        }
                    }
                } else if let Some(items) = appended_step(step, &is_accu) {
                    let k = self.walk(items, d);
                    self.charge(items, k + cond + LIST_CREATE + 2);
                    return;
                }
            }
        }
        // `all`/`exists`: `@result && p` or `@result || p`, stopped by the condition
        if let Expr::Call(step) = &mut c.loop_step.expr {
            let fold = step.target.is_none()
                && (step.func_name == operators::LOGICAL_AND
                    || step.func_name == operators::LOGICAL_OR)
                && step.args.len() == 2
                && is_accu(&step.args[0]);
            if fold {
                self.region(&mut step.args[1], 1, d);
                let k = self.walk(&mut c.loop_cond, d);
                self.charge(&mut c.loop_cond, k);
                return;
            }
        }
        let k = self.walk(&mut c.loop_cond, d) + self.walk(&mut c.loop_step, d);
        self.charge(&mut c.loop_cond, k);
    }
}

fn slot_of(c: &mut CallExpr, slot: Slot) -> &mut IdedExpr {
    match slot {
        Slot::Target => c.target.as_deref_mut().expect("a member call has a target"),
        Slot::Arg(i) => &mut c.args[i],
    }
}

/// The appended element of a `@result + [e]` step.
fn appended<'e>(
    step: &'e mut IdedExpr,
    is_accu: &dyn Fn(&IdedExpr) -> bool,
) -> Option<&'e mut IdedExpr> {
    match &mut step.expr {
        Expr::Call(c) => appended_step(c, is_accu),
        _ => None,
    }
}

fn appended_step<'e>(
    c: &'e mut CallExpr,
    is_accu: &dyn Fn(&IdedExpr) -> bool,
) -> Option<&'e mut IdedExpr> {
    if c.target.is_some() || c.func_name != operators::ADD {
        return None;
    }
    match c.args.as_mut_slice() {
        [lhs, rhs] if is_accu(lhs) => match &mut rhs.expr {
            Expr::List(l) if l.elements.len() == 1 => l.elements.first_mut(),
            _ => None,
        },
        _ => None,
    }
}
