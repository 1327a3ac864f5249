//! End-to-end tests of `load()`: Starlark files, YAML and text library
//! files, relative / subdirectory / root-relative paths, refusals, and the
//! `@ytt:data` file accessors.

mod common;

use common::Ytt;

fn project() -> Ytt {
    Ytt::new()
        .file(
            "helpers.star",
            "def greet(name):\n  return \"hello \" + name\nend\n_secret = 1\nanswer = 42\n",
        )
        .file(
            "sub/frag.lib.yml",
            "#@ load(\"/helpers.star\", \"answer\")\n\
             #@ def labels(app):\n\
             app: #@ app\n\
             answer: #@ answer\n\
             #@ end\n",
        )
        .file(
            "sub/deep/msg.lib.txt",
            "(@ def banner(who): -@)\n== (@= who @) ==\n(@- end @)\n",
        )
        .file(
            "sub/deep/rel.star",
            "load(\"msg.lib.txt\", \"banner\")\n\
             def shout(x):\n  return banner(x.upper())\nend\n",
        )
        .file(
            "sub/tpl.yml",
            "#@ load(\"frag.lib.yml\", \"labels\")\n\
             #@ load(\"deep/rel.star\", \"shout\")\n\
             #@ load(\"/helpers.star\", \"greet\")\n\
             sub_labels: #@ labels(\"s\")\n\
             sub_shout: #@ shout(\"x\")\n\
             sub_greet: #@ greet(\"sub\")\n",
        )
        .file(
            "tpl.yml",
            "#@ load(\"helpers.star\", \"greet\", \"answer\", g=\"greet\")\n\
             #@ load(\"sub/frag.lib.yml\", \"labels\")\n\
             #@ load(\"sub/deep/msg.lib.txt\", \"banner\")\n\
             greeting: #@ greet(\"world\")\n\
             alias: #@ g(\"alias\")\n\
             answer: #@ answer\n\
             labels: #@ labels(\"web\")\n\
             banner: #@ banner(\"hi\")\n",
        )
}

#[test]
fn load_star_yaml_and_text_libraries_by_relative_sub_and_root_paths() {
    let out = project().run(&["-f", "."]);
    // Files of one -f directory are ordered by relative path: "sub/tpl.yml"
    // sorts before "tpl.yml". Library files produce no output.
    insta::assert_snapshot!("load_libraries", out.ok());
}

#[test]
fn library_files_are_not_output_but_are_listed() {
    // Listed in input order: the directory as walked, by name.
    let out = project().run(&["-f", ".", "--files-inspect"]);
    assert_eq!(
        out.ok(),
        "- helpers.star\n\
         - sub/deep/msg.lib.txt\n\
         - sub/deep/rel.star\n\
         - sub/frag.lib.yml\n\
         - sub/tpl.yml\n\
         - tpl.yml\n"
    );
}

#[test]
fn starlark_file_functions_and_values() {
    let y = Ytt::new()
        .file(
            "funcs.star",
            "def starfunc():\n  return [1, 2]\nend\n\
             def table(n):\n  return {\"n\": n, \"sq\": n * n}\nend\n\
             consts = {\"k\": \"v\"}\n",
        )
        .file(
            "tpl.yml",
            "#@ load(\"funcs.star\", \"starfunc\", \"table\", \"consts\")\n\
             list: #@ starfunc()\n\
             table: #@ table(3)\n\
             consts: #@ consts\n",
        );
    let out = y.run(&["-f", "tpl.yml", "-f", "funcs.star"]);
    assert_eq!(
        out.ok(),
        "list:\n- 1\n- 2\ntable:\n  \"n\": 3\n  sq: 9\nconsts:\n  k: v\n"
    );
}

#[test]
fn text_library_def_returns_string() {
    let y = Ytt::new()
        .file(
            "funcs/funcs.lib.txt",
            "(@ def textfunc(): @)textfunc(@ end @)",
        )
        .file(
            "tpl.yml",
            "#@ load(\"funcs/funcs.lib.txt\", \"textfunc\")\n\
             textfunc: #@ textfunc()\n\
             type: #@ type(textfunc())\n",
        );
    let out = y.run(&["-f", "."]);
    assert_eq!(out.ok(), "textfunc: textfunc\ntype: string\n");
}

#[test]
fn private_symbols_cannot_be_loaded() {
    let y = Ytt::new()
        .file("helpers.star", "_secret = 1\npublic = 2\n")
        .file("tpl.yml", "#@ load(\"helpers.star\", \"_secret\")\na: 1\n");
    let out = y.run(&["-f", "."]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - load: names with leading underscores are not exported: _secret\n\
         \x20   tpl.yml:1 | #@ load(\"helpers.star\", \"_secret\")\n"
    );
}

#[test]
fn loading_a_non_library_file_is_refused() {
    let y = Ytt::new()
        .file("other.yml", "x: 1\n")
        .file("tpl.yml", "#@ load(\"other.yml\", \"x\")\na: 1\n");
    let out = y.run(&["-f", "."]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - cannot load other.yml: Expected file 'other.yml' to be a library file, but was not (hint: library filename must end with '.lib.yml' or '.star'; use data.read(...) for loading non-templated file contents)\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:1 | #@ load(\"other.yml\", \"x\")\n"
    );
}

