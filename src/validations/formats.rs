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
            // the standard library's grammar, which `@ytt:ip` and `cel=`'s `ip()` read too:
            // dotted-decimal without leading zeros (RFC 2673 §3.2), RFC 4291 §2.2 text
            Format::Ipv4 => s.parse::<Ipv4Addr>().is_ok(),
            Format::Ipv6 => s.parse::<Ipv6Addr>().is_ok(),
            Format::Uri => is_uri(s),
            Format::UriReference => is_uri_reference(s),
            Format::Uuid => is_uuid(s),
            Format::Quantity => is_quantity(s),
        }
    }
}

/// RFC 3339 `full-date` (`YYYY-MM-DD`, a day that exists), read by `chrono`'s RFC 3339
/// parser.
fn is_date(s: &str) -> bool {
    s.len() == 10 && chrono::DateTime::parse_from_rfc3339(&format!("{s}T00:00:00Z")).is_ok()
}

/// RFC 3339 `date-time` (`chrono`): `T`, `t` or a space between date and time (RFC 3339
/// §5.6 allows the space; JSON Schema validators accept it), seconds up to 60, an
/// offset (`Z` or `±HH:MM`).
fn is_date_time(s: &str) -> bool {
    chrono::DateTime::parse_from_rfc3339(s).is_ok()
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

/// RFC 5321 `Mailbox` (the definition JSON Schema's `email` names), by the
/// `email_address` crate: a local part (dot-atom or quoted string) and a domain (or an
/// address literal), without a display name.
fn is_email(s: &str) -> bool {
    let options = email_address::Options::default().without_display_text();
    email_address::EmailAddress::parse_with_options(s, options).is_ok()
}

/// RFC 4122 / 9562 string form (`8-4-4-4-12` hex digits), by the `uuid` crate (which
/// also reads other forms: the length keeps to this one).
fn is_uuid(s: &str) -> bool {
    s.len() == 36 && s.as_bytes()[8] == b'-' && uuid::Uuid::try_parse(s).is_ok()
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

/// RFC 3986 `URI` (absolute, with a scheme), by `fluent-uri`.
fn is_uri(s: &str) -> bool {
    fluent_uri::Uri::parse(s).is_ok()
}

/// RFC 3986 `URI-reference` (a URI or a relative reference), by `fluent-uri`.
fn is_uri_reference(s: &str) -> bool {
    fluent_uri::UriRef::parse(s).is_ok()
}

#[cfg(test)]
mod tests {
    use super::Format::*;

    #[test]
    fn formats() {
        assert!(DateTime.is_valid("2024-02-29T10:00:00Z"));
        assert!(DateTime.is_valid("2024-01-01T23:59:60.123+05:30"));
        // RFC 3339 §5.6: a space may separate date and time (ajv-formats accepts it)
        assert!(DateTime.is_valid("2024-02-29 10:00:00Z"));
        assert!(DateTime.is_valid("2024-02-29t10:00:00z"));
        assert!(!DateTime.is_valid("2024-02-29T10:00:00"));
        assert!(!DateTime.is_valid("2024-02-29T10:00Z"));
        assert!(!DateTime.is_valid("2024-13-01T00:00:00Z"));
        assert!(!DateTime.is_valid("2023-02-29T00:00:00Z"));
        assert!(!DateTime.is_valid("2024-01-01"));
        assert!(Date.is_valid("2024-01-31"));
        assert!(!Date.is_valid("2024-1-31"));
        assert!(Email.is_valid("admin@example.com"));
        assert!(Email.is_valid("\"john doe\"@example.com"));
        assert!(!Email.is_valid("John <admin@example.com>"));
        assert!(!Email.is_valid("a..b@example.com"));
        assert!(!Date.is_valid("2023-02-29"));
        assert!(!Date.is_valid("+2024-01-01"));
        assert!(!Uuid.is_valid("{123e4567-e89b-12d3-a456-426614174000}"));
        assert!(!Uuid.is_valid("urn:uuid:123e4567-e89b-12d3-a456-426614174000"));
        assert!(UriReference.is_valid("../a/b"));
        assert!(!UriReference.is_valid("a b"));
        assert!(Uri.is_valid("urn:isbn:0451450523"));
        assert!(!Uri.is_valid("http://[::1"));
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
