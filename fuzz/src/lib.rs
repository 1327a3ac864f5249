//! The checks behind the three fuzz targets (`fuzz_targets/`, driven by libFuzzer through
//! `run.sh`). Each runs the engine in-process on the stack the binary gives a run
//! (`ytt_cli::cmd::STACK_SIZE`), so that deep nesting is judged as the binary would judge it.
//!
//! A finding is a panic (an abort under libFuzzer), an `internal error` in a report, a
//! broken invariant checked here, a timeout or memory past the limit `run.sh` sets. An
//! error report for bad input is not a finding.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use starlark::syntax::AstModule;
use ytt::unstable::{compile_starlark, compile_text, compile_yaml, dialect, CompileOptions};
use ytt::yaml::emit::{json_docset, pos_docset, yaml_docset};
use ytt::yaml::parser::{parse, ParseOptions};
use ytt::yaml::pieces;
use ytt::yaml::FileNames;

/// Runs `f` on a thread with the binary's stack, passing a panic on.
fn on_run_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    let worker = std::thread::Builder::new()
        .stack_size(ytt_cli::cmd::STACK_SIZE)
        .spawn(move || {
            let _guard = StackOverflowGuard::new();
            f()
        })
        .expect("spawning the run thread");
    match worker.join() {
        Ok(r) => r,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// A stack overflow must end as a finding with its input saved. libFuzzer's SIGSEGV
/// handler would run on the exhausted stack and the process die without a word (Rust's
/// own overflow handler is not installed: libFuzzer's `main` runs, not Rust's). So the run
/// thread gets an alternate signal stack, and SIGSEGV or SIGBUS there prints a line and
/// aborts, which libFuzzer reports as a crash, saving the input.
struct StackOverflowGuard {
    stack: Vec<u8>,
}

impl StackOverflowGuard {
    const SIZE: usize = 64 * 1024;

    fn new() -> Self {
        static HANDLER: std::sync::Once = std::sync::Once::new();
        HANDLER.call_once(|| {
            // SAFETY: a zeroed sigaction is valid; the handler only calls
            // async-signal-safe functions.
            unsafe {
                let mut sa: libc::sigaction = std::mem::zeroed();
                sa.sa_sigaction = on_fault as extern "C" fn(libc::c_int) as libc::sighandler_t;
                sa.sa_flags = libc::SA_ONSTACK;
                libc::sigemptyset(&mut sa.sa_mask);
                libc::sigaction(libc::SIGSEGV, &sa, std::ptr::null_mut());
                libc::sigaction(libc::SIGBUS, &sa, std::ptr::null_mut());
            }
        });
        let mut guard = StackOverflowGuard {
            stack: vec![0; Self::SIZE],
        };
        let ss = libc::stack_t {
            ss_sp: guard.stack.as_mut_ptr().cast(),
            ss_flags: 0,
            ss_size: Self::SIZE,
        };
        // SAFETY: the memory outlives its use as this thread's signal stack (see Drop).
        unsafe { libc::sigaltstack(&ss, std::ptr::null_mut()) };
        guard
    }
}

impl Drop for StackOverflowGuard {
    fn drop(&mut self) {
        let ss = libc::stack_t {
            ss_sp: std::ptr::null_mut(),
            ss_flags: libc::SS_DISABLE,
            ss_size: 0,
        };
        // SAFETY: turns this thread's signal stack off before its memory is freed.
        unsafe { libc::sigaltstack(&ss, std::ptr::null_mut()) };
    }
}

extern "C" fn on_fault(_: libc::c_int) {
    let msg = b"ytt-fuzz: SIGSEGV or SIGBUS in the run thread: a stack overflow\n";
    // SAFETY: write and abort are async-signal-safe.
    unsafe {
        libc::write(2, msg.as_ptr().cast(), msg.len());
        libc::abort();
    }
}

/// Target `yaml`: the parser on any text (lossily decoded, as the CLI refuses non-UTF-8
/// YAML before parsing), plain and `--strict`; what parses is emitted as YAML, JSON and
/// `pos`, and the YAML emitted must parse again (but for the reference's `<<`). The text
/// cut before every document start and every item of a list at column 0
/// (`ytt::yaml::pieces`) must, whenever its pieces join, give what one parse gives.
pub fn yaml(data: &[u8]) {
    let text = String::from_utf8_lossy(data).into_owned();
    on_run_stack(move || {
        let names = FileNames::default();
        let name = names.id("fuzz.yml");
        for strict in [false, true] {
            let opts = ParseOptions {
                strict,
                ..ParseOptions::default()
            };
            let whole = parse(&text, name, &opts);
            let pieces: Result<Vec<_>, _> = pieces::cut(&text, 1)
                .iter()
                .map(|c| pieces::parse_piece(&text, c, name, &opts))
                .collect();
            if let Some(joined) = pieces.ok().and_then(pieces::join) {
                match &whole {
                    Ok(ds) => assert_eq!(
                        format!("{joined:?}"),
                        format!("{ds:?}"),
                        "pieces of\n{text}"
                    ),
                    Err(e) => panic!("pieces join, one parse fails ({e}):\n{text}"),
                }
            }
            let Ok(ds) = whole else {
                continue;
            };
            let mut out = String::new();
            yaml_docset(&ds, &mut out);
            let mut json = String::new();
            let _ = json_docset(&ds, &mut json);
            let mut pos = String::new();
            pos_docset(&ds, &names, &mut pos);
            // The reference writes the string `<<` plain, as go-yaml's resolver does not
            // look it up (a test of the emitter pins it): it reads back as a merge key.
            if out.contains("<<") {
                continue;
            }
            if let Err(e) = parse(&out, name, &ParseOptions::default()) {
                panic!(
                    "emitted YAML does not parse back: {e}\n--- input\n{text}\n--- emitted\n{out}"
                );
            }
        }
    })
}

/// Target `compile`: the same text compiled as a YAML template (when it parses), as a text
/// template and as a Starlark file; the generated program goes through the Starlark
/// parser, and its line map must cover it line for line.
pub fn compile(data: &[u8]) {
    let data = data.to_vec();
    on_run_stack(move || {
        let name: Arc<str> = Arc::from("fuzz.yml");
        let file = FileNames::default().id(&name);
        let mut compiled = Vec::new();
        if let Ok(text) = std::str::from_utf8(&data) {
            let text = ytt::bytestr::decode_str(text);
            if let Ok(ds) = parse(&text, file, &ParseOptions::default()) {
                // the two compile flags, chosen by the input
                let opts = CompileOptions {
                    ignore_unknown_comments: data.len() % 2 == 1,
                    implicit_map_key_overrides: data.len() % 3 == 1,
                };
                compiled.push(compile_yaml(0, name.clone(), file, &text, &ds, opts));
            }
        }
        let text = ytt::bytestr::decode(&data);
        compiled.push(compile_text(1, name.clone(), file, &text));
        compiled.push(compile_starlark(2, name, file, &text));
        for t in compiled.into_iter().flatten() {
            let lines = t.code.split_inclusive('\n').count();
            assert_eq!(t.line_map.len(), lines, "line map of\n{}", t.code);
            assert_eq!(t.line_display.len(), lines, "line display of\n{}", t.code);
            let _ = AstModule::parse(&t.id.to_string(), t.code, &dialect());
        }
    })
}

/// Most files and arguments one `run` input may give.
const MAX_FILES: usize = 16;
const MAX_ARGS: usize = 32;

/// Target `run`: the whole command line, in the format of [`RunInput`]. A report that
/// mentions an internal error is a finding. With `YTT_FUZZ_SHOW_ERRORS` set (`run.sh
/// replay`) reports are printed as the binary prints them.
pub fn run(data: &[u8]) {
    let input = RunInput::parse(data);
    let dir = run_dir();
    // every run starts from an empty directory: the previous run's inputs and outputs go
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creating the run directory");
    std::env::set_current_dir(&dir).expect("entering the run directory");
    for (path, content) in &input.files {
        let p = dir.join(path);
        if let Some(parent) = p.parent() {
            if std::fs::create_dir_all(parent).is_err() {
                continue; // a file of that name is already there
            }
        }
        let _ = std::fs::write(p, content);
    }
    const INTERNAL: &[u8] = b"internal error";
    // a report quoting input (a line, a file name, an argument) that says "internal
    // error" is not a finding
    let says = |b: &[u8]| b.windows(INTERNAL.len()).any(|w| w == INTERNAL);
    let quoted = input
        .files
        .iter()
        .any(|(path, content)| says(content) || says(path.as_os_str().as_encoded_bytes()))
        || input.args.iter().any(|a| says(a.as_encoded_bytes()));
    let args = input.args;
    let result = on_run_stack(move || ytt_cli::cmd::run(args).map_err(|e| format!("{e:#}")));
    if let Err(report) = result {
        if std::env::var_os("YTT_FUZZ_SHOW_ERRORS").is_some() {
            eprintln!("ytt: Error: {report}");
        }
        assert!(
            quoted || !report.contains("internal error"),
            "internal error in the report:\n{report}"
        );
    }
}

/// The directory a `run` input's files are written to, the process's own under the
/// temporary directory; each run works in it (relative paths in the arguments name files
/// there).
fn run_dir() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| std::env::temp_dir().join(format!("ytt-fuzz-run-{}", std::process::id())))
        .clone()
}

