//! End-to-end tests of data values: `@data/values` documents, every
//! command-line source, their precedence, and `--data-values-inspect`.

mod common;

use common::Ytt;

const VALUES: &str = "#@data/values\n\
                      ---\n\
                      app: web\n\
                      replicas: 1\n\
                      tags:\n\
                      - base\n\
                      nested:\n\
                      \x20 port: 80\n";

const TPL: &str = "#@ load(\"@ytt:data\", \"data\")\nvalues: #@ data.values\n";

/// A project with the base data values and a template printing them all.
fn project() -> Ytt {
    Ytt::new().file("values.yml", VALUES).file("tpl.yml", TPL)
}

/// Runs `-f values.yml -f tpl.yml` plus extra args.
fn run(y: &Ytt, extra: &[&str]) -> String {
    let mut args = vec!["-f", "values.yml", "-f", "tpl.yml"];
    args.extend_from_slice(extra);
    y.run(&args).ok().to_string()
}

/// Runs with only `a: 0` as base data values and returns the final `a`.
fn final_a(y: Ytt, extra: &[&str]) -> String {
    let y = y.file("base.yml", "#@data/values\n---\na: 0\n").file(
        "a.yml",
        "#@ load(\"@ytt:data\", \"data\")\na: #@ data.values.a\n",
    );
    let mut args = vec!["-f", "base.yml", "-f", "a.yml"];
    args.extend_from_slice(extra);
    y.run(&args).ok().to_string()
}

#[test]
fn data_values_documents_used_in_templates() {
    let y = Ytt::new().file("values.yml", VALUES).file(
        "tpl.yml",
        "#@ load(\"@ytt:data\", \"data\")\n\
         name: #@ data.values.app\n\
         port: #@ data.values.nested.port + 1\n\
         first_tag: #@ data.values.tags[0]\n\
         by_index: #@ data.values[\"replicas\"]\n\
         type: #@ type(data.values)\n",
    );
    let out = y.run(&["-f", "."]);
    assert_eq!(
        out.ok(),
        "name: web\nport: 81\nfirst_tag: base\nby_index: 1\ntype: struct\n"
    );
}

#[test]
fn data_values_overlay_documents() {
    let y = project().file(
        "over.yml",
        "#@data/values\n\
         ---\n\
         replicas: 2\n\
         tags:\n\
         - extra\n\
         nested:\n\
         \x20 #@overlay/remove\n\
         \x20 port: 0\n\
         #@overlay/match missing_ok=True\n\
         region: #@ \"eu-\" + \"west\"\n",
    );
    let out = y.run(&["-f", "values.yml", "-f", "over.yml", "-f", "tpl.yml"]);
    insta::assert_snapshot!("dv_overlay_documents", out.ok());
}

#[test]
fn data_values_overlay_new_key_needs_missing_ok() {
    let y = project().file("over.yml", "#@data/values\n---\nregion: eu\n");
    let out = y.run(&["-f", "values.yml", "-f", "over.yml", "-f", "tpl.yml"]);
    let err = out.err();
    assert!(
        err.starts_with(
            "ytt: Error: Overlaying data values (in following order: values.yml, over.yml):\n"
        ),
        "{err}"
    );
    assert!(
        err.contains("Expected number of matched nodes to be 1, but was 0"),
        "{err}"
    );
}

#[test]
fn data_values_files_are_not_output() {
    let y = Ytt::new().file("values.yml", VALUES);
    assert_eq!(y.run(&["-f", "values.yml"]).ok(), "");
}

#[test]
fn no_data_values_gives_empty_struct() {
    let y = Ytt::new().file("tpl.yml", TPL);
    let out = y.run(&["-f", "tpl.yml"]);
    assert_eq!(out.ok(), "values: {}\n");
}

#[test]
fn data_value_string_flag() {
    let y = project();
    let out = run(
        &y,
        &[
            "-v",
            "replicas=5",
            "-v",
            "nested.port=8080",
            "-v",
            "app=a=b",
        ],
    );
    insta::assert_snapshot!("dv_flag_string", out);
}

#[test]
fn data_value_flag_creates_missing_keys() {
    let y = project();
    let out = run(&y, &["-v", "new.deep.key=x"]);
    assert!(out.ends_with("  new:\n    deep:\n      key: x\n"), "{out}");
}

