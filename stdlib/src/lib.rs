//! The `@ytt:` standard library of ytt-rs: the modules that do not need the running
//! library (`assert`, `json`, `yaml`, `toml`, `base64`, `md5`, `sha256`, `url`, `ip`,
//! `regexp`, `math`, `version`, `struct`, `module`), registered into a run by whoever
//! embeds the engine:
//!
//! ```
//! use ytt::{render, InputFile, OutputContent, RenderOptions};
//!
//! let template = b"#@ load(\"@ytt:json\", \"json\")\nconfig: #@ json.encode({\"port\": 8080})\n";
//! let opts = RenderOptions {
//!     modules: ytt_stdlib::modules(),
//!     ..RenderOptions::default()
//! };
//! let rendered = render(opts, vec![InputFile::new("app.yml", template.to_vec())])?;
//! let OutputContent::Yaml(docs) = &rendered.outputs[0].content else { unreachable!() };
//! let mut out = String::new();
//! ytt::yaml::emit::yaml_docset(docs, &mut out);
//! assert_eq!(out, "config: '{\"port\":8080}'\n");
//! # Ok::<(), ytt::Diagnostic>(())
//! ```
//!
//! The engine provides `template`, `data`, `library` and `overlay` itself. These modules
//! are written with `ytt::module_api`, as any `@ytt:` module outside the engine is.

use std::sync::OnceLock;

use ytt::module_api::{Modules, Register};

pub mod assert;
mod base64;
mod digest;
mod ip;
pub mod json;
pub mod math;
pub mod module;
mod regexp;
pub mod struct_;
#[cfg(test)]
mod testutil;
pub mod toml;
mod url;
pub mod version;
pub mod yaml;

/// Every module of this crate: name → the function adding its namespace (one symbol
/// named after the module) to a globals builder.
pub fn registry() -> &'static [(&'static str, Register)] {
    &[
        ("assert", assert::register),
        ("yaml", yaml::register),
        ("struct", struct_::register),
        ("module", module::register),
        ("json", json::register),
        ("toml", toml::register),
        ("version", version::register),
        ("base64", base64::register),
        ("md5", digest::register_md5),
        ("sha256", digest::register_sha256),
        ("url", url::register),
        ("ip", ip::register),
        ("regexp", regexp::register),
        ("math", math::register),
    ]
}

/// Every module of this crate, each built once per process when a run first loads it
/// (they hold no state).
pub fn modules() -> Modules {
    static MODULES: OnceLock<Modules> = OnceLock::new();
    MODULES
        .get_or_init(|| {
            registry()
                .iter()
                .fold(Modules::default(), |m, (name, register)| {
                    m.with(name, *register)
                })
        })
        .clone()
}

/// The frozen module `@ytt:<name>` of this crate.
pub fn builtin_module(name: &str) -> Option<starlark::environment::FrozenModule> {
    modules().get(name)
}
