//! The engine used as a library, in process: files in memory in, documents and messages
//! out (`ytt::workspace::render`), with nothing shared between runs.

use std::sync::{Arc, Mutex};

use ytt::files::InputFile;
use ytt::workspace::{render, OutputContent, RenderOptions};
use ytt::yaml::emit::yaml_docset;
use ytt::Messages;

/// In-memory input files: (name, text).
fn inputs(files: &[(&str, impl AsRef<str>)]) -> Vec<InputFile> {
    files
        .iter()
        .map(|(name, text)| InputFile::new(*name, text.as_ref().as_bytes().to_vec()))
        .collect()
}

/// Renders `files`; returns the YAML of every output file and the run's messages.
fn run(files: &[(&str, &str)]) -> (String, String) {
    let messages = Arc::new(Mutex::new(Vec::new()));
    let sink = messages.clone();
    let opts = RenderOptions {
        messages: Messages::new(move |bytes| sink.lock().unwrap().extend_from_slice(bytes)),
        modules: ytt_stdlib::modules(),
        ..RenderOptions::default()
    };
    let rendered = render(opts, inputs(files)).expect("the run succeeds");
    let mut yaml = String::new();
    for out in &rendered.outputs {
        if let OutputContent::Yaml(ds) = &out.content {
            yaml_docset(ds, &mut yaml);
        }
    }
    let messages = std::mem::take(&mut *messages.lock().unwrap());
    let messages = String::from_utf8(messages).expect("UTF-8 messages");
    (yaml, messages)
}

const PRINTS: &str = "#@ load(\"@ytt:math\", \"math\")\n\
                      #@ print(\"first\")\n\
                      a: #@ math.floor(1.5)\n\
                      #@ print(\"second\")\n\
                      b: #@ math.ceil(1.5)\n";

#[test]
fn prints_and_warnings_are_messages_in_the_order_they_happen() {
    let (yaml, messages) = run(&[("t.yml", PRINTS)]);
    assert_eq!(yaml, "a: 1\nb: 2\n");
    assert_eq!(
        messages,
        format!("first\n{}\nsecond\n", ytt_stdlib::math::WARNING)
    );
}

#[test]
fn every_run_gives_its_own_warnings() {
    // the math warning is once per run, not once per process
    for _ in 0..2 {
        let (_, messages) = run(&[("t.yml", PRINTS)]);
        assert_eq!(
            messages
                .matches("Warning: a function from the @ytt:math")
                .count(),
            1
        );
    }
}

#[test]
fn a_warn_rule_that_fails_is_a_message() {
    let schema = "#@data/values-schema\n---\n#@schema/validation (\"big\", lambda v: v > 5), warn=True\nport: 1\n";
    let tpl = "#@ load(\"@ytt:data\", \"data\")\nport: #@ data.values.port\n";
    let (yaml, messages) = run(&[("schema.yml", schema), ("t.yml", tpl)]);
    assert_eq!(yaml, "port: 1\n");
    assert!(
        messages.starts_with("Warning: Validating final data values:\n  port\n"),
        "{messages}"
    );
}

/// Two different projects: libraries, data values, overlays, a Starlark module and file
/// names in common.
fn project(n: usize) -> Vec<(String, String)> {
    let mut files = vec![
        (
            "values.yml".to_owned(),
            format!("#@data/values\n---\nname: app-{n}\nreplicas: {n}\nitems: [a, b, c]\n"),
        ),
        (
            "helpers.star".to_owned(),
            format!("def label(x):\n  return \"{n}-\" + x\nend\n"),
        ),
        (
            "config.yml".to_owned(),
            "#@ load(\"@ytt:data\", \"data\")\n\
             #@ load(\"helpers.star\", \"label\")\n\
             #@ for i in range(50):\n\
             ---\n\
             name: #@ label(data.values.name + \"-\" + str(i))\n\
             replicas: #@ data.values.replicas * i\n\
             items: #@ [label(x) for x in data.values.items]\n\
             #@ end\n"
                .to_owned(),
        ),
        (
            "overlay.yml".to_owned(),
            "#@ load(\"@ytt:overlay\", \"overlay\")\n\
             #@overlay/match by=overlay.all, expects=\"1+\"\n\
             ---\n\
             #@overlay/match missing_ok=True\n\
             extra: true\n"
                .to_owned(),
        ),
    ];
    if n.is_multiple_of(2) {
        files.push(("_ytt_lib/lib/t.yml".to_owned(), format!("lib: {n}\n")));
        files.push((
            "lib.yml".to_owned(),
            "#@ load(\"@ytt:library\", \"library\")\n\
             #@ load(\"@ytt:template\", \"template\")\n\
             --- #@ template.replace(library.get(\"lib\").eval())\n"
                .to_owned(),
        ));
    }
    files
}

