// The grammars, run as VS Code runs them (test/tokenize.js), on the files in
// test/fixtures/: each file's tokens are compared with its listing `<file>.tokens`
// (`UPDATE=1 npm test` writes the listings; read them before committing), and the rules
// that matter are asserted on their own.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const { tokenize, render, merge } = require('./tokenize');

const fixtures = path.join(__dirname, 'fixtures');
const read = (name) => fs.readFileSync(path.join(fixtures, name), 'utf8');

/** The listing of `name` read as `language`, checked against `name.tokens`. */
async function listing(name, language) {
  const lines = await tokenize(language, read(name));
  const got = render(lines);
  const file = path.join(fixtures, `${name}.tokens`);
  if (process.env.UPDATE) fs.writeFileSync(file, got);
  // the listings are the npm YAML grammar's (test/tokenize.js)
  if (process.env.YTT_YAML_GRAMMARS) return lines;
  assert.strictEqual(got, fs.readFileSync(file, 'utf8'), `${name}: tokens differ from ${name}.tokens`);
  return lines;
}

/** The scopes of the first token of line `n` whose text is `text`. */
function scopesOf(lines, n, text) {
  const token = merge(lines[n].tokens).find((t) => t.text === text);
  assert.ok(token, `line ${n + 1} (${lines[n].line}) has no token ${JSON.stringify(text)}`);
  return token.scopes;
}

const has = (scopes, scope) => assert.ok(scopes.some((s) => s.startsWith(scope)), `${scope} not in ${scopes.join(' ')}`);
const hasNot = (scopes, prefix) => assert.ok(!scopes.some((s) => s.startsWith(prefix)), `${prefix} in ${scopes.join(' ')}`);
/** The tokens without the root scope's name, to compare two readings of one text. */
const plain = (lines) => lines.map((l) => l.tokens.map((t) => [t.text, t.scopes.slice(0)]));

test('a template: annotations, code and ytt comments in YAML comments; YAML stays YAML', async () => {
  const lines = await listing('template.yml', 'ytt');
  has(scopesOf(lines, 0, '#@'), 'punctuation.definition.code.ytt');
  has(scopesOf(lines, 0, 'load'), 'keyword.control.import.starlark');
  has(scopesOf(lines, 4, '#!'), 'comment.line.ytt');
  has(scopesOf(lines, 5, '#'), 'comment.line.number-sign.yaml');
  has(scopesOf(lines, 6, 'data/values-schema'), 'entity.name.function.decorator.ytt');
  has(scopesOf(lines, 8, 'min'), 'variable.parameter.ytt');
  has(scopesOf(lines, 11, 'expects'), 'variable.parameter.ytt');
  has(scopesOf(lines, 11, 'subset'), 'entity.name.function.call.starlark');
  // a value's code, after the key
  has(scopesOf(lines, 16, 'name'), 'entity.name.tag.yaml');
  has(scopesOf(lines, 16, '#@'), 'meta.embedded.line.starlark.ytt');
  has(scopesOf(lines, 16, '-web'), 'string.quoted.double.starlark');
  has(scopesOf(lines, 19, 'if'), 'keyword.control.flow.starlark');
  has(scopesOf(lines, 20, ' a Starlark comment'), 'comment.line.number-sign.starlark');
  has(scopesOf(lines, 23, 'end'), 'keyword.control.end.starlark');
  // `for/end`: a loop over the next node only
  has(scopesOf(lines, 25, 'for'), 'keyword.control.flow.starlark');
  has(scopesOf(lines, 25, 'end'), 'keyword.control.end.starlark');
  // not code: a string, a block scalar, a `#@` inside a plain scalar
  hasNot(scopesOf(lines, 27, '#@ in a string, not code'), 'meta.embedded');
  for (const t of lines[29].tokens) hasNot(t.scopes, 'meta.embedded');
  for (const t of lines[30].tokens) hasNot(t.scopes, 'meta.embedded');
});

test('a YAML file with annotations, opened as plain YAML, is coloured as the ytt language colours it', async () => {
  const text = read('template.yml');
  assert.deepStrictEqual(plain(await tokenize('yaml', text)), plain(await tokenize('ytt', text)));
});

