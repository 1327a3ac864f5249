//! `@ytt:url`: Go `net/url` escaping, query parsing and URL values (Go's semantics are
//! `ytt::module_api::url`, which `cel=`'s `url()` reads with too).

use std::fmt;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::collections::SmallMap;
use starlark::environment::{GlobalsBuilder, Methods, MethodsBuilder, MethodsStatic};
use starlark::starlark_module;
use starlark::starlark_simple_value;
use starlark::values::dict::{AllocDict, DictRef};
use starlark::values::list::{AllocList, ListRef};
use starlark::values::none::NoneOr;
use starlark::values::tuple::{TupleRef, UnpackTuple};
use starlark::values::{Heap, NoSerialize, StarlarkPagable, StarlarkValue, Value};
use starlark_derive::starlark_value;

use ytt::module_api::url::{self as go_url, escape, unescape, GoUrl, Mode, UserInfo};
use ytt::module_api::{check_positional, string_arg};

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("url", members);
}

// ---------------------------------------------------------------------------------------
// Starlark values

/// `@ytt:url.value`: a parsed URL.
#[derive(Debug, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative)]
pub struct UrlValue {
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    url: Box<GoUrl>,
}
starlark_simple_value!(UrlValue);

impl fmt::Display for UrlValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@ytt:url.value")
    }
}

static URL_METHODS: MethodsStatic = MethodsStatic::new("url_value_methods", url_methods);

#[starlark_value(type = "@ytt:url.value")]
impl<'v> StarlarkValue<'v> for UrlValue {
    fn get_methods() -> Option<&'static Methods> {
        Some(URL_METHODS.methods())
    }
}

#[starlark_module]
fn url_methods(builder: &mut MethodsBuilder) {
    /// The user information, or None.
    #[starlark(attribute)]
    fn user(this: &UrlValue) -> anyhow::Result<NoneOr<UrlUser>> {
        Ok(match &this.url.user {
            Some(u) => NoneOr::Other(UrlUser {
                user: Box::new(u.clone()),
            }),
            None => NoneOr::None,
        })
    }

    /// The URL as a string.
    fn string(this: &UrlValue) -> anyhow::Result<String> {
        Ok(this.url.string())
    }

    /// The host without the port (and without IPv6 brackets).
    fn hostname(this: &UrlValue) -> anyhow::Result<String> {
        Ok(this.url.hostname())
    }

    /// A copy of the URL without user information.
    fn without_user(this: &UrlValue) -> anyhow::Result<UrlValue> {
        let mut url = this.url.clone();
        url.user = None;
        Ok(UrlValue { url })
    }
}

/// `@ytt:url.user`: the user information of a URL.
#[derive(Debug, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative)]
pub struct UrlUser {
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    user: Box<UserInfo>,
}
starlark_simple_value!(UrlUser);

impl fmt::Display for UrlUser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@ytt:url.user")
    }
}

static USER_METHODS: MethodsStatic = MethodsStatic::new("url_user_methods", user_methods);

#[starlark_value(type = "@ytt:url.user")]
impl<'v> StarlarkValue<'v> for UrlUser {
    fn get_methods() -> Option<&'static Methods> {
        Some(USER_METHODS.methods())
    }
}

#[starlark_module]
fn user_methods(builder: &mut MethodsBuilder) {
    /// The user name.
    #[starlark(attribute)]
    fn name(this: &UrlUser) -> anyhow::Result<String> {
        Ok(this.user.name.clone())
    }

    /// The password, or None when unset.
    #[starlark(attribute)]
    fn password(this: &UrlUser) -> anyhow::Result<NoneOr<String>> {
        Ok(NoneOr::from_option(this.user.password.clone()))
    }

    /// `name` or `name:password`, escaped.
    fn string(this: &UrlUser) -> anyhow::Result<String> {
        Ok(this.user.string())
    }
}

// ---------------------------------------------------------------------------------------
// Module functions

fn one_string<'v>(
    fname: &str,
    args: &[Value<'v>],
    kwargs: &SmallMap<String, Value<'v>>,
) -> anyhow::Result<&'v str> {
    check_positional(fname, args, kwargs, 1, 1)?;
    string_arg(fname, args, 0)
}