fn run_project(n: usize) -> (String, String) {
    let files = project(n);
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    run(&refs)
}

#[test]
fn two_projects_render_concurrently_as_they_do_alone() {
    let alone: Vec<_> = (0..4).map(run_project).collect();
    assert!(alone[1].0.contains("name: 1-app-1-49"), "{}", alone[1].0);
    assert!(alone[2].0.contains("lib: 2"), "{}", alone[2].0);
    for _ in 0..3 {
        let together: Vec<_> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|n| {
                    std::thread::Builder::new()
                        .stack_size(8 << 20)
                        .spawn_scoped(s, move || run_project(n))
                        .expect("a thread")
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("no panic"))
                .collect()
        });
        assert_eq!(together, alone);
    }
}

/// The engine's sources (`src/`, the `ytt` crate, and `stdlib/src/`, the `ytt-stdlib`
/// crate) without their tests: (path under the repository, code lines). A test module at
/// the end of a file (`#[cfg(test)]`) and the files that only tests compile are left out.
fn engine_sources() -> Vec<(String, Vec<String>)> {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for root in ["src", "stdlib/src"] {
        files.extend(sources_under(repo, root));
    }
    assert!(files.len() > 60, "found {} engine files", files.len());
    assert!(files.iter().any(|(f, _)| f == "stdlib/src/json.rs"));
    files
}

fn sources_under(repo: &std::path::Path, root: &str) -> Vec<(String, Vec<String>)> {
    let mut files = Vec::new();
    let mut dirs = vec![repo.join(root)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("src is readable") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                if !path.ends_with("tests") {
                    dirs.push(path);
                }
                continue;
            }
            let rel = path
                .strip_prefix(repo)
                .expect("under the repository")
                .to_string_lossy()
                .replace('\\', "/");
            let test_only = rel.ends_with("tests.rs") || rel.ends_with("test_support.rs");
            if !rel.ends_with(".rs") || test_only {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("UTF-8 source");
            let lines = (text.lines().map(str::trim))
                .take_while(|l| *l != "#[cfg(test)]")
                .filter(|l| !l.starts_with("//"))
                .map(str::to_owned)
                .collect();
            files.push((rel, lines));
        }
    }
    files
}

/// Positions name files through the run's own table, handed back with the output: a
/// second run numbers its files afresh and leaves the first run's table as it was.
#[test]
fn every_run_names_its_files_in_its_own_table() {
    let positions = |files: &[(&str, &str)]| {
        let inputs = files
            .iter()
            .map(|(name, text)| InputFile::new(*name, text.as_bytes().to_vec()))
            .collect();
        let rendered = render(RenderOptions::default(), inputs).expect("the run succeeds");
        let docs: Vec<_> = (rendered.outputs.iter())
            .filter_map(|o| match &o.content {
                OutputContent::Yaml(ds) => Some(ds.docs.iter().map(|d| d.meta.pos.clone())),
                _ => None,
            })
            .flatten()
            .collect();
        (rendered.names, docs)
    };
    let (first, a) = positions(&[("a.yml", "#@ x = 1\na: #@ x\n"), ("b.yml", "b: 2\n")]);
    let (second, c) = positions(&[("c.yml", "---\n#@ x = 1\nc: #@ x\n")]);
    let named = |names: &ytt::yaml::FileNames, ps: &[ytt::yaml::Pos]| -> Vec<String> {
        ps.iter().map(|p| names.describe(p)).collect()
    };
    assert_eq!(named(&first, &a), ["a.yml:1", "b.yml:1"]);
    assert_eq!(named(&second, &c), ["c.yml:1"]);
    // the same id stands for another file in each run
    assert_eq!(c[0].file, a[0].file);
    assert_eq!(
        named(&first, &a),
        ["a.yml:1", "b.yml:1"],
        "unchanged by the second run"
    );
}

