//! Plain YAML files parsed on another core while the templates run
//! (`workspace::deferred`): a run with 32 KiB or more of YAML templates without a `#@`
//! comment must give what a serial run gives — the same documents, and when any of the
//! run's YAML files does not parse, the first such error in file order, whatever the
//! templates did meanwhile, with nothing they printed. And templates compiled on another
//! core ahead of their turn (`workspace::compile::Ahead`, at the end) must read as when
//! compiled in turn.

mod common;

use common::Ytt;

/// A plain YAML stream of `n` documents (about 150 bytes each) with anchors, aliases,
/// merge keys and comments.
fn plain_stream(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!(
            "# object {i}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-{i}\n  labels: &l{i}\n    app: a{i}\ndata:\n  <<: *l{i}\n  copy: *l{i}\n"
        ));
    }
    s
}

/// What [`plain_stream`]'s documents render to, each with `namespace` set when given.
fn rendered_stream(n: usize, namespace: Option<&str>) -> String {
    (0..n)
        .map(|i| {
            let ns = namespace.map_or(String::new(), |ns| format!("  namespace: {ns}\n"));
            format!(
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-{i}\n  labels:\n    app: a{i}\n{ns}data:\n  app: a{i}\n  copy:\n    app: a{i}\n"
            )
        })
        .collect::<Vec<_>>()
        .join("---\n")
}

const OVERLAY: &str = r#"#@ load("@ytt:overlay", "overlay")
#@ load("@ytt:data", "data")
#@overlay/match by=overlay.subset({"kind": "ConfigMap"}), expects="1+"
---
metadata:
  #@overlay/match missing_ok=True
  namespace: #@ data.values.ns
"#;

const SCHEMA: &str = "#@data/values-schema\n---\nns: default\n";

#[test]
fn plain_files_parsed_meanwhile_render_as_they_read() {
    let n = 400;
    let out = Ytt::new()
        .file("a-schema.yml", SCHEMA)
        .file("b-big.yml", &plain_stream(n))
        .file("c-overlay.yml", OVERLAY)
        .file("d-small.yml", "small: 1\n")
        .file("e-big.yml", &plain_stream(n))
        .run(&["-f", ".", "-v", "ns=team"]);
    let big = rendered_stream(n, Some("team"));
    assert_eq!(out.ok(), format!("{big}---\nsmall: 1\n---\n{big}"));
}

/// A file parsed meanwhile that comes first in evaluation order is waited for at once.
#[test]
fn a_plain_file_before_every_template_is_there_when_reached() {
    let n = 300;
    let out = Ytt::new()
        .file("0-big.yml", &plain_stream(n))
        .file("1-tpl.yml", "#@ x = 1\nx: #@ x\n")
        .run(&["-f", "."]);
    assert_eq!(out.ok(), format!("{}---\nx: 1\n", rendered_stream(n, None)));
}

/// In an inspection, the files parsed meanwhile are only checked for errors.
#[test]
fn inspections_report_the_errors_of_files_parsed_meanwhile() {
    let broken = format!("{}key: [unclosed\n", plain_stream(300));
    let y = Ytt::new()
        .file("schema.yml", SCHEMA)
        .file("big.yml", &plain_stream(300))
        .file("broken.yml", &broken);
    let values = Ytt::new()
        .file("schema.yml", SCHEMA)
        .file("big.yml", &plain_stream(300))
        .run(&["-f", ".", "--data-values-inspect"]);
    assert_eq!(values.ok(), "ns: default\n");
    for flags in [
        &["--data-values-inspect"][..],
        &["--data-values-schema-inspect", "-o", "openapi-v3"][..],
    ] {
        let args: Vec<&str> = ["-f", "."].iter().chain(flags).copied().collect();
        let err = y.run(&args);
        assert!(
            err.err()
                .contains("Unmarshaling YAML template 'broken.yml'"),
            "{flags:?}: {}",
            err.stderr
        );
    }
}

/// The YAML error of a file parsed meanwhile comes before every evaluation's error, and
/// before a YAML error of a file after it; what templates printed before it is dropped.
#[test]
fn yaml_errors_of_files_parsed_meanwhile_come_first() {
    let broken = format!("{}key: [unclosed\n", plain_stream(300));
    let lines = broken.lines().count();
    let yaml_error = |name: &str, err: &str| {
        assert!(
            err.starts_with(&format!(
                "ytt: Error: \nUnmarshaling YAML template '{name}':"
            )) || err.contains(&format!("Unmarshaling YAML template '{name}'")),
            "{err}"
        );
        assert!(!err.contains("printed"), "{err}");
        assert!(!err.contains("boom"), "{err}");
    };
    let failing = "#@ print(\"printed\")\n#@ fail(\"boom\")\n---\na: 1\n";
    // the file with the error before and after a template that fails
    for (broken_name, failing_name) in [("a.yml", "b.yml"), ("b.yml", "a.yml")] {
        let out = Ytt::new()
            .file(broken_name, &broken)
            .file(failing_name, failing)
            .run(&["-f", "."]);
        yaml_error(broken_name, out.err());
        assert!(
            out.err().contains(&format!("line {lines}")),
            "{}",
            out.stderr
        );
    }
    // a schema that fails, data values that fail their schema
    let out = Ytt::new()
        .file(
            "a.yml",
            "#@data/values-schema\n---\n#@schema/validation min=5\nn: 1\n",
        )
        .file("b.yml", &broken)
        .run(&["-f", "."]);
    yaml_error("b.yml", out.err());
    // an annotated file's YAML error after it, and before it
    let annotated_broken = "#@ x = 1\n---\nkey: [unclosed\n";
    let out = Ytt::new()
        .file("a.yml", &broken)
        .file("b.yml", annotated_broken)
        .run(&["-f", "."]);
    yaml_error("a.yml", out.err());
    let out = Ytt::new()
        .file("a.yml", annotated_broken)
        .file("b.yml", &broken)
        .run(&["-f", "."]);
    yaml_error("a.yml", out.err());
    // a file no output wants
    let out = Ytt::new()
        .file("a.yml", failing)
        .file("b.yml", &broken)
        .file("c.yml", "c: 1\n")
        .run(&["-f", ".", "--file-mark", "c.yml:exclusive-for-output=true"]);
    yaml_error("b.yml", out.err());
}

