//! The definitions of the named rules, in the order they run (the list is
//! `named_rules!` in `mod.rs`).

use std::cmp::Ordering;
use std::sync::Arc;

use starlark::values::{Heap, Value};

use super::{
    list_repr, number, number_of, quoted, string, ArgError, Assert, CelExpr, Cx, Definition,
    Failure, Number, Outcome, Pattern,
};
use crate::eval::convert::{
    from_node, from_node_in_fragment, scalar_value, sequence_items, to_node,
};
use crate::typenames::rule as type_name;
use crate::validations::{cel, formats};
use crate::yaml::Node;

/// `min_len=n`: a string (its bytes), map or array at least `n` long.
#[derive(Clone, Debug, PartialEq)]
pub struct MinLen(pub Number);

impl Definition for MinLen {
    const NAME: &'static str = "min_len";
    const ASSERT: Assert = Assert::Reference;

    fn parse<'v>(arg: Value<'v>, _: Heap<'v>) -> Result<(Self, String), ArgError> {
        let n = number(arg)?;
        Ok((MinLen(n), format!("length >= {}", n.truncated())))
    }

    fn check(&self, node: &Node, _: &Cx) -> Outcome {
        let len = length(node)?;
        match compare_length(len, self.0) {
            Ordering::Less => Err(format!("length = {len}").into()),
            _ => Ok(()),
        }
    }
}

/// `max_len=n`: a string (its bytes), map or array at most `n` long.
#[derive(Clone, Debug, PartialEq)]
pub struct MaxLen(pub Number);

impl Definition for MaxLen {
    const NAME: &'static str = "max_len";
    const ASSERT: Assert = Assert::Reference;

    fn parse<'v>(arg: Value<'v>, _: Heap<'v>) -> Result<(Self, String), ArgError> {
        let n = number(arg)?;
        Ok((MaxLen(n), format!("length <= {}", n.truncated())))
    }

    fn check(&self, node: &Node, _: &Cx) -> Outcome {
        let len = length(node)?;
        match compare_length(len, self.0) {
            Ordering::Greater => Err(format!("length = {len}").into()),
            _ => Ok(()),
        }
    }
}

/// `min=x`: a value `>= x` as Starlark compares; the bound as YAML reads it back, or (no
/// YAML value) as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Min(pub Option<Node>);

impl Definition for Min {
    const NAME: &'static str = "min";
    const ASSERT: Assert = Assert::Reference;

    fn parse<'v>(arg: Value<'v>, _: Heap<'v>) -> Result<(Self, String), ArgError> {
        Ok((
            Min(to_node(arg).ok()),
            format!("a value >= {}", arg.to_repr()),
        ))
    }

    fn check(&self, node: &Node, cx: &Cx) -> Outcome {
        bound(node, self.0.as_ref(), cx, true)
    }
}

/// `max=x`: a value `<= x`, as [`Min`].
#[derive(Clone, Debug, PartialEq)]
pub struct Max(pub Option<Node>);

impl Definition for Max {
    const NAME: &'static str = "max";
    const ASSERT: Assert = Assert::Reference;

    fn parse<'v>(arg: Value<'v>, _: Heap<'v>) -> Result<(Self, String), ArgError> {
        Ok((
            Max(to_node(arg).ok()),
            format!("a value <= {}", arg.to_repr()),
        ))
    }

    fn check(&self, node: &Node, cx: &Cx) -> Outcome {
        bound(node, self.0.as_ref(), cx, false)
    }
}

/// `one_not_null=True` or `one_not_null=[keys]`: a map in which exactly one of the keys
/// (`None`: of all its keys) has a value that is not null.
#[derive(Clone, Debug, PartialEq)]
pub struct OneNotNull(pub Option<Vec<Node>>);

impl Definition for OneNotNull {
    const NAME: &'static str = "one_not_null";
    const ASSERT: Assert = Assert::Reference;
    const SEQUENCE: bool = true;

