//! ytt-rs: a re-implementation of Carvel's ytt YAML templating tool.

pub mod yaml;
pub mod files;
pub mod workspace;
pub mod eval;
pub mod stdlib;
pub mod template;
pub mod cmd;
pub mod overlay;
pub mod schema;
pub mod validations;
