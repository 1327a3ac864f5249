//! Running a library: its data values (its own `@data/values` documents, then what its
//! parent and the command line send it), its templates, and its overlays.

use std::sync::Arc;

use anyhow::{anyhow, bail};

use super::compile::{
    compile_file, compile_yaml_file, parse_yaml, parse_yaml_files, text_of, Compiled,
};
use super::loader::{FileScopedLoader, LibraryEval, Scope};
use super::refs::{parse_ref, Envelope, Payload, RefSegment};
use super::values::{self, CliValues};
use super::{OutputContent, OutputFile, Run};
use crate::diagnostic::{indent, reword, Diagnostic, Kind};
use crate::eval::contexts::RootOutput;
use crate::eval::exec::run_template;
use crate::eval::runtime::Runtime;
use crate::files::library::{evaluation_order, LibFile, Library};
use crate::files::{FileKind, InputFile};
use crate::modules::overlay::EvalHost;
use crate::overlay::{self, Host};
use crate::schema::{FlagOrigin, Schema, Sources};
use crate::template::annotations::{DATA_VALUES, DATA_VALUES_SCHEMA, LIBRARY_REF, OVERLAY_MATCH};
use crate::template::CompileOptions;
use crate::validations;
use crate::yaml::parser::Keep;
use crate::yaml::{Doc, DocSet, Meta, Node, Written};

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

/// Values `library.with_data_values(...)` adds.
#[derive(Clone, Debug)]
pub struct WithValues {
    pub node: Node,
    pub plain: bool,
}

/// What a library is given from outside.
#[derive(Default)]
pub struct LibraryInputs {
    /// Envelopes at this library: for it (no segments left) or for its descendants.
    pub envelopes: Vec<Envelope>,
    pub with_values: Vec<WithValues>,
}

/// A library once its data values are known.
pub struct ValuesStage {
    pub values: Node,
    /// The library's schema (`None`: no schema, anything goes), for export.
    pub schema: Option<Schema>,
    /// Envelopes for the library's own private libraries.
    pub child_envelopes: Vec<Envelope>,
    /// Files to evaluate after the data values (all but data-values files), parsed when
    /// they are YAML templates.
    files: Vec<(LibFile, Option<DocSet>)>,
    /// The data-values document's metadata: its validations apply to the whole document.
    doc_meta: Option<Meta>,
    validation_disabled: bool,
}

impl ValuesStage {
    /// The parsed template files, for a run that renders no output.
    pub fn take_parsed(&mut self) -> Vec<DocSet> {
        self.files.drain(..).filter_map(|(_, ds)| ds).collect()
    }

    /// Validates the final data values. `eval` must reach the annotation values of every
    /// document that contributed: a `with_data_values()` fragment's live in the module of
    /// the caller, which is still being evaluated.
    pub fn validate(&self, eval: &mut starlark::eval::Evaluator) -> anyhow::Result<()> {
        if self.validation_disabled {
            return Ok(());
        }
        let messages = crate::eval::runtime::messages_of(eval);
        let names = crate::eval::runtime::names_of(eval);
        crate::validations::validate_values(&self.values, self.doc_meta.as_ref(), eval)?
            .finish(&names, &messages)
    }
}

/// Runs `f` with an overlay host backed by a fresh evaluator.
pub fn with_host<R>(rt: &Runtime, f: impl FnOnce(&mut dyn Host) -> R) -> R {
    crate::eval::exec::with_evaluator(rt, |eval| f(&mut EvalHost::new(eval)))
}

