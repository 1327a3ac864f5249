//! `cel=`: Common Expression Language rules (the `cel` crate), evaluated as the
//! Kubernetes API server evaluates the `x-kubernetes-validations` rule that schema export
//! writes for them, with `self` bound to the value:
//!
//! - a map item whose value is null is **absent**: `has(self.x)` is false and `self.x`
//!   is an error (`no such key`);
//! - properties are selected by their Kubernetes-escaped names: `self.a__dash__b` is the
//!   key `a-b`, `self.__namespace__` the key `namespace` ([`escape_property`]);
//! - the libraries Kubernetes adds are there: the standard library, the strings and
//!   lists extensions, `optional`, and Kubernetes' lists, regex, URL, IP/CIDR and
//!   quantity libraries (`cel_k8s`).
//!
//! An evaluation that fails (an undeclared function, no matching overload, a missing
//! key, a result that is not a bool) is a **rule error**: the package author's mistake,
//! reported as such, never as a violation by the value. Rules that use `oldSelf` are
//! transition rules: there is no old value when rendering, so they are skipped.
//!
//! Evaluations are bounded as the API server bounds them (`cel_cost`): one evaluation
//! is cancelled once its cost passes Kubernetes' per-call limit, and within a
//! [`CostBudget`] (the rules of one object: a library's data values, an output document)
//! the rules may cost Kubernetes' runtime budget in all. Either failure is a rule error,
//! and no further CEL rule of that object runs, as in Kubernetes.

use std::cell::Cell;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, OnceLock};

use cel::common::ast::{EntryExpr, Expr, IdedExpr};
use cel::objects::Key;
use cel::{Context, Env, Value};

use super::cel_cost::{self, Meter, PER_CALL_LIMIT, RUNTIME_BUDGET};
use crate::yaml::Node;

pub struct CelRule {
    /// The expression, macros expanded and escaped property names resolved.
    expr: IdedExpr,
    /// The cost of the part of `expr` always evaluated (the rest charges itself).
    cost: u64,
    /// Whether `expr` charges more as it runs (then it needs a meter).
    metered: bool,
    /// Uses `oldSelf`: skipped when rendering.
    pub transition: bool,
    /// The expression as written (exported by `--data-values-schema-inspect`).
    pub source: String,
}

/// Expressions longer than this are refused (the parser recurses on nesting).
const MAX_LEN: usize = 10_000;
/// Deepest bracket nesting accepted.
const MAX_NESTING: usize = 64;

/// The environment every rule compiles and runs in.
fn env() -> &'static Arc<Env> {
    static ENV: OnceLock<Arc<Env>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Env::stdlib();
        env.add_extension(cel::extensions::strings)
            .expect("the strings extension registers");
        env.add_extension(cel::extensions::lists)
            .expect("the lists extension registers");
        super::cel_k8s::register(&mut env).expect("the Kubernetes libraries register");
        cel_cost::register(&mut env).expect("the cost functions register");
        Arc::new(env)
    })
}

