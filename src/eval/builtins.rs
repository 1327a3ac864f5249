//! Starlark builtins that behave as the reference's do where starlark-rust's differ:
//! `str` prints floats as Go does, `dict` takes a struct as a mapping, `zip` and `int`
//! check their arguments with the reference's words. They replace the standard ones in
//! every template's globals (`globals::globals`).

use anyhow::{anyhow, bail};
use starlark::collections::SmallMap;
use starlark::environment::{Globals, GlobalsBuilder};
use starlark::eval::{Arguments, Evaluator};
use starlark::starlark_module;
use starlark::values::dict::{AllocDict, DictRef};
use starlark::values::float::StarlarkFloat;
use starlark::values::list::ListRef;
use starlark::values::tuple::{AllocTuple, TupleRef, UnpackTuple};
use starlark::values::{FrozenValue, Heap, Value, ValueLike};

use super::ystruct::struct_items;

/// starlark-rust's own `int`, which the replacement calls once it has checked what the
/// reference checks (found once; the globals holding it live as long as the process).
fn standard_int() -> anyhow::Result<FrozenValue> {
    static INT: std::sync::OnceLock<(Globals, Option<FrozenValue>)> = std::sync::OnceLock::new();
    let (_, int) = INT.get_or_init(|| {
        let globals = Globals::standard();
        let int = globals.iter().find(|(n, _)| *n == "int").map(|(_, v)| v);
        (globals, int)
    });
    int.ok_or_else(|| anyhow!("internal error: no builtin int"))
}

#[starlark_module]
pub fn builtins(builder: &mut GlobalsBuilder) {
    /// `str()`, with floats printed as the reference does, also inside lists, tuples,
    /// dicts (see [`go_repr`]).
    fn str<'v>(
        #[starlark(require = pos)] value: Value<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        if value.unpack_str().is_some() {
            return Ok(value);
        }
        Ok(heap.alloc(go_repr(value)))
    }

    /// `repr()`, with floats printed as the reference does (see [`go_repr`]).
    fn repr<'v>(
        #[starlark(require = pos)] value: Value<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        if value.unpack_str().is_some() {
            return Ok(heap.alloc(value.to_repr()));
        }
        Ok(heap.alloc(go_repr(value)))
    }

    /// `dict(mapping_or_pairs, **kwargs)`: a dict, a struct (its fields, as the
    /// reference's structs are mappings) or an iterable of pairs, then the keyword
    /// arguments.
    fn dict<'v>(args: &Arguments<'v, '_>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        let positional: Vec<Value<'v>> = args.positions(heap)?.collect();
        if positional.len() > 1 {
            return Err(anyhow!("dict: got {} arguments, want at most 1", positional.len()).into());
        }
        let mut items: SmallMap<Value<'v>, Value<'v>> = SmallMap::new();
        if let Some(&from) = positional.first() {
            update(&mut items, from, heap)?;
        }
        for (k, v) in args.names_map()? {
            items.insert_hashed(k.to_value().get_hashed()?, v);
        }
        Ok(heap.alloc(AllocDict(items)))
    }

    /// `zip(*iterables)`: tuples of the items at the same index, as many as the shortest
    /// iterable has.
    fn zip<'v>(args: &Arguments<'v, '_>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        if !args.names_map()?.is_empty() {
            return Err(anyhow!("zip does not accept keyword arguments").into());
        }
        let mut columns = Vec::new();
        for (i, v) in args.positions(heap)?.enumerate() {
            let items: Vec<Value<'v>> = match v.iterate(heap) {
                Ok(it) => it.collect(),
                Err(_) => {
                    return Err(anyhow!(
                        "zip: argument #{} is not iterable: {}",
                        i + 1,
                        v.get_type()
                    )
                    .into())
                }
            };
            columns.push(items);
        }
        let rows = columns.iter().map(Vec::len).min().unwrap_or(0);
        let tuples = (0..rows).map(|r| heap.alloc(AllocTuple(columns.iter().map(|c| c[r]))));
        Ok(heap.alloc(tuples.collect::<Vec<_>>()))
    }

    /// `int(x, base)`: `x` is required, as in the reference (starlark-rust's `int()` is 0).
    fn int<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let [x, base] = int_params(&args.items, &kwargs)?;
        let x = x.ok_or_else(|| anyhow!("int: missing argument for x"))?;
        if !matches!(x.get_type(), "int" | "float" | "bool" | "string") {
            return Err(anyhow!("int: cannot convert {} to int", x.get_type()).into());
        }
        let int = standard_int()?.to_value();
        match base {
            Some(b) => eval.eval_function(int, &[x, b], &[]),
            None => eval.eval_function(int, &[x], &[]),
        }
    }
}

