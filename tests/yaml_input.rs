//! End-to-end tests of how YAML input is read: merge keys (`<<`, `!!merge <<`) in plain
//! files and in templates, `--strict`, flow collections closed at their key's column,
//! bytes that are not UTF-8, and the reference's YAML syntax error messages.

mod common;

use common::{tpl, trim_lines, Ytt};

// ---------------------------------------------------------------------------------------
// Merge keys
// ---------------------------------------------------------------------------------------

/// Anchored maps merged into nested maps and into the maps of an array.
const MERGES: &str = "defaults: &d\n\
                      \x20 image: app:1\n\
                      \x20 pull: Always\n\
                      \x20 limits: {cpu: 1}\n\
                      containers:\n\
                      - <<: *d\n\
                      \x20 name: one\n\
                      - name: two\n\
                      \x20 <<: *d\n\
                      \x20 pull: Never\n\
                      spec:\n\
                      \x20 template:\n\
                      \x20   <<: *d\n";

#[test]
fn plain_file_merges_in_place_and_a_repeated_key_keeps_the_first_place_with_the_last_value() {
    let out = tpl(MERGES, &[]);
    assert_eq!(
        out.ok(),
        "defaults:\n  image: app:1\n  pull: Always\n  limits:\n    cpu: 1\n\
         containers:\n\
         - image: app:1\n  pull: Always\n  limits:\n    cpu: 1\n  name: one\n\
         - name: two\n  image: app:1\n  pull: Never\n  limits:\n    cpu: 1\n\
         spec:\n  template:\n    image: app:1\n    pull: Always\n    limits:\n      cpu: 1\n"
    );
}

#[test]
fn plain_file_key_before_the_merge_is_overridden_by_the_merged_item() {
    // the merged items come later in the map, so theirs is the last value
    let out = tpl("a: &a {x: 1, w: 2}\nb:\n  w: 0\n  <<: *a\n  z: 3\n", &[]);
    assert_eq!(out.ok(), "a:\n  x: 1\n  w: 2\nb:\n  w: 2\n  x: 1\n  z: 3\n");
}

#[test]
fn template_merge_then_repeated_key_is_a_duplicate_key_error() {
    let src = format!("#@ x = 1\n{MERGES}");
    let out = tpl(&src, &[]);
    assert_eq!(
        trim_lines(out.err()),
        "ytt: Error:\n\
         - __ytt_tpl2_start_node: expected key 'pull' to not be specified again (unless 'yaml/map-key-override' annotation is added)\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:11 |   pull: Never\n"
    );
}

#[test]
fn template_merge_with_override_annotation_moves_the_key_to_its_own_place() {
    let src = "#@ x = 1\n\
               base: &b\n\
               \x20 name: web\n\
               \x20 image: nginx\n\
               list:\n\
               - <<: *b\n\
               \x20 #@yaml/map-key-override\n\
               \x20 name: web-2\n\
               - <<: *b\n\
               \x20 #@yaml/map-key-override\n\
               \x20 name: #@ \"web-\" + str(x + 2)\n\
               \x20 port: 80\n";
    let expected = "base:\n  name: web\n  image: nginx\n\
                    list:\n\
                    - image: nginx\n  name: web-2\n\
                    - image: nginx\n  name: web-3\n  port: 80\n";
    assert_eq!(tpl(src, &[]).ok(), expected);
    // the flag makes every repeated key an override
    let implicit = src.replace("  #@yaml/map-key-override\n", "");
    assert_eq!(
        tpl(&implicit, &["--implicit-map-key-overrides"]).ok(),
        expected
    );
}

#[test]
fn explicit_merge_tag_merges_like_the_plain_key() {
    let plain = "b: &b\n  x: 1\nm:\n  !!merge <<: *b\n  z: 3\nf: {!!merge <<: *b, w: 4}\n";
    assert_eq!(
        tpl(plain, &[]).ok(),
        "b:\n  x: 1\nm:\n  x: 1\n  z: 3\nf:\n  x: 1\n  w: 4\n"
    );
    let out = tpl(
        "#@ x = 1\nb: &b\n  x: 1\nm:\n  !!merge <<: *b\n  x: 2\n",
        &[],
    );
    assert!(
        out.err()
            .contains("expected key 'x' to not be specified again"),
        "{}",
        out.stderr
    );
    let out = tpl(
        "#@ x = 1\nb: &b\n  x: 1\nm:\n  !!merge <<: *b\n  x: 2\n",
        &["--implicit-map-key-overrides"],
    );
    assert_eq!(out.ok(), "b:\n  x: 1\nm:\n  x: 2\n");
}

