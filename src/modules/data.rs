//! `@ytt:data`: the current library's data values and files.

use std::fmt;
use std::sync::Arc;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::collections::SmallMap;
use starlark::environment::{FrozenModule, Module};
use starlark::eval::{Arguments, Evaluator};
use starlark::starlark_simple_value;
use starlark::values::list::AllocList;
use starlark::values::{
    FrozenHeap, FrozenValue, NoSerialize, OwnedFrozenValue, StarlarkPagable, StarlarkValue, Value,
};
use starlark_derive::starlark_value;

use crate::eval::convert::from_node_frozen;
use crate::eval::ymodule::YttModule;
use crate::eval::ystruct::FrozenYttStruct;
use crate::files::library::Library;
use crate::yaml::{FileNames, Node};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DataFnKind {
    List,
    Read,
}

/// `data.list` / `data.read`, bound to a library and the directory of the calling file.
#[derive(Debug, Default, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative)]
pub struct DataFn {
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    kind: Option<DataFnKind>,
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    library: Option<Arc<Library>>,
    from_dir: String,
}
starlark_simple_value!(DataFn);

impl fmt::Display for DataFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Some(DataFnKind::List) => f.write_str("<built-in function data.list>"),
            _ => f.write_str("<built-in function data.read>"),
        }
    }
}

fn err(msg: String) -> starlark::Error {
    starlark::Error::new_other(anyhow::anyhow!(msg))
}

#[starlark_value(type = "builtin_function_or_method")]
impl<'v> StarlarkValue<'v> for DataFn {
    fn invoke(
        &self,
        _me: Value<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let heap = eval.heap();
        let name = if self.kind == Some(DataFnKind::List) {
            "data.list"
        } else {
            "data.read"
        };
        let named = args.names_map()?;
        let mut path: Option<String> = None;
        for (k, v) in named.iter() {
            if k.as_str() != "path" {
                return Err(err(format!(
                    "{name}: unexpected keyword argument \"{}\"",
                    k.as_str()
                )));
            }
            path = v.unpack_str().map(str::to_owned);
        }
        match args.len()? - named.len() {
            0 => {}
            1 => {
                let [v] = args.positional::<1>(heap)?;
                path = Some(
                    v.unpack_str()
                        .ok_or_else(|| {
                            err(format!(
                                "{name}: expected string path, got {}",
                                v.get_type()
                            ))
                        })?
                        .to_owned(),
                );
            }
            n => return Err(err(format!("{name}: got {n} arguments, want at most 1"))),
        }
        let Some(lib) = &self.library else {
            return Err(err(format!("{name}: no library")));
        };
        match self.kind {
            Some(DataFnKind::List) => {
                let files = lib
                    .list(&self.from_dir, path.as_deref().unwrap_or(""))
                    .map_err(|e| err(format!("{name}: {e}")))?;
                Ok(heap.alloc(AllocList(files)))
            }
            _ => {
                let Some(path) = path else {
                    return Err(err(format!("{name}: got 0 arguments, want 1")));
                };
                let (_, file) = lib
                    .find_from(&self.from_dir, &path)
                    .map_err(|e| err(format!("{name}: {e}")))?;
                if let Some(unread) = &file.unread {
                    return Err(err(format!("{name}: {}", unread.error)));
                }
                // a byte string, as in ytt: bytes that are not UTF-8 are carried
                Ok(heap.alloc(crate::bytestr::decode(&file.data).as_ref()))
            }
        }
    }
}

/// Converts a library's data values to Starlark, once: every `@ytt:data` module of the
/// library shares the (frozen) result.
pub fn frozen_values(
    names: &FileNames,
    values: &Node,
    null_is_none: bool,
) -> anyhow::Result<OwnedFrozenValue> {
    let heap = FrozenHeap::new();
    let v = match values {
        Node::Null if null_is_none => FrozenValue::new_none(),
        Node::Null => heap.alloc(FrozenYttStruct::frozen_data_values(SmallMap::new())),
        v => from_node_frozen(&heap, names, v)?,
    };
    // SAFETY: `v` lives in `heap` (or is a constant).
    Ok(unsafe { OwnedFrozenValue::new(heap.into_ref(), v) })
}

/// Builds the `@ytt:data` module for a file of `library` in directory `from_dir`.
pub fn data_module(
    library: &Arc<Library>,
    from_dir: &str,
    values: &OwnedFrozenValue,
) -> anyhow::Result<FrozenModule> {
    Module::with_temp_heap(|module| {
        let heap = module.heap();
        let mut fields = SmallMap::new();
        module.frozen_heap().add_reference(values.owner());
        // SAFETY: the reference just added keeps the values' heap alive with the module.
        fields.insert(
            "values".to_owned(),
            unsafe { values.unchecked_frozen_value() }.to_value(),
        );
        for kind in [DataFnKind::List, DataFnKind::Read] {
            let name = if kind == DataFnKind::List {
                "list"
            } else {
                "read"
            };
            fields.insert(
                name.to_owned(),
                heap.alloc(DataFn {
                    kind: Some(kind),
                    library: Some(library.clone()),
                    from_dir: from_dir.to_owned(),
                }),
            );
        }
        module.set("data", heap.alloc(YttModule::new("data", fields)));
        module
            .freeze()
            .map_err(|_| anyhow::anyhow!("failed to freeze @ytt:data"))
    })
}
