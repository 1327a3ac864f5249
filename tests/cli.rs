//! End-to-end tests of the command line: the built binary run on small inputs in temp dirs.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

struct Out {
    stdout: String,
    stderr: String,
    code: i32,
}

fn ytt_in(dir: &Path, args: &[&str], stdin: Option<&str>) -> Out {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ytt"));
    cmd.args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let mut child = cmd.spawn().expect("spawn ytt");
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    Out {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

fn ytt(args: &[&str]) -> Out {
    let dir = tempfile::tempdir().unwrap();
    ytt_in(dir.path(), args, None)
}

fn write(dir: &Path, rel: &str, content: &str) {
    let p = dir.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, content).unwrap();
}

#[track_caller]
fn assert_error(out: &Out, msg: &str) {
    assert_eq!(out.code, 1, "stdout: {}\nstderr: {}", out.stdout, out.stderr);
    assert_eq!(out.stderr, format!("ytt: Error: {msg}\n"));
    assert_eq!(out.stdout, "");
}

// ---------------------------------------------------------------- commands

#[test]
fn version_command_and_flag() {
    for args in [&["version"][..], &["--version"][..]] {
        let out = ytt(args);
        assert_eq!(out.code, 0);
        assert_eq!(out.stdout, "ytt version 0.50.0\n");
        assert_eq!(out.stderr, "");
    }
}

#[test]
fn no_files_outputs_nothing() {
    for args in [&[][..], &["-o", "json"][..], &["template"][..], &["tpl", "-o", "pos"][..]] {
        let out = ytt(args);
        assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (0, "", ""));
    }
}

#[test]
fn help_goes_to_stdout() {
    for args in [&["--help"][..], &["-h"][..], &["help"][..], &["fmt", "--help"][..]] {
        let out = ytt(args);
        assert_eq!(out.code, 0, "{args:?}");
        assert!(out.stdout.contains("Usage"), "{args:?}: {}", out.stdout);
    }
}

#[test]
fn completion_scripts() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let out = ytt(&["completion", shell]);
        assert_eq!(out.code, 0, "{shell}");
        assert!(out.stdout.contains("ytt"), "{shell}");
    }
    assert_error(
        &ytt(&["completion", "tcsh"]),
        "unknown command \"tcsh\" for \"ytt completion\"",
    );
}

// ---------------------------------------------------------------- flag parsing errors

#[test]
fn extra_arguments_are_refused() {
    assert_error(
        &ytt(&["x"]),
        "command 'ytt' does not accept extra arguments 'x'",
    );
    assert_error(
        &ytt(&["-f", "-", "x", "y"]),
        "command 'ytt' does not accept extra arguments 'x'",
    );
    assert_error(
        &ytt(&["template", "x"]),
        "command 'ytt template' does not accept extra arguments 'x'",
    );
    assert_error(
        &ytt(&["version", "x"]),
        "command 'ytt version' does not accept extra arguments 'x'",
    );
    // A boolean flag does not take the next argument as its value.
    assert_error(
        &ytt(&["--strict", "false"]),
        "command 'ytt' does not accept extra arguments 'false'",
    );
}

#[test]
fn unknown_flags() {
    assert_error(&ytt(&["--x"]), "unknown flag: --x");
    assert_error(&ytt(&["--nope=1"]), "unknown flag: --nope");
    assert_error(&ytt(&["-z"]), "unknown shorthand flag: 'z' in -z");
    assert_error(&ytt(&["tpl", "--x"]), "unknown flag: --x");
}

#[test]
fn missing_flag_values() {
    assert_error(&ytt(&["-f"]), "flag needs an argument: 'f' in -f");
    assert_error(&ytt(&["--file"]), "flag needs an argument: --file");
    assert_error(&ytt(&["--file-mark"]), "flag needs an argument: --file-mark");
}

