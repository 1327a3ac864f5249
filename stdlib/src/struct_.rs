//! `@ytt:struct`: `make(**kw)`, `make_and_bind(obj, **kw)`, `bind(fn, *args)`,
//! `encode(v)` (dicts → structs, recursively) and `decode(v)` (structs → dicts).

use std::fmt;

use allocative::Allocative;
use anyhow::{anyhow, bail};
use starlark::any::ProvidesStaticType;
use starlark::coerce::Coerce;
use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::eval::{Arguments, Evaluator};
use starlark::starlark_complex_value;
use starlark::starlark_module;
use starlark::values::tuple::UnpackTuple;
use starlark::values::{
    Freeze, FreezeResult, Freezer, Heap, NoSerialize, StarlarkPagable, StarlarkValue, Trace, Value,
    ValueLike,
};
use starlark_derive::starlark_value;

use ytt::module_api::{
    check_positional, from_node, from_node_struct, is_function, starlark_go, to_node, YttStruct,
};

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("struct", struct_members);
}

/// A function with its first arguments fixed (`struct.bind`, `struct.make_and_bind`).
#[derive(Debug, Trace, Coerce, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative)]
#[repr(C)]
pub struct BoundFunctionGen<V> {
    func: V,
    args: Vec<V>,
}
starlark_complex_value!(pub BoundFunction);

impl<'v> Freeze for BoundFunction<'v> {
    type Frozen = FrozenBoundFunction;
    fn freeze(self, freezer: &Freezer) -> FreezeResult<Self::Frozen> {
        let mut args = Vec::with_capacity(self.args.len());
        for v in self.args {
            args.push(v.freeze(freezer)?);
        }
        Ok(BoundFunctionGen {
            func: self.func.freeze(freezer)?,
            args,
        })
    }
}

impl<V: fmt::Display> fmt::Display for BoundFunctionGen<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<bound {}>", self.func)
    }
}

#[starlark_value(type = "function")]
impl<'v, V: ValueLike<'v>> StarlarkValue<'v> for BoundFunctionGen<V>
where
    Self: ProvidesStaticType<'v>,
{
    fn invoke(
        &self,
        _me: Value<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let heap = eval.heap();
        let mut pos: Vec<Value<'v>> = self.args.iter().map(|v| v.to_value()).collect();
        pos.extend(args.positions(heap)?);
        let names = args.names_map()?;
        let named: Vec<(&str, Value<'v>)> = names.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        eval.eval_function(self.func.to_value(), &pos, &named)
    }
}

fn bind<'v>(heap: Heap<'v>, func: Value<'v>, args: Vec<Value<'v>>) -> Value<'v> {
    heap.alloc(BoundFunctionGen { func, args })
}

#[starlark_module]
fn struct_members(builder: &mut GlobalsBuilder) {
    /// A struct with the given fields.
    fn make<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<YttStruct<'v>> {
        if !args.items.is_empty() {
            bail!("struct.make: unexpected positional arguments");
        }
        Ok(YttStruct::new(kwargs))
    }

    /// Like `make`, with every function field bound to `obj` as its first argument.
    fn make_and_bind<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<YttStruct<'v>> {
        let f = "struct.make_and_bind";
        if args.items.len() != 1 {
            bail!("{f}: got {} arguments, want 1", args.items.len());
        }
        let obj = args.items[0];
        let mut fields = SmallMap::with_capacity(kwargs.len());
        for (k, v) in kwargs {
            let v = if is_function(v) {
                bind(heap, v, vec![obj])
            } else {
                v
            };
            fields.insert(k, v);
        }
        Ok(YttStruct::new(fields))
    }

    /// Partial application: `bind(fn, a)(b)` calls `fn(a, b)`.
    fn bind<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        let f = "struct.bind";
        check_positional(f, &args.items, &kwargs, 1, usize::MAX)?;
        let func = args.items[0];
        if !is_function(func) {
            bail!(
                "{f}: expected argument to be a function, but was {}",
                starlark_go(func)
            );
        }
        Ok(bind(heap, func, args.items[1..].to_vec()))
    }

    /// Dicts (recursively) → structs.
    fn encode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        let f = "struct.encode";
        check_positional(f, &args.items, &kwargs, 1, 1)?;
        let node = to_node(args.items[0]).map_err(|e| anyhow!("{f}: {e}"))?;
        from_node_struct(eval, &node).map_err(|e| anyhow!("{f}: {e}"))
    }

    /// Structs (recursively) → dicts.
    fn decode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        let f = "struct.decode";
        check_positional(f, &args.items, &kwargs, 1, 1)?;
        let node = to_node(args.items[0]).map_err(|e| anyhow!("{f}: {e}"))?;
        Ok(from_node(heap, &node))
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::eval;

    const SETUP: &str = r#"
def _test4():
    return "val4"
def _bound_test1(self):
    return self
def _bound_test2(self, other=None):
    if other:
        return self + "-" + other
    return self
st = struct.make(
    test1="val1",
    test3=lambda x: x,
    test4=_test4,
    test5=struct.bind(_bound_test1, "bound-val1"),
    test6=struct.bind(_bound_test2, "bound-val2"),
    test7=struct.bind(_bound_test2, "bound-val3", "bound-val4"))
