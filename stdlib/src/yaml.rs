//! `@ytt:yaml`: `encode(value)` with ytt's YAML emitter, `decode(string)` of exactly one
//! document (map order preserved).

use anyhow::{anyhow, bail};
use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::tuple::UnpackTuple;
use starlark::values::{Heap, Value, ValueLike};

use ytt::module_api::{check_positional, from_node, to_node, FragmentNode, YamlFragment};
use ytt::yaml::parser::{parse, ParseOptions};
use ytt::yaml::{FileId, Node};

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("yaml", yaml_members);
}

#[starlark_module]
fn yaml_members(builder: &mut GlobalsBuilder) {
    /// Serialises a value as YAML (several documents for a document-set fragment).
    fn encode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<String> {
        check_positional("yaml.encode", &args.items, &kwargs, 1, 1)?;
        encode_value(args.items[0]).map_err(|e| anyhow!("yaml.encode: {e}"))
    }

    /// Parses a single YAML document; maps become dicts (in document order).
    fn decode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        check_positional("yaml.decode", &args.items, &kwargs, 1, 1)?;
        let v = args.items[0];
        let Some(src) = v.unpack_str() else {
            bail!(
                "yaml.decode: for parameter 1: got {}, want string",
                v.get_type()
            );
        };
        let node = decode_str(src).map_err(|e| anyhow!("yaml.decode: {e}"))?;
        Ok(from_node(heap, &node))
    }
}

/// Parses YAML text holding exactly one document.
pub fn decode_str(src: &str) -> anyhow::Result<Node> {
    // the result is plain Starlark values: positions are not kept, so name no file
    let mut ds =
        parse(src, FileId::default(), &ParseOptions::default()).map_err(|e| anyhow!("{e}"))?;
    if ds.docs.len() != 1 {
        bail!("Expected to find exactly one YAML document");
    }
    Ok(ds.docs.remove(0).value)
}

/// The YAML text of a Starlark value, as `yaml.encode` gives it. A document-set fragment
/// gives one YAML document per document, separated by `---`. Empty documents print
/// nothing, as in the output (`Doc::is_empty`): `yaml.encode(None)` is `""`.
pub fn encode_value(v: Value) -> anyhow::Result<String> {
    if let Some(f) = v.downcast_ref::<YamlFragment>() {
        if let FragmentNode::DocSet(ds) = &*f.node {
            let docs: Vec<Node> = ds
                .docs
                .iter()
                .filter(|d| !d.is_empty())
                .map(|d| d.value.clone())
                .collect();
            return emit_docs(&docs);
        }
    }
    match to_node(v)? {
        Node::Null => Ok(String::new()),
        node => emit_docs(std::slice::from_ref(&node)),
    }
}

/// Emits nodes as YAML documents joined by `---` (no leading separator).
pub fn emit_docs(docs: &[Node]) -> anyhow::Result<String> {
    let mut out = String::new();
    for (i, d) in docs.iter().enumerate() {
        if i > 0 {
            out.push_str("---\n");
        }
        out.push_str(&emit_node(d)?);
    }
    Ok(out)
}

/// One YAML document (without `---`), ending in a newline.
fn emit_node(n: &Node) -> anyhow::Result<String> {
    Ok(ytt::yaml::emit::yaml_node(n))
}

#[cfg(test)]
mod tests {
    use crate::testutil::eval;

    #[test]
    fn arg_errors() {
        assert_eq!(
            eval("yaml.encode()"),
            "ERR yaml.encode: got 0 arguments, want 1"
        );
        assert_eq!(
            eval("yaml.decode(1)"),
            "ERR yaml.decode: for parameter 1: got int, want string"
        );
    }

    #[test]
    fn encode() {
        assert_eq!(
            eval(r#"yaml.encode({"a": [1,2,3,{"c":456}], "b": "str"})"#),
            "a:\n- 1\n- 2\n- 3\n- c: 456\nb: str\n"
        );
        assert_eq!(eval("yaml.encode({})"), "{}\n");
    }

    #[test]
    fn decode() {
        assert_eq!(
            eval(r#"repr(yaml.decode('{"b":[1,2,3,{"c":456}],"a":"str"}'))"#),
            r#"{"b": [1, 2, 3, {"c": 456}], "a": "str"}"#
        );
        assert_eq!(eval(r#"yaml.decode("{}")"#), "{}");
        assert_eq!(
            eval(r#"yaml.decode("a: 1\n---\nb: 2\n")"#),
            "ERR yaml.decode: Expected to find exactly one YAML document"
        );
    }
}

#[cfg(test)]
mod more_tests {
    use starlark::environment::Module;

    use super::encode_value;
    use crate::testutil::eval;
    use ytt::module_api::{FragmentNode, YamlFragment};
    use ytt::yaml::{Doc, DocSet, Map, MapItem, Meta, Node};

    #[test]
    fn decode_shapes() {
        assert_eq!(eval(r#"repr(yaml.decode(""))"#), "None");
        assert_eq!(eval(r#"repr(yaml.decode("foo"))"#), r#""foo""#);
        assert_eq!(eval(r#"repr(yaml.decode("---\nfoo"))"#), r#""foo""#);
        assert_eq!(
            eval(r#"repr(yaml.decode("a: &x [1, yes]\nb: *x\n"))"#),
            r#"{"a": [1, True], "b": [1, True]}"#
        );
        assert!(eval(r#"yaml.decode("a: b: c")"#).starts_with("ERR yaml.decode: yaml: line 1: "));
    }

    #[test]
    fn encode_docset() {
        let doc = |n: Node| Doc::new(n, Meta::default());
        let map = Node::Map(Map {
            items: vec![MapItem {
                key: Node::Str("a".into()),
                value: Node::Int(1.into()),
                meta: Meta::default(),
            }]
            .into(),
        });
        let ds = DocSet {
            docs: vec![doc(map), doc(Node::Str("doc2".into()))],
            meta: Meta::default(),
        };
        let out = Module::with_temp_heap(|m| {
            let v = m.heap().alloc(YamlFragment::new(FragmentNode::DocSet(ds)));
            encode_value(v).map_err(|e| e.to_string())
        });
        assert_eq!(out.as_deref(), Ok("a: 1\n---\ndoc2\n"));
    }
}
