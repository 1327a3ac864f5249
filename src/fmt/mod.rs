//! `ytt fmt`: a YAML template rewritten in one canonical layout, as the reference's
//! formatter writes it.
//!
//! The formatter prints the parsed node tree (`crate::yaml`), which holds what the
//! reference keeps of a file — documents, key order, values, and every comment with its
//! kind (own-line or trailing) and owner — and none of what it drops. The rules, derived
//! from the recorded cases (`fmt-generated/`, `filetests-yamlfmt/`):
//!
//! Kept
//! - every comment, its text unchanged but for trailing blanks: own-line comments go
//!   above their item at the item's indentation (annotations such as `#@overlay/match`
//!   stay on the node they annotate), trailing comments follow the item's value after
//!   one space;
//! - key order, duplicate keys (an explicit key repeating one merged by `<<` is a second
//!   item), document order, and every document, empty ones included (but for an empty
//!   first one, see below).
//!
//! Normalised
//! - blank lines are not kept: one blank line goes before an item that has own-line
//!   comments (unless it is the first of its map or array), and before the next item
//!   printed after such an item is complete, unless it would fall into a `|+` block
//!   scalar's value (`printer.rs`);
//! - indentation is two spaces per level; sequences are indented under their key;
//!   a map or array inside an array item starts on the `-` line;
//! - flow collections are written in block style; anchors, aliases and merge keys are
//!   expanded; values are written as the YAML output writes them (quoting, block scalars
//!   for multi-line strings, YAML 1.1 resolution: `On` → `true`, `0755` → `493`);
//! - documents: every document is written after `---` (with its trailing comment),
//!   except that the output never starts with a bare `---`; so the first document goes
//!   without it unless comments come before it; comments after the last node end the
//!   output as one more document (`printer.rs`);
//! - a null value prints as `null`, except after a key or `-` with a trailing comment
//!   (`key: #@ expr`), where nothing is printed, and as a document (a bare `---`);
//! - a trailing comment follows a block scalar's indicator (`key: | # c`), where it
//!   cannot become part of the text.
//!
//! Lost, as in the reference (see `docs/compatibility.md`)
//! - an empty map or array (`{}`, `[]`) prints nothing, so it reads back as null;
//! - keys are written with Go's `%s` (`key.rs`): strings unquoted (`"on"` → `on`),
//!   other scalars as Go's verb error (`0755:` → `%!s(int=493):`).

mod printer;

#[cfg(test)]
mod tests;

use crate::yaml::parser::{parse, ParseOptions, YamlError};
use crate::yaml::FileId;

/// Formats one file's text (its lines matter, not its name).
pub fn format_text(src: &str, opts: &ParseOptions) -> Result<String, YamlError> {
    let ds = parse(src, FileId::default(), opts)?;
    let mut out = String::with_capacity(src.len() + src.len() / 8);
    printer::print(&ds, &mut out);
    Ok(out)
}
