//! Schema export (`--data-values-schema-inspect -o openapi-v3|json-schema|markdown`):
//! the documents are checked for what they mean, not only for their shape.
//!
//! One schema uses every rule that can be exported. Its OpenAPI document must parse as
//! OpenAPI 3.0 and its JSON Schema must be a valid draft 2020-12 schema; the default data
//! values and a set of valid values must pass both this tool's validation and the JSON
//! Schema (with its `x-kubernetes-validations` CEL rules); and for every exported rule, a
//! value that breaks it must fail both.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value as Json;
use ytt::yaml::{Array, ArrayItem, Map, MapItem, Meta, Node};

const SCHEMA: &str = r#"#@data/values-schema
---
#@schema/title "Port"
#@schema/desc "The port to listen on"
#@schema/validation min=1, max=65535
port: 8080
#@schema/validation min_len=1, max_len=63, matches="^[a-z0-9-]+$"
name: web
#@schema/validation starts_with="https://"
url: https://example.com
#@schema/validation ends_with=".local"
domain: db.local
#@schema/validation one_of=["debug", "info", "error"]
logLevel: info
#@schema/validation format="ipv4"
address: 10.0.0.1
#@schema/validation multiple_of=1024
bufferBytes: 4096
#@schema/validation even=True
workers: 2
#@schema/validation odd=True
replicas: 3
#@schema/validation min=0.5, max=2.5
ratio: 1.0
#@schema/validation len=2
code: ab
#@schema/validation min_len=1, max_len=3
#@schema/default ["x"]
tags:
#@schema/validation min_len=1
- x
#@schema/validation len=2
labels:
  a: ""
  b: ""
#@schema/nullable
#@schema/validation not_null=True
password: ""
#@schema/validation cel=("min must not exceed max", "self.min <= self.max")
limits:
  min: 1
  max: 10
#@schema/validation one_not_null=True
source:
  #@schema/nullable
  #@schema/default "https://git.example.com/repo"
  git: ""
  #@schema/nullable
  http: ""
#@schema/nullable
#@schema/validation one_of=["a", "b"]
mode: ""
#@schema/examples ("a mode", "fast")
#@schema/deprecated "use mode"
#@schema/type any=True
legacy: null
"#;

/// The one value without a valid default (`not_null=True` on a nullable value).
const REQUIRED: &str = "password=secret";

struct Out {
    stdout: String,
    stderr: String,
    code: i32,
}

