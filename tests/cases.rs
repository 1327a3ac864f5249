//! End-to-end cases as data: every directory under `tests/cases/<area>/<name>/` with an
//! `args` file is one run of the binary in that directory — `args` holds its arguments,
//! one per line; the other files are its inputs. What it printed and its exit code are
//! compared with the snapshot `tests/snapshots/cases__run@<area>__<name>__args.snap`
//! (a new case: add the directory, run `cargo insta test --accept`, review the snapshot).

use std::path::Path;
use std::process::Command;

#[test]
fn run() {
    insta::glob!("cases", "*/*/args", |args_file| {
        let dir = args_file.parent().expect("a case directory");
        let args = std::fs::read_to_string(args_file).expect("args is UTF-8");
        let out = Command::new(env!("CARGO_BIN_EXE_ytt"))
            .args(args.lines().filter(|l| !l.is_empty()))
            .current_dir(dir)
            .env_clear()
            .output()
            .expect("the binary runs");
        insta::assert_snapshot!(transcript(dir, &out));
    });
}

/// The exit code, then stdout and stderr, each under a header.
fn transcript(dir: &Path, out: &std::process::Output) -> String {
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let code = out
        .status
        .code()
        .map_or("signal".to_owned(), |c| c.to_string());
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{}: exit {code}, stderr:\n{}",
        dir.display(),
        text(&out.stderr)
    );
    format!(
        "exit: {code}\n--- stdout\n{}--- stderr\n{}",
        text(&out.stdout),
        text(&out.stderr)
    )
}
