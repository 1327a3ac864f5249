//! End-to-end tests of `load` nested in top-level blocks: in ytt's Starlark a `load`
//! inside `if`/`elif`/`else`/`for` blocks (not inside a `def`) runs when it is reached,
//! in order with the other statements; and of the wording of errors raised while
//! loading a file.

mod common;

use common::Ytt;

/// A project with a Starlark file, a YAML library file and a text library file.
fn libs() -> Ytt {
    Ytt::new()
        .file(
            "lib/funcs.star",
            "def double(x):\n  return 2 * x\nend\nname = \"funcs\"\n_hidden = 1\n",
        )
        .file("lib/frag.lib.yml", "#@ def frag(v):\nkey: #@ v\n#@ end\n")
        .file(
            "lib/banner.lib.txt",
            "(@ def banner(who): -@)\n** (@= who @) **\n(@- end @)\n",
        )
}

#[test]
fn load_in_if_elif_else_branches() {
    let tpl = |which: &str| {
        format!(
            "#@ which = \"{which}\"\n\
             #@ if which == \"star\":\n\
             #@   load(\"lib/funcs.star\", \"name\")\n\
             #@ elif which == \"yaml\":\n\
             #@   load(\"lib/frag.lib.yml\", \"frag\")\n\
             #@   name = frag(\"yaml\")\n\
             #@ else:\n\
             #@   load(\"lib/banner.lib.txt\", \"banner\")\n\
             #@   name = banner(\"text\")\n\
             #@ end\n\
             got: #@ name\n"
        )
    };
    for (which, want) in [
        ("star", "got: funcs\n"),
        ("yaml", "got:\n  key: yaml\n"),
        ("text", "got: '** text **'\n"),
    ] {
        let out = libs().file("tpl.yml", &tpl(which)).run(&["-f", "."]);
        assert_eq!(out.ok(), want, "branch {which}");
    }
}

#[test]
fn load_in_for_and_in_if_nested_in_for() {
    let out = libs()
        .file(
            "tpl.yml",
            "#@ for i in range(3):\n\
             #@   load(\"lib/funcs.star\", \"double\")\n\
             #@   if i == 2:\n\
             #@     load(\"lib/frag.lib.yml\", \"frag\")\n\
             #@   end\n\
             #@ end\n\
             a: #@ double(21)\n\
             b: #@ frag(i)\n",
        )
        .run(&["-f", "."]);
    assert_eq!(out.ok(), "a: 42\nb:\n  key: 2\n");
}

#[test]
fn aliases_several_names_and_a_load_over_several_lines() {
    let out = libs()
        .file(
            "tpl.yml",
            "#@ if True:\n\
             #@   load(\"lib/funcs.star\",\n\
             #@        twice=\"double\",\n\
             #@        \"name\",\n\
             #@   )  # a comment after the statement\n\
             #@ end\n\
             a: #@ twice(2)\n\
             b: #@ name\n",
        )
        .run(&["-f", "."]);
    assert_eq!(out.ok(), "a: 4\nb: funcs\n");
}

#[test]
fn load_after_the_colon_of_a_one_line_block_and_after_a_semicolon() {
    let out = libs()
        .file(
            "tpl.yml",
            "#@ if True: load(\"lib/funcs.star\", \"name\")\n\
             #@ if True:\n\
             #@   x = 1; load(\"lib/funcs.star\", \"double\")\n\
             #@ end\n\
             a: #@ name\n\
             b: #@ double(x)\n",
        )
        .run(&["-f", "."]);
    assert_eq!(out.ok(), "a: funcs\nb: 2\n");
}

#[test]
fn a_branch_not_taken_loads_nothing() {
    // the file does not even exist: the load is never reached
    let out = libs()
        .file(
            "tpl.yml",
            "#@ if False:\n\
             #@   load(\"lib/missing.star\", \"x\")\n\
             #@ end\n\
             a: 1\n",
        )
        .run(&["-f", "."]);
    assert_eq!(out.ok(), "a: 1\n");
}

#[test]
fn a_load_and_a_def_of_the_same_name_in_two_branches() {
    let tpl = |cond: &str| {
        format!(
            "#@ if {cond}:\n\
             #@   load(\"lib/funcs.star\", \"double\")\n\
             #@ else:\n\
             #@   def double(x):\n\
             #@     return x\n\
             #@   end\n\
             #@ end\n\
             a: #@ double(5)\n"
        )
    };
    assert_eq!(
        libs().file("t.yml", &tpl("True")).run(&["-f", "."]).ok(),
        "a: 10\n"
    );
    assert_eq!(
        libs().file("t.yml", &tpl("False")).run(&["-f", "."]).ok(),
        "a: 5\n"
    );
}

#[test]
fn nested_load_of_ytt_modules_including_assert() {
    let out = Ytt::new()
        .file(
            "tpl.yml",
            "#@ if True:\n\
             #@   load(\"@ytt:json\", \"json\")\n\
             #@   load(\"@ytt:assert\", \"assert\")\n\
             #@ end\n\
             a: #@ json.encode([1])\n\
             b: #@ assert.fail(\"stop\")\n",
        )
        .run(&["-f", "."]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - assert.fail: fail: stop\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:6 | b: #@ assert.fail(\"stop\")\n"
    );
}

