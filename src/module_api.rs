//! What a `@ytt:` module is written with: the engine's argument binding, value ⇄ node
//! conversions, fragments and structs, validation entry points and the reference's words,
//! so that a module outside the engine (the crate `ytt-stdlib`, or an embedder's own)
//! reads its arguments and words its errors as the engine's modules do. This is the whole
//! of what the engine offers module authors; its internals are not public.
//!
//! A module is a function that adds one namespace, named after the module, to a
//! starlark-rust `GlobalsBuilder` ([`Register`]). An embedder gives it to a run under that
//! name ([`Modules::with`], [`RenderOptions::modules`](crate::RenderOptions::modules)),
//! and templates load it as `@ytt:<name>`. Its functions are starlark-rust native
//! functions (`#[starlark_module]`, from the `ytt-starlark` package imported as
//! `starlark`, the engine's version) returning `anyhow::Result`: an error's text is the
//! report, which the run locates on the template line that called the function.
//!
//! - Arguments: [`check_positional`], [`string_arg`], [`bind_params`] and its [`Params`],
//!   [`is_function`], [`error_message`] (a Starlark error as the reference words it).
//! - Values ⇄ YAML nodes ([`crate::yaml::Node`]): [`to_node`]; [`from_node`] (maps as
//!   dicts), [`from_node_struct`] (maps as structs); [`sequence_items`].
//! - Fragments ([`YamlFragment`], [`FragmentNode`]) and structs ([`YttStruct`],
//!   [`struct_fields`]), as templates and `@ytt:data` make them.
//! - The run: [`call_catching`] (a call whose failure is caught), [`warn_once`].
//! - Validation: [`validate_value`], [`validate_fragment`] → [`Violations`]; the named
//!   rules' definitions ([`rules`]); [`go_regex`] (Go's regular expressions); Go's URLs
//!   ([`url`]).
//! - The reference's words: [`starlark_go`] (Go type names), [`go_str`] (`str()`),
//!   [`LambdaError`] (a failure the reference reports from a lambda).
//!
//! Strings hold bytes that are not UTF-8 as [`crate::bytestr`] describes (a module that
//! hashes or encodes a string's bytes maps them back); YAML and JSON text is read and
//! written by [`crate::yaml::parser`] and [`crate::yaml::emit`].
//!
//! A module `@ytt:greet` of two functions, and a template that loads it:
//!
//! ```
//! use starlark::collections::SmallMap;
//! use starlark::environment::GlobalsBuilder;
//! use starlark::starlark_module;
//! use starlark::values::list::AllocList;
//! use starlark::values::tuple::UnpackTuple;
//! use starlark::values::{Heap, Value};
//! use ytt::module_api::{bind_params, check_positional, from_node, starlark_go, to_node, Modules};
//! use ytt::yaml::Node;
//! use ytt::{render, InputFile, OutputContent, RenderOptions};
//!
//! /// `@ytt:greet`: one namespace, named after the module.
//! fn register(builder: &mut GlobalsBuilder) {
//!     builder.namespace("greet", greet_members);
//! }
//!
//! #[starlark_module]
//! fn greet_members(builder: &mut GlobalsBuilder) {
//!     /// `greet.hello(name, punctuation="!")`: `Hello, <name><punctuation>`.
//!     fn hello<'v>(
//!         #[starlark(args)] args: UnpackTuple<Value<'v>>,
//!         #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
//!     ) -> anyhow::Result<String> {
//!         let names = ["name", "punctuation"];
//!         let params = bind_params("greet.hello", &names, &args.items, &kwargs)?;
//!         let punctuation = match params[1] {
//!             Some(_) => params.str(1)?,
//!             None => "!",
//!         };
//!         Ok(format!("Hello, {}{punctuation}", params.str(0)?))
//!     }
//!
//!     /// `greet.keys(map)`: the keys of a dict, a struct or a map fragment, in order.
//!     fn keys<'v>(
//!         #[starlark(args)] args: UnpackTuple<Value<'v>>,
//!         #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
//!         heap: Heap<'v>,
//!     ) -> anyhow::Result<Value<'v>> {
//!         check_positional("greet.keys", &args.items, &kwargs, 1, 1)?;
//!         let value = args.items[0];
//!         let Node::Map(map) = to_node(value)? else {
//!             anyhow::bail!("greet.keys: expected a map, but was {}", starlark_go(value));
//!         };
//!         Ok(heap.alloc(AllocList(map.items.iter().map(|i| from_node(heap, &i.key)))))
//!     }
//! }
//!
//! let options = || RenderOptions {
//!     modules: Modules::default().with("greet", register),
//!     ..RenderOptions::default()
//! };
//! let template = r#"#@ load("@ytt:greet", "greet")
//! #@ def config():
//! name: web
//! port: 8080
//! #@ end
//! message: #@ greet.hello("world")
//! question: #@ greet.hello("world", punctuation="?")
//! keys: #@ greet.keys(config())
//! "#;
//! let rendered = render(options(), vec![InputFile::new("app.yml", template.as_bytes())])?;
//! let OutputContent::Yaml(docs) = &rendered.outputs[0].content else { unreachable!() };
//! let mut out = String::new();
//! ytt::yaml::emit::yaml_docset(docs, &mut out);
//! assert_eq!(out, "message: Hello, world!\nquestion: Hello, world?\nkeys:\n- name\n- port\n");
//!
//! // an argument of the wrong type, in the words of the engine's own modules
//! let wrong = "#@ load(\"@ytt:greet\", \"greet\")\nx: #@ greet.keys([1])\n";
//! let failure = render(options(), vec![InputFile::new("app.yml", wrong.as_bytes())]).unwrap_err();
//! assert_eq!(failure.kind(), ytt::Kind::Evaluation);
//! assert_eq!(failure.location().unwrap().to_string(), "app.yml:2");
//! assert!(failure.text().contains("greet.keys: expected a map, but was *starlark.List"));
//! # Ok::<(), ytt::Diagnostic>(())
//! ```