#[test]
fn merges_in_data_values() {
    // a data-values template: a repeated key needs the annotation
    let values = "#@data/values\n\
                  ---\n\
                  base: &b {name: a, port: 1}\n\
                  svc:\n\
                  \x20 <<: *b\n\
                  \x20 #@yaml/map-key-override\n\
                  \x20 port: 2\n";
    let config = "#@ load(\"@ytt:data\", \"data\")\n\
                  svc: #@ data.values.svc\n";
    let y = Ytt::new()
        .file("values.yml", values)
        .file("config.yml", config);
    assert_eq!(
        y.run(&["-f", "values.yml", "-f", "config.yml"]).ok(),
        "svc:\n  name: a\n  port: 2\n"
    );
    let y = Ytt::new()
        .file(
            "values.yml",
            &values.replace("  #@yaml/map-key-override\n", ""),
        )
        .file("config.yml", config);
    let out = y.run(&["-f", "values.yml", "-f", "config.yml"]);
    assert!(
        out.err()
            .contains("expected key 'port' to not be specified again"),
        "{}",
        out.stderr
    );
    // a plain data-values file: first place, last value
    let y = Ytt::new()
        .file(
            "defaults.yml",
            "#@data/values\n---\nbase: {name: x, port: 0}\nsvc: {name: x, port: 0}\n",
        )
        .file(
            "plain.yml",
            "base: &b {name: a, port: 1}\nsvc:\n  <<: *b\n  port: 2\n",
        )
        .file("config.yml", config);
    let out = y.run(&[
        "-f",
        "defaults.yml",
        "-f",
        "config.yml",
        "--data-values-file",
        "plain.yml",
    ]);
    assert_eq!(out.ok(), "svc:\n  name: a\n  port: 2\n");
}

#[test]
fn merges_in_a_library_template() {
    let y = Ytt::new()
        .file(
            "_ytt_lib/lib/config.yml",
            "#@ x = 1\nb: &b {k: 1, j: 2}\nm:\n  <<: *b\n  #@yaml/map-key-override\n  k: 3\n",
        )
        .file(
            "config.yml",
            "#@ load(\"@ytt:library\", \"library\")\n\
             #@ load(\"@ytt:template\", \"template\")\n\
             --- #@ template.replace(library.get(\"lib\").eval())\n",
        );
    assert_eq!(
        y.run(&["-f", "."]).ok(),
        "b:\n  k: 1\n  j: 2\nm:\n  j: 2\n  k: 3\n"
    );
}

// ---------------------------------------------------------------------------------------
// --strict
// ---------------------------------------------------------------------------------------

#[test]
fn strict_reports_the_first_ambiguous_scalar_timestamps_included() {
    let out = tpl("data:\n  date: 2024-03-01\n  zip: 01234\n", &["--strict"]);
    assert_eq!(
        trim_lines(out.err()),
        "ytt: Error: Unmarshaling YAML template 'tpl.yml': yaml:\n  Strict parsing:\n    Found '2024-03-01' ambigious (could be !!str or !!timestamp)\n"
    );
    // quoted, it is a plain string
    let out = tpl("data:\n  date: \"2024-03-01\"\n", &["--strict"]);
    assert_eq!(out.ok(), "data:\n  date: \"2024-03-01\"\n");
    // the same rule in a data-values file given by flag
    let y = Ytt::new()
        .file(
            "config.yml",
            "#@ load(\"@ytt:data\", \"data\")\nd: #@ data.values.d\n",
        )
        .file("values.yml", "#@data/values\n---\nd: x\n")
        .file("dv.yml", "d: 2024-03-01\n");
    let out = y.run(&[
        "-f",
        "config.yml",
        "-f",
        "values.yml",
        "--data-values-file",
        "dv.yml",
        "--strict",
    ]);
    assert!(
        out.err()
            .contains("Found '2024-03-01' ambigious (could be !!str or !!timestamp)"),
        "{}",
        out.stderr
    );
}

