//! The front ends' layer: the request every front end makes (the command line, the
//! playground, a language server) and the result they all read.
//!
//! A [`Request`] is the files as found, the file marks, the data-value flags as given, what
//! to do ([`Mode`]: render, or which inspection) and the document [`Format`]. [`run`] applies
//! the marks, reads what the run needs through the front end's [`Reader`], parses the
//! data-value flags, renders, and exports a schema; the [`Output`] holds what the mode asked
//! for (the output files, the files inspected, the final data values, the exported schema),
//! warnings, and the run's file names, and says what standard output shows
//! ([`Output::into_stdout`]). A failure is the engine's [`Diagnostic`].
//!
//! What stays with each front end: finding and reading files, the environment, where
//! output is written (files, directories, standard streams), and its own flags' syntax.

mod data_values;
mod output;
pub mod syntax;

use anyhow::{anyhow, bail, Result};

use crate::diagnostic::Diagnostic;
use crate::eval::budget::MemoryBudget;
use crate::files::{accessible_order, marks, FileKind, InputFile, SourceFile, Unread};
use crate::messages::Messages;
use crate::modules::Modules;
pub use crate::overlay::{Applied, Matched, Verdict};
use crate::schema::export::{self, SchemaExport};
pub use crate::workspace::facts::{Facts, FactsSink, Origin, Provenance, Seg};
use crate::workspace::{self, RenderOptions};
use crate::yaml::parser::ParseOptions;
use crate::yaml::FileNames;
pub use data_values::DataValueFlags;
pub use output::{Export, Output, Stdout};

/// What a front end asks of a run.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// The root library's files as found (`-f`, `--bulk-in`), in order.
    pub files: Vec<SourceFile>,
    /// `--file-mark path:key=value`, in order.
    pub file_marks: Vec<String>,
    pub data_values: DataValueFlags,
    pub mode: Mode,
    /// How documents are written (`-o yaml|json|pos`).
    pub format: Format,
    /// `--strict`
    pub strict: bool,
    /// `--ignore-unknown-comments`
    pub ignore_unknown_comments: bool,
    /// `--implicit-map-key-overrides`
    pub implicit_map_key_overrides: bool,
    /// `--dangerous-data-values-disable-validation`
    pub disable_values_validation: bool,
    /// `--output-disable-validation`
    pub disable_output_validation: bool,
}

/// What a run is for: rendering, or one of the inspections (each stops before templates
/// are evaluated).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Render the templates.
    #[default]
    Render,
    /// `--files-inspect`: the root library's accessible files.
    Files,
    /// `--data-values-inspect`: the root library's final data values.
    DataValues,
    /// `--data-values-schema-inspect`: the root library's schema, exported (`-o
    /// openapi-v3|json-schema|markdown`); data values are not validated.
    Schema(SchemaFormat),
}

/// How documents are written (`-o`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum Format {
    #[default]
    Yaml,
    Json,
    /// Each node with the position it came from.
    Pos,
}

/// How a schema is exported.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
pub enum SchemaFormat {
    /// An OpenAPI v3 document (in the request's format).
    #[default]
    #[cfg_attr(feature = "serde", serde(rename = "openapi-v3"))]
    OpenApiV3,
    /// A JSON Schema 2020-12 document (in the request's format).
    JsonSchema,
    /// A Markdown page: a YAML request only (there is no document to format).
    Markdown,
}

/// What a request names outside itself, read by the front end that made it (the command
/// line reads the disk, standard input and its process's environment).
pub trait Reader {
    /// An input file found unread (see [`Unread`]) that the run templates: its bytes.
    fn unread(&self, file: &Unread) -> Result<Vec<u8>>;
    /// `--data-values-file`'s argument without its library selector (`[name=]path`): the
    /// files it stands for, each with the relative path it goes by and its bytes.
    fn values_files(&self, arg: &str) -> Result<Vec<(String, Vec<u8>)>>;
    /// `--data-value-file`'s path: the file's bytes.
    fn value_file(&self, path: &str) -> Result<Vec<u8>>;
    /// The environment's variables, as text.
    fn env_vars(&self) -> Vec<(String, String)>;
}

/// The reader of a front end whose requests hold everything (a playground): nothing
/// outside them can be read, and there are no environment variables.
pub struct NothingOutside;

impl Reader for NothingOutside {
    fn unread(&self, file: &Unread) -> Result<Vec<u8>> {
        Err(anyhow!("{}", file.error))
    }

    fn values_files(&self, arg: &str) -> Result<Vec<(String, Vec<u8>)>> {
        bail!("Reading file '{arg}': there are no files outside the request")
    }

    fn value_file(&self, path: &str) -> Result<Vec<u8>> {
        bail!("Reading file '{path}': there are no files outside the request")
    }

    fn env_vars(&self) -> Vec<(String, String)> {
        Vec::new()
    }
}

/// What the program running a request provides (see [`RenderOptions`] for each).
pub struct Host<'a> {
    /// Where `print()` output and warnings go as they happen.
    pub messages: Messages,
    /// The `@ytt:` modules templates may load besides the engine's own.
    pub modules: Modules,
    pub held_bytes: Option<fn() -> usize>,
    pub memory_budget: Option<MemoryBudget>,
    /// The front end writes standard output ([`Output::into_stdout`]), not output files:
    /// YAML documents are then written while the run goes on, on another core.
    pub write_ahead: bool,
    pub reader: &'a (dyn Reader + Sync),
    /// Where the root library's data values, schema and what set each value go once the
    /// values are final, when the front end asks (a language server): a run that fails
    /// afterwards leaves them too. Nothing is traced without it.
    pub facts: Option<FactsSink>,
}

