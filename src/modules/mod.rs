//! The `@ytt:` modules a run loads: the engine's own, which need the running library
//! (`template`, `data`, `library`, `overlay`; the workspace's loader builds them for each
//! file, and runs the libraries `@ytt:library` asks for), and the ones the embedder
//! registers in [`Modules`] — the command line and the playground register the standard
//! library of the `ytt-stdlib` crate (`json`, `yaml`, `assert`, …).

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use starlark::collections::SmallMap;
use starlark::environment::{FrozenModule, GlobalsBuilder, Module};

use crate::eval::ymodule::YttModule;

pub(crate) mod args;
pub(crate) mod data;
pub(crate) mod library;
pub(crate) mod overlay;
pub(crate) mod template;
#[cfg(test)]
mod testutil;

/// Adds a module's namespace (one symbol named after the module) to a globals builder.
pub type Register = fn(&mut GlobalsBuilder);

/// The `@ytt:` modules an embedder gives a run (`RenderOptions::modules`), by name.
/// Cheap to clone; clones share the modules, each built the first time a run loads it (a
/// run that loads none, `a: 1`, builds none).
#[derive(Clone, Debug, Default)]
pub struct Modules(Arc<BTreeMap<String, Arc<Entry>>>);

#[derive(Debug)]
struct Entry {
    register: Register,
    built: OnceLock<FrozenModule>,
}

impl Modules {
    /// The same modules and `@ytt:<name>`, the namespace `register` defines. A name the
    /// engine provides itself cannot be replaced.
    pub fn with(mut self, name: &str, register: Register) -> Modules {
        if !ENGINE_MODULES.contains(&name) {
            let entry = Entry {
                register,
                built: OnceLock::new(),
            };
            Arc::make_mut(&mut self.0).insert(name.to_owned(), Arc::new(entry));
        }
        self
    }

    /// The frozen module `@ytt:<name>`, built on first use.
    pub fn get(&self, name: &str) -> Option<FrozenModule> {
        let entry = self.0.get(name)?;
        let built = entry
            .built
            .get_or_init(|| build_module(name, entry.register));
        Some(built.clone())
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(String::as_str)
    }
}

/// The modules the engine provides: they need the running library.
pub const ENGINE_MODULES: &[&str] = &["data", "library", "overlay", "template"];

/// Module `@ytt:<name>` as a file of an empty library loads it (the engine's own, or
/// one of `modules`): what it exports, for an editor. None for no such module.
pub fn standalone(modules: &Modules, name: &str) -> Option<FrozenModule> {
    match name {
        "overlay" => Some(overlay_module()),
        "template" => Some(build_module(name, template::register)),
        "data" => {
            let names = crate::yaml::FileNames::default();
            let values = data::frozen_values(&names, &crate::yaml::Node::Null, false).ok()?;
            let library = Arc::new(crate::files::library::Library::root(&[]));
            data::data_module(&library, "", &values).ok()
        }
        "library" => library::library_module(Arc::new(library::NoLibraries), "").ok(),
        _ => modules.get(name),
    }
}

/// `@ytt:overlay`, built once per process (its functions hold no state).
pub(crate) fn overlay_module() -> FrozenModule {
    static OVERLAY: OnceLock<FrozenModule> = OnceLock::new();
    OVERLAY
        .get_or_init(|| build_module("overlay", overlay::register))
        .clone()
}

/// A frozen module holding `name`: the members of the namespace `register` defines, as a
/// module value (typed and printed as the reference's modules are).
pub(crate) fn build_module(name: &str, register: Register) -> FrozenModule {
    let globals = GlobalsBuilder::new().with(register).build();
    Module::with_temp_heap(|module| {
        module.frozen_heap().add_reference(globals.heap());
        for (symbol, v) in globals.iter() {
            if symbol == name {
                let namespace = v.to_value();
                let mut members = SmallMap::new();
                for member in namespace.dir_attr() {
                    if let Ok(Some(m)) = namespace.get_attr(&member, module.heap()) {
                        members.insert(member, m);
                    }
                }
                module.set(name, module.heap().alloc(YttModule::new(name, members)));
            }
        }
        module.freeze()
    })
    .expect("freezing a module of native functions cannot fail")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_embedder_adds_modules_but_not_the_engines_own() {
        let m = Modules::default()
            .with("ip", overlay::register)
            .with("overlay", overlay::register);
        assert_eq!(m.names().collect::<Vec<_>>(), ["ip"]);
        // built when first loaded, once for every clone
        let built = |m: &Modules| m.0["ip"].built.get().is_some();
        let copy = m.clone();
        assert!(!built(&m));
        assert!(m.get("ip").is_some() && m.get("overlay").is_none());
        assert!(built(&m) && built(&copy));
        // clones share the modules; adding to one leaves the other as it was
        let more = m.clone().with("x", overlay::register);
        assert_eq!((m.names().count(), more.names().count()), (1, 2));
    }
}
