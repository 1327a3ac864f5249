// The playground page: files and options in, the engine's output and diagnostics out.
// The engine runs in a Web Worker (worker.js); this thread stays responsive and stops a
// render that runs too long.

import { attach } from "./assist.js";
import { cliArgs, lines, shellWords } from "./flags.js";

/** A render running longer than this is stopped (a loop that does not end). */
const TIMEOUT_MS = 3000;
/** Renders wait for typing to pause this long. */
const DEBOUNCE_MS = 120;
/** The editor's line height (style.css `--lh`) and padding. */
const LINE_PX = 20;
const PAD_PX = 8;

const $ = (id) => document.getElementById(id);

const state = {
  files: [], // [{path, text}]
  active: null, // the path in the editor
  examples: [],
  result: null, // the last response, or null after a stop
  focus: null, // {file, line}: a line a click went to
  shownError: null, // "file:line" of the error whose file was last opened for the user
};

/** What the browser test reads: timings (ms on the page's clock), the count of renders
 * shown, whether any is due. */
window.playground = {
  compiled: null,
  workerReady: null,
  firstRender: null,
  firstEngineMs: null,
  renders: 0,
  idle: () => !debounce && !inflight && !pending,
};

// ---------------------------------------------------------------- the engine's worker

let wasmModule = null;
let worker = null;
let seq = 0;
let inflight = null; // {id}
let pending = false;
let timer = null;
let queries = new Map(); // the editor's questions to the worker: id -> their answer's resolve
let querySeq = 0;
let resetAssist = () => {};

/** A fresh worker; it starts loading while the engine compiles, and gets the compiled
 * engine as soon as there is one. */
function startWorker() {
  // a replaced worker answers no more questions
  for (const answer of queries.values()) answer(null);
  queries = new Map();
  worker = new Worker("worker.js", { type: "module" });
  worker.onmessage = onResult;
  if (wasmModule) worker.postMessage({ module: wasmModule });
}

/** The worker's answer to the editor's question (`hover` or `complete` at `at`), or null. */
function ask(query, at) {
  return new Promise((answer) => {
    const queryId = ++querySeq;
    queries.set(queryId, answer);
    worker.postMessage({ query, queryId, at });
  });
}

function requestRender() {
  if (inflight) {
    pending = true;
    return;
  }
  send();
}

function send() {
  const id = ++seq;
  inflight = { id };
  document.body.dataset.state = "rendering";
  worker.postMessage({ id, request: buildRequest() });
  timer = setTimeout(() => {
    worker.terminate();
    startWorker();
    inflight = null;
    showStopped(
      `The render ran for more than ${TIMEOUT_MS / 1000} s and was stopped ` +
        "(a loop that does not end?). Edit the files to render again.",
    );
    if (pending) {
      pending = false;
      send();
    }
  }, TIMEOUT_MS);
}

function onResult({ data }) {
  if (data.ready) {
    window.playground.workerReady ??= data.ready - performance.timeOrigin;
    return;
  }
  if (data.queryId) {
    queries.get(data.queryId)?.(data.answer);
    queries.delete(data.queryId);
    if (data.broken) {
      // a question trapped the instance: a fresh worker renders again (for the next one)
      clearTimeout(timer);
      inflight = null;
      pending = false;
      worker.terminate();
      startWorker();
      send();
    }
    return;
  }
  if (!inflight || data.id !== inflight.id) return;
  clearTimeout(timer);
  inflight = null;
  if (data.broken) {
    worker.terminate();
    startWorker();
    showStopped(data.stopped);
  } else {
    show(data.response, data.ms);
  }
  if (pending) {
    pending = false;
    send();
  }
}

let debounce = null;
function changed() {
  clearTimeout(debounce);
  debounce = setTimeout(() => {
    debounce = null;
    requestRender();
  }, DEBOUNCE_MS);
  updateCommand();
}

// ---------------------------------------------------------------- request and options

function options() {
  return {
    output: $("o-format").value,
    inspect: $("o-inspect").value,
    schema_type: $("o-schema-type").value,
    values: lines($("o-values").value),
    values_yaml: lines($("o-values-yaml").value),
    disable_values_validation: $("o-no-values-validation").checked,
    disable_output_validation: $("o-no-output-validation").checked,
  };
}

