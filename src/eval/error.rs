//! Turning Starlark errors into the reference's report: the message, then the stack of
//! template lines it went through, innermost first.
//!
//! ```text
//! - unknown binary op: int + string
//!     in <toplevel>
//!       tpl.yml:5 |     int: #@ 123 + "124"
//! ```

use starlark::syntax::ast::{AstStmt, DefP, StmtP};
use starlark::syntax::AstModule;
use starlark::ErrorKind;

use super::exec::dialect;
use super::runtime::Runtime;
use crate::diagnostic::{Diagnostic, Frame, Kind};
use crate::overlay::OverlayError;
use crate::template::CompiledTemplate;
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

/// An error's message in the reference's words, without positions.
pub fn message_text(e: &starlark::Error) -> String {
    let message = kind_message(e.kind());
    // the innermost frame is the builtin that failed, when one did
    let callee = e.call_stack().frames.last().map(|f| f.name.as_str());
    callee
        .and_then(|c| builtin_message(&message, c))
        .unwrap_or_else(|| clean_message(&message))
}

/// Messages the reference words with the builtin that failed, which starlark-rust's
/// message does not name: `str.index`/`rindex` (`Substring 'z' not found in 'abc'`),
/// `set()` of unhashable items.
fn builtin_message(msg: &str, callee: &str) -> Option<String> {
    if msg.starts_with("Substring '") && matches!(callee, "index" | "rindex") {
        return Some(format!("{callee}: substring not found"));
    }
    if callee == "set" {
        let t = msg
            .strip_prefix("Value of type `")?
            .strip_suffix("` is not hashable")?;
        return Some(format!("set: unhashable type: {t}"));
    }
    None
}

/// An evaluation error as a diagnostic: the reference's text (see [`format_error`]),
/// located on the innermost template line the error went through. An error the code
/// raised is an evaluation error; one of the program's syntax or names, the template's.
/// An error that carries the diagnostic of a step below (a library's run, an overlay
/// applied from code) keeps that step's kind and location, the innermost known.
pub fn error_diagnostic(rt: &Runtime, e: &starlark::Error) -> Diagnostic {
    let Report {
        text,
        levels,
        is_static,
    } = report(rt, e);
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
    report(rt, e).text
}

/// An evaluation error as the reference reports it.
struct Report {
    text: String,
    /// The template lines it went through, innermost first.
    levels: Vec<Level>,
    /// An error of the program itself (syntax, names), found before running it.
    is_static: bool,
}

