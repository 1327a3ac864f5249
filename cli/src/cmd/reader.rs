//! What a run's request names outside itself, read from the disk, standard input and the
//! process's environment: input files found unread, and the files and variables of
//! data-value flags (the engine parses the flags: `ytt::frontend`).

use anyhow::{anyhow, bail, Result};

use crate::files::{self, SourceOptions};
use ytt::diagnostic::indent;
use ytt::files::Unread;
use ytt::frontend::Reader;

/// Files are found and read under the rules of every input (`files::find`, `files::read`:
/// the symlink policy of `sources`, regular files and pipes only).
pub struct Disk<'a> {
    pub sources: &'a SourceOptions,
}

impl Reader for Disk<'_> {
    fn unread(&self, file: &Unread) -> Result<Vec<u8>> {
        files::read(&file.path)
    }

    /// `[name=]path`: a YAML file, a directory of them (other files are skipped), or `-`;
    /// a file goes by its relative path (its base name, its path in the directory, or the
    /// name given), as `-f` names it.
    fn values_files(&self, arg: &str) -> Result<Vec<(String, Vec<u8>)>> {
        let find_error =
            |e: anyhow::Error| anyhow!("Find files '{arg}':\n{}", indent(&format!("{e:#}"), 2));
        let (name, path) = files::split_name(arg).map_err(find_error)?;
        if path == "-" {
            let name = name.unwrap_or("stdin.yml");
            let bytes =
                files::read_stdin().map_err(|e| anyhow!("Reading file '{name}':\n  {e:#}"))?;
            return Ok(vec![(name.to_owned(), bytes)]);
        }
        let found = files::find_named(name, path, self.sources).map_err(find_error)?;
        let given = matches!(found.as_slice(), [f] if f.path == path);
        let is_yaml = |name: &str| name.ends_with(".yml") || name.ends_with(".yaml");
        let mut out = Vec::new();
        for f in found {
            if !given && !is_yaml(&f.rel_path) {
                continue;
            }
            let bytes = files::read(&f.path)
                .map_err(|e| anyhow!("Reading file '{}': {e:#}", f.rel_path))?;
            out.push((f.rel_path, bytes));
        }
        Ok(out)
    }

    /// The bytes of one file (found as every input is), or of standard input (`-`). A
    /// directory holding one file stands for it, as in the reference.
    fn value_file(&self, path: &str) -> Result<Vec<u8>> {
        if path == "-" {
            return files::read_stdin();
        }
        let found = files::find(path, self.sources)
            .map_err(|e| anyhow!("Finding file '{path}':\n{}", indent(&format!("{e:#}"), 2)))?;
        let [file] = found.as_slice() else {
            bail!("Expected '{path}' to be a file, but is a directory");
        };
        files::read(&file.path).map_err(|e| anyhow!("Reading file '{path}': {e:#}"))
    }

    /// Every variable, its bytes that are not UTF-8 carried (as the reference takes them;
    /// YAML refuses them in go-yaml's words).
    fn env_vars(&self) -> Vec<(String, String)> {
        std::env::vars_os()
            .map(|(k, v)| (files::text_of_os(&k), files::text_of_os(&v)))
            .collect()
    }
}
