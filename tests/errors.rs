//! End-to-end tests of error reports: the message, the file and line with
//! the offending source, the call frames, exit code 1 and an empty stdout.

mod common;

use common::{tpl, Ytt};

#[test]
fn undefined_variable() {
    let out = tpl("a: 1\nb: #@ nope\n", &[]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - undefined: nope\n\
         \x20   tpl.yml:2 | b: #@ nope\n"
    );
}

/// Every undefined name is listed with its line, as the reference does (starlark-rust's
/// compiler stops at the first; the rest come from its scope checker), inside functions
/// too, with the boolean hint.
#[test]
fn every_undefined_variable_is_reported_with_its_line() {
    let out = tpl(
        "#@ first_missing\n\
         a: 1\n\
         #@ def f():\n\
         #@   return second_missing\n\
         #@ end\n\
         b: #@ true\n",
        &[],
    );
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - undefined: first_missing\n\
         \x20   tpl.yml:1 | #@ first_missing\n\
         - undefined: second_missing\n\
         \x20   tpl.yml:4 | #@   return second_missing\n\
         - undefined: true (hint: use 'True' instead of 'true' for boolean assignment)\n\
         \x20   tpl.yml:6 | b: #@ true\n"
    );
}

/// As in the reference, the callee has a frame of its own, at the first line of its
/// body (starlark-rust reports the error at the call site only).
#[test]
fn missing_argument_reports_callee_and_caller_frames() {
    let out = tpl(
        "#@ def greet(name):\n\
         hello: #@ name\n\
         #@ end\n\
         \n\
         a: #@ greet()\n",
        &[],
    );
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - function greet missing 1 argument (name)\n\
         \x20   in greet\n\
         \x20     tpl.yml:2 | hello: #@ name\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:5 | a: #@ greet()\n"
    );
}

/// A function with an empty body has its frame at its `def` line.
#[test]
fn missing_argument_to_empty_function_reports_def_line() {
    let out = tpl(
        "#@ def greet(name):\n\
         #@ end\n\
         \n\
         a: #@ greet()\n",
        &[],
    );
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - function greet missing 1 argument (name)\n\
         \x20   in greet\n\
         \x20     tpl.yml:1 | #@ def greet(name):\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:4 | a: #@ greet()\n"
    );
}

/// A function loaded from another file keeps its frame and line (starlark-rust would
/// inline its lone `return` into the caller and lose both).
#[test]
fn error_in_loaded_function_reports_its_frame() {
    let y = Ytt::new()
        .file(
            "funcs.lib.yml",
            "#@ def some_data():\n\
             #@   return 1 + \"2\"\n\
             #@ end\n",
        )
        .file(
            "tpl.yml",
            "#@ load(\"funcs.lib.yml\", \"some_data\")\n\
             a: #@ some_data()\n",
        );
    let out = y.run(&["-f", "tpl.yml", "-f", "funcs.lib.yml"]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - unknown binary op: int + string\n\
         \x20   in some_data\n\
         \x20     funcs.lib.yml:2 | #@   return 1 + \"2\"\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:2 | a: #@ some_data()\n"
    );
}

/// Freezing a library module inlines its functions into one another the same way.
#[test]
fn error_in_function_called_within_a_library_reports_its_frame() {
    let y = Ytt::new()
        .file(
            "funcs.lib.yml",
            "#@ def inner():\n\
             #@   return 1 + \"2\"\n\
             #@ end\n\
             #@ def outer():\n\
             #@   return inner()\n\
             #@ end\n",
        )
        .file(
            "tpl.yml",
            "#@ load(\"funcs.lib.yml\", \"outer\")\n\
             a: #@ outer()\n",
        );
    let out = y.run(&["-f", "tpl.yml", "-f", "funcs.lib.yml"]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - unknown binary op: int + string\n\
         \x20   in inner\n\
         \x20     funcs.lib.yml:2 | #@   return 1 + \"2\"\n\
         \x20   in outer\n\
         \x20     funcs.lib.yml:5 | #@   return inner()\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:2 | a: #@ outer()\n"
    );
}

#[test]
fn too_many_arguments_to_builtin() {
    let out = tpl("a: #@ len([1], [2])\n", &[]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - len: got 2 arguments, want 1\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:1 | a: #@ len([1], [2])\n"
    );
}

#[test]
fn too_many_arguments_to_lambda() {
    let out = tpl("#@ f = lambda x: x\na: #@ f(1, 2)\n", &[]);
    let err = out.err();
    // the wording is starlark-rust's (the reference: "function lambda accepts 1
    // positional argument (2 given)"); the report still names the call's line
    assert!(err.starts_with("ytt: Error: \n- "), "{err}");
    assert!(err.contains("extra positional argument"), "{err}");
    assert!(
        err.ends_with("    in <toplevel>\n      tpl.yml:2 | a: #@ f(1, 2)\n"),
        "{err}"
    );
}

