//! What `template.replace(v)` (`@ytt:template`, in `modules`) does to the node being
//! built: the node being built where it is called is replaced, there and then, by `v`'s
//! items — a map item by a map's items, an array item by an array's,
//! a document by documents — and the call returns a `noop` value.
//!
//! The node is the template's current one: the last node started, in the innermost node
//! context of the template the call is written in (`Runtime::replace_current`). So
//! `x: #@ template.replace(v)` replaces `x`, and so does an own-line
//! `#@ template.replace(v)` written after `x` (before the next node starts) — a document
//! holding only that line is replaced by `v`'s documents. What is set on the replaced
//! node afterwards (the `noop` a trailing `#@` expression returns) goes nowhere; a
//! `noop` set on any other node is `null`.

use allocative::Allocative;
use anyhow::bail;
use starlark::any::ProvidesStaticType;
use starlark::starlark_simple_value;
use starlark::values::{NoSerialize, StarlarkPagable, StarlarkValue, Value, ValueLike};
use starlark_derive::starlark_value;
use std::fmt;

use super::convert::to_node;
use super::fragment::{FragmentNode, YamlFragment};
use crate::template::TKind;
use crate::yaml::Node;

/// What a node is replaced by: `v` as YAML, and what `v` was.
#[derive(Debug)]
pub struct Replacement {
    pub(super) node: Node,
    given: Given,
}

/// What `template.replace` returns: a value that sets nothing where it is set (its node
/// was replaced) and is `null` elsewhere; false, like the reference's.
#[derive(Debug, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative)]
pub struct Noop;
starlark_simple_value!(Noop);

impl fmt::Display for Noop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("noop")
    }
}

#[starlark_value(type = "noop")]
impl<'v> StarlarkValue<'v> for Noop {
    fn to_bool(&self) -> bool {
        false
    }
}

/// What `template.replace` was given, in the reference's terms: YAML fragments keep
/// their kind, Starlark collections are the Go values they convert to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Given {
    MapFragment,
    ArrayFragment,
    DocSetFragment,
    /// A fragment of nothing (a function whose nodes were all skipped).
    EmptyFragment,
    /// A dict or a struct.
    Dict,
    /// A list or a tuple.
    List,
    /// A scalar, by its YAML type name (`null` for None).
    #[default]
    Null,
    Scalar(&'static str),
}

impl Given {
    fn of(value: Value, node: &Node) -> Given {
        if let Some(f) = value.downcast_ref::<YamlFragment>() {
            return match &*f.node {
                FragmentNode::Map(_) => Given::MapFragment,
                FragmentNode::Array(_) => Given::ArrayFragment,
                FragmentNode::DocSet(_) => Given::DocSetFragment,
                FragmentNode::Empty => Given::EmptyFragment,
            };
        }
        match node {
            Node::Map(_) => Given::Dict,
            Node::Array(_) => Given::List,
            Node::Null => Given::Null,
            scalar => Given::Scalar(scalar.type_name()),
        }
    }

    /// How the reference names it in errors.
    fn type_name(self) -> &'static str {
        match self {
            Given::MapFragment => "map",
            Given::ArrayFragment => "array",
            Given::DocSetFragment => "document set",
            Given::EmptyFragment | Given::Null => "null",
            Given::Dict => "*orderedmap.Map",
            Given::List => "[]interface {}",
            Given::Scalar(name) => name,
        }
    }
}

impl Replacement {
    /// What `value` (given to `template.replace`) replaces a node by.
    pub fn of(value: Value) -> anyhow::Result<Replacement> {
        let node = to_node(value)?;
        let given = Given::of(value, &node);
        Ok(Replacement { node, given })
    }

    /// Items from YAML may not repeat keys already in the map; items from a dict
    /// silently replace them.
    pub(super) fn of_fragment(&self) -> bool {
        matches!(
            self.given,
            Given::MapFragment
                | Given::ArrayFragment
                | Given::DocSetFragment
                | Given::EmptyFragment
        )
    }

    /// Whether it may replace a node of `kind` (a document, a map item or an array item:
    /// `Runtime::replace_current` lets no other through): a map item takes a map (YAML
    /// or a dict), an array item an array (YAML or a list), a document documents (YAML
    /// or a list of values).
    pub(super) fn check_placement(&self, kind: TKind) -> anyhow::Result<()> {
        let (wanted, fits) = match kind {
            TKind::MapItem => (
                "map",
                matches!(self.given, Given::MapFragment | Given::Dict),
            ),
            TKind::ArrayItem => (
                "array",
                matches!(self.given, Given::ArrayFragment | Given::List),
            ),
            _ => (
                "document set",
                matches!(self.given, Given::DocSetFragment | Given::List),
            ),
        };
        if !fits {
            bail!(
                "template.replace: expected value to be {wanted}, but was {}",
                self.given.type_name()
            );
        }
        Ok(())
    }
}
