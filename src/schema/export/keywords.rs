//! One schema object per schema node, shared by the OpenAPI and JSON Schema exports:
//! types, documentation, defaults and the constraints of the node's rules, in the
//! keywords' fixed order. Rules that cannot be expressed are collected as warnings.

use std::collections::HashMap;

use regex::Regex;

use super::{child_path, ecma, item_path, shown_path, Check, Field, FieldKind, Rule};
use crate::validations::cel;
use crate::validations::formats::Format;
use crate::validations::named::{
    self, Cel, Contains, EndsWith, Even, Len, Matches, Max, MaxLen, Min, MinLen, MultipleOf,
    NamedRule, Number, Odd, OneNotNull, OneOf, StartsWith,
};
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
    "not",
    "oneOf",
    "allOf",
    "required",
    "x-kubernetes-validations",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    /// OpenAPI 3.0: `nullable: true`, `example`, CEL rules as `x-kubernetes-validations`.
    OpenApi,
    /// JSON Schema 2020-12: `type: [t, "null"]`, `examples`, draft 2020-12 keywords only.
    JsonSchema,
}

/// Builds schema objects, collecting the warnings of rules left out.
pub struct Builder {
    flavor: Flavor,
    pub warnings: Vec<String>,
    /// The exported patterns and the regular expressions ytt runs for them (to check
    /// defaults and examples against the exported schema).
    patterns: HashMap<String, Regex>,
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
    /// ECMA-262 patterns: the first is `pattern`, the others go to `allOf`.
    patterns: Vec<String>,
    format: Option<&'static str>,
    one_of: Option<Vec<Node>>,
    /// `odd=True` (JSON Schema: `not: {multipleOf: 2}`).
    odd: bool,
    /// `one_not_null=` key sets (JSON Schema: `oneOf`).
    one_not_null: Vec<Vec<String>>,
    /// `x-kubernetes-validations` (OpenAPI only): rule and message.
    cel: Vec<(String, String)>,
}

pub fn str_node(s: &str) -> Node {
    Node::Str(s.into())
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

/// `self.<field>` as Kubernetes names a property in CEL (escaped: `a-b` is
/// `self.a__dash__b`), or None when Kubernetes gives CEL no access to it.
fn cel_member(key: &Node) -> Option<String> {
    match key {
        Node::Str(s) => cel::escape_property(s).map(|f| format!("self.{f}")),
        _ => None,
    }
}

/// The Kubernetes quantity grammar (integer exponents, as the API server parses them);
/// the same expression ytt's `format="quantity"` uses.
pub const QUANTITY_PATTERN: &str = crate::validations::formats::QUANTITY_PATTERN;

/// The pattern a rule gives on a string (a `matches=` pattern as written in RE2; the
/// others escaped).
fn pattern_of(f: &Field, rule: &NamedRule) -> Option<String> {
    if !matches!(f.kind, FieldKind::String) {
        return None;
    }
    match rule {
        NamedRule::Matches(Matches(p)) => Some(p.source.clone()),
        NamedRule::StartsWith(StartsWith(p)) => Some(format!("^{}", escape_regex(p))),
        NamedRule::EndsWith(EndsWith(p)) => Some(format!("{}$", escape_regex(p))),
        NamedRule::Contains(Contains {
            value: Node::Str(p),
            ..
        }) => Some(escape_regex(p)),
        NamedRule::Format(named::Format(Format::Quantity)) => Some(QUANTITY_PATTERN.to_owned()),
        _ => None,
    }
}

fn exportable(r: &Rule) -> bool {
    !r.conditional && !r.warn
}

fn get<'a>(schema: &'a Node, key: &str) -> Option<&'a Node> {
    match schema {
        Node::Map(m) => m
            .items
            .iter()
            .find(|i| matches!(&i.key, Node::Str(k) if k == key))
            .map(|i| &i.value),
        _ => None,
    }
}

fn items_of(n: &Node) -> &[ArrayItem] {
    match n {
        Node::Array(a) => &a.items,
        _ => &[],
    }
}

