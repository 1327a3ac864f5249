//! The engine, for the server: every call into `ytt` is here. A run's arguments are read
//! as the command line reads them (through the [`Host`]) into the request the engine's
//! front-end layer takes (`ytt::frontend`); its files are found as the command line finds
//! them and read from disk except the open documents, which override them (a
//! [`frontend::Reader`] over both, for what the layer reads itself: the data-value
//! flags' files); the run is made within the server's budgets, and what it reports
//! becomes [`Finding`]s in the files it names. Formatting is `ytt fmt`'s.
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
use ytt::frontend::{self, FactsSink, Request};
use ytt::workspace::{check_files, CheckOptions, OutputContent};
use ytt::yaml::parser::ParseOptions;
use ytt::yaml::Location;
use ytt::{MemoryBudget, Messages};

use crate::documents::Overlay;
use crate::findings::{At, Finding, Related, Severity};
use crate::host::{FileFlag, Found, Host, Invocation, Symlinks};
use crate::project::RunSpec;
use crate::stop::{Reason, Stopper};
use crate::values::RunFacts;
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
    /// The files it read (the files that belong to it), with the bytes it read.
    pub inputs: BTreeMap<PathBuf, Arc<[u8]>>,
    pub findings: Vec<Finding>,
    pub outcome: Outcome,
    /// What it rendered, when it did.
    pub render: Option<Render>,
    /// Its data values, schema and what set each value, once they were final (also when
    /// the run failed afterwards).
    pub facts: Option<RunFacts>,
    /// Its `print()` output.
    pub log: Vec<String>,
}

/// A successful render, kept for what reads the last one (hover, completion, ...): the
/// engine's result, and where each file it names is.
pub struct Render {
    output: frontend::Output,
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
        (self.output.files.iter())
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
/// budgets `stop` keeps (the caller has begun the run there). `checked` is the run's
/// syntax checks of its previous analysis, which this one brings up to date.
pub fn analyse(
    host: &dyn Host,
    run: &RunSpec,
    overlay: &Overlay,
    stop: &Stopper,
    checked: &mut SyntaxChecks,
) -> Analysis {
    let mut reader = RunReader {
        host,
        run,
        overlay,
        symlinks: Symlinks::default(),
        files: Mutex::default(),
    };
    let messages = Arc::new(Mutex::new(Vec::new()));
    let facts = FactsSink::default();
    let result = match host.parse(&run.args).and_then(|inv| reader.request(inv)) {
        Err(e) => Err((Diagnostic::from_error(e), None)),
        Ok((request, checks)) => match render(request, &reader, stop, &messages, &facts) {
            Ok(output) => Ok((output, checks)),
            Err(d) => Err((d, Some(checks))),
        },
    };
    let files = reader.files.into_inner().unwrap_or_else(|e| e.into_inner());
    let facts = facts.take().map(|facts| RunFacts {
        run: run.name.clone(),
        facts: Arc::new(facts),
        stale: false,
        files: (files.by_name.iter())
            .filter_map(|(name, path)| {
                let bytes = files.bytes.get(path)?;
                Some((name.clone(), (path.clone(), bytes.clone())))
            })
            .collect(),
        values_files: files.values_files.clone(),
    });
    let messages = std::mem::take(&mut *messages.lock().unwrap_or_else(|e| e.into_inner()));
    let (mut warnings, log): (Vec<String>, Vec<String>) = messages
        .into_iter()
        .partition(|m| m.starts_with("Warning:"));
    let mut analysis = Analysis {
        inputs: files.bytes.clone(),
        findings: Vec::new(),
        outcome: Outcome::Rendered,
        render: None,
        facts,
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
        Ok((mut output, checks)) => {
            analysis.findings = checks.errors(None, &files, checked);
            // what an inspection's export could not carry
            warnings.extend(std::mem::take(&mut output.warnings));
            let files = files.by_name.clone();
            analysis.render = Some(Render { output, files });
        }
        Err((d, checks)) => {
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
            } else if let Some(checks) = checks {
                let failed = d.location().and_then(|l| l.file.as_deref());
                analysis
                    .findings
                    .extend(checks.errors(Some(failed), &files, checked));
            }
        }
    }
    analysis.findings.extend(warnings.iter().map(|w| Finding {
        severity: Severity::Warning,
        ..Finding::error(None, "validation", w.trim_end())
    }));
    analysis
}

