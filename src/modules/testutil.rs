//! Test helper: evaluates a Starlark snippet in which `load("@ytt:overlay", …)` resolves
//! to the engine's module (also available as a global).

use starlark::environment::{FrozenModule, GlobalsBuilder, Module};
use starlark::eval::{Evaluator, FileLoader};
use starlark::syntax::{AstModule, Dialect};

use super::args::error_message;

struct OverlayLoader;

impl FileLoader for OverlayLoader {
    fn load(&self, path: &str) -> starlark::Result<FrozenModule> {
        (path == "@ytt:overlay")
            .then(super::overlay_module)
            .ok_or_else(|| {
                starlark::Error::new_other(anyhow::anyhow!("cannot find module '{path}'"))
            })
    }
}

/// Evaluates `code` (the value of its last statement is the result) and returns `str()` of
/// the result, or `ERR <message>` when evaluation fails.
pub fn eval(code: &str) -> String {
    let dialect = Dialect {
        enable_top_level_stmt: true,
        ..Dialect::Extended
    };
    let ast = match AstModule::parse("test.star", code.to_owned(), &dialect) {
        Ok(ast) => ast,
        Err(e) => return format!("ERR {}", error_message(&e)),
    };
    let globals = GlobalsBuilder::standard()
        .with(super::overlay::register)
        .build();
    Module::with_temp_heap(|module| {
        let mut eval = Evaluator::new(&module);
        eval.set_loader(&OverlayLoader);
        match eval.eval_module(ast, &globals) {
            Ok(v) => v.to_str(),
            Err(e) => format!("ERR {}", error_message(&e)),
        }
    })
}
