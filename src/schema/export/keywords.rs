//! One schema object per schema node, shared by the OpenAPI and JSON Schema exports:
//! types, documentation, defaults and the constraints of the node's rules, in the
//! keywords' fixed order. Rules that cannot be expressed are collected as warnings.

use super::{child_path, item_path, shown_path, Check, Field, FieldKind, Rule};
use crate::validations::checks::Number;
use crate::yaml::{Array, ArrayItem, Map, MapItem, Meta, Node};

/// Every keyword, in the order it appears in a schema object. `examples` (JSON Schema)
/// takes the place of `example` (OpenAPI).
const ORDER: &[&str] = &[
    "title",
    "type",
    "additionalProperties",
    "format",
    "nullable",
    "deprecated",
    "description",
    "x-example-description",
    "example",
    "examples",
    "items",
    "properties",
    "default",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "multipleOf",
    "pattern",
    "enum",
    "required",
    "x-kubernetes-validations",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    /// OpenAPI 3.0: `nullable: true`, `example`.
    OpenApi,
    /// JSON Schema 2020-12: `type: [t, "null"]`, `examples`.
    JsonSchema,
}

/// Builds schema objects, collecting the warnings of rules left out.
pub struct Builder {
    flavor: Flavor,
    pub warnings: Vec<String>,
}

/// The constraints a node's rules translate to.
#[derive(Default)]
struct Constraints {
    required: bool,
    minimum: Option<(Node, f64)>,
    maximum: Option<(Node, f64)>,
    min_len: Option<u64>,
    max_len: Option<u64>,
    multiple_of: Option<Number>,
    pattern: Option<String>,
    format: Option<&'static str>,
    one_of: Option<Vec<Node>>,
    cel: Vec<(String, String)>,
}

pub fn str_node(s: &str) -> Node {
    Node::Str(s.to_owned())
}

pub fn map_node(entries: Vec<(Node, Node)>) -> Node {
    Node::Map(Map {
        items: entries
            .into_iter()
            .map(|(key, value)| MapItem {
                key,
                value,
                meta: Meta::default(),
            })
            .collect(),
    })
}

pub fn array_node(items: Vec<Node>) -> Node {
    Node::Array(Array {
        items: items
            .into_iter()
            .map(|value| ArrayItem {
                value,
                meta: Meta::default(),
            })
            .collect(),
    })
}

fn number_node(n: Number) -> Node {
    match n {
        Number::Int(i) => Node::Int(i.into()),
        Number::Float(f) => Node::Float(f),
    }
}

fn numeric(n: &Node) -> Option<f64> {
    match n {
        Node::Int(i) => Some(i.get() as f64),
        Node::Float(f) if f.is_finite() => Some(*f),
        _ => None,
    }
}

