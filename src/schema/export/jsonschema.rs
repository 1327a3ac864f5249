//! `-o json-schema`: the schema as a JSON Schema draft 2020-12 document: `$schema`, then
//! the keywords of the data-values document's schema.

use super::keywords::{str_node, Flavor};
use super::openapi::root_schema;
use super::SchemaExport;
use crate::yaml::{Map, MapItem, Meta, Node};
use thin_vec::thin_vec;

pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The document, and a warning for each rule left out.
pub fn document(export: &SchemaExport) -> (Node, Vec<String>) {
    let (schema, warnings) = root_schema(export, Flavor::JsonSchema);
    let mut items = thin_vec![MapItem {
        key: str_node("$schema"),
        value: str_node(DIALECT),
        meta: Meta::default(),
    }];
    if let Node::Map(m) = schema {
        items.extend(m.items);
    }
    (Node::Map(Map { items }), warnings)
}
