// Hover and completion in the editor (a plain textarea). The answers are the language
// server's own (the worker's `hover` and `complete`, ytt_lsp::features over the last
// render); this module finds the position they are asked at and shows them: a tooltip
// for the mouse resting on a character, a list at the caret for completion.

import { markdownToHtml } from "./markdown.js";

/** How long the mouse rests on a character before its hover is asked for. */
const HOVER_MS = 300;
/** The textarea's tab stops (style.css `tab-size`). */
const TAB = 4;

/** The protocol's position of `offset` in `text`: a line from 0 and a column in UTF-16
 * units (a JavaScript string's own). */
export function positionOf(text, offset) {
  const before = text.slice(0, offset);
  const start = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length - 1, character: offset - start };
}

/** The offset in `text` of a protocol position (clamped to its line). */
export function offsetOf(text, { line, character }) {
  let start = 0;
  for (let l = 0; l < line; l++) {
    const nl = text.indexOf("\n", start);
    if (nl < 0) return text.length;
    start = nl + 1;
  }
  const end = text.indexOf("\n", start);
  return Math.min(start + character, end < 0 ? text.length : end);
}

/** The screen column where `offset` of its line starts (tabs to their stop). */
function visualColumn(line, offset) {
  let col = 0;
  for (let i = 0; i < offset; i++) col = line[i] === "\t" ? col + TAB - (col % TAB) : col + 1;
  return col;
}

/** `{value}`, a string, or a list of them: the hover's markdown. */
function hoverMarkdown(contents) {
  if (typeof contents === "string") return contents;
  if (Array.isArray(contents)) return contents.map(hoverMarkdown).join("\n\n");
  if (contents.language) return `\`\`\`${contents.language}\n${contents.value}\n\`\`\``;
  return contents.value ?? "";
}

/**
 * Hover and completion on `ta`:
 * - `ask(kind, at)`: the worker's answer ("hover" or "complete") at `{path, text, line,
 *   character}`, or null;
 * - `path()`: the file in the editor;
 * - `metrics()`: `{line, pad, char}` — the line height, the padding and a character's
 *   width, in pixels.
 * Returns `reset()`, for when the editor's file changes under it.
 */
