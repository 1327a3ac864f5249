use super::*;
use crate::yaml::parser::{parse, parse_keeping};
use crate::yaml::test_support::{corpus_yaml_files, Lcg};

/// The file of every position here (no run: a table of its own).
fn name() -> FileId {
    crate::yaml::FileNames::default().id("pieces.yml")
}

/// The join of `src` cut before every document start it may be cut at (`None` when a
/// piece failed or the join refused), and how many pieces there were.
fn piecewise(src: &str) -> (usize, Option<DocSet>) {
    let opts = ParseOptions::default();
    let cuts = cut(src, 1);
    let n = cuts.len();
    let pieces: Result<Vec<Piece>, _> = cuts
        .iter()
        .map(|c| parse_piece(src, c, name(), &opts))
        .collect();
    (n, pieces.ok().and_then(join))
}

/// What [`Keep::Shapes`] keeps of a parse: every document's meta, and `true` for a value.
fn shapes_of(mut ds: DocSet) -> DocSet {
    for d in &mut ds.docs {
        if !d.value.is_null() {
            d.value = Node::Bool(true);
        }
    }
    ds
}

/// A parse keeping shapes gives the shapes of a parse keeping trees, or the same error;
/// cut into pieces, the shapes join as the whole text's whenever the pieces join.
fn shapes_agree(src: &str) {
    let opts = ParseOptions::default();
    let trees = parse_keeping(src, name(), &opts, Keep::Trees);
    let shapes = parse_keeping(src, name(), &opts, Keep::Shapes);
    match (trees, shapes) {
        (Ok(t), Ok(s)) => assert_eq!(format!("{:?}", shapes_of(t)), format!("{s:?}"), "{src:?}"),
        (Err(a), Err(b)) => assert_eq!(
            (a.message, a.line, a.column),
            (b.message, b.line, b.column),
            "{src:?}"
        ),
        (t, s) => panic!("{src:?}: trees {t:?}, shapes {s:?}"),
    }
    let pieces: Result<Vec<Piece>, _> = cut(src, 1)
        .iter()
        .map(|c| parse_piece_keeping(src, c, name(), &opts, Keep::Shapes))
        .collect();
    if let Some(joined) = pieces.ok().and_then(join) {
        let whole = parse(src, name(), &opts).expect("pieces joined: the text parses");
        assert_eq!(
            format!("{:?}", shapes_of(whole)),
            format!("{joined:?}"),
            "pieces of {src:?}"
        );
    }
}

#[test]
fn shapes_are_the_trees_without_their_values() {
    for src in [
        "",
        "# only a comment\n",
        "a: 1\n---\nb: [1, 2]\n--- # c\n# own\n'q'\n---\n",
        "a: &x {b: 1}\nc: *x\n---\n- 1\n- - 2\n",
        "a: |\n  x\n---\nb: >\n  y\n",
        "---\n~\n---\nnull\n--- |\n  text\n---\n",
        // a block scalar at the root takes the `---` after it in
        "--- |\n---\n  x\n---\na: 1\n",
        // errors: the same message, line and column
        "a: 1\n b: 2\n",
        "a: 'open\n---\nb: 1\n",
        "a: [1, 2\n---\nb: 1\n",
        "a:\n\t- 1\n",
        "a: *missing\n",
        "a: !!int x\n",
        "a: 1\nb\n",
        "- 1\n---\n- 2\nx: 1\n",
    ] {
        shapes_agree(src);
    }
    let (files, _) = corpus_yaml_files("shapes_are_the_trees_without_their_values");
    for f in &files {
        if let Ok(text) = std::fs::read_to_string(f) {
            shapes_agree(&text);
        }
    }
}