/// The text of a value that is not a string, as the reference's `str()` and `repr()`
/// write it: floats as Go's `%g` with six significant digits (`1.0` → `1`, `0.1 + 0.2` →
/// `0.3`, `1e21` → `1e+21`, `+Inf`, `NaN`), also inside lists, tuples and dicts;
/// the rest as starlark-rust writes it. (`"%s" % x`, `"{}".format(x)` and `print` still
/// write floats starlark-rust's way: that text is starlark-rust's own.)
pub fn go_repr(v: Value) -> String {
    let mut out = String::new();
    write_repr(v, &mut out, &mut Vec::new());
    out
}

/// `str(v)` as the reference writes it: a string as it is, else [`go_repr`].
pub fn go_str(v: Value) -> String {
    match v.unpack_str() {
        Some(s) => s.to_owned(),
        None => go_repr(v),
    }
}

/// Containers deeper than this are written by starlark-rust (which bounds its own
/// recursion), floats inside them as it writes them.
const MAX_REPR_DEPTH: usize = 200;

fn write_repr<'v>(v: Value<'v>, out: &mut String, open: &mut Vec<Value<'v>>) {
    // one look at the type for the common case, a value that holds no float (`str(i)`)
    match v.get_type() {
        "float" => {
            if let Some(f) = v.downcast_ref::<StarlarkFloat>() {
                out.push_str(&crate::yaml::emit::format_float_str(f.0));
                return;
            }
        }
        "list" | "tuple" | "dict" => {}
        _ => {
            v.collect_repr(out);
            return;
        }
    }
    let list = ListRef::from_value(v);
    let tuple = TupleRef::from_value(v);
    let dict = DictRef::from_value(v);
    if (list.is_none() && tuple.is_none() && dict.is_none()) || open.len() >= MAX_REPR_DEPTH {
        v.collect_repr(out);
        return;
    }
    // a container met again inside itself, as starlark-rust writes it
    if open.iter().any(|o| o.ptr_eq(v)) {
        out.push_str(if dict.is_some() { "{...}" } else { "[...]" });
        return;
    }
    open.push(v);
    let items = |out: &mut String, open: &mut Vec<Value<'v>>, items: &[Value<'v>]| {
        for (i, x) in items.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_repr(*x, out, open);
        }
    };
    if let Some(l) = list {
        out.push('[');
        items(out, open, l.content());
        out.push(']');
    } else if let Some(t) = tuple {
        out.push('(');
        items(out, open, t.content());
        out.push_str(if t.len() == 1 { ",)" } else { ")" });
    } else if let Some(d) = dict {
        out.push('{');
        for (i, (k, x)) in d.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_repr(k, out, open);
            out.push_str(": ");
            write_repr(x, out, open);
        }
        out.push('}');
    }
    open.pop();
}

/// Adds the items of `dict()`'s positional argument to `items`, in the reference's
/// words when one is not a pair.
fn update<'v>(
    items: &mut SmallMap<Value<'v>, Value<'v>>,
    from: Value<'v>,
    heap: Heap<'v>,
) -> starlark::Result<()> {
    if let Some(d) = DictRef::from_value(from) {
        for (k, v) in d.iter_hashed() {
            items.insert_hashed(k, v);
        }
        return Ok(());
    }
    if let Some(fields) = struct_items(from, heap) {
        for (k, v) in fields {
            items.insert_hashed(heap.alloc_str(k).to_value().get_hashed()?, v);
        }
        return Ok(());
    }
    let Ok(pairs) = from.iterate(heap) else {
        return Err(anyhow!("dict: got {}, want iterable", from.get_type()).into());
    };
    for (i, pair) in pairs.enumerate() {
        let Ok(kv) = pair.iterate(heap) else {
            return Err(anyhow!(
                "dict: dictionary update sequence element #{i} is not iterable ({})",
                pair.get_type()
            )
            .into());
        };
        let kv: Vec<Value<'v>> = kv.collect();
        let [k, v] = kv[..] else {
            return Err(anyhow!(
                "dict: dictionary update sequence element #{i} has length {}, want 2",
                kv.len()
            )
            .into());
        };
        let k = k
            .get_hashed()
            .map_err(|_| anyhow!("dict: unhashable type: {}", k.get_type()))?;
        items.insert_hashed(k, v);
    }
    Ok(())
}

/// `int`'s arguments bound to its parameters `x` and `base`, checked as the reference
/// checks them.
fn int_params<'v>(
    args: &[Value<'v>],
    kwargs: &SmallMap<String, Value<'v>>,
) -> anyhow::Result<[Option<Value<'v>>; 2]> {
    if args.len() > 2 {
        bail!("int: got {} arguments, want at most 2", args.len());
    }
    let mut bound = [args.first().copied(), args.get(1).copied()];
    for (k, v) in kwargs {
        let i = match k.as_str() {
            "x" => 0,
            "base" => 1,
            _ => bail!("int: unexpected keyword argument \"{k}\""),
        };
        if bound[i].replace(*v).is_some() {
            bail!("int: got multiple values for parameter \"{k}\"");
        }
    }
    Ok(bound)
}
