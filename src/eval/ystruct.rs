//! ytt's `struct`: attribute access (`s.name`) and dict-style access (`s["name"]`), `len`,
//! `in`, iteration over keys. `data.values`, `struct.make` and `struct.encode` produce it.

use std::fmt;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::coerce::Coerce;
use starlark::collections::SmallMap;
use starlark::starlark_complex_value;
use starlark::values::list::{AllocList, ListRef};
use starlark::values::{
    Freeze, FreezeResult, Freezer, FrozenValue, Heap, NoSerialize, StarlarkPagable, StarlarkValue,
    Trace, Tracer, Value, ValueLike,
};
use starlark_derive::starlark_value;

#[derive(Debug, Trace, Coerce, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative)]
#[repr(C)]
pub struct YttStructGen<V> {
    pub fields: SmallMap<String, V>,
    #[starlark_pagable(skip)]
    data: Data,
}
starlark_complex_value!(pub YttStruct);

/// Whether a struct holds data values (`data.values`, a library's `data_values()`).
/// Those are converted to Starlark once and frozen, yet in the reference they are fresh
/// values a template may change: a list read from them is the reader's own copy
/// (`l = data.values.names; l.append("x")` works). Other structs (`struct.make` in a
/// loaded module) keep their frozen lists frozen.
#[derive(Debug, Clone, Copy, Default, Allocative)]
struct Data(bool);

// SAFETY: `Data` holds no value: coercing and tracing it are no-ops.
unsafe impl Coerce<Data> for Data {}
unsafe impl<'v> Trace<'v> for Data {
    fn trace(&mut self, _tracer: &Tracer<'v>) {}
}

impl<'v> YttStruct<'v> {
    pub fn new(fields: SmallMap<String, Value<'v>>) -> Self {
        YttStructGen {
            fields,
            data: Data(false),
        }
    }

    /// A struct of data values (see `Data`).
    pub(crate) fn data_values(fields: SmallMap<String, Value<'v>>) -> Self {
        YttStructGen {
            fields,
            data: Data(true),
        }
    }
}

impl FrozenYttStruct {
    /// A struct of data values built frozen (see `Data`).
    pub(crate) fn frozen_data_values(fields: SmallMap<String, FrozenValue>) -> Self {
        YttStructGen {
            fields,
            data: Data(true),
        }
    }
}

/// A list read from data values: frozen lists become fresh lists (their lists too).
fn thawed<'v>(v: Value<'v>, heap: Heap<'v>) -> Value<'v> {
    match ListRef::from_value(v) {
        Some(list) if v.unpack_frozen().is_some() => heap.alloc(AllocList(
            list.content().iter().map(|item| thawed(*item, heap)),
        )),
        _ => v,
    }
}

impl<'v> Freeze for YttStruct<'v> {
    type Frozen = FrozenYttStruct;
    fn freeze(self, freezer: &Freezer) -> FreezeResult<Self::Frozen> {
        let mut fields = SmallMap::with_capacity(self.fields.len());
        for (k, v) in self.fields.into_iter() {
            fields.insert(k, v.freeze(freezer)?);
        }
        Ok(YttStructGen {
            fields,
            data: self.data,
        })
    }
}

impl<V> fmt::Display for YttStructGen<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct(...)")
    }
}

/// Reads the fields of a struct value, frozen or not.
pub fn struct_fields<'v>(v: Value<'v>) -> Option<Vec<(&'v str, Value<'v>)>> {
    if let Some(s) = v.downcast_ref::<YttStruct<'v>>() {
        return Some(
            s.fields
                .iter()
                .map(|(k, v)| (k.as_str(), v.to_value()))
                .collect(),
        );
    }
    v.downcast_ref::<FrozenYttStruct>().map(|s| {
        s.fields
            .iter()
            .map(|(k, v)| (k.as_str(), v.to_value()))
            .collect()
    })
}

/// The fields of a struct value as a template reads them (data values' lists are the
/// reader's own, see `Data`), or `None` for another value.
pub fn struct_items<'v>(v: Value<'v>, heap: Heap<'v>) -> Option<Vec<(&'v str, Value<'v>)>> {
    let data = match (
        v.downcast_ref::<YttStruct<'v>>(),
        v.downcast_ref::<FrozenYttStruct>(),
    ) {
        (Some(s), _) => s.data.0,
        (None, Some(s)) => s.data.0,
        (None, None) => return None,
    };
    let fields = struct_fields(v)?;
    Some(if data {
        fields
            .into_iter()
            .map(|(k, v)| (k, thawed(v, heap)))
            .collect()
    } else {
        fields
    })
}

#[starlark_value(type = "struct")]
impl<'v, V: ValueLike<'v>> StarlarkValue<'v> for YttStructGen<V>
where
    Self: ProvidesStaticType<'v>,
{
    fn get_attr(&self, attribute: &str, heap: Heap<'v>) -> Option<Value<'v>> {
        let v = self.fields.get(attribute)?.to_value();
        Some(if self.data.0 { thawed(v, heap) } else { v })
    }

    fn has_attr(&self, attribute: &str, _heap: Heap<'v>) -> bool {
        self.fields.contains_key(attribute)
    }

    fn dir_attr(&self) -> Vec<String> {
        self.fields.keys().cloned().collect()
    }

    fn at(&self, index: Value<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        let Some(key) = index.unpack_str() else {
            return Err(starlark::Error::new_other(anyhow::anyhow!(
                "struct key must be a string, but was {}",
                index.get_type()
            )));
        };
        match self.fields.get(key) {
            Some(v) if self.data.0 => Ok(thawed(v.to_value(), heap)),
            Some(v) => Ok(v.to_value()),
            None => Err(starlark::Error::new_other(anyhow::anyhow!(
                "struct has no .{key} field or method"
            ))),
        }
    }

    fn length(&self) -> starlark::Result<i32> {
        Ok(self.fields.len() as i32)
    }

    fn to_bool(&self) -> bool {
        !self.fields.is_empty()
    }

    fn is_in(&self, other: Value<'v>) -> starlark::Result<bool> {
        Ok(other
            .unpack_str()
            .is_some_and(|k| self.fields.contains_key(k)))
    }

    fn iterate_collect(&self, heap: Heap<'v>) -> starlark::Result<Vec<Value<'v>>> {
        Ok(self.fields.keys().map(|k| heap.alloc(k.as_str())).collect())
    }

    fn equals(&self, other: Value<'v>) -> starlark::Result<bool> {
        let Some(theirs) = struct_fields(other) else {
            return Ok(false);
        };
        if theirs.len() != self.fields.len() {
            return Ok(false);
        }
        for ((k1, v1), (k2, v2)) in self.fields.iter().zip(theirs) {
            if k1 != k2 || !v1.to_value().equals(v2)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}
