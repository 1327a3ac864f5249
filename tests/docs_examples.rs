//! The examples of `docs/validations.md` and of the README are what the binary prints. In
//! the docs, each section's files (a `**`name`**` line above a code block) are written to a
//! fresh directory and each `$ ytt …` line of its `console` blocks is run there; the
//! README's run from the repository's root. What a command prints (stderr, then stdout)
//! must be the lines below it.

mod common;

use common::{trim_lines, Ytt};

/// Splits a command line as a shell would for the quoting the docs use ('…', "…").
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, ' ') => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            (None, c) => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

struct Run {
    line: usize,
    args: Vec<String>,
    expected: String,
}

struct Section {
    title: String,
    files: Vec<(String, String)>,
    /// Runs, each after the files written above it in the section.
    runs: Vec<(usize, Run)>,
}

fn sections(md: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    let lines: Vec<&str> = md.lines().collect();
    let mut pending_name: Option<String> = None;
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if l.starts_with("## ") || l.starts_with("### ") {
            out.push(Section {
                title: l.to_owned(),
                files: Vec::new(),
                runs: Vec::new(),
            });
            i += 1;
            continue;
        }
        if let Some(name) = l.strip_prefix("**`").and_then(|r| r.strip_suffix("`**")) {
            pending_name = Some(name.to_owned());
            i += 1;
            continue;
        }
        if let Some(lang) = l.strip_prefix("```") {
            let start = i + 1;
            let mut end = start;
            while end < lines.len() && lines[end] != "```" {
                end += 1;
            }
            let body = &lines[start..end];
            if let Some(s) = out.last_mut() {
                if lang == "console" {
                    let mut cur: Option<Run> = None;
                    for (k, b) in body.iter().enumerate() {
                        if let Some(cmd) = b.strip_prefix("$ ytt ") {
                            if let Some(r) = cur.take() {
                                s.runs.push((s.files.len(), r));
                            }
                            cur = Some(Run {
                                line: start + k + 1,
                                args: words(cmd),
                                expected: String::new(),
                            });
                        } else if let Some(r) = &mut cur {
                            r.expected.push_str(b);
                            r.expected.push('\n');
                        }
                    }
                    if let Some(r) = cur.take() {
                        s.runs.push((s.files.len(), r));
                    }
                } else if let Some(name) = pending_name.take() {
                    let mut text = body.join("\n");
                    text.push('\n');
                    s.files.push((name, text));
                }
            }
            pending_name = None;
            i = end + 1;
            continue;
        }
        if !l.trim().is_empty() && !l.starts_with("<") {
            pending_name = None;
        }
        i += 1;
    }
    out
}

/// Runs every example of `docs/<doc>`; returns how many there were.
fn check(doc: &str) -> usize {
    let path = format!("{}/docs/{doc}", concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let md = std::fs::read_to_string(path).unwrap();
    let mut failures = Vec::new();
    let mut count = 0;
    for s in sections(&md) {
        if s.runs.is_empty() {
            continue;
        }
        for (known, run) in &s.runs {
            // the files written above the command, the last version of each name
            let mut y = Ytt::new();
            for (name, text) in &s.files[..*known] {
                y = y.file(name, text);
            }
            let args: Vec<&str> = run.args.iter().map(String::as_str).collect();
            let out = y.run(&args);
            let got = trim_lines(&format!("{}{}", out.stderr, out.stdout));
            count += 1;
            if got != trim_lines(&run.expected) {
                failures.push(format!(
                    "{} (line {}): ytt {}\n--- expected\n{}--- got\n{}",
                    s.title,
                    run.line,
                    run.args.join(" "),
                    run.expected,
                    got
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{doc}:\n{}", failures.join("\n"));
    count
}

#[test]
fn validations_md_examples_are_what_ytt_prints() {
    let count = check("validations.md");
    assert!(count > 40, "only {count} examples found");
}

/// The README's examples run from the repository's root, on the files of `examples/`.
#[test]
fn readme_examples_are_what_ytt_prints() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let md = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let mut count = 0;
    for s in sections(&md) {
        for (_, run) in &s.runs {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_ytt"))
                .args(&run.args)
                .current_dir(root)
                .output()
                .unwrap();
            let got = trim_lines(&format!(
                "{}{}",
                String::from_utf8_lossy(&out.stderr),
                String::from_utf8_lossy(&out.stdout)
            ));
            assert_eq!(
                got,
                trim_lines(&run.expected),
                "README.md line {}: ytt {}",
                run.line,
                run.args.join(" ")
            );
            count += 1;
        }
    }
    assert!(count >= 6, "only {count} examples found");
}

#[test]
fn command_words() {
    assert_eq!(
        words("-f . -v a='x y' --data-value-yaml \"b=[1, 2]\" c=''"),
        [
            "-f",
            ".",
            "-v",
            "a=x y",
            "--data-value-yaml",
            "b=[1, 2]",
            "c="
        ]
    );
}
