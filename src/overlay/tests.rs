//! Engine tests without Starlark: annotation arguments live in a table of a fake host.

use std::sync::Arc;

use super::*;
use crate::yaml::parser::{parse, ParseOptions};
use crate::yaml::{
    Annotation, Array, ArrayItem, Doc, DocSet, FileId, FileNames, Map, MapItem, Meta, Pos,
};

enum Arg {
    Node(Node),
    Matcher(Matcher),
}

struct FakeHost {
    args: Vec<Arg>,
    names: FileNames,
}

impl Default for FakeHost {
    fn default() -> Self {
        FakeHost {
            args: Vec::new(),
            names: test_names(),
        }
    }
}

/// The tests' file names (`in.yml` for inputs, `overlay.yml` for overlay documents,
/// `edit.yml` for annotation edits), named in the same order in every table made here,
/// so that the fake host's table knows the ids of every position.
fn test_names() -> FileNames {
    let names = FileNames::default();
    for f in ["in.yml", "overlay.yml", "edit.yml"] {
        names.id(f);
    }
    names
}

fn file(name: &str) -> FileId {
    test_names().id(name)
}

impl FakeHost {
    fn arg(&mut self, a: Arg) -> ValueRef {
        self.args.push(a);
        ValueRef {
            serial: 0,
            index: self.args.len() as u32 - 1,
        }
    }

    fn ann(&mut self, name: &str, kwargs: Vec<(&str, Arg)>) -> Annotation {
        let kwargs = kwargs
            .into_iter()
            .map(|(k, a)| (k.to_owned(), self.arg(a)))
            .collect();
        Annotation::new(name, Pos::unknown(), vec![], kwargs)
    }
}

impl Host for FakeHost {
    fn names(&self) -> &FileNames {
        &self.names
    }
    fn value(&mut self, r: ValueRef) -> anyhow::Result<Node> {
        match self.args.get(r.index as usize) {
            Some(Arg::Node(n)) => Ok(n.clone()),
            _ => anyhow::bail!("not a value"),
        }
    }
    fn is_callable(&mut self, r: ValueRef) -> anyhow::Result<bool> {
        Ok(matches!(
            self.args.get(r.index as usize),
            Some(Arg::Matcher(_))
        ))
    }
    fn call(&mut self, r: ValueRef, args: &[&Node]) -> anyhow::Result<Node> {
        match self.args.get(r.index as usize) {
            Some(Arg::Matcher(m)) if args.len() == 3 => m
                .matches(args[0], args[1], args[2])
                .map(Node::Bool)
                .map_err(|e| anyhow::anyhow!(e)),
            _ => anyhow::bail!("cannot call"),
        }
    }
    fn matcher(&mut self, r: ValueRef) -> anyhow::Result<Option<Matcher>> {
        Ok(match self.args.get(r.index as usize) {
            Some(Arg::Matcher(m)) => Some(m.clone()),
            _ => None,
        })
    }
}

fn yaml(src: &str) -> DocSet {
    parse(src, file("in.yml"), &ParseOptions::default()).expect("valid yaml")
}

fn s(v: &str) -> Node {
    Node::Str(v.into())
}

fn item(key: &str, value: Node, annotations: Vec<Annotation>) -> MapItem {
    MapItem {
        key: s(key),
        value,
        meta: Meta {
            annotations: annotations.into_iter().map(Arc::new).collect(),
            ..Meta::default()
        },
    }
}

fn map(items: Vec<MapItem>) -> Node {
    Node::Map(Map {
        items: items.into(),
    })
}

fn arr(items: Vec<(Node, Vec<Annotation>)>) -> Node {
    Node::Array(Array {
        items: items
            .into_iter()
            .map(|(value, annotations)| ArrayItem {
                value,
                meta: Meta {
                    annotations: annotations.into_iter().map(Arc::new).collect(),
                    ..Meta::default()
                },
            })
            .collect(),
    })
}

