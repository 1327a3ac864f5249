//! Writing a run's result: stdout in the chosen format (text outputs never go to stdout;
//! a warning does instead), output directories, or bulk JSON.
//!
//! Everything is rendered into memory first; nothing is written when any part fails.

use std::io::Write;

use anyhow::{anyhow, bail, Result};

use super::options::OutputOptions;
use crate::files::outdir::OutputDirectory;
use ytt::files::bulk::bulk_out_json;
use ytt::frontend::Output;
use ytt::workspace::{OutputContent, OutputFile};
use ytt::yaml::{emit, DocSet};

/// The warning printed to stderr when text outputs exist but output goes to stdout.
pub const NON_YAML_WARNING: &str = "\nWarning: Found Non-YAML templates in input. Non-YAML templates are not rendered to standard output.\nIf you want to include those results, use the --output-files or --dangerous-emptied-output-directory flag.\n";

/// The output files in writing order (text files first, then YAML files, each in render
/// order), with their content: YAML outputs are always YAML, whatever `-o` says.
fn file_contents(files: &[OutputFile]) -> Result<Vec<(String, Vec<u8>)>> {
    let mut text = Vec::new();
    let mut yaml = Vec::new();
    for f in files {
        match &f.content {
            OutputContent::Text(s) => {
                text.push((f.rel_path.clone(), ytt::bytestr::encode(s).into_owned()))
            }
            OutputContent::Yaml(ds) => yaml.push((f.rel_path.clone(), emit_yaml(ds)?.into_bytes())),
            OutputContent::Starlark => bail!("Unknown file type"),
        }
    }
    text.extend(yaml);
    Ok(text)
}

/// Writes `out` as the options say: to an output directory, or to stdout.
pub fn write(opts: &OutputOptions, out: Output) -> Result<()> {
    let dir = match (&opts.emptied_output_directory, &opts.output_files) {
        (Some(d), _) => Some((d.clone(), true)),
        (None, Some(d)) => Some((d.clone(), false)),
        (None, None) => None,
    };
    if let Some((dir, empty_first)) = dir {
        let outdir = OutputDirectory {
            dir,
            files: file_contents(&out.files)?,
            empty_first,
        };
        let log = outdir.write()?;
        write_stdout(&ytt::bytestr::encode(&log))?;
        return Ok(());
    }
    write_stdout_of(out)
}

/// Writes what stdout shows of `out` (in its format), its warnings to stderr, and a
/// warning when text outputs were left out.
pub fn write_stdout_of(mut out: Output) -> Result<()> {
    let warnings = std::mem::take(&mut out.warnings);
    let stdout = out.into_stdout();
    let parts = stdout.parts()?;
    let mut err = std::io::stderr().lock();
    for w in warnings {
        let _ = writeln!(err, "{w}");
    }
    drop(err);
    write_stdout_parts(&parts)?;
    if !stdout.text_outputs.is_empty() {
        let _ = std::io::stderr()
            .lock()
            .write_all(NON_YAML_WARNING.as_bytes());
    }
    // The process ends next: freeing a large output tree node by node only costs time.
    drop(parts);
    std::mem::forget(stdout);
    Ok(())
}

/// `--bulk-out`: the output files (text first) or the error, as one JSON value.
pub fn write_bulk(result: Result<Output>) -> Result<()> {
    let json = match result.and_then(|out| file_contents(&out.files)) {
        Ok(files) => {
            let files: Vec<(String, String)> = files
                .into_iter()
                .map(|(n, d)| (n, String::from_utf8_lossy(&d).into_owned()))
                .collect();
            bulk_out_json(&files, None)
        }
        Err(e) => bulk_out_json(&[], Some(&format!("{e:#}"))),
    };
    write_stdout(json.as_bytes())
}

pub fn write_stdout(bytes: &[u8]) -> Result<()> {
    write_out([bytes])
}

/// Writes `parts` one after the other.
pub fn write_stdout_parts(parts: &[impl AsRef<str>]) -> Result<()> {
    write_out(parts.iter().map(|p| p.as_ref().as_bytes()))
}

fn write_out<'p>(parts: impl IntoIterator<Item = &'p [u8]>) -> Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let res = parts
        .into_iter()
        .try_for_each(|p| out.write_all(p))
        .and_then(|_| out.flush());
    match res {
        Ok(()) => Ok(()),
        // A closed pipe (`ytt … | head`) is not worth an error report.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(anyhow!("Writing to standard output: {e}")),
    }
}

/// An output file's text: YAML, whatever `-o` says.
fn emit_yaml(ds: &DocSet) -> Result<String> {
    let mut out = String::new();
    emit::yaml_docset(ds, &mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ytt::yaml::{Doc, Meta, Node};

    fn yaml_file(name: &str, docs: Vec<Node>) -> OutputFile {
        OutputFile {
            rel_path: name.into(),
            content: OutputContent::Yaml(DocSet {
                docs: docs
                    .into_iter()
                    .map(|value| Doc::new(value, Meta::default()))
                    .collect(),
                meta: Meta::default(),
            }),
        }
    }

    #[test]
    fn text_files_are_written_first() {
        let files = vec![
            yaml_file("a.yml", vec![Node::Int(1.into())]),
            OutputFile {
                rel_path: "t.txt".into(),
                content: OutputContent::Text("hi".into()),
            },
            yaml_file("b.yml", vec![Node::Str("x".into()), Node::Bool(true)]),
        ];
        let names: Vec<String> = file_contents(&files)
            .unwrap()
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(names, ["t.txt", "a.yml", "b.yml"]);
    }
}
