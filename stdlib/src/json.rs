//! `@ytt:json`: `encode(v, indent=0, escape_html=True)` (keys sorted, Go `encoding/json`
//! style) and `decode(s)` (maps come back with their keys sorted, like a Go map; integers
//! stay integers). Decoding errors use Go's wording (`invalid character '}' looking for
//! beginning of value`).

use std::collections::BTreeMap;

use anyhow::{anyhow, bail};
use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::tuple::UnpackTuple;
use starlark::values::{Heap, Value};

use ytt::module_api::{bind_params, from_node, to_node};
use ytt::yaml::{Array, ArrayItem, Map, MapItem, Meta, Node, ThinVec};

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("json", json_members);
}

#[starlark_module]
fn json_members(builder: &mut GlobalsBuilder) {
    /// JSON text of a value: keys sorted, HTML-escaped unless `escape_html=False`,
    /// `indent` (0–8) spaces per level when non-zero.
    fn encode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<String> {
        let f = "json.encode";
        let p = bind_params(f, &["value", "indent", "escape_html"], &args.items, &kwargs)?;
        let value = p.required(0)?;
        let indent = p.indent(1)?;
        let escape_html = p.bool_or(2, true)?;
        let node = to_node(value).map_err(|e| anyhow!("{f}: {e}"))?;
        ytt::yaml::emit::json_value(&node, indent, escape_html).map_err(|e| anyhow!("{f}: {e}"))
    }

    /// Parses JSON text; objects become dicts with sorted keys.
    fn decode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        let f = "json.decode";
        let p = bind_params(f, &["json_string"], &args.items, &kwargs)?;
        let src = p.str(0)?;
        let node = decode_str(src).map_err(|e| anyhow!("{f}: {e}"))?;
        Ok(from_node(heap, &node))
    }
}

/// Parses JSON text into a node tree (object keys sorted; duplicate keys: last wins).
pub fn decode_str(src: &str) -> anyhow::Result<Node> {
    let mut p = Parser {
        b: src.as_bytes(),
        i: 0,
    };
    p.skip_ws();
    let v = p.value(0)?;
    p.skip_ws();
    if let Some(&c) = p.b.get(p.i) {
        bail!("invalid character {} after top-level value", quote_char(c));
    }
    Ok(v)
}

const MAX_DEPTH: usize = 1000;

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
}

fn quote_char(c: u8) -> String {
    match c {
        b'\'' => r"'\''".to_owned(),
        b'"' => "'\"'".to_owned(),
        0x07 => r"'\a'".to_owned(),
        0x08 => r"'\b'".to_owned(),
        0x0c => r"'\f'".to_owned(),
        b'\n' => r"'\n'".to_owned(),
        b'\r' => r"'\r'".to_owned(),
        b'\t' => r"'\t'".to_owned(),
        0x0b => r"'\v'".to_owned(),
        b'\\' => r"'\\'".to_owned(),
        c if c < 0x20 || c == 0x7f => format!("'\\x{c:02x}'"),
        c if (0x80..0xa0).contains(&c) => format!("'\\u{c:04x}'"),
        c => format!("'{}'", c as char),
    }
}