#[test]
fn missing_end() {
    let out = tpl(
        "a:\n\
         \x20 #@ if True:\n\
         \x20 b: 1\n\
         c: 2\n",
        &[],
    );
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - mismatched set of block openings (if/else/elif/for/def) and closing (end)\n\
         \x20   tpl.yml:2 |   #@ if True:\n"
    );
}

#[test]
fn extra_end() {
    let out = tpl(
        "#@ if True:\n\
         a: 1\n\
         #@ end\n\
         #@ end\n\
         b: 2\n",
        &[],
    );
    let err = out.err();
    assert!(
        err.starts_with("ytt: Error: \n- unexpected end\n    tpl.yml:4 | #@ end\n"),
        "{err}"
    );
}

#[test]
fn missing_colon_hint() {
    let out = tpl(
        "#@ if True\n\
         a: 1\n\
         #@ end\n",
        &[],
    );
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - got newline, want ':' (hint: missing colon at the end of 'if/for/def' statement?)\n\
         \x20   tpl.yml:2 | a: 1\n"
    );
}

#[test]
fn pass_is_reserved() {
    let out = tpl(
        "#@ if True:\n\
         #@   pass\n\
         #@ end\n\
         a: 1\n",
        &[],
    );
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - use of reserved keyword 'pass' is not allowed\n\
         \x20   tpl.yml:2 | #@   pass\n"
    );
}

#[test]
fn bad_yaml_in_template() {
    let out = tpl("a: #@ 1\nb: @123\n", &[]);
    assert_eq!(
        out.err(),
        "ytt: Error: Unmarshaling YAML template 'tpl.yml': yaml: line 2: found character that cannot start any token\n"
    );
}

#[test]
fn bad_yaml_line_numbers_count_from_file_start() {
    // ytt prepends an implicit `---` to files without one; line numbers are
    // still those of the file, with or without an explicit `---`.
    for content in [
        "a: #@ 1\nb: 2\nc: 3\nd: @x\n",
        "---\na: #@ 1\nb: 2\nd: @x\n",
    ] {
        let out = tpl(content, &[]);
        assert_eq!(
            out.err(),
            "ytt: Error: Unmarshaling YAML template 'tpl.yml': yaml: line 4: found character that cannot start any token\n"
        );
    }
}

#[test]
fn fail_builtin() {
    let out = tpl(
        "#@ def check(v):\n\
         #@   if v < 0:\n\
         #@     fail(\"negative value: {}\".format(v))\n\
         #@   end\n\
         #@   return v\n\
         #@ end\n\
         ok: #@ check(1)\n\
         bad: #@ check(-5)\n",
        &[],
    );
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - fail: negative value: -5\n\
         \x20   in check\n\
         \x20     tpl.yml:3 | #@     fail(\"negative value: {}\".format(v))\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:8 | bad: #@ check(-5)\n"
    );
}

#[test]
fn runtime_type_error() {
    let out = tpl("x: 1\ny: #@ 1 + \"a\"\n", &[]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - unknown binary op: int + string\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:2 | y: #@ 1 + \"a\"\n"
    );
}

#[test]
fn error_in_second_file_names_that_file() {
    let y = Ytt::new()
        .file("a.yml", "ok: #@ 1\n")
        .file("b.yml", "#! comment\nbroken: #@ {}[\"k\"]\n");
    let out = y.run(&["-f", "a.yml", "-f", "b.yml"]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - key \"k\" not in dict\n\
         \x20   in <toplevel>\n\
         \x20     b.yml:2 | broken: #@ {}[\"k\"]\n"
    );
}

#[test]
fn value_and_yaml_value_together() {
    let out = tpl("a: 1 #@ 2\n", &[]);
    assert_eq!(
        out.err(),
        "ytt: Error: Compiling YAML template 'tpl.yml':\n\
         \x20 Expected YAML node at line tpl.yml:1 to have either computed or YAML value, but found both\n"
    );
}

#[test]
fn non_existent_input_file() {
    let out = Ytt::new().run(&["-f", "missing.yml"]);
    let err = out.err();
    assert!(
        err.starts_with("ytt: Error: Checking file 'missing.yml': "),
        "{err}"
    );
}

#[test]
fn extra_positional_argument() {
    let out = Ytt::new().run(&["x"]);
    assert_eq!(
        out.err(),
        "ytt: Error: command 'ytt' does not accept extra arguments 'x'\n"
    );
}
