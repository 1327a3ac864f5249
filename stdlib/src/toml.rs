//! `@ytt:toml`: `encode(v, indent=0)` laid out like Go's BurntSushi/toml encoder (keys
//! sorted; plain keys before tables; sub-tables indented, two spaces by default) and
//! `decode(s)` (tables come back as dicts with sorted keys).

use anyhow::{anyhow, bail};
use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::tuple::UnpackTuple;
use starlark::values::{Heap, Value};

use ytt::module_api::{bind_params, from_node, to_node};
use ytt::yaml::{Array, ArrayItem, Map, MapItem, Meta, Node, ThinVec};

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("toml", toml_members);
}

#[starlark_module]
fn toml_members(builder: &mut GlobalsBuilder) {
    /// TOML text of a map-like value.
    fn encode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<String> {
        let f = "toml.encode";
        let p = bind_params(f, &["value", "indent"], &args.items, &kwargs)?;
        let value = p.required(0)?;
        let indent = p.indent(1)?;
        let node = to_node(value).map_err(|e| anyhow!("{f}: {e}"))?;
        encode_node(&node, indent).map_err(|e| anyhow!("{f}: {e}"))
    }

    /// Parses TOML text into dicts (keys sorted).
    fn decode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        let f = "toml.decode";
        let p = bind_params(f, &["toml_string"], &args.items, &kwargs)?;
        let src = p.str(0)?;
        let node = decode_str(src).map_err(|e| anyhow!("{f}: {e}"))?;
        Ok(from_node(heap, &node))
    }
}

/// Parses TOML text into a node tree with sorted map keys.
pub fn decode_str(src: &str) -> anyhow::Result<Node> {
    let table: toml::Table = src.parse().map_err(|e: toml::de::Error| {
        let line = e.span().map(|s| {
            src.as_bytes()[..s.start.min(src.len())]
                .iter()
                .filter(|b| **b == b'\n')
                .count()
                + 1
        });
        match line {
            Some(l) => anyhow!("toml: line {l}: {}", e.message().trim_end()),
            None => anyhow!("toml: {}", e.message().trim_end()),
        }
    })?;
    Ok(table_node(&table))
}

fn table_node(t: &toml::Table) -> Node {
    let mut items: ThinVec<MapItem> = t
        .iter()
        .map(|(k, v)| MapItem {
            key: Node::Str(k.into()),
            value: value_node(v),
            meta: Meta::default(),
        })
        .collect();
    items.sort_by(|a, b| match (&a.key, &b.key) {
        (Node::Str(x), Node::Str(y)) => x.cmp(y),
        _ => std::cmp::Ordering::Equal,
    });
    Node::Map(Map { items })
}

fn value_node(v: &toml::Value) -> Node {
    match v {
        toml::Value::String(s) => Node::Str(s.into()),
        toml::Value::Integer(i) => Node::Int((*i).into()),
        toml::Value::Float(f) => Node::Float(*f),
        toml::Value::Boolean(b) => Node::Bool(*b),
        toml::Value::Datetime(d) => Node::Str(d.to_string().into()),
        toml::Value::Array(a) => Node::Array(Array {
            items: a
                .iter()
                .map(|v| ArrayItem {
                    value: value_node(v),
                    meta: Meta::default(),
                })
                .collect(),
        }),
        toml::Value::Table(t) => table_node(t),
    }
}

/// TOML text of a node, as BurntSushi/toml's encoder writes it. `indent` 0 means the
/// default of two spaces per sub-table level.
pub fn encode_node(n: &Node, indent: usize) -> anyhow::Result<String> {
    let mut e = Encoder {
        out: String::new(),
        indent: " ".repeat(if indent == 0 { 2 } else { indent }),
        has_written: false,
    };
    // only a map is a TOML document (the reference crashes on `None`; refused here too)
    let Node::Map(m) = n else {
        bail!("toml: top-level values must be Go maps or structs")
    };
    e.map_body(&[], m, false)?;
    Ok(e.out)
}

struct Encoder {
    out: String,
    indent: String,
    has_written: bool,
}