    fn parse<'v>(arg: Value<'v>, heap: Heap<'v>) -> Result<(Self, String), ArgError> {
        if let Some(b) = arg.unpack_bool() {
            if !b {
                return Err(ArgError::Reference("one_not_null= cannot be False".into()));
            }
            return Ok((
                OneNotNull(None),
                "exactly one of all children to be not null".into(),
            ));
        }
        let items = sequence_items(heap, arg).ok_or_else(|| {
            ArgError::Reference(format!(
                "expected True or a sequence of keys, but was a '{}'",
                arg.get_type()
            ))
        })?;
        let keys = items.iter().filter_map(|k| to_node(*k).ok()).collect();
        Ok((
            OneNotNull(Some(keys)),
            format!("exactly one of {} to be not null", list_repr(&items)),
        ))
    }

    fn check(&self, node: &Node, cx: &Cx) -> Outcome {
        let Node::Map(m) = node else {
            return Err(format!(
                "value must be a map or dict, but was '{}'",
                from_node_in_fragment(cx.heap, node).get_type()
            )
            .into());
        };
        if m.items.is_empty() {
            return Err(String::from("value is empty").into());
        }
        let not_null: Vec<&Node> = match &self.0 {
            None => m
                .items
                .iter()
                .filter(|i| !i.value.is_null())
                .map(|i| &i.key)
                .collect(),
            Some(keys) => keys
                .iter()
                .filter(|k| {
                    m.items.iter().any(|i| {
                        !i.value.is_null()
                            && i.key.value_eq(k)
                            && matches!(i.key, Node::Bool(_)) == matches!(k, Node::Bool(_))
                    })
                })
                .collect(),
        };
        match not_null.len() {
            0 => Err(String::from("all values are null").into()),
            1 => Ok(()),
            _ => {
                let reprs: Vec<String> = not_null
                    .iter()
                    .map(|k| scalar_value(cx.heap, k).to_repr())
                    .collect();
                Err(format!("[{}] are not null", reprs.join(", ")).into())
            }
        }
    }
}

/// `one_of=[values]`: one of the values.
#[derive(Clone, Debug, PartialEq)]
pub struct OneOf(pub Vec<Node>);

impl Definition for OneOf {
    const NAME: &'static str = "one_of";
    const ASSERT: Assert = Assert::Reference;
    const SEQUENCE: bool = true;

    fn parse<'v>(arg: Value<'v>, heap: Heap<'v>) -> Result<(Self, String), ArgError> {
        let items = sequence_items(heap, arg).ok_or_else(|| {
            ArgError::Reference(format!(
                "expected keyword argument one_of to be a sequence, but was {}",
                arg.get_type()
            ))
        })?;
        let nodes = items.iter().filter_map(|k| to_node(*k).ok()).collect();
        Ok((OneOf(nodes), format!("one of {}", list_repr(&items))))
    }

    fn check(&self, node: &Node, _: &Cx) -> Outcome {
        if self.0.iter().any(|a| a.value_eq(node)) {
            Ok(())
        } else {
            Err(String::from("not one of allowed values").into())
        }
    }
}

/// `len=n`: a string (its bytes), map or array exactly `n` long.
#[derive(Clone, Debug, PartialEq)]
pub struct Len(pub i64);

impl Definition for Len {
    const NAME: &'static str = "len";
    const ASSERT: Assert = Assert::Made {
        function: "assert.len",
        takes_arg: true,
    };

    fn parse<'v>(arg: Value<'v>, _: Heap<'v>) -> Result<(Self, String), ArgError> {
        match number_of(arg) {
            Some(Number::Int(n)) if arg.get_type() == "int" => {
                Ok((Len(n), format!("length = {n}")))
            }
            _ => Err(ArgError::Type("an int")),
        }
    }

    fn check(&self, node: &Node, _: &Cx) -> Outcome {
        let len = length(node)?;
        if len as i64 == self.0 {
            Ok(())
        } else {
            Err(format!("length = {len}").into())
        }
    }
}

/// `starts_with="s"`: a string starting with `s`.
#[derive(Clone, Debug, PartialEq)]
pub struct StartsWith(pub String);

impl Definition for StartsWith {
    const NAME: &'static str = "starts_with";
    const ASSERT: Assert = Assert::Made {
        function: "assert.starts_with",
        takes_arg: true,
    };