/// `type` (and `nullable`).
fn type_accepts(schema: &Node, value: &Node) -> bool {
    let nullable = get(schema, "nullable").is_some_and(|n| matches!(n, Node::Bool(true)));
    let types: Vec<&str> = match get(schema, "type") {
        Some(Node::Str(t)) => vec![t.as_str()],
        Some(Node::Array(a)) => a
            .items
            .iter()
            .filter_map(|i| match &i.value {
                Node::Str(s) => Some(s.as_str()),
                _ => None,
            })
            .collect(),
        _ => return true,
    };
    types.is_empty()
        || types.iter().any(|t| match (*t, value) {
            ("null", Node::Null) => true,
            ("string", Node::Str(_)) => true,
            ("integer", Node::Int(_)) => true,
            ("integer", Node::Float(f)) => f.fract() == 0.0,
            ("number", Node::Int(_) | Node::Float(_)) => true,
            ("boolean", Node::Bool(_)) => true,
            ("object", Node::Map(_)) => true,
            ("array", Node::Array(_)) => true,
            _ => false,
        })
        || (nullable && value.is_null())
}

/// `enum`, `minimum`, `maximum`, `multipleOf`, and the bounds of a length.
fn bounds_accept(schema: &Node, value: &Node) -> bool {
    if let Some(allowed) = get(schema, "enum") {
        if !items_of(allowed).iter().any(|i| i.value.value_eq(value)) {
            return false;
        }
    }
    if let Some(x) = numeric(value) {
        if get(schema, "minimum")
            .and_then(numeric)
            .is_some_and(|m| x < m)
            || get(schema, "maximum")
                .and_then(numeric)
                .is_some_and(|m| x > m)
        {
            return false;
        }
        if let Some(m) = get(schema, "multipleOf") {
            let m = match m {
                Node::Int(i) => Number::of_int(i.get()),
                Node::Float(f) => Number::Float(*f),
                _ => Number::Int(1),
            };
            if named::multiple_of(value, m).is_err() {
                return false;
            }
        }
    }
    let (n, min_key, max_key) = match value {
        Node::Str(s) => (s.chars().count(), "minLength", "maxLength"),
        Node::Array(a) => (a.items.len(), "minItems", "maxItems"),
        Node::Map(m) => (m.items.len(), "minProperties", "maxProperties"),
        _ => return true,
    };
    let bound = |k: &str| match get(schema, k) {
        Some(Node::Int(i)) => Some(i.get()),
        _ => None,
    };
    !(bound(min_key).is_some_and(|m| (n as i128) < m)
        || bound(max_key).is_some_and(|m| (n as i128) > m))
}

/// `x-kubernetes-validations`, evaluated by ytt's CEL (a null value skips them).
fn cel_accepts(schema: &Node, value: &Node) -> bool {
    let Some(rules) = get(schema, "x-kubernetes-validations") else {
        return true;
    };
    value.is_null()
        || items_of(rules).iter().all(|r| match get(&r.value, "rule") {
            Some(Node::Str(src)) => cel::compile(src)
                .ok()
                .is_some_and(|rule| cel::evaluate(&rule, value) == Ok(true)),
            _ => true,
        })
}

impl Builder {
    pub fn new(flavor: Flavor) -> Builder {
        Builder {
            flavor,
            warnings: Vec::new(),
            patterns: HashMap::new(),
        }
    }

    fn left_out(&mut self, path: &str, r: &Rule) {
        self.left_out_text(path, &r.desc, &r.by.to_string());
    }

    fn left_out_text(&mut self, path: &str, what: &str, by: &str) {
        self.warnings.push(format!(
            "Warning: not exported: {}: {} (by: {})",
            shown_path(path),
            what,
            by
        ));
    }

