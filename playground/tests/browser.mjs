// The playground's browser test: serves the built site on localhost, drives Debian's
// chromium with playwright-core, and checks the page against the `ytt` binary.
//   node playground/tests/browser.mjs SITE_DIR YTT_BINARY [--screenshots DIR]
// Exits 1 on the first failed check. Timings are printed, not asserted.

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { chromium } from "playwright-core";
import { offsetOf, positionOf } from "../site/assist.js";
import { charPoint, serve } from "./page.mjs";
import { cliArgs } from "../site/flags.js";
import { markdownToHtml } from "../site/markdown.js";

const [site, ytt] = process.argv.slice(2);
const shotsAt = process.argv.indexOf("--screenshots");
const shots = shotsAt > 0 ? process.argv[shotsAt + 1] : null;
if (!site || !ytt) {
  console.error("usage: browser.mjs SITE_DIR YTT_BINARY [--screenshots DIR]");
  process.exit(2);
}

// ------------------------------------------------------------------ helpers

function check(cond, what, detail = "") {
  if (!cond) {
    console.error(`FAIL: ${what}${detail ? `\n${detail}` : ""}`);
    process.exit(1);
  }
  console.log(`ok: ${what}`);
}

/** `ytt -f DIR <the request's flags>` over `files` written to a fresh directory. */
function cli(files, options, extra = []) {
  const dir = mkdtempSync(join(tmpdir(), "ytt-playground-"));
  try {
    for (const f of files) {
      mkdirSync(dirname(join(dir, "in", f.path)), { recursive: true });
      writeFileSync(join(dir, "in", f.path), f.text);
    }
    const out = join(dir, "out");
    const args = ["-f", join(dir, "in"), ...cliArgs(options), ...extra.map((a) => a.replace("OUT", out))];
    const run = spawnSync(ytt, args);
    const outputs = {};
    if (extra.length) {
      for (const name of readdirSync(out, { recursive: true })) {
        try {
          outputs[name] = readFileSync(join(out, name), "utf8");
        } catch {
          // a directory
        }
      }
    }
    return { code: run.status, stdout: run.stdout, stderr: run.stderr.toString(), outputs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Waits until the page has shown a render after `after` renders and none is due. */
async function settled(page, after) {
  await page.waitForFunction(
    (n) => window.playground?.renders > n && window.playground.idle(),
    after,
    { timeout: 15000 },
  );
}

const renders = (page) => page.evaluate(() => window.playground.renders);

async function pageState(page) {
  return page.evaluate(() => ({
    state: document.body.dataset.state,
    stdout: document.getElementById("stdout").textContent,
    problem: document.getElementById("problem").hidden ? null : document.getElementById("problem-text").textContent,
    textFiles: [...document.querySelectorAll(".text-file")].map((d) => d.querySelector("pre").textContent),
    file: document.getElementById("file-name").textContent,
    files: [...document.querySelectorAll("#files button")].map((b) => b.dataset.path),
  }));
}

async function openFile(page, path) {
  await page.click(`#files button[data-path="${path}"]`);
}

/** Puts the cursor at the end of `line` (1-based) of the open file. */
async function caretAtEndOf(page, line) {
  await page.evaluate((n) => {
    const ta = document.getElementById("text");
    const lines = ta.value.split("\n");
    const at = lines.slice(0, n).join("\n").length;
    ta.focus();
    ta.setSelectionRange(at, at);
  }, line);
}

/** The 1-based line of the open file holding the editor's selection start. */
const selectedLine = (page) =>
  page.evaluate(() => {
    const ta = document.getElementById("text");
    return ta.value.slice(0, ta.selectionStart).split("\n").length;
  });

async function selectExample(page, name) {
  const n = await renders(page);
  await page.selectOption("#example", name);
  await settled(page, n);
}

async function setText(page, text) {
  const n = await renders(page);
  await page.fill("#text", text);
  await settled(page, n);
}

// ------------------------------------------------------------------ the checks

const server = await serve(site);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const context = await browser.newContext({ viewport: { width: 1440, height: 860 } });
const page = await context.newPage();
page.on("pageerror", (e) => check(false, "no error in the page", String(e)));
page.on("dialog", (d) => d.accept(pendingAnswer));
let pendingAnswer = "";

const examples = JSON.parse(readFileSync(join(site, "examples.json"), "utf8"));

// 1. every example, as the command line renders it
await page.goto(base);
await settled(page, 0);
const t = await page.evaluate(() => ({
  load: performance.getEntriesByType("navigation")[0].loadEventEnd,
  ...window.playground,
}));
console.log(
  `timings (ms after navigation): page loaded ${t.load.toFixed(0)}, engine compiled ${t.compiled.toFixed(0)}, ` +
    `worker ready ${t.workerReady.toFixed(0)}, first example (${examples[0].name}) shown ${t.firstRender.toFixed(0)} ` +
    `(${(t.firstRender - t.load).toFixed(0)} after load; ${t.firstEngineMs.toFixed(1)} in the engine)`,
);

for (const ex of examples) {
  await selectExample(page, ex.name);
  const shown = await pageState(page);
  const expected = cli(ex.files, ex.options);
  check(
    Buffer.from(shown.stdout).equals(expected.stdout),
    `example ${ex.name}: output as the CLI's, byte for byte`,
    `page:\n${shown.stdout}\ncli:\n${expected.stdout}`,
  );
  if (expected.code === 0) {
    check(shown.problem === null && shown.state === "done", `example ${ex.name}: renders`, shown.problem);
  } else {
    check(shown.problem === expected.stderr.trimEnd(), `example ${ex.name}: the CLI's error, word for word`, `page:\n${shown.problem}\ncli:\n${expected.stderr}`);
  }
  if (shown.textFiles.length) {
    const files = cli(ex.files, ex.options, ["--output-files", "OUT"]).outputs;
    check(
      JSON.stringify(shown.textFiles) === JSON.stringify(Object.values(files).filter((_, i) => Object.keys(files)[i].endsWith(".txt"))),
      `example ${ex.name}: text outputs as --output-files writes them`,
    );
  }
  if (shots && ex.name === "web-app") await page.screenshot({ path: join(shots, "playground.png") });
  if (shots && ex.name === "web-app-openapi") await page.screenshot({ path: join(shots, "playground-schema.png") });
}

// 2. a mistake, typed: the diagnostic on its line
await selectExample(page, "deployment");
await openFile(page, "config.yml");
const text = await page.inputValue("#text");
const line = text.split("\n").findIndex((l) => l.startsWith("  replicas: #@")) + 1;
let n = await renders(page);
await caretAtEndOf(page, line);
await page.keyboard.type(" +");
await settled(page, n);
let marked = await page.evaluate(() => ({
  lines: [...document.querySelectorAll("#marks .mark-line")].map((m) => Number(m.dataset.line)),
  message: document.querySelector("#marks .mark-message")?.textContent ?? null,
  gutter: [...document.querySelectorAll("#gutter .bad")].map((s) => s.textContent.trim()),
}));
let shown = await pageState(page);
check(shown.state === "failed", "a typed mistake fails the render");
check(marked.lines[0] === line && marked.gutter.includes(String(line)), `the mistake is marked on line ${line}`, JSON.stringify(marked));
check(!!marked.message, "the message is beside the line", JSON.stringify(marked));
n = await renders(page);
await page.keyboard.press("Backspace");
await page.keyboard.press("Backspace");
await settled(page, n);
check((await pageState(page)).state === "done", "undoing the mistake renders again");

// a YAML syntax error: the column is marked too
await setText(page, "a: 1\nb: [1, @2]\nc: 3\n");
marked = await page.evaluate(() => ({
  line: Number(document.querySelector("#marks .mark-line")?.dataset.line),
  column: !!document.querySelector("#marks .mark-col"),
}));
const yamlErr = cli([{ path: "config.yml", text: "a: 1\nb: [1, @2]\nc: 3\n" }, ...examples.find((e) => e.name === "deployment").files.filter((f) => f.path !== "config.yml")], {});
const yamlLine = Number(/config\.yml:(\d+)/.exec(yamlErr.stderr)?.[1] ?? /line (\d+)/.exec(yamlErr.stderr)?.[1]);
check(marked.line === yamlLine && marked.column, `a YAML error is marked on the CLI's line (${yamlLine}) with its column`, JSON.stringify({ marked, stderr: yamlErr.stderr }));

// 3. a broken validation, clicked through from the report
await selectExample(page, "web-app");
await openFile(page, "values/production.yml");
const values = await page.inputValue("#text");
const replicasLine = values.split("\n").findIndex((l) => l.startsWith("replicas:")) + 1;
n = await renders(page);
await caretAtEndOf(page, replicasLine);
await page.keyboard.type("0");
await settled(page, n);
shown = await pageState(page);
const ex = examples.find((e) => e.name === "web-app");
const files = ex.files.map((f) => (f.path === "values/production.yml" ? { ...f, text: values.replace(/^replicas: (\d+)$/m, "replicas: $10") } : f));
const expected = cli(files, ex.options);
check(shown.problem === expected.stderr.trimEnd(), "the validation report is the CLI's", `page:\n${shown.problem}\ncli:\n${expected.stderr}`);
const rule = /replicas\n\s+from: \S+\n\s+- must be: .*\(by: (\S+):(\d+)\)/.exec(expected.stderr);
const item = page.locator("#violations li", { hasText: "replicas" });
check((await item.count()) === 1, "the report lists the rejected value");
if (shots) {
  await page.screenshot({ path: join(shots, "playground-validation.png") });
}
await item.locator("a", { hasText: "rule " }).click();
check(
  (await pageState(page)).file === "config/schema.yml" && String(await selectedLine(page)) === rule[2],
  `clicking the rule opens config/schema.yml at line ${rule[2]} (the CLI's "by:")`,
);
await item.locator("a", { hasText: "value " }).click();
check(
  (await pageState(page)).file === "values/production.yml" && (await selectedLine(page)) === replicasLine,
  `clicking the value opens values/production.yml at line ${replicasLine}`,
);
check(
  await page.evaluate((l) => !!document.querySelector(`#marks .mark-line.focus[data-line="${l}"]`), replicasLine),
  "the value's line is marked",
);

// 4. schema export, in every type
for (const type of ["openapi-v3", "json-schema", "markdown"]) {
  n = await renders(page);
  await page.selectOption("#o-inspect", "schema");
  await page.selectOption("#o-schema-type", type);
  await settled(page, n);
  const out = await pageState(page);
  const cliOut = cli(files, { inspect: "schema", schema_type: type });
  check(cliOut.code === 0 && Buffer.from(out.stdout).equals(cliOut.stdout), `schema export as ${type}, as the CLI's`, out.stdout.slice(0, 400));
}
check((await pageState(page)).stdout.length > 0, "the export is shown");
n = await renders(page);
await page.selectOption("#o-schema-type", "openapi-v3");
await settled(page, n);
check((await pageState(page)).stdout.startsWith("openapi: 3.0.0\n"), "OpenAPI export shown");

// 5. a shared URL opens the same state
await page.click("#share");
await page.waitForFunction(() => !document.getElementById("share-url").hidden);
const url = await page.inputValue("#share-url");
check(url.includes("#s="), "sharing puts the state in the address");
const before = await pageState(page);
const opts = await page.evaluate(() => [...document.querySelectorAll("#options select, #options input, #options textarea")].map((e) => (e.type === "checkbox" ? e.checked : e.value)));
const other = await context.newPage();
await other.goto(url);
await settled(other, 0);
const after = await pageState(other);
const otherOpts = await other.evaluate(() => [...document.querySelectorAll("#options select, #options input, #options textarea")].map((e) => (e.type === "checkbox" ? e.checked : e.value)));
check(JSON.stringify(after.files) === JSON.stringify(before.files) && after.stdout === before.stdout && JSON.stringify(opts) === JSON.stringify(otherOpts), "the shared address opens the same files, options and output");
await other.close();

// 6. files: add, rename, delete
n = await renders(page);
await page.selectOption("#o-inspect", "none");
await settled(page, n);
await selectExample(page, "basics");
pendingAnswer = "extra.yml";
await page.click("#add-file");
await setText(page, "extra: true\n");
check((await pageState(page)).stdout.startsWith("extra: true\n---\n"), "an added file is rendered (first: files are in path order)");
pendingAnswer = "zz/extra.yml";
n = await renders(page);
await page.click("#rename-file");
await settled(page, n);
check(JSON.stringify((await pageState(page)).files) === JSON.stringify(["values.yml", "zz/extra.yml"]) && (await pageState(page)).stdout.endsWith("---\nextra: true\n"), "a renamed file keeps its text under its new path");
n = await renders(page);
await page.click("#delete-file");
await settled(page, n);
shown = await pageState(page);
check(JSON.stringify(shown.files) === JSON.stringify(["values.yml"]) && !shown.stdout.includes("extra"), "a deleted file is gone from the run");

// 7. a loop that does not end, and a runaway allocation, are stopped; the page renders again
await openFile(page, "values.yml");
const started = Date.now();
n = await renders(page);
await page.fill("#text", "#@ for i in range(2000000000):\n#@   for j in range(2000000000):\n#@   end\n#@ end\na: 1\n");
await page.waitForTimeout(1000);
// while the engine loops, the page answers and takes typing
const t0 = Date.now();
await page.fill("#o-values", "a=1");
const answered = await page.evaluate(() => [document.body.dataset.state, document.getElementById("o-values").value]);
check(answered[0] === "rendering" && answered[1] === "a=1" && Date.now() - t0 < 1000, `the page stays responsive while the engine loops (answered in ${Date.now() - t0} ms)`, JSON.stringify(answered));
await page.fill("#o-values", "");
await settled(page, n);
shown = await pageState(page);
check(shown.state === "stopped" && /stopped/.test(shown.problem), `an endless loop is stopped (after ${Date.now() - started} ms)`, JSON.stringify(shown));
await setText(page, "a: 1\n");
shown = await pageState(page);
check(shown.state === "done" && shown.stdout === "a: 1\n", "after a stop, the next edit renders");
// under the bound on repetition (2^30 elements), past what 32 bits address
await setText(page, "#@ x = [1] * 1000000000\na: 1\n");
shown = await pageState(page);
check(shown.state === "stopped" && /memory/.test(shown.problem), "a runaway allocation is stopped", JSON.stringify(shown));
await setText(page, "b: 2\n");
check((await pageState(page)).stdout === "b: 2\n", "after it, the next edit renders");

// 8. code nests as deep as the engine allows in a browser (`template::MAX_NESTING` on
// wasm32, 512 levels: the Worker's own stack is the limit there), never into a trap
const deep = (n) => `#@ x = ${"(".repeat(n)}1${")".repeat(n)}\nv: #@ x\n`;
const nested = [
  ["brackets", deep(512)],
  ["lambdas", `#@ x = (${"lambda: ".repeat(102)}1)${"()".repeat(102)}\nv: #@ x\n`],
  ["blocks", `${"#@ if True:\n".repeat(170)}v: 1\n${"#@ end\n".repeat(170)}`],
];
for (const [what, text] of nested) {
  await setText(page, text);
  shown = await pageState(page);
  const expected = cli([{ path: "values.yml", text }], {});
  check(shown.state === "done" && shown.stdout === expected.stdout.toString(), `${what} nested to the limit render as the CLI renders them`, JSON.stringify(shown).slice(0, 300));
}
await setText(page, deep(513));
shown = await pageState(page);
check(shown.state === "failed" && /expression is nested too deeply \(more than 512 levels\)/.test(shown.problem), "one level more is an error on its line, not a trap", JSON.stringify(shown).slice(0, 300));

// 9. hover and completion: the language server's own answers, in the editor
// the hover's markdown, as HTML: blocks, inline markup, and nothing unescaped
const md = markdownToHtml("`a<b>`: *map*\n\n```yaml\nx: <i>&\n```\nset by:\n1. **one** `f.yml:2`\n2. two\n\n- <script>\n---\nend's");
check(
  md === '<p><code>a&lt;b&gt;</code>: <em>map</em></p>\n<pre><code class="language-yaml">x: &lt;i&gt;&amp;</code></pre>\n<p>set by:</p>\n<ol><li><strong>one</strong> <code>f.yml:2</code></li><li>two</li></ol>\n<ul><li>&lt;script&gt;</li></ul>\n<hr>\n<p>end&#39;s</p>',
  "the hover's markdown is rendered, and escaped",
  md,
);
// the protocol's positions: UTF-16 columns, as a textarea's offsets
const utf = "a: 1\nb: 😀x\n";
check(JSON.stringify(positionOf(utf, utf.indexOf("x"))) === '{"line":1,"character":5}' && offsetOf(utf, { line: 1, character: 5 }) === utf.indexOf("x") && offsetOf(utf, { line: 0, character: 99 }) === 4, "positions are the protocol's (UTF-16 columns)");
await selectExample(page, "web-app");
await openFile(page, "config/app.yml");
const assisted = examples.find((e) => e.name === "web-app");
const lineOf = (path, prefix) => assisted.files.find((f) => f.path === path).text.split("\n").findIndex((l) => l.startsWith(prefix)) + 1;
const inspected = cli(assisted.files, { inspect: "data-values" }).stdout.toString();
const listed = () => page.evaluate(() => {
  const list = document.getElementById("completions");
  return list.hidden ? null : [...list.querySelectorAll("[role=option]")].map((o) => o.querySelector(".label").textContent);
});
const textLine = async (l) => (await page.inputValue("#text")).split("\n")[l - 1];
// typing `.` after data.values lists the schema's keys at the caret
await caretAtEndOf(page, 4);
n = await renders(page);
await page.keyboard.type("\n#@ r = data.values.");
await page.waitForFunction(() => !document.getElementById("completions").hidden);
const keys = ["name", "env", "replicas", "image", "port", "tls"];
let items = await listed();
check(JSON.stringify([...items].sort()) === JSON.stringify([...keys].sort()), "typing `data.values.` lists the schema's keys", JSON.stringify(items));
const a11y = await page.evaluate(() => {
  const ta = document.getElementById("text");
  const active = document.getElementById(ta.getAttribute("aria-activedescendant"));
  return { role: document.getElementById("completions").getAttribute("role"), active: active?.getAttribute("aria-selected"), activeRole: active?.getAttribute("role") };
});
check(a11y.role === "listbox" && a11y.active === "true" && a11y.activeRole === "option", "the list is a listbox whose active option the editor names", JSON.stringify(a11y));
await page.keyboard.press("Escape");
check((await listed()) === null, "Escape closes the list");
await page.keyboard.press("Control+Space");
await page.waitForFunction(() => !document.getElementById("completions").hidden);
check((await listed()).length === keys.length, "Ctrl+Space after `data.values.` lists them again");
await page.keyboard.type("re");
items = await listed();
check(JSON.stringify(items) === JSON.stringify(["replicas"]), "the list filters as you type", JSON.stringify(items));
await page.keyboard.press("Enter");
await settled(page, n);
check((await textLine(5)) === "#@ r = data.values.replicas" && (await listed()) === null, "Enter inserts the key", await textLine(5));
shown = await pageState(page);
check(shown.state === "done" && Buffer.from(shown.stdout).equals(cli(assisted.files, {}).stdout), "the run renders again after the completion");
n = await renders(page);
await page.keyboard.press("Control+z");
await settled(page, n);
check((await textLine(5)) === "#@ r = data.values.re", "undo takes the completion back", await textLine(5));
await page.keyboard.press("Control+Space");
await page.waitForFunction(() => !document.getElementById("completions").hidden);
await page.keyboard.press("ArrowDown");
await page.keyboard.press("ArrowUp");
n = await renders(page);
await page.keyboard.press("Tab");
await settled(page, n);
check((await textLine(5)) === "#@ r = data.values.replicas", "Tab accepts too", await textLine(5));

/** Rests the mouse on character `col` of `line` (from 1) of the editor; the tooltip's text. */
async function hoverAt(line, col) {
  await page.evaluate((l) => {
    document.getElementById("editor").scrollTop = Math.max(0, (l - 3) * 20);
  }, line);
  const at = await page.evaluate(charPoint, [line, col]);
  // after the scroll's event, which closes a tooltip
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  await page.mouse.move(at.x - 30, at.y);
  await page.mouse.move(at.x, at.y);
  await page.waitForSelector("#hover:not([hidden])", { timeout: 5000 });
  return page.evaluate(() => {
    const tip = document.getElementById("hover");
    return { text: tip.textContent, role: tip.getAttribute("role"), code: [...tip.querySelectorAll("pre")].map((p) => p.textContent), set: [...tip.querySelectorAll("ol li")].map((li) => li.textContent) };
  });
}
// hover on the read: the final value, and what set it in order
let tip = await hoverAt(5, "#@ r = data.values.rep".length);
const finalReplicas = /^replicas: (.*)$/m.exec(inspected)[1];
const setBy = [`schema default, config/schema.yml:${lineOf("config/schema.yml", "replicas:")}`, `data values, values/production.yml:${lineOf("values/production.yml", "replicas:")}`];
check(tip.role === "tooltip" && tip.code[0] === `${finalReplicas}` && JSON.stringify(tip.set) === JSON.stringify(setBy), `hover on data.values.replicas shows its final value (${finalReplicas}, as --data-values-inspect) and what set it`, JSON.stringify(tip));
await page.mouse.move(5, 5);
await page.waitForSelector("#hover", { state: "hidden" });
// hover on an @ytt: module's function: its signature
n = await renders(page);
await page.keyboard.type("\n#@ x = data.list()");
await settled(page, n);
tip = await hoverAt(6, "#@ x = data.li".length);
check(/list\(/.test(tip.code.join("\n")) && tip.text.length > 20, "hover on data.list shows its signature and doc", JSON.stringify(tip));
if (shots) await page.screenshot({ path: join(shots, "playground-hover.png") });
await page.mouse.move(5, 5);

await browser.close();
server.close();
console.log("browser test: all checks passed");
