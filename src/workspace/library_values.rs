//! A library's data values: the pipeline's `schema ─► data values` steps, each a function
//! here, in the order the reference takes them.
//!
//! 1. [`sort_files`]: the library's YAML templates parsed, those holding schema or
//!    data-values documents set apart from the rest (which are evaluated afterwards).
//! 2. [`own_documents`]: those files evaluated with empty data values, schema files first:
//!    the library's own schema and data-values documents, and those it addresses to its
//!    private libraries (`@library/ref`).
//! 3. [`library_schema`]: its own schema documents, then those its parent addressed to it
//!    (`with_data_values_schema()` ones included), each overlaid on the previous.
//! 4. [`Values`]: the schema's defaults, then in precedence order its own data-values
//!    documents, the documents its parent addressed to it, `with_data_values()` values,
//!    parent documents marked `after_library_module=True`, and command-line values; each
//!    overlaid on the values so far, then checked against the schema and completed;
//!    when a front end asks for the run's facts, what each step set is noted
//!    ([`super::facts`]).
//! 5. [`ValuesStage::validate`]: the rules of the final values, run by the caller where
//!    the values of their annotations can be reached.

use std::sync::Arc;

use anyhow::{anyhow, bail};

use super::compile::{compile_yaml_file, parse_yaml_files, Compiled};
use super::execution::Settings;
use super::facts::{Provenance, Step, Trace};
use super::loader::{LibraryEval, Scope};
use super::refs::{parse_ref, Envelope, Payload, RefSegment};
use super::values::{self, CliValues};
use super::Run;
use crate::diagnostic::{indent, reword, Diagnostic, Kind};
use crate::eval::contexts::RootOutput;
use crate::eval::exec::run_template;
use crate::eval::runtime::Runtime;
use crate::files::library::{LibFile, Library};
use crate::files::{FileKind, InputFile};
use crate::overlay::{self, Host};
use crate::schema::{FlagOrigin, Schema};
use crate::template::annotations::{DATA_VALUES, DATA_VALUES_SCHEMA, LIBRARY_REF};
use crate::validations;
use crate::yaml::parser::Keep;
use crate::yaml::{Doc, DocSet, Meta, Node};

/// How reports name what came from outside the library's files.
const ADDITIONAL: &str = "additional data values";

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
    /// Trace what sets each value (a front end asked for the run's facts).
    pub traced: bool,
    /// Parse the YAML files nothing needs before the templates run on another core
    /// meanwhile (`super::deferred`): the root library's, whose run settles the parse.
    pub defer: bool,
}

/// A library once its data values are known.
pub struct ValuesStage {
    pub values: Node,
    /// The library's schema (`None`: no schema, anything goes), for export.
    pub schema: Option<Schema>,
    /// Envelopes for the library's own private libraries.
    pub child_envelopes: Vec<Envelope>,
    /// What set each value, when the library's inputs asked for it.
    pub provenance: Option<Provenance>,
    /// Files to evaluate after the data values (all but data-values files), parsed when
    /// they are YAML templates.
    pub(super) files: Vec<(LibFile, Option<Parsed>)>,
    /// The data-values document's metadata: its validations apply to the whole document.
    doc_meta: Option<Meta>,
    validation_disabled: bool,
}

impl ValuesStage {
    /// The parsed template files, for a run that renders no output.
    pub fn take_parsed(&mut self) -> Vec<DocSet> {
        self.files
            .drain(..)
            .filter_map(|(_, parsed)| match parsed {
                Some(Parsed::Tree(ds)) => Some(ds),
                Some(Parsed::Deferred(_) | Parsed::Ahead(_)) | None => None,
            })
            .collect()
    }

    /// Validates the final data values. `eval` must reach the annotation values of every
    /// document that contributed: a `with_data_values()` fragment's live in the module of
    /// the caller, which is still being evaluated.
    pub fn validate(&self, eval: &mut starlark::eval::Evaluator) -> anyhow::Result<()> {
        if self.validation_disabled {
            return Ok(());
        }
        let names = crate::eval::runtime::names_of(eval);
        crate::validations::validate_values(&self.values, self.doc_meta.as_ref(), eval)?
            .finish(&names, || crate::eval::runtime::messages_of(eval))
    }
}