fn is_table(n: &Node) -> anyhow::Result<bool> {
    Ok(match n {
        Node::Map(_) => true,
        Node::Array(a) => is_table_array(a)?,
        _ => false,
    })
}

fn is_table_array(a: &Array) -> anyhow::Result<bool> {
    if a.items.is_empty() {
        return Ok(false);
    }
    let mut all = true;
    for i in &a.items {
        if i.value.is_null() {
            bail!("toml: cannot encode array with nil element");
        }
        if !matches!(i.value, Node::Map(_)) {
            all = false;
        }
    }
    Ok(all)
}

fn is_bare_key(k: &str) -> bool {
    !k.is_empty()
        && k.bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
}

fn quote_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn maybe_quoted(k: &str) -> String {
    if is_bare_key(k) {
        k.to_owned()
    } else {
        quote_str(k)
    }
}

fn key_path(key: &[String]) -> String {
    key.iter()
        .map(|k| maybe_quoted(k))
        .collect::<Vec<_>>()
        .join(".")
}

fn key_str(n: &Node) -> anyhow::Result<&str> {
    match n {
        Node::Str(s) => Ok(s),
        other => bail!(
            "toml: cannot encode a map with a non-string key ({})",
            other.type_name()
        ),
    }
}

impl Encoder {
    fn wf(&mut self, s: &str) {
        self.out.push_str(s);
        self.has_written = true;
    }

    fn newline(&mut self) {
        if self.has_written {
            self.wf("\n");
        }
    }

    fn indent_str(&self, key: &[String]) -> String {
        self.indent.repeat(key.len().saturating_sub(1))
    }

    fn encode(&mut self, key: &[String], n: &Node) -> anyhow::Result<()> {
        match n {
            Node::Null => Ok(()),
            Node::Map(m) => self.table(key, m),
            Node::Array(a) if is_table_array(a)? => self.array_of_tables(key, a),
            other => self.key_value(key, other, false),
        }
    }

    fn key_value(&mut self, key: &[String], n: &Node, inline: bool) -> anyhow::Result<()> {
        let last = key.last().map(|k| maybe_quoted(k)).unwrap_or_default();
        let line = format!("{}{} = ", self.indent_str(key), last);
        self.wf(&line);
        self.element(n)?;
        if !inline {
            self.newline();
        }
        Ok(())
    }

    fn table(&mut self, key: &[String], m: &Map) -> anyhow::Result<()> {
        if key.len() == 1 {
            self.newline();
        }
        if !key.is_empty() {
            let header = format!("{}[{}]", self.indent_str(key), key_path(key));
            self.wf(&header);
            self.newline();
        }
        self.map_body(key, m, false)
    }

    fn array_of_tables(&mut self, key: &[String], a: &Array) -> anyhow::Result<()> {
        for i in &a.items {
            let Node::Map(m) = &i.value else {
                continue;
            };
            self.newline();
            let header = format!("{}[[{}]]", self.indent_str(key), key_path(key));
            self.wf(&header);
            self.newline();
            self.map_body(key, m, false)?;
        }
        Ok(())
    }

    fn map_body(&mut self, key: &[String], m: &Map, inline: bool) -> anyhow::Result<()> {
        let mut direct: Vec<(&str, &Node)> = Vec::new();
        let mut sub: Vec<(&str, &Node)> = Vec::new();
        for i in &m.items {
            let k = key_str(&i.key)?;
            if is_table(&i.value)? {
                sub.push((k, &i.value));
            } else {
                direct.push((k, &i.value));
            }
        }
        direct.sort_by(|a, b| a.0.cmp(b.0));
        sub.sort_by(|a, b| a.0.cmp(b.0));
        if inline {
            self.wf("{");
        }
        let has_sub = !sub.is_empty();
        for (group, trail) in [(direct, has_sub), (sub, false)] {
            let len = group.len();
            for (idx, (k, v)) in group.into_iter().enumerate() {
                if v.is_null() {
                    continue;
                }
                if inline {
                    self.key_value(&[k.to_owned()], v, true)?;
                    if trail || idx != len - 1 {
                        self.wf(", ");
                    }
                } else {
                    let mut path = key.to_vec();
                    path.push(k.to_owned());
                    self.encode(&path, v)?;
                }
            }
        }
        if inline {
            self.wf("}");
        }
        Ok(())
    }