// ---------------------------------------------------------------------------------------
// Flow collections closed in their key's column
// ---------------------------------------------------------------------------------------

#[test]
fn flow_collections_may_close_in_their_key_column() {
    let src = "#@ x = 1\n\
               containers:\n\
               - name: app\n\
               \x20 args: [\n\
               \x20   \"--a\",\n\
               \x20   \"--b\"\n\
               \x20 ]\n\
               \x20 env: {\n\
               \x20   MODE: \"fast\"\n\
               \x20 }\n\
               \x20 port: #@ x\n";
    let expected =
        "containers:\n- name: app\n  args:\n  - --a\n  - --b\n  env:\n    MODE: fast\n  port: 1\n";
    assert_eq!(tpl(src, &[]).ok(), expected);
    // a plain file, and an error below the patched lines keeps its line number
    assert_eq!(
        tpl("args: [\n  \"--a\"\n]\nk: 1\n", &[]).ok(),
        "args:\n- --a\nk: 1\n"
    );
    let out = tpl("args: [\n  \"--a\"\n]\nn: x: y\n", &[]);
    assert_eq!(
        trim_lines(out.err()),
        "ytt: Error: Unmarshaling YAML template 'tpl.yml': yaml: line 4: mapping values are not allowed in this context\n"
    );
    // in a data-values file
    let y = Ytt::new()
        .file("values.yml", "#@data/values\n---\nargs: [\n  \"--a\"\n]\n")
        .file(
            "config.yml",
            "#@ load(\"@ytt:data\", \"data\")\nargs: #@ data.values.args\n",
        );
    assert_eq!(
        y.run(&["-f", "values.yml", "-f", "config.yml"]).ok(),
        "args:\n- --a\n"
    );
}

// ---------------------------------------------------------------------------------------
// YAML syntax errors
// ---------------------------------------------------------------------------------------

#[test]
fn syntax_errors_have_the_reference_wording_and_line() {
    // more content after a quoted scalar: go-yaml's parser stops at it, one line up
    let out = tpl("#@ x = 1\nenv:\n  name: \"A\" \"B\"\n", &[]);
    assert_eq!(
        trim_lines(out.err()),
        "ytt: Error: Unmarshaling YAML template 'tpl.yml': yaml: line 2: did not find expected key\n"
    );
    // a tab in the indentation, in a plain file and in a template
    let out = tpl("spec:\n  replicas: 1\n\tselector: {}\n", &[]);
    assert_eq!(
        trim_lines(out.err()),
        "ytt: Error: Unmarshaling YAML template 'tpl.yml': yaml: line 3: found a tab character that violates indentation\n"
    );
    let out = tpl("#@ x = 1\nspec:\n\treplicas: #@ x\n", &[]);
    assert_eq!(
        trim_lines(out.err()),
        "ytt: Error: Unmarshaling YAML template 'tpl.yml': yaml: line 3: found character that cannot start any token\n"
    );
    // in a data-values file given by flag
    let y = Ytt::new()
        .file("config.yml", "a: 1\n")
        .file("dv.yml", "a: \"x\"\n\tb: 2\n");
    let out = y.run(&["-f", "config.yml", "--data-values-file", "dv.yml"]);
    assert!(
        out.err().contains(
            "Unmarshaling YAML data values file 'dv.yml': yaml: line 2: found character that cannot start any token"
        ),
        "{}",
        out.stderr
    );
    // a comment right after a quoted scalar is a comment (a plain one: an error in a
    // template, dropped in a plain file)
    assert_eq!(tpl("k: \"v\"#note\n", &[]).ok(), "k: v\n");
}

// ---------------------------------------------------------------------------------------
// Bytes that are not UTF-8
// ---------------------------------------------------------------------------------------

