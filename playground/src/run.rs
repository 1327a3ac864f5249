//! One render of the playground: a request (the files and the options the page sets) in,
//! what the command line would print out — standard output, standard error, and a
//! failure as the engine's structured diagnostic.
//!
//! The files are read as one `-f` directory would be: in path order. Output is the same
//! bytes `ytt -f DIR <flags>` prints; text outputs, which the command line writes only to
//! an output directory, are returned beside it.

use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use ytt::files::SourceFile;
use ytt::frontend::{self, DataValueFlags, FactsSink, Format, Host, Mode, SchemaFormat};
use ytt::{Diagnostic, Messages};

/// What the page asks for.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Request {
    pub files: Vec<File>,
    /// `-v key=value`, one per entry.
    pub values: Vec<String>,
    /// `--data-value-yaml key=yaml`, one per entry.
    pub values_yaml: Vec<String>,
    /// `-o`
    pub output: Format,
    pub inspect: Inspect,
    /// `--data-values-schema-inspect`'s `-o`.
    pub schema_type: SchemaFormat,
    /// `--dangerous-data-values-disable-validation`
    pub disable_values_validation: bool,
    /// `--output-disable-validation`
    pub disable_output_validation: bool,
}

#[derive(Debug, Deserialize)]
pub struct File {
    pub path: String,
    pub text: String,
}

/// The page's choice of inspection (the schema's format is chosen apart).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Inspect {
    /// Render the templates.
    #[default]
    None,
    /// `--data-values-inspect`
    DataValues,
    /// `--data-values-schema-inspect`
    Schema,
}

/// What the command line would have printed.
#[derive(Debug, Default, Serialize)]
pub struct Response {
    /// Standard output.
    pub stdout: String,
    /// Standard error: `print()` output and warnings as they happened, then the error
    /// line of a failed run (`ytt: Error: …`).
    pub stderr: String,
    /// The text outputs (`--output-files` would write them), in output order.
    pub text_files: Vec<TextFile>,
    /// Why the run failed.
    pub error: Option<Diagnostic>,
}

#[derive(Debug, Serialize)]
pub struct TextFile {
    pub path: String,
    pub text: String,
}

/// Renders `req` with the standard library; `held_bytes` counts the bytes the page's
/// allocator holds, for the loop collector.
pub fn run(req: Request, held_bytes: Option<fn() -> usize>) -> Response {
    run_with_facts(req, held_bytes, None)
}

/// [`run`], leaving what the run found of its data values in `facts` (for hover and
/// completion, `editor`).
pub fn run_with_facts(
    req: Request,
    held_bytes: Option<fn() -> usize>,
    facts: Option<FactsSink>,
) -> Response {
    let stderr = Arc::new(Mutex::new(Vec::<u8>::new()));
    let sink = stderr.clone();
    let host = Host {
        messages: Messages::new(move |bytes| {
            sink.lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend_from_slice(bytes)
        }),
        modules: ytt_stdlib::modules(),
        held_bytes,
        facts,
        ..Host::default()
    };
    let result = frontend::run(request(req), host).and_then(|output| {
        let warnings: String = output.warnings.iter().map(|w| format!("{w}\n")).collect();
        let stdout = output.into_stdout();
        Ok((stdout.text()?, warnings, stdout.text_outputs))
    });
    let mut out = Response {
        stderr: String::from_utf8_lossy(&stderr.lock().unwrap_or_else(|e| e.into_inner()))
            .into_owned(),
        ..Response::default()
    };
    match result {
        Ok((stdout, warnings, text_outputs)) => {
            out.stdout = stdout;
            out.stderr.push_str(&warnings);
            out.text_files = text_outputs
                .into_iter()
                .map(|(path, text)| TextFile { path, text })
                .collect();
        }
        Err(d) => {
            out.stderr.push_str(&format!("ytt: Error: {}\n", d.text()));
            out.error = Some(d);
        }
    }
    out
}

