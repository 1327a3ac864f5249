//! Building the type tree from a (merged) schema document: inference from values, the
//! `@schema/...` annotations, defaults, and the reference's reports for malformed schemas.

use std::sync::Arc;

use super::check::{check, Holder, ViolationKind};
use super::report::{titled, Item, Report, Source, Sources};
use super::types::*;
use crate::overlay::Host;
use crate::template::annotations::{
    SCHEMA_DEFAULT, SCHEMA_DEPRECATED, SCHEMA_DESC, SCHEMA_EXAMPLES, SCHEMA_NULLABLE, SCHEMA_TITLE,
    SCHEMA_TYPE, SCHEMA_VALIDATION, SCHEMA_VALIDATION_DEFAULTS_FOR_STRINGS,
};
use crate::yaml::{Annotation, Array, Map, MapItem, Meta, Node, Pos};

const INVALID: &str = "Invalid schema";
const EXAMPLES_EXPECTED: &str =
    "2-tuple containing description (string) and example value (of expected type)";

/// Where a schema node sits.
#[derive(Clone, Copy, Debug, PartialEq)]
enum At {
    Doc,
    MapItem,
    ArrayItem,
}

/// Builds types, reading annotation arguments through `host` and the lines annotations
/// were written on from `sources`.
pub struct Builder<'h> {
    host: &'h mut dyn Host,
    sources: &'h Sources,
}

type Res<T> = Result<T, Report>;

/// Where an annotation was written: its own comment line when it can be found.
fn annotation_pos(sources: &Sources, ann: &Annotation) -> Pos {
    comment_pos(sources, &ann.pos, &ann.name)
}

/// The line of the comment `#@name` written for the node at `pos` (or `pos` itself).
fn comment_pos(sources: &Sources, pos: &Pos, name: &str) -> Pos {
    if let Some(file) = sources.names().name(pos.file) {
        if let Some(line) = sources.annotation_line(&file, pos.line, name) {
            return Pos {
                file: pos.file,
                line,
            };
        }
    }
    pos.clone()
}

/// A copy of `ann` positioned on the comment lines it (and each of its arguments, for an
/// annotation an overlay merged) was written on.
fn written_where(sources: &Sources, ann: &Annotation) -> Annotation {
    let mut a = ann.clone();
    a.pos = comment_pos(sources, &a.pos, &a.name);
    for p in &mut a.arg_pos {
        *p = comment_pos(sources, p, &ann.name);
    }
    a
}

/// The source lines from the first of `anns` down to the node.
fn span(sources: &Sources, node: &Pos, anns: &[&Annotation]) -> Source {
    let Some(name) = sources
        .names()
        .name(node.file)
        .filter(|_| node.line > 0)
        .map(|f| f.to_string())
    else {
        return Source::Calculated {
            text: String::new(),
        };
    };
    let mut from = node.line;
    for a in anns {
        let p = annotation_pos(sources, a);
        if p.file == node.file && p.line > 0 && p.line < from {
            from = p.line;
        }
    }
    Source::File {
        name,
        from,
        to: node.line,
    }
}

fn item(
    summary: Option<String>,
    source: Source,
    found: Option<String>,
    expected: Option<String>,
    hints: &[&str],
) -> Item {
    Item {
        summary,
        source,
        found,
        expected,
        hints: hints.iter().map(|h| (*h).to_owned()).collect(),
    }
}

fn syntax_error(
    sources: &Sources,
    name: &str,
    node: &Pos,
    ann: &Annotation,
    found: String,
    expected: String,
    hints: &[&str],
) -> Report {
    Report::new(
        INVALID,
        vec![item(
            Some(format!("syntax error in @{name} annotation")),
            span(sources, node, &[ann]),
            Some(found),
            Some(expected),
            hints,
        )],
    )
}

fn has_schema_annotation(meta: &Meta) -> bool {
    meta.annotations
        .iter()
        .any(|a| a.name.starts_with("schema/"))
}

