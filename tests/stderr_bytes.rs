//! What ytt prints on stderr, byte for byte, where the bytes are the reference's beyond
//! the words: empty lines at the end of a report, a space before a line break, an empty
//! line before a warning. Snapshots (`tests/cases`) and the conformance corpus ignore
//! trailing whitespace; these tests do not.

mod common;

use common::Ytt;

/// stderr of a failed run.
#[track_caller]
fn error(y: &Ytt, args: &[&str]) -> String {
    y.run(args).err().to_owned()
}

#[test]
fn a_validation_report_ends_each_entry_with_an_empty_line() {
    // one violation with `found:`
    let y = Ytt::new().file(
        "v.yml",
        "#@data/values\n---\n#@assert/validate min=3\na: 2\n",
    );
    assert_eq!(
        error(&y, &["-f", "v.yml"]),
        "ytt: Error: Validating final data values:\n  a\n    from: v.yml:4\n    - must be: a value >= 3 (by: v.yml:3)\n      found: value < 3\n\n\n"
    );
    // entries without `found:` (a custom rule), several of them
    let y = Ytt::new().file(
        "v.yml",
        "#@ load(\"@ytt:assert\", \"assert\")\n#@data/values\n---\n#@assert/validate (\"x\", lambda v: False)\na: 2\n#@assert/validate (\"y\", lambda v: False), max=0\nb: 2\n",
    );
    assert_eq!(
        error(&y, &["-f", "v.yml", "--data-values-inspect"]),
        "ytt: Error: Validating final data values:\n  a\n    from: v.yml:5\n    - must be: x (by: v.yml:4)\n\n  b\n    from: v.yml:7\n    - must be: y (by: v.yml:6)\n    - must be: a value <= 0 (by: v.yml:6)\n      found: value > 0\n\n\n"
    );
}

#[test]
fn a_validation_report_under_a_starlark_error_keeps_its_empty_lines_as_reason_lines() {
    let y = Ytt::new()
        .file(
            "t.yml",
            "#@ load(\"@ytt:library\", \"library\")\n--- #@ library.get(\"lib\").eval()\n",
        )
        .file(
            "_ytt_lib/lib/v.yml",
            "#@data/values\n---\n#@assert/validate min=3\na: 2\n",
        )
        .file("_ytt_lib/lib/l.yml", "---\nx: 1\n");
    assert_eq!(
        error(&y, &["-f", "."]),
        "ytt: Error: \n- library.eval: Evaluating library 'lib': Validating final data values:\n    in <toplevel>\n      t.yml:2 | --- #@ library.get(\"lib\").eval()\n\n    reason:\n       a\n         from: _ytt_lib/lib/v.yml:4\n         - must be: a value >= 3 (by: _ytt_lib/lib/v.yml:3)\n           found: value < 3\n     \n     \n"
    );
}

#[test]
fn an_output_document_report_ends_as_the_data_values_report() {
    let y = Ytt::new().file("t.yml", "#@assert/validate max=1\nnum: 2\n");
    assert_eq!(
        error(&y, &["-f", "t.yml"]),
        "ytt: Error: Validating output documents:\n  num\n    from: t.yml:2\n    - must be: a value <= 1 (by: t.yml:1)\n      found: value > 1\n\n\n"
    );
    // a warning is a message of its own: no empty lines after it
    let out = Ytt::new()
        .file("t.yml", "#@assert/validate max=1, warn=True\nnum: 2\n")
        .run(&["-f", "t.yml"]);
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (
            0,
            "Warning: Validating output documents:\n  num\n    from: t.yml:2\n    - must be: a value <= 1 (by: t.yml:1)\n      found: value > 1\n"
        )
    );
}

#[test]
fn overlaying_data_values_ends_its_line_with_a_space_only_before_a_schema_report() {
    // an overlay error is indented under the step's line, which ends with the colon
    let y = Ytt::new()
        .file("a.yml", "#@data/values\n---\na: 1\n")
        .file("b.yml", "#@data/values\n---\nb: 2\n");
    assert_eq!(
        error(&y, &["-f", "a.yml", "-f", "b.yml"]),
        "ytt: Error: Overlaying data values (in following order: a.yml, b.yml):\n  Document on line b.yml:2:\n    Map item (key 'b') on line b.yml:3:\n      Expected number of matched nodes to be 1, but was 0\n"
    );
    // so is one of schema documents
    let y = Ytt::new()
        .file("s.yml", "#@data/values-schema\n---\na: 1\n")
        .file("o.yml", "#@data/values-schema\n---\nb:\n  c: 1\n");
    assert!(error(&y, &["-f", "s.yml", "-f", "o.yml"])
        .starts_with("ytt: Error: Overlaying data values schema (in following order: s.yml, o.yml):\n  Document on line o.yml:2:\n"));
    // a schema report follows `: ` on a line of its own
    let y = Ytt::new()
        .file("s.yml", "#@data/values-schema\n---\na: 1\n")
        .file("v.yml", "#@data/values\n---\na: x\n");
    assert_eq!(
        error(&y, &["-f", "s.yml", "-f", "v.yml"]),
        "ytt: Error: Overlaying data values (in following order: v.yml): \nOne or more data values were invalid\n====================================\n\nv.yml:\n    |\n  3 | a: x\n    |\n\n    = found: string\n    = expected: integer (by s.yml:3)\n\n\n"
    );
}

#[test]
fn the_math_warning_comes_after_an_empty_line_where_it_happens() {
    let out = Ytt::new()
        .file(
            "t.yml",
            "#@ load(\"@ytt:math\", \"math\")\n#@ print(\"before\")\n---\na: #@ math.floor(1.5)\n#@ print(\"after\")\nb: #@ math.ceil(1.5)\n",
        )
        .run(&["-f", "t.yml"]);
    assert_eq!(out.stdout, "a: 1\nb: 2\n");
    assert_eq!(
        out.stderr,
        "before\n\nWarning: a function from the @ytt:math module is used in this invocation; this module does not guarantee bit-identical results across CPU architectures.\nafter\n"
    );
}

#[test]
fn block_errors_of_a_text_template_are_its_evaluation_errors_on_its_code() {
    let y = Ytt::new().file("t.txt", "a\n(@ for x in [1]: @)\nb\n");
    assert_eq!(
        error(&y, &["-f", "t.txt", "--output-files", "out"]),
        "ytt: Error: Evaluating text template: \n- mismatched set of block openings (if/else/elif/for/def) and closing (end)\n    t.txt:2 |  for x in [1]: \n"
    );
    // an error found before running it (a private name loaded) shows the code too
    let y = Ytt::new()
        .file("t.txt", "a\n(@ load(\"x.star\", \"_a\") @)\n")
        .file("x.star", "_a = 1\n");
    assert_eq!(
        error(&y, &["-f", "t.txt", "--output-files", "out"]),
        "ytt: Error: Evaluating text template: \n- load: names with leading underscores are not exported: _a\n    t.txt:2 |  load(\"x.star\", \"_a\") \n"
    );
    // a YAML template's show its line
    let y = Ytt::new().file("t.yml", "---\n#@ for x in [1]:\na: 1\n");
    assert_eq!(
        error(&y, &["-f", "t.yml"]),
        "ytt: Error: \n- mismatched set of block openings (if/else/elif/for/def) and closing (end)\n    t.yml:2 | #@ for x in [1]:\n"
    );
}
