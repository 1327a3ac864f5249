//! Failures of a run as values (`ytt::diagnostic::Diagnostic`): which step failed and
//! where, found where the step failed and kept while the steps around it add their
//! lines to the report.

use ytt::diagnostic::{Diagnostic, Kind};
use ytt::files::InputFile;
use ytt::workspace::{render, RenderOptions};

fn failure(files: &[(&str, &[u8])]) -> Diagnostic {
    let inputs = files
        .iter()
        .map(|(name, bytes)| InputFile::new(*name, bytes.to_vec()))
        .collect();
    let opts = RenderOptions {
        modules: ytt_stdlib::modules(),
        ..RenderOptions::default()
    };
    match render(opts, inputs) {
        Ok(_) => panic!("the run should fail"),
        Err(d) => d,
    }
}

/// The kind, and the location as `file:line` (`-` for none).
fn located(files: &[(&str, &str)]) -> (Kind, String) {
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, t)| (*n, t.as_bytes())).collect();
    let d = failure(&files);
    let at = d.location().map_or("-".to_owned(), |l| l.to_string());
    (d.kind(), at)
}

const OVERLAY: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n";
const LIBRARY: &str = "#@ load(\"@ytt:library\", \"library\")\n\
                       #@ load(\"@ytt:template\", \"template\")\n";

#[test]
fn yaml_syntax_is_located_with_its_column() {
    let d = failure(&[("a.yml", b"a: 1\nb: @x\n")]);
    assert_eq!(d.kind(), Kind::Yaml);
    let at = d.location().expect("located");
    assert_eq!((at.to_string(), at.column), ("a.yml:2".to_owned(), Some(4)));
    assert_eq!(
        d.text(),
        "Unmarshaling YAML template 'a.yml': yaml: line 2: found character that cannot start any token"
    );
    // in a file of a library, loaded by a template
    let lib = format!("{LIBRARY}--- #@ template.replace(library.get(\"l\").eval())\n");
    assert_eq!(
        located(&[("m.yml", &lib), ("_ytt_lib/l/t.yml", "a: [\n")]).0,
        Kind::Yaml
    );
}

#[test]
fn yaml_that_is_not_utf8_is_a_yaml_error() {
    let d = failure(&[("a.yml", b"a: \xff\n")]);
    assert_eq!(
        (d.kind(), d.text()),
        (
            Kind::Yaml,
            "Unmarshaling YAML template 'a.yml': yaml: invalid leading UTF-8 octet"
        )
    );
    assert_eq!(
        d.location().map(|l| l.to_string()).as_deref(),
        Some("a.yml")
    );
}

#[test]
fn a_template_that_does_not_compile_is_located_on_its_line() {
    for (src, line) in [
        ("a: 1\n#@ if True:\nb: 2\n", 2),
        ("a: 1\nb: #@ 1 +\n", 2),
        ("a: 1\nb: #@ undefined_name\n", 2),
    ] {
        assert_eq!(
            located(&[("a.yml", src)]),
            (Kind::Template, format!("a.yml:{line}")),
            "{src:?}"
        );
    }
}

#[test]
fn an_evaluation_error_is_located_on_the_innermost_template_line() {
    let def = "#@ def f():\n#@   return 1 + \"a\"\n#@ end\na: #@ f()\n";
    assert_eq!(
        located(&[("a.yml", def)]),
        (Kind::Evaluation, "a.yml:2".into())
    );
    let fail = "#@ load(\"@ytt:assert\", \"assert\")\na: #@ assert.fail(\"boom\")\n";
    assert_eq!(
        located(&[("a.yml", fail)]),
        (Kind::Evaluation, "a.yml:2".into())
    );
    // in a Starlark file a template loads, in a text template
    let star = [
        ("f.star", "x = 1\ny = x + \"a\"\n"),
        ("a.yml", "#@ load(\"f.star\", \"y\")\na: #@ y\n"),
    ];
    assert_eq!(located(&star), (Kind::Evaluation, "f.star:2".into()));
    assert_eq!(
        located(&[("t.txt", "ok\n(@= 1 + \"a\" @)\n")]),
        (Kind::Evaluation, "t.txt:2".into())
    );
    // in a library's template
    let lib = format!("{LIBRARY}--- #@ template.replace(library.get(\"l\").eval())\n");
    let in_lib = [
        ("m.yml", lib.as_str()),
        ("_ytt_lib/l/t.yml", "a: 1\nb: #@ [1][5]\n"),
    ];
    assert_eq!(
        located(&in_lib),
        (Kind::Evaluation, "_ytt_lib/l/t.yml:2".into())
    );
}

