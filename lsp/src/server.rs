//! The server's loop, on one thread: the protocol's messages, the open documents, when to
//! analyse, what to publish.
//!
//! An edit marks its file changed and (re)starts a quiet period (`debounceMs`); when it
//! ends, the changed files go to the analysis thread as one job. A job still running then
//! is cancelled first: its run going on is stopped, and what it did is dropped, as is the
//! result of any job an edit came after (its positions would be the old text's). So the
//! loop never waits for an analysis: requests are answered while one runs, and a run that
//! loops is stopped by its time limit (`timeLimitMs`) or by the memory budget
//! (`maxMemoryMiB`).
//!
//! Besides the protocol's requests, `ytt/runs` (params: a `textDocument`) answers, once no
//! analysis is pending, which runs a file belongs to and how they ended.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};
use crossbeam_channel::{select, Receiver, Sender};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    Diagnostic, DidChangeTextDocumentParams, DidChangeWatchedFilesParams,
    DidChangeWorkspaceFoldersParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DidSaveTextDocumentParams, DocumentFormattingParams, InitializeParams, LogMessageParams,
    MessageType, OneOf, PublishDiagnosticsParams, ServerCapabilities, TextDocumentIdentifier,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, TextEdit, WorkspaceFoldersServerCapabilities,
    WorkspaceServerCapabilities,
};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::analysis::{self, Render};
use crate::documents::Documents;
use crate::features::{self, Context};
use crate::findings::Finding;
use crate::host::Host;
use crate::project::RunKey;
use crate::publish::{self, RunFindings};
use crate::stop::Stopper;
use crate::text;
use crate::uri;
use crate::values::RunFacts;
use crate::worker::{self, Done, Held, Job, RunResult};
use crate::{disk, folding, highlight, symbols};

/// The server's settings (`initializationOptions`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
struct Settings {
    /// How long a run may take before it is stopped.
    time_limit_ms: u64,
    /// The memory the process may hold while a run goes on.
    #[serde(rename = "maxMemoryMiB")]
    max_memory_mib: u64,
    /// How long after the last edit an analysis starts.
    debounce_ms: u64,
    /// The project file of every file, instead of the nearest `ytt-lsp.toml`; relative to
    /// the first workspace folder.
    project_file: Option<PathBuf>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            time_limit_ms: 5_000,
            max_memory_mib: 1_024,
            debounce_ms: 200,
            project_file: None,
        }
    }
}

