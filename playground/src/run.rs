//! One render of the playground: a request (the files and the options the page sets) in,
//! what the command line would print out — standard output, standard error, and a
//! failure as the engine's structured diagnostic.
//!
//! The files are read as one `-f` directory would be: in path order. Output is the same
//! bytes `ytt -f DIR <flags>` prints; text outputs, which the command line writes only to
//! an output directory, are returned beside it.

use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use ytt::diagnostic::{Diagnostic, Kind};
use ytt::schema::export;
use ytt::workspace::{self, CliValues, RenderOptions};
use ytt::yaml::parser::ParseOptions;
use ytt::yaml::{emit, Doc, DocSet, FileNames, Location, Meta};
use ytt::{InputFile, Messages};

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
    pub schema_type: SchemaType,
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

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    #[default]
    Yaml,
    Json,
}

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

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SchemaType {
    #[default]
    OpenapiV3,
    JsonSchema,
    Markdown,
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
    pub error: Option<Failure>,
}

#[derive(Debug, Serialize)]
pub struct TextFile {
    pub path: String,
    pub text: String,
}

/// A [`Diagnostic`], for the page.
#[derive(Debug, Serialize)]
pub struct Failure {
    pub kind: &'static str,
    pub at: Option<At>,
    /// The report, as the command line prints it after `ytt: Error: `.
    pub text: String,
    pub frames: Vec<FailedFrame>,
    pub violations: Vec<FailedValue>,
}

/// A place in a file (`line` 0: the file as a whole).
#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct At {
    pub file: String,
    pub line: u32,
    pub column: Option<u32>,
}

#[derive(Debug, Serialize)]
pub struct FailedFrame {
    pub function: String,
    pub at: Option<At>,
    pub source: String,
}

#[derive(Debug, Serialize)]
pub struct FailedValue {
    pub path: String,
    pub message: String,
    pub found: Option<String>,
    pub value: Option<At>,
    pub rule: Option<At>,
    pub warning: bool,
}

/// Renders `req` with the standard library; `held_bytes` counts the bytes the page's
/// allocator holds, for the loop collector.
pub fn run(req: Request, held_bytes: Option<fn() -> usize>) -> Response {
    let stderr = Arc::new(Mutex::new(Vec::<u8>::new()));
    let sink = stderr.clone();
    let messages = Messages::new(move |bytes| {
        sink.lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(bytes)
    });
    let result = render(req, messages, held_bytes);
    let mut out = Response {
        stderr: String::from_utf8_lossy(&stderr.lock().unwrap_or_else(|e| e.into_inner()))
            .into_owned(),
        ..Response::default()
    };
    match result {
        Ok(done) => {
            out.stdout = done.stdout;
            out.stderr.push_str(&done.warnings);
            out.text_files = done.text_files;
        }
        Err(d) => {
            out.stderr.push_str(&format!("ytt: Error: {}\n", d.text()));
            out.error = Some(Failure::of(&d));
        }
    }
    out
}

struct Done {
    stdout: String,
    warnings: String,
    text_files: Vec<TextFile>,
}

