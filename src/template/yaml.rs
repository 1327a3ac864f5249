//! YAML templates: every document, map item and array item becomes a node instruction;
//! `#@` comments become code, values and annotations.

use std::sync::Arc;

use super::annotations::{
    classify, CommentKind, YAML_MAP_KEY_OVERRIDE, YAML_TEXT_TEMPLATED_STRINGS,
};
use super::text::emit_text;
use super::{instr, Builder, CompileError, CompileOptions, CompiledTemplate, Line, TKind};
use crate::yaml::{
    put_annotation, Annotation, Comment, Doc, DocSet, FileId, Meta, Node, Pos, ThinVec,
};

/// A YAML file is a template when any of its comments is a `#@` one.
pub fn is_templated(ds: &DocSet) -> bool {
    fn node(n: &Node) -> bool {
        match n {
            Node::Map(m) => m.items.iter().any(|i| meta(&i.meta) || node(&i.value)),
            Node::Array(a) => a.items.iter().any(|i| meta(&i.meta) || node(&i.value)),
            _ => false,
        }
    }
    fn meta(m: &Meta) -> bool {
        m.comments.iter().any(|c| c.text.starts_with('@'))
    }
    meta(&ds.meta) || ds.docs.iter().any(|d| meta(&d.meta) || node(&d.value))
}

/// Whether a template needs no evaluation: its only `#@` comments are argument-free
/// annotations on documents (`#@data/values`, `#@data/values-schema`, …), no map repeats
/// a key, and every other comment is a `#!` one. Such files — typically large data-values
/// files — are read as they are, with the annotations put on their documents
/// ([`document_annotations`]).
pub fn needs_no_evaluation(ds: &DocSet) -> bool {
    fn only_ytt_comments(m: &Meta) -> bool {
        m.comments.iter().all(|c| c.text.starts_with('!'))
    }
    fn node(n: &Node) -> bool {
        match n {
            Node::Map(m) => {
                m.items
                    .iter()
                    .all(|i| only_ytt_comments(&i.meta) && node(&i.value))
                    && !has_repeated_key(&m.items)
            }
            Node::Array(a) => a
                .items
                .iter()
                .all(|i| only_ytt_comments(&i.meta) && node(&i.value)),
            _ => true,
        }
    }
    let doc_ok = |d: &Doc| {
        d.meta.comments.iter().all(|c| match classify(c) {
            CommentKind::Ignored => true,
            CommentKind::Annotation { name, args } => {
                args.is_empty()
                    && name != YAML_TEXT_TEMPLATED_STRINGS
                    && name != YAML_MAP_KEY_OVERRIDE
            }
            _ => false,
        }) && node(&d.value)
    };
    only_ytt_comments(&ds.meta) && ds.docs.iter().all(doc_ok)
}

fn has_repeated_key(items: &[crate::yaml::MapItem]) -> bool {
    if items.len() < 16 {
        return items
            .iter()
            .enumerate()
            .any(|(i, a)| items[..i].iter().any(|b| b.key.value_eq(&a.key)));
    }
    let mut seen = std::collections::HashSet::with_capacity(items.len());
    items.iter().any(|i| match &i.key {
        Node::Str(k) => !seen.insert(k.as_str()),
        // other key types: let the template compiler decide
        _ => true,
    })
}

/// The annotations of a document of a file that [`needs_no_evaluation`], as evaluating
/// it would have produced them.
pub fn document_annotations(d: &Doc, file: FileId) -> ThinVec<Arc<Annotation>> {
    let mut anns = ThinVec::new();
    for c in &d.meta.comments {
        if let CommentKind::Annotation { name, .. } = classify(c) {
            let a = Annotation::new(name, Pos::new(file, c.line), Vec::new(), Vec::new());
            put_annotation(&mut anns, Arc::new(a));
        }
    }
    anns
}

