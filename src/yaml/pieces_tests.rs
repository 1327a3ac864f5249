use std::sync::Arc;

use super::*;
use crate::yaml::parser::parse;
use crate::yaml::test_support::{corpus_yaml_files, Lcg};

fn name() -> Arc<str> {
    Arc::from("pieces.yml")
}

/// The join of `src` cut before every document start it may be cut at (`None` when a
/// piece failed or the join refused), and how many pieces there were.
fn piecewise(src: &str) -> (usize, Option<DocSet>) {
    let opts = ParseOptions::default();
    let ranges = cut(src, 1);
    let n = ranges.len();
    let pieces: Result<Vec<Piece>, _> = ranges
        .into_iter()
        .map(|r| parse_piece(src, r, &name(), &opts))
        .collect();
    (n, pieces.ok().and_then(join))
}

/// Whenever the pieces join, they give what one parse gives. Returns whether they joined.
fn agrees(src: &str) -> bool {
    let (n, joined) = piecewise(src);
    let Some(joined) = joined else {
        return false;
    };
    match parse(src, &name(), &ParseOptions::default()) {
        Ok(whole) => assert_eq!(
            format!("{joined:?}"),
            format!("{whole:?}"),
            "{n} pieces of {src:?}"
        ),
        Err(e) => panic!("{n} pieces of {src:?} joined; one parse fails: {e}"),
    }
    n > 1
}

#[test]
fn pieces_join_into_what_one_parse_gives() {
    for src in [
        "a: 1\n---\nb: 2\n",
        "a: 1\n# c1\n\n# c2\n---\nb: 2 # t\n# end\n",
        "---\n---\na: 1\n---\n",
        "a: 1\r\n---\r\nb: [1, 2]\r\n--- # x\r\nc: 'q'\r\n",
        "a: |\n  x\n---\t\nb: >\n  y\n\n--- z\n--- 'q'\n",
        "- 1\n...\n---\n- 2\n...\n",
        "a: 1 # trailing\n--- #doc\n# own\nb:\n  - x # t\n  # after\n",
        "a: &x 1\n---\nb: &x 2\nc: *x\n",
        // a piece without a document: its comments belong to the next one
        "# c\n---\na: 1\n",
        "# c\n#@ x\n---\n# d\n--- # e\na: 1\n",
        // a kept block scalar ends where the next document starts (found by fuzz/)
        "taluetalues\n---\ntls:\n  crt: |+#@es-schemaIoles\n---\ntls:\n  crt: |+#@ester\n",
        "a: |+\n  x\n\n\n---\nb: >-\n\n---\nc: 1\n",
    ] {
        assert!(agrees(src), "{src:?} was not cut and joined");
    }
}

#[test]
fn pieces_take_the_line_numbers_and_comments_of_the_whole_text() {
    let src = "a: 1\n# for b\n---\nb: 2\n";
    let (n, joined) = piecewise(src);
    let ds = joined.expect("joined");
    assert_eq!(n, 2);
    assert_eq!(ds.docs[1].meta.pos.line, 3);
    let Node::Map(m) = &ds.docs[1].value else {
        panic!("{:?}", ds.docs[1].value)
    };
    assert_eq!(m.items[0].meta.pos.line, 4);
    assert_eq!(ds.docs[1].meta.comments[0].text, " for b");
    assert_eq!(ds.docs[1].meta.comments[0].line, 2);
}

#[test]
fn pieces_refuse_what_only_one_parse_can_decide() {
    // a root block scalar at indentation 0 takes the `---` line in (one document)
    let src = "--- |\nx\n---\nb: 1\n";
    assert_eq!(
        parse(src, &name(), &ParseOptions::default())
            .unwrap()
            .docs
            .len(),
        1
    );
    assert_eq!(piecewise(src), (2, None));
    // a scalar or a flow collection across a document start fails in its piece
    assert_eq!(piecewise("a: \"x\n---\ny\"\n"), (2, None));
    assert_eq!(piecewise("a: [1,\n---\n2]\n"), (2, None));
    // an alias of an anchor in an earlier piece
    assert!(!agrees("a: &x 1\n---\nb: *x\n"));
}

