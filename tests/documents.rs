//! End-to-end tests of the document lifecycle: which documents a run outputs, which ones
//! overlays see, and which ones a document overlay may add.
//!
//! Rules under test:
//! - a document that is empty *as written* (no value, `{}`, `[]`, `null`, only comments
//!   or code, a body whose items `if`/`for` all skipped) leaves the document set before
//!   overlays run and before output, also in a library's `eval()` result;
//! - a document whose value is computed by an expression stays even when empty
//!   (`--- #@ {}` prints `{}`), unless it is null;
//! - a document overlay that merges (or removes) and matches nothing adds nothing;
//!   documents are added only by `@overlay/append`, `@overlay/insert` and
//!   `@overlay/replace or_add=True`;
//! - a YAML file left without documents of its own writes no output file.

mod common;

use common::{tpl, Ytt};

const OVERLAY: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n";

#[test]
fn documents_empty_as_written_are_dropped() {
    let out = tpl(
        "#@ def f():\n\
         x: 1\n\
         #@ end\n\
         --- {}\n\
         --- []\n\
         --- null\n\
         ---\n\
         #! a comment only\n\
         ---\n\
         #@ if False:\n\
         a: 1\n\
         #@ end\n\
         ---\n\
         #@ for i in []:\n\
         - #@ i\n\
         #@ end\n\
         ---\n\
         kept: #@ f()\n",
        &[],
    );
    assert_eq!(out.ok(), "kept:\n  x: 1\n");
}

#[test]
fn documents_computed_empty_stay_unless_null() {
    let out = tpl(
        "--- #@ {}\n--- #@ []\n--- #@ None\n--- #@ dict()\n--- #@ \"\"\n",
        &[],
    );
    assert_eq!(out.ok(), "{}\n---\n[]\n---\n{}\n---\n\"\"\n");
    let json = tpl("--- #@ {}\n--- null\n--- #@ [1]\n", &["-o", "json"]);
    assert_eq!(json.ok(), "{}[1]");
}

#[test]
fn a_plain_yaml_file_drops_its_empty_documents() {
    let out = Ytt::new()
        .file("plain.yml", "--- {}\n---\na: 1\n--- []\n---\n# trailing\n")
        .run(&["-f", "plain.yml"]);
    assert_eq!(out.ok(), "a: 1\n");
}

#[test]
fn overlays_never_see_empty_documents() {
    // `expects=2` counts the two documents with content (one of them computed), never
    // the empty ones around them
    let out = Ytt::new()
        .file(
            "a.yml",
            "--- {}\n---\na: 1\n---\n#@ if False:\nb: 2\n#@ end\n--- #@ {}\n--- null\n",
        )
        .file(
            "ov.yml",
            &format!(
                "{OVERLAY}#@overlay/match by=overlay.all, expects=2\n---\n#@overlay/match missing_ok=True\nz: 0\n"
            ),
        )
        .run(&["-f", "a.yml", "-f", "ov.yml"]);
    assert_eq!(out.ok(), "a: 1\nz: 0\n---\nz: 0\n");
}

#[test]
fn a_document_emptied_by_an_overlay_leaves_the_output() {
    let out = Ytt::new()
        .file("a.yml", "a: 1\n---\nb: 2\n")
        .file(
            "ov.yml",
            &format!(
                "{OVERLAY}#@overlay/match by=overlay.subset({{\"a\": 1}})\n---\n#@overlay/remove\na:\n"
            ),
        )
        .run(&["-f", "a.yml", "-f", "ov.yml"]);
    assert_eq!(out.ok(), "b: 2\n");
}

#[test]
fn library_eval_results_hold_no_empty_documents() {
    let out = Ytt::new()
        .file(
            "t.yml",
            "#@ load(\"@ytt:library\", \"library\")\n\
             #@ load(\"@ytt:template\", \"template\")\n\
             #@ docs = library.get(\"lib\").eval()\n\
             count: #@ len(docs)\n\
             --- #@ template.replace(docs)\n",
        )
        .file(
            "_ytt_lib/lib/a.yml",
            "#@ def unused():\nx: 1\n#@ end\n--- {}\n---\n#@ if False:\na: 1\n#@ end\n---\nkind: A\n--- #@ None\n",
        )
        .run(&["-f", "."]);
    assert_eq!(out.ok(), "count: 1\n---\nkind: A\n");
}

#[test]
fn a_document_merge_matching_nothing_adds_nothing() {
    for matching in [
        "expects=\"0+\"",
        "expects=0",
        "expects=[0, 1]",
        "missing_ok=True",
        "when=\"1+\"",
    ] {
        for op in ["", "#@overlay/merge\n", "#@overlay/remove\n"] {
            let out = Ytt::new()
                .file("a.yml", "kind: Deployment\n")
                .file(
                    "ov.yml",
                    &format!(
                        "{OVERLAY}#@overlay/match by=overlay.subset({{\"kind\": \"DaemonSet\"}}), {matching}\n{op}---\nkind: DaemonSet\n"
                    ),
                )
                .run(&["-f", "a.yml", "-f", "ov.yml"]);
            assert_eq!(out.ok(), "kind: Deployment\n", "{matching} {op}");
        }
    }
}

