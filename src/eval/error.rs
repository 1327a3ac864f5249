//! Turning Starlark errors into the reference's report: the message, then the stack of
//! template lines it went through, innermost first.
//!
//! ```text
//! - unknown binary op: int + string
//!     in <toplevel>
//!       tpl.yml:5 |     int: #@ 123 + "124"
//! ```

use starlark::syntax::ast::{AstNoPayload, AstStmt, DefP, ParameterP, StmtP};
use starlark::syntax::AstModule;
use starlark::ErrorKind;

use super::globals::dialect;
use super::runtime::Runtime;
use super::suggest::not_found;
use super::wording::{kind_message, message_text, with_callee};
use crate::diagnostic::{Diagnostic, Frame, Kind};
use crate::overlay::OverlayError;
use crate::template::{BlockError, CompiledTemplate};
use crate::yaml::Pos;

/// An error raised by an assertion object's `check`. The reference implements these
/// checks as Starlark lambdas in a pseudo-file named after the function, so its report
/// shows an extra frame `in lambda` / `assert.min:1 | (unavailable)`; `function` names
/// that pseudo-file. `Display` is the message alone (`fail: value < 3`).
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct LambdaError {
    pub function: &'static str,
    pub message: String,
}

/// A template position resolved from generated code.
struct Level {
    func: String,
    /// `file:line`, or the bare line in a Starlark file.
    pos: String,
    /// The template line.
    at: Pos,
    src: String,
}

/// An evaluation error as a diagnostic: the reference's text (see [`format_error`]),
/// located on the innermost template line the error went through. An error the code
/// raised is an evaluation error; one of the program's syntax or names, the template's.
/// An error that carries the diagnostic of a step below (a library's run, an overlay
/// applied from code) keeps that step's kind and location, the innermost known.
pub fn error_diagnostic(rt: &Runtime, e: &starlark::Error) -> Diagnostic {
    module_error_diagnostic(rt, e, None)
}

/// What a module a template's top-level `load` names exports, by the path as written
/// (`None` when it cannot be loaded): the reference suggests one of those names for a
/// name the module does not have.
pub type Exports<'a> = &'a dyn Fn(&str) -> Option<Vec<String>>;

/// [`error_diagnostic`] of an error of a template's evaluation, whose `load` statements
/// reach modules through `exports`.
pub fn module_error_diagnostic(
    rt: &Runtime,
    e: &starlark::Error,
    exports: Option<Exports>,
) -> Diagnostic {
    let Report {
        text,
        levels,
        is_static,
    } = report(rt, e, exports);
    let at = levels.first().map(|l| rt.names().locate(&l.at));
    let frames = levels.into_iter().map(|l| Frame {
        function: l.func,
        location: rt.names().locate(&l.at),
        source: l.src,
    });
    if let Some(inner) = carried(rt, e).filter(|d| d.kind() != Kind::Other) {
        // located where the step below knows, else on the line that called it
        let inner = match (inner.location(), at) {
            (None, Some(at)) => inner.at(at),
            _ => inner,
        };
        return inner.with_frames(frames).reworded(|_| text);
    }
    let kind = if is_static {
        Kind::Template
    } else {
        Kind::Evaluation
    };
    let d = Diagnostic::new(kind, text).with_frames(frames);
    match at {
        Some(at) => d.at(at),
        None => d,
    }
}

/// The diagnostic an error raised by native code carries: a step's (a library's run),
/// or an overlay's that code applied (`overlay.apply`), on the overlay node that failed.
fn carried(rt: &Runtime, e: &starlark::Error) -> Option<Diagnostic> {
    let (ErrorKind::Native(a) | ErrorKind::Other(a) | ErrorKind::Function(a) | ErrorKind::Value(a)) =
        e.kind()
    else {
        return None;
    };
    if let Some(o) = a.downcast_ref::<OverlayError>() {
        return Some(o.diagnostic(rt.names(), o.to_string()));
    }
    Diagnostic::of(a)
}

/// Formats an evaluation error as the reference does (the text after `ytt: Error: `).
pub fn format_error(rt: &Runtime, e: &starlark::Error) -> String {
    report(rt, e, None).text
}

/// An evaluation error as the reference reports it.
struct Report {
    text: String,
    /// The template lines it went through, innermost first.
    levels: Vec<Level>,
    /// An error of the program itself (syntax, names), found before running it.
    is_static: bool,
}

