//! The engine, for the server: every call into `ytt` is here. A run's arguments are read
//! as the command line reads them (through the [`Host`]), its files are read from disk
//! except the open documents, which override them, the run is rendered within the
//! server's budgets, and what it reports becomes [`Finding`]s in the files it names.
//! Formatting is `ytt fmt`'s.
//!
//! What the engine gives today decides what is found: a run stops at its first error, so
//! a failed run reports that error (with its Starlark frames, or every value validation
//! rules rejected), and beside it the YAML syntax errors of the run's other YAML files
//! (each parsed alone); warnings of a successful run come as text, without a place.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{anyhow, bail, Result};
use ytt::diagnostic::{Diagnostic, Kind};
use ytt::files::{marks, FileKind, InputFile, SourceFile, Unread};
use ytt::workspace::values::{split_kv, split_library};
use ytt::workspace::{render_on_this_thread, CliValues, OutputContent, RenderOptions, Rendered};
use ytt::yaml::parser::{parse, ParseOptions};
use ytt::yaml::{FileId, FileNames, Location, Node};
use ytt::{MemoryBudget, Messages};

use crate::documents::Overlay;
use crate::findings::{At, Finding, Related, Severity};
use crate::host::{Found, Host, Invocation, Listing};
use crate::project::RunSpec;
use crate::stop::{Reason, Stopper};
use crate::{text, uri};

/// What the engine is told when the server stops a run; the report says why instead
/// ([`Reason::message`]).
const STOPPED: &str = "the language server stopped the run";

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Rendered,
    Failed,
    Stopped,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Rendered => "rendered",
            Outcome::Failed => "failed",
            Outcome::Stopped => "stopped",
        }
    }
}

/// One run analysed.
pub struct Analysis {
    /// The files it read: the files that belong to it.
    pub inputs: BTreeSet<PathBuf>,
    pub findings: Vec<Finding>,
    pub outcome: Outcome,
    /// What it rendered, when it did.
    pub render: Option<Render>,
    /// Its `print()` output.
    pub log: Vec<String>,
}

/// A successful render, kept for what reads the last one (hover, completion, ...): the
/// engine's result, and where each file it names is.
pub struct Render {
    rendered: Rendered,
    files: BTreeMap<String, PathBuf>,
}

/// An output file of a render.
pub struct Output {
    /// The template it came from, as the run names it.
    pub name: String,
    /// Where that template is.
    pub path: Option<PathBuf>,
    /// How many documents it holds (none: a text output).
    pub documents: Option<usize>,
}

impl Render {
    pub fn outputs(&self) -> Vec<Output> {
        (self.rendered.outputs.iter())
            .map(|o| Output {
                path: self.files.get(&o.rel_path).cloned(),
                documents: match &o.content {
                    OutputContent::Yaml(docs) => Some(docs.docs.len()),
                    OutputContent::Text(_) | OutputContent::Starlark => None,
                },
                name: o.rel_path.clone(),
            })
            .collect()
    }
}

/// Analyses one run: its files read (`overlay` over the disk) and rendered within the
/// budgets `stop` keeps (the caller has begun the run there).
pub fn analyse(host: &dyn Host, run: &RunSpec, overlay: &Overlay, stop: &Stopper) -> Analysis {
    let mut files = Files::default();
    let messages = Arc::new(Mutex::new(Vec::new()));
    let result = match prepare(host, run, overlay, &mut files) {
        Err(e) => Err((Diagnostic::from_error(e), None)),
        Ok(run) => {
            let yaml_files = YamlFiles::of(&run);
            render(run, stop, &messages).map_err(|d| (d, Some(yaml_files)))
        }
    };
    let messages = std::mem::take(&mut *messages.lock().unwrap_or_else(|e| e.into_inner()));
    let (warnings, log): (Vec<String>, Vec<String>) = messages
        .into_iter()
        .partition(|m| m.starts_with("Warning:"));
    let mut analysis = Analysis {
        inputs: files.bytes.keys().cloned().collect(),
        findings: Vec::new(),
        outcome: Outcome::Rendered,
        render: None,
        log,
    };
    let stopped = stop.reason();
    match result {
        Ok(_) if matches!(stopped, Some(Reason::Memory(_))) => {
            // past the budget where no template code ran to stop it: the command line
            // fails such a run too
            analysis.outcome = Outcome::Stopped;
            let why = Reason::Memory(stop.memory_limit()).message();
            analysis.findings.push(Finding::error(None, "stopped", why));
        }
        Ok(rendered) => {
            let files = files.by_name.clone();
            analysis.render = Some(Render { rendered, files });
        }
        Err((d, yaml_files)) => {
            analysis.outcome = Outcome::Failed;
            analysis.findings = findings_of(&d, &files);
            if d.text().contains(STOPPED) {
                analysis.outcome = Outcome::Stopped;
                let why = stopped
                    .unwrap_or(Reason::Memory(stop.memory_limit()))
                    .message();
                for f in &mut analysis.findings {
                    f.code = "stopped";
                    f.message = f.message.replace(STOPPED, &why);
                }
            } else if let Some(yaml_files) = yaml_files {
                let failed = d.location().and_then(|l| l.file.as_deref());
                analysis.findings.extend(yaml_files.errors(failed, &files));
            }
        }
    }
    analysis.findings.extend(warnings.iter().map(|w| Finding {
        severity: Severity::Warning,
        ..Finding::error(None, "validation", w.trim_end())
    }));
    analysis
}

