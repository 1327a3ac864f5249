//! Test helper: evaluates a Starlark snippet in which `load("@ytt:<name>", …)` resolves to
//! this crate's modules (they are also available as globals).

use starlark::environment::{FrozenModule, GlobalsBuilder, Module};
use starlark::eval::{Evaluator, FileLoader};
use starlark::syntax::{AstModule, Dialect};

use ytt::module_api::error_message;

struct StdlibLoader;

impl FileLoader for StdlibLoader {
    fn load(&self, path: &str) -> starlark::Result<FrozenModule> {
        path.strip_prefix("@ytt:")
            .and_then(crate::builtin_module)
            .ok_or_else(|| {
                starlark::Error::new_other(anyhow::anyhow!("cannot find module '{path}'"))
            })
    }
}

fn dialect() -> Dialect {
    Dialect {
        enable_top_level_stmt: true,
        ..Dialect::Extended
    }
}

/// Evaluates `code` (the value of its last statement is the result) and returns `str()` of
/// the result, or `ERR <message>` when evaluation fails.
///
/// `assert` is a reserved word in starlark-rust, so `assert.` in `code` is rewritten to
/// `__ytt_assert.` (bound to the `assert` module).
pub fn eval(code: &str) -> String {
    let code = rewrite_assert(code);
    let ast = match AstModule::parse("test.star", code, &dialect()) {
        Ok(ast) => ast,
        Err(e) => return format!("ERR {}", error_message(&e)),
    };
    let mut builder = GlobalsBuilder::standard();
    for (_, register) in crate::registry() {
        builder = builder.with(*register);
    }
    let globals = builder.build();
    Module::with_temp_heap(|module| {
        module.frozen_heap().add_reference(globals.heap());
        if let Some((_, a)) = globals.iter().find(|(name, _)| *name == "assert") {
            module.set("__ytt_assert", a.to_value());
        }
        let mut eval = Evaluator::new(&module);
        eval.set_loader(&StdlibLoader);
        match eval.eval_module(ast, &globals) {
            Ok(v) => v.to_str(),
            Err(e) => format!("ERR {}", error_message(&e)),
        }
    })
}

fn rewrite_assert(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(i) = rest.find("assert.") {
        let before_ok = rest[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        out.push_str(&rest[..i]);
        if before_ok && (i == 0 || out.chars().next_back().is_none_or(|c| c != '.')) {
            out.push_str("__ytt_assert.");
        } else {
            out.push_str("assert.");
        }
        rest = &rest[i + "assert.".len()..];
    }
    out.push_str(rest);
    out
}
