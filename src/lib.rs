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
//! The API is what this page lists. The modules marked hidden (`eval`, `overlay`,
//! `template`, `validations`, `typenames`, `bytestr`) are shared with `ytt-stdlib` and
//! `ytt-cli` and may change with them.

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
mod messages;
pub mod modules;
pub mod schema;
pub mod workspace;
pub mod yaml;

#[doc(hidden)]
pub mod bytestr;
#[doc(hidden)]
pub mod eval;
#[doc(hidden)]
pub mod overlay;
#[doc(hidden)]
pub mod template;
#[doc(hidden)]
pub mod typenames;
#[doc(hidden)]
pub mod validations;

#[cfg(test)]
mod layers_tests;
