//! ytt's Starlark: the dialect templates are written in and the globals every template
//! sees.

use starlark::environment::{Globals, GlobalsBuilder, LibraryExtension};
use starlark::syntax::Dialect;

use super::builtins::builtins;
use super::instructions::instructions;

/// ytt's Starlark: top-level statements, keyword-only arguments, loaded names stay local.
pub fn dialect() -> Dialect {
    Dialect {
        enable_top_level_stmt: true,
        enable_keyword_only_arguments: true,
        enable_load_reexport: false,
        enable_f_strings: false,
        ..Dialect::Standard
    }
}

/// The globals every template sees: Starlark's builtins (with `set` and `print`) and the
/// instruction functions. Built once.
pub fn globals() -> &'static Globals {
    static GLOBALS: std::sync::OnceLock<Globals> = std::sync::OnceLock::new();
    GLOBALS.get_or_init(|| {
        GlobalsBuilder::extended_by(&[LibraryExtension::SetType, LibraryExtension::Print])
            .with(instructions)
            .with(builtins)
            .build()
    })
}

#[cfg(test)]
mod tests {
    use starlark::docs::DocItem;

    /// `starlark_derive` is patched (vendor/starlark_derive/PATCHES.md) so that builtins
    /// carry no docstrings: parsing them cost every templated run about 14 M
    /// instructions. A build with upstream's macro would bring that back without a sign.
    #[test]
    fn builtins_carry_no_docstrings() {
        let docs = super::globals().documentation();
        assert!(docs.members.len() > 20, "{} builtins", docs.members.len());
        // (made when asked for: vendor/starlark PATCHES.md) a type's documentation
        // lists its methods
        let types: Vec<&String> = (docs.members.iter())
            .filter_map(|(name, item)| match item {
                DocItem::Type(t) if t.members.contains_key("append") => Some(name),
                _ => None,
            })
            .collect();
        assert_eq!(types, ["list"]);
        let Some(DocItem::Member(m)) = docs.members.get("len") else {
            panic!("no documentation of `len`");
        };
        assert!(format!("{m:?}").contains("Function"), "{m:?}");
        for (name, item) in &docs.members {
            assert!(item.get_doc_string().is_none(), "`{name}` has a docstring");
            if let DocItem::Type(t) = item {
                for (method, m) in &t.members {
                    let m = DocItem::Member(m.clone());
                    assert!(m.get_doc_string().is_none(), "`{name}.{method}` has one");
                }
            }
        }
    }
}