fn doc(value: Node, annotations: Vec<Annotation>) -> Doc {
    Doc::new(
        value,
        Meta {
            annotations: annotations.into_iter().map(Arc::new).collect(),
            pos: Pos::new(file("overlay.yml"), 1),
            ..Meta::default()
        },
    )
}

fn subset(h: &mut FakeHost, src: &str) -> Annotation {
    let expected = yaml(src).docs.remove(0).value;
    h.ann(
        "overlay/match",
        vec![
            ("by", Arg::Matcher(Matcher::Subset(expected))),
            ("expects", Arg::Node(s("0+"))),
        ],
    )
}

fn missing_ok(h: &mut FakeHost) -> Vec<Annotation> {
    vec![h.ann(
        "overlay/match",
        vec![("missing_ok", Arg::Node(Node::Bool(true)))],
    )]
}

/// The six overlays of the benchmark (`bench/gen.py overlays`).
fn bench_overlays(h: &mut FakeHost) -> Vec<Doc> {
    let all = h.ann(
        "overlay/match",
        vec![
            ("by", Arg::Matcher(Matcher::All)),
            ("expects", Arg::Node(s("1+"))),
        ],
    );
    let o1 = doc(
        map(vec![item(
            "metadata",
            map(vec![item(
                "annotations",
                map(vec![item("managed-by", s("platform"), missing_ok(h))]),
                missing_ok(h),
            )]),
            vec![],
        )]),
        vec![all],
    );
    let by_name = |h: &mut FakeHost| {
        vec![h.ann(
            "overlay/match",
            vec![("by", Arg::Matcher(Matcher::MapKey(s("name"))))],
        )]
    };
    let containers = |c: Node| {
        map(vec![item(
            "spec",
            map(vec![item(
                "template",
                map(vec![item(
                    "spec",
                    map(vec![item("containers", c, vec![])]),
                    vec![],
                )]),
                vec![],
            )]),
            vec![],
        )])
    };
    let env = arr(vec![
        (
            map(vec![
                item("name", s("A"), vec![]),
                item("value", s("y"), vec![]),
            ]),
            by_name(h),
        ),
        (
            map(vec![
                item("name", s("B"), vec![]),
                item("value", s("added"), vec![]),
            ]),
            vec![],
        ),
    ]);
    let o2 = doc(
        containers(arr(vec![(
            map(vec![
                item("name", s("main"), vec![]),
                item("env", env, vec![]),
            ]),
            by_name(h),
        )])),
        vec![subset(h, "kind: Deployment")],
    );
    let o3 = doc(
        Node::Null,
        vec![
            subset(h, "{kind: ConfigMap, metadata: {namespace: ns3}}"),
            h.ann("overlay/remove", vec![]),
        ],
    );
    let o4 = doc(
        map(vec![item(
            "metadata",
            map(vec![item(
                "labels",
                map(vec![item("zone", s("east"), missing_ok(h))]),
                vec![],
            )]),
            vec![],
        )]),
        vec![subset(h, "metadata: {namespace: ns1}")],
    );
    let mut remove = by_name(h);
    remove.push(h.ann("overlay/remove", vec![]));
    let o5 = doc(
        containers(arr(vec![(
            map(vec![item("name", s("sidecar"), vec![])]),
            remove,
        )])),
        vec![subset(h, "kind: Deployment")],
    );
    let o6 = doc(
        map(vec![item(
            "data",
            map(vec![item("extra", s("1"), missing_ok(h))]),
            vec![],
        )]),
        vec![subset(h, "kind: ConfigMap")],
    );
    vec![o1, o2, o3, o4, o5, o6]
}

fn bench_input(n: usize) -> String {
    let mut out = String::new();
    for i in 0..n {
        out.push_str("---\n");
        let kind = if i % 2 == 0 {
            "Deployment"
        } else {
            "ConfigMap"
        };
        out.push_str(&format!(
            "apiVersion: v1\nkind: {kind}\nmetadata:\n  name: obj{i}\n  namespace: ns{}\n  labels:\n    app: a{}\n",
            i % 7,
            i % 31
        ));
        if kind == "Deployment" {
            out.push_str(&format!(
                "spec:\n  template:\n    spec:\n      containers:\n      - name: main\n        image: img{i}\n        env:\n        - name: A\n          value: x\n      - name: sidecar\n        image: side{i}\n"
            ));
        } else {
            out.push_str(&format!("data:\n  key: v{i}\n"));
        }
    }
    out
}

