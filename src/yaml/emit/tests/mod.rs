//! Emitter tests. `golden.rs` holds the measured cases of `spec/yaml-scalars.md`
//! (sections 1–5): the value (as the JSON the reference printed), the reference's YAML
//! output and its JSON output.

mod golden;

use super::*;
use crate::yaml::node::*;

fn from_json(v: &serde_json::Value) -> Node {
    match v {
        serde_json::Value::Null => Node::Null,
        serde_json::Value::Bool(b) => Node::Bool(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Node::Int(i.into()),
            None => Node::Float(n.as_f64().unwrap()),
        },
        serde_json::Value::String(s) => Node::Str(s.into()),
        serde_json::Value::Array(a) => arr(a.iter().map(from_json).collect()),
        serde_json::Value::Object(o) => map(o
            .iter()
            .map(|(k, v)| (Node::Str(k.into()), from_json(v)))
            .collect()),
    }
}

fn s(v: &str) -> Node {
    Node::Str(v.into())
}

fn map(items: Vec<(Node, Node)>) -> Node {
    Node::Map(Map {
        items: items
            .into_iter()
            .map(|(key, value)| MapItem {
                key,
                value,
                meta: Meta::default(),
            })
            .collect(),
    })
}

fn arr(items: Vec<Node>) -> Node {
    Node::Array(Array {
        items: items
            .into_iter()
            .map(|value| ArrayItem {
                value,
                meta: Meta::default(),
            })
            .collect(),
    })
}

fn docset(values: Vec<Node>) -> DocSet {
    DocSet {
        docs: values
            .into_iter()
            .map(|value| Doc::new(value, Meta::default()))
            .collect(),
        meta: Meta::default(),
    }
}

fn yaml_of(n: Node) -> String {
    let mut out = String::new();
    yaml_docset(&docset(vec![n]), &mut out);
    out
}

fn json_of(n: Node) -> String {
    let mut out = String::new();
    json_docset(&docset(vec![n]), &mut out).unwrap();
    out
}

fn v(value: Node) -> Node {
    map(vec![(s("v"), value)])
}

