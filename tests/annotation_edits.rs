//! End-to-end tests of editing annotations with overlays: `@overlay/replace-ann`,
//! `@overlay/merge-anns`, `@overlay/remove-anns` and `@overlay/noop`, on a schema
//! overlay, a data-values overlay and a template overlay; how they compose with
//! `@overlay/match` and `@overlay/match-child-defaults`; where each rule reports it was
//! written; and their errors.

mod common;

use common::Ytt;

// ---- a package's rules, and an overlay for each edit -------------------------------

const SCHEMA: &str = r#"#@data/values-schema
---
#@schema/validation ("an even port", lambda v: v % 2 == 0), min=1
port: 8080
"#;

const VALUES: &str = r#"#@data/values
---
#@assert/validate ("an even port", lambda v: v % 2 == 0), min=1
port: 8080
"#;

const DEPLOY: &str = r#"---
kind: Deployment
metadata:
  name: web
spec:
  #@assert/validate ("an odd number", lambda v: v % 2 == 1), max=5
  replicas: 12
"#;

/// A schema (or data values) overlay that edits the rule on `port`: the document
/// annotation, then the edit annotations and the item.
fn port_overlay(doc: &str, edit: &str) -> String {
    format!("#@{doc}\n---\n{edit}")
}

fn schema_run(overlay: &str, port: &str) -> common::Out {
    Ytt::new()
        .file("schema.yml", SCHEMA)
        .file("overlay.yml", overlay)
        .run(&[
            "-f",
            "schema.yml",
            "-f",
            "overlay.yml",
            "--data-values-inspect",
            "--data-value-yaml",
            port,
        ])
}

fn values_run(overlay: &str, port: &str) -> common::Out {
    Ytt::new()
        .file("values.yml", VALUES)
        .file("overlay.yml", overlay)
        .run(&[
            "-f",
            "values.yml",
            "-f",
            "overlay.yml",
            "--data-values-inspect",
            "--data-value-yaml",
            port,
        ])
}

fn template_run(overlay: &str) -> common::Out {
    Ytt::new()
        .file("deploy.yml", DEPLOY)
        .file("overlay.yml", overlay)
        .run(&["-f", "deploy.yml", "-f", "overlay.yml"])
}

const REPLACE: &str = "#@schema/validation min=1024\n#@overlay/replace-ann\nport: 8443\n";
const MERGE: &str = "#@schema/validation (\"below 10000\", lambda v: v < 10000), min=1024\n#@overlay/merge-anns\n#@overlay/noop\nport: 0\n";
const REMOVE: &str = "#@overlay/remove-anns \"schema/validation\"\n#@overlay/noop\nport: 0\n";

#[test]
fn schema_overlay_replace_ann() {
    // the value merges (8443 is the new default), and min=1024 is the only rule
    let ov = port_overlay("data/values-schema", REPLACE);
    let ok = Ytt::new()
        .file("schema.yml", SCHEMA)
        .file("overlay.yml", &ov)
        .run(&[
            "-f",
            "schema.yml",
            "-f",
            "overlay.yml",
            "--data-values-inspect",
        ]);
    assert_eq!(ok.ok(), "port: 8443\n");
    insta::assert_snapshot!("schema_replace_ann", schema_run(&ov, "port=81").err());
}

#[test]
fn schema_overlay_merge_anns() {
    let ov = port_overlay("data/values-schema", MERGE);
    // kept: the even rule (by the schema); added: below 10000; replaced: min
    insta::assert_snapshot!("schema_merge_anns", schema_run(&ov, "port=10001").err());
    let low = schema_run(&ov, "port=80");
    assert!(
        low.err().contains("a value >= 1024 (by: overlay.yml:3)"),
        "{}",
        low.stderr
    );
}

#[test]
fn schema_overlay_remove_anns() {
    let ov = port_overlay("data/values-schema", REMOVE);
    assert_eq!(schema_run(&ov, "port=81").ok(), "port: 81\n");
}

