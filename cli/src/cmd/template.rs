//! The template command (the root command, `template`, `t`, `tpl`): read the inputs,
//! apply file marks, render the root library, write the output.

use std::io::Write as _;
use std::time::Instant;

use anyhow::{bail, Result};

use super::options::{Options, OutputFormat, SchemaType};
use super::output::{self, RunOutput};
use crate::files;
use ytt::files::{accessible_order, bulk, marks, InputFile, SourceFile};
use ytt::schema::export;
use ytt::workspace::{self, RenderOptions};
use ytt::yaml::parser::ParseOptions;
use ytt::yaml::{Array, ArrayItem, Doc, DocSet, FileNames, Meta, Node};
use ytt::Messages;

pub fn run(opts: Options) -> Result<()> {
    let start = Instant::now();
    crate::memory::set_limit(opts.max_memory);
    let result = run_inner(&opts);
    if opts.debug {
        eprintln!("total: {:?}", start.elapsed());
    }
    result
}

fn run_inner(opts: &Options) -> Result<()> {
    let sources = read_inputs(opts)?;
    if opts.data_values.schema_inspect {
        let mut inputs = marks::apply(sources, &opts.files.file_marks)?;
        files::read_unread(&mut inputs)?;
        return schema_inspect(opts, inputs);
    }
    let result = within_budget(evaluate(opts, sources));
    if opts.files.bulk_out {
        return output::write_bulk(result);
    }
    output::write(&opts.output, result?)
}

/// A run that passed the memory budget where no template code ran to stop it (see
/// `crate::memory`) fails all the same.
fn within_budget<T>(result: Result<T>) -> Result<T> {
    match result {
        Ok(_) if crate::memory::passed() => bail!(crate::memory::MESSAGE),
        result => result,
    }
}

/// `--bulk-in` files, then the `-f` files, in command-line order.
fn read_inputs(opts: &Options) -> Result<Vec<SourceFile>> {
    let mut sources = Vec::new();
    if let Some(json) = &opts.files.bulk_in {
        sources.extend(bulk::parse_bulk_in(json)?);
    }
    sources.extend(files::collect(&opts.files.files, &opts.files.symlinks)?);
    Ok(sources)
}

fn evaluate(opts: &Options, sources: Vec<SourceFile>) -> Result<RunOutput> {
    let mut inputs = marks::apply(sources, &opts.files.file_marks)?;
    if opts.files.files_inspect {
        return Ok(files_inspect(&inputs));
    }
    // what the run templates is read now (a named pipe, a link not to a regular file)
    files::read_unread(&mut inputs)?;
    // the YAML of a run (files and flags) shares one alias-expansion budget
    let yaml = ParseOptions {
        strict: opts.strict,
        ..ParseOptions::default()
    };
    // the run's file names: the data values parsed here are positioned in them
    let names = FileNames::default();
    let data_values =
        super::data_values::cli_values(&opts.data_values, &yaml, &names, &opts.files.symlinks)?;
    if inputs.is_empty() && !opts.data_values.inspect {
        // Nothing to evaluate: no output (as the reference).
        return Ok(RunOutput::default());
    }
    let render_opts = RenderOptions {
        ignore_unknown_comments: opts.ignore_unknown_comments,
        implicit_map_key_overrides: opts.implicit_map_key_overrides,
        strict: opts.strict,
        debug: opts.debug,
        data_values,
        aliases: yaml.aliases,
        names,
        data_values_inspect: opts.data_values.inspect,
        schema_inspect: false,
        disable_values_validation: opts.data_values.disable_validation,
        disable_output_validation: opts.output.disable_validation,
        messages: stderr_messages(),
        modules: ytt_stdlib::modules(),
        held_bytes: Some(crate::memory::counted),
        memory_budget: crate::memory::budget(),
        write_ahead: writes_yaml_to_stdout(opts),
    };
    let rendered = workspace::render_on_this_thread(render_opts, inputs)?;
    if let Some(values) = rendered.data_values {
        let docs = workspace::data_values_documents(values);
        return Ok(RunOutput::from_docs(docs, rendered.names));
    }
    Ok(RunOutput::from_files(rendered.outputs, rendered.names))
}

