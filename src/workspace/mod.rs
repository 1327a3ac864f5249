//! The workspace: the library tree built from the input files, and running a library
//! (templates → evaluation → output documents).

mod data;
mod library;
mod loader;
pub mod values;

use std::rc::Rc;
use std::sync::Arc;

use anyhow::{anyhow, bail};

use crate::eval::exec::{globals, run_template};
use crate::eval::runtime::{Extra, RootOutput, Runtime};
use crate::overlay;
use crate::stdlib::overlay::EvalHost;
use crate::files::{FileKind, InputFile};
use crate::template::{
    compile_starlark, compile_text, compile_yaml, is_templated, CompileError, CompileOptions,
    CompiledTemplate,
};
use crate::yaml::parser::{dedup_last_wins_deep, parse, ParseOptions};
use crate::yaml::{Doc, DocSet, Node};
pub use values::CliValues;
use library::Library;
use loader::LibraryEval;

/// Options of one template run that shape evaluation (not output).
#[derive(Clone, Debug, Default)]
pub struct RenderOptions {
    pub ignore_unknown_comments: bool,
    pub implicit_map_key_overrides: bool,
    pub strict: bool,
    pub debug: bool,
    /// Data values from the command line, in precedence order.
    pub data_values: Vec<CliValues>,
    /// `--data-values-inspect`: stop after computing the data values.
    pub data_values_inspect: bool,
}

/// What a run produced, one entry per output file, in output order.
#[derive(Debug, Default)]
pub struct Rendered {
    pub outputs: Vec<OutputFile>,
    /// The root library's final data values, when they were asked for
    /// (`--data-values-inspect`); nothing else is rendered then.
    pub data_values: Option<Node>,
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
}

/// A file ready to evaluate, or plain YAML needing none.
pub(crate) enum Compiled {
    Template(Rc<CompiledTemplate>),
    Plain(DocSet),
}

/// Renders the root library made of `files`.
pub fn render(opts: &RenderOptions, files: Vec<InputFile>) -> anyhow::Result<Rendered> {
    let files: Vec<Arc<InputFile>> = files.into_iter().map(Arc::new).collect();
    let rt = Runtime::new();
    let globals = globals();
    let library = Arc::new(Library::root(&files));
    let run = Run {
        rt: &rt,
        globals: &globals,
        opts,
        compile_opts: CompileOptions {
            ignore_unknown_comments: opts.ignore_unknown_comments,
            implicit_map_key_overrides: opts.implicit_map_key_overrides,
        },
    };

    // Data-values files are found by their documents' annotations, before evaluation.
    let mut dv_files = Vec::new();
    let mut others = Vec::new();
    for file in &library.files {
        if file.kind == FileKind::YamlTemplate && !file.is_library {
            let ds = parse_yaml(file, opts.strict)?;
            values::check_annotation_placement(&file.rel_path, &ds)?;
            if ds.docs.iter().any(values::is_schema_doc) {
                bail!(
                    "Data values schemas (@data/values-schema in '{}') are not supported yet by this implementation",
                    file.rel_path
                );
            }
            if ds.docs.iter().any(values::is_data_values_doc) {
                dv_files.push((file.clone(), ds));
            } else {
                others.push((file.clone(), Some(ds)));
            }
        } else {
            others.push((file.clone(), None));
        }
    }

    let values = run.data_values(&library, dv_files)?;
    if opts.data_values_inspect {
        return Ok(Rendered {
            outputs: Vec::new(),
            data_values: Some(values),
        });
    }

    let lib = LibraryEval::new(
        &rt,
        &globals,
        library.clone(),
        values,
        run.compile_opts,
        opts.strict,
    );
    let exclusive = library.files.iter().any(|f| f.exclusive_for_output);
    let mut outputs = Vec::new();
    for (file, parsed) in others {
        let wanted = if exclusive {
            file.exclusive_for_output
        } else {
            !file.is_library || file.for_output
        };
        if !wanted {
            continue;
        }
        let content = match file.kind {
            FileKind::YamlTemplate | FileKind::YamlPlain => {
                let ds = match parsed {
                    Some(ds) => ds,
                    None => parse_yaml(&file, opts.strict)?,
                };
                match compile_yaml_file(&rt, &file, ds, run.compile_opts)? {
                    Compiled::Plain(ds) => OutputContent::Yaml(ds),
                    Compiled::Template(t) => {
                        let loader = lib.loader_for(&file.rel_path);
                        match run_template(&rt, &globals, &loader, &t).map_err(|e| anyhow!(e))? {
                            (_, Some(RootOutput::Docs(ds))) => OutputContent::Yaml(ds),
                            _ => bail!("template '{}' produced no documents", file.rel_path),
                        }
                    }
                }
            }
            FileKind::TextTemplate => match compile_file(&rt, &file, run.compile_opts, opts.strict)? {
                Compiled::Template(t) => {
                    let loader = lib.loader_for(&file.rel_path);
                    match run_template(&rt, &globals, &loader, &t)
                        .map_err(|e| anyhow!("Evaluating text template: {e}"))?
                    {
                        (_, Some(RootOutput::Text(s))) => OutputContent::Text(s),
                        _ => bail!("template '{}' produced no text", file.rel_path),
                    }
                }
                Compiled::Plain(_) => continue,
            },
            FileKind::TextPlain => OutputContent::Text(text_of(&file)?.to_owned()),
            FileKind::Starlark | FileKind::Data => continue,
        };
        outputs.push(OutputFile {
            rel_path: file.rel_path.clone(),
            content,
        });
    }
    run.apply_overlays(&mut outputs)?;
    Ok(Rendered {
        outputs,
        data_values: None,
    })
}