function setOptions(o = {}) {
  $("o-format").value = o.output ?? "yaml";
  $("o-inspect").value = o.inspect ?? "none";
  $("o-schema-type").value = o.schema_type ?? "openapi-v3";
  $("o-values").value = (o.values ?? []).join("\n");
  $("o-values-yaml").value = (o.values_yaml ?? []).join("\n");
  $("o-no-values-validation").checked = !!o.disable_values_validation;
  $("o-no-output-validation").checked = !!o.disable_output_validation;
}

function buildRequest() {
  return { files: state.files.map(({ path, text }) => ({ path, text })), ...options() };
}

function updateCommand() {
  $("o-schema-type").disabled = $("o-inspect").value !== "schema";
  $("command").textContent = shellWords(["ytt", "-f", ".", ...cliArgs(options())]);
}

// ---------------------------------------------------------------- files

function sortFiles() {
  state.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function file(path) {
  return state.files.find((f) => f.path === path);
}

function renderFileList() {
  sortFiles();
  const failed = new Set(problemFiles());
  const ul = $("files");
  ul.replaceChildren(
    ...state.files.map((f) => {
      const li = document.createElement("li");
      li.classList.toggle("active", f.path === state.active);
      li.classList.toggle("failed", failed.has(f.path));
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = f.path;
      b.dataset.path = f.path;
      b.onclick = () => openFile(f.path);
      li.append(b);
      return li;
    }),
  );
}

function openFile(path, focus = null) {
  if (!file(path)) return;
  state.active = path;
  state.focus = focus;
  const ta = $("text");
  resetAssist();
  ta.value = file(path).text;
  $("file-name").textContent = path;
  renderFileList();
  layoutEditor();
  drawMarks();
  if (focus) goToLine(focus.line);
}

function checkName(name, except) {
  if (!name || !name.trim()) return null;
  name = name.trim().replace(/^\.?\/+/, "");
  if (state.files.some((f) => f.path === name && f.path !== except)) {
    alert(`A file named ${name} exists already.`);
    return null;
  }
  return name;
}

function addFile() {
  const name = checkName(prompt("New file (a path such as config/service.yml):", "new.yml"));
  if (!name) return;
  state.files.push({ path: name, text: "" });
  openFile(name);
  changed();
}

function renameFile() {
  if (!state.active) return;
  const name = checkName(prompt("Rename to:", state.active), state.active);
  if (!name || name === state.active) return;
  file(state.active).path = name;
  openFile(name);
  changed();
}

function deleteFile() {
  if (!state.active || !confirm(`Delete ${state.active}?`)) return;
  state.files = state.files.filter((f) => f.path !== state.active);
  state.active = null;
  const next = state.files[0];
  if (next) openFile(next.path);
  else {
    $("text").value = "";
    $("file-name").textContent = "";
    renderFileList();
    layoutEditor();
  }
  changed();
}

// ---------------------------------------------------------------- editor

/** The text area grows to its text: gutter, text and marks scroll as one. */
function layoutEditor() {
  const ta = $("text");
  const n = ta.value.split("\n").length;
  ta.style.height = `${n * LINE_PX + 2 * PAD_PX}px`;
  ta.style.width = "";
  if (ta.scrollWidth > ta.clientWidth) ta.style.width = `${ta.scrollWidth + PAD_PX}px`;
  const bad = new Set(markedLines().filter((m) => m.kind === "bad").map((m) => m.line));
  const gutter = $("gutter");
  gutter.replaceChildren();
  for (let i = 1; i <= n; i++) {
    const s = document.createElement("span");
    s.textContent = `${i}\n`;
    if (bad.has(i)) s.className = "bad";
    gutter.append(s);
  }
}

function onType() {
  const f = file(state.active);
  if (!f) return;
  f.text = $("text").value;
  state.focus = null;
  layoutEditor();
  changed();
}

function onKey(e) {
  // a key the completion list took
  if (e.defaultPrevented) return;
  // Tab indents instead of leaving the editor
  if (e.key === "Tab" && !e.shiftKey && !e.ctrlKey && !e.metaKey) {
    e.preventDefault();
    document.execCommand("insertText", false, "  ");
  }
}

function goToLine(line) {
  const ta = $("text");
  const starts = [0];
  for (let i = 0; i < ta.value.length; i++) if (ta.value[i] === "\n") starts.push(i + 1);
  const from = starts[Math.max(0, line - 1)] ?? ta.value.length;
  const to = line < starts.length ? starts[line] - 1 : ta.value.length;
  ta.focus({ preventScroll: true });
  ta.setSelectionRange(from, Math.max(from, to));
  const editor = $("editor");
  const y = PAD_PX + (line - 1) * LINE_PX;
  if (y < editor.scrollTop || y > editor.scrollTop + editor.clientHeight - 3 * LINE_PX) {
    editor.scrollTop = Math.max(0, y - editor.clientHeight / 3);
  }
}

/** A character's width in the editor's font (for a column mark). */
function charWidth() {
  const probe = document.createElement("span");
  probe.textContent = "0".repeat(10);
  probe.style.visibility = "hidden";
  $("marks").append(probe);
  const w = probe.getBoundingClientRect().width / 10;
  probe.remove();
  return w || 8;
}

// ---------------------------------------------------------------- diagnostics

/** The first lines of a report, for the message beside the marked line. */
function summary(text) {
  const first = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("in <") && !/^\S+:\d+ \|/.test(l))
    .slice(0, 2)
    .join("\n")
    .replace(/^- /, "");
  return first.length > 300 ? `${first.slice(0, 300)}…` : first;
}

