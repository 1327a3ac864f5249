//! The instruction functions every template's generated code calls (`__ytt_start_node`,
//! `__ytt_set_node`, …): they drive the run's node contexts (`eval::contexts`), make
//! annotations, load modules from nested blocks and collect garbage inside loops.

use anyhow::{anyhow, bail};
use starlark::environment::GlobalsBuilder;
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::dict::{AllocDict, DictRef};
use starlark::values::none::NoneType;
use starlark::values::tuple::UnpackTuple;
use starlark::values::{Heap, Value, ValueLike};

use super::convert::from_node_in_fragment;
use super::fragment::{FragmentNode, YamlFragment};
use super::runtime::{runtime, Extra, Runtime};
use super::suggest::{exported_names, not_found};
use super::ystruct::struct_fields;

/// Errors of node instructions carry the instruction's name, as the reference's do.
fn instruction_error(
    rt: &Runtime,
    template: i32,
    instruction: &str,
    e: anyhow::Error,
) -> anyhow::Error {
    let msg = format!("{e:#}");
    if msg.starts_with("template.replace:") {
        return e;
    }
    let number = u32::try_from(template)
        .ok()
        .and_then(|id| rt.template_number(id))
        .unwrap_or(2);
    anyhow!("__ytt_tpl{number}_{instruction}: {msg}")
}

fn as_u32(v: i32) -> anyhow::Result<u32> {
    u32::try_from(v).map_err(|_| anyhow!("internal error: bad instruction argument {v}"))
}

