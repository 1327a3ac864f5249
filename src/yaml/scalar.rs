//! YAML 1.1 scalar resolution (plain scalars → null/bool/int/float/string), the way
//! the reference (go-yaml v2) resolves them; see `spec/yaml-scalars.md`.
//!
//! - booleans: `y/Y/yes/Yes/YES/on/On/ON/true/True/TRUE` and the `n/no/off/false` family;
//! - null: empty, `~`, `null`, `Null`, `NULL`;
//! - ints: optional sign, `_` separators (anywhere after the first character), `0x`, `0b`,
//!   `0o`/`0O`, leading-zero octal (`017` → 15);
//! - floats: `1.`, `.5`, `1e3`, `.inf`, `-.Inf`, `.nan`, …, and after a `.` what Go's
//!   `ParseFloat` reads (`.1_0`); an out-of-range float (`1.0e400`) stays a string;
//! - timestamps and sexagesimal numbers stay strings.
//!
//! The one owner of these rules: the parser, `--strict`, tagged scalars and the emitter
//! (which quotes a string that would read back as something else, `reads_as_non_string`)
//! all ask this module.
//!
//! Integers beyond `i64` but within `u64` (`9223372036854775808`, `0xFFFFFFFFFFFFFFFF`)
//! are ints in the reference; `Node` only has `i64`, so they become floats here (the
//! closest faithful value). Larger integers are floats in the reference as well.

use base64::Engine as _;

use super::node::{Node, Str};

/// Resolve a plain (unquoted, untagged) scalar.
pub fn resolve_plain(s: &str) -> Node {
    match resolve_non_str(s) {
        Some(n) => n,
        None => Node::Str(s.into()),
    }
}

/// Like [`resolve_plain`] but takes ownership of the text (no copy for strings).
pub fn resolve_plain_owned(s: Str) -> Node {
    match resolve_non_str(&s) {
        Some(n) => n,
        None => Node::Str(s),
    }
}

/// Resolve a plain scalar under `--strict`. The error is the detail line only, e.g.
/// `Found 'yes' ambigious (could be !!str or !!bool)`; see [`strict_error_message`].
/// Every plain scalar that go-yaml would give a non-string tag and that is not in its
/// one unambiguous spelling (`true`, `false`, `-?(0|[1-9][0-9]*)`, plain decimals) is
/// ambiguous, timestamps (`2024-03-01`) included; the parser checks scalars in
/// document order, so the first one is reported.
pub fn resolve_plain_strict(s: &str) -> Result<Node, String> {
    if s.is_empty() {
        return Ok(Node::Null);
    }
    let ambiguous = |t: &str| format!("Found '{s}' ambigious (could be !!str or !!{t})");
    match resolve_non_str(s) {
        Some(Node::Bool(b)) => {
            if s == "true" || s == "false" {
                Ok(Node::Bool(b))
            } else {
                Err(ambiguous("bool"))
            }
        }
        Some(Node::Null) => Err(ambiguous("null")),
        Some(n @ Node::Int(_)) => {
            if is_strict_int(s) {
                Ok(n)
            } else {
                Err(ambiguous("int"))
            }
        }
        Some(Node::Float(f)) => {
            if is_strict_int(s) || is_strict_float(s) {
                Ok(Node::Float(f))
            } else {
                Err(ambiguous("float"))
            }
        }
        Some(other) => Ok(other),
        // a timestamp stays a string when not strict, but is just as ambiguous
        None if is_timestamp(s) => Err(ambiguous("timestamp")),
        None => {
            if s.chars().any(char::is_whitespace) {
                Err(format!(
                    "Strings with whitespace must be explicitly quoted: '{s}'"
                ))
            } else if s.contains(':') {
                Err(format!(
                    "Strings with colon must be explicitly quoted: '{s}'"
                ))
            } else if s.contains("---") {
                Err(format!(
                    "Strings with triple-dash must be explicitly quoted: '{s}'"
                ))
            } else {
                Ok(Node::Str(s.into()))
            }
        }
    }
}