/// A run ready to render.
struct Prepared {
    inv: Invocation,
    inputs: Vec<InputFile>,
    values: Vec<CliValues>,
    yaml: ParseOptions,
    names: FileNames,
}

/// Reads the run's flags, finds and reads its files, applies file marks, and reads the
/// data values its flags give.
fn prepare(
    host: &dyn Host,
    run: &RunSpec,
    overlay: &Overlay,
    files: &mut Files,
) -> Result<Prepared> {
    let inv = host.parse(&run.args)?;
    if let Some(prefix) = inv.data_values_env.first() {
        bail!(
            "--data-values-env {prefix}: the language server does not take data values from the editor's environment; give them with -v or --data-values-file"
        );
    }
    let mut sources = Vec::new();
    for arg in &inv.files {
        refuse_stdin(arg)?;
        for f in find(host, arg, run, &inv)?.files {
            sources.push(files.source(f, overlay)?);
        }
    }
    let inputs = marks::apply(sources, &inv.file_marks)?;
    // a file renamed by a mark goes by its new name in the run
    for f in &inputs {
        if let Some(path) = files.by_data.get(&address(&f.data)).cloned() {
            files.by_name.entry(f.rel_path.clone()).or_insert(path);
        }
    }
    // the YAML of a run (files and flags) shares one alias-expansion budget
    let yaml = ParseOptions {
        strict: inv.strict,
        ..ParseOptions::default()
    };
    let names = FileNames::default();
    let values = data_values(host, run, &inv, &yaml, &names, overlay, files)?;
    Ok(Prepared {
        inv,
        inputs,
        values,
        yaml,
        names,
    })
}

/// Renders a prepared run on this thread (the worker's, with the engine's stack).
fn render(
    run: Prepared,
    stop: &Stopper,
    messages: &Arc<Mutex<Vec<String>>>,
) -> Result<Rendered, Diagnostic> {
    let inv = &run.inv;
    let memory = stop.memory();
    let sink = messages.clone();
    let opts = RenderOptions {
        ignore_unknown_comments: inv.ignore_unknown_comments,
        implicit_map_key_overrides: inv.implicit_map_key_overrides,
        strict: inv.strict,
        debug: false,
        data_values: run.values,
        aliases: run.yaml.aliases,
        names: run.names,
        data_values_inspect: inv.data_values_inspect,
        schema_inspect: inv.schema_inspect,
        disable_values_validation: inv.disable_values_validation || inv.schema_inspect,
        disable_output_validation: inv.disable_output_validation || inv.schema_inspect,
        messages: Messages::new(move |bytes| {
            sink.lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(String::from_utf8_lossy(bytes).into_owned())
        }),
        modules: ytt_stdlib::modules(),
        held_bytes: Some(memory.held),
        memory_budget: Some(MemoryBudget {
            limit: stop.memory_limit(),
            passed: memory.passed,
            message: STOPPED,
        }),
        write_ahead: false,
    };
    let inputs = run.inputs;
    // the engine reports a bug as a panic: the server goes on
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        render_on_this_thread(opts, inputs)
    }))
    .unwrap_or_else(|panic| {
        let text = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into());
        Err(Diagnostic::from_error(anyhow!(
            "internal error (this is a bug in ytt): {text}"
        )))
    })
}

