//! The engine's layers, checked: ARCHITECTURE.md's "Imports run one way". Each folder of
//! `src/` (or file, for one-file modules) is a unit, [`LAYERS`] lists the units from the
//! top down, and a unit's code names only units of the layers below its own — never one
//! above, nor one beside it in its layer. The test reads every `crate::` path in the
//! sources (`use` lines and paths in code; comments and strings left out), and every
//! `super::` that leaves a unit, and names the line of each that runs the other way.

use std::collections::BTreeSet;
use std::path::Path;

/// The engine's units, the top layer first (`lib.rs`, the crate root, sits above them).
const LAYERS: &[&[&str]] = &[
    // what front ends call: a request run into its output; what a `@ytt:` module is
    // written with
    &["frontend", "module_api"],
    // the two commands: a run of a library tree, and `ytt fmt`
    &["workspace", "fmt"],
    // the `@ytt:` modules of a run (the workspace runs the libraries `@ytt:library` asks
    // for, through a trait); data-values schemas, their checks and exports
    &["modules", "schema"],
    // validation rules, run in Starlark
    &["validations"],
    // Starlark: the runtime templates run in, values and nodes, error reports
    &["eval"],
    // the overlay engine on nodes: it reaches Starlark through its `Host` trait
    &["overlay"],
    // templates compiled from YAML and text, annotation names; failures as values; the
    // reference's type names
    &["template", "diagnostic", "typenames"],
    // the node tree, its parser and emitters; where a run's messages go
    &["yaml", "messages"],
    // input files and libraries' trees; non-UTF-8 bytes in strings; threads and stacks
    &["files", "bytestr", "cores"],
];

/// Files at the root of `src/` that are not units: the crate root and this test.
const ROOT_FILES: &[&str] = &["lib", "layers_tests"];

#[test]
fn imports_run_down_the_layers() {
    let src = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src"));
    let layer_of = |unit: &str| LAYERS.iter().position(|l| l.contains(&unit));
    let mut found = BTreeSet::new();
    let mut wrong = Vec::new();
    for (rel, text) in sources(src) {
        let module = module_path(&rel);
        let unit = module[0].clone();
        if ROOT_FILES.contains(&unit.as_str()) {
            continue;
        }
        found.insert(unit.clone());
        let Some(layer) = layer_of(&unit) else {
            wrong.push(format!(
                "src/{rel}: the unit `{unit}` is in no layer of LAYERS"
            ));
            continue;
        };
        for (line, target) in imported_units(&code_only(&text), module.len()) {
            if target == unit {
                continue;
            }
            let why = match layer_of(&target) {
                Some(l) if l > layer => continue,
                Some(l) if l == layer => "beside it in its layer",
                Some(_) => "a layer above",
                None if ROOT_FILES.contains(&target.as_str()) || starts_upper(&target) => {
                    "the crate root (name the unit that defines it)"
                }
                None => "in no layer",
            };
            wrong.push(format!(
                "src/{rel}:{line}: `{unit}` imports `{target}`, {why}"
            ));
        }
    }
    let listed: BTreeSet<String> = LAYERS
        .iter()
        .flat_map(|l| l.iter())
        .map(|u| u.to_string())
        .collect();
    for stale in listed.difference(&found) {
        wrong.push(format!("LAYERS lists `{stale}`, which src/ does not have"));
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers (ARCHITECTURE.md, Rules of the house):\n{}",
        wrong.join("\n")
    );
}

fn starts_upper(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
}

/// Every `.rs` file under `dir`: (its path under `src/`, `/`-separated; its text).
fn sources(src: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/ is readable") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(src).expect("under src/");
                let rel = rel.to_string_lossy().replace('\\', "/");
                let text = std::fs::read_to_string(&path).expect("UTF-8 source");
                files.push((rel, text));
            }
        }
    }
    assert!(files.len() > 60, "found {} engine files", files.len());
    files
}

/// The module path of a file under `src/` (`eval/runtime.rs`: `eval::runtime`;
/// `eval/mod.rs`: `eval`).
fn module_path(rel: &str) -> Vec<String> {
    let rel = rel.strip_suffix(".rs").unwrap_or(rel);
    let mut parts: Vec<String> = rel.split('/').map(str::to_owned).collect();
    if parts.len() > 1 && parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The text with its comments and the contents of its string and character literals
/// blanked out, lines kept.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if let Some(hashes) = raw_string_start(&chars, i) {
            // r"…", r#"…"#, br"…": ends at a quote followed by as many hashes
            let open = chars[i..].iter().position(|&c| c == '"').unwrap_or(0) + 1;
            out.extend(std::iter::repeat_n(' ', open));
            i += open;
            while i < chars.len() {
                let closes =
                    chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#'));
                if closes {
                    out.extend(std::iter::repeat_n(' ', hashes + 1));
                    i += hashes + 1;
                    break;
                }
                out.push(blank(chars[i]));
                i += 1;
            }
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                let skip = if chars[i] == '\\' { 2 } else { 1 };
                for k in 0..skip {
                    if let Some(&c) = chars.get(i + k) {
                        out.push(blank(c));
                    }
                }
                i += skip;
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' && is_char_literal(&chars, i) {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                let skip = if chars[i] == '\\' { 2 } else { 1 };
                out.extend(std::iter::repeat_n(' ', skip));
                i += skip;
            }
            out.push(' ');
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// At `i`, a raw string (`r"`, `r#"`, `br#"`, not inside an identifier): its hashes.
fn raw_string_start(chars: &[char], i: usize) -> Option<usize> {
    let prev_ident = i > 0 && is_ident(chars[i - 1]);
    let start = match (chars.get(i), chars.get(i + 1)) {
        (Some('b'), Some('r')) => i + 2,
        (Some('r'), _) => i + 1,
        _ => return None,
    };
    let hashes = chars[start..].iter().take_while(|&&c| c == '#').count();
    (!prev_ident && chars.get(start + hashes) == Some(&'"')).then_some(hashes)
}