    fn parse<'v>(arg: Value<'v>, _: Heap<'v>) -> Result<(Self, String), ArgError> {
        let s = string(arg)?;
        let desc = format!("a value starting with {}", quoted(&s));
        Ok((StartsWith(s), desc))
    }

    fn check(&self, node: &Node, _: &Cx) -> Outcome {
        if want_string(node)?.starts_with(self.0.as_str()) {
            Ok(())
        } else {
            Err(format!("value does not start with {}", quoted(&self.0)).into())
        }
    }
}

/// `ends_with="s"`: a string ending with `s`.
#[derive(Clone, Debug, PartialEq)]
pub struct EndsWith(pub String);

impl Definition for EndsWith {
    const NAME: &'static str = "ends_with";
    const ASSERT: Assert = Assert::Made {
        function: "assert.ends_with",
        takes_arg: true,
    };

    fn parse<'v>(arg: Value<'v>, _: Heap<'v>) -> Result<(Self, String), ArgError> {
        let s = string(arg)?;
        let desc = format!("a value ending with {}", quoted(&s));
        Ok((EndsWith(s), desc))
    }

    fn check(&self, node: &Node, _: &Cx) -> Outcome {
        if want_string(node)?.ends_with(self.0.as_str()) {
            Ok(())
        } else {
            Err(format!("value does not end with {}", quoted(&self.0)).into())
        }
    }
}

/// `contains=x`: a string containing the string `x`, an array containing the element `x`,
/// a map with the key `x`.
#[derive(Clone, Debug, PartialEq)]
pub struct Contains {
    pub value: Node,
    /// How `x` prints.
    repr: String,
}

impl Definition for Contains {
    const NAME: &'static str = "contains";
    const ASSERT: Assert = Assert::Made {
        function: "assert.contains",
        takes_arg: true,
    };

    fn parse<'v>(arg: Value<'v>, _: Heap<'v>) -> Result<(Self, String), ArgError> {
        let value = to_node(arg).map_err(|e| ArgError::NotYaml(format!("{e:#}")))?;
        let repr = arg.to_repr();
        let desc = format!("a value containing {repr}");
        Ok((Contains { value, repr }, desc))
    }

    fn check(&self, node: &Node, _: &Cx) -> Outcome {
        let wanted = &self.value;
        let found = match node {
            Node::Str(s) => match wanted {
                Node::Str(w) => s.contains(w.as_str()),
                _ => false,
            },
            Node::Array(a) => a.items.iter().any(|i| i.value.value_eq(wanted)),
            Node::Map(m) => m.items.iter().any(|i| i.key.value_eq(wanted)),
            other => {
                return Err(format!(
                    "expected a string, array or map, but was {}",
                    type_name(other)
                )
                .into())
            }
        };
        if found {
            Ok(())
        } else {
            Err(format!("value does not contain {}", self.repr).into())
        }
    }
}

/// `matches="re"`: a string matching the (RE2) regular expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Matches(pub Pattern);

impl Definition for Matches {
    const NAME: &'static str = "matches";
    const ASSERT: Assert = Assert::Made {
        function: "assert.matches",
        takes_arg: true,
    };

    fn parse<'v>(arg: Value<'v>, _: Heap<'v>) -> Result<(Self, String), ArgError> {
        let source = string(arg)?;
        let re = crate::validations::re2::compile(&source)
            .map_err(|e| ArgError::Regex(source.clone(), e))?;
        let desc = format!("a value matching {}", quoted(&source));
        Ok((Matches(Pattern { source, re }), desc))
    }

    fn check(&self, node: &Node, _: &Cx) -> Outcome {
        if self.0.is_match(want_string(node)?) {
            Ok(())
        } else {
            Err(format!("value does not match {}", quoted(&self.0.source)).into())
        }
    }
}

/// `format="name"`: a string of the format (`formats.rs`); a quantity may be a number.
#[derive(Clone, Debug, PartialEq)]
pub struct Format(pub formats::Format);

impl Definition for Format {
    const NAME: &'static str = "format";
    const ASSERT: Assert = Assert::Made {
        function: "assert.format",
        takes_arg: true,
    };