obj = struct.make_and_bind("bound-obj",
    test1="val1",
    test3=lambda x: x,
    test5=_bound_test1,
    test6=_bound_test2)
"#;

    #[test]
    fn make_and_bind() {
        let r = eval(&format!(
            "{SETUP}\n[st.test1, st.test3(123), st.test4(), st.test5(), st.test6(\"other\"), st.test7(), st[\"test6\"](other=\"o\"), obj.test1, obj.test3(), obj.test5(), obj.test6(\"other\"), obj[\"test5\"]()]"
        ));
        assert_eq!(
            r,
            r#"["val1", 123, "val4", "bound-val1", "bound-val2-other", "bound-val3-bound-val4", "bound-val2-o", "val1", "bound-obj", "bound-obj", "bound-obj-other", "bound-obj"]"#
        );
        assert_eq!(eval("type(struct.make(a=1))"), "struct");
        assert_eq!(
            eval("struct.make(1)"),
            "ERR struct.make: unexpected positional arguments"
        );
        assert_eq!(
            eval("struct.bind(1)"),
            "ERR struct.bind: expected argument to be a function, but was starlark.Int"
        );
    }

    #[test]
    fn encode_decode() {
        let r = eval(
            r#"
val = struct.encode({"a": [1,2,3,{"c":456}], "b": "str", "c": {"d": 123}})
[val.a[3].c, val.b, val.c.d, val["c"]["d"], "a" in val, "zz" in val, len(val), list(val), type(val.c)]"#,
        );
        assert_eq!(
            r,
            r#"[456, "str", 123, 123, True, False, 3, ["a", "b", "c"], "struct"]"#
        );
        let r =
            eval(r#"repr(struct.decode(struct.make(a=[1,2,3], b="str", c=struct.make(d=123))))"#);
        assert_eq!(r, r#"{"a": [1, 2, 3], "b": "str", "c": {"d": 123}}"#);
        assert!(eval("struct.encode({1: 2})").starts_with("ERR struct.encode: "));
        assert_eq!(
            eval("struct.decode()"),
            "ERR struct.decode: got 0 arguments, want 1"
        );
    }
}

#[cfg(test)]
mod frozen_tests {
    use starlark::environment::{FrozenModule, GlobalsBuilder, Module};
    use starlark::eval::{Evaluator, FileLoader};
    use starlark::syntax::{AstModule, Dialect};

    use ytt::module_api::error_message;

    fn globals() -> starlark::environment::Globals {
        let mut b = GlobalsBuilder::standard();
        for (_, register) in crate::registry() {
            b = b.with(*register);
        }
        b.build()
    }

    struct Lib(FrozenModule);
    impl FileLoader for Lib {
        fn load(&self, path: &str) -> starlark::Result<FrozenModule> {
            match path.strip_prefix("@ytt:") {
                Some(name) => crate::builtin_module(name)
                    .ok_or_else(|| starlark::Error::new_other(anyhow::anyhow!("no module {path}"))),
                None => Ok(self.0.clone()),
            }
        }
    }

    /// Values made by the modules survive freezing (a library file's globals) and keep
    /// working when used from another module.
    #[test]
    fn frozen_values_work() {
        let g = globals();
        let lib_src = r#"
load("@ytt:assert", a="assert")
def f(a, b):
    return a + b
bound = struct.bind(f, 1)
obj = struct.make_and_bind(10, add=f, k="v")
positive = a.min(1)
choice = a.one_of(["a", "b"])
mod = module.make("m", g=lambda: 7)
"#;
        let loader =
            Lib(
                Module::with_temp_heap(|m| m.freeze().map_err(|_| "freeze failed".to_owned()))
                    .expect("empty module freezes"),
            );
        let lib = Module::with_temp_heap(|m| {
            let ast = AstModule::parse("lib.star", lib_src.to_owned(), &Dialect::Extended)
                .map_err(|e| e.to_string())?;
            {
                let mut eval = Evaluator::new(&m);
                eval.set_loader(&loader);
                eval.eval_module(ast, &g).map_err(|e| e.to_string())?;
            }
            m.freeze().map_err(|_| "freeze failed".to_owned())
        })
        .expect("library evaluates");
        let main_src = r#"
load("@ytt:assert", a="assert")
load("lib.star", "bound", "obj", "positive", "choice", "mod")
[bound(2), obj.add(5), obj.k, positive.check(3), choice.check("b"), mod.g(), a.try_to(lambda: positive.check(0))]
"#;
        let loader = Lib(lib);
        let out = Module::with_temp_heap(|m| {
            let ast = AstModule::parse("main.star", main_src.to_owned(), &Dialect::Extended)
                .map_err(|e| e.to_string())?;
            let mut eval = Evaluator::new(&m);
            eval.set_loader(&loader);
            eval.eval_module(ast, &g)
                .map(|v| v.to_repr())
                .map_err(|e| error_message(&e))
        });
        assert_eq!(
            out.as_deref(),
            Ok(r#"[3, 15, "v", True, True, 7, (None, "fail: value < 1")]"#)
        );
    }
}
