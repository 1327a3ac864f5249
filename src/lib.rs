//! The engine of ytt-rs, a re-implementation of Carvel's ytt YAML templating tool:
//! YAML, templates, evaluation, overlays, schemas, validations and libraries, over files
//! given in memory. The command line (`ytt-cli`) reads and writes the files; the
//! standard library of `@ytt:` modules is the crate `ytt-stdlib`.
//!
//! A run: input files in memory and options in, output files (documents, text), the
//! final data values or the schema out, or a [`Diagnostic`]:
//!
//! ```
//! use ytt::{render, InputFile, OutputContent, RenderOptions};
//!
//! let files = vec![InputFile::new("app.yml", b"#@ x = 2\nreplicas: #@ x * 3\n".to_vec())];
//! let rendered = render(RenderOptions::default(), files).expect("renders");
//! let OutputContent::Yaml(docs) = &rendered.outputs[0].content else { panic!() };
//! let mut out = String::new();
//! ytt::yaml::emit::yaml_docset(docs, &mut out);
//! assert_eq!(out, "replicas: 6\n");
//!
//! let broken = vec![InputFile::new("app.yml", b"a: #@ 1 +\n".to_vec())];
//! let failure = render(RenderOptions::default(), broken).unwrap_err();
//! assert_eq!(failure.kind(), ytt::Kind::Template);
//! assert_eq!(failure.location().unwrap().to_string(), "app.yml:1");
//! ```
//!
//! The API is what this page lists: a run ([`render`]), its parts for a front end
//! ([`files`], [`yaml`], [`diagnostic`], [`schema`], [`fmt`], [`bytestr`]), and what a
//! `@ytt:` module is written with ([`module_api`], on which `ytt-stdlib` is built). The
//! rest of the engine is private; its white-box tests and fuzz targets reach a few of its
//! internals through the `unstable-internals` feature (`ytt::unstable`), which is no part
//! of the API.

pub use diagnostic::{Diagnostic, Kind};
pub use eval::budget::MemoryBudget;
pub use files::InputFile;
pub use messages::Messages;
pub use modules::Modules;
pub use workspace::{render, OutputContent, OutputFile, RenderOptions, Rendered};

mod cores;
pub mod diagnostic;
pub mod files;
pub mod fmt;
pub mod frontend;
mod messages;
pub mod module_api;
pub mod modules;
pub mod schema;
pub mod workspace;
pub mod yaml;

pub mod bytestr;
mod eval;
mod overlay;
mod template;
mod typenames;
mod validations;

/// The internals the engine's white-box tests and fuzz targets drive directly: the
/// template compiler and its nesting limits, the Starlark dialect, the CEL interpreter.
/// Behind the `unstable-internals` feature, no part of the API: they change with the
/// engine.
#[cfg(feature = "unstable-internals")]
pub mod unstable {
    pub use crate::eval::globals::dialect;
    pub use crate::template::nesting::{MAX_BLOCKS, MAX_NESTING};
    pub use crate::template::{compile_starlark, compile_text, compile_yaml, CompileOptions};

    /// The CEL rules of `@schema/validation` and `@assert/validate`.
    pub mod cel {
        pub use crate::validations::cel::{compile, evaluate};
    }
}

#[cfg(test)]
mod layers_tests;