fn seq_items<'v>(v: Value<'v>) -> Option<Vec<Value<'v>>> {
    if let Some(l) = ListRef::from_value(v) {
        return Some(l.iter().collect());
    }
    TupleRef::from_value(v).map(|t| t.iter().collect())
}

fn query_params_encode(v: Value) -> anyhow::Result<String> {
    const F: &str = "url.query_params_encode";
    let Some(d) = DictRef::from_value(v) else {
        anyhow::bail!(
            "{F}: expected argument to be a dict, but was {}",
            v.get_type()
        );
    };
    let mut pairs: Vec<(String, Vec<String>)> = Vec::with_capacity(d.len());
    for (k, val) in d.iter() {
        let Some(key) = k.unpack_str() else {
            anyhow::bail!(
                "{F}: expected dict key to be a string, but was {}",
                k.get_type()
            );
        };
        let Some(items) = seq_items(val) else {
            anyhow::bail!(
                "{F}: expected dict value to be a list of strings, but was {}",
                val.get_type()
            );
        };
        let mut values = Vec::with_capacity(items.len());
        for item in items {
            let Some(s) = item.unpack_str() else {
                anyhow::bail!(
                    "{F}: expected dict value to be a list of strings, but found item of type {}",
                    item.get_type()
                );
            };
            values.push(s.to_owned());
        }
        pairs.push((key.to_owned(), values));
    }
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = String::new();
    for (k, values) in &pairs {
        let key = escape(k, Mode::QueryComponent);
        for v in values {
            if !out.is_empty() {
                out.push('&');
            }
            out.push_str(&key);
            out.push('=');
            out.push_str(&escape(v, Mode::QueryComponent));
        }
    }
    Ok(out)
}

/// Go's `url.ParseQuery` with `;` treated as `&`, as the reference reads; keys sorted.
fn query_params_decode(s: &str) -> Result<Vec<(String, Vec<String>)>, String> {
    let (mut pairs, first_err) = go_url::parse_query(&s.replace(';', "&"));
    if let Some(e) = first_err {
        return Err(e);
    }
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(pairs)
}

