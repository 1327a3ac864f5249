//! Schema export (`--data-values-schema-inspect`): the schema's type tree with its rules
//! read out of the `@schema/validation` annotations ([`SchemaExport::resolve`]), printed
//! as an OpenAPI v3 document ([`openapi`]), a JSON Schema draft 2020-12 document
//! ([`jsonschema`]) or a Markdown reference page ([`markdown`]).
//!
//! Rules are resolved while the evaluator that made the annotations is alive; the result
//! owns everything it needs, so printing happens after the run.

mod ecma;
pub mod jsonschema;
mod keywords;
pub mod markdown;
pub mod openapi;

use anyhow::{anyhow, bail};
use starlark::eval::Evaluator;

use super::types::{Kind, Type, TypeDoc};
use super::Schema;
use crate::eval::runtime::{names_of, runtime_of};
use crate::validations::named::{NamedRule, OneOf};
use crate::validations::rules;
use crate::yaml::{Annotation, FileNames, Location, Node, Pos};

/// Deepest schema nesting exported (a clear error beyond, never a stack overflow).
const MAX_DEPTH: usize = 1_000;

/// A library's schema, ready to print. `root` is `None` when there is no schema (any
/// data values are accepted).
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaExport {
    pub root: Option<Field>,
}

/// One schema node.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub kind: FieldKind,
    pub nullable: bool,
    pub default: Node,
    pub doc: TypeDoc,
    /// Where the node is declared.
    pub pos: Location,
    /// The node's rules, in the order they run.
    pub rules: Vec<Rule>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FieldKind {
    Any,
    String,
    Integer,
    Float,
    Boolean,
    /// Keys and their fields, in declaration order.
    Map(Vec<(Node, Field)>),
    Array(Box<Field>),
}

impl FieldKind {
    /// The type's name as reports print it.
    pub fn name(&self) -> &'static str {
        match self {
            FieldKind::Any => "any",
            FieldKind::String => "string",
            FieldKind::Integer => "integer",
            FieldKind::Float => "float",
            FieldKind::Boolean => "boolean",
            FieldKind::Map(_) => "map",
            FieldKind::Array(_) => "array",
        }
    }
}

/// One rule of a `@schema/validation` annotation.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// The `must be:` text.
    pub desc: String,
    /// Where the annotation was written.
    pub by: Location,
    /// Only checked `when=` a condition holds.
    pub conditional: bool,
    /// `warn=True`: a violation is only a warning.
    pub warn: bool,
    pub check: Check,
}

impl Rule {
    /// The values a `one_of=` rule allows.
    pub fn one_of(&self) -> Option<&[Node]> {
        match &self.check {
            Check::Named(NamedRule::OneOf(OneOf(values))) => Some(values),
            _ => None,
        }
    }
}

/// What a rule checks.
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    NotNull,
    /// A Starlark function (positional rule).
    Custom,
    Named(NamedRule),
}

impl SchemaExport {
    /// Reads `schema` (None: no schema) and the rules of its annotations, whose
    /// arguments `eval` resolves.
    pub fn resolve(schema: Option<&Schema>, eval: &mut Evaluator) -> anyhow::Result<SchemaExport> {
        let names = names_of(eval);
        let root = match schema {
            Some(s) => Some(field(&s.root, &names, eval, 0)?),
            None => None,
        };
        Ok(SchemaExport { root })
    }
}

fn field(
    ty: &Type,
    names: &FileNames,
    eval: &mut Evaluator,
    depth: usize,
) -> anyhow::Result<Field> {
    if depth > MAX_DEPTH {
        bail!("Schema is nested too deeply (more than {MAX_DEPTH} levels) to export");
    }
    let kind = match &ty.kind {
        Kind::Any => FieldKind::Any,
        Kind::String => FieldKind::String,
        Kind::Integer => FieldKind::Integer,
        Kind::Float => FieldKind::Float,
        Kind::Boolean => FieldKind::Boolean,
        Kind::Map(items) => {
            let mut out = Vec::with_capacity(items.len());
            for i in items {
                out.push((i.key.clone(), field(&i.ty, names, eval, depth + 1)?));
            }
            FieldKind::Map(out)
        }
        Kind::Array(elem) => FieldKind::Array(Box::new(field(elem, names, eval, depth + 1)?)),
    };
    let mut rules = Vec::new();
    for a in &ty.validations {
        annotation_rules(a, names, eval, &mut rules)?;
    }
    Ok(Field {
        kind,
        nullable: ty.nullable,
        default: ty.default.clone(),
        doc: ty.doc.clone(),
        pos: names.locate(&ty.pos),
        rules,
    })
}

/// The rules of one annotation, in the order they run: `not_null`, custom rules, named
/// rules.
fn annotation_rules<'v>(
    a: &Annotation,
    names: &FileNames,
    eval: &mut Evaluator<'v, '_, '_>,
    out: &mut Vec<Rule>,
) -> anyhow::Result<()> {
    let (args, kwargs) = runtime_of(eval)?.resolve_args(eval, a)?;
    let v = rules::parse(eval.heap(), names, rules::Written::of(a), &args, &kwargs)
        .map_err(|e| anyhow!("Invalid @{} annotation - {e}", a.name))?;
    let conditional = v.has_when();
    let rule = |desc: &str, by: &Pos, check: Check| Rule {
        desc: desc.to_owned(),
        by: names.locate(by),
        conditional,
        warn: v.warn,
        check,
    };
    if let Some((desc, by)) = v.not_null_rule() {
        out.push(rule(desc, by, Check::NotNull));
    }
    for (desc, by) in v.custom_rules() {
        out.push(rule(desc, by, Check::Custom));
    }
    for (named, desc, by) in v.named_rules() {
        out.push(rule(desc, by, Check::Named(named.clone())));
    }
    Ok(())
}

/// A path in warnings and reference pages: `a.b`, `list[]`, `(document)` for the root.
pub(crate) fn child_path(parent: &str, key: &Node) -> String {
    let key = match key {
        Node::Str(s) => s.to_string(),
        other => crate::yaml::emit::yaml_node(other).trim_end().to_owned(),
    };
    if parent.is_empty() {
        key
    } else {
        format!("{parent}.{key}")
    }
}

pub(crate) fn item_path(parent: &str) -> String {
    format!("{parent}[]")
}

pub(crate) fn shown_path(path: &str) -> &str {
    if path.is_empty() {
        "(document)"
    } else {
        path
    }
}

/// An exported document as JSON: map keys the OpenAPI document keeps as the schema reads
/// them (`on:` is `true`) become their YAML text, since JSON names are strings.
pub fn with_string_keys(n: &mut Node) {
    match n {
        Node::Map(m) => {
            for i in &mut m.items {
                if !matches!(i.key, Node::Str(_)) {
                    i.key = Node::Str(crate::validations::key_text(&i.key).into());
                }
                with_string_keys(&mut i.value);
            }
        }
        Node::Array(a) => a
            .items
            .iter_mut()
            .for_each(|i| with_string_keys(&mut i.value)),
        _ => {}
    }
}