/// Positions unknown nodes (values computed by `@schema/default`) at `pos`.
fn position(n: &mut Node, pos: &Pos) {
    match n {
        Node::Map(m) => {
            for i in &mut m.items {
                if !i.meta.pos.is_known() {
                    i.meta.pos = pos.clone();
                }
                position(&mut i.value, pos);
            }
        }
        Node::Array(a) => {
            for i in &mut a.items {
                if !i.meta.pos.is_known() {
                    i.meta.pos = pos.clone();
                }
                position(&mut i.value, pos);
            }
        }
        _ => {}
    }
}

/// A copy of `n` without annotations (the default of an "any type" node).
fn plain(n: &Node) -> Node {
    n.copy_with_meta(&|m| Meta::at(m.pos.clone()))
}

impl<'h> Builder<'h> {
    pub fn new(host: &'h mut dyn Host, sources: &'h Sources) -> Self {
        Builder { host, sources }
    }

    /// The type of a schema document.
    pub fn document(&mut self, value: &Node, meta: &Meta) -> Res<Type> {
        self.node(value, meta, At::Doc, None)
    }

    fn node(
        &mut self,
        value: &Node,
        meta: &Meta,
        at: At,
        str_defaults: Option<&Annotation>,
    ) -> Res<Type> {
        let pos = &meta.pos;
        let any = match meta.annotation(SCHEMA_TYPE) {
            Some(a) => self.type_any(a, pos)?,
            None => false,
        };
        let nullable = match meta.annotation(SCHEMA_NULLABLE) {
            Some(a) => {
                self.no_kwargs(a, pos)?;
                true
            }
            None => false,
        };
        let own_defaults = meta.annotation(SCHEMA_VALIDATION_DEFAULTS_FOR_STRINGS);
        let str_defaults = own_defaults.or(str_defaults);

        let kind = if any {
            self.no_nested_schema(value)?;
            Kind::Any
        } else {
            self.kind(value, pos, str_defaults)?
        };

        let default = match &kind {
            Kind::Any => plain(value),
            Kind::Map(items) => Node::Map(Map {
                items: items
                    .iter()
                    .map(|i| MapItem {
                        key: i.key.clone(),
                        value: i.ty.default.clone(),
                        meta: Meta::at(i.ty.pos.clone()),
                    })
                    .collect(),
            }),
            Kind::Array(_) => Node::Array(Array::default()),
            _ => value.clone(),
        };
        let mut ty = Type {
            kind,
            nullable,
            pos: pos.clone(),
            default: if nullable { Node::Null } else { default },
            doc: TypeDoc::default(),
            validations: Vec::new(),
        };

        self.documentation(&mut ty, meta, at)?;
        for a in meta
            .annotations
            .iter()
            .filter(|a| a.name == SCHEMA_VALIDATION)
        {
            ty.validations
                .push(Arc::new(written_where(self.sources, a)));
        }
        if ty.validations.is_empty() && ty.is_string() {
            if let Some(d) = str_defaults {
                ty.validations.push(Arc::new(Annotation {
                    name: SCHEMA_VALIDATION.to_owned(),
                    ..written_where(self.sources, d)
                }));
            }
        }
        Ok(ty)
    }