#[test]
fn loading_a_missing_file_is_an_error() {
    let y = Ytt::new().file("tpl.yml", "#@ load(\"nope.star\", \"x\")\na: 1\n");
    let out = y.run(&["-f", "."]);
    let err = out.err();
    assert!(
        err.starts_with("ytt: Error: \n- cannot load nope.star: Expected to find file 'nope.star'"),
        "{err}"
    );
    assert!(
        err.ends_with("    in <toplevel>\n      tpl.yml:1 | #@ load(\"nope.star\", \"x\")\n"),
        "{err}"
    );
}

#[test]
fn loading_from_private_library_directory_directly_is_refused() {
    let y = Ytt::new()
        .file("_ytt_lib/data.lib.star", "data = 3\n")
        .file("tpl.yml", "#@ load(\"_ytt_lib/data.lib.star\", \"data\")\n");
    let out = y.run(&["-f", "."]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - cannot load _ytt_lib/data.lib.star: Expected to find file '_ytt_lib/data.lib.star', but did not: Encountered private library '_ytt_lib'\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:1 | #@ load(\"_ytt_lib/data.lib.star\", \"data\")\n"
    );
}

#[test]
fn unknown_ytt_module_is_an_error() {
    let y = Ytt::new().file("config.yml", "#@ load(\"@ytt:not-exist\", \"a\")");
    let out = y.run(&["-f", "."]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - cannot load @ytt:not-exist: builtin ytt library does not have module 'not-exist' (hint: is it available in newer version of ytt?)\n\
         \x20   in <toplevel>\n\
         \x20     config.yml:1 | #@ load(\"@ytt:not-exist\", \"a\")\n"
    );
}

#[test]
fn error_inside_loaded_file_shows_the_calling_frames() {
    let y = Ytt::new()
        .file(
            "funcs/funcs.lib.yml",
            "#@ def some_data():\n#@   return 1+\"2\"\n#@ end\n",
        )
        .file(
            "tpl.yml",
            "#@ load(\"funcs/funcs.lib.yml\", \"some_data\")\n\
             #@ def another_data():\n\
             #@   return some_data()\n\
             #@ end\n\
             simple_key: #@ another_data()\n",
        );
    let out = y.run(&["-f", "."]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - unknown binary op: int + string\n\
         \x20   in some_data\n\
         \x20     funcs/funcs.lib.yml:2 | #@   return 1+\"2\"\n\
         \x20   in another_data\n\
         \x20     tpl.yml:3 | #@   return some_data()\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:5 | simple_key: #@ another_data()\n"
    );
}

#[test]
fn data_read_and_data_list() {
    let y = Ytt::new()
        .file(
            "tpl.yml",
            "#@ load(\"@ytt:data\", \"data\")\n\
             #@ load(\"funcs/funcs.lib.yml\", \"nested_list\", \"nested_read\")\n\
             rootlist: #@ data.list()\n\
             absolute: #@ data.list(\"/\")\n\
             sublist: #@ data.list(\"funcs\")\n\
             rootdata: #@ data.read(\"funcs/data.cfg\")\n\
             star: #@ data.read(\"funcs/funcs.star\")\n\
             nested: #@ nested_list()\n\
             nestedread: #@ nested_read()\n",
        )
        .file(
            "funcs/funcs.lib.yml",
            "#@ load(\"@ytt:data\", \"data\")\n\
             #@ def/end nested_list():\n\
             list: #@ data.list()\n\
             #@ def nested_read():\n\
             rel: #@ data.read(\"data.cfg\")\n\
             abs: #@ data.read(\"/funcs/data.cfg\")\n\
             #@ end\n",
        )
        .file("funcs/data.cfg", "line1\nline2")
        .file("funcs/funcs.star", "def f():\n  return 1\nend\n")
        .file("_ytt_lib/lib1/other.yml", "hidden: true\n");
    let out = y.run(&["-f", "."]);
    insta::assert_snapshot!("data_read_list", out.ok());
}

#[test]
fn data_read_of_missing_file_is_an_error() {
    let y = Ytt::new().file(
        "tpl.yml",
        "#@ load(\"@ytt:data\", \"data\")\nv: #@ data.read(\"missing.txt\")\n",
    );
    let out = y.run(&["-f", "tpl.yml"]);
    let err = out.err();
    assert!(
        err.starts_with("ytt: Error: \n- data.read: Expected to find file 'missing.txt'"),
        "{err}"
    );
    assert!(
        err.ends_with("tpl.yml:2 | v: #@ data.read(\"missing.txt\")\n"),
        "{err}"
    );
}

/// A Starlark file given to `-f` is run for its effects (a `print`, a check that fails),
/// not only when loaded; it is no output file.
#[test]
fn starlark_files_given_are_run() {
    let out = Ytt::new()
        .file("a.yml", "a: 1\n")
        .file("hello.star", "print(\"hello\")\n")
        .run(&["-f", "a.yml", "-f", "hello.star"]);
    assert_eq!((out.code, out.stdout.as_str()), (0, "a: 1\n"));
    assert_eq!(out.stderr, "hello\n");
    let out = Ytt::new()
        .file("v.yml", "#@data/values\n---\ntag: \"\"\n")
        .file(
            "check.star",
            "load(\"@ytt:data\", \"data\")\nload(\"@ytt:assert\", \"assert\")\nif data.values.tag == \"\":\n  assert.fail(\"tag must be set\")\nend\n",
        )
        .file("a.yml", "a: 1\n")
        .run(&["-f", "."]);
    assert!(out.err().contains("tag must be set"), "{}", out.stderr);
}