#[test]
fn text_templates_pass_non_utf8_bytes_through() {
    let y = Ytt::new()
        .file_bytes(
            "t.txt",
            b"(@ load(\"@ytt:data\", \"data\") @)caf\xe9 (@= \"x\" + data.read(\"raw.bin\") @) \xff\n",
        )
        .file_bytes("plain.txt", b"\xe9t\xe9\n")
        .file_bytes("raw.bin", b"\x80\x00y");
    let out = y.run(&[
        "-f",
        "t.txt",
        "-f",
        "plain.txt",
        "-f",
        "raw.bin",
        "--file-mark",
        "plain.txt:type=text-plain",
        "--output-files",
        "out",
    ]);
    out.ok();
    assert_eq!(y.read_bytes("out/t.txt"), b"caf\xe9 x\x80\x00y \xff\n");
    assert_eq!(y.read_bytes("out/plain.txt"), b"\xe9t\xe9\n");
}

#[test]
fn binary_data_keeps_its_bytes() {
    let bin: &[u8] = b"\x00\x01\x80\xfe\xffPNG";
    let config = "#@ load(\"@ytt:data\", \"data\")\n\
                  #@ load(\"@ytt:base64\", \"base64\")\n\
                  #@ load(\"@ytt:md5\", \"md5\")\n\
                  #@ load(\"@ytt:sha256\", \"sha256\")\n\
                  #@ b = data.read(\"img.bin\")\n\
                  raw: #@ b\n\
                  b64: #@ base64.encode(b)\n\
                  back: #@ base64.encode(base64.decode(base64.encode(b)))\n\
                  md5: #@ md5.sum(b)\n\
                  sha: #@ sha256.sum(b)\n\
                  utf8: #@ base64.decode(\"aMOpbGxv\")\n\
                  one: #@ base64.decode(\"gA==\")\n\
                  long: #@ b * 10\n";
    let y = Ytt::new()
        .file_bytes("img.bin", bin)
        .file("config.yml", config);
    let out = y.run(&["-f", "config.yml", "-f", "img.bin"]);
    // strings that are not UTF-8 are written as go-yaml writes them: !!binary base64,
    // in lines of 70 characters when longer
    assert_eq!(
        out.ok(),
        "raw: !!binary AAGA/v9QTkc=\n\
         b64: AAGA/v9QTkc=\n\
         back: AAGA/v9QTkc=\n\
         md5: 316cb940b0f3ed0f4970ff5e1ff0fadf\n\
         sha: 282cb6e8971a9c454cc6344dce99531498cae8495662bcd85c58b7e21633fec5\n\
         utf8: héllo\n\
         one: !!binary gA==\n\
         long: !!binary |\n\
         \x20 AAGA/v9QTkcAAYD+/1BORwABgP7/UE5HAAGA/v9QTkcAAYD+/1BORwABgP7/UE5HAAGA/v\n\
         \x20 9QTkcAAYD+/1BORwABgP7/UE5HAAGA/v9QTkc=\n"
    );
    // JSON replaces each byte that is not UTF-8 by \ufffd (Go's encoding/json)
    let out = y.run(&["-f", "config.yml", "-f", "img.bin", "-o", "json"]);
    assert!(
        out.ok().starts_with("{\"b64\":\"AAGA/v9QTkc=\",\"back\":\"AAGA/v9QTkc=\",\"long\":\"\\u0000\\u0001\\ufffd\\ufffd\\ufffdPNG"),
        "{}",
        out.stdout
    );
    // a !!binary input scalar round-trips
    let out = tpl("a: !!binary gA==\nb: !!binary aGVsbG8=\n", &[]);
    assert_eq!(out.ok(), "a: !!binary gA==\nb: hello\n");
}

#[test]
fn data_value_file_of_binary_content() {
    let y = Ytt::new()
        .file_bytes("img.bin", b"\x89PNG\r\n")
        .file("values.yml", "#@data/values\n---\nimg: \"\"\n")
        .file(
            "config.yml",
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:base64\", \"base64\")\n\
             img: #@ data.values.img\nb64: #@ base64.encode(data.values.img)\n",
        );
    let out = y.run(&[
        "-f",
        "values.yml",
        "-f",
        "config.yml",
        "--data-value-file",
        "img=img.bin",
    ]);
    assert_eq!(out.ok(), "img: !!binary iVBORw0K\nb64: iVBORw0K\n");
}

