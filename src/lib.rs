//! The engine of ytt-rs, a re-implementation of Carvel's ytt YAML templating tool:
//! YAML, templates, evaluation, overlays, schemas, validations and libraries, over files
//! given in memory. The command line (`ytt-cli`) reads and writes the files.

pub mod bytestr;
mod cores;
pub mod diagnostic;
pub mod eval;
pub mod files;
pub mod fmt;
pub mod modules;
pub mod overlay;
pub mod schema;
pub mod template;
pub mod typenames;
pub mod validations;
pub mod workspace;
pub mod yaml;
