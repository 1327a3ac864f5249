//! clap definitions of every command and flag, shaped after the reference's cobra/pflag
//! command line: boolean flags take an optional `=value`, string flags take the next
//! argument whatever it looks like, stringSlice flags split on commas, and a repeated
//! single-valued flag keeps its last value.
//!
//! The flags' doc comments are their help, in the reference's words (`[@lib1:]` and all).
#![allow(rustdoc::broken_intra_doc_links)]

use clap::{ArgAction, ArgMatches, Args, FromArgMatches, Parser, Subcommand};

/// Parses a Go `strconv.ParseBool` value.
pub fn go_bool(s: &str) -> Result<bool, String> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Ok(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Ok(false),
        _ => Err(format!(
            "strconv.ParseBool: parsing \"{s}\": invalid syntax"
        )),
    }
}

#[derive(Parser, Debug)]
#[command(
    name = "ytt",
    about = "ytt performs YAML templating",
    long_about = "ytt performs YAML templating.\n\nDocs: https://carvel.dev/ytt/docs/latest/\nDocs for data values: https://carvel.dev/ytt/docs/latest/ytt-data-values/",
    disable_version_flag = true,
    args_override_self = true,
    max_term_width = 100
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub template: TemplateFlags,

    /// Print client version
    #[arg(long = "version", num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", value_parser = go_bool, value_name = "BOOL", hide_default_value = true, hide_possible_values = true)]
    pub version: bool,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Process YAML templates (deprecated; use top-level command -- e.g. `ytt -f-` instead of `ytt template -f-`)
    #[command(visible_aliases = ["t", "tpl"], args_override_self = true)]
    Template(Deferred<Box<TemplateFlags>>),

    /// Print client version
    #[command(args_override_self = true)]
    Version(NoArgs),

    /// Format YAML templates
    #[command(args_override_self = true)]
    Fmt(Deferred<FmtFlags>),

    /// Generate completion script for the specified shell
    #[command(args_override_self = true)]
    Completion(Deferred<CompletionArgs>),

    /// Start the language server on stdin/stdout (for editors: diagnostics of the real render, formatting)
    #[command(args_override_self = true)]
    Lsp(NoArgs),

    /// Starts website HTTP server (not supported by this ytt)
    #[command(args_override_self = true, hide = true)]
    Website(Deferred<WebsiteFlags>),
}

/// A subcommand's flags, defined only when the command line names the subcommand
/// (clap's `Command::defer`): defining `template`'s copy of every template flag took a
/// third of the instructions of `ytt version` and `ytt -f a.yml`. Help, completion
/// scripts and errors see every flag, as clap defines deferred ones before it uses a
/// command.
#[derive(Debug, Default)]
pub struct Deferred<T>(pub T);

impl<T: Args> Args for Deferred<T> {
    fn group_id() -> Option<clap::Id> {
        T::group_id()
    }
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.defer(|cmd| keeping_about(cmd, T::augment_args))
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        cmd.defer(|cmd| keeping_about(cmd, T::augment_args_for_update))
    }
}

/// `define(cmd)` with the subcommand's own description: the flags' struct may have one of
/// its own, which clap would otherwise put in its place, since deferred flags are defined
/// after the subcommand.
fn keeping_about(
    cmd: clap::Command,
    define: impl FnOnce(clap::Command) -> clap::Command,
) -> clap::Command {
    use clap::builder::Resettable;
    let about = cmd
        .get_about()
        .cloned()
        .map_or(Resettable::Reset, Resettable::Value);
    let long_about = (cmd.get_long_about().cloned()).map_or(Resettable::Reset, Resettable::Value);
    define(cmd).about(about).long_about(long_about)
}

impl<T: FromArgMatches> FromArgMatches for Deferred<T> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Deferred)
    }
    fn from_arg_matches_mut(matches: &mut ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches_mut(matches).map(Deferred)
    }
    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }
    fn update_from_arg_matches_mut(&mut self, matches: &mut ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(matches)
    }
}

#[derive(Args, Debug, Default)]
pub struct NoArgs {
    #[arg(hide = true, allow_hyphen_values = false)]
    pub extra: Vec<String>,
}

#[derive(Args, Debug)]
pub struct CompletionArgs {
    /// Shell: bash, zsh, fish or powershell
    #[arg(value_name = "SHELL")]
    pub args: Vec<String>,
}

#[derive(Args, Debug, Default)]
pub struct WebsiteFlags {
    /// Listen address
    #[arg(
        long = "listen-addr",
        default_value = "localhost:8080",
        allow_hyphen_values = true
    )]
    pub listen_addr: String,

    /// Redirect to HTTPS
    #[arg(long = "redirect-to-https", num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "true", value_parser = go_bool, value_name = "BOOL")]
    pub redirect_to_https: bool,

    #[arg(hide = true)]
    pub extra: Vec<String>,
}

#[derive(Args, Debug, Default)]
pub struct FmtFlags {
    /// File (ie local path, directory, -; HTTP URLs are not supported) (can be specified multiple times)
    #[arg(short = 'f', long = "file", action = ArgAction::Append, allow_hyphen_values = true, value_name = "FILE")]
    pub files: Vec<String>,

