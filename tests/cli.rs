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
    assert_eq!(
        out.code, 1,
        "stdout: {}\nstderr: {}",
        out.stdout, out.stderr
    );
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

/// The dynamically linked binary carries its unwinder (cli/build.rs): the dynamic loader
/// has no `libgcc_s` to map, whose constructor costs start-up time. (A static build loads
/// nothing; it runs `version` when asked to list what it loads.)
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_binary_loads_no_unwinder_library() {
    let out = Command::new(env!("CARGO_BIN_EXE_ytt"))
        .arg("version")
        .env("LD_TRACE_LOADED_OBJECTS", "1")
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&out.stdout);
    if listed.contains("libc.so") {
        assert!(!listed.contains("libgcc_s"), "{listed}");
    } else {
        assert_eq!(listed, "ytt version 0.50.0\n");
    }
}

#[test]
fn no_files_outputs_nothing() {
    for args in [
        &[][..],
        &["-o", "json"][..],
        &["template"][..],
        &["tpl", "-o", "pos"][..],
    ] {
        let out = ytt(args);
        assert_eq!(
            (out.code, out.stdout.as_str(), out.stderr.as_str()),
            (0, "", "")
        );
    }
}

#[test]
fn help_goes_to_stdout() {
    for args in [
        &["--help"][..],
        &["-h"][..],
        &["help"][..],
        &["fmt", "--help"][..],
    ] {
        let out = ytt(args);
        assert_eq!(out.code, 0, "{args:?}");
        assert!(out.stdout.contains("Usage"), "{args:?}: {}", out.stdout);
    }
}

