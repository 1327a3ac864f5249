//! One validation: the rules of one `@schema/validation` / `@assert/validate` annotation
//! (custom rules, named rules — defined in `named.rs` —, `not_null=`, `when=`, `warn=`),
//! parsed from the annotation's Starlark arguments, and run on a node.

use starlark::docs::{DocItem, DocMember};
use starlark::eval::Evaluator;
use starlark::values::list::ListRef;
use starlark::values::tuple::TupleRef;
use starlark::values::{Heap, Value};

use super::cel;
use super::named::{ArgError, Cx, Def, Failure, NamedRule};
use crate::eval::convert::{from_node, from_node_in_fragment};
use crate::eval::runtime::call_catching;
use crate::eval::wording::message_text;
use crate::yaml::{Annotation, FileNames, Node, Pos};

/// A named rule of an annotation.
struct Named<'v> {
    rule: NamedRule,
    desc: String,
    /// The argument as written.
    arg: Value<'v>,
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

/// `("description", arg)` form of a named rule (`def`; None: `not_null=`): the description
/// and the argument.
fn split_description<'v>(def: Option<&Def>, v: Value<'v>) -> (Option<String>, Value<'v>) {
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
    if def.is_some_and(|d| !d.takes(second)) {
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
    let custom = args
        .iter()
        .enumerate()
        .map(|(i, a)| custom_rule(heap, names, written.arg(i), *a))
        .collect::<Result<Vec<_>, _>>()?;
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
                let Some(def) = Def::find(name) else {
                    return Err(positioned(format!("unknown keyword argument \"{name}\"")));
                };
                let (desc, value) = split_description(Some(def), *value);
                let (rule, default_desc) = def.parse(value, heap).map_err(|e| match e {
                    ArgError::Reference(m) => ParseError {
                        message: m,
                        unnamed_at: Some(at.clone()),
                    },
                    e => ParseError::new(e.keyword(name, value, &at)),
                })?;
                v.named.push(Named {
                    rule,
                    desc: desc.unwrap_or(default_desc),
                    arg: value,
                    by: by.clone(),
                });
            }
        }
    }
    v.named.sort_by_key(|n| n.rule.rank());
    Ok(v)
}

/// A positional argument: a custom rule `("description", check)` or
/// `("description", check, "message")`, written at `by`.
fn custom_rule<'v>(
    heap: Heap<'v>,
    names: &FileNames,
    by: &Pos,
    a: Value<'v>,
) -> Result<Custom<'v>, ParseError> {
    let at = names.describe(by);
    let Some(t) = TupleRef::from_value(a) else {
        return Err(ParseError::new(format!(
            "expected annotation to have 2-tuple as argument(s), but found: {} (by {at})",
            go_repr(a)
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
    Ok(Custom {
        desc: desc.to_owned(),
        func,
        message,
        by: by.clone(),
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
            let cx = Cx {
                heap,
                arg: n.arg,
                budget: subject.budget,
            };
            match n.rule.check(node, &cx) {
                Ok(()) => {}
                Err(Failure::Found(found)) => {
                    out.push(violation(n.desc.clone(), &n.by, Some(found)))
                }
                Err(Failure::RuleError(e)) => out.push(Violation {
                    rule_error: true,
                    ..violation(n.desc.clone(), &n.by, Some(e))
                }),
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

    /// The named rules, in the order they run: each with its `must be:` text and where it
    /// was written.
    pub fn named_rules(&self) -> Vec<(&NamedRule, &str, &Pos)> {
        self.named
            .iter()
            .map(|n| (&n.rule, n.desc.as_str(), &n.by))
            .collect()
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
