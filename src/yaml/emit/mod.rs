//! Emitters: ytt-style YAML (go-yaml v2's emitter), Go-style JSON and the `pos` format.

mod ahead;
mod float;
mod go_key;
mod json;
mod pos;
mod split;
mod yaml;

#[cfg(test)]
mod tests;

pub use ahead::AheadWriter;
pub(crate) use float::write_float_go_v;
pub use float::{format_float_json, format_float_str, format_float_yaml};
pub use go_key::{key_go, write_key_go};
pub use json::{json_docset, json_texts, json_value};
pub use pos::pos_docset;
pub use yaml::{write_document, yaml_docset, yaml_node, yaml_texts};

/// Why a value cannot be written in the requested format.
#[derive(Debug, thiserror::Error)]
pub enum EmitError {
    /// JSON object keys must be strings (the reference panics here).
    #[error("Expected map key to be a string to encode as JSON, but found '{0}'")]
    NonStringKey(String),
    /// JSON has no spelling for infinities and NaN (the reference silently drops the
    /// document).
    #[error("Unsupported float value '{0}': JSON cannot represent infinity or NaN")]
    UnsupportedFloat(String),
}