/// A subcommand's flags are defined only when it is the one run (`flags::Deferred`): its
/// help still has its own description and every flag, as do the completion scripts.
#[test]
fn subcommand_help_and_completions_have_every_flag() {
    let deprecated = "Process YAML templates (deprecated";
    for args in [&["template", "--help"][..], &["tpl", "-h"], &["help", "t"]] {
        let out = ytt(args);
        assert_eq!(out.code, 0, "{args:?}");
        assert!(
            out.stdout.starts_with(deprecated),
            "{args:?}: {}",
            out.stdout
        );
        for flag in ["--data-values-file", "--output-files", "--max-memory"] {
            assert!(out.stdout.contains(flag), "{args:?} lacks {flag}");
        }
    }
    let out = ytt(&["fmt", "--help"]);
    assert!(
        out.stdout.starts_with("Format YAML templates"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("--strict"), "{}", out.stdout);
    let zsh = ytt(&["completion", "zsh"]).stdout;
    assert!(zsh.contains(&format!("'template:{deprecated}")), "{zsh}");
    let fish = ytt(&["completion", "fish"]).stdout;
    assert!(
        fish.contains("-a \"fmt\" -d 'Format YAML templates'"),
        "{fish}"
    );
    // the flags of `template`, defined only when clap writes the script
    assert!(
        fish.contains("__fish_ytt_using_subcommand template\" -l data-values-file"),
        "{fish}"
    );
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
    assert_error(
        &ytt(&["--file-mark"]),
        "flag needs an argument: --file-mark",
    );
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
    for args in [
        &["--strict=false"][..],
        &["-s=T"][..],
        &["--debug=0"][..],
        &["-s", "-s"][..],
    ] {
        let out = ytt(args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    }
}

#[test]
fn output_types() {
    assert_error(&ytt(&["-o", "ymal"]), "Unknown output type 'ymal'");
    assert_error(
        &ytt(&["--output", "json,nope"]),
        "Unknown output type 'nope'",
    );
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
fn schema_inspect_without_a_schema_exports_anything() {
    // (the exports themselves are tested in tests/schema_export.rs)
    let out = ytt(&["--data-values-schema-inspect", "-o", "openapi-v3"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .ends_with("    dataValues:\n      nullable: true\n      default: null\n"),
        "{}",
        out.stdout
    );
}

// ---------------------------------------------------------------- files

#[test]
fn missing_file() {
    assert_error(
        &ytt(&["-f", "nope.yml"]),
        "Checking file 'nope.yml': lstat nope.yml: no such file or directory",
    );
}

#[test]
fn urls_are_refused() {
    let out = ytt(&["-f", "https://example.com/x.yml"]);
    assert_eq!(out.code, 1);
    assert!(out
        .stderr
        .starts_with("ytt: Error: Reading URL 'https://example.com/x.yml'"));
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
    assert_error(
        &run("a.yml:type=json"),
        "Unknown value in file mark 'a.yml:type=json'",
    );
    assert_error(
        &run("a.yml:exclude=no"),
        "Unknown value in file mark 'a.yml:exclude=no'",
    );
    assert_error(
        &run("a.yml:colour=red"),
        "Unknown key in file mark 'a.yml:colour=red'",
    );
}

#[test]
fn excluding_every_file_outputs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "files/a.yml", "a: 1\n");
    write(dir.path(), "files/d/b.yml", "b: 1\n");
    let out = ytt_in(
        dir.path(),
        &[
            "-f",
            "files",
            "--file-mark",
            "**/*:exclude=true",
            "--file-mark",
            "a.yml:exclude=true",
        ],
        None,
    );
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (0, "", "")
    );
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
    let out = ytt_in(
        d,
        &["-f", "files", "--file-mark", "**/*:exclude=true"],
        None,
    );
    assert_eq!(out.code, 1);
    // the link is checked as the directory is listed, excluded or not; its destination
    // as resolved (absolute here)
    let secret = d.join("outside/secret.yml");
    assert_eq!(
        out.stderr,
        format!(
            "ytt: Error: Listing files 'files':\n  Checking symlink file 'files/link.yml':\n    Expected symlink file 'files/link.yml' -> '{}' to be allowed, but was not (hint: symlinks are disallowed as a security feature, use '--allow-symlink-destination' flags to override)\n",
            secret.display()
        )
    );
    // Explicit files are checked too.
    let out = ytt_in(d, &["-f", "files/link.yml"], None);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("to be allowed, but was not"),
        "{}",
        out.stderr
    );

    for extra in [
        &["--allow-symlink-destination", "outside"][..],
        &["--allow-symlink-destination", "nowhere,outside"][..],
        &["--dangerous-allow-all-symlink-destinations"][..],
    ] {
        let mut args = vec![
            "-f",
            "files",
            "--file-mark",
            "a.yml:exclude=true",
            "--file-mark",
            "link.yml:exclude=true",
        ];
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
            out.stderr.starts_with(
                "ytt: Error: Expected output directory path to not be one of '/', '.', './', ''"
            ),
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
    let out = ytt_in(
        &sub,
        &["--dangerous-emptied-output-directory", &parent],
        None,
    );
    assert_eq!(out.code, 1);
    assert!(sub.exists());
}

#[test]
fn emptied_output_directory_with_nothing_to_write_is_emptied() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "out/old.yml", "old: 1\n");
    let out = ytt_in(
        dir.path(),
        &["--dangerous-emptied-output-directory", "out"],
        None,
    );
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (0, "", "")
    );
    assert!(dir.path().join("out").is_dir());
    assert!(!dir.path().join("out/old.yml").exists());
}

// ---------------------------------------------------------------- bulk

#[test]
fn bulk_out_without_files() {
    let out = ytt(&["--bulk-out"]);
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (0, "{}", "")
    );
}

