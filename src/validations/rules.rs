//! One validation: the rules of one `@schema/validation` / `@assert/validate` annotation
//! (custom rules, named rules, `not_null=`, `when=`, `warn=`), parsed from the annotation's
//! Starlark arguments, and run on a node.

use std::cmp::Ordering;

use regex::Regex;
use starlark::docs::{DocItem, DocMember};
use starlark::eval::Evaluator;
use starlark::values::float::StarlarkFloat;
use starlark::values::list::ListRef;
use starlark::values::tuple::TupleRef;
use starlark::values::{Heap, Value, ValueLike};

use super::cel::{self, CelRule};
use super::checks::{self, Number};
use super::formats::{self, Format};
use crate::eval::convert::{
    from_node, from_node_in_fragment, scalar_value, sequence_items, to_node,
};
use crate::eval::runtime::call_catching;
use crate::eval::wording::message_text;
use crate::yaml::{Annotation, FileNames, Node, Pos};

/// Named rules, in the order they run on a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RuleKind {
    MinLen,
    MaxLen,
    Min,
    Max,
    OneNotNull,
    OneOf,
    Len,
    StartsWith,
    EndsWith,
    Contains,
    Matches,
    Format,
    Even,
    Odd,
    MultipleOf,
    Cel,
}

impl RuleKind {
    fn from_kwarg(name: &str) -> Option<RuleKind> {
        Some(match name {
            "min_len" => RuleKind::MinLen,
            "max_len" => RuleKind::MaxLen,
            "min" => RuleKind::Min,
            "max" => RuleKind::Max,
            "one_not_null" => RuleKind::OneNotNull,
            "one_of" => RuleKind::OneOf,
            "len" => RuleKind::Len,
            "starts_with" => RuleKind::StartsWith,
            "ends_with" => RuleKind::EndsWith,
            "contains" => RuleKind::Contains,
            "matches" => RuleKind::Matches,
            "format" => RuleKind::Format,
            "even" => RuleKind::Even,
            "odd" => RuleKind::Odd,
            "multiple_of" => RuleKind::MultipleOf,
            "cel" => RuleKind::Cel,
            _ => return None,
        })
    }
}

enum Arg<'v> {
    /// min/max bound, contains value (with its node form).
    Value(Value<'v>, Option<Node>),
    /// min_len/max_len bound.
    Number(Number),
    /// one_not_null: None = all children.
    Keys(Option<Vec<Node>>),
    /// one_of's allowed values.
    Seq(Vec<Node>),
    Int(i64),
    Str(String),
    Regex(Regex, String),
    Format(Format),
    Cel(Box<CelRule>),
    /// even=False / odd=False: nothing to check.
    Off,
}

struct Named<'v> {
    kind: RuleKind,
    desc: String,
    arg: Arg<'v>,
    /// Where the rule was written (`by:`).
    by: Pos,
}

struct Custom<'v> {
    desc: String,
    func: Value<'v>,
    message: Option<String>,
    by: Pos,
}

/// Where the arguments of an annotation were written: all where the annotation is, or
/// (an annotation an overlay merged) each where it was written.
#[derive(Clone, Copy)]
pub struct Written<'a> {
    pub pos: &'a Pos,
    annotation: Option<&'a Annotation>,
}

impl<'a> Written<'a> {
    /// Every argument written at `pos` (`assert.validate(...)`).
    pub fn at(pos: &'a Pos) -> Self {
        Written {
            pos,
            annotation: None,
        }
    }

    /// The arguments of `a`, each where it was written.
    pub fn of(a: &'a Annotation) -> Self {
        Written {
            pos: &a.pos,
            annotation: Some(a),
        }
    }

    fn arg(&self, i: usize) -> &'a Pos {
        self.annotation.map_or(self.pos, |a| a.arg_pos(i))
    }

    fn kwarg(&self, i: usize) -> &'a Pos {
        self.annotation.map_or(self.pos, |a| a.kwarg_pos(i))
    }
}