#[test]
fn data_value_yaml_flag() {
    let y = project();
    let out = run(
        &y,
        &[
            "--data-value-yaml",
            "replicas=5",
            "--data-value-yaml",
            "tags=[a, b]",
            "--data-value-yaml",
            "nested={port: 1, tls: true}",
        ],
    );
    insta::assert_snapshot!("dv_flag_yaml", out);
}

#[test]
fn data_value_file_flag_reads_string() {
    let y = project().file("cert.pem", "-----BEGIN-----\nabc\n");
    let out = run(&y, &["--data-value-file", "nested.cert=cert.pem"]);
    insta::assert_snapshot!("dv_flag_value_file", out);
}

#[test]
fn data_values_file_flag_plain_yaml() {
    let y = project().file(
        "vals/a.yml",
        "# plain comments are fine here\n\
         replicas: 3\n\
         tags: [x]\n\
         new: key\n\
         ---\n\
         nested:\n\
         \x20 port: 9\n",
    );
    let out = run(&y, &["--data-values-file", "vals/a.yml"]);
    insta::assert_snapshot!("dv_values_file", out);
}

/// A directory given to `--data-values-file` stands for every file directly in it (as
/// the reference takes them: a non-YAML file there is read as YAML) and the YAML files
/// of its subdirectories; `tests/cases/inspect/values-file-directory*` pin the same rule.
#[test]
fn data_values_file_flag_directory_takes_its_files_and_yaml_below() {
    let y = project()
        .file("vals/1.yml", "replicas: 3\n")
        .file("vals/2.yaml", "replicas: 4\napp: api\n")
        .file("vals/sub/notes.toml", "[foo]\nbar = 1\n")
        .file("vals/sub/3.yml", "replicas: 5\n");
    let out = run(&y, &["--data-values-file", "vals"]);
    assert!(
        out.starts_with("values:\n  app: api\n  replicas: 5\n"),
        "{out}"
    );
}

#[test]
fn data_values_file_flag_from_stdin() {
    let y = project().stdin("replicas: 9\nnested:\n  port: 1\n");
    let out = run(&y, &["--data-values-file", "-"]);
    assert!(
        out.starts_with("values:\n  app: web\n  replicas: 9\n"),
        "{out}"
    );
    assert!(out.ends_with("  nested:\n    port: 1\n"), "{out}");
}

#[test]
fn data_values_file_flag_rejects_templates() {
    let y = project().file("vals.yml", "#@ x = 1\nreplicas: 3\n");
    let out = y.run(&[
        "-f",
        "values.yml",
        "-f",
        "tpl.yml",
        "--data-values-file",
        "vals.yml",
    ]);
    assert_eq!(
        out.err(),
        "ytt: Error: Extracting data value from file:\n\
         \x20 Checking data values file 'vals.yml':\n\
         \x20   Expected to be plain YAML, having no annotations (hint: remove comments starting with `#@`)\n"
    );
}

#[test]
fn data_values_env_strings_and_yaml() {
    let y = project()
        .env("DV_replicas", "5")
        .env("DV_nested__port", "8080")
        .env("OTHER_replicas", "7");
    let out = run(&y, &["--data-values-env", "DV"]);
    insta::assert_snapshot!("dv_env", out);
    let out = run(&y, &["--data-values-env-yaml", "DV"]);
    insta::assert_snapshot!("dv_env_yaml", out);
}

/// Rule (measured): a value of `--data-values-env-yaml` that is not YAML is an error
/// naming the flag's prefix (as given, library and all) and the variable.
#[test]
fn data_values_env_yaml_errors_name_the_variable() {
    for (spec, value, message) in [
        (
            "DV",
            "[",
            "yaml: line 1: did not find expected node content",
        ),
        (
            "@lib:DV",
            "a: b: c",
            "yaml: line 1: mapping values are not allowed in this context",
        ),
        ("DV", "x\u{1}", "yaml: control characters are not allowed"),
    ] {
        let out = Ytt::new()
            .file("t.yml", "a: 1\n")
            .env("DV_port", value)
            .run(&["-f", "t.yml", "--data-values-env-yaml", spec]);
        assert_eq!(
            out.err(),
            format!(
                "ytt: Error: Extracting data values from env under prefix '{spec}':\n  \
                 Extracting data value from env variable 'DV_port':\n    \
                 Deserializing YAML value: {message}\n"
            ),
            "{value:?}"
        );
    }
}