export function attach({ ta, ask, path, metrics }) {
  const tip = document.getElementById("hover");
  const list = document.getElementById("completions");

  /** The screen point where character `offset` of the text starts. */
  function pointOf(offset) {
    const { line, pad, char } = metrics();
    const rect = ta.getBoundingClientRect();
    const pos = positionOf(ta.value, offset);
    const lineText = ta.value.split("\n")[pos.line] ?? "";
    return {
      left: rect.left + pad + visualColumn(lineText, pos.character) * char - ta.scrollLeft,
      top: rect.top + pad + pos.line * line - ta.scrollTop,
    };
  }

  /** The offset of the character under a screen point, or null past a line's end. */
  function offsetAt(x, y) {
    const { line, pad, char } = metrics();
    const rect = ta.getBoundingClientRect();
    const row = Math.floor((y - rect.top - pad + ta.scrollTop) / line);
    const col = (x - rect.left - pad + ta.scrollLeft) / char;
    const lines = ta.value.split("\n");
    if (row < 0 || row >= lines.length || col < 0) return null;
    let start = 0;
    for (let l = 0; l < row; l++) start += lines[l].length + 1;
    let vc = 0;
    for (let i = 0; i < lines[row].length; i++) {
      vc = lines[row][i] === "\t" ? vc + TAB - (vc % TAB) : vc + 1;
      if (col < vc) return start + i;
    }
    return null;
  }

  // ------------------------------------------------------------ hover

  let hoverTimer = null;
  let hoverAt = null; // the offset the mouse rests on

  function hideTip() {
    clearTimeout(hoverTimer);
    hoverAt = null;
    tip.hidden = true;
    ta.removeAttribute("aria-describedby");
  }

  async function showHover(offset) {
    const text = ta.value;
    const file = path();
    const answer = await ask("hover", { path: file, text, ...positionOf(text, offset) });
    if (hoverAt !== offset || ta.value !== text || path() !== file || !answer) return;
    const markdown = hoverMarkdown(answer.contents).trim();
    if (!markdown) return;
    tip.innerHTML = markdownToHtml(markdown);
    tip.hidden = false;
    ta.setAttribute("aria-describedby", "hover");
    // below the hovered line, from its range's start; above it when there is no room
    const { line } = metrics();
    const from = answer.range ? offsetOf(text, answer.range.start) : offset;
    const at = pointOf(from);
    const box = tip.getBoundingClientRect();
    const below = at.top + line + 2;
    tip.style.top = `${below + box.height > innerHeight && at.top - box.height - 2 > 0 ? at.top - box.height - 2 : below}px`;
    tip.style.left = `${Math.max(4, Math.min(at.left, innerWidth - box.width - 8))}px`;
  }

  ta.addEventListener("mousemove", (e) => {
    const offset = offsetAt(e.clientX, e.clientY);
    if (offset === hoverAt) return;
    hideTip();
    if (offset === null) return;
    hoverAt = offset;
    hoverTimer = setTimeout(() => showHover(offset), HOVER_MS);
  });
  ta.addEventListener("mouseleave", hideTip);
  ta.addEventListener("keydown", hideTip);
  ta.closest(".editor")?.addEventListener("scroll", () => {
    hideTip();
    closeList();
  });

  // ------------------------------------------------------------ completion

  let comp = null; // {items, text, caret, anchor, shown, active}
  let asked = 0;

  function closeList() {
    asked++;
    comp = null;
    list.hidden = true;
    list.replaceChildren();
    ta.removeAttribute("aria-activedescendant");
    ta.setAttribute("aria-expanded", "false");
  }

  /** The range an item replaces (in the text it was asked on), if it says. */
  const editRange = (item) => item.textEdit?.range ?? item.textEdit?.replace ?? null;

  async function openList() {
    // at the end of a selection (undo selects what it restores)
    if (ta.selectionStart !== ta.selectionEnd) ta.setSelectionRange(ta.selectionEnd, ta.selectionEnd);
    const text = ta.value;
    const caret = ta.selectionStart;
    const file = path();
    const mine = ++asked;
    const answer = await ask("complete", { path: file, text, ...positionOf(text, caret) });
    // the text before the caret as it was: what is typed since only filters
    if (mine !== asked || path() !== file || ta.value.slice(0, caret) !== text.slice(0, caret)) return;
    const items = (Array.isArray(answer) ? answer : answer?.items) ?? [];
    if (!items.length) return closeList();
    const range = items.map(editRange).find(Boolean);
    let anchor = caret;
    if (range) anchor = offsetOf(text, range.start);
    else while (anchor > 0 && /[\w\-/@:.]/.test(text[anchor - 1]) && text[anchor - 1] !== ".") anchor--;
    comp = { items, text, caret, anchor, shown: [], active: 0 };
    filter();
  }

  /** Shows the items that start with what is typed since the list opened. */
  function filter() {
    const caret = ta.selectionStart;
    const typed = ta.value.slice(comp.anchor, caret);
    if (caret < comp.anchor || ta.selectionEnd !== caret || /[\s"'(),[\]{}=]/.test(typed)) return closeList();
    const low = typed.toLowerCase();
    comp.shown = comp.items.filter((i) => (i.filterText ?? i.label).toLowerCase().startsWith(low));
    comp.active = 0;
    drawList();
  }

  function drawList() {
    list.replaceChildren(
      ...comp.shown.map((item, i) => {
        const li = document.createElement("li");
        li.id = `completion-${i}`;
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", String(i === comp.active));
        const label = document.createElement("span");
        label.className = "label";
        label.textContent = item.label;
        li.append(label);
        if (item.detail) {
          const detail = document.createElement("span");
          detail.className = "detail";
          detail.textContent = item.detail;
          li.append(detail);
        }
        li.addEventListener("mousedown", (e) => {
          e.preventDefault(); // the editor keeps the focus
          accept(item);
        });
        return li;
      }),
    );
    list.hidden = !comp.shown.length;
    ta.setAttribute("aria-expanded", String(!list.hidden));
    if (list.hidden) {
      ta.removeAttribute("aria-activedescendant");
      return;
    }
    ta.setAttribute("aria-activedescendant", `completion-${comp.active}`);
    const at = pointOf(comp.anchor);
    list.style.left = `${at.left}px`;
    list.style.top = `${at.top + metrics().line}px`;
    list.children[comp.active]?.scrollIntoView({ block: "nearest" });
  }

  /** Applies `item`: its edit (stretched over what was typed since), or its label. */
  function accept(item) {
    const caret = ta.selectionStart;
    const range = editRange(item);
    const from = range ? offsetOf(comp.text, range.start) : comp.anchor;
    const after = range ? Math.max(0, offsetOf(comp.text, range.end) - comp.caret) : 0;
    const text = item.textEdit?.newText ?? item.insertText ?? item.label;
    closeList();
    ta.focus();
    ta.setSelectionRange(from, caret + after);
    // as typing does: undo takes it back, and the input event renders again
    if (!document.execCommand("insertText", false, text)) {
      ta.setRangeText(text, from, caret + after, "end");
      ta.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertReplacementText" }));
    }
  }

  ta.addEventListener("keydown", (e) => {
    if (e.ctrlKey && (e.code === "Space" || e.key === " ")) {
      e.preventDefault();
      openList();
      return;
    }
    if (!comp || list.hidden) return;
    const n = comp.shown.length;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      comp.active = (comp.active + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
      drawList();
    } else if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      accept(comp.shown[comp.active]);
    } else if (e.key === "Escape") {
      e.preventDefault();
      closeList();
    }
  });

  ta.addEventListener("input", (e) => {
    hideTip();
    const before = ta.value.slice(0, ta.selectionStart);
    // what opens the list as it is typed: a member's `.`, an annotation's `#@`, a load's path
    if (e.inputType === "insertText" && /(?:[\w)\]]\.|#@|load\(\s*")$/.test(before)) {
      // the list of what was before the `.` goes at once
      closeList();
      openList();
    } else if (comp) filter();
  });
  ta.addEventListener("blur", closeList);
  ta.addEventListener("mousedown", closeList);

  return () => {
    hideTip();
    closeList();
  };
}
