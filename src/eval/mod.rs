//! The Starlark runtime: value types, conversions, the template runtime, error reports.

mod arena;
pub(crate) mod budget;
pub mod builtins;
pub mod contexts;
pub mod convert;
pub mod error;
pub mod exec;
pub mod fragment;
pub(crate) mod gc;
pub mod globals;
mod instructions;
mod keys;
mod materialize;
pub mod replace;
pub mod runtime;
pub(crate) mod suggest;
pub mod wording;
pub mod ymodule;
pub mod ystruct;
