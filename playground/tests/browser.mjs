// The playground's browser test: serves the built site on localhost, drives Debian's
// chromium with playwright-core, and checks the page against the `ytt` binary.
//   node playground/tests/browser.mjs SITE_DIR YTT_BINARY [--screenshots DIR]
// Exits 1 on the first failed check. Timings are printed, not asserted.

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { dirname, extname, join } from "node:path";
import { chromium } from "playwright-core";
import { cliArgs } from "../site/flags.js";

const [site, ytt] = process.argv.slice(2);
const shotsAt = process.argv.indexOf("--screenshots");
const shots = shotsAt > 0 ? process.argv[shotsAt + 1] : null;
if (!site || !ytt) {
  console.error("usage: browser.mjs SITE_DIR YTT_BINARY [--screenshots DIR]");
  process.exit(2);
}

// ------------------------------------------------------------------ helpers

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".wasm": "application/wasm" };

function serve(dir) {
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const file = join(dir, path.endsWith("/") ? `${path}index.html` : path);
    try {
      const body = readFileSync(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(server)));
}

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

await browser.close();
server.close();
console.log("browser test: all checks passed");
