//! `ytt lsp`: the language server (the crate `ytt-lsp`) on stdin/stdout. It reads a run's
//! flags with this command line's parser (into the request `ytt::frontend` takes) and
//! finds its files with this command line's rules, so that a run in the editor is the run
//! `ytt` makes of the same arguments; its memory budget is this binary's allocator's.

use std::ffi::OsString;
use std::path::Path;
use std::sync::Arc;

use anyhow::{bail, Result};
use clap::{CommandFactory, FromArgMatches};

use super::flags::{Cli, Command, Deferred};
use super::{errors, no_extra_args, Options};
use crate::files::{self, SourceOptions};
use ytt::files::bulk;
use ytt_lsp::{FileFlag, Found, Invocation, Memory, Symlinks};

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
            Some(Command::Template(Deferred(f))) => cli.template.merge(*f),
            Some(_) => bail!("a run's arguments are the template command's flags"),
        };
        no_extra_args("ytt", &flags.extra)?;
        let Options {
            mut request, files, ..
        } = Options::from_flags(flags)?;
        // the files the arguments carry come first, as the command line reads them
        if let Some(json) = &files.bulk_in {
            request.files = bulk::parse_bulk_in(json)?;
        }
        Ok(Invocation {
            request,
            files: files.files,
            symlinks: Symlinks {
                allow_destinations: files.symlinks.allow_symlink_destinations,
                allow_all: files.symlinks.allow_all_symlink_destinations,
            },
        })
    }

    fn find(
        &self,
        flag: FileFlag,
        arg: &str,
        base: &Path,
        symlinks: &Symlinks,
    ) -> Result<Vec<Found>> {
        let from_base = |p: &str| files::text_of_os(base.join(files::path_of_text(p)).as_os_str());
        let sources = SourceOptions {
            allow_symlink_destinations: symlinks
                .allow_destinations
                .iter()
                .map(|d| from_base(d))
                .collect(),
            allow_all_symlink_destinations: symlinks.allow_all,
        };
        let found = match flag {
            FileFlag::Input => {
                let (name, path) = files::split_name(arg)?;
                files::refuse_url(path)?;
                files::find_named(name, &from_base(path), &sources)?
            }
            FileFlag::ValuesFile => {
                let (name, path) = files::split_name(arg)?;
                files::find_values_files(name, &from_base(path), &sources)?
            }
            FileFlag::ValueFile => vec![files::find_value_file(&from_base(arg), &sources)?],
        };
        Ok(found
            .into_iter()
            .map(|f| Found {
                path: files::path_of_text(&f.path),
                rel_path: f.rel_path,
                regular: f.regular,
            })
            .collect())
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