/// Whether a plain scalar is a timestamp to go-yaml (it then stays a string here, but
/// `--strict` rejects it and the emitter quotes it). go-yaml's timestamp check: Go `time.Parse` with the layouts
/// `2006-1-2T15:4:5.999999999Z07:00`, `2006-1-2t15:4:5.999999999Z07:00`,
/// `2006-1-2 15:4:5.999999999` and `2006-1-2`.
fn is_timestamp(s: &str) -> bool {
    let p = s.as_bytes();
    // quick check: four digits then '-'
    if p.len() < 5 || !p[..4].iter().all(u8::is_ascii_digit) || p[4] != b'-' {
        return false;
    }
    let year: u32 = p[..4].iter().fold(0, |a, &d| a * 10 + (d - b'0') as u32);
    let mut i = 5;
    let Some(month) = getnum(p, &mut i) else {
        return false;
    };
    if !(1..=12).contains(&month) {
        return false;
    }
    if i >= p.len() || p[i] != b'-' {
        return false;
    }
    i += 1;
    let Some(day) = getnum(p, &mut i) else {
        return false;
    };
    if day < 1 || day > days_in(month, year) {
        return false;
    }
    if i == p.len() {
        return true; // date only
    }
    // time part
    let tz_layout = match p[i] {
        b'T' | b't' => {
            i += 1;
            true
        }
        b' ' => {
            while i < p.len() && p[i] == b' ' {
                i += 1;
            }
            false
        }
        _ => return false,
    };
    let Some(hour) = getnum(p, &mut i) else {
        return false;
    };
    if hour >= 24 || i >= p.len() || p[i] != b':' {
        return false;
    }
    i += 1;
    let Some(min) = getnum(p, &mut i) else {
        return false;
    };
    if min >= 60 || i >= p.len() || p[i] != b':' {
        return false;
    }
    i += 1;
    let Some(sec) = getnum(p, &mut i) else {
        return false;
    };
    if sec >= 60 {
        return false;
    }
    // optional fractional seconds: at most nine digits (`.999999999`)
    if i + 1 < p.len() && (p[i] == b'.' || p[i] == b',') && p[i + 1].is_ascii_digit() {
        i += 1;
        let from = i;
        while i < p.len() && p[i].is_ascii_digit() {
            i += 1;
        }
        if i - from > 9 {
            return false;
        }
    }
    if !tz_layout {
        return i == p.len();
    }
    // Z07:00
    if i < p.len() && p[i] == b'Z' {
        return i + 1 == p.len();
    }
    // ±hh:mm, any two digits each (measured: `+99:99` is a timestamp)
    let z = &p[i..];
    z.len() == 6
        && matches!(z[0], b'+' | b'-')
        && z[3] == b':'
        && [1, 2, 4, 5].iter().all(|&k| z[k].is_ascii_digit())
}

/// Go's `getnum(s, false)`: one or two digits.
fn getnum(p: &[u8], i: &mut usize) -> Option<u32> {
    if *i >= p.len() || !p[*i].is_ascii_digit() {
        return None;
    }
    let d0 = (p[*i] - b'0') as u32;
    if *i + 1 < p.len() && p[*i + 1].is_ascii_digit() {
        let v = d0 * 10 + (p[*i + 1] - b'0') as u32;
        *i += 2;
        Some(v)
    } else {
        *i += 1;
        Some(d0)
    }
}

