//! `ytt fmt -f FILE…`: every YAML file of the inputs (paths, directories, `-` for
//! stdin) formatted by `ytt::fmt`, in input order, to stdout. Other files are skipped.
//! A file that does not parse stops the run before anything is written.

use anyhow::{anyhow, Result};

use super::flags::FmtFlags;
use super::output::write_stdout;
use crate::files::{self, SourceOptions};
use ytt::files::FileKind;
use ytt::yaml::parser::ParseOptions;

pub fn run(flags: &FmtFlags) -> Result<()> {
    let start = std::time::Instant::now();
    let sources = files::collect(&flags.files, &SourceOptions::default())?;
    let opts = ParseOptions {
        strict: flags.strict,
        ..ParseOptions::default()
    };
    let mut out = String::new();
    for f in sources {
        if FileKind::from_path(&f.rel_path) != FileKind::YamlTemplate {
            continue;
        }
        let data = match &f.unread {
            Some(unread) => files::read(&unread.path)?.into(),
            None => f.data,
        };
        // bytes that are not UTF-8 are carried, for the parser to refuse (as for templates)
        let text = ytt::bytestr::decode(&data);
        let formatted = ytt::fmt::format_text(&text, &opts)
            .map_err(|e| anyhow!("Unmarshaling YAML template '{}': {e}", f.rel_path))?;
        out.push_str(&formatted);
    }
    write_stdout(&ytt::bytestr::encode(&out))?;
    if flags.debug {
        eprintln!("total: {:?}", start.elapsed());
    }
    Ok(())
}