/// The instruction functions every template's globals include.
#[starlark_module]
pub fn instructions(builder: &mut GlobalsBuilder) {
    /// A `load` nested in top-level blocks (see `instr::LOAD`): loads the module with the
    /// file loader of the module being evaluated (so once per run, with the errors of a
    /// top-level `load`) and returns the named values (one, or a tuple of several).
    fn __ytt_load<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let internal = |m: &str| starlark::Error::new_other(anyhow!("internal error: {m}"));
        let loader = eval
            .extra
            .and_then(|e| e.downcast_ref::<Extra>())
            .and_then(|e| e.1)
            .ok_or_else(|| internal("load outside of a module"))?;
        let mut strs = args.items.iter().map(|v| v.unpack_str());
        let path = strs
            .next()
            .flatten()
            .ok_or_else(|| internal("bad load instruction"))?;
        let module = loader.load(path)?;
        // the evaluating module's heap keeps the loaded module's heap alive
        eval.frozen_heap().add_reference(module.frozen_heap());
        let mut values = Vec::with_capacity(args.items.len().saturating_sub(1));
        for name in strs {
            let name = name.ok_or_else(|| internal("bad load instruction"))?;
            let value = match module.get_option(name) {
                Ok(Some(v)) => v,
                _ => {
                    let msg = not_found(name, path, &exported_names(&module));
                    return Err(starlark::Error::new_other(anyhow!(msg)));
                }
            };
            // SAFETY: the reference added above keeps the value's heap alive as long as
            // the module being evaluated, which outlives every value of the evaluation.
            values.push(unsafe { value.unchecked_frozen_value() }.to_value());
        }
        Ok(match values.as_slice() {
            [one] => *one,
            _ => eval
                .heap()
                .alloc(starlark::values::tuple::AllocTuple(values)),
        })
    }

    fn __ytt_start_ctx(
        #[starlark(require = pos)] template: i32,
        #[starlark(require = pos)] first_node: Option<i32>,
        eval: &mut Evaluator,
    ) -> anyhow::Result<NoneType> {
        let first_node = first_node.map(as_u32).transpose()?;
        let rt = runtime(eval)?;
        let template = as_u32(template)?;
        // a template's own nodes, not a function's
        let ahead = first_node.is_none() && rt.writes_ahead(template);
        rt.contexts.start(rt.tpl(template)?, first_node, ahead)?;
        Ok(NoneType)
    }

    fn __ytt_end_ctx<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        let rt = runtime(eval)?;
        if let Some(v) = args.items.get(1) {
            rt.contexts.pop()?;
            return Ok(*v);
        }
        rt.contexts.end(eval.heap())
    }

    fn __ytt_end_root(
        #[starlark(require = pos)] template: i32,
        eval: &mut Evaluator,
    ) -> anyhow::Result<NoneType> {
        let _ = template;
        runtime(eval)?.contexts.end_root()?;
        Ok(NoneType)
    }

    /// Starts node `tag`, or the nodes `tag..=last`.
    fn __ytt_start_node(
        #[starlark(require = pos)] template: i32,
        #[starlark(require = pos)] tag: i32,
        #[starlark(require = pos)] last: Option<i32>,
        eval: &mut Evaluator,
    ) -> anyhow::Result<NoneType> {
        let rt = runtime(eval)?;
        let first = as_u32(tag)?;
        let last = last.map_or(Ok(first), as_u32)?;
        rt.tpl(as_u32(template)?)
            .and_then(|t| rt.contexts.start_nodes(&t, first, last))
            .map_err(|e| instruction_error(rt, template, "start_node", e))?;
        Ok(NoneType)
    }

    fn __ytt_set_node<'v>(
        #[starlark(require = pos)] template: i32,
        #[starlark(require = pos)] tag: i32,
        #[starlark(require = pos)] value: Value<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<NoneType> {
        let rt = runtime(eval)?;
        let (id, tag) = (as_u32(template)?, as_u32(tag)?);
        rt.tpl(id)
            .and_then(|t| rt.contexts.set_node(&t, tag, value))
            .map_err(|e| instruction_error(rt, template, "set_node", e))?;
        Ok(NoneType)
    }

    fn __ytt_set_key<'v>(
        #[starlark(require = pos)] template: i32,
        #[starlark(require = pos)] tag: i32,
        #[starlark(require = pos)] value: Value<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<NoneType> {
        let rt = runtime(eval)?;
        let (id, tag) = (as_u32(template)?, as_u32(tag)?);
        rt.tpl(id)
            .and_then(|t| rt.contexts.set_key(&t, tag, value))
            .map_err(|e| instruction_error(rt, template, "start_node", e))?;
        Ok(NoneType)
    }

    /// Annotation arguments are evaluated (so mistakes in them are reported); what the
    /// annotations mean is decided by later pipeline steps.
    fn __ytt_annotate<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<String, Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<NoneType> {
        let (Some(t), Some(tag), Some(name)) = (
            args.items.first().and_then(|v| v.unpack_i32()),
            args.items.get(1).and_then(|v| v.unpack_i32()),
            args.items.get(2).and_then(|v| v.unpack_str()),
        ) else {
            return Err(anyhow!("internal error: bad annotation instruction").into());
        };
        let kwargs: Vec<(String, Value<'v>)> = kwargs.into_iter().collect();
        runtime(eval)?.annotate(
            eval,
            as_u32(t)?,
            as_u32(tag)?,
            name,
            &args.items[3..],
            &kwargs,
        )?;
        Ok(NoneType)
    }

    fn __ytt_kwargs<'v>(
        #[starlark(require = pos)] value: Value<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        if DictRef::from_value(value).is_some() {
            return Ok(value);
        }
        if let Some(fields) = struct_fields(value) {
            return Ok(heap.alloc(AllocDict(fields)));
        }
        if let Some(f) = value.downcast_ref::<YamlFragment>() {
            return match &*f.node {
                FragmentNode::Empty => Ok(heap.alloc(AllocDict::EMPTY)),
                FragmentNode::Map(m) => Ok(heap.alloc(AllocDict(m.items.iter().map(|i| {
                    (
                        from_node_in_fragment(heap, &i.key),
                        from_node_in_fragment(heap, &i.value),
                    )
                })))),
                _ => bail!("argument after ** must be a mapping, not yamlfragment"),
            };
        }
        bail!(
            "argument after ** must be a mapping, not {}",
            value.get_type()
        )
    }

    fn __ytt_forever<'v>(eval: &mut Evaluator<'v, '_, '_>) -> anyhow::Result<Value<'v>> {
        Ok(super::gc::forever(eval))
    }

    fn __ytt_gc(eval: &mut Evaluator) -> anyhow::Result<NoneType> {
        let rt = runtime(eval)?;
        // a function the runtime calls after its module ended runs no module
        if let Ok(serial) = rt.evaluating_serial() {
            rt.gc.point(serial, eval);
        }
        Ok(NoneType)
    }
}
