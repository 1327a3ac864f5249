//! Differential tests of `yaml::block_scanner` against saphyr-parser: the fast path
//! must produce saphyr's exact events and spans, or give up.

use saphyr_parser::Parser;

use super::*;
use crate::yaml::test_support::{corpus_yaml_files, Lcg};

type Events<'a> = Vec<(Event<'a>, Span)>;

fn saphyr(text: &str) -> Result<Events<'_>, String> {
    Parser::new_from_str(text)
        .map(|r| r.map_err(|e| e.to_string()))
        .collect()
}

fn fast(text: &str) -> Result<Events<'_>, Unsupported> {
    let mut s = BlockScanner::new(text);
    let mut out = Vec::new();
    while let Some(r) = s.next_event() {
        out.push(r?);
    }
    Ok(out)
}

fn show(evs: &Events) -> String {
    evs.iter()
        .map(|(e, s)| {
            format!(
                "{e:?} {}:{}:{}-{}:{}:{}\n",
                s.start.index(),
                s.start.line(),
                s.start.col(),
                s.end.index(),
                s.end.line(),
                s.end.col()
            )
        })
        .collect()
}

/// Whether the fast path was taken; panics if it disagrees with saphyr.
fn check(text: &str) -> bool {
    let Ok(got) = fast(text) else {
        return false;
    };
    match saphyr(text) {
        Ok(want) => {
            if got != want {
                panic!(
                    "events differ for {text:?}\n--- saphyr\n{}--- fast\n{}",
                    show(&want),
                    show(&got)
                );
            }
        }
        Err(e) => panic!("saphyr fails ({e}) but the fast path did not give up: {text:?}"),
    }
    true
}

fn fast_ok(cases: &[&str]) {
    for c in cases {
        assert!(check(c), "fast path gave up on {c:?}");
    }
}

fn gives_up(cases: &[&str]) {
    for c in cases {
        assert!(fast(c).is_err(), "fast path should give up on {c:?}");
        check(c);
    }
}

#[test]
fn streams_and_documents() {
    fast_ok(&[
        "",
        "\n",
        "\n\n   \n",
        "# only a comment",
        "# c1\n  # c2\n\n",
        "---",
        "---\n",
        "--- # c\n",
        "---   \n",
        "---\n---\n",
        "---\n---",
        "a: 1\n---\nb: 2\n",
        "a: 1\n---\nb: 2",
        "# head\n---\na: 1\n--- # two\n- x\n---\n",
        "a:\n---\n- \n---\n",
        "a: 1\n# tail\n",
        "a: 1\n# tail",
        "a: 1   ",
        "- x\n\n\n",
    ]);
}

#[test]
fn mappings() {
    fast_ok(&[
        "a: b",
        "a: b\n",
        "a: b\nc: d\n",
        "  a: b\n  c: d\n",
        "a:\n",
        "a:",
        "a:   ",
        "a: # c\n",
        "a:\nb:\n",
        "a:\n  b:\n    c:\nd: 1\n",
        "a:\n  b: 1\n  c:\n    d: 2\ne: 3\n",
        "a:\n b: 1\n",
        "a:\n    b: 1\n    c: 2\n",
        "a b: c d\n",
        "a   : b\n",
        "a:    b   \n",
        "key:value: x\n",
        "a: b:c\n",
        "a: b#c\n",
        "a: b #c\n",
        "a: b  # c\n",
        "url: http://example.com:8080/x?y=1#frag\n",
        "a::: b\n",
        "a:b:\n",
        "-a: -1\n",
        "?a: :b\n",
        ":a: ?b\n",
        "<<: x\n",
        "a: ~\nb: null\nc: true\nd: 1.5\n",
        "a: b,c]d}e\n",
        "a: it's \"quoted\" inside\n",
        "a: x*y &z !w |v >u\n",
        "---a: 1\n",
        "...a: 1\n",
        "a: ---\n",
        "a: ... \n",
        "a: #\n",
        "a:\n  # c\n  b: 1\n",
        "a:\n\n  b: 1\n\n\n",
        "a: 1\n  # indented comment\nb: 2\n",
        "a: 1\n        # deeply indented comment\n",
    ]);
}

