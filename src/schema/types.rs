//! The schema's type tree: one [`Type`] per schema node, inferred from the node's value
//! and its `@schema/...` annotations, with its default value and documentation.

use std::sync::Arc;

use crate::yaml::{Annotation, Node, Pos};

/// What values a schema node accepts.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// `@schema/type any=True`: anything.
    Any,
    String,
    Integer,
    /// Floats, and ints (which stay ints).
    Float,
    Boolean,
    /// A closed set of keys.
    Map(Vec<MapItemType>),
    /// Elements of one type.
    Array(Box<Type>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct MapItemType {
    pub key: Node,
    pub ty: Type,
}

/// Documentation of a schema node (for export).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TypeDoc {
    pub title: Option<String>,
    pub description: Option<String>,
    /// `(description, value)` pairs, in order.
    pub examples: Vec<(String, Node)>,
    /// The deprecation notice.
    pub deprecated: Option<String>,
}

/// The type of one schema node.
#[derive(Clone, Debug, PartialEq)]
pub struct Type {
    pub kind: Kind,
    /// `@schema/nullable`: null is accepted as well.
    pub nullable: bool,
    /// Where the node was declared (the item holding the value): `by schema.yml:4`.
    pub pos: Pos,
    /// The value a data value of this type starts with.
    pub default: Node,
    pub doc: TypeDoc,
    /// `schema/validation` annotations for data values of this type (including those
    /// coming from `@schema/validation-defaults-for-strings`), positioned where written.
    pub validations: Vec<Arc<Annotation>>,
}

impl Type {
    /// The type's name as reports print it (`integer`, `map`, …).
    pub fn name(&self) -> &'static str {
        self.kind.name()
    }

    pub fn is_any(&self) -> bool {
        matches!(self.kind, Kind::Any)
    }

    /// Whether values of this type are strings (for string validation defaults).
    pub fn is_string(&self) -> bool {
        matches!(self.kind, Kind::String)
    }

    /// The item type for `key`, when this is a map type.
    pub fn map_item(&self, key: &Node) -> Option<&Type> {
        match &self.kind {
            Kind::Map(items) => items.iter().find(|i| i.key.value_eq(key)).map(|i| &i.ty),
            _ => None,
        }
    }
}

impl Kind {
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Any => "any",
            Kind::String => "string",
            Kind::Integer => "integer",
            Kind::Float => "float",
            Kind::Boolean => "boolean",
            Kind::Map(_) => "map",
            Kind::Array(_) => "array",
        }
    }

    /// The kind a scalar value implies; `None` for null and collections.
    pub fn of_scalar(n: &Node) -> Option<Kind> {
        match n {
            Node::Str(_) => Some(Kind::String),
            Node::Int(_) => Some(Kind::Integer),
            Node::Float(_) => Some(Kind::Float),
            Node::Bool(_) => Some(Kind::Boolean),
            _ => None,
        }
    }
}