/// The engine keeps no state outside a run: no `thread_local!`, and no `static` that can
/// change (a lock, a cell, an atomic). Immutable caches (`OnceLock`, starlark's
/// `MethodsStatic`) are allowed; process state (the allocator's counters, standard input
/// read once) is the command line's (`cli/`).
#[test]
fn the_engine_keeps_no_state_outside_a_run() {
    const MUTABLE: &[&str] = &["Mutex", "RwLock", "Cell<", "Atomic", "static mut"];
    let mut found = Vec::new();
    for (rel, lines) in engine_sources() {
        for line in lines {
            let is_static = ["static ", "pub static ", "pub(crate) static "]
                .iter()
                .any(|p| line.starts_with(p));
            let state = line.starts_with("thread_local!")
                || (is_static && MUTABLE.iter().any(|m| line.contains(m)));
            if state {
                found.push((rel.clone(), line));
            }
        }
    }
    assert!(found.is_empty(), "state outside a run: {found:?}");
}

/// The engine does no I/O of its own: no file system, no process, no standard streams,
/// nothing Unix-only. Files come in memory; messages and reports go out as values.
#[test]
fn the_engine_does_no_io() {
    const IO: &[&str] = &[
        "std::fs",
        "std::process",
        "std::os::",
        "std::env",
        "std::io::stdin",
        "std::io::stdout",
        "std::io::stderr",
        "println!",
        "eprintln!",
        "print!",
        "eprint!",
        "dbg!",
    ];
    let mut found = Vec::new();
    for (rel, lines) in engine_sources() {
        for line in lines {
            if let Some(io) = IO.iter().find(|io| line.contains(*io)) {
                found.push(format!("{rel}: {io}: {line}"));
            }
        }
    }
    assert!(found.is_empty(), "I/O in the engine:\n{}", found.join("\n"));
}

/// A map nested `depth` levels deep (`k: {k: ... {k: 1}}`) as block YAML.
fn nested_map(depth: usize) -> String {
    let mut yaml = String::new();
    for level in 0..depth {
        yaml.push_str(&" ".repeat(level));
        yaml.push_str("k:\n");
    }
    yaml.push_str(&" ".repeat(depth));
    yaml.push_str("v: 1\n");
    yaml
}

/// The engine's recursion is bounded by its own limits, not by the command line's big
/// stack: the deepest input the parser accepts renders on a thread with the default
/// 2 MiB stack of a library caller (templates, data values, overlays and output).
#[test]
fn the_deepest_input_renders_on_a_default_stack() {
    let depth = ytt::yaml::parser::MAX_DEPTH - 2;
    let doc = nested_map(depth);
    let values = format!("#@data/values\n---\n{doc}");
    let overlay = "#@overlay/match by=overlay.all, expects=\"1+\"\n---\n#@overlay/match missing_ok=True\nextra: 1\n";
    let overlay = format!("#@ load(\"@ytt:overlay\", \"overlay\")\n{overlay}");
    let template =
        format!("#@ load(\"@ytt:data\", \"data\")\n---\n{doc}---\nfrom_values: #@ data.values\n");
    let rendered = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            run(&[
                ("values.yml", &values),
                ("t.yml", &template),
                ("overlay.yml", &overlay),
            ])
        })
        .expect("a thread")
        .join()
        .expect("no panic");
    assert_eq!(rendered.0.matches("v: 1").count(), 2);
    assert_eq!(rendered.0.matches("extra: 1").count(), 2);
}