#[test]
fn an_overlay_that_does_not_apply_is_located_on_the_innermost_overlay_node() {
    let overlay = format!(
        "{OVERLAY}#@overlay/match by=overlay.all\n---\nb:\n  #@overlay/match missing_ok=False\n  c: 1\n"
    );
    let d = failure(&[("a.yml", b"a: 1\n"), ("o.yml", overlay.as_bytes())]);
    assert_eq!(d.kind(), Kind::Overlay);
    assert_eq!(
        d.location().map(|l| l.to_string()).as_deref(),
        Some("o.yml:4")
    );
    assert!(d
        .text()
        .starts_with("Overlaying (in following order: o.yml):\n"));
    // applied from code
    let apply = format!(
        "{OVERLAY}#@ def base():\na: 1\n#@ end\n#@ def edit():\n#@overlay/match missing_ok=False\nc: 3\n#@ end\nr: #@ overlay.apply(base(), edit())\n"
    );
    assert_eq!(
        located(&[("a.yml", &apply)]),
        (Kind::Overlay, "a.yml:7".into())
    );
    // on data values: a document that matches nothing in the values so far
    let values = [
        ("v.yml", "#@data/values\n---\na: 1\n"),
        ("w.yml", "#@data/values\n---\nb: 2\n"),
    ];
    assert_eq!(located(&values), (Kind::Overlay, "w.yml:3".into()));
}

#[test]
fn schema_and_validation_failures_are_located_on_the_value() {
    let schema = "#@data/values-schema\n---\nport: 80\n";
    let values = [
        ("s.yml", schema),
        ("v.yml", "#@data/values\n---\nport: \"x\"\n"),
    ];
    assert_eq!(located(&values), (Kind::Schema, "v.yml:3".into()));
    let rule = "#@data/values-schema\n---\n#@schema/validation min=10\nport: 80\n";
    let values = [("s.yml", rule), ("v.yml", "#@data/values\n---\nport: 5\n")];
    assert_eq!(located(&values), (Kind::Validation, "v.yml:3".into()));
    // a rule on an output document
    let output = "#@assert/validate (\"small\", lambda v: v < 3)\na: 5\n";
    assert_eq!(
        located(&[("a.yml", output)]),
        (Kind::Validation, "a.yml:2".into())
    );
    // a malformed schema
    let bad = "#@data/values-schema\n---\n#@schema/type any=1\nport: 80\n";
    assert_eq!(located(&[("s.yml", bad)]).0, Kind::Schema);
    // data values a library is given in code: calculated, so located on the call
    let lib = format!(
        "{LIBRARY}--- #@ template.replace(library.get(\"l\").with_data_values({{\"port\": \"x\"}}).eval())\n"
    );
    let in_lib = [
        ("m.yml", lib.as_str()),
        ("_ytt_lib/l/s.yml", schema),
        ("_ytt_lib/l/t.yml", "p: 1\n"),
    ];
    assert_eq!(located(&in_lib), (Kind::Schema, "m.yml:3".into()));
}

#[test]
fn a_failure_no_step_claims_is_other_and_its_text_is_unchanged() {
    let lib = format!("{LIBRARY}--- #@ template.replace(library.get(\"missing\").eval())\n");
    let d = failure(&[("m.yml", lib.as_bytes())]);
    // the call that failed is the innermost template line
    assert_eq!(d.kind(), Kind::Evaluation);
    assert!(d
        .text()
        .starts_with("\n- library.get: Could not find private library"));
    let bad_ref = "#@library/ref \"@\"\n#@data/values\n---\na: 1\n";
    let (kind, _) = located(&[("v.yml", bad_ref)]);
    assert_eq!(kind, Kind::Other);
}