function violationText(v) {
  return `${v.path}: ${v.message}${v.found ? ` (found: ${v.found})` : ""}`;
}

/** A location of the engine's diagnostic ({file, line, column}) when it names a file. */
function inFile(location) {
  return location?.file ? location : null;
}

/** Every line to mark: {file, line, column, kind: bad|warn|focus, message}. */
function allMarks() {
  const out = [];
  const err = state.result?.error;
  if (err) {
    if (err.violations.length) {
      for (const v of err.violations) {
        if (inFile(v.value)) out.push({ ...v.value, kind: v.warning ? "warn" : "bad", message: violationText(v) });
        if (inFile(v.rule)) out.push({ ...v.rule, kind: "warn", message: null });
      }
    } else if (inFile(err.location)) {
      out.push({ ...err.location, kind: "bad", message: summary(err.text) });
      for (const f of err.frames.slice(1)) {
        if (inFile(f.location)) out.push({ ...f.location, kind: "warn", message: null });
      }
    }
  }
  if (state.focus) out.push({ ...state.focus, kind: "focus", message: null });
  return out.filter((m) => m.line > 0);
}

function markedLines() {
  return allMarks().filter((m) => m.file === state.active);
}

function problemFiles() {
  return allMarks()
    .filter((m) => m.kind === "bad")
    .map((m) => m.file);
}

function drawMarks() {
  const layer = $("marks");
  layer.replaceChildren();
  const marks = markedLines();
  const cw = charWidth();
  const messages = new Map();
  for (const m of marks) {
    const band = document.createElement("div");
    band.className = `mark-line ${m.kind === "bad" ? "" : m.kind}`.trim();
    band.style.top = `${PAD_PX + (m.line - 1) * LINE_PX}px`;
    band.dataset.line = m.line;
    layer.append(band);
    if (m.column) {
      const col = document.createElement("div");
      col.className = "mark-col";
      col.style.top = band.style.top;
      col.style.left = `${PAD_PX + (m.column - 1) * cw}px`;
      layer.append(col);
    }
    if (m.message) messages.set(m.line, [...(messages.get(m.line) ?? []), m.message]);
  }
  const text = $("text").value.split("\n");
  for (const [line, texts] of messages) {
    const box = document.createElement("div");
    box.className = "mark-message";
    box.dataset.line = line;
    box.style.top = `${PAD_PX + (line - 1) * LINE_PX}px`;
    box.style.left = `${PAD_PX + ((text[line - 1] ?? "").length + 3) * cw}px`;
    box.textContent = texts.join(" · ").replaceAll("\n", " ");
    layer.append(box);
  }
  layoutEditor();
}