    /// The kind a node's value gives its type (not "any"): a map's and an array's from
    /// their items.
    fn kind(&mut self, value: &Node, pos: &Pos, str_defaults: Option<&Annotation>) -> Res<Kind> {
        Ok(match value {
            Node::Null => return Err(null_error(self.sources, pos)),
            Node::Map(m) => {
                let mut items = Vec::with_capacity(m.items.len());
                for i in &m.items {
                    let ty = self.node(&i.value, &i.meta, At::MapItem, str_defaults)?;
                    items.push(MapItemType {
                        key: i.key.clone(),
                        ty,
                    });
                }
                Kind::Map(items)
            }
            Node::Array(a) => {
                if a.items.len() != 1 {
                    return Err(Report::new(
                        "Invalid schema - wrong number of items in array definition",
                        vec![item(
                            None,
                            span(self.sources, pos, &[]),
                            Some(format!("{} array items", a.items.len())),
                            Some("exactly 1 array item, of the desired type".into()),
                            &[
                                "in schema, the one item of the array implies the type of its elements.",
                                "in schema, the default value for an array is always an empty list.",
                                "default values can be overridden via a data values overlay.",
                            ],
                        )],
                    ));
                }
                let i = &a.items[0];
                let elem = self.node(&i.value, &i.meta, At::ArrayItem, str_defaults)?;
                Kind::Array(Box::new(elem))
            }
            scalar => Kind::of_scalar(scalar).unwrap_or(Kind::String),
        })
    }

    /// A type's default and documentation, from the node's annotations.
    fn documentation(&mut self, ty: &mut Type, meta: &Meta, at: At) -> Res<()> {
        let pos = &meta.pos;
        if let Some(a) = meta.annotation(SCHEMA_DEFAULT) {
            ty.default = self.default_value(a, ty, at)?;
        }
        if let Some(a) = meta.annotation(SCHEMA_DESC) {
            ty.doc.description = Some(self.string_arg(a, pos)?);
        }
        if let Some(a) = meta.annotation(SCHEMA_TITLE) {
            ty.doc.title = Some(self.string_arg(a, pos)?);
        }
        if let Some(a) = meta.annotation(SCHEMA_EXAMPLES) {
            ty.doc.examples = self.examples(a, ty)?;
        }
        if let Some(a) = meta.annotation(SCHEMA_DEPRECATED) {
            if at == At::Doc {
                return Err(Report::new(
                    INVALID,
                    vec![item(
                        Some("@schema/deprecated not supported on a document".into()),
                        span(self.sources, pos, &[a]),
                        None,
                        None,
                        &[
                            "do you mean to deprecate the entire schema document?",
                            "use schema/deprecated on individual keys.",
                        ],
                    )],
                ));
            }
            ty.doc.deprecated = Some(self.string_arg(a, pos)?);
        }
        Ok(())
    }

    /// `@schema/type any=True|False`.
    fn type_any(&mut self, a: &Annotation, pos: &Pos) -> Res<bool> {
        let err = |summary: &str, found: String, expected: &str, hint: &str| {
            Report::new(
                INVALID,
                vec![item(
                    Some(summary.to_owned()),
                    span(self.sources, pos, &[a]),
                    Some(found),
                    Some(expected.to_owned()),
                    &[hint],
                )],
            )
        };
        let by = self.sources.describe(&annotation_pos(self.sources, a));
        if !a.args.is_empty() || a.kwargs.is_empty() {
            return Err(err(
                "expected @schema/type annotation to have keyword argument and value",
                format!("missing keyword argument and value (by {by})"),
                "valid keyword argument and value",
                "Supported key-value pairs are 'any=True', 'any=False'",
            ));
        }
        let mut any = false;
        for (k, v) in &a.kwargs {
            if k != "any" {
                return Err(err(
                    "unknown @schema/type annotation keyword argument",
                    format!("{k} (by {by})"),
                    "A valid kwarg",
                    "Supported kwargs are 'any'",
                ));
            }
            match self
                .host
                .value(*v)
                .map_err(|e| host_error(self.sources, pos, a, e))?
            {
                Node::Bool(b) => any = b,
                _ => {
                    let t = self.host.type_name(*v).unwrap_or_else(|_| "value".into());
                    return Err(err(
                        "unknown @schema/type annotation keyword argument",
                        format!("{t} (by {by})"),
                        "starlark.Bool",
                        "Supported kwargs are 'any'",
                    ));
                }
            }
        }
        Ok(any)
    }

