//! What the server needs from the command line it runs in: the command line's own reading
//! of a run's flags and of the disk (so that a run in the editor is the run `ytt` makes
//! of the same arguments), and its allocator's memory budget.
//!
//! The command line's crate depends on this one (`ytt lsp`), so these come in as a
//! [`Host`] instead of being imported.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// A run's command line as `ytt` reads it: what it asks of the engine, and the file
/// arguments whose files the server finds (through [`Host::find`]) and reads.
#[derive(Clone, Debug, Default)]
pub struct Invocation {
    /// The run: file marks, data-value flags as given, the mode (render or which
    /// inspection), the switches. Its `files` are those the arguments carry themselves
    /// (`--bulk-in`); the `-f` files follow them once found.
    pub request: ytt::frontend::Request,
    /// `-f`, in order.
    pub files: Vec<String>,
    pub symlinks: Symlinks,
}

/// The symlink policy (`--allow-symlink-destination`,
/// `--dangerous-allow-all-symlink-destinations`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Symlinks {
    pub allow_destinations: Vec<String>,
    pub allow_all: bool,
}

/// The flag a file argument is given to: each finds its files by its own rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileFlag {
    /// `-f [name=]path`: a file, or a directory's files.
    Input,
    /// `--data-values-file [name=]path` (its library selector taken off): a file, or a
    /// directory's YAML files.
    ValuesFile,
    /// `--data-value-file`'s `path`: one file, or a directory holding one.
    ValueFile,
}

/// A file found on disk, not read yet.
#[derive(Debug)]
pub struct Found {
    /// The name the run knows it by (its path in the directory given, its base name, or
    /// the name of `name=path`).
    pub rel_path: String,
    /// Where it is.
    pub path: PathBuf,
    /// A regular file: read at once (anything else is read only when it is a template).
    pub regular: bool,
}

/// The allocator's budget, as the command line keeps it (`--max-memory`).
#[derive(Clone, Copy)]
pub struct Memory {
    /// The bytes the process holds in large blocks (the engine's loop collector watches
    /// them).
    pub held: fn() -> usize,
    /// Sets the budget, in bytes.
    pub set_limit: fn(usize),
    /// Raised by the allocator past the budget; the engine's evaluators watch it. The
    /// server raises it too, to stop a run that is out of time or superseded.
    pub passed: &'static AtomicBool,
    /// Lowers the flag and arms the budget again, for the next run of a process that
    /// lives on.
    pub rearm: fn(),
}

/// The command line the server runs in.
pub trait Host: Send + Sync {
    /// Reads a run's arguments (template flags, without the program's name) with the
    /// command line's parser; errors are the command line's own.
    fn parse(&self, args: &[String]) -> anyhow::Result<Invocation>;

    /// The files a file argument of `flag` names, found as the command line finds them:
    /// relative paths from `base`. Standard input (`-`) is not asked for.
    fn find(
        &self,
        flag: FileFlag,
        arg: &str,
        base: &Path,
        symlinks: &Symlinks,
    ) -> anyhow::Result<Vec<Found>>;

    fn memory(&self) -> Memory;
}
