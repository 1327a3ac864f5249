//! End-to-end cases of the language server as data: every directory `tests/lsp/<name>/`
//! holds a workspace (`workspace/`, the folder the editor opened) and a `script` of what
//! an editor does. The real `ytt lsp` runs on it, spoken to over stdin/stdout as an
//! editor would; what it answered, and the diagnostics it published, are compared with
//! the snapshot `tests/snapshots/lsp__session@<name>__script.snap`.
//!
//! A script is one step a line (a line starting with `#` is a comment); paths are the
//! workspace's:
//!
//! - `initialize {JSON}`: the server's settings (`initializationOptions`); first, if at all
//! - `capabilities`: what the server answered to `initialize`
//! - `open PATH`: the file as it is on disk; with a text block after it, that text
//! - `change PATH` and a text block: the document's new text
//! - `close PATH`
//! - `runs PATH`: asks `ytt/runs` (answered once no analysis is pending), then shows
//!   the answer and every file's diagnostics as last published
//! - `cancel-runs PATH`: asks `ytt/runs` and cancels the request at once
//! - `format PATH`: asks `textDocument/formatting`
//! - `symbols PATH`, `folding PATH`: asks `textDocument/documentSymbol`,
//!   `textDocument/foldingRange`
//! - `tokens PATH`: asks `textDocument/semanticTokens/full` and shows the tokens decoded,
//!   one a line: `LINE:COL type 'text'` (from 1, as editors show them; the text is the
//!   file's on disk)
//! - `hover PATH LINE:COL` (from 1, columns in characters): asks `textDocument/hover`,
//!   shows its range and its markdown as it reads
//! - `complete PATH LINE:COL`, `definition PATH LINE:COL`, `references PATH LINE:COL`:
//!   asks `textDocument/completion`, `definition`, `references` (with the declaration)
//! - `hints PATH`: asks `textDocument/inlayHint` on the whole file: `LINE:COL label`
//! - `actions PATH LINE` (from 1): asks `textDocument/codeAction` on the line, with the
//!   diagnostics last published on it
//! - `request METHOD {JSON}`: any request
//! - `sleep MS`: lets the server work a while (an analysis starts)
//!
//! A text block is the lines between `<<<` and `>>>`. The workspace's path is shown as
//! `$WS`. At the end the script says `shutdown` and `exit`; the server must exit with 0.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{json, Value};

mod common;

/// How long any answer may take (a debug build on a loaded machine).
const PATIENCE: Duration = Duration::from_secs(60);

#[test]
fn session() {
    insta::glob!("lsp", "*/script", |script| {
        let dir = script.parent().expect("a case directory");
        let transcript = Session::start(&dir.join("workspace"))
            .play(&std::fs::read_to_string(script).expect("the script is UTF-8"));
        insta::assert_snapshot!(transcript);
    });
}

/// A running server and what it published.
struct Session {
    child: Child,
    stdin: ChildStdin,
    messages: mpsc::Receiver<Value>,
    workspace: PathBuf,
    next_id: i64,
    initialized: Value,
    versions: BTreeMap<String, i32>,
    /// Each file's diagnostics as last published (by workspace path).
    published: BTreeMap<String, Value>,
    out: String,
}

