// The extension: opens the documents that are ytt in the ytt languages (client/detect.js
// says which), and runs the language server, `ytt lsp`, for them.
'use strict';
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');
const { languageFor, isYttText, PROJECT_FILE } = require('./detect');

let client;
let output;
let watcher;
/** The documents the user turned from ytt back to YAML (or text): they stay so. */
const declined = new Set();
/** The document closed last, for the open that follows at once when its language changes. */
let closing = null;

/** The `ytt.projectFile` setting as an absolute path, or null. */
function projectFile() {
  const setting = vscode.workspace.getConfiguration('ytt').get('projectFile');
  if (!setting) return null;
  const folder = vscode.workspace.workspaceFolders?.[0];
  return path.isAbsolute(setting) || !folder ? setting : path.join(folder.uri.fsPath, setting);
}

/** Switches `doc` to a ytt language when the rule says it is ytt. */
async function detect(doc) {
  if (doc.uri.scheme !== 'file' || !vscode.workspace.getConfiguration('ytt').get('detect')) return;
  if (doc.languageId !== 'yaml' && doc.languageId !== 'plaintext') return;
  if (declined.has(doc.uri.toString())) return;
  const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
  const chosen = projectFile();
  const language = languageFor(
    { path: doc.uri.path, languageId: doc.languageId, text: doc.getText() },
    {
      folder: folder ? folder.uri.path : null,
      projectFile: chosen ? vscode.Uri.file(chosen).path : null,
      exists: (p) => fs.existsSync(vscode.Uri.from({ scheme: 'file', path: p }).fsPath),
    },
  );
  if (language) await vscode.languages.setTextDocumentLanguage(doc, language);
}

/** What the server is started with: the `ytt.*` settings it reads. */
function initializationOptions() {
  const config = vscode.workspace.getConfiguration('ytt');
  const options = {
    timeLimitMs: config.get('timeLimitMs'),
    maxMemoryMiB: config.get('maxMemoryMiB'),
    debounceMs: config.get('debounceMs'),
  };
  const chosen = projectFile();
  if (chosen) options.projectFile = chosen;
  return options;
}

/** The binary: `ytt.path`, a relative path starting from the first workspace folder. */
function binary() {
  const setting = vscode.workspace.getConfiguration('ytt').get('path') || 'ytt';
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!setting.includes('/') && !setting.includes('\\')) return setting;
  return path.isAbsolute(setting) || !folder ? setting : path.join(folder.uri.fsPath, setting);
}

function createClient() {
  const chosen = projectFile();
  const documentSelector = [
    { scheme: 'file', language: 'ytt' },
    { scheme: 'file', language: 'ytt-text' },
    { scheme: 'file', language: 'starlark' },
    // the project file: the server reads its unsaved text too, and reports on it
    { scheme: 'file', pattern: `**/${PROJECT_FILE}` },
  ];
  if (chosen) documentSelector.push({ scheme: 'file', pattern: chosen.split(path.sep).join('/') });
  return new LanguageClient(
    'ytt',
    'ytt language server',
    { command: binary(), args: ['lsp'], transport: TransportKind.stdio },
    {
      documentSelector,
      initializationOptions: initializationOptions(),
      outputChannel: output,
      // files a run reads that are not open: the server analyses again what read them
      synchronize: { fileEvents: watcher },
    },
  );
}

/** The documents the server is for: once one is open, the server starts. */
const SERVED = new Set(['ytt', 'ytt-text', 'starlark']);
function served(doc) {
  return doc.uri.scheme === 'file' && (SERVED.has(doc.languageId) || doc.uri.path.endsWith(`/${PROJECT_FILE}`));
}

async function start() {
  client = createClient();
  try {
    await client.start();
  } catch (e) {
    vscode.window.showErrorMessage(
      `ytt: the language server did not start (\`${binary()} lsp\`): ${e.message || e}. ` +
        'Set `ytt.path` to a ytt-rs binary.',
    );
  }
}

async function restart() {
  if (client) {
    const old = client;
    client = undefined;
    try {
      await old.stop();
    } catch {
      // a server that did not start has nothing to stop
    }
  }
  await start();
}

async function activate(context) {
  output = vscode.window.createOutputChannel('ytt');
  watcher = vscode.workspace.createFileSystemWatcher('**/{*.yml,*.yaml,*.star,*.txt,*.json,*.toml}');
  context.subscriptions.push(
    output,
    watcher,
    // a language change closes the document and opens it again at once: a ytt document
    // opened again as YAML is the user's choice
    vscode.workspace.onDidCloseTextDocument((doc) => {
      closing = { uri: doc.uri.toString(), languageId: doc.languageId };
      setTimeout(() => (closing = null), 0);
    }),
    vscode.workspace.onDidOpenTextDocument(async (doc) => {
      const uri = doc.uri.toString();
      if (closing?.uri === uri && SERVED.has(closing.languageId) && !SERVED.has(doc.languageId)) {
        declined.add(uri);
      }
      await detect(doc);
      if (!client && served(doc)) await start();
    }),
    // a YAML file that becomes a template as it is written (the rule's text part only: no
    // file system look-ups as one types)
    vscode.workspace.onDidChangeTextDocument((e) => {
      const doc = e.document;
      if (doc.languageId === 'yaml' && isYttText(doc.getText())) detect(doc);
    }),
    vscode.commands.registerCommand('ytt.restartServer', restart),
    vscode.commands.registerCommand('ytt.showOutput', () => output.show()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('ytt.trace')) return;
      if (client && e.affectsConfiguration('ytt')) restart();
    }),
  );
  // the server starts with the first ytt document (a YAML file switched to ytt comes back
  // through onDidOpenTextDocument)
  const open = [...vscode.workspace.textDocuments];
  await Promise.all(open.map(detect));
  if (!client && open.some(served)) await start();
}

function deactivate() {
  return client?.stop().catch(() => {});
}

module.exports = { activate, deactivate, detect, initializationOptions, binary };