    /// The schema object of `f` (a map node, keywords in order) and whether the value is
    /// required: `not_null=True` on a nullable value, a default that breaks the node's
    /// own constraints (`min_len=1` on `""`), or a map with a required key.
    pub fn schema(&mut self, f: &Field, path: &str) -> (Node, bool) {
        let c = self.constraints(f, path);
        let mut required_self = c.required;
        let nullable = (f.nullable || matches!(f.kind, FieldKind::Any)) && !c.required;
        let mut out = self.type_keywords(f, c.format, nullable);
        let required = self.children(f, path, &mut out);
        if !required.is_empty() {
            out.push(("required", array_node(required)));
            // a map has no default: it must be given when one of its keys must be
            if !nullable {
                required_self = true;
            }
        }
        self.constraint_keywords(f, c, nullable, &mut out);
        out.sort_by_key(|(k, _)| ORDER.iter().position(|o| o == k).unwrap_or(ORDER.len()));
        let node = map_node(out.into_iter().map(|(k, v)| (str_node(k), v)).collect());
        self.with_default_and_examples(f, path, node, required_self)
    }

    /// The keywords of the node's type and documentation.
    fn type_keywords(
        &self,
        f: &Field,
        format: Option<&'static str>,
        nullable: bool,
    ) -> Vec<(&'static str, Node)> {
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
        } else if let Some(fmt) = format {
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
        out
    }

