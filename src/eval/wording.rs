//! A Starlark error's message in the reference's words: starlark-rust's messages
//! reworded (`unknown binary op: int + string`, `undefined: x`), completed with what the
//! error carries besides (the builtin that failed, the failing expression's source) where
//! the reference's message says more.

use starlark::ErrorKind;

use super::globals::globals;
use super::suggest::nearest;

/// An error's message in the reference's words, without positions.
pub fn message_text(e: &starlark::Error) -> String {
    let message = kind_message(e.kind());
    if matches!(e.kind(), ErrorKind::Parser(_)) {
        let before = e
            .span()
            .map(|s| &s.file.source()[..s.span.begin().get() as usize]);
        if let Some(m) = parse_message(&message, before) {
            return m;
        }
    }
    // the innermost frame is the builtin that failed, when one did
    let callee = e.call_stack().frames.last().map(|f| f.name.as_str());
    let code = e.span().map(|s| s.source_span());
    builtin_message(&message, callee, code).unwrap_or_else(|| clean_message(&message))
}

/// Messages the reference words with what starlark-rust's message leaves out: the builtin
/// that failed (`callee`: `str.index`/`rindex`, `set()` of unhashable items, a value
/// iterated that is not iterable, elements `sorted`/`max`/`min` cannot compare) or the
/// operator of a failed comparison, read from the failing expression's source (`code`).
fn builtin_message(msg: &str, callee: Option<&str>, code: Option<&str>) -> Option<String> {
    if msg.starts_with("Substring '") {
        return match callee? {
            c @ ("index" | "rindex") => Some(format!("{c}: substring not found")),
            _ => None,
        };
    }
    if let Some(rest) = msg.strip_prefix("Value of type `") {
        let t = rest.strip_suffix("` is not hashable")?;
        return (callee? == "set").then(|| format!("set: unhashable type: {t}"));
    }
    if let Some(rest) = msg.strip_prefix("Operation `(iter)` not supported on type `") {
        let t = rest.strip_suffix('`')?;
        return match callee {
            Some(
                c @ ("list" | "tuple" | "any" | "all" | "join" | "extend" | "set" | "enumerate"
                | "reversed"),
            ) => Some(format!("{c}: for parameter 1: got {t}, want iterable")),
            Some("sorted") => Some(format!(
                "sorted: for parameter iterable: got {t}, want iterable"
            )),
            Some(c @ ("dict" | "update")) => Some(format!("{c}: got {t}, want iterable")),
            Some(c @ ("max" | "min")) => Some(format!("{c}: {t} value is not iterable")),
            // which argument is not iterable, the message does not say
            Some("zip") => None,
            // a `for` loop or a comprehension
            _ => Some(format!("{t} value is not iterable")),
        };
    }
    for op in ["compare", "cmp()"] {
        let Some(rest) = msg.strip_prefix(&format!("Operation `{op}` not supported for types `"))
        else {
            continue;
        };
        let (a, b) = rest.strip_suffix('`')?.split_once("` and `")?;
        // `sorted` compares each element with an earlier one by `<`; `max` and `min` the
        // other way round, by `>` and `<`
        return match callee {
            Some("sorted") => Some(format!("{a} < {b} not implemented")),
            Some("max") => Some(format!("max: {b} > {a} not implemented")),
            Some("min") => Some(format!("min: {b} < {a} not implemented")),
            _ => comparison_operator(code?).map(|op| format!("{a} {op} {b} not implemented")),
        };
    }
    None
}

