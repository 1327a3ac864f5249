//! Running a compiled template as a Starlark module.

use std::collections::HashMap;

use starlark::environment::{FrozenModule, Globals, Module};
use starlark::eval::{Evaluator, FileLoader};
use starlark::syntax::AstModule;
use starlark::typing::AstModuleTypecheck;
use starlark::values::list::{AllocList, ListRef};
use starlark::PrintHandler;

use super::contexts::RootOutput;
use super::error::{error_diagnostic, format_error, format_static, module_error_diagnostic};
use super::globals::dialect;
use super::runtime::{Extra, Runtime};
use super::suggest::exported_names;
use super::wording::message_text;
use crate::diagnostic::{Diagnostic, Kind};
use crate::template::{instr, CompiledTemplate};
use crate::yaml::Pos;

/// `print()` goes to the run's messages (the command line: stderr, as in the reference).
struct RunPrint<'a>(&'a Runtime);

impl PrintHandler for RunPrint<'_> {
    fn println(&self, text: &str) -> starlark::Result<()> {
        self.0.messages().line(text);
        Ok(())
    }
}

/// A compiled template's code parsed (on any thread: see [`run_parsed_template`]).
pub fn parse_code(t: &CompiledTemplate) -> starlark::Result<AstModule> {
    AstModule::parse(&t.id.to_string(), t.code.clone(), &dialect())
}

/// A compiled template's code parsed, or its first syntax error or error found before
/// evaluation (a misplaced `return`, ...), as a run reports it.
pub fn parse_template(rt: &Runtime, t: &CompiledTemplate) -> Result<AstModule, Diagnostic> {
    reported_parse(rt, t, parse_code(t))
}

/// [`parse_template`] of a parse done already.
fn reported_parse(
    rt: &Runtime,
    t: &CompiledTemplate,
    parsed: starlark::Result<AstModule>,
) -> Result<AstModule, Diagnostic> {
    let ast = parsed.map_err(|e| error_diagnostic(rt, &e))?;
    if let Some(e) = t.static_errors.first() {
        let text = format_static(t, e);
        let at = Pos::new(t.file, e.line.unwrap_or(0));
        return Err(Diagnostic::new(Kind::Template, text).at(rt.names().locate(&at)));
    }
    Ok(ast)
}

/// Evaluates a template: returns its frozen module (its exported symbols) and what it
/// produced. Errors read as the reference reports them.
pub fn run_template(
    rt: &Runtime,
    globals: &Globals,
    loader: &dyn FileLoader,
    t: &CompiledTemplate,
) -> Result<(FrozenModule, Option<RootOutput>), Diagnostic> {
    run_parsed_template(rt, globals, loader, t, parse_code(t))
}

/// [`run_template`] with the template's code parsed already ([`parse_code`]).
pub fn run_parsed_template(
    rt: &Runtime,
    globals: &Globals,
    loader: &dyn FileLoader,
    t: &CompiledTemplate,
    parsed: starlark::Result<AstModule>,
) -> Result<(FrozenModule, Option<RootOutput>), Diagnostic> {
    let depth = rt.context_depth();
    let ast = reported_parse(rt, t, parsed)?;
    // passed outside template code: no line of this one to blame
    if let Some(b) = rt.budget.filter(|b| b.passed()) {
        return Err(Diagnostic::new(Kind::Other, b.message));
    }
    let extra = Extra(rt, Some(loader));
    let print = RunPrint(rt);
    rt.begin_module(t.id);
    let result = Module::with_temp_heap(|module| {
        {
            let mut eval = Evaluator::new(&module);
            eval.set_loader(loader);
            eval.set_print_handler(&print);
            eval.extra = Some(&extra);
            if let Some(b) = &rt.budget {
                b.watch(&mut eval);
            }
            eval.eval_module(ast, globals)?;
        }
        module
            .freeze()
            .map_err(|_| starlark::Error::new_other(anyhow::anyhow!("failed to freeze module")))
    });
    match result {
        Ok(frozen) => {
            let values = frozen
                .get_any_visibility(instr::ANNOTATION_VALUES)
                .ok()
                .map(|(v, _)| v);
            rt.end_module(t.id, values);
            Ok((frozen, rt.take_result(t.id)))
        }
        Err(e) => {
            rt.end_module(t.id, None);
            rt.reset_contexts(depth);
            let exports = |path: &str| Some(exported_names(&loader.load(path).ok()?));
            Err(undefined_names(rt, globals, t, &e)
                .unwrap_or_else(|| module_error_diagnostic(rt, &e, Some(&exports))))
        }
    }
}

/// Every undefined name of the template, each with its line, as the reference reports
/// them: starlark-rust's compiler stops at the first, but the scope checker behind its
/// `typecheck` collects them all (run only on that error). Located on the first.
fn undefined_names(
    rt: &Runtime,
    globals: &Globals,
    t: &CompiledTemplate,
    e: &starlark::Error,
) -> Option<Diagnostic> {
    const UNDEFINED: &str = "undefined: ";
    if !message_text(e).starts_with(UNDEFINED) {
        return None;
    }
    let ast = AstModule::parse(&t.id.to_string(), t.code.clone(), &dialect()).ok()?;
    let (errors, ..) = ast.typecheck(globals, &HashMap::new());
    let undefined: Vec<_> = (errors.iter())
        .filter(|x| message_text(x).starts_with(UNDEFINED))
        .collect();
    let first = error_diagnostic(rt, undefined.first()?);
    let report: String = undefined.iter().map(|x| format_error(rt, x)).collect();
    Some(first.reworded(|_| report))
}

/// Runs `f` with a fresh evaluator on a temporary module, with the runtime reachable
/// (for calling Starlark values outside a template's own evaluation: overlays' `by=` and
/// `via=` functions, validation rules).
///
/// Such a call may build annotated YAML fragments (a `via=` lambda calling a function
/// whose body carries `#@overlay/match ...`): the module is an evaluation of its own,
/// holding those annotations' values like a template's, and keeps them once `f` is done
/// when there are any.
pub fn with_evaluator<R>(rt: &Runtime, f: impl FnOnce(&mut Evaluator) -> R) -> R {
    let extra = Extra(rt, None);
    let serial = rt.begin_host_module();
    let (result, values) = Module::with_temp_heap(|module| {
        let list = module.heap().alloc(AllocList([serial as i32]));
        module.set(instr::ANNOTATION_VALUES, list);
        let result = {
            let mut eval = Evaluator::new(&module);
            eval.extra = Some(&extra);
            if let Some(b) = &rt.budget {
                b.watch(&mut eval);
            }
            f(&mut eval)
        };
        let made_annotations = ListRef::from_value(list).is_some_and(|l| l.len() > 1);
        let values = made_annotations
            .then(|| module.freeze().ok())
            .flatten()
            .and_then(|m| m.get_any_visibility(instr::ANNOTATION_VALUES).ok())
            .map(|(v, _)| v);
        (result, values)
    });
    rt.end_module(serial, values);
    result
}
