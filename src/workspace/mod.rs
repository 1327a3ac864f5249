//! The workspace: the library tree built from the input files, and running a library
//! (templates → evaluation → output documents).

mod check;
mod compile;
mod deferred;
mod execution;
pub mod facts;
mod libraries;
mod library_values;
mod loader;
mod refs;
pub mod values;

use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::eval::runtime::Runtime;
use crate::files::library::Library;
use crate::files::InputFile;
use crate::modules::Modules;
use crate::schema::export::SchemaExport;
use crate::schema::Sources;
use crate::template::CompileOptions;
use crate::yaml::parser::AliasBudget;
use crate::yaml::{Doc, DocSet, FileNames, Meta, Node};
pub use check::{check_files, CheckOptions};
use execution::Settings;
pub use facts::{Facts, FactsSink};
use library_values::LibraryInputs;
pub use values::CliValues;

/// Options of one template run that shape evaluation (not output).
#[derive(Clone, Debug, Default)]
pub struct RenderOptions {
    pub ignore_unknown_comments: bool,
    pub implicit_map_key_overrides: bool,
    pub strict: bool,
    pub debug: bool,
    /// Data values from the command line, in precedence order.
    pub data_values: Vec<CliValues>,
    /// The run's alias-expansion budget (shared with the command line's YAML).
    pub aliases: AliasBudget,
    /// The run's file names: what the file ids of positions stand for. Data values
    /// parsed before the run (`data_values`) are positioned in this table; every file of
    /// the run is added to it. A fresh table by default: runs share nothing.
    pub names: FileNames,
    /// `--data-values-inspect`: stop after computing the data values.
    pub data_values_inspect: bool,
    /// `--data-values-schema-inspect`: stop after computing the root library's schema
    /// (data values are not validated).
    pub schema_inspect: bool,
    /// `--dangerous-data-values-disable-validation`
    pub disable_values_validation: bool,
    /// `--output-disable-validation`
    pub disable_output_validation: bool,
    /// Where `print()` output and warnings go as they happen.
    pub messages: crate::messages::Messages,
    /// The `@ytt:` modules templates may load besides the engine's own (`template`,
    /// `data`, `library`, `overlay`): the standard library is the `ytt-stdlib` crate's
    /// (`ytt_stdlib::modules()`). None by default.
    pub modules: crate::modules::Modules,
    /// The bytes the process holds in large blocks, where the embedder's allocator counts
    /// them: loops collect garbage as these grow too (see `eval::gc`).
    pub held_bytes: Option<fn() -> usize>,
    /// The memory budget the embedder's allocator keeps, if it keeps one: a run that
    /// passes it stops at its next Starlark step with an error naming where (see
    /// `eval::budget`), and loops collect garbage before they would pass it.
    pub memory_budget: Option<crate::eval::budget::MemoryBudget>,
    /// The caller writes the output documents as YAML (`emit::yaml_texts`): templates'
    /// documents are written while the run goes on, on another core.
    pub write_ahead: bool,
    /// Where the root library's [`Facts`] go once its data values are final, when a
    /// front end asks for them (not in a schema inspection, which computes no values).
    pub facts: Option<FactsSink>,
}

/// What a run produced, one entry per output file, in output order.
#[derive(Debug, Default)]
pub struct Rendered {
    pub outputs: Vec<OutputFile>,
    /// The root library's final data values, when they were asked for
    /// (`--data-values-inspect`); nothing else is rendered then.
    pub data_values: Option<Node>,
    /// The root library's schema with its rules, when it was asked for
    /// (`--data-values-schema-inspect`); nothing else is rendered then.
    pub schema: Option<SchemaExport>,
    /// The run's file names, for the positions of what it produced (`-o pos`).
    pub names: FileNames,
}

#[derive(Debug)]
pub struct OutputFile {
    /// Relative path of the template this came from (and of the file written by
    /// `--output-files`).
    pub rel_path: String,
    pub content: OutputContent,
}

