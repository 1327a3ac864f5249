//! The `ytt` command line: flags, files on disk, standard streams, the allocator and its
//! memory budget, around the engine (the `ytt` crate).

pub mod cmd;
pub mod files;
pub mod memory;