/// The files a file argument names, as the command line finds them, keyed as the server
/// keys paths (cleaned: `a/../b` is `b`), so that an open document is found.
fn find(host: &dyn Host, arg: &str, run: &RunSpec, inv: &Invocation) -> Result<Listing> {
    let mut listing = host.find(arg, &run.dir, &inv.symlinks)?;
    for f in &mut listing.files {
        f.path = uri::clean(&f.path);
    }
    Ok(listing)
}

/// `-` names standard input, which is the protocol's stream here.
fn refuse_stdin(arg: &str) -> Result<()> {
    if arg == "-" || arg.ends_with("=-") {
        bail!("'{arg}': the language server cannot read standard input; name a file instead");
    }
    Ok(())
}

/// The data values of the run's flags, in the command line's precedence order (as
/// `cli/src/cmd/data_values.rs` reads them): files, then `-v`, `--data-value-yaml`,
/// `--data-value-file` (the environment's are refused).
fn data_values(
    host: &dyn Host,
    run: &RunSpec,
    inv: &Invocation,
    yaml: &ParseOptions,
    names: &FileNames,
    overlay: &Overlay,
    files: &mut Files,
) -> Result<Vec<CliValues>> {
    let mut out = Vec::new();
    for spec in &inv.data_values_files {
        let (library, arg) = split_library(spec)?;
        refuse_stdin(arg)?;
        let listing = find(host, arg, run, inv)?;
        for f in listing.files {
            let yaml_file = f.rel_path.ends_with(".yml") || f.rel_path.ends_with(".yaml");
            if listing.directory && !yaml_file {
                continue;
            }
            let bytes = files.read(&f, overlay)?;
            out.extend(CliValues::from_values_file(
                arg,
                &f.rel_path,
                bytes.to_vec(),
                library.as_deref(),
                yaml,
                names,
            )?);
        }
    }
    for kv in &inv.data_values {
        out.push(CliValues::from_kv(kv)?);
    }
    for kv in &inv.data_values_yaml {
        out.push(CliValues::from_kv_yaml(kv, yaml, names)?);
    }
    for kv in &inv.data_value_files {
        let (library, path, file) = split_kv(kv)?;
        refuse_stdin(file)?;
        let listing = find(host, file, run, inv)?;
        let [f] = listing.files.as_slice() else {
            bail!("Expected '{file}' to be a file, but is a directory");
        };
        let text = String::from_utf8_lossy(&files.read(f, overlay)?).into_owned();
        out.push(CliValues::KeyValue {
            library,
            path,
            line: text.clone(),
            value: Node::Str(text.into()),
            source: format!("(data-value-file arg) {kv}"),
        });
    }
    Ok(out)
}

/// The files a run read: the names it knows them by, where they are, their bytes.
#[derive(Default)]
struct Files {
    by_name: BTreeMap<String, PathBuf>,
    bytes: BTreeMap<PathBuf, Arc<[u8]>>,
    /// A `-f` file's path by the address of its bytes, which file marks keep (to find a
    /// renamed file).
    by_data: BTreeMap<usize, PathBuf>,
}

fn address(data: &Arc<[u8]>) -> usize {
    Arc::as_ptr(data) as *const u8 as usize
}

impl Files {
    /// Reads a file found on disk: an open document's text, else the disk's bytes.
    fn read(&mut self, f: &Found, overlay: &Overlay) -> Result<Arc<[u8]>> {
        let bytes: Arc<[u8]> = match overlay.get(&f.path) {
            Some(text) => Arc::from(text.as_bytes()),
            None => std::fs::read(&f.path)
                .map_err(|e| anyhow!("Reading file '{}': {e}", f.path.display()))?
                .into(),
        };
        self.note(&f.rel_path, &f.path, bytes.clone());
        Ok(bytes)
    }

    fn note(&mut self, name: &str, path: &Path, bytes: Arc<[u8]>) {
        self.by_name
            .entry(name.to_owned())
            .or_insert_with(|| path.to_path_buf());
        self.bytes.insert(path.to_path_buf(), bytes);
    }

    /// A `-f` file as the engine takes it. One that is not a regular file (a named pipe)
    /// is not read: as a template it is reported, and `data.read()` of it fails.
    fn source(&mut self, f: Found, overlay: &Overlay) -> Result<SourceFile> {
        let unread = !f.regular && !overlay.contains_key(&f.path);
        let data = if unread {
            let data: Arc<[u8]> = Arc::from(Vec::new());
            self.note(&f.rel_path, &f.path, data.clone());
            data
        } else {
            self.read(&f, overlay)?
        };
        self.by_data.insert(address(&data), f.path.clone());
        let path = f.path.to_string_lossy().into_owned();
        Ok(SourceFile {
            rel_path: f.rel_path,
            data,
            unread: unread.then(|| Unread {
                error: format!(
                    "File '{path}' is not a regular file: the language server does not read it"
                )
                .into(),
                path,
            }),
        })
    }

