//! Conversion between Starlark values and YAML nodes.

use anyhow::{anyhow, bail};
use starlark::collections::SmallMap;
use starlark::values::dict::{AllocDict, DictRef};
use starlark::values::float::StarlarkFloat;
use starlark::values::list::{AllocList, ListRef};
use starlark::values::tuple::TupleRef;
use starlark::values::{FrozenHeap, FrozenValue, Heap, UnpackValue, Value, ValueLike};

use super::fragment::{FragmentNode, YamlFragment};
use super::ystruct::{struct_fields, FrozenYttStruct, YttStruct};
use crate::yaml::{Array, ArrayItem, FileNames, Map, MapItem, Meta, Node, ThinVec};

/// Starlark value → node (the value of a YAML node set by `#@ expr`, `yaml.encode`, …).
pub fn to_node(v: Value) -> anyhow::Result<Node> {
    to_node_depth(v, 0)
}

const MAX_DEPTH: usize = 1000;

fn to_node_depth(v: Value, depth: usize) -> anyhow::Result<Node> {
    if depth > MAX_DEPTH {
        bail!("value is nested too deeply (more than {MAX_DEPTH} levels) to convert to YAML");
    }
    if v.is_none() {
        return Ok(Node::Null);
    }
    if let Some(b) = v.unpack_bool() {
        return Ok(Node::Bool(b));
    }
    if let Some(s) = v.unpack_str() {
        return Ok(Node::Str(s.into()));
    }
    if v.get_type() == "int" {
        // YAML holds int64 and uint64 values (as the reference's Go yaml), nothing larger
        return match (i64::unpack_value(v), u64::unpack_value(v)) {
            (Ok(Some(i)), _) => Ok(Node::Int(i.into())),
            (_, Ok(Some(u))) => Ok(Node::Int(u.into())),
            _ => bail!("integer value {v} is too large to be represented in YAML (64-bit at most)"),
        };
    }
    if let Some(f) = v.downcast_ref::<StarlarkFloat>() {
        return Ok(Node::Float(f.0));
    }
    if let Some(d) = DictRef::from_value(v) {
        let mut items = ThinVec::with_capacity(d.len());
        for (k, val) in d.iter() {
            items.push(MapItem {
                key: key_from_value(k)?,
                value: to_node_depth(val, depth + 1)?,
                meta: Meta::default(),
            });
        }
        return Ok(Node::Map(Map { items }));
    }
    if let Some(l) = ListRef::from_value(v) {
        return seq_to_node(l.iter(), depth);
    }
    if let Some(t) = TupleRef::from_value(v) {
        return seq_to_node(t.iter(), depth);
    }
    if let Some(f) = v.downcast_ref::<YamlFragment>() {
        return fragment_to_node(&f.node);
    }
    if let Some(fields) = struct_fields(v) {
        let mut items = ThinVec::with_capacity(fields.len());
        for (k, val) in fields {
            items.push(MapItem {
                key: Node::Str(k.into()),
                value: to_node_depth(val, depth + 1)?,
                meta: Meta::default(),
            });
        }
        return Ok(Node::Map(Map { items }));
    }
    Err(unconvertible(v))
}

fn unconvertible(v: Value) -> anyhow::Error {
    let t = v.get_type();
    if t.starts_with("@ytt:") {
        if t == "@ytt:assert.assertion" {
            return anyhow!("{t} does not encode (did you mean to call check()?)");
        }
        // url.value, url.user, ip.addr, ip.net (wording of the reference).
        let hint = "(hint: use .string())";
        return anyhow!("Unable to convert value: {t} does not automatically encode {hint}");
    }
    anyhow!("Unable to convert value: {t}")
}

fn seq_to_node<'v>(it: impl Iterator<Item = Value<'v>>, depth: usize) -> anyhow::Result<Node> {
    let mut items = ThinVec::new();
    for v in it {
        items.push(ArrayItem {
            value: to_node_depth(v, depth + 1)?,
            meta: Meta::default(),
        });
    }
    Ok(Node::Array(Array { items }))
}

pub fn fragment_to_node(f: &FragmentNode) -> anyhow::Result<Node> {
    Ok(match f {
        FragmentNode::Empty => Node::Null,
        FragmentNode::Map(m) => Node::Map(m.clone()),
        FragmentNode::Array(a) => Node::Array(a.clone()),
        FragmentNode::DocSet(ds) => Node::Array(Array {
            items: ds
                .docs
                .iter()
                .map(|d| ArrayItem {
                    value: d.value.clone(),
                    meta: d.meta.clone(),
                })
                .collect(),
        }),
    })
}

/// A map key: only scalars are allowed.
pub fn key_from_value(v: Value) -> anyhow::Result<Node> {
    let n = to_node(v)?;
    if !n.is_scalar() {
        bail!(
            "map key must be a scalar (string, int, float, bool or null), but was {}",
            v.get_type()
        );
    }
    Ok(n)
}

/// Node → Starlark value with maps as dicts (`yaml.decode`, `json.decode`, …).
pub fn from_node<'v>(heap: Heap<'v>, n: &Node) -> Value<'v> {
    match n {
        Node::Map(m) => heap.alloc(AllocDict(
            m.items
                .iter()
                .map(|i| (from_node(heap, &i.key), from_node(heap, &i.value))),
        )),
        Node::Array(a) => heap.alloc(AllocList(a.items.iter().map(|i| from_node(heap, &i.value)))),
        _ => scalar_value(heap, n),
    }
}

