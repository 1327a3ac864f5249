//! End-to-end tests of the YAML template language: code, values, control
//! flow, fragments, `template.replace`, text-templated strings, map-key
//! overrides, parsing flags and YAML 1.1 input semantics.

mod common;

use common::{tpl, Ytt};

#[test]
fn code_lines_expression_values_and_ytt_comments() {
    let out = tpl(
        "#@ x = 20\n\
         #@ def double(v):\n\
         #@   return v * 2\n\
         #@ end\n\
         #! this ytt comment is dropped\n\
         name: #@ \"app-\" + str(x)\n\
         replicas: #@ double(x) + 2 #! trailing comment\n\
         ratio: #@ x / 8\n\
         list: #@ [1, \"two\", None, True]\n\
         plain: value\n",
        &[],
    );
    insta::assert_snapshot!("code_and_values", out.ok());
}

#[test]
fn annotation_long_forms_and_unknown_annotations() {
    let out = tpl(
        "#@template/code x = 3\n\
         a: 1\n\
         #@template/value x * 2\n\
         b: \n\
         #@made/up x, y=2\n\
         #@comment this is a comment annotation\n\
         c: 3\n",
        &[],
    );
    assert_eq!(out.ok(), "a: 1\nb: 6\nc: 3\n");
}

#[test]
fn if_elif_else_end() {
    let template = "#@ def pick(n):\n\
                    #@   if n == 1:\n\
                    kind: one\n\
                    #@   elif n == 2:\n\
                    kind: two\n\
                    #@   else:\n\
                    kind: many\n\
                    #@   end\n\
                    #@ end\n\
                    a: #@ pick(1)\n\
                    b: #@ pick(2)\n\
                    c: #@ pick(7)\n\
                    #@ if False:\n\
                    hidden: true\n\
                    #@ end\n\
                    shown: true\n";
    let out = tpl(template, &[]);
    insta::assert_snapshot!("if_elif_else", out.ok());
}

#[test]
fn for_loops_with_break_and_continue() {
    let out = tpl(
        "items:\n\
         #@ for i in range(10):\n\
         #@   if i % 2 == 1:\n\
         #@     continue\n\
         #@   end\n\
         #@   if i > 6:\n\
         #@     break\n\
         #@   end\n\
         - #@ i\n\
         #@ end\n\
         labels:\n\
         #@ for k, v in [(\"app\", \"web\"), (\"tier\", \"front\")]:\n\
         \x20 #@yaml/text-templated-strings\n\
         \x20 (@= k @): #@ v\n\
         #@ end\n",
        &[],
    );
    insta::assert_snapshot!("for_break_continue", out.ok());
}

#[test]
fn while_loop_and_global_reassignment() {
    let out = tpl(
        "#@ n = 0\n\
         #@ total = 0\n\
         #@ while n < 4:\n\
         #@   n += 1\n\
         #@   total += n\n\
         #@ end\n\
         #@ def fact(k):\n\
         #@   return 1 if k <= 1 else k * fact(k - 1)\n\
         #@ end\n\
         count: #@ n\n\
         total: #@ total\n\
         fact: #@ fact(5)\n\
         squares:\n\
         #@ i = 1\n\
         #@ while i * i < 30:\n\
         - #@ i * i\n\
         #@   i += 1\n\
         #@ end\n",
        &[],
    );
    insta::assert_snapshot!("while_loop", out.ok());
}

#[test]
fn single_node_end_forms() {
    let out = tpl(
        "#@ x = 1\n\
         #@ if/end x == 1:\n\
         kept: yes-if\n\
         #@ if/end x == 2:\n\
         dropped: true\n\
         list:\n\
         #@ for/end v in [\"p\", \"q\"]:\n\
         - #@ v + \"!\"\n\
         #@ def/end frag(v):\n\
         inner: #@ v\n\
         frag: #@ frag(3)\n\
         after: end\n",
        &[],
    );
    insta::assert_snapshot!("single_node_end", out.ok());
}

