//! End-to-end tests of hostile and careless input: every input flag reads files under
//! the same rules as `-f` (the symlink policy; regular files and pipes only), outputs are
//! never written through a symbolic link, alias bombs end in a clear
//! error, and a non-UTF-8 environment cannot crash a run.

mod common;

use std::os::unix::fs::symlink;

use common::Ytt;

/// A project with a secret outside of it, linked from inside.
fn with_link_to_secret() -> Ytt {
    let y = Ytt::new()
        .file("outside/secret.yml", "secret: s3cr3t\n")
        .file("p/t.yml", "a: 1\n")
        .file("p/vals/a.yml", "a: 1\n");
    symlink(
        y.path().join("outside/secret.yml"),
        y.path().join("p/vals/link.yml"),
    )
    .unwrap();
    symlink(y.path().join("outside"), y.path().join("p/outside-dir")).unwrap();
    y
}

const REFUSED: &str = "to be allowed, but was not (hint: symlinks are disallowed as a security feature, use '--allow-symlink-destination' flags to override)";

#[test]
fn data_values_files_follow_the_symlink_policy() {
    let y = with_link_to_secret();
    // a directory holding a link, the link itself, a link to a directory, a file value
    for args in [
        &["-f", "p/t.yml", "--data-values-file", "p/vals/"][..],
        &["-f", "p/t.yml", "--data-values-file", "p/vals/link.yml"],
        &["-f", "p/t.yml", "--data-values-file", "p/outside-dir"],
        &["-f", "p/t.yml", "--data-value-file", "x=p/vals/link.yml"],
    ] {
        let mut all = args.to_vec();
        all.push("--data-values-inspect");
        let out = y.run(&all);
        assert!(out.err().contains(REFUSED), "{args:?}: {}", out.stderr);
        assert!(!out.stderr.contains("s3cr3t"), "{}", out.stderr);
    }
    // allowed destinations are read
    let out = y.run(&[
        "-f",
        "p/t.yml",
        "--data-values-file",
        "p/vals/",
        "--allow-symlink-destination",
        "outside",
        "--data-values-inspect",
    ]);
    assert_eq!(out.ok(), "a: 1\nsecret: s3cr3t\n");
}

/// Rule (measured): one symlink policy for every link in every directory walked, by any
/// flag and at any depth, whatever the link is named and whether or not the flag then
/// uses the file: a link whose destination (resolved as Go's `filepath.EvalSymlinks`,
/// named as resolved) is not allowed, or that leads nowhere, stops the run under
/// `Listing files`; an allowed link is a file, never walked into.
#[test]
fn every_link_in_a_walked_directory_is_checked() {
    let refused = |path: &str, dest: &str| {
        format!("Checking symlink file '{path}':\n  Expected symlink file '{path}' -> '{dest}' {REFUSED}")
    };
    let y = Ytt::new()
        .file("t.yml", "a: 1\n")
        .file("in/t.yml", "a: 1\n")
        .file("dv/v.yml", "a: 2\n")
        .file("other/o.yml", "b: 2\n");
    let cases: [(&str, &str, &[&str], String); 5] = [
        // a link to `.` named as no template would be: skipped silently before
        (
            "dv/l1",
            ".",
            &["-f", "t.yml", "--data-values-file", "dv"],
            format!(
                "Extracting data value from file:\n  Find files 'dv':\n    Listing files 'dv':\n      {}",
                refused("dv/l1", "dv").replace('\n', "\n      ")
            ),
        ),
        (
            "in/l1",
            ".",
            &["-f", "in"],
            format!("Listing files 'in':\n  {}", refused("in/l1", "in").replace('\n', "\n  ")),
        ),
        // nested, relative, to a directory
        (
            "dv/sub/ld",
            "../../other",
            &["-f", "t.yml", "--data-values-file", "dv"],
            format!(
                "Extracting data value from file:\n  Find files 'dv':\n    Listing files 'dv':\n      {}",
                refused("dv/sub/ld", "other").replace('\n', "\n      ")
            ),
        ),
        // to a file, excluded by a file mark
        (
            "in/sub/o.yml",
            "../../other/o.yml",
            &["-f", "in", "--file-mark", "sub/o.yml:exclude=true"],
            format!(
                "Listing files 'in':\n  {}",
                refused("in/sub/o.yml", "other/o.yml").replace('\n', "\n  ")
            ),
        ),
        // leading nowhere
        (
            "in/sub/gone",
            "nope",
            &["-f", "in"],
            "Listing files 'in':\n  Checking symlink file 'in/sub/gone':\n    Eval symlink: lstat in/sub/nope: no such file or directory".to_owned(),
        ),
    ];
    for (link, dest, args, message) in cases {
        let full = y.path().join(link);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        symlink(dest, &full).unwrap();
        assert_eq!(
            y.run(args).err(),
            format!("ytt: Error: {message}\n"),
            "{link}"
        );
        std::fs::remove_file(&full).unwrap();
    }
    // allowed: a link to a directory is not walked (an allowed link is a file)
    symlink("../../other", y.path().join("in/sub/ld")).unwrap();
    let allowed = |a: &str| y.run(&["-f", "in", "--allow-symlink-destination", a]);
    for a in ["other", "other/", "./other", "in/../other", "."] {
        assert_eq!(allowed(a).ok(), "a: 1\n", "{a}");
    }
    // an allowed destination is a path prefix by whole names, not resolved itself
    symlink("other", y.path().join("alias")).unwrap();
    for a in ["oth", "alias"] {
        assert!(allowed(a).err().contains(REFUSED), "{a}");
    }
    // a link to a directory named as a template is read, and is a directory
    std::fs::remove_file(y.path().join("in/sub/ld")).unwrap();
    symlink(".", y.path().join("in/self.yml")).unwrap();
    assert_eq!(
        y.run(&["-f", "in", "--allow-symlink-destination", "in"])
            .err(),
        "ytt: Error: read in/self.yml: is a directory\n"
    );
}