fn report(rt: &Runtime, e: &starlark::Error) -> Report {
    let raw = kind_message(e.kind());
    let message = missing_symbol(&raw)
        .and_then(|name| Some(not_found(name, &load_module(rt, e)?)))
        .unwrap_or_else(|| message_text(e));
    let message = with_callee(message, e);
    let mut lines = message.lines();
    let first = lines.next().unwrap_or("").to_owned();
    let reason: Vec<&str> = lines.collect();

    let is_static = matches!(e.kind(), ErrorKind::Parser(_) | ErrorKind::Scope(_))
        || raw.starts_with("Cannot import private symbol");
    let levels = levels(rt, e);
    // a parameter that is not a name (`def f("x"):`): the reference's parser words it so
    let first = if is_static
        && first.starts_with("Parse error: unexpected ")
        && first.ends_with(", expected identifier")
        && levels.first().is_some_and(|l| {
            let code = l.src.trim_start().trim_start_matches("#@").trim_start();
            code.starts_with("def ") || code.contains("lambda")
        }) {
        "not an identifier".to_owned()
    } else {
        first
    };
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
pub fn format_static(t: &CompiledTemplate, message: &str, line: Option<u32>) -> String {
    match line {
        Some(l) => format!("\n- {message}\n    {} | {}", t.position(l), t.src_line(l)),
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

/// A name a loaded module does not export, in the reference's words (the module as the
/// `load` names it).
pub fn not_found(name: &str, module: &str) -> String {
    format!("load: name {name} not found in module {module}")
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

/// Argument-count errors of builtins name the function, as the reference's do
/// (`len: got 2 arguments, want 1`); the callee is read from the call's source text.
fn with_callee(msg: String, e: &starlark::Error) -> String {
    let Some(rest) = msg.strip_prefix("Wrong number of positional arguments, expected ") else {
        return msg;
    };
    let Some((want, got)) = rest.split_once(", got ") else {
        return msg;
    };
    let callee = e
        .span()
        .map(|s| {
            s.source_span()
                .split('(')
                .next()
                .unwrap_or("")
                .trim()
                .to_owned()
        })
        .filter(|c| {
            !c.is_empty()
                && c.chars()
                    .all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '.')
        });
    match callee {
        Some(c) => format!("{c}: got {got} arguments, want {want}"),
        None => msg,
    }
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

fn kind_message(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::Fail(e) => {
            let m = format!("{e:#}");
            format!("fail: {}", m.strip_prefix(' ').unwrap_or(&m))
        }
        ErrorKind::StackOverflow(e)
        | ErrorKind::Value(e)
        | ErrorKind::Function(e)
        | ErrorKind::Scope(e)
        | ErrorKind::Parser(e)
        | ErrorKind::Freeze(e)
        | ErrorKind::Native(e)
        | ErrorKind::Other(e) => format!("{e:#}"),
        ErrorKind::Internal(e) => format!("internal error: {e:#}"),
        _ => kind.to_string(),
    }
}

/// Whether a name starlark-rust suggests for an undefined one is close enough for the
/// reference to suggest it too: case and underscores ignored, fewer edits than half the
/// name's length (so a one-letter name gets no suggestion).
fn similar_enough(name: &str, suggestion: &str) -> bool {
    let fold = |s: &str| -> Vec<char> {
        s.chars()
            .filter(|&c| c != '_')
            .flat_map(char::to_lowercase)
            .collect()
    };
    let (a, b) = (fold(name), fold(suggestion));
    // Levenshtein distance, one row at a time
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()] < a.len().div_ceil(2)
}

/// Names the reference never suggests: it looks for similar names among the template's
/// own (locals, globals, loaded names), not among the builtins.
fn is_builtin(name: &str) -> bool {
    matches!(name, "None" | "True" | "False")
        || super::exec::globals().iter().any(|(n, _)| n == name)
}

/// Rewords starlark-rust messages into the reference's words where they differ.
fn clean_message(msg: &str) -> String {
    if let Some(rest) = msg.strip_prefix("Variable `") {
        let (rest, similar) = match rest.split_once(", did you mean `") {
            Some((r, s)) => (r, s.strip_suffix("`?")),
            None => (rest, None),
        };
        if let Some(name) = rest.strip_suffix("` not found") {
            let hint = match (name, similar) {
                ("true", _) => {
                    " (hint: use 'True' instead of 'true' for boolean assignment)".to_owned()
                }
                ("false", _) => {
                    " (hint: use 'False' instead of 'false' for boolean assignment)".to_owned()
                }
                ("null" | "nil", _) => {
                    " (hint: use 'None' instead of 'null' for null values)".to_owned()
                }
                (_, Some(s)) if similar_enough(name, s) && !is_builtin(s) => {
                    format!(" (did you mean {s}?)")
                }
                _ => String::new(),
            };
            return format!("undefined: {name}{hint}");
        }
    }
    if let Some(rest) = msg.strip_prefix("Missing parameter `") {
        // Missing parameter `a` for call to `0.call2`
        let parts: Vec<&str> = rest.split('`').collect();
        if parts.len() >= 3 {
            let func = parts[2].rsplit('.').next().unwrap_or(parts[2]);
            return format!("function {func} missing 1 argument ({})", parts[0]);
        }
    }
    if let Some(rest) = msg.strip_prefix("Parse error: unexpected keyword '") {
        if let Some((kw, tail)) = rest.split_once("', ") {
            return format!("use of reserved keyword '{kw}' is not allowed ({tail})");
        }
    }
    if let Some(rest) = msg.strip_prefix("Object of type `") {
        // Object of type `NoneType` has no attribute `foo`
        let parts: Vec<&str> = rest.split('`').collect();
        if parts.len() >= 3 && parts[1] == " has no attribute " {
            return format!("{} has no .{} field or method", parts[0], parts[2]);
        }
    }
    if let Some(rest) = msg.strip_prefix("Cannot import private symbol `") {
        let name = rest.trim_end_matches('`');
        return format!("load: names with leading underscores are not exported: {name}");
    }
    if let Some(rest) = msg.strip_prefix("Key `") {
        if let Some(key) = rest.strip_suffix("` was not found") {
            return format!("key {key} not in dict");
        }
    }
    if let Some(rest) = msg.strip_prefix("Operation `") {
        // Operation `+` not supported for types `int` and `string`
        let parts: Vec<&str> = rest.split('`').collect();
        if parts.len() >= 6 && parts[1].contains("not supported for types") {
            return format!("unknown binary op: {} {} {}", parts[2], parts[0], parts[4]);
        }
        // Operation `.a=` not supported on type `int`: an attribute assignment
        if parts.len() >= 4 && parts[1] == " not supported on type " {
            if let Some(attr) = parts[0].strip_prefix('.').and_then(|a| a.strip_suffix('=')) {
                return format!("can't assign to .{attr} field of {}", parts[2]);
            }
            match parts[0] {
                "len()" => return format!("len: value of type {} has no len", parts[2]),
                op @ ("-" | "+" | "~") => return format!("unknown unary op: {op} {}", parts[2]),
                _ => {}
            }
        }
    }
    if msg.starts_with("float division by zero") {
        return "real division by zero".to_owned();
    }
    if msg.starts_with("Floor division by zero") {
        return "floored division by zero".to_owned();
    }
    if msg.starts_with("Modulo by zero: ") {
        return "integer modulo by zero".to_owned();
    }
    // float(): the text as a (quoted) literal, then Rust's parse error
    if let Some((literal, _)) = msg.rsplit_once(" is not a valid number: ") {
        return format!("float: strconv.ParseFloat: parsing {literal}: invalid syntax");
    }
    if let Some(text) = msg.strip_prefix("float() floating-point number too large: ") {
        // (a text Rust parsed as a number quotes as Go quotes it)
        return format!("float: strconv.ParseFloat: parsing {text:?}: value out of range");
    }
    // list.remove, list.index, dict.pop (without a default)
    if msg.starts_with("Element '") {
        if msg.contains("' not found in list '") {
            return "remove: element not found".to_owned();
        }
        if msg.contains("' not found in '") {
            return "index: value not in list".to_owned();
        }
    }
    if msg.starts_with("Key `") && msg.contains("` not found in dictionary `") {
        return "pop: missing key".to_owned();
    }
    if msg == "Third argument of range (step) cannot be zero" {
        return "range: step argument must not be zero".to_owned();
    }
    if let Some(rest) = msg.strip_prefix("Value of type `") {
        if let Some(t) = rest.strip_suffix("` is not hashable") {
            return format!("unhashable type: {t}");
        }
    }
    if let Some(rest) = msg.strip_prefix("Cannot parse `") {
        // Cannot parse `x` as an integer in base 10
        if let Some((text, base)) = rest.split_once("` as an integer in base ") {
            return format!("int: invalid literal with base {base}: {text}");
        }
    }
    msg.to_owned()
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

/// Where the reference places the frame of a def entered with arguments that do not
/// bind (starlark-rust reports them at the call site, outside the callee): the def's
/// first statement from the template, or its `def` line when there is none. None when
/// the template defines several functions of that name.
fn def_entry(t: &CompiledTemplate, name: &str) -> Option<usize> {
    let ast = AstModule::parse(&t.id.to_string(), t.code.clone(), &dialect()).ok()?;
    let mut defs = Vec::new();
    collect_defs(ast.statement(), name, &mut defs);
    let [def] = defs.as_slice() else { return None };
    let StmtP::Def(DefP { body, .. }) = &def.node else {
        return None;
    };
    let line = |span| ast.file_span(span).resolve_span().begin.line;
    let def_line = line(def.span);
    let body: &[AstStmt] = match &body.node {
        StmtP::Statements(stmts) => stmts,
        _ => std::slice::from_ref(&**body),
    };
    // the body opens with generated statements on the def's own line (a node context,
    // or the assignment that keeps it from being inlined); a `pass` is an empty body
    let first = body
        .iter()
        .find(|s| t.line_map.get(line(s.span)) != t.line_map.get(def_line));
    Some(match first {
        Some(s) if !matches!(s.node, StmtP::Pass) => line(s.span),
        _ => def_line,
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
    use super::{builtin_message, clean_message, missing_symbol, not_found, similar_enough};

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
        assert_eq!(
            not_found("x", "lib/a.star"),
            "load: name x not found in module lib/a.star"
        );
    }

    #[test]
    fn names_the_builtin_that_failed_where_the_reference_does() {
        let m = "Substring 'z' not found in 'abc'";
        assert_eq!(
            builtin_message(m, "index").unwrap(),
            "index: substring not found"
        );
        assert_eq!(
            builtin_message(m, "rindex").unwrap(),
            "rindex: substring not found"
        );
        assert_eq!(builtin_message(m, "f"), None);
        let m = "Value of type `list` is not hashable";
        assert_eq!(
            builtin_message(m, "set").unwrap(),
            "set: unhashable type: list"
        );
        assert_eq!(builtin_message(m, "dict"), None);
    }

    #[test]
    fn rewords_common_messages() {
        assert_eq!(clean_message("Variable `x` not found"), "undefined: x");
        assert_eq!(
            clean_message("Variable `label` not found, did you mean `labels`?"),
            "undefined: label (did you mean labels?)"
        );
        // the reference suggests names fewer than half the name's length of edits away
        assert_eq!(
            clean_message("Variable `a` not found, did you mean `x`?"),
            "undefined: a"
        );
        assert!(similar_enough("my_Name", "myname2"));
        assert!(!similar_enough("abcd", "wxyz"));
        assert_eq!(
            clean_message("Variable `true` not found"),
            "undefined: true (hint: use 'True' instead of 'true' for boolean assignment)"
        );
        assert_eq!(
            clean_message("Operation `+` not supported for types `int` and `string`"),
            "unknown binary op: int + string"
        );
        assert_eq!(
            clean_message("Operation `.a=` not supported on type `struct`"),
            "can't assign to .a field of struct"
        );
        assert_eq!(
            clean_message("Operation `[]` not supported on type `int`"),
            "Operation `[]` not supported on type `int`"
        );
        // builtins' and operators' errors, as the reference words them
        for (ours, reference) in [
            (
                "Operation `len()` not supported on type `NoneType`",
                "len: value of type NoneType has no len",
            ),
            (
                "Operation `-` not supported on type `string`",
                "unknown unary op: - string",
            ),
            (
                "Operation `~` not supported on type `list`",
                "unknown unary op: ~ list",
            ),
            ("float division by zero: 1 / 0", "real division by zero"),
            ("Floor division by zero: 7 // 0", "floored division by zero"),
            ("Modulo by zero: -7 % 0", "integer modulo by zero"),
            (
                "\"1x\" is not a valid number: invalid float literal",
                "float: strconv.ParseFloat: parsing \"1x\": invalid syntax",
            ),
            (
                "\"\" is not a valid number: cannot parse float from empty string",
                "float: strconv.ParseFloat: parsing \"\": invalid syntax",
            ),
            (
                "float() floating-point number too large: 1e999",
                "float: strconv.ParseFloat: parsing \"1e999\": value out of range",
            ),
            (
                "Element '[2]' not found in list '[[1]]'",
                "remove: element not found",
            ),
            (
                "Element '5' not found in '[1, 2]'",
                "index: value not in list",
            ),
            (
                "Key `\"b\"` not found in dictionary `{\"a\": 1}`",
                "pop: missing key",
            ),
            (
                "Third argument of range (step) cannot be zero",
                "range: step argument must not be zero",
            ),
            (
                "Value of type `dict` is not hashable",
                "unhashable type: dict",
            ),
            (
                "Cannot parse `zz` as an integer in base 8",
                "int: invalid literal with base 8: zz",
            ),
        ] {
            assert_eq!(clean_message(ours), reference);
        }
        assert_eq!(
            clean_message("Key `\"a\"` was not found"),
            "key \"a\" not in dict"
        );
    }
}