/// Node → Starlark value inside a fragment: collections stay fragments.
pub fn from_node_in_fragment<'v>(heap: Heap<'v>, n: &Node) -> Value<'v> {
    match n {
        Node::Map(_) | Node::Array(_) => match YamlFragment::from_node(n.clone()) {
            Some(f) => heap.alloc(f),
            None => Value::new_none(),
        },
        _ => scalar_value(heap, n),
    }
}

/// Node → Starlark value with maps as structs (`data.values`, `struct.encode`).
/// `names` are the file names of the run `n`'s positions are from (for the message).
pub fn from_node_struct<'v>(
    heap: Heap<'v>,
    names: &FileNames,
    n: &Node,
) -> anyhow::Result<Value<'v>> {
    Ok(match n {
        Node::Map(m) => {
            let mut fields = SmallMap::with_capacity(m.items.len());
            for i in &m.items {
                let key = struct_key(names, i)?;
                fields.insert(key.to_owned(), from_node_struct(heap, names, &i.value)?);
            }
            heap.alloc(YttStruct::data_values(fields))
        }
        Node::Array(a) => {
            let mut items = Vec::with_capacity(a.items.len());
            for i in &a.items {
                items.push(from_node_struct(heap, names, &i.value)?);
            }
            heap.alloc(AllocList(items))
        }
        _ => scalar_value(heap, n),
    })
}

/// [`from_node_struct`] for data values, built frozen on `heap`: what freezing the
/// converted value would give, without a copy (the data values of a large run are
/// converted once and read by every template).
pub fn from_node_frozen(
    heap: &FrozenHeap,
    names: &FileNames,
    n: &Node,
) -> anyhow::Result<FrozenValue> {
    Ok(match n {
        Node::Map(m) => {
            let mut fields = SmallMap::with_capacity(m.items.len());
            for i in &m.items {
                let key = struct_key(names, i)?;
                fields.insert(key.to_owned(), from_node_frozen(heap, names, &i.value)?);
            }
            heap.alloc(FrozenYttStruct::frozen_data_values(fields))
        }
        Node::Array(a) => {
            let mut items = Vec::with_capacity(a.items.len());
            for i in &a.items {
                items.push(from_node_frozen(heap, names, &i.value)?);
            }
            heap.alloc(AllocList(items))
        }
        Node::Null => FrozenValue::new_none(),
        Node::Bool(b) => FrozenValue::new_bool(*b),
        Node::Int(i) => {
            let i = i.get();
            match (i64::try_from(i), u64::try_from(i)) {
                (Ok(s), _) => heap.alloc(s),
                (_, Ok(u)) => heap.alloc(u),
                _ => heap.alloc(num_bigint::BigInt::from(i)),
            }
        }
        Node::Float(f) => heap.alloc(*f),
        Node::Str(s) => heap.alloc(s.as_str()),
    })
}

/// A map item's key as a struct field name.
fn struct_key<'n>(names: &FileNames, i: &'n MapItem) -> anyhow::Result<&'n str> {
    match &i.key {
        Node::Str(k) => Ok(k.as_str()),
        other => bail!(
            "expected map key to be a string to be used as a struct field, but was {} ({})",
            other.type_name(),
            names.describe(&i.meta.pos)
        ),
    }
}

/// A node's integer (int64 or uint64 range) as a Starlark int.
pub fn alloc_int(heap: Heap<'_>, i: i128) -> Value<'_> {
    match (i64::try_from(i), u64::try_from(i)) {
        (Ok(s), _) => heap.alloc(s),
        (_, Ok(u)) => heap.alloc(u),
        _ => heap.alloc(num_bigint::BigInt::from(i)),
    }
}

pub fn scalar_value<'v>(heap: Heap<'v>, n: &Node) -> Value<'v> {
    match n {
        Node::Null => Value::new_none(),
        Node::Bool(b) => Value::new_bool(*b),
        Node::Int(i) => alloc_int(heap, i.get()),
        Node::Float(f) => heap.alloc(*f),
        Node::Str(s) => heap.alloc(s.as_str()),
        Node::Map(_) | Node::Array(_) => from_node(heap, n),
    }
}

/// Items of a sequence value: list, tuple, set, or an array or document-set fragment.
pub fn sequence_items<'v>(heap: Heap<'v>, v: Value<'v>) -> Option<Vec<Value<'v>>> {
    if let Some(l) = ListRef::from_value(v) {
        return Some(l.iter().collect());
    }
    if let Some(t) = TupleRef::from_value(v) {
        return Some(t.iter().collect());
    }
    match v.get_type() {
        "set" => v.iterate(heap).ok().map(|it| it.collect()),
        "yamlfragment" => match v.downcast_ref::<YamlFragment>().map(|f| &*f.node) {
            Some(FragmentNode::Array(_)) | Some(FragmentNode::DocSet(_)) => {
                v.iterate(heap).ok().map(|it| it.collect())
            }
            _ => None,
        },
        _ => None,
    }
}