#[test]
fn elif_and_else_single_node_forms() {
    let t = |v: &str| {
        tpl(
            &format!(
                "#@ v = {v}\n\
                 #@ if v == 1:\n\
                 a: one\n\
                 #@ elif v == 2:\n\
                 a: two\n\
                 #@ else/end:\n\
                 a: other\n\
                 #@ if v == 1:\n\
                 b: one\n\
                 #@ elif/end v == 2:\n\
                 b: two\n"
            ),
            &[],
        )
    };
    assert_eq!(t("1").ok(), "a: one\nb: one\n");
    assert_eq!(t("2").ok(), "a: two\nb: two\n");
    assert_eq!(t("3").ok(), "a: other\n");
}

#[test]
fn for_around_documents_and_map_items() {
    let out = tpl(
        "#@ for name in [\"web\", \"db\"]:\n\
         ---\n\
         name: #@ name\n\
         ports:\n\
         #@   for p in [80, 443]:\n\
         \x20 - #@ p\n\
         #@   end\n\
         #@ end\n",
        &[],
    );
    insta::assert_snapshot!("for_documents", out.ok());
}

#[test]
fn fragments_map_array_and_docset() {
    let out = tpl(
        "#@ load(\"@ytt:struct\", \"struct\")\n\
         #@ def docs():\n\
         ---\n\
         d: 1\n\
         ---\n\
         d: 2\n\
         #@ end\n\
         ---\n\
         #@ def arr():\n\
         - one\n\
         - two\n\
         #@ end\n\
         ---\n\
         #@ def m():\n\
         a: 1\n\
         b:\n\
         \x20 c: 2\n\
         #@ end\n\
         #@ def early():\n\
         #@   return {\"r\": 1}\n\
         #@ end\n\
         map: #@ m()\n\
         idx: #@ m()[\"b\"][\"c\"]\n\
         len: #@ len(m())\n\
         has: #@ \"a\" in m()\n\
         nothas: #@ \"z\" in m()\n\
         keys: #@ [k for k in m()]\n\
         truthy: #@ bool(m())\n\
         arr: #@ arr()\n\
         arr1: #@ arr()[1]\n\
         arrlen: #@ len(arr())\n\
         arrvals: #@ [v + \"!\" for v in arr()]\n\
         docslen: #@ len(docs())\n\
         docs0: #@ docs()[0]\n\
         docvals: #@ [d[\"d\"] for d in docs()]\n\
         type: #@ type(m())\n\
         splat: #@ dict(**m())\n\
         splat2: #@ dict(z=0, **m())\n\
         structsplat: #@ dict(**struct.make(p=1, q=2))\n\
         explicit_return: #@ early()\n",
        &[],
    );
    insta::assert_snapshot!("fragments", out.ok());
}

#[test]
fn docset_fragment_as_document_value_is_an_error() {
    let out = tpl(
        "#@ def/end docset():\n\
         ---\n\
         foo: true\n\
         \n\
         --- #@ docset()\n",
        &[],
    );
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - __ytt_tpl2_set_node: documents can only contain arrays, maps, or scalars; this is a document set\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:5 | --- #@ docset()\n"
    );
}

#[test]
fn template_replace_documents_map_items_and_array_items() {
    let out = tpl(
        "#@ load(\"@ytt:template\", \"template\")\n\
         #@ def extra():\n\
         x: 1\n\
         z: 2\n\
         #@ end\n\
         #@ def docs(v):\n\
         ---\n\
         fromdocset: #@ v\n\
         ---\n\
         fromdocset: #@ v + 1\n\
         #@ end\n\
         ---\n\
         m:\n\
         \x20 a: 0\n\
         \x20 _: #@ template.replace({\"b\": 1, \"c\": 2})\n\
         \x20 __: #@ template.replace(extra())\n\
         arr:\n\
         - first\n\
         - #@ template.replace([2, 3])\n\
         - last\n\
         --- #@ template.replace([{\"doc\": 1}, {\"doc\": 2}])\n\
         --- #@ template.replace(docs(10))\n",
        &[],
    );
    insta::assert_snapshot!("template_replace", out.ok());
}

#[test]
fn text_templated_strings_in_keys_and_values() {
    let out = tpl(
        "---\n\
         #@yaml/text-templated-strings\n\
         t:\n\
         \x20 (@= \"key\" + str(1) @): value-(@= str(1 + 1) @)\n\
         \x20 nested:\n\
         \x20   inner: (@= \"in\" @)ner\n\
         \x20   k(@= \"-\".join([\"a\", \"b\"]) @): joined\n\
         plain: (@= \"not templated\" @)\n",
        &[],
    );
    insta::assert_snapshot!("text_templated_strings", out.ok());
}