impl Session {
    fn start(workspace: &Path) -> Session {
        let workspace = workspace.canonicalize().expect("the workspace exists");
        let mut child = Command::new(env!("CARGO_BIN_EXE_ytt"))
            .arg("lsp")
            .current_dir(&workspace)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, messages) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(msg) = read_message(&mut reader) {
                if tx.send(msg).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            messages,
            workspace,
            next_id: 0,
            initialized: Value::Null,
            versions: BTreeMap::new(),
            published: BTreeMap::new(),
            out: String::new(),
        }
    }

    fn uri(&self, path: &str) -> String {
        format!("file://{}/{path}", self.workspace.display())
    }

    fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn request(&mut self, method: &str, params: Value) -> i64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// Waits for the answer to request `id`, noting what is published meanwhile.
    fn answer(&mut self, id: i64) -> Value {
        loop {
            let msg = self
                .messages
                .recv_timeout(PATIENCE)
                .unwrap_or_else(|_| panic!("no answer to request {id}; so far:\n{}", self.out));
            if msg.get("id") == Some(&json!(id)) && msg.get("method").is_none() {
                return msg;
            }
            if msg["method"] == "textDocument/publishDiagnostics" {
                let uri = msg["params"]["uri"].as_str().unwrap_or_default();
                let path = self.relative(uri);
                self.published.insert(path, msg["params"].clone());
            }
        }
    }

    /// A URI as a workspace path (`$WS` elsewhere).
    fn relative(&self, uri: &str) -> String {
        let base = format!("file://{}/", self.workspace.display());
        match uri.strip_prefix(&base) {
            Some(rest) => rest.to_owned(),
            None => self.normalize(uri),
        }
    }

    fn normalize(&self, text: &str) -> String {
        let ws = self.workspace.display().to_string();
        text.replace(&format!("file://{ws}"), "$WS")
            .replace(&ws, "$WS")
    }

    fn play(mut self, script: &str) -> String {
        // comments and blank lines go, but in text blocks
        let mut in_block = false;
        let mut lines = script
            .lines()
            .filter(|l| {
                match l.trim() {
                    "<<<" => in_block = true,
                    ">>>" => in_block = false,
                    t if !in_block && (t.is_empty() || t.starts_with('#')) => return false,
                    _ => {}
                }
                true
            })
            .peekable();
        let mut options = Value::Null;
        if let Some(first) = lines.peek() {
            if let Some(json) = first.strip_prefix("initialize ") {
                options = serde_json::from_str(json).expect("initialize's settings are JSON");
                lines.next();
            }
        }
        let init = self.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": self.uri("").trim_end_matches('/'),
                "capabilities": {},
                "initializationOptions": options,
                "workspaceFolders": [{"uri": self.uri("").trim_end_matches('/'), "name": "ws"}],
            }),
        );
        let init = self.answer(init);
        assert!(init.get("result").is_some(), "initialize failed: {init}");
        self.initialized = init;
        self.notify("initialized", json!({}));
        while let Some(line) = lines.next() {
            let line = line.trim();
            let _ = writeln!(self.out, "> {line}");
            let (step, arg) = line.split_once(' ').unwrap_or((line, ""));
            let block = if lines.peek().map(|l| l.trim()) == Some("<<<") {
                lines.next();
                let mut text = String::new();
                for l in lines.by_ref() {
                    if l.trim() == ">>>" {
                        break;
                    }
                    text.push_str(l);
                    text.push('\n');
                }
                Some(text)
            } else {
                None
            };
            self.step(step, arg, block);
        }
        let id = self.request("shutdown", Value::Null);
        let answer = self.answer(id);
        assert_eq!(answer["result"], Value::Null, "{answer}");
        self.notify("exit", Value::Null);
        drop(self.stdin);
        let status = self.child.wait().expect("the server ends");
        let mut stderr = String::new();
        let _ = self
            .child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr);
        assert!(
            status.success(),
            "the server exited with {status}: {stderr}"
        );
        assert_eq!(stderr, "", "the server wrote to stderr");
        self.out
    }

    fn step(&mut self, step: &str, arg: &str, block: Option<String>) {
        match step {
            "open" => {
                let text = block.unwrap_or_else(|| {
                    std::fs::read_to_string(self.workspace.join(arg)).expect("the file exists")
                });
                self.versions.insert(arg.into(), 1);
                let uri = self.uri(arg);
                let language = match Path::new(arg).extension().and_then(|e| e.to_str()) {
                    Some("star") => "starlark",
                    Some("yml" | "yaml") => "yaml",
                    _ => "plaintext",
                };
                self.notify(
                    "textDocument/didOpen",
                    json!({"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}}),
                );
            }
            "change" => {
                let text = block.expect("change takes a text block");
                let version = self.versions.entry(arg.into()).or_insert(0);
                *version += 1;
                let version = *version;
                let uri = self.uri(arg);
                self.notify(
                    "textDocument/didChange",
                    json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
                );
            }
            "capabilities" => {
                let answer = self.initialized.clone();
                self.show_answer(&answer);
            }
            "close" => {
                let uri = self.uri(arg);
                self.notify(
                    "textDocument/didClose",
                    json!({"textDocument": {"uri": uri}}),
                );
            }
            "runs" => {
                let uri = self.uri(arg);
                let id = self.request("ytt/runs", json!({"textDocument": {"uri": uri}}));
                let answer = self.answer(id);
                self.show_runs(&answer);
                self.show_diagnostics();
            }
            "cancel-runs" => {
                let uri = self.uri(arg);
                let id = self.request("ytt/runs", json!({"textDocument": {"uri": uri}}));
                self.notify("$/cancelRequest", json!({"id": id}));
                let answer = self.answer(id);
                self.show_answer(&answer);
            }
            "format" => {
                let uri = self.uri(arg);
                let id = self.request(
                    "textDocument/formatting",
                    json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
                );
                let answer = self.answer(id);
                self.show_answer(&answer);
            }
            "request" => {
                let (method, params) = arg.split_once(' ').unwrap_or((arg, "null"));
                let params = params.replace("$WS", &self.uri("")[..self.uri("").len() - 1]);
                let params: Value = serde_json::from_str(&params).expect("params are JSON");
                let id = self.request(method, params);
                let answer = self.answer(id);
                self.show_answer(&answer);
            }
            "symbols" | "folding" | "tokens" => {
                let method = match step {
                    "symbols" => "textDocument/documentSymbol",
                    "folding" => "textDocument/foldingRange",
                    _ => "textDocument/semanticTokens/full",
                };
                let uri = self.uri(arg);
                let id = self.request(method, json!({"textDocument": {"uri": uri}}));
                let answer = self.answer(id);
                if step == "tokens" {
                    self.show_tokens(arg, &answer);
                } else {
                    self.show_answer(&answer);
                }
            }
            "hover" | "complete" | "definition" => {
                let method = match step {
                    "hover" => "textDocument/hover",
                    "complete" => "textDocument/completion",
                    _ => "textDocument/definition",
                };
                let (path, at) = arg.split_once(' ').expect("PATH LINE:COL");
                let (line, col) = at.split_once(':').expect("LINE:COL");
                let position = json!({
                    "line": line.parse::<u32>().expect("a line") - 1,
                    "character": col.parse::<u32>().expect("a column") - 1,
                });
                let uri = self.uri(path);
                let id = self.request(
                    method,
                    json!({"textDocument": {"uri": uri}, "position": position}),
                );
                let answer = self.answer(id);
                match &answer["result"]["contents"]["value"] {
                    Value::String(markdown) if step == "hover" => {
                        let range = answer["result"]["range"].to_string();
                        let shown = self.normalize(&format!("range: {range}\n{markdown}"));
                        let _ = writeln!(self.out, "{shown}");
                    }
                    _ => self.show_answer(&answer),
                }
            }
            "references" => {
                let (path, at) = arg.split_once(' ').expect("PATH LINE:COL");
                let (line, col) = at.split_once(':').expect("LINE:COL");
                let params = json!({
                    "textDocument": {"uri": self.uri(path)},
                    "position": {
                        "line": line.parse::<u32>().expect("a line") - 1,
                        "character": col.parse::<u32>().expect("a column") - 1,
                    },
                    "context": {"includeDeclaration": true},
                });
                let id = self.request("textDocument/references", params);
                let answer = self.answer(id);
                self.show_answer(&answer);
            }
            "hints" => {
                let whole = json!({"start": {"line": 0, "character": 0}, "end": {"line": 100000, "character": 0}});
                let params = json!({"textDocument": {"uri": self.uri(arg)}, "range": whole});
                let id = self.request("textDocument/inlayHint", params);
                let answer = self.answer(id);
                let hints = answer["result"].as_array().cloned().unwrap_or_default();
                for h in hints {
                    let at = &h["position"];
                    let line = at["line"].as_u64().unwrap_or(0) + 1;
                    let col = at["character"].as_u64().unwrap_or(0) + 1;
                    let label = h["label"].as_str().unwrap_or("?");
                    let _ = writeln!(self.out, "{line}:{col} {label}");
                }
            }
            "actions" => {
                let (path, line) = arg.split_once(' ').expect("PATH LINE");
                let line = line.parse::<u32>().expect("a line") - 1;
                let diagnostics: Vec<Value> = (self.published.get(path))
                    .and_then(|p| p["diagnostics"].as_array())
                    .into_iter()
                    .flatten()
                    .filter(|d| d["range"]["start"]["line"] == json!(line))
                    .cloned()
                    .collect();
                let uri = self.uri(path);
                let range = json!({"start": {"line": line, "character": 0}, "end": {"line": line + 1, "character": 0}});
                let id = self.request(
                    "textDocument/codeAction",
                    json!({"textDocument": {"uri": uri}, "range": range, "context": {"diagnostics": diagnostics}}),
                );
                let answer = self.answer(id);
                self.show_answer(&answer);
            }
            "sleep" => std::thread::sleep(Duration::from_millis(arg.parse().expect("ms"))),
            other => panic!("unknown step {other}"),
        }
    }

    /// Semantic tokens decoded with the server's legend: `LINE:COL type 'text'`.
    fn show_tokens(&mut self, path: &str, answer: &Value) {
        let Some(data) = answer["result"]["data"].as_array() else {
            return self.show_answer(answer);
        };
        let legend = &self.initialized["result"]["capabilities"]["semanticTokensProvider"]
            ["legend"]["tokenTypes"];
        let text = std::fs::read_to_string(self.workspace.join(path)).unwrap_or_default();
        let lines: Vec<Vec<u16>> = text
            .split('\n')
            .map(|l| l.encode_utf16().collect())
            .collect();
        let n = |i: usize| data[i].as_u64().unwrap_or(0) as usize;
        let (mut line, mut col) = (0, 0);
        for t in 0..data.len() / 5 {
            let delta_line = n(t * 5);
            line += delta_line;
            col = if delta_line == 0 {
                col + n(t * 5 + 1)
            } else {
                n(t * 5 + 1)
            };
            let len = n(t * 5 + 2);
            let kind = legend[n(t * 5 + 3)].as_str().unwrap_or("?");
            let piece = lines
                .get(line)
                .and_then(|l| l.get(col..col + len))
                .map(String::from_utf16_lossy)
                .unwrap_or_default();
            let _ = writeln!(self.out, "{}:{} {kind} '{piece}'", line + 1, col + 1);
        }
    }

    fn show_answer(&mut self, answer: &Value) {
        let shown = match (answer.get("result"), answer.get("error")) {
            (Some(result), _) => serde_json::to_string_pretty(result).unwrap(),
            (_, Some(error)) => format!("error: {error}"),
            _ => answer.to_string(),
        };
        let shown = self.normalize(&shown);
        let _ = writeln!(self.out, "{shown}");
    }

    /// A `ytt/runs` answer, a line a run: `name (kind): args → outcome, N files; last
    /// render: output (documents), ...`.
    fn show_runs(&mut self, answer: &Value) {
        let Some(runs) = answer["result"].as_array() else {
            return self.show_answer(answer);
        };
        let mut text = String::from("runs:\n");
        for r in runs {
            let args: Vec<&str> = (r["args"].as_array().into_iter().flatten())
                .filter_map(Value::as_str)
                .collect();
            let outputs: Vec<String> = (r["lastRender"].as_array().into_iter().flatten())
                .map(|o| match o["documents"].as_u64() {
                    Some(n) => format!("{} (documents: {n})", o["name"].as_str().unwrap_or("")),
                    None => format!("{} (text)", o["name"].as_str().unwrap_or("")),
                })
                .collect();
            let last = match r["lastRender"] {
                Value::Null => "none".to_owned(),
                _ => outputs.join(", "),
            };
            let _ = writeln!(
                text,
                "  - {} ({}): {} (in {}) → {}, {} files; last render: {last}",
                r["name"].as_str().unwrap_or(""),
                r["kind"].as_str().unwrap_or(""),
                args.join(" "),
                r["dir"].as_str().unwrap_or(""),
                r["outcome"].as_str().unwrap_or(""),
                r["files"]
            );
        }
        let text = self.normalize(&text);
        self.out.push_str(&text);
    }

    /// Every file's diagnostics as last published: `line:col-line:col severity [code]
    /// message`, then each related place.
    fn show_diagnostics(&mut self) {
        let mut text = String::from("diagnostics:\n");
        for (path, params) in &self.published {
            let version = match &params["version"] {
                Value::Null => String::new(),
                v => format!(" (version {v})"),
            };
            let list = params["diagnostics"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let _ = writeln!(
                text,
                "  {path}{version}: {}",
                if list.is_empty() { "none" } else { "" }
            );
            for d in list {
                let severity = match d["severity"].as_i64() {
                    Some(1) => "error",
                    Some(2) => "warning",
                    _ => "?",
                };
                let message = d["message"].as_str().unwrap_or_default();
                let message = self.normalize(message).replace('\n', "\n      | ");
                let _ = writeln!(
                    text,
                    "    {} {severity} [{}] {message}",
                    range(&d["range"]),
                    d["code"].as_str().unwrap_or_default()
                );
                for r in d["relatedInformation"].as_array().into_iter().flatten() {
                    let _ = writeln!(
                        text,
                        "      related {} {}: {}",
                        self.relative(r["location"]["uri"].as_str().unwrap_or_default()),
                        range(&r["location"]["range"]),
                        r["message"].as_str().unwrap_or_default()
                    );
                }
            }
        }
        self.out.push_str(&text.replace(": \n", ":\n"));
    }
}

/// `line:col-line:col`, from 1 (as editors show them).
fn range(r: &Value) -> String {
    let p = |p: &Value| {
        format!(
            "{}:{}",
            p["line"].as_i64().unwrap_or(-1) + 1,
            p["character"].as_i64().unwrap_or(-1) + 1
        )
    };
    format!("{}-{}", p(&r["start"]), p(&r["end"]))
}

/// One message of the base protocol (`Content-Length` framed); none at the end.
fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).ok()? == 0 {
            return None;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some(n) = header.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// A setting the server does not know is said to the user, and the defaults are used: a
/// misspelt budget is not silently the default.
#[test]
fn unknown_settings_are_said() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/lsp/lifecycle/workspace");
    let mut s = Session::start(&workspace);
    let id = s.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}, "initializationOptions": {"maxMemoryMib": 64}}),
    );
    assert!(s.answer(id).get("result").is_some());
    s.notify("initialized", json!({}));
    let said = s.messages.recv_timeout(PATIENCE).expect("a message");
    assert_eq!(said["method"], "window/showMessage", "{said}");
    let message = said["params"]["message"].as_str().unwrap_or("");
    assert!(
        message.contains("unknown field `maxMemoryMib`"),
        "{message}"
    );
}