/// Computes a library's data values (see the module's steps).
pub fn library_values(
    rt: &Runtime,
    lib: &Arc<Library>,
    mut inputs: LibraryInputs,
    settings: Settings,
    host: &mut dyn Host,
) -> anyhow::Result<ValuesStage> {
    let run = Run::of(rt)?;
    for f in &lib.files {
        // reports quote source lines of any file of the run
        run.sources.register(&f.file.rel_path, f.file.data.clone());
    }
    let files = sort_files(rt, lib, settings, inputs.defer)?;
    if settings.schema_only {
        inputs
            .envelopes
            .retain(|e| matches!(e.payload, Payload::Schema { .. }));
    }
    let (mine, passing): (Vec<Envelope>, Vec<Envelope>) = inputs
        .envelopes
        .into_iter()
        .partition(|e| e.refs.is_empty());
    let orders = Orders::new(&files, &mine, !inputs.with_values.is_empty());
    let own = own_documents(rt, lib, files.values_files, settings, &orders, host)?;
    let schema = library_schema(rt, own.schemas, &mine, &orders.schema, host)?;

    let mut values = Values::new(rt, schema.as_ref(), &orders.values, inputs.traced);
    for doc in &own.values {
        values.overlay((&doc.value, &doc.meta), host)?;
    }
    for doc in addressed(&mine, false) {
        values.overlay(doc, host)?;
    }
    for w in &inputs.with_values {
        values.with_values(w, host)?;
    }
    for doc in addressed(&mine, true) {
        values.overlay(doc, host)?;
    }
    let cli = mine.into_iter().filter_map(|e| match e.payload {
        Payload::Cli(c) => Some(c),
        _ => None,
    });
    for c in cli {
        values.cli(c)?;
    }
    let provenance = values.trace.map(Trace::provenance);
    let (values, doc_meta) = (values.value, values.doc_meta);

    let mut child_envelopes = own.envelopes;
    child_envelopes.extend(passing);
    Ok(ValuesStage {
        values,
        schema,
        child_envelopes,
        provenance,
        files: files.rest,
        doc_meta,
        validation_disabled: settings.disable_values_validation,
    })
}

/// A library's files, sorted for the data-values step.
struct SortedFiles {
    /// The names of the files holding a schema document, in file order.
    schema_names: Vec<String>,
    /// The files holding a schema document or (unless only the schema is wanted) a
    /// data-values document, parsed.
    values_files: Vec<(LibFile, DocSet)>,
    /// The others, to evaluate after the data values; parsed when they are YAML templates.
    rest: Vec<(LibFile, Option<Parsed>)>,
}

/// A YAML template's parse.
pub(super) enum Parsed {
    Tree(DocSet),
    /// The `k`th file the run parses meanwhile (`super::deferred`).
    Deferred(usize),
    /// The `k`th template compiled ahead of its evaluation (`super::compile::Ahead`).
    Ahead(usize),
}

/// Parses the library's YAML templates (every one, on every core) and sorts its files.
/// `defer`: see [`LibraryInputs::defer`].
fn sort_files(
    rt: &Runtime,
    lib: &Library,
    settings: Settings,
    defer: bool,
) -> anyhow::Result<SortedFiles> {
    let is_template = |f: &InputFile| f.kind == FileKind::YamlTemplate && !f.is_library;
    let templates: Vec<&Arc<InputFile>> = lib
        .files
        .iter()
        .map(|f| &f.file)
        .filter(|f| is_template(f))
        .collect();
    let mut parsed = parse_templates(rt, &templates, settings, defer)?.into_iter();
    let mut sorted = SortedFiles {
        schema_names: Vec::new(),
        values_files: Vec::new(),
        rest: Vec::new(),
    };
    for f in &lib.files {
        // one parse per template file, in order; files without one are parsed when output
        let parse = if is_template(&f.file) {
            parsed.next()
        } else {
            None
        };
        let ds = match parse.transpose()? {
            Some(Parsed::Tree(ds)) => ds,
            other => {
                sorted.rest.push((f.clone(), other));
                continue;
            }
        };
        let has_schema = ds.docs.iter().any(values::is_schema_doc);
        if has_schema {
            sorted.schema_names.push(f.file.rel_path.clone());
        }
        if has_schema || (!settings.schema_only && ds.docs.iter().any(values::is_data_values_doc)) {
            sorted.values_files.push((f.clone(), ds));
        } else {
            sorted.rest.push((f.clone(), Some(Parsed::Tree(ds))));
        }
    }
    Ok(sorted)
}

