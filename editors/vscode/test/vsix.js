// Checks a built .vsix: what it must hold (the manifest, README, licence, the client, every
// grammar and language configuration package.json names), what it must not (the tests,
// the packaging's and the tests' dependencies, type declarations, source maps), its size,
// and that the client it ships loads with the dependencies it ships.
//   node test/vsix.js ytt.vsix
'use strict';
const assert = require('node:assert');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Module = require('node:module');

const MAX_BYTES = 400 * 1024;
const MAX_FILES = 300;

const vsix = path.resolve(process.argv[2] || 'ytt.vsix');
const root = path.join(__dirname, '..');
const manifest = require(path.join(root, 'package.json'));
const lock = require(path.join(root, 'package-lock.json'));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ytt-vsix-'));
try {
  execFileSync('python3', ['-m', 'zipfile', '-e', vsix, dir]);
  const files = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files.push(path.relative(dir, p).split(path.sep).join('/'));
    }
  };
  walk(dir);
  const has = new Set(files);

  const required = [
    'extension.vsixmanifest',
    'extension/package.json',
    'extension/readme.md',
    'extension/LICENSE.txt',
    `extension/${path.posix.normalize(manifest.main)}`,
    'extension/client/detect.js',
    ...manifest.contributes.grammars.map((g) => `extension/${path.posix.normalize(g.path)}`),
    ...manifest.contributes.languages.map((l) => `extension/${path.posix.normalize(l.configuration)}`),
  ];
  for (const f of required) assert.ok(has.has(f), `${f} is missing from ${vsix}`);

  // the packages only the tests and the packaging use, by package-lock.json
  const dev = Object.entries(lock.packages)
    .filter(([p, info]) => p && info.dev)
    .map(([p]) => `extension/${p}/`);
  for (const f of files) {
    assert.ok(!f.startsWith('extension/test/') && f !== 'extension/build', `${f}: a test or the build script in the package`);
    assert.ok(!dev.some((d) => f.startsWith(d)), `${f}: a development dependency in the package`);
    assert.ok(!/\.(d\.ts|map)$/.test(f), `${f}: a type declaration or source map in the package`);
  }
  const size = fs.statSync(vsix).size;
  assert.ok(size <= MAX_BYTES, `${vsix} is ${size} bytes, over ${MAX_BYTES}`);
  assert.ok(files.length <= MAX_FILES, `${vsix} holds ${files.length} files, over ${MAX_FILES}`);
  const packaged = JSON.parse(fs.readFileSync(path.join(dir, 'extension/package.json'), 'utf8'));
  assert.deepStrictEqual(packaged.contributes, manifest.contributes);

  // the shipped client loads, with the language client it ships (VS Code's API stood in)
  const inert = new Proxy(function () {}, {
    get: (t, k) => (k in t ? t[k] : (t[k] = new Proxy(function () {}, this))),
  });
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (req, ...rest) {
    return req === 'vscode' ? 'vscode' : resolve.call(this, req, ...rest);
  };
  require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: inert };
  const client = require(path.join(dir, 'extension', manifest.main));
  assert.strictEqual(typeof client.activate, 'function');
  const lc = Object.keys(require.cache).find((k) => k.includes(`${path.sep}vscode-languageclient${path.sep}`));
  assert.ok(lc && lc.startsWith(dir), `the language client was not loaded from the package: ${lc}`);
  console.log(`${path.basename(vsix)}: ${files.length} files, ${(size / 1024).toFixed(0)} KiB: ok`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