/// Many multi-line quoted scalars continued at their key's column (generated CRDs):
/// accepted as go-yaml accepts them, however many there are.
#[test]
fn many_quoted_scalars_continued_at_the_key_column() {
    let mut src = String::from("a:\n");
    for i in 0..200 {
        src.push_str(&format!(
            "  k{i}: 'line one\n  line two'\n  d{i}: \"x\n  y\"\n"
        ));
    }
    src.push_str("b: |\n  'not a scalar\nc: [\n  'x',\n  'y'\n]\n");
    let out = Ytt::new()
        .file("c.yml", &src)
        .run(&["-f", "c.yml", "-o", "json"]);
    let json = out.ok();
    assert!(json.contains(r#""k199":"line one line two""#), "{json}");
    assert!(json.contains(r#""d199":"x y""#), "{json}");
    assert!(json.contains(r#""b":"'not a scalar\n""#), "{json}");
    assert!(json.contains(r#""c":["x","y"]"#), "{json}");
}

// ---------------------------------------------------------------------------------------
// NEL, LS and PS
// ---------------------------------------------------------------------------------------

/// Rule: what ytt writes, it reads back. Strings holding LS (U+2028) and PS (U+2029) are
/// written as the reference writes them — single-quoted or as block scalars with the
/// character ending a line — and the reader takes them, like libyaml, as line breaks
/// kept in the content (fuzz finding, yaml target: `"z\n\LYY"` came back unreadable).
/// Shapes: a data value, a template's own scalar, an array item, a map key, a library's
/// data value, and the text read again through `--data-values-file`.
#[test]
fn strings_with_unicode_line_breaks_read_back_as_written() {
    let values = "#@data/values\n---\n\
                  a: \"z\\n\\LYY\"\n\
                  b: \"\\Lx\"\n\
                  c: \"a\\Pb\\n\"\n\
                  d: \"\\N \\L\"\n\
                  e: [\"x\\L\", \"\\P\"]\n";
    let y = Ytt::new()
        .file("values.yml", values)
        .file(
            "t.yml",
            "#@ load(\"@ytt:data\", \"data\")\n\
             #@ load(\"@ytt:library\", \"library\")\n\
             v: #@ data.values\n\
             own: \"1\\L  2\"\n\
             \"key\\Lwith\": 1\n\
             lib: #@ library.get(\"lib\").data_values()\n",
        )
        .file("_ytt_lib/lib/values.yml", values)
        .file("_ytt_lib/lib/t.yml", "x: 1\n");
    let files = ["-f", "."];
    let yaml = y.run(&files).ok().to_owned();
    let json = y.run(&[&files[..], &["-o", "json"]].concat());
    assert!(
        yaml.contains("b: '\u{2028}    x'") && yaml.contains("\n    z\n\u{2028}    YY\n"),
        "{yaml}"
    );
    let back = Ytt::new().file("out.yml", &yaml);
    assert_eq!(back.run(&["-f", "out.yml", "-o", "json"]).ok(), json.ok());
    // as a data values file
    let back = back.file(
        "t.yml",
        "#@ load(\"@ytt:data\", \"data\")\n--- #@ data.values\n",
    );
    let again = back.run(&["-f", "t.yml", "--data-values-file", "out.yml"]);
    assert_eq!(again.ok(), yaml);
}

// ---------------------------------------------------------------------------------------
// Files parsed in parallel (`workspace::compile::parse_yaml_files`): past 64 KiB of YAML
// the files of a run are parsed on every core, with the results and errors of a parse
// one after the other.
// ---------------------------------------------------------------------------------------

/// A file of about `kib` KiB: a document of `n`-numbered keys, with templated and plain
/// documents between.
fn large_file(n: usize, kib: usize) -> String {
    let mut s = format!("---\nfile: {n}\nitems:\n");
    let mut i = 0;
    while s.len() < kib << 10 {
        s.push_str(&format!("- {{name: item-{n}-{i}, value: \"{i}\"}}\n"));
        i += 1;
    }
    s.push_str(&format!(
        "--- #@ {{\"computed\": {n}}}\n---\nlast: |\n  of {n}\n"
    ));
    s
}

#[test]
fn large_files_render_in_order_as_one_after_the_other() {
    let sizes = [40, 3, 90, 0, 25, 60];
    let mut y = Ytt::new();
    let mut each = Vec::new();
    for (n, kib) in sizes.iter().enumerate() {
        let text = large_file(n, *kib);
        y = y.file(&format!("f{n}.yml"), &text);
        // each file alone: the output of a run whose input stays serial
        let alone = Ytt::new().file("one.yml", &text).run(&["-f", "one.yml"]);
        each.push(alone.ok().to_owned());
    }
    assert_eq!(y.run(&["-f", "."]).ok(), each.join("---\n"));
}

#[test]
fn the_first_bad_large_file_in_order_is_the_error() {
    let mut y = Ytt::new();
    for n in 0..6 {
        let mut text = large_file(n, 30);
        if n == 2 || n == 4 {
            text.push_str("bad: [\n");
        }
        y = y.file(&format!("f{n}.yml"), &text);
    }
    let out = y.run(&["-f", "."]);
    let err = out.err();
    assert!(
        err.contains("Unmarshaling YAML template 'f2.yml'") && !err.contains("f4.yml"),
        "{err}"
    );
}

#[test]
fn the_alias_budget_runs_out_in_the_same_file_as_one_after_the_other() {
    // each file expands to about 1.1 million nodes; the run's budget is 5 million, so the
    // fifth file in order (f4.yml) is the one refused, whichever thread parsed it
    let mut laugh = common::alias_expansion();
    // padding past the parallel threshold
    laugh.push_str(&format!("pad: \"{}\"\n", "p".repeat(20 << 10)));
    let mut y = Ytt::new();
    for n in 0..7 {
        y = y.file(&format!("f{n}.yml"), &laugh);
    }
    let out = y.run(&["-f", "."]);
    let err = out.err();
    assert!(
        err.contains("Unmarshaling YAML template 'f4.yml'")
            && err.contains("document contains excessive aliasing"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------
// One large file parsed in pieces (cut at document starts, `yaml::pieces`): whatever the
// cuts, the same documents, comments, line numbers and errors as one parse.
// ---------------------------------------------------------------------------------------

/// About `kib` KiB of small documents, each a map with a number and a padding string.
fn many_documents(kib: usize) -> (String, usize) {
    let mut s = String::new();
    let mut n = 0;
    while s.len() < kib << 10 {
        s.push_str(&format!("---\nn: {n}\npad: \"{}\"\n", "p".repeat(60)));
        n += 1;
    }
    (s, n)
}

/// The line (1-based) the next line appended to `text` gets.
fn next_line(text: &str) -> usize {
    text.matches('\n').count() + 1
}

#[test]
fn a_large_file_keeps_its_line_numbers_in_syntax_errors() {
    let (mut text, _) = many_documents(400);
    let line = next_line(&text) + 1;
    text.push_str("---\nbad: [\n");
    let err = Ytt::new().file("big.yml", &text).run(&["-f", "big.yml"]);
    assert_eq!(
        err.err(),
        format!(
            "ytt: Error: Unmarshaling YAML template 'big.yml': yaml: line {line}: did not find expected node content\n"
        )
    );
}

#[test]
fn a_large_template_keeps_the_code_and_annotations_before_each_document() {
    // code before every `---` belongs to the document after it, wherever the file is cut
    let mut text = String::from("#@ load(\"@ytt:data\", \"data\")\n");
    let mut expected = String::new();
    let mut n = 0;
    while text.len() < 400 << 10 {
        text.push_str(&format!(
            "#@ def f{n}():\n#@   return {n} + data.values.add\n#@ end\n#! a comment\n---\nv: #@ f{n}()\npad: \"{}\"\n",
            "p".repeat(40)
        ));
        if n > 0 {
            expected.push_str("---\n");
        }
        expected.push_str(&format!("v: {}\npad: {}\n", n + 1, "p".repeat(40)));
        n += 1;
    }
    let line = next_line(&text) + 1;
    let y = Ytt::new()
        .file("big.yml", &text)
        .file("values.yml", "#@data/values\n---\nadd: 1\n");
    assert_eq!(y.run(&["-f", "big.yml", "-f", "values.yml"]).ok(), expected);
    // an evaluation error names the line it has in the whole file
    text.push_str("---\nw: #@ fail(\"late\")\n");
    let out = Ytt::new()
        .file("big.yml", &text)
        .file("values.yml", "#@data/values\n---\nadd: 1\n")
        .run(&["-f", "big.yml", "-f", "values.yml"]);
    assert!(
        out.err()
            .contains(&format!("big.yml:{line} | w: #@ fail(\"late\")")),
        "{}",
        out.stderr
    );
}

#[test]
fn a_large_file_ending_in_a_root_block_scalar_reads_as_one_parse() {
    // a root block scalar ends at the next `---` (its content is indented, as in libyaml)
    let (filler, _) = many_documents(400);
    let tail = "--- |\n  x\n---\nz: 1\n";
    let whole = Ytt::new()
        .file("big.yml", &format!("{filler}{tail}"))
        .run(&["-f", "big.yml"]);
    let head = Ytt::new().file("big.yml", &filler).run(&["-f", "big.yml"]);
    let last = Ytt::new().file("tail.yml", tail).run(&["-f", "tail.yml"]);
    assert_eq!(whole.ok(), format!("{}---\n{}", head.ok(), last.ok()));
    assert_eq!(last.ok(), "|\n  x\n---\nz: 1\n");
    // content at column 0 is no content: the error names its line in the whole file
    let lines = filler.lines().count();
    let out = Ytt::new()
        .file("big.yml", &format!("{filler}--- |\nx\n---\ny: 1\n"))
        .run(&["-f", "big.yml"]);
    assert_eq!(
        out.err(),
        format!(
            "ytt: Error: Unmarshaling YAML template 'big.yml': yaml: line {}: did not find expected <document start>\n",
            lines + 1
        )
    );
}

/// Rule (measured, libyaml's): an anchor belongs to its document. A large file parsed in
/// pieces refuses an alias to an earlier document's anchor as one parse does, and reads
/// one to an anchor of its own document, however far.
#[test]
fn a_large_file_may_not_alias_an_anchor_of_an_earlier_document() {
    let (filler, n) = many_documents(400);
    let text = format!("a: &x {{k: v}}\n{filler}---\nb: *x\n");
    let out = Ytt::new().file("big.yml", &text).run(&["-f", "big.yml"]);
    assert_eq!(
        out.err(),
        "ytt: Error: Unmarshaling YAML template 'big.yml': yaml: unknown anchor 'x' referenced\n"
    );
    let text = format!("{filler}---\na: &x {{k: v}}\nb: *x\n");
    let out = Ytt::new().file("big.yml", &text).run(&["-f", "big.yml"]);
    let docs: Vec<&str> = out.ok().split("---\n").collect();
    assert_eq!(docs.len(), n + 1);
    assert_eq!(docs[n], "a:\n  k: v\nb:\n  k: v\n");
}

// ---------------------------------------------------------------------------------------
// One large document holding a long list, parsed in pieces cut before its items
// (`yaml::pieces`): the same items, values, line numbers and errors as one parse.
// ---------------------------------------------------------------------------------------

/// About `kib` KiB of data values: a list of services under `services`, each item a map
/// with a nested map and a block scalar; and the output a template listing them gives.
fn long_list(kib: usize) -> (String, String, usize) {
    let mut values = String::from("#@data/values\n---\nservices:\n");
    let mut expected = String::new();
    let mut n = 0;
    while values.len() < kib << 10 {
        values.push_str(&format!(
            "- name: svc{n} #! trailing\n  #! own-line\n  labels:\n    team: t{n}\n  notes: |\n    line {n}\n"
        ));
        expected.push_str(&format!("- svc{n}-t{n}-line {n}\n"));
        n += 1;
    }
    (values, expected, n)
}

const LIST_TEMPLATE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\nnames:\n#@ for s in data.values.services:\n- #@ s.name + \"-\" + s.labels.team + \"-\" + s.notes.strip()\n#@ end\n";

#[test]
fn a_long_list_of_data_values_reads_as_one_parse() {
    let (values, expected, n) = long_list(400);
    let out = Ytt::new()
        .file("values.yml", &values)
        .file("tpl.yml", LIST_TEMPLATE)
        .run(&["-f", "values.yml", "-f", "tpl.yml"]);
    assert_eq!(out.ok(), format!("names:\n{expected}"));
    assert!(n > 1000, "{n} items");
}

#[test]
fn a_long_list_keeps_its_line_numbers_in_errors() {
    // a syntax error in the last item
    let (mut values, _, _) = long_list(400);
    let line = next_line(&values);
    values.push_str("- name: [bad\n");
    let out = Ytt::new()
        .file("values.yml", &values)
        .run(&["-f", "values.yml"]);
    assert_eq!(
        out.err(),
        format!("ytt: Error: Unmarshaling YAML template 'values.yml': yaml: line {line}: did not find expected ',' or ']'\n")
    );
    // an evaluation error in a late item of a templated list names its line in the file
    let (mut values, _, _) = long_list(400);
    let line = next_line(&values);
    values.push_str("- name: #@ fail(\"late\")\n");
    let out = Ytt::new()
        .file("values.yml", &values)
        .run(&["-f", "values.yml"]);
    assert!(
        out.err()
            .contains(&format!("values.yml:{line} | - name: #@ fail(\"late\")")),
        "{}",
        out.stderr
    );
}

#[test]
fn a_long_list_may_alias_an_anchor_of_an_early_item() {
    // the alias is far from its anchor (in another piece): one parse decides
    let (values, _, n) = long_list(400);
    let values = values.replacen("- name: svc0", "- name: &first svc0", 1)
        + "- name: *first\n  labels:\n    team: again\n  notes: x\n";
    let out = Ytt::new()
        .file("values.yml", &values)
        .file("tpl.yml", LIST_TEMPLATE)
        .run(&["-f", "values.yml", "-f", "tpl.yml"]);
    let lines: Vec<&str> = out.ok().lines().collect();
    assert_eq!(lines.len(), n + 2);
    assert_eq!(lines[n + 1], "- svc0-again-x");
}

#[test]
fn a_long_list_followed_by_a_key_reads_as_one_parse() {
    let (values, expected, _) = long_list(400);
    let values = values + "after: 1\n";
    let tpl = format!("{LIST_TEMPLATE}after: #@ data.values.after\n");
    let out = Ytt::new()
        .file("values.yml", &values)
        .file("tpl.yml", &tpl)
        .run(&["-f", "values.yml", "-f", "tpl.yml"]);
    assert_eq!(out.ok(), format!("names:\n{expected}after: 1\n"));
}

#[test]
fn a_long_list_in_a_data_values_file_reads_as_one_parse() {
    let mut values = String::from("# services\nservices:\n");
    let mut expected = String::from("services:\n");
    let mut n = 0;
    while values.len() < 400 << 10 {
        values.push_str(&format!(
            "- name: svc{n} # trailing\n  # own-line\n  port: {n}\n"
        ));
        expected.push_str(&format!("- name: svc{n}\n  port: {n}\n"));
        n += 1;
    }
    let y = Ytt::new().file("values.yml", &values).file(
        "schema.yml",
        "#@data/values-schema\n---\nservices:\n- name: \"\"\n  port: 0\n",
    );
    let args = [
        "-f",
        "schema.yml",
        "--data-values-file",
        "values.yml",
        "--data-values-inspect",
    ];
    assert_eq!(y.run(&args).ok(), expected);
    // a type error in the last item names its line
    let line = next_line(&values);
    let y = Ytt::new()
        .file(
            "values.yml",
            &format!("{values}- name: last\n  port: \"x\"\n"),
        )
        .file(
            "schema.yml",
            "#@data/values-schema\n---\nservices:\n- name: \"\"\n  port: 0\n",
        );
    let out = y.run(&args);
    assert!(
        out.err().contains(&format!("{} |   port: \"x\"", line + 1)),
        "{}",
        out.stderr
    );
}
