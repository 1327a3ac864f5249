//! `ytt lsp`: the language server (the crate `ytt-lsp`) on stdin/stdout. It reads a run's
//! flags with this command line's parser and finds its files with this command line's
//! rules, so that a run in the editor is the run `ytt` makes of the same arguments; its
//! memory budget is this binary's allocator's.

use std::ffi::OsString;
use std::path::Path;
use std::sync::Arc;

use anyhow::{bail, Result};
use clap::{CommandFactory, FromArgMatches};

use super::flags::{Cli, Command};
use super::{errors, no_extra_args, Options};
use crate::files::{self, SourceOptions};
use ytt::frontend::Mode;
use ytt_lsp::{Found, Invocation, Listing, Memory, Symlinks};

pub fn run() -> Result<()> {
    ytt_lsp::serve_stdio(Arc::new(CommandLine))
}

struct CommandLine;

impl ytt_lsp::Host for CommandLine {
    fn parse(&self, args: &[String]) -> Result<Invocation> {
        let argv: Vec<OsString> = std::iter::once("ytt")
            .chain(args.iter().map(String::as_str))
            .map(OsString::from)
            .collect();
        let mut command = Cli::command();
        let matches = command
            .try_get_matches_from_mut(argv.clone())
            .map_err(|e| errors::from_clap(&e, &argv))?;
        let cli = Cli::from_arg_matches(&matches).map_err(|e| errors::from_clap(&e, &argv))?;
        let flags = match cli.command {
            None => cli.template,
            Some(Command::Template(f)) => cli.template.merge(*f),
            Some(_) => bail!("a run's arguments are the template command's flags"),
        };
        no_extra_args("ytt", &flags.extra)?;
        let o = Options::from_flags(flags)?;
        let r = o.request;
        let dv = r.data_values;
        Ok(Invocation {
            files: o.files.files,
            file_marks: r.file_marks,
            symlinks: Symlinks {
                allow_destinations: o.files.symlinks.allow_symlink_destinations,
                allow_all: o.files.symlinks.allow_all_symlink_destinations,
            },
            data_values_files: dv.files,
            data_values: dv.strings,
            data_values_yaml: dv.yamls,
            data_value_files: dv.value_files,
            data_values_env: dv.env.into_iter().chain(dv.env_yaml).collect(),
            data_values_inspect: r.mode == Mode::DataValues,
            schema_inspect: matches!(r.mode, Mode::Schema(_)),
            strict: r.strict,
            ignore_unknown_comments: r.ignore_unknown_comments,
            implicit_map_key_overrides: r.implicit_map_key_overrides,
            disable_values_validation: r.disable_values_validation,
            disable_output_validation: r.disable_output_validation,
        })
    }

    fn find(&self, arg: &str, base: &Path, symlinks: &Symlinks) -> Result<Listing> {
        let (name, path) = files::split_name(arg)?;
        if path.starts_with("http://") || path.starts_with("https://") {
            bail!("Reading URL '{path}': fetching files over HTTP(S) is not supported by this ytt (no network access); download the file and pass its local path");
        }
        let from_base = |p: &str| files::text_of_os(base.join(files::path_of_text(p)).as_os_str());
        let path = from_base(path);
        let sources = SourceOptions {
            allow_symlink_destinations: symlinks
                .allow_destinations
                .iter()
                .map(|d| from_base(d))
                .collect(),
            allow_all_symlink_destinations: symlinks.allow_all,
        };
        let found = files::find_named(name, &path, &sources)?;
        let directory = !matches!(found.as_slice(), [f] if f.path == path);
        Ok(Listing {
            files: found
                .into_iter()
                .map(|f| Found {
                    path: files::path_of_text(&f.path),
                    rel_path: f.rel_path,
                    regular: f.regular,
                })
                .collect(),
            directory,
        })
    }

    fn memory(&self) -> Memory {
        Memory {
            held: crate::memory::counted,
            set_limit: crate::memory::set_limit,
            passed: crate::memory::passed_flag(),
            rearm: crate::memory::rearm,
        }
    }
}