/// Makes the request on this thread (the worker's, with the engine's stack).
fn render(
    request: Request,
    reader: &RunReader,
    stop: &Stopper,
    messages: &Arc<Mutex<Vec<String>>>,
    facts: &FactsSink,
) -> Result<frontend::Output, Diagnostic> {
    let memory = stop.memory();
    let sink = messages.clone();
    let host = frontend::Host {
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
        reader,
        facts: Some(facts.clone()),
    };
    // the engine reports a bug as a panic: the server goes on
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        frontend::run_on_this_thread(request, host)
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

/// What a run reads: files found as the command line finds them (relative paths from the
/// run's directory), the open documents' texts over the disk's. It keeps what it read.
struct RunReader<'a> {
    host: &'a dyn Host,
    run: &'a RunSpec,
    overlay: &'a Overlay,
    symlinks: Symlinks,
    files: Mutex<Files>,
}

impl RunReader<'_> {
    /// The request of an invocation, its `-f` files found and read, and the run's files
    /// to check one by one.
    fn request(&mut self, inv: Invocation) -> Result<(Request, Checks)> {
        let Invocation {
            mut request,
            files: args,
            symlinks,
        } = inv;
        self.symlinks = symlinks;
        let dv = &request.data_values;
        let env = (dv.env.first().map(|p| ("--data-values-env", p)))
            .or_else(|| dv.env_yaml.first().map(|p| ("--data-values-env-yaml", p)));
        if let Some((flag, prefix)) = env {
            bail!(
                "{flag} {prefix}: the language server does not take data values from the editor's environment; give them with -v or --data-values-file"
            );
        }
        let files = self.files.get_mut().unwrap_or_else(|e| e.into_inner());
        for arg in &args {
            refuse_stdin(arg, path_of(arg))?;
            let found = find(self.host, FileFlag::Input, arg, self.run, &self.symlinks)?;
            for f in found {
                request.files.push(files.source(f, self.overlay)?);
            }
        }
        // the run's files as the engine names them: a file renamed by a mark goes by its
        // new name (a mark's error is the run's to report)
        let inputs = marks::apply(request.files.clone(), &request.file_marks).unwrap_or_default();
        for f in &inputs {
            if let Some(path) = files.by_data.get(&address(&f.data)).cloned() {
                files.by_name.entry(f.rel_path.clone()).or_insert(path);
            }
        }
        let checks = Checks::of(&inputs, &request);
        Ok((request, checks))
    }

    /// Reads a file found on disk, and keeps it.
    fn read(&self, f: &Found) -> Result<Vec<u8>> {
        let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        Ok(files.read(f, self.overlay)?.to_vec())
    }
}

impl frontend::Reader for RunReader<'_> {
    /// A `-f` file that is not a regular file: never read (see [`Files::source`]).
    fn unread(&self, file: &Unread) -> Result<Vec<u8>> {
        Err(anyhow!("{}", file.error))
    }

    fn values_files(&self, arg: &str) -> Result<Vec<(String, Vec<u8>)>> {
        refuse_stdin(arg, path_of(arg))?;
        let found = find(
            self.host,
            FileFlag::ValuesFile,
            arg,
            self.run,
            &self.symlinks,
        )?;
        let mut out = Vec::new();
        for f in found {
            let bytes = self.read(&f)?;
            let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
            files.values_files.insert(f.path.clone());
            out.push((f.rel_path, bytes));
        }
        Ok(out)
    }

    fn value_file(&self, path: &str) -> Result<Vec<u8>> {
        refuse_stdin(path, path)?;
        let found = find(
            self.host,
            FileFlag::ValueFile,
            path,
            self.run,
            &self.symlinks,
        )?;
        // the command line finds one file for this flag, or fails
        let [f] = found.as_slice() else {
            bail!("'{path}' names {} files", found.len());
        };
        self.read(f)
    }

    /// None: a run that names the environment is refused before it is made.
    fn env_vars(&self) -> Vec<(String, String)> {
        Vec::new()
    }
}

