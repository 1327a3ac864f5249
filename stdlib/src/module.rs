//! `@ytt:module`: `make(name, **members)` → a module object (`type()` is `module`) whose
//! members are reached as attributes.

use std::fmt;

use allocative::Allocative;
use anyhow::bail;
use starlark::any::ProvidesStaticType;
use starlark::coerce::Coerce;
use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::starlark_complex_value;
use starlark::starlark_module;
use starlark::values::tuple::UnpackTuple;
use starlark::values::{
    Freeze, FreezeResult, Freezer, Heap, NoSerialize, StarlarkPagable, StarlarkValue, Trace, Value,
    ValueLike,
};
use starlark_derive::starlark_value;

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("module", module_members);
}

#[derive(Debug, Trace, Coerce, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative)]
#[repr(C)]
pub struct YttModuleGen<V> {
    name: String,
    members: SmallMap<String, V>,
}
starlark_complex_value!(pub YttModule);

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
        write!(f, "<module {:?}>", self.name)
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

    fn dir_attr(&self) -> Vec<String> {
        self.members.keys().cloned().collect()
    }
}

#[starlark_module]
fn module_members(builder: &mut GlobalsBuilder) {
    /// A module named `name` with the given members.
    fn make<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<YttModule<'v>> {
        let f = "module.make";
        if args.items.len() != 1 {
            bail!("{f}: got {} arguments, want 1", args.items.len());
        }
        let Some(name) = args.items[0].unpack_str() else {
            bail!(
                "{f}: for parameter name: got {}, want string",
                args.items[0].get_type()
            );
        };
        Ok(YttModuleGen {
            name: name.to_owned(),
            members: kwargs,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::eval;

    #[test]
    fn make() {
        assert_eq!(
            eval(
                r#"m = module.make("m", a=1, f=lambda x: x + 1)
[m.a, m.f(2), type(m), str(m), hasattr(m, "a"), hasattr(m, "b"), dir(m)]"#
            ),
            r#"[1, 3, "module", "<module \"m\">", True, False, ["a", "f"]]"#
        );
        assert_eq!(
            eval("module.make()"),
            "ERR module.make: got 0 arguments, want 1"
        );
        assert_eq!(
            eval("module.make(1)"),
            "ERR module.make: for parameter name: got int, want string"
        );
    }
}