#[test]
fn precedence_is_by_flag_kind_not_position() {
    // Observed in the reference: --data-value-yaml beats -v whatever the order.
    assert_eq!(
        final_a(
            Ytt::new(),
            &["--data-value-yaml", "a=2", "-v", "a=3", "-v", "a=1"]
        ),
        "a: 2\n"
    );
    // Within one kind, the last one wins.
    assert_eq!(
        final_a(Ytt::new(), &["-v", "a=3", "-v", "a=1"]),
        "a: \"1\"\n"
    );
}

#[test]
fn precedence_files_env_envyaml_kv_yaml_file() {
    // Lowest to highest: --data-values-file, --data-values-env,
    // --data-values-env-yaml, -v, --data-value-yaml, --data-value-file.
    let all = |y: Ytt, skip: usize| {
        let flags: Vec<Vec<&str>> = vec![
            vec!["--data-value-file", "a=a.txt"],
            vec!["--data-value-yaml", "a=5"],
            vec!["-v", "a=four"],
            vec!["--data-values-env-yaml", "EY"],
            vec!["--data-values-env", "ES"],
            vec!["--data-values-file", "f.yml"],
        ];
        // Put the flags on the command line highest-first, leaving out the
        // `skip` highest ones.
        let args: Vec<&str> = flags[skip..].iter().flatten().copied().collect();
        final_a(
            y.file("a.txt", "from-file")
                .file("f.yml", "a: 1\n")
                .env("ES_a", "2")
                .env("EY_a", "3"),
            &args,
        )
    };
    assert_eq!(all(Ytt::new(), 0), "a: from-file\n");
    assert_eq!(all(Ytt::new(), 1), "a: 5\n");
    assert_eq!(all(Ytt::new(), 2), "a: four\n");
    assert_eq!(all(Ytt::new(), 3), "a: 3\n");
    assert_eq!(all(Ytt::new(), 4), "a: \"2\"\n");
    assert_eq!(all(Ytt::new(), 5), "a: 1\n");
    assert_eq!(all(Ytt::new(), 6), "a: 0\n");
}

#[test]
fn data_values_inspect_yaml_and_json() {
    let y = project().file(
        "over.yml",
        "#@data/values\n---\nreplicas: 2\n#@overlay/match missing_ok=True\nregion: eu\n",
    );
    let args = [
        "-f",
        "values.yml",
        "-f",
        "over.yml",
        "-f",
        "tpl.yml",
        "--data-values-inspect",
        "-v",
        "app=api",
    ];
    let out = y.run(&args);
    insta::assert_snapshot!("dv_inspect_yaml", out.ok());
    let mut json_args = args.to_vec();
    json_args.extend(["-o", "json"]);
    let out = y.run(&json_args);
    assert_eq!(
        out.ok(),
        "{\"app\":\"api\",\"nested\":{\"port\":80},\"region\":\"eu\",\"replicas\":2,\"tags\":[\"base\"]}"
    );
}

#[test]
fn data_values_inspect_without_values() {
    let y = Ytt::new().file("tpl.yml", TPL);
    let out = y.run(&["-f", "tpl.yml", "--data-values-inspect"]);
    // An empty document is never printed.
    assert_eq!(out.ok(), "");
}

#[test]
fn data_values_annotation_only_on_documents() {
    let y = Ytt::new().file("values.yml", "---\n#@data/values\na: 1\n");
    let out = y.run(&["-f", "values.yml"]);
    let err = out.err();
    assert!(
        err.contains("Found @data/values on map item (values.yml:3); only documents (---) can be annotated with @data/values"),
        "{err}"
    );
}