    /// Where an engine location is, when it names a file of the run.
    fn at(&self, l: &Location) -> Option<At> {
        let path = self.by_name.get(l.file.as_deref()?)?;
        let text = String::from_utf8_lossy(self.bytes.get(path)?);
        Some(At {
            path: path.clone(),
            range: text::engine_range(&text, l.line, l.column),
        })
    }
}

/// The engine's report as findings: one per value validation rules rejected (on the
/// value's line, the rule's line related), or the report at its location with the
/// template lines it went through related.
fn findings_of(d: &Diagnostic, files: &Files) -> Vec<Finding> {
    let code = match d.kind() {
        Kind::Input => "input",
        Kind::Yaml => "yaml",
        Kind::Template => "template",
        Kind::Evaluation => "evaluation",
        Kind::Overlay => "overlay",
        Kind::Schema => "schema",
        Kind::Validation => "validation",
        _ => "other",
    };
    if !d.violations().is_empty() {
        return d
            .violations()
            .iter()
            .map(|v| {
                let value = v.value.as_ref().and_then(|l| files.at(l));
                let rule = v.rule.as_ref().and_then(|l| files.at(l));
                let mut message = format!("{}: must be: {}", v.path, v.message);
                if let Some(found) = &v.found {
                    message.push_str(&format!(" (found: {found})"));
                }
                Finding {
                    at: value.clone().or_else(|| rule.clone()),
                    severity: if v.warning {
                        Severity::Warning
                    } else {
                        Severity::Error
                    },
                    code,
                    message,
                    related: rule
                        .map(|at| Related {
                            at,
                            message: "the rule".into(),
                        })
                        .into_iter()
                        .collect(),
                }
            })
            .collect();
    }
    let related: Vec<Related> = d
        .frames()
        .iter()
        .filter_map(|f| {
            Some(Related {
                at: files.at(&f.location)?,
                message: format!("in {}: {}", f.function, f.source.trim()),
            })
        })
        .collect();
    let at = d
        .location()
        .and_then(|l| files.at(l))
        .or_else(|| related.first().map(|r| r.at.clone()));
    vec![Finding {
        related,
        ..Finding::error(at, code, d.text().trim())
    }]
}

/// The YAML files of a run, to look for syntax errors in when the run stopped at an
/// error elsewhere (the engine reports the first error only).
struct YamlFiles {
    files: Vec<(String, Arc<[u8]>)>,
    strict: bool,
}

impl YamlFiles {
    fn of(run: &Prepared) -> YamlFiles {
        YamlFiles {
            files: run
                .inputs
                .iter()
                .filter(|f| {
                    matches!(f.kind, FileKind::YamlTemplate | FileKind::YamlPlain)
                        && f.unread.is_none()
                })
                .map(|f| (f.rel_path.clone(), f.data.clone()))
                .collect(),
            strict: run.inv.strict,
        }
    }

    /// Each file's syntax error, but `failed`'s (which the run reported).
    fn errors(&self, failed: Option<&str>, files: &Files) -> Vec<Finding> {
        let opts = ParseOptions {
            strict: self.strict,
            ..ParseOptions::default()
        };
        self.files
            .iter()
            .filter(|(name, _)| Some(name.as_str()) != failed)
            .filter_map(|(name, data)| {
                let e = parse(&String::from_utf8_lossy(data), FileId::default(), &opts).err()?;
                let l = Location {
                    column: e.column,
                    ..Location::new(name, e.line.unwrap_or(0))
                };
                Some(Finding::error(
                    Some(files.at(&l)?),
                    "yaml",
                    format!("Unmarshaling YAML template '{name}': {e}"),
                ))
            })
            .collect()
    }
}

/// Whether `path` is a file `ytt fmt` formats (a YAML file).
pub fn formats(path: &Path) -> bool {
    FileKind::from_path(&path.to_string_lossy()) == FileKind::YamlTemplate
}

/// `text` as `ytt fmt` writes it; the parser's error when it is not YAML.
pub fn format(text: &str) -> Result<String, String> {
    ytt::fmt::format_text(text, &ParseOptions::default()).map_err(|e| e.to_string())
}
