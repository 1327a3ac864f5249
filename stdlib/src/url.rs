//! `@ytt:url`: Go `net/url` escaping, query parsing and URL values (a hand port of Go's
//! semantics; the WHATWG `url` crate normalises too much).

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

use ytt::module_api::{check_positional, string_arg};

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("url", members);
}

// ---------------------------------------------------------------------------------------
// Escaping (Go net/url semantics)

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    PathSegment,
    Host,
    Zone,
    UserPassword,
    QueryComponent,
    Fragment,
}

fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    const HOST_OK: &[u8] = b"!$&'()*+,;=:[]<>\"";
    if (mode == Mode::Host || mode == Mode::Zone) && HOST_OK.contains(&c) {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => {
            return match mode {
                Mode::Path => c == b'?',
                Mode::PathSegment => matches!(c, b'/' | b';' | b',' | b'?'),
                Mode::UserPassword => matches!(c, b'@' | b'/' | b'?' | b':'),
                Mode::QueryComponent => true,
                Mode::Fragment => false,
                Mode::Host | Mode::Zone => true,
            };
        }
        _ => {}
    }
    if mode == Mode::Fragment && matches!(c, b'!' | b'(' | b')' | b'*') {
        return false;
    }
    true
}

fn escape(s: &str, mode: Mode) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len());
    let mut start = 0;
    let bytes = s.as_bytes();
    for (i, &c) in bytes.iter().enumerate() {
        let replacement = if c == b' ' && mode == Mode::QueryComponent {
            Some(String::from("+"))
        } else if should_escape(c, mode) {
            Some(format!(
                "%{}{}",
                HEX[(c >> 4) as usize] as char,
                HEX[(c & 15) as usize] as char
            ))
        } else {
            None
        };
        if let Some(r) = replacement {
            out.push_str(&String::from_utf8_lossy(&bytes[start..i]));
            out.push_str(&r);
            start = i + 1;
        }
    }
    out.push_str(&String::from_utf8_lossy(&bytes[start..]));
    out
}

/// Go's `strconv.Quote` (enough of it for error messages).
pub(crate) fn go_quote(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                quote_str(s, &mut out);
                rest = &[];
            }
            Err(e) => {
                let (valid, after) = rest.split_at(e.valid_up_to());
                quote_str(&String::from_utf8_lossy(valid), &mut out);
                let bad = e.error_len().unwrap_or(after.len()).max(1);
                for b in &after[..bad.min(after.len())] {
                    out.push_str(&format!("\\x{b:02x}"));
                }
                rest = &after[bad.min(after.len())..];
            }
        }
    }
    out.push('"');
    out
}

fn quote_str(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\x0b' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if c.is_control() => {
                if (c as u32) <= 0xffff {
                    out.push_str(&format!("\\u{:04x}", c as u32))
                } else {
                    out.push_str(&format!("\\U{:08x}", c as u32))
                }
            }
            c => out.push(c),
        }
    }
}

fn unhex(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => 0,
    }
}

fn unescape(s: &str, mode: Mode) -> Result<String, String> {
    let b = s.as_bytes();
    let escape_error = |i: usize| {
        let end = (i + 3).min(b.len());
        format!("invalid URL escape {}", go_quote(&b[i..end]))
    };
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                if i + 2 >= b.len()
                    || !b[i + 1].is_ascii_hexdigit()
                    || !b[i + 2].is_ascii_hexdigit()
                {
                    return Err(escape_error(i));
                }
                if mode == Mode::Host && unhex(b[i + 1]) < 8 && &b[i..i + 3] != b"%25" {
                    return Err(escape_error(i));
                }
                if mode == Mode::Zone {
                    let v = (unhex(b[i + 1]) << 4) | unhex(b[i + 2]);
                    if &b[i..i + 3] != b"%25" && v != b' ' && should_escape(v, Mode::Host) {
                        return Err(escape_error(i));
                    }
                }
                i += 3;
            }
            c => {
                if (mode == Mode::Host || mode == Mode::Zone) && c < 0x80 && should_escape(c, mode)
                {
                    return Err(format!(
                        "invalid character {} in host name",
                        go_quote(&b[i..i + 1])
                    ));
                }
                i += 1;
            }
        }
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                out.push((unhex(b[i + 1]) << 4) | unhex(b[i + 2]));
                i += 3;
            }
            b'+' if mode == Mode::QueryComponent => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

