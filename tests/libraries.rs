//! End-to-end tests of private libraries: `_ytt_lib`, `@ytt:library` and data values
//! addressed to a library.

mod common;

use common::Ytt;

const LIB_VALUES: &str = "#@data/values\n---\nname: lib-default\nreplicas: 1\n";
const LIB_CONFIG: &str = "#@ load(\"@ytt:data\", \"data\")\n\
                          name: #@ data.values.name\n\
                          replicas: #@ data.values.replicas\n";

/// A root library with a private library `app` that has its own data values.
fn project(root_config: &str) -> Ytt {
    Ytt::new()
        .file("_ytt_lib/app/values.yml", LIB_VALUES)
        .file("_ytt_lib/app/config.yml", LIB_CONFIG)
        .file(
            "_ytt_lib/app/funcs.lib.yml",
            "#@ load(\"@ytt:data\", \"data\")\n#@ def greeting(): return \"hello \" + data.values.name\n",
        )
        .file("config.yml", root_config)
}

#[test]
fn a_library_renders_with_its_own_data_values() {
    let out = project(
        "#@ load(\"@ytt:library\", \"library\")\n\
         #@ load(\"@ytt:template\", \"template\")\n\
         --- #@ template.replace(library.get(\"app\").eval())\n",
    )
    .run(&["-f", "."]);
    assert_eq!(out.ok(), "name: lib-default\nreplicas: 1\n");
}

#[test]
fn with_data_values_overlays_the_library_values_without_changing_the_original() {
    let out = project(
        "#@ load(\"@ytt:library\", \"library\")\n\
         #@ load(\"@ytt:template\", \"template\")\n\
         #@ app = library.get(\"app\")\n\
         --- #@ template.replace(app.with_data_values({\"replicas\": 3}).eval())\n\
         --- #@ template.replace(app.eval())\n",
    )
    .run(&["-f", "."]);
    assert_eq!(
        out.ok(),
        "name: lib-default\nreplicas: 3\n---\nname: lib-default\nreplicas: 1\n"
    );
}

#[test]
fn documents_and_flags_can_be_addressed_to_a_library() {
    let out = project(
        "#@ load(\"@ytt:library\", \"library\")\n\
         #@ load(\"@ytt:template\", \"template\")\n\
         --- #@ template.replace(library.get(\"app\", alias=\"blue\").eval())\n",
    )
    .file(
        "values.yml",
        "#@library/ref \"@app\"\n#@data/values\n---\nname: from-parent\n",
    )
    .run(&["-f", ".", "--data-value-yaml", "@~blue:replicas=5"]);
    assert_eq!(out.ok(), "name: from-parent\nreplicas: 5\n");
}

#[test]
fn export_and_data_values_read_the_library() {
    let out = project(
        "#@ load(\"@ytt:library\", \"library\")\n\
         #@ app = library.get(\"app\").with_data_values({\"name\": \"x\"})\n\
         greeting: #@ app.export(\"greeting\")()\n\
         values: #@ app.data_values().name\n",
    )
    .run(&["-f", "."]);
    assert_eq!(out.ok(), "greeting: hello x\nvalues: x\n");
}

#[test]
fn values_for_a_library_nobody_evaluates_are_an_error() {
    let out = project("a: 1\n")
        .file(
            "values.yml",
            "#@library/ref \"@app\"\n#@data/values\n---\nname: unused\n",
        )
        .run(&["-f", "."]);
    assert_eq!(
        out.err(),
        "ytt: Error: Expected all provided library data values documents to be used but found unused:\n  Data Value belonging to library '@app' on line values.yml:3\n"
    );
}

/// Regression: a `with_data_values()` fragment adding a value with `@assert/validate` — its
/// rule lives in the caller's module, still being evaluated — used to fail with an
/// internal "annotation value not reachable" error.
#[test]
fn validations_on_with_data_values_fragments_run_in_the_library() {
    let out = project(
        "#@ load(\"@ytt:library\", \"library\")\n\
         #@ load(\"@ytt:template\", \"template\")\n\
         #@ def vals(max):\n\
         #@overlay/match missing_ok=True\n\
         #@assert/validate (\"a small port\", lambda v: v < max)\n\
         port: 20\n\
         #@ end\n\
         --- #@ template.replace(library.get(\"app\").with_data_values(vals(100)).eval())\n\
         --- #@ template.replace(library.get(\"app\").with_data_values(vals(10)).eval())\n",
    )
    .run(&["-f", "."]);
    let err = out.err();
    assert!(
        err.contains("  port\n         from: config.yml:6\n         - must be: a small port (by: config.yml:5)"),
        "{err}"
    );
    assert!(!err.contains("internal error"), "{err}");
}