/// An error overlaying a data-values document names the document, then the items.
#[test]
fn overlay_errors_name_the_document() {
    let out = Ytt::new()
        .file(
            "v.yml",
            "#@data/values\n---\na: 1\n#@data/values\n---\nb:\n  c: 1\n",
        )
        .run(&["-f", "v.yml"]);
    assert_eq!(
        out.err(),
        "ytt: Error: Overlaying data values (in following order: v.yml):\n\
         \x20 Document on line v.yml:5:\n\
         \x20   Map item (key 'b') on line v.yml:6:\n\
         \x20     Expected number of matched nodes to be 1, but was 0\n"
    );
}

/// `-v a.b=x` is an overlay of nested maps on the flag's line: a key on the way that
/// holds no map is that overlay's mismatch.
#[test]
fn key_value_flags_through_a_non_map() {
    let y = Ytt::new().file("v.yml", "#@data/values\n---\nports:\n- 80\nname: x\n");
    for (flag, key, found) in [
        ("ports.port=1", "ports", "array"),
        ("name.first=1", "name", "string"),
    ] {
        let out = y.run(&["-f", "v.yml", "-v", flag]);
        assert_eq!(
            out.err(),
            format!(
                "ytt: Error: Overlaying data values (in following order: v.yml, additional data values):\n\
                 \x20 Document on line (data-value arg):1:\n\
                 \x20   Map item (key '{key}') on line (data-value arg):1:\n\
                 \x20     Expected map, but was {found}\n"
            )
        );
    }
}

/// An error evaluating a data-values file is reported within the data-values step.
#[test]
fn template_errors_in_a_data_values_file() {
    let out = Ytt::new()
        .file("a.yml", "#@data/values\n---\nx: 1\n")
        .file("b.yml", "#@data/values\n---\nk: 1\nk: #@ 2\n")
        .run(&["-f", "a.yml", "-f", "b.yml"]);
    assert_eq!(
        out.err(),
        "ytt: Error: Overlaying data values (in following order: a.yml, b.yml):\n\
         \x20 Templating file 'b.yml': \n\
         - __ytt_tpl3_start_node: expected key 'k' to not be specified again (unless 'yaml/map-key-override' annotation is added)\n\
         \x20   in <toplevel>\n\
         \x20     b.yml:4 | k: #@ 2\n"
    );
}

#[test]
fn undeclared_keys_are_listed_sorted() {
    let out = Ytt::new()
        .file(
            "s.yml",
            "#@data/values-schema\n---\nzeta: 1\nalpha: 2\nmid: 3\n",
        )
        .run(&["-f", "s.yml", "-v", "nope=1"]);
    assert!(
        out.err()
            .contains("= expected: one of { alpha, mid, zeta } (from s.yml:2)"),
        "{}",
        out.stderr
    );
}

/// Lists read from data values are the template's own: it may change them (`append`),
/// as in the reference, though data values are converted to Starlark once and shared.
#[test]
fn lists_read_from_data_values_can_be_changed() {
    let out = Ytt::new()
        .file(
            "v.yml",
            "#@data/values\n---\nnames: [a]\nnested:\n  lists: [[1]]\n",
        )
        .file(
            "t.yml",
            "#@ load(\"@ytt:data\", \"data\")\n\
             #@ def names():\n\
             #@   l = data.values.names\n\
             #@   l.append(\"b\")\n\
             #@   return l\n\
             #@ end\n\
             #@ inner = data.values.nested.lists[0]\n\
             #@ inner.append(2)\n\
             names: #@ names()\n\
             inner: #@ inner\n\
             again: #@ data.values[\"names\"]\n",
        )
        .run(&["-f", "v.yml", "-f", "t.yml"]);
    assert_eq!(
        out.ok(),
        "names:\n- a\n- b\ninner:\n- 1\n- 2\nagain:\n- a\n"
    );
}