/// What templates print and warn goes out in order when the files parsed meanwhile
/// parse, from templates before and after them, from a library and its functions.
#[test]
fn messages_go_out_when_the_files_parsed_meanwhile_parse() {
    let out = Ytt::new()
        .file("a.yml", "#@ print(\"first\")\n---\na: 1\n")
        .file("b.yml", &plain_stream(300))
        .file(
            "c.star",
            "print(\"library\")\ndef f():\n  print(\"called\")\n  return 1\nend\n",
        )
        .file(
            "d.yml",
            "#@ load(\"c.star\", \"f\")\n#@ print(\"last\")\n---\nd: #@ f()\n",
        )
        .run(&["-f", "."]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // (as the reference prints them: a load runs before the code of its file)
    assert_eq!(out.stderr, "first\nlibrary\nlibrary\nlast\ncalled\n");
    assert!(out.stdout.starts_with("a: 1\n---\n"), "{}", out.stdout);
    assert!(out.stdout.ends_with("---\nd: 1\n"), "{}", out.stdout);
}

/// Files parsed while the plain files parse meanwhile: a `.lib.yml` (with aliases, so it
/// spends the run's alias budget after them), a private library's.
#[test]
fn files_parsed_during_the_run_wait_their_turn() {
    let out = Ytt::new()
        .file("a.yml", &plain_stream(300))
        .file(
            "f.lib.yml",
            "#@ def f():\nbase: &b\n  k: v\ncopy: *b\n#@ end\n",
        )
        .file("_ytt_lib/l/t.yml", "#@ load(\"@ytt:data\", \"data\")\nl: #@ data.values.x\n")
        .file("_ytt_lib/l/v.yml", "#@data/values\n---\nx: &x 5\n")
        .file(
            "z.yml",
            "#@ load(\"f.lib.yml\", \"f\")\n#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n---\nf: #@ f()\n--- #@ template.replace(library.get(\"l\").eval())\n",
        )
        .run(&["-f", "."]);
    assert_eq!(
        out.ok(),
        format!(
            "{}---\nf:\n  base:\n    k: v\n  copy:\n    k: v\n---\nl: 5\n",
            rendered_stream(300, None)
        )
    );
}

// Templates compiled ahead (`workspace::compile::Ahead`): when a run evaluates two YAML
// templates or more, they are compiled, and their code parsed, on the second core while
// the templates before them run; each is reported as if compiled when its turn came.

/// The error a run of `bad` alone reports, and a run of it after two good templates
/// (compiled ahead with it) reports the same, after their prints.
#[test]
fn errors_of_templates_compiled_ahead_read_as_when_compiled_in_turn() {
    let good = "#@ print(\"good\")\n---\nok: #@ 1 + 1\n";
    for bad in [
        // a compile error (the template's structure)
        "#@ if True:\na: 1\n",
        // Starlark's syntax error
        "#@ x = (\n---\na: 1\n",
        // a name not defined, an error when run
        "---\na: #@ nothing\n",
        // a fail() deep in a function
        "#@ def f():\n#@   fail(\"deep\")\n#@ end\n---\na: #@ f()\n",
    ] {
        let alone = Ytt::new().file("c.yml", bad).run(&["-f", "."]);
        let after = Ytt::new()
            .file("a.yml", good)
            .file("b.yml", good)
            .file("c.yml", bad)
            .run(&["-f", "."]);
        assert_eq!(after.err(), format!("good\ngood\n{}", alone.err()), "{bad}");
    }
}

/// Templates compiled ahead render as when compiled in turn: loads, data values,
/// functions, a library file run for its effects between them, text templating.
#[test]
fn templates_compiled_ahead_render_as_in_turn() {
    let out = Ytt::new()
        .file("values.yml", "#@data/values\n---\ncount: 3\nname: x\n")
        .file("a.yml", "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"h.star\", \"twice\")\n---\na: #@ twice(data.values.count)\n")
        .file("b.star", "print(\"effects\")\n")
        .file("b.yml", "#@ load(\"@ytt:data\", \"data\")\n#@yaml/text-templated-strings\n---\nb: \"(@= data.values.name @)-(@= str(data.values.count) @)\"\n")
        .file("c.yml", "#@ for i in range(2):\n---\nc: #@ i\n#@ end\n")
        .file("h.star", "def twice(x):\n  return 2 * x\nend\n")
        .run(&["-f", "."]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "effects\n");
    assert_eq!(out.stdout, "a: 6\n---\nb: x-3\n---\nc: 0\n---\nc: 1\n");
}
