//! Go `encoding/json` style output: map keys sorted, HTML-safe escaping, Go float format.

use std::fmt::Write as _;

use super::float::write_float_json;
use super::EmitError;
use crate::yaml::node::{DocSet, Map, Node};

/// `-o json`: every document marshalled compactly, concatenated with no separator and
/// no trailing newline.
pub fn json_docset(ds: &DocSet, out: &mut String) -> Result<(), EmitError> {
    super::split::append(out, json_texts(ds)?);
    Ok(())
}

/// [`json_docset`] in parts to be written one after the other (see `yaml_texts`).
pub fn json_texts(ds: &DocSet) -> Result<Vec<String>, EmitError> {
    super::split::write_docs(&ds.docs, |docs, _, out| {
        for doc in docs {
            let mut w = JsonWriter {
                out,
                indent: 0,
                escape_html: true,
            };
            w.value(&doc.value, 0)?;
        }
        Ok(())
    })
}

/// `json.encode(v, indent=N, escape_html=...)`: keys sorted; with `indent > 0` laid out
/// like Go's `MarshalIndent(v, "", N spaces)`; no trailing newline.
pub fn json_value(n: &Node, indent: usize, escape_html: bool) -> Result<String, EmitError> {
    let mut out = String::new();
    let mut w = JsonWriter {
        out: &mut out,
        indent,
        escape_html,
    };
    w.value(n, 0)?;
    Ok(out)
}

struct JsonWriter<'a> {
    out: &'a mut String,
    indent: usize,
    escape_html: bool,
}

impl JsonWriter<'_> {
    fn newline(&mut self, depth: usize) {
        if self.indent > 0 {
            self.out.push('\n');
            for _ in 0..depth * self.indent {
                self.out.push(' ');
            }
        }
    }

    fn value(&mut self, n: &Node, depth: usize) -> Result<(), EmitError> {
        match n {
            Node::Null => self.out.push_str("null"),
            Node::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Node::Int(i) => {
                let _ = write!(self.out, "{i}");
            }
            Node::Float(f) => {
                if !f.is_finite() {
                    return Err(EmitError::UnsupportedFloat(
                        super::float::format_float_yaml(*f),
                    ));
                }
                write_float_json(self.out, *f);
            }
            Node::Str(s) => write_json_string(self.out, s, self.escape_html),
            Node::Array(a) => {
                if a.items.is_empty() {
                    self.out.push_str("[]");
                    return Ok(());
                }
                self.out.push('[');
                for (i, item) in a.items.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.newline(depth + 1);
                    self.value(&item.value, depth + 1)?;
                }
                self.newline(depth);
                self.out.push(']');
            }
            Node::Map(m) => {
                let entries = sorted_entries(m)?;
                if entries.is_empty() {
                    self.out.push_str("{}");
                    return Ok(());
                }
                self.out.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.newline(depth + 1);
                    write_json_string(self.out, k, self.escape_html);
                    self.out.push(':');
                    if self.indent > 0 {
                        self.out.push(' ');
                    }
                    self.value(v, depth + 1)?;
                }
                self.newline(depth);
                self.out.push('}');
            }
        }
        Ok(())
    }
}

/// Map entries sorted by key (byte order, as Go sorts map keys); for a repeated key the
/// last value wins, as when building a Go map.
fn sorted_entries(m: &Map) -> Result<Vec<(&str, &Node)>, EmitError> {
    let mut entries = Vec::with_capacity(m.items.len());
    for item in &m.items {
        match &item.key {
            Node::Str(s) => entries.push((s.as_str(), &item.value)),
            other => return Err(EmitError::NonStringKey(describe_key(other))),
        }
    }
    // stable: equal keys keep their order, so the last one of a run is the last written
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries.dedup_by(|later, earlier| {
        if later.0 == earlier.0 {
            *earlier = *later;
            true
        } else {
            false
        }
    });
    Ok(entries)
}

fn describe_key(k: &Node) -> String {
    match k {
        Node::Null => "null".to_owned(),
        Node::Bool(b) => b.to_string(),
        Node::Int(i) => i.to_string(),
        Node::Float(f) => super::float::format_float_yaml(*f),
        Node::Str(s) => s.to_string(),
        Node::Map(_) => "(map)".to_owned(),
        Node::Array(_) => "(array)".to_owned(),
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// A JSON string as Go's encoder writes it.
pub(crate) fn write_json_string(out: &mut String, s: &str, escape_html: bool) {
    if crate::bytestr::may_carry(s) {
        match crate::bytestr::as_utf8(s) {
            Ok(std::borrow::Cow::Borrowed(_)) => {}
            // a reserved char of the input, not a carried byte
            Ok(std::borrow::Cow::Owned(t)) => return write_json_utf8(out, &t, escape_html),
            Err(bytes) => {
                // Go writes each byte that is not part of UTF-8 as `\ufffd`
                out.push('"');
                for chunk in bytes.utf8_chunks() {
                    let mut valid = String::new();
                    write_json_utf8(&mut valid, chunk.valid(), escape_html);
                    out.push_str(&valid[1..valid.len() - 1]);
                    for _ in chunk.invalid() {
                        out.push_str("\\ufffd");
                    }
                }
                out.push('"');
                return;
            }
        }
    }
    write_json_utf8(out, s, escape_html);
}

fn write_json_utf8(out: &mut String, s: &str, escape_html: bool) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let esc: Option<&str> = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            '\x08' => Some("\\b"),
            '\x0c' => Some("\\f"),
            '\u{2028}' => Some("\\u2028"),
            '\u{2029}' => Some("\\u2029"),
            '<' | '>' | '&' if escape_html => None,
            c if (c as u32) < 0x20 => None,
            _ => continue,
        };
        out.push_str(&s[start..i]);
        match esc {
            Some(e) => out.push_str(e),
            None => {
                let v = c as u32 as u8;
                out.push_str("\\u00");
                out.push(HEX[(v >> 4) as usize] as char);
                out.push(HEX[(v & 0xF) as usize] as char);
            }
        }
        start = i + c.len_utf8();
    }
    out.push_str(std::str::from_utf8(&bytes[start..]).unwrap_or(""));
    out.push('"');
}
