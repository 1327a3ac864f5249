//! End-to-end tests of `ytt fmt`: its inputs (files, directories, stdin), its errors,
//! and the layout rules on whole templates (the rules themselves are unit-tested in
//! `src/fmt/tests.rs`).

mod common;

use common::Ytt;

const TEMPLATE: &str = r#"#! A Deployment with its Service, as a team writes them.
#@ load("@ytt:data", "data")
#@ load("helpers.star", "labels")

#@ def container(name, port):
name: #@ name
image: #@ data.values.image    #! from values
ports: [{containerPort: 8080, protocol: TCP}]
#@ end
---
apiVersion: apps/v1
kind: Deployment
metadata:
    name: #@ data.values.name
    labels: #@ labels()
spec:
    replicas: 2


    template:
        spec:
            containers:
            #@ for/end p in data.values.ports:
            - #@ container(data.values.name, p)
            #@overlay/match missing_ok=True
            nodeSelector: {disktype: ssd}
--- #@ None
---
apiVersion: v1
kind: Service
spec:
    ports:
    - port: 80
      targetPort: &port 8080
    - port: 443
      targetPort: *port
    selector:
        app: "web"
        enabled: "true"
        script: |
            #!/bin/sh
            echo hi
#! end of the file
"#;

#[test]
fn formats_a_template() {
    let y = Ytt::new().file("config/app.yml", TEMPLATE);
    let out = y.run(&["fmt", "-f", "config/app.yml"]);
    insta::assert_snapshot!("fmt_template", out.ok());
    // formatting the output again changes nothing
    let again = Ytt::new()
        .file("app.yml", out.ok())
        .run(&["fmt", "-f", "app.yml"]);
    assert_eq!(again.ok(), out.ok());
}

#[test]
fn files_are_formatted_in_the_order_given_and_directories_sorted() {
    let y = Ytt::new()
        .file("one.yml", "a:   1\n")
        .file("dir/b.yaml", "b:\n- 2\n")
        .file("dir/a.yml", "#@ x = 1\na: #@ x\n")
        .file("dir/notes.txt", "not yaml: [\n")
        .file("dir/values.star", "x = 1\n");
    let out = y.run(&["fmt", "-f", "dir/", "-f", "one.yml"]);
    assert_eq!(out.ok(), "#@ x = 1\na: #@ x\nb:\n  - 2\na: 1\n");
}

#[test]
fn reads_stdin() {
    let out = Ytt::new()
        .stdin("list: [a, b]   # two\n")
        .run(&["fmt", "-f", "-"]);
    // a trailing comment belongs to the last item that starts on its line
    assert_eq!(out.ok(), "list:\n  - a\n  - b # two\n");
}

#[test]
fn a_file_that_does_not_parse_stops_the_run_with_nothing_written() {
    let y = Ytt::new()
        .file("a.yml", "good: 1\n")
        .file("b.yml", "key: value\n  bad: indentation\nmore: 1\n");
    let out = y.run(&["fmt", "-f", "a.yml", "-f", "b.yml"]);
    assert_eq!(
        out.err(),
        "ytt: Error: Unmarshaling YAML template 'b.yml': yaml: line 2: mapping values are not allowed in this context\n"
    );
}

#[test]
fn a_file_that_is_not_utf8_is_an_error() {
    // go-yaml's reader's words, naming the file (the reference names none)
    let y = Ytt::new().file_bytes("bad.yml", b"key: \xff\xfe\n");
    let out = y.run(&["fmt", "-f", "bad.yml"]);
    assert_eq!(
        out.err(),
        "ytt: Error: Unmarshaling YAML template 'bad.yml': yaml: invalid leading UTF-8 octet\n"
    );
}

#[test]
fn a_missing_file_is_an_error() {
    let out = Ytt::new().run(&["fmt", "-f", "nope.yml"]);
    assert!(out.err().contains("nope.yml"), "{}", out.stderr);
}

#[test]
fn strict_mode_rejects_ambiguous_plain_scalars() {
    let y = Ytt::new().file("s.yml", "enabled: yes\n");
    assert_eq!(y.run(&["fmt", "-f", "s.yml"]).ok(), "enabled: true\n");
    let out = y.run(&["fmt", "-f", "s.yml", "--strict"]);
    assert!(out.err().contains("s.yml"), "{}", out.stderr);
}