fn days_in(month: u32, year: u32) -> u32 {
    match month {
        2 => {
            if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) {
                29
            } else {
                28
            }
        }
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The full error text for a strict-mode failure, as the reference nests it
/// (`yaml:` / `Strict parsing:` / detail, each level on its own line, indented by 2).
pub fn strict_error_message(detail: &str) -> String {
    format!("yaml:\n  Strict parsing:\n    {detail}")
}

/// `-?(0|[1-9][0-9]*)`
fn is_strict_int(s: &str) -> bool {
    let d = s.strip_prefix('-').unwrap_or(s).as_bytes();
    match d {
        [b'0'] => true,
        [b'1'..=b'9', rest @ ..] => rest.iter().all(u8::is_ascii_digit),
        _ => false,
    }
}

/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`
fn is_strict_float(s: &str) -> bool {
    let b = s.strip_prefix('-').unwrap_or(s).as_bytes();
    let mut i = 0;
    match b.first() {
        Some(b'0') => i = 1,
        Some(b'1'..=b'9') => {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
        _ => return false,
    }
    if i < b.len() && b[i] == b'.' {
        let start = i + 1;
        i = start;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == b.len()
}

/// Whether the plain scalar `s` would not read back as this string, so that go-yaml's
/// encoder (and ours) writes it double-quoted: it resolves to another type, or it is a
/// timestamp or a base-60 float, which the reader keeps as strings and the encoder quotes
/// all the same.
pub(crate) fn reads_as_non_string(s: &str) -> bool {
    // [`resolve_non_str`]'s steps, asked only whether they resolve (the emitter asks for
    // every string it writes)
    let Some(&first) = s.as_bytes().first() else {
        return true;
    };
    match first {
        b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~' => {
            resolve_word(s).is_some()
        }
        b'.' => resolve_dot(s).is_some(),
        b'+' | b'-' | b'0'..=b'9' => {
            resolve_signed_special(s).is_some()
                || is_timestamp(s)
                || resolve_number(s).is_some()
                || is_base60_float(s.as_bytes())
        }
        _ => false,
    }
}

/// `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`
fn is_base60_float(p: &[u8]) -> bool {
    if !p.contains(&b':') {
        return false;
    }
    let mut i = 0;
    if i < p.len() && (p[i] == b'+' || p[i] == b'-') {
        i += 1;
    }
    if i >= p.len() || !p[i].is_ascii_digit() {
        return false;
    }
    i += 1;
    while i < p.len() && (p[i].is_ascii_digit() || p[i] == b'_') {
        i += 1;
    }
    let mut groups = 0;
    while i < p.len() && p[i] == b':' {
        i += 1;
        // [0-5]?[0-9]
        if i + 1 < p.len()
            && (b'0'..=b'5').contains(&p[i])
            && p[i + 1].is_ascii_digit()
            && !(i + 2 < p.len() && p[i + 2].is_ascii_digit())
        {
            i += 2;
        } else if i < p.len() && p[i].is_ascii_digit() {
            i += 1;
        } else {
            return false;
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if i < p.len() && p[i] == b'.' {
        i += 1;
        while i < p.len() && (p[i].is_ascii_digit() || p[i] == b'_') {
            i += 1;
        }
    }
    i == p.len()
}

/// The non-string resolution of a plain scalar, or `None` when it is a string.
fn resolve_non_str(s: &str) -> Option<Node> {
    let first = match s.as_bytes().first() {
        None => return Some(Node::Null),
        Some(&c) => c,
    };
    match first {
        b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~' => {
            resolve_word(s)
        }
        b'.' => resolve_dot(s),
        b'+' | b'-' | b'0'..=b'9' => {
            if let Some(n) = resolve_signed_special(s) {
                return Some(n);
            }
            resolve_number(s)
        }
        _ => None,
    }
}

fn resolve_word(s: &str) -> Option<Node> {
    Some(match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" | "true" | "True" | "TRUE" => {
            Node::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" | "false" | "False" | "FALSE" => {
            Node::Bool(false)
        }
        "~" | "null" | "Null" | "NULL" => Node::Null,
        _ => return None,
    })
}

fn resolve_signed_special(s: &str) -> Option<Node> {
    match s {
        "+.inf" | "+.Inf" | "+.INF" => Some(Node::Float(f64::INFINITY)),
        "-.inf" | "-.Inf" | "-.INF" => Some(Node::Float(f64::NEG_INFINITY)),
        _ => None,
    }
}

/// Scalars starting with `.`: `.inf`, `.nan`, and what Go's `strconv.ParseFloat` reads
/// (go-yaml's resolver hands them to it as written): `.5`, `.1_0`, `.5e3`.
fn resolve_dot(s: &str) -> Option<Node> {
    match s {
        ".inf" | ".Inf" | ".INF" => return Some(Node::Float(f64::INFINITY)),
        ".nan" | ".NaN" | ".NAN" => return Some(Node::Float(f64::NAN)),
        _ => {}
    }
    parse_go_dot_float(s).map(Node::Float)
}

/// Go's `strconv.ParseFloat` of a string starting with `.`: decimal digits, `_` between
/// two of them, an optional exponent; a value out of range is an error.
fn parse_go_dot_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    if b.first() != Some(&b'.') {
        return None;
    }
    // digits with `_` only between two of them, at least one digit
    let digits = |from: usize| -> Option<usize> {
        let mut i = from;
        let mut prev_digit = false;
        while i < b.len() {
            match b[i] {
                b'0'..=b'9' => prev_digit = true,
                b'_' if prev_digit => prev_digit = false,
                b'_' => return None,
                _ => break,
            }
            i += 1;
        }
        (i > from && prev_digit).then_some(i)
    };
    let mut i = digits(1)?;
    if i < b.len() {
        if b[i] != b'e' && b[i] != b'E' {
            return None;
        }
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(i)? != b.len() {
            return None;
        }
    }
    parse_finite_float(&s.replace('_', ""))
}

fn resolve_number(s: &str) -> Option<Node> {
    let plain: std::borrow::Cow<str> = if s.contains('_') {
        std::borrow::Cow::Owned(s.replace('_', ""))
    } else {
        std::borrow::Cow::Borrowed(s)
    };
    match parse_go_int(&plain) {
        GoInt::I64(v) => return Some(Node::Int(v.into())),
        GoInt::U64(v) => return Some(Node::Int(v.into())),
        GoInt::Invalid => {}
    }
    if is_yaml_float(&plain) {
        return parse_finite_float(&plain).map(Node::Float);
    }
    None
}

fn parse_finite_float(s: &str) -> Option<f64> {
    match s.parse::<f64>() {
        Ok(f) if f.is_finite() => Some(f),
        _ => None,
    }
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
fn is_yaml_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    } else {
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == b.len()
}

enum GoInt {
    I64(i64),
    U64(u64),
    Invalid,
}

/// Go's `strconv.ParseInt(s, 0, 64)` falling back to `ParseUint(s, 0, 64)` (no `_`).
fn parse_go_int(s: &str) -> GoInt {
    let (neg, signed, body) = match s.as_bytes().first() {
        Some(b'-') => (true, true, &s[1..]),
        Some(b'+') => (false, true, &s[1..]),
        _ => (false, false, s),
    };
    let b = body.as_bytes();
    let (radix, digits): (u32, &[u8]) = match b {
        [b'0', b'x' | b'X', rest @ ..] => (16, rest),
        [b'0', b'b' | b'B', rest @ ..] => (2, rest),
        [b'0', b'o' | b'O', rest @ ..] => (8, rest),
        [b'0', rest @ ..] if !rest.is_empty() => (8, rest),
        _ => (10, b),
    };
    if digits.is_empty() {
        return GoInt::Invalid;
    }
    let mut v: u64 = 0;
    for &c in digits {
        let d = match (c as char).to_digit(radix) {
            Some(d) => d as u64,
            None => return GoInt::Invalid,
        };
        v = match v.checked_mul(radix as u64).and_then(|x| x.checked_add(d)) {
            Some(x) => x,
            None => return GoInt::Invalid,
        };
    }
    if neg {
        if v <= i64::MAX as u64 + 1 {
            GoInt::I64((v as i128).wrapping_neg() as i64)
        } else {
            GoInt::Invalid
        }
    } else if v <= i64::MAX as u64 {
        GoInt::I64(v as i64)
    } else if !signed {
        GoInt::U64(v)
    } else {
        GoInt::Invalid
    }
}

/// The core-schema tags the parser honours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoreTag {
    Str,
    Int,
    Float,
    Bool,
    Null,
    Binary,
    /// `!!merge`: on a `<<` key, a merge like the plain `<<`; elsewhere a string.
    Merge,
    /// `!!timestamp`: a scalar go-yaml reads as a time (see `is_timestamp`), kept as a
    /// string.
    Timestamp,
    /// `!!map`, `!!seq`, … and unknown local tags: the value is kept as a string (scalars)
    /// or ignored (collections).
    Other,
}

/// Classify a tag given as `handle` + `suffix` (saphyr's split): `!!str` arrives as
/// `tag:yaml.org,2002:` + `str`.
pub fn core_tag(handle: &str, suffix: &str) -> CoreTag {
    let name = if handle == "tag:yaml.org,2002:" || handle == "!!" {
        suffix
    } else if handle.is_empty() {
        match suffix.strip_prefix("tag:yaml.org,2002:") {
            Some(s) => s,
            None => return CoreTag::Other,
        }
    } else {
        return CoreTag::Other;
    };
    match name {
        "str" => CoreTag::Str,
        "int" => CoreTag::Int,
        "float" => CoreTag::Float,
        "bool" => CoreTag::Bool,
        "null" => CoreTag::Null,
        "binary" => CoreTag::Binary,
        "timestamp" => CoreTag::Timestamp,
        "merge" => CoreTag::Merge,
        _ => CoreTag::Other,
    }
}

/// Resolve a scalar that carries an explicit tag (any scalar style). Errors are the
/// go-yaml style detail (`cannot decode !!str `abc` as a !!int`).
pub fn resolve_tagged(tag: CoreTag, value: &str) -> Result<Node, String> {
    let mismatch = |want: &str| {
        let got = match resolve_plain(value) {
            Node::Null => "!!null",
            Node::Bool(_) => "!!bool",
            Node::Int(_) => "!!int",
            Node::Float(_) => "!!float",
            _ => "!!str",
        };
        format!("cannot decode {got} `{value}` as a {want}")
    };
    match tag {
        CoreTag::Str | CoreTag::Merge | CoreTag::Other => Ok(Node::Str(value.into())),
        CoreTag::Binary => decode_binary(value).map(|s| Node::Str(s.into())),
        CoreTag::Int => match resolve_plain(value) {
            n @ Node::Int(_) => Ok(n),
            Node::Float(f)
                if f.fract() == 0.0 && f.abs() < 9.2e18 && !value.contains(['.', 'e', 'E']) =>
            {
                Ok(Node::Int((f as i64).into()))
            }
            _ => Err(mismatch("!!int")),
        },
        CoreTag::Float => match resolve_plain(value) {
            Node::Int(i) => Ok(Node::Float(i.get() as f64)),
            n @ Node::Float(_) => Ok(n),
            _ => Err(mismatch("!!float")),
        },
        CoreTag::Bool => match resolve_plain(value) {
            n @ Node::Bool(_) => Ok(n),
            _ => Err(mismatch("!!bool")),
        },
        CoreTag::Null => match resolve_plain(value) {
            Node::Null => Ok(Node::Null),
            _ => Err(mismatch("!!null")),
        },
        CoreTag::Timestamp if is_timestamp(value) => Ok(Node::Str(value.into())),
        CoreTag::Timestamp => Err(mismatch("!!timestamp")),
    }
}

/// Decode a `!!binary` value (standard base64; line breaks and spaces are ignored).
/// Bytes that are not UTF-8 are carried (see `crate::bytestr`).
pub fn decode_binary(value: &str) -> Result<String, String> {
    let cleaned: String = value.chars().filter(|c| !c.is_whitespace()).collect();
    match base64::engine::general_purpose::STANDARD.decode(cleaned.as_bytes()) {
        Ok(bytes) => Ok(crate::bytestr::decode_vec(bytes)),
        Err(_) => Err("!!binary value contains invalid base64 data".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::Int;

    fn f(s: &str) -> f64 {
        match resolve_plain(s) {
            Node::Float(f) => f,
            other => panic!("{s:?} resolved to {other:?}, expected float"),
        }
    }

    fn is_str(s: &str) {
        assert_eq!(resolve_plain(s), Node::Str(s.into()), "{s:?}");
    }

    #[test]
    fn bools_and_nulls() {
        for s in [
            "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE",
        ] {
            assert_eq!(resolve_plain(s), Node::Bool(true), "{s}");
        }
        for s in [
            "n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE",
        ] {
            assert_eq!(resolve_plain(s), Node::Bool(false), "{s}");
        }
        for s in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(resolve_plain(s), Node::Null, "{s:?}");
        }
        for s in ["yES", "nULL", "oN", "tRUE", "yess", "o", "t"] {
            is_str(s);
        }
    }

    #[test]
    fn ints() {
        let cases: &[(&str, i64)] = &[
            ("0o17", 15),
            ("0O17", 15),
            ("017", 15),
            ("0x1F", 31),
            ("0b101", 5),
            ("-0b101", -5),
            ("1_000", 1000),
            ("+12", 12),
            ("-0", 0),
            ("00", 0),
            ("0b1_0", 2),
            ("1__0", 10),
            ("0x_1F", 31),
            ("+0x1F", 31),
            ("-0x1F", -31),
            ("9223372036854775807", i64::MAX),
            ("-9223372036854775808", i64::MIN),
            ("0x7FFFFFFFFFFFFFFF", i64::MAX),
        ];
        for (s, v) in cases {
            assert_eq!(resolve_plain(s), Node::Int((*v).into()), "{s}");
        }
    }

    #[test]
    fn floats() {
        assert_eq!(f("08"), 8.0);
        assert_eq!(f("0."), 0.0);
        assert_eq!(f("1."), 1.0);
        assert_eq!(f("1.0"), 1.0);
        assert_eq!(f(".5"), 0.5);
        assert_eq!(f("-.5"), -0.5);
        assert_eq!(f("1e3"), 1000.0);
        assert_eq!(f("1E3"), 1000.0);
        assert_eq!(f("1.5e3"), 1500.0);
        assert_eq!(f("1e-3"), 0.001);
        assert_eq!(f("1e+3"), 1000.0);
        assert_eq!(f("6.8523015e+5"), 685230.15);
        assert_eq!(f("1_0.5"), 10.5);
        // `.`: Go's ParseFloat, `_` between digits
        assert_eq!(f(".1_0"), 0.1);
        assert_eq!(f(".1e1_0"), 1e9);
        assert_eq!(f(".5E+3"), 500.0);
        for s in [
            "._5", ".5_", ".5__5", ".5_e3", ".5e_3", ".5e", ".", ".e3", ".5x", ".1e400",
        ] {
            is_str(s);
        }
        assert_eq!(f(".inf"), f64::INFINITY);
        assert_eq!(f(".Inf"), f64::INFINITY);
        assert_eq!(f("+.INF"), f64::INFINITY);
        assert_eq!(f("-.Inf"), f64::NEG_INFINITY);
        assert!(f(".nan").is_nan());
        assert!(f(".NaN").is_nan());
        assert!(f(".NAN").is_nan());
        assert_eq!(f("123456789012345678901234567890"), 1.2345678901234568e29);
        // beyond u64
        assert_eq!(f("18446744073709551616"), 18446744073709551616.0);
    }

    /// The strings the emitter quotes: those that read back as another type, and
    /// timestamps and base-60 floats.
    #[test]
    fn strings_that_would_not_read_back() {
        for s in [
            "",
            "~",
            "yes",
            "Off",
            "NULL",
            "12",
            "-0x1F",
            "1_000",
            "1_",
            "0o17",
            "+.inf",
            ".NaN",
            ".5",
            ".1_0",
            "1e3",
            "18446744073709551615",
            "2001-01-01",
            "2001-1-2 3:04:05",
            "1:20",
            "-1:20:30.5",
        ] {
            assert!(reads_as_non_string(s), "{s:?}");
        }
        for s in [
            "x",
            "yes!",
            "._5",
            "0x",
            "1e400",
            "2001-13-01",
            "+",
            "-",
            "1:2:",
            "1:60",
            ".e3",
        ] {
            assert!(!reads_as_non_string(s), "{s:?}");
        }
    }

    /// Beyond int64 and up to uint64, integers stay integers (as go-yaml reads them).
    #[test]
    fn uint64_range_ints() {
        assert_eq!(
            resolve_plain("9223372036854775808"),
            Node::Int(9223372036854775808u64.into())
        );
        assert_eq!(
            resolve_plain("0xFFFFFFFFFFFFFFFF"),
            Node::Int(u64::MAX.into())
        );
        assert_eq!(
            resolve_plain("-9223372036854775808"),
            Node::Int(i64::MIN.into())
        );
        assert_eq!(Int::from(u64::MAX).to_string(), "18446744073709551615");
        assert_eq!(Int::from(-1i64).get(), -1);
    }

    #[test]
    fn strings() {
        for s in [
            "1,000",
            "1.0e400",
            "12:30:45",
            "190:20:30.15",
            "-1:30",
            "1:30",
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14 21:59:43.10 -5",
            "2001-12-14",
            "2002-1-5",
            "=",
            "<<",
            "a#b",
            "_1",
            "0o8",
            "0x",
            "-",
            "+",
            ".",
            "1e",
            ".inff",
            "._5",
            "hello world",
            "é",
        ] {
            is_str(s);
        }
    }

    #[test]
    fn tagged() {
        let t = |tag, v| resolve_tagged(tag, v).unwrap();
        assert_eq!(t(CoreTag::Str, "123"), Node::Str("123".into()));
        assert_eq!(t(CoreTag::Str, "yes"), Node::Str("yes".into()));
        assert_eq!(t(CoreTag::Int, "5"), Node::Int(5.into()));
        assert_eq!(t(CoreTag::Int, "0x10"), Node::Int(16.into()));
        assert_eq!(t(CoreTag::Float, "1"), Node::Float(1.0));
        assert_eq!(t(CoreTag::Float, "2"), Node::Float(2.0));
        assert_eq!(t(CoreTag::Bool, "yes"), Node::Bool(true));
        assert_eq!(t(CoreTag::Bool, "true"), Node::Bool(true));
        assert_eq!(t(CoreTag::Null, ""), Node::Null);
        assert_eq!(t(CoreTag::Str, ""), Node::Str("".into()));
        assert_eq!(t(CoreTag::Binary, "aGVsbG8="), Node::Str("hello".into()));
        assert_eq!(
            t(CoreTag::Binary, "aGVs\nbG8=\n"),
            Node::Str("hello".into())
        );
        assert_eq!(t(CoreTag::Other, "x"), Node::Str("x".into()));
        assert!(resolve_tagged(CoreTag::Int, "abc").is_err());
        assert!(resolve_tagged(CoreTag::Binary, "!!!").is_err());
        assert_eq!(core_tag("tag:yaml.org,2002:", "str"), CoreTag::Str);
        assert_eq!(core_tag("", "tag:yaml.org,2002:int"), CoreTag::Int);
        assert_eq!(core_tag("!", "custom"), CoreTag::Other);
    }

    /// Rule (measured): go-yaml's timestamps are `time.Parse` with four layouts, a real
    /// date, at most nine digits of a second's fraction, any two digits in an offset;
    /// `!!timestamp` on anything else is an error in go-yaml's words.
    #[test]
    fn timestamps() {
        for s in [
            "2001-12-14",
            "2001-1-1",
            "2000-02-29",
            "2001-12-14T21:59:43Z",
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14t21:59:43.123456789Z",
            "2001-12-14T21:59:43,5Z",
            "2001-12-14T21:59:43+99:99",
            "2001-12-14 21:59:43.10",
            "2001-12-14  21:59:43",
            "2001-12-14 1:2:3",
        ] {
            assert!(is_timestamp(s), "{s}");
            assert_eq!(
                resolve_tagged(CoreTag::Timestamp, s),
                Ok(Node::Str(s.into()))
            );
        }
        for (s, got) in [
            ("nope", "!!str"),
            ("1", "!!int"),
            ("", "!!null"),
            ("1900-02-29", "!!str"),
            ("2001-13-14", "!!str"),
            ("02001-12-14", "!!str"),
            ("2001-12-14T21:59:43", "!!str"),
            ("2001-12-14T21:59:43+05", "!!str"),
            ("2001-12-14T1:2:3", "!!str"),
            ("2001-12-14T21:59:43.1234567891Z", "!!str"),
            ("2001-12-14T21:59:43.Z", "!!str"),
            ("2001-12-14 21:59:43.10 -5", "!!str"),
            ("2001-12-14T25:00:00Z", "!!str"),
        ] {
            assert!(!is_timestamp(s), "{s}");
            assert_eq!(
                resolve_tagged(CoreTag::Timestamp, s),
                Err(format!("cannot decode {got} `{s}` as a !!timestamp"))
            );
        }
        assert_eq!(core_tag("!!", "timestamp"), CoreTag::Timestamp);
    }

    #[test]
    fn strict() {
        assert_eq!(resolve_plain_strict("true"), Ok(Node::Bool(true)));
        assert_eq!(resolve_plain_strict(""), Ok(Node::Null));
        assert_eq!(resolve_plain_strict("123"), Ok(Node::Int(123.into())));
        assert_eq!(resolve_plain_strict("-0"), Ok(Node::Int(0.into())));
        assert_eq!(resolve_plain_strict("1.5e3"), Ok(Node::Float(1500.0)));
        assert_eq!(resolve_plain_strict("abc"), Ok(Node::Str("abc".into())));
        assert_eq!(
            resolve_plain_strict("yes"),
            Err("Found 'yes' ambigious (could be !!str or !!bool)".into())
        );
        assert!(resolve_plain_strict("~").is_err());
        assert!(resolve_plain_strict("null").is_err());
        assert!(resolve_plain_strict("0x1F").is_err());
        assert!(resolve_plain_strict("017").is_err());
        assert!(resolve_plain_strict("+12").is_err());
        assert!(resolve_plain_strict("1.").is_err());
        assert!(resolve_plain_strict(".inf").is_err());
        assert_eq!(
            resolve_plain_strict("hello world"),
            Err("Strings with whitespace must be explicitly quoted: 'hello world'".into())
        );
        assert!(resolve_plain_strict("a:b").is_err());
        assert!(resolve_plain_strict("a---b").is_err());
        assert_eq!(strict_error_message("x"), "yaml:\n  Strict parsing:\n    x");
    }
}