#[test]
fn bench_overlays_edit_documents() {
    let mut h = FakeHost::default();
    let overlays = bench_overlays(&mut h);
    let mut left = vec![yaml(&bench_input(14))];
    for o in &overlays {
        apply_to_docsets(&mut left, o, &mut h).expect("overlay applies");
    }
    let docs = &left[0].docs;
    // ConfigMaps in ns3 (i % 7 == 3, i odd): i = 3 → removed
    assert_eq!(docs.len(), 13);
    let mut out = String::new();
    crate::yaml::emit::yaml_docset(
        &DocSet {
            docs: docs[..2].to_vec(),
            meta: Meta::default(),
        },
        &mut out,
    );
    assert_eq!(
        out,
        "apiVersion: v1\nkind: Deployment\nmetadata:\n  name: obj0\n  namespace: ns0\n  labels:\n    app: a0\n  annotations:\n    managed-by: platform\nspec:\n  template:\n    spec:\n      containers:\n      - name: main\n        image: img0\n        env:\n        - name: A\n          value: \"y\"\n        - name: B\n          value: added\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: obj1\n  namespace: ns1\n  labels:\n    app: a1\n    zone: east\n  annotations:\n    managed-by: platform\ndata:\n  key: v1\n  extra: \"1\"\n"
    );
}

/// Timing guard for the benchmark workload (20,000 documents, six overlays); the release
/// target is far below this debug-build bound.
#[test]
fn bench_overlays_scale_linearly() {
    let mut h = FakeHost::default();
    let overlays = bench_overlays(&mut h);
    let mut left = vec![yaml(&bench_input(20_000))];
    let start = std::time::Instant::now();
    for o in &overlays {
        apply_to_docsets(&mut left, o, &mut h).expect("overlay applies");
    }
    let took = start.elapsed();
    assert!(took.as_secs_f64() < 5.0, "took {took:?}");
    eprintln!("six overlays on 20,000 documents: {took:?}");
}

#[test]
fn document_expectation_error_lists_lines() {
    let mut h = FakeHost::default();
    let mut left = vec![yaml("---\nid: 1\n---\nid: 2\n")];
    let all = h.ann("overlay/match", vec![("by", Arg::Matcher(Matcher::All))]);
    let o = doc(map(vec![item("x", Node::Int(1.into()), vec![])]), vec![all]);
    let e = apply_to_docsets(&mut left, &o, &mut h).unwrap_err();
    assert_eq!(
        e.indented(1),
        "  Document on line overlay.yml:1:\n    Expected number of matched nodes to be 1, but was 2 (lines: in.yml:1, in.yml:3)"
    );
}

#[test]
fn append_and_unmatched_merge_go_to_last_docset() {
    let mut h = FakeHost::default();
    let mut left = vec![yaml("a: 1\n"), yaml("b: 2\n")];
    let app = h.ann("overlay/append", vec![]);
    apply_to_docsets(
        &mut left,
        &doc(map(vec![item("c", Node::Int(3.into()), vec![])]), vec![app]),
        &mut h,
    )
    .unwrap();
    assert_eq!(left[0].docs.len(), 1);
    assert_eq!(left[1].docs.len(), 2);
    assert!(left[1].docs[1].meta.annotations.is_empty());
}

#[test]
fn document_index_is_global_across_docsets() {
    let mut h = FakeHost::default();
    let mut left = vec![yaml("a: 1\n"), yaml("b: 2\n")];
    let m = h.ann(
        "overlay/match",
        vec![("by", Arg::Matcher(Matcher::Index(1)))],
    );
    let rm = h.ann("overlay/remove", vec![]);
    apply_to_docsets(&mut left, &doc(Node::Null, vec![m, rm]), &mut h).unwrap();
    assert_eq!(left[0].docs.len(), 1);
    assert_eq!(left[1].docs.len(), 0);
}