#[test]
fn nested_load_in_a_star_file_and_in_a_library_file() {
    let out = libs()
        .file(
            "lib/pick.star",
            "load(\"@ytt:data\", \"data\")\n\
             if data.values.fancy:\n\
             \x20 load(\"banner.lib.txt\", \"banner\")\n\
             else:\n\
             \x20 def banner(who):\n\
             \x20   return who\n\
             \x20 end\n\
             end\n",
        )
        .file(
            "lib/wrap.lib.yml",
            "#@ for _ in [1]:\n\
             #@ load(\"pick.star\", \"banner\")\n\
             #@ end\n\
             #@ def wrapped(who):\n\
             title: #@ banner(who)\n\
             #@ end\n",
        )
        .file("values.yml", "#@data/values\n---\nfancy: true\n")
        .file(
            "tpl.yml",
            "#@ load(\"lib/wrap.lib.yml\", \"wrapped\")\n\
             out: #@ wrapped(\"me\")\n",
        );
    assert_eq!(out.run(&["-f", "."]).ok(), "out:\n  title: '** me **'\n");
    assert_eq!(
        out.run(&["-f", ".", "--data-value-yaml", "fancy=false"])
            .ok(),
        "out:\n  title: me\n"
    );
}

#[test]
fn nested_load_from_a_private_library() {
    let out = Ytt::new()
        .file(
            "_ytt_lib/greeter/hello.star",
            "def hello(x):\n  return \"hello \" + x\nend\n",
        )
        .file(
            "tpl.yml",
            "#@ if True:\n\
             #@   load(\"@greeter:hello.star\", \"hello\")\n\
             #@ end\n\
             a: #@ hello(\"there\")\n",
        )
        .run(&["-f", "."]);
    assert_eq!(out.ok(), "a: hello there\n");
}

#[test]
fn a_module_is_evaluated_once_however_often_it_is_loaded() {
    let out = Ytt::new()
        .file("noisy.star", "print(\"evaluated\")\nx = 1\n")
        .file(
            "tpl.yml",
            "#@ load(\"noisy.star\", \"x\")\n\
             #@ for i in range(3):\n\
             #@   load(\"noisy.star\", y=\"x\")\n\
             #@ end\n\
             a: #@ x + y\n",
        )
        .run(&["-f", "tpl.yml", "-f", "noisy.star"]);
    assert_eq!((out.code, out.stdout.as_str()), (0, "a: 2\n"));
    // once for the loads, once more as a Starlark file given to `-f` (run after tpl.yml)
    assert_eq!(out.stderr, "evaluated\nevaluated\n");
}

#[test]
fn nested_load_of_a_missing_file() {
    let out = libs()
        .file(
            "tpl.yml",
            "#@ if True:\n\
             #@   load(\"lib/missing.star\", \"x\")\n\
             #@ end\n\
             a: 1\n",
        )
        .run(&["-f", "."]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - cannot load lib/missing.star: Expected to find file 'lib/missing.star' (hint: only files included via -f flag are available)\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:2 | #@   load(\"lib/missing.star\", \"x\")\n"
    );
}

#[test]
fn the_first_failing_statement_in_execution_order_is_reported() {
    // the nested load succeeds; the top-level load after it is the one that fails
    let out = libs()
        .file(
            "tpl.yml",
            "#@ if True:\n\
             #@   load(\"lib/funcs.star\", \"double\")\n\
             #@ end\n\
             #@ load(\"lib/nope.yml\", \"x\")\n\
             #@ if True:\n\
             #@   load(\"lib/other-missing.star\", \"y\")\n\
             #@ end\n\
             a: 1\n",
        )
        .run(&["-f", "."]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - cannot load lib/nope.yml: Expected to find file 'lib/nope.yml' (hint: only files included via -f flag are available)\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:4 | #@ load(\"lib/nope.yml\", \"x\")\n"
    );
}

#[test]
fn a_name_the_module_does_not_have() {
    for (tpl, line) in [
        (
            "#@ if True:\n#@   load(\"lib/funcs.star\", \"double\", \"triple\")\n#@ end\na: 1\n",
            "tpl.yml:2 | #@   load(\"lib/funcs.star\", \"double\", \"triple\")",
        ),
        (
            "#@ load(\"lib/funcs.star\", \"double\", \"triple\")\na: 1\n",
            "tpl.yml:1 | #@ load(\"lib/funcs.star\", \"double\", \"triple\")",
        ),
    ] {
        let out = libs().file("tpl.yml", tpl).run(&["-f", "."]);
        assert_eq!(
            out.err(),
            format!(
                "ytt: Error: \n\
                 - load: name triple not found in module lib/funcs.star\n\
                 \x20   in <toplevel>\n\
                 \x20     {line}\n"
            )
        );
    }
}

