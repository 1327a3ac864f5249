use std::sync::{Arc, Mutex};

use super::*;
use crate::diagnostic::Kind;
use crate::workspace::OutputContent;
use crate::yaml::{Location, Node};

fn request(files: &[(&str, &str)]) -> Request {
    Request {
        files: (files.iter())
            .map(|(path, text)| SourceFile::new(*path, text.as_bytes().to_vec()))
            .collect(),
        ..Request::default()
    }
}

fn stdout(output: Output) -> String {
    output.into_stdout().text().expect("writes")
}

const SCHEMA: &str = "#@data/values-schema\n---\n#@schema/validation min=1\nreplicas: 1\n";
const VALUES: &str = "#@data/values\n---\nreplicas: 2\n";
const TEMPLATE: &str = "#@ load(\"@ytt:data\", \"data\")\nr: #@ data.values.replicas\n";

#[test]
fn a_render_gives_the_output_files_and_stdout_their_documents() {
    let req = request(&[
        ("t.yml", TEMPLATE),
        ("r.txt", "(@= str(1 + 1) @)\n"),
        ("values.yml", VALUES),
    ]);
    let output = run(req, Host::default()).expect("renders");
    let paths: Vec<&str> = output.files.iter().map(|f| f.rel_path.as_str()).collect();
    assert_eq!(paths, ["t.yml", "r.txt"]);
    assert!(matches!(output.files[1].content, OutputContent::Text(_)));
    let out = output.into_stdout();
    assert_eq!(out.text().unwrap(), "r: 2\n");
    assert_eq!(out.text_outputs, [("r.txt".to_owned(), "2\n".to_owned())]);
}