/// Each YAML template parsed (on every core) with its annotations' placement checked, or
/// its error. With `defer`, those without a `#@` comment, plain YAML the run only needs
/// when it reaches them, parse on another core meanwhile when they add up to enough to
/// pay for the thread (`super::deferred`) and the others hold no error.
fn parse_templates(
    rt: &Runtime,
    templates: &[&Arc<InputFile>],
    settings: Settings,
    defer: bool,
) -> anyhow::Result<Vec<anyhow::Result<Parsed>>> {
    // a file without `#@` holds no data values or schema document: in an inspection,
    // nothing of it is used but its YAML errors
    let annotated = |f: &InputFile| memchr::memmem::find(&f.data, b"#@").is_some();
    let keep: Vec<Keep> = templates
        .iter()
        .map(|f| match settings.values_only && !annotated(f) {
            true => Keep::Shapes,
            false => Keep::Trees,
        })
        .collect();
    // annotations are `#@` comments: a file without one has none to misplace
    let placed = |f: &InputFile, ds: anyhow::Result<DocSet>| {
        let ds = ds?;
        if annotated(f) {
            values::check_annotation_placement(&f.rel_path, &ds)?;
        }
        Ok(ds)
    };
    let every_file = || -> anyhow::Result<Vec<anyhow::Result<Parsed>>> {
        let files: Vec<&InputFile> = templates.iter().map(|f| &***f).collect();
        let parsed = parse_yaml_files(rt, &files, &keep, settings.strict)?;
        Ok(parsed
            .into_iter()
            .zip(&files)
            .map(|(ds, f)| placed(f, ds).map(Parsed::Tree))
            .collect())
    };
    let later: Vec<bool> = templates
        .iter()
        .map(|f| defer && f.unread.is_none() && !annotated(f))
        .collect();
    let deferred_bytes: usize = templates
        .iter()
        .zip(&later)
        .filter_map(|(f, l)| l.then_some(f.data.len()))
        .sum();
    if deferred_bytes < super::deferred::DEFER_FROM {
        return every_file();
    }
    let budget = &Run::of(rt)?.aliases;
    let left = budget.left();
    let pick = |deferred: bool| {
        templates
            .iter()
            .zip(&keep)
            .zip(&later)
            .filter(move |(_, l)| **l == deferred)
            .map(|((f, k), _)| (*f, *k))
    };
    let (files, now_keep): (Vec<&InputFile>, Vec<Keep>) =
        pick(false).map(|(f, k)| (&**f, k)).unzip();
    let now = parse_yaml_files(rt, &files, &now_keep, settings.strict)?;
    let now: Vec<anyhow::Result<DocSet>> = now
        .into_iter()
        .zip(&files)
        .map(|(ds, f)| placed(f, ds))
        .collect();
    if now.iter().any(Result::is_err) {
        // the serial parse of every file, in order, decides which error comes first
        budget.restore(left);
        return every_file();
    }
    let all = templates
        .iter()
        .zip(&keep)
        .map(|(f, k)| (Arc::clone(f), *k))
        .collect();
    let deferred = pick(true).map(|(f, k)| (Arc::clone(f), k)).collect();
    Run::of(rt)?
        .deferred
        .start(rt, deferred, all, left, settings.strict);
    let mut now = now.into_iter();
    let mut k = 0;
    Ok(later
        .into_iter()
        .map(|l| match l {
            true => {
                k += 1;
                Ok(Parsed::Deferred(k - 1))
            }
            false => now
                .next()
                .unwrap_or_else(|| Err(anyhow!("internal error: a file parsed twice")))
                .map(Parsed::Tree),
        })
        .collect())
}