    fn parse<'v>(arg: Value<'v>, _: Heap<'v>) -> Result<(Self, String), ArgError> {
        let s = string(arg)?;
        let f = formats::Format::parse(&s).ok_or(ArgError::UnknownFormat(s))?;
        Ok((Format(f), format!("a valid {}", f.name())))
    }

    fn check(&self, node: &Node, _: &Cx) -> Outcome {
        let f = self.0;
        let text;
        let s = match (node, f) {
            // quantities are often written as plain numbers
            (Node::Int(i), formats::Format::Quantity) => {
                text = i.to_string();
                text.as_str()
            }
            (Node::Float(x), formats::Format::Quantity) => {
                text = crate::yaml::emit::format_float_str(*x);
                text.as_str()
            }
            _ => want_string(node)?,
        };
        if f.is_valid(s) {
            Ok(())
        } else {
            Err(format!("value is not a valid {}", f.name()).into())
        }
    }
}

/// `even=True`: an even number (`even=False` checks nothing; `assert.even()`).
#[derive(Clone, Debug, PartialEq)]
pub struct Even(pub bool);

impl Definition for Even {
    const NAME: &'static str = "even";
    const ASSERT: Assert = Assert::Made {
        function: "assert.even",
        takes_arg: false,
    };

    fn parse<'v>(arg: Value<'v>, _: Heap<'v>) -> Result<(Self, String), ArgError> {
        let on = arg.unpack_bool().ok_or(ArgError::Type("a boolean"))?;
        Ok((Even(on), "an even number".into()))
    }

    fn check(&self, node: &Node, _: &Cx) -> Outcome {
        if self.0 {
            parity(node, true)
        } else {
            Ok(())
        }
    }

    fn is_off(&self) -> bool {
        !self.0
    }
}

/// `odd=True`: an odd number (`odd=False` checks nothing; `assert.odd()`).
#[derive(Clone, Debug, PartialEq)]
pub struct Odd(pub bool);

impl Definition for Odd {
    const NAME: &'static str = "odd";
    const ASSERT: Assert = Assert::Made {
        function: "assert.odd",
        takes_arg: false,
    };

    fn parse<'v>(arg: Value<'v>, _: Heap<'v>) -> Result<(Self, String), ArgError> {
        let on = arg.unpack_bool().ok_or(ArgError::Type("a boolean"))?;
        Ok((Odd(on), "an odd number".into()))
    }

    fn check(&self, node: &Node, _: &Cx) -> Outcome {
        if self.0 {
            parity(node, false)
        } else {
            Ok(())
        }
    }

    fn is_off(&self) -> bool {
        !self.0
    }
}

/// `multiple_of=n`: a number that is a multiple of `n` (not zero).
#[derive(Clone, Debug, PartialEq)]
pub struct MultipleOf(pub Number);

impl Definition for MultipleOf {
    const NAME: &'static str = "multiple_of";
    const ASSERT: Assert = Assert::Made {
        function: "assert.multiple_of",
        takes_arg: true,
    };

    fn parse<'v>(arg: Value<'v>, _: Heap<'v>) -> Result<(Self, String), ArgError> {
        let n = number(arg)?;
        if n.is_zero() {
            return Err(ArgError::Zero);
        }
        Ok((MultipleOf(n), format!("a multiple of {}", n.text())))
    }

    fn check(&self, node: &Node, _: &Cx) -> Outcome {
        Ok(multiple_of(node, self.0)?)
    }
}

/// `cel="expr"`: a value for which the CEL expression holds, with the libraries Kubernetes
/// adds (`cel.rs`). A rule that cannot be evaluated is a rule error; transition rules
/// (`oldSelf`) are skipped.
#[derive(Clone, Debug, PartialEq)]
pub struct Cel(pub CelExpr);

impl Definition for Cel {
    const NAME: &'static str = "cel";
    const ASSERT: Assert = Assert::None;