/// Rule (measured): `--data-values-file` takes `-f`'s file arguments, `[@lib:][name=]path`:
/// the one file `path` names goes by `name` (in messages and in the `from:` of a report;
/// a directory's files keep their paths in it), a second `=` is an error under
/// `Find files`, and `name=-` names standard input. Real configurations pass process
/// substitution so (`sensitive.yml=<(sops -d …)`): a named pipe behind a link.
#[test]
fn data_values_files_may_be_renamed() {
    let y = Ytt::new()
        .file(
            "t.yml",
            "#@ load(\"@ytt:data\", \"data\")\na: #@ data.values.a\n",
        )
        .file(
            "schema.yml",
            "#@data/values-schema\n---\n#@schema/validation min=10\na: 20\n",
        )
        .file("values/prod.yml", "a: 1\n")
        .file("values/bad.yml", "a: [\n");
    let base = ["-f", "t.yml", "-f", "schema.yml", "--data-values-file"];
    let run = |arg: &str| y.run(&[&base[..], &[arg]].concat());
    assert!(run("sensitive.yml=values/prod.yml")
        .err()
        .contains("  a\n    from: sensitive.yml:1\n"));
    assert_eq!(
        run("n.yml=values/bad.yml").err(),
        "ytt: Error: Extracting data value from file:\n  Unmarshaling YAML data values file 'n.yml': yaml: line 1: did not find expected node content\n"
    );
    assert_eq!(
        run("n.yml=a=values/prod.yml").err(),
        "ytt: Error: Extracting data value from file:\n  Find files 'n.yml=a=values/prod.yml':\n    Expected file 'n.yml=a=values/prod.yml' to only have single '=' sign to for relative path assignment\n"
    );
    assert_eq!(
        run("n.yml=values/missing.yml").err(),
        "ytt: Error: Extracting data value from file:\n  Find files 'n.yml=values/missing.yml':\n    Checking file 'values/missing.yml': lstat values/missing.yml: no such file or directory\n"
    );
    // a directory's files keep their names; an empty name is none
    assert!(run("n.yml=values")
        .err()
        .contains("data values file 'bad.yml'"));
    assert!(run("=values/prod.yml").err().contains("from: prod.yml:1"));
    // standard input, named
    let out = Ytt::new()
        .file(
            "t.yml",
            "#@ load(\"@ytt:data\", \"data\")\na: #@ data.values.a\n",
        )
        .file("v.yml", "#@data/values\n---\na: 0\n")
        .stdin("a: [\n")
        .run(&[
            "-f",
            "t.yml",
            "-f",
            "v.yml",
            "--data-values-file",
            "in.yml=-",
        ]);
    assert!(out
        .err()
        .contains("Unmarshaling YAML data values file 'in.yml'"));
}

/// A renamed named pipe, as process substitution gives it (`name=<(cmd)`).
#[test]
fn a_renamed_data_values_file_may_be_a_pipe() {
    let y = Ytt::new()
        .file(
            "t.yml",
            "#@ load(\"@ytt:data\", \"data\")\na: #@ data.values.a\n",
        )
        .file("v.yml", "#@data/values\n---\na: 0\n");
    let fifo = y.path().join("decrypted");
    if !std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    let writer = std::thread::spawn(move || std::fs::write(fifo, "a: 42\n"));
    let out = y.run(&[
        "-f",
        "t.yml",
        "-f",
        "v.yml",
        "--data-values-file",
        "sensitive.yml=decrypted",
    ]);
    writer.join().unwrap().unwrap();
    assert_eq!(out.ok(), "a: 42\n");
}

/// Data values are merged by the overlay engine: an array item of a data-values overlay
/// matched by key finds an integer only by an integer, as the reference's does (Go values
/// compared).
#[test]
fn an_overlay_matches_an_integer_only_by_an_integer() {
    let overlay = |port: &str| {
        format!(
            "#@ load(\"@ytt:overlay\", \"overlay\")\n\
             #@data/values\n---\nports:\n\
             #@overlay/match by=overlay.map_key(\"port\"), missing_ok=True\n\
             - port: {port}\n  name: web\n"
        )
    };
    let project = |port: &str| {
        Ytt::new()
            .file(
                "base.yml",
                "#@data/values\n---\nports:\n- port: 80\n  name: http\n",
            )
            .file("over.yml", &overlay(port))
            .file("tpl.yml", TPL)
    };
    let args = ["-f", "base.yml", "-f", "over.yml", "-f", "tpl.yml"];
    assert_eq!(
        project("80").run(&args).ok(),
        "values:\n  ports:\n  - port: 80\n    name: web\n"
    );
    assert_eq!(
        project("80.0").run(&args).ok(),
        "values:\n  ports:\n  - port: 80\n    name: http\n  - port: 80\n    name: web\n"
    );
}