/// Serves `conn` until the client says `exit`; an error when it did not say `shutdown`
/// first, or went away.
pub fn serve(conn: &Connection, host: Arc<dyn Host>) -> Result<()> {
    let (id, params) = conn
        .initialize_start()
        .map_err(|e| anyhow!("the client did not initialize the server: {e}"))?;
    let params: InitializeParams = serde_json::from_value(params)
        .map_err(|e| anyhow!("the client's initialize request: {e}"))?;
    // settings that do not read are said, and the defaults used
    let (settings, refused) = match params.initialization_options.clone() {
        Some(Value::Null) | None => (Settings::default(), None),
        Some(options) => match serde_json::from_value(options) {
            Ok(settings) => (settings, None),
            Err(e) => (Settings::default(), Some(e)),
        },
    };
    conn.initialize_finish(
        id,
        json!({
            "capabilities": capabilities(),
            "serverInfo": { "name": "ytt-lsp", "version": env!("CARGO_PKG_VERSION") },
        }),
    )?;
    let show = |typ, message| -> Result<()> {
        conn.sender
            .send(
                Notification::new(
                    note::ShowMessage::METHOD.into(),
                    lsp_types::ShowMessageParams { typ, message },
                )
                .into(),
            )
            .map_err(|_| anyhow!("the client's stream is closed"))
    };
    if let Some(e) = refused {
        show(
            MessageType::ERROR,
            format!("ytt lsp: initializationOptions: {e}; the defaults are used"),
        )?;
    }
    let folders = folders(&params);
    let project_file = settings.project_file.map(|file| {
        let base = folders
            .first()
            .cloned()
            .or_else(|| std::env::current_dir().ok());
        base.map_or_else(|| file.clone(), |base| base.join(&file))
    });
    if let Some(file) = &project_file {
        if let Err(e) = std::fs::metadata(file) {
            show(
                MessageType::WARNING,
                format!(
                    "ytt lsp: projectFile {}: {e}; until it can be read, project files are looked for as without it",
                    file.display()
                ),
            )?;
        }
    }
    let stop = Stopper::start(
        host.memory(),
        Duration::from_millis(settings.time_limit_ms),
        (settings.max_memory_mib as usize).saturating_mul(1 << 20),
    );
    let (jobs, done) = worker::start(host, stop.clone())?;
    let mut server = Server {
        sender: conn.sender.clone(),
        debounce: Duration::from_millis(settings.debounce_ms),
        folders,
        project_file,
        docs: Documents::default(),
        changed: BTreeSet::new(),
        due: None,
        edits: 0,
        jobs: 0,
        in_flight: None,
        runs: BTreeMap::new(),
        projects: BTreeMap::new(),
        published: BTreeMap::new(),
        waiting: Vec::new(),
        shutdown: false,
        modules: ytt_stdlib::modules(),
        to_worker: jobs,
        stop: stop.clone(),
    };
    let result = server.main_loop(&conn.receiver, &done);
    // a run going on is stopped: the process ends after this
    stop.cancel(u64::MAX);
    stop.close();
    result
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..TextDocumentSyncOptions::default()
            },
        )),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(lsp_types::CodeActionProviderCapability::Simple(true)),
        completion_provider: Some(lsp_types::CompletionOptions {
            trigger_characters: Some(vec![
                "@".into(),
                ".".into(),
                "\"".into(),
                "/".into(),
                ":".into(),
            ]),
            ..lsp_types::CompletionOptions::default()
        }),
        folding_range_provider: Some(lsp_types::FoldingRangeProviderCapability::Simple(true)),
        semantic_tokens_provider: Some(
            lsp_types::SemanticTokensServerCapabilities::SemanticTokensOptions(
                lsp_types::SemanticTokensOptions {
                    legend: highlight::legend(),
                    full: Some(lsp_types::SemanticTokensFullOptions::Bool(true)),
                    ..lsp_types::SemanticTokensOptions::default()
                },
            ),
        ),
        references_provider: Some(OneOf::Left(true)),
        inlay_hint_provider: Some(OneOf::Left(true)),
        workspace: Some(WorkspaceServerCapabilities {
            workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..ServerCapabilities::default()
    }
}

/// The workspace folders (or the root of a client that names one only).
fn folders(params: &InitializeParams) -> Vec<PathBuf> {
    if let Some(folders) = &params.workspace_folders {
        return folders
            .iter()
            .filter_map(|f| uri::to_path(&f.uri))
            .collect();
    }
    #[allow(deprecated)]
    let root = params.root_uri.as_ref().and_then(uri::to_path);
    root.into_iter().collect()
}

/// A job sent to the analysis thread and not back yet.
struct InFlight {
    id: u64,
    /// The edit count when it was sent: a result is dropped when an edit came since.
    edits: u64,
    changed: BTreeSet<PathBuf>,
    cancelled: bool,
}

/// A run's last analysis, the open files it stands for, and its last render (kept while
/// later analyses fail, for what reads the render).
struct Run {
    result: RunResult,
    members: Vec<PathBuf>,
    render: Option<Arc<Render>>,
    /// Its last data values (kept while later analyses do not get that far).
    facts: Option<Arc<RunFacts>>,
}

struct Server {
    sender: Sender<Message>,
    debounce: Duration,
    folders: Vec<PathBuf>,
    /// The project file the client chose, absolute.
    project_file: Option<PathBuf>,
    docs: Documents,
    /// Files changed since the last job was sent.
    changed: BTreeSet<PathBuf>,
    /// When the quiet period after the last edit ends.
    due: Option<Instant>,
    edits: u64,
    jobs: u64,
    in_flight: Option<InFlight>,
    runs: BTreeMap<RunKey, Run>,
    projects: BTreeMap<PathBuf, Vec<Finding>>,
    published: BTreeMap<PathBuf, Vec<Diagnostic>>,
    /// `ytt/runs` requests, answered once no analysis is pending.
    waiting: Vec<(RequestId, PathBuf)>,
    shutdown: bool,
    /// The `@ytt:` modules runs load (what completion and hover offer).
    modules: ytt::Modules,
    to_worker: Sender<Job>,
    stop: Arc<Stopper>,
}