// ---------------------------------------------------------------------------------------
// URL parsing (Go net/url semantics)

#[derive(Debug, Clone, Default, PartialEq)]
struct UserInfo {
    name: String,
    password: Option<String>,
}

impl UserInfo {
    fn string(&self) -> String {
        let mut s = escape(&self.name, Mode::UserPassword);
        if let Some(p) = &self.password {
            s.push(':');
            s.push_str(&escape(p, Mode::UserPassword));
        }
        s
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
struct GoUrl {
    scheme: String,
    opaque: String,
    user: Option<UserInfo>,
    host: String,
    path: String,
    raw_path: String,
    omit_host: bool,
    force_query: bool,
    raw_query: String,
    fragment: String,
    raw_fragment: String,
}

fn url_error(url: &str, msg: &str) -> String {
    format!("parse {}: {msg}", go_quote(url.as_bytes()))
}

fn parse_url(raw: &str) -> Result<GoUrl, String> {
    let (u, frag) = match raw.find('#') {
        Some(i) => (&raw[..i], Some(&raw[i + 1..])),
        None => (raw, None),
    };
    let mut url = parse_no_fragment(u).map_err(|e| url_error(u, &e))?;
    if let Some(frag) = frag {
        if !frag.is_empty() {
            let f = unescape(frag, Mode::Fragment).map_err(|e| url_error(raw, &e))?;
            url.raw_fragment = if escape(&f, Mode::Fragment) == frag {
                String::new()
            } else {
                frag.to_owned()
            };
            url.fragment = f;
        }
    }
    Ok(url)
}

fn get_scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' => {
                if i == 0 {
                    return Ok(("", raw));
                }
            }
            b':' => {
                if i == 0 {
                    return Err("missing protocol scheme".into());
                }
                return Ok((&raw[..i], &raw[i + 1..]));
            }
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

fn parse_no_fragment(raw: &str) -> Result<GoUrl, String> {
    if raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    let mut url = GoUrl::default();
    if raw == "*" {
        url.path = "*".into();
        return Ok(url);
    }
    let (scheme, rest) = get_scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    let mut rest = rest;
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        url.force_query = true;
        rest = &rest[..rest.len() - 1];
    } else if let Some(i) = rest.find('?') {
        url.raw_query = rest[i + 1..].to_owned();
        rest = &rest[..i];
    }
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            url.opaque = rest.to_owned();
            return Ok(url);
        }
        let segment = rest.split('/').next().unwrap_or("");
        if segment.contains(':') {
            return Err("first path segment in URL cannot contain colon".into());
        }
    }
    if (!url.scheme.is_empty() || !rest.starts_with("///")) && rest.starts_with("//") {
        let after = &rest[2..];
        let (authority, path) = match after.find('/') {
            Some(i) => (&after[..i], &after[i..]),
            None => (after, ""),
        };
        let (user, host) = parse_authority(authority)?;
        url.user = user;
        url.host = host;
        rest = path;
    } else if !url.scheme.is_empty() && rest.starts_with('/') {
        url.omit_host = true;
    }
    url.path = unescape(rest, Mode::Path)?;
    url.raw_path = if escape(&url.path, Mode::Path) == rest {
        String::new()
    } else {
        rest.to_owned()
    };
    Ok(url)
}

fn valid_userinfo(s: &str) -> bool {
    s.chars().all(|c| {
        c.is_ascii_alphanumeric()
            || matches!(
                c,
                '-' | '.'
                    | '_'
                    | ':'
                    | '~'
                    | '!'
                    | '$'
                    | '&'
                    | '\''
                    | '('
                    | ')'
                    | '*'
                    | '+'
                    | ','
                    | ';'
                    | '='
                    | '%'
                    | '@'
            )
    })
}

