//! Go's `net/url` for every user: `@ytt:url` (`url.Parse`, the escaping functions, query
//! strings) and `cel=`'s `url()`, which reads as Kubernetes does (`url.ParseRequestURI`
//! decides, `url.Parse` reads). A hand port of Go's semantics (the WHATWG `url` crate
//! normalises too much). `format="uri"` is another definition on purpose: RFC 3986, as
//! the JSON Schema validators that read an exported schema check it (`formats.rs`).

// ---- escaping ----------------------------------------------------------------------

/// What a text is escaped or unescaped as (Go's `encoding`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
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

/// Go's `escape`: `PathEscape`, `QueryEscape`, ….
pub fn escape(s: &str, mode: Mode) -> String {
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
fn go_quote(bytes: &[u8]) -> String {
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

/// Go's `unescape`: `PathUnescape`, `QueryUnescape`, …; the error is Go's.
pub fn unescape(s: &str, mode: Mode) -> Result<String, String> {
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

// ---- parsing -----------------------------------------------------------------------

/// The user information of a URL (Go's `Userinfo`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserInfo {
    pub name: String,
    pub password: Option<String>,
}

impl UserInfo {
    /// `name` or `name:password`, escaped.
    pub fn string(&self) -> String {
        let mut s = escape(&self.name, Mode::UserPassword);
        if let Some(p) = &self.password {
            s.push(':');
            s.push_str(&escape(p, Mode::UserPassword));
        }
        s
    }
}

/// A parsed URL (Go's `URL`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoUrl {
    pub scheme: String,
    opaque: String,
    pub user: Option<UserInfo>,
    /// The host and port, unescaped.
    pub host: String,
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

/// Go's `url.Parse`: a URL or a reference, with its fragment.
pub fn parse(raw: &str) -> Result<GoUrl, String> {
    let (u, frag) = match raw.find('#') {
        Some(i) => (&raw[..i], Some(&raw[i + 1..])),
        None => (raw, None),
    };
    let mut url = parse_no_fragment(u, false).map_err(|e| url_error(u, &e))?;
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

/// Go's `url.ParseRequestURI`: an absolute URI or an absolute path, as an HTTP request
/// names it (no fragment: a `#` is part of the path or the query).
pub fn parse_request_uri(raw: &str) -> Result<GoUrl, String> {
    parse_no_fragment(raw, true).map_err(|e| url_error(raw, &e))
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

/// Go's `parse`; `via_request`: as `ParseRequestURI` reads.
fn parse_no_fragment(raw: &str, via_request: bool) -> Result<GoUrl, String> {
    if raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    if raw.is_empty() && via_request {
        return Err("empty url".into());
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
        if via_request {
            return Err("invalid URI for request".into());
        }
        let segment = rest.split('/').next().unwrap_or("");
        if segment.contains(':') {
            return Err("first path segment in URL cannot contain colon".into());
        }
    }
    if (!url.scheme.is_empty() || !via_request && !rest.starts_with("///"))
        && rest.starts_with("//")
    {
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
    /// Go's `EscapedPath`.
    pub fn escaped_path(&self) -> String {
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

    /// Go's `String`.
    pub fn string(&self) -> String {
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

    /// Go's `Hostname`: the host without the port and without IPv6 brackets.
    pub fn hostname(&self) -> String {
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

    /// Go's `Query`: the values of the query, its error ignored.
    pub fn query(&self) -> Vec<(String, Vec<String>)> {
        parse_query(&self.raw_query).0
    }

    /// Go's `Port`: the port, without its colon, or empty.
    pub fn port(&self) -> &str {
        let h = self.host.as_str();
        if !h.contains(':') {
            return "";
        }
        if let Some(i) = h.find("]:") {
            return &h[i + 2..];
        }
        if h.contains(']') {
            return "";
        }
        h.split_once(':').map_or("", |(_, port)| port)
    }
}

/// Go's `url.ParseQuery`: the values of each key, keys in the order they first appear,
/// and the first error. A pair holding a `;` is an error (Go 1.17 and later), as is one
/// with a bad escape; either is left out.
pub fn parse_query(query: &str) -> (Vec<(String, Vec<String>)>, Option<String>) {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let mut first_err = None;
    for pair in query.split('&') {
        if pair.contains(';') {
            first_err.get_or_insert_with(|| "invalid semicolon separator in query".to_owned());
            continue;
        }
        if pair.is_empty() {
            continue;
        }
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let (k, v) = match (
            unescape(k, Mode::QueryComponent),
            unescape(v, Mode::QueryComponent),
        ) {
            (Ok(k), Ok(v)) => (k, v),
            (Err(e), _) | (_, Err(e)) => {
                first_err.get_or_insert(e);
                continue;
            }
        };
        match out.iter_mut().find(|(key, _)| *key == k) {
            Some((_, values)) => values.push(v),
            None => out.push((k, vec![v])),
        }
    }
    (out, first_err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(s: &str) -> String {
        match parse(s) {
            Ok(u) => u.string(),
            Err(e) => format!("ERR {e}"),
        }
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

    /// `ParseRequestURI` decides what Kubernetes' `url()` takes.
    #[test]
    fn request_uris() {
        let ok = |s: &str| parse_request_uri(s).is_ok();
        assert!(ok("https://example.com/a b?q=1"));
        assert!(ok("/absolute/path#not-a-fragment"));
        assert!(ok("mailto:joe@example.com"));
        assert!(!ok(""));
        assert!(!ok("relative/path"));
        assert!(!ok("not a url"));
        assert!(!ok("http://a b/"));
        assert!(!ok("/a%zz"));
        // without a scheme, `//` starts a path, not an authority
        let u = parse_request_uri("//host/p").unwrap();
        assert_eq!(
            (u.host.as_str(), u.escaped_path()),
            ("", "//host/p".to_owned())
        );
        let u = parse("https://[::1]:80/p").unwrap();
        assert_eq!((u.hostname(), u.port()), ("::1".to_owned(), "80"));
        assert_eq!(parse("https://h/").unwrap().port(), "");
    }

    #[test]
    fn queries() {
        assert_eq!(
            parse_query("k=v&x=1&k=w+%21&bad;pair&=&e"),
            (
                vec![
                    ("k".to_owned(), vec!["v".to_owned(), "w !".to_owned()]),
                    ("x".to_owned(), vec!["1".to_owned()]),
                    ("".to_owned(), vec!["".to_owned()]),
                    ("e".to_owned(), vec!["".to_owned()]),
                ],
                Some("invalid semicolon separator in query".to_owned())
            )
        );
        assert_eq!(
            parse_query("a=%zz").1.as_deref(),
            Some("invalid URL escape \"%zz\"")
        );
    }
}