fn report(rt: &Runtime, e: &starlark::Error, exports: Option<Exports>) -> Report {
    let raw = kind_message(e.kind());
    let message = missing_symbol(&raw)
        .and_then(|name| {
            let module = load_module(rt, e)?;
            let exported = exports.and_then(|f| f(&module)).unwrap_or_default();
            Some(not_found(name, &module, &exported))
        })
        .or_else(|| extra_arguments(rt, e))
        .or_else(|| Some(rt.budget?.stopped(&raw)?.to_owned()))
        .unwrap_or_else(|| message_text(e));
    let message = with_callee(message, e);
    // every line after the first is the reason, a last empty one too (a report that
    // ends with a line break shows it, as the reference's do)
    let mut lines = message.split('\n');
    let first = lines.next().unwrap_or("").to_owned();
    let reason: Vec<&str> = lines.collect();

    let is_static = matches!(e.kind(), ErrorKind::Parser(_) | ErrorKind::Scope(_))
        || raw.starts_with("Cannot import private symbol");
    let levels = levels(rt, e);
    let mut out = format!("\n- {first}");
    // checks of @ytt:assert's assertion objects are lambdas in the reference
    if let Some(f) = lambda_function(e) {
        out.push_str(&format!("\n    in lambda\n      {f}:1 | (unavailable)"));
    }
    for l in &levels {
        if is_static {
            out.push_str(&format!("\n    {} | {}", l.pos, l.src));
        } else {
            out.push_str(&format!("\n    in {}\n      {} | {}", l.func, l.pos, l.src));
        }
    }
    if !reason.is_empty() {
        out.push_str("\n\n    reason:");
        for r in reason {
            out.push_str("\n     ");
            out.push_str(r);
        }
    }
    Report {
        text: out,
        levels,
        is_static,
    }
}

/// A static error of a template (found after parsing, before running it), reported as
/// the reference does: the message, then the line.
pub fn format_static(t: &CompiledTemplate, e: &BlockError) -> String {
    let message = &e.message;
    match e.line {
        Some(l) => {
            // a text template's line shows as its code, as its evaluation errors show it
            let text = e.display.as_deref().unwrap_or_else(|| t.src_line(l));
            format!("\n- {message}\n    {} | {text}", t.position(l))
        }
        None => format!("\n- {message}\n    {}", t.name),
    }
}

/// The name in starlark-rust's messages for a name a loaded module does not export
/// (it does not have it, or only loaded it itself).
fn missing_symbol(message: &str) -> Option<&str> {
    let name = message
        .strip_prefix("Module has no symbol `")
        .or_else(|| message.strip_prefix("Module symbol `"))?;
    name.split('`').next()
}

/// The module path of the top-level `load` statement an error is on.
fn load_module(rt: &Runtime, e: &starlark::Error) -> Option<String> {
    let span = e.span()?;
    let id = span.filename().parse::<u32>().ok()?;
    let t = rt.template(id)?;
    let ast = AstModule::parse(&t.id.to_string(), t.code.clone(), &dialect()).ok()?;
    let at = span.resolve_span().begin;
    let mut found = None;
    let mut check = |s: &AstStmt| {
        if let StmtP::Load(load) = &s.node {
            let r = ast.file_span(s.span).resolve_span();
            if r.begin <= at && at <= r.end {
                found = Some(load.module.node.clone());
            }
        }
    };
    check(ast.statement());
    ast.statement().visit_stmt(&mut check);
    found
}

fn lambda_function(e: &starlark::Error) -> Option<&'static str> {
    match e.kind() {
        ErrorKind::Native(a)
        | ErrorKind::Other(a)
        | ErrorKind::Function(a)
        | ErrorKind::Value(a) => a.downcast_ref::<LambdaError>().map(|l| l.function),
        _ => None,
    }
}

/// Resolves the error's stack to template lines, innermost first.
fn levels(rt: &Runtime, e: &starlark::Error) -> Vec<Level> {
    // a generated-code position: (template id, 0-based generated line)
    let position = |span: &starlark::codemap::FileSpan| {
        let id = span.filename().parse::<u32>().ok()?;
        Some((id, span.resolve_span().begin.line))
    };
    // starlark-rust's frames are (callee name, call site in the caller); the innermost
    // location is the error's own span
    let frames = &e.call_stack().frames;
    let mut raw: Vec<(String, Option<(u32, usize)>)> = Vec::new();
    let mut func = "<toplevel>".to_owned();
    for f in frames {
        raw.push((func.clone(), f.location.as_ref().and_then(position)));
        func = f.name.clone();
    }
    let innermost = binding_callee(e)
        .filter(|(_, name)| *name == func)
        .and_then(|(id, name)| Some((id, def_entry(&*rt.template(id)?, &name)?)))
        .or_else(|| e.span().and_then(position));
    raw.push((func, innermost));
    let mut levels = Vec::new();
    for (func, pos) in raw.into_iter().rev() {
        let Some((id, gen_line)) = pos else { continue };
        let Some(t) = rt.template(id) else { continue };
        let Some((line, text)) = t.report_line(gen_line) else {
            continue;
        };
        let level = Level {
            func,
            pos: t.position(line),
            at: Pos::new(t.file, line),
            src: text.to_owned(),
        };
        levels.push(level);
    }
    dedup_native(levels)
}

/// The def (template id, name) whose arguments could not be bound: starlark-rust names it
/// `<template id>.<name>` in the message (`Missing parameter `a` for call to `0.f``).
fn binding_callee(e: &starlark::Error) -> Option<(u32, String)> {
    let message = kind_message(e.kind());
    let callee = message.rsplit_once(" for call to ")?.1.trim_matches('`');
    let (id, name) = callee.split_once('.')?;
    Some((id.parse().ok()?, name.to_owned()))
}

