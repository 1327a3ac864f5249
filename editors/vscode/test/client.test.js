// The client module loads and does its job against a stand-in for VS Code's API (`vscode`
// exists only inside the editor): it starts `ytt lsp` with the settings, switches ytt
// documents to the ytt language, restarts on the command. The real
// vscode-languageclient is loaded too, to know the package's dependency resolves.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const Module = require('module');
const path = require('path');

/** A stand-in whose properties not given are inert functions returning more of it. */
function inert(given = {}) {
  const handler = {
    get: (t, k) => (k in t ? t[k] : (t[k] = new Proxy(function () {}, handler))),
    apply: () => new Proxy(function () {}, handler),
    construct: () => new Proxy({}, handler),
  };
  return new Proxy(Object.assign(function () {}, given), handler);
}

/** Loads `request` with the modules in `stubs` standing in for theirs. */
function loadWith(stubs, request) {
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (req, ...rest) {
    return req in stubs ? `stub:${req}` : resolve.call(this, req, ...rest);
  };
  for (const [name, exports] of Object.entries(stubs)) {
    require.cache[`stub:${name}`] = { id: name, filename: name, loaded: true, exports };
  }
  try {
    const file = require.resolve(request);
    delete require.cache[file];
    return require(file);
  } finally {
    Module._resolveFilename = resolve;
    for (const name of Object.keys(stubs)) delete require.cache[`stub:${name}`];
  }
}

test('the real vscode-languageclient loads', () => {
  const lc = loadWith({ vscode: inert() }, 'vscode-languageclient/node');
  assert.strictEqual(typeof lc.LanguageClient, 'function');
  assert.strictEqual(lc.TransportKind.stdio, 0);
});

function fakeEditor(settings) {
  const commands = {};
  const languages = [];
  const clients = [];
  const listeners = {};
  const uri = (p) => ({ scheme: 'file', path: p, fsPath: p, toString: () => `file://${p}` });
  const vscode = inert({
    Uri: { file: uri, from: ({ path: p }) => uri(p) },
    workspace: inert({
      workspaceFolders: [{ uri: uri('/w'), name: 'w', index: 0 }],
      textDocuments: [
        { uri: uri('/w/config/app.yml'), languageId: 'yaml', getText: () => 'a: #@ 1\n' },
        { uri: uri('/w/notes.yml'), languageId: 'yaml', getText: () => 'a: 1\n' },
      ],
      getConfiguration: () => ({ get: (k) => settings[k] }),
      getWorkspaceFolder: () => ({ uri: uri('/w') }),
      onDidOpenTextDocument: (f) => (listeners.open = f),
      onDidCloseTextDocument: (f) => (listeners.close = f),
    }),
    languages: inert({
      // as VS Code does: the document is opened again in its new language
      setTextDocumentLanguage: async (doc, id) => {
        languages.push([doc.uri.path, id]);
        const reopened = { ...doc, languageId: id };
        await listeners.open?.(reopened);
        return reopened;
      },
    }),
    commands: inert({ registerCommand: (id, f) => (commands[id] = f) }),
  });
  class LanguageClient {
    constructor(id, name, server, options) {
      Object.assign(this, { id, server, options, started: 0, stopped: 0 });
      clients.push(this);
    }
    async start() { this.started++; }
    async stop() { this.stopped++; }
  }
  const lc = { LanguageClient, TransportKind: { stdio: 0 } };
  const extension = loadWith({ vscode, 'vscode-languageclient/node': lc }, path.join(__dirname, '../client/extension.js'));
  return { extension, commands, languages, clients, listeners };
}

test('activation: ytt documents switched, `ytt lsp` started with the settings, restart', async () => {
  const settings = {
    path: 'bin/ytt', projectFile: 'deploy/staging.toml', timeLimitMs: 100, maxMemoryMiB: 64,
    debounceMs: 10, detect: true,
  };
  const { extension, commands, languages, clients, listeners } = fakeEditor(settings);
  await extension.activate({ subscriptions: [] });
  assert.deepStrictEqual(languages, [['/w/config/app.yml', 'ytt']]);
  // turned back to YAML by the user (closed and opened again at once): left so
  const appUri = { scheme: 'file', path: '/w/config/app.yml', fsPath: '/w/config/app.yml', toString: () => 'file:///w/config/app.yml' };
  listeners.close({ uri: appUri, languageId: 'ytt' });
  await listeners.open({ uri: appUri, languageId: 'yaml', getText: () => '#@ x' });
  assert.strictEqual(languages.length, 1);
  // another file, closed, then opened later: switched as any
  const other = { scheme: 'file', path: '/w/config/b.yml', fsPath: '/w/config/b.yml', toString: () => 'file:///w/config/b.yml' };
  listeners.close({ uri: other, languageId: 'ytt' });
  await new Promise((resolve) => setTimeout(resolve, 5));
  await listeners.open({ uri: other, languageId: 'yaml', getText: () => '#@ x' });
  assert.deepStrictEqual(languages[1], ['/w/config/b.yml', 'ytt']);
  assert.strictEqual(clients.length, 1);
  const [client] = clients;
  assert.deepStrictEqual(client.server, { command: path.join('/w', 'bin/ytt'), args: ['lsp'], transport: 0 });
  assert.deepStrictEqual(client.options.initializationOptions, {
    timeLimitMs: 100, maxMemoryMiB: 64, debounceMs: 10, projectFile: path.join('/w', 'deploy/staging.toml'),
  });
  const languagesServed = client.options.documentSelector.map((s) => s.language || s.pattern);
  assert.deepStrictEqual(languagesServed, ['ytt', 'ytt-text', 'starlark', '**/ytt-lsp.toml', '/w/deploy/staging.toml']);
  assert.strictEqual(client.started, 1);
  await commands['ytt.restartServer']();
  assert.strictEqual(client.stopped, 1);
  assert.strictEqual(clients.length, 2);
  assert.strictEqual(clients[1].started, 1);
});

test('no ytt document, no server until asked; a name on PATH stays a name; no project file, none sent', async () => {
  const { extension, commands, clients, languages } = fakeEditor({ path: 'ytt', projectFile: '', timeLimitMs: 5000, maxMemoryMiB: 1024, debounceMs: 200, detect: false });
  // ytt.detect off: documents keep their language, and none is ytt
  await extension.activate({ subscriptions: [] });
  assert.strictEqual(clients.length, 0);
  await commands['ytt.restartServer']();
  assert.strictEqual(clients[0].server.command, 'ytt');
  assert.ok(!('projectFile' in clients[0].options.initializationOptions));
  assert.deepStrictEqual(languages, []);
});