    /// Configure to use _strict_ YAML subset
    #[arg(short = 's', long = "strict", num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", value_parser = go_bool, value_name = "BOOL", hide_default_value = true)]
    pub strict: bool,

    /// Enable debug output
    #[arg(long = "debug", num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", value_parser = go_bool, value_name = "BOOL", hide_default_value = true)]
    pub debug: bool,

    #[arg(hide = true)]
    pub extra: Vec<String>,
}

/// Flags of the template command (the root command and `template`/`t`/`tpl`).
#[derive(Args, Debug, Default, Clone)]
pub struct TemplateFlags {
    // ---- files
    /// File (ie local path, directory, -; HTTP URLs are not supported) (can be specified multiple times)
    #[arg(short = 'f', long = "file", action = ArgAction::Append, allow_hyphen_values = true, value_name = "FILE", help_heading = "Files")]
    pub files: Vec<String>,

    /// File mark (ie change file path, mark as non-template) (format: file:key=value) (can be specified multiple times)
    #[arg(long = "file-mark", action = ArgAction::Append, allow_hyphen_values = true, value_name = "MARK", help_heading = "Files")]
    pub file_marks: Vec<String>,

    /// Inspect files
    #[arg(long = "files-inspect", num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", value_parser = go_bool, value_name = "BOOL", hide_default_value = true, help_heading = "Files")]
    pub files_inspect: bool,

    /// List of paths where symlinks can point to (can be specified multiple times)
    #[arg(long = "allow-symlink-destination", action = ArgAction::Append, value_delimiter = ',', allow_hyphen_values = true, value_name = "PATHS", help_heading = "Files")]
    pub allow_symlink_destinations: Vec<String>,

    /// Allow symlinks to point to any destination
    #[arg(long = "dangerous-allow-all-symlink-destinations", num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", value_parser = go_bool, value_name = "BOOL", hide_default_value = true, help_heading = "Files")]
    pub dangerous_allow_all_symlink_destinations: bool,

    /// Accept files in bulk format
    #[arg(
        long = "bulk-in",
        allow_hyphen_values = true,
        value_name = "JSON",
        help_heading = "Files"
    )]
    pub bulk_in: Option<String>,

    /// Output files in bulk format
    #[arg(long = "bulk-out", num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", value_parser = go_bool, value_name = "BOOL", hide_default_value = true, help_heading = "Files")]
    pub bulk_out: bool,

    // ---- data values
    /// Set specific data value to given value, as string (format: all.key1.subkey=123) (can be specified multiple times)
    #[arg(short = 'v', long = "data-value", action = ArgAction::Append, allow_hyphen_values = true, value_name = "KV", help_heading = "Data values")]
    pub data_value: Vec<String>,

    /// Set specific data value to given value, parsed as YAML (format: all.key1.subkey=true) (can be specified multiple times)
    #[arg(long = "data-value-yaml", action = ArgAction::Append, allow_hyphen_values = true, value_name = "KV", help_heading = "Data values")]
    pub data_value_yaml: Vec<String>,

    /// Set specific data value to contents of a file (format: [@lib1:]all.key1.subkey={file path, HTTP URL, or '-' (i.e. stdin)}) (can be specified multiple times)
    #[arg(long = "data-value-file", action = ArgAction::Append, allow_hyphen_values = true, value_name = "KV", help_heading = "Data values")]
    pub data_value_file: Vec<String>,

    /// Set multiple data values via plain YAML files (format: [@lib1:]{file path, HTTP URL, or '-' (i.e. stdin)}) (can be specified multiple times)
    #[arg(long = "data-values-file", action = ArgAction::Append, allow_hyphen_values = true, value_name = "PATH", help_heading = "Data values")]
    pub data_values_file: Vec<String>,

    /// Extract data values (as strings) from prefixed env vars (format: [@lib1:]PREFIX for PREFIX_all__key1=str) (can be specified multiple times)
    #[arg(long = "data-values-env", action = ArgAction::Append, allow_hyphen_values = true, value_name = "PREFIX", help_heading = "Data values")]
    pub data_values_env: Vec<String>,

    /// Extract data values (parsed as YAML) from prefixed env vars (format: [@lib1:]PREFIX for PREFIX_all__key1=true) (can be specified multiple times)
    #[arg(long = "data-values-env-yaml", action = ArgAction::Append, allow_hyphen_values = true, value_name = "PREFIX", help_heading = "Data values")]
    pub data_values_env_yaml: Vec<String>,

    /// Inspect data values
    #[arg(long = "data-values-inspect", num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", value_parser = go_bool, value_name = "BOOL", hide_default_value = true, help_heading = "Data values")]
    pub data_values_inspect: bool,

    /// Inspect data values schema
    #[arg(long = "data-values-schema-inspect", num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", value_parser = go_bool, value_name = "BOOL", hide_default_value = true, help_heading = "Data values")]
    pub data_values_schema_inspect: bool,

    /// Skip validating data values (not recommended: may result in templates failing or invalid output)
    #[arg(long = "dangerous-data-values-disable-validation", alias = "data-value-schema-disable-validation", num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", value_parser = go_bool, value_name = "BOOL", hide_default_value = true, help_heading = "Data values")]
    pub dangerous_data_values_disable_validation: bool,

    /// Skip validating output documents (`@assert/validate` on template output)
    #[arg(long = "output-disable-validation", num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", value_parser = go_bool, value_name = "BOOL", hide_default_value = true, help_heading = "Output")]
    pub output_disable_validation: bool,

    // ---- output
    /// Output type: yaml, json, pos, openapi-v3 (openapi-v3, json-schema and markdown only with --data-values-schema-inspect)
    #[arg(short = 'o', long = "output", action = ArgAction::Append, value_delimiter = ',', allow_hyphen_values = true, value_name = "TYPES", help_heading = "Output")]
    pub output: Vec<String>,

    /// Add output files to given directory
    #[arg(
        long = "output-files",
        allow_hyphen_values = true,
        value_name = "DIR",
        help_heading = "Output"
    )]
    pub output_files: Option<String>,

    /// Delete given directory, and then create it with output files
    #[arg(
        long = "dangerous-emptied-output-directory",
        allow_hyphen_values = true,
        value_name = "DIR",
        help_heading = "Output"
    )]
    pub dangerous_emptied_output_directory: Option<String>,

    // ---- parsing
    /// Configure to use _strict_ YAML subset
    #[arg(short = 's', long = "strict", num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", value_parser = go_bool, value_name = "BOOL", hide_default_value = true)]
    pub strict: bool,

    /// Configure whether unknown comments are ignored (ie comments that are not '#!' or '#@')
    #[arg(long = "ignore-unknown-comments", num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", value_parser = go_bool, value_name = "BOOL", hide_default_value = true)]
    pub ignore_unknown_comments: bool,

    /// Configure whether implicit map keys overrides are allowed
    #[arg(long = "implicit-map-key-overrides", num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", value_parser = go_bool, value_name = "BOOL", hide_default_value = true)]
    pub implicit_map_key_overrides: bool,

    /// Enable debug output
    #[arg(long = "debug", num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", value_parser = go_bool, value_name = "BOOL", hide_default_value = true)]
    pub debug: bool,

    /// Memory a run may use before it stops with an error naming where (e.g. 512M, 8G;
    /// 0: no limit; default: 3G, or a quarter of the machine's memory when that is less)
    #[arg(long = "max-memory", value_name = "SIZE")]
    pub max_memory: Option<String>,

    #[arg(hide = true)]
    pub extra: Vec<String>,
}

