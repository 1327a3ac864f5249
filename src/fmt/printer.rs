//! Writes the documents, item by item.
//!
//! An item is a document, a map item or an array item; its own-line comments go above
//! it, its trailing comments after its value (or after `---`, `key:`, `-` when the value
//! continues on the next lines). Blank lines: one before an item that has own-line
//! comments and is not the first item of its map or array, and one before whatever item
//! is printed next after such an item is complete (its last line, nested items
//! included), so a commented item stands apart on both sides.
//!
//! Documents: each starts with `---` except when that would be the first line of the
//! output with no comment after it: read back, a `---` on the first line starts the
//! first document rather than ending an empty one, so the formatted text is a fixed
//! point. Hence the first document of a file (before any `---`, or the one a `---` on
//! the first line starts) prints without it, unless comments come first. Comments after
//! the file's last node make one more, empty, document at the end.

use crate::yaml::emit::write_key_go;
use crate::yaml::emit::yaml_node;
use crate::yaml::{ArrayItem, Comment, DocSet, MapItem, Meta, Node};

pub(super) fn print(ds: &DocSet, out: &mut String) {
    let mut p = Printer {
        out,
        after_commented: false,
        in_keep_scalar: false,
    };
    for d in &ds.docs {
        p.document(&d.meta.comments, &d.value);
    }
    if !ds.meta.comments.is_empty() {
        p.document(&ds.meta.comments, &Node::Null);
    }
}

struct Printer<'a> {
    out: &'a mut String,
    /// The last item completed had own-line comments.
    after_commented: bool,
    /// The last line written ends a keep-chomped block scalar (`|+`), which would take
    /// a following blank line into its value.
    in_keep_scalar: bool,
}

/// An item's comments: own-line ones (above it) and trailing ones (after its value).
struct Comments<'c> {
    own: Vec<&'c Comment>,
    trailing: Vec<&'c Comment>,
}

impl<'c> Comments<'c> {
    fn of(comments: &'c [Comment]) -> Self {
        let (own, trailing) = comments.iter().partition(|c| c.own_line);
        Comments { own, trailing }
    }
}

/// What a value follows: `---`, `key:` or `-`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum After {
    Document,
    Key,
    Dash,
}

impl Printer<'_> {
    fn indent(&mut self, n: usize) {
        self.out.extend(std::iter::repeat_n(' ', n));
    }

    /// The blank line and own-line comments in front of an item.
    fn begin_item(&mut self, own: &[&Comment], first: bool, indent: usize) {
        let blank = self.after_commented || (!own.is_empty() && !first);
        if blank && !self.in_keep_scalar {
            self.out.push('\n');
        }
        self.after_commented = false;
        self.in_keep_scalar = false;
        for c in own {
            self.indent(indent);
            self.comment(c);
            self.out.push('\n');
        }
    }

    fn end_item(&mut self, own: &[&Comment]) {
        if !own.is_empty() {
            self.after_commented = true;
        }
    }

    fn comment(&mut self, c: &Comment) {
        self.out.push('#');
        self.out.push_str(c.text.trim_end());
    }

    fn trailing(&mut self, comments: &[&Comment]) {
        for c in comments {
            self.out.push(' ');
            self.comment(c);
        }
    }

    fn document(&mut self, comments: &[Comment], value: &Node) {
        let c = Comments::of(comments);
        // documents are never "first": a commented one is set apart even at the top
        self.begin_item(&c.own, false, 0);
        if !self.out.is_empty() || !c.trailing.is_empty() {
            self.out.push_str("---");
            self.trailing(&c.trailing);
            self.out.push('\n');
        }
        self.value(value, &[], 0, After::Document);
        self.end_item(&c.own);
    }

    fn map_items(&mut self, items: &[MapItem], indent: usize, mut inline: bool) {
        for (i, item) in items.iter().enumerate() {
            let c = Comments::of(&item.meta.comments);
            self.begin_item(&c.own, i == 0, indent);
            if !inline {
                self.indent(indent);
            }
            inline = false;
            write_key_go(self.out, &item.key);
            self.out.push(':');
            self.value(&item.value, &c.trailing, indent, After::Key);
            self.end_item(&c.own);
        }
    }

    fn array_items(&mut self, items: &[ArrayItem], indent: usize, mut inline: bool) {
        for (i, item) in items.iter().enumerate() {
            let c = Comments::of(&item.meta.comments);
            self.begin_item(&c.own, i == 0, indent);
            if !inline {
                self.indent(indent);
            }
            inline = false;
            self.out.push('-');
            self.value(&item.value, &c.trailing, indent, After::Dash);
            self.end_item(&c.own);
        }
    }

    /// A value after `---`/`key:`/`-` of an item at `indent`, with the item's trailing
    /// comments, up to the end of its last line.
    fn value(&mut self, v: &Node, trailing: &[&Comment], indent: usize, after: After) {
        let nested = match after {
            After::Document => 0,
            After::Key | After::Dash => indent + 2,
        };
        match v {
            Node::Map(m) if !m.items.is_empty() => {
                let inline = self.open_collection(&m.items[0].meta, trailing, after);
                self.map_items(&m.items, nested, inline);
            }
            Node::Array(a) if !a.items.is_empty() => {
                let inline = self.open_collection(&a.items[0].meta, trailing, after);
                self.array_items(&a.items, nested, inline);
            }
            // empty collections print nothing, as does a null after a trailing comment
            // (`key: #@ expr`) or as a document
            Node::Map(_) | Node::Array(_) => self.end_line(trailing, after),
            Node::Null if !trailing.is_empty() || after == After::Document => {
                self.end_line(trailing, after)
            }
            _ => {
                if after != After::Document {
                    self.out.push(' ');
                }
                self.scalar(v, trailing, indent);
            }
        }
    }

    /// Before a collection: ends the `---`/`key:`/`-` line, or, in an array item, leaves
    /// the collection to start on it (`- a: 1`, `- - x`) unless a comment must come
    /// first. Returns whether the collection starts inline.
    fn open_collection(&mut self, first: &Meta, trailing: &[&Comment], after: After) -> bool {
        let inline = after == After::Dash
            && trailing.is_empty()
            && !first.comments.iter().any(|c| c.own_line);
        if inline {
            self.out.push(' ');
        } else {
            self.end_line(trailing, after);
        }
        inline
    }

    /// Ends the line of an item whose value is on the next lines (or absent); a
    /// document's line was ended with its `---`.
    fn end_line(&mut self, trailing: &[&Comment], after: After) {
        if after != After::Document {
            self.trailing(trailing);
            self.out.push('\n');
        }
    }

    /// A scalar as the YAML output writes it, continuation lines (block scalars, folded
    /// long strings) indented under the item. Trailing comments go on the first line of
    /// a block scalar (after `|`), where they cannot become part of its text.
    fn scalar(&mut self, v: &Node, trailing: &[&Comment], indent: usize) {
        let text = yaml_node(v);
        let text = text.strip_suffix('\n').unwrap_or(&text);
        // `|-`, `|2+`, `!!binary |`: the indicator is the header's last word
        let header = text.split('\n').next().unwrap_or_default();
        let indicator = header.rsplit(' ').next().unwrap_or_default();
        let block = indicator.starts_with(['|', '>']);
        self.in_keep_scalar = block && indicator.contains('+');
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                // empty lines too: the reference prefixes every line
                self.out.push('\n');
                self.indent(indent);
            }
            self.out.push_str(line);
            if i == 0 && block {
                self.trailing(trailing);
            }
        }
        if !block {
            self.trailing(trailing);
        }
        self.out.push('\n');
    }
}