    fn element(&mut self, n: &Node) -> anyhow::Result<()> {
        match n {
            Node::Null => bail!("toml: cannot encode a nil value"),
            Node::Bool(b) => self.wf(if *b { "true" } else { "false" }),
            Node::Int(i) => self.wf(&i.to_string()),
            Node::Float(f) => {
                let s = if f.is_nan() {
                    if f.is_sign_negative() { "-nan" } else { "nan" }.to_owned()
                } else if f.is_infinite() {
                    if *f < 0.0 { "-inf" } else { "inf" }.to_owned()
                } else {
                    let s = format!("{f}");
                    if s.contains('.') {
                        s
                    } else {
                        s + ".0"
                    }
                };
                self.wf(&s);
            }
            Node::Str(s) => self.wf(&quote_str(s)),
            Node::Array(a) => {
                self.wf("[");
                let len = a.items.len();
                for (idx, i) in a.items.iter().enumerate() {
                    if i.value.is_null() {
                        bail!("toml: cannot encode array with nil element");
                    }
                    self.element(&i.value)?;
                    if idx != len - 1 {
                        self.wf(", ");
                    }
                }
                self.wf("]");
            }
            Node::Map(m) => self.map_body(&[], m, true)?,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::eval;

    #[test]
    fn encode() {
        assert_eq!(eval("toml.encode({})"), "");
        assert_eq!(
            eval(r#"toml.encode({"b": "str", "a": [1,2,3,456]})"#),
            "a = [1, 2, 3, 456]\nb = \"str\"\n"
        );
        let v = r#"{"inside_map": {"fragment": ["piece1", "piece2"]}, "inside_array": [{"fragment": ["piece1", "piece2"]}]}"#;
        assert_eq!(
            eval(&format!("toml.encode({v})")),
            "[[inside_array]]\n  fragment = [\"piece1\", \"piece2\"]\n\n[inside_map]\n  fragment = [\"piece1\", \"piece2\"]\n"
        );
        assert_eq!(
            eval(&format!("toml.encode({v}, indent=4)")),
            "[[inside_array]]\n    fragment = [\"piece1\", \"piece2\"]\n\n[inside_map]\n    fragment = [\"piece1\", \"piece2\"]\n"
        );
        assert_eq!(
            eval(
                r#"toml.encode({"a b": 1.0, "x": {"y": {"z": 1}, "w": None}, "l": [{"k": 1}, 2]})"#
            ),
            "\"a b\" = 1.0\nl = [{k = 1}, 2]\n\n[x]\n  [x.y]\n    z = 1\n"
        );
        for v in ["[1, 2]", "[{'a': 1}]", "'x'", "1", "None", "(1,)"] {
            assert_eq!(
                eval(&format!("toml.encode({v})")),
                "ERR toml.encode: toml: top-level values must be Go maps or structs"
            );
        }
        assert_eq!(
            eval(r#"toml.encode({"a": [1, None]})"#),
            "ERR toml.encode: toml: cannot encode array with nil element"
        );
    }

    #[test]
    fn decode() {
        assert_eq!(eval(r#"repr(toml.decode(""))"#), "{}");
        assert_eq!(
            eval(r#"repr(toml.decode('b = "str"\na = [ 1, 2, 3, 456 ]'))"#),
            r#"{"a": [1, 2, 3, 456], "b": "str"}"#
        );
        assert_eq!(
            eval(r#"repr(toml.decode('[[stuff]]\na = 1\n\n[[stuff]]\nb = 2.5\n'))"#),
            r#"{"stuff": [{"a": 1}, {"b": 2.5}]}"#
        );
        assert!(eval(r#"toml.decode("a = ")"#).starts_with("ERR toml.decode: toml: line 1: "));
    }
}