/// Computes a library's data values: its own `@data/values` documents (templates
/// evaluated with empty values, each overlaid on the previous), then documents its parent
/// addressed to it, `with_data_values()` values, parent documents marked
/// `after_library_module=True`, and command-line values.
pub fn library_values(
    rt: &Runtime,
    lib: &Arc<Library>,
    mut inputs: LibraryInputs,
    settings: Settings,
    host: &mut dyn Host,
) -> anyhow::Result<ValuesStage> {
    let run = Run::of(rt)?;
    let mut dv_files = Vec::new();
    let mut files = Vec::new();
    let mut schema_files: Vec<String> = Vec::new();
    for f in &lib.files {
        // reports quote source lines of any file of the run
        run.sources.register(&f.file.rel_path, f.file.data.clone());
    }
    let is_template = |f: &InputFile| f.kind == FileKind::YamlTemplate && !f.is_library;
    let templates: Vec<&InputFile> = lib
        .files
        .iter()
        .map(|f| &*f.file)
        .filter(|f| is_template(f))
        .collect();
    // a file without `#@` holds no data values or schema document: in an inspection,
    // nothing of it is used but its YAML errors
    let keep: Vec<Keep> = templates
        .iter()
        .map(
            |f| match settings.values_only && memchr::memmem::find(&f.data, b"#@").is_none() {
                true => Keep::Shapes,
                false => Keep::Trees,
            },
        )
        .collect();
    let mut parsed = parse_yaml_files(rt, &templates, &keep, settings.strict)?.into_iter();
    for f in &lib.files {
        // one parse per template file, in order; files without one are parsed when output
        let parse = if is_template(&f.file) {
            parsed.next()
        } else {
            None
        };
        if let Some(ds) = parse {
            let ds = ds?;
            // annotations are `#@` comments: a file without one has none to misplace
            if memchr::memmem::find(&f.file.data, b"#@").is_some() {
                values::check_annotation_placement(&f.file.rel_path, &ds)?;
            }
            let has_schema = ds.docs.iter().any(values::is_schema_doc);
            if has_schema {
                schema_files.push(f.file.rel_path.clone());
            }
            if has_schema
                || (!settings.schema_only && ds.docs.iter().any(values::is_data_values_doc))
            {
                dv_files.push((f.clone(), ds));
            } else {
                files.push((f.clone(), Some(ds)));
            }
        } else {
            files.push((f.clone(), None));
        }
    }

    let mut order: Vec<String> = dv_files
        .iter()
        .filter(|(_, ds)| ds.docs.iter().any(values::is_data_values_doc))
        .map(|(f, _)| f.file.rel_path.clone())
        .collect();
    if settings.schema_only {
        inputs
            .envelopes
            .retain(|e| matches!(e.payload, Payload::Schema { .. }));
    }
    let has_more = inputs
        .envelopes
        .iter()
        .any(|e| e.refs.is_empty() && !matches!(e.payload, Payload::Schema { .. }))
        || !inputs.with_values.is_empty();
    if has_more {
        order.push("additional data values".into());
    }
    let order = order.join(", ");
    let wrap = |e: anyhow::Error| overlaying("data values", &order, e);
    let overlaying_values = |error: overlay::OverlayError, host: &mut dyn Host| {
        let failure = overlay::OverlayingError {
            step: " data values",
            order: order.clone(),
            error,
        };
        anyhow::Error::new(failure.report(host.names()))
    };

    // the library's own documents, evaluated with empty data values
    let empty = LibraryEval::new(
        rt,
        lib.clone(),
        Node::Null,
        settings,
        Arc::new(Scope::new(lib.clone(), Vec::new(), settings)),
    );
    let mut own: Vec<Doc> = Vec::new();
    let mut own_schemas: Vec<Doc> = Vec::new();
    let mut child_envelopes: Vec<Envelope> = Vec::new();
    // As the reference reads them: the schema files first (a file with a schema document
    // holds nothing else), then the data values files; each step's errors name its files.
    let mut schema_order = schema_files.clone();
    if inputs
        .envelopes
        .iter()
        .any(|e| e.refs.is_empty() && matches!(e.payload, Payload::Schema { .. }))
    {
        schema_order.push("additional data values".into());
    }
    let schema_order = schema_order.join(", ");
    let schema_wrap = |e: anyhow::Error| overlaying("data values schema", &schema_order, e);
    let (schema_dv, values_dv): (Vec<_>, Vec<_>) = dv_files
        .into_iter()
        .partition(|(_, ds)| ds.docs.iter().any(values::is_schema_doc));
    let dv_files = schema_dv
        .into_iter()
        .map(|file| (file, true))
        .chain(values_dv.into_iter().map(|file| (file, false)));
    for ((f, ds), schema_file) in dv_files {
        let (step, step_order) = match schema_file {
            true => ("data values schema", &schema_order),
            false => ("data values", &order),
        };
        let out = match compile_yaml_file(rt, &f.file, ds, settings.compile)? {
            Compiled::Plain(ds) => ds,
            Compiled::Template(t) => {
                let loader = empty.loader_for(&f.path);
                let templating = |e: Diagnostic| {
                    e.reworded(|e| format!(
                        "Overlaying {step} (in following order: {step_order}):\n  Templating file '{}': {e}",
                        f.file.rel_path
                    ))
                };
                match run_template(rt, super::globals(), &loader, &t).map_err(templating)? {
                    (_, Some(RootOutput::Docs(ds))) => ds,
                    _ => DocSet::default(),
                }
            }
        };
        for doc in out.docs {
            if doc.meta.has_annotation(DATA_VALUES_SCHEMA) {
                match library_ref(&doc, host).map_err(schema_wrap)? {
                    Some((refs, text)) => child_envelopes.push(Envelope::new(
                        refs,
                        text,
                        rt.describe(&doc.meta.pos),
                        Payload::Schema {
                            value: doc.value,
                            meta: doc.meta,
                        },
                    )),
                    None => own_schemas.push(doc),
                }
                continue;
            }
            if schema_file {
                if doc.is_empty() {
                    continue;
                }
                return Err(schema_wrap(anyhow!(
                    "Templating file '{0}':\n  Expected schema file '{0}' to only have schema documents",
                    f.file.rel_path
                )));
            }
            if settings.schema_only {
                continue;
            }
            let Some(dv) = doc.meta.annotation(DATA_VALUES).cloned() else {
                if doc.is_empty() {
                    continue;
                }
                return Err(wrap(anyhow!(
                    "Templating file '{0}':\n  Expected data values file '{0}' to only have data values documents",
                    f.file.rel_path
                )));
            };
            let after_module = match dv.kwarg("after_library_module") {
                Some(r) => matches!(host.value(r)?, Node::Bool(true)),
                None => false,
            };
            match doc.meta.annotation(LIBRARY_REF) {
                Some(r) => {
                    let text = match r.args.first() {
                        Some(v) => match host.value(*v)? {
                            Node::Str(s) => s.into_string(),
                            other => {
                                return Err(wrap(anyhow!(
                                    "Annotation library/ref:\n  Expected library ref to be a string, but was {}",
                                    other.type_name()
                                )))
                            }
                        },
                        None => {
                            return Err(wrap(anyhow!(
                                "Annotation library/ref:\n  Expected one library ref argument"
                            )))
                        }
                    };
                    let refs = parse_ref(&text)
                        .map_err(|e| wrap(anyhow!("Annotation library/ref:\n  {e}")))?;
                    child_envelopes.push(Envelope::new(
                        refs,
                        text,
                        rt.describe(&doc.meta.pos),
                        Payload::Doc {
                            value: doc.value,
                            meta: doc.meta,
                            after_module,
                        },
                    ));
                }
                None => {
                    if after_module {
                        return Err(wrap(anyhow!(
                            "Annotation data/values: Expected 'after_library_module' to be used with 'library/ref' annotation"
                        )));
                    }
                    own.push(doc);
                }
            }
        }
    }

    let (mine, passing): (Vec<Envelope>, Vec<Envelope>) = inputs
        .envelopes
        .into_iter()
        .partition(|e| e.refs.is_empty());
    let for_me = mine.iter();
    let schema = library_schema(
        rt,
        &schema_files,
        own_schemas,
        for_me.clone(),
        host,
        &run.sources,
    )?;

    let mut result = Node::Null;
    // the base document's metadata: its validations apply to the whole document
    let mut doc_meta: Option<Meta> = None;
    if let Some(s) = &schema {
        result = s.defaults();
        doc_meta = Some(s.defaults_meta());
    }
    // after each step, the values are checked against the schema and completed
    let typed = |result: &mut Node,
                 doc_meta: &mut Option<Meta>,
                 flag: Option<FlagOrigin>|
     -> anyhow::Result<()> {
        if let Some(s) = &schema {
            let meta = doc_meta.get_or_insert_with(|| s.defaults_meta());
            s.check(result, meta, flag, &run.sources).map_err(|r| {
                r.reworded(|r| {
                    format!("Overlaying data values (in following order: {order}): \n{r}")
                })
            })?;
        }
        Ok(())
    };
    // a data-values document: the base when nothing came before, else an overlay on the
    // values so far (and on the metadata of the document holding them)
    let overlay_doc = |result: &mut Node,
                       doc_meta: &mut Option<Meta>,
                       (value, meta): (&Node, &Meta),
                       host: &mut dyn Host|
     -> anyhow::Result<()> {
        if result.is_null() {
            *result = strip_overlay_annotations(value.clone());
            if doc_meta.is_none() {
                *doc_meta = Some(meta.clone());
            }
            return Ok(());
        }
        let left = std::mem::take(result);
        let left_meta = doc_meta.get_or_insert_with(Meta::default);
        let protected = Some(values::SCHEMA_ANNOTATIONS);
        *result = overlay::apply_doc_value(left, left_meta, (value, meta), protected, host)
            .map_err(|e| overlaying_values(e, host))?;
        Ok(())
    };
    for doc in &own {
        overlay_doc(&mut result, &mut doc_meta, (&doc.value, &doc.meta), host)?;
        typed(&mut result, &mut doc_meta, None)?;
    }
    let addressed = |after: bool| {
        for_me.clone().filter_map(move |e| match &e.payload {
            Payload::Doc {
                value,
                meta,
                after_module,
            } if *after_module == after => Some((value, meta)),
            _ => None,
        })
    };
    for doc in addressed(false) {
        overlay_doc(&mut result, &mut doc_meta, doc, host)?;
        typed(&mut result, &mut doc_meta, None)?;
    }
    for w in &inputs.with_values {
        if w.plain {
            if result.is_null() {
                result = Node::Map(Default::default());
            }
            values::merge_plain(&mut result, strip_overlay_annotations(w.node.clone()));
        } else if result.is_null() {
            result = strip_overlay_annotations(w.node.clone());
        } else {
            // a document of its own, made in code: it has no line
            let left = std::mem::take(&mut result);
            let left_meta = doc_meta.get_or_insert_with(Meta::default);
            let protected = Some(values::SCHEMA_ANNOTATIONS);
            let doc = (&w.node, &Meta::default());
            result = overlay::apply_doc_value(left, left_meta, doc, protected, host)
                .map_err(|e| overlaying_values(e, host))?;
        }
        typed(&mut result, &mut doc_meta, None)?;
    }
    for doc in addressed(true) {
        overlay_doc(&mut result, &mut doc_meta, doc, host)?;
        typed(&mut result, &mut doc_meta, None)?;
    }
    let cli = mine.into_iter().filter_map(|e| match e.payload {
        Payload::Cli(c) => Some(c),
        _ => None,
    });
    for c in cli {
        // the values move into the result when nothing else holds them (large
        // --data-values-file documents are not copied)
        let c = Arc::try_unwrap(c).unwrap_or_else(|shared| (*shared).clone());
        let flag_text = c.flag_line().map(str::to_owned);
        let source = c.source().to_owned();
        values::apply_cli(&mut result, c, &run.sources).map_err(wrap)?;
        let flag = flag_text.as_deref().map(|text| FlagOrigin {
            source: &source,
            text,
        });
        typed(&mut result, &mut doc_meta, flag)?;
    }

    child_envelopes.extend(passing);
    Ok(ValuesStage {
        values: result,
        schema,
        child_envelopes,
        files,
        doc_meta,
        validation_disabled: settings.disable_values_validation,
    })
}

