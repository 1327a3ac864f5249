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

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, OnceLock};

use cel::common::ast::{EntryExpr, Expr, IdedExpr};
use cel::objects::Key;
use cel::{Context, Env, Value};

use crate::yaml::Node;

pub struct CelRule {
    /// The expression, macros expanded and escaped property names resolved.
    expr: IdedExpr,
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
    Ok(CelRule {
        expr: tree,
        transition,
        source: expr.to_owned(),
    })
}

/// Evaluates the rule on `value`: Ok(true) when it holds, Ok(false) when it evaluated to
/// false, Err(message) for a rule error (evaluation failed or did not give a bool).
pub fn evaluate(rule: &CelRule, value: &Node) -> Result<bool, String> {
    let mut ctx = Context::with_env(Arc::clone(env()));
    ctx.add_variable_from_value("self", to_cel(value, 0));
    let result = catch_unwind(AssertUnwindSafe(|| ctx.resolve(&rule.expr)))
        .map_err(|_| "CEL evaluation failed".to_owned())?;
    match result {
        Ok(Value::Bool(b)) => Ok(b),
        Ok(other) => Err(format!(
            "the rule evaluated to {}, not to a bool",
            other.type_of()
        )),
        Err(e) => Err(error_text(&e)),
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
}
