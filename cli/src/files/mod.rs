//! Files on disk: `-f` arguments and standard input read into memory, output directories
//! written.
//!
//! - [`source`]: turning `-f` arguments (paths, directories, `-`, `name=path`) into files,
//!   with the symlink policy; reading standard input once.
//! - [`outdir`]: writing output files (`--output-files`, `--dangerous-emptied-output-directory`)
//!   with the path-safety rules.

pub mod outdir;
mod platform;
pub mod source;

pub use platform::{path_of_text, text_of_os};
pub use source::{
    collect, collect_listing, find_named, find_value_file, find_values_files, read, read_stdin,
    refuse_url, split_name, Found, SourceOptions,
};

/// Formats an I/O error the way Go's `os` package does (`stat x: no such file or directory`).
pub(crate) fn go_io_error(op: &str, path: &str, err: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    let msg = match err.kind() {
        K::NotFound => "no such file or directory".to_owned(),
        K::PermissionDenied => "permission denied".to_owned(),
        K::IsADirectory => "is a directory".to_owned(),
        K::NotADirectory => "not a directory".to_owned(),
        K::AlreadyExists => "file exists".to_owned(),
        _ => {
            let s = err.to_string();
            let s = match s.find(" (os error") {
                Some(i) => s[..i].to_owned(),
                None => s,
            };
            let mut c = s.chars();
            match c.next() {
                Some(f) => f.to_lowercase().collect::<String>() + c.as_str(),
                None => s,
            }
        }
    };
    format!("{op} {path}: {msg}")
}