#[test]
fn an_unreadable_project_file_is_said() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/lsp/lifecycle/workspace");
    let mut s = Session::start(&workspace);
    let folder = s.uri("").trim_end_matches('/').to_owned();
    let id = s.request(
        "initialize",
        json!({"processId": null, "rootUri": folder, "capabilities": {}, "initializationOptions": {"projectFile": "deploy/missing.toml"}}),
    );
    assert!(s.answer(id).get("result").is_some());
    s.notify("initialized", json!({}));
    let said = s.messages.recv_timeout(PATIENCE).expect("a message");
    assert_eq!(said["method"], "window/showMessage", "{said}");
    assert_eq!(said["params"]["type"], 2, "a warning: {said}");
    let message = s.normalize(said["params"]["message"].as_str().unwrap_or(""));
    assert!(
        message.starts_with("ytt lsp: projectFile $WS/deploy/missing.toml: "),
        "{message}"
    );
}

/// A real editor's client: Neovim (Debian's 0.7, its built-in client, no plugin) starts
/// `ytt lsp` on `examples/web-app/`, opens a values file, hears that it is fine, breaks a
/// value in the buffer (unsaved) and gets the rule's diagnostic on that line, then
/// formats a line through the server.
#[test]
fn neovim() {
    if !common::neovim::available("neovim") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/web-app")
        .canonicalize()
        .expect("the example exists");
    let dir = tempfile::tempdir().unwrap();
    let env = [
        ("YTT", OsStr::new(env!("CARGO_BIN_EXE_ytt"))),
        ("ROOT", root.as_os_str()),
    ];
    let got = common::neovim::run(NEOVIM_SCRIPT, dir.path(), dir.path(), &env);
    assert_eq!(got["error"], Value::Null, "{got:#}");
    // opened as it is on disk: the server said so, with nothing to show
    assert_eq!(got["opened"], json!([]), "{got:#}");
    // `replicas: 0` on line 5 (from 0: 4), against the rule the consumer's overlay set
    let broken = got["broken"].as_array().expect("diagnostics");
    assert_eq!(broken.len(), 1, "{got:#}");
    let d = &broken[0];
    assert_eq!(d["lnum"], 4, "{got:#}");
    assert_eq!(d["severity"], 1, "{got:#}");
    assert_eq!(d["source"], "ytt", "{got:#}");
    assert_eq!(
        d["message"], "replicas: must be: a value >= 1 (found: value < 1)",
        "{got:#}"
    );
    let rule = &d["related"][0];
    assert!(
        rule["uri"]
            .as_str()
            .unwrap_or("")
            .ends_with("/more-replicas.yml"),
        "{got:#}"
    );
    assert_eq!(rule["line"], 4, "{got:#}");
    // formatted through the server: `ytt fmt`'s layout
    assert_eq!(got["formatted"], json!("name: shop"), "{got:#}");
    // hover on a data value's key: its final value and what set it, in order
    let hover = got["hover"].as_str().unwrap_or_default();
    assert!(hover.starts_with("`replicas`: integer"), "{got:#}");
    assert!(
        hover.contains("1. schema default, `config/schema.yml:"),
        "{got:#}"
    );
    // (on line 5, or 6 once the formatted text is analysed)
    assert!(
        hover.contains("data values, `values/production.yml:"),
        "{got:#}"
    );
    // completion of a key: the schema's top-level keys the file does not set
    assert_eq!(got["completion"], json!(["port"]), "{got:#}");
}

