//! `template.replace(v)`: the node being set is replaced by `v`'s items — a map item by
//! a map's items, an array item by an array's, a document by documents. Where `v` may go
//! is decided when it is set (the error is the setting line's), by what `v` was.

use allocative::Allocative;
use anyhow::bail;
use starlark::any::ProvidesStaticType;
use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::starlark_simple_value;
use starlark::values::{NoSerialize, StarlarkPagable, StarlarkValue, Value, ValueLike};
use starlark_derive::starlark_value;
use std::fmt;

use super::convert::to_node;
use super::fragment::{FragmentNode, YamlFragment};
use crate::template::TKind;
use crate::yaml::Node;

/// The value of `template.replace(v)`: `v` as YAML, and what `v` was.
#[derive(Debug, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative)]
pub struct ReplaceMarker {
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    pub(super) node: Node,
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    given: Given,
}
starlark_simple_value!(ReplaceMarker);

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
            scalar => Given::Scalar(crate::typenames::node(scalar)),
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

impl ReplaceMarker {
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

    /// Whether the marker may replace a node of `kind`: a map item takes a map (YAML or
    /// a dict), an array item an array (YAML or a list), a document documents (YAML or
    /// a list of values).
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
            TKind::Doc => (
                "document set",
                matches!(self.given, Given::DocSetFragment | Given::List),
            ),
            _ => return Ok(()),
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

impl fmt::Display for ReplaceMarker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("template.replace(...)")
    }
}

#[starlark_value(type = "template.replace")]
impl<'v> StarlarkValue<'v> for ReplaceMarker {}

impl Default for ReplaceMarker {
    fn default() -> Self {
        ReplaceMarker {
            node: Node::Null,
            given: Given::Null,
        }
    }
}

/// `@ytt:template`.
#[starlark_module]
pub fn template_module(builder: &mut GlobalsBuilder) {
    fn replace<'v>(value: Value<'v>) -> anyhow::Result<ReplaceMarker> {
        let node = to_node(value)?;
        let given = Given::of(value, &node);
        Ok(ReplaceMarker { node, given })
    }
}

pub fn register_template(builder: &mut GlobalsBuilder) {
    builder.namespace("template", template_module);
}
