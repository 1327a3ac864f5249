//! What the server needs from the command line it runs in: the command line's own reading
//! of a run's flags and of the disk (so that a run in the editor is the run `ytt` makes
//! of the same arguments), and its allocator's memory budget.
//!
//! The command line's crate depends on this one (`ytt lsp`), so these come in as a
//! [`Host`] instead of being imported.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// A run's command line as `ytt` reads it: the flags that decide what is rendered.
/// Output flags (`-o`, `--output-files`, `--debug`, ...) change nothing the server shows
/// and are not carried.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Invocation {
    /// `-f`, in order.
    pub files: Vec<String>,
    /// `--file-mark`
    pub file_marks: Vec<String>,
    pub symlinks: Symlinks,
    /// `--data-values-file`
    pub data_values_files: Vec<String>,
    /// `-v`
    pub data_values: Vec<String>,
    /// `--data-value-yaml`
    pub data_values_yaml: Vec<String>,
    /// `--data-value-file`
    pub data_value_files: Vec<String>,
    /// `--data-values-env` and `--data-values-env-yaml`: the prefixes given (the editor's
    /// environment is not the run's, so the server refuses them).
    pub data_values_env: Vec<String>,
    /// `--data-values-inspect`
    pub data_values_inspect: bool,
    /// `--data-values-schema-inspect`
    pub schema_inspect: bool,
    /// `-s, --strict`
    pub strict: bool,
    pub ignore_unknown_comments: bool,
    pub implicit_map_key_overrides: bool,
    /// `--dangerous-data-values-disable-validation`
    pub disable_values_validation: bool,
    /// `--output-disable-validation`
    pub disable_output_validation: bool,
}

/// The symlink policy (`--allow-symlink-destination`,
/// `--dangerous-allow-all-symlink-destinations`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Symlinks {
    pub allow_destinations: Vec<String>,
    pub allow_all: bool,
}

/// The files one file argument names.
#[derive(Debug, Default)]
pub struct Listing {
    pub files: Vec<Found>,
    /// The argument named a directory (whose listing a `--data-values-file` filters to
    /// YAML files), not one file.
    pub directory: bool,
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

    /// The files a file argument (`path` or `name=path`, as `-f` and the data-values
    /// flags take them) names, found as the command line finds them: relative paths from
    /// `base`.
    fn find(&self, arg: &str, base: &Path, symlinks: &Symlinks) -> anyhow::Result<Listing>;

    fn memory(&self) -> Memory;
}