test('code over several #@ lines: each line coloured on its own, the YAML after it YAML', async () => {
  const lines = await listing('multi-line-call.yml', 'ytt');
  // carvel-dev/vscode-ytt#2: the arguments and the closing bracket are code, not comments
  for (const n of [5, 6, 7, 9, 10, 11]) {
    for (const t of lines[n].tokens) hasNot(t.scopes, 'comment');
    has(scopesOf(lines, n, '#@'), 'punctuation.definition.code.ytt');
  }
  has(scopesOf(lines, 5, 'arg1'), 'variable.other.starlark');
  has(scopesOf(lines, 7, ')'), 'punctuation.parenthesis.starlark');
  has(scopesOf(lines, 9, 'first'), 'string.quoted.double.starlark');
  has(scopesOf(lines, 11, ']'), 'punctuation.definition.list.starlark');
  has(scopesOf(lines, 14, '#@'), 'punctuation.definition.code.ytt');
  has(scopesOf(lines, 15, '443'), 'constant.numeric.starlark');
  has(scopesOf(lines, 15, ']'), 'punctuation.definition.list.starlark');
  has(scopesOf(lines, 18, 'image'), 'meta.embedded.line.starlark.ytt');
  // YAML right after the code that closed its brackets
  has(scopesOf(lines, 19, 'name'), 'entity.name.tag.yaml');
  has(scopesOf(lines, 24, 'labels'), 'entity.name.tag.yaml');
  has(scopesOf(lines, 25, 'config'), 'meta.embedded.line.starlark.ytt');
  has(scopesOf(lines, 26, 'name'), 'entity.name.tag.yaml');
  has(scopesOf(lines, 26, 'web'), 'string.unquoted.plain.out.yaml');
  has(scopesOf(lines, 30, 'image'), 'variable.other.starlark');
  has(scopesOf(lines, 31, 'name'), 'entity.name.tag.yaml');
  // an unclosed string ends with its line
  has(scopesOf(lines, 32, 'an unclosed string'), 'string.quoted.double.starlark');
  has(scopesOf(lines, 33, 'after'), 'entity.name.tag.yaml');
  for (const t of lines[33].tokens) hasNot(t.scopes, 'meta.embedded');
});

test('plain YAML: the injection changes no token', async () => {
  const text = read('plain.yaml');
  await listing('plain.yaml', 'yaml');
  assert.deepStrictEqual(plain(await tokenize('yaml', text)), plain(await tokenize('yaml', text, { injections: false })));
});

test('a .star file: Starlark with `end`, strings over several lines', async () => {
  const lines = await listing('helpers.star', 'starlark');
  has(scopesOf(lines, 0, 'load'), 'keyword.control.import.starlark');
  has(scopesOf(lines, 3, 'labels'), 'entity.name.function.starlark');
  has(scopesOf(lines, 6, '  Every resource carries them.'), 'string.quoted.triple.starlark');
  has(scopesOf(lines, 8, 'out'), 'variable.other.starlark');
  has(scopesOf(lines, 10, 'len'), 'support.function.builtin.starlark');
  has(scopesOf(lines, 11, 'fail'), 'support.function.builtin.starlark');
  has(scopesOf(lines, 12, 'end'), 'keyword.control.end.starlark');
  has(scopesOf(lines, 16, '0x10'), 'constant.numeric.starlark');
  has(scopesOf(lines, 17, "\\'"), 'constant.character.escape.starlark');
});

test('a text template: Starlark between (@ and @), text around it', async () => {
  const lines = await listing('config.txt', 'ytt-text');
  has(scopesOf(lines, 0, '-@)'), 'punctuation.section.embedded.end.ytt');
  has(scopesOf(lines, 1, '(@='), 'punctuation.section.embedded.begin.ytt');
  assert.deepStrictEqual(scopesOf(lines, 1, 'name = '), []);
  has(scopesOf(lines, 3, 'str'), 'support.function.builtin.starlark');
  hasNot(scopesOf(lines, 3, '  # text, not a comment'), 'comment');
  has(scopesOf(lines, 4, 'end'), 'keyword.control.end.starlark');
  has(scopesOf(lines, 5, ' a Starlark comment '), 'comment.line.number-sign.starlark');
  has(scopesOf(lines, 5, '@)'), 'punctuation.section.embedded.end.ytt');
});

test('text-templated strings in a ytt template', async () => {
  const lines = await listing('text-templated-strings.yml', 'ytt');
  has(scopesOf(lines, 4, '(@='), 'punctuation.section.embedded.begin.ytt');
  has(scopesOf(lines, 4, 'host'), 'meta.embedded.block.starlark.ytt');
  has(scopesOf(lines, 5, 'key'), 'meta.embedded.block.starlark.ytt');
});
