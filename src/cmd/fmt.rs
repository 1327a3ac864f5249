//! `ytt fmt -f FILE…`: re-emit YAML templates with their comments.

use anyhow::{bail, Result};

use super::flags::FmtFlags;

pub fn run(_flags: &FmtFlags) -> Result<()> {
    bail!("ytt fmt is not supported yet")
}
