//! `yamlfragment`: an immutable handle to YAML nodes, returned by functions whose body
//! holds YAML nodes, by `yaml.decode`-free node conversions and by `library.eval()`.

use std::fmt;
use std::sync::Arc;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::starlark_simple_value;
use starlark::values::{Heap, NoSerialize, StarlarkPagable, StarlarkValue, Value};
use starlark_derive::starlark_value;

use super::convert::{from_node_in_fragment, key_from_value};
use crate::yaml::{Array, DocSet, Map, Node};

#[derive(Debug, Clone, PartialEq, Default)]
pub enum FragmentNode {
    #[default]
    /// A function whose YAML nodes were all skipped (e.g. by `if/end False`).
    Empty,
    DocSet(DocSet),
    Map(Map),
    Array(Array),
}

#[derive(Debug, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative)]
pub struct YamlFragment {
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    pub node: Arc<FragmentNode>,
}
starlark_simple_value!(YamlFragment);

impl YamlFragment {
    pub fn new(node: FragmentNode) -> Self {
        YamlFragment {
            node: Arc::new(node),
        }
    }

    /// Wraps a collection node; scalars are not fragments.
    pub fn from_node(node: Node) -> Option<Self> {
        match node {
            Node::Map(m) => Some(Self::new(FragmentNode::Map(m))),
            Node::Array(a) => Some(Self::new(FragmentNode::Array(a))),
            _ => None,
        }
    }
}

impl fmt::Display for YamlFragment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match &*self.node {
            FragmentNode::Empty => "<nil>",
            FragmentNode::DocSet(_) => "*yamlmeta.DocumentSet",
            FragmentNode::Map(_) => "*yamlmeta.Map",
            FragmentNode::Array(_) => "*yamlmeta.Array",
        };
        write!(f, "yamlfragment({kind})")
    }
}

fn other_err(msg: String) -> starlark::Error {
    starlark::Error::new_other(anyhow::anyhow!(msg))
}

impl YamlFragment {
    fn values(&self) -> Vec<&Node> {
        match &*self.node {
            FragmentNode::Empty => vec![],
            FragmentNode::DocSet(ds) => ds.docs.iter().map(|d| &d.value).collect(),
            FragmentNode::Map(m) => m.items.iter().map(|i| &i.key).collect(),
            FragmentNode::Array(a) => a.items.iter().map(|i| &i.value).collect(),
        }
    }
}

#[starlark_value(type = "yamlfragment")]
impl<'v> StarlarkValue<'v> for YamlFragment {
    fn to_bool(&self) -> bool {
        self.length().map(|l| l > 0).unwrap_or(false)
    }

    fn length(&self) -> starlark::Result<i32> {
        Ok(match &*self.node {
            FragmentNode::Empty => 0,
            FragmentNode::DocSet(ds) => ds.docs.len(),
            FragmentNode::Map(m) => m.items.len(),
            FragmentNode::Array(a) => a.items.len(),
        } as i32)
    }

    fn at(&self, index: Value<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        let by_index = |len: usize| -> starlark::Result<usize> {
            let i = index.unpack_i32().ok_or_else(|| {
                other_err(format!("expected int index, got {}", index.get_type()))
            })?;
            let i = if i < 0 { i + len as i32 } else { i };
            if i < 0 || i as usize >= len {
                return Err(other_err(format!("index {i} out of range [0:{len}]")));
            }
            Ok(i as usize)
        };
        match &*self.node {
            FragmentNode::Empty => Err(other_err("index out of range: fragment is empty".into())),
            FragmentNode::DocSet(ds) => {
                let i = by_index(ds.docs.len())?;
                Ok(from_node_in_fragment(heap, &ds.docs[i].value))
            }
            FragmentNode::Array(a) => {
                let i = by_index(a.items.len())?;
                Ok(from_node_in_fragment(heap, &a.items[i].value))
            }
            FragmentNode::Map(m) => {
                let key = key_from_value(index).map_err(starlark::Error::new_other)?;
                match m.get(&key) {
                    Some(v) => Ok(from_node_in_fragment(heap, v)),
                    None => Err(other_err(format!("key {index} not in yamlfragment"))),
                }
            }
        }
    }

    fn iterate_collect(&self, heap: Heap<'v>) -> starlark::Result<Vec<Value<'v>>> {
        Ok(self
            .values()
            .into_iter()
            .map(|n| from_node_in_fragment(heap, n))
            .collect())
    }

    /// YAML fragments cannot be changed: `x[k] = v` fails as the reference's does (for a
    /// map, an array and a document set alike).
    fn set_at(&self, _index: Value<'v>, _new_value: Value<'v>) -> starlark::Result<()> {
        Err(other_err("yamlfragment.SetKey: Not implemented".into()))
    }

    fn is_in(&self, other: Value<'v>) -> starlark::Result<bool> {
        match &*self.node {
            FragmentNode::Empty => Ok(false),
            // the reference checks indexes for sequences
            FragmentNode::DocSet(_) | FragmentNode::Array(_) => {
                let len = self.length()?;
                Ok(other.unpack_i32().is_some_and(|i| i >= 0 && i < len))
            }
            FragmentNode::Map(m) => Ok(key_from_value(other)
                .map(|k| m.get(&k).is_some())
                .unwrap_or(false)),
        }
    }
}
