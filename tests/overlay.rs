//! End-to-end tests of `@ytt:overlay` (`overlay.apply` inside templates): one per
//! operation, matcher and expectation form, run through the built binary.

use std::fs;
use std::process::{Command, Stdio};

struct Out {
    stdout: String,
    stderr: String,
    code: i32,
}

/// Runs `ytt -f tpl.yml [extra args]` on `tpl` (with `@ytt:overlay` and `@ytt:template`
/// loaded) in a temp dir.
fn run_with(tpl: &str, extra: &[&str]) -> Out {
    let dir = tempfile::tempdir().unwrap();
    let src = format!(
        "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ load(\"@ytt:template\", \"template\")\n{tpl}"
    );
    fs::write(dir.path().join("tpl.yml"), src).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ytt"))
        .args(["-f", "tpl.yml"])
        .args(extra)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .expect("run ytt");
    Out {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

#[track_caller]
fn ok(tpl: &str, expected: &str) {
    let out = run_with(tpl, &[]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(out.stdout, expected);
}

/// The first line of the error report (after `ytt: Error: \n- `).
#[track_caller]
fn err(tpl: &str, first_line: &str) {
    let out = run_with(tpl, &[]);
    assert_eq!(out.code, 1, "stdout: {}", out.stdout);
    let line = out
        .stderr
        .lines()
        .nth(1)
        .unwrap_or_default()
        .trim_start_matches("- ")
        .to_owned();
    assert_eq!(line, first_line, "stderr: {}", out.stderr);
}

#[test]
fn merge_maps_recursively_keeping_left_order() {
    ok(
        r#"
#@ def left():
a: 1
b:
  c: 2
  d: 3
#@ end
#@ def right():
b:
  c: 20
  #@overlay/match missing_ok=True
  e: 5
#@ end
out: #@ overlay.apply(left(), right())
"#,
        "out:\n  a: 1\n  b:\n    c: 20\n    d: 3\n    e: 5\n",
    );
}

#[test]
fn merge_missing_key_without_missing_ok_fails() {
    err(
        r#"
#@ def left():
a: 1
#@ end
#@ def right():
b: 2
#@ end
out: #@ overlay.apply(left(), right())
"#,
        "overlay.apply: Map item (key 'b') on line tpl.yml:8: Expected number of matched nodes to be 1, but was 0",
    );
}

#[test]
fn merge_appends_unannotated_array_items() {
    ok(
        r#"
---
#@ def left():
- 1
- 2
#@ end
---
#@ def right():
- 3
#@ end
---
out: #@ overlay.apply(left(), right())
"#,
        "out:\n- 1\n- 2\n- 3\n",
    );
}

#[test]
fn merge_into_null_replaces() {
    ok(
        r#"
#@ def left():
a: null
#@ end
#@ def right():
a:
  b: 1
#@ end
out: #@ overlay.apply(left(), right())
"#,
        "out:\n  a:\n    b: 1\n",
    );
}

#[test]
fn merge_map_over_scalar_fails() {
    err(
        r#"
#@ def left():
a: text
#@ end
#@ def right():
a:
  b: 1
#@ end
out: #@ overlay.apply(left(), right())
"#,
        "overlay.apply: Map item (key 'a') on line tpl.yml:8: Expected map, but was string",
    );
}

#[test]
fn remove_map_item_and_array_item() {
    ok(
        r#"
---
#@ def left():
a: 1
b: 2
list:
- x
- "y"
#@ end
---
#@ def right():
#@overlay/remove
a:
list:
#@overlay/match by=lambda i, l, r: l == "x"
#@overlay/remove
-
#@ end
---
out: #@ overlay.apply(left(), right())
"#,
        "out:\n  b: 2\n  list:\n  - \"y\"\n",
    );
}

#[test]
fn replace_with_via_and_or_add() {
    ok(
        r#"
#@ def left():
a: 1
#@ end
#@ def right():
#@overlay/replace via=lambda l, r: l + r
a: 10
#@overlay/match missing_ok=True
#@overlay/replace or_add=True
b: new
#@ end
out: #@ overlay.apply(left(), right())
"#,
        "out:\n  a: 11\n  b: new\n",
    );
}

#[test]
fn replace_array_item_by_index() {
    ok(
        r#"
---
#@ def left():
- a
- b
#@ end
---
#@ def right():
#@overlay/match by=overlay.index(1)
#@overlay/replace
- B
#@ end
---
out: #@ overlay.apply(left(), right())
"#,
        "out:\n- a\n- B\n",
    );
}

#[test]
fn insert_before_after_and_via() {
    ok(
        r#"
---
#@ def left():
- name: a
- name: b
#@ end
---
#@ def right():
#@overlay/match by="name"
#@overlay/insert before=True
- name: b
  pos: before
#@overlay/match by=overlay.subset({"name": "a"})
#@overlay/insert after=True, via=lambda l, r: {"name": l["name"] + r["name"]}
- name: "!"
#@ end
---
out: #@ overlay.apply(left(), right())
"#,
        "out:\n- name: a\n- name: a!\n- name: b\n  pos: before\n- name: b\n",
    );
}

#[test]
fn insert_on_map_item_fails() {
    err(
        r#"
#@ def left():
a: 1
#@ end
#@ def right():
#@overlay/insert
a: 2
#@ end
out: #@ overlay.apply(left(), right())
"#,
        "overlay.apply: Map item (key 'a') on line tpl.yml:9: Found @overlay/insert on map item (tpl.yml:9); only array items can be annotated with @overlay/insert",
    );
}

#[test]
fn append_array_item_and_document() {
    ok(
        r#"
---
#@ def left_list():
- a
#@ end
---
#@ def right_list():
#@overlay/append
- b
#@ end
---
#@ def left_docs():
---
doc: 1
#@ end
---
#@ def right_docs():
#@overlay/append
---
doc: 2
#@ end
---
list: #@ overlay.apply(left_list(), right_list())
--- #@ template.replace(overlay.apply(left_docs(), right_docs()))
"#,
        "list:\n- a\n- b\n---\ndoc: 1\n---\ndoc: 2\n",
    );
}

#[test]
fn assert_default_subset_and_via() {
    ok(
        r#"
#@ def left():
a:
  b: 1
  c: 2
#@ end
#@ def right():
#@overlay/assert
a:
  b: 1
#@ end
#@ def right_via():
#@overlay/assert via=lambda l, r: (l["c"] == 2, "c must be 2")
a:
#@ end
out: #@ overlay.apply(left(), right(), right_via())
"#,
        "out:\n  a:\n    b: 1\n    c: 2\n",
    );
    err(
        r#"
#@ def left():
a: 1
#@ end
#@ def right():
#@overlay/assert via=lambda l, r: (l == 2, "not two")
a:
#@ end
out: #@ overlay.apply(left(), right())
"#,
        "overlay.apply: Map item (key 'a') on line tpl.yml:9: Expected via invocation to return true, but was false with message: not two",
    );
}

#[test]
fn match_by_map_key_string_and_function() {
    ok(
        r#"
---
#@ def left():
- name: a
  v: 1
- name: b
  v: 2
#@ end
---
#@ def right():
#@overlay/match by="name"
- name: a
  v: 10
#@overlay/match by=overlay.map_key("name")
- name: b
  v: 20
#@ end
---
out: #@ overlay.apply(left(), right())
"#,
        "out:\n- name: a\n  v: 10\n- name: b\n  v: 20\n",
    );
}

#[test]
fn match_by_all_and_logical_ops() {
    ok(
        r#"
---
#@ def left():
- k: 1
- k: 2
- k: 3
#@ end
---
#@ def right():
#@overlay/match by=overlay.and_op(overlay.all, overlay.not_op(overlay.or_op(overlay.subset({"k": 1}), overlay.index(2)))), expects=1
-
  #@overlay/match missing_ok=True
  hit: true
#@ end
---
out: #@ overlay.apply(left(), right())
"#,
        "out:\n- k: 1\n- k: 2\n  hit: true\n- k: 3\n",
    );
}

#[test]
fn matchers_mixed_with_lambdas() {
    ok(
        r#"
---
#@ def left():
- k: 1
- k: 2
#@ end
---
#@ def right():
#@overlay/match by=overlay.and_op(overlay.all, lambda i, l, r: l["k"] > 1)
#@overlay/remove
-
#@ end
---
out: #@ overlay.apply(left(), right())
"#,
        "out:\n- k: 1\n",
    );
}

#[test]
fn matchers_are_callable() {
    ok(
        r#"
a: #@ overlay.all(0, None, None)
b: #@ overlay.index(1)(1, None, None)
c: #@ overlay.subset({"x": 1})(0, {"x": 1, "y": 2}, None)
d: #@ overlay.map_key("x")(0, {"x": 1}, {"x": 2})
e: #@ overlay.not_op(overlay.all)(0, None, None)
"#,
        "a: true\nb: true\nc: true\nd: false\ne: false\n",
    );
}

#[test]
fn documents_by_subset_with_global_index() {
    ok(
        r#"
#@ def left():
---
kind: A
---
kind: B
---
kind: A
#@ end
#@ def right():
#@overlay/match by=overlay.subset({"kind": "A"}), expects=2
---
#@overlay/match missing_ok=True
seen: true
#@overlay/match by=overlay.index(1)
#@overlay/remove
---
#@ end
--- #@ template.replace(overlay.apply(left(), right()))
"#,
        "kind: A\nseen: true\n---\nkind: A\nseen: true\n",
    );
}

#[test]
fn expects_forms() {
    ok(
        r#"
---
#@ def left():
- 1
- 2
#@ end
---
#@ def r_int():
#@overlay/match by=overlay.all, expects=2
- 0
#@ end
---
#@ def r_plus():
#@overlay/match by=overlay.all, expects="1+"
- 5
#@ end
---
#@ def r_list():
#@overlay/match by=overlay.subset(9), expects=[0, 1]
- 9
#@ end
---
#@ def r_func():
#@overlay/match by=overlay.all, expects=lambda n: n == 2
- 7
#@ end
---
a: #@ overlay.apply(left(), r_int())
b: #@ overlay.apply(left(), r_plus())
c: #@ overlay.apply(left(), r_list())
d: #@ overlay.apply(left(), r_func())
"#,
        "a:\n- 0\n- 0\nb:\n- 5\n- 5\nc:\n- 1\n- 2\n- 9\nd:\n- 7\n- 7\n",
    );
}

#[test]
fn expects_failure_lists_matched_lines() {
    err(
        r#"
---
#@ def left():
- 1
- 2
#@ end
---
#@ def right():
#@overlay/match by=overlay.all
- 0
#@ end
---
out: #@ overlay.apply(left(), right())
"#,
        "overlay.apply: Array item on line tpl.yml:12: Expected number of matched nodes to be 1, but was 2 (lines: tpl.yml:6, tpl.yml:7)",
    );
}

#[test]
fn when_skips_unmet_nodes() {
    ok(
        r#"
#@ def left():
a: 1
#@ end
#@ def right():
#@overlay/match when=1
a: 2
#@overlay/match when=1
b: 3
#@ end
out: #@ overlay.apply(left(), right())
"#,
        "out:\n  a: 2\n",
    );
}

#[test]
fn match_child_defaults_apply_to_descendants_only() {
    ok(
        r#"
#@ def left():
a:
  b: 1
#@ end
#@ def right():
#@overlay/match-child-defaults missing_ok=True
a:
  c: 2
  d:
    e: 3
#@ end
out: #@ overlay.apply(left(), right())
"#,
        "out:\n  a:\n    b: 1\n    c: 2\n    d:\n      e: 3\n",
    );
    err(
        r#"
#@ def left():
x: 1
#@ end
#@ def right():
#@overlay/match-child-defaults missing_ok=True
a:
  c: 2
#@ end
out: #@ overlay.apply(left(), right())
"#,
        "overlay.apply: Map item (key 'a') on line tpl.yml:9: Expected number of matched nodes to be 1, but was 0",
    );
}

#[test]
fn apply_over_plain_values_and_several_rights() {
    ok(
        r#"
#@ def right1():
a: 2
#@ end
#@ def right2():
#@overlay/match missing_ok=True
b: 3
#@ end
out: #@ overlay.apply({"a": 1}, right1(), right2())
"#,
        "out:\n  a: 2\n  b: 3\n",
    );
}

#[test]
fn overlay_annotations_are_stripped_from_added_nodes() {
    // the added item carries `@overlay/remove` on a child: it is added as written, and
    // applying the result again as an overlay treats the child as a plain merge
    ok(
        r#"
#@ def left():
a: 1
#@ end
#@ def right():
#@overlay/match missing_ok=True
b:
  #@overlay/remove
  c: 1
#@ end
#@ def again():
#@overlay/match missing_ok=True
z: 0
#@ end
out: #@ overlay.apply(overlay.apply(left(), right()), again())
"#,
        "out:\n  a: 1\n  b:\n    c: 1\n  z: 0\n",
    );
}

#[test]
fn merged_scalars_take_the_overlay_position() {
    let out = run_with(
        r#"
#@ def left():
a:
  b: 1
#@ end
#@ def right():
a:
  b: 2
#@ end
--- #@ overlay.apply(left(), right())
"#,
        &["-o", "pos"],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "          tpl.yml:12 | [doc]\n           tpl.yml:5 |   a:\n          tpl.yml:10 |     b: 2\n"
    );
}

#[test]
fn bad_via_is_reported() {
    err(
        r#"
#@ def left():
a: 1
#@ end
#@ def right():
#@overlay/replace via=1
a: 2
#@ end
out: #@ overlay.apply(left(), right())
"#,
        "overlay.apply: Map item (key 'a') on line tpl.yml:9: Expected 'overlay/replace' annotation keyword argument 'via' to be function, but was starlark.Int",
    );
}

#[test]
fn document_match_by_string_is_refused() {
    err(
        r#"
#@ def left():
---
a: 1
#@ end
#@ def right():
#@overlay/match by="a"
---
a: 2
#@ end
--- #@ template.replace(overlay.apply(left(), right()))
"#,
        "overlay.apply: Document on line tpl.yml:10: Expected 'overlay/match' annotation keyword argument 'by' to be function, but was starlark.String",
    );
}

#[test]
fn replace_takes_the_key_of_the_right_item() {
    // an item matched by `by=` gets the right item's key, in overlay.apply and in
    // overlay post-processing alike
    ok(
        r#"
#@ def left():
app: web
tier: db
#@ end
#@ def right():
#@overlay/match by=lambda key, l, r: key == "app"
#@overlay/replace
app.kubernetes.io/name: web
#@ end
out: #@ overlay.apply(left(), right())
"#,
        "out:\n  app.kubernetes.io/name: web\n  tier: db\n",
    );
    ok(
        r#"
#@ def left():
ENV: prod
#@ end
#@ def right():
#@overlay/match by=lambda key, l, r: key == "ENV"
#@overlay/replace via=lambda l, r: l + "-" + r
environment: x
#@ end
out: #@ overlay.apply(left(), right())
"#,
        "out:\n  environment: prod-x\n",
    );
}

#[test]
fn replace_takes_the_annotations_of_the_right_item() {
    // in a schema overlay the replacement's rule holds and the replaced one is gone
    let schema = "#@data/values-schema\n---\n#@schema/validation min=1\nport: 8080\nnames:\n#@schema/validation min_len=1\n- \"\"\n";
    let over = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@data/values-schema\n---\n#@overlay/replace\n#@schema/validation max=10\nport: 5\n";
    let run = |v: &str| {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("schema.yml"), schema).unwrap();
        fs::write(dir.path().join("over.yml"), over).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_ytt"))
            .args(["-f", "schema.yml", "-f", "over.yml", "--data-value-yaml", v])
            .args(["--data-values-inspect"])
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .output()
            .expect("run ytt");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, _, stderr) = run("port=20");
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("- must be: a value <= 10 (by: over.yml:5)"),
        "{stderr}"
    );
    let (code, stdout, stderr) = run("port=0");
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout, "port: 0\nnames: []\n");
}

