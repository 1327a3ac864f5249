//! Data-value flags (`-v`, `--data-value-yaml`, `--data-value-file`, `--data-values-file`,
//! `--data-values-env`, `--data-values-env-yaml`) turned into values for the workspace,
//! in the reference's precedence order: by flag kind, not by position. What a flag names
//! outside the request (a file, the environment) the front end reads ([`Reader`]).

use anyhow::{anyhow, Result};

use super::Reader;
use crate::diagnostic::indent;
use crate::workspace::values::{split_kv, split_library, yaml_value};
use crate::workspace::CliValues;
use crate::yaml::parser::ParseOptions;
use crate::yaml::{FileNames, Node};

/// The data-value flags of a request, by kind, each as given (`[@lib:]` selectors
/// included).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DataValueFlags {
    /// `--data-values-file [@lib:][name=]path`: a YAML file, a directory of them, or `-`.
    pub files: Vec<String>,
    /// `--data-values-env [@lib:]PREFIX`: variables `PREFIX_a__b=value`, as strings.
    pub env: Vec<String>,
    /// `--data-values-env-yaml [@lib:]PREFIX`: the same, read as YAML.
    pub env_yaml: Vec<String>,
    /// `-v, --data-value [@lib:]a.b=value`: a string.
    pub strings: Vec<String>,
    /// `--data-value-yaml [@lib:]a.b=value`: read as YAML.
    pub yamls: Vec<String>,
    /// `--data-value-file [@lib:]a.b=path`: a file's contents, as a string.
    pub value_files: Vec<String>,
}

/// The values of `flags`, in precedence order (lowest first). Values parsed from YAML are
/// positioned in the run's file `names`.
pub(super) fn parse(
    flags: &DataValueFlags,
    reader: &dyn Reader,
    yaml: &ParseOptions,
    names: &FileNames,
) -> Result<Vec<CliValues>> {
    let from_file = |e: anyhow::Error| {
        anyhow!(
            "Extracting data value from file:\n{}",
            indent(&format!("{e:#}"), 2)
        )
    };
    let mut out = Vec::new();
    for f in &flags.files {
        out.extend(values_file(f, reader, yaml, names).map_err(from_file)?);
    }
    for p in &flags.env {
        out.extend(env_values(p, false, reader, yaml, names)?);
    }
    for p in &flags.env_yaml {
        out.extend(env_values(p, true, reader, yaml, names)?);
    }
    for kv in &flags.strings {
        out.push(CliValues::from_kv(kv)?);
    }
    for kv in &flags.yamls {
        out.push(CliValues::from_kv_yaml(kv, yaml, names)?);
    }
    for kv in &flags.value_files {
        let (library, path, file) = split_kv(kv)?;
        let bytes = reader.value_file(file).map_err(from_file)?;
        // a string value holds the file's bytes, UTF-8 or not (see `crate::bytestr`)
        let text = crate::bytestr::decode_vec(bytes);
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

/// `--data-values-file [@lib:]arg`: each file the reader finds for `arg`, its documents.
fn values_file(
    spec: &str,
    reader: &dyn Reader,
    yaml: &ParseOptions,
    names: &FileNames,
) -> Result<Vec<CliValues>> {
    let (library, arg) = split_library(spec)?;
    let mut out = Vec::new();
    for (rel_path, bytes) in reader.values_files(arg)? {
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

/// `--data-values-env[-yaml] [@lib:]PREFIX`: variables `PREFIX_a__b=value`, in name order.
fn env_values(
    spec: &str,
    as_yaml: bool,
    reader: &dyn Reader,
    yaml: &ParseOptions,
    names: &FileNames,
) -> Result<Vec<CliValues>> {
    let (library, prefix) = split_library(spec)?;
    let source = if as_yaml {
        "(data-values-env-yaml arg)"
    } else {
        "(data-values-env arg)"
    };
    let wanted = format!("{prefix}_");
    let mut vars: Vec<(String, String)> = (reader.env_vars().into_iter())
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
