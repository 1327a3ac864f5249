//! `load()`: resolving a module path from the file that loads it, evaluating library
//! files (`.star`, `*.lib.yml`, `*.lib.txt`) once, and the `@ytt:` modules.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use starlark::environment::{FrozenModule, Globals};
use starlark::eval::FileLoader;

use super::data::data_module;
use super::library::{dir_of, is_private, join, Library};
use super::{compile_file, Compiled};
use crate::eval::exec::run_template;
use crate::eval::runtime::{register_template, Runtime};
use crate::files::InputFile;
use crate::stdlib;
use crate::template::CompileOptions;
use crate::yaml::Node;

/// Evaluation state of one library: shared by the loaders of all its files.
pub struct LibraryEval<'a> {
    pub rt: &'a Runtime,
    pub globals: &'a Globals,
    pub library: Arc<Library>,
    pub values: Node,
    pub opts: CompileOptions,
    pub strict: bool,
    modules: RefCell<HashMap<String, FrozenModule>>,
    loading: RefCell<Vec<String>>,
    template_module: FrozenModule,
}

impl<'a> LibraryEval<'a> {
    pub fn new(
        rt: &'a Runtime,
        globals: &'a Globals,
        library: Arc<Library>,
        values: Node,
        opts: CompileOptions,
        strict: bool,
    ) -> Self {
        LibraryEval {
            rt,
            globals,
            library,
            values,
            opts,
            strict,
            modules: RefCell::new(HashMap::new()),
            loading: RefCell::new(Vec::new()),
            template_module: stdlib::build_module("template", register_template),
        }
    }

    /// A loader for the file at `rel_path`.
    pub fn loader_for<'l>(&'l self, rel_path: &str) -> FileScopedLoader<'l, 'a> {
        FileScopedLoader {
            lib: self,
            dir: dir_of(rel_path).to_owned(),
        }
    }

    fn load_ytt(&self, name: &str, dir: &str) -> anyhow::Result<FrozenModule> {
        match name {
            "template" => Ok(self.template_module.clone()),
            "data" => data_module(&self.library, dir, &self.values),
            "library" => anyhow::bail!(
                "builtin ytt library module '{name}' is not supported yet by this implementation"
            ),
            _ => stdlib::builtin_module(name).ok_or_else(|| {
                anyhow::anyhow!(
                    "builtin ytt library does not have module '{name}' (hint: is it available in newer version of ytt?)"
                )
            }),
        }
    }

    fn load_file(&self, path: &str, dir: &str) -> anyhow::Result<FrozenModule> {
        let full = match path.strip_prefix('/') {
            Some(abs) => abs.to_owned(),
            None => join(dir, path),
        };
        if is_private(&full) {
            anyhow::bail!(
                "Expected to find file '{path}', but did not: Encountered private library '_ytt_lib'"
            );
        }
        let file = self
            .library
            .find(&full)
            .ok_or_else(|| anyhow::anyhow!("Expected to find file '{path}', but did not"))?
            .clone();
        if !file.is_library && file.kind != crate::files::FileKind::Starlark {
            anyhow::bail!(
                "Expected file '{path}' to be a library file (.star, *.lib.yml, *.lib.txt), but was not (hint: use data.read(...) to read its contents)"
            );
        }
        if let Some(m) = self.modules.borrow().get(&full) {
            return Ok(m.clone());
        }
        if self.loading.borrow().contains(&full) {
            anyhow::bail!("cycle detected while loading '{path}'");
        }
        self.loading.borrow_mut().push(full.clone());
        let result = self.eval_library_file(&file);
        self.loading.borrow_mut().retain(|p| p != &full);
        let module = result?;
        self.modules.borrow_mut().insert(full, module.clone());
        Ok(module)
    }

    fn eval_library_file(&self, file: &Arc<InputFile>) -> anyhow::Result<FrozenModule> {
        let compiled = compile_file(self.rt, file, self.opts, self.strict)?;
        let Compiled::Template(t) = compiled else {
            anyhow::bail!("file '{}' cannot be loaded", file.rel_path);
        };
        let loader = self.loader_for(&file.rel_path);
        let (module, _) = run_template(self.rt, self.globals, &loader, &t)
            .map_err(|e| anyhow::anyhow!("{}", e.trim_start_matches('\n')))?;
        Ok(module)
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
            Err(anyhow::anyhow!(
                "loading from private libraries ('{path}') is not supported yet by this implementation"
            ))
        } else {
            self.lib.load_file(path, &self.dir)
        };
        result.map_err(|e| starlark::Error::new_other(anyhow::anyhow!("cannot load {path}: {e:#}")))
    }
}