fn ytt(dir: &Path, args: &[&str]) -> Out {
    let out = Command::new(env!("CARGO_BIN_EXE_ytt"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run ytt");
    Out {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

fn with_schema(schema: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("schema.yml"), schema).unwrap();
    dir
}

#[track_caller]
fn ok_json(out: Out) -> Json {
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout))
}

fn export(dir: &Path, ty: &str) -> Json {
    ok_json(ytt(
        dir,
        &[
            "-f",
            "schema.yml",
            "--data-values-schema-inspect",
            "-o",
            &format!("json,{ty}"),
        ],
    ))
}

fn value_args(values: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = ["-f", "schema.yml", "--data-values-inspect", "-o", "json"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for v in values {
        args.push("--data-value-yaml".into());
        args.push((*v).into());
    }
    args
}

/// The final data values for `values` (`key=yaml` flags), checked by this tool; `Err`
/// is its report.
fn checked_values(dir: &Path, values: &[&str]) -> Result<Json, String> {
    let args = value_args(values);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = ytt(dir, &args);
    if out.code != 0 {
        return Err(out.stderr);
    }
    Ok(serde_json::from_str(&out.stdout).unwrap())
}

/// The final data values for `values`, not validated.
fn unchecked_values(dir: &Path, values: &[&str]) -> Json {
    let mut args = value_args(values);
    args.push("--dangerous-data-values-disable-validation".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    ok_json(ytt(dir, &args))
}

fn validator(schema: &Json) -> jsonschema::Validator {
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(schema)
        .expect("the exported JSON Schema compiles")
}

/// The keywords whose checks `instance` fails.
fn failed_keywords(v: &jsonschema::Validator, instance: &Json) -> Vec<String> {
    v.iter_errors(instance)
        .map(|e| {
            let path = e.schema_path().to_string();
            path.rsplit('/').next().unwrap_or("").to_owned()
        })
        .collect()
}

fn to_node(j: &Json) -> Node {
    match j {
        Json::Null => Node::Null,
        Json::Bool(b) => Node::Bool(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Node::Int(i.into()),
            None => Node::Float(n.as_f64().unwrap()),
        },
        Json::String(s) => Node::Str(s.as_str().into()),
        Json::Array(a) => Node::Array(Array {
            items: a
                .iter()
                .map(|v| ArrayItem {
                    value: to_node(v),
                    meta: Meta::default(),
                })
                .collect(),
        }),
        Json::Object(o) => Node::Map(Map {
            items: o
                .iter()
                .map(|(k, v)| MapItem {
                    key: Node::Str(k.as_str().into()),
                    value: to_node(v),
                    meta: Meta::default(),
                })
                .collect(),
        }),
    }
}

/// The messages of the `x-kubernetes-validations` rules `instance` breaks (CEL, with
/// `self` bound to the value the rule is on).
fn cel_failures(schema: &Json, instance: &Json) -> Vec<String> {
    let mut out = Vec::new();
    if instance.is_null() {
        return out;
    }
    if let Some(rules) = schema["x-kubernetes-validations"].as_array() {
        for r in rules {
            let rule = ytt::unstable::cel::compile(r["rule"].as_str().unwrap())
                .expect("the exported CEL rule compiles");
            if ytt::unstable::cel::evaluate(&rule, &to_node(instance)) != Ok(true) {
                out.push(r["message"].as_str().unwrap().to_owned());
            }
        }
    }
    if let (Some(props), Some(obj)) = (schema["properties"].as_object(), instance.as_object()) {
        for (k, s) in props {
            if let Some(v) = obj.get(k) {
                out.extend(cel_failures(s, v));
            }
        }
    }
    if let Some(items) = instance.as_array() {
        for v in items {
            out.extend(cel_failures(&schema["items"], v));
        }
    }
    out
}

#[test]
fn openapi_document_parses_as_openapi_3_0() {
    let dir = with_schema(SCHEMA);
    let doc = export(dir.path(), "openapi-v3");
    let parsed: openapiv3::OpenAPI =
        serde_json::from_value(doc.clone()).expect("an OpenAPI 3.0 document");
    assert_eq!(parsed.openapi, "3.0.0");
    let schemas = &parsed.components.as_ref().unwrap().schemas;
    assert!(schemas.contains_key("dataValues"));

    // the same constraints as the JSON Schema, with OpenAPI's nullable
    let dv = &doc["components"]["schemas"]["dataValues"];
    let js = export(dir.path(), "json-schema");
    for (key, s) in dv["properties"].as_object().unwrap() {
        let j = &js["properties"][key];
        for kw in [
            "minimum",
            "maximum",
            "minLength",
            "maxLength",
            "minItems",
            "maxItems",
            "minProperties",
            "maxProperties",
            "multipleOf",
            "pattern",
            "enum",
            "format",
        ] {
            assert_eq!(s[kw], j[kw], "{key}.{kw}");
        }
    }
    // CEL rules are OpenAPI's (Kubernetes'); a JSON Schema validator knows no such keyword
    assert!(!js.to_string().contains("x-kubernetes-validations"));
    assert_eq!(
        dv["properties"]["limits"]["x-kubernetes-validations"][0]["rule"],
        "self.min <= self.max"
    );
    assert_eq!(
        dv["properties"]["source"]["x-kubernetes-validations"][0]["rule"],
        "[has(self.git), has(self.http)].exists_one(x, x)"
    );
    assert_eq!(
        dv["properties"]["replicas"]["x-kubernetes-validations"][0]["rule"],
        "self % 2 != 0"
    );
    assert_eq!(dv["properties"]["mode"]["nullable"], Json::Bool(true));
    assert_eq!(dv["properties"]["password"]["nullable"], Json::Null);
    assert_eq!(dv["required"], serde_json::json!(["password"]));
    assert_eq!(dv["properties"]["legacy"]["example"], "fast");
}

#[test]
fn json_schema_is_a_valid_draft_2020_12_schema() {
    let dir = with_schema(SCHEMA);
    let js = export(dir.path(), "json-schema");
    assert_eq!(
        js["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    jsonschema::draft202012::meta::validate(&js).expect("a valid draft 2020-12 schema");
    assert_eq!(
        js["properties"]["mode"]["type"],
        serde_json::json!(["string", "null"])
    );
    assert_eq!(js["properties"]["password"]["type"], "string");
    assert!(js["properties"]["legacy"].get("type").is_none());
    assert_eq!(
        js["properties"]["legacy"]["examples"],
        serde_json::json!(["fast"])
    );
}

#[test]
fn defaults_and_valid_values_pass_the_exported_schema() {
    let dir = with_schema(SCHEMA);
    let js = export(dir.path(), "json-schema");
    let oa = export(dir.path(), "openapi-v3")["components"]["schemas"]["dataValues"].clone();
    let v = validator(&js);
    let valid: &[&[&str]] = &[
        // the defaults (with the one value that has no valid default)
        &[],
        &["port=1", "name=a", "url=https://x", "domain=.local"],
        &[
            "port=65535",
            "name=a-b-9",
            "logLevel=error",
            "address=192.168.1.1",
        ],
        &["bufferBytes=0", "workers=-4", "replicas=-3", "ratio=0.5"],
        &["bufferBytes=2048", "workers=0", "replicas=1", "ratio=2.5"],
        &["ratio=2", "code=zz", "tags=[a]", "tags=[a, b, c]"],
        &["source.git=null", "source.http=http://x", "mode=a"],
        &["mode=b", "legacy={x: [1]}", "limits.min=10"],
    ];
    for set in valid {
        let mut values = set.to_vec();
        values.push(REQUIRED);
        let instance = checked_values(dir.path(), &values)
            .unwrap_or_else(|e| panic!("{values:?} should be valid: {e}"));
        let failed = failed_keywords(&v, &instance);
        assert!(
            failed.is_empty(),
            "{values:?}: JSON Schema failed {failed:?}"
        );
        let cel = cel_failures(&oa, &instance);
        assert!(cel.is_empty(), "{values:?}: CEL rules failed {cel:?}");
    }
}

#[test]
fn every_exported_rule_rejects_what_the_tool_rejects() {
    let dir = with_schema(SCHEMA);
    let js = export(dir.path(), "json-schema");
    let oa = export(dir.path(), "openapi-v3")["components"]["schemas"]["dataValues"].clone();
    let v = validator(&js);
    // (data value, the rule's `must be:` text, the JSON Schema keyword or the message of
    // the OpenAPI document's CEL rule)
    let cases: &[(&str, &str, &str)] = &[
        ("port=0", "a value >= 1", "minimum"),
        ("port=70000", "a value <= 65535", "maximum"),
        ("name=\"\"", "length >= 1", "minLength"),
        (
            "name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "length <= 63",
            "maxLength",
        ),
        ("name=Web", "a value matching \"^[a-z0-9-]+$\"", "pattern"),
        (
            "url=http://x",
            "a value starting with \"https://\"",
            "pattern",
        ),
        (
            "domain=db.remote",
            "a value ending with \".local\"",
            "pattern",
        ),
        (
            "logLevel=warn",
            "one of [\"debug\", \"info\", \"error\"]",
            "enum",
        ),
        ("address=999.1.1.1", "a valid ipv4", "format"),
        ("bufferBytes=1000", "a multiple of 1024", "multipleOf"),
        ("workers=3", "an even number", "multipleOf"),
        ("replicas=4", "an odd number", "not"),
        ("replicas=4", "an odd number", "an odd number"),
        ("ratio=0.1", "a value >= 0.5", "minimum"),
        ("ratio=3", "a value <= 2.5", "maximum"),
        ("code=abc", "length = 2", "maxLength"),
        ("code=a", "length = 2", "minLength"),
        ("tags=[]", "length >= 1", "minItems"),
        ("tags=[a, b, c, d]", "length <= 3", "maxItems"),
        ("tags=[\"\"]", "length >= 1", "minLength"),
        ("password=null", "not null", "type"),
        (
            "limits.min=20",
            "min must not exceed max",
            "min must not exceed max",
        ),
        (
            "source.git=null",
            "exactly one of all children to be not null",
            "exactly one of all children to be not null",
        ),
        (
            "source.git=null",
            "exactly one of all children to be not null",
            "oneOf",
        ),
        (
            "source.http=http://x",
            "exactly one of all children to be not null",
            "exactly one of all children to be not null",
        ),
        (
            "source.http=http://x",
            "exactly one of all children to be not null",
            "oneOf",
        ),
        ("mode=c", "one of [\"a\", \"b\"]", "enum"),
    ];
    for (value, must_be, keyword) in cases {
        // the required value first: a case may override it
        let values = [REQUIRED, value];
        let report = checked_values(dir.path(), &values)
            .expect_err(&format!("{value} should break \"{must_be}\""));
        assert!(
            report.contains(&format!("- must be: {must_be} (by: schema.yml:")),
            "{value}: {report}"
        );
        let instance = unchecked_values(dir.path(), &values);
        let failed = failed_keywords(&v, &instance);
        let cel = cel_failures(&oa, &instance);
        assert!(
            failed.iter().any(|k| k == keyword) || cel.iter().any(|m| m == keyword),
            "{value}: expected {keyword} to fail; JSON Schema failed {failed:?}, CEL {cel:?}"
        );
    }
}

#[test]
fn length_of_a_map_is_exported_as_properties_count() {
    // a map's keys are fixed by the schema: a length rule that does not fit them fails
    // on the defaults, in this tool and in the exported schema alike
    let dir = with_schema(
        "#@data/values-schema\n---\n#@schema/validation min_len=3\nlabels:\n  a: \"\"\n  b: \"\"\n",
    );
    let js = export(dir.path(), "json-schema");
    assert_eq!(js["properties"]["labels"]["minProperties"], 3);
    let err = checked_values(dir.path(), &[]).unwrap_err();
    assert!(err.contains("- must be: length >= 3"), "{err}");
    let instance = unchecked_values(dir.path(), &[]);
    assert!(failed_keywords(&validator(&js), &instance).contains(&"minProperties".to_owned()));
}

#[test]
fn rules_that_cannot_be_expressed_are_named_on_stderr() {
    let dir = with_schema(
        r#"#@data/values-schema
---
#@schema/validation ("an even number", lambda v: v % 2 == 0), min=0, when=lambda v: v > 100
slots: 2
#@schema/validation matches="^a", starts_with="ab"
name: abc
#@schema/validation min_len=2, warn=True
soft: ab
nested:
  #@schema/validation min="a"
  letter: b
"#,
    );
    for ty in ["openapi-v3", "json-schema"] {
        let out = ytt(
            dir.path(),
            &["-f", "schema.yml", "--data-values-schema-inspect", "-o", ty],
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert_eq!(
            out.stderr,
            "Warning: not exported: slots: an even number (by: schema.yml:3)\n\
             Warning: not exported: slots: a value >= 0 (by: schema.yml:3)\n\
             Warning: not exported: soft: length >= 2 (by: schema.yml:7)\n\
             Warning: not exported: nested.letter: a value >= \"a\" (by: schema.yml:10)\n"
        );
        assert!(out.stdout.contains("pattern: ^a\n"), "{}", out.stdout);
        // a second pattern is one more condition
        assert!(out.stdout.contains("allOf:\n"), "{}", out.stdout);
        assert!(out.stdout.contains("- pattern: ^ab\n"), "{}", out.stdout);
        assert!(!out.stdout.contains("minimum"), "{}", out.stdout);
        assert!(!out.stdout.contains("minLength"), "{}", out.stdout);
    }
}

#[test]
fn markdown_reference_page() {
    let dir = with_schema(SCHEMA);
    let out = ytt(
        dir.path(),
        &[
            "-f",
            "schema.yml",
            "--data-values-schema-inspect",
            "-o",
            "markdown",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "");
    let page = out.stdout;
    assert!(page
        .starts_with("# Data values\n\n| Path | Type | Default | Constraints | Description |\n"));
    assert!(page.contains(
        "| `port` | integer | `8080` | a value >= 1<br>a value <= 65535 | **Port**<br>The port to listen on |\n"
    ));
    assert!(page.contains("| `tags[]` | string | `\"x\"` | length >= 1 |  |\n"));
    assert!(page.contains("| `password` | string or null | (required) | not null |  |\n"));
    assert!(page.contains(
        "| `legacy` | any | `null` |  | Deprecated: use mode<br>Example (a mode): `\"fast\"` |\n"
    ));
    assert!(page.contains(
        "| `name` | string | `\"web\"` | length >= 1<br>length <= 63<br>a value matching \"^[a-z0-9-]+$\" |  |\n"
    ));
    let out = ytt(
        dir.path(),
        &[
            "-f",
            "schema.yml",
            "--data-values-schema-inspect",
            "-o",
            "json,markdown",
        ],
    );
    assert_eq!(out.code, 1);
}

#[test]
fn without_a_schema_anything_goes() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("values.yml"), "#@data/values\n---\na: 1\n").unwrap();
    let out = ytt(
        dir.path(),
        &[
            "-f",
            "values.yml",
            "--data-values-schema-inspect",
            "-o",
            "json-schema",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "$schema: https://json-schema.org/draft/2020-12/schema\ndefault: null\n"
    );
    let out = ytt(
        dir.path(),
        &[
            "-f",
            "values.yml",
            "--data-values-schema-inspect",
            "-o",
            "openapi-v3",
        ],
    );
    assert!(out
        .stdout
        .ends_with("    dataValues:\n      nullable: true\n      default: null\n"));
}

#[test]
fn a_malformed_rule_is_an_error() {
    let dir =
        with_schema("#@data/values-schema\n---\n#@schema/validation min_len=\"x\"\nname: a\n");
    let out = ytt(
        dir.path(),
        &[
            "-f",
            "schema.yml",
            "--data-values-schema-inspect",
            "-o",
            "openapi-v3",
        ],
    );
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("min_len"), "{}", out.stderr);
}

/// `@schema/examples` are exported as written: the example is not completed with the
/// type's defaults.
#[test]
fn examples_are_exported_as_written() {
    let dir = with_schema(
        "#@data/values-schema\n#@schema/examples (\"ex\", {\"a\": 1})\n---\na: 0\ne: x\nm:\n  #@schema/examples (\"one\", {\"k\": 2})\n  inner:\n    k: 0\n    j: z\n",
    );
    let doc = export(dir.path(), "openapi-v3");
    let root = &doc["components"]["schemas"]["dataValues"];
    assert_eq!(root["example"], serde_json::json!({"a": 1}));
    assert_eq!(root["x-example-description"], "ex");
    assert_eq!(
        root["properties"]["m"]["properties"]["inner"]["example"],
        serde_json::json!({"k": 2})
    );
    let js = export(dir.path(), "json-schema");
    assert_eq!(js["examples"], serde_json::json!([{"a": 1}]));
}

/// A YAML 1.1 boolean key (`on:`) is `true` in the OpenAPI document, as the reference
/// prints it; JSON Schema property names are strings.
#[test]
fn boolean_keys_in_the_openapi_document() {
    let dir = with_schema("#@data/values-schema\n---\non: 1\nname: x\n");
    let out = ytt(
        dir.path(),
        &[
            "-f",
            "schema.yml",
            "--data-values-schema-inspect",
            "-o",
            "openapi-v3",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("      properties:\n        true:\n          type: integer\n"),
        "{}",
        out.stdout
    );
    // as JSON, both documents name it "true"
    let doc = export(dir.path(), "openapi-v3");
    assert_eq!(
        doc["components"]["schemas"]["dataValues"]["properties"]["true"]["type"],
        "integer"
    );
    let js = export(dir.path(), "json-schema");
    assert_eq!(js["properties"]["true"]["type"], "integer");
}
