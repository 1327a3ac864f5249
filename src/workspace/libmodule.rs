//! `@ytt:library`: private libraries as values — `library.get(path, alias=...)`, then
//! `.with_data_values(...)`, `.eval()`, `.export(name)`, `.data_values()`.

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
use starlark::values::{NoSerialize, StarlarkPagable, StarlarkValue, Value};
use starlark_derive::starlark_value;

use super::execution::{library_outputs, Settings};
use super::library::Library;
use super::library_values::{library_values, LibraryInputs, ValuesStage, WithValues};
use super::loader::{LibraryEval, Scope};
use super::refs::{Envelope, Payload};
use super::OutputContent;
use crate::eval::convert::{from_node_struct, to_node};
use crate::eval::fragment::{FragmentNode, YamlFragment};
use crate::eval::runtime::runtime_of;
use crate::eval::ymodule::YttModule;
use crate::eval::ystruct::YttStruct;
use crate::files::FileKind;
use crate::modules::overlay::EvalHost;
use crate::validations::ASSERT_VALIDATE;
use crate::yaml::{Annotation, DocSet, Meta, Node};

/// `library.get`, bound to the calling library and the directory of the calling file.
#[derive(Debug, Default, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative)]
pub struct LibraryGet {
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    scope: Option<Arc<Scope>>,
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
        let Some(scope) = &self.scope else {
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
        let mut settings = scope.settings;
        let mut alias = None;
        for (k, v) in named.iter() {
            let flag = || v.unpack_bool().unwrap_or(false);
            match k.as_str() {
                "alias" => alias = v.unpack_str().map(str::to_owned),
                "ignore_unknown_comments" => settings.compile.ignore_unknown_comments = flag(),
                "implicit_map_key_overrides" => {
                    settings.compile.implicit_map_key_overrides = flag()
                }
                "strict" => settings.strict = flag(),
                // sticky: child libraries of this one inherit the setting
                "dangerous_data_values_disable_validation" => {
                    settings.disable_values_validation |= flag()
                }
                other => {
                    return Err(err(format!(
                        "library.get: unexpected keyword argument '{other}'"
                    )))
                }
            }
        }
        if !scope.library.has_private_dir(&self.from_dir) {
            return Err(err(
                "library.get: Could not find private library (directory '_ytt_lib' missing?)"
                    .into(),
            ));
        }
        let child = (scope.library.child(&self.from_dir, path))
            .map_err(|e| err(format!("library.get: {e}")))?;
        let mut name = path.to_owned();
        if let Some(a) = &alias {
            name = format!("{name}~{a}");
        }
        Ok(eval.heap().alloc(LibraryValue {
            handle: Some(Arc::new(Handle {
                scope: scope.clone(),
                child: Arc::new(child),
                path: path.to_owned(),
                alias,
                name,
                settings,
                with_values: Vec::new(),
                with_schemas: Vec::new(),
            })),
        }))
    }
}

#[derive(Clone)]
struct Handle {
    scope: Arc<Scope>,
    child: Arc<Library>,
    path: String,
    alias: Option<String>,
    name: String,
    settings: Settings,
    with_values: Vec<WithValues>,
    /// Schemas `with_data_values_schema()` adds, in call order.
    with_schemas: Vec<Node>,
}

impl fmt::Debug for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "library {}", self.name)
    }
}

/// A private library, with the data values given to it so far. Immutable: each
/// `with_data_values` makes a new one.
#[derive(Debug, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative, Default)]
pub struct LibraryValue {
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    handle: Option<Arc<Handle>>,
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
    fn handle(&self) -> anyhow::Result<&Arc<Handle>> {
        self.handle
            .as_ref()
            .ok_or_else(|| anyhow!("library value is not initialised"))
    }
}

impl Handle {
    fn inputs(&self) -> LibraryInputs {
        let mut envelopes =
            Envelope::deliver(&self.scope.envelopes, &self.path, self.alias.as_deref());
        // schemas from `with_data_values_schema()` come after those addressed to the library
        envelopes.extend(self.with_schemas.iter().map(|n| {
            Envelope::new(
                Vec::new(),
                String::new(),
                String::new(),
                Payload::Schema {
                    value: n.clone(),
                    meta: Meta::default(),
                },
            )
        }));
        LibraryInputs {
            envelopes,
            with_values: self.with_values.clone(),
        }
    }

    /// The library's data values; overlays given by the caller (`with_data_values`) are
    /// read with the caller's evaluator, where their annotation values live.
    fn values(
        &self,
        rt: &crate::eval::runtime::Runtime,
        eval: &mut Evaluator,
        what: &str,
        settings: Settings,
    ) -> anyhow::Result<ValuesStage> {
        let inputs = self.inputs();
        let mut host = EvalHost::new(eval);
        library_values(rt, &self.child, inputs, settings, &mut host)
            .and_then(|stage| {
                stage.validate(eval)?;
                Ok(stage)
            })
            .map_err(|e| self.wrap(what, e))
    }