#[test]
fn documents_are_added_by_append_insert_and_replace_or_add() {
    let run = |ov: &str| {
        Ytt::new()
            .file("a.yml", "a: 1\n")
            .file("ov.yml", &format!("{OVERLAY}{ov}"))
            .run(&["-f", "a.yml", "-f", "ov.yml"])
    };
    let out = run("#@overlay/match by=overlay.all\n#@overlay/append\n---\nb: 2\n");
    assert_eq!(out.ok(), "a: 1\n---\nb: 2\n");
    let out = run("#@overlay/match by=overlay.all\n#@overlay/insert before=True\n---\nb: 2\n");
    assert_eq!(out.ok(), "b: 2\n---\na: 1\n");
    let out = run(
        "#@overlay/match by=overlay.subset({\"x\": 1}), expects=\"0+\"\n#@overlay/replace or_add=True\n---\nb: 2\n",
    );
    assert_eq!(out.ok(), "a: 1\n---\nb: 2\n");
}

#[test]
fn overlay_only_and_empty_files_write_no_output_file() {
    let y = Ytt::new()
        .file("a.yml", "a: 1\n")
        .file("removed.yml", "kind: Debug\n")
        .file("empty.yml", "--- {}\n---\n# nothing\n")
        .file(
            "ov.yml",
            &format!(
                "{OVERLAY}#@overlay/match by=overlay.subset({{\"kind\": \"Debug\"}})\n#@overlay/remove\n---\n"
            ),
        )
        .file("notes.txt", "");
    // a file whose documents an overlay removed is written, empty; one that had none of
    // its own is not
    let bulk = y.run(&["-f", ".", "--bulk-out"]);
    assert_eq!(
        bulk.ok(),
        r#"{"files":[{"name":"notes.txt","data":""},{"name":"a.yml","data":"a: 1\n"},{"name":"removed.yml","data":""}]}"#
    );
    let out = y.run(&["-f", ".", "--output-files", "out"]);
    out.ok();
    assert_eq!(y.list("out"), ["a.yml", "notes.txt", "removed.yml"]);
    assert_eq!(y.read("out/removed.yml"), "");
}

/// A large output is written on every core (`yaml::emit::split`): the documents come out
/// in order, with one separator between each two, as one writer writes them; maps,
/// arrays, scalars and computed empty documents at any place.
const MANY_DOCS: &str = "#@ for i in range(4000):\n\
                         #@ if i % 4 == 0:\n\
                         --- #@ {}\n\
                         #@ elif i % 4 == 1:\n\
                         --- #@ \"s{}\".format(i)\n\
                         #@ else:\n\
                         ---\n\
                         name: #@ \"svc{}\".format(i)\n\
                         ports:\n\
                         #@ for p in range(i % 7):\n\
                         - port: #@ p\n\
                         \x20 tags: [a, b, c, d]\n\
                         #@ end\n\
                         #@ end\n\
                         #@ end\n";

fn many_docs_expected_yaml() -> String {
    let docs: Vec<String> = (0..4000)
        .map(|i| match i % 4 {
            0 => "{}\n".to_string(),
            1 => format!("s{i}\n"),
            _ => {
                let ports: String = (0..i % 7)
                    .map(|p| format!("- port: {p}\n  tags:\n  - a\n  - b\n  - c\n  - d\n"))
                    .collect();
                match ports.is_empty() {
                    true => format!("name: svc{i}\nports: []\n"),
                    false => format!("name: svc{i}\nports:\n{ports}"),
                }
            }
        })
        .collect();
    docs.join("---\n")
}

#[test]
fn a_large_output_is_written_in_document_order() {
    assert_eq!(tpl(MANY_DOCS, &[]).ok(), many_docs_expected_yaml());
    let json = tpl(MANY_DOCS, &["-o", "json"]);
    let docs: String = (0..4000)
        .map(|i| match i % 4 {
            0 => "{}".to_string(),
            1 => format!("\"s{i}\""),
            _ => {
                let ports: Vec<String> = (0..i % 7)
                    .map(|p| format!("{{\"port\":{p},\"tags\":[\"a\",\"b\",\"c\",\"d\"]}}"))
                    .collect();
                format!("{{\"name\":\"svc{i}\",\"ports\":[{}]}}", ports.join(","))
            }
        })
        .collect();
    assert_eq!(json.ok(), docs);
    // an output file is the same text
    let y = Ytt::new().file("tpl.yml", MANY_DOCS);
    y.run(&["-f", "tpl.yml", "--output-files", "out"]);
    assert_eq!(y.read("out/tpl.yml"), many_docs_expected_yaml());
}

#[test]
fn a_large_json_output_that_fails_late_writes_nothing() {
    let out = tpl(
        "#@ for i in range(4000):\n\
         --- #@ {\"n\": i, \"items\": [1, 2, 3], \"f\": float(\"nan\") if i == 3990 else 1.5}\n\
         #@ end\n",
        &["-o", "json"],
    );
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "ytt: Error: Unsupported float value '.nan': JSON cannot represent infinity or NaN\n"
    );
}
