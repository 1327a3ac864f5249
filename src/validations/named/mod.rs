//! The named rules of `@schema/validation` and `@assert/validate` (`min=`, `one_of=`,
//! `format=`, …), one definition each: its keyword, how `@ytt:assert` offers it, the
//! argument it takes (and why it refuses one), its `must be:` text and its check on a node.
//! `named_rules!` lists them (each defined in `defs.rs`); the order of the list is the
//! order rules run on a node.
//! How each one exports is `schema/export/keywords.rs`.
//!
//! A rule reads its argument once ([`Def::parse`]), for an annotation's keyword and for an
//! assertion function alike; [`ArgError`] words a refusal in either voice.

mod defs;

use std::fmt;
use std::sync::Arc;

use regex::Regex;
use starlark::values::float::StarlarkFloat;
use starlark::values::list::ListRef;
use starlark::values::tuple::TupleRef;
use starlark::values::{Heap, Value, ValueLike};

use super::cel::{CelRule, CostBudget};
use super::formats;
use crate::eval::convert::to_node;
use crate::yaml::Node;
pub use defs::{
    multiple_of, Cel, Contains, EndsWith, Even, Format, Len, Matches, Max, MaxLen, Min, MinLen,
    MultipleOf, Odd, OneNotNull, OneOf, StartsWith,
};

/// How `@ytt:assert` offers a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assert {
    /// One of the reference's assertion functions (`assert.min`, `assert.one_of`, …):
    /// `ytt-stdlib` keeps their checks on Starlark values, with the reference's words.
    Reference,
    /// `function(arg)`, or `function()` standing for the keyword's `True`: an assertion
    /// object made from this definition, its argument read as the keyword's.
    Made {
        function: &'static str,
        takes_arg: bool,
    },
    /// No assertion function.
    None,
}

/// What a check is given besides the node.
pub struct Cx<'a, 'v> {
    pub heap: Heap<'v>,
    /// The argument as written (a `min=` bound that is no YAML value is compared as it is).
    pub arg: Value<'v>,
    /// The cost budget of the CEL rules of the object the node belongs to, if any.
    pub budget: Option<&'a CostBudget>,
}

/// Why a node breaks a rule.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// The value's fault: the `found:` text.
    Found(String),
    /// The rule cannot be evaluated on it (a `cel=` rule that fails: an undeclared
    /// function, no matching overload): the author's mistake. The text is the error.
    RuleError(String),
}

impl From<String> for Failure {
    fn from(found: String) -> Self {
        Failure::Found(found)
    }
}

impl Failure {
    pub fn text(&self) -> &str {
        match self {
            Failure::Found(s) | Failure::RuleError(s) => s,
        }
    }
}

/// The result of a check.
pub type Outcome = Result<(), Failure>;

/// Why a rule refuses its argument.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgError {
    /// Not of the type the rule takes (`"a number"`).
    Type(&'static str),
    /// No YAML value: why.
    NotYaml(String),
    /// Not a regular expression: the pattern and Go's error.
    Regex(String, String),
    /// No format of this name.
    UnknownFormat(String),
    /// A divisor of zero.
    Zero,
    /// A CEL expression that does not compile, and why.
    Cel(String, String),
    /// In the reference's words, which name no position.
    Reference(String),
}

impl ArgError {
    /// As an annotation's keyword `name=arg` written `at` words it. A [`ArgError::Reference`]
    /// names no position.
    pub fn keyword(&self, name: &str, arg: Value, at: &str) -> String {
        match self {
            ArgError::Type(what) => format!(
                "expected keyword argument \"{name}\" to be {what}, but was {} (at {at})",
                arg.get_type()
            ),
            ArgError::NotYaml(e) => format!("{e} (at {at})"),
            ArgError::Regex(pattern, e) => format!(
                "expected keyword argument \"{name}\" to be a valid regular expression, but {}: {e} (at {at})",
                quoted(pattern)
            ),
            ArgError::UnknownFormat(s) => format!(
                "unknown format {} (want one of: {}) (at {at})",
                quoted(s),
                formats::NAMES.join(", ")
            ),
            ArgError::Zero => {
                format!("expected keyword argument \"{name}\" to be a non-zero number (at {at})")
            }
            ArgError::Cel(source, e) => format!(
                "{name}= expression {} does not compile: {e} (at {at})",
                quoted(source)
            ),
            ArgError::Reference(m) => m.clone(),
        }
    }