/// At `i` (a `'`), a character literal rather than a lifetime or a label.
fn is_char_literal(chars: &[char], i: usize) -> bool {
    match chars.get(i + 1) {
        Some('\\') => true,
        Some(_) => chars.get(i + 2) == Some(&'\''),
        None => false,
    }
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The units `code` names, with their lines: the first segment after `crate::` (each
/// first segment of a `crate::{…}` group), and the segment a `super::` chain reaches
/// once it leaves the unit. `depth` is the file's own module depth under `src/`
/// (`eval/runtime.rs`: 2); inline modules (`mod tests { … }`) add theirs.
fn imported_units(code: &str, depth: usize) -> Vec<(usize, String)> {
    let chars: Vec<char> = code.chars().collect();
    let line_at = |i: usize| 1 + chars[..i].iter().filter(|&&c| c == '\n').count();
    let word_at =
        |i: usize| -> String { chars[i..].iter().take_while(|&&c| is_ident(c)).collect() };
    let starts_word = |i: usize, w: &str| {
        (i == 0 || !is_ident(chars[i - 1]))
            && (chars.get(i..i + w.len())).is_some_and(|s| s.iter().copied().eq(w.chars()))
    };
    let mut units = Vec::new();
    // braces opened so far, and those that opened an inline module
    let mut braces = 0usize;
    let mut modules: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '{' => braces += 1,
            '}' => {
                braces = braces.saturating_sub(1);
                if modules.last() == Some(&braces) {
                    modules.pop();
                }
            }
            _ => {}
        }
        if starts_word(i, "mod ") {
            // `mod name {` opens an inline module; `mod name;` is a file of its own
            let rest: String = chars[i + 4..]
                .iter()
                .take_while(|&&c| c != ';' && c != '{')
                .collect();
            if chars.get(i + 4 + rest.len()) == Some(&'{') {
                modules.push(braces);
            }
        } else if starts_word(i, "crate::") {
            let at = i + "crate::".len();
            if chars.get(at) == Some(&'{') {
                for first in group_heads(&chars, at) {
                    units.push((line_at(i), first));
                }
            } else {
                units.push((line_at(i), word_at(at)));
            }
        } else if starts_word(i, "super::") {
            let mut up = 0;
            let mut at = i;
            while starts_word(at, "super::") {
                up += 1;
                at += "super::".len();
            }
            let own = depth + modules.len();
            // `super` from a file's module (or an inline one in it) stays in the unit
            // until it reaches the crate root
            if up >= own && own > 0 {
                units.push((line_at(i), word_at(at)));
            }
            i = at;
            continue;
        }
        i += 1;
    }
    units
}

/// The first segment of each path in the `{…}` group opening at `open`.
fn group_heads(chars: &[char], open: usize) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut expect_head = true;
    for (k, &c) in chars.iter().enumerate().skip(open) {
        match c {
            '{' => {
                depth += 1;
                expect_head = depth == 1;
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            ',' if depth == 1 => expect_head = true,
            c if expect_head && depth == 1 && is_ident(c) => {
                heads.push(chars[k..].iter().take_while(|&&c| is_ident(c)).collect());
                expect_head = false;
            }
            _ => {}
        }
    }
    heads
}

#[test]
fn reads_paths_in_code_not_in_comments_or_strings() {
    let code = code_only(
        "use crate::yaml::Node; // crate::eval\n\
         let s = \"crate::schema\"; let r = r#\"crate::fmt\"#;\n\
         /* crate::files */ let c = '\"'; let t = crate::template::x();\n\
         use crate::{diagnostic::Kind, eval::{a, b}};\n\
         mod tests { use super::*; use super::super::cores::X; }\n",
    );
    let units: Vec<(usize, String)> = imported_units(&code, 1);
    let got: Vec<(usize, &str)> = units.iter().map(|(l, u)| (*l, u.as_str())).collect();
    assert_eq!(
        got,
        [
            (1, "yaml"),
            (3, "template"),
            (4, "diagnostic"),
            (4, "eval"),
            (5, "cores")
        ]
    );
}