fn eof() -> anyhow::Error {
    anyhow!("unexpected end of JSON input")
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.i += 1;
        }
    }

    fn value(&mut self, depth: usize) -> anyhow::Result<Node> {
        if depth > MAX_DEPTH {
            bail!("exceeded max depth");
        }
        let Some(c) = self.peek() else {
            return Err(eof());
        };
        match c {
            b'{' => {
                self.i += 1;
                self.object(depth)
            }
            b'[' => {
                self.i += 1;
                self.array(depth)
            }
            b'"' => {
                self.i += 1;
                Ok(Node::Str(self.string()?.into()))
            }
            b't' => self.literal("true", Node::Bool(true)),
            b'f' => self.literal("false", Node::Bool(false)),
            b'n' => self.literal("null", Node::Null),
            b'-' | b'0'..=b'9' => self.number(),
            c => bail!(
                "invalid character {} looking for beginning of value",
                quote_char(c)
            ),
        }
    }

    fn literal(&mut self, word: &str, v: Node) -> anyhow::Result<Node> {
        for (k, expected) in word.bytes().enumerate() {
            match self.peek() {
                None => return Err(eof()),
                Some(c) if c == expected => self.i += 1,
                Some(c) => {
                    if k == 0 {
                        bail!(
                            "invalid character {} looking for beginning of value",
                            quote_char(c)
                        );
                    }
                    bail!(
                        "invalid character {} in literal {word} (expecting {})",
                        quote_char(c),
                        quote_char(expected)
                    );
                }
            }
        }
        Ok(v)
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while let Some(b'0'..=b'9') = self.peek() {
            self.i += 1;
        }
        self.i - start
    }

    fn number(&mut self) -> anyhow::Result<Node> {
        let start = self.i;
        let mut is_float = false;
        if self.peek() == Some(b'-') {
            self.i += 1;
            match self.peek() {
                None => return Err(eof()),
                Some(b'0'..=b'9') => {}
                Some(c) => bail!("invalid character {} in numeric literal", quote_char(c)),
            }
        }
        if self.peek() == Some(b'0') {
            self.i += 1;
        } else {
            self.digits();
        }
        if self.peek() == Some(b'.') {
            is_float = true;
            self.i += 1;
            match self.peek() {
                None => return Err(eof()),
                Some(b'0'..=b'9') => {
                    self.digits();
                }
                Some(c) => bail!(
                    "invalid character {} after decimal point in numeric literal",
                    quote_char(c)
                ),
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            is_float = true;
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            match self.peek() {
                None => return Err(eof()),
                Some(b'0'..=b'9') => {
                    self.digits();
                }
                Some(c) => bail!(
                    "invalid character {} in exponent of numeric literal",
                    quote_char(c)
                ),
            }
        }
        let text = std::str::from_utf8(&self.b[start..self.i]).unwrap_or("0");
        if !is_float {
            if let Ok(i) = text.parse::<i64>() {
                return Ok(Node::Int(i.into()));
            }
            if let Ok(u) = text.parse::<u64>() {
                return Ok(Node::Int(u.into()));
            }
        }
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Node::Float(f)),
            _ => bail!("json: cannot unmarshal number {text} into Go value of type float64"),
        }
    }

    fn hex4(&mut self) -> anyhow::Result<u32> {
        let mut v = 0u32;
        for _ in 0..4 {
            let Some(c) = self.peek() else {
                return Err(eof());
            };
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => bail!(
                    "invalid character {} in \\u hexadecimal character escape",
                    quote_char(c)
                ),
            };
            v = v * 16 + d as u32;
            self.i += 1;
        }
        Ok(v)
    }

    /// After the opening quote.
    fn string(&mut self) -> anyhow::Result<String> {
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(eof());
            };
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let Some(e) = self.peek() else {
                        return Err(eof());
                    };
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            if (0xd800..0xdc00).contains(&hi)
                                && self.b.get(self.i) == Some(&b'\\')
                                && self.b.get(self.i + 1) == Some(&b'u')
                            {
                                let save = self.i;
                                self.i += 2;
                                let lo = self.hex4()?;
                                if (0xdc00..0xe000).contains(&lo) {
                                    let cp = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
                                    char::from_u32(cp).unwrap_or('\u{fffd}')
                                } else {
                                    self.i = save;
                                    '\u{fffd}'
                                }
                            } else {
                                char::from_u32(hi).unwrap_or('\u{fffd}')
                            }
                        }
                        other => bail!(
                            "invalid character {} in string escape code",
                            quote_char(other)
                        ),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                c if c < 0x20 => {
                    bail!("invalid character {} in string literal", quote_char(c))
                }
                c => out.push(c),
            }
        }
        // the input is a &str and escapes produce valid UTF-8
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    /// After `{`.
    fn object(&mut self, depth: usize) -> anyhow::Result<Node> {
        let mut map: BTreeMap<String, Node> = BTreeMap::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(Node::Map(Map::default()));
        }
        loop {
            match self.peek() {
                None => return Err(eof()),
                Some(b'"') => self.i += 1,
                Some(c) => bail!(
                    "invalid character {} looking for beginning of object key string",
                    quote_char(c)
                ),
            }
            let key = self.string()?;
            self.skip_ws();
            match self.peek() {
                None => return Err(eof()),
                Some(b':') => self.i += 1,
                Some(c) => bail!("invalid character {} after object key", quote_char(c)),
            }
            self.skip_ws();
            let v = self.value(depth + 1)?;
            map.insert(key, v);
            self.skip_ws();
            match self.peek() {
                None => return Err(eof()),
                Some(b',') => {
                    self.i += 1;
                    self.skip_ws();
                }
                Some(b'}') => {
                    self.i += 1;
                    break;
                }
                Some(c) => bail!(
                    "invalid character {} after object key:value pair",
                    quote_char(c)
                ),
            }
        }
        Ok(Node::Map(Map {
            items: map
                .into_iter()
                .map(|(k, v)| MapItem {
                    key: Node::Str(k.into()),
                    value: v,
                    meta: Meta::default(),
                })
                .collect(),
        }))
    }

    /// After `[`.
    fn array(&mut self, depth: usize) -> anyhow::Result<Node> {
        let mut items = ThinVec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(Node::Array(Array::default()));
        }
        loop {
            let v = self.value(depth + 1)?;
            items.push(ArrayItem {
                value: v,
                meta: Meta::default(),
            });
            self.skip_ws();
            match self.peek() {
                None => return Err(eof()),
                Some(b',') => {
                    self.i += 1;
                    self.skip_ws();
                }
                Some(b']') => {
                    self.i += 1;
                    break;
                }
                Some(c) => bail!("invalid character {} after array element", quote_char(c)),
            }
        }
        Ok(Node::Array(Array { items }))
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::eval;

    #[test]
    fn encode() {
        assert_eq!(eval("json.encode({})"), "{}");
        assert_eq!(
            eval(r#"json.encode({"b": "str", "a": [1,2,3,{"c":456}]})"#),
            r#"{"a":[1,2,3,{"c":456}],"b":"str"}"#
        );
        assert_eq!(
            eval(r#"json.encode({"a": [1,{"c":456}], "b": "str"}, indent=4)"#),
            "{\n    \"a\": [\n        1,\n        {\n            \"c\": 456\n        }\n    ],\n    \"b\": \"str\"\n}"
        );
        assert_eq!(
            eval(r#"json.encode({"a": "<123>"})"#),
            r#"{"a":"\u003c123\u003e"}"#
        );
        assert_eq!(
            eval(r#"json.encode({"a": "<123>"}, escape_html=False)"#),
            r#"{"a":"<123>"}"#
        );
        assert_eq!(
            eval("json.encode(1, indent=9)"),
            "ERR json.encode: indent value must be between 0 and 8"
        );
        assert_eq!(
            eval("json.encode()"),
            "ERR json.encode: missing argument for value"
        );
    }

    #[test]
    fn decode() {
        assert_eq!(eval(r#"repr(json.decode("{}"))"#), "{}");
        assert_eq!(
            eval(r#"repr(json.decode('{"b":"str","a":[1,2.5,-3,{"c":456}],"n":null,"t":true}'))"#),
            r#"{"a": [1, 2.5, -3, {"c": 456}], "b": "str", "n": None, "t": True}"#
        );
        assert_eq!(
            eval(r#"json.decode('"a\\u00e9\\n\\ud83d\\ude00"') == "a\u00e9\n\U0001F600""#),
            "True"
        );
        assert_eq!(eval(r#"type(json.decode("1.0"))"#), "float");
        assert_eq!(eval(r#"type(json.decode("12"))"#), "int");
    }

    #[test]
    fn decode_errors() {
        for (src, msg) in [
            (
                "}junk",
                "invalid character '}' looking for beginning of value",
            ),
            ("", "unexpected end of JSON input"),
            ("{\"a\":1", "unexpected end of JSON input"),
            ("{\"a\" 1}", "invalid character '1' after object key"),
            (
                "{\"a\":1,}",
                "invalid character '}' looking for beginning of object key string",
            ),
            ("[1 2]", "invalid character '2' after array element"),
            (
                "[1,]",
                "invalid character ']' looking for beginning of value",
            ),
            ("tru", "unexpected end of JSON input"),
            (
                "trux",
                "invalid character 'x' in literal true (expecting 'e')",
            ),
            ("1 2", "invalid character '2' after top-level value"),
            ("-x", "invalid character 'x' in numeric literal"),
            (
                "1.x",
                "invalid character 'x' after decimal point in numeric literal",
            ),
            (
                "'a'",
                r"invalid character '\'' looking for beginning of value",
            ),
        ] {
            let code = format!("json.decode({src:?})");
            assert_eq!(eval(&code), format!("ERR json.decode: {msg}"), "{src}");
        }
    }
}