/// The run `req` stands for: its files read as a directory's are, in path order.
fn request(req: Request) -> frontend::Request {
    let mut files = req.files;
    files.sort_by(|a, b| a.path.cmp(&b.path));
    frontend::Request {
        files: (files.into_iter())
            .map(|f| SourceFile::new(f.path, f.text.into_bytes()))
            .collect(),
        data_values: DataValueFlags {
            strings: req.values,
            yamls: req.values_yaml,
            ..DataValueFlags::default()
        },
        mode: match req.inspect {
            Inspect::None => Mode::Render,
            Inspect::DataValues => Mode::DataValues,
            Inspect::Schema => Mode::Schema(req.schema_type),
        },
        format: req.output,
        disable_values_validation: req.disable_values_validation,
        disable_output_validation: req.disable_output_validation,
        ..frontend::Request::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ytt::yaml::Location;
    use ytt::Kind;

    fn request(files: &[(&str, &str)]) -> Request {
        Request {
            files: files
                .iter()
                .map(|(p, t)| File {
                    path: (*p).into(),
                    text: (*t).into(),
                })
                .collect(),
            ..Request::default()
        }
    }

    #[test]
    fn files_are_read_in_path_order_as_from_a_directory() {
        let req = request(&[("b.yml", "b: 2\n"), ("a.yml", "a: 1\n")]);
        let out = run(req, None);
        assert_eq!(out.stdout, "a: 1\n---\nb: 2\n");
        assert!(out.error.is_none());
    }

    #[test]
    fn flags_print_and_json_output() {
        let mut req = request(&[
            (
                "values.yml",
                "#@data/values\n---\nname: x\ncount: 1\n",
            ),
            (
                "t.yml",
                "#@ load(\"@ytt:data\", \"data\")\n#@ print(\"hi\")\nname: #@ data.values.name\ncount: #@ data.values.count\n",
            ),
        ]);
        req.values = vec!["name=y".into()];
        req.values_yaml = vec!["count=[1, 2]".into()];
        req.output = Format::Json;
        let out = run(req, None);
        assert_eq!(out.stdout, r#"{"count":[1,2],"name":"y"}"#);
        assert_eq!(out.stderr, "hi\n");
    }

    #[test]
    fn a_failure_is_located_with_its_kind() {
        let out = run(request(&[("t.yml", "a: 1\nb: #@ 1 +\n")]), None);
        let e = out.error.expect("an error");
        assert_eq!(e.kind(), Kind::Template);
        assert_eq!(e.location(), Some(&Location::new("t.yml", 2)));
        assert!(out.stderr.starts_with("ytt: Error: "), "{}", out.stderr);
        assert!(out.stdout.is_empty());
    }

    #[test]
    fn a_bad_flag_is_a_diagnostic() {
        let mut req = request(&[("t.yml", "a: 1\n")]);
        req.values = vec!["novalue".into()];
        let e = run(req, None).error.expect("an error");
        assert_eq!(e.kind(), Kind::Other);
        assert!(e.location().is_none());
    }

    #[test]
    fn violations_name_the_value_and_the_rule() {
        let schema = "#@data/values-schema\n---\n#@schema/validation min=1\nreplicas: 1\n";
        let values = "#@data/values\n---\nreplicas: 0\n";
        let out = run(
            request(&[
                ("schema.yml", schema),
                ("values.yml", values),
                ("t.yml", "a: 1\n"),
            ]),
            None,
        );
        let e = out.error.expect("an error");
        assert_eq!(e.kind(), Kind::Validation);
        let v = &e.violations()[0];
        assert_eq!(v.path, "replicas");
        assert_eq!(v.value, Some(Location::new("values.yml", 3)));
        assert_eq!(v.rule.as_ref().map(|r| r.line), Some(3));
        let mut req = request(&[
            ("schema.yml", schema),
            ("values.yml", values),
            ("t.yml", "a: 1\n"),
        ]);
        req.disable_values_validation = true;
        assert_eq!(run(req, None).stdout, "a: 1\n");
    }

    #[test]
    fn schema_exports_and_data_values() {
        let schema = "#@data/values-schema\n---\n#@schema/validation min=1\nreplicas: 1\n";
        let mut req = request(&[("schema.yml", schema)]);
        req.inspect = Inspect::Schema;
        let out = run(req, None);
        assert!(out.stdout.starts_with("openapi: 3.0.0\n"), "{}", out.stdout);
        assert!(out.stdout.contains("minimum: 1"), "{}", out.stdout);
        let mut req = request(&[("schema.yml", schema)]);
        req.inspect = Inspect::Schema;
        req.schema_type = SchemaFormat::Markdown;
        req.output = Format::Json;
        assert!(run(req, None).error.is_some());
        let mut req = request(&[("schema.yml", schema)]);
        req.inspect = Inspect::DataValues;
        req.values_yaml = vec!["replicas=3".into()];
        assert_eq!(run(req, None).stdout, "replicas: 3\n");
    }

    #[test]
    fn text_outputs_come_beside_stdout() {
        let out = run(
            request(&[("r.txt", "(@= str(1 + 1) @)\n"), ("a.yml", "a: 1\n")]),
            None,
        );
        assert_eq!(out.stdout, "a: 1\n");
        assert_eq!(out.text_files.len(), 1);
        assert_eq!(
            (
                out.text_files[0].path.as_str(),
                out.text_files[0].text.as_str()
            ),
            ("r.txt", "2\n")
        );
    }

    #[test]
    fn the_response_is_the_json_the_page_reads() {
        let out = run(
            request(&[(
                "t.yml",
                "#@ def f():\n#@   return 1 + \"a\"\n#@ end\na: #@ f()\n",
            )]),
            None,
        );
        let json = serde_json::to_value(&out).unwrap();
        let e = &json["error"];
        assert_eq!(e["kind"], "evaluation");
        assert_eq!(
            e["location"],
            serde_json::json!({"file": "t.yml", "line": 2, "column": null})
        );
        assert_eq!(e["frames"][1]["location"]["line"], 4);
        assert_eq!(e["frames"][1]["function"], "<toplevel>");
        assert!(json["stderr"].as_str().unwrap().starts_with("ytt: Error: "));
        assert_eq!(json["text_files"], serde_json::json!([]));
    }

    #[test]
    fn requests_are_read_from_json() {
        let req: Request = serde_json::from_str(
            r#"{"files":[{"path":"a.yml","text":"a: 1"}],"output":"json","inspect":"data-values","schema_type":"json-schema"}"#,
        )
        .unwrap();
        assert_eq!(req.inspect, Inspect::DataValues);
        assert_eq!(req.schema_type, SchemaFormat::JsonSchema);
        assert!(serde_json::from_str::<Request>(r#"{"bogus":1}"#).is_err());
    }
}
