//! `ytt completion bash|zsh|fish|powershell`.

use std::io::Write;

use anyhow::{bail, Result};
use clap::CommandFactory;
use clap_complete::Shell;

use super::flags::Cli;

pub fn run(args: &[String]) -> Result<()> {
    let shell = match args {
        [] => {
            let mut cmd = Cli::command();
            cmd.build();
            let help = match cmd.find_subcommand_mut("completion") {
                Some(sub) => sub.render_help().to_string(),
                None => String::new(),
            };
            print!("{help}");
            return Ok(());
        }
        [s] => match s.as_str() {
            "bash" => Shell::Bash,
            "zsh" => Shell::Zsh,
            "fish" => Shell::Fish,
            "powershell" => Shell::PowerShell,
            other => bail!("unknown command \"{other}\" for \"ytt completion\""),
        },
        [_, second, ..] => {
            bail!("command 'ytt completion' does not accept extra arguments '{second}'")
        }
    };
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "ytt", &mut buf);
    let mut out = std::io::stdout().lock();
    out.write_all(&buf)?;
    out.flush()?;
    Ok(())
}