#[test]
fn bulk_out_reports_errors_in_json_with_exit_zero() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "files/a.yml", "a: 1\n");
    let out = ytt_in(
        dir.path(),
        &[
            "-f",
            "files",
            "--bulk-out",
            "--file-mark",
            "nope:exclude=true",
        ],
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
    assert!(
        out.stderr
            .starts_with("ytt: Error: Unmarshaling bulk files"),
        "{}",
        out.stderr
    );
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
        &[
            "-f",
            "g2",
            "-f",
            "g1",
            "-f",
            "single/only.json",
            "-f",
            "named.yml=single/only.json",
            "--files-inspect",
        ],
        None,
    );
    assert_eq!(out.stderr, "");
    assert_eq!(out.code, 0);
    // In input order: each directory as walked (by name, subdirectories among the
    // files), private libraries left out.
    assert_eq!(
        out.stdout,
        "- 0.yml\n- a.txt\n- b.yml\n- c.lib.yml\n- sub/deeper/y.star\n- sub/z.yml\n- only.json\n- named.yml\n"
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
            "-f",
            "files",
            "--file-mark",
            "a.yml:path=x/renamed.yml",
            "--file-mark",
            "b.yml:exclude=true",
            "--files-inspect",
            "-o",
            "json",
        ],
        None,
    );
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert_eq!(out.stdout, r#"["x/renamed.yml","c.yml"]"#);
}

#[test]
fn files_inspect_names_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let out = ytt_in(dir.path(), &["-f-", "--files-inspect"], Some("a: 1\n"));
    assert_eq!((out.code, out.stdout.as_str()), (0, "- stdin.yml\n"));
    let out = ytt_in(
        dir.path(),
        &["-f", "in/put.yml=-", "--files-inspect"],
        Some("a: 1\n"),
    );
    assert_eq!((out.code, out.stdout.as_str()), (0, "- in/put.yml\n"));
}

#[test]
fn files_inspect_with_bulk_in_comes_first() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "z.yml", "z: 1\n");
    let out = ytt_in(
        dir.path(),
        &[
            "-f",
            "z.yml",
            "--bulk-in",
            r#"{"files":[{"name":"b.yml","data":"b: 1"}]}"#,
            "--files-inspect",
        ],
        None,
    );
    assert_eq!((out.code, out.stdout.as_str()), (0, "- b.yml\n- z.yml\n"));
}

// ---------------------------------------------------------------- rendering and output

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "files/b.yml", "#@ x = 1\na: #@ x\n");
    write(d, "files/sub/a.yml", "z: 1\n");
    write(d, "files/t.txt", "text (@= \"hi\" @)\n");
    write(d, "files/data.json", "{}\n");
    write(d, "c.yml", "c: 3\n");
    dir
}

const WARNING: &str = "\nWarning: Found Non-YAML templates in input. Non-YAML templates are not rendered to standard output.\nIf you want to include those results, use the --output-files or --dangerous-emptied-output-directory flag.\n";

#[test]
fn yaml_to_stdout_in_file_order_with_text_warning() {
    let dir = tree();
    let out = ytt_in(dir.path(), &["-f", "c.yml", "-f", "files"], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "c: 3\n---\na: 1\n---\nz: 1\n");
    assert_eq!(out.stderr, WARNING);
}

