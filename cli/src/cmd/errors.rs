//! clap errors reworded as the reference's cobra/pflag errors
//! (`unknown flag: --x`, `unknown shorthand flag: 'x' in -x`,
//! `flag needs an argument: --file`, `invalid argument "x" for "-s, --strict" flag: …`).

use std::ffi::OsString;

use anyhow::anyhow;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::CommandFactory;

use super::flags::Cli;

pub fn from_clap(e: &clap::Error, args: &[OsString]) -> anyhow::Error {
    let args: Vec<String> = args
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let ctx = |k: ContextKind| match e.get(k) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => v.first().cloned(),
        _ => None,
    };
    let invalid_arg = ctx(ContextKind::InvalidArg);
    match e.kind() {
        ErrorKind::UnknownArgument => {
            let arg = invalid_arg.unwrap_or_default();
            if let Some(long) = arg.strip_prefix("--") {
                let name = long.split('=').next().unwrap_or(long);
                anyhow!("unknown flag: --{name}")
            } else if let Some(short) = arg.strip_prefix('-') {
                let c = short.chars().next().unwrap_or('-');
                let cluster = args
                    .iter()
                    .find(|a| a.starts_with('-') && !a.starts_with("--") && a[1..].contains(c))
                    .cloned()
                    .unwrap_or_else(|| arg.clone());
                anyhow!("unknown shorthand flag: '{c}' in {cluster}")
            } else {
                anyhow!("command 'ytt' does not accept extra arguments '{arg}'")
            }
        }
        ErrorKind::InvalidSubcommand => {
            let sub = ctx(ContextKind::InvalidSubcommand).unwrap_or_default();
            anyhow!("command 'ytt' does not accept extra arguments '{sub}'")
        }
        ErrorKind::InvalidValue | ErrorKind::ValueValidation | ErrorKind::NoEquals => {
            let flag = invalid_arg.as_deref().and_then(flag_of_display);
            let value = ctx(ContextKind::InvalidValue);
            match (flag, value) {
                (Some(flag), Some(v)) if !v.is_empty() => {
                    let reason = e
                        .source()
                        .map(|s| s.to_string())
                        .unwrap_or_else(|| "invalid syntax".to_owned());
                    anyhow!(
                        "invalid argument \"{v}\" for \"{}\" flag: {reason}",
                        flag.pflag_name()
                    )
                }
                (Some(flag), _) => {
                    // The value is missing: say it the way the user spelled the flag.
                    let typed_short = flag.short.is_some_and(|s| {
                        args.last().is_some_and(|a| {
                            a.starts_with('-') && !a.starts_with("--") && a.ends_with(s)
                        })
                    });
                    match (typed_short, flag.short) {
                        (true, Some(s)) => {
                            let cluster = args.last().cloned().unwrap_or_default();
                            anyhow!("flag needs an argument: '{s}' in {cluster}")
                        }
                        _ => anyhow!("flag needs an argument: --{}", flag.long),
                    }
                }
                _ => anyhow!("{}", plain(e)),
            }
        }
        _ => anyhow!("{}", plain(e)),
    }
}

struct FlagName {
    long: String,
    short: Option<char>,
}

impl FlagName {
    /// pflag's way of naming a flag in messages: `-s, --strict` or `--file-mark`.
    fn pflag_name(&self) -> String {
        match self.short {
            Some(s) => format!("-{s}, --{}", self.long),
            None => format!("--{}", self.long),
        }
    }
}

/// Finds the flag from clap's display of it (`--strict[=<STRICT>]`, `--file <FILE>`,
/// `-f <FILE>`).
fn flag_of_display(display: &str) -> Option<FlagName> {
    let head: String = display
        .chars()
        .take_while(|c| !matches!(c, ' ' | '[' | '=' | '<'))
        .collect();
    let cmd = Cli::command();
    let mut all: Vec<&clap::Arg> = cmd.get_arguments().collect();
    for sub in cmd.get_subcommands() {
        all.extend(sub.get_arguments());
    }
    let found = if let Some(long) = head.strip_prefix("--") {
        all.into_iter().find(|a| a.get_long() == Some(long))
    } else if let Some(short) = head.strip_prefix('-') {
        let c = short.chars().next()?;
        all.into_iter().find(|a| a.get_short() == Some(c))
    } else {
        None
    }?;
    Some(FlagName {
        long: found.get_long()?.to_owned(),
        short: found.get_short(),
    })
}

/// clap's own message, without its `error: ` prefix, usage and tips.
fn plain(e: &clap::Error) -> String {
    let rendered = e.render().to_string();
    let first = rendered.lines().next().unwrap_or("").trim();
    first.strip_prefix("error: ").unwrap_or(first).to_owned()
}

use std::error::Error as _;