/// Rule (measured): a file given on the command line that is a link is checked as one
/// found in a directory, and is a file whatever it leads to; `link/` names the directory.
#[test]
fn a_link_given_is_a_file() {
    let y = Ytt::new()
        .file("t.yml", "a: 1\n")
        .file("other/o.yml", "b: 2\n");
    symlink("other", y.path().join("ld")).unwrap();
    symlink("nope", y.path().join("gone.yml")).unwrap();
    assert_eq!(
        y.run(&["-f", "ld"]).err(),
        format!("ytt: Error: Checking symlink file 'ld':\n  Expected symlink file 'ld' -> 'other' {REFUSED}\n")
    );
    assert_eq!(
        y.run(&["-f", "t.yml", "--data-value-file", "x=gone.yml"]).err(),
        "ytt: Error: Extracting data value from file:\n  Finding file 'gone.yml':\n    Checking symlink file 'gone.yml':\n      Eval symlink: lstat nope: no such file or directory\n"
    );
    // allowed: `ld` is a data file (nothing to output), `ld/` the directory
    let allow = ["--allow-symlink-destination", "other"];
    assert_eq!(y.run(&["-f", "ld", allow[0], allow[1]]).ok(), "");
    assert_eq!(y.run(&["-f", "ld/", allow[0], allow[1]]).ok(), "b: 2\n");
    assert_eq!(
        y.run(&["-f", "t.yml", "--data-values-file", "ld", allow[0], allow[1]])
            .err(),
        "ytt: Error: Extracting data value from file:\n  Reading file 'ld': read ld: is a directory\n"
    );
}

