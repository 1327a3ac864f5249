//! `load()`: resolving a module path from the file that loads it, evaluating library
//! files (`.star`, `*.lib.yml`, `*.lib.txt`) once, and the `@ytt:` modules.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use anyhow::{anyhow, bail};
use starlark::environment::FrozenModule;
use starlark::eval::FileLoader;
use starlark::values::OwnedFrozenValue;

use super::compile::{compile_file, Compiled};
use super::execution::{with_host, Settings};
use super::library_values::{library_values, LibraryInputs};
use super::refs::Envelope;
use super::Run;
use crate::diagnostic::{reword, Reword as _};
use crate::eval::exec::run_template;
use crate::eval::runtime::Runtime;
use crate::files::library::{dir_of, join, Library};
use crate::files::{FileKind, InputFile};
use crate::modules::data::{data_module, frozen_values};
use crate::modules::library::library_module;
use crate::modules::{self, template};
use crate::yaml::Node;

/// What `@ytt:library` of a library can reach: its private libraries and the envelopes
/// addressed to them.
#[derive(Debug)]
pub struct Scope {
    pub library: Arc<Library>,
    pub envelopes: Vec<Envelope>,
    pub settings: Settings,
}

impl Scope {
    pub fn new(library: Arc<Library>, envelopes: Vec<Envelope>, settings: Settings) -> Self {
        Scope {
            library,
            envelopes,
            settings,
        }
    }
}

/// Evaluation state of one library: shared by the loaders of all its files.
pub struct LibraryEval<'a> {
    pub rt: &'a Runtime,
    pub library: Arc<Library>,
    /// The data values, until they are converted to Starlark (then no longer needed).
    values: RefCell<Node>,
    pub settings: Settings,
    scope: Arc<Scope>,
    modules: RefCell<HashMap<String, FrozenModule>>,
    data_modules: RefCell<HashMap<String, FrozenModule>>,
    /// The data values as Starlark, converted once for the whole library.
    frozen_values: RefCell<Option<OwnedFrozenValue>>,
    /// Null data values are `None` (a nullable schema document), not an empty struct
    /// (no data values at all).
    pub null_values_are_none: bool,
    private_libs: RefCell<HashMap<String, Rc<LibraryEval<'a>>>>,
    loading: RefCell<Vec<String>>,
    template_module: FrozenModule,
}

impl<'a> LibraryEval<'a> {
    pub fn new(
        rt: &'a Runtime,
        library: Arc<Library>,
        values: Node,
        settings: Settings,
        scope: Arc<Scope>,
    ) -> Self {
        LibraryEval {
            rt,
            library,
            values: RefCell::new(values),
            settings,
            scope,
            modules: RefCell::new(HashMap::new()),
            data_modules: RefCell::new(HashMap::new()),
            frozen_values: RefCell::new(None),
            null_values_are_none: false,
            private_libs: RefCell::new(HashMap::new()),
            loading: RefCell::new(Vec::new()),
            template_module: modules::build_module("template", template::register),
        }
    }