/// The files a file argument names, as the command line finds them, keyed as the server
/// keys paths (cleaned: `a/../b` is `b`), so that an open document is found.
fn find(
    host: &dyn Host,
    flag: FileFlag,
    arg: &str,
    run: &RunSpec,
    symlinks: &Symlinks,
) -> Result<Vec<Found>> {
    let mut found = host.find(flag, arg, &run.dir, symlinks)?;
    for f in &mut found {
        f.path = uri::clean(&f.path);
    }
    Ok(found)
}

/// Refuses a file argument whose path is `-`: standard input, which is the protocol's
/// stream here.
fn refuse_stdin(arg: &str, path: &str) -> Result<()> {
    if path == "-" {
        bail!("'{arg}': the language server cannot read standard input; name a file instead");
    }
    Ok(())
}

/// The path of a file argument `[name=]path`.
fn path_of(arg: &str) -> &str {
    arg.rsplit_once('=').map_or(arg, |(_, path)| path)
}

/// The files a run read: the names it knows them by, where they are, their bytes.
#[derive(Default)]
struct Files {
    by_name: BTreeMap<String, PathBuf>,
    bytes: BTreeMap<PathBuf, Arc<[u8]>>,
    /// A `-f` file's path by the address of its bytes, which file marks keep (to find a
    /// renamed file).
    by_data: BTreeMap<usize, PathBuf>,
    /// The files read as `--data-values-file`.
    values_files: BTreeSet<PathBuf>,
}

fn address(data: &Arc<[u8]>) -> usize {
    Arc::as_ptr(data) as *const u8 as usize
}