#[test]
fn sequences() {
    fast_ok(&[
        "- a",
        "- a\n- b\n",
        "-\n",
        "-",
        "- ",
        "-   # c",
        "- # c\n- b\n",
        "-\n-\n",
        "- a\n-\n",
        "  - a\n  - b\n",
        "-   a\n-  b\n",
        "- a: 1\n  b: 2\n- c: 3\n",
        "-   a: 1\n    b: 2\n-  c:\n   d: 4\n",
        "- a:\n- b:\n  c:\n",
        "-\n  a: 1\n  b: 2\n-\n  - x\n",
        "-\n - x\n",
        "- a:\n    b: 1\n  c: 2\n",
        "- a:\n  - x\n  - y\n  b: 1\n",
        "- -1\n- -x\n- --\n",
        "- a#b\n- a #b\n",
    ]);
}

#[test]
fn indentless_sequences() {
    fast_ok(&[
        "a:\n- x\n- y\n",
        "a:\n- x\nb: 1\n",
        "a:\n- x\nb:\n- y\n",
        "a:\n-\n- y\n",
        "a:\n-\nb: 1\n",
        "a:\n- # c\nb: 1\n",
        "a:\n-   \n",
        "a:\n-",
        "a:\n- b: 1\n  c: 2\n- d: 3\ne: 4\n",
        "a:\n  b:\n  - x\nc: 1\n",
        "a:\n  b:\n  - x\n  c: 1\n",
        "a:\n  b:\n  - x\n",
        "a:\n-\n  b: 1\n",
        "a:\n-\n - x\n",
        "a:\n- x\n---\nb:\n- y",
        "- a:\n  - x\n- b\n",
    ]);
}

#[test]
fn comments_everywhere() {
    fast_ok(&[
        "# a\na: 1 # b\n# c\nb: # d\n  # e\n  c: 2 # f\n# g\n",
        "#@ load(\"x\", \"y\")\n#@ def f():\na: 1\n#@ end\n---\n#@overlay/match by=x\nb: #@ f()\n",
        "items:\n#@ for i in range(3):\n- #@ i\n#@ end\n",
        "- #@ x\n  a: 1\n",
        "a: 1 #\n",
        "a: 1 ##\n",
        "a: b # c: d\n",
        "a: b # - c\n",
    ]);
}

#[test]
fn non_ascii() {
    fast_ok(&[
        "ключ: значение\nb: 1\n",
        "a: é # ü\nb: 日本語\n",
        "- é\n- ü: ö\n  ä: x\n",
        "# ümlaut comment\na:\n- ß\nb: 1",
        "é:\n  ü: 1\n",
        "a: 😀😀 x\n---\nb: 1\n",
    ]);
}

/// NEL, LS and PS are line breaks for the reference (YAML 1.1): left to saphyr, whose
/// scanner is patched to read them so.
#[test]
fn gives_up_on_unicode_line_breaks() {
    gives_up(&[
        "a: x\u{85}y\n",
        "a: x\u{2028}y\n",
        "a: 1 # c\u{2029}b: 2\n",
        "- \u{2028}\n",
    ]);
}

#[test]
fn gives_up_outside_the_subset() {
    gives_up(&[
        "a: 'x'\n",
        "a: \"x\"\n",
        "a: [1, 2]\n",
        "a: {b: 1}\n",
        "a: &x 1\nb: *x\n",
        "a: !!str 1\n",
        "a: |\n  x\n",
        "a: >\n  x\n",
        "a: b: c\n",
        "a: b\n  c\n",
        "a: b # c\n  d\n",
        "- a\n  b\n",
        "a:\n  b\n",
        "scalar\n",
        "--- x\n",
        "---x: 1\n--- y\n",
        "...\n",
        "%YAML 1.2\n---\na: 1\n",
        "a:\tb\n",
        "a: b\r\n",
        "\u{feff}a: 1\n",
        "? a\n: b\n",
        "a: - x\n",
        "- - x\n",
        "a: @x\n",
        "a: `x\n",
        "a: ,x\n",
        "a:\nb\n",
        "a: 1\n- b\n",
        "- a\nb: 1\n",
        "  a: 1\nb: 2\n",
        "- a: 1\n b: 2\n",
        "a:\n  - x\n  b: 1\n",
        "a: 1\n  b: 2\n",
    ]);
}

#[test]
fn long_keys() {
    let long = "k".repeat(1500);
    let text = format!("{long}: 1\n");
    assert!(fast(&text).is_err());
    check(&text);
    let ok = format!("{}: 1\n", "k".repeat(900));
    assert!(check(&ok));
}

