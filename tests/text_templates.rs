//! End-to-end tests of text templates (`.txt`): code, output, whitespace
//! trimming, defs returning strings, and their errors. Text output is only
//! written with `--output-files DIR`.

mod common;

use common::{Out, Ytt};

/// Renders `tpl.txt` into `out/` and returns the run and the written text.
fn render(text: &str) -> (Out, Option<String>) {
    let y = Ytt::new().file("tpl.txt", text);
    let out = y.run(&["-f", "tpl.txt", "--output-files", "out"]);
    let written = std::fs::read_to_string(y.path().join("out/tpl.txt")).ok();
    (out, written)
}

#[track_caller]
fn render_ok(text: &str) -> String {
    let (out, written) = render(text);
    assert_eq!(out.ok(), "creating: out/tpl.txt\n");
    written.expect("out/tpl.txt written")
}

#[test]
fn text_without_code_is_copied() {
    assert_eq!(
        render_ok("just text\nsecond line\n"),
        "just text\nsecond line\n"
    );
}

#[test]
fn code_and_output_blocks() {
    let text = "(@ name = \"web\" @)\
                app: (@= name @)\n\
                upper: (@= name.upper() @)\n\
                count: (@= str(len(name) * 2) @)\n";
    assert_eq!(render_ok(text), "app: web\nupper: WEB\ncount: 6\n");
}

#[test]
fn for_and_if_blocks() {
    let text = "(@ for i in range(4): @)\
                (@ if i % 2 == 0: @)even (@= str(i) @)\n\
                (@ else: @)odd (@= str(i) @)\n\
                (@ end @)\
                (@ end @)\
                done\n";
    assert_eq!(render_ok(text), "even 0\nodd 1\neven 2\nodd 3\ndone\n");
}

#[test]
fn whitespace_trimming_markers() {
    // `(@-` trims whitespace before the block, `-@)` trims whitespace after.
    assert_eq!(render_ok("(@--@)\n\ncon (@--@) tent\n\n(@--@)"), "content");
    let text = "list:\n\
                (@ for i in [1, 2, 3]: -@)\n\
                \x20 - (@= str(i) @)\n\
                (@ end -@)\n\
                end\n";
    assert_eq!(render_ok(text), "list:\n- 1\n- 2\n- 3\nend\n");
    let text = "list:\n\
                (@ for i in [1, 2, 3]: -@)\n\
                \x20 - (@= str(i) @)\n\
                (@- end @)\n\
                end\n";
    assert_eq!(render_ok(text), "list:\n- 1- 2- 3\nend\n");
    // Without trimming every line break stays.
    assert_eq!(render_ok("a\n(@ x = 1 @)\nb\n"), "a\n\nb\n");
    assert_eq!(render_ok("a   (@-= \"b\" -@)   c\n"), "abc\n");
}

#[test]
fn defs_return_rendered_strings() {
    let text = "(@ def lines(n): @)\n\
                (@- for i in range(n): -@)\n\
                line(@= str(i) @)\n\
                (@ end -@)\n\
                (@ end @)\n\
                (@- def greet(who): -@)\n\
                hello (@= who @)\n\
                (@- end -@)\n\
                before\n(@= lines(3) @)after\n\
                [(@= greet(\"x\") @)] [(@= greet(\"y\").upper() @)]\n\
                type=(@= type(lines(1)) @)\n";
    assert_eq!(
        render_ok(text),
        "before\nline0\nline1\nline2\nafter\n[hello x] [HELLO Y]\ntype=string\n"
    );
}

#[test]
fn text_output_not_on_stdout_but_warns() {
    let y = Ytt::new()
        .file("a.txt", "hello (@= \"text\" @)\n")
        .file("b.yml", "k: #@ \"yaml\"\n");
    let out = y.run(&["-f", "a.txt", "-f", "b.yml"]);
    assert_eq!(out.code, 0);
    assert_eq!(out.stdout, "k: yaml\n");
    assert_eq!(
        out.stderr,
        "\nWarning: Found Non-YAML templates in input. Non-YAML templates are not rendered to standard output.\n\
         If you want to include those results, use the --output-files or --dangerous-emptied-output-directory flag.\n"
    );
}

#[test]
fn output_files_writes_text_and_yaml() {
    let y = Ytt::new()
        .file("in/a.txt", "hello (@= \"text\" @)\n")
        .file("in/sub/b.yml", "k: #@ \"yaml\"\n");
    let out = y.run(&["-f", "in", "--output-files", "out"]);
    insta::assert_snapshot!("output_files_stdout", out.ok());
    assert_eq!(y.list("out"), vec!["a.txt", "sub/b.yml"]);
    assert_eq!(y.read("out/a.txt"), "hello text\n");
    assert_eq!(y.read("out/sub/b.yml"), "k: yaml\n");
}

#[test]
fn literal_text_with_yaml_like_content_is_untouched() {
    // Text templates are not YAML: `#` and `#@` have no meaning there.
    let text = "# comment\n#@ not code\nkey: (@= \"v\" @)\n";
    assert_eq!(render_ok(text), "# comment\n#@ not code\nkey: v\n");
}

#[test]
fn non_string_value_is_an_error() {
    let (out, written) = render("(@= 1 @)");
    assert_eq!(
        out.err(),
        "ytt: Error: Evaluating text template: \n\
         - __ytt_tpl2_set_node: cannot set non-string value (int64), consider using str(...) to convert to string\n\
         \x20   in <toplevel>\n\
         \x20     tpl.txt:1 | = 1 \n"
    );
    assert_eq!(written, None);
}

#[test]
fn non_string_value_inside_def_reports_both_frames() {
    let (out, _) = render(
        "(@ def lines(x): @)\n\
         (@- for i in range(0,x): -@)\n\
         line(@= i @)\n\
         (@ end -@)\n\
         (@ end @)\n\
         \n\
         (@ lines(5) @)\n",
    );
    assert_eq!(
        out.err(),
        "ytt: Error: Evaluating text template: \n\
         - __ytt_tpl2_set_node: cannot set non-string value (int64), consider using str(...) to convert to string\n\
         \x20   in lines\n\
         \x20     tpl.txt:3 | = i \n\
         \x20   in <toplevel>\n\
         \x20     tpl.txt:7 |  lines(5) \n"
    );
}

#[test]
fn unclosed_code_is_an_error() {
    let (out, written) = render("\ntest(@ a = 5");
    let err = out.err();
    assert!(
        err.starts_with("ytt: Error: Parsing text template 'tpl.txt':\n  Missing code closing '@"),
        "{err}"
    );
    assert_eq!(written, None);
}

#[test]
fn unexpected_closing_is_an_error() {
    let (out, _) = render("(@= \"@)\" @)");
    let err = out.err();
    assert!(
        err.starts_with(
            "ytt: Error: Parsing text template 'tpl.txt':\n  Unexpected code closing '@"
        ),
        "{err}"
    );
}

#[test]
fn undefined_variable_in_text_template() {
    let (out, _) = render("a\nb(@= str(missing) @)\n");
    assert_eq!(
        out.err(),
        "ytt: Error: Evaluating text template: \n\
         - undefined: missing\n\
         \x20   tpl.txt:2 | = str(missing) \n"
    );
}

/// A text function whose chunks are all skipped returns an empty string (not None).
#[test]
fn a_function_whose_chunks_are_all_skipped_returns_an_empty_string() {
    assert_eq!(
        render_ok("(@ def t(): @)(@ if False: @)x(@ end @)(@ end @)[(@= t() @)]\n"),
        "[]\n"
    );
}