#[test]
fn json_output_and_named_files() {
    let dir = tree();
    let out = ytt_in(
        dir.path(),
        &[
            "-f",
            "files/b.yml",
            "-f",
            "x/renamed.yml=c.yml",
            "-f",
            "in.yml=-",
            "-o",
            "json",
        ],
        Some("s: 2\n"),
    );
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert_eq!(out.stdout, r#"{"a":1}{"c":3}{"s":2}"#);
}

#[test]
fn stdin_is_named_stdin_yml() {
    let dir = tree();
    let out = ytt_in(dir.path(), &["-f-", "--bulk-out"], Some("s: 2\n"));
    assert_eq!(
        out.stdout,
        r#"{"files":[{"name":"stdin.yml","data":"s: 2\n"}]}"#
    );
}

#[test]
fn output_files_writes_text_first_then_yaml() {
    let dir = tree();
    let d = dir.path();
    let out = ytt_in(
        d,
        &[
            "-f",
            "files",
            "-f",
            "x/c.yml=c.yml",
            "--output-files",
            "out/",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "");
    assert_eq!(
        out.stdout,
        "creating: out/t.txt\ncreating: out/b.yml\ncreating: out/sub/a.yml\ncreating: out/x/c.yml\n"
    );
    assert_eq!(
        fs::read_to_string(d.join("out/t.txt")).unwrap(),
        "text hi\n"
    );
    assert_eq!(fs::read_to_string(d.join("out/b.yml")).unwrap(), "a: 1\n");
    assert_eq!(fs::read_to_string(d.join("out/x/c.yml")).unwrap(), "c: 3\n");
    assert!(!d.join("out/data.json").exists());
}

#[test]
fn a_starlark_file_for_output_cannot_be_written_as_a_file() {
    // evaluated for its effects, it produces nothing: the output directory refuses it
    // before writing anything; standard output leaves it out
    let dir = tree();
    let d = dir.path();
    write(d, "lib/h.star", "print(\"evaluated\")\n");
    let args = [
        "-f",
        "c.yml",
        "-f",
        "lib",
        "--file-mark",
        "h.star:for-output=true",
    ];
    let out = ytt_in(d, &[&args[..], &["--output-files", "out"]].concat(), None);
    assert_eq!(out.stderr, "evaluated\nytt: Error: Unknown file type\n");
    assert_eq!((out.code, out.stdout.as_str()), (1, ""));
    assert!(!d.join("out").exists());
    let out = ytt_in(d, &args, None);
    assert_eq!((out.code, out.stdout.as_str()), (0, "c: 3\n"));
}

#[test]
fn output_files_are_yaml_whatever_the_format() {
    let dir = tree();
    let d = dir.path();
    let out = ytt_in(
        d,
        &["-f", "c.yml", "-o", "json", "--output-files", "out"],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(fs::read_to_string(d.join("out/c.yml")).unwrap(), "c: 3\n");
}

#[test]
fn emptied_output_directory_replaces_old_content() {
    let dir = tree();
    let d = dir.path();
    write(d, "out/old.yml", "old: 1\n");
    let out = ytt_in(
        d,
        &["-f", "c.yml", "--dangerous-emptied-output-directory=out"],
        None,
    );
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, "creating: out/c.yml\n")
    );
    assert!(!d.join("out/old.yml").exists());
    assert!(d.join("out/c.yml").exists());
}

#[test]
fn output_paths_may_not_escape_and_nothing_is_written() {
    let dir = tree();
    let d = dir.path();
    write(d, "out/old.yml", "old: 1\n");
    for name in [
        "../escape.yml",
        "a/../../escape.yml",
        "/tmp/ytt-abs-escape.yml",
    ] {
        for flag in ["--output-files", "--dangerous-emptied-output-directory"] {
            let arg = format!("{name}=c.yml");
            let out = ytt_in(d, &["-f", "files/b.yml", "-f", &arg, flag, "out"], None);
            assert_eq!(out.code, 1, "{name} {flag}");
            assert!(
                out.stderr
                    .starts_with("ytt: Error: Expected output file path"),
                "{}",
                out.stderr
            );
            assert_eq!(out.stdout, "");
            assert!(d.join("out/old.yml").exists());
            assert!(!d.join("out/b.yml").exists());
            assert!(!d.join("escape.yml").exists());
        }
    }
    assert!(!Path::new("/tmp/ytt-abs-escape.yml").exists());
}

#[test]
fn duplicate_output_destinations_are_refused() {
    let dir = tree();
    let out = ytt_in(
        dir.path(),
        &[
            "-f",
            "c.yml",
            "-f",
            "c.yml",
            "--dangerous-emptied-output-directory",
            "out",
        ],
        None,
    );
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("Multiple files have same output destination paths"),
        "{}",
        out.stderr
    );
    assert!(!dir.path().join("out").exists());
}

#[test]
fn failed_render_leaves_no_output() {
    let dir = tree();
    let d = dir.path();
    write(d, "bad.yml", "a: #@ nope\n");
    let out = ytt_in(
        d,
        &["-f", "c.yml", "-f", "bad.yml", "--output-files", "out"],
        None,
    );
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, "");
    assert!(!d.join("out").exists());
}