/// Renders `files` with documents written ahead or not: the YAML of every output file,
/// and how many documents came with a text written ahead.
fn render_yaml(files: &[(&str, String)], write_ahead: bool) -> (String, usize) {
    let opts = RenderOptions {
        modules: ytt_stdlib::modules(),
        write_ahead,
        ..RenderOptions::default()
    };
    let rendered = render(opts, inputs(files)).expect("the run succeeds");
    let (mut yaml, mut written) = (String::new(), 0);
    for out in &rendered.outputs {
        if let OutputContent::Yaml(ds) = &out.content {
            yaml_docset(ds, &mut yaml);
            written += ds
                .docs
                .iter()
                .filter(|d| d.written.text().is_some())
                .count();
        }
    }
    (yaml, written)
}

/// A template of `n` documents of several shapes: nested maps and arrays, block and
/// quoted strings, an empty document (it leaves the set), documents from a function.
fn many_documents(n: usize) -> String {
    format!(
        "#@ load(\"@ytt:template\", \"template\")\n\
         #@ def pair(i):\n\
         ---\n\
         from_function: #@ i\n\
         ---\n\
         - #@ [i, {{'k': i}}]\n\
         #@ end\n\
         #@ for i in range({n}):\n\
         ---\n\
         name: #@ 'doc-' + str(i)\n\
         spec:\n  \
           text: #@ 'line one\\nline two' if i % 7 == 0 else \"'quoted' \" + str(i)\n  \
           items:\n  - a: #@ i\n    b: [1, 2]\n\
         #@ if i % 10 == 0:\n\
         --- #@ template.replace(pair(i))\n\
         #@ end\n\
         #@ if i % 13 == 0:\n\
         ---\n\
         #@ end\n\
         #@ end\n"
    )
}

#[test]
fn documents_written_ahead_are_the_documents_written_after() {
    let overlay = "#@ load(\"@ytt:overlay\", \"overlay\")\n\
                   #@overlay/match by=overlay.subset({\"name\": \"doc-3\"})\n\
                   ---\n\
                   name: edited\n"
        .to_owned();
    let library = "#@ load(\"@ytt:library\", \"library\")\n\
                   #@ load(\"@ytt:template\", \"template\")\n\
                   --- #@ template.replace(library.get(\"lib\").eval())\n\
                   ---\n\
                   last: true\n"
        .to_owned();
    let cases: Vec<Vec<(&str, String)>> = vec![
        vec![("t.yml", many_documents(300))],
        // too few to start a thread
        vec![("t.yml", many_documents(5))],
        // documents written ahead then changed by an overlay
        vec![("t.yml", many_documents(300)), ("z.yml", overlay)],
        // a plain file before, a text template between, a library's documents
        vec![
            ("a.yml", "plain: 1\n---\nplain: 2\n".to_owned()),
            ("b.txt", "(@= str(1) @)\n".to_owned()),
            ("c.yml", many_documents(100)),
            ("d.yml", library),
            ("_ytt_lib/lib/l.yml", many_documents(100)),
        ],
    ];
    for files in cases {
        let (after, none) = render_yaml(&files, false);
        let (ahead, written) = render_yaml(&files, true);
        assert_eq!(none, 0);
        assert_eq!(ahead, after, "{:?}", files[0].0);
        let many = files
            .iter()
            .any(|(_, t)| t.contains("range(100)") || t.contains("range(300)"));
        let edited = files.iter().any(|(n, _)| *n == "z.yml");
        // written ahead: the documents of large templates, unless an overlay came
        assert_eq!(written > 0, many && !edited, "{files:?}");
        assert_eq!(ahead.contains("name: edited\n"), edited);
        assert!(ahead.contains("from_function: 0\n") && ahead.contains("  text: |-\n"));
    }
}