#[test]
fn golden_table() {
    let mut failures = Vec::new();
    for (sec, value, want_yaml, want_json) in golden::GOLDEN {
        let parsed: serde_json::Value = serde_json::from_str(value).unwrap();
        let node = from_json(&parsed);
        let got_yaml = yaml_of(node.clone());
        if got_yaml != *want_yaml {
            failures.push(format!(
                "[{sec}] {value}: yaml got {got_yaml:?}, want {want_yaml:?}"
            ));
        }
        let got_json = json_of(node);
        if got_json != *want_json {
            failures.push(format!(
                "[{sec}] {value}: json got {got_json:?}, want {want_json:?}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn node(json: &str) -> Node {
    from_json(&serde_json::from_str(json).unwrap())
}

#[test]
fn style_sample() {
    let top = node(
        r#"{"top": {
        "list": ["a", {"b": 1, "c": [1, 2]}, ["nested1", "nested2"], [], {}, null, ""],
        "emptymap": {}, "emptylist": [], "nullval": null,
        "inline_flow": {"a": [1, {"b": 2}]},
        "multiline": "line1\nline2\n",
        "multi_strip": "line1\nline2",
        "multi_keep": "line1\n\n",
        "lead_space_multi": "  indented\nline2\n",
        "trailing_space_multi": "a \nb",
        "list_of_multiline": ["x\ny"],
        "frag": {"k": [1, 2], "m": {}}}}"#,
    );
    let ds = docset(vec![
        top,
        node(r#"["scalar in array"]"#),
        s("bare scalar doc"),
        Node::Int(42.into()),
        node("[0, 1]"),
    ]);
    let mut out = String::new();
    yaml_docset(&ds, &mut out);
    let want = "top:
  list:
  - a
  - b: 1
    c:
    - 1
    - 2
  - - nested1
    - nested2
  - []
  - {}
  - null
  - \"\"
  emptymap: {}
  emptylist: []
  nullval: null
  inline_flow:
    a:
    - 1
    - b: 2
  multiline: |
    line1
    line2
  multi_strip: |-
    line1
    line2
  multi_keep: |+
    line1

  lead_space_multi: |2
      indented
    line2
  trailing_space_multi: \"a \\nb\"
  list_of_multiline:
  - |-
    x
    y
  frag:
    k:
    - 1
    - 2
    m: {}
---
- scalar in array
---
bare scalar doc
---
42
---
- 0
- 1
";
    assert_eq!(out, want);

    let mut out = String::new();
    json_docset(&ds, &mut out).unwrap();
    assert_eq!(
        out,
        r#"{"top":{"emptylist":[],"emptymap":{},"frag":{"k":[1,2],"m":{}},"inline_flow":{"a":[1,{"b":2}]},"lead_space_multi":"  indented\nline2\n","list":["a",{"b":1,"c":[1,2]},["nested1","nested2"],[],{},null,""],"list_of_multiline":["x\ny"],"multi_keep":"line1\n\n","multi_strip":"line1\nline2","multiline":"line1\nline2\n","nullval":null,"trailing_space_multi":"a \nb"}}["scalar in array"]"bare scalar doc"42[0,1]"#
    );
}

/// Which documents leave the set is decided before output (`Doc::is_empty`): the
/// emitters print every document they are given, empty values included.
#[test]
fn every_document_given_is_printed() {
    let ds = docset(vec![
        s(""),
        Node::Bool(false),
        Node::Int(0.into()),
        Node::Null,
        arr(vec![]),
        map(vec![]),
    ]);
    let mut out = String::new();
    yaml_docset(&ds, &mut out);
    assert_eq!(
        out,
        "\"\"\n---\nfalse\n---\n0\n---\nnull\n---\n[]\n---\n{}\n"
    );
    let mut out = String::new();
    json_docset(&ds, &mut out).unwrap();
    assert_eq!(out, "\"\"false0null[]{}");

    let ds = docset(vec![
        node(r#"{"a": 1}"#),
        Node::Int(2.into()),
        node(r#"["x"]"#),
    ]);
    let mut out = String::new();
    yaml_docset(&ds, &mut out);
    assert_eq!(out, "a: 1\n---\n2\n---\n- x\n");
    let mut out = String::new();
    json_docset(&ds, &mut out).unwrap();
    assert_eq!(out, r#"{"a":1}2["x"]"#);

    let mut out = String::new();
    yaml_docset(&docset(vec![]), &mut out);
    assert_eq!(out, "");
}

#[test]
fn single_values() {
    assert_eq!(yaml_node(&node(r#"{"a": 1}"#)), "a: 1\n");
    assert_eq!(yaml_node(&s("foo")), "foo\n");
    assert_eq!(yaml_node(&map(vec![])), "{}\n");
    assert_eq!(yaml_node(&arr(vec![])), "[]\n");
    assert_eq!(yaml_node(&Node::Null), "null\n");
    assert_eq!(yaml_node(&s("a\nb")), "|-\n  a\n  b\n");
    assert_eq!(yaml_node(&s("a\nb\n")), "|\n  a\n  b\n");
    assert_eq!(yaml_node(&s("yes")), "\"yes\"\n");
    assert_eq!(yaml_node(&s("a: b")), "'a: b'\n");
    assert_eq!(yaml_node(&Node::Float(1.5)), "1.5\n");
}

#[test]
fn starlark_values() {
    // spec/yaml-scalars.md section 6
    let cases: &[(Node, &str, Option<&str>)] = &[
        (Node::Float(1.5), "v: 1.5\n", Some(r#"{"v":1.5}"#)),
        (Node::Float(1.0), "v: 1\n", Some(r#"{"v":1}"#)),
        (
            Node::Float(0.1 + 0.2),
            "v: 0.30000000000000004\n",
            Some(r#"{"v":0.30000000000000004}"#),
        ),
        (
            Node::Float(1e20),
            "v: 1e+20\n",
            Some(r#"{"v":100000000000000000000}"#),
        ),
        (Node::Float(1e21), "v: 1e+21\n", Some(r#"{"v":1e+21}"#)),
        (Node::Float(1e-7), "v: 1e-07\n", Some(r#"{"v":1e-7}"#)),
        (
            Node::Float(123456789.0),
            "v: 1.23456789e+08\n",
            Some(r#"{"v":123456789}"#),
        ),
        (Node::Float(f64::INFINITY), "v: .inf\n", None),
        (Node::Float(f64::NEG_INFINITY), "v: -.inf\n", None),
        (Node::Float(f64::NAN), "v: .nan\n", None),
        (
            Node::Int(i64::MIN.into()),
            "v: -9223372036854775808\n",
            Some(r#"{"v":-9223372036854775808}"#),
        ),
        (Node::Null, "v: null\n", Some(r#"{"v":null}"#)),
        (Node::Bool(true), "v: true\n", Some(r#"{"v":true}"#)),
        (arr(vec![]), "v: []\n", Some(r#"{"v":[]}"#)),
        (map(vec![]), "v: {}\n", Some(r#"{"v":{}}"#)),
        (
            node(r#"{"b": 1, "a": 2}"#),
            "v:\n  b: 1\n  a: 2\n",
            Some(r#"{"v":{"a":2,"b":1}}"#),
        ),
        (node("[[]]"), "v:\n- []\n", Some(r#"{"v":[[]]}"#)),
        (node("[{}]"), "v:\n- {}\n", Some(r#"{"v":[{}]}"#)),
        (
            node(r#"{"a": []}"#),
            "v:\n  a: []\n",
            Some(r#"{"v":{"a":[]}}"#),
        ),
        (
            node(r#"{"a": null}"#),
            "v:\n  a: null\n",
            Some(r#"{"v":{"a":null}}"#),
        ),
        (
            map(vec![
                (Node::Int(1.into()), s("a")),
                (Node::Bool(true), s("b")),
                (Node::Null, s("c")),
            ]),
            "v:\n  1: a\n  true: b\n  null: c\n",
            None,
        ),
    ];
    for (value, want_yaml, want_json) in cases {
        assert_eq!(yaml_of(v(value.clone())), *want_yaml, "{value:?}");
        let mut out = String::new();
        let r = json_docset(&docset(vec![v(value.clone())]), &mut out);
        match want_json {
            Some(j) => assert_eq!(out, *j),
            None => assert!(r.is_err(), "{value:?}"),
        }
    }
}

#[test]
fn non_string_keys() {
    let m = map(vec![
        (Node::Int(1.into()), s("int")),
        (Node::Bool(true), s("yes-key")),
        (Node::Null, Node::Null),
        (Node::Float(1.5), s("float")),
        (s("2"), s("strkey")),
    ]);
    assert_eq!(
        yaml_of(m.clone()),
        "1: int\ntrue: yes-key\nnull: null\n1.5: float\n\"2\": strkey\n"
    );
    let mut out = String::new();
    let err = json_docset(&docset(vec![m]), &mut out).unwrap_err();
    assert!(err.to_string().contains("'1'"), "{err}");
    let err = json_value(&map(vec![(Node::Bool(true), s("x"))]), 0, true).unwrap_err();
    assert!(err.to_string().contains("'true'"), "{err}");
}

#[test]
fn complex_keys() {
    let long = "k".repeat(129);
    assert_eq!(
        yaml_of(map(vec![(s(&long), s("v"))])),
        format!("? {long}\n: v\n")
    );
    let ok = "k".repeat(128);
    assert_eq!(yaml_of(map(vec![(s(&ok), s("v"))])), format!("{ok}: v\n"));
    assert_eq!(
        yaml_of(map(vec![(s("multi\nline"), s("v"))])),
        "? |-\n  multi\n  line\n: v\n"
    );
    // nested: the key's block scalar is indented under the `?`
    assert_eq!(
        yaml_of(map(vec![(
            s("m"),
            map(vec![(s("multi\nline"), arr(vec![s("x")]))])
        )])),
        "m:\n  ? |-\n    multi\n    line\n  : - x\n"
    );
}

#[test]
fn nested_collections() {
    assert_eq!(
        yaml_of(node(r#"[["a", "b"], ["c"]]"#)),
        "- - a\n  - b\n- - c\n"
    );
    assert_eq!(
        yaml_of(node(r#"[[{"a": 1, "b": 2}]]"#)),
        "- - a: 1\n    b: 2\n"
    );
    assert_eq!(
        yaml_of(node(r#"[{"a": {"b": [1, {"c": "x\ny"}]}}]"#)),
        "- a:\n    b:\n    - 1\n    - c: |-\n        x\n        y\n"
    );
    assert_eq!(yaml_of(node(r#"["a\nb\n"]"#)), "- |\n  a\n  b\n");
    assert_eq!(yaml_of(node(r#"[" x\ny"]"#)), "- |2-\n   x\n  y\n");
    assert_eq!(yaml_of(node(r#"{"a": "\n\n"}"#)), "a: |2+\n\n\n");
    assert_eq!(yaml_of(node(r#"{"a": "x\n\ny"}"#)), "a: |-\n  x\n\n  y\n");
}

#[test]
fn string_styles() {
    let cases: &[(&str, &str)] = &[
        ("plain", "plain"),
        ("12:30", "\"12:30\""),
        ("2001-12-14", "\"2001-12-14\""),
        ("2001-12-14T21:59:43Z", "\"2001-12-14T21:59:43Z\""),
        ("2001-12-14 21:59:43", "\"2001-12-14 21:59:43\""),
        ("2001-02-30", "2001-02-30"),
        ("2001-13-01", "2001-13-01"),
        ("0x10", "\"0x10\""),
        ("0xZZ", "0xZZ"),
        ("1e400", "1e400"),
        (".5e400", ".5e400"),
        ("-", "'-'"),
        ("-x", "-x"),
        ("a:b", "a:b"),
        ("a:", "'a:'"),
        ("it's", "it's"),
        ("'it'", "'''it'''"),
        ("a\u{2028} b", "\"a\\L b\""),
        ("\u{feff}ab c", "\"\\uFEFF\\x61\\x62\\x20\\x63\""),
        ("tab\tx", "\"tab\\tx\""),
        ("a \u{e9}\u{1F600}", "\"a \u{e9}\\U0001F600\""),
        ("x\r\ny", "\"x\\r\\ny\""),
        ("trailing\n ", "\"trailing\\n \""),
        ("a\n b", "|-\n  a\n   b"),
        ("<<", "<<"),
        ("=", "="),
    ];
    for (value, want) in cases {
        assert_eq!(yaml_of(v(s(value))), format!("v: {want}\n"), "{value:?}");
    }
}

#[test]
fn json_escaping_and_indent() {
    let n =
        node(r#"{"b": [1, 2], "a": {}, "c": [], "d": {"x": "<a&b>", "y": "\u2028\u0001\u007f"}}"#);
    assert_eq!(
        json_value(&n, 0, true).unwrap(),
        "{\"a\":{},\"b\":[1,2],\"c\":[],\"d\":{\"x\":\"\\u003ca\\u0026b\\u003e\",\"y\":\"\\u2028\\u0001\u{7f}\"}}"
    );
    assert_eq!(
        json_value(&n, 2, false).unwrap(),
        "{\n  \"a\": {},\n  \"b\": [\n    1,\n    2\n  ],\n  \"c\": [],\n  \"d\": {\n    \"x\": \"<a&b>\",\n    \"y\": \"\\u2028\\u0001\u{7f}\"\n  }\n}"
    );
    assert_eq!(
        json_value(&s("a\"\\\x08\x0c\n\r\t"), 0, true).unwrap(),
        r#""a\"\\\b\f\n\r\t""#
    );
    assert_eq!(json_value(&Node::Int(3.into()), 4, true).unwrap(), "3");
    assert!(json_value(&Node::Float(f64::NAN), 0, true).is_err());
    // duplicate keys: the last value wins, as in a Go map
    let dup = map(vec![
        (s("a"), Node::Int(1.into())),
        (s("b"), Node::Int(2.into())),
        (s("a"), Node::Int(3.into())),
    ]);
    assert_eq!(json_value(&dup, 0, true).unwrap(), r#"{"a":3,"b":2}"#);
}

fn at(file: FileId, line: u32) -> Meta {
    Meta::at(Pos::new(file, line))
}

#[test]
fn pos_format() {
    let names = FileNames::default();
    let f = names.id("tpl.yml");
    let item = |k: &str, v: Node, line: u32| MapItem {
        key: s(k),
        value: v,
        meta: at(f, line),
    };
    let inner = Node::Map(Map {
        items: thin_vec::thin_vec![item("needsSecret", Node::Bool(false), 14)],
    });
    let list = Node::Array(Array {
        items: thin_vec::thin_vec![
            ArrayItem {
                value: inner,
                meta: at(f, 7),
            },
            ArrayItem {
                value: s("something"),
                meta: at(f, 43),
            },
            ArrayItem {
                value: Node::Null,
                meta: Meta::default(),
            },
        ],
    });
    let ds = DocSet {
        docs: vec![
            Doc::new(s("test1"), at(f, 45)),
            Doc::new(
                Node::Map(Map {
                    items: thin_vec::thin_vec![item("clients", list, 6)],
                }),
                at(f, 5),
            ),
        ],
        meta: Meta::default(),
    };
    let mut out = String::new();
    pos_docset(&ds, &names, &mut out);
    let want = "          tpl.yml:45 | [doc]
                     |   test1
           tpl.yml:5 | [doc]
           tpl.yml:6 |   clients:
           tpl.yml:7 |     [0]
          tpl.yml:14 |       needsSecret: false
          tpl.yml:43 |     [1] something
                     |     [2] <nil>
";
    assert_eq!(out, want);
}

/// Re-emits every YAML output recorded in the conformance corpus (a fixed point of the
/// reference's emitter). Reads `../shared/conformance`: skipped when it is not beside the
/// project, unless `YTT_REQUIRE_CORPUS` is set (CI).
#[test]
fn conformance_outputs_are_fixed_points() {
    use saphyr_parser::{Event, Parser, ScalarStyle};
    let Some(root) =
        crate::yaml::test_support::conformance_cases("conformance_outputs_are_fixed_points")
    else {
        return;
    };
    let mut stack = vec![root];
    let mut cases = Vec::new();
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n == "files" || n == "outdir") {
                    continue;
                }
                stack.push(p);
            } else if p.ends_with("expected/stdout") {
                cases.push(p);
            }
        }
    }
    fn typed(v: &str) -> Node {
        match v {
            "null" => Node::Null,
            "true" => Node::Bool(true),
            "false" => Node::Bool(false),
            ".inf" => Node::Float(f64::INFINITY),
            "-.inf" => Node::Float(f64::NEG_INFINITY),
            ".nan" => Node::Float(f64::NAN),
            _ => {
                if let Ok(i) = v.parse::<i64>() {
                    Node::Int(i.into())
                } else if v.starts_with(|c: char| c.is_ascii_digit() || c == '-')
                    && v.parse::<f64>().is_ok()
                {
                    Node::Float(v.parse().unwrap())
                } else {
                    Node::Str(v.into())
                }
            }
        }
    }
    fn build<'a>(ev: &mut impl Iterator<Item = Event<'a>>, first: Event<'a>) -> Option<Node> {
        Some(match first {
            Event::Scalar(v, ScalarStyle::Plain, _, _) => typed(&v),
            Event::Scalar(v, _, _, _) => Node::Str(v.into()),
            Event::SequenceStart(..) => {
                let mut items = Vec::new();
                loop {
                    let e = ev.next()?;
                    if matches!(e, Event::SequenceEnd) {
                        break;
                    }
                    items.push(build(ev, e)?);
                }
                arr(items)
            }
            Event::MappingStart(..) => {
                let mut items = Vec::new();
                loop {
                    let e = ev.next()?;
                    if matches!(e, Event::MappingEnd) {
                        break;
                    }
                    let k = build(ev, e)?;
                    let e = ev.next()?;
                    items.push((k, build(ev, e)?));
                }
                map(items)
            }
            _ => return None,
        })
    }
    let (mut checked, mut failed) = (0, 0);
    let mut report = String::new();
    for path in cases {
        let case = path.parent().unwrap().parent().unwrap();
        let args = std::fs::read_to_string(case.join("args")).unwrap_or_default();
        // `ytt fmt` has its own printer (comments kept, sequences indented)
        if args.lines().next() == Some("fmt")
            || args.lines().any(|l| {
                l.starts_with("json")
                    || l.starts_with("pos")
                    || l.contains("-o=")
                    || l.contains("--output=")
            })
        {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if text.is_empty() || text.starts_with(['{', '[']) {
            continue;
        }
        let mut events = Vec::new();
        let mut ok = true;
        for r in Parser::new_from_str(&text) {
            match r {
                Ok((e, _)) => events.push(e),
                Err(_) => {
                    ok = false;
                    break;
                }
            }
        }
        if !ok {
            continue;
        }
        let mut it = events.into_iter().filter(|e| {
            !matches!(
                e,
                Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing
            )
        });
        let mut docs = Vec::new();
        let mut bad = false;
        while let Some(e) = it.next() {
            if let Event::DocumentStart(_) = e {
                let Some(first) = it.next() else { break };
                match build(&mut it, first) {
                    Some(n) => docs.push(n),
                    None => {
                        bad = true;
                        break;
                    }
                }
            }
        }
        if bad || docs.is_empty() {
            continue;
        }
        let mut out = String::new();
        yaml_docset(&docset(docs), &mut out);
        checked += 1;
        if out != text {
            failed += 1;
            let line = text
                .lines()
                .zip(out.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            report.push_str(&format!(
                "== {}\n  want: {:?}\n  got:  {:?}\n",
                case.display(),
                text.lines().nth(line).unwrap_or(""),
                out.lines().nth(line).unwrap_or("")
            ));
        }
    }
    eprintln!("{checked} outputs re-emitted, {failed} differ\n{report}");
    assert!(
        checked > 500,
        "only {checked} recorded outputs were found to re-emit"
    );
    assert_eq!(failed, 0);
}

/// Strings carrying bytes that are not UTF-8 (`crate::bytestr`): YAML writes them as
/// go-yaml does (`!!binary` base64, in lines of 70 when longer), JSON replaces each such
/// byte by `\ufffd` (Go's `encoding/json`); a reserved char of the input comes out as
/// itself.
#[test]
fn strings_that_are_not_utf8() {
    let carried = |b: &[u8]| s(&crate::bytestr::decode(b));
    assert_eq!(yaml_of(v(carried(b"\x80"))), "v: !!binary gA==\n");
    assert_eq!(
        json_of(v(carried(b"a\x80\xffb<"))),
        "{\"v\":\"a\\ufffd\\ufffdb\\u003c\"}"
    );
    assert_eq!(
        yaml_of(arr(vec![carried(b"\x80"), carried(&[0xd7, 0x6d, 0xf8])])),
        // base64 that looks like a number stays plain after the tag
        "- !!binary gA==\n- !!binary 1234\n"
    );
    let long = carried(&[0x80; 60]);
    let yaml = yaml_of(v(long));
    assert!(yaml.starts_with("v: !!binary |\n  gICA"), "{yaml}");
    assert_eq!(yaml.lines().nth(1).unwrap().len(), 2 + 70);
    assert_eq!(yaml.lines().count(), 3);
    // a key
    assert_eq!(
        yaml_of(map(vec![(carried(b"\xfe"), s("x"))])),
        "!!binary /g==: x\n"
    );
    // a key of 70 base64 characters or more is a block: libyaml's explicit key (`? `),
    // at the top level and nested; one under that stays an implicit key
    let key_of = |n: usize| carried(&vec![0x80; n]);
    assert_eq!(
        yaml_of(map(vec![(key_of(51), s("x"))])),
        format!("!!binary {}: x\n", "gICA".repeat(17))
    );
    let yaml = yaml_of(map(vec![(key_of(52), s("x"))]));
    assert!(yaml.starts_with("? !!binary |\n  gICA"), "{yaml}");
    assert!(yaml.ends_with("\n: x\n"), "{yaml}");
    let nested = yaml_of(map(vec![(s("m"), map(vec![(key_of(52), s("x"))]))]));
    assert!(
        nested.starts_with("m:\n  ? !!binary |\n    gICA"),
        "{nested}"
    );
    assert!(nested.ends_with("\n  : x\n"), "{nested}");
    // a reserved char of the input
    let reserved = s(&crate::bytestr::decode("x\u{10FF80}".as_bytes()));
    assert_eq!(json_of(v(reserved.clone())), "{\"v\":\"x\u{10FF80}\"}");
    assert_eq!(yaml_of(v(reserved)), "v: \"x\\U0010FF80\"\n");
}