pub fn compile_yaml(
    id: u32,
    name: Arc<str>,
    file: FileId,
    src: &str,
    ds: &DocSet,
    opts: CompileOptions,
) -> Result<CompiledTemplate, CompileError> {
    let mut c = YamlCompiler {
        b: Builder::new(id, name, file),
        opts,
    };
    c.b.start_ctx(None);
    let root = c.b.add_node(TKind::DocSet, None, 0);
    c.b.nodes[root as usize].pos.line = 0;
    c.b.start_node(root, None);
    if ds
        .docs
        .first()
        .is_some_and(|d| d.meta.comments.iter().any(|c| c.own_line))
    {
        // Lines above the first `---` are an (empty) document of their own, as in the
        // reference: code there runs with that document as its current node (which
        // `template.replace` replaces), not with the document set.
        let implicit = Meta::at(Pos::new(file, 1));
        c.item(TKind::Doc, root, &implicit, None, &Node::Null, false)?;
    }
    for doc in &ds.docs {
        c.item(TKind::Doc, root, &doc.meta, None, &doc.value, false)?;
    }
    if !ds.meta.comments.is_empty() {
        // comments after the last node belong to an (empty) document of their own
        c.item(TKind::Doc, root, &ds.meta, None, &Node::Null, false)?;
    }
    c.b.lines
        .push(Line::instr(format!("{}({id})", instr::END_ROOT), None));
    c.b.finish(src)
}

struct YamlCompiler {
    b: Builder,
    opts: CompileOptions,
}

const END_FORMS: &[&str] = &["if/end", "for/end", "def/end", "elif/end", "else/end"];

/// What the comments of an item say (see [`YamlCompiler::item_comments`]).
struct ItemComments {
    /// Its code lines: (line, code), an `*/end` form made the plain word.
    code: Vec<(u32, String)>,
    /// Its computed value: (line, expression).
    value_expr: Option<(u32, String)>,
    /// (line, name, arguments).
    annotations: Vec<(u32, String, String)>,
    /// Annotated `@yaml/text-templated-strings`.
    text_templated: bool,
    key_override: bool,
    /// The line of an `*/end` form, whose `end` follows the item.
    end_line: Option<u32>,
}

impl YamlCompiler {
    fn item(
        &mut self,
        kind: TKind,
        parent: u32,
        meta: &Meta,
        key: Option<&Node>,
        value: &Node,
        text_templated: bool,
    ) -> Result<(), CompileError> {
        let line = meta.pos.line;
        let ItemComments {
            code,
            value_expr,
            annotations,
            text_templated: annotated_text,
            key_override,
            end_line,
        } = self.item_comments(meta)?;
        let text_templated = text_templated || annotated_text;

        let has_yaml_value = match value {
            Node::Null => false,
            Node::Map(_) | Node::Array(_) => true,
            _ => true,
        };
        if value_expr.is_some() && has_yaml_value {
            return Err(CompileError::Template(format!(
                "Compiling YAML template '{}':\n  Expected YAML node at line {}:{} to have either computed or YAML value, but found both",
                self.b.name, self.b.name, line
            )));
        }

        for (l, text) in code {
            self.b.lines.push(Line::user(text, l));
        }
        let tag = self.b.add_node(kind, Some(parent), line);
        for (l, name, args) in annotations {
            let sep = if args.is_empty() { "" } else { ", " };
            let nl = if args.contains('#') { "\n" } else { "" };
            self.b.lines.push(Line::instr_with_user(
                format!("{}({}, {tag}, {name:?}{sep}", instr::ANNOTATE, self.b.id),
                &args,
                &format!("{nl})"),
                Some(l),
            ));
        }
        {
            let n = &mut self.b.nodes[tag as usize];
            n.key = key.cloned();
            n.key_override = key_override;
        }
        self.b.start_node(tag, Some(line));

        if let Some(Node::Str(k)) = key {
            if text_templated && k.contains("(@") {
                self.text_templated(tag, k, line, instr::SET_KEY)?;
            }
        }

        if let Some((l, expr)) = value_expr {
            let nl = if expr.contains('#') { "\n" } else { "" };
            self.b.lines.push(Line::instr_with_user(
                format!("{}({}, {tag}, (", instr::SET_NODE, self.b.id),
                &expr,
                &format!("{nl}))"),
                Some(l),
            ));
        } else {
            self.item_value(tag, value, line, text_templated)?;
        }
        if let Some(l) = end_line {
            self.b.lines.push(Line::user("end", l));
        }
        Ok(())
    }

