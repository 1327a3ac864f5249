//! Running a library once its data values are known (`library_values.rs`): its templates,
//! its overlays, and the validation of its output documents.

use std::sync::Arc;

use anyhow::{anyhow, bail};

use super::compile::{compile_file, compile_yaml_file, parse_yaml, text_of, Ahead, Compiled};
use super::library_values::{Parsed, ValuesStage};
use super::loader::{FileScopedLoader, LibraryEval, Scope};
use super::refs::{parse_ref, Envelope, Payload};
use super::values::CliValues;
use super::{OutputContent, OutputFile};
use crate::eval::contexts::RootOutput;
use crate::eval::exec::{parse_code, run_parsed_template, run_template};
use crate::eval::runtime::Runtime;
use crate::files::library::{evaluation_order, LibFile, Library};
use crate::files::{FileKind, InputFile};
use crate::modules::overlay::EvalHost;
use crate::overlay::{self, Host};
use crate::template::annotations::OVERLAY_MATCH;
use crate::template::{CompileOptions, CompiledTemplate};
use crate::yaml::{Doc, DocSet, Written};
use starlark::syntax::AstModule;

/// How a library's files are read and compiled.
#[derive(Clone, Copy, Debug, Default)]
pub struct Settings {
    pub compile: CompileOptions,
    pub strict: bool,
    /// `--dangerous-data-values-disable-validation`, or for one library
    /// `library.get(..., dangerous_data_values_disable_validation=True)` /
    /// `.eval(data_value_schema_disable_validation=True)` (sticky for child libraries).
    pub disable_values_validation: bool,
    /// `--output-disable-validation`, or for one library
    /// `.eval(output_disable_validation=True)` (sticky for child libraries).
    pub disable_output_validation: bool,
    /// Only the data values are wanted (`--data-values-inspect`,
    /// `--data-values-schema-inspect`): templates are never evaluated, so a YAML file
    /// without annotations is only checked for YAML errors, as the reference does.
    pub values_only: bool,
    /// Only the schema is wanted (`--data-values-schema-inspect`): as the reference, no
    /// data values are applied (from files or flags), and a file holding no schema
    /// document is not evaluated, so their mistakes are not reported.
    pub schema_only: bool,
}

/// Runs `f` with an overlay host backed by a fresh evaluator.
pub fn with_host<R>(rt: &Runtime, f: impl FnOnce(&mut dyn Host) -> R) -> R {
    crate::eval::exec::with_evaluator(rt, |eval| f(&mut EvalHost::new(eval)))
}

/// Evaluates a library's templates with its data values, applies its overlays, and checks
/// that every envelope for its private libraries was delivered. `write_ahead`: the
/// caller writes the outputs as YAML, so templates' documents are written as they are
/// finished (`Runtime::write_ahead`).
pub fn library_outputs(
    rt: &Runtime,
    lib: &Arc<Library>,
    stage: ValuesStage,
    settings: Settings,
    write_ahead: bool,
) -> anyhow::Result<Vec<OutputFile>> {
    let scope = Arc::new(Scope::new(lib.clone(), stage.child_envelopes, settings));
    let null_values_are_none = stage.values.is_null() && stage.schema.is_some();
    let mut eval = LibraryEval::new(rt, lib.clone(), stage.values, settings, scope.clone());
    eval.null_values_are_none = null_values_are_none;
    let exclusive = lib.files.iter().any(|f| f.file.exclusive_for_output);
    // evaluated in the reference's order (`evaluation_order`), output in input order
    let order = evaluation_order(stage.files.iter().map(|(f, _)| &*f.path));
    let mut files: Vec<_> = stage.files.into_iter().map(Some).collect();
    let mut outputs: Vec<Option<OutputFile>> = files.iter().map(|_| None).collect();
    // (file, whether an output wants it) of the files evaluated, in order
    let evaluated: Vec<(usize, bool)> = order
        .into_iter()
        .filter_map(|i| {
            let file = &files[i].as_ref()?.0.file;
            let wanted = if exclusive {
                file.exclusive_for_output
            } else {
                !file.is_library || file.for_output
            };
            // a library file (`.star`, `.lib.yml`, `.lib.txt`) no output wants is still
            // run for its effects (a `print`, a `fail`), as the reference runs it
            (wanted || file.is_library).then_some((i, wanted))
        })
        .collect();
    let ahead = compile_ahead(rt, &mut files, &evaluated, settings);
    for (i, for_output) in evaluated {
        let Some((f, parsed)) = files[i].take() else {
            continue;
        };
        let file = &f.file;
        let loader = eval.loader_for(&f.path);
        let write_ahead = write_ahead && for_output;
        let content = evaluate_file(rt, &loader, file, parsed, settings, write_ahead, &ahead)?;
        if for_output {
            outputs[i] = content.map(|content| OutputFile {
                rel_path: file.rel_path.clone(),
                content,
            });
        }
    }
    let mut outputs: Vec<OutputFile> = outputs.into_iter().flatten().collect();
    apply_overlays(rt, &mut outputs)?;
    if !settings.disable_output_validation {
        let docs: Vec<&DocSet> = outputs
            .iter()
            .filter_map(|o| match &o.content {
                OutputContent::Yaml(ds) => Some(ds),
                OutputContent::Text(_) | OutputContent::Starlark => None,
            })
            .collect();
        crate::validations::check_documents(rt, &docs)?;
    }
    Envelope::check_all_used(&scope.envelopes)?;
    Ok(outputs)
}