/// Why an annotation's arguments do not make rules.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    pub message: String,
    /// Where the faulty argument was written, when `message` does not say it (some
    /// messages are the reference's, which name no position).
    pub unnamed_at: Option<String>,
}

impl ParseError {
    fn new(message: String) -> Self {
        ParseError {
            message,
            unnamed_at: None,
        }
    }

    /// The message, with the position it names or is missing.
    pub fn positioned(&self) -> String {
        match &self.unnamed_at {
            Some(at) => format!("{} (at {at})", self.message),
            None => self.message.clone(),
        }
    }
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The parsed rules of one annotation.
pub struct Validation<'v> {
    custom: Vec<Custom<'v>>,
    named: Vec<Named<'v>>,
    /// `not_null=True`, with its description and where it was written.
    not_null: Option<(String, Pos)>,
    when: Option<Value<'v>>,
    /// `warn=True`: violations are reported as warnings.
    pub warn: bool,
}

/// A rule that did not hold.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    pub desc: String,
    pub by: Pos,
    pub found: Option<String>,
    /// A custom violation message (3-tuple rule), replacing the `must be:`/`found:` lines.
    pub message: Option<String>,
    /// The rule could not be evaluated (a `cel=` rule that fails: an undeclared
    /// function, no matching overload, a missing key): the package author's mistake,
    /// not the value's. `found` is the error.
    pub rule_error: bool,
}

fn type_of(v: Value) -> &'static str {
    v.get_type()
}

fn is_number(v: Value) -> bool {
    matches!(v.get_type(), "int" | "float")
}

fn number_of(v: Value) -> Option<Number> {
    if let Some(i) = v.unpack_i32() {
        return Some(Number::Int(i as i64));
    }
    if v.get_type() == "int" {
        return to_node(v).ok().and_then(|n| match n {
            Node::Int(i) => Some(Number::of_int(i.get())),
            _ => None,
        });
    }
    v.downcast_ref::<StarlarkFloat>()
        .map(|f| Number::Float(f.0))
}

/// `repr(v)` as the reference prints it: functions as `<function name>`.
fn go_repr(v: Value) -> String {
    if v.get_type() == "function" {
        let r = v.to_repr();
        if r.starts_with('<') {
            return r;
        }
        let name = r.rsplit('.').next().unwrap_or(&r);
        return format!("<function {name}>");
    }
    if let Some(l) = ListRef::from_value(v) {
        let parts: Vec<String> = l.iter().map(go_repr).collect();
        return format!("[{}]", parts.join(", "));
    }
    if let Some(t) = TupleRef::from_value(v) {
        let parts: Vec<String> = t.iter().map(go_repr).collect();
        let comma = if parts.len() == 1 { "," } else { "" };
        return format!("({}{comma})", parts.join(", "));
    }
    v.to_repr()
}

fn list_repr(items: &[Value]) -> String {
    let parts: Vec<String> = items.iter().map(|v| v.to_repr()).collect();
    format!("[{}]", parts.join(", "))
}

fn is_callable(v: Value) -> bool {
    v.get_type() == "function"
}

/// A custom rule's check: a function, or an object with a `check()` method (an
/// assertion object). The reference words a value that is neither by whether it has
/// attributes at all (a string, a list, a struct: "or assertion object") or none (an
/// int, a tuple).
fn check_assertion<'v>(v: Value<'v>, heap: Heap<'v>) -> Result<(), String> {
    if is_callable(v) {
        return Ok(());
    }
    match v.get_attr("check", heap) {
        Ok(Some(check)) if is_callable(check) => Ok(()),
        Ok(Some(check)) => Err(format!(
            "expected struct with attribute check(), but was {}",
            type_of(check)
        )),
        _ if v.dir_attr().is_empty() => Err(format!(
            "expected second item in the 2-tuple to be an assertion function, but was {}",
            type_of(v)
        )),
        _ => Err(format!(
            "expected second item in tuple to be an assertion function or assertion object, but was a {}",
            type_of(v)
        )),
    }
}