    /// What the comments of an item say: its code, its computed value, its annotations.
    fn item_comments(&self, meta: &Meta) -> Result<ItemComments, CompileError> {
        let mut out = ItemComments {
            code: Vec::new(),
            value_expr: None,
            annotations: Vec::new(),
            text_templated: false,
            key_override: self.opts.implicit_map_key_overrides,
            end_line: None,
        };
        for c in &meta.comments {
            match classify(c) {
                CommentKind::Ignored => {}
                CommentKind::Plain => {
                    if !self.opts.ignore_unknown_comments {
                        return Err(self.plain_comment_error(c));
                    }
                }
                CommentKind::Code(text) => {
                    if out.end_line.is_some() {
                        return Err(CompileError::Template(format!(
                            "Compiling YAML template '{}':\n  Unexpected code at line {}:{} after use of '*/end', expected YAML node",
                            self.b.name, self.b.name, c.line
                        )));
                    }
                    let trimmed = text.trim_start();
                    let mut text = text.clone();
                    for form in END_FORMS {
                        if let Some(rest) = trimmed.strip_prefix(form) {
                            if rest.is_empty() || rest.starts_with([' ', ':']) {
                                let word = &form[..form.len() - 4];
                                text = format!("{word}{rest}");
                                out.end_line = Some(c.line);
                            }
                        }
                    }
                    out.code.push((c.line, text));
                }
                CommentKind::Value(expr) => out.value_expr = Some((c.line, expr)),
                CommentKind::Annotation { name, args } => match name.as_str() {
                    YAML_TEXT_TEMPLATED_STRINGS => out.text_templated = true,
                    YAML_MAP_KEY_OVERRIDE => out.key_override = true,
                    _ => out.annotations.push((c.line, name, args)),
                },
            }
        }
        Ok(out)
    }

    /// An item's YAML value (it has no computed one): a map's or array's items, a
    /// text-templated string, or a scalar.
    fn item_value(
        &mut self,
        tag: u32,
        value: &Node,
        line: u32,
        text_templated: bool,
    ) -> Result<(), CompileError> {
        match value {
            Node::Map(m) => {
                let map_tag = self.b.add_node(TKind::Map, Some(tag), line);
                self.b.start_node(map_tag, Some(line));
                for i in &m.items {
                    self.item(
                        TKind::MapItem,
                        map_tag,
                        &i.meta,
                        Some(&i.key),
                        &i.value,
                        text_templated,
                    )?;
                }
            }
            Node::Array(a) => {
                let arr_tag = self.b.add_node(TKind::Array, Some(tag), line);
                self.b.start_node(arr_tag, Some(line));
                for i in &a.items {
                    self.item(
                        TKind::ArrayItem,
                        arr_tag,
                        &i.meta,
                        None,
                        &i.value,
                        text_templated,
                    )?;
                }
            }
            Node::Str(s) if text_templated && s.contains("(@") => {
                self.text_templated(tag, s, line, instr::SET_NODE)?;
            }
            scalar => self.b.nodes[tag as usize].literal = Some(scalar.clone()),
        }
        Ok(())
    }

    /// A string with `(@ @)` under `@yaml/text-templated-strings`: evaluated as a text
    /// template in its own node context, its result set as the key or value of `tag`.
    fn text_templated(
        &mut self,
        tag: u32,
        s: &str,
        line: u32,
        setter: &str,
    ) -> Result<(), CompileError> {
        self.b.start_ctx(Some(line));
        let root = self.b.add_node(TKind::Text, Some(tag), line);
        self.b.start_node(root, Some(line));
        emit_text(&mut self.b, root, s, line)?;
        self.b.lines.push(Line::instr(
            format!(
                "{setter}({}, {tag}, {}({}))",
                self.b.id,
                instr::END_CTX,
                self.b.id
            ),
            Some(line),
        ));
        Ok(())
    }

    fn plain_comment_error(&self, c: &Comment) -> CompileError {
        CompileError::Template(format!(
            "Compiling YAML template '{}':\n  Failed to parse line {}: '#{}':\n    Expected ytt-formatted string (use '#@' for annotations or code, '#!' for comments)",
            self.b.name, c.line, c.text
        ))
    }
}