impl Files {
    /// Reads a file found on disk: an open document's text, else the disk's bytes. One
    /// that is not a regular file (a named pipe) is not read: it could block the analysis.
    fn read(&mut self, f: &Found, overlay: &Overlay) -> Result<Arc<[u8]>> {
        let bytes: Arc<[u8]> = match overlay.get(&f.path) {
            // the document's text itself, not a copy: the server keeps what a run read
            Some(text) => Arc::<[u8]>::from(text.clone()),
            None if !f.regular => bail!("{}", not_read(&f.path)),
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
        Ok(SourceFile {
            unread: unread.then(|| Unread {
                error: not_read(&f.path).into(),
                path: f.path.to_string_lossy().into_owned(),
            }),
            rel_path: f.rel_path,
            data,
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

/// Why a file that is not a regular file is not read.
fn not_read(path: &Path) -> String {
    format!(
        "File '{}' is not a regular file: the language server does not read it",
        path.display()
    )
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

/// The files of a run, to check one by one: the engine reports a run's first error only,
/// and a successful render compiles only the files it reaches.
struct Checks {
    files: Vec<InputFile>,
    opts: CheckOptions,
}

impl Checks {
    fn of(inputs: &[InputFile], request: &Request) -> Checks {
        Checks {
            files: inputs.to_vec(),
            opts: CheckOptions {
                strict: request.strict,
                ignore_unknown_comments: request.ignore_unknown_comments,
                implicit_map_key_overrides: request.implicit_map_key_overrides,
            },
        }
    }

    /// Each file's parse or compile error. After a run that failed (in `failed`, whose
    /// error the run reported), every other file's; after one that rendered, the files
    /// a render may not compile (Starlark files and library files, compiled when loaded).
    /// A file checked before with the same bytes and options is not checked again;
    /// `checked` keeps this time's checks.
    fn errors(
        self,
        failed: Option<Option<&str>>,
        files: &Files,
        checked: &mut SyntaxChecks,
    ) -> Vec<Finding> {
        let mut before = std::mem::take(&mut checked.files);
        let mut findings = Vec::new();
        for f in &self.files {
            let name = &f.rel_path;
            let wanted = match failed {
                Some(failed) => Some(name.as_str()) != failed,
                None => f.kind == FileKind::Starlark || f.is_library,
            };
            let check = match before.remove(name) {
                Some(c) if c.opts == self.opts && c.data == f.data => c,
                // a file this run does not check keeps what it was found to be
                Some(c) if !wanted => c,
                _ if !wanted => continue,
                _ => Checked {
                    data: f.data.clone(),
                    opts: self.opts,
                    error: check_files(std::slice::from_ref(f), self.opts).pop(),
                },
            };
            if wanted {
                findings.extend(check.error.iter().flat_map(|d| findings_of(d, files)));
            }
            checked.files.insert(name.clone(), check);
        }
        findings
    }
}

/// A run's files as [`Checks::errors`] last checked them, by name: a run that fails has
/// every file of it checked, and an edit changes one of them, so the others need not be
/// parsed again (on `package`, 1.5 MB: about a third of a failed run's time).
#[derive(Default)]
pub struct SyntaxChecks {
    files: BTreeMap<String, Checked>,
}

/// One file's check: the bytes and the options it was made with, and what it found.
struct Checked {
    data: Arc<[u8]>,
    opts: CheckOptions,
    error: Option<Diagnostic>,
}

/// Whether `path` is a file `ytt fmt` formats (a YAML file).
pub fn formats(path: &Path) -> bool {
    FileKind::from_path(&path.to_string_lossy()) == FileKind::YamlTemplate
}

/// `text` as `ytt fmt` writes it; the parser's error when it is not YAML.
pub fn format(text: &str) -> Result<String, String> {
    ytt::fmt::format_text(text, &ParseOptions::default()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The errors of a failed run of `a.yml` and `b.yml`, found with `checked`.
    fn errors(
        texts: [&str; 2],
        strict: bool,
        failed: Option<&str>,
        checked: &mut SyntaxChecks,
    ) -> Vec<String> {
        let mut files = Files::default();
        let mut checks = Checks {
            files: Vec::new(),
            opts: CheckOptions {
                strict,
                ..CheckOptions::default()
            },
        };
        for (name, text) in ["a.yml", "b.yml"].into_iter().zip(texts) {
            let data: Arc<[u8]> = Arc::from(text.as_bytes());
            files.note(name, &PathBuf::from("/w").join(name), data.clone());
            checks.files.push(InputFile::new(name, data));
        }
        let found = checks.errors(Some(failed), &files, checked);
        found.into_iter().map(|f| f.message).collect()
    }

    #[test]
    fn syntax_checks_find_what_a_fresh_parse_finds() {
        let (broken, fine, ambiguous) = ("a: [1\n", "a: 1\n", "b: yes\n");
        let steps = [
            ([broken, fine], false, None, 1),
            ([broken, fine], false, None, 1),
            ([fine, fine], false, None, 0),
            ([broken, ambiguous], false, None, 1),
            // --strict rejects `yes`: the same bytes are checked again
            ([broken, ambiguous], true, None, 2),
            // the run reported a.yml's error: only b.yml's is added
            ([broken, ambiguous], true, Some("a.yml"), 1),
            ([broken, fine], true, None, 1),
        ];
        let mut checked = SyntaxChecks::default();
        for (texts, strict, failed, count) in steps {
            let fresh = errors(texts, strict, failed, &mut SyntaxChecks::default());
            assert_eq!(fresh.len(), count, "{texts:?} strict={strict}: {fresh:?}");
            assert_eq!(errors(texts, strict, failed, &mut checked), fresh);
        }
    }

    #[test]
    fn an_unchanged_file_is_not_parsed_again() {
        let mut checked = SyntaxChecks::default();
        errors(["a: 1\n", "b: 1\n"], false, None, &mut checked);
        // what the last check found is what is reported while the bytes stay the same
        let a = checked.files.get_mut("a.yml").expect("a.yml was checked");
        a.error = Some(Diagnostic::from_error(anyhow!("as checked before")));
        let found = errors(["a: 1\n", "b: 2\n"], false, None, &mut checked);
        assert_eq!(found, ["as checked before"]);
        assert!(errors(["a: 2\n", "b: 2\n"], false, None, &mut checked).is_empty());
    }
}