// ---------------------------------------------------------------------------------------
// Pseudo-random subset YAML
// ---------------------------------------------------------------------------------------

/// A test knob: the random tests are deterministic unless e.g. `GEN_SEED=7 GEN_N=100000`
/// asks for a longer soak.
fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).map_or(default, |v| v.parse().expect("a number"))
}

const WORDS: &[&str] = &[
    "a",
    "key",
    "name",
    "x y",
    "-1",
    "1.5",
    "true",
    "~",
    "null",
    "é",
    "日本",
    "http://h:1/p",
    "a#b",
    "a:b",
    "-x",
    ":x",
    "?x",
    "<<",
    "a,b",
    "a]b",
    "x'y",
    "x\"y",
    "---",
    "...",
    "a!b",
    "k-e_y",
    "0x1F",
    "a  b",
];
const NEAR_MISS: &[&str] = &[
    "'q'",
    "\"q\"",
    "[1]",
    "{a: 1}",
    "&a x",
    "*a",
    "!t x",
    "|",
    ">",
    "a: b",
    "- x",
    "? x",
    "@x",
    "`x",
    "%x",
    ",x",
    "x\ty",
    "#x",
    "-",
    "?",
    ":",
    "x:",
    "\u{feff}x",
];

fn word(r: &mut Lcg) -> String {
    if r.chance(3) {
        return r.pick(NEAR_MISS).to_owned();
    }
    r.pick(WORDS).to_owned()
}

fn comment(r: &mut Lcg) -> String {
    if r.chance(15) {
        format!(" #{}", r.pick(&["", " c", "@ x", "# y", " a: b", " - z"]))
    } else {
        String::new()
    }
}

fn spaces(r: &mut Lcg) -> &'static str {
    r.pick(&["", "", "", " ", "  "])
}

/// Random lines of a node at `indent`; `depth` bounds the nesting.
fn gen_node(
    r: &mut Lcg,
    out: &mut Vec<String>,
    indent: usize,
    depth: usize,
    first: Option<String>,
) {
    let pad = " ".repeat(indent);
    let is_map = r.chance(60);
    let n = 1 + r.below(4);
    let mut prefix = first;
    for _ in 0..n {
        if r.chance(10) {
            out.push(format!(
                "{}#{}",
                " ".repeat(r.below(indent + 3)),
                r.pick(&["", " c", "@ x"])
            ));
        }
        if r.chance(8) {
            out.push(" ".repeat(r.below(4)));
        }
        let lead = prefix.take().unwrap_or_else(|| pad.clone());
        let nested = depth > 0 && r.chance(35);
        if is_map {
            let key = word(r);
            if nested {
                out.push(format!("{lead}{key}:{}{}", spaces(r), comment(r)));
                let step = if r.chance(30) { 0 } else { 1 + r.below(3) };
                if step == 0 {
                    // an indentless sequence
                    gen_seq(r, out, indent, depth - 1);
                } else {
                    gen_node(r, out, indent + step, depth - 1, None);
                }
            } else if r.chance(15) {
                out.push(format!("{lead}{key}:{}{}", spaces(r), comment(r)));
            } else {
                out.push(format!(
                    "{lead}{key}: {}{}{}",
                    word(r),
                    spaces(r),
                    comment(r)
                ));
            }
        } else if nested && r.chance(50) {
            // `- key: value` with more keys below
            let step = 1 + r.below(3);
            let first = format!("{lead}-{}", " ".repeat(step));
            gen_map_at(r, out, indent + 1 + step, depth - 1, first);
        } else if nested {
            out.push(format!("{lead}-{}{}", spaces(r), comment(r)));
            let at = indent + 1 + r.below(3);
            gen_node(r, out, at, depth - 1, None);
        } else if r.chance(15) {
            out.push(format!("{lead}-{}{}", spaces(r), comment(r)));
        } else {
            out.push(format!("{lead}- {}{}{}", word(r), spaces(r), comment(r)));
        }
    }
}

fn gen_seq(r: &mut Lcg, out: &mut Vec<String>, indent: usize, depth: usize) {
    let pad = " ".repeat(indent);
    for _ in 0..1 + r.below(3) {
        if depth > 0 && r.chance(30) {
            let first = format!("{pad}- ");
            gen_map_at(r, out, indent + 2, depth - 1, first);
        } else {
            out.push(format!("{pad}- {}{}", word(r), comment(r)));
        }
    }
}