/// A `run` input: a text of sections, each opened by a line `@@@ NAME`. The section
/// `@@@ args` holds the arguments after the program name, one a line; any other holds a
/// file, `NAME` being its path relative to the run directory, and its content the bytes
/// up to the next section's line (newline included). Bytes before the first section are
/// ignored. `seeds.py` turns the conformance cases into such inputs.
///
/// Only what stays inside the run directory is kept: paths are relative, without `..`,
/// and an argument naming anything outside (an absolute path, `..`, `~`) or standard
/// input (`-`) is dropped, so that no run reads or writes outside its directory.
#[derive(Debug, Default)]
pub struct RunInput {
    pub args: Vec<std::ffi::OsString>,
    pub files: Vec<(PathBuf, Vec<u8>)>,
}

impl RunInput {
    pub fn parse(data: &[u8]) -> RunInput {
        let mut input = RunInput {
            args: vec!["ytt".into()],
            files: Vec::new(),
        };
        let mut sections: Vec<(&[u8], usize)> = Vec::new(); // (header, content start)
        let mut ends: Vec<usize> = Vec::new();
        let mut at = 0;
        while at < data.len() {
            let line_end = data[at..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(data.len(), |i| at + i);
            if let Some(header) = data[at..line_end].strip_prefix(b"@@@ ") {
                ends.push(at);
                sections.push((header, (line_end + 1).min(data.len())));
            }
            at = line_end + 1;
        }
        ends.push(data.len());
        for (i, (header, start)) in sections.into_iter().enumerate() {
            let content = &data[start..ends[i + 1].max(start)];
            if header == b"args" {
                let content = content.strip_suffix(b"\n").unwrap_or(content);
                for arg in content.split(|&b| b == b'\n') {
                    if input.args.len() > MAX_ARGS {
                        break;
                    }
                    let arg = String::from_utf8_lossy(arg);
                    if arg_stays_inside(&arg) {
                        input.args.push(arg.into_owned().into());
                    }
                }
            } else if input.files.len() < MAX_FILES {
                if let Some(path) = inside_path(&String::from_utf8_lossy(header)) {
                    input.files.push((path, content.to_vec()));
                }
            }
        }
        input
    }
}

/// A relative path that stays inside the run directory (no root, no `..`, no `.`).
fn inside_path(p: &str) -> Option<PathBuf> {
    let path = Path::new(p);
    let ok = !p.is_empty()
        && !p.contains('\0')
        && path.components().all(|c| matches!(c, Component::Normal(_)));
    ok.then(|| path.to_path_buf())
}

/// An argument that names nothing outside the run directory: not standard input, no
/// `..` or `~`, and no absolute path, alone or after `=`, `:` or `,` (the forms
/// `name=path`, `key=path`, `lib:path`, `a,b`).
fn arg_stays_inside(arg: &str) -> bool {
    let absolute = arg.starts_with('/') || ["=/", ":/", ",/"].iter().any(|s| arg.contains(s));
    arg != "-" && !arg.contains("..") && !arg.contains('~') && !arg.contains('\0') && !absolute
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_input_sections() {
        let input = RunInput::parse(
            b"junk\n@@@ args\n-f\nfiles/a.yml\n-f\n/etc/passwd\n--file=x=/dev/zero\n-f\n-\n@@@ files/a.yml\na: 1\n@@@ ../b.yml\nb: 2\n@@@ files/c.txt\nno newline",
        );
        assert_eq!(input.args, ["ytt", "-f", "files/a.yml", "-f", "-f"]);
        assert_eq!(
            input.files,
            [
                (PathBuf::from("files/a.yml"), b"a: 1\n".to_vec()),
                (PathBuf::from("files/c.txt"), b"no newline".to_vec()),
            ]
        );
    }
}
