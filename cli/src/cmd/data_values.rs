//! Data-values flags (`-v`, `--data-value-yaml`, `--data-value-file`, `--data-values-file`,
//! `--data-values-env`, `--data-values-env-yaml`) turned into values for the workspace,
//! in the reference's precedence order: by flag kind, not by position.

use std::path::Path;
use std::sync::Arc;

use anyhow::{anyhow, bail, Result};

use super::options::DataValuesOptions;
use crate::files::{self, SourceOptions};
use ytt::workspace::CliValues;
use ytt::yaml::parser::{parse, ParseOptions};
use ytt::yaml::{FileNames, Node};

/// The data values of the command line. Files are read under the rules of every input
/// (`files::read_input`: the symlink policy of `sources`, regular files and pipes only).
/// Values parsed from YAML are positioned in the run's file `names`.
pub fn cli_values(
    opts: &DataValuesOptions,
    yaml: &ParseOptions,
    names: &FileNames,
    sources: &SourceOptions,
) -> Result<Vec<CliValues>> {
    let mut out = Vec::new();
    for f in &opts.files {
        out.extend(values_file(f, yaml, names, sources).map_err(|e| {
            anyhow!(
                "Extracting data value from file:\n{}",
                indent(&format!("{e:#}"), 2)
            )
        })?);
    }
    for p in &opts.env_prefixes {
        out.extend(env_values(p, false, yaml, names)?);
    }
    for p in &opts.env_yaml_prefixes {
        out.extend(env_values(p, true, yaml, names)?);
    }
    for kv in &opts.kv_strings {
        let (library, path, value) = split_kv(kv)?;
        out.push(CliValues::KeyValue {
            library,
            path,
            value: Node::Str(value.into()),
            source: "(data-value arg)".into(),
            line: kv.clone(),
        });
    }
    for kv in &opts.kv_yamls {
        let (library, path, value) = split_kv(kv)?;
        let value = yaml_value(value, "(data-value-yaml arg)", yaml, names).map_err(|e| {
            anyhow!(
                "Extracting data value from KV:\n  Deserializing value for key '{}':\n{}",
                path.join("."),
                indent(&format!("Deserializing YAML value: {e:#}"), 4)
            )
        })?;
        out.push(CliValues::KeyValue {
            library,
            path,
            value,
            source: "(data-value-yaml arg)".into(),
            line: kv.clone(),
        });
    }
    for kv in &opts.kv_files {
        let (library, path, file) = split_kv(kv)?;
        let bytes = read_path(file, sources)?;
        // a string value holds the file's bytes, UTF-8 or not (see `ytt::bytestr`)
        let text = ytt::bytestr::decode_vec(bytes);
        out.push(CliValues::KeyValue {
            library,
            path,
            line: text.clone(),
            value: Node::Str(text.into()),
            source: format!("(data-value-file arg) {kv}"),
        });
    }
    Ok(out)
}

/// `[@lib:]rest`: the library selector, if any, and the rest.
fn split_library(s: &str) -> Result<(Option<String>, &str)> {
    if !s.starts_with('@') {
        return Ok((None, s));
    }
    match s.split_once(':') {
        Some((lib, rest)) => Ok((Some(lib.to_owned()), rest)),
        None => bail!("Expected library ref to end with ':' in '{s}'"),
    }
}

/// `[@lib:]a.b.c=value`.
fn split_kv(kv: &str) -> Result<(Option<String>, Vec<String>, &str)> {
    let err = |msg: String| anyhow!("Extracting data value from KV:\n  {msg}");
    let Some((key, value)) = kv.split_once('=') else {
        return Err(err(format!("Expected format key=value, but was '{kv}'")));
    };
    let (library, key) = if key.starts_with('@') {
        split_library(key).map_err(|e| err(e.to_string()))?
    } else {
        (None, key)
    };
    if key.contains(':') {
        return Err(err(format!(
            "Expected at most one library-key separator ':' in '{}'",
            kv.split_once('=').map_or(kv, |(k, _)| k)
        )));
    }
    if key.is_empty() {
        return Err(err(format!("Expected key to be non-empty in '{kv}'")));
    }
    Ok((library, key.split('.').map(str::to_owned).collect(), value))
}

fn yaml_value(text: &str, source: &str, yaml: &ParseOptions, names: &FileNames) -> Result<Node> {
    let ds = parse(text, names.id(source), yaml).map_err(|e| anyhow!("{e}"))?;
    Ok(ds
        .docs
        .into_iter()
        .next()
        .map(|d| plain(d.value))
        .unwrap_or(Node::Null))
}

fn read_path(path: &str, sources: &SourceOptions) -> Result<Vec<u8>> {
    if path == "-" {
        return files::read_stdin();
    }
    files::read_input(path, sources)
}