function link(at, label) {
  const a = document.createElement("a");
  a.textContent = `${label}${at.file}:${at.line}`;
  a.dataset.file = at.file;
  a.dataset.line = at.line;
  if (file(at.file)) {
    a.href = "#";
    a.onclick = (e) => {
      e.preventDefault();
      openFile(at.file, { file: at.file, line: at.line });
    };
  }
  return a;
}

// ---------------------------------------------------------------- results

function show(response, ms) {
  state.result = response;
  const err = response.error;
  $("stdout").textContent = response.stdout;
  $("text-files").replaceChildren(
    ...response.text_files.map((t) => {
      const div = document.createElement("div");
      div.className = "text-file";
      const h = document.createElement("h3");
      h.textContent = `${t.path} (a text output: the command line writes it with --output-files)`;
      const pre = document.createElement("pre");
      pre.className = "out";
      pre.textContent = t.text;
      div.append(h, pre);
      return div;
    }),
  );
  const errLine = err ? `ytt: Error: ${err.text}\n` : "";
  const messages = err ? response.stderr.slice(0, response.stderr.length - errLine.length) : response.stderr;
  $("stderr").textContent = messages;
  $("stderr").hidden = messages === "";
  $("problem").hidden = !err;
  $("violations").replaceChildren();
  $("frames").replaceChildren();
  if (err) {
    $("problem-text").textContent = errLine.trimEnd();
    for (const v of err.violations) {
      const li = document.createElement("li");
      li.classList.toggle("warning", v.warning);
      const path = document.createElement("span");
      path.className = "path";
      path.textContent = v.path;
      li.append(path, ` ${v.warning ? "(warning) " : ""}${v.message}${v.found ? ` — found: ${v.found}` : ""} `);
      if (inFile(v.value)) li.append(link(v.value, "value "), " ");
      if (inFile(v.rule)) li.append(link(v.rule, "rule "));
      $("violations").append(li);
    }
    if (!err.violations.length) {
      for (const f of err.frames) {
        if (!inFile(f.location)) continue;
        const li = document.createElement("li");
        li.append(link(f.location, ""), ` in ${f.function}: ${f.source}`);
        $("frames").append(li);
      }
    }
    $("status").textContent = `${err.kind} error`;
    document.body.dataset.state = "failed";
    // the failing file opened, once per new error location
    const at = err.violations.find((v) => inFile(v.value) && file(v.value.file))?.value ?? inFile(err.location);
    const where = at ? `${at.file}:${at.line}` : null;
    if (at && where !== state.shownError && file(at.file)) {
      state.shownError = where;
      if (state.active !== at.file) openFile(at.file);
      goToVisible(at.line);
    }
  } else {
    state.shownError = null;
    $("status").textContent = `rendered in ${ms.toFixed(1)} ms`;
    document.body.dataset.state = "done";
  }
  renderFileList();
  drawMarks();
  window.playground.renders += 1;
  document.body.dataset.renders = window.playground.renders;
  if (window.playground.firstRender === null) {
    window.playground.firstRender = performance.now();
    window.playground.firstEngineMs = ms;
  }
}

/** Scrolls the editor to `line` without moving the cursor. */
function goToVisible(line) {
  const editor = $("editor");
  const y = PAD_PX + (line - 1) * LINE_PX;
  if (y < editor.scrollTop || y > editor.scrollTop + editor.clientHeight - 3 * LINE_PX) {
    editor.scrollTop = Math.max(0, y - editor.clientHeight / 3);
  }
}

function showStopped(message) {
  state.result = null;
  $("stdout").textContent = "";
  $("text-files").replaceChildren();
  $("stderr").hidden = true;
  $("problem").hidden = false;
  $("problem-text").textContent = message;
  $("violations").replaceChildren();
  $("frames").replaceChildren();
  $("status").textContent = "stopped";
  document.body.dataset.state = "stopped";
  window.playground.renders += 1;
  document.body.dataset.renders = window.playground.renders;
  drawMarks();
}

