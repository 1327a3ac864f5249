//! The `-o pos` format: every row shows where a node came from.
//!
//! ```text
//!           tpl.yml:50 | [doc]
//!                      |   test1
//!            tpl.yml:5 | [doc]
//!            tpl.yml:6 |   clients:
//!            tpl.yml:7 |     [0]
//!           tpl.yml:14 |       needsSecret: false
//! ```
//!
//! The gutter holds `file:line` right-aligned; rows without a known position (a scalar
//! document value, computed nodes) get a blank gutter. The gutter width is the longest
//! `file:line` of the output plus 10 (matches every recorded case).

use std::fmt::Write as _;

use super::float::write_float_go_v;
use crate::yaml::node::{DocSet, FileNames, Node, Pos};

const GUTTER_PAD: usize = 10;

/// `names`: the file names of the run that made `ds`.
pub fn pos_docset(ds: &DocSet, names: &FileNames, out: &mut String) {
    let mut max_len = 0usize;
    for doc in &ds.docs {
        max_len = max_len.max(pos_len(names, &doc.meta.pos));
        max_pos_len(names, &doc.value, &mut max_len);
    }
    let mut p = PosPrinter {
        names,
        out,
        width: max_len + GUTTER_PAD,
    };
    for doc in &ds.docs {
        p.row(&doc.meta.pos, 0);
        p.out.push_str("[doc]\n");
        if doc.value.is_scalar() {
            p.row(&Pos::unknown(), 1);
            write_go_v(p.out, &doc.value);
            p.out.push('\n');
        } else {
            p.children(&doc.value, 1);
        }
    }
}

fn pos_len(names: &FileNames, p: &Pos) -> usize {
    match names.name(p.file) {
        Some(f) if p.is_known() => f.chars().count() + 1 + decimal_len(p.line),
        _ => 0,
    }
}

fn decimal_len(mut n: u32) -> usize {
    let mut l = 1;
    while n >= 10 {
        n /= 10;
        l += 1;
    }
    l
}

fn max_pos_len(names: &FileNames, n: &Node, max: &mut usize) {
    match n {
        Node::Map(m) => {
            for i in &m.items {
                *max = (*max).max(pos_len(names, &i.meta.pos));
                max_pos_len(names, &i.value, max);
            }
        }
        Node::Array(a) => {
            for i in &a.items {
                *max = (*max).max(pos_len(names, &i.meta.pos));
                max_pos_len(names, &i.value, max);
            }
        }
        _ => {}
    }
}

struct PosPrinter<'a> {
    names: &'a FileNames,
    out: &'a mut String,
    width: usize,
}

impl PosPrinter<'_> {
    /// The gutter and the indentation of a row.
    fn row(&mut self, pos: &Pos, depth: usize) {
        let len = pos_len(self.names, pos);
        for _ in len..self.width {
            self.out.push(' ');
        }
        if len > 0 {
            if let Some(f) = self.names.name(pos.file) {
                let _ = write!(self.out, "{f}:{}", pos.line);
            }
        }
        self.out.push_str(" | ");
        for _ in 0..depth {
            self.out.push_str("  ");
        }
    }

    fn children(&mut self, n: &Node, depth: usize) {
        match n {
            Node::Map(m) => {
                for item in &m.items {
                    self.row(&item.meta.pos, depth);
                    write_go_v(self.out, &item.key);
                    self.out.push(':');
                    if item.value.is_scalar() {
                        self.out.push(' ');
                        write_go_v(self.out, &item.value);
                        self.out.push('\n');
                    } else {
                        self.out.push('\n');
                        self.children(&item.value, depth + 1);
                    }
                }
            }
            Node::Array(a) => {
                for (i, item) in a.items.iter().enumerate() {
                    self.row(&item.meta.pos, depth);
                    let _ = write!(self.out, "[{i}]");
                    if item.value.is_scalar() {
                        self.out.push(' ');
                        write_go_v(self.out, &item.value);
                    }
                    self.out.push('\n');
                    if !item.value.is_scalar() {
                        self.children(&item.value, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }
}

/// A scalar as Go's `%v` prints it.
fn write_go_v(out: &mut String, n: &Node) {
    match n {
        Node::Null => out.push_str("<nil>"),
        Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Node::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Node::Float(f) => write_float_go_v(out, *f),
        Node::Str(s) => out.push_str(s),
        Node::Map(_) | Node::Array(_) => {}
    }
}
