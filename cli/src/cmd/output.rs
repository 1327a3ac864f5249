//! Writing a run's result: stdout in the chosen format (text outputs never go to stdout;
//! a warning does instead), output directories, or bulk JSON.
//!
//! Everything is rendered into memory first; nothing is written when any part fails.

use std::borrow::Cow;
use std::io::Write;

use anyhow::{anyhow, bail, Result};

use super::options::{OutputFormat, OutputOptions};
use crate::files::outdir::OutputDirectory;
use ytt::files::bulk::bulk_out_json;
use ytt::workspace::{self, OutputContent, OutputFile};
use ytt::yaml::{emit, DocSet, FileNames};

/// The warning printed to stderr when text outputs exist but output goes to stdout.
pub const NON_YAML_WARNING: &str = "\nWarning: Found Non-YAML templates in input. Non-YAML templates are not rendered to standard output.\nIf you want to include those results, use the --output-files or --dangerous-emptied-output-directory flag.\n";

/// What a run produced, ready to be written, and the run's file names (`-o pos` shows
/// where each node came from).
#[derive(Debug, Default)]
pub struct RunOutput {
    produced: Produced,
    names: FileNames,
}

#[derive(Debug)]
enum Produced {
    /// Rendered output files: stdout gets every YAML output's documents, in order; output
    /// directories and `--bulk-out` get the files.
    Files(Vec<OutputFile>),
    /// Documents for stdout only (what an inspect flag printed); no output files.
    Docs(DocSet),
}

impl Default for Produced {
    fn default() -> Self {
        Produced::Files(Vec::new())
    }
}

impl RunOutput {
    pub fn from_files(files: Vec<OutputFile>, names: FileNames) -> RunOutput {
        RunOutput {
            produced: Produced::Files(files),
            names,
        }
    }

    pub fn from_docs(docs: DocSet, names: FileNames) -> RunOutput {
        RunOutput {
            produced: Produced::Docs(docs),
            names,
        }
    }

    fn files(&self) -> &[OutputFile] {
        match &self.produced {
            Produced::Files(f) => f,
            Produced::Docs(_) => &[],
        }
    }

    /// The stdout documents (moved out of the files), and whether text outputs were left
    /// out.
    fn into_stdout_docs(self) -> (DocSet, bool) {
        match self.produced {
            Produced::Docs(ds) => (ds, false),
            Produced::Files(files) => {
                let (docs, texts) = workspace::stdout_documents(files);
                (docs, !texts.is_empty())
            }
        }
    }
}

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

/// Writes `out` as the options say.
pub fn write(opts: &OutputOptions, out: RunOutput) -> Result<()> {
    let dir = match (&opts.emptied_output_directory, &opts.output_files) {
        (Some(d), _) => Some((d.clone(), true)),
        (None, Some(d)) => Some((d.clone(), false)),
        (None, None) => None,
    };
    if let Some((dir, empty_first)) = dir {
        let outdir = OutputDirectory {
            dir,
            files: file_contents(out.files())?,
            empty_first,
        };
        let log = outdir.write()?;
        write_stdout(&ytt::bytestr::encode(&log))?;
        return Ok(());
    }

    let names = out.names.clone();
    let (docs, has_text) = out.into_stdout_docs();
    write_stdout_parts(&emit(opts.format, &docs, &names)?)?;
    if has_text {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(NON_YAML_WARNING.as_bytes());
    }
    // The process ends next: freeing a large output tree node by node only costs time.
    std::mem::forget(docs);
    Ok(())
}

/// `--bulk-out`: the output files (text first) or the error, as one JSON value.
pub fn write_bulk(result: Result<RunOutput>) -> Result<()> {
    let json = match result.and_then(|out| file_contents(out.files())) {
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

/// Writes `parts` one after the other (see [`emit()`]).
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

/// `ds` in `format`, in parts to be written one after the other: a large output is
/// written on every core, a part per run of documents, and is not joined. `names`: the
/// file names of the run that made `ds`.
pub fn emit<'d>(
    format: OutputFormat,
    ds: &'d DocSet,
    names: &FileNames,
) -> Result<Vec<Cow<'d, str>>> {
    Ok(match format {
        OutputFormat::Yaml => emit::yaml_texts(ds),
        OutputFormat::Json => emit::json_texts(ds)
            .map_err(|e| anyhow!("{e}"))?
            .into_iter()
            .map(Cow::Owned)
            .collect(),
        OutputFormat::Pos => {
            let mut out = String::new();
            emit::pos_docset(ds, names, &mut out);
            vec![Cow::Owned(out)]
        }
    })
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
        let names = FileNames::default();
        let (docs, has_text) = RunOutput::from_files(files, names.clone()).into_stdout_docs();
        assert!(has_text);
        assert_eq!(docs.docs.len(), 3);
        let text = |f| emit(f, &docs, &names).unwrap().concat();
        assert_eq!(text(OutputFormat::Yaml), "1\n---\nx\n---\ntrue\n");
        assert_eq!(text(OutputFormat::Json), "1\"x\"true");
    }
}