#[test]
fn operations_without_arguments_ignore_unknown_ones() {
    ok(
        r#"
#@ def left():
a:
  b: 1
c: [1]
d: 1
#@ end
#@ def right():
#@overlay/merge missing_ok=True
a:
  b: 2
c:
#@overlay/append missing_ok=True
- 2
#@overlay/remove missing_ok=True
d:
#@ end
out: #@ overlay.apply(left(), right())
"#,
        "out:\n  a:\n    b: 2\n  c:\n  - 1\n  - 2\n",
    );
}

#[test]
fn misspelt_arguments_of_matching_and_replacing_are_errors() {
    err(
        r#"
#@ def right():
#@overlay/match expect=1
a: 2
#@ end
out: #@ overlay.apply({"a": 1}, right())
"#,
        "overlay.apply: Map item (key 'a') on line tpl.yml:6: Unknown 'overlay/match' annotation keyword argument 'expect'",
    );
    err(
        r#"
#@ def right():
#@overlay/match-child-defaults expect=1
a:
  b: 2
#@ end
out: #@ overlay.apply({"a": {"b": 1}}, right())
"#,
        "overlay.apply: Map item (key 'a') on line tpl.yml:6: Unknown 'overlay/match-child-defaults' annotation keyword argument 'expect'",
    );
    err(
        r#"
#@ def right():
#@overlay/replace or_ad=True
a: 2
#@ end
out: #@ overlay.apply({"a": 1}, right())
"#,
        "overlay.apply: Map item (key 'a') on line tpl.yml:6: Unknown 'overlay/replace' annotation keyword argument 'or_ad'",
    );
}