impl Server {
    fn main_loop(&mut self, messages: &Receiver<Message>, done: &Receiver<Done>) -> Result<()> {
        loop {
            let timer = match self.due {
                Some(at) => crossbeam_channel::at(at),
                None => crossbeam_channel::never(),
            };
            select! {
                recv(messages) -> msg => match msg {
                    Ok(Message::Notification(n)) if n.method == note::Exit::METHOD => {
                        if !self.shutdown {
                            bail!("the client said exit before shutdown");
                        }
                        return Ok(());
                    }
                    Ok(msg) => self.handle(msg)?,
                    Err(_) => bail!("the client went away without saying exit"),
                },
                recv(done) -> finished => match finished {
                    Ok(finished) => self.finished(finished)?,
                    Err(_) => bail!("the analysis thread ended"),
                },
                recv(timer) -> _ => {
                    self.due = None;
                    self.start_job()?;
                },
            }
            self.answer_waiting()?;
        }
    }

    fn send(&self, msg: impl Into<Message>) -> Result<()> {
        self.sender
            .send(msg.into())
            .map_err(|_| anyhow!("the client's stream is closed"))
    }

    fn handle(&mut self, msg: Message) -> Result<()> {
        match msg {
            Message::Request(r) if self.shutdown => self.send(Response::new_err(
                r.id,
                ErrorCode::InvalidRequest as i32,
                "the server is shutting down".into(),
            )),
            Message::Request(r) => self.request(r),
            Message::Notification(n) => self.notification(n),
            // the server sends no requests
            Message::Response(_) => Ok(()),
        }
    }

    fn request(&mut self, r: Request) -> Result<()> {
        let id = r.id.clone();
        let answer = match r.method.as_str() {
            req::Shutdown::METHOD => {
                self.shutdown = true;
                Ok(Value::Null)
            }
            req::Formatting::METHOD => {
                params::<DocumentFormattingParams>(r.params).and_then(|p| self.format(p))
            }
            req::DocumentSymbolRequest::METHOD => self.on_text(r.params, |text, path, _| {
                lsp_types::DocumentSymbolResponse::Nested(symbols::document_symbols(text, path))
            }),
            req::FoldingRangeRequest::METHOD => self.on_text(r.params, |text, path, _| {
                folding::folding_ranges(text, path)
            }),
            req::SemanticTokensFullRequest::METHOD => {
                self.on_text(r.params, |text, path, _| lsp_types::SemanticTokens {
                    result_id: None,
                    data: highlight::semantic_tokens(text, path),
                })
            }
            req::Completion::METHOD => {
                self.in_context(r.params, |cx, p| features::completion(cx, position(p)?))
            }
            req::HoverRequest::METHOD => {
                self.in_context(r.params, |cx, p| features::hover(cx, position(p)?))
            }
            req::GotoDefinition::METHOD => {
                self.in_context(r.params, |cx, p| features::definition(cx, position(p)?))
            }
            req::References::METHOD => self.in_context(r.params, |cx, p| {
                let p: lsp_types::ReferenceParams = serde_json::from_value(p.clone()).ok()?;
                let at = p.text_document_position.position;
                features::references(cx, at, p.context.include_declaration)
            }),
            req::InlayHintRequest::METHOD => self.in_context(r.params, |cx, p| {
                let p: lsp_types::InlayHintParams = serde_json::from_value(p.clone()).ok()?;
                Some(features::inlay_hints(cx, p.range))
            }),
            req::CodeActionRequest::METHOD => self.in_context(r.params, |cx, p| {
                let p: lsp_types::CodeActionParams = serde_json::from_value(p.clone()).ok()?;
                let uri = &p.text_document.uri;
                Some(features::code_actions(
                    cx,
                    uri,
                    p.range,
                    &p.context.diagnostics,
                ))
            }),
            RUNS => match params::<RunsParams>(r.params) {
                Ok(p) => match uri::to_path(&p.text_document.uri) {
                    Some(path) => {
                        self.waiting.push((id, path));
                        return Ok(());
                    }
                    None => Err((ErrorCode::InvalidParams, "not a file URI".into())),
                },
                Err(e) => Err(e),
            },
            other => Err((
                ErrorCode::MethodNotFound,
                format!("unknown request {other}"),
            )),
        };
        self.send(match answer {
            Ok(result) => Response::new_ok(id, result),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        })
    }

