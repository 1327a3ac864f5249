//! The checks behind the named rules this project adds (`len`, `starts_with`, `ends_with`,
//! `contains`, `matches`, `format`, `even`, `odd`, `multiple_of`), on nodes. Each returns
//! the `found:` text of a failure. Shared by validations and `@ytt:assert`'s assertion
//! objects.

use regex::Regex;

use super::formats::Format;
use crate::typenames::rule;
use crate::yaml::Node;

/// The result of a check: `Err(found)` on failure.
pub type Outcome = Result<(), String>;

fn want_string(n: &Node) -> Result<&str, String> {
    match n {
        Node::Str(s) => Ok(s),
        other => Err(format!("expected a string, but was {}", rule(other))),
    }
}

/// `"S"`, as rules print string arguments.
pub fn quoted(s: &str) -> String {
    format!("\"{s}\"")
}

/// The length of a string (in bytes, as Starlark's `len` counts), map or array.
pub fn length(n: &Node) -> Result<usize, String> {
    match n {
        Node::Str(s) => Ok(crate::bytestr::encode(s).len()),
        Node::Map(m) => Ok(m.items.len()),
        Node::Array(a) => Ok(a.items.len()),
        other => Err(format!("value of type {} has no length", rule(other))),
    }
}

pub fn len_eq(n: &Node, want: i64) -> Outcome {
    let len = length(n)?;
    if len as i64 == want {
        Ok(())
    } else {
        Err(format!("length = {len}"))
    }
}

pub fn starts_with(n: &Node, prefix: &str) -> Outcome {
    if want_string(n)?.starts_with(prefix) {
        Ok(())
    } else {
        Err(format!("value does not start with {}", quoted(prefix)))
    }
}

pub fn ends_with(n: &Node, suffix: &str) -> Outcome {
    if want_string(n)?.ends_with(suffix) {
        Ok(())
    } else {
        Err(format!("value does not end with {}", quoted(suffix)))
    }
}

/// A substring of a string, an element of an array, a key of a map. `repr` is how the
/// wanted value prints.
pub fn contains(n: &Node, wanted: &Node, repr: &str) -> Outcome {
    let found = match n {
        Node::Str(s) => match wanted {
            Node::Str(w) => s.contains(w.as_str()),
            _ => false,
        },
        Node::Array(a) => a.items.iter().any(|i| i.value.value_eq(wanted)),
        Node::Map(m) => m.items.iter().any(|i| i.key.value_eq(wanted)),
        other => {
            return Err(format!(
                "expected a string, array or map, but was {}",
                rule(other)
            ))
        }
    };
    if found {
        Ok(())
    } else {
        Err(format!("value does not contain {repr}"))
    }
}

pub fn matches(n: &Node, re: &Regex, pattern: &str) -> Outcome {
    if re.is_match(want_string(n)?) {
        Ok(())
    } else {
        Err(format!("value does not match {}", quoted(pattern)))
    }
}

pub fn format(n: &Node, f: Format) -> Outcome {
    let text;
    let s = match (n, f) {
        // quantities are often written as plain numbers
        (Node::Int(i), Format::Quantity) => {
            text = i.to_string();
            text.as_str()
        }
        (Node::Float(x), Format::Quantity) => {
            text = crate::yaml::emit::format_float_str(*x);
            text.as_str()
        }
        _ => want_string(n)?,
    };
    if f.is_valid(s) {
        Ok(())
    } else {
        Err(format!("value is not a valid {}", f.name()))
    }
}

fn integer(n: &Node) -> Result<Option<i128>, String> {
    match n {
        Node::Int(i) => Ok(Some(i.get())),
        Node::Float(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e30 => {
            Ok(Some(*f as i128))
        }
        Node::Float(_) => Ok(None),
        other => Err(format!("expected a number, but was {}", rule(other))),
    }
}

/// `even=True` (`want_even`) or `odd=True`.
pub fn parity(n: &Node, want_even: bool) -> Outcome {
    let Some(i) = integer(n)? else {
        return Err("value is not an integer".into());
    };
    let even = i % 2 == 0;
    match (want_even, even) {
        (true, true) | (false, false) => Ok(()),
        (true, false) => Err("value is odd".into()),
        (false, true) => Err("value is even".into()),
    }
}

/// A number argument of `multiple_of=`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Int(i64),
    Float(f64),
}

impl Number {
    /// A node's integer: beyond int64 (a uint64) it is compared as a float.
    pub fn of_int(i: i128) -> Number {
        i64::try_from(i).map_or(Number::Float(i as f64), Number::Int)
    }

    pub fn text(self) -> String {
        match self {
            Number::Int(i) => i.to_string(),
            Number::Float(f) => crate::yaml::emit::format_float_str(f),
        }
    }

    pub fn is_zero(self) -> bool {
        match self {
            Number::Int(i) => i == 0,
            Number::Float(f) => f == 0.0,
        }
    }
}

pub fn multiple_of(n: &Node, m: Number) -> Outcome {
    let ok = match (n, m) {
        (Node::Int(i), Number::Int(d)) => d != 0 && i.get().checked_rem(d.into()).unwrap_or(0) == 0,
        (Node::Int(_) | Node::Float(_), _) => {
            let v = match n {
                Node::Int(i) => i.get() as f64,
                Node::Float(f) => *f,
                _ => 0.0,
            };
            let d = match m {
                Number::Int(i) => i as f64,
                Number::Float(f) => f,
            };
            if d == 0.0 || !v.is_finite() {
                false
            } else {
                let q = v / d;
                (q - q.round()).abs() < 1e-9
            }
        }
        (other, _) => {
            return Err(format!("expected a number, but was {}", rule(other)));
        }
    };
    if ok {
        Ok(())
    } else {
        Err(format!("value is not a multiple of {}", m.text()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Node {
        Node::Str(x.into())
    }

    #[test]
    fn string_checks() {
        assert_eq!(starts_with(&s("https://x"), "https://"), Ok(()));
        assert_eq!(
            starts_with(&s("http://x"), "https://"),
            Err("value does not start with \"https://\"".into())
        );
        assert_eq!(
            ends_with(&Node::Int(1.into()), "x"),
            Err("expected a string, but was int".into())
        );
        assert_eq!(len_eq(&s("short"), 16), Err("length = 5".into()));
        assert_eq!(
            contains(&s("a@sha256:1"), &s("@sha256:"), "\"@sha256:\""),
            Ok(())
        );
        assert!(contains(&s("abc"), &Node::Int(1.into()), "1").is_err());
    }

    #[test]
    fn numeric_checks() {
        assert_eq!(parity(&Node::Int(4.into()), true), Ok(()));
        assert_eq!(
            parity(&Node::Int(1023.into()), true),
            Err("value is odd".into())
        );
        assert_eq!(
            parity(&Node::Int(4.into()), false),
            Err("value is even".into())
        );
        assert_eq!(
            parity(&Node::Float(1.5), false),
            Err("value is not an integer".into())
        );
        assert_eq!(multiple_of(&Node::Int(64.into()), Number::Int(8)), Ok(()));
        assert_eq!(
            multiple_of(&Node::Int(5000.into()), Number::Int(1024)),
            Err("value is not a multiple of 1024".into())
        );
        assert_eq!(
            multiple_of(&Node::Int(i64::MIN.into()), Number::Int(-1)),
            Ok(())
        );
        assert_eq!(multiple_of(&Node::Float(1.5), Number::Float(0.5)), Ok(()));
    }
}
