//! `@ytt:regexp`: `match(pattern, s)` and `replace(pattern, s, repl)` with Go RE2
//! semantics. Patterns are translated where the `regex` crate differs from Go (Perl classes
//! and `\b` are ASCII-only in Go, `\Q…\E` quoting, `[` and `&&`/`~~` inside classes).

use regex::Regex;
use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::tuple::UnpackTuple;
use starlark::values::Value;

use ytt::modules::args::string_arg;
use ytt::modules::args::{check_positional, is_function};

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("regexp", members);
}

const DIGIT: &str = "0-9";
const WORD: &str = "0-9A-Za-z_";
const SPACE: &str = "\\t\\n\\f\\r ";

/// Rewrites a Go RE2 pattern into an equivalent `regex` crate pattern.
fn translate(p: &str) -> String {
    let chars: Vec<char> = p.chars().collect();
    let mut out = String::with_capacity(p.len() + 8);
    let mut in_class = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' {
            let Some(&n) = chars.get(i + 1) else {
                out.push('\\');
                break;
            };
            i += 2;
            if n == 'Q' {
                let mut lit = String::new();
                while i < chars.len() {
                    if chars[i] == '\\' && chars.get(i + 1) == Some(&'E') {
                        i += 2;
                        break;
                    }
                    lit.push(chars[i]);
                    i += 1;
                }
                if in_class {
                    for ch in lit.chars() {
                        out.push_str(&regex::escape(&ch.to_string()));
                    }
                } else {
                    out.push_str(&regex::escape(&lit));
                }
                continue;
            }
            let perl = match n {
                'd' => Some((DIGIT, false)),
                'D' => Some((DIGIT, true)),
                'w' => Some((WORD, false)),
                'W' => Some((WORD, true)),
                's' => Some((SPACE, false)),
                'S' => Some((SPACE, true)),
                _ => None,
            };
            match (perl, in_class) {
                (Some((set, false)), true) => out.push_str(set),
                (Some((set, negated)), _) => {
                    out.push_str(if negated { "[^" } else { "[" });
                    out.push_str(set);
                    out.push(']');
                }
                (None, false) if n == 'b' || n == 'B' => {
                    out.push_str("(?-u:\\");
                    out.push(n);
                    out.push(')');
                }
                (None, _) => {
                    out.push('\\');
                    out.push(n);
                }
            }
            continue;
        }
        if in_class {
            match c {
                ']' => {
                    in_class = false;
                    out.push(']');
                }
                '[' if chars.get(i + 1) == Some(&':') => {
                    // POSIX class `[:alpha:]`: copy through `:]`.
                    let mut j = i + 2;
                    while j + 1 < chars.len() && !(chars[j] == ':' && chars[j + 1] == ']') {
                        j += 1;
                    }
                    let end = (j + 2).min(chars.len());
                    out.extend(&chars[i..end]);
                    i = end;
                    continue;
                }
                '[' | '&' | '~' => {
                    out.push('\\');
                    out.push(c);
                }
                _ => out.push(c),
            }
            i += 1;
            continue;
        }
        out.push(c);
        i += 1;
        if c == '[' {
            in_class = true;
            if chars.get(i) == Some(&'^') {
                out.push('^');
                i += 1;
            }
            if chars.get(i) == Some(&']') {
                out.push_str("\\]");
                i += 1;
            }
        }
    }
    out
}

/// Compiles a Go pattern; errors are worded like Go's (`error parsing regexp: …`).
fn compile(pattern: &str) -> anyhow::Result<Regex> {
    let translated = translate(pattern);
    Regex::new(&translated).map_err(|e| anyhow::anyhow!("{}", go_error(&translated, &e)))
}