/// One run's shared state.
struct Run<'a> {
    rt: &'a Runtime,
    globals: &'a starlark::environment::Globals,
    opts: &'a RenderOptions,
    compile_opts: CompileOptions,
}

impl Run<'_> {
    /// The library's final data values: its `@data/values` documents (templates evaluated
    /// with empty values, each overlaid on the previous), then the command line's values.
    fn data_values(
        &self,
        library: &Arc<Library>,
        dv_files: Vec<(Arc<InputFile>, DocSet)>,
    ) -> anyhow::Result<Node> {
        let order: Vec<&str> = dv_files.iter().map(|(f, _)| f.rel_path.as_str()).collect();
        let mut order_desc = order.join(", ");
        if !self.opts.data_values.is_empty() {
            if !order_desc.is_empty() {
                order_desc.push_str(", ");
            }
            order_desc.push_str("additional data values");
        }
        let wrap = |e: anyhow::Error| {
            anyhow!(
                "Overlaying data values (in following order: {order_desc}): \n{}",
                indent(&format!("{e:#}"), 2)
            )
        };
        let empty = LibraryEval::new(
            self.rt,
            self.globals,
            library.clone(),
            Node::Null,
            self.compile_opts,
            self.opts.strict,
        );
        let mut docs: Vec<Doc> = Vec::new();
        for (file, ds) in dv_files {
            let compiled = compile_yaml_file(self.rt, &file, ds, self.compile_opts)?;
            let out = match compiled {
                Compiled::Plain(ds) => ds,
                Compiled::Template(t) => {
                    let loader = empty.loader_for(&file.rel_path);
                    match run_template(self.rt, self.globals, &loader, &t).map_err(|e| anyhow!(e))?
                    {
                        (_, Some(RootOutput::Docs(ds))) => ds,
                        _ => DocSet::default(),
                    }
                }
            };
            for doc in out.docs {
                if doc.meta.has_annotation(values::DATA_VALUES) {
                    docs.push(doc);
                } else if !doc.value.is_empty_doc_value() {
                    return Err(wrap(anyhow!(
                        "Templating file '{}':\n  Expected data values file '{}' to only have data values documents",
                        file.rel_path,
                        file.rel_path
                    )));
                }
            }
        }
        let mut result = Node::Null;
        with_host(self.rt, |host| -> anyhow::Result<()> {
            for (i, doc) in docs.iter().enumerate() {
                if i == 0 {
                    result = strip_overlay_annotations(doc.value.clone());
                } else {
                    let left = std::mem::take(&mut result);
                    result = overlay::apply_node(left, &doc.value, host)
                        .map_err(|e| wrap(anyhow!("{}", e.inline())))?;
                }
            }
            Ok(())
        })?;
        let root_cli: Vec<&CliValues> = self
            .opts
            .data_values
            .iter()
            .filter(|c| c.library().is_none())
            .collect();
        values::apply_cli(&mut result, &root_cli).map_err(wrap)?;
        if let Some(c) = self.opts.data_values.iter().find(|c| c.library().is_some()) {
            bail!(
                "Expected all provided library data values documents to be used but found unused: Data Value belonging to library '{}' (private libraries are not supported yet by this implementation)",
                c.library().unwrap_or_default()
            );
        }
        Ok(result)
    }

    /// Documents annotated `@overlay/match` are taken out of the output and applied, file
    /// by file, onto all the other documents.
    fn apply_overlays(&self, outputs: &mut [OutputFile]) -> anyhow::Result<()> {
        let mut overlays: Vec<Doc> = Vec::new();
        let mut slots: Vec<usize> = Vec::new();
        let mut docsets: Vec<DocSet> = Vec::new();
        for (i, out) in outputs.iter_mut().enumerate() {
            if let OutputContent::Yaml(ds) = &mut out.content {
                let (ov, rest): (Vec<Doc>, Vec<Doc>) = std::mem::take(&mut ds.docs)
                    .into_iter()
                    .partition(|d| d.meta.has_annotation("overlay/match"));
                overlays.extend(ov);
                ds.docs = rest;
                slots.push(i);
                docsets.push(std::mem::take(ds));
            }
        }
        if !overlays.is_empty() {
            with_host(self.rt, |host| -> anyhow::Result<()> {
                for ov in &overlays {
                    overlay::apply_to_docsets(&mut docsets, ov, host)
                        .map_err(|e| anyhow!("{}", e.inline()))?;
                }
                Ok(())
            })?;
        }
        for (slot, ds) in slots.into_iter().zip(docsets) {
            outputs[slot].content = OutputContent::Yaml(ds);
        }
        Ok(())
    }
}

