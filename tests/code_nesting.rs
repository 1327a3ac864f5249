//! How deep code may nest (`template::nesting::{MAX_NESTING, MAX_BLOCKS}`): what starlark-rust's
//! parser and compiler recurse on is bounded by the stack the run has, so real code —
//! long chains of `or`, `and`, `+`, comparisons, one per line or on one line — renders as
//! the reference renders it, and code nested past the limit is a clear error naming its
//! line, never a stack overflow. The limits depend on the build (a debug build's frames
//! are larger), so the inputs here are sized from them.

mod common;

use common::{tpl, Ytt};
use ytt::unstable::{MAX_BLOCKS, MAX_NESTING};

const MAX: usize = MAX_NESTING as usize;

/// `n` terms of `term(i)` joined by `op`, on one line or one per line (inside brackets).
fn chain(n: usize, op: &str, term: impl Fn(usize) -> String, per_line: bool) -> String {
    let terms: Vec<String> = (0..n).map(term).collect();
    if per_line {
        format!("(\n#@   {})", terms.join(&format!("\n#@   {op} ")))
    } else {
        terms.join(&format!(" {op} "))
    }
}

/// A template binding `x = expr` (over several lines when it has line breaks) and
/// printing it.
fn render(expr: &str) -> common::Out {
    tpl(&format!("#@ a = 7\n#@ x = {expr}\nv: #@ x\n"), &[])
}

#[test]
fn long_chains_of_operators_render() {
    for per_line in [false, true] {
        let or = chain(1000, "or", |i| format!("a == {i}"), per_line);
        assert_eq!(render(&or).ok(), "v: true\n", "or, per line: {per_line}");
        let and = chain(1000, "and", |i| format!("a != {}", i + 1000), per_line);
        assert_eq!(render(&and).ok(), "v: true\n", "and, per line: {per_line}");
        let plus = chain(1000, "+", |i| i.to_string(), per_line);
        assert_eq!(render(&plus).ok(), "v: 499500\n", "+, per line: {per_line}");
        let strings = chain(1000, "+", |_| "\"ab\"".into(), per_line);
        assert_eq!(render(&format!("len({strings})")).ok(), "v: 2000\n");
        let eq = chain(1000, "or", |i| format!("(a == {i}) == False"), per_line);
        assert_eq!(render(&eq).ok(), "v: true\n", "==, per line: {per_line}");
    }
    // the shape of a real cluster template: one condition over 60 lines
    let cond = chain(60, "or", |i| format!("data.values.k == \"v{i}\""), true);
    let out = Ytt::new()
        .file("values.yml", "#@data/values\n---\nk: v42\n")
        .file(
            "t.yml",
            &format!("#@ load(\"@ytt:data\", \"data\")\n#@ if {cond}:\nmatched: true\n#@ end\n"),
        )
        .run(&["-f", "."]);
    assert_eq!(out.ok(), "matched: true\n");
}

#[test]
fn chains_of_conditional_expressions_render() {
    let n = MAX / 3 - 1;
    let pick = format!(
        "{}\"last\"",
        (0..n)
            .map(|i| format!("{i} if a == {i} else "))
            .collect::<String>()
    );
    assert_eq!(render(&pick).ok(), "v: 7\n");
    let lines = format!(
        "(\n#@ {}\"last\")",
        (0..n)
            .map(|i| format!("\"{i}\" if a == {} else\n#@ ", i + 1000))
            .collect::<String>()
    );
    assert_eq!(render(&lines).ok(), "v: last\n");
}