/// `("description", arg)` form of a named rule: the description and the argument.
fn split_description<'v>(kind: Option<RuleKind>, v: Value<'v>) -> (Option<String>, Value<'v>) {
    let Some(t) = TupleRef::from_value(v) else {
        return (None, v);
    };
    let items = t.content();
    if items.len() != 2 {
        return (None, v);
    }
    let Some(desc) = items[0].unpack_str() else {
        return (None, v);
    };
    let second = items[1];
    // a tuple of allowed values / keys stays one unless its second item fits the rule
    if matches!(kind, Some(RuleKind::OneOf) | Some(RuleKind::OneNotNull))
        && ListRef::from_value(second).is_none()
        && TupleRef::from_value(second).is_none()
        && second.unpack_bool().is_none()
        && second.get_type() != "set"
        && second.get_type() != "yamlfragment"
    {
        return (None, v);
    }
    (Some(desc.to_owned()), second)
}

/// Parses an annotation's arguments; the error's message is the text after
/// `Invalid @<name> annotation - `; `names` are the run's file names (messages name
/// where arguments were written).
pub fn parse<'v>(
    heap: Heap<'v>,
    names: &FileNames,
    written: Written,
    args: &[Value<'v>],
    kwargs: &[(String, Value<'v>)],
) -> Result<Validation<'v>, ParseError> {
    let pos = written.pos;
    if args.is_empty() && kwargs.is_empty() {
        return Err(ParseError::new(format!(
            "expected annotation to have 2-tuple as argument(s), but found no arguments (by {})",
            names.describe(pos)
        )));
    }
    let mut custom = Vec::new();
    for (i, a) in args.iter().enumerate() {
        let by = written.arg(i);
        let at = names.describe(by);
        let Some(t) = TupleRef::from_value(*a) else {
            return Err(ParseError::new(format!(
                "expected annotation to have 2-tuple as argument(s), but found: {} (by {at})",
                go_repr(*a)
            )));
        };
        let items = t.content();
        let message = match items.len() {
            2 => None,
            3 => match items[2].unpack_str() {
                Some(m) if !m.is_empty() => Some(m.to_owned()),
                _ => {
                    return Err(ParseError::new(format!(
                        "expected 2-tuple, but found tuple with length 3 (by {at})"
                    )))
                }
            },
            n => {
                return Err(ParseError::new(format!(
                    "expected 2-tuple, but found tuple with length {n} (by {at})"
                )))
            }
        };
        let Some(desc) = items[0].unpack_str() else {
            return Err(ParseError::new(format!(
                "expected first item in the 2-tuple to be a string describing a valid value, but was {} (at {at})",
                type_of(items[0])
            )));
        };
        let func = items[1];
        check_assertion(func, heap).map_err(|e| ParseError::new(format!("{e} (at {at})")))?;
        custom.push(Custom {
            desc: desc.to_owned(),
            func,
            message,
            by: by.clone(),
        });
    }

    let mut v = Validation {
        custom,
        named: Vec::new(),
        not_null: None,
        when: None,
        warn: false,
    };
    for (i, (name, value)) in kwargs.iter().enumerate() {
        let by = written.kwarg(i);
        let at = names.describe(by);
        let name = name.as_str();
        let positioned = |message: String| ParseError::new(format!("{message} (at {at})"));
        match name {
            "not_null" => {
                let (desc, value) = split_description(None, *value);
                match value.unpack_bool() {
                    Some(true) => {
                        v.not_null = Some((desc.unwrap_or_else(|| "not null".into()), by.clone()))
                    }
                    Some(false) => v.not_null = None,
                    None => {
                        return Err(positioned(format!(
                            "expected keyword argument \"not_null\" to be a boolean, but was {}",
                            type_of(value)
                        )))
                    }
                }
            }
            "warn" => match value.unpack_bool() {
                Some(b) => v.warn = b,
                None => {
                    return Err(positioned(format!(
                        "expected keyword argument \"warn\" to be a boolean, but was {}",
                        type_of(*value)
                    )))
                }
            },
            "when" => {
                if !is_callable(*value) {
                    return Err(positioned(format!(
                        "expected keyword argument \"when\" to be a function, but was {}",
                        type_of(*value)
                    )));
                }
                v.when = Some(*value);
            }
            _ => {
                let Some(kind) = RuleKind::from_kwarg(name) else {
                    return Err(positioned(format!("unknown keyword argument \"{name}\"")));
                };
                let (desc, value) = split_description(Some(kind), *value);
                let (default_desc, arg) =
                    named_arg(heap, kind, name, value, &at).map_err(|e| match e {
                        ArgError::Positioned(m) => ParseError::new(m),
                        ArgError::Unpositioned(m) => ParseError {
                            message: m,
                            unnamed_at: Some(at.clone()),
                        },
                    })?;
                v.named.push(Named {
                    kind,
                    desc: desc.unwrap_or(default_desc),
                    arg,
                    by: by.clone(),
                });
            }
        }
    }
    v.named.sort_by_key(|n| n.kind);
    Ok(v)
}

/// A bad argument of a named rule: a message that names where it was written, or one
/// (the reference's wording) that does not.
enum ArgError {
    Positioned(String),
    Unpositioned(String),
}

impl From<String> for ArgError {
    fn from(m: String) -> Self {
        ArgError::Positioned(m)
    }
}

fn named_arg<'v>(
    heap: Heap<'v>,
    kind: RuleKind,
    name: &str,
    value: Value<'v>,
    at: &str,
) -> Result<(String, Arg<'v>), ArgError> {
    let want = |what: &str| -> String {
        format!(
            "expected keyword argument \"{name}\" to be {what}, but was {} (at {at})",
            type_of(value)
        )
    };
    let string = || {
        value
            .unpack_str()
            .map(str::to_owned)
            .ok_or_else(|| want("a string"))
    };
    Ok(match kind {
        RuleKind::MinLen | RuleKind::MaxLen => {
            let n = number_of(value)
                .filter(|_| is_number(value))
                .ok_or_else(|| want("a number"))?;
            let shown = match n {
                Number::Int(i) => i.to_string(),
                Number::Float(f) => format!("{}", f.trunc() as i64),
            };
            let op = if kind == RuleKind::MinLen { ">=" } else { "<=" };
            (format!("length {op} {shown}"), Arg::Number(n))
        }
        RuleKind::Min | RuleKind::Max => {
            let op = if kind == RuleKind::Min { ">=" } else { "<=" };
            (
                format!("a value {op} {}", value.to_repr()),
                Arg::Value(value, to_node(value).ok()),
            )
        }
        RuleKind::OneNotNull => {
            if let Some(b) = value.unpack_bool() {
                if !b {
                    return Err(ArgError::Unpositioned(
                        "one_not_null= cannot be False".into(),
                    ));
                }
                (
                    "exactly one of all children to be not null".into(),
                    Arg::Keys(None),
                )
            } else {
                let items = sequence_items(heap, value).ok_or_else(|| {
                    ArgError::Unpositioned(format!(
                        "expected True or a sequence of keys, but was a '{}'",
                        type_of(value)
                    ))
                })?;
                let keys: Vec<Node> = items.iter().filter_map(|k| to_node(*k).ok()).collect();
                (
                    format!("exactly one of {} to be not null", list_repr(&items)),
                    Arg::Keys(Some(keys)),
                )
            }
        }
        RuleKind::OneOf => {
            let items = sequence_items(heap, value).ok_or_else(|| {
                ArgError::Unpositioned(format!(
                    "expected keyword argument one_of to be a sequence, but was {}",
                    type_of(value)
                ))
            })?;
            let nodes: Vec<Node> = items.iter().filter_map(|k| to_node(*k).ok()).collect();
            (format!("one of {}", list_repr(&items)), Arg::Seq(nodes))
        }
        RuleKind::Len => {
            let n = match number_of(value) {
                Some(Number::Int(i)) if value.get_type() == "int" => i,
                _ => return Err(want("an int").into()),
            };
            (format!("length = {n}"), Arg::Int(n))
        }
        RuleKind::StartsWith => {
            let s = string()?;
            (
                format!("a value starting with {}", checks::quoted(&s)),
                Arg::Str(s),
            )
        }
        RuleKind::EndsWith => {
            let s = string()?;
            (
                format!("a value ending with {}", checks::quoted(&s)),
                Arg::Str(s),
            )
        }
        RuleKind::Contains => {
            let node = to_node(value).map_err(|e| format!("{e:#} (at {at})"))?;
            (
                format!("a value containing {}", value.to_repr()),
                Arg::Value(value, Some(node)),
            )
        }
        RuleKind::Matches => {
            let s = string()?;
            let re = super::re2::compile(&s).map_err(|e| {
                format!(
                    "expected keyword argument \"matches\" to be a valid regular expression, but {}: {e} (at {at})",
                    checks::quoted(&s),
                )
            })?;
            (
                format!("a value matching {}", checks::quoted(&s)),
                Arg::Regex(re, s),
            )
        }
        RuleKind::Format => {
            let s = string()?;
            let f = Format::parse(&s).ok_or_else(|| {
                format!(
                    "unknown format {} (want one of: {}) (at {at})",
                    checks::quoted(&s),
                    formats::NAMES.join(", ")
                )
            })?;
            (format!("a valid {}", f.name()), Arg::Format(f))
        }
        RuleKind::Even | RuleKind::Odd => {
            let b = value.unpack_bool().ok_or_else(|| want("a boolean"))?;
            let desc = if kind == RuleKind::Even {
                "an even number"
            } else {
                "an odd number"
            };
            (desc.into(), if b { Arg::Int(0) } else { Arg::Off })
        }
        RuleKind::MultipleOf => {
            let n = number_of(value)
                .filter(|_| is_number(value))
                .ok_or_else(|| want("a number"))?;
            if n.is_zero() {
                return Err(format!(
                    "expected keyword argument \"multiple_of\" to be a non-zero number (at {at})"
                )
                .into());
            }
            (format!("a multiple of {}", n.text()), Arg::Number(n))
        }
        RuleKind::Cel => {
            let s = string()?;
            let rule = cel::compile(&s).map_err(|e| {
                format!(
                    "cel= expression {} does not compile: {e} (at {at})",
                    checks::quoted(&s)
                )
            })?;
            (
                format!("a value satisfying the CEL rule {}", checks::quoted(&s)),
                Arg::Cel(Box::new(rule)),
            )
        }
    })
}