/// The YAML templates among the files `evaluated` (in evaluation order) compiled ahead
/// on a helper thread ([`Ahead`]), when there are two or more of them: the first is
/// compiled while the run waits for it, the others while the templates before them run.
/// Their files are marked [`Parsed::Ahead`]. Not while the files parsed meanwhile are
/// still parsing (`super::deferred`): the run would share two cores with two helpers
/// (`package`: 5 % slower).
fn compile_ahead(
    rt: &Runtime,
    files: &mut [Option<(LibFile, Option<Parsed>)>],
    evaluated: &[(usize, bool)],
    settings: Settings,
) -> Option<Ahead> {
    let templates: Vec<usize> = evaluated
        .iter()
        .map(|(i, _)| *i)
        .filter(|&i| match &files[i] {
            Some((f, Some(Parsed::Tree(ds)))) => Ahead::wanted(&f.file, ds),
            _ => false,
        })
        .collect();
    if templates.len() < 2 || super::Run::of(rt).ok()?.deferred.busy() {
        return None;
    }
    let jobs = templates
        .iter()
        .enumerate()
        .filter_map(|(k, &i)| {
            let (f, parsed) = files[i].as_mut()?;
            match parsed.replace(Parsed::Ahead(k)) {
                Some(Parsed::Tree(ds)) => Some((f.file.clone(), ds)),
                _ => None,
            }
        })
        .collect();
    Some(Ahead::start(rt, jobs, settings.compile))
}

/// Evaluates one file of a library: its output content, `None` for a file with none (a
/// text file without code, a data file). `write_ahead`: see [`library_outputs`];
/// `ahead`: the templates compiled ahead.
fn evaluate_file(
    rt: &Runtime,
    loader: &FileScopedLoader,
    file: &InputFile,
    parsed: Option<Parsed>,
    settings: Settings,
    write_ahead: bool,
    ahead: &Option<Ahead>,
) -> anyhow::Result<Option<OutputContent>> {
    Ok(Some(match file.kind {
        FileKind::YamlTemplate | FileKind::YamlPlain => {
            let ds = match parsed {
                Some(Parsed::Tree(ds)) => ds,
                Some(Parsed::Deferred(k)) => super::Run::of(rt)?.deferred.take(rt, k)?,
                Some(Parsed::Ahead(k)) => {
                    let ahead = ahead
                        .as_ref()
                        .ok_or_else(|| anyhow!("internal error: nothing compiled ahead"))?;
                    let (t, parsed) = ahead.take(rt, k, file)?;
                    return run_yaml_template(rt, loader, &t, Some(parsed), write_ahead).map(Some);
                }
                None => parse_yaml(rt, file, settings.strict)?,
            };
            match compile_yaml_file(rt, file, ds, settings.compile)? {
                Compiled::Plain(ds) => OutputContent::Yaml(ds),
                Compiled::Template(t) => run_yaml_template(rt, loader, &t, None, write_ahead)?,
            }
        }
        FileKind::TextTemplate => {
            match compile_file(rt, file, settings.compile, settings.strict)? {
                Compiled::Template(t) => match run_template(rt, super::globals(), loader, &t)
                    .map_err(|e| e.reworded(|e| format!("Evaluating text template: {e}")))?
                {
                    (_, Some(RootOutput::Text(s))) => OutputContent::Text(s),
                    _ => bail!("template '{}' produced no text", file.rel_path),
                },
                Compiled::Plain(_) => return Ok(None),
            }
        }
        FileKind::TextPlain => OutputContent::Text(text_of(file)?.into_owned()),
        // marked for output, a Starlark file is an output of no type (refused by
        // --output-files)
        FileKind::Starlark => {
            if let Compiled::Template(t) =
                compile_file(rt, file, settings.compile, settings.strict)?
            {
                run_template(rt, super::globals(), loader, &t)
                    .map_err(|e| e.reworded(|e| format!("Evaluating starlark template: {e}")))?;
            }
            OutputContent::Starlark
        }
        FileKind::Data => return Ok(None),
    }))
}