/// Whenever the pieces join, they give what one parse gives. Returns whether they joined.
fn agrees(src: &str) -> bool {
    let (n, joined) = piecewise(src);
    let Some(joined) = joined else {
        return false;
    };
    match parse(src, name(), &ParseOptions::default()) {
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
    // a root block scalar's content is indented (libyaml): at column 0 the whole text
    // fails, and the piece holding it
    let src = "--- |\nx\n---\nb: 1\n";
    assert_eq!(
        parse(src, name(), &ParseOptions::default())
            .unwrap_err()
            .message,
        "yaml: line 1: did not find expected <document start>"
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
    let cuts = cut(&src, src.len() / 4);
    assert_eq!(cuts.len(), 4);
    assert!(cuts
        .iter()
        .all(|c| src[c.range.clone()].len() >= src.len() / 4 - doc.len()));
    assert_eq!(cuts.first().unwrap().range.start, 0);
    assert_eq!(cuts.last().unwrap().range.end, src.len());
    // the last piece is not left smaller than half the size asked for
    assert_eq!(cut(&src, src.len() / 2 - 2).len(), 2);
    assert_eq!(cut(&src, src.len() / 2 + 1).len(), 1);
    assert!(agrees(&src));
}

#[test]
fn corpus_files_cut_everywhere_join_as_one_parse() {
    let (files, with_corpus) = corpus_yaml_files("corpus_files_cut_everywhere_join_as_one_parse");
    assert!(!with_corpus || files.len() > 100, "{} files", files.len());
    let mut joined = 0;
    for f in &files {
        if let Ok(text) = std::fs::read_to_string(f) {
            joined += usize::from(agrees(&text));
        }
    }
    eprintln!("{joined} of {} files cut and joined", files.len());
    assert!(
        !with_corpus || joined > 50,
        "only {joined} files were cut and joined"
    );
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

#[test]
fn long_lists_are_cut_before_their_items() {
    for src in [
        "k:\n- a\n- b\n- c\n",
        "- 1\n- 2\n- 3\n",
        "#@data/values\n---\nservices:\n- name: a\n  port: 1\n- name: b\n  labels:\n    x: y\n- name: c\n",
        // what an item holds ends where the next item starts, as at the end of the text
        "k:\n- a: |\n    text\n- b: |+\n    kept\n- c: >-\n    f\n- d\n",
        "k:\n- a: plain\n    more\n- - nested\n  - seq\n-\n- 'q'\n- \"r\"\n- [1, 2]\n- {x: 1}\n",
        // trailing comments stay with their line's item
        "k:\n- a # t\n- b: 1 # u\n  c: 2 # v\n- d\n",
        // own-line comments inside an item
        "k:\n- a:\n  # own\n    b: 1\n- c\n",
        // anchors used within a piece
        "k:\n- &x a\n- b\n- &y c\n",
        "a: 1\nk:\n- 1\n- 2\n---\nb:\n- 3\n- 4\n",
        "k:\r\n- a\r\n- b\r\n",
    ] {
        assert!(agrees(src), "{src:?} was not cut and joined");
    }
    // the items keep their line numbers
    let (n, joined) = piecewise("k:\n- a\n- b\n- c\n");
    assert_eq!(n, 3);
    let ds = joined.expect("joined");
    let Node::Map(m) = &ds.docs[0].value else {
        panic!("{:?}", ds.docs[0].value)
    };
    let Node::Array(a) = &m.items[0].value else {
        panic!("{:?}", m.items[0].value)
    };
    let lines: Vec<u32> = a.items.iter().map(|i| i.meta.pos.line).collect();
    assert_eq!(lines, [2, 3, 4]);
}

#[test]
fn lists_are_not_cut_where_one_parse_decides_otherwise() {
    // after a blank or a comment line (the comment is the next item's)
    assert_eq!(cut("k:\n- a\n\n- b\n# c\n- d\n", 1).len(), 1);
    assert_eq!(cut("k:\n- a\n  # c\n- b\n", 1).len(), 1);
    // the first item at column 0 starts the list: no cut before it
    assert_eq!(cut("k:\n- a\n", 1).len(), 1);
    // a key after the list: every cut of the list is dropped, a later list is cut
    let src = "k:\n- 1\n- 2\n- 3\nb: 1\nc:\n- 4\n- 5\n";
    assert_eq!(cut(src, 1).len(), 2);
    assert!(agrees(src));
    // items of a list at column 0 after a list indented under its key: one parse fails
    let src = "a:\n  - x\n- y\n- z\n";
    assert!(parse(src, name(), &ParseOptions::default()).is_err());
    assert_eq!(piecewise(src).1, None);
    // a list inside a root block scalar, inside a quoted scalar, in a flow collection
    for src in [
        "--- |\n- a\n- b\n- c\n",
        "k: \"x\n- a\n- b\"\n",
        "k: [\n- a,\n- b]\n",
        "k:\n- &x a\n- *x\n",
        // the first item at column 0 is in a quoted scalar of a list indented under `a`
        "a:\n  - \"x\n- y\"\n- z\n",
    ] {
        assert!(!agrees(src), "{src:?}");
    }
}

#[test]
fn an_item_nesting_to_the_limit_is_parsed_with_its_document() {
    // the piece nests one level less than the whole text: at the limit, refused
    let item = |depth: usize| format!("{}x", "- ".repeat(depth));
    let at_limit = format!("k:\n- 1\n- {}\n", item(MAX_DEPTH - 1));
    assert!(parse(&at_limit, name(), &ParseOptions::default()).is_err());
    assert_eq!(piecewise(&at_limit), (2, None));
    assert!(agrees(&format!("k:\n- 1\n- {}\n", item(MAX_DEPTH - 2))));
}

/// Lists at column 0 under root keys, items of every shape, now and then a line at
/// column 0 that ends the list or something left open across items.
#[test]
fn random_lists_cut_before_every_item_join_as_one_parse() {
    const ITEMS: &[&str] = &[
        "- a",
        "- b: 1\n  c: |\n    text\n  d: 2 # t",
        "- e: 1\n  # own\n  f: 2",
        "# own",
        "",
        "- - z\n  - w",
        "-",
        "- 'q'",
        "- [1, 2]",
        "- &a x",
        "- *a",
        "- g: >\n    folded",
        "- |+\n  kept\n",
        "- h: plain\n    more",
        "- \"multi\n  line\"",
    ];
    const BREAKERS: &[&str] = &[
        "x: 1", "---", "...", "- \"s", "  t\"", "- [1,", "  2]", "\t- h", "  - i", "k: |", "--- |",
    ];
    let mut r = Lcg(0x51ed);
    let mut cut_and_joined = 0;
    for _ in 0..3000 {
        let mut src: Vec<&str> = Vec::new();
        if r.chance(50) {
            src.push("k:");
        }
        for _ in 0..2 + r.below(12) {
            src.push(r.pick(ITEMS));
        }
        if r.chance(30) {
            let at = r.below(src.len() + 1);
            src.insert(at, r.pick(BREAKERS));
        }
        cut_and_joined += usize::from(agrees(&src.join("\n")));
    }
    assert!(cut_and_joined > 500, "only {cut_and_joined} lists joined");
}

#[test]
fn a_missing_text_is_left_to_the_serial_parse() {
    // (a file that could not be read as text): no pieces, and no empty document set
    let texts = [None, Some((Cow::Borrowed("a: 1\n---\nb: 2\n"), name()))];
    let got = parse_in_pieces(2, &texts, &[], false, &AliasBudget::default());
    assert!(got[0].is_none());
    assert_eq!(got[1].as_ref().map(|ds| ds.docs.len()), Some(2));
}