#[test]
fn texts_whose_lines_saphyr_counts_otherwise_are_not_cut() {
    for src in [
        "a: 1\r---\rb: 2\r",
        "a: 1\n...\n%YAML 1.2\n---\nb: 2\n",
        "%YAML 1.2\n---\na: 1\n---\nb: 2\n",
        "a: \"\u{2028}\"\n---\nb: 2\n",
        "a: \"\u{85}\"\n---\nb: 2\n",
        "\u{feff}a: 1\n---\nb: 2\n",
    ] {
        assert_eq!(cut(src, 1).len(), 1, "{src:?}");
    }
    // not document starts
    assert_eq!(cut("a: 1\n----\nb: 2\n", 1).len(), 1);
    assert_eq!(cut("a: 1\n ---\nb: 2\n", 1).len(), 1);
    assert_eq!(cut("a: 1\n---x\nb: 2\n", 1).len(), 1);
}

#[test]
fn pieces_are_about_the_size_asked_for() {
    let doc = "k: v\n".repeat(20);
    let src = format!("{doc}---\n").repeat(100);
    let ranges = cut(&src, src.len() / 4);
    assert_eq!(ranges.len(), 4);
    assert!(ranges
        .iter()
        .all(|r| src[r.clone()].len() >= src.len() / 4 - doc.len()));
    assert_eq!(ranges.first().unwrap().start, 0);
    assert_eq!(ranges.last().unwrap().end, src.len());
    // the last piece is not left smaller than half the size asked for
    assert_eq!(cut(&src, src.len() / 2 - 2).len(), 2);
    assert_eq!(cut(&src, src.len() / 2 + 1).len(), 1);
    assert!(agrees(&src));
}

#[test]
fn corpus_files_cut_everywhere_join_as_one_parse() {
    let files = corpus_yaml_files();
    assert!(files.len() > 100, "{} files", files.len());
    let mut joined = 0;
    for f in &files {
        if let Ok(text) = std::fs::read_to_string(f) {
            joined += usize::from(agrees(&text));
        }
    }
    eprintln!("{joined} of {} files cut and joined", files.len());
    assert!(joined > 50, "only {joined} files were cut and joined");
}

/// Streams of documents of every shape, with now and then a line that opens or closes a
/// construct a document start may meet.
#[test]
fn random_streams_cut_everywhere_join_as_one_parse() {
    const HEADS: &[&str] = &["---", "--- # c", "# c\n---", "#@ x\n---\n# d", "...\n---"];
    const MAP: &[&str] = &[
        "a: 1",
        "b: |",
        "  block",
        "",
        "h: >",
        "  folded",
        "e: &a 1",
        "f: *a",
        "# c",
        "k:",
        "  - x # t",
        "  # own",
        "m: {x: 1}",
        "n: 'q'",
    ];
    const SEQ: &[&str] = &["- y", "- a: 1", "  b: 2", "# c", "-", "- - z", "- |", "  s"];
    const ROOTS: &[&str] = &[
        "--- x",
        "--- 'q'",
        "--- [1, 2]",
        "--- |\n  x",
        "--- >\n y\n",
    ];
    const OPENERS: &[&str] = &[
        "--- |",
        "--- >-",
        "--- 'q",
        "--- [1,",
        "c: \"q",
        "q\"",
        "d: [1,",
        "2]",
        "x",
        "g: 'it''s",
        "  more'",
        "\tt: 1",
        "|",
        "z",
    ];
    let mut r = Lcg(0x9e37);
    let mut cut_and_joined = 0;
    for _ in 0..4000 {
        let mut src: Vec<&str> = Vec::new();
        for d in 0..1 + r.below(5) {
            match r.below(4) {
                0 => src.push(r.pick(ROOTS)),
                k => {
                    if d > 0 || r.chance(50) {
                        src.push(r.pick(HEADS));
                    }
                    let body = if k == 1 { SEQ } else { MAP };
                    for _ in 0..r.below(5) {
                        src.push(r.pick(body));
                    }
                }
            }
        }
        if r.chance(20) {
            let at = r.below(src.len() + 1);
            src.insert(at, r.pick(OPENERS));
        }
        if r.chance(50) {
            src.push("");
        }
        cut_and_joined += usize::from(agrees(&src.join("\n")));
    }
    assert!(cut_and_joined > 500, "only {cut_and_joined} streams joined");
}
