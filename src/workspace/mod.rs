//! The workspace: the library tree built from the input files, and running a library
//! (templates → evaluation → output documents).

mod data;
mod library;
mod loader;

use std::rc::Rc;
use std::sync::Arc;

use anyhow::{anyhow, bail};

use crate::eval::exec::{globals, run_template};
use crate::eval::runtime::{RootOutput, Runtime};
use crate::files::{FileKind, InputFile};
use crate::template::{
    compile_starlark, compile_text, compile_yaml, is_templated, CompileError, CompileOptions,
    CompiledTemplate,
};
use crate::yaml::parser::{dedup_last_wins_deep, parse, ParseOptions};
use crate::yaml::{DocSet, Node};
use library::Library;
use loader::LibraryEval;

/// Options of one template run that shape evaluation (not output).
#[derive(Clone, Debug, Default)]
pub struct RenderOptions {
    pub ignore_unknown_comments: bool,
    pub implicit_map_key_overrides: bool,
    pub strict: bool,
    pub debug: bool,
}

/// What a run produced, one entry per output file, in output order.
#[derive(Debug, Default)]
pub struct Rendered {
    pub outputs: Vec<OutputFile>,
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
    let compile_opts = CompileOptions {
        ignore_unknown_comments: opts.ignore_unknown_comments,
        implicit_map_key_overrides: opts.implicit_map_key_overrides,
    };
    let lib = LibraryEval::new(
        &rt,
        &globals,
        library.clone(),
        Node::Null,
        compile_opts,
        opts.strict,
    );
    let exclusive = library.files.iter().any(|f| f.exclusive_for_output);
    let mut outputs = Vec::new();
    for file in &library.files {
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
                match compile_file(&rt, file, compile_opts, opts.strict)? {
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
            FileKind::TextTemplate => match compile_file(&rt, file, compile_opts, opts.strict)? {
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
            FileKind::TextPlain => OutputContent::Text(text_of(file)?.to_owned()),
            FileKind::Starlark | FileKind::Data => continue,
        };
        outputs.push(OutputFile {
            rel_path: file.rel_path.clone(),
            content,
        });
    }
    Ok(Rendered { outputs })
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
            let ds = parse(src, &name, &ParseOptions { strict })
                .map_err(|e| anyhow!("Unmarshaling YAML template '{}': {e}", file.rel_path))?;
            if file.kind == FileKind::YamlPlain || !is_templated(&ds) {
                return Ok(Compiled::Plain(plain_yaml(ds)));
            }
            compile_yaml(rt.next_id(), name, src, &ds, opts)
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
