//! The command line: clap definitions ([`flags`]), flags → [`Options`], and the commands
//! (`template` — also the root command —, `fmt`, `version`, `completion`, `lsp`).

pub mod completion;
pub mod errors;
pub mod flags;
pub mod fmt;
pub mod lsp;
pub mod options;
pub mod output;
pub mod reader;
pub mod template;
pub mod version;

use std::ffi::OsString;
use std::io::Write;

use anyhow::{bail, Result};
use clap::{CommandFactory, FromArgMatches};

pub use options::Options;

use flags::{Cli, Command, Deferred};

/// The stack a run needs: templates may nest deeply (reserved, not committed). [`run`]
/// runs the commands that read templates and YAML on a thread of this size
/// (`crate::stack`): the engine renders on it (`workspace::render_on_this_thread`), and
/// the output is written from it.
pub const STACK_SIZE: usize = ytt::workspace::RUN_STACK;

/// Runs `ytt` with `args` (program name first). Errors are to be printed by the caller as
/// `ytt: Error: {err:#}` with exit code 1.
pub fn run(args: Vec<OsString>) -> Result<()> {
    // arguments are bytes, as the reference takes them: those that are not UTF-8 (a file
    // name, a value) are carried as text (`files::path_of_text` finds the file again)
    let args: Vec<OsString> = args
        .iter()
        .map(|a| OsString::from(crate::files::text_of_os(a)))
        .collect();
    let mut command = Cli::command();
    let matches = match command.try_get_matches_from_mut(args.clone()) {
        Ok(m) => m,
        Err(e) => {
            use clap::error::ErrorKind as K;
            return match e.kind() {
                K::DisplayHelp
                | K::DisplayVersion
                | K::DisplayHelpOnMissingArgumentOrSubcommand => {
                    let mut out = std::io::stdout().lock();
                    let _ = write!(out, "{}", e.render());
                    let _ = out.flush();
                    Ok(())
                }
                _ => Err(errors::from_clap(&e, &args)),
            };
        }
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => return Err(errors::from_clap(&e, &args)),
    };

    if cli.version {
        return version::run();
    }
    // Template flags before another subcommand are not that subcommand's flags.
    if let Some((name, _)) = matches.subcommand() {
        let root_flag = matches.ids().find(|id| {
            matches.value_source(id.as_str()) == Some(clap::parser::ValueSource::CommandLine)
        });
        if let (Some(id), false) = (root_flag, matches!(name, "template")) {
            let flag = command
                .get_arguments()
                .find(|a| a.get_id() == id)
                .and_then(|a| a.get_long())
                .unwrap_or(id.as_str());
            bail!("unknown flag: --{flag} (command 'ytt {name}' does not accept it)");
        }
    }
    match cli.command {
        None => {
            no_extra_args("ytt", &cli.template.extra)?;
            on_run_stack(move || template::run(Options::from_flags(cli.template)?))
        }
        Some(Command::Template(Deferred(f))) => {
            let f = cli.template.merge(*f);
            no_extra_args("ytt template", &f.extra)?;
            on_run_stack(move || template::run(Options::from_flags(f)?))
        }
        Some(Command::Version(a)) => {
            no_extra_args("ytt version", &a.extra)?;
            version::run()
        }
        Some(Command::Fmt(Deferred(f))) => {
            no_extra_args("ytt fmt", &f.extra)?;
            on_run_stack(move || fmt::run(&f))
        }
        Some(Command::Completion(Deferred(c))) => completion::run(&c.args),
        Some(Command::Lsp(a)) => {
            no_extra_args("ytt lsp", &a.extra)?;
            on_run_stack(lsp::run)
        }
        Some(Command::Website(Deferred(w))) => {
            no_extra_args("ytt website", &w.extra)?;
            bail!("Command 'ytt website' is not supported by this ytt (it serves the playground over HTTP)")
        }
    }
}

/// `run()` with [`STACK_SIZE`]: what reads templates and YAML recurses as deep as they
/// nest (`crate::stack`); the other commands run without it. A panic of `run` goes on
/// here, to the binary's report of it.
fn on_run_stack<T: Send>(run: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    crate::stack::on_stack_of(STACK_SIZE, run)
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

fn no_extra_args(path: &str, extra: &[String]) -> Result<()> {
    if let Some(first) = extra.first() {
        bail!("command '{path}' does not accept extra arguments '{first}'");
    }
    Ok(())
}