#[test]
fn text_templated_strings_on_document() {
    let out = tpl(
        "#@ name = \"web\"\n\
         #@yaml/text-templated-strings\n\
         ---\n\
         app-(@= name @): (@= name.upper() @)\n\
         list:\n\
         - item-(@= name @)\n",
        &[],
    );
    assert_eq!(out.ok(), "app-web: WEB\nlist:\n- item-web\n");
}

#[test]
fn map_key_override_annotation() {
    let out = tpl(
        "a: 1\n\
         b: 2\n\
         #@yaml/map-key-override\n\
         a: #@ 3\n",
        &[],
    );
    // The overriding item replaces the earlier one and takes its own place.
    assert_eq!(out.ok(), "b: 2\na: 3\n");
}

#[test]
fn duplicate_key_without_override_is_an_error() {
    let out = tpl("a: 1\nb: #@ 2\na: 3\n", &[]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - __ytt_tpl2_start_node: expected key 'a' to not be specified again (unless 'yaml/map-key-override' annotation is added)\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:3 | a: 3\n"
    );
}

#[test]
fn implicit_map_key_overrides_flag() {
    let out = tpl("a: 1\nb: #@ 2\na: 3\n", &["--implicit-map-key-overrides"]);
    assert_eq!(out.ok(), "b: 2\na: 3\n");
}

#[test]
fn plain_comment_in_template_is_an_error() {
    let out = tpl("a: #@ 1\n# plain comment\nb: 2\n", &[]);
    assert_eq!(
        out.err(),
        "ytt: Error: Compiling YAML template 'tpl.yml':\n\
         \x20 Failed to parse line 2: '# plain comment':\n\
         \x20   Expected ytt-formatted string (use '#@' for annotations or code, '#!' for comments)\n"
    );
}

#[test]
fn ignore_unknown_comments_flag() {
    let out = tpl(
        "a: #@ 1\n# plain comment\nb: 2 # trailing\n",
        &["--ignore-unknown-comments"],
    );
    assert_eq!(out.ok(), "a: 1\nb: 2\n");
}

#[test]
fn plain_yaml_file_keeps_ordinary_comments() {
    // A file without any ytt annotation is plain YAML: `#` comments are fine.
    let out = tpl("# just a comment\na: 1 # trailing\n", &[]);
    assert_eq!(out.ok(), "a: 1\n");
}

#[test]
fn document_values_and_empty_documents_dropped() {
    let out = tpl(
        "--- #@ {\"a\": 1}\n\
         --- #@ None\n\
         ---\n\
         --- #@ [1, 2]\n\
         ---\n\
         #@ if False:\n\
         x: 1\n\
         #@ end\n\
         --- #@ \"\"\n\
         --- #@ 0\n\
         --- #@ {}\n\
         --- #@ []\n\
         --- #@ \"last\"\n",
        &[],
    );
    insta::assert_snapshot!("document_values", out.ok());
}

#[test]
fn array_item_values() {
    let out = tpl(
        "- #@ 1 + 1\n- plain\n- #@ {\"k\": [None]}\n- #@ \"s\"\n",
        &[],
    );
    assert_eq!(out.ok(), "- 2\n- plain\n- k:\n  - null\n- s\n");
}

#[test]
fn yaml_1_1_scalars_in_plain_file() {
    let out = tpl(
        "yes: on\n\
         n: off\n\
         values: [y, Y, yes, No, OFF, true, False]\n\
         quoted: [\"yes\", \"y\", \"on\", \"n\"]\n\
         octal: 0755\n\
         oct2: 0o17\n\
         hex: 0x1F\n\
         float: 1.50\n\
         exp: 1e3\n\
         small: 2.5e-10\n\
         neg: -.5\n\
         inf: .inf\n\
         ninf: -.inf\n\
         nul: ~\n\
         nul2: Null\n\
         time: 12:30\n\
         date: 2001-12-14\n\
         tagged: !!str 123\n",
        &[],
    );
    insta::assert_snapshot!("yaml11_plain", out.ok());
}