#[test]
fn data_values_overlay_replace_ann() {
    let ov = port_overlay(
        "data/values",
        &REPLACE.replace("schema/validation", "assert/validate"),
    );
    insta::assert_snapshot!("values_replace_ann", values_run(&ov, "port=81").err());
}

#[test]
fn data_values_overlay_merge_anns() {
    let ov = port_overlay(
        "data/values",
        &MERGE.replace("schema/validation", "assert/validate"),
    );
    insta::assert_snapshot!("values_merge_anns", values_run(&ov, "port=10001").err());
}

#[test]
fn data_values_overlay_remove_anns() {
    let ov = port_overlay(
        "data/values",
        &REMOVE.replace("schema/validation", "assert/validate"),
    );
    assert_eq!(values_run(&ov, "port=81").ok(), "port: 81\n");
}

fn template_overlay(edit: &str) -> String {
    format!(
        "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({{\"kind\": \"Deployment\"}})\n---\nspec:\n{edit}"
    )
}

#[test]
fn template_overlay_replace_ann() {
    let ov = template_overlay(
        "  #@assert/validate max=10\n  #@overlay/replace-ann\n  #@overlay/noop\n  replicas: 0\n",
    );
    insta::assert_snapshot!("template_replace_ann", template_run(&ov).err());
}

#[test]
fn template_overlay_merge_anns() {
    let ov = template_overlay(
        "  #@assert/validate (\"at least 2\", lambda v: v >= 2), max=10\n  #@overlay/merge-anns\n  #@overlay/noop\n  replicas: 0\n",
    );
    insta::assert_snapshot!("template_merge_anns", template_run(&ov).err());
}

#[test]
fn template_overlay_remove_anns() {
    let ov = template_overlay(
        "  #@overlay/remove-anns \"assert/validate\"\n  #@overlay/noop\n  replicas: 0\n",
    );
    assert_eq!(
        template_run(&ov).ok(),
        "kind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 12\n"
    );
}

// ---- the value's operation ------------------------------------------------------------

#[test]
fn without_noop_the_value_merges_too() {
    let ov =
        template_overlay("  #@assert/validate max=20\n  #@overlay/replace-ann\n  replicas: 13\n");
    assert_eq!(
        template_run(&ov).ok(),
        "kind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 13\n"
    );
}

#[test]
fn replace_keeps_the_matched_node_rules_only_when_edited() {
    // @overlay/replace alone: the overlay's annotations (none) — the rule is gone
    let plain = template_overlay("  #@overlay/replace\n  replicas: 13\n");
    assert!(template_run(&plain).ok().contains("replicas: 13"));
    // with merge-anns: the matched node's rules, merged with the overlay's
    let edited = template_overlay(
        "  #@assert/validate max=10\n  #@overlay/replace\n  #@overlay/merge-anns\n  replicas: 13\n",
    );
    insta::assert_snapshot!("replace_with_merge_anns", template_run(&edited).err());
}

#[test]
fn document_rules_are_edited_on_documents() {
    let deploy = "#@assert/validate (\"three keys\", lambda d: len(d) == 3)\n---\nkind: Deployment\nmetadata:\n  name: web\n";
    let ov = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all\n#@overlay/remove-anns \"assert/validate\"\n---\n#@overlay/match missing_ok=True\nextra: 1\n";
    let out = Ytt::new()
        .file("deploy.yml", deploy)
        .file("overlay.yml", ov)
        .run(&["-f", "deploy.yml", "-f", "overlay.yml"]);
    assert_eq!(
        out.ok(),
        "kind: Deployment\nmetadata:\n  name: web\nextra: 1\n"
    );
    // data values: the document's rule, replaced by the overlay document's
    let values =
        "#@assert/validate (\"a port\", lambda d: \"port\" in d)\n#@data/values\n---\nport: 80\n";
    let ov = "#@assert/validate (\"two keys\", lambda d: len(d) == 2)\n#@overlay/replace-ann\n#@data/values\n---\n#@overlay/match missing_ok=True\nhost: x\n#@overlay/remove\nport:\n";
    let out = Ytt::new()
        .file("values.yml", values)
        .file("overlay.yml", ov)
        .run(&[
            "-f",
            "values.yml",
            "-f",
            "overlay.yml",
            "--data-values-inspect",
        ]);
    insta::assert_snapshot!("data_values_document_rule_replaced", out.err());
}

