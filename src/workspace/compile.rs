//! Reading and compiling a library's files.

use std::rc::Rc;
use std::sync::Arc;

use std::borrow::Cow;

use super::Run;
use crate::cores::Pipeline;
use crate::diagnostic::{Diagnostic, Kind};
use crate::eval::exec::parse_code;
use crate::eval::runtime::Runtime;
use crate::files::{FileKind, InputFile};
use crate::template::{
    compile_starlark, compile_text, compile_yaml, document_annotations, is_templated,
    needs_no_evaluation, CompileError, CompileOptions, CompiledTemplate,
};
use crate::yaml::parser::{dedup_last_wins_deep, parse_keeping, AliasBudget, Keep, ParseOptions};
use crate::yaml::pieces::{cores_for, parse_in_pieces};
use crate::yaml::{DocSet, FileId, Location, Node};
use starlark::syntax::AstModule;

/// A file ready to evaluate, or plain YAML needing none.
pub(crate) enum Compiled {
    Template(Rc<CompiledTemplate>),
    Plain(DocSet),
}

pub(crate) fn parse_yaml(rt: &Runtime, file: &InputFile, strict: bool) -> anyhow::Result<DocSet> {
    parse_with(rt, file, strict, Keep::Trees)
}

fn parse_with(rt: &Runtime, file: &InputFile, strict: bool, keep: Keep) -> anyhow::Result<DocSet> {
    if Run::of(rt)?.deferred.pending() {
        // a parse that copies nothing by alias expansion is the same whatever the budget
        // holds: it need not wait for the files parsed meanwhile to spend theirs
        let own = AliasBudget::default();
        if let Ok(ds) = parse_spending(rt, file, strict, keep, &own) {
            if own.spent() == 0 {
                return Ok(ds);
            }
        }
    }
    parse_spending(rt, file, strict, keep, run_budget(rt)?)
}

/// The run's alias budget, once the files parsed meanwhile spent theirs (`deferred`).
fn run_budget(rt: &Runtime) -> anyhow::Result<&AliasBudget> {
    let run = Run::of(rt)?;
    run.deferred.settle(rt);
    Ok(&run.aliases)
}

/// Parses `file` as [`parse_yaml`] does, keeping what `keep` says, alias expansion
/// spending `budget`.
pub(super) fn parse_spending(
    rt: &Runtime,
    file: &InputFile,
    strict: bool,
    keep: Keep,
    budget: &AliasBudget,
) -> anyhow::Result<DocSet> {
    let src = text_of(file)?;
    let id = rt.names().id(&file.rel_path);
    let opts = ParseOptions {
        strict,
        aliases: budget.clone(),
    };
    parse_keeping(&src, id, &opts, keep).map_err(|e| {
        let text = format!("Unmarshaling YAML template '{}': {e}", file.rel_path);
        let at = Location {
            column: e.column,
            ..Location::new(&file.rel_path, e.line.unwrap_or(0))
        };
        Diagnostic::new(Kind::Yaml, text).at(at).into()
    })
}