/// Compiles `expr`; the error is the parser's message.
pub fn compile(expr: &str) -> Result<CelRule, String> {
    if expr.len() > MAX_LEN {
        return Err(format!("expression is longer than {MAX_LEN} characters"));
    }
    // the parser recurses on nesting: refuse what could exhaust the stack
    let mut depth = 0usize;
    let mut deepest = 0usize;
    for c in expr.chars() {
        match c {
            '(' | '[' | '{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    if deepest > MAX_NESTING || expr.matches(['!', '-']).count() > MAX_LEN / 10 {
        return Err(format!(
            "expression is nested more than {MAX_NESTING} levels deep"
        ));
    }
    let env = env();
    let compiled = catch_unwind(AssertUnwindSafe(|| env.compile(expr)))
        .map_err(|_| "the CEL parser failed on this expression".to_owned())?;
    let program = compiled.map_err(|e| e.to_string().trim().to_owned())?;
    let transition = program.references().has_variable("oldSelf");
    let mut tree = program.expression().clone();
    unescape_selects(&mut tree, 0);
    let (cost, metered) = cel_cost::instrument(&mut tree);
    Ok(CelRule {
        expr: tree,
        cost,
        metered,
        transition,
        source: expr.to_owned(),
    })
}

/// Evaluates the rule on `value` alone, outside any object's budget: see [`evaluate_in`].
pub fn evaluate(rule: &CelRule, value: &Node) -> Result<bool, String> {
    evaluate_in(rule, value, None)
}

/// Evaluates the rule on `value`, within the cost budget of the object it belongs to if
/// any: Ok(true) when it holds (or is not run: a cost limit stopped the CEL rules of the
/// object), Ok(false) when it evaluated to false, Err(message) for a rule error
/// (evaluation failed, did not give a bool, or cost too much).
pub fn evaluate_in(
    rule: &CelRule,
    value: &Node,
    budget: Option<&CostBudget>,
) -> Result<bool, String> {
    metered(rule, value, budget).0
}

/// [`evaluate_in`], and what the evaluation cost.
fn metered(
    rule: &CelRule,
    value: &Node,
    budget: Option<&CostBudget>,
) -> (Result<bool, String>, u64) {
    let left = match budget.map(|b| b.left.get()) {
        Some(None) => return (Ok(true), 0),
        Some(Some(left)) => Some(left),
        None => None,
    };
    let meter = rule
        .metered
        .then(|| Arc::new(Meter::new(rule.cost, PER_CALL_LIMIT)));
    let result = if rule.cost > PER_CALL_LIMIT {
        Ok(Ok(Value::Null))
    } else {
        let mut ctx = Context::with_env(Arc::clone(env()));
        ctx.add_variable_from_value("self", to_cel(value, 0));
        if let Some(meter) = &meter {
            ctx.add_variable_as_val(cel_cost::METER, meter.val());
        }
        catch_unwind(AssertUnwindSafe(|| ctx.resolve(&rule.expr)))
            .map_err(|_| "CEL evaluation failed".to_owned())
    };
    // over the limit even if an error absorbed the failure: `cancelled || true`
    let spent = meter.as_ref().map_or(rule.cost, |m| m.spent());
    if spent > PER_CALL_LIMIT {
        let e = stop(
            budget,
            format!(
                "operation cancelled: actual cost limit exceeded (evaluating the rule costs \
                 more than {PER_CALL_LIMIT}, Kubernetes' limit for one rule)"
            ),
        );
        return (Err(e), spent);
    }
    if let (Some(budget), Some(left)) = (budget, left) {
        if spent > left {
            let e = stop(
                Some(budget),
                format!(
                    "validation failed due to running out of cost budget (the CEL rules of \
                     one object may cost {RUNTIME_BUDGET} in all, Kubernetes' budget)"
                ),
            );
            return (Err(e), spent);
        }
        budget.left.set(Some(left - spent));
    }
    let result = match result {
        Err(e) => Err(e),
        Ok(Ok(Value::Bool(b))) => Ok(b),
        Ok(Ok(other)) => Err(format!(
            "the rule evaluated to {}, not to a bool",
            other.type_of()
        )),
        Ok(Err(e)) => Err(error_text(&e)),
    };
    (result, spent)
}

/// Within a budget, a cost failure stops the object's further CEL rules, as the API
/// server stops validating an object ("no further validation rules will be run").
fn stop(budget: Option<&CostBudget>, message: String) -> String {
    match budget {
        Some(b) => {
            b.left.set(None);
            format!("{message}; no further CEL rules are run")
        }
        None => message,
    }
}

/// The cost budget of one object's CEL rules: Kubernetes' `RuntimeCELCostBudget` for a
/// custom resource.
pub struct CostBudget {
    /// What is left; None once a cost limit stopped the object's CEL rules.
    left: Cell<Option<u64>>,
}

impl CostBudget {
    pub fn new() -> CostBudget {
        CostBudget {
            left: Cell::new(Some(RUNTIME_BUDGET)),
        }
    }

    /// The rules that follow are another object's.
    pub fn renew(&self) {
        self.left.set(Some(RUNTIME_BUDGET));
    }
}

impl Default for CostBudget {
    fn default() -> Self {
        CostBudget::new()
    }
}

/// An evaluation error in CEL's own words (`no such key: x`, `undeclared reference to
/// 'f'`, `found no matching overload for ...`).
fn error_text(e: &cel::ExecutionError) -> String {
    use cel::ExecutionError as E;
    match e {
        E::NoSuchKey(k) => format!("no such key: {k}"),
        E::UndeclaredReference(r) => format!("undeclared reference to '{r}'"),
        other => {
            let t = other.to_string();
            let mut c = t.chars();
            match c.next() {
                Some(f) => f.to_lowercase().chain(c).collect(),
                None => t,
            }
        }
    }
}

/// CEL keywords: a property so named is `__<name>__` in Kubernetes CEL.
const RESERVED: &[&str] = &[
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// A property name as Kubernetes CEL selects it (`self.<escaped>`): `__` → `__underscores__`,
/// `.` → `__dot__`, `-` → `__dash__`, `/` → `__slash__`, a CEL keyword `k` → `__k__`.
/// None for a name Kubernetes gives CEL no access to (not `[a-zA-Z_.-/][a-zA-Z0-9_.-/]*`).
pub fn escape_property(name: &str) -> Option<String> {
    if RESERVED.contains(&name) {
        return Some(format!("__{name}__"));
    }
    let mut chars = name.chars();
    let first = chars.next()?;
    let ok = |c: char| c.is_ascii_alphanumeric() || "_.-/".contains(c);
    if !ok(first) || first.is_ascii_digit() || !chars.all(ok) {
        return None;
    }
    Some(
        name.replace("__", "__underscores__")
            .replace('.', "__dot__")
            .replace('-', "__dash__")
            .replace('/', "__slash__"),
    )
}

/// The property name an escaped CEL field name stands for ([`escape_property`] undone).
pub fn unescape_property(field: &str) -> String {
    if let Some(inner) = field.strip_prefix("__").and_then(|f| f.strip_suffix("__")) {
        if RESERVED.contains(&inner) {
            return inner.to_owned();
        }
    }
    if !field.contains("__") {
        return field.to_owned();
    }
    let mut out = String::with_capacity(field.len());
    let mut rest = field;
    'scan: while !rest.is_empty() {
        for (token, text) in [
            ("__underscores__", "__"),
            ("__dot__", "."),
            ("__dash__", "-"),
            ("__slash__", "/"),
        ] {
            if let Some(after) = rest.strip_prefix(token) {
                out.push_str(text);
                rest = after;
                continue 'scan;
            }
        }
        let c = rest.chars().next().unwrap_or_default();
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Field selections (and `has()` tests) name properties as Kubernetes escapes them.
fn unescape_selects(e: &mut IdedExpr, depth: usize) {
    if depth > 1_000 {
        return;
    }
    let d = depth + 1;
    match &mut e.expr {
        Expr::Select(s) => {
            s.field = unescape_property(&s.field);
            unescape_selects(&mut s.operand, d);
        }
        Expr::Call(c) => {
            if let Some(t) = &mut c.target {
                unescape_selects(t, d);
            }
            c.args.iter_mut().for_each(|a| unescape_selects(a, d));
        }
        Expr::Comprehension(c) => {
            for x in [
                &mut c.iter_range,
                &mut c.accu_init,
                &mut c.loop_cond,
                &mut c.loop_step,
                &mut c.result,
            ] {
                unescape_selects(x, d);
            }
        }
        Expr::List(l) => l.elements.iter_mut().for_each(|x| unescape_selects(x, d)),
        Expr::Map(m) => {
            for entry in &mut m.entries {
                if let EntryExpr::MapEntry(me) = &mut entry.expr {
                    unescape_selects(&mut me.key, d);
                    unescape_selects(&mut me.value, d);
                }
            }
        }
        Expr::Struct(s) => {
            for entry in &mut s.entries {
                if let EntryExpr::StructField(f) = &mut entry.expr {
                    unescape_selects(&mut f.value, d);
                }
            }
        }
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
    }
}

/// A node as CEL sees it. Null map items are left out: to Kubernetes a null field is an
/// absent one.
fn to_cel(n: &Node, depth: usize) -> Value {
    if depth > 1000 {
        return Value::Null;
    }
    match n {
        Node::Null => Value::Null,
        Node::Bool(b) => Value::Bool(*b),
        Node::Int(i) => match i64::try_from(i.get()) {
            Ok(s) => Value::Int(s),
            Err(_) => Value::UInt(i.get() as u64),
        },
        Node::Float(f) => Value::Float(*f),
        Node::Str(s) => Value::String(Arc::new(s.to_string())),
        Node::Array(a) => Value::List(Arc::new(
            a.items
                .iter()
                .map(|i| to_cel(&i.value, depth + 1))
                .collect(),
        )),
        Node::Map(m) => {
            let mut map: HashMap<Key, Value> = HashMap::with_capacity(m.items.len());
            for i in &m.items {
                if i.value.is_null() {
                    continue;
                }
                let key = match &i.key {
                    Node::Str(s) => Key::String(Arc::new(s.to_string())),
                    Node::Int(k) => match i64::try_from(k.get()) {
                        Ok(s) => Key::Int(s),
                        Err(_) => Key::Uint(k.get() as u64),
                    },
                    Node::Bool(b) => Key::Bool(*b),
                    other => Key::String(Arc::new(
                        crate::yaml::emit::yaml_node(other).trim_end().to_owned(),
                    )),
                };
                map.insert(key, to_cel(&i.value, depth + 1));
            }
            Value::from(map)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::{Map, MapItem, Meta};

    fn map(items: &[(&str, Node)]) -> Node {
        Node::Map(Map {
            items: items
                .iter()
                .map(|(k, v)| MapItem {
                    key: Node::Str((*k).into()),
                    value: v.clone(),
                    meta: Meta::default(),
                })
                .collect(),
        })
    }

    fn run(expr: &str, value: &Node) -> Result<bool, String> {
        evaluate(&compile(expr).unwrap(), value)
    }

    fn s(x: &str) -> Node {
        Node::Str(x.into())
    }

    #[test]
    fn evaluates_rules() {
        let r = compile("self.min <= self.max").unwrap();
        assert!(!r.transition);
        let v = map(&[("min", Node::Int(10.into())), ("max", Node::Int(5.into()))]);
        assert_eq!(evaluate(&r, &v), Ok(false));
        assert_eq!(run("self.startsWith('kube')", &s("kube-system")), Ok(true));
        assert!(compile("self == oldSelf").unwrap().transition);
        assert!(compile("self ==").is_err());
        assert!(compile(&format!("{}1{}", "(".repeat(5000), ")".repeat(5000))).is_err());
        assert_eq!(
            run("self.nope > 1", &map(&[])),
            Err("no such key: nope".into())
        );
        assert!(run("self + 1 == 2", &Node::Int(1.into())).unwrap());
        assert!(run("self + 'a'", &Node::Int(1.into()))
            .unwrap_err()
            .contains("unsupported binary operator"));
        assert_eq!(
            run("nope(self)", &Node::Int(1.into())),
            Err("undeclared reference to 'nope'".into())
        );
        assert!(run("self", &Node::Int(1.into()))
            .unwrap_err()
            .contains("not to a bool"));
    }

    /// Null map items are absent, as in Kubernetes.
    #[test]
    fn null_is_absent() {
        let v = map(&[("a", Node::Null), ("b", s("x"))]);
        assert_eq!(run("has(self.a)", &v), Ok(false));
        assert_eq!(run("has(self.b)", &v), Ok(true));
        assert_eq!(run("self.a == null", &v), Err("no such key: a".into()));
        assert_eq!(
            run("[has(self.a), has(self.b)].exists_one(x, x)", &v),
            Ok(true)
        );
        assert_eq!(run("self.size() == 1", &v), Ok(true));
    }

    #[test]
    fn escaped_property_names() {
        let v = map(&[
            ("x-y", Node::Int(1.into())),
            ("namespace", s("n")),
            ("a.b/c__d", Node::Bool(true)),
        ]);
        assert_eq!(run("self.x__dash__y == 1", &v), Ok(true));
        assert_eq!(run("has(self.x__dash__y)", &v), Ok(true));
        assert_eq!(run("self.__namespace__ == 'n'", &v), Ok(true));
        assert_eq!(
            run("self.a__dot__b__slash__c__underscores__d", &v),
            Ok(true)
        );
        assert_eq!(run("self['x-y'] == 1", &v), Ok(true));
        assert_eq!(
            escape_property("a.b/c__d").unwrap(),
            "a__dot__b__slash__c__underscores__d"
        );
        assert_eq!(
            unescape_property("a__dot__b__slash__c__underscores__d"),
            "a.b/c__d"
        );
        assert_eq!(escape_property("in").unwrap(), "__in__");
        assert_eq!(escape_property("1a"), None);
        assert_eq!(escape_property("a b"), None);
    }

    #[test]
    fn extension_libraries() {
        let e = Node::Null;
        for ok in [
            "'TacoCat'.lowerAscii() == 'tacocat'",
            "'a,b'.split(',') == ['a', 'b']",
            "'abc'.indexOf('c') == 2",
            "optional.of(1).hasValue()",
            "{'a': 1}.?b.orValue(2) == 2",
        ] {
            assert_eq!(run(ok, &e), Ok(true), "{ok}");
        }
    }

    fn ints(n: i64) -> Node {
        Node::Array(crate::yaml::Array {
            items: (0..n)
                .map(|i| crate::yaml::ArrayItem {
                    value: Node::Int(i.into()),
                    meta: Meta::default(),
                })
                .collect(),
        })
    }

    /// The result of `expr` on `value` and what it cost.
    fn costed(expr: &str, value: &Node) -> (Result<bool, String>, u64) {
        metered(&compile(expr).unwrap(), value, None)
    }

    /// Costs in cel-go's units (and Kubernetes' for its functions), counted by hand.
    #[test]
    fn cost_model() {
        let long = s(&"a".repeat(1000));
        for (expr, value, cost) in [
            // `self` 1, `==` 1, a literal 0
            ("self == 1", Node::Int(1.into()), 2),
            ("has(self.a)", map(&[("a", s("x"))]), 2),
            ("self.a == 'x'", map(&[("a", s("x"))]), 3),
            // a list literal 10, `size` 1, `>` 1
            ("[1, 2, 3].size() > 0", Node::Null, 12),
            // 1 for `self`, 1 for the result, then 5 per element: the condition
            // `@not_strictly_false(@result)` 2, `@result` 1, `x >= 0` 2
            ("self.all(x, x >= 0)", ints(3), 2 + 3 * 5),
            // the condition 3 (`!@result`): the third element only checks it
            ("self.exists(x, x == 1)", ints(3), 2 + 6 + 6 + 3),
            // 12 per element (`@result`, `[_]` 10, `+`), the accumulator's `[]` 10
            (
                "self.map(x, x * 2).size() == 3",
                ints(3),
                1 + 10 + 1 + 3 * 14 + 2,
            ),
            // a false guard costs it and `@result`
            (
                "self.filter(x, x > 0).size() == 2",
                ints(3),
                14 + 3 + 2 * 15,
            ),
            // `x == 2` 2 per element, then `@result + 1` 2 or `@result` 1; the result
            // `@result == 1` 2
            ("self.exists_one(x, x == 2)", ints(3), 3 + 3 * 2 + 2 + 2),
            // `&&` evaluates its right side only when the left is true
            ("self > 5 && self.size() > 0", Node::Int(1.into()), 2),
            // a tenth of the string
            ("self.startsWith('a')", long.clone(), 1 + 100),
            // a tenth of the string times a tenth of the substring
            ("self.contains('aaaaaaaaaaa')", long.clone(), 1 + 100 * 2),
            (
                "self + self == self + self",
                long.clone(),
                4 + 200 + 200 + 200,
            ),
            // the smaller side of a comparison
            ("self == 'a'", long.clone(), 1 + 1),
            // `in` a list: its size
            ("2 in self", ints(50), 1 + 50),
            // Kubernetes: `indexOf` traverses the list, `split` two tenths of the string
            ("self.indexOf(7) == 7", ints(50), 1 + 50 + 1),
            ("self.split('a').size() > 0", long.clone(), 1 + 200 + 2),
            // where Kubernetes has no number: n², n·log₂n
            ("self.distinct().size() > 0", ints(100), 1 + 10_000 + 2),
            ("self.sort().size() > 0", ints(100), 1 + 700 + 2),
        ] {
            let (result, spent) = costed(expr, &value);
            assert!(result.is_ok(), "{expr}: {result:?}");
            assert_eq!(spent, cost, "{expr}");
        }
    }

    /// `self.all(x, x > 0)` costs 2 + 5n: 199,999 elements fit in the limit, 200,000 not.
    #[test]
    fn per_call_limit() {
        let (ok, spent) = costed("self.all(x, x >= 0)", &ints(199_999));
        assert_eq!(ok, Ok(true));
        assert_eq!(spent, 999_997);
        let (over, spent) = costed("self.all(x, x >= 0)", &ints(200_000));
        assert_eq!(
            over,
            Err(
                "operation cancelled: actual cost limit exceeded (evaluating the rule costs \
                 more than 1000000, Kubernetes' limit for one rule)"
                    .into()
            )
        );
        // stopped at the element that passed the limit
        assert_eq!(spent, 1_000_002);
    }

    /// Runaway rules stop as soon as they pass the limit: nested comprehensions (10⁹
    /// steps), a quadratic list (10⁸ elements), string work inside a loop, and a failure
    /// that `|| true` would absorb.
    #[test]
    fn runaway_rules_stop() {
        for (expr, value) in [
            (
                "self.all(x, self.all(y, self.all(z, x + y + z >= 0)))",
                ints(1000),
            ),
            ("self.map(x, self.map(y, y)).size() > 0", ints(10_000)),
            ("self.all(x, x in self)", ints(100_000)),
            ("self.all(x, self.all(y, true)) || true", ints(10_000)),
            (
                "self.all(x, self.map(y, string(y)).join(',').contains(string(x)))",
                ints(10_000),
            ),
        ] {
            let started = std::time::Instant::now();
            let (result, spent) = costed(expr, &value);
            assert!(
                result
                    .as_ref()
                    .is_err_and(|e| e.starts_with("operation cancelled")),
                "{expr}: {result:?}"
            );
            assert!(spent < PER_CALL_LIMIT + 100_000, "{expr}: {spent}");
            assert!(started.elapsed().as_secs() < 20, "{expr}");
        }
    }

    /// The rules of one object share Kubernetes' budget; once it is spent (or one rule
    /// passes the per-call limit) the object's further CEL rules are not run.
    #[test]
    fn runtime_budget() {
        // 18 per element: the condition 2, `@result` 1, the list 10 and its items 3, 2
        let rule = compile("self.all(x, [x, x, x].size() > 0)").unwrap();
        let value = ints(40_000); // 720,002 each
        let budget = CostBudget::new();
        for _ in 0..13 {
            assert_eq!(evaluate_in(&rule, &value, Some(&budget)), Ok(true));
        }
        let e = evaluate_in(&rule, &value, Some(&budget)).unwrap_err();
        assert!(
            e.starts_with("validation failed due to running out of cost budget")
                && e.ends_with("; no further CEL rules are run"),
            "{e}"
        );
        // not run: a false rule passes
        let never = compile("false").unwrap();
        assert_eq!(evaluate_in(&never, &Node::Null, Some(&budget)), Ok(true));
        budget.renew();
        assert_eq!(evaluate_in(&never, &Node::Null, Some(&budget)), Ok(false));
        // a per-call failure stops the object's rules too
        let over = compile("self.all(x, self.all(y, true))").unwrap();
        assert!(evaluate_in(&over, &ints(1_000), Some(&budget)).is_err());
        assert_eq!(evaluate_in(&never, &Node::Null, Some(&budget)), Ok(true));
        // without a budget, each evaluation on its own
        for _ in 0..14 {
            assert_eq!(evaluate(&rule, &value), Ok(true));
        }
    }
}