    /// As the assertion function `function(arg)` words it.
    pub fn function(&self, function: &str, arg: Value) -> String {
        match self {
            ArgError::Type(what) => format!(
                "{function}: expected argument to be {what}, but was {}",
                arg.get_type()
            ),
            ArgError::NotYaml(_) => format!(
                "{function}: expected argument to be a value that encodes to YAML, but was {}",
                arg.get_type()
            ),
            ArgError::Regex(_, e) => {
                format!(
                    "{function}: invalid regular expression {}: {e}",
                    arg.to_repr()
                )
            }
            ArgError::UnknownFormat(_) => format!(
                "{function}: unknown format {} (want one of: {})",
                arg.to_repr(),
                formats::NAMES.join(", ")
            ),
            ArgError::Zero => format!("{function}: expected a non-zero number"),
            ArgError::Cel(source, e) => format!(
                "{function}: expression {} does not compile: {e}",
                quoted(source)
            ),
            ArgError::Reference(m) => format!("{function}: {m}"),
        }
    }
}

/// One rule's definition.
trait Definition: Sized + Into<NamedRule> {
    /// The keyword.
    const NAME: &'static str;
    const ASSERT: Assert;
    /// Takes a sequence: `("description", x)` is one argument unless `x` is a sequence, a
    /// set, a fragment or a boolean.
    const SEQUENCE: bool = false;

    /// Reads the argument: the rule and its `must be:` text.
    fn parse<'v>(arg: Value<'v>, heap: Heap<'v>) -> Result<(Self, String), ArgError>;

    fn check(&self, node: &Node, cx: &Cx) -> Outcome;

    /// Checks nothing (`even=False`).
    fn is_off(&self) -> bool {
        false
    }
}

/// A rule's definition, as a keyword or an assertion function finds it.
pub struct Def {
    pub name: &'static str,
    pub assert: Assert,
    sequence: bool,
    parse: for<'v> fn(Value<'v>, Heap<'v>) -> Result<(NamedRule, String), ArgError>,
}

impl Def {
    const fn of<R: Definition>() -> Def {
        Def {
            name: R::NAME,
            assert: R::ASSERT,
            sequence: R::SEQUENCE,
            parse: parse_as::<R>,
        }
    }

    /// The rule of keyword `name`.
    pub fn find(name: &str) -> Option<&'static Def> {
        RULES.iter().find(|d| d.name == name)
    }

    /// Reads the argument: the rule and its `must be:` text.
    pub fn parse<'v>(
        &self,
        arg: Value<'v>,
        heap: Heap<'v>,
    ) -> Result<(NamedRule, String), ArgError> {
        (self.parse)(arg, heap)
    }

    /// Whether `second`, the second item of a `("description", second)` tuple, is this
    /// rule's argument (else the tuple is).
    pub fn takes(&self, second: Value) -> bool {
        !self.sequence
            || ListRef::from_value(second).is_some()
            || TupleRef::from_value(second).is_some()
            || second.unpack_bool().is_some()
            || matches!(second.get_type(), "set" | "yamlfragment")
    }
}

fn parse_as<'v, R: Definition>(
    arg: Value<'v>,
    heap: Heap<'v>,
) -> Result<(NamedRule, String), ArgError> {
    R::parse(arg, heap).map(|(r, desc)| (r.into(), desc))
}