#[test]
fn documents_are_written_in_the_requested_format() {
    let files = [("a.yml", "a: 1\n---\nb: [x]\n")];
    let text = |format| {
        let req = Request {
            format,
            ..request(&files)
        };
        stdout(run(req, Host::default()).unwrap())
    };
    assert_eq!(text(Format::Yaml), "a: 1\n---\nb:\n- x\n");
    assert_eq!(text(Format::Json), r#"{"a":1}{"b":["x"]}"#);
    assert!(
        text(Format::Pos).contains("a.yml:1"),
        "{}",
        text(Format::Pos)
    );
}

#[test]
fn files_inspection_lists_the_accessible_files_and_reads_nothing() {
    let mut req = request(&[
        ("b.yml", "b: 1\n"),
        ("_ytt_lib/lib/x.yml", "x: 1\n"),
        ("a.yml", "a: 1\n"),
    ]);
    req.mode = Mode::Files;
    // neither the flags nor the unread file are looked at
    req.data_values.strings = vec!["no-value".into()];
    req.files[0].unread = Some(Unread {
        path: "/nowhere".into(),
        error: "cannot".into(),
    });
    let output = run(req, Host::default()).expect("lists");
    let files = output.accessible_files.clone().unwrap();
    assert_eq!(files, ["b.yml", "a.yml"]);
    assert_eq!(stdout(output), "- b.yml\n- a.yml\n");
}

#[test]
fn data_values_inspection_gives_the_values_where_they_came_from() {
    let mut req = request(&[
        ("schema.yml", SCHEMA),
        ("values.yml", VALUES),
        ("t.yml", TEMPLATE),
    ]);
    req.mode = Mode::DataValues;
    let output = run(req, Host::default()).expect("inspects");
    assert!(output.files.is_empty());
    let Some(Node::Map(values)) = &output.data_values else {
        panic!("{:?}", output.data_values)
    };
    let item = &values.items[0];
    assert_eq!(output.names.describe(&item.meta.pos), "values.yml:3");
    assert_eq!(stdout(output), "replicas: 2\n");
}

#[test]
fn schema_inspection_exports_in_each_format() {
    let files = [("schema.yml", SCHEMA), ("t.yml", TEMPLATE)];
    let export = |schema, format| {
        let req = Request {
            mode: Mode::Schema(schema),
            format,
            ..request(&files)
        };
        run(req, Host::default())
    };
    let openapi = stdout(export(SchemaFormat::OpenApiV3, Format::Yaml).unwrap());
    assert!(openapi.starts_with("openapi: 3.0.0\n"), "{openapi}");
    assert!(openapi.contains("minimum: 1"), "{openapi}");
    let json = stdout(export(SchemaFormat::JsonSchema, Format::Json).unwrap());
    assert!(json.starts_with(r#"{"$schema":"#), "{json}");
    let page = export(SchemaFormat::Markdown, Format::Yaml).unwrap();
    assert!(matches!(page.schema, Some(Export::Page(_))));
    assert!(stdout(page).contains("replicas"));
}

#[test]
fn markdown_cannot_be_combined_with_a_document_format() {
    for format in [Format::Json, Format::Pos] {
        let req = Request {
            mode: Mode::Schema(SchemaFormat::Markdown),
            format,
            ..request(&[("schema.yml", SCHEMA)])
        };
        let e = run(req, Host::default()).unwrap_err();
        assert_eq!(
            e.text(),
            "Output type 'markdown' cannot be combined with a document format (json, pos)"
        );
        assert_eq!(e.kind(), Kind::Other);
    }
}

#[test]
fn a_rule_the_export_cannot_carry_is_a_warning() {
    let schema =
        "#@data/values-schema\n---\n#@schema/validation (\"big\", lambda v: v > 1)\nreplicas: 2\n";
    let req = Request {
        mode: Mode::Schema(SchemaFormat::OpenApiV3),
        ..request(&[("schema.yml", schema)])
    };
    let output = run(req, Host::default()).unwrap();
    assert_eq!(
        output.warnings,
        ["Warning: not exported: replicas: big (by: schema.yml:3)"]
    );
}

#[test]
fn no_files_render_nothing_but_flags_are_still_read() {
    let output = run(Request::default(), Host::default()).expect("nothing to do");
    assert!(output.files.is_empty());
    assert_eq!(stdout(output), "");
    let mut req = Request::default();
    req.data_values.strings = vec!["no-value".into()];
    let e = run(req, Host::default()).unwrap_err();
    assert!(
        e.text().contains("Expected format key=value"),
        "{}",
        e.text()
    );
}

/// A reader of files and variables held in memory, which notes what it was asked.
#[derive(Default)]
struct Fake {
    files: Vec<(&'static str, &'static str)>,
    env: Vec<(&'static str, &'static str)>,
    asked: Mutex<Vec<String>>,
}

impl Fake {
    fn file(&self, path: &str) -> Result<Vec<u8>> {
        self.asked.lock().unwrap().push(path.to_owned());
        let found = self.files.iter().find(|(p, _)| *p == path);
        found
            .map(|(_, text)| text.as_bytes().to_vec())
            .ok_or_else(|| anyhow!("no file '{path}'"))
    }
}

impl Reader for Fake {
    fn unread(&self, file: &Unread) -> Result<Vec<u8>> {
        self.file(&file.path)
    }

    fn values_files(&self, arg: &str) -> Result<Vec<(String, Vec<u8>)>> {
        Ok(vec![(arg.to_owned(), self.file(arg)?)])
    }

    fn value_file(&self, path: &str) -> Result<Vec<u8>> {
        self.file(path)
    }

    fn env_vars(&self) -> Vec<(String, String)> {
        (self.env.iter())
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }
}

#[test]
fn data_value_flags_apply_by_kind_in_precedence_order() {
    let reader = Fake {
        files: vec![("vals.yml", "a: file\nb: file\n"), ("b.txt", "from b.txt")],
        env: vec![
            ("APP_c", "env"),
            ("APP_b", "env"),
            ("OTHER_a", "other"),
            ("Y_d", "[1, 2]"),
        ],
        ..Fake::default()
    };
    let values = "#@data/values\n---\na: \"\"\nb: \"\"\nc: \"\"\nd: []\n";
    let mut req = request(&[("values.yml", values)]);
    req.mode = Mode::DataValues;
    // given in the reverse of their precedence: each kind overrides the one before
    req.data_values = DataValueFlags {
        value_files: vec!["b=b.txt".into()],
        yamls: vec!["c=yaml".into()],
        strings: vec!["a=string".into(), "c=string".into()],
        env_yaml: vec!["Y".into()],
        env: vec!["APP".into()],
        files: vec!["vals.yml".into()],
    };
    let host = Host {
        reader: &reader,
        ..Host::default()
    };
    let out = stdout(run(req, host).expect("inspects"));
    assert_eq!(out, "a: string\nb: from b.txt\nc: yaml\nd:\n- 1\n- 2\n");
    assert_eq!(*reader.asked.lock().unwrap(), ["vals.yml", "b.txt"]);
}

#[test]
fn what_cannot_be_read_is_an_error_of_its_flag() {
    let reader = Fake::default();
    let host = || Host {
        reader: &reader,
        ..Host::default()
    };
    let mut req = request(&[("t.yml", "a: 1\n")]);
    req.data_values.files = vec!["missing.yml".into()];
    let e = run(req, host()).unwrap_err();
    assert_eq!(
        e.text(),
        "Extracting data value from file:\n  no file 'missing.yml'"
    );
    // a playground reads nothing outside its requests
    let mut req = request(&[("t.yml", "a: 1\n")]);
    req.data_values.value_files = vec!["a=x.txt".into()];
    let e = run(req, Host::default()).unwrap_err();
    assert_eq!(
        e.text(),
        "Extracting data value from file:\n  Reading file 'x.txt': there are no files outside the request"
    );
}

#[test]
fn templates_found_unread_are_read_and_data_files_are_not() {
    let reader = Fake {
        files: vec![("/pipe", "a: 1\n")],
        ..Fake::default()
    };
    let mut req = request(&[("t.yml", ""), ("d.txt", "")]);
    for (f, path) in req.files.iter_mut().zip(["/pipe", "/data"]) {
        f.unread = Some(Unread {
            path: path.into(),
            error: "unread".into(),
        });
    }
    req.file_marks = vec!["d.txt:type=data".into()];
    let host = Host {
        reader: &reader,
        ..Host::default()
    };
    assert_eq!(stdout(run(req, host).unwrap()), "a: 1\n");
    assert_eq!(*reader.asked.lock().unwrap(), ["/pipe"]);
}

#[test]
fn messages_go_to_the_host_as_they_happen() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    let host = Host {
        messages: Messages::new(move |b| sink.lock().unwrap().extend_from_slice(b)),
        ..Host::default()
    };
    let req = request(&[("t.yml", "#@ print(\"hi\")\na: 1\n")]);
    assert_eq!(stdout(run(req, host).unwrap()), "a: 1\n");
    assert_eq!(*seen.lock().unwrap(), b"hi\n");
}

#[cfg(feature = "serde")]
#[test]
fn a_failure_serialises_with_its_kind_location_and_frames() {
    let req = request(&[(
        "t.yml",
        "#@ def f():\n#@   return 1 + \"a\"\n#@ end\na: #@ f()\n",
    )]);
    let e = run(req, Host::default()).unwrap_err();
    let json = serde_json::to_value(&e).unwrap();
    assert_eq!(json["kind"], "evaluation");
    assert_eq!(
        json["location"],
        serde_json::json!({"file": "t.yml", "line": 2, "column": null})
    );
    assert_eq!(json["text"], e.text());
    let frames = json["frames"].as_array().unwrap();
    assert_eq!(frames[0]["function"], "f");
    assert_eq!(frames[1]["location"]["line"], 4);
    assert_eq!(json["violations"], serde_json::json!([]));
    let back: Diagnostic = serde_json::from_value(json).unwrap();
    assert_eq!(back, e);
}

/// Renders `req` asking for its facts: the run's result and the facts it left.
fn with_facts(req: Request) -> (Result<Output, Diagnostic>, Option<Facts>) {
    let sink = FactsSink::default();
    let host = Host {
        facts: Some(sink.clone()),
        ..Host::default()
    };
    (run(req, host), sink.take())
}

fn key(path: &str) -> Vec<Seg> {
    path.split('.').map(|k| Seg::Key(k.into())).collect()
}

#[test]
fn facts_say_what_set_each_value_in_order() {
    let mut req = request(&[
        (
            "schema.yml",
            "#@data/values-schema\n---\napp:\n  name: web\n  replicas: 1\n  ports:\n  - 80\n",
        ),
        ("values.yml", "#@data/values\n---\napp:\n  replicas: 2\n"),
        (
            "t.yml",
            "#@ load(\"@ytt:data\", \"data\")\nr: #@ data.values.app.replicas\n",
        ),
    ]);
    req.data_values.strings = vec!["app.name=api".into()];
    req.data_values.yamls = vec!["app.replicas=3".into(), "app.ports=[1, 2]".into()];
    let (out, facts) = with_facts(req);
    out.expect("renders");
    let facts = facts.expect("facts");
    let p = &facts.provenance;
    let at = |file: &str, line| Location::new(file, line);
    assert_eq!(
        p.of(&key("app.replicas")),
        [
            Origin::Schema(at("schema.yml", 5)),
            Origin::Document(at("values.yml", 4)),
            Origin::Flag {
                flag: "--data-value-yaml",
                text: "app.replicas=3".into()
            },
        ]
    );
    assert_eq!(
        p.of(&key("app.name")),
        [
            Origin::Schema(at("schema.yml", 4)),
            Origin::Flag {
                flag: "-v",
                text: "app.name=api".into()
            },
        ]
    );
    let mut second = key("app.ports");
    second.push(Seg::Index(1));
    assert_eq!(
        p.of(&second),
        [Origin::Flag {
            flag: "--data-value-yaml",
            text: "app.ports=[1, 2]".into()
        }]
    );
    let root = facts.schema.and_then(|s| s.root).expect("a schema");
    assert!(matches!(
        root.kind,
        crate::schema::export::FieldKind::Map(_)
    ));
    assert_eq!(
        crate::yaml::emit::yaml_node(&facts.values),
        "app:\n  name: api\n  replicas: 3\n  ports:\n  - 1\n  - 2\n"
    );
}

#[test]
fn facts_are_left_by_runs_that_fail_once_the_values_are_final() {
    // a template fails
    let req = request(&[
        ("values.yml", VALUES),
        (
            "t.yml",
            "#@ load(\"@ytt:data\", \"data\")\nr: #@ data.values.nothing\n",
        ),
    ]);
    let (out, facts) = with_facts(req);
    assert_eq!(out.unwrap_err().kind(), Kind::Evaluation);
    let facts = facts.expect("facts of a failed render");
    assert_eq!(
        facts.provenance.of(&key("replicas")),
        [Origin::Document(Location::new("values.yml", 3))]
    );
    // a rule rejects a value: the values are those it rejected
    let mut req = request(&[("schema.yml", SCHEMA), ("t.yml", TEMPLATE)]);
    req.data_values.files = vec![];
    req.data_values.strings = vec![];
    req.data_values.yamls = vec!["replicas=0".into()];
    let (out, facts) = with_facts(req);
    assert_eq!(out.unwrap_err().kind(), Kind::Validation);
    let facts = facts.expect("facts of a failed validation");
    assert_eq!(crate::yaml::emit::yaml_node(&facts.values), "replicas: 0\n");
    let rules = &facts.schema.and_then(|s| s.root).expect("a schema");
    let crate::schema::export::FieldKind::Map(items) = &rules.kind else {
        panic!("a map")
    };
    assert_eq!(items[0].1.rules[0].by, Location::new("schema.yml", 3));
    // the values are wrong for the schema: they are not final, there are no facts
    let req = request(&[
        ("schema.yml", SCHEMA),
        ("v.yml", "#@data/values\n---\nreplicas: x\n"),
    ]);
    let (out, facts) = with_facts(req);
    assert_eq!(out.unwrap_err().kind(), Kind::Schema);
    assert!(facts.is_none());
}

#[test]
fn no_facts_are_traced_unless_asked() {
    let req = request(&[("values.yml", VALUES), ("t.yml", TEMPLATE)]);
    let (out, facts) = with_facts(Request {
        mode: Mode::Schema(SchemaFormat::OpenApiV3),
        ..req.clone()
    });
    out.expect("inspects");
    assert!(facts.is_none(), "a schema inspection computes no values");
    assert_eq!(stdout(run(req, Host::default()).unwrap()), "r: 2\n");
}

/// What each `@overlay/match` node matched, as `file:line (about)`, per application.
fn matches_of(facts: &Facts) -> Vec<String> {
    (facts.overlays.iter())
        .map(|a| {
            let matched: Vec<String> = (a.matched.iter())
                .map(|m| match &m.about {
                    Some(about) => format!("{} ({about})", m.at),
                    None => m.at.to_string(),
                })
                .collect();
            format!(
                "{} expects {}: [{}] {:?}",
                a.overlay,
                a.expects,
                matched.join(", "),
                a.verdict
            )
        })
        .collect()
}

const DEPLOYMENTS: &str = "kind: Deployment\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: app\n  - name: side\n---\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  containers:\n  - name: app\n---\nkind: Service\nname: web\n";

#[test]
fn facts_say_what_each_overlay_matched_each_time_it_was_applied() {
    let overlay = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"Deployment\"}), expects=\"1+\"\n---\nspec:\n  containers:\n  #@overlay/match by=overlay.map_key(\"name\")\n  - name: app\n#@overlay/match by=overlay.subset({\"kind\": \"Job\"}), missing_ok=True\n---\nspec: {}\n";
    let code = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ def patch():\nlist:\n#@overlay/match by=\"name\"\n- name: b\n  v: 2\n#@ end\nout: #@ overlay.apply({\"list\": [{\"name\": \"a\"}, {\"name\": \"b\", \"v\": 1}]}, patch())\n";
    let req = request(&[
        ("d.yml", DEPLOYMENTS),
        ("code.yml", code),
        ("overlay.yml", overlay),
    ]);
    let (out, facts) = with_facts(req);
    out.expect("renders");
    assert_eq!(
        matches_of(&facts.expect("facts")),
        [
            // from code: items made from dicts are nowhere in a file
            "code.yml:5 expects 1: [(unknown) (b)] Applied",
            "overlay.yml:3 expects 1+: [d.yml:1 (Deployment web), d.yml:8 (Deployment api)] Applied",
            // once in each document matched
            "overlay.yml:7 expects 1: [d.yml:6 (app)] Applied",
            "overlay.yml:7 expects 1: [d.yml:14 (app)] Applied",
            "overlay.yml:9 expects [0, 1]: [] Applied",
        ]
    );
}

#[test]
fn facts_say_what_an_overlay_matched_when_its_expectation_failed() {
    let overlay = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"Service\"}), when=2\n---\nx: 1\n#@overlay/match by=overlay.subset({\"kind\": \"Deployment\"})\n---\ny: 1\n";
    let (out, facts) = with_facts(request(&[("d.yml", DEPLOYMENTS), ("o.yml", overlay)]));
    assert_eq!(out.unwrap_err().kind(), Kind::Overlay);
    assert_eq!(
        matches_of(&facts.expect("facts of a failed run")),
        [
            "o.yml:3 expects when 2: [d.yml:15 (Service web)] Skipped",
            "o.yml:6 expects 1: [d.yml:1 (Deployment web), d.yml:8 (Deployment api)] Failed(\"Expected number of matched nodes to be 1, but was 2 (lines: d.yml:1, d.yml:8)\")",
        ]
    );
}

#[test]
fn facts_say_what_a_library_s_overlays_matched() {
    let root = "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"app\").eval())\n";
    let overlay = "#@overlay/match by=lambda i, l, r: \"kind\" in l\n---\nmetadata:\n  #@overlay/match missing_ok=True\n  labels: {app: x}\n";
    let req = request(&[
        ("root.yml", root),
        (
            "_ytt_lib/app/d.yml",
            "kind: ConfigMap\nmetadata:\n  name: c\n",
        ),
        ("_ytt_lib/app/o.yml", overlay),
    ]);
    let (out, facts) = with_facts(req);
    assert_eq!(
        stdout(out.expect("renders")),
        "kind: ConfigMap\nmetadata:\n  name: c\n  labels:\n    app: x\n"
    );
    assert_eq!(
        matches_of(&facts.expect("facts")),
        [
            "_ytt_lib/app/o.yml:2 expects 1: [_ytt_lib/app/d.yml:1 (ConfigMap c)] Applied",
            "_ytt_lib/app/o.yml:5 expects [0, 1]: [] Applied",
        ]
    );
}
