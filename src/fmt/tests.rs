use super::format_text;
use crate::yaml::parser::ParseOptions;

fn fmt(src: &str) -> String {
    format_text(src, &ParseOptions::default()).expect("parses")
}

#[track_caller]
fn check(src: &str, want: &str) {
    let got = fmt(src);
    assert_eq!(
        got, want,
        "\n--- input\n{src}--- got\n{got}--- want\n{want}"
    );
    assert_eq!(fmt(&got), got, "not a fixed point:\n{got}");
}

// ---- layout

#[test]
fn indents_two_spaces_and_sequences_under_their_key() {
    check(
        "a:\n    b:\n        - 1\n        - 2\nc:\n- k: 1\n  l:\n  - z\n",
        "a:\n  b:\n    - 1\n    - 2\nc:\n  - k: 1\n    l:\n      - z\n",
    );
}

#[test]
fn collections_in_an_array_item_start_on_its_dash_line() {
    check(
        "-\n  - a\n  - b\n-\n  k: v\n  l: w\n",
        "- - a\n  - b\n- k: v\n  l: w\n",
    );
}

#[test]
fn flow_collections_become_block_style() {
    check(
        "m: {a: 1, b: [x, {c: d}]}\nl: [1, [2, 3]]\n",
        "m:\n  a: 1\n  b:\n    - x\n    - c: d\nl:\n  - 1\n  - - 2\n    - 3\n",
    );
}

#[test]
fn anchors_aliases_and_merge_keys_are_expanded() {
    check(
        "base: &b {k: 1}\nuse: *b\nmerged:\n  <<: *b\n  l: 2\n",
        "base:\n  k: 1\nuse:\n  k: 1\nmerged:\n  k: 1\n  l: 2\n",
    );
}

#[test]
fn key_order_and_repeated_keys_are_kept() {
    check(
        "z: 1\na: 2\nbase: &b {k: 1}\nm:\n  <<: *b\n  k: 2\n",
        "z: 1\na: 2\nbase:\n  k: 1\nm:\n  k: 1\n  k: 2\n",
    );
}

#[test]
fn scalars_are_written_as_the_yaml_output_writes_them() {
    check(
        "a: 'single'\nb: \"x\\ny\"\nc: On\nd: 0x1F\ne: \"123\"\nf: 2024-03-01\ng: ~\n",
        "a: single\nb: |-\n  x\n  y\nc: true\nd: 31\ne: \"123\"\nf: \"2024-03-01\"\ng: null\n",
    );
}

#[test]
fn block_scalar_lines_are_indented_under_their_item_blank_ones_too() {
    check(
        "l:\n- |\n    one\n\n    two\n",
        "l:\n  - |\n    one\n  \n    two\n",
    );
}

#[test]
fn multi_line_plain_scalars_are_joined() {
    check("a: first\n  second\n", "a: first second\n");
}

// ---- comments and blank lines

#[test]
fn own_line_comments_stay_above_their_item_at_its_indentation() {
    check(
        "a:\n      # about b\n      b: 1\nl:\n#@overlay/match by=\"name\"\n- x\n",
        "a:\n  # about b\n  b: 1\n\nl:\n  #@overlay/match by=\"name\"\n  - x\n",
    );
}

#[test]
fn trailing_comments_follow_the_value_after_one_space() {
    check(
        "a: 1     # one\nb:    # two\n  c: 3\nl: # three\n- x   # four\n",
        "a: 1 # one\nb: # two\n  c: 3\nl: # three\n  - x # four\n",
    );
}

#[test]
fn blank_lines_are_dropped_except_around_commented_items() {
    check(
        "a: 1\n\n\nb: 2\n\n# about c\nc: 3\nd: 4\ne: 5\n",
        "a: 1\nb: 2\n\n# about c\nc: 3\n\nd: 4\ne: 5\n",
    );
}

#[test]
fn the_first_item_of_a_collection_gets_no_blank_line() {
    check(
        "m:\n  # first\n  a: 1\nl:\n  # first\n  - x\n",
        "m:\n  # first\n  a: 1\n\nl:\n  # first\n  - x\n",
    );
}

#[test]
fn the_blank_line_after_a_commented_item_comes_after_its_last_nested_line() {
    check(
        "outer:\n  #@ c\n  inner:\n    k: 1\n    l: 2\nnext: 1\nthen: 2\n",
        "outer:\n  #@ c\n  inner:\n    k: 1\n    l: 2\n\nnext: 1\nthen: 2\n",
    );
}