/// A mapping whose first line starts with `first` (e.g. `- `).
fn gen_map_at(r: &mut Lcg, out: &mut Vec<String>, indent: usize, depth: usize, first: String) {
    let pad = " ".repeat(indent);
    for i in 0..1 + r.below(3) {
        let lead = if i == 0 { first.clone() } else { pad.clone() };
        let key = word(r);
        if depth > 0 && r.chance(30) {
            out.push(format!("{lead}{key}:{}", comment(r)));
            let at = indent + 1 + r.below(2);
            gen_node(r, out, at, depth - 1, None);
        } else {
            out.push(format!("{lead}{key}: {}{}", word(r), comment(r)));
        }
    }
}

fn gen_stream(r: &mut Lcg) -> String {
    let mut out = Vec::new();
    let docs = 1 + r.below(3);
    for d in 0..docs {
        if d > 0 || r.chance(30) {
            out.push(format!("---{}", comment(r)));
        }
        if r.chance(10) {
            continue; // empty document
        }
        let at = if r.chance(10) { 2 } else { 0 };
        gen_node(r, &mut out, at, 3, None);
    }
    // near-miss structure: re-indent, drop or duplicate a line
    if r.chance(25) && !out.is_empty() {
        let i = r.below(out.len());
        match r.below(3) {
            0 => out[i].insert(0, ' '),
            1 => {
                out.remove(i);
            }
            _ => {
                let l = out[i].trim_start().to_owned();
                out[i] = l;
            }
        }
    }
    let mut s = out.join("\n");
    if r.chance(80) {
        s.push('\n');
    }
    s
}

#[test]
fn random_subset_yaml_matches_saphyr() {
    let mut r = Lcg(env_or("GEN_SEED", 0x5eed));
    let total = env_or("GEN_N", 4000) as usize;
    let mut taken = 0;
    for _ in 0..total {
        let text = gen_stream(&mut r);
        if check(&text) {
            taken += 1;
        }
    }
    // near misses give up, but most inputs are in the subset
    eprintln!("random: fast path taken for {taken} of {total}");
    assert!(
        taken > total / 3,
        "fast path taken for only {taken} of {total}"
    );
}

// ---------------------------------------------------------------------------------------
// Real files
// ---------------------------------------------------------------------------------------

#[test]
fn corpus_files_match_saphyr() {
    let (files, with_corpus) = corpus_yaml_files("corpus_files_match_saphyr");
    let mut taken = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        if check(&text) {
            taken += 1;
        }
    }
    eprintln!("fast path taken for {taken} of {} files", files.len());
    if with_corpus {
        assert!(taken > 100, "fast path taken for only {taken} files");
    }
}

/// One to eight of `lines`, each at one of `indents` (sometimes with a trailing space),
/// mostly ending in a line break.
fn line_soup(r: &mut Lcg, lines: &[&str], indents: &[usize]) -> String {
    let n = 1 + r.below(8);
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let indent = indents[r.below(indents.len())];
        let mut l = format!("{}{}", " ".repeat(indent), r.pick(lines));
        if r.chance(5) {
            l.push(' ');
        }
        out.push(l);
    }
    let mut text = out.join("\n");
    if r.chance(70) {
        text.push('\n');
    }
    text
}

/// Lines of the subset at random indents, mostly not well-formed: whatever saphyr
/// makes of them (or rejects), the fast path must agree or give up.
#[test]
fn random_line_soup_matches_saphyr() {
    const LINES: &[&str] = &[
        "k: v", "k:", "k: # c", "- v", "-", "- # c", "- k: v", "- k:", "-  k: v", "# c", "", "---",
        "--- # c", "v", "k: v # c", "k v: w x", "- - v", "k: a: b", "k:v", "? k", ": v", "k: 'v'",
        "-x: -y", "é: ü", "  ", "#", "- é", "k:  ", "-   k:", "- -x", "--- v", "...", "k: #c",
        "k : v", "ab", "- ab",
    ];
    let mut r = Lcg(env_or("SOUP_SEED", 42));
    let total = env_or("SOUP_N", 20000) as usize;
    let mut taken = 0;
    for _ in 0..total {
        let text = line_soup(&mut r, LINES, &[0, 0, 0, 1, 2, 2, 3, 4]);
        if check(&text) {
            taken += 1;
        }
    }
    eprintln!("line soup: fast path taken for {taken} of {total}");
    assert!(
        taken > total / 10,
        "fast path taken for only {taken} of {total}"
    );
}