// ---------------------------------------------------------------- examples and sharing

function load({ files, options: opts }, active = null) {
  state.files = files.map(({ path, text }) => ({ path, text }));
  state.result = null;
  state.focus = null;
  state.shownError = null;
  $("share-url").hidden = true;
  setOptions(opts);
  sortFiles();
  const first = active ?? state.files.find((f) => !f.path.endsWith(".star"))?.path ?? state.files[0]?.path;
  if (first) openFile(first);
  else renderFileList();
  // a new state renders at once: only typing waits for a pause
  clearTimeout(debounce);
  debounce = null;
  updateCommand();
  requestRender();
}

function loadExample(name) {
  const ex = state.examples.find((e) => e.name === name) ?? state.examples[0];
  $("example").value = ex.name;
  history.replaceState(null, "", `#example=${encodeURIComponent(ex.name)}`);
  load(ex, ex.open);
}

function toBase64Url(bytes) {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const s = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

async function pipe(bytes, transform) {
  const stream = new Blob([bytes]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The files and options, compressed into a URL fragment. */
async function share() {
  const json = JSON.stringify({ v: 1, files: state.files, options: options(), active: state.active });
  const packed = await pipe(new TextEncoder().encode(json), new CompressionStream("deflate-raw"));
  history.replaceState(null, "", `#s=${toBase64Url(packed)}`);
  const input = $("share-url");
  input.value = location.href;
  input.hidden = false;
  input.select();
  navigator.clipboard?.writeText(location.href).catch(() => {});
}

async function fromFragment() {
  const hash = location.hash.slice(1);
  if (hash.startsWith("s=")) {
    try {
      const bytes = await pipe(fromBase64Url(hash.slice(2)), new DecompressionStream("deflate-raw"));
      const shared = JSON.parse(new TextDecoder().decode(bytes));
      $("example").value = "";
      load(shared, shared.active);
      return true;
    } catch (e) {
      $("status").textContent = `This address holds no playground state that can be read (${e.message}).`;
    }
  }
  if (hash.startsWith("example=")) {
    loadExample(decodeURIComponent(hash.slice("example=".length)));
    return true;
  }
  return false;
}

// ---------------------------------------------------------------- start

async function main() {
  const compiling = WebAssembly.compileStreaming(fetch("pkg/ytt_playground_bg.wasm"));
  startWorker();
  const [examples, compiled] = await Promise.all([fetch("examples.json").then((r) => r.json()), compiling]);
  state.examples = examples;
  wasmModule = compiled;
  window.playground.compiled = performance.now();
  worker.postMessage({ module: wasmModule });

  const select = $("example");
  const custom = document.createElement("option");
  custom.value = "";
  custom.textContent = "(your files)";
  custom.hidden = true;
  select.append(custom);
  for (const ex of examples) {
    const o = document.createElement("option");
    o.value = ex.name;
    o.textContent = ex.title;
    select.append(o);
  }
  select.onchange = () => select.value && loadExample(select.value);

  resetAssist = attach({
    ta: $("text"),
    ask,
    path: () => state.active,
    metrics: () => ({ line: LINE_PX, pad: PAD_PX, char: charWidth() }),
  });
  $("text").addEventListener("input", onType);
  $("text").addEventListener("keydown", onKey);
  $("add-file").onclick = addFile;
  $("rename-file").onclick = renameFile;
  $("delete-file").onclick = deleteFile;
  $("share").onclick = share;
  for (const id of ["o-format", "o-inspect", "o-schema-type", "o-no-values-validation", "o-no-output-validation"]) {
    $(id).addEventListener("change", changed);
  }
  for (const id of ["o-values", "o-values-yaml"]) $(id).addEventListener("input", changed);
  window.addEventListener("hashchange", fromFragment);
  window.addEventListener("resize", drawMarks);

  if (!(await fromFragment())) loadExample(examples[0].name);
}

main().catch((e) => {
  document.body.dataset.state = "broken";
  $("status").textContent = `The playground could not start: ${e}`;
});