fn go_error(pattern: &str, e: &regex::Error) -> String {
    let text = e.to_string();
    let lines: Vec<&str> = text.lines().collect();
    let message = lines
        .iter()
        .find_map(|l| l.strip_prefix("error: "))
        .unwrap_or("invalid regexp")
        .trim();
    // The offending text, from the caret line under the (single-line) pattern.
    let snippet = lines
        .iter()
        .position(|l| l.trim_start().starts_with('^'))
        .filter(|&k| k >= 1 && !pattern.contains('\n'))
        .and_then(|k| {
            let caret = lines[k];
            let start = caret.find('^')?.checked_sub(4)?;
            let len = caret.trim().len();
            let chars: Vec<char> = pattern.chars().collect();
            (start < chars.len()).then(|| {
                chars[start..(start + len).min(chars.len())]
                    .iter()
                    .collect::<String>()
            })
        })
        .unwrap_or_default();
    let (code, arg) = if message.starts_with("unclosed group") {
        ("missing closing )", pattern.to_owned())
    } else if message.starts_with("unopened group") {
        ("unexpected )", pattern.to_owned())
    } else if message.starts_with("unclosed character class") {
        let from = pattern.rfind('[').unwrap_or(0);
        ("missing closing ]", pattern[from..].to_owned())
    } else if message.starts_with("invalid character class range") {
        ("invalid character class range", snippet)
    } else if message.starts_with("repetition operator missing expression") {
        ("missing argument to repetition operator", snippet)
    } else if message.starts_with("invalid repetition count")
        || message.starts_with("repetition quantifier")
        || message.contains("decimal literal")
    {
        ("invalid repeat count", snippet)
    } else if message.starts_with("incomplete escape sequence") {
        ("trailing backslash at end of expression", String::new())
    } else if message.contains("escape") || message.starts_with("backreferences") {
        ("invalid escape sequence", snippet)
    } else if message.contains("Unicode property") || message.contains("Unicode class") {
        ("invalid character class range", snippet)
    } else if message.contains("capture group name") || message.contains("group name") {
        ("invalid named capture", snippet)
    } else if message.contains("flag") {
        ("invalid or unsupported Perl syntax", snippet)
    } else {
        (message, snippet)
    };
    format!("error parsing regexp: {code}: `{arg}`")
}