impl TemplateFlags {
    /// Template flags given before the `template` subcommand (`ytt -f x template -f y`)
    /// are the subcommand's too, as with the reference: `self` came first on the command
    /// line, `later` after.
    pub fn merge(mut self, later: TemplateFlags) -> TemplateFlags {
        let TemplateFlags {
            files,
            file_marks,
            files_inspect,
            allow_symlink_destinations,
            dangerous_allow_all_symlink_destinations,
            bulk_in,
            bulk_out,
            data_value,
            data_value_yaml,
            data_value_file,
            data_values_file,
            data_values_env,
            data_values_env_yaml,
            data_values_inspect,
            data_values_schema_inspect,
            dangerous_data_values_disable_validation,
            output_disable_validation,
            output,
            output_files,
            dangerous_emptied_output_directory,
            strict,
            ignore_unknown_comments,
            implicit_map_key_overrides,
            debug,
            max_memory,
            extra,
        } = later;
        self.files.extend(files);
        self.file_marks.extend(file_marks);
        self.files_inspect |= files_inspect;
        self.allow_symlink_destinations
            .extend(allow_symlink_destinations);
        self.dangerous_allow_all_symlink_destinations |= dangerous_allow_all_symlink_destinations;
        self.bulk_in = bulk_in.or(self.bulk_in);
        self.bulk_out |= bulk_out;
        self.data_value.extend(data_value);
        self.data_value_yaml.extend(data_value_yaml);
        self.data_value_file.extend(data_value_file);
        self.data_values_file.extend(data_values_file);
        self.data_values_env.extend(data_values_env);
        self.data_values_env_yaml.extend(data_values_env_yaml);
        self.data_values_inspect |= data_values_inspect;
        self.data_values_schema_inspect |= data_values_schema_inspect;
        self.dangerous_data_values_disable_validation |= dangerous_data_values_disable_validation;
        self.output_disable_validation |= output_disable_validation;
        self.output.extend(output);
        self.output_files = output_files.or(self.output_files);
        self.dangerous_emptied_output_directory =
            dangerous_emptied_output_directory.or(self.dangerous_emptied_output_directory);
        self.strict |= strict;
        self.ignore_unknown_comments |= ignore_unknown_comments;
        self.implicit_map_key_overrides |= implicit_map_key_overrides;
        self.debug |= debug;
        self.max_memory = max_memory.or(self.max_memory);
        self.extra.extend(extra);
        self
    }
}