    fn wrap(&self, what: &str, e: anyhow::Error) -> anyhow::Error {
        let verb = if what == "export" {
            "Exporting from"
        } else {
            "Evaluating"
        };
        crate::diagnostic::reword(e, |e| {
            let mut msg = format!("{e:#}");
            // these reports read on one line inside a library's error, as the reference's do
            if let Some(o) = e.downcast_ref::<crate::overlay::OverlayingError>() {
                msg = o.inline();
            } else if msg.starts_with("Compiling YAML template")
                || msg.starts_with("Expected all provided")
            {
                msg = msg.lines().map(str::trim).collect::<Vec<_>>().join(" ");
            }
            format!("library.{what}: {verb} library '{}': {msg}", self.name)
        })
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
        let h = this.handle()?;
        let node = to_node(values).map_err(|e| anyhow!("library.with_data_values: {e:#}"))?;
        if plain && has_annotations(&node) {
            bail!("library.with_data_values: Expected to be plain YAML, having no annotations (hint: remove comments starting with `#@`)");
        }
        let mut copy = Handle::clone(h);
        copy.with_values.push(WithValues { node, plain });
        Ok(LibraryValue {
            handle: Some(Arc::new(copy)),
        })
    }

    /// A copy of the library with `schema` overlaid on its schema (after its own schema
    /// documents and those its parent addressed to it).
    fn with_data_values_schema<'v>(
        this: &LibraryValue,
        schema: Value<'v>,
    ) -> anyhow::Result<LibraryValue> {
        let h = this.handle()?;
        let node =
            to_node(schema).map_err(|e| anyhow!("library.with_data_values_schema: {e:#}"))?;
        let mut copy = Handle::clone(h);
        copy.with_schemas.push(node);
        Ok(LibraryValue {
            handle: Some(Arc::new(copy)),
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
        let h = this.handle()?;
        let rt = runtime_of(eval)?;
        let mut settings = h.settings;
        settings.disable_values_validation |= data_value_schema_disable_validation;
        settings.disable_output_validation |= output_disable_validation;
        let stage = h.values(rt, eval, "eval", settings)?;
        let outputs =
            library_outputs(rt, &h.child, stage, settings, false).map_err(|e| h.wrap("eval", e))?;
        let mut docs = DocSet::default();
        for out in outputs {
            if let OutputContent::Yaml(ds) = out.content {
                docs.docs.extend(ds.docs);
            }
        }
        // the library validated its own output: the caller checks only what it adds
        let not_validation = |a: &Annotation| a.name != ASSERT_VALIDATE;
        for d in &mut docs.docs {
            d.meta.annotations.retain(|a| not_validation(a));
            d.value.retain_annotations(&not_validation);
        }
        Ok(eval
            .heap()
            .alloc(YamlFragment::new(FragmentNode::DocSet(docs))))
    }

    /// The library's final data values.
    fn data_values<'v>(
        this: &LibraryValue,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        let h = this.handle()?;
        let rt = runtime_of(eval)?;
        let stage = h.values(rt, eval, "data_values", h.settings)?;
        match stage.values {
            Node::Null => Ok(eval.heap().alloc(YttStruct::new(SmallMap::new()))),
            v => from_node_struct(eval.heap(), rt.names(), &v),
        }
    }

    /// A top-level symbol of the library's library files (`.star`, `*.lib.yml`).
    fn export<'v>(
        this: &LibraryValue,
        name: &str,
        #[starlark(require = named, default = NoneOr::None)] path: NoneOr<&str>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        let h = this.handle()?;
        if name.starts_with('_') {
            return Err(h.wrap(
                "export",
                anyhow!("Symbols starting with '_' are private, and cannot be exported"),
            ));
        }
        let rt = runtime_of(eval)?;
        let stage = h.values(rt, eval, "export", h.settings)?;
        let scope = Arc::new(Scope::new(h.child.clone(), Vec::new(), h.settings));
        let lib_eval = LibraryEval::new(rt, h.child.clone(), stage.values, h.settings, scope);
        let wanted = path.into_option();
        let mut found: Vec<(String, starlark::values::OwnedFrozenValue)> = Vec::new();
        for f in &h.child.files {
            let loadable = f.file.is_library || f.file.kind == FileKind::Starlark;
            if !loadable || wanted.is_some_and(|p| p != f.path) {
                continue;
            }
            let module: FrozenModule = lib_eval
                .load_file(&f.path, "")
                .map_err(|e| h.wrap("export", e))?;
            if let Ok(Some(v)) = module.get_option(name) {
                found.push((f.path.clone(), v));
            }
        }
        match found.len() {
            0 => Err(h.wrap(
                "export",
                anyhow!("Expected to find exported symbol '{name}', but did not"),
            )),
            1 => {
                let (_, v) = found.remove(0);
                // the calling module keeps the library module's heap alive
                eval.frozen_heap().add_reference(v.owner());
                // SAFETY: the reference just added keeps the value's heap alive as long
                // as the calling module.
                Ok(unsafe { v.unchecked_frozen_value() }.to_value())
            }
            _ => Err(h.wrap(
                "export",
                anyhow!(
                    "Expected to find exactly one exported symbol '{name}', but found multiple across files: {}",
                    found.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>().join(", ")
                ),
            )),
        }
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

/// Builds `@ytt:library` for a file in directory `from_dir` of the scope's library.
pub fn library_module(scope: Arc<Scope>, from_dir: &str) -> anyhow::Result<FrozenModule> {
    Module::with_temp_heap(|module| {
        let heap = module.heap();
        let mut fields = SmallMap::new();
        fields.insert(
            "get".to_owned(),
            heap.alloc(LibraryGet {
                scope: Some(scope),
                from_dir: from_dir.to_owned(),
            }),
        );
        module.set("library", heap.alloc(YttModule::new("library", fields)));
        module
            .freeze()
            .map_err(|_| anyhow!("failed to freeze @ytt:library"))
    })
}
