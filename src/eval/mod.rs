//! The Starlark runtime: value types, conversions, the template runtime, error reports.

pub(crate) mod budget;
pub mod builtins;
pub mod convert;
pub mod error;
pub mod exec;
pub mod fragment;
pub(crate) mod gc;
pub mod replace;
pub mod runtime;
pub mod wording;
pub mod ymodule;
pub mod ystruct;