/// Runs a YAML template (its code parsed already, or not): its documents.
fn run_yaml_template(
    rt: &Runtime,
    loader: &FileScopedLoader,
    t: &CompiledTemplate,
    parsed: Option<starlark::Result<AstModule>>,
    write_ahead: bool,
) -> anyhow::Result<OutputContent> {
    rt.write_ahead(write_ahead.then_some(t.id));
    let parsed = parsed.unwrap_or_else(|| parse_code(t));
    let run = run_parsed_template(rt, super::globals(), loader, t, parsed);
    rt.write_ahead(None);
    match run? {
        (_, Some(RootOutput::Docs(ds))) => Ok(OutputContent::Yaml(ds)),
        _ => bail!("template '{}' produced no documents", t.name),
    }
}

/// Documents annotated `@overlay/match` are taken out of the output and applied, file by
/// file, onto all the other documents. Empty documents (`Doc::is_empty`) leave the output
/// first, so overlays never see them and `expects` never counts them, and again after the
/// overlays (one they emptied, say one replaced by null).
///
/// A YAML file left with no documents of its own (only overlays, only empty documents)
/// is no output file, unless overlays put documents into it; one whose documents the
/// overlays removed is an output file, empty.
fn apply_overlays(rt: &Runtime, outputs: &mut Vec<OutputFile>) -> anyhow::Result<()> {
    let mut overlays: Vec<Doc> = Vec::new();
    let mut overlay_files: Vec<&str> = Vec::new();
    let mut slots: Vec<usize> = Vec::new();
    let mut docsets: Vec<DocSet> = Vec::new();
    let mut had_docs = vec![true; outputs.len()];
    for (i, out) in outputs.iter_mut().enumerate() {
        if let OutputContent::Yaml(ds) = &mut out.content {
            let (ov, rest): (Vec<Doc>, Vec<Doc>) = std::mem::take(&mut ds.docs)
                .into_iter()
                .partition(|d| d.meta.has_annotation(OVERLAY_MATCH));
            if !ov.is_empty() {
                overlay_files.push(&out.rel_path);
            }
            overlays.extend(ov);
            ds.docs = rest;
            ds.docs.retain(|d| !d.is_empty());
            had_docs[i] = !ds.docs.is_empty();
            slots.push(i);
            docsets.push(std::mem::take(ds));
        }
    }
    if !overlays.is_empty() {
        // documents written ahead may change now
        for d in docsets.iter_mut().flat_map(|ds| &mut ds.docs) {
            d.written = Written::default();
        }
        with_host(rt, |host| -> anyhow::Result<()> {
            for ov in &overlays {
                overlay::apply_to_docsets(&mut docsets, ov, host).map_err(|error| {
                    let failure = overlay::OverlayingError {
                        step: "",
                        order: overlay_files.join(", "),
                        error,
                    };
                    failure.report(rt.names())
                })?;
            }
            Ok(())
        })?;
    }
    for (slot, mut ds) in slots.into_iter().zip(docsets) {
        ds.docs.retain(|d| !d.is_empty());
        had_docs[slot] |= !ds.docs.is_empty();
        outputs[slot].content = OutputContent::Yaml(ds);
    }
    let mut had_docs = had_docs.into_iter();
    outputs.retain(|_| had_docs.next().unwrap_or(true));
    Ok(())
}

/// Command-line values as envelopes at the root library.
pub fn cli_envelopes(cli: Vec<CliValues>) -> anyhow::Result<Vec<Envelope>> {
    cli.into_iter()
        .map(|c| {
            let (refs, original) = match c.library() {
                Some(lib) => (parse_ref(lib)?, lib.to_owned()),
                None => (Vec::new(), String::new()),
            };
            Ok(Envelope::new(
                refs,
                original,
                format!("{}:1", c.source()),
                Payload::Cli(Arc::new(c)),
            ))
        })
        .collect()
}