/// 64-bit integers round-trip. (The reference also keeps integers between 2^63 and 2^64
/// as uint64; here they become floats — a known difference.)
#[test]
fn int64_extremes_are_preserved() {
    let out = tpl("big: 9223372036854775807\nneg: -9223372036854775808\n", &[]);
    assert_eq!(
        out.ok(),
        "big: 9223372036854775807\nneg: -9223372036854775808\n"
    );
}

#[test]
fn yaml_1_1_scalars_in_template() {
    let out = tpl(
        "#@ v = 1\n\
         y: #@ v\n\
         off: yes\n\
         types: #@ [type(x) for x in [True, 1, 1.5, \"s\", None]]\n\
         float_val: #@ 0.1 + 0.2\n\
         sum: #@ 0o17 + 1\n\
         strs: #@ [\"yes\", \"on\", \"1.5\", \"null\", \"0x10\", \"~\"]\n",
        &[],
    );
    insta::assert_snapshot!("yaml11_template", out.ok());
}

#[test]
fn str_of_float_uses_six_significant_digits() {
    // The reference's Starlark formats floats with `%.6g` in str(); YAML
    // output still uses the shortest round-trip form.
    let out = tpl(
        "s: #@ [str(1.0), str(0.1 + 0.2), str(1e20), str(2.5)]\n\
         v: #@ [1.0, 0.1 + 0.2]\n",
        &[],
    );
    assert_eq!(
        out.ok(),
        "s:\n- \"1\"\n- \"0.3\"\n- \"1e+20\"\n- \"2.5\"\nv:\n- 1\n- 0.30000000000000004\n"
    );
}

#[test]
fn anchors_aliases_and_merge_keys() {
    let out = tpl(
        "base: &base\n\
         \x20 name: app\n\
         \x20 port: 80\n\
         copy: *base\n\
         merged:\n\
         \x20 <<: *base\n\
         \x20 port: 8080\n\
         list: &l [1, 2]\n\
         again: *l\n",
        &[],
    );
    insta::assert_snapshot!("anchors", out.ok());
}

#[test]
fn multi_document_streams_across_files() {
    let y = Ytt::new()
        .file("a.yml", "a: 1\n---\nb: 2\n")
        .file("b.yml", "---\nc: #@ 3\n---\n- 4\n");
    let out = y.run(&["-f", "a.yml", "-f", "b.yml"]);
    assert_eq!(out.ok(), "a: 1\n---\nb: 2\n---\nc: 3\n---\n- 4\n");
    let out = y.run(&["-f", "b.yml", "-f", "a.yml", "-o", "json"]);
    assert_eq!(out.ok(), "{\"c\":3}[4]{\"a\":1}{\"b\":2}");
}

#[test]
fn strict_rejects_ambiguous_scalars() {
    let out = tpl("a: yes\n", &["--strict"]);
    assert_eq!(
        out.err(),
        "ytt: Error: Unmarshaling YAML template 'tpl.yml': yaml:\n\
         \x20 Strict parsing:\n\
         \x20   Found 'yes' ambigious (could be !!str or !!bool)\n"
    );
    let out = tpl("a: hello world\n", &["-s"]);
    assert_eq!(
        out.err(),
        "ytt: Error: Unmarshaling YAML template 'tpl.yml': yaml:\n\
         \x20 Strict parsing:\n\
         \x20   Strings with whitespace must be explicitly quoted: 'hello world'\n"
    );
}

#[test]
fn strict_accepts_unambiguous_scalars() {
    let out = tpl(
        "a: \"yes\"\nb: true\nc: 12\nd: 1.5\ne: \"hello world\"\nf: word\n",
        &["--strict"],
    );
    assert_eq!(
        out.ok(),
        "a: \"yes\"\nb: true\nc: 12\nd: 1.5\ne: hello world\nf: word\n"
    );
    // Without --strict the same ambiguous input is accepted.
    assert_eq!(tpl("a: yes\n", &[]).ok(), "a: true\n");
}

#[test]
fn defs_spanning_documents_and_nested_functions() {
    let out = tpl(
        "#@ def labels(app):\n\
         app: #@ app\n\
         managed: ytt\n\
         #@ end\n\
         ---\n\
         kind: Service\n\
         metadata:\n\
         \x20 labels: #@ labels(\"web\")\n\
         ---\n\
         kind: Deployment\n\
         metadata:\n\
         \x20 labels: #@ labels(\"db\")\n",
        &[],
    );
    insta::assert_snapshot!("defs_across_documents", out.ok());
}

