//! ytt-rs: a re-implementation of Carvel's ytt YAML templating tool.

pub mod bytestr;
pub mod cmd;
mod cores;
pub mod eval;
pub mod files;
pub mod fmt;
pub mod memory;
pub mod overlay;
pub mod schema;
pub mod stdlib;
pub mod template;
pub mod typenames;
pub mod validations;
pub mod workspace;
pub mod yaml;
