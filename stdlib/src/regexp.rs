//! `@ytt:regexp`: `match(pattern, s)` and `replace(pattern, s, repl)` with Go RE2
//! semantics: patterns are Go's, translated and refused as Go does by
//! `ytt::module_api::go_regex`.

use regex::Regex;
use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::tuple::UnpackTuple;
use starlark::values::Value;

use ytt::module_api::{check_positional, go_regex, is_function, string_arg};

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("regexp", members);
}

/// Compiles a Go pattern (Go's meaning, and Go's errors).
fn compile(pattern: &str) -> anyhow::Result<Regex> {
    go_regex(pattern).map_err(anyhow::Error::msg)
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
                .map_err(|e| anyhow::anyhow!("{}", ytt::module_api::error_message(&e)))?;
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
    }
}
