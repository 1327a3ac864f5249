// The README's picture of hover in the playground: a template's read of a data value
// that the schema's default and a data-values file set, with the mouse resting on it.
// Run by hand after playground/build (see CONTRIBUTING.md):
//   node playground/tests/screenshot.mjs target/playground docs/hover.png

import { readFileSync } from "node:fs";
import http from "node:http";
import { extname, join } from "node:path";
import { deflateRawSync } from "node:zlib";
import { chromium } from "playwright-core";

const [site, out] = process.argv.slice(2);
if (!site || !out) {
  console.error("usage: screenshot.mjs SITE_DIR OUT_PNG");
  process.exit(2);
}

const files = [
  {
    path: "config/deployment.yml",
    text: `#@ load("@ytt:data", "data")
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: #@ data.values.app.name
spec:
  replicas: #@ data.values.app.replicas
`,
  },
  {
    path: "config/schema.yml",
    text: `#@data/values-schema
---
app:
  name: shop
  #@schema/title "Replicas"
  #@schema/desc "How many pods the Deployment runs"
  #@schema/validation min=1, max=10
  replicas: 1
`,
  },
  {
    path: "values/production.yml",
    text: `#@data/values
---
app:
  replicas: 3
`,
  },
];
const HOVERED = { line: 8, text: "  replicas: #@ data.values.app.repl" };

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".wasm": "application/wasm" };
const server = http.createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
  const file = join(site, path.endsWith("/") ? `${path}index.html` : path);
  try {
    const body = readFileSync(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));

// the state as the page's Share button writes it
const state = { v: 1, files, options: {}, active: files[0].path };
const fragment = deflateRawSync(JSON.stringify(state)).toString("base64url");

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 640 } });
await page.goto(`http://127.0.0.1:${server.address().port}/#s=${fragment}`);
await page.waitForFunction(() => window.playground?.renders > 0 && window.playground.idle(), null, { timeout: 15000 });
const at = await page.evaluate(({ line, text }) => {
  const ta = document.getElementById("text");
  const r = ta.getBoundingClientRect();
  const probe = document.createElement("span");
  probe.style.font = getComputedStyle(ta).font;
  probe.style.position = "absolute";
  probe.textContent = "0".repeat(10);
  document.body.append(probe);
  const cw = probe.getBoundingClientRect().width / 10;
  probe.remove();
  return { x: r.left + 8 + (text.length - 0.5) * cw, y: r.top + 8 + (line - 0.5) * 20 };
}, HOVERED);
await page.mouse.move(at.x, at.y);
await page.waitForSelector("#hover:not([hidden])", { timeout: 5000 });
// the files, the editor and the tooltip
const clip = await page.evaluate(() => {
  const tip = document.getElementById("hover").getBoundingClientRect();
  const editor = document.getElementById("editor-pane").getBoundingClientRect();
  return { x: 0, y: 0, width: Math.max(editor.right, tip.right + 16), height: tip.bottom + 16 };
});
await page.screenshot({ path: out, clip });
await browser.close();
server.close();
console.log(`${out}: ${readFileSync(out).length} bytes`);