#[derive(Debug)]
pub enum OutputContent {
    Yaml(DocSet),
    Text(String),
    /// A Starlark file given for output, evaluated for its effects: it produces nothing,
    /// and `--output-files` refuses it as the reference does (`Unknown file type`).
    Starlark,
}

/// What a run prints on standard output: every YAML output's documents, in output order;
/// and the text outputs, which never go there (the command line warns of them; an output
/// directory gets them).
pub fn stdout_documents(outputs: Vec<OutputFile>) -> (DocSet, Vec<(String, String)>) {
    let mut docs = DocSet::default();
    let mut texts = Vec::new();
    for f in outputs {
        match f.content {
            OutputContent::Yaml(ds) => docs.docs.extend(ds.docs),
            OutputContent::Text(s) => texts.push((f.rel_path, s)),
            OutputContent::Starlark => {}
        }
    }
    (docs, texts)
}

/// The document `--data-values-inspect` prints: none for no data values (null or an
/// empty map), like any empty document.
pub fn data_values_documents(values: Node) -> DocSet {
    let doc = Doc::new(values, Meta::default());
    DocSet {
        docs: if doc.is_empty() { vec![] } else { vec![doc] },
        meta: Meta::default(),
    }
}

pub use crate::cores::RUN_STACK;

/// Renders the root library made of `files`, on a thread of its own with [`RUN_STACK`]:
/// a caller on a default stack (1-2 MiB) renders the deepest input the limits allow.
/// Where no thread can be started (WebAssembly), on the caller's thread, whose stack must
/// be as large.
pub fn render(opts: RenderOptions, files: Vec<InputFile>) -> Result<Rendered, Diagnostic> {
    on_run_stack(move || render_on_this_thread(opts, files))
}

/// `run()` on a thread with [`RUN_STACK`], or here when no thread can be started. A panic
/// of `run` propagates.
pub(crate) fn on_run_stack<T: Send>(run: impl FnOnce() -> T + Send) -> T {
    let run = std::sync::Mutex::new(Some(run));
    let take = || run.lock().unwrap_or_else(|e| e.into_inner()).take();
    std::thread::scope(|s| {
        let spawned = std::thread::Builder::new()
            .name("ytt-run".into())
            .stack_size(RUN_STACK)
            .spawn_scoped(s, || take().map(|run| run()));
        let done = match spawned {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => None,
        };
        // not started: the closure was dropped unrun
        done.unwrap_or_else(|| take().expect("run once")())
    })
}

/// [`render`] on the caller's thread, for a caller whose stack has [`RUN_STACK`] already
/// (the command line runs on such a thread).
pub fn render_on_this_thread(
    opts: RenderOptions,
    files: Vec<InputFile>,
) -> Result<Rendered, Diagnostic> {
    run(opts, files).map_err(Diagnostic::from_error)
}

fn run(mut opts: RenderOptions, files: Vec<InputFile>) -> anyhow::Result<Rendered> {
    let files: Vec<Arc<InputFile>> = files.into_iter().map(Arc::new).collect();
    let run = Run {
        sources: Sources::new(opts.names.clone()),
        aliases: opts.aliases.clone(),
        modules: opts.modules.clone(),
        deferred: Default::default(),
    };
    let mut rt = Runtime::new(opts.names.clone(), run);
    rt.messages = opts.messages.clone();
    rt.gate = Some(|rt| Run::of(rt).is_ok_and(|run| run.deferred.settled_ok(rt)));
    rt.gc.held = opts.held_bytes;
    rt.gc.limit = opts.memory_budget.map(|b| b.limit);
    rt.budget = opts.memory_budget;
    if let Some(sink) = opts.facts.as_ref().filter(|_| !opts.schema_inspect) {
        rt.overlay_log = Some(sink.overlays.clone());
    }
    let library = Arc::new(Library::root(&files));
    let settings = Settings {
        compile: CompileOptions {
            ignore_unknown_comments: opts.ignore_unknown_comments,
            implicit_map_key_overrides: opts.implicit_map_key_overrides,
        },
        strict: opts.strict,
        disable_values_validation: opts.disable_values_validation || opts.schema_inspect,
        disable_output_validation: opts.disable_output_validation,
        values_only: opts.schema_inspect || opts.data_values_inspect,
        schema_only: opts.schema_inspect,
    };
    let inputs = LibraryInputs {
        envelopes: execution::cli_envelopes(std::mem::take(&mut opts.data_values))?,
        with_values: Vec::new(),
        traced: opts.facts.is_some() && !opts.schema_inspect,
        defer: true,
    };
    let rendered = render_root(&rt, &library, opts, inputs, settings);
    // the files parsed meanwhile may hold the error a serial parse reports first
    Run::of(&rt)?.deferred.finish(&rt, rendered)
}