#[starlark_module]
fn members(builder: &mut GlobalsBuilder) {
    /// Go `url.PathEscape`.
    fn path_segment_encode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<String> {
        let s = one_string("url.path_segment_encode", &args.items, &kwargs)?;
        Ok(escape(s, Mode::PathSegment))
    }

    /// Go `url.PathUnescape`.
    fn path_segment_decode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<String> {
        const F: &str = "url.path_segment_decode";
        let s = one_string(F, &args.items, &kwargs)?;
        unescape(s, Mode::PathSegment).map_err(|e| anyhow::anyhow!("{F}: {e}"))
    }

    /// Go `url.QueryEscape`.
    fn query_param_value_encode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<String> {
        let s = one_string("url.query_param_value_encode", &args.items, &kwargs)?;
        Ok(escape(s, Mode::QueryComponent))
    }

    /// Go `url.QueryUnescape`.
    fn query_param_value_decode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<String> {
        const F: &str = "url.query_param_value_decode";
        let s = one_string(F, &args.items, &kwargs)?;
        unescape(s, Mode::QueryComponent).map_err(|e| anyhow::anyhow!("{F}: {e}"))
    }

    /// Encodes a dict of key → list of strings as a query string (keys sorted).
    fn query_params_encode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<String> {
        check_positional("url.query_params_encode", &args.items, &kwargs, 1, 1)?;
        query_params_encode(args.items[0])
    }

    /// Decodes a query string into a dict of key → list of strings (keys sorted).
    fn query_params_decode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        const F: &str = "url.query_params_decode";
        let s = one_string(F, &args.items, &kwargs)?;
        let pairs = query_params_decode(s).map_err(|e| anyhow::anyhow!("{F}: {e}"))?;
        Ok(heap.alloc(AllocDict(pairs.into_iter().map(|(k, vs)| {
            (
                heap.alloc_str(&k).to_value(),
                heap.alloc(AllocList(vs.iter().map(|v| heap.alloc_str(v).to_value()))),
            )
        }))))
    }

    /// Parses a URL (Go `url.Parse`).
    fn parse<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<UrlValue> {
        const F: &str = "url.parse";
        let s = one_string(F, &args.items, &kwargs)?;
        let url = go_url::parse(s).map_err(|e| anyhow::anyhow!("{F}: {e}"))?;
        Ok(UrlValue { url: Box::new(url) })
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::eval;

    #[test]
    fn escaping() {
        assert_eq!(
            eval("url.path_segment_encode('path path/other')"),
            "path%20path%2Fother"
        );
        assert_eq!(
            eval("url.path_segment_decode('path%20path%2Fother')"),
            "path path/other"
        );
        assert_eq!(eval("url.path_segment_decode('a+b')"), "a+b");
        assert_eq!(eval("url.path_segment_encode('')"), "");
        assert_eq!(
            eval("url.query_param_value_encode('val val/other')"),
            "val+val%2Fother"
        );
        assert_eq!(
            eval("url.query_param_value_encode('a b&c=d/é')"),
            "a+b%26c%3Dd%2F%C3%A9"
        );
        assert_eq!(
            eval("url.query_param_value_decode('val+val%2Fother')"),
            "val val/other"
        );
        assert_eq!(
            eval("url.path_segment_encode('a:b@c$d;e,f?g~h')"),
            "a:b@c$d%3Be%2Cf%3Fg~h"
        );
        assert_eq!(
            eval("url.path_segment_decode('a%zzb')"),
            "ERR url.path_segment_decode: invalid URL escape \"%zz\""
        );
        assert_eq!(
            eval("url.query_param_value_decode('a%2')"),
            "ERR url.query_param_value_decode: invalid URL escape \"%2\""
        );
    }

    #[test]
    fn query_params() {
        assert_eq!(
            eval(r#"url.query_params_encode({"y":["2","3"],"x":["1"],"z":[""],"w":[]})"#),
            "x=1&y=2&y=3&z="
        );
        assert_eq!(eval(r#"url.query_params_encode({"w":[]})"#), "");
        assert_eq!(
            eval(r#"url.query_params_encode({"a b":["c&d"]})"#),
            "a+b=c%26d"
        );
        assert_eq!(
            eval(r#"url.query_params_decode("y=2&x=1&y=3;z")"#),
            r#"{"x": ["1"], "y": ["2", "3"], "z": [""]}"#
        );
        assert_eq!(eval(r#"url.query_params_decode("")"#), "{}");
        assert_eq!(
            eval(r#"url.query_params_decode("a=%zz")"#),
            "ERR url.query_params_decode: invalid URL escape \"%zz\""
        );
        assert!(eval(r#"url.query_params_encode({"a": "b"})"#).starts_with("ERR "));
        assert!(eval(r#"url.query_params_encode([])"#).starts_with("ERR "));
    }

    #[test]
    fn values() {
        let code = r#"
u = url.parse("http://admin:password@url.domain:8080")
u2 = u.without_user()
u3 = url.parse("http://admin@url.domain:8080")
[u.string(), u.user.string(), u.user.name, u.user.password, u2.string(), u2.user,
 u3.string(), u3.user.string(), u3.user.name, u3.user.password, type(u), type(u.user)]
"#;
        assert_eq!(
            eval(code),
            r#"["http://admin:password@url.domain:8080", "admin:password", "admin", "password", "http://url.domain:8080", None, "http://admin@url.domain:8080", "admin", "admin", None, "@ytt:url.value", "@ytt:url.user"]"#
        );
        assert_eq!(
            eval(r#"url.parse("https://[2001:db8::1]:17000").hostname()"#),
            "2001:db8::1"
        );
        assert_eq!(
            eval(r#"url.parse("http://a:b@192.168.2.1:8080").hostname()"#),
            "192.168.2.1"
        );
        assert_eq!(
            eval(r#"url.parse("::")"#),
            "ERR url.parse: parse \"::\": missing protocol scheme"
        );
    }
}
