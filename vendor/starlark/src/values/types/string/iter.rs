/*
 * Copyright 2018 The Starlark in Rust Authors.
 * Copyright (c) Facebook, Inc. and its affiliates.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

//! Implementation of iterators for string type.

use allocative::Allocative;
use derive_more::Display;
use starlark_derive::Freeze;
use starlark_derive::NoSerialize;
use starlark_derive::StarlarkPagable;
use starlark_derive::Trace;
use starlark_derive::starlark_value;

use crate as starlark;
use crate::any::ProvidesStaticType;
use crate::coerce::Coerce;
use crate::values::Heap;
use crate::values::StarlarkValue;
use crate::values::StringValue;
use crate::values::StringValueLike;
use crate::values::Value;
use crate::values::ValueLike;
use crate::values::ValueOfUnchecked;
use crate::values::string::bytestr;
use crate::values::type_repr::StarlarkTypeRepr;
use crate::values::typing::iter::StarlarkIter;

/// An opaque iterator over a string, produced by elems/codepoints
/// (ytt-rs patch: and elem_ords/codepoint_ords; over bytes or over code points)
#[derive(
    Debug,
    Trace,
    Coerce,
    Display,
    Freeze,
    NoSerialize,
    ProvidesStaticType,
    Allocative,
    StarlarkPagable
)]
#[display("iterator")]
#[repr(C)]
struct StringIterableGen<'v, V: ValueLike<'v>> {
    string: V::String,
    bytes: bool, // if not bytes, then code points
    ords: bool,  // if not ints, then strings
}

/// ytt-rs patch: what a string's iterator yields.
#[derive(Clone, Copy)]
pub(crate) enum Iter {
    /// `elems()`: each byte, a string
    Elems,
    /// `elem_ords()`: each byte, an int
    ElemOrds,
    /// `codepoints()`: each code point, a string (a byte that is not UTF-8 on its own)
    Codepoints,
    /// `codepoint_ords()`: each code point, an int (U+FFFD for a byte that is not UTF-8)
    CodepointOrds,
}

pub(crate) fn iterate<'v, T: StarlarkTypeRepr>(
    string: StringValue<'v>,
    kind: Iter,
    heap: Heap<'v>,
) -> ValueOfUnchecked<'v, StarlarkIter<T>> {
    let (bytes, ords) = match kind {
        Iter::Elems => (true, false),
        Iter::ElemOrds => (true, true),
        Iter::Codepoints => (false, false),
        Iter::CodepointOrds => (false, true),
    };
    ValueOfUnchecked::new(heap.alloc_complex(StringIterableGen::<'v, Value<'v>> {
        string,
        bytes,
        ords,
    }))
}

#[starlark_value(type = "iterator")]
impl<'v, V: ValueLike<'v>> StarlarkValue<'v> for StringIterableGen<'v, V>
where
    Self: ProvidesStaticType<'v>,
{
    unsafe fn iterate(&self, _me: Value<'v>, heap: Heap<'v>) -> crate::Result<Value<'v>> {
        // Lazy implementation: we allocate a tuple and then iterate over it.
        let b = bytestr::encode(self.string.as_str());
        let iter =
            match (self.bytes, self.ords) {
                (true, false) => {
                    heap.alloc_tuple_iter(b.iter().map(|&x| heap.alloc(bytestr::byte_char(x))))
                }
                (true, true) => heap.alloc_tuple_iter(b.iter().map(|&x| heap.alloc(x as i32))),
                (false, false) => heap.alloc_tuple_iter(
                    bytestr::runes(&b)
                        .map(|(i, j, _)| heap.alloc_str(&bytestr::decode(&b[i..j])).to_value()),
                ),
                (false, true) => heap.alloc_tuple_iter(bytestr::runes(&b).map(|(_, _, c)| {
                    heap.alloc(u32::from(c.unwrap_or(char::REPLACEMENT_CHARACTER)))
                })),
            };
        Ok(iter)
    }
}