#[test]
fn an_evaluation_error_lists_the_lines_it_went_through() {
    let def = "#@ def f():\n#@   return 1 + \"a\"\n#@ end\na: #@ f()\n";
    let d = failure(&[("a.yml", def.as_bytes())]);
    let frames: Vec<(&str, String, &str)> = (d.frames().iter())
        .map(|f| {
            (
                f.function.as_str(),
                f.location.to_string(),
                f.source.as_str(),
            )
        })
        .collect();
    assert_eq!(
        frames,
        [
            ("f", "a.yml:2".to_owned(), "#@   return 1 + \"a\""),
            ("<toplevel>", "a.yml:4".to_owned(), "a: #@ f()"),
        ]
    );
    // through a library's run: the library's lines, then the caller's
    let lib = format!("{LIBRARY}--- #@ template.replace(library.get(\"l\").eval())\n");
    let d = failure(&[
        ("m.yml", lib.as_bytes()),
        ("_ytt_lib/l/t.yml", b"a: 1\nb: #@ [1][5]\n"),
    ]);
    let at: Vec<String> = d.frames().iter().map(|f| f.location.to_string()).collect();
    assert_eq!(at, ["_ytt_lib/l/t.yml:2", "m.yml:3"]);
    // a failure of no template line has none
    assert!(failure(&[("a.yml", b"a: [\n")]).frames().is_empty());
}

#[test]
fn a_validation_failure_lists_each_value_with_its_rule() {
    let schema = "#@data/values-schema\n---\n\
                  #@schema/validation min=10\n\
                  port: 80\n\
                  #@schema/validation (\"short\", lambda v: len(v) < 3, \"too long\")\n\
                  name: \"\"\n\
                  #@schema/validation min_len=2, warn=True\n\
                  tag: \"\"\n";
    let values = "#@data/values\n---\nport: 5\nname: abcd\ntag: x\n";
    let d = failure(&[("s.yml", schema.as_bytes()), ("v.yml", values.as_bytes())]);
    let got: Vec<_> = (d.violations().iter())
        .map(|v| {
            let at = |l: &Option<ytt::yaml::Location>| l.as_ref().map(|l| l.to_string());
            (
                v.path.as_str(),
                v.message.as_str(),
                at(&v.value),
                at(&v.rule),
                v.warning,
            )
        })
        .collect();
    let s = |x: &str| Some(x.to_owned());
    assert_eq!(
        got,
        [
            ("port", "a value >= 10", s("v.yml:3"), s("s.yml:3"), false),
            ("name", "too long", s("v.yml:4"), s("s.yml:5"), false),
            ("tag", "length >= 2", s("v.yml:5"), s("s.yml:7"), true),
        ]
    );
    assert_eq!(d.violations()[0].found.as_deref(), Some("value < 10"));
}

/// The embedder's allocator raises the budget's flag (here: another thread, while the
/// code loops): the evaluation stops at its next step, an evaluation error with the
/// budget's message, located on the loop and listing the lines it went through. Raised
/// before a template runs, the run stops there, unlocated (no line of it is to blame).
#[test]
fn a_run_past_the_memory_budget_stops_where_its_code_is() {
    static PASSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let budget = ytt::MemoryBudget {
        limit: 1 << 30,
        passed: &PASSED,
        message: "past the budget",
    };
    let run = || {
        let opts = RenderOptions {
            memory_budget: Some(budget),
            ..RenderOptions::default()
        };
        let tpl =
            "#@ def spin():\n#@   while True:\n#@     x = 1\n#@   end\n#@ end\na: #@ spin()\n";
        render(opts, vec![InputFile::new("t.yml", tpl.as_bytes().to_vec())]).expect_err("stopped")
    };
    let raise = std::thread::spawn(|| {
        std::thread::sleep(std::time::Duration::from_millis(50));
        PASSED.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let d = run();
    raise.join().expect("raised");
    assert_eq!(d.kind(), Kind::Evaluation);
    assert_eq!(d.location().map(|l| l.to_string()), Some("t.yml:2".into()));
    assert_eq!(
        d.text(),
        "\n- past the budget\n    in spin\n      t.yml:2 | #@   while True:\n    in <toplevel>\n      t.yml:6 | a: #@ spin()"
    );
    let d = run();
    assert_eq!(
        (d.kind(), d.location(), d.text()),
        (Kind::Other, None, "past the budget")
    );
}
