//! `ytt fmt -f FILE…`: re-emit YAML templates with their comments.
//!
//! Layout rules (as the reference's formatter): block style only; sequences indented
//! under their key; own-line comments printed before their item, with a blank line
//! before every commented item that is not the first of its collection; trailing
//! comments after the item's value with one space; a `null` value with a trailing comment
//! prints nothing; every document after the first starts with a blank line, its comments
//! and `---`; comments after the last node end the output as a last `---` document.
//! Scalars are written as the YAML emitter writes them. Non-YAML files are skipped.

use std::sync::Arc;

use anyhow::{anyhow, Result};

use super::flags::FmtFlags;
use super::output::write_stdout;
use crate::files::{self, FileKind, SourceOptions};
use crate::yaml::emit::yaml_node;
use crate::yaml::parser::{parse, ParseOptions};
use crate::yaml::{Comment, DocSet, Map, Meta, Node};

pub fn run(flags: &FmtFlags) -> Result<()> {
    let start = std::time::Instant::now();
    let sources = files::collect(&flags.files, &SourceOptions::default())?;
    let mut out = String::new();
    for f in sources {
        if FileKind::from_path(&f.rel_path) != FileKind::YamlTemplate {
            continue;
        }
        let text = String::from_utf8_lossy(&f.data);
        let name: Arc<str> = Arc::from(f.rel_path.as_str());
        let opts = ParseOptions {
            strict: flags.strict,
            ..ParseOptions::default()
        };
        let ds = parse(&text, &name, &opts)
            .map_err(|e| anyhow!("Unmarshaling YAML template '{}': {e}", f.rel_path))?;
        format_docset(&ds, &text, &mut out);
    }
    write_stdout(out.as_bytes())?;
    if flags.debug {
        eprintln!("total: {:?}", start.elapsed());
    }
    Ok(())
}

/// Formats one file's documents (`src` is the file's text, to tell explicit `---` starts).
pub fn format_docset(ds: &DocSet, src: &str, out: &mut String) {
    let starts_with_doc_marker = src.starts_with("---");
    let lines: Vec<&str> = src.lines().collect();
    let mut f = Formatter { out };
    for (i, doc) in ds.docs.iter().enumerate() {
        let line = doc.meta.pos.line as usize;
        let explicit = line > 0 && lines.get(line - 1).is_some_and(|l| l.starts_with("---"));
        // The reference puts `---\n` in front of a file that does not start with one: that
        // implicit first document is the only one printed without a header.
        let header = i > 0 || (explicit && !starts_with_doc_marker);
        let (own, trailing) = split_comments(&doc.meta);
        if header {
            f.out.push('\n');
            f.own_comments(&own, 0);
            f.out.push_str("---");
            f.trailing_comments(&trailing);
            f.out.push('\n');
        } else {
            f.own_comments(&own, 0);
        }
        f.value_block(&doc.value, 0);
    }
    if !ds.meta.comments.is_empty() {
        let comments: Vec<&Comment> = ds.meta.comments.iter().collect();
        f.out.push('\n');
        f.own_comments(&comments, 0);
        f.out.push_str("---\n");
    }
}

fn split_comments(meta: &Meta) -> (Vec<&Comment>, Vec<&Comment>) {
    meta.comments.iter().partition(|c| c.own_line)
}

struct Formatter<'a> {
    out: &'a mut String,
}

impl Formatter<'_> {
    fn indent(&mut self, n: usize) {
        self.out.extend(std::iter::repeat_n(' ', n));
    }

    fn own_comments(&mut self, comments: &[&Comment], indent: usize) {
        for c in comments {
            self.indent(indent);
            self.out.push('#');
            self.out.push_str(c.text.trim_end());
            self.out.push('\n');
        }
    }

    fn trailing_comments(&mut self, comments: &[&Comment]) {
        for c in comments {
            self.out.push_str(" #");
            self.out.push_str(c.text.trim_end());
        }
    }

    /// A document value at the start of a line.
    fn value_block(&mut self, v: &Node, indent: usize) {
        match v {
            Node::Null => {}
            Node::Map(m) if !m.items.is_empty() => self.map(m, indent, false),
            Node::Array(a) if !a.items.is_empty() => self.array(&a.items, indent, false),
            _ => {
                self.indent(indent);
                self.scalar(v, indent);
                self.out.push('\n');
            }
        }
    }

    /// Writes a scalar (or empty collection) at the current position; continuation lines
    /// of block scalars are indented under `indent`.
    fn scalar(&mut self, v: &Node, indent: usize) {
        let text = yaml_node(v);
        let text = text.strip_suffix('\n').unwrap_or(&text);
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                self.out.push('\n');
                if !line.is_empty() {
                    self.indent(indent);
                }
            }
            self.out.push_str(line);
        }
    }

    /// Map items at `indent`; with `inline`, the first item continues the current line
    /// (after `- `).
    fn map(&mut self, m: &Map, indent: usize, mut inline: bool) {
        for (i, item) in m.items.iter().enumerate() {
            let (own, trailing) = split_comments(&item.meta);
            if !own.is_empty() {
                if inline {
                    self.out.push('\n');
                    inline = false;
                } else if i > 0 {
                    self.out.push('\n');
                }
                self.own_comments(&own, indent);
            }
            if !inline {
                self.indent(indent);
            }
            inline = false;
            self.scalar(&item.key, indent);
            self.out.push(':');
            self.item_value(&item.value, &trailing, indent, indent + 2, false);
        }
    }

    fn array(&mut self, items: &[crate::yaml::ArrayItem], indent: usize, mut inline: bool) {
        for (i, item) in items.iter().enumerate() {
            let (own, trailing) = split_comments(&item.meta);
            if !own.is_empty() {
                if inline {
                    self.out.push('\n');
                    inline = false;
                } else if i > 0 {
                    self.out.push('\n');
                }
                self.own_comments(&own, indent);
            }
            if !inline {
                self.indent(indent);
            }
            inline = false;
            self.out.push('-');
            self.item_value(&item.value, &trailing, indent, indent + 2, true);
        }
    }

    /// The value of a map item (after `key:`) or array item (after `-`), then the end of
    /// the line and any nested lines.
    fn item_value(
        &mut self,
        v: &Node,
        trailing: &[&Comment],
        indent: usize,
        nested: usize,
        in_array: bool,
    ) {
        match v {
            Node::Map(m) if !m.items.is_empty() => {
                if in_array && trailing.is_empty() {
                    self.out.push(' ');
                    self.map(m, nested, true);
                } else {
                    self.trailing_comments(trailing);
                    self.out.push('\n');
                    self.map(m, nested, false);
                }
            }
            Node::Array(a) if !a.items.is_empty() => {
                if in_array && trailing.is_empty() {
                    self.out.push(' ');
                    self.array(&a.items, nested, true);
                } else {
                    self.trailing_comments(trailing);
                    self.out.push('\n');
                    self.array(&a.items, nested, false);
                }
            }
            Node::Null if !trailing.is_empty() => {
                self.trailing_comments(trailing);
                self.out.push('\n');
            }
            _ => {
                self.out.push(' ');
                self.scalar(v, indent);
                self.trailing_comments(trailing);
                self.out.push('\n');
            }
        }
    }
}