/// Rule (measured): a file that is not a regular one is opened only when its contents
/// are needed, as the reference opens it: a named pipe in a directory (with no writer:
/// the run used to wait forever) is listed by `data.list()` and read only as a template;
/// a socket or a device is refused as the directory is listed.
#[test]
fn a_stray_named_pipe_is_not_opened() {
    let y = Ytt::new().file(
        "in/t.yml",
        "#@ load(\"@ytt:data\", \"data\")\nfiles: #@ data.list()\n",
    );
    let fifo = y.path().join("in/stray.fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    assert_eq!(y.run(&["-f", "in"]).ok(), "files:\n- stray.fifo\n- t.yml\n");
    assert_eq!(y.run(&["-f", "in/stray.fifo"]).ok(), "");
    assert_eq!(
        y.run(&["-f", "in", "--files-inspect"]).ok(),
        "- stray.fifo\n- t.yml\n"
    );
    let y = y.file(
        "in/t.yml",
        "#@ load(\"@ytt:data\", \"data\")\nx: #@ data.read(\"stray.fifo\")\n",
    );
    assert!(y
        .run(&["-f", "in"])
        .err()
        .contains("data.read: File 'in/stray.fifo' is not a regular file"));
    std::fs::remove_file(&fifo).unwrap();
    let socket = std::os::unix::net::UnixListener::bind(y.path().join("in/s.yml")).unwrap();
    assert_eq!(
        y.run(&["-f", "in"]).err(),
        "ytt: Error: Listing files 'in':\n  Expected file 'in/s.yml' to be a regular file, but was not\n"
    );
    drop(socket);
}

#[test]
fn devices_are_refused_and_pipes_read() {
    let y = Ytt::new().file("t.yml", "a: 1\n");
    for args in [
        &["-f", "/dev/zero"][..],
        &["-f", "t.yml", "--data-values-file", "/dev/zero"],
        &["-f", "t.yml", "--data-value-file", "x=/dev/urandom"],
    ] {
        let out = y.run(args);
        assert!(
            out.err().contains("Expected file '/dev/")
                && out.stderr.contains("to be a regular file, but was not"),
            "{args:?}: {}",
            out.stderr
        );
    }
    let out = Ytt::new().file("t.yml", "a: 1\n").stdin("b: 2\n").run(&[
        "-f",
        "t.yml",
        "--data-values-file",
        "-",
        "--data-values-inspect",
    ]);
    assert_eq!(out.ok(), "b: 2\n");
}

#[test]
fn outputs_are_never_written_through_a_link_inside_the_output_directory() {
    let y = Ytt::new()
        .file("t.yml", "a: 1\n")
        .file("sub/t.yml", "b: 1\n")
        .file("outside/keep.txt", "");
    std::fs::create_dir_all(y.path().join("out")).unwrap();
    symlink(
        y.path().join("outside/victim.yml"),
        y.path().join("out/t.yml"),
    )
    .unwrap();
    symlink(y.path().join("outside"), y.path().join("out/sub")).unwrap();
    let out = y.run(&["-f", "t.yml", "--output-files", "out"]);
    assert!(
        out.err()
            .contains("Expected output path 'out/t.yml' to not be a symbolic link"),
        "{}",
        out.stderr
    );
    // an output whose directory is a link (`-f .` puts sub/t.yml under out/sub/)
    let y = y.file("in/sub/t.yml", "b: 1\n");
    let out = y.run(&["-f", "in/", "--output-files", "out"]);
    assert!(out.err().contains("'out/sub'"), "{}", out.stderr);
    assert_eq!(y.list("outside"), ["keep.txt"]);
    // the emptied directory holds no link once emptied
    let out = y.run(&["-f", "t.yml", "--dangerous-emptied-output-directory", "out"]);
    assert_eq!(out.ok(), "creating: out/t.yml\n");
    assert_eq!(y.list("outside"), ["keep.txt"]);
}

/// Rule: recursion that never ends is a clear error (`Starlark call stack overflow`,
/// naming the lines of the calls), whatever the function does when the stack runs out:
/// emitting YAML nodes, annotating them (the evaluator's error used to be reported as an
/// internal error: fuzz finding, run target), in a text template, in a Starlark module,
/// in a data-values file, or from an overlay's matcher.
#[test]
fn runaway_recursion_is_a_clear_error() {
    const OVERFLOW: &str = "Starlark call stack overflow";
    let cases: [(&str, &str, &[&str]); 7] = [
        (
            "t.yml",
            "#@ def f():\nteam: core\nlabels: #@ f()\n#@ end\nx: #@ f()\n",
            &["-f", "t.yml"],
        ),
        (
            "t.yml",
            "#@ def f():\n#@overlay/match missing_ok=True\nteam: core\nlabels: #@ f()\n#@ end\nx: #@ f()\n",
            &["-f", "t.yml"],
        ),
        (
            "t.yml",
            "#@ def f():\na: 1\n#@yaml/text-templated-strings\nb: (@= str(f()) @)\n#@ end\nx: #@ f()\n",
            &["-f", "t.yml"],
        ),
        (
            "t.txt",
            "(@ def f(): @)a(@= f() @)(@ end @)\n(@= f() @)\n",
            &["-f", "t.txt"],
        ),
        (
            "t.yml",
            "#@ load(\"m.star\", \"f\")\nx: #@ f(1)\n",
            &["-f", "t.yml", "-f", "m.star"],
        ),
        (
            "v.yml",
            "#@ def f(n):\n#@   return f(n + 1)\n#@ end\n#@data/values\n---\nx: #@ f(0)\n",
            &["-f", "v.yml", "--data-values-inspect"],
        ),
        (
            "o.yml",
            "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ def f(): return f()\n#@overlay/match by=lambda i, l, r: f()\n---\nx: 2\n",
            &["-f", "t.yml", "-f", "o.yml"],
        ),
    ];
    for (name, content, args) in cases {
        let out = Ytt::new()
            .file("t.yml", "x: 1\n")
            .file("m.star", "def f(n):\n  return f(n + 1) + 1\nend\n")
            .file(name, content)
            .run(args);
        let err = out.err();
        assert!(
            err.contains(OVERFLOW) && !err.contains("internal error"),
            "{content}: {}",
            &err[..err.len().min(600)]
        );
    }
}

#[test]
fn alias_expansion_is_bounded_per_run_not_per_file() {
    // each file expands to about a million nodes: under the budget alone, not together
    let laugh = common::alias_expansion();
    let mut y = Ytt::new();
    for i in 0..8 {
        y = y.file(&format!("l{i}.yml"), &laugh);
    }
    let out = y.run(&["-f", "."]);
    assert!(
        out.err().contains("document contains excessive aliasing"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_non_utf8_environment_is_no_crash() {
    let y = Ytt::new().file("t.yml", "a: 1\n");
    // an unrelated variable is none of our business
    let out = y.env_bytes("OTHER", b"\xff\xfe").env("DV_x", "1").run(&[
        "-f",
        "t.yml",
        "--data-values-env",
        "DV",
        "--data-values-inspect",
    ]);
    assert_eq!(out.ok(), "x: \"1\"\n");
    // bytes that are not UTF-8 are carried, as the reference takes them: a string value
    // holds them (written as !!binary), YAML refuses them in go-yaml's words naming the
    // variable and the flag
    let y = Ytt::new()
        .file("t.yml", "a: 1\n")
        .env_bytes("DV_y", b"caf\xe9")
        .env_bytes("DV_k\u{e9}", b"1");
    let run = |flag: &str| y.run(&["-f", "t.yml", flag, "DV", "--data-values-inspect"]);
    assert_eq!(
        run("--data-values-env").ok(),
        "k\u{e9}: \"1\"\n\"y\": !!binary Y2Fm6Q==\n"
    );
    assert_eq!(
        run("--data-values-env-yaml").err(),
        "ytt: Error: Extracting data values from env under prefix 'DV':\n  Extracting data value from env variable 'DV_y':\n    Deserializing YAML value: yaml: incomplete UTF-8 octet sequence\n"
    );
}

/// A runaway template ends with a clear error within the memory budget, never an abort
/// in the allocator or the OOM killer: a repetition past the reference's bounds before
/// anything is allocated, memory past the budget at the next step of the code, both
/// with the template line; one allocation past twice the budget at once, without it.
#[test]
fn runaway_memory_ends_with_a_clear_error() {
    for (expr, message) in [
        (
            "len([1] * 2147483647)",
            "excessive repeat (2147483647 elements)",
        ),
        (
            "len(\"xx\" * 2000000000)",
            "excessive repeat (4000000000 elements)",
        ),
        (
            "len([[0] * 100000 for i in range(100000)])",
            "the run needs more memory than --max-memory allows",
        ),
    ] {
        let out = Ytt::new().file("t.yml", &format!("a: #@ {expr}\n")).run(&[
            "-f",
            "t.yml",
            "--max-memory",
            "64M",
        ]);
        assert_eq!(
            out.err(),
            format!("ytt: Error: \n- {message}\n    in <toplevel>\n      t.yml:1 | a: #@ {expr}\n"),
        );
    }
    let out = Ytt::new()
        .file("t.yml", "a: #@ len([1] * 100000000)\n")
        .run(&["-f", "t.yml", "--max-memory", "64M"]);
    assert_eq!(
        out.err(),
        "ytt: Error: the run needs more memory than --max-memory allows\n"
    );
    let y = Ytt::new().file("t.yml", "a: #@ len([1] * 100000)\n");
    assert_eq!(
        y.run(&["-f", "t.yml", "--max-memory", "0"]).ok(),
        "a: 100000\n"
    );
    assert_eq!(y.run(&["-f", "t.yml"]).ok(), "a: 100000\n");
    assert!(y
        .run(&["-f", "t.yml", "--max-memory", "lots"])
        .err()
        .contains("--max-memory: Expected a size such as 512M or 4G, but was 'lots'"));
}

/// Rule: YAML — a template, a data values file, standard input — must be UTF-8, as
/// go-yaml reads it: bytes that are not are refused with its reader's words, naming the
/// file, never an empty success (a file large enough to be parsed in pieces used to
/// vanish). Text templates, Starlark files and data files carry such bytes.
#[test]
fn yaml_that_is_not_utf8_is_refused_never_dropped() {
    // 100 KB of pseudo-random bytes, the first of them not a UTF-8 lead
    let mut x: u32 = 12345;
    let mut noise: Vec<u8> = (0..100_000)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 16) as u8
        })
        .collect();
    noise[0] = 0xFF;
    let out = Ytt::new().stdin_bytes(&noise).run(&["-f", "-"]);
    assert_eq!(
        out.err(),
        "ytt: Error: Unmarshaling YAML template 'stdin.yml': yaml: invalid leading UTF-8 octet\n"
    );
    // valid YAML over 64 KiB with one Latin-1 byte, in a file and as data values
    let mut big = "k: v\n".repeat(20_000).into_bytes();
    big.extend_from_slice(b"last: caf\xe9\n");
    let y = Ytt::new()
        .file("t.yml", "a: 1\n")
        .file_bytes("big.yml", &big);
    assert_eq!(
        y.run(&["-f", "big.yml"]).err(),
        "ytt: Error: Unmarshaling YAML template 'big.yml': yaml: incomplete UTF-8 octet sequence\n"
    );
    assert_eq!(
        y.run(&["-f", "t.yml", "--data-values-file", "big.yml"]).err(),
        "ytt: Error: Extracting data value from file:\n  Unmarshaling YAML data values file 'big.yml': yaml: incomplete UTF-8 octet sequence\n"
    );
    let out = Ytt::new()
        .file("t.yml", "a: 1\n")
        .stdin_bytes(&noise)
        .run(&["-f", "t.yml", "--data-values-file", "-"]);
    assert!(
        out.err()
            .starts_with("ytt: Error: Extracting data value from file:\n  Unmarshaling YAML data values file 'stdin.yml': yaml: "),
        "{}",
        out.stderr
    );
}

/// Rule (measured): a file name is bytes, as the reference takes it: one that is not
/// UTF-8, found in a directory or given as an argument, is opened, listed (as
/// `!!binary`, as any such string), and written back under the same bytes.
#[test]
fn file_names_that_are_not_utf8_are_bytes() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let name = OsStr::from_bytes(b"caf\xe9.yml");
    let y = Ytt::new().file("in/t.yml", "b: 1\n");
    std::fs::write(y.path().join("in").join(name), "a: 1\n").unwrap();
    assert_eq!(y.run(&["-f", "in"]).ok(), "a: 1\n---\nb: 1\n");
    assert_eq!(
        y.run(&["-f", "in", "--files-inspect"]).ok(),
        "- !!binary Y2Fm6S55bWw=\n- t.yml\n"
    );
    // given as an argument (the test harness passes arguments as UTF-8: run it here)
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ytt"))
        .arg("-f")
        .arg(std::path::Path::new("in").join(name))
        .arg("--output-files")
        .arg("out")
        .current_dir(y.path())
        .output()
        .unwrap();
    assert_eq!(
        (out.status.code(), out.stdout.as_slice()),
        (Some(0), &b"creating: out/caf\xe9.yml\n"[..])
    );
    assert_eq!(
        std::fs::read(y.path().join("out").join(name)).unwrap(),
        b"a: 1\n"
    );
}
