// The README's picture of hover in the playground: a template's read of a data value
// that the schema's default and a data-values file set, with the mouse resting on it.
// Run by hand after playground/build (see CONTRIBUTING.md):
//   node playground/tests/screenshot.mjs target/playground docs/hover.png

import { readFileSync } from "node:fs";
import { deflateRawSync } from "node:zlib";
import { chromium } from "playwright-core";
import { charPoint, serve } from "./page.mjs";

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

const server = await serve(site);

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
const at = await page.evaluate(charPoint, [HOVERED.line, HOVERED.text.length]);
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