#[test]
fn boolean_flag_values() {
    assert_error(
        &ytt(&["--strict=abc"]),
        "invalid argument \"abc\" for \"-s, --strict\" flag: strconv.ParseBool: parsing \"abc\": invalid syntax",
    );
    assert_error(
        &ytt(&["--files-inspect=maybe"]),
        "invalid argument \"maybe\" for \"--files-inspect\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax",
    );
    for args in [&["--strict=false"][..], &["-s=T"][..], &["--debug=0"][..], &["-s", "-s"][..]] {
        let out = ytt(args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    }
}

#[test]
fn output_types() {
    assert_error(&ytt(&["-o", "ymal"]), "Unknown output type 'ymal'");
    assert_error(&ytt(&["--output", "json,nope"]), "Unknown output type 'nope'");
    for args in [
        &["--output", "json,openapi-v3"][..],
        &["-o", "yaml", "-o", "openapi-v3"][..],
        &["-o", "json-schema"][..],
    ] {
        assert_error(
            &ytt(args),
            "Output type currently only supported for data values schema (i.e. include --data-values-schema-inspect)",
        );
    }
    for args in [&["-o", "yaml,json"][..], &["-o", "pos", "-o", "json"][..]] {
        let out = ytt(args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    }
}

#[test]
fn data_values_flags_are_not_silently_ignored() {
    let cases: [(&[&str], &str); 10] = [
        (&["-v", "a=1"], "--data-value"),
        (&["--data-value", "a=1"], "--data-value"),
        (&["--data-value-yaml", "a=1"], "--data-value-yaml"),
        (&["--data-value-file", "a=x"], "--data-value-file"),
        (&["--data-values-file", "x.yml"], "--data-values-file"),
        (&["--data-values-env", "DV"], "--data-values-env"),
        (&["--data-values-env-yaml", "DV"], "--data-values-env-yaml"),
        (&["--data-values-inspect"], "--data-values-inspect"),
        (
            &["--dangerous-data-values-disable-validation"],
            "--dangerous-data-values-disable-validation",
        ),
        (&["--output-disable-validation"], "--output-disable-validation"),
    ];
    for (args, flag) in cases {
        assert_error(&ytt(args), &format!("{flag} is not supported yet"));
    }
}

// ---------------------------------------------------------------- files

#[test]
fn missing_file() {
    assert_error(
        &ytt(&["-f", "nope.yml"]),
        "Checking file 'nope.yml': stat nope.yml: no such file or directory",
    );
}

#[test]
fn urls_are_refused() {
    let out = ytt(&["-f", "https://example.com/x.yml"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.starts_with("ytt: Error: Reading URL 'https://example.com/x.yml'"));
    assert!(out.stderr.contains("not supported"));
}

#[test]
fn name_with_two_equal_signs_is_refused() {
    let out = ytt(&["-f", "a=b=c"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("single '=' sign"), "{}", out.stderr);
}

#[test]
fn file_mark_errors() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "files/a.yml", "a: 1\n");
    let run = |mark: &str| ytt_in(dir.path(), &["-f", "files", "--file-mark", mark], None);
    assert_error(
        &run("nope.yml:exclude=true"),
        "Expected file mark 'nope.yml:exclude=true' to match at least one file by path, but did not",
    );
    assert_error(
        &run("a.yml"),
        "Expected file mark 'a.yml' to be in format path:key=value",
    );
    assert_error(
        &run("a.yml:exclude"),
        "Expected file mark 'a.yml:exclude' key-value portion to be in format key=value",
    );
    assert_error(&run("a.yml:type=json"), "Unknown value in file mark 'a.yml:type=json'");
    assert_error(&run("a.yml:exclude=no"), "Unknown value in file mark 'a.yml:exclude=no'");
    assert_error(&run("a.yml:colour=red"), "Unknown key in file mark 'a.yml:colour=red'");
}

#[test]
fn excluding_every_file_outputs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "files/a.yml", "a: 1\n");
    write(dir.path(), "files/d/b.yml", "b: 1\n");
    let out = ytt_in(
        dir.path(),
        &["-f", "files", "--file-mark", "**/*:exclude=true", "--file-mark", "a.yml:exclude=true"],
        None,
    );
    assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (0, "", ""));
}

#[test]
fn stdin_can_be_read_only_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = ytt_in(dir.path(), &["-f", "-", "-f", "x.yml=-"], Some("a: 1\n"));
    assert_error(
        &out,
        "Reading file 'x.yml':\n  Standard input has already been read, has the '-' argument been used in more than one flag?",
    );
}

#[test]
fn symlinks_need_an_allowed_destination() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "outside/secret.yml", "s: 1\n");
    write(d, "files/a.yml", "a: 1\n");
    std::os::unix::fs::symlink(d.join("outside/secret.yml"), d.join("files/link.yml")).unwrap();
    let out = ytt_in(d, &["-f", "files", "--file-mark", "**/*:exclude=true"], None);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.starts_with("ytt: Error: Checking symlink file 'files/link.yml':\n  Expected symlink file 'files/link.yml' -> '"),
        "{}",
        out.stderr
    );
    // Explicit files are checked too.
    let out = ytt_in(d, &["-f", "files/link.yml"], None);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("to be allowed, but was not"), "{}", out.stderr);

    for extra in [
        &["--allow-symlink-destination", "outside"][..],
        &["--allow-symlink-destination", "nowhere,outside"][..],
        &["--dangerous-allow-all-symlink-destinations"][..],
    ] {
        let mut args = vec!["-f", "files", "--file-mark", "a.yml:exclude=true", "--file-mark", "link.yml:exclude=true"];
        args.extend_from_slice(extra);
        let out = ytt_in(d, &args, None);
        assert_eq!(out.code, 0, "{extra:?}: {}", out.stderr);
    }
}

// ---------------------------------------------------------------- output directories

#[test]
fn emptied_output_directory_refuses_dangerous_paths() {
    for dir in ["/", ".", "./", "..", "a/.."] {
        let out = ytt(&["--dangerous-emptied-output-directory", dir]);
        assert_eq!(out.code, 1, "{dir}");
        assert!(
            out.stderr.starts_with("ytt: Error: Expected output directory path to not be one of '/', '.', './', ''"),
            "{dir}: {}",
            out.stderr
        );
    }
}