fn render(
    req: Request,
    messages: Messages,
    held_bytes: Option<fn() -> usize>,
) -> Result<Done, Diagnostic> {
    // the YAML of a run (files and flags) shares one alias-expansion budget
    let yaml = ParseOptions::default();
    let names = FileNames::default();
    let mut data_values = Vec::new();
    for kv in &req.values {
        data_values.push(CliValues::from_kv(kv).map_err(Diagnostic::from_error)?);
    }
    for kv in &req.values_yaml {
        data_values
            .push(CliValues::from_kv_yaml(kv, &yaml, &names).map_err(Diagnostic::from_error)?);
    }
    let mut files = req.files;
    // as a directory's files are read
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let inputs: Vec<InputFile> = files
        .into_iter()
        .map(|f| InputFile::new(f.path, f.text.into_bytes()))
        .collect();
    let schema = req.inspect == Inspect::Schema;
    if schema && req.schema_type == SchemaType::Markdown && req.output != Format::Yaml {
        return Err(Diagnostic::from_error(anyhow::anyhow!(
            "Output type 'markdown' cannot be combined with a document format (json, pos)"
        )));
    }
    if inputs.is_empty() && req.inspect == Inspect::None {
        // nothing to evaluate: no output (as the command line)
        return Ok(Done {
            stdout: String::new(),
            warnings: String::new(),
            text_files: Vec::new(),
        });
    }
    let opts = RenderOptions {
        data_values,
        aliases: yaml.aliases,
        names,
        data_values_inspect: req.inspect == Inspect::DataValues,
        schema_inspect: schema,
        disable_values_validation: req.disable_values_validation || schema,
        disable_output_validation: req.disable_output_validation || schema,
        messages,
        modules: ytt_stdlib::modules(),
        held_bytes,
        ..RenderOptions::default()
    };
    let rendered = workspace::render(opts, inputs)?;
    let mut warnings = String::new();
    let (docs, text_files) = if let Some(schema) = rendered.schema {
        let (mut doc, notes) = match req.schema_type {
            SchemaType::OpenapiV3 => export::openapi::document(&schema),
            SchemaType::JsonSchema => export::jsonschema::document(&schema),
            SchemaType::Markdown => {
                return Ok(Done {
                    stdout: export::markdown::page(&schema),
                    warnings,
                    text_files: Vec::new(),
                })
            }
        };
        for n in notes {
            warnings.push_str(&n);
            warnings.push('\n');
        }
        if req.output == Format::Json {
            export::with_string_keys(&mut doc);
        }
        let docs = DocSet {
            docs: vec![Doc::new(doc, Meta::default())],
            meta: Meta::default(),
        };
        (docs, Vec::new())
    } else if let Some(values) = rendered.data_values {
        (workspace::data_values_documents(values), Vec::new())
    } else {
        workspace::stdout_documents(rendered.outputs)
    };
    let stdout = match req.output {
        Format::Yaml => emit::yaml_texts(&docs).concat(),
        Format::Json => emit::json_texts(&docs)
            .map_err(|e| Diagnostic::from_error(anyhow::anyhow!("{e}")))?
            .concat(),
    };
    Ok(Done {
        stdout,
        warnings,
        text_files: text_files
            .into_iter()
            .map(|(path, text)| TextFile { path, text })
            .collect(),
    })
}

impl Failure {
    fn of(d: &Diagnostic) -> Failure {
        Failure {
            kind: kind_name(d.kind()),
            at: d.location().and_then(At::of),
            text: d.text().to_owned(),
            frames: d
                .frames()
                .iter()
                .map(|f| FailedFrame {
                    function: f.function.clone(),
                    at: At::of(&f.location),
                    source: f.source.clone(),
                })
                .collect(),
            violations: d
                .violations()
                .iter()
                .map(|v| FailedValue {
                    path: v.path.clone(),
                    message: v.message.clone(),
                    found: v.found.clone(),
                    value: v.value.as_ref().and_then(At::of),
                    rule: v.rule.as_ref().and_then(At::of),
                    warning: v.warning,
                })
                .collect(),
        }
    }
}

impl At {
    /// A location in a named file (a value from a flag has none the page can open).
    fn of(l: &Location) -> Option<At> {
        Some(At {
            file: l.file.as_deref()?.to_owned(),
            line: l.line,
            column: l.column,
        })
    }
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Input => "input",
        Kind::Yaml => "yaml",
        Kind::Template => "template",
        Kind::Evaluation => "evaluation",
        Kind::Overlay => "overlay",
        Kind::Schema => "schema",
        Kind::Validation => "validation",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(e.kind, "template");
        assert_eq!(
            e.at.as_ref().map(|a| (a.file.as_str(), a.line)),
            Some(("t.yml", 2))
        );
        assert!(out.stderr.starts_with("ytt: Error: "), "{}", out.stderr);
        assert!(out.stdout.is_empty());
    }

    #[test]
    fn a_bad_flag_is_a_diagnostic() {
        let mut req = request(&[("t.yml", "a: 1\n")]);
        req.values = vec!["novalue".into()];
        let e = run(req, None).error.expect("an error");
        assert_eq!(e.kind, "other");
        assert!(e.at.is_none());
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
        assert_eq!(e.kind, "validation");
        let v = &e.violations[0];
        assert_eq!(v.path, "replicas");
        assert_eq!(
            v.value,
            Some(At {
                file: "values.yml".into(),
                line: 3,
                column: None
            })
        );
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
        req.schema_type = SchemaType::Markdown;
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
    fn requests_are_read_from_json() {
        let req: Request = serde_json::from_str(
            r#"{"files":[{"path":"a.yml","text":"a: 1"}],"output":"json","inspect":"data-values","schema_type":"json-schema"}"#,
        )
        .unwrap();
        assert_eq!(req.inspect, Inspect::DataValues);
        assert_eq!(req.schema_type, SchemaType::JsonSchema);
        assert!(serde_json::from_str::<Request>(r#"{"bogus":1}"#).is_err());
    }
}
