//! The `ytt` command line: flags, files on disk, standard streams, the allocator and its
//! memory budget, the run's stack, around the engine (the `ytt` crate).

pub mod cmd;
pub mod files;
pub mod memory;
pub mod stack;