/// Integers beyond int64 and up to uint64 stay integers, from YAML, from Starlark, through
/// data values and a schema, in YAML and JSON output (they used to become floats).
#[test]
fn uint64_integers_are_preserved() {
    let project = Ytt::new()
        .file("schema.yml", "#@data/values-schema\n---\nbig: 0\n")
        .file(
            "tpl.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\n\
             v: #@ data.values.big\n\
             half: #@ data.values.big // 2\n\
             lit: 9223372036854775808\n\
             neg: #@ -(1<<63)\n",
        );
    let args = ["-f", ".", "--data-value-yaml", "big=18446744073709551615"];
    assert_eq!(
        project.run(&args).ok(),
        "v: 18446744073709551615\nhalf: 9223372036854775807\nlit: 9223372036854775808\nneg: -9223372036854775808\n"
    );
    let json: Vec<&str> = args.iter().copied().chain(["-o", "json"]).collect();
    assert_eq!(
        project.run(&json).ok(),
        "{\"half\":9223372036854775807,\"lit\":9223372036854775808,\"neg\":-9223372036854775808,\"v\":18446744073709551615}"
    );
}

/// Regression (found by fuzzing): a function whose body starts inside a map and goes on
/// into the next document gave an "internal error"; it is a template error.
#[test]
fn a_function_body_spanning_documents_is_an_error() {
    let out = tpl("#@ def f():\na: 1\n---\nb: 2\n#@ end\n--- #@ f()\n", &[]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - __ytt_tpl2_start_node: document on line 3 is outside the map holding the function's \
         first node: a function body cannot span documents or collections\n\
         \x20   in f\n\
         \x20     tpl.yml:3 | ---\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:6 | --- #@ f()\n"
    );
}

/// A function whose body's nodes are all skipped by `if`/`for` returns a fragment of
/// nothing (measured on the reference): not None, empty where iterated or counted, `null`
/// where set, and no placement for `template.replace`.
#[test]
fn a_function_whose_nodes_are_all_skipped_returns_a_fragment_of_nothing() {
    let out = Ytt::new()
        .file(
            "funcs.lib.yml",
            "#@ def no_items():\n\
             #@ if False:\n\
             a: 1\n\
             #@ end\n\
             #@ end\n\
             ---\n\
             #@ def no_elements():\n\
             #@ for x in []:\n\
             - #@ x\n\
             #@ end\n\
             #@ end\n\
             ---\n\
             #@ def no_docs():\n\
             #@ if False:\n\
             ---\n\
             a: 1\n\
             #@ end\n\
             #@ end\n",
        )
        .file(
            "tpl.yml",
            "#@ load(\"@ytt:yaml\", \"yaml\")\n\
             #@ load(\"funcs.lib.yml\", \"no_items\", \"no_elements\", \"no_docs\")\n\
             m: #@ no_items()\n\
             l: #@ no_elements()\n\
             is_none: #@ no_items() == None\n\
             encoded: #@ yaml.encode(no_items())\n\
             docs: #@ len(no_docs())\n\
             items: #@ [i for i in no_items()]\n\
             shown: #@ str(no_docs())\n\
             nested:\n\
             \x20 inner: #@ no_items()\n",
        )
        .run(&["-f", "."]);
    assert_eq!(
        out.ok(),
        "m: null\nl: null\nis_none: false\nencoded: \"\"\ndocs: 0\nitems: []\nshown: yamlfragment(<nil>)\nnested:\n  inner: null\n"
    );
}

