//! The overlay engine: applying overlay documents (nodes annotated `@overlay/...`) onto
//! documents, maps and arrays.
//!
//! The engine reads only the annotations on the right-hand (overlay) nodes and reaches
//! their Starlark arguments (`by=`, `expects=`, `via=` …) through [`Host`].
//!
//! Entry points:
//! - [`apply_to_docsets`]: one overlay document onto every document of several document
//!   sets (overlay post-processing, data values);
//! - [`apply_docset`]: each document of an overlay document set in turn;
//! - [`apply_node`]: an overlay map/array/scalar onto a node (`overlay.apply` on maps and
//!   arrays).
//!
//! Overlay nodes also edit the annotations of the nodes they match
//! (`@overlay/replace-ann`, `@overlay/merge-anns`, `@overlay/remove-anns`, see
//! [`annotations`]).
//!
//! What each `@overlay/match` node matched is noted when the host gives a [`MatchLog`]
//! (see [`record`]).
//!
//! Errors carry the chain of overlay nodes they happened under; see [`OverlayError`] for
//! the one-line (`overlay.apply`) and indented (post-processing) renderings.

use crate::yaml::{FileNames, Node, ValueRef};

pub mod annotations;
mod apply;
pub mod errors;
pub mod matching;
pub mod record;
#[cfg(test)]
mod tests;

pub use apply::{
    apply_doc_value, apply_docset, apply_node, apply_to_docsets, is_overlay_annotation,
};
pub use errors::{OverlayError, OverlayingError};
pub use matching::Matcher;
pub use record::{Applied, MatchLog, Matched, Verdict};

/// What the engine needs from the evaluator: annotation arguments are Starlark values
/// (numbers, strings, matcher functions, `via=` lambdas) that only the evaluator can read
/// or call.
pub trait Host {
    /// The argument as plain data (`expects=2`, `missing_ok=True`, `"1+"`, …).
    fn value(&mut self, r: ValueRef) -> anyhow::Result<Node>;
    /// Whether the argument can be called (a function, a lambda, an `overlay.*` matcher).
    fn is_callable(&mut self, r: ValueRef) -> anyhow::Result<bool>;
    /// Calls the argument with `args` (collections are passed as yamlfragments, scalars
    /// as values) and returns what it returned, as a node. The error's text is the
    /// message to report (e.g. `assert.fail: fail: boom`).
    fn call(&mut self, r: ValueRef, args: &[&Node]) -> anyhow::Result<Node>;
    /// The reference's (Go) type name of the argument, for messages such as
    /// `… to be function, but was starlark.String`.
    fn type_name(&mut self, r: ValueRef) -> anyhow::Result<String> {
        let _ = r;
        Ok("value".to_owned())
    }
    /// The argument as a natively evaluable matcher when it is one of `overlay.all`,
    /// `index`, `map_key`, `subset` or a combination of those (a fast path: the result is
    /// the same as calling it).
    fn matcher(&mut self, r: ValueRef) -> anyhow::Result<Option<Matcher>> {
        let _ = r;
        Ok(None)
    }
    /// The run's file names: messages name positions (`Document on line f.yml:3`).
    fn names(&self) -> &FileNames;
    /// Where to note what each `@overlay/match` node matched, when a front end asks.
    fn log(&self) -> Option<MatchLog> {
        None
    }
}
