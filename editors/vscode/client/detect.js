// Which documents are ytt: the rule, with no dependency on VS Code (tests run it as is).
//
// VS Code picks a document's language by its name (and a first-line pattern); every
// `.yaml` is not a ytt template, and what makes one is inside it. So the extension opens
// YAML and text files as VS Code says, and switches them to a ytt language when this
// rule says so:
//
// - a YAML file (`.yml`, `.yaml`) is `ytt` when a line of it starts (after indentation,
//   or after `key:`, `- ` or `---`) with `#@` or `#!`; or when it is under a `_ytt_lib/`
//   directory; or when a `ytt-lsp.toml` is in its directory or above it (up to its
//   workspace folder), or the `ytt.projectFile` setting names a project file in its
//   directory or above it;
// - a `.txt` file is `ytt-text` when it holds `(@`;
// - `.star` files are `starlark` by their name (package.json).
'use strict';

const PROJECT_FILE = 'ytt-lsp.toml';

/** A line that starts with `#@` or `#!`, or a value (after `key:`, `- ` or `---`) that is
 * `#@ …`. */
const YTT_LINE = /^(?:---[ \t]+|[ \t]*(?:(?:-[ \t]+)?(?:[^#\s][^\n]*?:[ \t]+|-[ \t]+))?)#[@!]/m;
const TEXT_TEMPLATE = /\(@/;

function extension(path) {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

/** Whether the text of a YAML file is a ytt template. */
function isYttText(text) {
  return YTT_LINE.test(text);
}

/** The directories from `path`'s own up to `top` (inclusive; to the root without one). */
function directoriesUp(path, top) {
  const dirs = [];
  let dir = path.slice(0, path.lastIndexOf('/')) || '/';
  for (;;) {
    dirs.push(dir);
    if (dir === top || dir === '/' || dir === '') break;
    dir = dir.slice(0, dir.lastIndexOf('/')) || '/';
  }
  return dirs;
}

/**
 * The ytt language for a document, or null to leave it as it is.
 * doc: {path (with '/' separators), languageId, text}
 * where: {folder: the workspace folder holding it (or null), projectFile: the
 *   `ytt.projectFile` setting as an absolute path (or null), exists(path) → boolean}
 */
function languageFor(doc, where) {
  const ext = extension(doc.path);
  if (doc.languageId === 'plaintext' && ext === '.txt') {
    return TEXT_TEMPLATE.test(doc.text) ? 'ytt-text' : null;
  }
  if (doc.languageId !== 'yaml' || (ext !== '.yml' && ext !== '.yaml')) return null;
  if (isYttText(doc.text) || doc.path.includes('/_ytt_lib/')) return 'ytt';
  const dirs = directoriesUp(doc.path, where.folder || null);
  const chosen = where.projectFile;
  if (chosen && dirs.includes(chosen.slice(0, chosen.lastIndexOf('/')) || '/')) return 'ytt';
  if (dirs.some((dir) => where.exists(`${dir === '/' ? '' : dir}/${PROJECT_FILE}`))) return 'ytt';
  return null;
}

module.exports = { languageFor, isYttText, directoriesUp, PROJECT_FILE };
