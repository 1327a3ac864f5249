//! Data-values flags (`-v`, `--data-value-yaml`, `--data-value-file`, `--data-values-file`,
//! `--data-values-env`, `--data-values-env-yaml`) turned into values for the workspace,
//! in the reference's precedence order: by flag kind, not by position.

use anyhow::{anyhow, bail, Result};

use super::options::DataValuesOptions;
use crate::files::{self, SourceOptions};
use ytt::diagnostic::indent;
use ytt::workspace::values::{split_kv, split_library, yaml_value};
use ytt::workspace::CliValues;
use ytt::yaml::parser::ParseOptions;
use ytt::yaml::{FileNames, Node};

/// The data values of the command line. Files are found and read under the rules of every
/// input (`files::find`, `files::read`: the symlink policy of `sources`, regular files and
/// pipes only).
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
        out.push(CliValues::from_kv(kv)?);
    }
    for kv in &opts.kv_yamls {
        out.push(CliValues::from_kv_yaml(kv, yaml, names)?);
    }
    for kv in &opts.kv_files {
        let (library, path, file) = split_kv(kv)?;
        let bytes = value_file(file, sources).map_err(|e| {
            anyhow!(
                "Extracting data value from file:\n{}",
                indent(&format!("{e:#}"), 2)
            )
        })?;
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

/// `--data-value-file key=path`: the bytes of one file (found as every input is), or of
/// standard input. A directory holding one file stands for it, as in the reference.
fn value_file(path: &str, sources: &SourceOptions) -> Result<Vec<u8>> {
    if path == "-" {
        return files::read_stdin();
    }
    let found = files::find(path, sources)
        .map_err(|e| anyhow!("Finding file '{path}':\n{}", indent(&format!("{e:#}"), 2)))?;
    let [file] = found.as_slice() else {
        bail!("Expected '{path}' to be a file, but is a directory");
    };
    files::read(&file.path).map_err(|e| anyhow!("Reading file '{path}': {e:#}"))
}

/// `--data-values-file [@lib:][name=]path`: a YAML file, a directory of them (other files
/// are skipped), or `-`; a file goes by its relative path (its base name, its path in the
/// directory, or the name given), as `-f` names it.
fn values_file(
    spec: &str,
    yaml: &ParseOptions,
    names: &FileNames,
    sources: &SourceOptions,
) -> Result<Vec<CliValues>> {
    let (library, arg) = split_library(spec)?;
    let find_error =
        |e: anyhow::Error| anyhow!("Find files '{arg}':\n{}", indent(&format!("{e:#}"), 2));
    let (name, path) = files::split_name(arg).map_err(find_error)?;
    // (relative path, content)
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    if path == "-" {
        let name = name.unwrap_or("stdin.yml");
        let bytes = files::read_stdin().map_err(|e| anyhow!("Reading file '{name}':\n  {e:#}"))?;
        inputs.push((name.to_owned(), bytes));
    } else {
        let found = files::find_named(name, path, sources).map_err(find_error)?;
        let given = matches!(found.as_slice(), [f] if f.path == path);
        let is_yaml = |name: &str| name.ends_with(".yml") || name.ends_with(".yaml");
        for f in found {
            if !given && !is_yaml(&f.rel_path) {
                continue;
            }
            let bytes = files::read(&f.path)
                .map_err(|e| anyhow!("Reading file '{}': {e:#}", f.rel_path))?;
            inputs.push((f.rel_path, bytes));
        }
    }
    let mut out = Vec::new();
    for (rel_path, bytes) in inputs {
        out.extend(CliValues::from_values_file(
            arg,
            &rel_path,
            bytes,
            library.as_deref(),
            yaml,
            names,
        )?);
    }
    Ok(out)
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
    // the variables named PREFIX_…, their bytes that are not UTF-8 carried (as the
    // reference takes them; YAML refuses them in go-yaml's words)
    let wanted = format!("{prefix}_");
    let mut vars: Vec<(String, String)> = std::env::vars_os()
        .map(|(k, v)| (files::text_of_os(&k), files::text_of_os(&v)))
        .filter_map(|(k, v)| Some((k.strip_prefix(&wanted)?.to_owned(), v)))
        .collect();
    vars.sort();
    let mut out = Vec::new();
    for (key, value) in vars {
        let line = format!("{prefix}_{key}={value}");
        let value = if as_yaml {
            yaml_value(&value, source, yaml, names).map_err(|e| {
                anyhow!(
                    "Extracting data values from env under prefix '{spec}':\n  Extracting data value from env variable '{prefix}_{key}':\n    Deserializing YAML value: {e:#}"
                )
            })?
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