#[starlark_module]
fn members(builder: &mut GlobalsBuilder) {
    /// True if the pattern matches anywhere in the string.
    fn r#match<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<bool> {
        const F: &str = "regexp.match";
        check_positional(F, &args.items, &kwargs, 2, 2)?;
        let pattern = string_arg(F, &args.items, 0)?;
        let s = string_arg(F, &args.items, 1)?;
        let re = compile(pattern).map_err(|e| anyhow::anyhow!("{F}: {e}"))?;
        Ok(re.is_match(s))
    }

    /// Replaces every match: `repl` is a template (`$1`, `${name}`) or a function of the
    /// matched text.
    fn replace<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<String> {
        const F: &str = "regexp.replace";
        check_positional(F, &args.items, &kwargs, 3, 3)?;
        let pattern = string_arg(F, &args.items, 0)?;
        let s = string_arg(F, &args.items, 1)?;
        let re = compile(pattern).map_err(|e| anyhow::anyhow!("{F}: {e}"))?;
        let repl = args.items[2];
        if let Some(template) = repl.unpack_str() {
            return Ok(re.replace_all(s, template).into_owned());
        }
        if !is_function(repl) {
            anyhow::bail!(
                "{F}: expected third argument to be a string or a function, but was {}",
                repl.get_type()
            );
        }
        let mut out = String::with_capacity(s.len());
        let mut last = 0;
        for m in re.find_iter(s) {
            out.push_str(&s[last..m.start()]);
            let arg = eval.heap().alloc_str(m.as_str()).to_value();
            let r = eval
                .eval_function(repl, &[arg], &[])
                .map_err(|e| anyhow::anyhow!("{}", ytt::modules::args::error_message(&e)))?;
            let Some(r) = r.unpack_str() else {
                anyhow::bail!(
                    "{F}: expected replacement function to return a string, but was {}",
                    r.get_type()
                );
            };
            out.push_str(r);
            last = m.end();
        }
        out.push_str(&s[last..]);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::eval;

    #[test]
    fn matching() {
        assert_eq!(
            eval(r#"regexp.match("[a-z]+[0-9]+", "__hello123__")"#),
            "True"
        );
        assert_eq!(
            eval(r#"regexp.match("^[a-z]+[0-9]+$", "__hello123__")"#),
            "False"
        );
        // Go's Perl classes are ASCII-only.
        assert_eq!(eval(r#"regexp.match("^\\d+$", "١٢")"#), "False");
        assert_eq!(eval(r#"regexp.match("^\\w+$", "é")"#), "False");
        assert_eq!(eval(r#"regexp.match("^[\\w-]+$", "a-b_c")"#), "True");
        assert_eq!(eval(r#"regexp.match("^\\Qa.b\\E$", "a.b")"#), "True");
        assert_eq!(eval(r#"regexp.match("^\\Qa.b\\E$", "axb")"#), "False");
        assert_eq!(eval(r#"regexp.match("^[[]+$", "[[")"#), "True");
        assert_eq!(eval(r#"regexp.match("^[]a]+$", "]a")"#), "True");
        assert_eq!(eval(r#"regexp.match("^[a&&b]+$", "a&")"#), "True");
        assert_eq!(eval(r#"regexp.match("^[[:alpha:]]+$", "ab")"#), "True");
        assert_eq!(eval(r#"regexp.match("\\bé", "é")"#), "False");
    }

    #[test]
    fn replacing() {
        let r = |code: &str| eval(&format!("regexp.replace{code}"));
        assert_eq!(
            r(r#"("[a-z]+[0-9]+", "__hello123__HI456__", "bye")"#),
            "__bye__HI456__"
        );
        assert_eq!(
            r(r#"("(?i)[a-z]+[0-9]+", "__hello123__HI456__", "bye")"#),
            "__bye__bye__"
        );
        assert_eq!(
            r(r#"("(?i)([a-z]+)[0-9]+", "__hello123__HI456__", "$1")"#),
            "__hello__HI__"
        );
        assert_eq!(
            r(r#"("(?i)[a-z]+[0-9]+", "__hello123__HI456__", lambda a: str(len(a)))"#),
            "__8__5__"
        );
        assert_eq!(r(r#"("(?P<w>[a-z]+)", "ab cd", "<${w}>")"#), "<ab> <cd>");
        assert_eq!(r(r#"("(a)", "a", "$1x|${1}x|$$")"#), "|ax|$");
        assert_eq!(r(r#"("a*", "baaac", "-")"#), "-b-c-");
        assert_eq!(
            r(r#"("a", "a", 1)"#),
            "ERR regexp.replace: expected third argument to be a string or a function, but was int"
        );
        assert_eq!(
            r(r#"("a", "a", lambda m: 1)"#),
            "ERR regexp.replace: expected replacement function to return a string, but was int"
        );
    }

    #[test]
    fn errors() {
        assert_eq!(
            eval(r#"regexp.match("(", "")"#),
            "ERR regexp.match: error parsing regexp: missing closing ): `(`"
        );
        assert_eq!(
            eval(r#"regexp.match("a)", "")"#),
            "ERR regexp.match: error parsing regexp: unexpected ): `a)`"
        );
        assert_eq!(
            eval(r#"regexp.match("x[a", "")"#),
            "ERR regexp.match: error parsing regexp: missing closing ]: `[a`"
        );
        assert_eq!(
            eval(r#"regexp.match("[z-a]", "")"#),
            "ERR regexp.match: error parsing regexp: invalid character class range: `z-a`"
        );
        assert_eq!(
            eval(r#"regexp.match("*", "")"#),
            "ERR regexp.match: error parsing regexp: missing argument to repetition operator: `*`"
        );
        assert_eq!(
            eval(r#"regexp.match("a")"#),
            "ERR regexp.match: got 1 arguments, want 2"
        );
        assert_eq!(
            translate(r"\d\D[\d\S]\b"),
            r"[0-9][^0-9][0-9[^\t\n\f\r ]](?-u:\b)"
        );
    }
}
