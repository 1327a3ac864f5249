// Tokenizes text with the extension's grammars as VS Code does: vscode-textmate and
// vscode-oniguruma, the grammars and injections that package.json contributes, and the
// YAML grammar VS Code's own YAML grammar stands for (from tm-grammars).
'use strict';
const fs = require('fs');
const path = require('path');
const textmate = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const root = path.join(__dirname, '..');
const manifest = require(path.join(root, 'package.json'));

// VS Code's own YAML grammar since 1.9x (RedCMD's, several files) is not on npm: the
// 2017 one it replaced stands for it, and YTT_YAML_GRAMMARS=DIR reads the newer one's
// files (yaml.tmLanguage.json, yaml-1.2.tmLanguage.json, ...) from DIR instead, to run
// the assertions on it by hand (the listings are the older grammar's).
const external = process.env.YTT_YAML_GRAMMARS
  ? Object.fromEntries(
      fs.readdirSync(process.env.YTT_YAML_GRAMMARS)
        .filter((f) => f.endsWith('.tmLanguage.json'))
        .map((f) => path.join(process.env.YTT_YAML_GRAMMARS, f))
        .map((f) => [JSON.parse(fs.readFileSync(f, 'utf8')).scopeName, f]),
    )
  : { 'source.yaml': require.resolve('tm-grammars/grammars/yaml.json') };

const registries = new Map();
let onigLib;

/** The regular expressions' engine (WebAssembly), loaded once. */
function onig() {
  if (!onigLib) {
    const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
    const bytes = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength);
    onigLib = oniguruma.loadWASM(bytes).then(() => ({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }));
  }
  return onigLib;
}

/** A registry of the grammars; `injections` false leaves the injection grammars out. */
function load(injections = true) {
  if (registries.has(injections)) return registries.get(injections);
  const grammars = manifest.contributes.grammars;
  const files = { ...external };
  const injected = {};
  for (const g of grammars) {
    files[g.scopeName] = path.join(root, g.path);
    if (!injections) continue;
    for (const target of g.injectTo || []) (injected[target] ||= []).push(g.scopeName);
  }
  const registry = new textmate.Registry({
    onigLib: onig(),
    loadGrammar: async (scopeName) => {
      const file = files[scopeName];
      if (!file) return null;
      return textmate.parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
    },
    getInjections: (scopeName) => injected[scopeName],
  });
  registries.set(injections, registry);
  return registry;
}

/** The scope a language's documents start from. */
function scopeOf(language) {
  if (language === 'yaml') return 'source.yaml';
  const g = manifest.contributes.grammars.find((g) => g.language === language);
  if (!g) throw new Error(`no grammar for language ${language}`);
  return g.scopeName;
}

/** Each line of `text` as a list of tokens: {text, scopes} (the root scope left out). */
async function tokenize(language, text, { injections = true } = {}) {
  const grammar = await load(injections).loadGrammar(scopeOf(language));
  let stack = textmate.INITIAL;
  const out = [];
  for (const line of text.replace(/\n$/, '').split('\n')) {
    const r = grammar.tokenizeLine(line, stack);
    stack = r.ruleStack;
    out.push({
      line,
      tokens: r.tokens.map((t) => ({
        text: line.slice(t.startIndex, t.endIndex),
        scopes: t.scopes.slice(1),
      })),
    });
  }
  return out;
}

/** The tokens, neighbours with the same scopes as one (grammars split where a capture
 * ends, which no theme shows). */
function merge(tokens) {
  const merged = [];
  for (const t of tokens) {
    const last = merged[merged.length - 1];
    if (last && last.scopes.join(' ') === t.scopes.join(' ')) last.text += t.text;
    else if (t.text !== '') merged.push({ ...t });
  }
  return merged;
}

/** A readable listing: each line, then its tokens with their scopes (neighbours with the
 * same scopes as one). */
function render(lines) {
  let s = '';
  for (const { line, tokens } of lines) {
    s += `> ${line}\n`;
    for (const t of merge(tokens)) s += `  ${JSON.stringify(t.text)}  ${t.scopes.join(' ') || '-'}\n`;
  }
  return s;
}

module.exports = { tokenize, render, merge };
