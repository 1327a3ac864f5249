//! `@ytt:template`: `template.replace(v)` replaces the node being built where it is
//! called by `v`'s items (what that means for the node: `eval::replace`).

use starlark::environment::GlobalsBuilder;
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::Value;

use crate::eval::replace::{Noop, Replacement};
use crate::eval::runtime::runtime_of;

/// `@ytt:template`.
#[starlark_module]
fn template_module(builder: &mut GlobalsBuilder) {
    fn replace<'v>(value: Value<'v>, eval: &mut Evaluator<'v, '_, '_>) -> anyhow::Result<Noop> {
        let r = Replacement::of(value)?;
        // the template the call is written in
        let template = eval
            .call_stack_top_location()
            .and_then(|span| span.filename().parse::<u32>().ok());
        runtime_of(eval)?.replace_current(template, r)?;
        Ok(Noop)
    }
}

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("template", template_module);
}