use starlark::eval::Evaluator;
use starlark::values::Value;

use crate::eval::runtime::{messages_of, names_of, runtime_of};
use crate::validations::{Report, Subject};
use crate::yaml::Node;

pub use crate::eval::convert::{from_node, sequence_items, to_node};
pub use crate::eval::error::LambdaError;
pub use crate::eval::runtime::call_catching;
pub use crate::eval::ystruct::struct_fields;
pub use crate::modules::args::{
    bind_params, check_positional, error_message, is_function, string_arg, Params,
};
pub use crate::modules::{Modules, Register};
pub use crate::typenames::starlark_go;

/// The nodes a `yamlfragment` holds: a function whose body is YAML returns them
/// (`Empty` when its code reached none of its nodes).
pub use crate::eval::fragment::FragmentNode;

/// A `yamlfragment` value (`type()` is `yamlfragment`): YAML nodes as a template's
/// function, `yaml.decode` of a document set or `library.eval()` return them, shared
/// behind an `Arc`. Made with `YamlFragment::new`, or `YamlFragment::from_node` for a map
/// or an array.
pub use crate::eval::fragment::YamlFragment;

/// ytt's `struct` value (`struct.make`, `data.values`): fields by name, read as
/// attributes or as a dict's keys. Made with `YttStruct::new(fields)`, read with
/// [`struct_fields`] (frozen or not).
pub use crate::eval::ystruct::YttStruct;

/// `str(v)` as the reference writes it: a string as it is, anything else as its `repr`
/// with Go's floats (`1.0` → `1`, `1e21` → `1e+21`, `+Inf`), inside lists, tuples and
/// dicts too.
pub fn go_str(v: Value) -> String {
    crate::eval::builtins::go_str(v)
}

/// Node → Starlark value with maps as structs (what `struct.encode` makes): a map key
/// that is not a string is an error naming where the key was written.
pub fn from_node_struct<'v>(eval: &Evaluator<'v, '_, '_>, n: &Node) -> anyhow::Result<Value<'v>> {
    crate::eval::convert::from_node_struct(eval.heap(), &names_of(eval), n)
}

/// Gives `warning` to the run's messages (the command line's stderr) the first time it
/// is asked for in the run: a module's caveat, as `@ytt:math` gives its. Outside a run
/// (a module's unit tests) there is nobody to warn.
pub fn warn_once(eval: &Evaluator, warning: &str) {
    if let Ok(rt) = runtime_of(eval) {
        rt.warn_once(warning);
    }
}

/// Compiles a regular expression with Go's (RE2) meaning, which ytt's users write: Go's
/// classes and limits, and Go's words for what it refuses (`error parsing regexp: …`).
pub fn go_regex(pattern: &str) -> Result<regex::Regex, String> {
    crate::validations::re2::compile(pattern)
}

/// Runs validation rules, given as `@assert/validate` takes them (`args`, `kwargs`), on a
/// value converted to `node` and named `key` in the report (headed as `assert.validate`'s:
/// `assert.validate: Validating <key>:`); the rules are written where the module's
/// function was called. `Err` when the rules are malformed or cannot run.
pub fn validate_value<'v>(
    eval: &mut Evaluator<'v, '_, '_>,
    key: &str,
    node: &Node,
    args: &[Value<'v>],
    kwargs: &[(String, Value<'v>)],
) -> anyhow::Result<Violations> {
    let by = crate::validations::call_site(eval);
    crate::validations::validate_value(eval, key, node, &by, args, kwargs).map(Violations)
}

/// Runs the `@assert/validate` annotations on the nodes of a fragment (the report is
/// headed as `assert.valid`'s). `Err` when an annotation is malformed or a rule cannot
/// run.
pub fn validate_fragment(
    eval: &mut Evaluator,
    fragment: &FragmentNode,
) -> anyhow::Result<Violations> {
    crate::validations::validate_fragment(fragment, eval, Subject::Fragment).map(Violations)
}

/// What [`validate_value`] or [`validate_fragment`] found, to be reported.
#[must_use = "violations are reported by `report`"]
pub struct Violations(Report);

impl Violations {
    /// Reports the violations as the run reports `@assert/validate`'s: those of
    /// `warn=True` rules go to the run's messages, the others are the error (a
    /// `Diagnostic` of `Kind::Validation` located on the first value a rule rejected).
    pub fn report(self, eval: &Evaluator) -> anyhow::Result<()> {
        self.0.finish(&names_of(eval), || messages_of(eval))
    }
}

/// The named validation rules (`min=`, `len=`, `format=`, …), one definition each, for
/// modules that offer them as functions (`@ytt:assert`'s `assert.len(3)`): a rule is found
/// by name ([`rules::Def::find`]), reads its argument as the keyword does
/// ([`rules::Def::parse`]) and checks a node ([`rules::NamedRule::check`]).
pub mod rules {
    pub use crate::validations::named::{Assert, Cx, Def, NamedRule, RULES};
}

/// Go's `net/url` (parsing, escaping, queries), as `cel=`'s `url()` reads URLs too; for a
/// module that reads URLs as the reference's `@ytt:url` does.
pub mod url {
    pub use crate::validations::go_url::*;
}
