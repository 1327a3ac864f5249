//! YAML: the node tree, the parser (saphyr-parser events, comment recovery, YAML 1.1
//! scalar resolution) and the emitters (ytt-style YAML, Go-style JSON, `pos`).

mod block_scanner;
pub mod emit;
pub mod keys;
pub mod node;
pub mod parser;
pub mod pieces;
pub mod scalar;
#[cfg(test)]
mod test_support;

pub use node::*;
