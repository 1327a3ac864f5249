//! End-to-end tests of annotated YAML fragments built while overlays are applied.
//!
//! Rule under test: a function whose YAML body carries annotations (`#@overlay/...`,
//! `#@schema/...`, any `#@ns/name`) can be called at any time — from `via=` and `by=`
//! functions of overlay documents, of data-values documents, of validation rules — in
//! the root library and in private libraries, and its annotations mean what they mean
//! in a template.

mod common;

use common::Ytt;

const OVERLAY: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n";

/// A function whose body is annotated: merging it needs its `missing_ok=True`.
const EXTRA: &str = "#@ def extra():\n\
                     #@overlay/match missing_ok=True\n\
                     #@foo/bar\n\
                     added: true\n\
                     #@ end\n";

#[test]
fn in_a_via_function_of_an_overlay_document() {
    let out = Ytt::new()
        .file("a.yml", "data:\n  x: {k: 1}\n")
        .file(
            "ov.yml",
            &format!(
                "{OVERLAY}{EXTRA}#@overlay/match by=overlay.all\n---\ndata:\n  #@overlay/replace via=lambda l, r: overlay.apply(l, extra())\n  x:\n"
            ),
        )
        .run(&["-f", "a.yml", "-f", "ov.yml"]);
    assert_eq!(out.ok(), "data:\n  x:\n    k: 1\n    added: true\n");
}

#[test]
fn in_a_by_function() {
    // the matcher builds an annotated fragment each time it is asked
    let out = Ytt::new()
        .file("a.yml", "a: 1\n---\nb: 2\n")
        .file(
            "ov.yml",
            &format!(
                "{OVERLAY}{EXTRA}#@overlay/match by=lambda i, l, r: \"added\" in overlay.apply(l, extra()) and \"a\" in l\n---\n#@overlay/match missing_ok=True\nc: 3\n"
            ),
        )
        .run(&["-f", "a.yml", "-f", "ov.yml"]);
    assert_eq!(out.ok(), "a: 1\nc: 3\n---\nb: 2\n");
}

#[test]
fn in_a_private_library() {
    let out = Ytt::new()
        .file(
            "t.yml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"lib\").eval())\n",
        )
        .file("_ytt_lib/lib/d.yml", "kind: D\nspec: {}\n")
        .file(
            "_ytt_lib/lib/ov.yml",
            &format!(
                "{OVERLAY}#@ def frag():\nspec:\n  #@overlay/match missing_ok=True\n  x: 1\n#@ end\n#@overlay/match by=overlay.subset({{\"kind\": \"D\"}})\n#@overlay/replace via=lambda l, r: overlay.apply(l, frag())\n---\n"
            ),
        )
        .run(&["-f", "."]);
    assert_eq!(out.ok(), "kind: D\nspec:\n  x: 1\n");
}

#[test]
fn in_a_data_values_overlay() {
    let out = Ytt::new()
        .file("v1.yml", "#@data/values\n---\nlabels:\n  a: 1\n")
        .file(
            "v2.yml",
            &format!(
                "{OVERLAY}{EXTRA}#@data/values\n---\n#@overlay/replace via=lambda l, r: overlay.apply(l, extra())\nlabels:\n"
            ),
        )
        .file(
            "t.yml",
            "#@ load(\"@ytt:data\", \"data\")\nlabels: #@ data.values.labels\n",
        )
        .run(&["-f", "v1.yml", "-f", "v2.yml", "-f", "t.yml"]);
    assert_eq!(out.ok(), "labels:\n  a: 1\n  added: true\n");
}

#[test]
fn in_a_validation_rule_of_an_output_document() {
    let run = |want: &str| {
        Ytt::new()
            .file(
                "t.yml",
                &format!(
                    "{OVERLAY}{EXTRA}#@assert/validate (\"gets added\", lambda v: overlay.apply(v, extra())[\"added\"] == {want})\nlabels:\n  a: 1\n"
                ),
            )
            .run(&["-f", "t.yml"])
    };
    assert_eq!(run("True").ok(), "labels:\n  a: 1\n");
    assert!(run("False").err().contains("- must be: gets added"));
}

#[test]
fn an_error_inside_names_the_fragment() {
    // without `missing_ok=True` the fragment's item is an error of the nested overlay
    let out = Ytt::new()
        .file("a.yml", "data: {}\n")
        .file(
            "ov.yml",
            &format!(
                "{OVERLAY}#@ def strict():\n#@foo/bar\nmissing: 1\n#@ end\n#@overlay/match by=overlay.all\n---\n#@overlay/replace via=lambda l, r: overlay.apply(l, strict())\ndata:\n"
            ),
        )
        .run(&["-f", "a.yml", "-f", "ov.yml"]);
    assert_eq!(
        out.err(),
        "ytt: Error: Overlaying (in following order: ov.yml):\n\
         \x20 Document on line ov.yml:7:\n\
         \x20   Map item (key 'data') on line ov.yml:9: overlay.apply:\n\
         \x20     Map item (key 'missing') on line ov.yml:4:\n\
         \x20       Expected number of matched nodes to be 1, but was 0\n"
    );
}