/// Rule: a `return` on a line that starts with `def` belongs to that one-line def, never
/// to the function holding nodes around it; closures made inside such a function (one-line
/// defs, lambdas, nested defs with or without nodes) can be called there or later.
#[test]
fn closures_made_in_a_function_holding_nodes() {
    let out = tpl(
        "#@ def outer():\n\
         #@   def one_line(x): return x + 1\n\
         #@   def two_stmts(x): y = x; return y * 10\n\
         #@   def nested():\n\
         k: 1\n\
         #@   end\n\
         #@   def plain():\n\
         #@     return \"plain\"\n\
         #@   end\n\
         #@   lam = lambda: nested()\n\
         here: #@ one_line(1)\n\
         #@   return [one_line, two_stmts, nested, plain, lam]\n\
         #@ end\n\
         #@ fs = outer()\n\
         one_line: #@ fs[0](1)\n\
         two_stmts: #@ fs[1](2)\n\
         nested: #@ fs[2]()\n\
         plain: #@ fs[3]()\n\
         lambda: #@ fs[4]()\n\
         #@ def holder():\n\
         #@   def inc(x): return x + 1\n\
         a: #@ inc(1)\n\
         b: 2\n\
         #@ end\n\
         in_place: #@ holder()\n",
        &[],
    );
    assert_eq!(
        out.ok(),
        "one_line: 2\ntwo_stmts: 20\nnested:\n  k: 1\nplain: plain\nlambda:\n  k: 1\n\
         in_place:\n  a: 2\n  b: 2\n"
    );
}

/// Rule: every generated line maps back to its template line, a `while` condition over
/// several lines too, so errors after it name their own line.
#[test]
fn while_condition_over_several_lines() {
    let out = tpl(
        "#@ x = 0\n\
         #@ while (x <\n\
         #@        3):\n\
         #@   x += 1\n\
         #@ end\n\
         a: #@ x\n\
         b: #@ fail(\"here\")\n",
        &[],
    );
    assert_eq!(
        out.err(),
        "ytt: Error: \n- fail: here\n    in <toplevel>\n      tpl.yml:7 | b: #@ fail(\"here\")\n"
    );
}

#[test]
fn computed_keys_are_checked_against_every_item_of_their_map() {
    // a key computed twice by a loop
    let out = tpl(
        "#@ for k in [\"a\", \"b\", \"a\"]:\n#@yaml/text-templated-strings\n(@= k @): 1\n#@ end\n",
        &[],
    );
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - __ytt_tpl2_start_node: expected key 'a' to not be specified again (unless 'yaml/map-key-override' annotation is added)\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:3 | (@= k @): 1\n"
    );
    // a literal key after computed ones, in a nested map
    let out = tpl(
        "x:\n  #@ for k in [\"p\", \"q\"]:\n  #@yaml/text-templated-strings\n  (@= k @): 1\n  #@ end\n  q: 2\n",
        &[],
    );
    assert!(
        out.err()
            .contains("expected key 'q' to not be specified again"),
        "{}",
        out.stderr
    );
    assert!(out.err().contains("tpl.yml:6 |   q: 2"), "{}", out.stderr);
    // overriding computed keys replace earlier items, literal or computed
    let out = tpl(
        "a: 0\n#@ for k in [\"b\", \"a\", \"b\"]:\n#@yaml/map-key-override\n#@yaml/text-templated-strings\n(@= k @): #@ k\n#@ end\nc: 1\n",
        &[],
    );
    assert_eq!(out.ok(), "a: a\nb: b\nc: 1\n");
}

/// Integers become text without `core::fmt` where they are inline (vendor/starlark
/// PATCHES.md): the same digits at the edges of the inline range and past it, in every
/// conversion (`str`, `repr`, `format`, `%`, `+` of `str`, a list's repr, a text template).
#[test]
fn integers_as_text_at_the_edges_of_their_range() {
    let out = tpl(
        "#@ ns = [0, -1, 7, 2147483647, -2147483648, 2147483648, -2147483649]\n\
         s: #@ [str(n) for n in ns]\n\
         r: #@ repr(ns)\n\
         f: #@ \"{}|{}|{}\".format(ns[3], ns[4], ns[5])\n\
         p: #@ \"%s %d %r\" % (ns[4], ns[1], ns[2])\n\
         c: #@ \"k-\" + str(ns[6])\n\
         #@yaml/text-templated-strings\n\
         t: (@= str(ns[3] + 1) @)-(@= str(ns[2]) @)\n",
        &[],
    );
    assert_eq!(
        out.ok(),
        "s:\n- \"0\"\n- \"-1\"\n- \"7\"\n- \"2147483647\"\n- \"-2147483648\"\n- \"2147483648\"\n- \"-2147483649\"\n\
         r: '[0, -1, 7, 2147483647, -2147483648, 2147483648, -2147483649]'\n\
         f: 2147483647|-2147483648|2147483648\n\
         p: -2147483648 -1 7\n\
         c: k--2147483649\n\
         t: 2147483648-7\n"
    );
}
