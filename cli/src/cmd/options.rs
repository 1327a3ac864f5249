//! The template command's flags turned into one `Options` value.

use anyhow::{anyhow, bail, Result};

use super::flags::TemplateFlags;
use crate::files::SourceOptions;

/// Document format of stdout output (`-o yaml|json|pos`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OutputFormat {
    #[default]
    Yaml,
    Json,
    Pos,
}

/// Schema export type (`-o openapi-v3|json-schema|markdown`, with
/// `--data-values-schema-inspect`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaType {
    OpenApiV3,
    JsonSchema,
    Markdown,
}

/// Input files: `-f`, `--file-mark`, `--files-inspect`, symlink policy, bulk input/output.
#[derive(Clone, Debug, Default)]
pub struct FilesOptions {
    pub files: Vec<String>,
    pub file_marks: Vec<String>,
    pub files_inspect: bool,
    pub symlinks: SourceOptions,
    pub bulk_in: Option<String>,
    pub bulk_out: bool,
}

/// Data-values flags, kept as given (`[@lib:]...` selectors unparsed).
#[derive(Clone, Debug, Default)]
pub struct DataValuesOptions {
    /// `-v, --data-value`
    pub kv_strings: Vec<String>,
    /// `--data-value-yaml`
    pub kv_yamls: Vec<String>,
    /// `--data-value-file`
    pub kv_files: Vec<String>,
    /// `--data-values-file`
    pub files: Vec<String>,
    /// `--data-values-env`
    pub env_prefixes: Vec<String>,
    /// `--data-values-env-yaml`
    pub env_yaml_prefixes: Vec<String>,
    /// `--data-values-inspect`
    pub inspect: bool,
    /// `--data-values-schema-inspect`
    pub schema_inspect: bool,
    /// `--dangerous-data-values-disable-validation`
    pub disable_validation: bool,
}

#[derive(Clone, Debug, Default)]
pub struct OutputOptions {
    pub format: OutputFormat,
    pub schema_type: Option<SchemaType>,
    /// `--output-files DIR`
    pub output_files: Option<String>,
    /// `--dangerous-emptied-output-directory DIR`
    pub emptied_output_directory: Option<String>,
    /// `--output-disable-validation`: do not evaluate `@assert/validate` on output documents.
    pub disable_validation: bool,
}

/// Everything the template command was asked to do.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub files: FilesOptions,
    pub data_values: DataValuesOptions,
    pub output: OutputOptions,
    pub strict: bool,
    pub ignore_unknown_comments: bool,
    pub implicit_map_key_overrides: bool,
    pub debug: bool,
    /// `--max-memory`, in bytes (0: no limit).
    pub max_memory: usize,
}

impl Options {
    /// Converts parsed flags, checking the output types (`Unknown output type 'x'`, schema
    /// types only with `--data-values-schema-inspect`).
    pub fn from_flags(f: TemplateFlags) -> Result<Options> {
        let (format, schema_type) = parse_output_types(&f.output, f.data_values_schema_inspect)?;
        Ok(Options {
            files: FilesOptions {
                files: f.files,
                file_marks: f.file_marks,
                files_inspect: f.files_inspect,
                symlinks: SourceOptions {
                    allow_symlink_destinations: f.allow_symlink_destinations,
                    allow_all_symlink_destinations: f.dangerous_allow_all_symlink_destinations,
                },
                bulk_in: f.bulk_in.filter(|s| !s.is_empty()),
                bulk_out: f.bulk_out,
            },
            data_values: DataValuesOptions {
                kv_strings: f.data_value,
                kv_yamls: f.data_value_yaml,
                kv_files: f.data_value_file,
                files: f.data_values_file,
                env_prefixes: f.data_values_env,
                env_yaml_prefixes: f.data_values_env_yaml,
                inspect: f.data_values_inspect,
                schema_inspect: f.data_values_schema_inspect,
                disable_validation: f.dangerous_data_values_disable_validation,
            },
            output: OutputOptions {
                format,
                schema_type,
                output_files: f.output_files.filter(|s| !s.is_empty()),
                emptied_output_directory: f
                    .dangerous_emptied_output_directory
                    .filter(|s| !s.is_empty()),
                disable_validation: f.output_disable_validation,
            },
            strict: f.strict,
            ignore_unknown_comments: f.ignore_unknown_comments,
            implicit_map_key_overrides: f.implicit_map_key_overrides,
            debug: f.debug,
            max_memory: match &f.max_memory {
                Some(s) => {
                    crate::memory::parse_size(s).map_err(|e| anyhow!("--max-memory: {e}"))?
                }
                None => crate::memory::default_limit(),
            },
        })
    }
}

/// `-o` values: the first format listed wins, as does the first schema type.
pub fn parse_output_types(
    types: &[String],
    schema_inspect: bool,
) -> Result<(OutputFormat, Option<SchemaType>)> {
    let mut format = None;
    let mut schema = None;
    for t in types {
        let t = t.trim();
        match t {
            "yaml" | "json" | "pos" => {
                if format.is_none() {
                    format = Some(match t {
                        "yaml" => OutputFormat::Yaml,
                        "json" => OutputFormat::Json,
                        _ => OutputFormat::Pos,
                    });
                }
            }
            "openapi-v3" | "json-schema" | "markdown" => {
                if schema.is_none() {
                    schema = Some(match t {
                        "openapi-v3" => SchemaType::OpenApiV3,
                        "json-schema" => SchemaType::JsonSchema,
                        _ => SchemaType::Markdown,
                    });
                }
            }
            "" => {}
            _ => bail!("Unknown output type '{t}'"),
        }
    }
    if schema.is_some() && !schema_inspect {
        bail!("Output type currently only supported for data values schema (i.e. include --data-values-schema-inspect)");
    }
    if schema.is_none() && schema_inspect {
        bail!("Data values schema export only supported in OpenAPI v3 format; specify format with --output=openapi-v3 flag");
    }
    Ok((format.unwrap_or_default(), schema))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn output_types() {
        assert_eq!(
            parse_output_types(&types(&[]), false).unwrap(),
            (OutputFormat::Yaml, None)
        );
        assert_eq!(
            parse_output_types(&types(&["json", "yaml"]), false).unwrap(),
            (OutputFormat::Json, None)
        );
        assert_eq!(
            parse_output_types(&types(&["openapi-v3"]), true).unwrap(),
            (OutputFormat::Yaml, Some(SchemaType::OpenApiV3))
        );
        assert_eq!(
            parse_output_types(&types(&["ymal"]), false)
                .unwrap_err()
                .to_string(),
            "Unknown output type 'ymal'"
        );
        assert!(parse_output_types(&types(&["json", "openapi-v3"]), false).is_err());
        assert!(parse_output_types(&types(&["yaml"]), true).is_err());
    }
}