    /// An array's `items`, a map's `properties`: the schemas of the node's children.
    /// Returns the names of the required properties.
    fn children(
        &mut self,
        f: &Field,
        path: &str,
        out: &mut Vec<(&'static str, Node)>,
    ) -> Vec<Node> {
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
        required
    }

    /// The keywords the node's rules translate to (`c`).
    fn constraint_keywords(
        &self,
        f: &Field,
        c: Constraints,
        nullable: bool,
        out: &mut Vec<(&'static str, Node)>,
    ) {
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
        let mut all_of = Vec::new();
        for (i, p) in c.patterns.iter().enumerate() {
            if i == 0 {
                out.push(("pattern", str_node(p)));
            } else {
                all_of.push(map_node(vec![(str_node("pattern"), str_node(p))]));
            }
        }
        if let Some(mut values) = c.one_of {
            // rules skip null values: a nullable value's enum lists null
            if nullable && !values.iter().any(Node::is_null) {
                values.push(Node::Null);
            }
            out.push(("enum", array_node(values)));
        }
        if c.odd {
            let mut not = Vec::new();
            if nullable {
                // null skips rules: only a number that is a multiple of 2 is refused
                not.push((str_node("type"), str_node("integer")));
            }
            not.push((str_node("multipleOf"), Node::Int(2.into())));
            out.push(("not", map_node(not)));
        }
        for (i, keys) in c.one_not_null.iter().enumerate() {
            let one_of = one_not_null_branches(keys, nullable);
            if i == 0 {
                out.push(("oneOf", one_of));
            } else {
                all_of.push(map_node(vec![(str_node("oneOf"), one_of)]));
            }
        }
        if !all_of.is_empty() {
            out.push(("allOf", array_node(all_of)));
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
    }

    /// `node` with the field's default and examples, each when it satisfies the schema it
    /// is part of: a default that does not is the required-input pattern, left out, the
    /// value listed as required (the second of the result).
    fn with_default_and_examples(
        &mut self,
        f: &Field,
        path: &str,
        mut node: Node,
        mut required: bool,
    ) -> (Node, bool) {
        if !matches!(f.kind, FieldKind::Map(_)) && !required {
            if self.accepts(&node, &f.default, 0) {
                insert_ordered(&mut node, "default", f.default.clone());
            } else {
                required = true;
            }
        }
        let mut examples = Vec::new();
        for (desc, value) in &f.doc.examples {
            if self.accepts(&node, value, 0) {
                examples.push((desc, value));
            } else {
                let by = f.pos.to_string();
                self.left_out_text(
                    path,
                    &format!("example \"{desc}\" (it breaks the exported constraints)"),
                    &by,
                );
            }
        }
        if let Some((desc, value)) = examples.first() {
            match self.flavor {
                Flavor::OpenApi => {
                    insert_ordered(&mut node, "x-example-description", str_node(desc));
                    insert_ordered(&mut node, "example", (*value).clone());
                }
                // (no `x-example-description`: strict validators refuse unknown keywords)
                Flavor::JsonSchema => insert_ordered(
                    &mut node,
                    "examples",
                    array_node(examples.iter().map(|(_, v)| (*v).clone()).collect()),
                ),
            }
        }
        (node, required)
    }

    /// Whether `value` is valid against `schema`, an object this builder made: the
    /// keywords it emits, with ytt's own checks behind them (its regular expressions,
    /// formats and CEL evaluation), so that the answer is a consumer's.
    fn accepts(&self, schema: &Node, value: &Node, depth: usize) -> bool {
        depth <= super::MAX_DEPTH
            && type_accepts(schema, value)
            && bounds_accept(schema, value)
            && self.text_accepts(schema, value)
            && self.combinations_accept(schema, value, depth)
            && self.children_accept(schema, value, depth)
            && cel_accepts(schema, value)
    }

    /// `pattern` (the regular expression ytt runs for it) and `format`.
    fn text_accepts(&self, schema: &Node, value: &Node) -> bool {
        let Node::Str(s) = value else {
            return true;
        };
        if let Some(Node::Str(p)) = get(schema, "pattern") {
            if !self
                .patterns
                .get(p.as_str())
                .is_some_and(|re| re.is_match(s))
            {
                return false;
            }
        }
        match get(schema, "format") {
            Some(Node::Str(name)) => Format::parse(name).is_none_or(|fmt| fmt.is_valid(s)),
            _ => true,
        }
    }

    /// `not`, `oneOf`, `allOf`.
    fn combinations_accept(&self, schema: &Node, value: &Node, depth: usize) -> bool {
        if let Some(not) = get(schema, "not") {
            if self.accepts(not, value, depth + 1) {
                return false;
            }
        }
        if let Some(branches) = get(schema, "oneOf") {
            let holding = items_of(branches)
                .iter()
                .filter(|b| self.accepts(&b.value, value, depth + 1))
                .count();
            if holding != 1 {
                return false;
            }
        }
        match get(schema, "allOf") {
            Some(all) => items_of(all)
                .iter()
                .all(|b| self.accepts(&b.value, value, depth + 1)),
            None => true,
        }
    }

    /// A map's `properties` (closed by `additionalProperties`) and `required`, an
    /// array's `items`.
    fn children_accept(&self, schema: &Node, value: &Node, depth: usize) -> bool {
        match value {
            Node::Map(m) => {
                let props = get(schema, "properties");
                let closed = matches!(get(schema, "additionalProperties"), Some(Node::Bool(false)));
                for i in &m.items {
                    let name = crate::validations::key_text(&i.key);
                    match props.and_then(|p| get(p, &name)) {
                        Some(s) if !self.accepts(s, &i.value, depth + 1) => return false,
                        Some(_) => {}
                        None if closed => return false,
                        None => {}
                    }
                }
                let Some(req) = get(schema, "required") else {
                    return true;
                };
                items_of(req).iter().all(|r| match &r.value {
                    Node::Str(k) => m
                        .items
                        .iter()
                        .any(|i| crate::validations::key_text(&i.key) == k.as_str()),
                    _ => true,
                })
            }
            Node::Array(a) => match get(schema, "items") {
                Some(s) => a.items.iter().all(|i| self.accepts(s, &i.value, depth + 1)),
                None => true,
            },
            _ => true,
        }
    }

    /// Translates the rules of `f`; each rule that cannot be expressed is a warning.
    fn constraints(&mut self, f: &Field, path: &str) -> Constraints {
        let mut c = Constraints::default();
        // patterns in priority order: `matches=` first (the one `pattern`), then
        // `starts_with=`, `ends_with=`, `contains=`, `format="quantity"` (in `allOf`)
        let prio = |r: &Rule| match &r.check {
            Check::Named(NamedRule::Matches(_)) => 0,
            Check::Named(NamedRule::StartsWith(_)) => 1,
            Check::Named(NamedRule::EndsWith(_)) => 2,
            Check::Named(NamedRule::Contains(_)) => 3,
            _ => 4,
        };
        let mut order: Vec<&Rule> = f.rules.iter().collect();
        order.sort_by_key(|r| prio(r));
        for r in order {
            if matches!(&r.check, Check::Named(n) if n.is_off()) {
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
                Check::Named(rule) => self.named(&mut c, f, r, rule),
            };
            if !ok {
                self.left_out(path, r);
            }
        }
        c
    }

    /// Adds the constraints of the named rule `rule` (of `r`, a rule of `f`): how each one
    /// exports. False when it has none.
    fn named(&mut self, c: &mut Constraints, f: &Field, r: &Rule, rule: &NamedRule) -> bool {
        let numeric_kind = matches!(f.kind, FieldKind::Integer | FieldKind::Float);
        let sized_kind = matches!(
            f.kind,
            FieldKind::String | FieldKind::Array(_) | FieldKind::Map(_)
        );
        match rule {
            NamedRule::Min(Min(b)) => numeric_kind && bound(&mut c.minimum, b.as_ref(), true),
            NamedRule::Max(Max(b)) => numeric_kind && bound(&mut c.maximum, b.as_ref(), false),
            NamedRule::MinLen(MinLen(n)) if sized_kind => {
                let n = match *n {
                    Number::Int(i) => i.max(0) as u64,
                    Number::Float(x) => x.ceil().max(0.0) as u64,
                };
                c.min_len = Some(c.min_len.map_or(n, |o| o.max(n)));
                true
            }
            NamedRule::MaxLen(MaxLen(n)) if sized_kind => {
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
            NamedRule::Len(Len(n)) if sized_kind && *n >= 0 => {
                let n = *n as u64;
                c.min_len = Some(c.min_len.map_or(n, |o| o.max(n)));
                c.max_len = Some(c.max_len.map_or(n, |o| o.min(n)));
                true
            }
            NamedRule::OneOf(OneOf(values)) => {
                c.one_of = Some(match c.one_of.take() {
                    None => values.clone(),
                    Some(old) => old
                        .into_iter()
                        .filter(|o| values.iter().any(|v| v.value_eq(o)))
                        .collect(),
                });
                true
            }
            NamedRule::Matches(_)
            | NamedRule::StartsWith(_)
            | NamedRule::EndsWith(_)
            | NamedRule::Contains(_)
            | NamedRule::Format(named::Format(Format::Quantity)) => match pattern_of(f, rule) {
                Some(p) => self.add_pattern(c, &p),
                None => false,
            },
            NamedRule::Format(named::Format(fmt))
                if matches!(f.kind, FieldKind::String)
                    && c.format.is_none_or(|old| old == fmt.name()) =>
            {
                c.format = Some(fmt.name());
                true
            }
            NamedRule::Even(Even(true)) if numeric_kind => self.multiple(c, Number::Int(2)),
            NamedRule::MultipleOf(MultipleOf(n)) if numeric_kind => self.multiple(c, *n),
            NamedRule::Odd(Odd(true)) if matches!(f.kind, FieldKind::Integer) => {
                match self.flavor {
                    Flavor::JsonSchema => c.odd = true,
                    Flavor::OpenApi => c.cel.push(("self % 2 != 0".into(), r.desc.clone())),
                }
                true
            }
            NamedRule::OneNotNull(OneNotNull(keys)) => match (&f.kind, keys) {
                (FieldKind::Map(items), keys) => {
                    let keys: Vec<&Node> = match keys {
                        Some(k) => k.iter().collect(),
                        None => items.iter().map(|(k, _)| k).collect(),
                    };
                    self.one_not_null(c, &keys, r)
                }
                _ => false,
            },
            NamedRule::Cel(Cel(expr)) => match self.flavor {
                Flavor::OpenApi => {
                    c.cel.push((expr.0.source.clone(), r.desc.clone()));
                    true
                }
                // not a JSON Schema keyword: strict validators refuse unknown ones
                Flavor::JsonSchema => false,
            },
            // on a value of another type, or off (every rule is named here, so that a new
            // one cannot be left out unnoticed)
            NamedRule::MinLen(_)
            | NamedRule::MaxLen(_)
            | NamedRule::Len(_)
            | NamedRule::Format(_)
            | NamedRule::Even(_)
            | NamedRule::Odd(_)
            | NamedRule::MultipleOf(_) => false,
        }
    }

    /// Adds a pattern, translated to ECMA-262; false when it has no exact translation.
    fn add_pattern(&mut self, c: &mut Constraints, re2: &str) -> bool {
        let (Ok(ecma), Ok(re)) = (ecma::translate(re2), crate::validations::re2::compile(re2))
        else {
            return false;
        };
        if !c.patterns.contains(&ecma) {
            self.patterns.insert(ecma.clone(), re);
            c.patterns.push(ecma);
        }
        true
    }

    /// `one_not_null=`: a `oneOf` of required, non-null keys (JSON Schema), or a CEL
    /// rule that counts the keys present (OpenAPI: Kubernetes drops null values, so a
    /// present key is a non-null one).
    fn one_not_null(&mut self, c: &mut Constraints, keys: &[&Node], r: &Rule) -> bool {
        if keys.is_empty() {
            return false;
        }
        match self.flavor {
            Flavor::JsonSchema => {
                c.one_not_null.push(
                    keys.iter()
                        .map(|k| crate::validations::key_text(k).into_owned())
                        .collect(),
                );
                true
            }
            Flavor::OpenApi => {
                let members: Option<Vec<String>> = keys
                    .iter()
                    .map(|k| cel_member(k).map(|m| format!("has({m})")))
                    .collect();
                let Some(members) = members else {
                    return false;
                };
                let rule = if members.len() == 1 {
                    members[0].clone()
                } else {
                    format!("[{}].exists_one(x, x)", members.join(", "))
                };
                c.cel.push((rule, r.desc.clone()));
                true
            }
        }
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

/// `minimum` (`at_least`) or `maximum` from a bound that is a number: the stricter of it
/// and the one in `slot`. False for a bound of another type.
fn bound(slot: &mut Option<(Node, f64)>, b: Option<&Node>, at_least: bool) -> bool {
    let Some(bound) = b.and_then(|n| numeric(n).map(|x| (n.clone(), x))) else {
        return false;
    };
    let stricter = match slot {
        None => true,
        Some((_, old)) if at_least => bound.1 > *old,
        Some((_, old)) => bound.1 < *old,
    };
    if stricter {
        *slot = Some(bound);
    }
    true
}

/// `one_not_null=` keys as a `oneOf`: exactly one branch holds, the one whose key is
/// present and not null (and, `nullable`, one for a null map, which rules skip).
fn one_not_null_branches(keys: &[String], nullable: bool) -> Node {
    let mut branches: Vec<Node> = keys
        .iter()
        .map(|k| {
            map_node(vec![
                (
                    str_node("properties"),
                    map_node(vec![(
                        str_node(k),
                        map_node(vec![(
                            str_node("not"),
                            map_node(vec![(str_node("type"), str_node("null"))]),
                        )]),
                    )]),
                ),
                (str_node("required"), array_node(vec![str_node(k)])),
            ])
        })
        .collect();
    if nullable {
        branches.push(map_node(vec![(str_node("type"), str_node("null"))]));
    }
    array_node(branches)
}

/// Inserts `key: value` into a schema object at its place in [`ORDER`].
fn insert_ordered(node: &mut Node, key: &'static str, value: Node) {
    let Node::Map(m) = node else { return };
    let rank = |k: &Node| match k {
        Node::Str(s) => ORDER.iter().position(|o| o == s).unwrap_or(ORDER.len()),
        _ => ORDER.len(),
    };
    let mine = rank(&str_node(key));
    let at = m
        .items
        .iter()
        .position(|i| rank(&i.key) > mine)
        .unwrap_or(m.items.len());
    m.items.insert(
        at,
        MapItem {
            key: str_node(key),
            value,
            meta: Meta::default(),
        },
    );
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
        assert_eq!(cel_member(&str_node("ok_1")).unwrap(), "self.ok_1");
        assert_eq!(cel_member(&str_node("a-b")).unwrap(), "self.a__dash__b");
        assert_eq!(cel_member(&str_node("in")).unwrap(), "self.__in__");
        assert_eq!(cel_member(&str_node("a b")), None);
        assert_eq!(cel_member(&Node::Int(3.into())), None);
        assert_eq!(lcm(4, 6), Some(12));
        assert_eq!(lcm(i64::MAX, i64::MAX - 1), None);
        assert_eq!(lcm(0, 2), None);
    }
}