#[test]
fn emptied_output_directory_refuses_a_parent_of_the_current_directory() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    fs::create_dir(&sub).unwrap();
    let parent = dir.path().to_string_lossy().into_owned();
    let out = ytt_in(&sub, &["--dangerous-emptied-output-directory", &parent], None);
    assert_eq!(out.code, 1);
    assert!(sub.exists());
}

#[test]
fn emptied_output_directory_with_nothing_to_write_is_emptied() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "out/old.yml", "old: 1\n");
    let out = ytt_in(dir.path(), &["--dangerous-emptied-output-directory", "out"], None);
    assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (0, "", ""));
    assert!(dir.path().join("out").is_dir());
    assert!(!dir.path().join("out/old.yml").exists());
}

// ---------------------------------------------------------------- bulk

#[test]
fn bulk_out_without_files() {
    let out = ytt(&["--bulk-out"]);
    assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (0, "{}", ""));
}

#[test]
fn bulk_out_reports_errors_in_json_with_exit_zero() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "files/a.yml", "a: 1\n");
    let out = ytt_in(
        dir.path(),
        &["-f", "files", "--bulk-out", "--file-mark", "nope:exclude=true"],
        None,
    );
    assert_eq!(out.code, 0);
    assert_eq!(
        out.stdout,
        r#"{"errors":"Expected file mark 'nope:exclude=true' to match at least one file by path, but did not"}"#
    );
}

#[test]
fn bulk_in_invalid_json() {
    let out = ytt(&["--bulk-in", "{nope"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.starts_with("ytt: Error: Unmarshaling bulk files"), "{}", out.stderr);
}

#[test]
fn bulk_in_files_can_be_marked() {
    let out = ytt(&[
        "--bulk-in",
        r#"{"files":[{"name":"a.yml","data":"a: 1"},{"name":"d/b.txt","data":"x"}]}"#,
        "--file-mark",
        "**/*:exclude=true",
        "--file-mark",
        "a.yml:exclude=true",
        "--bulk-out",
    ]);
    assert_eq!((out.code, out.stdout.as_str()), (0, "{}"));
}

// ---------------------------------------------------------------- --files-inspect

#[test]
fn files_inspect_orders_groups_and_directories() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "g1/b.yml", "b: 1\n");
    write(d, "g1/a.txt", "a\n");
    write(d, "g1/sub/z.yml", "z: 1\n");
    write(d, "g1/sub/deeper/y.star", "y = 1\n");
    write(d, "g1/c.lib.yml", "c: 1\n");
    write(d, "g1/_ytt_lib/lib1/x.yml", "x: 1\n");
    write(d, "g2/0.yml", "o: 1\n");
    write(d, "single/only.json", "{}\n");
    let out = ytt_in(
        d,
        &["-f", "g2", "-f", "g1", "-f", "single/only.json", "-f", "named.yml=single/only.json", "--files-inspect"],
        None,
    );
    assert_eq!(out.stderr, "");
    assert_eq!(out.code, 0);
    // Files of the root directory first (in input order), then each subdirectory's.
    assert_eq!(
        out.stdout,
        "- 0.yml\n- a.txt\n- b.yml\n- c.lib.yml\n- only.json\n- named.yml\n- sub/z.yml\n- sub/deeper/y.star\n"
    );
}

#[test]
fn files_inspect_shows_marked_paths_and_honours_output_format() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "files/a.yml", "a: 1\n");
    write(d, "files/b.yml", "b: 1\n");
    write(d, "files/c.yml", "c: 1\n");
    let out = ytt_in(
        d,
        &[
            "-f", "files",
            "--file-mark", "a.yml:path=x/renamed.yml",
            "--file-mark", "b.yml:exclude=true",
            "--files-inspect", "-o", "json",
        ],
        None,
    );
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert_eq!(out.stdout, r#"["c.yml","x/renamed.yml"]"#);
}

#[test]
fn files_inspect_names_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let out = ytt_in(dir.path(), &["-f-", "--files-inspect"], Some("a: 1\n"));
    assert_eq!((out.code, out.stdout.as_str()), (0, "- stdin.yml\n"));
    let out = ytt_in(dir.path(), &["-f", "in/put.yml=-", "--files-inspect"], Some("a: 1\n"));
    assert_eq!((out.code, out.stdout.as_str()), (0, "- in/put.yml\n"));
}

#[test]
fn files_inspect_with_bulk_in_comes_first() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "z.yml", "z: 1\n");
    let out = ytt_in(
        dir.path(),
        &["-f", "z.yml", "--bulk-in", r#"{"files":[{"name":"b.yml","data":"b: 1"}]}"#, "--files-inspect"],
        None,
    );
    assert_eq!((out.code, out.stdout.as_str()), (0, "- b.yml\n- z.yml\n"));
}