/// What a node being validated is, for `when=` and custom messages.
pub struct Subject<'n> {
    pub node: &'n Node,
    /// `{key}` of custom messages: the map key, the array index, `(document)`.
    pub key: std::borrow::Cow<'n, str>,
    /// The cost budget of the CEL rules of the object the node belongs to, if any.
    pub budget: Option<&'n cel::CostBudget>,
}

/// Number of positional parameters a function takes (None when unknown).
fn param_count(v: Value) -> Option<(usize, bool)> {
    match v.documentation() {
        DocItem::Member(DocMember::Function(f)) => Some((
            f.params.pos_only.len() + f.params.pos_or_named.len(),
            f.params.args.is_some(),
        )),
        _ => None,
    }
}

/// Removes the `fail: ` / `check: ` prefix of an assertion's error.
fn found_text(msg: &str) -> String {
    let msg = msg.trim_end();
    msg.strip_prefix("fail: ")
        .or_else(|| msg.strip_prefix("check: "))
        .unwrap_or(msg)
        .to_owned()
}

/// Fills `{key}`, `{value}`, `{desc}`, `{failure}` (`{{`/`}}` escape braces).
fn fill_message(template: &str, fields: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if let Some(after) = tail.strip_prefix("{{") {
            out.push('{');
            rest = after;
        } else if let Some(after) = tail.strip_prefix("}}") {
            out.push('}');
            rest = after;
        } else if tail.starts_with('{') {
            match tail.find('}') {
                Some(end) => {
                    let name = &tail[1..end];
                    match fields.iter().find(|(k, _)| *k == name) {
                        Some((_, v)) => out.push_str(v),
                        None => out.push_str(&tail[..=end]),
                    }
                    rest = &tail[end + 1..];
                }
                None => {
                    out.push_str(tail);
                    rest = "";
                }
            }
        } else {
            out.push('}');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

impl<'v> Validation<'v> {
    /// Runs the rules on `subject`. `make_ctx` builds `when=`'s second argument. The error
    /// is a failure of `when=` (reported as `Validating <path>: <error>`).
    pub fn run(
        &self,
        eval: &mut Evaluator<'v, '_, '_>,
        subject: &Subject,
        make_ctx: &mut dyn FnMut(Heap<'v>) -> Value<'v>,
    ) -> Result<Vec<Violation>, String> {
        let node = subject.node;
        if node.is_null() && self.not_null.is_none() {
            return Ok(Vec::new());
        }
        let heap = eval.heap();
        // only `when=` and custom rules need the value in Starlark
        let value = if self.when.is_some() || !self.custom.is_empty() {
            from_node_in_fragment(heap, node)
        } else {
            Value::new_none()
        };
        if let Some(when) = self.when {
            let n = match param_count(when) {
                Some((n, varargs)) => {
                    if !varargs && !(1..=2).contains(&n) {
                        return Err(format!(
                            "Failed to evaluate when=: function must accept 1 or 2 arguments ({n} given)"
                        ));
                    }
                    n.clamp(1, 2)
                }
                None => 1,
            };
            let result = if n == 2 {
                let ctx = make_ctx(heap);
                call_catching(eval, when, &[value, ctx])
            } else {
                call_catching(eval, when, &[value])
            };
            let r =
                result.map_err(|e| format!("Failure evaluating when=: {}", message_text(&e)))?;
            match r.unpack_bool() {
                Some(true) => {}
                Some(false) => return Ok(Vec::new()),
                None => return Err(format!("want when= to be bool, got {}", r.get_type())),
            }
        }
        let mut out = Vec::new();
        if let Some((desc, by)) = &self.not_null {
            if node.is_null() {
                out.push(violation(desc.clone(), by, Some("value is null".into())));
                return Ok(out);
            }
        }
        for c in &self.custom {
            self.run_custom(eval, c, value, subject, &mut out);
        }
        for n in &self.named {
            if let Arg::Cel(rule) = &n.arg {
                if let Some(v) = run_cel(rule, n, node, subject.budget) {
                    out.push(v);
                }
                continue;
            }
            if let Err(found) = self.run_named(eval.heap(), n, node) {
                out.push(violation(n.desc.clone(), &n.by, Some(found)));
            }
        }
        Ok(out)
    }

    fn run_custom(
        &self,
        eval: &mut Evaluator<'v, '_, '_>,
        c: &Custom<'v>,
        value: Value<'v>,
        subject: &Subject,
        out: &mut Vec<Violation>,
    ) {
        let heap = eval.heap();
        let func = if is_callable(c.func) {
            Ok(c.func)
        } else {
            c.func.get_attr_error("check", heap)
        };
        let result = func.and_then(|f| call_catching(eval, f, &[value]));
        let found = match result {
            Ok(r) if r.is_none() || r.unpack_bool() == Some(true) => return,
            Ok(_) => None,
            Err(e) => Some(found_text(&message_text(&e))),
        };
        let message = c.message.as_ref().map(|m| {
            let shown = from_node(eval.heap(), subject.node).to_repr();
            fill_message(
                m,
                &[
                    ("key", &subject.key),
                    ("value", &shown),
                    ("desc", &c.desc),
                    ("failure", found.as_deref().unwrap_or("")),
                ],
            )
        });
        out.push(Violation {
            desc: c.desc.clone(),
            by: c.by.clone(),
            found: if message.is_some() { None } else { found },
            message,
            rule_error: false,
        });
    }

    fn run_named(&self, heap: Heap<'v>, n: &Named<'v>, node: &Node) -> Result<(), String> {
        match (&n.arg, n.kind) {
            (Arg::Value(bound, bound_node), RuleKind::Min | RuleKind::Max) => {
                let val = from_node(heap, node);
                let bound = match bound_node {
                    Some(b) => from_node(heap, b),
                    None => *bound,
                };
                let min = n.kind == RuleKind::Min;
                let ord = val.compare(bound).map_err(|_| {
                    format!(
                        "{} {} {} not implemented",
                        val.get_type(),
                        if min { ">=" } else { "<=" },
                        bound.get_type()
                    )
                })?;
                match (min, ord) {
                    (true, Ordering::Less) => {
                        Err(format!("value < {}", crate::eval::builtins::go_str(bound)))
                    }
                    (false, Ordering::Greater) => {
                        Err(format!("value > {}", crate::eval::builtins::go_str(bound)))
                    }
                    _ => Ok(()),
                }
            }
            (Arg::Number(bound), RuleKind::MinLen | RuleKind::MaxLen) => {
                let len = checks::length(node)?;
                let ord = match bound {
                    Number::Int(b) => (len as i128).cmp(&(*b as i128)),
                    Number::Float(b) => (len as f64).partial_cmp(b).unwrap_or(Ordering::Equal),
                };
                match (n.kind, ord) {
                    (RuleKind::MinLen, Ordering::Less) | (RuleKind::MaxLen, Ordering::Greater) => {
                        Err(format!("length = {len}"))
                    }
                    _ => Ok(()),
                }
            }
            (Arg::Keys(keys), _) => one_not_null(heap, node, keys.as_deref()),
            (Arg::Seq(allowed), _) => {
                if allowed.iter().any(|a| a.value_eq(node)) {
                    Ok(())
                } else {
                    Err("not one of allowed values".into())
                }
            }
            (Arg::Int(want), RuleKind::Len) => checks::len_eq(node, *want),
            (Arg::Int(_), RuleKind::Even) => checks::parity(node, true),
            (Arg::Int(_), RuleKind::Odd) => checks::parity(node, false),
            (Arg::Str(s), RuleKind::StartsWith) => checks::starts_with(node, s),
            (Arg::Str(s), _) => checks::ends_with(node, s),
            (Arg::Value(v, wanted), _) => {
                let wanted = wanted.clone().unwrap_or(Node::Null);
                checks::contains(node, &wanted, &v.to_repr())
            }
            (Arg::Regex(re, s), _) => checks::matches(node, re, s),
            (Arg::Format(f), _) => checks::format(node, *f),
            (Arg::Number(m), _) => checks::multiple_of(node, *m),
            // run by `run_cel`
            (Arg::Cel(_), _) => Ok(()),
            (Arg::Int(_), _) | (Arg::Off, _) => Ok(()),
        }
    }
}

fn violation(desc: String, by: &Pos, found: Option<String>) -> Violation {
    Violation {
        desc,
        by: by.clone(),
        found,
        message: None,
        rule_error: false,
    }
}

/// A `cel=` rule: a violation when it evaluates to false, a rule error when it cannot be
/// evaluated. Transition rules (`oldSelf`) are skipped.
fn run_cel(
    rule: &CelRule,
    n: &Named,
    node: &Node,
    budget: Option<&cel::CostBudget>,
) -> Option<Violation> {
    if rule.transition {
        return None;
    }
    match cel::evaluate_in(rule, node, budget) {
        Ok(true) => None,
        Ok(false) => Some(violation(
            n.desc.clone(),
            &n.by,
            Some("CEL rule evaluated to false".into()),
        )),
        Err(e) => Some(Violation {
            rule_error: true,
            ..violation(n.desc.clone(), &n.by, Some(e))
        }),
    }
}

/// A named rule as schema export reads it.
pub struct RuleView<'a> {
    pub kind: RuleKind,
    /// The `must be:` text.
    pub desc: &'a str,
    pub arg: ArgView<'a>,
    /// Where the rule was written.
    pub by: &'a Pos,
}

/// The argument of a named rule, as schema export reads it.
pub enum ArgView<'a> {
    /// min/max bound, contains value (as a node, when it converts to one).
    Value(Option<&'a Node>),
    /// min_len/max_len bound, multiple_of divisor.
    Number(Number),
    /// one_not_null keys (None = all children).
    Keys(Option<&'a [Node]>),
    /// one_of's allowed values.
    Values(&'a [Node]),
    /// len; even/odd when on.
    Int(i64),
    /// starts_with/ends_with text, matches pattern.
    Str(&'a str),
    Format(Format),
    Cel {
        source: &'a str,
    },
    /// even=False / odd=False.
    Off,
}

impl Validation<'_> {
    /// `not_null=True`'s description and where it was written, when set.
    pub fn not_null_rule(&self) -> Option<(&str, &Pos)> {
        self.not_null.as_ref().map(|(d, by)| (d.as_str(), by))
    }

    /// Whether the rules only apply `when=` a condition holds.
    pub fn has_when(&self) -> bool {
        self.when.is_some()
    }

    /// The descriptions of the custom (positional) rules and where each was written, in
    /// order.
    pub fn custom_rules(&self) -> Vec<(&str, &Pos)> {
        self.custom
            .iter()
            .map(|c| (c.desc.as_str(), &c.by))
            .collect()
    }

    /// The named rules, in the order they run.
    pub fn named_rules(&self) -> Vec<RuleView<'_>> {
        self.named
            .iter()
            .map(|n| RuleView {
                kind: n.kind,
                desc: &n.desc,
                by: &n.by,
                arg: match &n.arg {
                    Arg::Value(_, node) => ArgView::Value(node.as_ref()),
                    Arg::Number(x) => ArgView::Number(*x),
                    Arg::Keys(k) => ArgView::Keys(k.as_deref()),
                    Arg::Seq(v) => ArgView::Values(v),
                    Arg::Int(i) => ArgView::Int(*i),
                    Arg::Str(s) | Arg::Regex(_, s) => ArgView::Str(s),
                    Arg::Format(f) => ArgView::Format(*f),
                    Arg::Cel(rule) => ArgView::Cel {
                        source: &rule.source,
                    },
                    Arg::Off => ArgView::Off,
                },
            })
            .collect()
    }
}

fn one_not_null<'v>(heap: Heap<'v>, node: &Node, keys: Option<&[Node]>) -> Result<(), String> {
    let Node::Map(m) = node else {
        return Err(format!(
            "value must be a map or dict, but was '{}'",
            from_node_in_fragment(heap, node).get_type()
        ));
    };
    if m.items.is_empty() {
        return Err("value is empty".into());
    }
    let not_null: Vec<&Node> = match keys {
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
        0 => Err("all values are null".into()),
        1 => Ok(()),
        _ => {
            let reprs: Vec<String> = not_null
                .iter()
                .map(|k| scalar_value(heap, k).to_repr())
                .collect();
            Err(format!("[{}] are not null", reprs.join(", ")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{fill_message, found_text};

    #[test]
    fn messages() {
        assert_eq!(
            fill_message(
                "\"{key}\" (={value}) {{x}}: {desc}{nope}",
                &[("key", "k"), ("value", "1"), ("desc", "d")]
            ),
            "\"k\" (=1) {x}: d{nope}"
        );
        assert_eq!(fill_message("{unclosed", &[]), "{unclosed");
        assert_eq!(found_text("fail: boom"), "boom");
        assert_eq!(
            found_text("check: all values are null"),
            "all values are null"
        );
        assert_eq!(found_text("assert.fail: fail: x"), "assert.fail: fail: x");
    }
}
