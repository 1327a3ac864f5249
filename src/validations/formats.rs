//! `format=` validators: date-time, date, email, hostname, ipv4, ipv6, uri, uri-reference,
//! uuid and Kubernetes resource quantities.

use std::net::{Ipv4Addr, Ipv6Addr};
use std::sync::OnceLock;

use regex::Regex;

/// A named string format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    DateTime,
    Date,
    Email,
    Hostname,
    Ipv4,
    Ipv6,
    Uri,
    UriReference,
    Uuid,
    Quantity,
}

pub const NAMES: &[&str] = &[
    "date-time",
    "date",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "uuid",
    "quantity",
];

impl Format {
    pub fn parse(name: &str) -> Option<Format> {
        Some(match name {
            "date-time" => Format::DateTime,
            "date" => Format::Date,
            "email" => Format::Email,
            "hostname" => Format::Hostname,
            "ipv4" => Format::Ipv4,
            "ipv6" => Format::Ipv6,
            "uri" => Format::Uri,
            "uri-reference" => Format::UriReference,
            "uuid" => Format::Uuid,
            "quantity" => Format::Quantity,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::DateTime => "date-time",
            Format::Date => "date",
            Format::Email => "email",
            Format::Hostname => "hostname",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Uri => "uri",
            Format::UriReference => "uri-reference",
            Format::Uuid => "uuid",
            Format::Quantity => "quantity",
        }
    }

    /// Whether `s` is a valid value of this format.
    pub fn is_valid(self, s: &str) -> bool {
        match self {
            Format::DateTime => is_date_time(s),
            Format::Date => is_date(s),
            Format::Email => is_email(s),
            Format::Hostname => is_hostname(s),
            Format::Ipv4 => s.parse::<Ipv4Addr>().is_ok(),
            Format::Ipv6 => s.contains(':') && s.parse::<Ipv6Addr>().is_ok(),
            Format::Uri => is_uri(s),
            Format::UriReference => is_uri_reference(s),
            Format::Uuid => is_uuid(s),
            Format::Quantity => is_quantity(s),
        }
    }
}

fn digits(s: &str, n: usize) -> Option<u32> {
    if s.len() != n || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        _ => 0,
    }
}

/// RFC 3339 `full-date`: `YYYY-MM-DD`.
fn is_date(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    let [y, m, d] = parts.as_slice() else {
        return false;
    };
    let (Some(y), Some(m), Some(d)) = (digits(y, 4), digits(m, 2), digits(d, 2)) else {
        return false;
    };
    (1..=12).contains(&m) && d >= 1 && d <= days_in_month(y, m)
}

/// RFC 3339 `date-time`: `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`.
fn is_date_time(s: &str) -> bool {
    let Some(t) = s.find(['T', 't']) else {
        return false;
    };
    if !is_date(&s[..t]) {
        return false;
    }
    let time = &s[t + 1..];
    let (local, offset) = if let Some(stripped) = time.strip_suffix(['Z', 'z']) {
        (stripped, None)
    } else if let Some(i) = time.rfind(['+', '-']) {
        (&time[..i], Some(&time[i + 1..]))
    } else {
        return false;
    };
    if let Some(off) = offset {
        let Some((h, m)) = off.split_once(':') else {
            return false;
        };
        match (digits(h, 2), digits(m, 2)) {
            (Some(h), Some(m)) if h <= 23 && m <= 59 => {}
            _ => return false,
        }
    }
    let (hms, frac) = match local.split_once('.') {
        Some((a, f)) => (a, Some(f)),
        None => (local, None),
    };
    if let Some(f) = frac {
        if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
    }
    let parts: Vec<&str> = hms.split(':').collect();
    let [h, m, sec] = parts.as_slice() else {
        return false;
    };
    matches!(
        (digits(h, 2), digits(m, 2), digits(sec, 2)),
        (Some(h), Some(m), Some(sec)) if h <= 23 && m <= 59 && sec <= 60
    )
}

/// RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens.
fn is_hostname(s: &str) -> bool {
    let s = s.strip_suffix('.').unwrap_or(s);
    if s.is_empty() || s.len() > 253 {
        return false;
    }
    s.split('.').all(|label| {
        !label.is_empty()
            && label.len() <= 63
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    })
}

fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    if local.is_empty() || local.len() > 64 || s.len() > 254 {
        return false;
    }
    let local_ok = local
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+/=?^_`{|}~.-".contains(&b))
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..");
    local_ok && is_hostname(domain) && !domain.ends_with('.')
}

fn is_uuid(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    let lens = [8, 4, 4, 4, 12];
    groups.len() == 5
        && groups
            .iter()
            .zip(lens)
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A Kubernetes resource quantity: the grammar of the quantity type, with integer
/// exponents as the API server parses them. Valid RE2 and ECMA-262 alike: schema export
/// uses it as the `pattern` of `format="quantity"`.
pub const QUANTITY_PATTERN: &str =
    r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)(([KMGTPE]i)|[numkMGTPE]|[eE][+-]?[0-9]+)?$";

fn quantity_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(QUANTITY_PATTERN).expect("valid quantity pattern"))
}

/// A Kubernetes resource quantity (`500m`, `1Gi`, `2`, `1e3`).
fn is_quantity(s: &str) -> bool {
    quantity_re().is_match(s)
}

/// Characters allowed in a URI (RFC 3986), with `%XX` escapes checked.
fn uri_chars_ok(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            if i + 2 >= b.len() {
                return false;
            }
            if !(b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit()) {
                return false;
            }
            i += 3;
            continue;
        }
        let ok = c.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&c);
        if !ok {
            return false;
        }
        i += 1;
    }
    true
}

fn scheme_len(s: &str) -> Option<usize> {
    let i = s.find(':')?;
    let scheme = &s[..i];
    let mut bytes = scheme.bytes();
    let first = bytes.next()?;
    if !first.is_ascii_alphabetic() {
        return None;
    }
    if bytes.all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'-' || b == b'.') {
        Some(i)
    } else {
        None
    }
}

fn authority_ok(rest: &str) -> bool {
    // `//authority` must name a host (possibly empty for `file:///`)
    let Some(after) = rest.strip_prefix("//") else {
        return true;
    };
    let end = after.find(['/', '?', '#']).unwrap_or(after.len());
    let auth = &after[..end];
    let host_port = auth.rsplit_once('@').map_or(auth, |(_, h)| h);
    if let Some(v6) = host_port.strip_prefix('[') {
        let Some((addr, tail)) = v6.split_once(']') else {
            return false;
        };
        return addr.parse::<Ipv6Addr>().is_ok()
            && (tail.is_empty()
                || tail
                    .strip_prefix(':')
                    .is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit())));
    }
    match host_port.rsplit_once(':') {
        Some((_, port)) => port.bytes().all(|b| b.is_ascii_digit()),
        None => true,
    }
}

fn is_uri(s: &str) -> bool {
    let Some(i) = scheme_len(s) else {
        return false;
    };
    uri_chars_ok(s) && authority_ok(&s[i + 1..])
}

fn is_uri_reference(s: &str) -> bool {
    if scheme_len(s).is_some() {
        return is_uri(s);
    }
    uri_chars_ok(s) && authority_ok(s)
}

#[cfg(test)]
mod tests {
    use super::Format::*;

    #[test]
    fn formats() {
        assert!(DateTime.is_valid("2024-02-29T10:00:00Z"));
        assert!(DateTime.is_valid("2024-01-01T23:59:60.123+05:30"));
        assert!(!DateTime.is_valid("2024-13-01T00:00:00Z"));
        assert!(!DateTime.is_valid("2023-02-29T00:00:00Z"));
        assert!(!DateTime.is_valid("2024-01-01"));
        assert!(Date.is_valid("2024-01-31"));
        assert!(!Date.is_valid("2024-1-31"));
        assert!(Email.is_valid("admin@example.com"));
        assert!(!Email.is_valid("admin-at-example.com"));
        assert!(Hostname.is_valid("a-b.example.com"));
        assert!(!Hostname.is_valid("-bad-.example.com"));
        assert!(Ipv4.is_valid("10.0.0.255"));
        assert!(!Ipv4.is_valid("10.0.0.256"));
        assert!(Ipv6.is_valid("fe80::1"));
        assert!(!Ipv6.is_valid("10.0.0.1"));
        assert!(Uri.is_valid("https://example.com/a?b=c"));
        assert!(!Uri.is_valid("/relative/path"));
        assert!(!Uri.is_valid("http://exa mple.com"));
        assert!(UriReference.is_valid("/relative/path?x=1"));
        assert!(Uuid.is_valid("123e4567-e89b-12d3-a456-426614174000"));
        assert!(!Uuid.is_valid("123e4567e89b12d3a456426614174000"));
        assert!(Quantity.is_valid("500m"));
        assert!(Quantity.is_valid("1Gi"));
        assert!(Quantity.is_valid("1.5"));
        assert!(Quantity.is_valid("1e3"));
        assert!(!Quantity.is_valid("512MB"));
        assert!(!Quantity.is_valid(""));
    }
}