    fn parse<'v>(arg: Value<'v>, _: Heap<'v>) -> Result<(Self, String), ArgError> {
        let s = string(arg)?;
        let rule = cel::compile(&s).map_err(|e| ArgError::Cel(s.clone(), e))?;
        let desc = format!("a value satisfying the CEL rule {}", quoted(&s));
        Ok((Cel(CelExpr(Arc::new(rule))), desc))
    }

    fn check(&self, node: &Node, cx: &Cx) -> Outcome {
        let rule = &self.0 .0;
        if rule.transition {
            return Ok(());
        }
        match cel::evaluate_in(rule, node, cx.budget) {
            Ok(true) => Ok(()),
            Ok(false) => Err(String::from("CEL rule evaluated to false").into()),
            Err(e) => Err(Failure::RuleError(e)),
        }
    }
}

// ---- checks ------------------------------------------------------------------------

fn want_string(n: &Node) -> Result<&str, String> {
    match n {
        Node::Str(s) => Ok(s),
        other => Err(format!("expected a string, but was {}", type_name(other))),
    }
}

/// The length of a string (in bytes, as Starlark's `len` counts), map or array.
fn length(n: &Node) -> Result<usize, String> {
    match n {
        Node::Str(s) => Ok(crate::bytestr::encode(s).len()),
        Node::Map(m) => Ok(m.items.len()),
        Node::Array(a) => Ok(a.items.len()),
        other => Err(format!("value of type {} has no length", type_name(other))),
    }
}

fn compare_length(len: usize, bound: Number) -> Ordering {
    match bound {
        Number::Int(b) => (len as i128).cmp(&(b as i128)),
        Number::Float(b) => (len as f64).partial_cmp(&b).unwrap_or(Ordering::Equal),
    }
}

/// `min=` (`at_least`) or `max=`: Starlark's comparison of the value and the bound.
fn bound(node: &Node, bound: Option<&Node>, cx: &Cx, at_least: bool) -> Outcome {
    let val = from_node(cx.heap, node);
    let bound = match bound {
        Some(b) => from_node(cx.heap, b),
        None => cx.arg,
    };
    let ord = val.compare(bound).map_err(|_| {
        format!(
            "{} {} {} not implemented",
            val.get_type(),
            if at_least { ">=" } else { "<=" },
            bound.get_type()
        )
    })?;
    let shown = || crate::eval::builtins::go_str(bound);
    match (at_least, ord) {
        (true, Ordering::Less) => Err(format!("value < {}", shown()).into()),
        (false, Ordering::Greater) => Err(format!("value > {}", shown()).into()),
        _ => Ok(()),
    }
}

fn integer(n: &Node) -> Result<Option<i128>, String> {
    match n {
        Node::Int(i) => Ok(Some(i.get())),
        Node::Float(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e30 => {
            Ok(Some(*f as i128))
        }
        Node::Float(_) => Ok(None),
        other => Err(format!("expected a number, but was {}", type_name(other))),
    }
}

/// `even=True` (`want_even`) or `odd=True`.
fn parity(n: &Node, want_even: bool) -> Outcome {
    let Some(i) = integer(n)? else {
        return Err(String::from("value is not an integer").into());
    };
    match (want_even, i % 2 == 0) {
        (true, true) | (false, false) => Ok(()),
        (true, false) => Err(String::from("value is odd").into()),
        (false, true) => Err(String::from("value is even").into()),
    }
}

/// Whether `n` is a multiple of `m` (schema export checks defaults with it, too).
pub fn multiple_of(n: &Node, m: Number) -> Result<(), String> {
    let ok = match (n, m) {
        (Node::Int(i), Number::Int(d)) => d != 0 && i.get().checked_rem(d.into()).unwrap_or(0) == 0,
        (Node::Int(_) | Node::Float(_), _) => {
            let v = match n {
                Node::Int(i) => i.get() as f64,
                Node::Float(f) => *f,
                _ => 0.0,
            };
            let d = match m {
                Number::Int(i) => i as f64,
                Number::Float(f) => f,
            };
            if d == 0.0 || !v.is_finite() {
                false
            } else {
                let q = v / d;
                (q - q.round()).abs() < 1e-9
            }
        }
        (other, _) => {
            return Err(format!("expected a number, but was {}", type_name(other)));
        }
    };
    if ok {
        Ok(())
    } else {
        Err(format!("value is not a multiple of {}", m.text()))
    }
}
