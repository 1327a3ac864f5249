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
    assert_eq!(
        out.err(),
        "ytt: Error: Checking file 'missing.yml': lstat missing.yml: no such file or directory\n"
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

/// Errors of overlay post-processing: a node per line; an error of code the overlay
/// called follows its node; an overlay error raised inside that code (`overlay.apply` in
/// a `via=` lambda) goes on below, indented; through `library.eval()` all of it reads on
/// one line.
#[test]
fn overlay_errors_from_called_code() {
    let ov = |via: &str| {
        format!(
            "#@ load(\"@ytt:overlay\", \"overlay\")\n\
             #@ def strict():\n\
             missing: 1\n\
             #@ end\n\
             #@overlay/match by=overlay.all\n\
             ---\n\
             spec:\n\
             \x20 #@overlay/replace via={via}\n\
             \x20 labels:\n"
        )
    };
    let run = |via: &str| {
        Ytt::new()
            .file("a.yml", "spec:\n  labels:\n    app: x\n")
            .file("ov.yml", &ov(via))
            .run(&["-f", "a.yml", "-f", "ov.yml"])
    };
    assert_eq!(
        run("lambda l, r: overlay.apply(l, strict())").err(),
        "ytt: Error: Overlaying (in following order: ov.yml):\n\
         \x20 Document on line ov.yml:6:\n\
         \x20   Map item (key 'spec') on line ov.yml:7:\n\
         \x20     Map item (key 'labels') on line ov.yml:9: overlay.apply:\n\
         \x20       Map item (key 'missing') on line ov.yml:3:\n\
         \x20         Expected number of matched nodes to be 1, but was 0\n"
    );
    assert_eq!(
        run("lambda l, r: l + 1").err(),
        "ytt: Error: Overlaying (in following order: ov.yml):\n\
         \x20 Document on line ov.yml:6:\n\
         \x20   Map item (key 'spec') on line ov.yml:7:\n\
         \x20     Map item (key 'labels') on line ov.yml:9: unknown binary op: yamlfragment + int\n"
    );

    let lib = Ytt::new()
        .file(
            "t.yml",
            "#@ load(\"@ytt:library\", \"library\")\nv: #@ library.get(\"lib\").eval()\n",
        )
        .file("_ytt_lib/lib/a.yml", "spec:\n  labels:\n    app: x\n")
        .file(
            "_ytt_lib/lib/ov.yml",
            &ov("lambda l, r: overlay.apply(l, strict())"),
        )
        .run(&["-f", "."]);
    assert_eq!(
        lib.err(),
        "ytt: Error: \n\
         - library.eval: Evaluating library 'lib': Overlaying (in following order: _ytt_lib/lib/ov.yml): Document on line _ytt_lib/lib/ov.yml:6: Map item (key 'spec') on line _ytt_lib/lib/ov.yml:7: Map item (key 'labels') on line _ytt_lib/lib/ov.yml:9: overlay.apply: Map item (key 'missing') on line _ytt_lib/lib/ov.yml:3: Expected number of matched nodes to be 1, but was 0\n\
         \x20   in <toplevel>\n\
         \x20     t.yml:2 | v: #@ library.get(\"lib\").eval()\n"
    );
}

#[test]
fn map_key_matcher_without_the_key() {
    let out = Ytt::new()
        .file("a.yml", "kind: A\n")
        .file(
            "ov.yml",
            "#@ load(\"@ytt:overlay\", \"overlay\")\n\
             #@overlay/match by=overlay.map_key(\"kind\")\n\
             --- {}\n",
        )
        .run(&["-f", "a.yml", "-f", "ov.yml"]);
    assert_eq!(
        out.err(),
        "ytt: Error: Overlaying (in following order: ov.yml):\n\
         \x20 Document on line ov.yml:3: overlay.map_key_matcher:\n\
         \x20   Expected to find map item with key 'kind', but did not\n"
    );
}

#[test]
fn undefined_names_suggest_close_ones_only() {
    // not among builtins: `nope` is not `None`
    let out = tpl(
        "#@ labels = 1\n#@ x = 2\na: #@ label\nb: #@ y\nc: #@ nope\n",
        &[],
    );
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - undefined: label (did you mean labels?)\n\
         \x20   tpl.yml:3 | a: #@ label\n\
         - undefined: y\n\
         \x20   tpl.yml:4 | b: #@ y\n\
         - undefined: nope\n\
         \x20   tpl.yml:5 | c: #@ nope\n"
    );
}

#[test]
fn a_parameter_that_is_not_a_name() {
    let out = tpl("#@ def f(\"x\"):\na: 1\n#@ end\nb: 2\n", &[]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - not an identifier\n\
         \x20   tpl.yml:1 | #@ def f(\"x\"):\n"
    );
}

/// Instructions are named after the template's number: the reference numbers every YAML
/// template it compiles from 2, data-values files first, plain ones included.
#[test]
fn template_numbers_count_every_yaml_template() {
    let out = Ytt::new()
        .file("a-values.yml", "#@data/values\n---\nx: 1\n")
        .file("b-plain.yml", "plain: yes\n")
        .file(
            "c.yml",
            "k: #@ None\n#@yaml/text-templated-strings\nt: (@= None @)\n",
        )
        .run(&["-f", "."]);
    assert!(
        out.err()
            .contains("- __ytt_tpl4_set_node: cannot set non-string value"),
        "{}",
        out.stderr
    );
}

/// Rule: user code may not name the instructions of the generated code (`__ytt_…`) nor
/// its annotation values: called or reassigned, they broke the node contexts
/// (`internal error: node started outside of a context`).
#[test]
fn names_reserved_for_generated_code() {
    let reserved = |src: &str, name: &str, line: &str| {
        let out = tpl(src, &[]);
        assert_eq!(
            out.err(),
            format!(
                "ytt: Error: \n- {name} is a name reserved for the code ytt generates\n    tpl.yml:{line}\n"
            )
        );
    };
    reserved(
        "#@ __ytt_end_ctx(0)\na: 1\n",
        "__ytt_end_ctx",
        "1 | #@ __ytt_end_ctx(0)",
    );
    reserved(
        "a: #@ __ytt_start_node(0, 99)\n",
        "__ytt_start_node",
        "1 | a: #@ __ytt_start_node(0, 99)",
    );
    reserved(
        "#@ ytt_annotation_values_ = []\na: 1\n",
        "ytt_annotation_values_",
        "1 | #@ ytt_annotation_values_ = []",
    );
    reserved(
        "#@foo/bar __ytt_set_node\na: 1\n",
        "__ytt_set_node",
        "1 | #@foo/bar __ytt_set_node",
    );
    let text = Ytt::new()
        .file("t.txt", "x: (@= str(__ytt_end_ctx(1)) @)\n")
        .run(&["-f", "t.txt"]);
    assert!(text.err().starts_with(
        "ytt: Error: Evaluating text template: \n- __ytt_end_ctx is a name reserved for the code ytt generates\n"
    ));
}