fn parse_authority(authority: &str) -> Result<(Option<UserInfo>, String), String> {
    let Some(i) = authority.rfind('@') else {
        return Ok((None, parse_host(authority)?));
    };
    let host = parse_host(&authority[i + 1..])?;
    let userinfo = &authority[..i];
    if !valid_userinfo(userinfo) {
        return Err("net/url: invalid userinfo".into());
    }
    let user = match userinfo.split_once(':') {
        None => UserInfo {
            name: unescape(userinfo, Mode::UserPassword)?,
            password: None,
        },
        Some((name, password)) => UserInfo {
            name: unescape(name, Mode::UserPassword)?,
            password: Some(unescape(password, Mode::UserPassword)?),
        },
    };
    Ok((Some(user), host))
}

fn valid_optional_port(port: &str) -> bool {
    if port.is_empty() {
        return true;
    }
    match port.strip_prefix(':') {
        Some(digits) => digits.bytes().all(|b| b.is_ascii_digit()),
        None => false,
    }
}

fn parse_host(host: &str) -> Result<String, String> {
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return Err("missing ']' in host".into());
        };
        let colon_port = &host[i + 1..];
        if !valid_optional_port(colon_port) {
            return Err(format!(
                "invalid port {} after host",
                go_quote(colon_port.as_bytes())
            ));
        }
        if let Some(zone) = host[..i].find("%25") {
            let h1 = unescape(&host[..zone], Mode::Host)?;
            let h2 = unescape(&host[zone..i], Mode::Zone)?;
            let h3 = unescape(&host[i..], Mode::Host)?;
            return Ok(h1 + &h2 + &h3);
        }
    } else if let Some(i) = host.rfind(':') {
        let colon_port = &host[i..];
        if !valid_optional_port(colon_port) {
            return Err(format!(
                "invalid port {} after host",
                go_quote(colon_port.as_bytes())
            ));
        }
    }
    unescape(host, Mode::Host)
}

fn valid_encoded(s: &str, mode: Mode) -> bool {
    s.bytes().all(|c| {
        matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
                | b'['
                | b']'
                | b'%'
        ) || !should_escape(c, mode)
    })
}

impl GoUrl {
    fn escaped_path(&self) -> String {
        if !self.raw_path.is_empty()
            && valid_encoded(&self.raw_path, Mode::Path)
            && unescape(&self.raw_path, Mode::Path).as_deref() == Ok(self.path.as_str())
        {
            return self.raw_path.clone();
        }
        if self.path == "*" {
            return "*".into();
        }
        escape(&self.path, Mode::Path)
    }

    fn escaped_fragment(&self) -> String {
        if !self.raw_fragment.is_empty()
            && valid_encoded(&self.raw_fragment, Mode::Fragment)
            && unescape(&self.raw_fragment, Mode::Fragment).as_deref() == Ok(self.fragment.as_str())
        {
            return self.raw_fragment.clone();
        }
        escape(&self.fragment, Mode::Fragment)
    }

    fn string(&self) -> String {
        let mut buf = String::new();
        if !self.scheme.is_empty() {
            buf.push_str(&self.scheme);
            buf.push(':');
        }
        if !self.opaque.is_empty() {
            buf.push_str(&self.opaque);
        } else {
            let has_authority =
                !self.scheme.is_empty() || !self.host.is_empty() || self.user.is_some();
            // An empty host is omitted when the input had none (`scheme:/path`).
            let omitted = self.omit_host && self.host.is_empty() && self.user.is_none();
            if has_authority && !omitted {
                if !self.host.is_empty() || !self.path.is_empty() || self.user.is_some() {
                    buf.push_str("//");
                }
                if let Some(u) = &self.user {
                    buf.push_str(&u.string());
                    buf.push('@');
                }
                if !self.host.is_empty() {
                    buf.push_str(&escape(&self.host, Mode::Host));
                }
            }
            let path = self.escaped_path();
            if !path.is_empty() && !path.starts_with('/') && !self.host.is_empty() {
                buf.push('/');
            }
            if buf.is_empty() {
                let segment = path.split('/').next().unwrap_or("");
                if segment.contains(':') {
                    buf.push_str("./");
                }
            }
            buf.push_str(&path);
        }
        if self.force_query || !self.raw_query.is_empty() {
            buf.push('?');
            buf.push_str(&self.raw_query);
        }
        if !self.fragment.is_empty() {
            buf.push('#');
            buf.push_str(&self.escaped_fragment());
        }
        buf
    }