/// The "in following order" lists of the library's reports.
struct Orders {
    /// The files holding data values, and what comes from outside.
    values: String,
    /// The files holding a schema, and what comes from outside.
    schema: String,
}

impl Orders {
    /// `mine`: the envelopes for the library itself; `with_values`: whether
    /// `with_data_values()` gave it values.
    fn new(files: &SortedFiles, mine: &[Envelope], with_values: bool) -> Orders {
        let is_schema = |e: &&Envelope| matches!(e.payload, Payload::Schema { .. });
        let mut values: Vec<&str> = files
            .values_files
            .iter()
            .filter(|(_, ds)| ds.docs.iter().any(values::is_data_values_doc))
            .map(|(f, _)| f.file.rel_path.as_str())
            .collect();
        if with_values || mine.iter().any(|e| !is_schema(&e)) {
            values.push(ADDITIONAL);
        }
        let mut schema: Vec<&str> = files.schema_names.iter().map(String::as_str).collect();
        if mine.iter().any(|e| is_schema(&e)) {
            schema.push(ADDITIONAL);
        }
        Orders {
            values: values.join(", "),
            schema: schema.join(", "),
        }
    }
}

/// What a library's own schema and data-values files hold.
#[derive(Default)]
struct OwnDocuments {
    /// Its data-values documents, in file order.
    values: Vec<Doc>,
    /// Its schema documents, in file order.
    schemas: Vec<Doc>,
    /// The documents it addresses to its private libraries (`@library/ref`).
    envelopes: Vec<Envelope>,
}

/// Evaluates the library's schema and data-values files with empty data values, as the
/// reference reads them: the schema files first (a file with a schema document holds
/// nothing else), then the data-values files; each step's errors name its files.
fn own_documents(
    rt: &Runtime,
    lib: &Arc<Library>,
    files: Vec<(LibFile, DocSet)>,
    settings: Settings,
    orders: &Orders,
    host: &mut dyn Host,
) -> anyhow::Result<OwnDocuments> {
    let empty = LibraryEval::new(
        rt,
        lib.clone(),
        Node::Null,
        settings,
        Arc::new(Scope::new(lib.clone(), Vec::new(), settings)),
    );
    let (schema_files, values_files): (Vec<_>, Vec<_>) = files
        .into_iter()
        .partition(|(_, ds)| ds.docs.iter().any(values::is_schema_doc));
    let mut own = OwnDocuments::default();
    for (files, schema_file) in [(schema_files, true), (values_files, false)] {
        for (f, ds) in files {
            let (step, order) = match schema_file {
                true => ("data values schema", &orders.schema),
                false => ("data values", &orders.values),
            };
            let docs = match compile_yaml_file(rt, &f.file, ds, settings.compile)? {
                Compiled::Plain(ds) => ds,
                Compiled::Template(t) => {
                    let loader = empty.loader_for(&f.path);
                    let templating = |e: Diagnostic| {
                        e.reworded(|e| format!(
                            "Overlaying {step} (in following order: {order}):\n  Templating file '{}': {e}",
                            f.file.rel_path
                        ))
                    };
                    match run_template(rt, super::globals(), &loader, &t).map_err(templating)? {
                        (_, Some(RootOutput::Docs(ds))) => ds,
                        _ => DocSet::default(),
                    }
                }
            };
            for doc in docs.docs {
                own.take(
                    rt,
                    doc,
                    &f.file.rel_path,
                    schema_file,
                    settings,
                    orders,
                    host,
                )?;
            }
        }
    }
    Ok(own)
}