#[test]
fn apply_node_merges_and_replaces_scalars() {
    let mut h = FakeHost::default();
    let left = yaml("a: 1\nb:\n  c: [1, 2]\n").docs.remove(0).value;
    let right = map(vec![
        item("a", Node::Int(5.into()), vec![]),
        item(
            "b",
            map(vec![item(
                "c",
                arr(vec![(Node::Int(3.into()), vec![])]),
                vec![],
            )]),
            vec![],
        ),
    ]);
    let out = apply_node(left, &right, None, &mut h).unwrap();
    let expected = yaml("a: 5\nb:\n  c: [1, 2, 3]\n").docs.remove(0).value;
    assert!(out.value_eq(&expected), "{out:?}");
}

#[test]
fn remove_of_missing_key_fails_without_missing_ok() {
    let mut h = FakeHost::default();
    let left = yaml("a: 1\n").docs.remove(0).value;
    let rm = h.ann("overlay/remove", vec![]);
    let right = map(vec![item("b", Node::Null, vec![rm])]);
    let e = apply_node(left, &right, None, &mut h).unwrap_err();
    assert_eq!(
        e.inline(),
        "Map item (key 'b') on line ?: Expected number of matched nodes to be 1, but was 0"
    );
}

/// An annotation with positional arguments (read from the fake host's table).
fn ann_args(h: &mut FakeHost, name: &str, line: u32, args: Vec<Node>) -> Annotation {
    let args = args.into_iter().map(|a| h.arg(Arg::Node(a))).collect();
    Annotation::new(name, Pos::new(file("edit.yml"), line), args, vec![])
}

fn names(meta: &Meta) -> Vec<String> {
    meta.annotations.iter().map(|a| a.name.clone()).collect()
}

#[test]
fn noop_keeps_the_value_and_applies_edits() {
    let mut h = FakeHost::default();
    let base_rule = ann_args(&mut h, "schema/validation", 1, vec![s("a")]);
    let left = map(vec![item("port", Node::Int(80.into()), vec![base_rule])]);
    let new_rule = ann_args(&mut h, "schema/validation", 5, vec![s("b")]);
    let right = map(vec![item(
        "port",
        Node::Null,
        vec![
            h.ann("overlay/noop", vec![]),
            h.ann("overlay/merge-anns", vec![]),
            new_rule,
        ],
    )]);
    let out = apply_node(left, &right, None, &mut h).unwrap();
    let Node::Map(m) = out else { panic!() };
    assert_eq!(m.items[0].value, Node::Int(80.into()), "noop: value kept");
    assert_eq!(names(&m.items[0].meta), ["schema/validation"]);
    let merged = &m.items[0].meta.annotations[0];
    assert_eq!(merged.args.len(), 2);
    assert_eq!(merged.arg_pos(0).line, 1);
    assert_eq!(merged.arg_pos(1).line, 5);
}

#[test]
fn edits_compose_with_merge_replace_and_missing_ok() {
    let mut h = FakeHost::default();
    let keep = ann_args(&mut h, "schema/desc", 1, vec![s("d")]);
    let old = ann_args(&mut h, "schema/validation", 2, vec![s("old")]);
    let left = map(vec![
        item("a", Node::Int(1.into()), vec![keep.clone(), old.clone()]),
        item("b", Node::Int(2.into()), vec![keep, old]),
    ]);
    let new = ann_args(&mut h, "schema/validation", 9, vec![s("new")]);
    let mut missing = missing_ok(&mut h);
    missing.push(h.ann("overlay/replace-ann", vec![]));
    missing.push(new.clone());
    let mut replace = vec![
        h.ann("overlay/replace", vec![]),
        h.ann("overlay/replace-ann", vec![]),
    ];
    replace.push(new.clone());
    let right = map(vec![
        // merge (the default): the value merges, the rule is replaced, others stay
        item(
            "a",
            Node::Int(10.into()),
            vec![h.ann("overlay/replace-ann", vec![]), new],
        ),
        // replace: the value is the overlay's, the matched node's annotations edited
        item("b", Node::Int(20.into()), replace),
        // nothing matched, missing_ok: added as written
        item("c", Node::Int(30.into()), missing),
    ]);
    let Node::Map(m) = apply_node(left, &right, None, &mut h).unwrap() else {
        panic!()
    };
    for (i, v) in [10, 20, 30].into_iter().enumerate() {
        assert_eq!(m.items[i].value, Node::Int(v.into()));
        let rule = m.items[i].meta.annotation("schema/validation").unwrap();
        assert_eq!(rule.pos.line, 9, "item {i}");
    }
    assert_eq!(
        names(&m.items[0].meta),
        ["schema/desc", "schema/validation"]
    );
    assert_eq!(
        names(&m.items[1].meta),
        ["schema/desc", "schema/validation"]
    );
    assert_eq!(names(&m.items[2].meta), ["schema/validation"]);
}