/// A kind of nesting: its name, the expression `n` levels deep (as `Nesting` counts them)
/// with the value it renders, and the deepest `n` the limit allows.
type Kind = (&'static str, fn(usize) -> (String, String), usize);

/// Each kind of nesting, as deep as the limit allows, renders; one level more is an
/// error on the expression's line.
#[test]
fn nesting_at_the_limit_renders_and_past_it_is_an_error() {
    let kinds: [Kind; 7] = [
        (
            "brackets",
            |n| (format!("{}1{}", "(".repeat(n), ")".repeat(n)), "1".into()),
            MAX,
        ),
        (
            "lists",
            |n| {
                (
                    format!("len({}{})", "[".repeat(n - 2), "]".repeat(n - 2)),
                    "1".into(),
                )
            },
            MAX,
        ),
        (
            "calls",
            |n| {
                (
                    format!("{}1{}", "int(".repeat(n), ")".repeat(n)),
                    "1".into(),
                )
            },
            MAX / 2,
        ),
        (
            "unary",
            |n| {
                (
                    format!("{}1", "-".repeat(n)),
                    if n % 2 == 0 { "1" } else { "-1" }.into(),
                )
            },
            MAX,
        ),
        (
            "not",
            |n| {
                (
                    format!("{}True", "not ".repeat(n)),
                    (n % 2 == 0).to_string(),
                )
            },
            MAX,
        ),
        (
            "a chain",
            |n| (vec!["1"; n + 1].join(" + "), (n + 1).to_string()),
            MAX,
        ),
        (
            "lambdas",
            |n| {
                (
                    format!("({}1){}", "lambda: ".repeat(n), "()".repeat(n)),
                    "1".into(),
                )
            },
            MAX / 5,
        ),
    ];
    for (what, expr, n) in kinds {
        let (code, value) = expr(n);
        assert_eq!(render(&code).ok(), format!("v: {value}\n"), "{what}");
        let err = render(&expr(n + 1).0);
        assert_eq!(err.code, 1, "{what}: {}", err.stdout);
        assert!(
            err.err()
                .contains("expression is nested too deeply (more than")
                && err.err().contains("tpl.yml:2 | #@ x = "),
            "{what}: {}",
            &err.stderr[..err.stderr.len().min(300)]
        );
    }
}

#[test]
fn nesting_is_bounded_in_every_kind_of_file() {
    let deep = |n: usize| format!("{}1{}", "(".repeat(n), ")".repeat(n));
    let too_deep = format!("expression is nested too deeply (more than {MAX} levels)");
    // a Starlark file
    let star = |n: usize| {
        Ytt::new()
            .file("t.yml", "#@ load(\"d.star\", \"x\")\na: #@ x\n")
            .file("d.star", &format!("y = 2\nx = {}\n", deep(n)))
            .run(&["-f", "."])
    };
    assert_eq!(star(MAX).ok(), "a: 1\n");
    let err = star(MAX + 1);
    assert!(
        err.err().contains(&too_deep) && err.err().contains("2 | x = (((("),
        "{}",
        &err.stderr[..300]
    );
    // a data values file
    let values = |n: usize| {
        Ytt::new()
            .file("v.yml", &format!("#@data/values\n---\na: #@ {}\n", deep(n)))
            .file(
                "t.yml",
                "#@ load(\"@ytt:data\", \"data\")\na: #@ data.values.a\n",
            )
            .run(&["-f", "."])
    };
    // a node's value is an argument of the call that sets it: three levels
    assert_eq!(values(MAX - 3).ok(), "a: 1\n");
    let err = values(MAX - 2);
    assert!(
        err.err().contains(&too_deep) && err.err().contains("v.yml:3 | a: #@ (((("),
        "{}",
        &err.stderr[..300]
    );
    // a text template
    let text = |n: usize| {
        Ytt::new()
            .file("t.txt", &format!("a: (@= str({}) @)\n", deep(n)))
            .run(&["-f", "t.txt", "--output-files", "out"])
    };
    // `str(` takes two levels, the text's call three
    assert!(text(MAX - 5).ok().contains("out/t.txt"));
    let err = text(MAX - 4);
    assert!(
        err.err().contains("expression is nested too deeply"),
        "{}",
        &err.stderr[..300]
    );
}

/// Blocks nest on the same stack: as deep as `MAX_BLOCKS` they run, one more is an error
/// at the first block too deep, and an expression inside blocks has what they leave.
#[test]
fn blocks_nest_up_to_their_limit() {
    let max = MAX_BLOCKS as usize;
    for opener in ["#@ if True:\n", "#@ for i in range(1):\n"] {
        let nested = |n: usize| {
            tpl(
                &format!("{}a: 1\n{}", opener.repeat(n), "#@ end\n".repeat(n)),
                &[],
            )
        };
        assert_eq!(nested(max).ok(), "a: 1\n");
        let err = nested(max + 1);
        assert_eq!(
            err.err(),
            format!(
                "ytt: Error: \n- blocks are nested too deeply (more than {max} levels)\n    tpl.yml:{} | {}",
                max + 1,
                opener
            )
        );
    }
    let defs = |n: usize| {
        let open: String = (0..n).map(|i| format!("#@ def f{i}():\n")).collect();
        tpl(
            &format!(
                "{open}#@ return 1\n{}a: #@ f0()\n",
                "#@ end\n#@ return 2\n".repeat(n - 1) + "#@ end\n"
            ),
            &[],
        )
    };
    assert_eq!(defs(max).ok(), "a: 2\n");
    assert!(defs(max + 1).err().contains("blocks are nested too deeply"));
    // an expression in blocks: the levels they leave, and the error says how many
    let inside = |blocks: usize, n: usize| {
        tpl(
            &format!(
                "{}a: #@ {}1{}\n{}",
                "#@ if True:\n".repeat(blocks),
                "(".repeat(n),
                ")".repeat(n),
                "#@ end\n".repeat(blocks)
            ),
            &[],
        )
    };
    let left = MAX - 3 * 100;
    assert_eq!(inside(100, left - 3).ok(), "a: 1\n");
    assert!(inside(100, left - 2).err().contains(&format!(
        "expression is nested too deeply (more than {left} levels)\n    tpl.yml:101 | a: #@ (((("
    )));
}

/// Hostile depths (a hundred thousand levels of every kind) are an error naming the line,
/// found before anything recurses.
#[test]
fn far_too_deep_code_is_an_error_not_a_crash() {
    let n = 100_000;
    for expr in [
        format!("{}1", "-".repeat(n)),
        format!("{}{}", "[".repeat(n), "]".repeat(n)),
        format!("{}1{}", "(".repeat(n), ")".repeat(n)),
        vec!["1"; n].join("+"),
        format!("{}[]{}", "len(".repeat(n / 10), ")".repeat(n / 10)),
        format!("{}1{}", "{\"a\": ".repeat(n / 10), "}".repeat(n / 10)),
        format!("{}1", "lambda: ".repeat(n / 10)),
        format!("(lambda: 1){}", "()".repeat(n)),
    ] {
        let out = Ytt::new()
            .file("t.yml", &format!("a: 1\nb: #@ {expr}\n"))
            .run(&["-f", "t.yml"]);
        let err = out.err();
        assert!(
            err.contains(&format!(
                "expression is nested too deeply (more than {MAX} levels)"
            )) && err.contains("t.yml:2 | b: #@"),
            "{}",
            &err[..err.len().min(300)]
        );
    }
}
