//! A module `load()` gives from `@ytt:` (`json`, `data`, …): its members as attributes.
//! Typed `module` and printed `<module "json">`, as the reference's are, so that its
//! messages read as the reference's (`module has no .x field or method`).

use std::fmt;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::coerce::Coerce;
use starlark::collections::SmallMap;
use starlark::starlark_complex_value;
use starlark::values::{
    Freeze, FreezeResult, Freezer, Heap, NoSerialize, StarlarkPagable, StarlarkValue, Trace, Value,
    ValueLike,
};
use starlark_derive::starlark_value;

#[derive(Debug, Trace, Coerce, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative)]
#[repr(C)]
pub struct YttModuleGen<V> {
    name: String,
    members: SmallMap<String, V>,
}
starlark_complex_value!(pub YttModule);

impl<'v> YttModule<'v> {
    pub fn new(name: &str, members: SmallMap<String, Value<'v>>) -> Self {
        YttModuleGen {
            name: name.to_owned(),
            members,
        }
    }
}

impl<'v> Freeze for YttModule<'v> {
    type Frozen = FrozenYttModule;
    fn freeze(self, freezer: &Freezer) -> FreezeResult<Self::Frozen> {
        let mut members = SmallMap::with_capacity(self.members.len());
        for (k, v) in self.members.into_iter() {
            members.insert(k, v.freeze(freezer)?);
        }
        Ok(YttModuleGen {
            name: self.name,
            members,
        })
    }
}

impl<V> fmt::Display for YttModuleGen<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<module \"{}\">", self.name)
    }
}

#[starlark_value(type = "module")]
impl<'v, V: ValueLike<'v>> StarlarkValue<'v> for YttModuleGen<V>
where
    Self: ProvidesStaticType<'v>,
{
    fn get_attr(&self, attribute: &str, _heap: Heap<'v>) -> Option<Value<'v>> {
        self.members.get(attribute).map(|v| v.to_value())
    }

    fn has_attr(&self, attribute: &str, _heap: Heap<'v>) -> bool {
        self.members.contains_key(attribute)
    }

    /// Sorted, as `dir()` of the reference's modules lists them.
    fn dir_attr(&self) -> Vec<String> {
        let mut names: Vec<String> = self.members.keys().cloned().collect();
        names.sort();
        names
    }
}