#[test]
fn remove_anns_on_documents_and_array_items() {
    let mut h = FakeHost::default();
    let rule = ann_args(&mut h, "assert/validate", 1, vec![s("r")]);
    let mut left = vec![DocSet {
        docs: vec![Doc::new(
            map(vec![item(
                "list",
                arr(vec![(Node::Int(1.into()), vec![rule.clone()])]),
                vec![],
            )]),
            Meta {
                annotations: [Arc::new(rule)].into_iter().collect(),
                ..Meta::default()
            },
        )],
        meta: Meta::default(),
    }];
    let all = h.ann("overlay/match", vec![("by", Arg::Matcher(Matcher::All))]);
    let remove = ann_args(&mut h, "overlay/remove-anns", 3, vec![s("assert/validate")]);
    let item_match = h.ann(
        "overlay/match",
        vec![("by", Arg::Matcher(Matcher::Index(0)))],
    );
    let overlay = doc(
        map(vec![item(
            "list",
            arr(vec![(
                Node::Null,
                vec![item_match, h.ann("overlay/noop", vec![]), remove.clone()],
            )]),
            vec![],
        )]),
        vec![all, remove],
    );
    apply_to_docsets(&mut left, &overlay, &mut h).unwrap();
    let d = &left[0].docs[0];
    assert!(d.meta.annotations.is_empty());
    let Node::Map(m) = &d.value else { panic!() };
    let Node::Array(a) = &m.items[0].value else {
        panic!()
    };
    assert_eq!(a.items[0].value, Node::Int(1.into()));
    assert!(a.items[0].meta.annotations.is_empty());
}

#[test]
fn annotation_edit_errors() {
    let mut h = FakeHost::default();
    let left = || map(vec![item("a", Node::Int(1.into()), vec![])]);
    let try_with = |h: &mut FakeHost, anns: Vec<Annotation>| {
        let right = map(vec![item("a", Node::Int(2.into()), anns)]);
        apply_node(left(), &right, None, h).unwrap_err().to_string()
    };
    let unknown = ann_args(&mut h, "overlay/remove-anns", 1, vec![s("schema/validate")]);
    assert!(try_with(&mut h, vec![unknown])
        .contains("Unknown annotation 'schema/validate' in 'overlay/remove-anns'"));
    let none = ann_args(&mut h, "overlay/remove-anns", 1, vec![]);
    assert!(try_with(&mut h, vec![none]).contains("to name at least one annotation"));
    let not_str = ann_args(&mut h, "overlay/remove-anns", 1, vec![Node::Int(1.into())]);
    assert!(try_with(&mut h, vec![not_str]).contains("to be annotation names (strings)"));
    let both = vec![
        h.ann("overlay/replace-ann", vec![]),
        h.ann("overlay/merge-anns", vec![]),
    ];
    assert!(try_with(&mut h, both).contains("Expected only one of"));
    let with_remove = vec![
        h.ann("overlay/remove", vec![]),
        h.ann("overlay/merge-anns", vec![]),
    ];
    assert!(try_with(&mut h, with_remove).contains("with @overlay/remove"));
}