impl OwnDocuments {
    /// Takes a document of `file` (a schema file when `schema_file`).
    #[allow(clippy::too_many_arguments)]
    fn take(
        &mut self,
        rt: &Runtime,
        doc: Doc,
        file: &str,
        schema_file: bool,
        settings: Settings,
        orders: &Orders,
        host: &mut dyn Host,
    ) -> anyhow::Result<()> {
        let schema_step = |e| overlaying("data values schema", &orders.schema, e);
        let values_step = |e| overlaying("data values", &orders.values, e);
        if doc.meta.has_annotation(DATA_VALUES_SCHEMA) {
            match library_ref(&doc, host).map_err(schema_step)? {
                Some((refs, text)) => self.envelopes.push(Envelope::new(
                    refs,
                    text,
                    rt.describe(&doc.meta.pos),
                    Payload::Schema {
                        value: doc.value,
                        meta: doc.meta,
                    },
                )),
                None => self.schemas.push(doc),
            }
            return Ok(());
        }
        if schema_file {
            if doc.is_empty() {
                return Ok(());
            }
            return Err(schema_step(anyhow!(
                "Templating file '{file}':\n  Expected schema file '{file}' to only have schema documents"
            )));
        }
        if settings.schema_only {
            return Ok(());
        }
        let Some(dv) = doc.meta.annotation(DATA_VALUES).cloned() else {
            if doc.is_empty() {
                return Ok(());
            }
            return Err(values_step(anyhow!(
                "Templating file '{file}':\n  Expected data values file '{file}' to only have data values documents"
            )));
        };
        let after_module = match dv.kwarg("after_library_module") {
            Some(r) => matches!(host.value(r)?, Node::Bool(true)),
            None => false,
        };
        match library_ref(&doc, host).map_err(values_step)? {
            Some((refs, text)) => self.envelopes.push(Envelope::new(
                refs,
                text,
                rt.describe(&doc.meta.pos),
                Payload::Doc {
                    value: doc.value,
                    meta: doc.meta,
                    after_module,
                },
            )),
            None if after_module => {
                return Err(values_step(anyhow!(
                    "Annotation data/values: Expected 'after_library_module' to be used with 'library/ref' annotation"
                )))
            }
            None => self.values.push(doc),
        }
        Ok(())
    }
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
/// addressed to it and those given by `with_data_values_schema()` (in `mine`, the
/// envelopes for the library), each overlaid on the previous ones; `None` when there is
/// none. `order`: the schema's "in following order".
fn library_schema(
    rt: &Runtime,
    own: Vec<Doc>,
    mine: &[Envelope],
    order: &str,
    host: &mut dyn Host,
) -> anyhow::Result<Option<Schema>> {
    let mut docs: Vec<Doc> = own;
    for e in mine {
        if let Payload::Schema { value, meta } = &e.payload {
            docs.push(Doc::new(value.clone(), meta.clone()));
        }
    }
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
        Schema::build(&value, &meta, host, &Run::of(rt)?.sources).map_err(wrap)?,
    ))
}

/// The documents the library's parent addressed to it, those marked
/// `after_library_module=True` when `after`.
fn addressed(mine: &[Envelope], after: bool) -> impl Iterator<Item = (&Node, &Meta)> {
    mine.iter().filter_map(move |e| match &e.payload {
        Payload::Doc {
            value,
            meta,
            after_module,
        } if *after_module == after => Some((value, meta)),
        _ => None,
    })
}

/// The data values as they are built: each contribution in turn, then the values checked
/// against the schema and completed.
struct Values<'a> {
    rt: &'a Runtime,
    schema: Option<&'a Schema>,
    /// The data values' "in following order".
    order: &'a str,
    value: Node,
    /// The metadata of the document holding the values: its validations apply to the
    /// whole document.
    doc_meta: Option<Meta>,
    /// What each step set, when traced.
    trace: Option<Trace>,
}

impl<'a> Values<'a> {
    /// The schema's defaults (null without a schema); `traced`: what each step sets is
    /// noted.
    fn new(rt: &'a Runtime, schema: Option<&'a Schema>, order: &'a str, traced: bool) -> Self {
        let mut values = Values {
            rt,
            schema,
            order,
            value: schema.map_or(Node::Null, Schema::defaults),
            doc_meta: schema.map(Schema::defaults_meta),
            trace: traced.then(Trace::default),
        };
        values.note(|| Step::Schema);
        values
    }

