//! `ytt version` / `ytt --version`.

use std::io::Write;

/// The language level this ytt implements.
pub const VERSION: &str = "0.50.0";

pub fn run() -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "ytt version {VERSION}")?;
    out.flush()?;
    Ok(())
}
