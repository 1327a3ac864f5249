//! `@ytt:library`: private libraries as values — `library.get(path, alias=...)`, then
//! `.with_data_values(...)`, `.with_data_values_schema(...)`, `.eval()`, `.export(name)`,
//! `.data_values()`. Running a library is the workspace's: it hands the module the private
//! libraries of the file that loads it ([`Libraries`]).

use std::fmt;
use std::sync::Arc;

use allocative::Allocative;
use anyhow::{anyhow, bail};
use starlark::any::ProvidesStaticType;
use starlark::collections::SmallMap;
use starlark::environment::{FrozenModule, Methods, MethodsBuilder, MethodsStatic, Module};
use starlark::eval::{Arguments, Evaluator};
use starlark::starlark_module;
use starlark::starlark_simple_value;
use starlark::values::none::NoneOr;
use starlark::values::{NoSerialize, OwnedFrozenValue, StarlarkPagable, StarlarkValue, Value};
use starlark_derive::starlark_value;

use crate::eval::convert::{from_node_struct, to_node};
use crate::eval::fragment::{FragmentNode, YamlFragment};
use crate::eval::runtime::names_of;
use crate::eval::ymodule::YttModule;
use crate::eval::ystruct::YttStruct;
use crate::yaml::{DocSet, Meta, Node};

/// The private libraries a file reaches, as the workspace runs them.
pub trait Libraries: fmt::Debug + Send + Sync {
    /// `library.get(path)` from a file in directory `from_dir`: the library, or why there
    /// is none (what follows `library.get: `).
    fn get(
        self: Arc<Self>,
        from_dir: &str,
        path: &str,
        options: &GetOptions,
    ) -> Result<Arc<dyn PrivateLibrary>, String>;
}

/// No private libraries: `@ytt:library` as an editor lists its members.
#[derive(Debug)]
pub struct NoLibraries;

impl Libraries for NoLibraries {
    fn get(
        self: Arc<Self>,
        _from_dir: &str,
        path: &str,
        _options: &GetOptions,
    ) -> Result<Arc<dyn PrivateLibrary>, String> {
        Err(format!("Expected to find library '{path}'"))
    }
}

/// `library.get`'s keyword arguments.
#[derive(Debug, Default)]
pub struct GetOptions {
    /// `alias=`: the library's name in messages and for the documents addressed to it is
    /// `path~alias`.
    pub alias: Option<String>,
    /// Settings of the library's runs; unset, the caller's.
    pub ignore_unknown_comments: Option<bool>,
    pub implicit_map_key_overrides: Option<bool>,
    pub strict: Option<bool>,
    /// `dangerous_data_values_disable_validation=True`: sticky, the libraries it gets
    /// inherit it.
    pub disable_values_validation: bool,
}

/// A private library, with the data values and schemas given to it so far.
pub trait PrivateLibrary: fmt::Debug + Send + Sync {
    /// The same library with `values` overlaid on its data values (`plain`: merged as
    /// plain YAML).
    fn with_data_values(&self, values: Node, plain: bool) -> Arc<dyn PrivateLibrary>;

    /// The same library with `schema` overlaid on its schema (after its own schema
    /// documents and those its parent addressed to it).
    fn with_data_values_schema(&self, schema: Node) -> Arc<dyn PrivateLibrary>;

    /// Runs the library from the caller's evaluator `eval` (where the values given to it
    /// live): its output documents, as the caller gets them. The flags skip validating
    /// its data values / output documents in this run and in the libraries it evaluates.
    fn eval(
        &self,
        eval: &mut Evaluator,
        disable_values_validation: bool,
        disable_output_validation: bool,
    ) -> anyhow::Result<DocSet>;

    /// The library's final data values.
    fn data_values(&self, eval: &mut Evaluator) -> anyhow::Result<Node>;

    /// The top-level symbol `name` of the library's library files (`.star`, `*.lib.yml`),
    /// of the one at `path` when given.
    fn export(
        &self,
        eval: &mut Evaluator,
        name: &str,
        path: Option<&str>,
    ) -> anyhow::Result<OwnedFrozenValue>;
}

/// `library.get`, bound to the private libraries of the calling file.
#[derive(Debug, Default, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative)]
pub struct LibraryGet {
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    libraries: Option<Arc<dyn Libraries>>,
    from_dir: String,
}
starlark_simple_value!(LibraryGet);

impl fmt::Display for LibraryGet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<built-in function library.get>")
    }
}

fn err(msg: String) -> starlark::Error {
    starlark::Error::new_other(anyhow!(msg))
}

#[starlark_value(type = "builtin_function_or_method")]
impl<'v> StarlarkValue<'v> for LibraryGet {
    fn invoke(
        &self,
        _me: Value<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let Some(libraries) = &self.libraries else {
            return Err(err("library.get: no library".into()));
        };
        let named = args.names_map()?;
        let positional = args.len()? - named.len();
        if positional != 1 {
            return Err(err(format!(
                "library.get: got {positional} arguments, want 1"
            )));
        }
        let [path] = args.positional::<1>(eval.heap())?;
        let Some(path) = path.unpack_str() else {
            return Err(err(format!(
                "library.get: expected library path to be a string, but was {}",
                path.get_type()
            )));
        };
        if path.starts_with('@') {
            return Err(err(format!(
                "library.get: Expected library '{path}' to be specified without '@'"
            )));
        }
        let mut options = GetOptions::default();
        for (k, v) in named.iter() {
            let flag = || v.unpack_bool().unwrap_or(false);
            match k.as_str() {
                "alias" => options.alias = v.unpack_str().map(str::to_owned),
                "ignore_unknown_comments" => options.ignore_unknown_comments = Some(flag()),
                "implicit_map_key_overrides" => options.implicit_map_key_overrides = Some(flag()),
                "strict" => options.strict = Some(flag()),
                "dangerous_data_values_disable_validation" => {
                    options.disable_values_validation |= flag()
                }
                other => {
                    return Err(err(format!(
                        "library.get: unexpected keyword argument '{other}'"
                    )))
                }
            }
        }
        let library = (libraries.clone())
            .get(&self.from_dir, path, &options)
            .map_err(|e| err(format!("library.get: {e}")))?;
        Ok(eval.heap().alloc(LibraryValue {
            library: Some(library),
        }))
    }
}

