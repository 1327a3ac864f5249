//! The `@ytt:` standard library modules that do not depend on the running library
//! (`data`, `library`, `template` and `overlay` are provided by the workspace/runtime).

use std::collections::HashMap;
use std::sync::OnceLock;

use starlark::environment::{FrozenModule, GlobalsBuilder, Module};

pub mod assert;
mod base64;
mod common;
mod digest;
mod ip;
pub mod json;
pub mod math;
pub mod module;
pub mod overlay;
mod regexp;
pub mod struct_;
#[cfg(test)]
mod testutil;
pub mod toml;
mod url;
pub mod version;
pub mod yaml;

/// Every module name the standard library has.
pub const MODULE_NAMES: &[&str] = &[
    "assert", "base64", "data", "ip", "json", "library", "math", "md5", "module", "overlay",
    "regexp", "sha256", "struct", "template", "toml", "url", "version", "yaml",
];

pub type Register = fn(&mut GlobalsBuilder);

/// The modules implemented in this folder: name → function adding the module's namespace
/// (one symbol named after the module) to a globals builder.
fn registry() -> &'static [(&'static str, Register)] {
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
        ("overlay", overlay::register),
    ]
}

/// Builds (once) and returns the frozen module for `@ytt:<name>`, or None when the module
/// is not one of this folder's.
pub fn builtin_module(name: &str) -> Option<FrozenModule> {
    static CACHE: OnceLock<HashMap<&'static str, FrozenModule>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| {
        registry()
            .iter()
            .map(|(name, register)| (*name, build_module(name, *register)))
            .collect()
    });
    cache.get(name).cloned()
}

/// A frozen module holding the one namespace `name` that `register` defines.
pub fn build_module(name: &str, register: Register) -> FrozenModule {
    let globals = GlobalsBuilder::new().with(register).build();
    Module::with_temp_heap(|module| {
        module.frozen_heap().add_reference(globals.heap());
        for (symbol, v) in globals.iter() {
            if symbol == name {
                module.set(name, v.to_value());
            }
        }
        module.freeze()
    })
    .expect("freezing a module of native functions cannot fail")
}