#[test]
fn an_array_item_whose_first_item_is_commented_breaks_after_the_dash() {
    check(
        "l:\n-\n  #@ c\n  k: v\n- # t\n  k: v\n",
        "l:\n  -\n    #@ c\n    k: v\n\n  - # t\n    k: v\n",
    );
}

#[test]
fn a_trailing_comment_on_a_block_scalar_stays_on_its_header_line() {
    check("a: |  # c\n  x\n  y\n", "a: | # c\n  x\n  y\n");
}

#[test]
fn no_blank_line_is_put_into_a_keep_chomped_block_scalar() {
    // the blank line before `# c` would become part of `a`'s value
    check("a: |+\n  x\n\n# c\nb: 1\n", "a: |+\n  x\n\n# c\nb: 1\n");
}

// ---- nulls and empty collections (the reference's losses)

#[test]
fn null_is_written_unless_a_trailing_comment_stands_for_the_value() {
    check(
        "a:\nb: ~\nc: #@ expr\nl:\n-\n- #@ x\n",
        "a: null\nb: null\nc: #@ expr\nl:\n  - null\n  - #@ x\n",
    );
}

#[test]
fn empty_collections_print_nothing() {
    let got = fmt("a: []\nb: {}\nl:\n- []\n");
    assert_eq!(got, "a:\nb:\nl:\n  -\n");
}

#[test]
fn keys_are_written_with_gos_percent_s() {
    // `y` is a YAML 1.1 boolean, like `on`
    let got = fmt("\"on\": 1\n0755: 2\ny: 3\n1.5: 4\n~: 5\n18446744073709551615: 6\n");
    assert_eq!(
        got,
        "on: 1\n%!s(int=493): 2\n%!s(bool=true): 3\n%!s(float64=1.5): 4\n%!s(<nil>): 5\n\
         %!s(uint64=18446744073709551615): 6\n"
    );
}

// ---- documents

#[test]
fn a_file_starting_with_content_has_no_leading_marker() {
    check("a: 1\n---\nb: 2\n", "a: 1\n---\nb: 2\n");
}

#[test]
fn a_file_starting_with_a_marker_drops_it() {
    check("---\na: 1\n---\nb: 2\n", "a: 1\n---\nb: 2\n");
}

#[test]
fn the_output_never_starts_with_a_bare_marker() {
    check("\n---\na: 1\n", "a: 1\n");
    check("--- {}\n---\na: 1\n---\nb: 2\n", "a: 1\n---\nb: 2\n");
}

#[test]
fn a_marker_after_comments_starts_the_second_document() {
    check("#@data/values\n---\na: 1\n", "\n#@data/values\n---\na: 1\n");
}

#[test]
fn documents_are_set_apart_only_around_comments() {
    check(
        "a: 1\n---\nb: 2\n# about c\n---\nc: 3\n---\nd: 4\n---\ne: 5\n",
        "a: 1\n---\nb: 2\n\n# about c\n---\nc: 3\n\n---\nd: 4\n---\ne: 5\n",
    );
}

#[test]
fn empty_and_null_documents_are_kept_as_bare_markers() {
    check(
        "a: 1\n--- {}\n--- []\n--- null\n---\nb: 2\n",
        "a: 1\n---\n---\n---\n---\nb: 2\n",
    );
}

#[test]
fn a_comment_after_a_marker_keeps_it() {
    check("--- #@ {}\n--- #@ x\n", "--- #@ {}\n--- #@ x\n");
}

#[test]
fn comments_after_the_last_node_end_the_output_as_a_document() {
    check("a:\n  b: 1\n  # after\n", "a:\n  b: 1\n\n# after\n---\n");
}

#[test]
fn scalar_documents() {
    check("--- 1\n--- \"x\\ny\"\n", "1\n---\n|-\n  x\n  y\n");
}

#[test]
fn an_empty_file_formats_to_nothing() {
    check("", "");
    check("\n\n", "");
}

#[test]
fn a_bad_file_is_an_error_with_its_line() {
    let err = format_text("a: 1\n b: 2\n", &ParseOptions::default()).unwrap_err();
    assert_eq!(err.line, Some(2), "{err}");
}
