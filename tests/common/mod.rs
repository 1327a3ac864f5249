//! Shared helpers for the end-to-end tests: write input files into a temp
//! directory, run the built `ytt` binary there, and collect its output.
#![allow(dead_code)]

pub mod neovim;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What one run of the binary produced.
#[derive(Debug)]
pub struct Out {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

impl Out {
    /// Asserts a successful run with nothing on stderr, and returns stdout.
    #[track_caller]
    pub fn ok(&self) -> &str {
        assert_eq!(
            (self.code, self.stderr.as_str()),
            (0, ""),
            "expected success\nstdout:\n{}\nstderr:\n{}",
            self.stdout,
            self.stderr
        );
        &self.stdout
    }

    /// Asserts a failed run (exit 1, empty stdout), and returns stderr.
    #[track_caller]
    pub fn err(&self) -> &str {
        assert_eq!(
            (self.code, self.stdout.as_str()),
            (1, ""),
            "expected failure\nstdout:\n{}\nstderr:\n{}",
            self.stdout,
            self.stderr
        );
        &self.stderr
    }
}

/// A temp directory holding the inputs of one test; the binary runs in it.
pub struct Ytt {
    dir: tempfile::TempDir,
    env: Vec<(std::ffi::OsString, std::ffi::OsString)>,
    stdin: Option<Vec<u8>>,
}

impl Default for Ytt {
    fn default() -> Self {
        Self::new()
    }
}

impl Ytt {
    pub fn new() -> Self {
        Ytt {
            dir: tempfile::tempdir().expect("create temp dir"),
            env: Vec::new(),
            stdin: None,
        }
    }

    /// Writes a file (creating parent directories) relative to the temp dir.
    pub fn file(self, rel: &str, content: &str) -> Self {
        let p = self.dir.path().join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, content).unwrap();
        self
    }

    /// Writes a file of raw bytes (creating parent directories) relative to the temp dir.
    pub fn file_bytes(self, rel: &str, content: &[u8]) -> Self {
        let p = self.dir.path().join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, content).unwrap();
        self
    }

    /// Reads the raw bytes of a file (relative to the temp dir) that the run wrote.
    pub fn read_bytes(&self, rel: &str) -> Vec<u8> {
        fs::read(self.dir.path().join(rel)).unwrap_or_else(|e| panic!("reading {rel}: {e}"))
    }

    /// Sets an environment variable for the child process.
    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Sets an environment variable whose value is any bytes (not only UTF-8).
    pub fn env_bytes(mut self, key: &str, value: &[u8]) -> Self {
        use std::os::unix::ffi::OsStringExt;
        self.env
            .push((key.into(), std::ffi::OsString::from_vec(value.to_vec())));
        self
    }

    /// Feeds this text to the child's stdin (otherwise stdin is /dev/null).
    pub fn stdin(self, input: &str) -> Self {
        self.stdin_bytes(input.as_bytes())
    }

    /// Feeds these bytes (not only UTF-8) to the child's stdin.
    pub fn stdin_bytes(mut self, input: &[u8]) -> Self {
        self.stdin = Some(input.to_vec());
        self
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Reads a file (relative to the temp dir) that the run wrote.
    pub fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.dir.path().join(rel))
            .unwrap_or_else(|e| panic!("reading {rel}: {e}"))
    }

    /// Lists the files under a directory (relative to the temp dir), sorted.
    pub fn list(&self, rel: &str) -> Vec<String> {
        fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
            for entry in fs::read_dir(dir).unwrap() {
                let p: PathBuf = entry.unwrap().path();
                if p.is_dir() {
                    walk(base, &p, out);
                } else {
                    out.push(p.strip_prefix(base).unwrap().to_string_lossy().into_owned());
                }
            }
        }
        let base = self.dir.path().join(rel);
        let mut out = Vec::new();
        walk(&base, &base, &mut out);
        out.sort();
        out
    }

    /// Runs `ytt ARGS` in the temp dir with only PATH and the configured
    /// variables in its environment. Temp-dir paths in the output are
    /// replaced by `<TMP>`.
    pub fn run(&self, args: &[&str]) -> Out {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ytt"));
        cmd.args(args)
            .current_dir(self.dir.path())
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .stdin(if self.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            });
        let mut child = cmd.spawn().expect("spawn ytt");
        if let Some(input) = &self.stdin {
            child.stdin.take().unwrap().write_all(input).unwrap();
        }
        let out = child.wait_with_output().expect("wait for ytt");
        let norm = |bytes: &[u8]| {
            let s = String::from_utf8_lossy(bytes).into_owned();
            let mut s = s;
            for p in [
                self.dir.path().to_path_buf(),
                self.dir
                    .path()
                    .canonicalize()
                    .unwrap_or_else(|_| self.dir.path().to_path_buf()),
            ] {
                s = s.replace(p.to_string_lossy().as_ref(), "<TMP>");
            }
            s
        };
        Out {
            stdout: norm(&out.stdout),
            stderr: norm(&out.stderr),
            code: out.status.code().unwrap_or(-1),
        }
    }
}

/// One template file `tpl.yml`, run with `-f tpl.yml` plus extra args.
pub fn tpl(content: &str, extra: &[&str]) -> Out {
    let y = Ytt::new().file("tpl.yml", content);
    let mut args = vec!["-f", "tpl.yml"];
    args.extend_from_slice(extra);
    y.run(&args)
}

/// Drops trailing whitespace on every line and trailing blank lines, the way
/// the conformance runner compares stderr.
pub fn trim_lines(s: &str) -> String {
    let mut lines: Vec<&str> = s.lines().map(str::trim_end).collect();
    while lines.last() == Some(&"") {
        lines.pop();
    }
    lines.join("\n") + "\n"
}

/// A map whose aliases expand to about 1.1 million nodes (six levels of ten): under the
/// run's alias budget (5 million) alone, not five times.
pub fn alias_expansion() -> String {
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..6 {
        let refs = vec![format!("*a{}", i - 1); 10].join(", ");
        text.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    text
}

/// The variable that makes a missing conformance corpus a failure instead of a skip
/// (`.ci/run` sets it, so CI never skips the corpus tests silently).
pub const REQUIRE_CORPUS: &str = "YTT_REQUIRE_CORPUS";

/// The recorded conformance cases (`../shared/conformance/cases`), when they are beside
/// the project. When they are not, says in one line that `test` is skipped and returns
/// `None`, or fails when `YTT_REQUIRE_CORPUS` is set.
pub fn conformance_cases(test: &str) -> Option<PathBuf> {
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/cases");
    if cases.is_dir() {
        return Some(cases);
    }
    assert!(
        std::env::var_os(REQUIRE_CORPUS).is_none(),
        "{REQUIRE_CORPUS} is set and the conformance corpus is missing: {}",
        cases.display()
    );
    // straight to the process's stderr: the test harness hides what `eprintln!` writes
    // from a passing test, and this line is for whoever runs the tests
    let _ = writeln!(
        std::io::stderr(),
        "skipped {test}: the conformance corpus is not at {} (set {REQUIRE_CORPUS} to make that a failure)",
        cases.display()
    );
    None
}
