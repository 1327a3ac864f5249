//! The type names the reference prints in its messages. It has five vocabularies, each
//! used by its own messages, and they are listed here side by side so that none is
//! written twice and a message picks its vocabulary by name (a node's own, the one the
//! YAML layer uses too, is the node's method):
//!
//! | function | names | the reference's messages |
//! |---|---|---|
//! | [`starlark_go`] | `starlark.String`, `*starlark.Dict`, … | Starlark arguments of the wrong type (`assert`, `struct`, `overlay`) |
//! | [`converted_go`] | `int64`, `*orderedmap.Map`, … | a value converted for YAML that does not fit where it is set |
//! | [`node_go`] | `string`, `*yamlmeta.Map`, … | overlay matchers comparing nodes |
//! | [`Node::type_name`] (beside the node, in `yaml`) | `integer`, `map`, … | YAML nodes: schemas, overlays, `assert.valid_*` |
//! | [`rule`] | `int`, `map`, … | named validation rules (`min_len`, `one_of`, …) |

use starlark::values::Value;

use crate::yaml::Node;

/// The Go type of a Starlark value (`starlark.String`, `*starlark.Function`, …).
pub fn starlark_go(v: Value) -> String {
    match v.get_type() {
        "string" => "starlark.String".into(),
        "int" => "starlark.Int".into(),
        "float" => "starlark.Float".into(),
        "bool" => "starlark.Bool".into(),
        "NoneType" => "starlark.NoneType".into(),
        "list" => "*starlark.List".into(),
        "dict" => "*starlark.Dict".into(),
        "tuple" => "starlark.Tuple".into(),
        "set" => "*starlark.Set".into(),
        "function" => "*starlark.Function".into(),
        "struct" => "*starlarkstruct.Struct".into(),
        "module" => "*starlarkstruct.Module".into(),
        "yamlfragment" => "*yamltemplate.StarlarkFragment".into(),
        other => other.to_owned(),
    }
}

/// The Go type of a Starlark value once converted for YAML (`int64`, `[]interface {}`, …).
pub fn converted_go(v: Value) -> &'static str {
    match v.get_type() {
        "int" => "int64",
        "float" => "float64",
        "bool" => "bool",
        "NoneType" => "<nil>",
        "list" => "[]interface {}",
        "dict" => "*orderedmap.Map",
        _ => "starlark value",
    }
}

/// The Go type of a YAML node (`int`, `*yamlmeta.Map`, …).
pub fn node_go(n: &Node) -> &'static str {
    match n {
        Node::Null => "<nil>",
        Node::Bool(_) => "bool",
        Node::Int(_) => "int",
        Node::Float(_) => "float64",
        Node::Str(_) => "string",
        Node::Map(_) => "*yamlmeta.Map",
        Node::Array(_) => "*yamlmeta.Array",
    }
}

/// A node's type in the failures of named validation rules (`int`, `map`, …).
pub fn rule(n: &Node) -> &'static str {
    match n {
        Node::Null => "null",
        Node::Bool(_) => "bool",
        Node::Int(_) => "int",
        Node::Float(_) => "float",
        Node::Str(_) => "string",
        Node::Map(_) => "map",
        Node::Array(_) => "array",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_vocabularies_differ_where_the_reference_does() {
        let int = Node::Int(1.into());
        assert_eq!(
            (node_go(&int), int.type_name(), rule(&int)),
            ("int", "integer", "int")
        );
        let map = Node::Map(Default::default());
        assert_eq!(
            (node_go(&map), map.type_name(), rule(&map)),
            ("*yamlmeta.Map", "map", "map")
        );
        assert_eq!(
            (node_go(&Node::Null), Node::Null.type_name()),
            ("<nil>", "null")
        );
        assert_eq!(Node::Bool(true).type_name(), "boolean");
    }
}
