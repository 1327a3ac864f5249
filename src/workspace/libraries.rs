//! Private libraries run for `@ytt:library` (`modules::library`): `library.get` from a
//! library's scope, and the runs of the library it names, with the data values and
//! schemas given to it.

use std::fmt;
use std::sync::Arc;

use anyhow::anyhow;
use starlark::environment::FrozenModule;
use starlark::eval::Evaluator;
use starlark::values::OwnedFrozenValue;

use super::execution::{library_outputs, Settings};
use super::library_values::{library_values, LibraryInputs, ValuesStage, WithValues};
use super::loader::{LibraryEval, Scope};
use super::refs::{Envelope, Payload};
use super::OutputContent;
use crate::eval::runtime::{runtime_of, Runtime};
use crate::files::library::Library;
use crate::files::FileKind;
use crate::modules::library::{GetOptions, Libraries, PrivateLibrary};
use crate::modules::overlay::EvalHost;
use crate::template::annotations::ASSERT_VALIDATE;
use crate::yaml::{Annotation, DocSet, Meta, Node};

impl Libraries for Scope {
    fn get(
        self: Arc<Self>,
        from_dir: &str,
        path: &str,
        options: &GetOptions,
    ) -> Result<Arc<dyn PrivateLibrary>, String> {
        let mut settings = self.settings;
        if let Some(flag) = options.ignore_unknown_comments {
            settings.compile.ignore_unknown_comments = flag;
        }
        if let Some(flag) = options.implicit_map_key_overrides {
            settings.compile.implicit_map_key_overrides = flag;
        }
        if let Some(flag) = options.strict {
            settings.strict = flag;
        }
        settings.disable_values_validation |= options.disable_values_validation;
        if !self.library.has_private_dir(from_dir) {
            return Err("Could not find private library (directory '_ytt_lib' missing?)".into());
        }
        let child = self.library.child(from_dir, path)?;
        let mut name = path.to_owned();
        if let Some(a) = &options.alias {
            name = format!("{name}~{a}");
        }
        Ok(Arc::new(Handle {
            scope: self,
            child: Arc::new(child),
            path: path.to_owned(),
            alias: options.alias.clone(),
            name,
            settings,
            with_values: Vec::new(),
            with_schemas: Vec::new(),
        }))
    }
}

/// A private library got from `scope`, with what was given to it so far.
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
            traced: false,
            defer: false,
        }
    }

    /// The library's data values; overlays given by the caller (`with_data_values`) are
    /// read with the caller's evaluator, where their annotation values live.
    fn values(
        &self,
        rt: &Runtime,
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
            if let Some(q) = e.downcast_ref::<crate::diagnostic::Quotable>() {
                msg = q.one_line.clone();
            } else if msg.starts_with("Compiling YAML template")
                || msg.starts_with("Expected all provided")
            {
                msg = msg.lines().map(str::trim).collect::<Vec<_>>().join(" ");
            }
            format!("library.{what}: {verb} library '{}': {msg}", self.name)
        })
    }
}

impl PrivateLibrary for Handle {
    fn with_data_values(&self, values: Node, plain: bool) -> Arc<dyn PrivateLibrary> {
        let mut copy = self.clone();
        copy.with_values.push(WithValues {
            node: values,
            plain,
        });
        Arc::new(copy)
    }

    fn with_data_values_schema(&self, schema: Node) -> Arc<dyn PrivateLibrary> {
        let mut copy = self.clone();
        copy.with_schemas.push(schema);
        Arc::new(copy)
    }

    fn eval(
        &self,
        eval: &mut Evaluator,
        disable_values_validation: bool,
        disable_output_validation: bool,
    ) -> anyhow::Result<DocSet> {
        let rt = runtime_of(eval)?;
        let mut settings = self.settings;
        settings.disable_values_validation |= disable_values_validation;
        settings.disable_output_validation |= disable_output_validation;
        let stage = self.values(rt, eval, "eval", settings)?;
        let outputs = library_outputs(rt, &self.child, stage, settings, false)
            .map_err(|e| self.wrap("eval", e))?;
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
        Ok(docs)
    }

    fn data_values(&self, eval: &mut Evaluator) -> anyhow::Result<Node> {
        let rt = runtime_of(eval)?;
        Ok(self.values(rt, eval, "data_values", self.settings)?.values)
    }

    fn export(
        &self,
        eval: &mut Evaluator,
        name: &str,
        path: Option<&str>,
    ) -> anyhow::Result<OwnedFrozenValue> {
        if name.starts_with('_') {
            return Err(self.wrap(
                "export",
                anyhow!("Symbols starting with '_' are private, and cannot be exported"),
            ));
        }
        let rt = runtime_of(eval)?;
        let stage = self.values(rt, eval, "export", self.settings)?;
        let scope = Arc::new(Scope::new(self.child.clone(), Vec::new(), self.settings));
        let lib_eval = LibraryEval::new(rt, self.child.clone(), stage.values, self.settings, scope);
        let mut found: Vec<(String, OwnedFrozenValue)> = Vec::new();
        for f in &self.child.files {
            let loadable = f.file.is_library || f.file.kind == FileKind::Starlark;
            if !loadable || path.is_some_and(|p| p != f.path) {
                continue;
            }
            let module: FrozenModule = lib_eval
                .load_file(&f.path, "")
                .map_err(|e| self.wrap("export", e))?;
            if let Ok(Some(v)) = module.get_option(name) {
                found.push((f.path.clone(), v));
            }
        }
        match found.len() {
            0 => Err(self.wrap(
                "export",
                anyhow!("Expected to find exported symbol '{name}', but did not"),
            )),
            1 => Ok(found.remove(0).1),
            _ => Err(self.wrap(
                "export",
                anyhow!(
                    "Expected to find exactly one exported symbol '{name}', but found multiple across files: {}",
                    found.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>().join(", ")
                ),
            )),
        }
    }
}