/// Neovim 0.7's built-in client, driven from Lua; writes what the editor received to
/// `$OUT` as JSON, and quits whatever happens.
const NEOVIM_SCRIPT: &str = r#"
local result = {}
local published = {}
local ok, err = pcall(function()
  local root = os.getenv("ROOT")
  local file = root .. "/values/production.yml"
  local client = vim.lsp.start_client({
    name = "ytt",
    cmd = { os.getenv("YTT"), "lsp" },
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = "web-app" } },
    handlers = {
      ["textDocument/publishDiagnostics"] = function(err, params, ctx, config)
        if params.uri == vim.uri_from_fname(file) then
          table.insert(published, params)
        end
        return vim.lsp.diagnostic.on_publish_diagnostics(err, params, ctx, config)
      end,
    },
  })
  assert(client, "the client started")
  vim.cmd("edit " .. file)
  assert(vim.lsp.buf_attach_client(0, client), "the buffer is attached")
  assert(vim.wait(30000, function() return #published >= 1 end, 20), "no diagnostics after opening")
  result.opened = published[1].diagnostics
  -- `replicas: 3` is line 5
  vim.api.nvim_buf_set_lines(0, 4, 5, false, { "replicas: 0" })
  assert(vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 20), "no diagnostics after the edit")
  result.broken = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    local related = {}
    for _, r in ipairs(lsp.relatedInformation or {}) do
      table.insert(related, { uri = r.location.uri, line = r.location.range.start.line })
    end
    table.insert(result.broken, {
      lnum = d.lnum, col = d.col, severity = d.severity, source = d.source,
      message = d.message, related = related,
    })
  end
  -- `name: shop` is line 3
  vim.api.nvim_buf_set_lines(0, 2, 3, false, { "name:      shop" })
  vim.lsp.buf.formatting_sync(nil, 30000)
  for _, line in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
    if line:match("^name:") then result.formatted = line end
  end
  local uri = vim.uri_from_bufnr(0)
  -- hover on `replicas` (where the formatting left it): its final value, what set it
  local at = 0
  for i, line in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
    if line:match("^replicas:") then at = i - 1 end
  end
  local hovers = vim.lsp.buf_request_sync(0, "textDocument/hover", {
    textDocument = { uri = uri }, position = { line = at, character = 1 },
  }, 30000)
  for _, r in pairs(hovers or {}) do
    if r.result then result.hover = r.result.contents.value end
  end
  -- completion on a new last line: the schema's keys the file does not set yet
  local last = vim.api.nvim_buf_line_count(0)
  vim.api.nvim_buf_set_lines(0, last, last, false, { "" })
  local completions = vim.lsp.buf_request_sync(0, "textDocument/completion", {
    textDocument = { uri = uri }, position = { line = last, character = 0 },
  }, 30000)
  result.completion = {}
  for _, r in pairs(completions or {}) do
    for _, item in ipairs(r.result and (r.result.items or r.result) or {}) do
      table.insert(result.completion, item.label)
    end
  end
  vim.lsp.stop_client(client)
end)
"#;