#[test]
fn a_name_the_module_only_loaded_itself_is_not_exported() {
    let out = libs()
        .file("lib/again.star", "load(\"funcs.star\", \"double\")\n")
        .file(
            "tpl.yml",
            "#@ if True:\n#@   load(\"lib/again.star\", \"double\")\n#@ end\na: 1\n",
        )
        .run(&["-f", "."]);
    assert!(
        out.err()
            .starts_with("ytt: Error: \n- load: name double not found in module lib/again.star\n"),
        "{}",
        out.stderr
    );
}

#[test]
fn names_with_leading_underscores_are_a_static_error_even_in_a_branch_not_taken() {
    // reported before anything runs: no `in <toplevel>` frame, and the earlier `fail`
    // never runs
    let out = libs()
        .file(
            "tpl.yml",
            "#@ fail(\"not reached\")\n\
             #@ if False:\n\
             #@   load(\"lib/funcs.star\",\n\
             #@        \"double\", \"_hidden\")\n\
             #@ end\n\
             a: 1\n",
        )
        .run(&["-f", "."]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - load: names with leading underscores are not exported: _hidden\n\
         \x20   tpl.yml:4 | #@        \"double\", \"_hidden\")\n"
    );
}

#[test]
fn load_inside_a_def_is_still_an_error() {
    for body in [
        "#@ def f():\n#@   load(\"lib/funcs.star\", \"double\")\n#@   return 1\n#@ end\na: 1\n",
        "#@ if True:\n#@   def f():\n#@     if True:\n#@       load(\"lib/funcs.star\", \"double\")\n#@     end\n#@   end\n#@ end\na: 1\n",
    ] {
        let out = libs().file("tpl.yml", body).run(&["-f", "."]);
        assert!(
            out.err().contains("`load` must only occur at the top of a module"),
            "{}",
            out.stderr
        );
    }
}

#[test]
fn runtime_error_in_a_loaded_star_file() {
    let out = Ytt::new()
        .file("v.star", "x = 1\nfail(\"boom\")\n")
        .file("t.yml", "#@ load(\"v.star\", \"x\")\na: 1\n")
        .run(&["-f", "."]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - cannot load v.star: Evaluating starlark template: \n\
         \x20   in <toplevel>\n\
         \x20     t.yml:1 | #@ load(\"v.star\", \"x\")\n\
         \n\
         \x20   reason:\n\
         \x20    - fail: boom\n\
         \x20        in <toplevel>\n\
         \x20          2 | fail(\"boom\")\n"
    );
}

#[test]
fn syntax_error_in_a_loaded_star_file() {
    let out = Ytt::new()
        .file("s.star", "x = 1\nfor i in []:\n  x = 2\n")
        .file(
            "t.yml",
            "#@ if True:\n#@   load(\"s.star\", \"x\")\n#@ end\na: 1\n",
        )
        .run(&["-f", "t.yml", "-f", "s.star"]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - cannot load s.star: Evaluating starlark template: \n\
         \x20   in <toplevel>\n\
         \x20     t.yml:2 | #@   load(\"s.star\", \"x\")\n\
         \n\
         \x20   reason:\n\
         \x20    - mismatched set of block openings (if/else/elif/for/def) and closing (end)\n\
         \x20        2 | for i in []:\n"
    );
}

#[test]
fn lines_of_star_files_show_without_file_name_in_any_frame() {
    let out = Ytt::new()
        .file(
            "lib/check.star",
            "def check(x):\n  if x > 1:\n    fail(\"too big: %d\" % x)\n  end\n  return x\nend\n",
        )
        .file(
            "t.yml",
            "#@ load(\"lib/check.star\", \"check\")\na: #@ check(1)\nb: #@ check(2)\n",
        )
        .run(&["-f", "."]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - fail: too big: 2\n\
         \x20   in check\n\
         \x20     3 |     fail(\"too big: %d\" % x)\n\
         \x20   in <toplevel>\n\
         \x20     t.yml:3 | b: #@ check(2)\n"
    );
}

#[test]
fn runtime_error_in_a_loaded_yaml_library_file() {
    // a YAML template's own report, with its file name, becomes the reason (the file
    // sorts after t.yml: a library file is also evaluated on its own, in the directory's
    // order, and would report the error first)
    let out = Ytt::new()
        .file("zlib.lib.yml", "#@ x = 1\na: #@ x + \"s\"\n")
        .file("t.yml", "#@ load(\"zlib.lib.yml\", \"x\")\na: 1\n")
        .run(&["-f", "."]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - cannot load zlib.lib.yml: \n\
         \x20   in <toplevel>\n\
         \x20     t.yml:1 | #@ load(\"zlib.lib.yml\", \"x\")\n\
         \n\
         \x20   reason:\n\
         \x20    - unknown binary op: int + string\n\
         \x20        in <toplevel>\n\
         \x20          zlib.lib.yml:2 | a: #@ x + \"s\"\n"
    );
}