/// Runs `f` with an overlay host backed by a fresh evaluator.
fn with_host<R>(rt: &Runtime, f: impl FnOnce(&mut dyn overlay::Host) -> R) -> R {
    let extra = Extra(rt);
    starlark::environment::Module::with_temp_heap(|module| {
        let mut eval = starlark::eval::Evaluator::new(&module);
        eval.extra = Some(&extra);
        let mut host = EvalHost::new(&mut eval);
        f(&mut host)
    })
}

/// The first data-values document is the base: overlay annotations on it mean nothing.
fn strip_overlay_annotations(mut n: Node) -> Node {
    match &mut n {
        Node::Map(m) => {
            for i in &mut m.items {
                i.meta.annotations.retain(|a| !overlay::is_overlay_annotation(a));
                i.value = strip_overlay_annotations(std::mem::take(&mut i.value));
            }
        }
        Node::Array(a) => {
            for i in &mut a.items {
                i.meta.annotations.retain(|a| !overlay::is_overlay_annotation(a));
                i.value = strip_overlay_annotations(std::mem::take(&mut i.value));
            }
        }
        _ => {}
    }
    n
}

fn indent(text: &str, n: usize) -> String {
    let pad = " ".repeat(n);
    text.lines()
        .map(|l| format!("{pad}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn parse_yaml(file: &InputFile, strict: bool) -> anyhow::Result<DocSet> {
    let src = text_of(file)?;
    let name: Arc<str> = Arc::from(file.rel_path.as_str());
    parse(src, &name, &ParseOptions { strict })
        .map_err(|e| anyhow!("Unmarshaling YAML template '{}': {e}", file.rel_path))
}

/// Compiles a parsed YAML file: a template when it has `#@` comments, else plain YAML.
fn compile_yaml_file(
    rt: &Runtime,
    file: &InputFile,
    ds: DocSet,
    opts: CompileOptions,
) -> anyhow::Result<Compiled> {
    if file.kind == FileKind::YamlPlain || !is_templated(&ds) {
        return Ok(Compiled::Plain(plain_yaml(ds)));
    }
    let name: Arc<str> = Arc::from(file.rel_path.as_str());
    let compiled = compile_yaml(rt.next_id(), name, text_of(file)?, &ds, opts)
        .map_err(|e| compile_error(&file.rel_path, e))?;
    Ok(Compiled::Template(rt.register(compiled)))
}

fn text_of(file: &InputFile) -> anyhow::Result<&str> {
    std::str::from_utf8(&file.data)
        .map_err(|_| anyhow!("File '{}' is not valid UTF-8", file.rel_path))
}

/// Parses and compiles one file for evaluation.
pub(crate) fn compile_file(
    rt: &Runtime,
    file: &InputFile,
    opts: CompileOptions,
    strict: bool,
) -> anyhow::Result<Compiled> {
    let src = text_of(file)?;
    let name: Arc<str> = Arc::from(file.rel_path.as_str());
    let compiled = match file.kind {
        FileKind::YamlTemplate | FileKind::YamlPlain => {
            let ds = parse_yaml(file, strict)?;
            return compile_yaml_file(rt, file, ds, opts);
        }
        FileKind::TextTemplate | FileKind::TextPlain => compile_text(rt.next_id(), name, src),
        FileKind::Starlark | FileKind::Data => compile_starlark(rt.next_id(), name, src),
    }
    .map_err(|e| compile_error(&file.rel_path, e))?;
    Ok(Compiled::Template(rt.register(compiled)))
}

fn compile_error(rel_path: &str, e: CompileError) -> anyhow::Error {
    match e {
        CompileError::Template(msg) => anyhow!(msg),
        CompileError::Code { message, lines } => {
            let mut out = format!("\n- {message}");
            for (line, src) in lines {
                match line {
                    Some(l) => out.push_str(&format!("\n    {rel_path}:{l} | {src}")),
                    None => out.push_str(&format!("\n    {rel_path}")),
                }
            }
            anyhow!(out)
        }
    }
}

/// Plain YAML: comments are not code, and a repeated key keeps the first key's place
/// with the last key's value.
fn plain_yaml(mut ds: DocSet) -> DocSet {
    fn strip(n: &mut Node) {
        match n {
            Node::Map(m) => {
                for i in &mut m.items {
                    i.meta.comments.clear();
                    strip(&mut i.value);
                }
            }
            Node::Array(a) => {
                for i in &mut a.items {
                    i.meta.comments.clear();
                    strip(&mut i.value);
                }
            }
            _ => {}
        }
    }
    ds.meta.comments.clear();
    for d in &mut ds.docs {
        d.meta.comments.clear();
        dedup_last_wins_deep(&mut d.value);
        strip(&mut d.value);
    }
    ds
}