/// The `@library/ref` of a data-values (or schema) document: the reference's segments
/// and text.
fn library_ref(
    doc: &Doc,
    host: &mut dyn Host,
) -> anyhow::Result<Option<(Vec<RefSegment>, String)>> {
    let Some(r) = doc.meta.annotation(LIBRARY_REF) else {
        return Ok(None);
    };
    let text = match r.args.first() {
        Some(v) => match host.value(*v)? {
            Node::Str(s) => s.into_string(),
            other => bail!(
                "Annotation library/ref:\n  Expected library ref to be a string, but was {}",
                other.type_name()
            ),
        },
        None => bail!("Annotation library/ref:\n  Expected one library ref argument"),
    };
    let refs = parse_ref(&text).map_err(|e| anyhow!("Annotation library/ref:\n  {e}"))?;
    Ok(Some((refs, text)))
}

/// `e` as an error of the step overlaying the files in `order` (`data values`,
/// `data values schema`), indented under the step's line.
fn overlaying(step: &str, order: &str, e: anyhow::Error) -> anyhow::Error {
    reword(e, |e| {
        format!(
            "Overlaying {step} (in following order: {order}):\n{}",
            indent(&format!("{e:#}"), 2)
        )
    })
}

/// A library's schema: its own schema documents in file order, then those its parent
/// addressed to it and those given by `with_data_values_schema()`, each overlaid on the
/// previous ones; `None` when there is none.
fn library_schema<'e>(
    rt: &Runtime,
    schema_files: &[String],
    own: Vec<Doc>,
    for_me: impl Iterator<Item = &'e Envelope>,
    host: &mut dyn Host,
    sources: &Sources,
) -> anyhow::Result<Option<Schema>> {
    let own_count = own.len();
    let mut docs: Vec<Doc> = own;
    for e in for_me {
        if let Payload::Schema { value, meta } = &e.payload {
            docs.push(Doc::new(value.clone(), meta.clone()));
        }
    }
    if docs.is_empty() {
        return Ok(None);
    }
    let mut order: Vec<String> = schema_files.to_vec();
    if docs.len() > own_count {
        order.push("additional data values".into());
    }
    let order = order.join(", ");
    // a schema's report follows its heading after a space, as the reference's does;
    // the indented errors of overlays and rules do not
    let wrap = |e: Diagnostic| {
        let sep = if e.text().starts_with("  ") { "" } else { " " };
        e.reworded(|e| {
            format!("Overlaying data values schema (in following order: {order}):{sep}\n{e}")
        })
    };
    // each document's rules are read as it is taken, before it is overlaid
    let rules = |doc: &Doc| {
        validations::check_schema_rules(&doc.value, &doc.meta, rt).map_err(|(e, at)| {
            let d = Diagnostic::new(Kind::Schema, indent(&e, 2)).at(rt.names().locate(&at));
            wrap(d)
        })
    };
    let mut docs = docs.into_iter();
    let Some(first) = docs.next() else {
        return Ok(None);
    };
    rules(&first)?;
    let mut meta = first.meta.clone();
    let mut value = strip_overlay_annotations(first.value);
    for mut doc in docs {
        rules(&doc)?;
        crate::schema::spread_document_defaults(&mut doc.value, &doc.meta, host);
        value = overlay::apply_doc_value(value, &mut meta, (&doc.value, &doc.meta), None, host)
            .map_err(|e| wrap(e.diagnostic(host.names(), indent(&e.indented(0), 2))))?;
    }
    Ok(Some(
        Schema::build(&value, &meta, host, sources).map_err(wrap)?,
    ))
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
    for i in order {
        let Some((f, parsed)) = files[i].take() else {
            continue;
        };
        let file = &f.file;
        let wanted = if exclusive {
            file.exclusive_for_output
        } else {
            !file.is_library || file.for_output
        };
        // a library file (`.star`, `.lib.yml`, `.lib.txt`) no output wants is still run
        // for its effects (a `print`, a `fail`), as the reference runs it
        let for_output = if wanted {
            true
        } else if file.is_library {
            false
        } else {
            continue;
        };
        let loader = eval.loader_for(&f.path);
        let write_ahead = write_ahead && for_output;
        let content = evaluate_file(rt, &loader, file, parsed, settings, write_ahead)?;
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

/// Evaluates one file of a library: its output content, `None` for a file with none (a
/// text file without code, a data file). `write_ahead`: see [`library_outputs`].
fn evaluate_file(
    rt: &Runtime,
    loader: &FileScopedLoader,
    file: &InputFile,
    parsed: Option<DocSet>,
    settings: Settings,
    write_ahead: bool,
) -> anyhow::Result<Option<OutputContent>> {
    Ok(Some(match file.kind {
        FileKind::YamlTemplate | FileKind::YamlPlain => {
            let ds = match parsed {
                Some(ds) => ds,
                None => parse_yaml(rt, file, settings.strict)?,
            };
            match compile_yaml_file(rt, file, ds, settings.compile)? {
                Compiled::Plain(ds) => OutputContent::Yaml(ds),
                Compiled::Template(t) => {
                    rt.write_ahead(write_ahead.then_some(t.id));
                    let run = run_template(rt, super::globals(), loader, &t);
                    rt.write_ahead(None);
                    match run? {
                        (_, Some(RootOutput::Docs(ds))) => OutputContent::Yaml(ds),
                        _ => bail!("template '{}' produced no documents", file.rel_path),
                    }
                }
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

/// The first data-values document is the base: overlay annotations on it mean nothing.
fn strip_overlay_annotations(mut n: Node) -> Node {
    n.retain_annotations(&|a| !overlay::is_overlay_annotation(a));
    n
}