// ---- composing with @overlay/match ----------------------------------------------------

#[test]
fn edits_follow_match_by_expects_and_when() {
    let deploy = r#"#@ for i in range(3):
---
kind: Deployment
metadata:
  name: #@ "web-{}".format(i)
spec:
  #@assert/validate max=1
  replicas: #@ i + 1
#@ end
"#;
    let run = |ov: &str| {
        Ytt::new()
            .file("deploy.yml", deploy)
            .file("overlay.yml", ov)
            .run(&["-f", "deploy.yml", "-f", "overlay.yml"])
    };
    // by= picks documents; expects counts them
    let two = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ def big(i, l, r):\n#@   return l[\"spec\"][\"replicas\"] > 1\n#@ end\n#@overlay/match by=big, expects=2\n---\nspec:\n  #@overlay/remove-anns \"assert/validate\"\n  #@overlay/noop\n  replicas: 0\n";
    assert!(run(two).ok().contains("replicas: 3"));
    let wrong = two.replace("expects=2", "expects=3");
    assert!(run(&wrong)
        .err()
        .contains("Expected number of matched nodes to be 3, but was 2"));
    // when=: an unmet expectation skips the node, and its edits
    let unmet = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all, expects=\"1+\"\n---\nspec:\n  #@overlay/match when=0\n  #@overlay/remove-anns \"assert/validate\"\n  #@overlay/noop\n  replicas: 0\n";
    insta::assert_snapshot!("when_unmet_skips_edits", run(unmet).err());
    // missing_ok: a document without the key is left alone
    let missing = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all, expects=\"1+\"\n---\nspec:\n  #@overlay/match missing_ok=True\n  #@overlay/remove-anns \"assert/validate\"\n  #@overlay/noop\n  minReadySeconds: 0\n";
    assert!(run(missing).err().contains("document 2 of 3"));
}

#[test]
fn edits_compose_with_match_child_defaults() {
    let schema = "#@data/values-schema\n---\nlimits:\n  #@schema/validation max=10\n  cpu: 1\n  #@schema/validation max=10\n  memory: 1\n";
    // child defaults make the missing `disk` fine; the edits apply to what matched
    let ov = "#@data/values-schema\n---\n#@overlay/match-child-defaults missing_ok=True\nlimits:\n  #@schema/validation max=100\n  #@overlay/replace-ann\n  cpu: 1\n  #@schema/validation max=100\n  #@overlay/replace-ann\n  disk: 1\n";
    let out = Ytt::new()
        .file("schema.yml", schema)
        .file("overlay.yml", ov)
        .run(&[
            "-f",
            "schema.yml",
            "-f",
            "overlay.yml",
            "--data-values-inspect",
            "--data-value-yaml",
            "limits={cpu: 50, memory: 50, disk: 500}",
        ]);
    insta::assert_snapshot!("child_defaults_compose", out.err());
}

// ---- libraries ------------------------------------------------------------------------

#[test]
fn edits_reach_a_library_schema_and_values() {
    let y = Ytt::new()
        .file(
            "_ytt_lib/app/schema.yml",
            "#@data/values-schema\n---\n#@schema/validation min=1, max=5\nreplicas: 1\n",
        )
        .file(
            "_ytt_lib/app/config.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nreplicas: #@ data.values.replicas\n",
        )
        .file(
            "lib-schema.yml",
            "#@library/ref \"@app\"\n#@data/values-schema\n---\n#@schema/validation (\"odd\", lambda v: v % 2 == 1), max=10\n#@overlay/merge-anns\n#@overlay/noop\nreplicas: 0\n",
        )
        .file(
            "root.yml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n#@ app = library.get(\"app\").with_data_values({\"replicas\": 8})\n--- #@ template.replace(app.eval())\n",
        );
    insta::assert_snapshot!("library_schema_merged", y.run(&["-f", "."]).err());
}