/// Whether the output documents go to stdout as YAML (the documents written ahead are
/// then used as they are).
fn writes_yaml_to_stdout(opts: &Options) -> bool {
    let out = &opts.output;
    out.format == OutputFormat::Yaml
        && out.output_files.is_none()
        && out.emptied_output_directory.is_none()
        && !opts.files.bulk_out
}

/// A run's `print()` output and warnings go to stderr as they happen, as the reference
/// prints them.
fn stderr_messages() -> Messages {
    Messages::new(|bytes| {
        let _ = std::io::stderr().lock().write_all(bytes);
    })
}

/// `--data-values-schema-inspect`: the root library's schema in the chosen schema type
/// (OpenAPI and JSON Schema as documents in the chosen format; Markdown as text). Each
/// rule that cannot be exported is named on stderr. Always written to stdout.
fn schema_inspect(opts: &Options, inputs: Vec<InputFile>) -> Result<()> {
    let yaml = ParseOptions {
        strict: opts.strict,
        ..ParseOptions::default()
    };
    let names = FileNames::default();
    let render_opts = RenderOptions {
        ignore_unknown_comments: opts.ignore_unknown_comments,
        implicit_map_key_overrides: opts.implicit_map_key_overrides,
        strict: opts.strict,
        debug: opts.debug,
        data_values: super::data_values::cli_values(
            &opts.data_values,
            &yaml,
            &names,
            &opts.files.symlinks,
        )?,
        aliases: yaml.aliases,
        names,
        data_values_inspect: false,
        schema_inspect: true,
        disable_values_validation: true,
        disable_output_validation: true,
        messages: stderr_messages(),
        modules: ytt_stdlib::modules(),
        held_bytes: Some(crate::memory::counted),
        memory_budget: crate::memory::budget(),
        write_ahead: false,
    };
    let rendered = workspace::render_on_this_thread(render_opts, inputs)?;
    let Some(schema) = rendered.schema else {
        bail!("internal error: no schema was computed");
    };
    let (doc, warnings) = match opts.output.schema_type {
        Some(SchemaType::JsonSchema) => export::jsonschema::document(&schema),
        Some(SchemaType::Markdown) => {
            if opts.output.format != OutputFormat::Yaml {
                bail!(
                    "Output type 'markdown' cannot be combined with a document format (json, pos)"
                );
            }
            return output::write_stdout(export::markdown::page(&schema).as_bytes());
        }
        _ => export::openapi::document(&schema),
    };
    let mut doc = doc;
    if opts.output.format == OutputFormat::Json {
        export::with_string_keys(&mut doc);
    }
    let docs = DocSet {
        docs: vec![Doc::new(doc, Meta::default())],
        meta: Meta::default(),
    };
    let parts = output::emit(opts.output.format, &docs, &rendered.names)?;
    let mut stderr = std::io::stderr().lock();
    for w in warnings {
        let _ = writeln!(stderr, "{w}");
    }
    drop(stderr);
    output::write_stdout_parts(&parts)
}

/// `--files-inspect`: one document listing the root library's accessible files.
fn files_inspect(inputs: &[InputFile]) -> RunOutput {
    let paths: Vec<&str> = inputs.iter().map(|f| f.rel_path.as_str()).collect();
    let items = accessible_order(&paths)
        .into_iter()
        .map(|i| ArrayItem {
            value: Node::Str(paths[i].into()),
            meta: Meta::default(),
        })
        .collect();
    let doc = Doc::new(Node::Array(Array { items }), Meta::default());
    RunOutput::from_docs(
        DocSet {
            docs: vec![doc],
            meta: Meta::default(),
        },
        FileNames::default(),
    )
}
