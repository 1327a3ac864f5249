//! The named rules, parsed and checked, and their refusals in both voices.

use super::*;

/// An argument as written.
#[derive(Clone, Copy)]
enum A {
    Str(&'static str),
    Int(i32),
    Float(f64),
    Bool(bool),
}
use A::*;

fn alloc(heap: Heap<'_>, a: A) -> Value<'_> {
    match a {
        Str(s) => heap.alloc(s),
        Int(i) => heap.alloc(i),
        Float(f) => heap.alloc(f),
        Bool(b) => Value::new_bool(b),
    }
}

fn s(x: &str) -> Node {
    Node::Str(x.into())
}

fn int(i: i64) -> Node {
    Node::Int(i.into())
}

/// Runs rule `name` with the argument `arg` on `node`: `Err` is the found text.
fn run(name: &str, arg: A, node: Node) -> Result<(), String> {
    Heap::temp(|heap| {
        let arg = alloc(heap, arg);
        let (rule, _) = Def::find(name).unwrap().parse(arg, heap).unwrap();
        let cx = Cx {
            heap,
            arg,
            budget: None,
        };
        rule.check(&node, &cx).map_err(|f| f.text().to_owned())
    })
}

/// A refused argument, as a keyword and as an assertion function word it.
fn refused(name: &str, arg: A) -> (String, String) {
    Heap::temp(|heap| {
        let arg = alloc(heap, arg);
        let e = Def::find(name).unwrap().parse(arg, heap).unwrap_err();
        (
            e.keyword(name, arg, "f.yml:3"),
            e.function(&format!("assert.{name}"), arg),
        )
    })
}

#[test]
fn string_checks() {
    assert_eq!(run("starts_with", Str("https://"), s("https://x")), Ok(()));
    assert_eq!(
        run("starts_with", Str("https://"), s("http://x")),
        Err("value does not start with \"https://\"".into())
    );
    assert_eq!(
        run("ends_with", Str("x"), int(1)),
        Err("expected a string, but was int".into())
    );
    assert_eq!(run("len", Int(16), s("short")), Err("length = 5".into()));
    assert_eq!(run("contains", Str("@sha256:"), s("a@sha256:1")), Ok(()));
    assert_eq!(
        run("contains", Int(1), s("abc")),
        Err("value does not contain 1".into())
    );
    assert_eq!(
        run("matches", Str("^[0-9]+$"), s("12a")),
        Err("value does not match \"^[0-9]+$\"".into())
    );
}

#[test]
fn numeric_checks() {
    assert_eq!(run("even", Bool(true), int(4)), Ok(()));
    assert_eq!(
        run("even", Bool(true), int(1023)),
        Err("value is odd".into())
    );
    assert_eq!(run("odd", Bool(true), int(4)), Err("value is even".into()));
    assert_eq!(run("odd", Bool(false), int(4)), Ok(()));
    assert_eq!(
        run("odd", Bool(true), Node::Float(1.5)),
        Err("value is not an integer".into())
    );
    assert_eq!(run("multiple_of", Int(8), int(64)), Ok(()));
    assert_eq!(
        run("multiple_of", Int(1024), int(5000)),
        Err("value is not a multiple of 1024".into())
    );
    assert_eq!(run("multiple_of", Int(-1), int(i64::MIN)), Ok(()));
    assert_eq!(run("multiple_of", Float(0.5), Node::Float(1.5)), Ok(()));
    assert_eq!(run("min", Int(3), int(2)), Err("value < 3".into()));
    assert_eq!(
        run("max", Int(3), s("a")),
        Err("string <= int not implemented".into())
    );
    assert_eq!(
        run("min_len", Float(2.5), s("ab")),
        Err("length = 2".into())
    );
}

#[test]
fn refusals_in_both_voices() {
    assert_eq!(
        refused("len", Str("2")),
        (
            "expected keyword argument \"len\" to be an int, but was string (at f.yml:3)".into(),
            "assert.len: expected argument to be an int, but was string".into()
        )
    );
    assert_eq!(
        refused("multiple_of", Int(0)),
        (
            "expected keyword argument \"multiple_of\" to be a non-zero number (at f.yml:3)".into(),
            "assert.multiple_of: expected a non-zero number".into()
        )
    );
    let (keyword, function) = refused("format", Str("colour"));
    assert!(keyword.starts_with("unknown format \"colour\" (want one of: date-time, "));
    assert!(function.starts_with("assert.format: unknown format \"colour\" (want one of: "));
    assert_eq!(
        refused("one_of", Int(4)).0,
        "expected keyword argument one_of to be a sequence, but was int"
    );
}

#[test]
fn rules_run_in_the_order_of_the_list() {
    let names: Vec<&str> = RULES.iter().map(|d| d.name).collect();
    assert_eq!(names[..4], ["min_len", "max_len", "min", "max"]);
    assert_eq!(names.last(), Some(&"cel"));
    assert_eq!(NamedRule::Len(Len(1)).rank(), 6);
}