/// Parses YAML files as [`parse_yaml`] does one after the other, on every core.
///
/// Large files are cut into pieces at document starts and before the items of long
/// lists (`yaml::pieces`), so that one large file, too, takes every core; the pieces
/// parse largest first. The results are
/// the same, in the same order: a piece is parsed with an alias budget of its own, and a
/// file's pieces are taken only if they join and the run's budget, spent in file order,
/// holds what they copied; any other file (one that failed, or would exceed the budget)
/// is parsed again here in order, with the run's budget, so that errors are the ones a
/// serial parse gives. Of each file, what `keep` says is kept.
pub(crate) fn parse_yaml_files(
    rt: &Runtime,
    files: &[&InputFile],
    keep: &[Keep],
    strict: bool,
) -> anyhow::Result<Vec<anyhow::Result<DocSet>>> {
    let serial = |i: usize, f: &InputFile| {
        parse_with(rt, f, strict, keep.get(i).copied().unwrap_or(Keep::Trees))
    };
    let threads = cores_for(files.iter().map(|f| f.data.len()).sum());
    if threads < 2 {
        return Ok(files
            .iter()
            .enumerate()
            .map(|(i, f)| serial(i, f))
            .collect());
    }
    // a file that is not UTF-8 is left to the serial pass
    let texts: Vec<Option<(Cow<'_, str>, FileId)>> = files
        .iter()
        .map(|f| Some((text_of(f).ok()?, rt.names().id(&f.rel_path))))
        .collect();
    let aliases = run_budget(rt)?;
    Ok(parse_in_pieces(threads, &texts, keep, strict, aliases)
        .into_iter()
        .zip(files)
        .enumerate()
        .map(|(i, (ds, file))| ds.map_or_else(|| serial(i, file), Ok))
        .collect())
}

/// Compiles a parsed YAML file: a template when it has `#@` comments, else plain YAML.
pub(crate) fn compile_yaml_file(
    rt: &Runtime,
    file: &InputFile,
    ds: DocSet,
    opts: CompileOptions,
) -> anyhow::Result<Compiled> {
    if file.kind == FileKind::YamlPlain {
        return Ok(Compiled::Plain(plain_yaml(ds)));
    }
    if !is_templated(&ds) {
        rt.number_template();
        return Ok(Compiled::Plain(plain_yaml(ds)));
    }
    let name: Arc<str> = Arc::from(file.rel_path.as_str());
    let id = rt.names().id(&name);
    if needs_no_evaluation(&ds) {
        rt.number_template();
        let mut ds = ds;
        for d in &mut ds.docs {
            let anns = document_annotations(d, id);
            rt.note_annotations(&anns);
            d.meta.annotations = anns;
        }
        return Ok(Compiled::Plain(plain_yaml(ds)));
    }
    let compiled = compile_yaml(rt.next_id(), name, id, &text_of(file)?, &ds, opts)
        .map_err(|e| compile_error(&file.rel_path, e, file.kind))?;
    Ok(Compiled::Template(rt.register(compiled, true)))
}

/// A file's text: its bytes that are not UTF-8 carried (`crate::bytestr`). Text
/// templates, plain text and Starlark are byte strings; the YAML parser refuses such
/// bytes with go-yaml's messages, as templates and data values must be UTF-8.
pub(crate) fn text_of(file: &InputFile) -> anyhow::Result<Cow<'_, str>> {
    // (the host reads every template it found unread; an embedder may not have)
    if let Some(unread) = &file.unread {
        return Err(Diagnostic::new(Kind::Input, unread.error.to_string())
            .at(Location::new(&file.rel_path, 0))
            .into());
    }
    Ok(crate::bytestr::decode(&file.data))
}

/// Parses and compiles one file for evaluation.
pub(crate) fn compile_file(
    rt: &Runtime,
    file: &InputFile,
    opts: CompileOptions,
    strict: bool,
) -> anyhow::Result<Compiled> {
    let text = || -> anyhow::Result<(Cow<'_, str>, Arc<str>, FileId)> {
        let name: Arc<str> = Arc::from(file.rel_path.as_str());
        let id = rt.names().id(&name);
        Ok((text_of(file)?, name, id))
    };
    let compiled = match file.kind {
        FileKind::YamlTemplate | FileKind::YamlPlain => {
            let ds = parse_yaml(rt, file, strict)?;
            return compile_yaml_file(rt, file, ds, opts);
        }
        FileKind::TextTemplate | FileKind::TextPlain => {
            let (src, name, id) = text()?;
            compile_text(rt.next_id(), name, id, &src)
        }
        FileKind::Starlark | FileKind::Data => {
            let (src, name, id) = text()?;
            compile_starlark(rt.next_id(), name, id, &src)
        }
    }
    .map_err(|e| compile_error(&file.rel_path, e, file.kind))?;
    let numbered = matches!(file.kind, FileKind::TextTemplate | FileKind::TextPlain);
    Ok(Compiled::Template(rt.register(compiled, numbered)))
}

