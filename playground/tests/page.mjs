// What the playground's browser scripts share: serving the built site on localhost, and
// where on the screen a character of the editor is.

import { readFileSync } from "node:fs";
import http from "node:http";
import { extname, join } from "node:path";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".wasm": "application/wasm" };

/** Serves `dir` on a free port of 127.0.0.1; resolves to the listening server. */
export function serve(dir) {
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

/**
 * The middle of character `col` of `line` (both from 1) of the editor, in the page's
 * coordinates (its monospace width measured; 20 px lines, 8 px padding). Runs in the page.
 */
export function charPoint([line, col]) {
  const ta = document.getElementById("text");
  const r = ta.getBoundingClientRect();
  const probe = document.createElement("span");
  probe.style.font = getComputedStyle(ta).font;
  probe.style.position = "absolute";
  probe.textContent = "0".repeat(10);
  document.body.append(probe);
  const cw = probe.getBoundingClientRect().width / 10;
  probe.remove();
  return { x: r.left + 8 + (col - 0.5) * cw, y: r.top + 8 + (line - 0.5) * 20 };
}