    /// A loader for the file at `path` (relative to the library root).
    pub fn loader_for<'l>(&'l self, path: &str) -> FileScopedLoader<'l, 'a> {
        FileScopedLoader {
            lib: self,
            dir: dir_of(path).to_owned(),
        }
    }

    fn load_ytt(&self, name: &str, dir: &str) -> anyhow::Result<FrozenModule> {
        match name {
            "template" => Ok(self.template_module.clone()),
            "data" => {
                // data values are converted once per directory of the library
                if let Some(m) = self.data_modules.borrow().get(dir) {
                    return Ok(m.clone());
                }
                if self.frozen_values.borrow().is_none() {
                    let values = self.values.take();
                    let values = frozen_values(self.rt.names(), &values, self.null_values_are_none)?;
                    *self.frozen_values.borrow_mut() = Some(values);
                }
                let values = self.frozen_values.borrow();
                let values = values
                    .as_ref()
                    .ok_or_else(|| anyhow!("internal error: data values not converted"))?;
                let m = data_module(&self.library, dir, values)?;
                self.data_modules
                    .borrow_mut()
                    .insert(dir.to_owned(), m.clone());
                Ok(m)
            }
            "library" => library_module(self.scope.clone(), dir),
            "overlay" => Ok(modules::overlay_module()),
            _ => Run::of(self.rt)?.modules.get(name).ok_or_else(|| {
                anyhow!(
                    "builtin ytt library does not have module '{name}' (hint: is it available in newer version of ytt?)"
                )
            }),
        }
    }

    /// Loads a library file of this library by its path.
    pub fn load_file(&self, path: &str, dir: &str) -> anyhow::Result<FrozenModule> {
        let (full, file) = self.library.find_from(dir, path).map_err(|e| anyhow!(e))?;
        let file = file.clone();
        if !file.is_library && file.kind != FileKind::Starlark {
            // the path as looked up: one leading `/` taken off (`Library::find_from`)
            let path = path.strip_prefix('/').unwrap_or(path);
            bail!(
                "Expected file '{path}' to be a library file, but was not (hint: library filename must end with '.lib.yml' or '.star'; use data.read(...) for loading non-templated file contents)"
            );
        }
        if let Some(m) = self.modules.borrow().get(&full) {
            return Ok(m.clone());
        }
        if self.loading.borrow().contains(&full) {
            bail!("cycle detected while loading '{path}'");
        }
        self.loading.borrow_mut().push(full.clone());
        let result = self.eval_library_file(&full, &file);
        self.loading.borrow_mut().retain(|p| p != &full);
        let module = result?;
        self.modules.borrow_mut().insert(full, module.clone());
        Ok(module)
    }

    /// Evaluates a library file. Its errors read as the reference's, after
    /// `cannot load <path>: `: a Starlark file's (compiling or running it) after
    /// `Evaluating starlark template: `, a text template's run after
    /// `Evaluating text template: `, a YAML template's as they are; the report of the
    /// file's own error (`\n- message` and its lines) becomes the `reason:` of the load.
    fn eval_library_file(&self, path: &str, file: &Arc<InputFile>) -> anyhow::Result<FrozenModule> {
        let starlark = file.kind == FileKind::Starlark;
        let compiled = compile_file(self.rt, file, self.settings.compile, self.settings.strict)
            .reword(|e| match starlark {
                true => format!("Evaluating starlark template: {e:#}"),
                false => format!("{e:#}"),
            })?;
        let Compiled::Template(t) = compiled else {
            bail!("file '{}' cannot be loaded", file.rel_path);
        };
        let loader = self.loader_for(path);
        let prefix = match file.kind {
            FileKind::Starlark => "Evaluating starlark template: ",
            FileKind::TextTemplate | FileKind::TextPlain => "Evaluating text template: ",
            _ => "",
        };
        let (module, _) = run_template(self.rt, super::globals(), &loader, &t)
            .map_err(|e| e.reworded(|e| format!("{prefix}{e}")))?;
        Ok(module)
    }

    /// `load("@name:path")`: a file of the private library `name` next to `dir`,
    /// evaluated with that library's own data values.
    fn load_private(&self, spec: &str, dir: &str) -> anyhow::Result<FrozenModule> {
        let Some((name, path)) = spec.trim_start_matches('@').split_once(':') else {
            bail!("Expected library path to be in format '@name:path'");
        };
        let key = join(dir, name);
        let existing = self.private_libs.borrow().get(&key).cloned();
        let lib = match existing {
            Some(l) => l,
            None => {
                if !self.library.has_private_dir(dir) {
                    bail!("Could not find private library (directory '_ytt_lib' missing?)");
                }
                let child = self.library.child(dir, name).map_err(|e| anyhow!("{e}"))?;
                let child = Arc::new(child);
                let stage = with_host(self.rt, |host| {
                    library_values(
                        self.rt,
                        &child,
                        LibraryInputs::default(),
                        self.settings,
                        host,
                    )
                })?;
                crate::eval::exec::with_evaluator(self.rt, |eval| stage.validate(eval))?;
                let scope = Arc::new(Scope::new(child.clone(), Vec::new(), self.settings));
                let l = Rc::new(LibraryEval::new(
                    self.rt,
                    child,
                    stage.values,
                    self.settings,
                    scope,
                ));
                self.private_libs.borrow_mut().insert(key, l.clone());
                l
            }
        };
        lib.load_file(path, "")
    }
}

/// The loader handed to the evaluation of one file: relative paths resolve from its
/// directory.
pub struct FileScopedLoader<'l, 'a> {
    lib: &'l LibraryEval<'a>,
    dir: String,
}

impl FileLoader for FileScopedLoader<'_, '_> {
    fn load(&self, path: &str) -> starlark::Result<FrozenModule> {
        let result = if let Some(name) = path.strip_prefix("@ytt:") {
            self.lib.load_ytt(name, &self.dir)
        } else if path.starts_with('@') {
            self.lib.load_private(path, &self.dir)
        } else {
            self.lib.load_file(path, &self.dir)
        };
        result.map_err(|e| {
            starlark::Error::new_other(reword(e, |e| format!("cannot load {path}: {e:#}")))
        })
    }
}