/// The comparison operator of a comparison's source (`a <= b`): the one outside brackets
/// and string literals (comparisons do not chain in Starlark, so there is one).
fn comparison_operator(code: &str) -> Option<&'static str> {
    let b = code.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            q @ (b'"' | b'\'') => {
                // a string literal, single or triple quoted
                let triple = b[i..].starts_with(&[q, q, q]);
                i += if triple { 3 } else { 1 };
                while i < b.len() {
                    if b[i] == b'\\' {
                        i += 2;
                    } else if triple && b[i..].starts_with(&[q, q, q]) {
                        i += 3;
                        break;
                    } else if !triple && b[i] == q {
                        i += 1;
                        break;
                    } else {
                        i += 1;
                    }
                }
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            c @ (b'<' | b'>') if depth == 0 => {
                let next = b.get(i + 1).copied();
                if next == Some(c) {
                    // a shift, `<<` or `>>`
                    i += 2;
                    continue;
                }
                return Some(match (c, next == Some(b'=')) {
                    (b'<', false) => "<",
                    (b'<', true) => "<=",
                    (_, false) => ">",
                    (_, true) => ">=",
                });
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Argument-count errors of builtins name the function, as the reference's do
/// (`len: got 2 arguments, want 1`, `get: got 0 arguments, want at least 1`): a function
/// by the call's source text, a method (`x.upper(1)`) by its name alone.
pub(super) fn with_callee(msg: String, e: &starlark::Error) -> String {
    let Some(rest) = msg.strip_prefix("Wrong number of positional arguments, expected ") else {
        return msg;
    };
    let Some((want, got)) = rest.split_once(", got ") else {
        return msg;
    };
    let frame = e.call_stack().frames.last().map(|f| f.name.as_str());
    let source = e
        .span()
        .map(|s| s.source_span().split('(').next().unwrap_or("").trim());
    let callee = source.and_then(|callee| match callee.rsplit_once('.') {
        // a method of a value: `x.upper`, `"a".upper`, `x[0].get`
        Some((_, method)) if frame == Some(method) && is_method(method) => Some(method),
        _ => is_dotted_name(callee).then_some(callee),
    });
    let Some(callee) = callee else {
        return msg;
    };
    arity_message(callee, want, got).unwrap_or(msg)
}

fn is_dotted_name(s: &str) -> bool {
    !s.is_empty()
        && s.split('.').all(|part| {
            part.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && part.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
}

/// The methods of Starlark's strings, lists and dicts: the reference names them alone.
fn is_method(name: &str) -> bool {
    const METHODS: &[&str] = &[
        "capitalize",
        "codepoint_ords",
        "codepoints",
        "count",
        "elem_ords",
        "elems",
        "endswith",
        "find",
        "format",
        "index",
        "isalnum",
        "isalpha",
        "isdigit",
        "islower",
        "isspace",
        "istitle",
        "isupper",
        "join",
        "lower",
        "lstrip",
        "partition",
        "removeprefix",
        "removesuffix",
        "replace",
        "rfind",
        "rindex",
        "rpartition",
        "rsplit",
        "rstrip",
        "split",
        "splitlines",
        "startswith",
        "strip",
        "title",
        "upper",
        "append",
        "clear",
        "extend",
        "insert",
        "pop",
        "remove",
        "get",
        "items",
        "keys",
        "popitem",
        "setdefault",
        "update",
        "values",
    ];
    METHODS.contains(&name)
}

/// `want` as starlark-rust words it (`1`, `between 1 and 3`) in the reference's words for
/// `got` arguments: the bound that was passed. `str` and `type` check their one argument
/// themselves, and say so; so does `float`, in words of its own.
fn arity_message(callee: &str, want: &str, got: &str) -> Option<String> {
    let n: usize = got.parse().ok()?;
    let want = match want.strip_prefix("between ") {
        Some(range) => {
            let (low, high) = range.split_once(" and ")?;
            let (low, high): (usize, usize) = (low.parse().ok()?, high.parse().ok()?);
            if n < low {
                format!("at least {low}")
            } else {
                format!("at most {high}")
            }
        }
        None => want.to_owned(),
    };
    Some(match callee {
        "str" | "type" => format!("{callee}: got {got} arguments, want exactly {want}"),
        "float" => format!("float got {got} arguments, wants 1"),
        _ => format!("{callee}: got {got} arguments, want {want}"),
    })
}

pub(super) fn kind_message(kind: &ErrorKind) -> String {
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

/// Names the reference never suggests: it looks for similar names among the template's
/// own (locals, globals, loaded names), not among the builtins.
fn is_builtin(name: &str) -> bool {
    matches!(name, "None" | "True" | "False") || globals().iter().any(|(n, _)| n == name)
}

/// starlark-rust's parse errors, `Parse error: unexpected TOKEN, expected WHAT`, in the
/// words of the reference's parser, `got TOKEN, want WHAT`: a symbol quoted, a keyword
/// bare, a literal or a name by its kind (`got int literal, want ')'`,
/// `got else, want primary expression`); a keyword where a name must be is a reserved
/// keyword, anything else `not an identifier`; a comparison after a comparison names
/// both (`== does not associate with < (use parens)`), the first read from the source
/// `before` the error.
fn parse_message(msg: &str, before: Option<&str>) -> Option<String> {
    let rest = msg.strip_prefix("Parse error: unexpected ")?;
    let (tok, what) = rest.split_once(", expected ")?;
    let keyword = tok
        .strip_prefix("keyword '")
        .and_then(|k| k.strip_suffix('\''));
    let got = if let Some(sym) = tok.strip_prefix("symbol '") {
        format!("'{}", sym)
    } else if let Some(k) = keyword {
        k.to_owned()
    } else {
        [
            ("identifier ", "identifier"),
            ("integer literal", "int literal"),
            ("float literal", "float literal"),
            ("string literal", "string literal"),
            ("new line", "newline"),
            ("end of file", "end of file"),
        ]
        .iter()
        .find(|(p, _)| tok.starts_with(p))?
        .1
        .to_owned()
    };
    if what == "identifier" {
        return Some(match keyword {
            Some(k) => {
                format!("use of reserved keyword '{k}' is not allowed (expected identifier)")
            }
            None => "not an identifier".to_owned(),
        });
    }
    if what.starts_with("end of expression (comparisons are not associative") {
        let second = match keyword {
            Some("not") => "not in".to_owned(),
            _ => got.trim_matches('\'').to_owned(),
        };
        let first = last_comparison(before?)?;
        return Some(format!(
            "{first} does not associate with {second} (use parens)"
        ));
    }
    let want = match what {
        "expression" => "primary expression".to_owned(),
        "'in' after 'not'" => "in".to_owned(),
        _ => format!("'{}'", what.strip_prefix("symbol '")?.strip_suffix('\'')?),
    };
    Some(format!("got {got}, want {want}"))
}

/// The last comparison operator of `code` outside the brackets it closes (the first of two
/// that chain), as the lexer reads it.
fn last_comparison(code: &str) -> Option<&'static str> {
    use starlark::syntax::Dialect;
    use starlark_syntax::codemap::CodeMap;
    use starlark_syntax::lexer::{Lexer, Token};
    let codemap = CodeMap::new(String::new(), code.to_owned());
    // per open bracket, the last comparison in it
    let mut last: Vec<Option<&'static str>> = vec![None];
    let mut after_not = false;
    // the lexer ends the code with a line break of its own: the statement goes on there
    let end = code.trim_end().len();
    for lexeme in Lexer::new(code, &Dialect::Standard, codemap) {
        let Ok((at, tok, _)) = lexeme else { break };
        if at >= end {
            break;
        }
        let op = match tok {
            Token::EqualEqual => Some("=="),
            Token::BangEqual => Some("!="),
            Token::LessThan => Some("<"),
            Token::GreaterThan => Some(">"),
            Token::LessEqual => Some("<="),
            Token::GreaterEqual => Some(">="),
            Token::In if after_not => Some("not in"),
            Token::In => Some("in"),
            _ => None,
        };
        after_not = matches!(tok, Token::Not);
        match tok {
            Token::OpeningRound | Token::OpeningSquare | Token::OpeningCurly => last.push(None),
            Token::ClosingRound | Token::ClosingSquare | Token::ClosingCurly if last.len() > 1 => {
                last.pop();
            }
            Token::Comma | Token::Newline => *last.last_mut()? = None,
            _ => {}
        }
        if op.is_some() {
            *last.last_mut()? = op;
        }
    }
    *last.last()?
}

/// Rewords starlark-rust messages into the reference's words where they differ.
fn clean_message(msg: &str) -> String {
    name_message(msg)
        .or_else(|| operation_message(msg))
        .or_else(|| value_message(msg))
        .unwrap_or_else(|| msg.to_owned())
}

/// Names not found: variables, parameters, attributes, private symbols, dict keys.
fn name_message(msg: &str) -> Option<String> {
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
                (_, Some(s)) if nearest(name, [s]).is_some() && !is_builtin(s) => {
                    format!(" (did you mean {s}?)")
                }
                _ => String::new(),
            };
            return Some(format!("undefined: {name}{hint}"));
        }
    }
    if let Some(rest) = msg.strip_prefix("Missing parameter `") {
        // Missing parameter `a` for call to `0.call2`
        let parts: Vec<&str> = rest.split('`').collect();
        if parts.len() >= 3 {
            let func = parts[2].rsplit('.').next().unwrap_or(parts[2]);
            return Some(format!("function {func} missing 1 argument ({})", parts[0]));
        }
    }
    if let Some(rest) = msg.strip_prefix("Object of type `") {
        // Object of type `NoneType` has no attribute `foo`[, did you mean `fo`?]
        let parts: Vec<&str> = rest.split('`').collect();
        if parts.len() >= 3 && parts[1] == " has no attribute " {
            let (ty, attr) = (parts[0], parts[2]);
            // starlark-rust's suggestion, where the reference would make it too
            let hint = match parts.get(4) {
                Some(s) if parts[3] == ", did you mean " => nearest(attr, [*s]),
                _ => None,
            };
            return Some(match hint {
                Some(s) => format!("{ty} has no .{attr} field or method (did you mean .{s}?)"),
                None => format!("{ty} has no .{attr} field or method"),
            });
        }
    }
    if let Some(rest) = msg.strip_prefix("Cannot import private symbol `") {
        let name = rest.trim_end_matches('`');
        return Some(format!(
            "load: names with leading underscores are not exported: {name}"
        ));
    }
    if let Some(rest) = msg.strip_prefix("Key `") {
        if let Some(key) = rest.strip_suffix("` was not found") {
            return Some(format!("key {key} not in dict"));
        }
    }
    None
}

/// Operators and `%` formatting.
fn operation_message(msg: &str) -> Option<String> {
    if let Some(rest) = msg.strip_prefix("Operation `") {
        // Operation `+` not supported for types `int` and `string`
        let parts: Vec<&str> = rest.split('`').collect();
        if parts.len() >= 6 && parts[1].contains("not supported for types") {
            return Some(format!(
                "unknown binary op: {} {} {}",
                parts[2], parts[0], parts[4]
            ));
        }
        // Operation `.a=` not supported on type `int`: an attribute assignment
        if parts.len() >= 4 && parts[1] == " not supported on type " {
            if let Some(attr) = parts[0].strip_prefix('.').and_then(|a| a.strip_suffix('=')) {
                return Some(format!("can't assign to .{attr} field of {}", parts[2]));
            }
            match parts[0] {
                "len()" => return Some(format!("len: value of type {} has no len", parts[2])),
                op @ ("-" | "+" | "~") => {
                    return Some(format!("unknown unary op: {op} {}", parts[2]))
                }
                _ => {}
            }
        }
    }
    // `%` formatting
    if let Some(rest) = msg.strip_prefix("Operation `format(%") {
        if let Some((verb, t)) = rest.split_once(")` not supported on type `") {
            if let Some(t) = t.strip_suffix('`') {
                return Some(format!(
                    "%{verb} format requires integer: cannot convert {t} to int"
                ));
            }
        }
    }
    if let Some(c) = msg
        .strip_prefix("Unsupported format character: '")
        .and_then(|c| c.strip_suffix('\''))
    {
        return Some(format!("unknown conversion %{c}"));
    }
    if matches!(
        msg,
        "Not enough arguments for format string"
            | "Too many arguments for format string"
            | "Incomplete format"
    ) {
        let mut chars = msg.chars();
        let first = chars.next().map(|c| c.to_ascii_lowercase());
        return Some(first.into_iter().chain(chars).collect());
    }
    None
}

/// Arithmetic, conversions and the methods of lists, dicts and `range`.
fn value_message(msg: &str) -> Option<String> {
    if msg.starts_with("float division by zero") {
        return Some("real division by zero".to_owned());
    }
    if msg.starts_with("Floor division by zero") {
        return Some("floored division by zero".to_owned());
    }
    if msg.starts_with("Modulo by zero: ") {
        return Some("integer modulo by zero".to_owned());
    }
    // float(): the text as a (quoted) literal, then Rust's parse error
    if let Some((literal, _)) = msg.rsplit_once(" is not a valid number: ") {
        return Some(format!(
            "float: strconv.ParseFloat: parsing {literal}: invalid syntax"
        ));
    }
    if let Some(text) = msg.strip_prefix("float() floating-point number too large: ") {
        // (a text Rust parsed as a number quotes as Go quotes it)
        return Some(format!(
            "float: strconv.ParseFloat: parsing {text:?}: value out of range"
        ));
    }
    // list.remove, list.index, dict.pop (without a default)
    if msg.starts_with("Element '") {
        if msg.contains("' not found in list '") {
            return Some("remove: element not found".to_owned());
        }
        if msg.contains("' not found in '") {
            return Some("index: value not in list".to_owned());
        }
    }
    if msg.starts_with("Key `") && msg.contains("` not found in dictionary `") {
        return Some("pop: missing key".to_owned());
    }
    if msg == "Third argument of range (step) cannot be zero" {
        return Some("range: step argument must not be zero".to_owned());
    }
    if let Some(rest) = msg.strip_prefix("Value of type `") {
        if let Some(t) = rest.strip_suffix("` is not hashable") {
            return Some(format!("unhashable type: {t}"));
        }
    }
    if let Some(rest) = msg.strip_prefix("Cannot parse `") {
        // Cannot parse `x` as an integer in base 10
        if let Some((text, base)) = rest.split_once("` as an integer in base ") {
            return Some(format!("int: invalid literal with base {base}: {text}"));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{
        arity_message, builtin_message, clean_message, comparison_operator, is_dotted_name,
        is_method, parse_message,
    };

    #[test]
    fn names_the_builtin_that_failed_where_the_reference_does() {
        let m = "Substring 'z' not found in 'abc'";
        let of = |m: &str, callee: &str| builtin_message(m, Some(callee), None);
        assert_eq!(of(m, "index").unwrap(), "index: substring not found");
        assert_eq!(of(m, "rindex").unwrap(), "rindex: substring not found");
        assert_eq!(of(m, "f"), None);
        assert_eq!(builtin_message(m, None, None), None);
        let m = "Value of type `list` is not hashable";
        assert_eq!(of(m, "set").unwrap(), "set: unhashable type: list");
        assert_eq!(of(m, "dict"), None);
        // not iterable: by the builtin that iterated, or a loop
        let m = "Operation `(iter)` not supported on type `int`";
        for (callee, want) in [
            ("list", "list: for parameter 1: got int, want iterable"),
            ("join", "join: for parameter 1: got int, want iterable"),
            (
                "sorted",
                "sorted: for parameter iterable: got int, want iterable",
            ),
            ("update", "update: got int, want iterable"),
            ("max", "max: int value is not iterable"),
            ("g", "int value is not iterable"),
        ] {
            assert_eq!(of(m, callee).unwrap(), want, "{callee}");
        }
        assert_eq!(
            builtin_message(m, None, None).unwrap(),
            "int value is not iterable"
        );
        assert_eq!(of(m, "zip"), None);
        // comparisons: by the builtin that sorted, or the operator of the source
        let m = "Operation `compare` not supported for types `int` and `string`";
        assert_eq!(of(m, "sorted").unwrap(), "int < string not implemented");
        assert_eq!(of(m, "max").unwrap(), "max: string > int not implemented");
        assert_eq!(of(m, "min").unwrap(), "min: string < int not implemented");
        let m = "Operation `cmp()` not supported for types `list` and `dict`";
        let at = |code: &str| builtin_message(m, None, Some(code));
        assert_eq!(at("x >= {}").unwrap(), "list >= dict not implemented");
        assert_eq!(at("x"), None);
    }

    #[test]
    fn finds_a_comparison_s_operator_outside_brackets_and_strings() {
        for (code, op) in [
            (r#"1 < "a""#, Some("<")),
            ("a <= b", Some("<=")),
            ("f(1 < 2) > x", Some(">")),
            (r#""<" >= 1"#, Some(">=")),
            (r#"'''a > b''' < 1"#, Some("<")),
            (r#""a\" <" > 1"#, Some(">")),
            ("(1 << 2) >= 3 >> 1", Some(">=")),
            ("[1, 2]", None),
            ("", None),
        ] {
            assert_eq!(comparison_operator(code), op, "{code}");
        }
    }

    #[test]
    fn words_argument_counts_with_the_bound_that_was_passed() {
        let m = |callee, want, got| arity_message(callee, want, got).unwrap();
        assert_eq!(m("len", "1", "2"), "len: got 2 arguments, want 1");
        assert_eq!(
            m("get", "between 1 and 2", "0"),
            "get: got 0 arguments, want at least 1"
        );
        assert_eq!(
            m("get", "between 1 and 2", "3"),
            "get: got 3 arguments, want at most 2"
        );
        assert_eq!(m("str", "1", "0"), "str: got 0 arguments, want exactly 1");
        assert_eq!(
            m("float", "between 0 and 1", "2"),
            "float got 2 arguments, wants 1"
        );
        assert_eq!(arity_message("len", "1", "x"), None);
        assert!(is_dotted_name("yaml.decode") && !is_dotted_name(r#""a".upper"#));
        assert!(is_method("upper") && !is_method("decode"));
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
        // attributes: starlark-rust's suggestion where the reference would make it
        assert_eq!(
            clean_message(
                "Object of type `struct` has no attribute `labls`, did you mean `labels`?"
            ),
            "struct has no .labls field or method (did you mean .labels?)"
        );
        assert_eq!(
            clean_message("Object of type `struct` has no attribute `nmae`, did you mean `name`?"),
            "struct has no .nmae field or method"
        );
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

    /// Measured: the reference's parser names the token where an expression must start,
    /// and `%` formatting words its errors as Go's Starlark does.
    #[test]
    fn parse_and_format_errors_in_the_references_words() {
        for (rust, go) in [
            (
                "Parse error: unexpected symbol ')', expected expression",
                "got ')', want primary expression",
            ),
            (
                "Parse error: unexpected keyword 'else', expected expression",
                "got else, want primary expression",
            ),
            (
                "Parse error: unexpected keyword 'and', expected identifier",
                "use of reserved keyword 'and' is not allowed (expected identifier)",
            ),
            (
                "Parse error: unexpected new line, expected expression",
                "got newline, want primary expression",
            ),
            (
                "Parse error: unexpected integer literal '2', expected symbol ')'",
                "got int literal, want ')'",
            ),
            (
                "Parse error: unexpected float literal '0.1', expected symbol ']'",
                "got float literal, want ']'",
            ),
            (
                "Parse error: unexpected string literal \"a\", expected symbol '}'",
                "got string literal, want '}'",
            ),
            (
                "Parse error: unexpected identifier 'None', expected symbol ')'",
                "got identifier, want ')'",
            ),
            (
                "Parse error: unexpected keyword 'for', expected symbol ')'",
                "got for, want ')'",
            ),
            (
                "Parse error: unexpected symbol '=', expected symbol ')'",
                "got '=', want ')'",
            ),
            (
                "Parse error: unexpected end of file, expected symbol ')'",
                "got end of file, want ')'",
            ),
            (
                "Parse error: unexpected symbol ')', expected 'in' after 'not'",
                "got ')', want in",
            ),
            (
                "Parse error: unexpected symbol ')', expected identifier",
                "not an identifier",
            ),
            (
                "Parse error: unexpected string literal \"x\", expected identifier",
                "not an identifier",
            ),
        ] {
            assert_eq!(parse_message(rust, None).as_deref(), Some(go), "{rust}");
        }
        // a comparison after a comparison: both, the first read from the code before it
        let chained = |code: &str, tok: &str| {
            parse_message(
                &format!("Parse error: unexpected {tok}, expected end of expression (comparisons are not associative in Starlark)"),
                Some(code),
            )
        };
        for (code, tok, go) in [
            ("x = 1 == 2 ", "symbol '<'", "== does not associate with <"),
            (
                "x = (1 < 2) <= 3 ",
                "symbol '<'",
                "<= does not associate with <",
            ),
            (
                "f(1 in [1, 2 == 3] ",
                "symbol '=='",
                "in does not associate with ==",
            ),
            (
                "x = 1 not in [2] ",
                "keyword 'not'",
                "not in does not associate with not in",
            ),
            (
                "y = a == b\nx = [1 != 2, 3 >= 4 ",
                "symbol '>='",
                ">= does not associate with >=",
            ),
        ] {
            assert_eq!(
                chained(code, tok),
                Some(format!("{go} (use parens)")),
                "{code}"
            );
        }
        for (rust, go) in [
            (
                "Operation `format(%d)` not supported on type `string`",
                "%d format requires integer: cannot convert string to int",
            ),
            ("Unsupported format character: 'z'", "unknown conversion %z"),
            ("Incomplete format", "incomplete format"),
            (
                "Not enough arguments for format string",
                "not enough arguments for format string",
            ),
        ] {
            assert_eq!(clean_message(rust), go);
        }
    }
}
