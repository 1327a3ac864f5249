//! The overlay engine: applying overlay documents (nodes annotated `@overlay/...`) onto
//! documents, maps and arrays.

use crate::yaml::{Node, ValueRef};

/// What the engine needs from the evaluator: annotation arguments are Starlark values
/// (numbers, strings, matcher functions, `via=` lambdas) that only the evaluator can read
/// or call.
pub trait Host {
    /// The argument as plain data (`expects=2`, `missing_ok=True`, `"1+"`, …).
    fn value(&mut self, r: ValueRef) -> anyhow::Result<Node>;
    /// Whether the argument can be called (a function, a lambda, an `overlay.*` matcher).
    fn is_callable(&mut self, r: ValueRef) -> anyhow::Result<bool>;
    /// Calls the argument with `args` (collections are passed as yamlfragments, scalars
    /// as values) and returns what it returned, as a node.
    fn call(&mut self, r: ValueRef, args: &[Node]) -> anyhow::Result<Node>;
}
