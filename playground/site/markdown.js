// The little markdown the language server's hovers are written in, as HTML: fenced code
// blocks, paragraphs, lists (`-` and `1.`), rules (`---`), and inline `code`, **strong**
// and *emphasis*. Every character of the text is escaped: no HTML passes through.

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** A line's inline markup: code spans first (nothing inside them is markup). */
function inline(text) {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) =>
      i % 2
        ? `<code>${escapeHtml(part.slice(1, -1))}</code>`
        : escapeHtml(part)
            .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
            .replace(/(^|[^*\w])\*([^*\s](?:[^*]*[^*\s])?)\*(?![*\w])/g, "$1<em>$2</em>"),
    )
    .join("");
}

const ITEM = /^\s*(?:[-*]|(\d+)\.)\s+(.*)$/;

/** The HTML of `markdown`. */
export function markdownToHtml(markdown) {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const out = [];
  let paragraph = [];
  let list = null; // {tag, items}
  const flush = () => {
    if (paragraph.length) out.push(`<p>${paragraph.map(inline).join("\n")}</p>`);
    paragraph = [];
    if (list) out.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(i)}</li>`).join("")}</${list.tag}>`);
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*```(\S*)\s*$/.exec(line);
    if (fence) {
      flush();
      const code = [];
      for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]); i++) code.push(lines[i]);
      const lang = fence[1] ? ` class="language-${escapeHtml(fence[1])}"` : "";
      out.push(`<pre><code${lang}>${escapeHtml(code.join("\n"))}</code></pre>`);
      continue;
    }
    if (/^\s*$/.test(line)) {
      flush();
      continue;
    }
    if (/^\s*(?:---+|\*\*\*+)\s*$/.test(line)) {
      flush();
      out.push("<hr>");
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      const tag = item[1] ? "ol" : "ul";
      if (paragraph.length || (list && list.tag !== tag)) flush();
      list ??= { tag, items: [] };
      list.items.push(item[2]);
      continue;
    }
    if (list && /^\s+\S/.test(line)) {
      // a list item's continuation
      list.items[list.items.length - 1] += ` ${line.trim()}`;
      continue;
    }
    if (list) flush();
    paragraph.push(line);
  }
  flush();
  return out.join("\n");
}