// ---------------------------------------------------------------------------------------
// The vendored saphyr's fast paths (vendor/saphyr-parser/PATCHES.md): a `&str` input takes
// runs of a plain scalar, indentation and block-scalar lines at once; an input of chars
// has no fast path and goes one character at a time, as upstream did. Both must give the
// same events, spans and errors.
// ---------------------------------------------------------------------------------------

/// Events and spans as text: an input of chars yields owned events, a `&str` borrowed ones.
fn saphyr_by_chars(text: &str) -> Result<Vec<String>, String> {
    Parser::new_from_iter(text.chars())
        .map(|r| {
            r.map(|(e, s)| format!("{e:?} {s:?}"))
                .map_err(|e| e.to_string())
        })
        .collect()
}

fn same_with_and_without_fast_paths(text: &str) {
    let fast: Result<Vec<String>, String> =
        saphyr(text).map(|evs| evs.iter().map(|(e, s)| format!("{e:?} {s:?}")).collect());
    assert_eq!(fast, saphyr_by_chars(text), "for {text:?}");
}

#[test]
fn saphyr_fast_paths_agree_with_char_by_char_on_edge_cases() {
    for text in [
        "k: a plain scalar with words\n",
        "k: words then  two spaces and\ttab\n",
        "k: a # comment\n",
        "k: a#b c #d\n",
        "k: a :b c\n",
        "a b : c\n",
        "k: url http://h:1/p and: more\n",
        "k: ends with space \n",
        "k: first line\n  folded   line\n\n  after blank\n",
        "k: first\n\tline with tab\n",
        "k: é and 日本 words\n",
        "k: a\u{2028}b\n",
        "k: a\u{85}b\n",
        "- [a b, c d, -e, 'x y']\n",
        "- {a b: c d, e: [f g]}\n",
        "k: [a -, b]\n",
        "k: |\n  line one\n   indented more\n\n  é line\n",
        "k: >\n  folded\n  text\n\n  kept\n",
        "k: |2\n    two extra\n  base\n",
        "k: |-\n  a\u{2028}  b\n",
        "k: |\n  line\n#c\n",
        "k: |\n  tab\there\n",
        "k: '  quoted  '\n",
        "---\nk: a\n--- b c\n...\n",
        "k: a\n  b:\n",
        "k: a\n b: c\n",
        "k:\n  - a b\n  -  c  d\n",
        &format!("k: {}\n", "word ".repeat(200)),
        &format!("k: |\n{}", "  x\n".repeat(300)),
    ] {
        same_with_and_without_fast_paths(text);
    }
}

#[test]
fn saphyr_fast_paths_agree_with_char_by_char_on_corpus_files() {
    let (files, with_corpus) =
        corpus_yaml_files("saphyr_fast_paths_agree_with_char_by_char_on_corpus_files");
    assert!(!with_corpus || files.len() > 100, "{} files", files.len());
    for f in &files {
        if let Ok(text) = std::fs::read_to_string(f) {
            same_with_and_without_fast_paths(&text);
        }
    }
}

/// Lines of plain, block and flow scalars at random indents, well-formed or not.
#[test]
fn saphyr_fast_paths_agree_with_char_by_char_on_random_lines() {
    const LINES: &[&str] = &[
        "k: a b c",
        "k: a  b",
        "k: a #c",
        "k: a:b c",
        "k: a : b",
        "  more words",
        "\tx",
        "k: |",
        "k: >-",
        "k: |2",
        "  block line",
        "    deeper",
        "",
        "- a b",
        "- [a b, c]",
        "- {a: b c}",
        "k: é ü",
        "k: 'q r'",
        "k: \"d e\"",
        "---",
        "... ",
        "#c",
        "k: a\u{2028}b",
        "  - x y",
        "k:",
        "k: [a,",
        "  b c]",
    ];
    let mut r = Lcg(env_or("SAPHYR_SEED", 7));
    for _ in 0..env_or("SAPHYR_N", 20000) {
        same_with_and_without_fast_paths(&line_soup(&mut r, LINES, &[0, 0, 1, 2, 2, 3, 4, 6]));
    }
}