impl Default for Host<'_> {
    fn default() -> Self {
        Host {
            messages: Messages::default(),
            modules: Modules::default(),
            held_bytes: None,
            memory_budget: None,
            write_ahead: false,
            reader: &NothingOutside,
            facts: None,
        }
    }
}

/// Runs `request` on a thread with the run's stack (see [`workspace::render`]).
pub fn run(request: Request, host: Host) -> Result<Output, Diagnostic> {
    workspace::on_run_stack(move || run_on_this_thread(request, host))
}

/// Builds ahead what every templated run needs and builds once per process (the
/// globals of templates' Starlark), so that a host with an idle core can do it while a
/// run starts: the run waits only for what is not built by the time it needs it.
pub fn warm_up() {
    crate::eval::globals::globals();
}

/// [`run`] on the caller's thread, whose stack has [`workspace::RUN_STACK`] already.
pub fn run_on_this_thread(request: Request, host: Host) -> Result<Output, Diagnostic> {
    let mut output = Output::new(request.mode, request.format);
    let Some((opts, files)) =
        prepare(request, host, &mut output).map_err(Diagnostic::from_error)?
    else {
        return Ok(output);
    };
    let mode = output.mode;
    let rendered = workspace::render_on_this_thread(opts, files)?;
    output.names = rendered.names;
    match mode {
        Mode::Render => output.files = rendered.outputs,
        Mode::DataValues => output.data_values = rendered.data_values,
        Mode::Schema(format) => {
            let schema = rendered
                .schema
                .ok_or_else(|| anyhow!("internal error: no schema was computed"));
            let exported =
                schema.and_then(|s| export_schema(&s, format, output.format, &mut output.warnings));
            output.schema = Some(exported.map_err(Diagnostic::from_error)?);
        }
        Mode::Files => {}
    }
    Ok(output)
}

/// The options and files of the run `request` needs, or none when the output is complete
/// without one (the files inspected; no files to render).
fn prepare(
    request: Request,
    host: Host,
    output: &mut Output,
) -> Result<Option<(RenderOptions, Vec<InputFile>)>> {
    let mut files = marks::apply(request.files, &request.file_marks)?;
    if request.mode == Mode::Files {
        let paths: Vec<&str> = files.iter().map(|f| f.rel_path.as_str()).collect();
        let accessible = accessible_order(&paths).into_iter();
        output.accessible_files = Some(accessible.map(|i| paths[i].to_owned()).collect());
        return Ok(None);
    }
    // what the run templates is read now (a named pipe, a link not to a regular file); a
    // data file stays unread (`data.read()` of it fails)
    for f in files.iter_mut().filter(|f| f.kind != FileKind::Data) {
        if let Some(unread) = f.unread.take() {
            f.data = host.reader.unread(&unread)?.into();
        }
    }
    // the YAML of a run (files and flags) shares one alias-expansion budget
    let yaml = ParseOptions {
        strict: request.strict,
        ..ParseOptions::default()
    };
    // the run's file names: the data values parsed here are positioned in them
    let names = FileNames::default();
    let data_values = data_values::parse(&request.data_values, host.reader, &yaml, &names)?;
    if files.is_empty() && request.mode == Mode::Render {
        // nothing to evaluate: no output (as the reference)
        return Ok(None);
    }
    let opts = RenderOptions {
        ignore_unknown_comments: request.ignore_unknown_comments,
        implicit_map_key_overrides: request.implicit_map_key_overrides,
        strict: request.strict,
        data_values,
        aliases: yaml.aliases,
        names,
        data_values_inspect: request.mode == Mode::DataValues,
        schema_inspect: matches!(request.mode, Mode::Schema(_)),
        disable_values_validation: request.disable_values_validation,
        disable_output_validation: request.disable_output_validation,
        messages: host.messages,
        modules: host.modules,
        held_bytes: host.held_bytes,
        memory_budget: host.memory_budget,
        write_ahead: host.write_ahead && request.format == Format::Yaml,
        facts: host.facts,
        ..RenderOptions::default()
    };
    Ok(Some((opts, files)))
}

/// The schema as `format` asks, its documents' keys as the document `format` needs; each
/// rule the export cannot carry is named in `warnings`.
fn export_schema(
    schema: &SchemaExport,
    format: SchemaFormat,
    documents: Format,
    warnings: &mut Vec<String>,
) -> Result<Export> {
    let (mut doc, notes) = match format {
        SchemaFormat::OpenApiV3 => export::openapi::document(schema),
        SchemaFormat::JsonSchema => export::jsonschema::document(schema),
        SchemaFormat::Markdown => {
            if documents != Format::Yaml {
                bail!(
                    "Output type 'markdown' cannot be combined with a document format (json, pos)"
                );
            }
            return Ok(Export::Page(export::markdown::page(schema)));
        }
    };
    warnings.extend(notes);
    if documents == Format::Json {
        export::with_string_keys(&mut doc);
    }
    Ok(Export::Document(doc))
}

#[cfg(test)]
mod tests;