#[test]
fn expectation_messages() {
    let tpl = |expects: &str| {
        format!(
            r#"
#@ def left():
a: [1, 2, 3]
#@ end
#@ def right():
a:
#@overlay/match by=lambda i, l, r: True, {expects}
- 9
#@ end
out: #@ overlay.apply(left(), right())
"#
        )
    };
    err(
        &tpl("expects=\"4+\""),
        "overlay.apply: Map item (key 'a') on line tpl.yml:8: Array item on line tpl.yml:10: Expected number of matched nodes to be >= 4, but was 3 (lines: tpl.yml:5, tpl.yml:5, tpl.yml:5)",
    );
    // of several alternatives, the last one is named
    err(
        &tpl("expects=[0, 1]"),
        "overlay.apply: Map item (key 'a') on line tpl.yml:8: Array item on line tpl.yml:10: Expected number of matched nodes to be 1, but was 3 (lines: tpl.yml:5, tpl.yml:5, tpl.yml:5)",
    );
    err(
        &tpl("missing_ok=True, expects=1"),
        "overlay.apply: Map item (key 'a') on line tpl.yml:8: Array item on line tpl.yml:10: Expected only one of keyword arguments ('missing_ok', 'expects') specified",
    );
}

/// An integer never matches a float of the same value, wherever the overlay engine
/// compares nodes (the reference compares Go values): `map_key`, `subset` (nested in maps
/// and arrays too), a map item's key; floats match floats, integers integers.
#[test]
fn an_integer_never_matches_a_float() {
    let items = |right: &str| {
        format!(
            r#"
---
#@ def left():
- name: 1
  v: a
- name: 2.5
  v: b
#@ end
---
#@ def right():
#@overlay/match by=overlay.map_key("name")
- name: {right}
  v: z
#@ end
---
out: #@ overlay.apply(left(), right())
"#
        )
    };
    ok(
        &items("1"),
        "out:\n- name: 1\n  v: z\n- name: 2.5\n  v: b\n",
    );
    ok(
        &items("2.5"),
        "out:\n- name: 1\n  v: a\n- name: 2.5\n  v: z\n",
    );
    err(
        &items("1.0"),
        "overlay.apply: Array item on line tpl.yml:14: Expected number of matched nodes to be 1, but was 0",
    );

    // documents matched by subset: a scalar, and inside an array and a map
    let docs = |subset: &str| {
        format!(
            r#"
---
a: [1, {{x: 2.0}}, 3]
count: 2
---
#@overlay/match by=overlay.subset({subset}), expects="0+"
---
#@overlay/match missing_ok=True
hit: true
"#
        )
    };
    let hit = "a:\n- 1\n- x: 2\n- 3\ncount: 2\nhit: true\n";
    let missed = "a:\n- 1\n- x: 2\n- 3\ncount: 2\n";
    ok(&docs(r#"{"count": 2}"#), hit);
    ok(&docs(r#"{"count": 4 / 2}"#), missed);
    ok(&docs(r#"{"a": [1, {"x": 2.0}]}"#), hit);
    ok(&docs(r#"{"a": [1, {"x": 2}]}"#), missed);
    ok(&docs(r#"{"a": [1.0]}"#), missed);

    // a map item's key, named as the reference names it (Go's %s of a float64)
    let keys = r#"
---
m:
  1: a
---
#@overlay/match by=overlay.all
---
m:
  1.0: b
"#;
    let out = run_with(keys, &[]);
    assert_eq!(out.code, 1, "stdout: {}", out.stdout);
    assert!(
        out.stderr
            .contains("Map item (key '%!s(float64=1)') on line tpl.yml:11:"),
        "{}",
        out.stderr
    );
}
