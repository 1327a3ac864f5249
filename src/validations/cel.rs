//! `cel=`: Common Expression Language rules (the `cel` crate), with `self` bound to the
//! value. Rules that use `oldSelf` are transition rules: there is no old value when
//! rendering, so they are skipped.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use cel::objects::Key;
use cel::{Context, Program, Value};

use crate::yaml::Node;

pub struct CelRule {
    program: Program,
    /// Uses `oldSelf`: skipped when rendering.
    pub transition: bool,
    /// The expression as written (exported by `--data-values-schema-inspect`).
    pub source: String,
}

/// Expressions longer than this are refused (the parser recurses on nesting).
const MAX_LEN: usize = 10_000;
/// Deepest bracket nesting accepted.
const MAX_NESTING: usize = 64;

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
    let compiled = catch_unwind(|| Program::compile(expr))
        .map_err(|_| "the CEL parser failed on this expression".to_owned())?;
    let program = compiled.map_err(|e| e.to_string().trim().to_owned())?;
    let transition = program.references().has_variable("oldSelf");
    Ok(CelRule {
        program,
        transition,
        source: expr.to_owned(),
    })
}

/// Evaluates the rule on `value`: Ok(true) when it holds, Ok(false) when it evaluated to
/// false, Err(message) when evaluation failed or did not give a bool.
pub fn evaluate(rule: &CelRule, value: &Node) -> Result<bool, String> {
    let mut ctx = Context::default();
    ctx.add_variable_from_value("self", to_cel(value, 0));
    let result = catch_unwind(AssertUnwindSafe(|| rule.program.execute(&ctx)))
        .map_err(|_| "CEL evaluation failed".to_owned())?;
    match result {
        Ok(Value::Bool(b)) => Ok(b),
        Ok(other) => Err(format!(
            "CEL rule evaluated to {}, not a bool",
            other.type_of()
        )),
        Err(e) => Err(e.to_string()),
    }
}

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
        Node::Str(s) => Value::String(Arc::new(s.clone())),
        Node::Array(a) => Value::List(Arc::new(
            a.items
                .iter()
                .map(|i| to_cel(&i.value, depth + 1))
                .collect(),
        )),
        Node::Map(m) => {
            let mut map: HashMap<Key, Value> = HashMap::with_capacity(m.items.len());
            for i in &m.items {
                let key = match &i.key {
                    Node::Str(s) => Key::String(Arc::new(s.clone())),
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

    #[test]
    fn evaluates_rules() {
        let r = compile("self.min <= self.max").unwrap();
        assert!(!r.transition);
        let v = map(&[("min", Node::Int(10.into())), ("max", Node::Int(5.into()))]);
        assert_eq!(evaluate(&r, &v), Ok(false));
        let r = compile("self.startsWith('kube')").unwrap();
        assert_eq!(evaluate(&r, &Node::Str("kube-system".into())), Ok(true));
        assert!(compile("self == oldSelf").unwrap().transition);
        assert!(compile("self ==").is_err());
        assert!(compile(&format!("{}1{}", "(".repeat(5000), ")".repeat(5000))).is_err());
        let r = compile("self.nope > 1").unwrap();
        assert!(evaluate(&r, &map(&[])).is_err());
        let r = compile("self + 1").unwrap();
        assert!(evaluate(&r, &Node::Int(1.into())).is_err());
    }
}