    /// `@schema/nullable` takes no keyword arguments. Positional ones are ignored, as
    /// the reference ignores them; its report of a keyword argument borrows the words of
    /// `@schema/type`'s.
    fn no_kwargs(&mut self, a: &Annotation, pos: &Pos) -> Res<()> {
        if a.kwargs.is_empty() {
            return Ok(());
        }
        let by = self.sources.describe(&annotation_pos(self.sources, a));
        Err(Report::new(
            INVALID,
            vec![item(
                Some(format!(
                    "expected @{} annotation to not contain any keyword arguments",
                    a.name
                )),
                span(self.sources, pos, &[a]),
                Some(format!("keyword argument in @{} (by {by})", a.name)),
                Some("starlark.Bool".into()),
                &["Supported kwargs are 'any'"],
            )],
        ))
    }

    /// Nodes inside an "any type" node may not carry `@schema/...` annotations.
    fn no_nested_schema(&mut self, value: &Node) -> Res<()> {
        let check = |meta: &Meta| -> Res<()> {
            if !has_schema_annotation(meta) {
                return Ok(());
            }
            let anns: Vec<&Annotation> = meta
                .annotations
                .iter()
                .filter(|a| a.name.starts_with("schema/"))
                .map(|a| &**a)
                .collect();
            let names: Vec<String> = anns.iter().map(|a| format!("@{}", a.name)).collect();
            Err(Report::new(
                INVALID,
                vec![item(
                    Some("Schema was specified within an \"any type\" fragment".into()),
                    span(self.sources, &meta.pos, &anns),
                    Some(format!("{} annotation(s)", names.join(", "))),
                    Some("no '@schema/...' on nodes within a node annotated '@schema/type any=True'".into()),
                    &["an \"any type\" fragment has no constraints; nested schema annotations conflict and are disallowed"],
                )],
            ))
        };
        match value {
            Node::Map(m) => {
                for i in &m.items {
                    check(&i.meta)?;
                    self.no_nested_schema(&i.value)?;
                }
            }
            Node::Array(a) => {
                for i in &a.items {
                    check(&i.meta)?;
                    self.no_nested_schema(&i.value)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The one string argument of `@schema/desc`, `title` and `deprecated`.
    fn string_arg(&mut self, a: &Annotation, pos: &Pos) -> Res<String> {
        let by = self.sources.describe(&annotation_pos(self.sources, a));
        let name = a.name.as_str();
        if !a.kwargs.is_empty() {
            return Err(syntax_error(
                self.sources,
                name,
                pos,
                a,
                format!("keyword argument in @{name} (by {by})"),
                "string".into(),
                &["this annotation only accepts one argument: a string."],
            ));
        }
        if a.args.is_empty() {
            return Err(syntax_error(
                self.sources,
                name,
                pos,
                a,
                format!("missing value in @{name} (by {by})"),
                "string".into(),
                &[],
            ));
        }
        if a.args.len() > 1 {
            return Err(syntax_error(
                self.sources,
                name,
                pos,
                a,
                format!("{} values in @{name} (by {by})", a.args.len()),
                "string".into(),
                &[],
            ));
        }
        match self
            .host
            .value(a.args[0])
            .map_err(|e| host_error(self.sources, pos, a, e))?
        {
            Node::Str(s) => Ok(s.into_string()),
            _ => Err(syntax_error(
                self.sources,
                name,
                pos,
                a,
                format!("Non-string value in @{name} (by {by})"),
                "string".into(),
                &[],
            )),
        }
    }

    /// `@schema/default value`: checked against the type, then completed with defaults.
    fn default_value(&mut self, a: &Annotation, ty: &Type, at: At) -> Res<Node> {
        let pos = &ty.pos;
        let ann_pos = annotation_pos(self.sources, a);
        let by = self.sources.describe(&ann_pos);
        let expected = format!("{} (by {})", ty.name(), self.sources.describe(pos));
        if !a.kwargs.is_empty() {
            return Err(syntax_error(
                self.sources,
                &a.name,
                pos,
                a,
                format!("keyword argument in @{} (by {by})", a.name),
                expected,
                &[
                    "this annotation only accepts one argument: the default value.",
                    "value must be in Starlark format, e.g.: {'key': 'value'}, True.",
                ],
            ));
        }
        if a.args.is_empty() {
            return Err(syntax_error(
                self.sources,
                &a.name,
                pos,
                a,
                format!("missing value in @{} (by {by})", a.name),
                expected,
                &[],
            ));
        }
        if a.args.len() > 1 {
            return Err(syntax_error(
                self.sources,
                &a.name,
                pos,
                a,
                format!("{} values in @{} (by {by})", a.args.len(), a.name),
                expected,
                &[],
            ));
        }
        if at == At::ArrayItem {
            return Err(Report::new(
                INVALID,
                vec![item(
                    Some(titled(
                        "Invalid schema - @schema/default not supported on array item",
                    )),
                    span(self.sources, pos, &[a]),
                    None,
                    None,
                    &[
                        "do you mean to set a default value for the array?",
                        "set an array's default by annotating its parent.",
                    ],
                )],
            ));
        }
        let mut value = self
            .host
            .value(a.args[0])
            .map_err(|e| host_error(self.sources, pos, a, e))?;
        position(&mut value, pos);
        if let Some((found, expected)) = first_mismatch(self.sources, ty, &mut value, pos) {
            return Err(Report::new(
                "Invalid schema - @schema/default is wrong type",
                vec![item(
                    None,
                    span(self.sources, pos, &[a]),
                    Some(format!("{found} (at {by})")),
                    Some(expected),
                    &[],
                )],
            ));
        }
        Ok(value)
    }

    /// `@schema/examples ("desc", value), ...`.
    fn examples(&mut self, a: &Annotation, ty: &Type) -> Res<Vec<(String, Node)>> {
        let pos = &ty.pos;
        let ann_pos = annotation_pos(self.sources, a);
        let by = self.sources.describe(&ann_pos);
        let name = a.name.as_str();
        let syntax = |found: String| {
            syntax_error(
                self.sources,
                name,
                pos,
                a,
                found,
                EXAMPLES_EXPECTED.into(),
                &[],
            )
        };
        if !a.kwargs.is_empty() {
            return Err(syntax(format!("keyword argument in @{name} (by {by})")));
        }
        if a.args.is_empty() {
            return Err(syntax(format!("missing value in @{name} (by {by})")));
        }
        let mut out = Vec::new();
        for r in &a.args {
            let is_tuple = self
                .host
                .type_name(*r)
                .map(|t| t == "starlark.Tuple")
                .unwrap_or(false);
            let v = self
                .host
                .value(*r)
                .map_err(|e| host_error(self.sources, pos, a, e))?;
            if !is_tuple {
                return Err(syntax(format!("{} for @{name} (at {by})", v.type_name())));
            }
            let Node::Array(items) = v else {
                return Err(syntax(format!("{} for @{name} (at {by})", v.type_name())));
            };
            let mut items: Vec<Node> = items.items.into_iter().map(|i| i.value).collect();
            match items.len() {
                0 => return Err(syntax(format!("empty tuple in @{name} (by {by})"))),
                2 => {}
                n => return Err(syntax(format!("{n}-tuple argument in @{name} (by {by})"))),
            }
            let value = items.pop().unwrap_or(Node::Null);
            let desc = match items.pop() {
                Some(Node::Str(s)) => s.into_string(),
                Some(other) => {
                    return Err(syntax(format!(
                        "{} value for @{name} (at {by})",
                        other.type_name()
                    )))
                }
                None => String::new(),
            };
            // checked on a copy: the check fills in the type's defaults, and an example
            // is exported as written
            if let Some((found, expected)) =
                first_mismatch(self.sources, ty, &mut value.clone(), pos)
            {
                return Err(Report::new(
                    "Invalid schema - @schema/examples has wrong type",
                    vec![item(
                        None,
                        span(self.sources, pos, &[a]),
                        Some(format!("{found} (by {by})")),
                        Some(expected),
                        &[],
                    )],
                ));
            }
            out.push((desc, value));
        }
        Ok(out)
    }
}

fn null_error(sources: &Sources, pos: &Pos) -> Report {
    Report::new(
        "Invalid schema - null value not allowed here",
        vec![item(
            None,
            span(sources, pos, &[]),
            Some("null value".into()),
            Some("non-null value".into()),
            &[
                "in YAML, omitting a value implies null.",
                "to set the default value to null, annotate with @schema/nullable.",
                "to allow any value, annotate with @schema/type any=True.",
            ],
        )],
    )
}

fn host_error(sources: &Sources, pos: &Pos, a: &Annotation, e: anyhow::Error) -> Report {
    Report::new(
        INVALID,
        vec![item(
            Some(format!("reading @{} annotation: {e:#}", a.name)),
            span(sources, pos, &[a]),
            None,
            None,
            &[],
        )],
    )
}

/// Type-checks an annotation's value (`@schema/default`, `@schema/examples`) against the
/// node's type: the first mismatch as (found, expected) texts.
fn first_mismatch(
    sources: &Sources,
    ty: &Type,
    value: &mut Node,
    pos: &Pos,
) -> Option<(String, String)> {
    let mut meta = Meta::at(pos.clone());
    let mut violations = Vec::new();
    check(ty, value, &mut meta, Holder::Doc, &mut violations);
    violations.into_iter().next().map(|v| match v.kind {
        ViolationKind::Mismatch {
            found,
            expected,
            by: tpos,
        } => (
            found.to_owned(),
            format!("{expected} (by {})", sources.describe(&tpos)),
        ),
        ViolationKind::Undeclared { key, map_pos, .. } => (
            format!("key \"{key}\""),
            format!("a key declared in map (by {})", sources.describe(&map_pos)),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::{ArrayItem, FileNames, ValueRef};
    use std::sync::Arc;

    /// Annotation arguments held in a list: `ValueRef::index` is the position.
    struct FakeHost(Vec<(Node, &'static str)>, FileNames);

    impl Host for FakeHost {
        fn names(&self) -> &FileNames {
            &self.1
        }
        fn value(&mut self, r: ValueRef) -> anyhow::Result<Node> {
            Ok(self.0[r.index as usize].0.clone())
        }
        fn is_callable(&mut self, _: ValueRef) -> anyhow::Result<bool> {
            Ok(false)
        }
        fn call(&mut self, _: ValueRef, _: &[&Node]) -> anyhow::Result<Node> {
            anyhow::bail!("not callable")
        }
        fn type_name(&mut self, r: ValueRef) -> anyhow::Result<String> {
            Ok(self.0[r.index as usize].1.to_owned())
        }
    }

    /// The run's sources of these tests: `build-test.yml` is their only file.
    fn sources() -> Sources {
        let sources = Sources::default();
        sources.names().id("build-test.yml");
        sources
    }

    fn pos(line: u32) -> Pos {
        Pos::new(sources().names().id("build-test.yml"), line)
    }

    fn ann(name: &str, line: u32, args: &[u32], kwargs: &[(&str, u32)]) -> Annotation {
        Annotation::new(
            name,
            pos(line),
            args.iter()
                .map(|&index| ValueRef { serial: 0, index })
                .collect(),
            kwargs
                .iter()
                .map(|(k, index)| {
                    (
                        (*k).to_owned(),
                        ValueRef {
                            serial: 0,
                            index: *index,
                        },
                    )
                })
                .collect(),
        )
    }

    fn item(key: &str, value: Node, line: u32, anns: Vec<Annotation>) -> MapItem {
        MapItem {
            key: Node::Str(key.into()),
            value,
            meta: Meta {
                pos: pos(line),
                comments: Default::default(),
                annotations: anns.into_iter().map(Arc::new).collect(),
            },
        }
    }

    #[test]
    fn infers_types_defaults_and_string_validation_defaults() {
        let mut host = FakeHost(
            vec![
                (Node::Int(1.into()), "starlark.Int"),
                (Node::Bool(true), "starlark.Bool"),
                (Node::Str("d".into()), "starlark.String"),
            ],
            FileNames::default(),
        );
        let doc = Node::Map(Map {
            items: thin_vec::thin_vec![
                item(
                    "name",
                    Node::Str("x".into()),
                    3,
                    vec![ann(SCHEMA_DESC, 3, &[2], &[])],
                ),
                item(
                    "port",
                    Node::Int(80.into()),
                    4,
                    vec![ann(SCHEMA_NULLABLE, 4, &[], &[])],
                ),
                item(
                    "tags",
                    Node::Array(Array {
                        items: thin_vec::thin_vec![ArrayItem {
                            value: Node::Str("t".into()),
                            meta: Meta::at(pos(6)),
                        }],
                    }),
                    5,
                    vec![],
                ),
                item(
                    "free",
                    Node::Int(0.into()),
                    7,
                    vec![ann(SCHEMA_TYPE, 7, &[], &[("any", 1)])],
                ),
            ],
        });
        let mut meta = Meta::at(pos(2));
        meta.annotations.push(Arc::new(ann(
            SCHEMA_VALIDATION_DEFAULTS_FOR_STRINGS,
            2,
            &[],
            &[("min_len", 0)],
        )));
        let ty = Builder::new(&mut host, &sources())
            .document(&doc, &meta)
            .unwrap();
        let Kind::Map(items) = &ty.kind else {
            panic!("not a map")
        };
        assert_eq!(items[0].ty.doc.description.as_deref(), Some("d"));
        assert_eq!(items[0].ty.validations.len(), 1);
        assert_eq!(items[0].ty.validations[0].name, SCHEMA_VALIDATION);
        assert!(items[1].ty.nullable && items[1].ty.default.is_null());
        let Kind::Array(elem) = &items[2].ty.kind else {
            panic!("not an array")
        };
        assert_eq!(elem.validations.len(), 1);
        assert!(items[3].ty.is_any());
        assert!(ty.default.value_eq(&Node::Map(Map {
            items: thin_vec::thin_vec![
                item("name", Node::Str("x".into()), 3, vec![]),
                item("port", Node::Null, 4, vec![]),
                item("tags", Node::Array(Array::default()), 5, vec![]),
                item("free", Node::Int(0.into()), 7, vec![]),
            ]
        })));
    }

    #[test]
    fn malformed_annotations_are_reported() {
        let mut host = FakeHost(
            vec![(Node::Int(1.into()), "starlark.Int")],
            FileNames::default(),
        );
        let doc = Node::Map(Map {
            items: thin_vec::thin_vec![item(
                "a",
                Node::Str("x".into()),
                3,
                vec![ann(SCHEMA_TITLE, 3, &[0], &[])],
            )],
        });
        let err = Builder::new(&mut host, &sources())
            .document(&doc, &Meta::at(pos(2)))
            .unwrap_err();
        assert_eq!(err.title, "Invalid schema");
        assert_eq!(
            err.items[0].found.as_deref(),
            Some("Non-string value in @schema/title (by build-test.yml:3)")
        );
        let doc = Node::Map(Map {
            items: thin_vec::thin_vec![item("a", Node::Null, 3, vec![])],
        });
        let err = Builder::new(&mut host, &sources())
            .document(&doc, &Meta::at(pos(2)))
            .unwrap_err();
        assert_eq!(err.title, "Invalid schema - null value not allowed here");
    }
}