/// Runs the root library: its data values, then (unless they are all that is asked for)
/// its templates.
fn render_root(
    rt: &Runtime,
    library: &Arc<Library>,
    opts: RenderOptions,
    inputs: LibraryInputs,
    settings: Settings,
) -> anyhow::Result<Rendered> {
    let mut stage = execution::with_host(rt, |host| {
        library_values::library_values(rt, library, inputs, settings, host)
    })?;
    if let (Some(provenance), Some(sink)) = (stage.provenance.take(), &opts.facts) {
        // the schema's rules as an export reads them; a schema whose rules the
        // inspection could not read has none to show
        let schema = crate::validations::with_evaluator(rt, |eval| {
            SchemaExport::resolve(stage.schema.as_ref(), eval)
        });
        sink.put(Facts {
            values: stage.values.clone(),
            schema: schema.ok(),
            provenance,
            names: opts.names.clone(),
            overlays: Vec::new(),
        });
    }
    if opts.schema_inspect || opts.data_values_inspect {
        drop_aside(stage.take_parsed());
    }
    crate::eval::exec::with_evaluator(rt, |eval| stage.validate(eval))?;
    if opts.schema_inspect {
        let schema = crate::validations::with_evaluator(rt, |eval| {
            SchemaExport::resolve(stage.schema.as_ref(), eval)
        })?;
        return Ok(Rendered {
            schema: Some(schema),
            names: opts.names,
            ..Rendered::default()
        });
    }
    if opts.data_values_inspect {
        return Ok(Rendered {
            data_values: Some(stage.values),
            names: opts.names,
            ..Rendered::default()
        });
    }
    let outputs = execution::library_outputs(rt, library, stage, settings, opts.write_ahead)?;
    Ok(Rendered {
        outputs,
        names: opts.names,
        ..Rendered::default()
    })
}

/// What the workspace keeps of a run besides the evaluation's state, held for it by the
/// run's [`Runtime`], so that `@ytt:library` (running a library from an evaluator) has it
/// too: the texts of the run's files, which reports quote; the YAML alias budget; the
/// `@ytt:` modules the embedder registered; the root library's files parsed meanwhile.
pub(crate) struct Run {
    pub sources: Sources,
    pub aliases: AliasBudget,
    pub modules: Modules,
    /// The root library's files parsed meanwhile.
    pub deferred: deferred::Deferred,
}

impl Run {
    /// The workspace's part of the run `rt` belongs to.
    pub fn of(rt: &Runtime) -> anyhow::Result<&Run> {
        (rt.owner()).ok_or_else(|| anyhow::anyhow!("internal error: a runtime without its run"))
    }
}

/// Frees `value` on a thread of its own: the parse trees an inspection no longer needs
/// take a tenth of its time to free (`bench/package-inspect`: 4.7 M of 135 M
/// instructions, 0.6 ms). Freeing a tree recurses as deep as it nests.
fn drop_aside<T: Send + 'static>(value: T) {
    // when no thread can be started, `spawn` drops the closure, and `value` with it, here
    let _ = std::thread::Builder::new()
        .name("ytt-free".into())
        .stack_size(crate::cores::TREE_STACK)
        .spawn(move || drop(value));
}

/// The Starlark globals of every module.
pub(crate) fn globals() -> &'static starlark::environment::Globals {
    crate::eval::globals::globals()
}