/// A regular expression matching `s` literally (escapes valid in RE2 and ECMA-262).
pub fn escape_regex(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// How CEL reaches `key` of `self`.
fn cel_member(key: &Node) -> String {
    const RESERVED: &[&str] = &[
        "true",
        "false",
        "null",
        "in",
        "as",
        "break",
        "const",
        "continue",
        "else",
        "for",
        "function",
        "if",
        "import",
        "let",
        "loop",
        "package",
        "namespace",
        "return",
        "var",
        "void",
        "while",
    ];
    match key {
        Node::Str(s) => {
            let ident = s
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !RESERVED.contains(&s.as_str());
            if ident {
                format!("self.{s}")
            } else {
                let quoted = s.replace('\\', "\\\\").replace('"', "\\\"");
                format!("self[\"{quoted}\"]")
            }
        }
        Node::Int(i) => format!("self[{i}]"),
        Node::Bool(b) => format!("self[{b}]"),
        other => {
            let text = crate::yaml::emit::yaml_node(other).trim_end().to_owned();
            format!(
                "self[\"{}\"]",
                text.replace('\\', "\\\\").replace('"', "\\\"")
            )
        }
    }
}

/// The pattern a rule gives, with its priority (lower wins): `matches`, then
/// `starts_with`, `ends_with`, `contains`.
fn pattern_of(f: &Field, r: &Rule) -> Option<(u8, String)> {
    if !matches!(f.kind, FieldKind::String) {
        return None;
    }
    match &r.check {
        Check::Matches(p) => Some((0, p.clone())),
        Check::StartsWith(p) => Some((1, format!("^{}", escape_regex(p)))),
        Check::EndsWith(p) => Some((2, format!("{}$", escape_regex(p)))),
        Check::Contains(Some(Node::Str(p))) => Some((3, escape_regex(p))),
        _ => None,
    }
}

fn exportable(r: &Rule) -> bool {
    !r.conditional && !r.warn
}

impl Builder {
    pub fn new(flavor: Flavor) -> Builder {
        Builder {
            flavor,
            warnings: Vec::new(),
        }
    }

    fn left_out(&mut self, path: &str, r: &Rule) {
        self.warnings.push(format!(
            "Warning: not exported: {}: {} (by: {})",
            shown_path(path),
            r.desc,
            r.by.describe()
        ));
    }

    /// The schema object of `f` (a map node, keywords in order) and whether the value is
    /// required (`not_null=True` on a nullable value).
    pub fn schema(&mut self, f: &Field, path: &str) -> (Node, bool) {
        let c = self.constraints(f, path);
        let nullable = (f.nullable || matches!(f.kind, FieldKind::Any)) && !c.required;
        let mut out: Vec<(&'static str, Node)> = Vec::new();

        if let Some(t) = &f.doc.title {
            out.push(("title", str_node(t)));
        }
        let type_name = match &f.kind {
            FieldKind::Any => None,
            FieldKind::String => Some("string"),
            FieldKind::Integer => Some("integer"),
            FieldKind::Float => Some("number"),
            FieldKind::Boolean => Some("boolean"),
            FieldKind::Map(_) => Some("object"),
            FieldKind::Array(_) => Some("array"),
        };
        if let Some(t) = type_name {
            let value = if self.flavor == Flavor::JsonSchema && nullable {
                array_node(vec![str_node(t), str_node("null")])
            } else {
                str_node(t)
            };
            out.push(("type", value));
        }
        if matches!(f.kind, FieldKind::Map(_)) {
            out.push(("additionalProperties", Node::Bool(false)));
        }
        if matches!(f.kind, FieldKind::Float) {
            out.push(("format", str_node("float")));
        } else if let Some(fmt) = c.format {
            out.push(("format", str_node(fmt)));
        }
        if nullable && self.flavor == Flavor::OpenApi {
            out.push(("nullable", Node::Bool(true)));
        }
        if f.doc.deprecated.is_some() {
            out.push(("deprecated", Node::Bool(true)));
        }
        if let Some(d) = &f.doc.description {
            out.push(("description", str_node(d)));
        }
        if let Some((desc, value)) = f.doc.examples.first() {
            out.push(("x-example-description", str_node(desc)));
            match self.flavor {
                Flavor::OpenApi => out.push(("example", value.clone())),
                Flavor::JsonSchema => out.push((
                    "examples",
                    array_node(f.doc.examples.iter().map(|(_, v)| v.clone()).collect()),
                )),
            }
        }
        let mut required = Vec::new();
        match &f.kind {
            FieldKind::Array(elem) => {
                let (items, _) = self.schema(elem, &item_path(path));
                out.push(("items", items));
            }
            FieldKind::Map(items) => {
                let mut props = Vec::with_capacity(items.len());
                for (key, child) in items {
                    let (s, req) = self.schema(child, &child_path(path, key));
                    // property names are strings in JSON Schema; the OpenAPI document keeps
                    // the key as the schema reads it (`on:` is `true:`), as the reference's
                    let name = str_node(&crate::validations::key_text(key));
                    if req {
                        required.push(name.clone());
                    }
                    let prop = match self.flavor {
                        Flavor::OpenApi => key.clone(),
                        Flavor::JsonSchema => name,
                    };
                    props.push((prop, s));
                }
                out.push(("properties", map_node(props)));
            }
            _ => {}
        }
        if !matches!(f.kind, FieldKind::Map(_)) && !c.required {
            out.push(("default", f.default.clone()));
        }
        if let Some((n, _)) = c.minimum {
            out.push(("minimum", n));
        }
        if let Some((n, _)) = c.maximum {
            out.push(("maximum", n));
        }
        let (min_key, max_key) = match f.kind {
            FieldKind::Array(_) => ("minItems", "maxItems"),
            FieldKind::Map(_) => ("minProperties", "maxProperties"),
            _ => ("minLength", "maxLength"),
        };
        if let Some(n) = c.min_len {
            out.push((min_key, Node::Int(n.into())));
        }
        if let Some(n) = c.max_len {
            out.push((max_key, Node::Int(n.into())));
        }
        if let Some(n) = c.multiple_of {
            out.push(("multipleOf", number_node(n)));
        }
        if let Some(p) = c.pattern {
            out.push(("pattern", str_node(&p)));
        }
        if let Some(mut values) = c.one_of {
            // rules skip null values: a nullable value's enum lists null
            if nullable && !values.iter().any(Node::is_null) {
                values.push(Node::Null);
            }
            out.push(("enum", array_node(values)));
        }
        if !required.is_empty() {
            out.push(("required", array_node(required)));
        }
        if !c.cel.is_empty() {
            let rules = c
                .cel
                .into_iter()
                .map(|(rule, message)| {
                    map_node(vec![
                        (str_node("rule"), str_node(&rule)),
                        (str_node("message"), str_node(&message)),
                    ])
                })
                .collect();
            out.push(("x-kubernetes-validations", array_node(rules)));
        }
        out.sort_by_key(|(k, _)| ORDER.iter().position(|o| o == k).unwrap_or(ORDER.len()));
        let node = map_node(out.into_iter().map(|(k, v)| (str_node(k), v)).collect());
        (node, c.required)
    }

    /// Translates the rules of `f`; each rule that cannot be expressed is a warning.
    fn constraints(&mut self, f: &Field, path: &str) -> Constraints {
        let mut c = Constraints::default();
        // the one pattern exported: the first of the highest priority
        let chosen_pattern = f
            .rules
            .iter()
            .enumerate()
            .filter(|(_, r)| exportable(r))
            .filter_map(|(i, r)| pattern_of(f, r).map(|(prio, _)| (prio, i)))
            .min()
            .map(|(_, i)| i);
        let numeric_kind = matches!(f.kind, FieldKind::Integer | FieldKind::Float);
        let sized_kind = matches!(
            f.kind,
            FieldKind::String | FieldKind::Array(_) | FieldKind::Map(_)
        );
        for (i, r) in f.rules.iter().enumerate() {
            if matches!(r.check, Check::Off) {
                continue;
            }
            if !exportable(r) {
                self.left_out(path, r);
                continue;
            }
            let ok = match &r.check {
                Check::Custom => false,
                Check::NotNull => {
                    if f.nullable || matches!(f.kind, FieldKind::Any) {
                        c.required = true;
                    }
                    true
                }
                Check::Min(b) | Check::Max(b) => {
                    match b.as_ref().and_then(|n| numeric(n).map(|x| (n.clone(), x))) {
                        Some(bound) if numeric_kind => {
                            let is_min = matches!(r.check, Check::Min(_));
                            let slot = if is_min {
                                &mut c.minimum
                            } else {
                                &mut c.maximum
                            };
                            let stricter = match slot {
                                None => true,
                                Some((_, old)) => {
                                    if is_min {
                                        bound.1 > *old
                                    } else {
                                        bound.1 < *old
                                    }
                                }
                            };
                            if stricter {
                                *slot = Some(bound);
                            }
                            true
                        }
                        _ => false,
                    }
                }
                Check::MinLen(n) if sized_kind => {
                    let n = match *n {
                        Number::Int(i) => i.max(0) as u64,
                        Number::Float(x) => x.ceil().max(0.0) as u64,
                    };
                    c.min_len = Some(c.min_len.map_or(n, |o| o.max(n)));
                    true
                }
                Check::MaxLen(n) if sized_kind => {
                    let n = match *n {
                        Number::Int(i) if i >= 0 => Some(i as u64),
                        Number::Float(x) if x >= 0.0 => Some(x.floor() as u64),
                        _ => None,
                    };
                    match n {
                        Some(n) => {
                            c.max_len = Some(c.max_len.map_or(n, |o| o.min(n)));
                            true
                        }
                        None => false,
                    }
                }
                Check::Len(n) if sized_kind && *n >= 0 => {
                    let n = *n as u64;
                    c.min_len = Some(c.min_len.map_or(n, |o| o.max(n)));
                    c.max_len = Some(c.max_len.map_or(n, |o| o.min(n)));
                    true
                }
                Check::OneOf(values) => {
                    c.one_of = Some(match c.one_of.take() {
                        None => values.clone(),
                        Some(old) => old
                            .into_iter()
                            .filter(|o| values.iter().any(|v| v.value_eq(o)))
                            .collect(),
                    });
                    true
                }
                Check::Matches(_)
                | Check::StartsWith(_)
                | Check::EndsWith(_)
                | Check::Contains(_) => match pattern_of(f, r) {
                    Some((_, p)) if chosen_pattern == Some(i) => {
                        c.pattern = Some(p);
                        true
                    }
                    _ => false,
                },
                Check::Format(fmt)
                    if matches!(f.kind, FieldKind::String)
                        && c.format.is_none_or(|old| old == fmt.name()) =>
                {
                    c.format = Some(fmt.name());
                    true
                }
                Check::Even if numeric_kind => self.multiple(&mut c, Number::Int(2)),
                Check::MultipleOf(n) if numeric_kind => self.multiple(&mut c, *n),
                Check::Odd if matches!(f.kind, FieldKind::Integer) => {
                    c.cel.push(("self % 2 != 0".into(), r.desc.clone()));
                    true
                }
                Check::OneNotNull(keys) => match (&f.kind, keys) {
                    (FieldKind::Map(items), keys) => {
                        let keys: Vec<&Node> = match keys {
                            Some(k) => k.iter().collect(),
                            None => items.iter().map(|(k, _)| k).collect(),
                        };
                        if keys.is_empty() {
                            false
                        } else {
                            let members: Vec<String> = keys.into_iter().map(cel_member).collect();
                            c.cel.push((
                                format!(
                                    "[{}].filter(x, x != null).size() == 1",
                                    members.join(", ")
                                ),
                                r.desc.clone(),
                            ));
                            true
                        }
                    }
                    _ => false,
                },
                Check::Cel(source) => {
                    c.cel.push((source.clone(), r.desc.clone()));
                    true
                }
                _ => false,
            };
            if !ok {
                self.left_out(path, r);
            }
        }
        c
    }

    /// Adds a `multipleOf`: two integers combine into their least common multiple.
    fn multiple(&mut self, c: &mut Constraints, n: Number) -> bool {
        c.multiple_of = match (c.multiple_of, n) {
            (None, n) => Some(n),
            (Some(Number::Int(a)), Number::Int(b)) => match lcm(a, b) {
                Some(m) => Some(Number::Int(m)),
                None => return false,
            },
            (Some(old), n) if old == n => Some(old),
            _ => return false,
        };
        true
    }
}

fn lcm(a: i64, b: i64) -> Option<i64> {
    let (a, b) = (a.checked_abs()?, b.checked_abs()?);
    if a == 0 || b == 0 {
        return None;
    }
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    (a / x).checked_mul(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        assert_eq!(escape_regex("a.b*(c)"), "a\\.b\\*\\(c\\)");
        assert_eq!(escape_regex("x-y"), "x-y");
        assert_eq!(cel_member(&str_node("ok_1")), "self.ok_1");
        assert_eq!(cel_member(&str_node("a-b")), "self[\"a-b\"]");
        assert_eq!(cel_member(&str_node("in")), "self[\"in\"]");
        assert_eq!(cel_member(&Node::Int(3.into())), "self[3]");
        assert_eq!(lcm(4, 6), Some(12));
        assert_eq!(lcm(i64::MAX, i64::MAX - 1), None);
        assert_eq!(lcm(0, 2), None);
    }
}
