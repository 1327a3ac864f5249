//! Checking files one by one: each file's own parse and compile error, as a run would
//! report it, without evaluating anything. A run stops at its first error; a front end
//! that shows every file's errors at once (an editor) checks the files too.

use super::compile::{compile_file, Compiled};
use super::Run;
use crate::diagnostic::Diagnostic;
use crate::eval::exec::parse_template;
use crate::eval::runtime::Runtime;
use crate::files::{FileKind, InputFile};
use crate::modules::Modules;
use crate::schema::Sources;
use crate::template::CompileOptions;
use crate::yaml::parser::AliasBudget;
use crate::yaml::{FileNames, Location};

/// How files are read for a check: as the run that reads them would.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckOptions {
    pub strict: bool,
    pub ignore_unknown_comments: bool,
    pub implicit_map_key_overrides: bool,
}

/// The error of each file in `files` that does not parse or compile, in order, each
/// located in its file. Files a run does not compile (data files, files not read yet)
/// are skipped; each file has an alias budget of its own. Line 0: the file, no line.
pub fn check_files(files: &[InputFile], opts: CheckOptions) -> Vec<Diagnostic> {
    files
        .iter()
        .filter(|f| f.kind != FileKind::Data && f.unread.is_none())
        .filter_map(|f| {
            let d = check_file(f, opts).err()?;
            // an error at the end of the text has no line: it is still the file's
            Some(match d.location() {
                Some(_) => d,
                None => d.at(Location::new(&f.rel_path, 0)),
            })
        })
        .collect()
}

fn check_file(file: &InputFile, opts: CheckOptions) -> Result<(), Diagnostic> {
    let run = Run {
        sources: Sources::new(FileNames::default()),
        aliases: AliasBudget::default(),
        modules: Modules::default(),
        deferred: Default::default(),
    };
    let rt = Runtime::new(FileNames::default(), run);
    let compile = CompileOptions {
        ignore_unknown_comments: opts.ignore_unknown_comments,
        implicit_map_key_overrides: opts.implicit_map_key_overrides,
    };
    match compile_file(&rt, file, compile, opts.strict).map_err(Diagnostic::from_error)? {
        Compiled::Template(t) => parse_template(&rt, &t).map(|_| ()),
        Compiled::Plain(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    fn input(path: &str, text: &str) -> InputFile {
        InputFile::new(path, text.as_bytes().to_vec())
    }

    fn errors(files: &[InputFile]) -> Vec<String> {
        let found = check_files(files, CheckOptions::default());
        found
            .iter()
            .map(|d| {
                let at = d
                    .location()
                    .map(|l| format!("{}:{}", l.file.as_deref().unwrap_or("?"), l.line));
                format!("{} {}", at.unwrap_or_default(), d.text().trim_start())
            })
            .collect()
    }

    #[test]
    fn every_file_gives_its_own_first_error() {
        let files = [
            input("ok.yml", "#@ x = 1\na: #@ x\n"),
            input("yaml.yml", "a: [\n"),
            input("unclosed.yml", "#@ if True:\na: 1\n"),
            input("code.star", "x = 1\ny = (1,]\n"),
            input("eof.star", "x = (1,\n"),
            input("text.txt", "(@ if True: @)x\n"),
            input("plain.yml", "a: 1\n"),
        ];
        let found = errors(&files);
        let starts = [
            "yaml.yml:1 Unmarshaling YAML",
            "unclosed.yml:1 - mismatched set of block",
            "code.star:2 - got ']', want ')'",
            "eof.star:0 - got newline, want ')'",
            "text.txt:1 Evaluating text template",
        ];
        assert_eq!(found.len(), starts.len());
        for (found, start) in found.iter().zip(starts) {
            assert!(found.starts_with(start), "{found:?}");
        }
    }

    #[test]
    fn nothing_to_say_of_good_or_empty_files() {
        assert!(errors(&[]).is_empty());
        assert!(errors(&[input("empty.yml", ""), input("s.star", "")]).is_empty());
    }
}
