//! The template command's flags turned into one `Options` value.

use anyhow::{anyhow, bail, Result};

use super::flags::TemplateFlags;
use crate::files::SourceOptions;
use ytt::frontend::{DataValueFlags, Format, Mode, Request, SchemaFormat};

/// Where the input files come from: `-f`, the symlink policy, `--bulk-in`; and
/// `--bulk-out`.
#[derive(Clone, Debug, Default)]
pub struct FilesOptions {
    pub files: Vec<String>,
    pub symlinks: SourceOptions,
    pub bulk_in: Option<String>,
    pub bulk_out: bool,
}

/// Where output goes besides standard output.
#[derive(Clone, Debug, Default)]
pub struct OutputOptions {
    /// `--output-files DIR`
    pub output_files: Option<String>,
    /// `--dangerous-emptied-output-directory DIR`
    pub emptied_output_directory: Option<String>,
}

/// Everything the template command was asked to do.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The run, its input files not yet read.
    pub request: Request,
    pub files: FilesOptions,
    pub output: OutputOptions,
    pub debug: bool,
    /// `--max-memory`, in bytes (0: no limit).
    pub max_memory: usize,
}

impl Options {
    /// Converts parsed flags, checking the output types (`Unknown output type 'x'`, schema
    /// types only with `--data-values-schema-inspect`).
    pub fn from_flags(f: TemplateFlags) -> Result<Options> {
        let (format, schema_format) = parse_output_types(&f.output, f.data_values_schema_inspect)?;
        // the inspections, first first
        let mode = match schema_format {
            Some(schema) => Mode::Schema(schema),
            None if f.files_inspect => Mode::Files,
            None if f.data_values_inspect => Mode::DataValues,
            None => Mode::Render,
        };
        Ok(Options {
            request: Request {
                files: Vec::new(),
                file_marks: f.file_marks,
                data_values: DataValueFlags {
                    files: f.data_values_file,
                    env: f.data_values_env,
                    env_yaml: f.data_values_env_yaml,
                    strings: f.data_value,
                    yamls: f.data_value_yaml,
                    value_files: f.data_value_file,
                },
                mode,
                format,
                strict: f.strict,
                ignore_unknown_comments: f.ignore_unknown_comments,
                implicit_map_key_overrides: f.implicit_map_key_overrides,
                disable_values_validation: f.dangerous_data_values_disable_validation,
                disable_output_validation: f.output_disable_validation,
            },
            files: FilesOptions {
                files: f.files,
                symlinks: SourceOptions {
                    allow_symlink_destinations: f.allow_symlink_destinations,
                    allow_all_symlink_destinations: f.dangerous_allow_all_symlink_destinations,
                },
                bulk_in: f.bulk_in.filter(|s| !s.is_empty()),
                bulk_out: f.bulk_out,
            },
            output: OutputOptions {
                output_files: f.output_files.filter(|s| !s.is_empty()),
                emptied_output_directory: f
                    .dangerous_emptied_output_directory
                    .filter(|s| !s.is_empty()),
            },
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
) -> Result<(Format, Option<SchemaFormat>)> {
    let mut format = None;
    let mut schema = None;
    for t in types {
        let t = t.trim();
        match t {
            "yaml" | "json" | "pos" => {
                if format.is_none() {
                    format = Some(match t {
                        "yaml" => Format::Yaml,
                        "json" => Format::Json,
                        _ => Format::Pos,
                    });
                }
            }
            "openapi-v3" | "json-schema" | "markdown" => {
                if schema.is_none() {
                    schema = Some(match t {
                        "openapi-v3" => SchemaFormat::OpenApiV3,
                        "json-schema" => SchemaFormat::JsonSchema,
                        _ => SchemaFormat::Markdown,
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
            (Format::Yaml, None)
        );
        assert_eq!(
            parse_output_types(&types(&["json", "yaml"]), false).unwrap(),
            (Format::Json, None)
        );
        assert_eq!(
            parse_output_types(&types(&["openapi-v3"]), true).unwrap(),
            (Format::Yaml, Some(SchemaFormat::OpenApiV3))
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