/// A private library, with the data values given to it so far. Immutable: each
/// `with_data_values` makes a new one.
#[derive(Debug, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative, Default)]
pub struct LibraryValue {
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    library: Option<Arc<dyn PrivateLibrary>>,
}
starlark_simple_value!(LibraryValue);

impl fmt::Display for LibraryValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("@ytt:library.instance")
    }
}

static LIBRARY_METHODS: MethodsStatic = MethodsStatic::new("library_methods", library_methods);

#[starlark_value(type = "@ytt:library.instance")]
impl<'v> StarlarkValue<'v> for LibraryValue {
    fn get_methods() -> Option<&'static Methods> {
        Some(LIBRARY_METHODS.methods())
    }
}

impl LibraryValue {
    fn library(&self) -> anyhow::Result<&Arc<dyn PrivateLibrary>> {
        self.library
            .as_ref()
            .ok_or_else(|| anyhow!("library value is not initialised"))
    }
}

#[starlark_module]
fn library_methods(builder: &mut MethodsBuilder) {
    /// A copy of the library with `values` overlaid on its data values
    /// (`plain=True`: merged as plain YAML).
    fn with_data_values<'v>(
        this: &LibraryValue,
        values: Value<'v>,
        #[starlark(require = named, default = false)] plain: bool,
    ) -> anyhow::Result<LibraryValue> {
        let library = this.library()?;
        let node = to_node(values).map_err(|e| anyhow!("library.with_data_values: {e:#}"))?;
        if plain && has_annotations(&node) {
            bail!("library.with_data_values: Expected to be plain YAML, having no annotations (hint: remove comments starting with `#@`)");
        }
        Ok(LibraryValue {
            library: Some(library.with_data_values(node, plain)),
        })
    }

    /// A copy of the library with `schema` overlaid on its schema (after its own schema
    /// documents and those its parent addressed to it).
    fn with_data_values_schema<'v>(
        this: &LibraryValue,
        schema: Value<'v>,
    ) -> anyhow::Result<LibraryValue> {
        let library = this.library()?;
        let node =
            to_node(schema).map_err(|e| anyhow!("library.with_data_values_schema: {e:#}"))?;
        Ok(LibraryValue {
            library: Some(library.with_data_values_schema(node)),
        })
    }

    /// Runs the library; its output documents as a yamlfragment.
    /// `data_value_schema_disable_validation=True` / `output_disable_validation=True`
    /// skip validating its data values / output documents in this run, and in the
    /// libraries it evaluates (not in the caller's).
    fn eval<'v>(
        this: &LibraryValue,
        #[starlark(require = named, default = false)] data_value_schema_disable_validation: bool,
        #[starlark(require = named, default = false)] output_disable_validation: bool,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        let docs = this.library()?.eval(
            eval,
            data_value_schema_disable_validation,
            output_disable_validation,
        )?;
        Ok(eval
            .heap()
            .alloc(YamlFragment::new(FragmentNode::DocSet(docs))))
    }

    /// The library's final data values.
    fn data_values<'v>(
        this: &LibraryValue,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        match this.library()?.data_values(eval)? {
            Node::Null => Ok(eval.heap().alloc(YttStruct::new(SmallMap::new()))),
            v => from_node_struct(eval.heap(), &names_of(eval), &v),
        }
    }

    /// A top-level symbol of the library's library files (`.star`, `*.lib.yml`).
    fn export<'v>(
        this: &LibraryValue,
        name: &str,
        #[starlark(require = named, default = NoneOr::None)] path: NoneOr<&str>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        let v = this.library()?.export(eval, name, path.into_option())?;
        // the calling module keeps the library module's heap alive
        eval.frozen_heap().add_reference(v.owner());
        // SAFETY: the reference just added keeps the value's heap alive as long as the
        // calling module.
        Ok(unsafe { v.unchecked_frozen_value() }.to_value())
    }
}

fn has_annotations(n: &Node) -> bool {
    let meta = |m: &Meta| !m.annotations.is_empty();
    match n {
        Node::Map(m) => m
            .items
            .iter()
            .any(|i| meta(&i.meta) || has_annotations(&i.value)),
        Node::Array(a) => a
            .items
            .iter()
            .any(|i| meta(&i.meta) || has_annotations(&i.value)),
        _ => false,
    }
}

/// Builds `@ytt:library` for a file in directory `from_dir`, whose private libraries are
/// `libraries`.
pub fn library_module(
    libraries: Arc<dyn Libraries>,
    from_dir: &str,
) -> anyhow::Result<FrozenModule> {
    Module::with_temp_heap(|module| {
        let heap = module.heap();
        let mut fields = SmallMap::new();
        fields.insert(
            "get".to_owned(),
            heap.alloc(LibraryGet {
                libraries: Some(libraries),
                from_dir: from_dir.to_owned(),
            }),
        );
        module.set("library", heap.alloc(YttModule::new("library", fields)));
        module
            .freeze()
            .map_err(|_| anyhow!("failed to freeze @ytt:library"))
    })
}
