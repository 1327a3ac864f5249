//! The template command (the root command, `template`, `t`, `tpl`): read the inputs,
//! apply file marks, render the root library, write the output.

use std::time::Instant;

use anyhow::{bail, Result};

use super::options::Options;
use super::output::{self, RunOutput};
use crate::files::{self, bulk, marks, source::SourceFile, InputFile};
use crate::workspace::{self, RenderOptions};
use crate::yaml::{Array, ArrayItem, Doc, Meta, Node};

pub fn run(opts: Options) -> Result<()> {
    let start = Instant::now();
    let result = run_inner(&opts);
    if opts.debug {
        eprintln!("total: {:?}", start.elapsed());
    }
    result
}

fn run_inner(opts: &Options) -> Result<()> {
    if opts.data_values.schema_inspect {
        bail!("--data-values-schema-inspect is not supported yet");
    }

    let sources = read_inputs(opts)?;
    let result = evaluate(opts, sources);
    if opts.files.bulk_out {
        return output::write_bulk(result);
    }
    output::write(&opts.output, result?)
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
    let inputs = marks::apply(sources, &opts.files.file_marks)?;
    if opts.files.files_inspect {
        return Ok(files_inspect(&inputs));
    }
    let data_values = super::data_values::cli_values(&opts.data_values, opts.strict)?;
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
        data_values_inspect: opts.data_values.inspect,
        disable_values_validation: opts.data_values.disable_validation,
        disable_output_validation: opts.output.disable_validation,
    };
    let rendered = workspace::render(&render_opts, inputs)?;
    if let Some(values) = rendered.data_values {
        return Ok(RunOutput::from_docs(vec![Doc {
            value: values,
            meta: Meta::default(),
        }]));
    }
    Ok(RunOutput::from_files(rendered.outputs))
}

/// `--files-inspect`: one document listing the root library's accessible files.
fn files_inspect(inputs: &[InputFile]) -> RunOutput {
    let paths: Vec<&str> = inputs.iter().map(|f| f.rel_path.as_str()).collect();
    let items = files::accessible_order(&paths)
        .into_iter()
        .map(|i| ArrayItem {
            value: Node::Str(paths[i].to_owned()),
            meta: Meta::default(),
        })
        .collect();
    RunOutput::from_docs(vec![Doc {
        value: Node::Array(Array { items }),
        meta: Meta::default(),
    }])
}
