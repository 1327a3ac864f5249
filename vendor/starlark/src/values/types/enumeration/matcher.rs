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

use allocative::Allocative;
use dupe::Dupe;
use pagable::Pagable;
use pagable::pagable_typetag;
use starlark_derive::type_matcher;

use crate as starlark;
use crate::values::Value;
use crate::values::enumeration::EnumValue;
use crate::values::types::type_instance_id::TypeInstanceId;
use crate::values::typing::type_compiled::matcher::TypeMatcher;
use crate::values::typing::type_compiled::matcher::TypeMatcherDyn;

#[derive(Hash, Debug, Eq, PartialEq, Clone, Dupe, Allocative, Pagable)]
#[pagable_typetag(TypeMatcherDyn)]
pub(crate) struct EnumTypeMatcher {
    pub(crate) id: TypeInstanceId,
}

#[type_matcher]
impl TypeMatcher for EnumTypeMatcher {
    fn matches(&self, value: Value) -> bool {
        match EnumValue::from_value(value) {
            None => false,
            Some(en) => en.id == self.id,
        }
    }
}