    /// Notes what the step just taken set, when traced.
    fn note(&mut self, step: impl FnOnce() -> Step) {
        if let Some(trace) = &mut self.trace {
            trace.step(&self.value, step(), self.rt.names());
        }
    }

    /// A data-values document: the base when nothing came before, else an overlay on the
    /// values so far (and on the metadata of the document holding them).
    fn overlay(
        &mut self,
        (value, meta): (&Node, &Meta),
        host: &mut dyn Host,
    ) -> anyhow::Result<()> {
        if self.value.is_null() {
            self.value = strip_overlay_annotations(value.clone());
            if self.doc_meta.is_none() {
                self.doc_meta = Some(meta.clone());
            }
        } else {
            self.overlay_on(value, meta, host)?;
        }
        self.note(|| Step::Document);
        self.typed(None)
    }

    /// `with_data_values()` values: plain ones are merged as a plain data-values file is,
    /// the others are a document of their own, made in code (it has no line).
    fn with_values(&mut self, w: &WithValues, host: &mut dyn Host) -> anyhow::Result<()> {
        if w.plain {
            if self.value.is_null() {
                self.value = Node::Map(Default::default());
            }
            values::merge_plain(&mut self.value, strip_overlay_annotations(w.node.clone()));
        } else if self.value.is_null() {
            self.value = strip_overlay_annotations(w.node.clone());
        } else {
            self.overlay_on(&w.node, &Meta::default(), host)?;
        }
        self.note(|| Step::Caller);
        self.typed(None)
    }

    /// Values from the command line. They move into the result when nothing else holds
    /// them (large `--data-values-file` documents are not copied).
    fn cli(&mut self, c: Arc<CliValues>) -> anyhow::Result<()> {
        let c = Arc::try_unwrap(c).unwrap_or_else(|shared| (*shared).clone());
        let flag_text = c.flag_line().map(str::to_owned);
        let source = c.source().to_owned();
        let step = self.trace.is_some().then(|| match c.flag() {
            Some((flag, text)) => Step::Flag { flag, text },
            None => Step::ValuesFile,
        });
        values::apply_cli(&mut self.value, c, &Run::of(self.rt)?.sources)
            .map_err(|e| overlaying("data values", self.order, e))?;
        if let Some(step) = step {
            self.note(|| step);
        }
        let flag = flag_text.as_deref().map(|text| FlagOrigin {
            source: &source,
            text,
        });
        self.typed(flag)
    }

    fn overlay_on(&mut self, value: &Node, meta: &Meta, host: &mut dyn Host) -> anyhow::Result<()> {
        let left = std::mem::take(&mut self.value);
        let left_meta = self.doc_meta.get_or_insert_with(Meta::default);
        let protected = Some(values::SCHEMA_ANNOTATIONS);
        let result = overlay::apply_doc_value(left, left_meta, (value, meta), protected, host);
        self.value = result.map_err(|error| {
            let failure = overlay::OverlayingError {
                step: " data values",
                order: self.order.to_owned(),
                error,
            };
            anyhow::Error::new(failure.report(host.names()))
        })?;
        Ok(())
    }

    /// Checks the values against the schema and completes them; `flag`: the
    /// command-line flag that gave them.
    fn typed(&mut self, flag: Option<FlagOrigin>) -> anyhow::Result<()> {
        let Some(s) = self.schema else {
            return Ok(());
        };
        let meta = self.doc_meta.get_or_insert_with(|| s.defaults_meta());
        let order = self.order;
        s.check(&mut self.value, meta, flag, &Run::of(self.rt)?.sources)
            .map_err(|r| {
                r.reworded(|r| {
                    format!("Overlaying data values (in following order: {order}): \n{r}")
                })
            })?;
        // what the schema completed
        self.note(|| Step::Schema);
        Ok(())
    }
}

/// The first data-values document is the base: overlay annotations on it mean nothing.
fn strip_overlay_annotations(mut n: Node) -> Node {
    n.retain_annotations(&|a| !overlay::is_overlay_annotation(a));
    n
}