    fn hostname(&self) -> String {
        let mut host = self.host.as_str();
        if let Some(colon) = host.rfind(':') {
            if valid_optional_port(&host[colon..]) {
                host = &host[..colon];
            }
        }
        if host.starts_with('[') && host.ends_with(']') && host.len() >= 2 {
            host = &host[1..host.len() - 1];
        }
        host.to_owned()
    }
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

/// Go's `url.ParseQuery` with `;` treated as `&`; keys sorted.
fn query_params_decode(s: &str) -> Result<Vec<(String, Vec<String>)>, String> {
    let s = s.replace(';', "&");
    let mut map: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let mut first_err = None;
    for part in s.split('&') {
        if part.is_empty() {
            continue;
        }
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        let k = match unescape(k, Mode::QueryComponent) {
            Ok(k) => k,
            Err(e) => {
                first_err.get_or_insert(e);
                continue;
            }
        };
        let v = match unescape(v, Mode::QueryComponent) {
            Ok(v) => v,
            Err(e) => {
                first_err.get_or_insert(e);
                continue;
            }
        };
        map.entry(k).or_default().push(v);
    }
    match first_err {
        Some(e) => Err(e),
        None => Ok(map.into_iter().collect()),
    }
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
        let url = parse_url(s).map_err(|e| anyhow::anyhow!("{F}: {e}"))?;
        Ok(UrlValue { url: Box::new(url) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::eval;

    fn roundtrip(s: &str) -> String {
        match parse_url(s) {
            Ok(u) => u.string(),
            Err(e) => format!("ERR {e}"),
        }
    }

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

    #[test]
    fn go_parse_semantics() {
        assert_eq!(
            roundtrip("http://Example.com/a/../b"),
            "http://Example.com/a/../b"
        );
        assert_eq!(roundtrip("/just/a/path"), "/just/a/path");
        assert_eq!(
            roundtrip("HTTP://x.com/p?q=1#frag"),
            "http://x.com/p?q=1#frag"
        );
        assert_eq!(
            roundtrip("mailto:joe@example.com"),
            "mailto:joe@example.com"
        );
        assert_eq!(roundtrip("http://x.com/a b"), "http://x.com/a%20b");
        assert_eq!(roundtrip("http://x.com/a%2fb"), "http://x.com/a%2fb");
        assert_eq!(roundtrip("http://x.com?"), "http://x.com?");
        assert_eq!(roundtrip("file:///etc/hosts"), "file:///etc/hosts");
        assert_eq!(roundtrip("http://u%40x:p%3A@h/"), "http://u%40x:p%3A@h/");
        assert_eq!(roundtrip("a:b/c").as_str(), "a:b/c");
        assert_eq!(
            roundtrip("1a:b"),
            "ERR parse \"1a:b\": first path segment in URL cannot contain colon"
        );
        assert_eq!(
            roundtrip("http://h:port/"),
            "ERR parse \"http://h:port/\": invalid port \":port\" after host"
        );
        assert_eq!(
            roundtrip("http://[::1/"),
            "ERR parse \"http://[::1/\": missing ']' in host"
        );
        assert_eq!(
            roundtrip("http://a b/"),
            "ERR parse \"http://a b/\": invalid character \" \" in host name"
        );
        assert_eq!(
            roundtrip("http://x\n"),
            "ERR parse \"http://x\\n\": net/url: invalid control character in URL"
        );
        assert_eq!(
            roundtrip("http://a{b@h/"),
            "ERR parse \"http://a{b@h/\": net/url: invalid userinfo"
        );
    }
}