#[test]
fn bulk_in_and_bulk_out() {
    let dir = tree();
    let out = ytt_in(
        dir.path(),
        &[
            "--bulk-in",
            r#"{"files":[{"name":"t.txt","data":"<(@= \"x\" @)>"},{"name":"a.yml","data":"a: 1"}]}"#,
            "-f",
            "c.yml",
            "--bulk-out",
        ],
        None,
    );
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert_eq!(
        out.stdout,
        r#"{"files":[{"name":"t.txt","data":"\u003cx\u003e"},{"name":"a.yml","data":"a: 1\n"},{"name":"c.yml","data":"c: 3\n"}]}"#
    );
}

#[test]
fn file_marks_change_type_and_path() {
    let dir = tree();
    let d = dir.path();
    let out = ytt_in(
        d,
        &[
            "-f",
            "files",
            "--file-mark",
            "t.txt:type=text-plain",
            "--file-mark",
            "t.txt:path=renamed/out.txt",
            "--file-mark",
            "sub/*.yml:exclude=true",
            "--file-mark",
            "b.yml:type=yaml-plain",
            "--output-files",
            "out",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "creating: out/renamed/out.txt\ncreating: out/b.yml\n"
    );
    assert_eq!(
        fs::read_to_string(d.join("out/renamed/out.txt")).unwrap(),
        "text (@= \"hi\" @)\n"
    );
    assert_eq!(
        fs::read_to_string(d.join("out/b.yml")).unwrap(),
        "a: null\n"
    );
}

#[test]
fn text_file_marked_as_yaml_goes_to_stdout_without_warning() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "files/yaml.txt", "foo: bar\n");
    let out = ytt_in(
        dir.path(),
        &["-f", "files", "--file-mark", "yaml.txt:type=yaml-plain"],
        None,
    );
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (0, "foo: bar\n", "")
    );
}

#[test]
fn template_subcommand_aliases() {
    let dir = tree();
    for sub in ["template", "t", "tpl"] {
        let out = ytt_in(dir.path(), &["-f", "c.yml", sub, "-o", "json"], None);
        assert_eq!(
            (out.code, out.stdout.as_str()),
            (0, r#"{"c":3}"#),
            "{sub}: {}",
            out.stderr
        );
    }
}

/// `ytt ... 2>&1 | head -1`: stderr is a pipe whose reader is gone. The error still
/// exits 1 (writing it must not panic, which exited 101).
#[test]
fn an_error_with_stderr_closed_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "tpl.yml", "a: #@ fail(\"boom\")\n");
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let status = Command::new(env!("CARGO_BIN_EXE_ytt"))
        .args(["-f", "tpl.yml"])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(writer)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
}

/// A render large enough to have what templates need built on the other core while its
/// files are read (more than 32 KiB of input), and an output written in several texts
/// (more than 64 KiB): the same bytes as ever, on stdout as in an output directory; and
/// an error in such a run is reported as in a small one.
#[test]
fn a_larger_render_is_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    let pad: String = (0..4_000).map(|i| format!("p{i}: {i}\n")).collect();
    write(dir.path(), "cfg/z-pad.yml", &pad);
    write(
        dir.path(),
        "cfg/a.yml",
        "#@ for i in range(60):\n---\nk: #@ str(i) + \"-\" + \"x\" * 2000\n#@ end\n",
    );
    let mut expected: String = (0..60)
        .map(|i| format!("k: {i}-{}\n---\n", "x".repeat(2000)))
        .collect();
    expected.push_str(&pad);
    let out = ytt_in(dir.path(), &["-f", "cfg"], None);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert!(
        out.stdout == expected,
        "{} bytes, not {}",
        out.stdout.len(),
        expected.len()
    );
    let out = ytt_in(dir.path(), &["-f", "cfg", "--output-files", "out"], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let written = fs::read_to_string(dir.path().join("out/a.yml")).unwrap();
    assert!(expected.starts_with(&written) && written.len() > 64 << 10);

    write(dir.path(), "cfg/b.yml", "a: #@ fail(\"no\")\n");
    let out = ytt_in(dir.path(), &["-f", "cfg"], None);
    assert_eq!((out.code, out.stdout.as_str()), (1, ""));
    assert!(out.stderr.contains("fail: no"), "{}", out.stderr);
}