/// Regression: a library's output documents were validated by the library and again in
/// the caller's output (a `warn=True` rule printed its warning twice).
#[test]
fn a_library_output_is_validated_once() {
    let out = Ytt::new()
        .file(
            "_ytt_lib/app/config.yml",
            "---\n#@assert/validate (\"a small port\", lambda v: v < 10), warn=True\nport: 20\n",
        )
        .file(
            "config.yml",
            "#@ load(\"@ytt:library\", \"library\")\n\
             #@ load(\"@ytt:template\", \"template\")\n\
             --- #@ template.replace(library.get(\"app\").eval())\n",
        )
        .run(&["-f", "."]);
    assert_eq!((out.code, out.stdout.as_str()), (0, "port: 20\n"));
    assert_eq!(
        out.stderr,
        "Warning: Validating output documents:\n  port\n    from: _ytt_lib/app/config.yml:3\n    - must be: a small port (by: _ytt_lib/app/config.yml:2)\n"
    );
}

#[test]
fn library_get_without_private_libraries() {
    let out = Ytt::new()
        .file(
            "t.yml",
            "#@ load(\"@ytt:library\", \"library\")\nv: #@ library.get(\"lib\")\n",
        )
        .run(&["-f", "t.yml"]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - library.get: Could not find private library (directory '_ytt_lib' missing?)\n\
         \x20   in <toplevel>\n\
         \x20     t.yml:2 | v: #@ library.get(\"lib\")\n"
    );
    // with private libraries, but not this one (the message names the segments found)
    let out = project("#@ load(\"@ytt:library\", \"library\")\nv: #@ library.get(\"nope\")\n")
        .run(&["-f", "."]);
    assert!(
        out.err()
            .contains("library.get: Expected to find library 'nope', but did not find ''"),
        "{}",
        out.stderr
    );
}

/// A data-values document addressed to a library is overlaid as a document, as the
/// library's own are: its `@overlay/match-child-defaults` applies to its items.
#[test]
fn addressed_documents_keep_their_document_annotations() {
    let out = project(
        "#@ load(\"@ytt:library\", \"library\")\n\
         #@ load(\"@ytt:template\", \"template\")\n\
         --- #@ template.replace(library.get(\"app\").eval())\n",
    )
    .file(
        "_ytt_lib/app/config.yml",
        "#@ load(\"@ytt:data\", \"data\")\n---\nv: #@ data.values\n",
    )
    .file(
        "lib-values.yml",
        "#@library/ref \"@app\"\n#@data/values\n#@overlay/match-child-defaults missing_ok=True\n---\nzone: eu\n",
    )
    .run(&["-f", "."]);
    assert_eq!(
        out.ok(),
        "v:\n  name: lib-default\n  replicas: 1\n  zone: eu\n"
    );
}

/// A library's own overlays match as the root's do: an integer only by an integer. The
/// float comes in through `with_data_values` (`80.0`, written `80`), and the library's
/// `subset` of `80` does not match it.
#[test]
fn a_library_overlay_matches_an_integer_only_by_an_integer() {
    let run = |port: &str| {
        Ytt::new()
            .file("_ytt_lib/app/values.yml", "#@data/values\n---\nport: 1\n")
            .file(
                "_ytt_lib/app/config.yml",
                "#@ load(\"@ytt:data\", \"data\")\nsvc:\n  port: #@ data.values.port\n",
            )
            .file(
                "_ytt_lib/app/overlay.yml",
                "#@ load(\"@ytt:overlay\", \"overlay\")\n\
                 #@overlay/match by=overlay.subset({\"svc\": {\"port\": 80}}), expects=\"0+\"\n\
                 ---\n#@overlay/match missing_ok=True\nhit: true\n",
            )
            .file(
                "config.yml",
                &format!(
                    "#@ load(\"@ytt:library\", \"library\")\n\
                     #@ load(\"@ytt:template\", \"template\")\n\
                     --- #@ template.replace(library.get(\"app\").with_data_values({{\"port\": {port}}}).eval())\n"
                ),
            )
            .run(&["-f", "."])
            .ok()
            .to_string()
    };
    assert_eq!(run("80"), "svc:\n  port: 80\nhit: true\n");
    assert_eq!(run("80.0"), "svc:\n  port: 80\n");
}