#[test]
fn with_data_values_fragments_edit_rules() {
    let y = Ytt::new()
        .file(
            "_ytt_lib/app/values.yml",
            "#@data/values\n---\n#@assert/validate min=1\nreplicas: 1\n",
        )
        .file(
            "_ytt_lib/app/config.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nreplicas: #@ data.values.replicas\n",
        )
        .file(
            "root.yml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n#@ def more():\n#@assert/validate (\"odd\", lambda v: v % 2 == 1), max=3\n#@overlay/merge-anns\nreplicas: 4\n#@ end\n#@ app = library.get(\"app\").with_data_values(more())\n--- #@ template.replace(app.eval())\n",
        );
    insta::assert_snapshot!("with_data_values_merged", y.run(&["-f", "."]).err());
}

// ---- errors ---------------------------------------------------------------------------

#[test]
fn unknown_annotation_name_is_an_error() {
    let ov = port_overlay(
        "data/values-schema",
        "#@overlay/remove-anns \"schema/validate\"\n#@overlay/noop\nport: 0\n",
    );
    insta::assert_snapshot!("remove_anns_unknown_name", schema_run(&ov, "port=2").err());
}

#[test]
fn malformed_edits_are_errors() {
    let cases = [
        (
            "#@overlay/remove-anns\n#@overlay/noop\nport: 0\n",
            "to name at least one annotation",
        ),
        (
            "#@overlay/remove-anns 3\n#@overlay/noop\nport: 0\n",
            "to be annotation names (strings), but was starlark.Int",
        ),
        (
            "#@overlay/replace-ann\n#@overlay/merge-anns\nport: 0\n",
            "Expected only one of 'overlay/replace-ann' and 'overlay/merge-anns' on a node",
        ),
        (
            "#@overlay/merge-anns \"x\"\nport: 0\n",
            "Expected 'overlay/merge-anns' annotation to have no arguments",
        ),
        (
            "#@overlay/replace-ann all=True\nport: 0\n",
            "Unknown 'overlay/replace-ann' annotation keyword argument 'all'",
        ),
        (
            "#@overlay/remove\n#@overlay/replace-ann\nport: 0\n",
            "with @overlay/remove (overlay.yml:5)",
        ),
        (
            "#@overlay/noop\n#@overlay/remove\nport: 0\n",
            "Expected to find only one overlay operation",
        ),
    ];
    for (edit, want) in cases {
        let ov = port_overlay("data/values-schema", edit);
        let out = schema_run(&ov, "port=2");
        assert!(out.err().contains(want), "{edit}\n{}", out.stderr);
    }
}

#[test]
fn data_values_overlays_leave_schema_rules_to_schema_overlays() {
    let ov = port_overlay(
        "data/values",
        "#@overlay/remove-anns \"schema/validation\"\nport: 0\n",
    );
    insta::assert_snapshot!(
        "values_cannot_edit_schema_rules",
        schema_run(&ov, "port=2").err()
    );
    let carried = port_overlay(
        "data/values",
        "#@schema/validation min=0\n#@overlay/replace-ann\nport: 0\n",
    );
    assert!(schema_run(&carried, "port=2")
        .err()
        .contains("Map item (key 'port') on line overlay.yml:5:\n      Annotation edit of @schema/validation: a data-values overlay does not edit"));
    // a data-values overlay adds rules of its own to a value the schema declares
    let added = port_overlay(
        "data/values",
        "#@assert/validate max=100\n#@overlay/merge-anns\nport: 80\n",
    );
    insta::assert_snapshot!(
        "values_add_rule_to_schema_value",
        schema_run(&added, "port=102").err()
    );
}