/// The named rules: each one's definition is the type of the same name below.
macro_rules! named_rules {
    ($($rule:ident),* $(,)?) => {
        /// A named rule and its argument.
        #[derive(Clone, Debug, PartialEq)]
        pub enum NamedRule {
            $($rule($rule)),*
        }

        $(impl From<$rule> for NamedRule {
            fn from(r: $rule) -> Self {
                NamedRule::$rule(r)
            }
        })*

        /// Every rule, in the order rules run on a node.
        pub static RULES: &[Def] = &[$(Def::of::<$rule>()),*];

        impl NamedRule {
            /// Its keyword.
            pub fn name(&self) -> &'static str {
                match self {
                    $(NamedRule::$rule(_) => $rule::NAME),*
                }
            }

            /// `Err` when `node` breaks it.
            pub fn check(&self, node: &Node, cx: &Cx) -> Outcome {
                match self {
                    $(NamedRule::$rule(r) => r.check(node, cx)),*
                }
            }

            /// Checks nothing (`even=False`).
            pub fn is_off(&self) -> bool {
                match self {
                    $(NamedRule::$rule(r) => r.is_off()),*
                }
            }
        }
    };
}

named_rules!(
    MinLen, MaxLen, Min, Max, OneNotNull, OneOf, Len, StartsWith, EndsWith, Contains, Matches,
    Format, Even, Odd, MultipleOf, Cel,
);

impl NamedRule {
    /// Its place in the order rules run.
    pub fn rank(&self) -> usize {
        RULES
            .iter()
            .position(|d| d.name == self.name())
            .unwrap_or(RULES.len())
    }
}

// ---- arguments ---------------------------------------------------------------------

/// A number argument (`min_len=`, `multiple_of=`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Int(i64),
    Float(f64),
}

impl Number {
    /// A node's integer: beyond int64 (a uint64) it is compared as a float.
    pub fn of_int(i: i128) -> Number {
        i64::try_from(i).map_or(Number::Float(i as f64), Number::Int)
    }

    pub fn text(self) -> String {
        match self {
            Number::Int(i) => i.to_string(),
            Number::Float(f) => crate::yaml::emit::format_float_str(f),
        }
    }

    /// As a length's description shows it (a fraction truncated).
    fn truncated(self) -> String {
        match self {
            Number::Int(i) => i.to_string(),
            Number::Float(f) => format!("{}", f.trunc() as i64),
        }
    }

    pub fn is_zero(self) -> bool {
        match self {
            Number::Int(i) => i == 0,
            Number::Float(f) => f == 0.0,
        }
    }
}

/// A `matches=` pattern: as written, and compiled with RE2's meaning.
#[derive(Clone)]
pub struct Pattern {
    pub source: String,
    re: Regex,
}

impl Pattern {
    fn is_match(&self, s: &str) -> bool {
        self.re.is_match(s)
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Pattern").field(&self.source).finish()
    }
}

/// A compiled `cel=` expression (its source is `.0.source`).
#[derive(Clone)]
pub struct CelExpr(pub Arc<CelRule>);

impl PartialEq for CelExpr {
    fn eq(&self, other: &Self) -> bool {
        self.0.source == other.0.source
    }
}

impl fmt::Debug for CelExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("CelExpr").field(&self.0.source).finish()
    }
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

fn number(v: Value) -> Result<Number, ArgError> {
    number_of(v)
        .filter(|_| matches!(v.get_type(), "int" | "float"))
        .ok_or(ArgError::Type("a number"))
}

fn string(v: Value) -> Result<String, ArgError> {
    v.unpack_str()
        .map(str::to_owned)
        .ok_or(ArgError::Type("a string"))
}

fn list_repr(items: &[Value]) -> String {
    let parts: Vec<String> = items.iter().map(|v| v.to_repr()).collect();
    format!("[{}]", parts.join(", "))
}

/// `"S"`, as rules print string arguments.
pub fn quoted(s: &str) -> String {
    format!("\"{s}\"")
}

#[cfg(test)]
mod tests;
