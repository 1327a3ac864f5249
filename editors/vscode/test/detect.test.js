// The rule for which files are ytt (client/detect.js), on the shapes it must tell apart.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { languageFor, isYttText } = require('../client/detect');

const none = { folder: '/w', projectFile: null, exists: () => false };
const yaml = (path, text) => ({ path, languageId: 'yaml', text });

test('a YAML file is ytt when a line starts with #@ or #!, or a value (or a document) is #@ code', () => {
  for (const text of [
    '#@ load("@ytt:data", "data")\na: 1\n',
    'a: 1\n#! only a ytt comment\n',
    'a:\n  #@overlay/match by="name"\n  b: 1\n',
    'replicas: #@ data.values.replicas\n',
    'list:\n- #@ 1 + 1\n',
    'list:\n  - name: #@ data.values.name\n',
    '\t#@ end\n',
    '--- #@ template.replace(data.values.extra)\n',
    '--- #@overlay/match by=overlay.all\nkind: x\n',
  ]) {
    assert.ok(isYttText(text), JSON.stringify(text));
    assert.strictEqual(languageFor(yaml('/w/config/app.yml', text), none), 'ytt');
  }
});

test('plain YAML stays YAML: #@ in a comment, a string or a scalar is not ytt', () => {
  for (const text of [
    'a: 1\n',
    '# a comment that mentions #@ annotations\n',
    'a: "#@ in a string"\n',
    "a: '#! in a string'\n",
    'url: http://example.com/#@x\n',
    'a: b # c #@ d\n',
    'script: |\n  echo "#@"\n',
    '--- # a comment about #@\n',
    '',
  ]) {
    assert.ok(!isYttText(text), JSON.stringify(text));
    assert.strictEqual(languageFor(yaml('/w/config/app.yml', text), none), null);
  }
});

test('a file under _ytt_lib/, or in a project (ytt-lsp.toml at or above it, up to its folder), is ytt', () => {
  assert.strictEqual(languageFor(yaml('/w/_ytt_lib/lib/values.yml', 'a: 1\n'), none), 'ytt');
  const project = { ...none, exists: (p) => p === '/w/app/ytt-lsp.toml' };
  assert.strictEqual(languageFor(yaml('/w/app/values/prod.yml', 'a: 1\n'), project), 'ytt');
  assert.strictEqual(languageFor(yaml('/w/app/prod.yaml', 'a: 1\n'), project), 'ytt');
  assert.strictEqual(languageFor(yaml('/w/other/prod.yml', 'a: 1\n'), project), null);
  // above the workspace folder, no project file is looked for
  const above = { ...none, folder: '/w/app', exists: (p) => p === '/w/ytt-lsp.toml' };
  assert.strictEqual(languageFor(yaml('/w/app/prod.yml', 'a: 1\n'), above), null);
  // the project file the `ytt.projectFile` setting names
  const chosen = { ...none, projectFile: '/w/deploy/staging.toml' };
  assert.strictEqual(languageFor(yaml('/w/deploy/values/staging.yml', 'a: 1\n'), chosen), 'ytt');
  assert.strictEqual(languageFor(yaml('/w/config/app.yml', 'a: 1\n'), chosen), null);
});

test('only YAML files and text files are switched', () => {
  assert.strictEqual(languageFor({ path: '/w/a.json', languageId: 'json', text: '#@ x' }, none), null);
  // a YAML document of another name (a workflow opened as YAML by an association) stays
  assert.strictEqual(languageFor({ path: '/w/Dockerfile', languageId: 'yaml', text: '#@ x' }, none), null);
  assert.strictEqual(languageFor({ path: '/w/a.txt', languageId: 'plaintext', text: 'x = (@= 1 @)\n' }, none), 'ytt-text');
  assert.strictEqual(languageFor({ path: '/w/a.txt', languageId: 'plaintext', text: 'plain text\n' }, none), null);
  assert.strictEqual(languageFor({ path: '/w/a.md', languageId: 'plaintext', text: '(@' }, none), null);
});