/// `--data-values-file [@lib:]path`: a YAML file, a directory of them (other files are
/// skipped), or `-`.
fn values_file(
    spec: &str,
    yaml: &ParseOptions,
    names: &FileNames,
    sources: &SourceOptions,
) -> Result<Vec<CliValues>> {
    let (library, path) = split_library(spec)?;
    // (name, content)
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    if path == "-" {
        let bytes =
            files::read_stdin().map_err(|e| anyhow!("Reading file 'stdin.yml':\n  {e:#}"))?;
        inputs.push(("stdin.yml".to_owned(), bytes));
    } else if Path::new(path).is_dir() {
        // a link to a directory is allowed as a link to a file is
        files::read_input_dir_check(path, sources)?;
        let is_yaml = |name: &str| name.ends_with(".yml") || name.ends_with(".yaml");
        let mut found = Vec::new();
        files::walk_dir(Path::new(path), "", sources, &is_yaml, &mut found)?;
        for f in found {
            inputs.push((
                format!("{}/{}", path.trim_end_matches('/'), f.rel_path),
                f.data.to_vec(),
            ));
        }
    } else {
        let bytes = files::read_input(path, sources)
            .map_err(|e| anyhow!("Reading file '{path}':\n  {e:#}"))?;
        inputs.push((path.to_owned(), bytes));
    }
    let mut out = Vec::new();
    for (name, bytes) in inputs {
        let display = Path::new(&name)
            .file_name()
            .map_or(name.clone(), |n| n.to_string_lossy().into_owned());
        let text = String::from_utf8(bytes)
            .map_err(|_| anyhow!("Reading data values file '{display}': not valid UTF-8"))?;
        let ds = ytt::yaml::pieces::parse_text(&text, names.id(&display), yaml)
            .map_err(|e| anyhow!("Unmarshaling YAML data values file '{display}': {e}"))?;
        if ytt::template::is_templated(&ds) {
            bail!(
                "Checking data values file '{name}':\n  Expected to be plain YAML, having no annotations (hint: remove comments starting with `#@`)"
            );
        }
        // documents with nothing in them (only comments) contribute nothing
        for doc in ds.docs.into_iter().filter(|d| !d.value.is_null()) {
            out.push(CliValues::Plain {
                library: library.clone(),
                doc: plain(doc.value),
                source: display.clone(),
                text: Arc::from(text.as_str()),
            });
        }
    }
    Ok(out)
}

fn indent(text: &str, n: usize) -> String {
    let pad = " ".repeat(n);
    text.lines()
        .map(|l| format!("{pad}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn plain(mut n: Node) -> Node {
    ytt::yaml::parser::dedup_last_wins_deep(&mut n);
    n
}

/// `--data-values-env[-yaml] [@lib:]PREFIX`: variables `PREFIX_a__b=value`.
fn env_values(
    spec: &str,
    as_yaml: bool,
    yaml: &ParseOptions,
    names: &FileNames,
) -> Result<Vec<CliValues>> {
    let (library, prefix) = split_library(spec)?;
    let source = if as_yaml {
        "(data-values-env-yaml arg)"
    } else {
        "(data-values-env arg)"
    };
    // Only the variables named PREFIX_… matter; one of them whose name or value is not
    // UTF-8 is an error naming it (any other variable is none of our business).
    let wanted = format!("{prefix}_");
    let mut vars: Vec<(String, String)> = Vec::new();
    for (k, v) in std::env::vars_os() {
        let name = k.to_string_lossy();
        let Some(rest) = name.strip_prefix(&wanted) else {
            continue;
        };
        match (k.to_str(), v.into_string()) {
            (Some(_), Ok(v)) => vars.push((rest.to_owned(), v)),
            _ => bail!(
                "Extracting data values from environment variables with prefix '{prefix}':\n  Expected variable '{name}' to have a UTF-8 name and value, but it does not"
            ),
        }
    }
    vars.sort();
    let mut out = Vec::new();
    for (key, value) in vars {
        let line = format!("{prefix}_{key}={value}");
        let value = if as_yaml {
            yaml_value(&value, source, yaml, names)?
        } else {
            Node::Str(value.into())
        };
        out.push(CliValues::KeyValue {
            library: library.clone(),
            path: key.split("__").map(str::to_owned).collect(),
            value,
            source: format!("{source} {prefix}"),
            line,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_key_values_with_library_selectors() {
        let (lib, path, v) = split_kv("@lib:a.b=c=d").unwrap();
        assert_eq!(lib.as_deref(), Some("@lib"));
        assert_eq!(path, vec!["a", "b"]);
        assert_eq!(v, "c=d");
        let err = split_kv("i:nt=124").unwrap_err().to_string();
        assert!(err.contains("Expected at most one library-key separator ':' in 'i:nt'"));
    }
}