/// The one `def name` of template `t`, parsed (None when it defines several), given to `f`
/// with its module for positions.
fn with_def<R>(
    t: &CompiledTemplate,
    name: &str,
    f: impl FnOnce(&AstModule, &AstStmt, &DefP<AstNoPayload>) -> Option<R>,
) -> Option<R> {
    let ast = AstModule::parse(&t.id.to_string(), t.code.clone(), &dialect()).ok()?;
    let mut defs = Vec::new();
    collect_defs(ast.statement(), name, &mut defs);
    let [def] = defs.as_slice() else { return None };
    let StmtP::Def(d) = &def.node else {
        return None;
    };
    f(&ast, def, d)
}

/// Where the reference places the frame of a def entered with arguments that do not
/// bind (too many, or missing; starlark-rust reports them at the call site, outside the
/// callee): the first statement of its body, depth first, that is off the `def` line and,
/// in a template, a YAML node or text rather than a `#@` code line; the `def` line when
/// there is none (measured: `#@ x = 1` then `k: #@ a` reports `k`'s line, also inside an
/// `if`; a body of code lines reports the `def` line; a Starlark file its first statement).
fn def_entry(t: &CompiledTemplate, name: &str) -> Option<usize> {
    with_def(t, name, |ast, def, DefP { body, .. }| {
        let line = |span| ast.file_span(span).resolve_span().begin.line;
        let def_line = line(def.span);
        let template_line = |s: &AstStmt| t.line_map.get(line(s.span)).copied().flatten();
        let entry = |s: &AstStmt| match template_line(s) {
            Some(l) if Some(l) != t.line_map.get(def_line).copied().flatten() => {
                t.starlark_file || !t.src_line(l).trim_start().starts_with("#@")
            }
            _ => false,
        };
        let mut found = None;
        first_statement(body, &entry, &mut found);
        Some(found.map_or(def_line, |s| line(s.span)))
    })
}

/// The first statement under `stmt`, in source order and depth first, that `pick` takes.
fn first_statement<'a>(
    stmt: &'a AstStmt,
    pick: &dyn Fn(&AstStmt) -> bool,
    found: &mut Option<&'a AstStmt>,
) {
    if found.is_some() {
        return;
    }
    if !matches!(stmt.node, StmtP::Statements(_)) && pick(stmt) {
        *found = Some(stmt);
        return;
    }
    stmt.visit_stmt(|child| first_statement(child, pick, found));
}

/// `Found 2 extra positional argument(s) for call to 0.f` as the reference words it, from
/// the def's parameters: `function f accepts 1 positional argument (3 given)`, `at most`
/// when some have defaults, `accepts no arguments` for a def without parameters.
fn extra_arguments(rt: &Runtime, e: &starlark::Error) -> Option<String> {
    let message = kind_message(e.kind());
    let extra: usize = message
        .strip_prefix("Found ")?
        .split_once(" extra positional argument(s) for call to ")?
        .0
        .parse()
        .ok()?;
    let (id, name) = binding_callee(e)?;
    let (count, defaults, params) = with_def(&*rt.template(id)?, &name, |_, _, def| {
        let positional = def
            .params
            .iter()
            .take_while(|p| matches!(p.node, ParameterP::Normal(..) | ParameterP::Slash))
            .filter_map(|p| match &p.node {
                ParameterP::Normal(_, _, default) => Some(default.is_some()),
                _ => None,
            });
        let (count, defaults) = positional.fold((0, false), |(n, any), d| (n + 1, any || d));
        Some((count, defaults, def.params.len()))
    })?;
    let given = count + extra;
    Some(match params {
        0 => format!("function {name} accepts no arguments ({given} given)"),
        _ => format!(
            "function {name} accepts {}{count} positional argument{} ({given} given)",
            if defaults { "at most " } else { "" },
            if count == 1 { "" } else { "s" }
        ),
    })
}

/// The `def name` statements anywhere in `stmt`.
fn collect_defs<'a>(stmt: &'a AstStmt, name: &str, defs: &mut Vec<&'a AstStmt>) {
    if let StmtP::Def(d) = &stmt.node {
        if d.name.ident == name {
            defs.push(stmt);
        }
    }
    stmt.visit_stmt(|s| collect_defs(s, name, defs));
}

/// A native function's level shows its call site, as does the level of its caller:
/// keep only the caller's.
fn dedup_native(mut levels: Vec<Level>) -> Vec<Level> {
    if let [first, second, ..] = levels.as_slice() {
        if first.pos == second.pos && first.src == second.src {
            levels.remove(0);
        }
    }
    levels
}

#[cfg(test)]
mod tests {
    use super::missing_symbol;

    #[test]
    fn names_a_module_does_not_export() {
        for m in [
            "Module has no symbol `x`",
            "Module has no symbol `x`, did you mean `y`?",
            "Module symbol `x` is not exported",
        ] {
            assert_eq!(missing_symbol(m), Some("x"), "{m}");
        }
        assert_eq!(missing_symbol("Variable `x` not found"), None);
    }
}