/// A compile error as the reference reports it; lines of a Starlark file show without
/// the file name. The reference finds errors in a text template's code as it evaluates
/// the template, and says so.
fn compile_error(rel_path: &str, e: CompileError, kind: FileKind) -> anyhow::Error {
    let at = |line: u32| Location::new(rel_path, line);
    let starlark = matches!(kind, FileKind::Starlark | FileKind::Data);
    match e {
        CompileError::Template(msg) => Diagnostic::new(Kind::Template, msg).at(at(0)).into(),
        CompileError::Code { message, lines } => {
            let first = lines.iter().find_map(|(l, _)| *l).unwrap_or(0);
            let heading = match kind {
                FileKind::TextTemplate | FileKind::TextPlain => "Evaluating text template: ",
                _ => "",
            };
            let mut out = format!("{heading}\n- {message}");
            for (line, src) in lines {
                match line {
                    Some(l) if starlark => out.push_str(&format!("\n    {l} | {src}")),
                    Some(l) => out.push_str(&format!("\n    {rel_path}:{l} | {src}")),
                    None => out.push_str(&format!("\n    {rel_path}")),
                }
            }
            Diagnostic::new(Kind::Template, out).at(at(first)).into()
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

/// YAML templates compiled, and their code parsed, on a helper thread while the
/// templates before them are evaluated: [`Ahead::take`] gives each when its evaluation
/// is due, compiling it then when the helper has not started it. Each keeps the id
/// reserved for it; it is registered (and numbered) when taken, in evaluation order.
pub(crate) struct Ahead(Pipeline<Job, Done>);

struct Job {
    id: u32,
    file: Arc<InputFile>,
    file_id: FileId,
    ds: DocSet,
    opts: CompileOptions,
}

struct Done {
    compiled: Result<CompiledTemplate, CompileError>,
    parsed: Option<starlark::Result<AstModule>>,
}

impl Ahead {
    /// Whether a parsed file is compiled as a template, not read as plain YAML (see
    /// [`compile_yaml_file`]).
    pub(crate) fn wanted(file: &InputFile, ds: &DocSet) -> bool {
        file.kind == FileKind::YamlTemplate && is_templated(ds) && !needs_no_evaluation(ds)
    }

    /// Starts compiling `files` (each with its parse) in order, ids reserved now.
    pub(crate) fn start(
        rt: &Runtime,
        files: Vec<(Arc<InputFile>, DocSet)>,
        opts: CompileOptions,
    ) -> Ahead {
        let jobs = files
            .into_iter()
            .map(|(file, ds)| Job {
                id: rt.reserve_id(),
                file_id: rt.names().id(&file.rel_path),
                file,
                ds,
                opts,
            })
            .collect();
        Ahead(Pipeline::start(
            "ytt-compile",
            crate::cores::TREE_STACK,
            jobs,
            compile_job,
        ))
    }

    /// The `k`th template (of `file`) registered, and its code parsed; or its compile
    /// error, as [`compile_yaml_file`] reports it.
    pub(crate) fn take(
        &self,
        rt: &Runtime,
        k: usize,
        file: &InputFile,
    ) -> anyhow::Result<(Rc<CompiledTemplate>, starlark::Result<AstModule>)> {
        let Some(Done { compiled, parsed }) = self.0.take(k) else {
            anyhow::bail!("internal error: a template compiled ahead taken twice");
        };
        let compiled = compiled.map_err(|e| compile_error(&file.rel_path, e, file.kind))?;
        let t = rt.register(compiled, true);
        let parsed = parsed.unwrap_or_else(|| parse_code(&t));
        Ok((t, parsed))
    }
}

/// Compiles a template, parses its code, and frees its parse tree (on the helper).
fn compile_job(job: Job) -> Done {
    let name: Arc<str> = Arc::from(job.file.rel_path.as_str());
    let src = crate::bytestr::decode(&job.file.data);
    let compiled = compile_yaml(job.id, name, job.file_id, &src, &job.ds, job.opts);
    let parsed = compiled.as_ref().ok().map(parse_code);
    Done { compiled, parsed }
}
