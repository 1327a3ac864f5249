//! Map keys as the reference writes them with Go's `%s` verb (its formatter, its overlay
//! errors' `Map item (key '…')`). A string key is written as it is, without quotes; any
//! other scalar key gets Go's "wrong verb" text, `%!s(TYPE=VALUE)`, with the Go type the
//! reference's YAML decoder gives it.

use super::write_float_go_v;
use crate::yaml::Node;

/// Writes `key` as Go's `%s` does.
pub fn write_key_go(out: &mut String, key: &Node) {
    match key {
        Node::Str(s) => out.push_str(s),
        Node::Null => out.push_str("%!s(<nil>)"),
        Node::Bool(b) => {
            out.push_str(if *b {
                "%!s(bool=true)"
            } else {
                "%!s(bool=false)"
            });
        }
        Node::Int(i) => {
            // go-yaml decodes integers into `int` (64 bits), larger ones into `uint64`
            let ty = if i64::try_from(i.get()).is_ok() {
                "int"
            } else {
                "uint64"
            };
            out.push_str(&format!("%!s({ty}={i})"));
        }
        Node::Float(f) => {
            out.push_str("%!s(float64=");
            write_float_go_v(out, *f);
            out.push(')');
        }
        // the parser only makes scalar keys
        Node::Map(_) | Node::Array(_) => out.push_str(key.type_name()),
    }
}

/// `key` as Go's `%s` writes it.
pub fn key_go(key: &Node) -> String {
    let mut out = String::new();
    write_key_go(&mut out, key);
    out
}