    fn notification(&mut self, n: Notification) -> Result<()> {
        match n.method.as_str() {
            note::DidOpenTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) {
                    let d = p.text_document;
                    let path = self.docs.open(d.uri, d.text, d.version);
                    self.changed(path);
                }
            }
            note::DidChangeTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) {
                    let d = p.text_document;
                    let path = self.docs.change(&d.uri, d.version, p.content_changes);
                    self.changed(path);
                }
            }
            note::DidCloseTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) {
                    let path = self.docs.close(&p.text_document.uri);
                    self.changed(path);
                }
            }
            note::DidSaveTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidSaveTextDocumentParams>(n.params) {
                    self.changed(uri::to_path(&p.text_document.uri));
                }
            }
            note::DidChangeWatchedFiles::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeWatchedFilesParams>(n.params) {
                    for change in p.changes {
                        self.changed(uri::to_path(&change.uri));
                    }
                }
            }
            note::DidChangeWorkspaceFolders::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeWorkspaceFoldersParams>(n.params) {
                    let removed: Vec<PathBuf> = p
                        .event
                        .removed
                        .iter()
                        .filter_map(|f| uri::to_path(&f.uri))
                        .collect();
                    self.folders.retain(|f| !removed.contains(f));
                    self.folders
                        .extend(p.event.added.iter().filter_map(|f| uri::to_path(&f.uri)));
                    let open: Vec<PathBuf> = self.docs.paths().cloned().collect();
                    for path in open {
                        self.changed(Some(path));
                    }
                }
            }
            note::Cancel::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp_types::CancelParams>(n.params) {
                    let id: RequestId = match p.id {
                        lsp_types::NumberOrString::Number(n) => n.into(),
                        lsp_types::NumberOrString::String(s) => s.into(),
                    };
                    if let Some(i) = self.waiting.iter().position(|(w, _)| *w == id) {
                        self.waiting.remove(i);
                        self.send(Response::new_err(
                            id,
                            ErrorCode::RequestCanceled as i32,
                            "canceled".into(),
                        ))?;
                    }
                }
            }
            // `initialized`, `$/setTrace`, ...: nothing to do
            _ => {}
        }
        Ok(())
    }

    /// A file changed: it is analysed once edits have been quiet for a while.
    fn changed(&mut self, path: Option<PathBuf>) {
        if let Some(path) = path {
            self.changed.insert(path);
            self.edits += 1;
            self.due = Some(Instant::now() + self.debounce);
        }
    }

    /// Sends the changed files to the analysis thread; when a job is still running,
    /// cancels it (the changed files go when it is back).
    fn start_job(&mut self) -> Result<()> {
        if self.changed.is_empty() {
            return Ok(());
        }
        if let Some(running) = &mut self.in_flight {
            if !running.cancelled {
                self.stop.cancel(running.id);
                running.cancelled = true;
            }
            return Ok(());
        }
        self.jobs += 1;
        let changed = std::mem::take(&mut self.changed);
        self.in_flight = Some(InFlight {
            id: self.jobs,
            edits: self.edits,
            changed: changed.clone(),
            cancelled: false,
        });
        self.to_worker
            .send(Job {
                id: self.jobs,
                changed,
                overlay: self.docs.overlay(),
                folders: self.folders.clone(),
                project_file: self.project_file.clone(),
                held: (self.runs.iter())
                    .map(|(key, run)| {
                        let held = Held {
                            spec: run.result.spec.clone(),
                            read: run.result.inputs.clone(),
                        };
                        (key.clone(), held)
                    })
                    .collect(),
            })
            .map_err(|_| anyhow!("the analysis thread ended"))
    }

    /// A job is back: its results are kept and published, unless an edit came since.
    fn finished(&mut self, done: Done) -> Result<()> {
        let Some(job) = self.in_flight.take_if(|job| job.id == done.id) else {
            return Ok(());
        };
        if done.cancelled || job.edits != self.edits {
            // analyse again what it was to analyse, now or after the edits' quiet period
            self.changed.extend(job.changed);
            self.due.get_or_insert_with(Instant::now);
            return Ok(());
        }
        for mut run in done.analysed {
            self.log(&run)?;
            let key = run.spec.key.clone();
            let kept = self.runs.remove(&key);
            let (kept_render, kept_facts) = kept.map_or((None, None), |r| (r.render, r.facts));
            let render = run.render.take().or(kept_render);
            // facts kept from an analysis before the last are said to be
            let facts = run.facts.take().or_else(|| {
                let kept = kept_facts?;
                Some(match kept.stale {
                    true => kept,
                    false => Arc::new(RunFacts {
                        stale: true,
                        ..(*kept).clone()
                    }),
                })
            });
            let result = run;
            self.runs.insert(
                key,
                Run {
                    result,
                    members: Vec::new(),
                    render,
                    facts,
                },
            );
        }
        self.runs.retain(|key, _| done.live.contains_key(key));
        for (key, members) in done.live {
            if let Some(run) = self.runs.get_mut(&key) {
                run.members = members;
            }
        }
        self.projects = done.projects;
        // an opened or edited document hears back even when nothing changed for it
        let heard: BTreeSet<PathBuf> = (job.changed.into_iter())
            .filter(|p| self.docs.get(p).is_some())
            .collect();
        self.publish(&heard)?;
        if !self.changed.is_empty() {
            self.due.get_or_insert_with(Instant::now);
        }
        Ok(())
    }

    /// A run's `print()` output and how long it took, in the client's log.
    fn log(&self, run: &RunResult) -> Result<()> {
        let mut text = format!(
            "{} run '{}' {} in {} ms",
            run.spec.kind(),
            run.spec.name,
            run.outcome.name(),
            run.elapsed.as_millis()
        );
        for line in &run.log {
            text.push_str("\n  ");
            text.push_str(line.trim_end());
        }
        self.send(Notification::new(
            note::LogMessage::METHOD.into(),
            LogMessageParams {
                typ: MessageType::LOG,
                message: text,
            },
        ))
    }

    /// Publishes every file's diagnostics that changed since last published, and those
    /// of the documents in `heard`.
    fn publish(&mut self, heard: &BTreeSet<PathBuf>) -> Result<()> {
        let runs = self.runs.values().map(|r| RunFindings {
            spec: &r.result.spec,
            findings: &r.result.findings,
            members: &r.members,
        });
        let now = publish::diagnostics(runs, &self.projects, &self.docs);
        let paths: BTreeSet<&PathBuf> = (now.keys())
            .chain(self.published.keys())
            .chain(heard)
            .collect();
        for path in paths {
            let list = now.get(path).cloned().unwrap_or_default();
            let before = self.published.get(path).cloned().unwrap_or_default();
            if before == list && !heard.contains(path) {
                continue;
            }
            let doc = self.docs.get(path);
            self.send(Notification::new(
                note::PublishDiagnostics::METHOD.into(),
                PublishDiagnosticsParams {
                    uri: self.docs.uri_of(path),
                    diagnostics: list,
                    version: doc.map(|d| d.version),
                },
            ))?;
        }
        self.published = now;
        Ok(())
    }

    /// Answers `ytt/runs` once nothing is pending.
    fn answer_waiting(&mut self) -> Result<()> {
        if self.waiting.is_empty()
            || !self.changed.is_empty()
            || self.in_flight.is_some()
            || self.due.is_some()
        {
            return Ok(());
        }
        for (id, path) in std::mem::take(&mut self.waiting) {
            let runs: Vec<Value> = self
                .runs
                .values()
                .filter(|r| r.result.inputs.contains_key(&path) || r.members.contains(&path))
                .map(|r| {
                    let spec = &r.result.spec;
                    json!({
                        "name": spec.name,
                        "kind": spec.kind(),
                        "args": spec.args,
                        "dir": uri::from_path(&spec.dir),
                        "outcome": r.result.outcome.name(),
                        "files": r.result.inputs.len(),
                        "lastRender": r.render.as_ref().map(|render| outputs(render)),
                    })
                })
                .collect();
            self.send(Response::new_ok(id, runs))?;
        }
        Ok(())
    }

    /// The data values of the runs `path` belongs to (those that got that far).
    fn facts_for(&self, path: &Path) -> Vec<Arc<RunFacts>> {
        (self.runs.values())
            .filter(|r| r.result.inputs.contains_key(path) || r.members.iter().any(|m| m == path))
            .filter_map(|r| r.facts.clone())
            .collect()
    }

    /// Where paths are shown from: the workspace folder a file is in, else its directory.
    fn base_of(&self, path: &Path) -> PathBuf {
        (self.folders.iter())
            .filter(|f| path.starts_with(f))
            .max_by_key(|f| f.as_os_str().len())
            .cloned()
            .or_else(|| path.parent().map(Path::to_path_buf))
            .unwrap_or_default()
    }

    /// A request on a document's text with what is known around it (see [`Context`]).
    fn in_context<A: serde::Serialize>(
        &self,
        params: Value,
        answer: impl FnOnce(&Context, &Value) -> A,
    ) -> Result<Value, (ErrorCode, String)> {
        self.on_text(params, |text, path, params| {
            let facts = self.facts_for(path);
            let runs: Vec<&RunFacts> = facts.iter().map(|r| &**r).collect();
            let base = self.base_of(path);
            // a `/` path of a `load()` starts at the root library's directory
            let root = runs.iter().find_map(|r| r.root_of(path));
            disk::with_workspace(&self.folders, &self.docs, &self.modules, path, root, |ws| {
                let cx = Context {
                    text,
                    path,
                    runs: &runs,
                    base: &base,
                    ws,
                };
                answer(&cx, params)
            })
        })
    }

    /// A request on a document's text (the open document's, or the file's on disk):
    /// `answer` is given the text, the path and the request's params; null when the file
    /// cannot be read.
    fn on_text<A: serde::Serialize>(
        &self,
        params: Value,
        answer: impl FnOnce(&str, &Path, &Value) -> A,
    ) -> Result<Value, (ErrorCode, String)> {
        let doc: TextDocumentIdentifier = (params.get("textDocument").cloned())
            .ok_or((ErrorCode::InvalidParams, "no textDocument".to_owned()))
            .and_then(self::params)?;
        let path = uri::to_path(&doc.uri)
            .ok_or((ErrorCode::InvalidParams, "not a file URI".to_owned()))?;
        let text: String = match self.docs.get(&path) {
            Some(d) => d.text.to_string(),
            None => match std::fs::read_to_string(&path) {
                Ok(t) => t,
                Err(_) => return Ok(Value::Null),
            },
        };
        Ok(serde_json::to_value(answer(&text, &path, &params)).unwrap_or(Value::Null))
    }

    /// `textDocument/formatting`: `ytt fmt`'s layout of a YAML file, as one edit.
    fn format(&self, p: DocumentFormattingParams) -> Result<Value, (ErrorCode, String)> {
        let path = uri::to_path(&p.text_document.uri)
            .ok_or((ErrorCode::InvalidParams, "not a file URI".to_owned()))?;
        if !analysis::formats(&path) {
            return Ok(Value::Null);
        }
        let text: String = match self.docs.get(&path) {
            Some(d) => d.text.to_string(),
            None => std::fs::read_to_string(&path)
                .map_err(|e| (ErrorCode::RequestFailed, format!("{}: {e}", path.display())))?,
        };
        let formatted = analysis::format(&text).map_err(|e| (ErrorCode::RequestFailed, e))?;
        let edits = if formatted == text {
            Vec::new()
        } else {
            vec![TextEdit::new(text::whole(&text), formatted)]
        };
        Ok(serde_json::to_value(edits).unwrap_or(Value::Null))
    }
}

/// What `ytt/runs` says of a render: its output files, the template each came from.
fn outputs(render: &Render) -> Vec<Value> {
    (render.outputs().into_iter())
        .map(|o| {
            json!({
                "name": o.name,
                "template": o.path.as_deref().map(uri::from_path),
                "documents": o.documents,
            })
        })
        .collect()
}

/// The position of a request's params.
fn position(params: &Value) -> Option<lsp_types::Position> {
    serde_json::from_value(params.get("position")?.clone()).ok()
}

/// The custom request: which runs a file belongs to.
const RUNS: &str = "ytt/runs";

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RunsParams {
    text_document: TextDocumentIdentifier,
}

fn params<P: serde::de::DeserializeOwned>(v: Value) -> Result<P, (ErrorCode, String)> {
    serde_json::from_value(v).map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
}
