//! Matchers (`overlay.all`, `index`, `map_key`, `subset` and their combinations), the
//! subset comparison behind `overlay.subset` and the default `@overlay/assert`, and the
//! expected-match-count forms of `expects=` / `missing_ok=` / `when=`.

use crate::typenames::node_go;
use crate::yaml::{FileNames, Node, Pos, ValueRef};

/// A matcher the engine can run without calling back into Starlark.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Matcher {
    /// `overlay.all`
    #[default]
    All,
    /// `overlay.index(i)`: the document / array index (or map key) equals `i`.
    Index(i64),
    /// `overlay.map_key(name)` (and `by="name"`).
    MapKey(Node),
    /// `overlay.subset(expected)`
    Subset(Node),
    And(Vec<Matcher>),
    Or(Vec<Matcher>),
    Not(Box<Matcher>),
}

/// A matcher that could not decide: the matcher function the reference names
/// (`overlay.map_key_matcher`) and what was wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchError {
    pub matcher: &'static str,
    pub message: String,
}

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.matcher, self.message)
    }
}

impl Matcher {
    /// Whether the left node matches; `index_or_key` is the document/array index (an int)
    /// or the map item's key.
    pub fn matches(
        &self,
        index_or_key: &Node,
        left: &Node,
        right: &Node,
    ) -> Result<bool, MatchError> {
        Ok(match self {
            Matcher::All => true,
            Matcher::Index(i) => index_or_key.value_eq(&Node::Int((*i).into())),
            Matcher::MapKey(name) => {
                map_key_matches(name, left, right).map_err(|message| MatchError {
                    matcher: "overlay.map_key_matcher",
                    message,
                })?
            }
            Matcher::Subset(expected) => compare_subset(left, expected).is_ok(),
            Matcher::And(ms) => {
                for m in ms {
                    if !m.matches(index_or_key, left, right)? {
                        return Ok(false);
                    }
                }
                true
            }
            Matcher::Or(ms) => {
                for m in ms {
                    if m.matches(index_or_key, left, right)? {
                        return Ok(true);
                    }
                }
                false
            }
            Matcher::Not(m) => !m.matches(index_or_key, left, right)?,
        })
    }
}

/// `overlay.map_key(name)`: both sides must be maps holding `name`; their values must be
/// equal (an integer never equals a float: [`Node::same_as`]).
pub fn map_key_matches(name: &Node, left: &Node, right: &Node) -> Result<bool, String> {
    let Node::Map(l) = left else {
        return Err(format!(
            "Expected left side to be a map, but was {}",
            node_go(left)
        ));
    };
    let Node::Map(r) = right else {
        return Err(format!(
            "Expected right side to be a map, but was {}",
            node_go(right)
        ));
    };
    let missing = || {
        format!(
            "Expected to find map item with key '{}', but did not",
            name.key_text()
        )
    };
    let Some(rv) = r.get(name) else {
        return Err(missing());
    };
    let Some(lv) = l.get(name) else {
        return Err(missing());
    };
    Ok(lv.same_as(rv))
}

/// Checks that `left` contains `expected`: maps recursively by key, arrays item by item as
/// a prefix, scalars by value (an integer never equals a float: [`Node::same_as`]). The
/// error says what differed.
pub fn compare_subset(left: &Node, expected: &Node) -> Result<(), String> {
    match expected {
        Node::Map(em) => {
            let Node::Map(lm) = left else {
                return Err(format!("Expected map, but was {}", left.type_name()));
            };
            for item in &em.items {
                match lm.get_same(&item.key) {
                    Some(lv) => compare_subset(lv, &item.value)?,
                    None => {
                        return Err(format!(
                            "Expected map item with key '{}' to be present",
                            item.key.key_text()
                        ))
                    }
                }
            }
            Ok(())
        }
        Node::Array(ea) => {
            let Node::Array(la) = left else {
                return Err(format!("Expected array, but was {}", left.type_name()));
            };
            if ea.items.len() > la.items.len() {
                return Err(format!(
                    "Expected array to have at least {} items, but had {}",
                    ea.items.len(),
                    la.items.len()
                ));
            }
            for (l, e) in la.items.iter().zip(&ea.items) {
                compare_subset(&l.value, &e.value)?;
            }
            Ok(())
        }
        _ => {
            if left.is_scalar() && left.same_as(expected) {
                Ok(())
            } else {
                Err(format!(
                    "Expected leaf values to match {} {}",
                    node_go(left),
                    node_go(expected)
                ))
            }
        }
    }
}

/// An expected number of matches.
#[derive(Debug, Clone, PartialEq)]
pub enum Expects {
    Exactly(i64),
    /// `"N+"`
    AtLeast(i64),
    /// A list of alternatives.
    OneOf(Vec<Expects>),
    /// `fn(count) -> bool`
    Func(ValueRef),
}

impl Expects {
    /// `missing_ok=True` ≡ `expects=[0,1]`.
    pub fn missing_ok(ok: bool) -> Self {
        if ok {
            Expects::OneOf(vec![Expects::Exactly(0), Expects::Exactly(1)])
        } else {
            Expects::Exactly(1)
        }
    }

    /// How the expectation is written in the `Expected number of matched nodes to be …`
    /// message: `2`, `>= 1`; of alternatives, the reference names the last one it tried
    /// (`expects=[0, 1]` or `missing_ok=True` with two matches: `to be 1`).
    pub fn describe(&self) -> String {
        match self {
            Expects::Exactly(n) => n.to_string(),
            Expects::AtLeast(n) => format!(">= {n}"),
            Expects::OneOf(alts) => alts.last().map(Expects::describe).unwrap_or_default(),
            Expects::Func(_) => "as expected by function".to_owned(),
        }
    }
}

/// Parses `"N+"` (or a plain number in a string).
pub fn parse_expects_str(s: &str, kwarg: &str) -> Result<Expects, String> {
    let bad = || format!("Expected '{kwarg}' to be in format 'i+' where i >= 0, but was '{s}'");
    if let Some(n) = s.strip_suffix('+') {
        let n: i64 = n.trim().parse().map_err(|_| bad())?;
        if n < 0 {
            return Err(bad());
        }
        return Ok(Expects::AtLeast(n));
    }
    s.trim()
        .parse::<i64>()
        .map(Expects::Exactly)
        .map_err(|_| bad())
}

/// The ` (lines: a.yml:2, a.yml:6)` suffix naming the matched nodes (empty when none).
pub fn lines_suffix(names: &FileNames, positions: &[&Pos]) -> String {
    if positions.is_empty() {
        return String::new();
    }
    // listed in text order (`f.yml:10` before `f.yml:7`), as the reference sorts them
    let mut lines: Vec<String> = positions.iter().map(|p| names.describe(p)).collect();
    lines.sort();
    format!(" (lines: {})", lines.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::{Array, ArrayItem, Map, MapItem, Meta};

    fn s(v: &str) -> Node {
        Node::Str(v.into())
    }

    fn map(items: Vec<(&str, Node)>) -> Node {
        Node::Map(Map {
            items: items
                .into_iter()
                .map(|(k, v)| MapItem {
                    key: s(k),
                    value: v,
                    meta: Meta::default(),
                })
                .collect(),
        })
    }

    fn arr(items: Vec<Node>) -> Node {
        Node::Array(Array {
            items: items
                .into_iter()
                .map(|v| ArrayItem {
                    value: v,
                    meta: Meta::default(),
                })
                .collect(),
        })
    }

    #[test]
    fn subset_maps_arrays_scalars() {
        let left = map(vec![
            ("a", Node::Int(1.into())),
            ("b", arr(vec![s("x"), s("y")])),
        ]);
        assert!(compare_subset(&left, &map(vec![("a", Node::Int(1.into()))])).is_ok());
        // an integer never matches a float, in an array or a map too
        assert!(compare_subset(&left, &map(vec![("a", Node::Float(1.0))])).is_err());
        let floats = map(vec![("f", arr(vec![Node::Float(2.0)]))]);
        assert!(compare_subset(&floats, &floats).is_ok());
        assert!(
            compare_subset(&floats, &map(vec![("f", arr(vec![Node::Int(2.into())]))])).is_err()
        );
        assert!(compare_subset(&left, &map(vec![("b", arr(vec![s("x")]))])).is_ok());
        assert!(compare_subset(&left, &map(vec![("b", arr(vec![s("y")]))])).is_err());
        assert!(compare_subset(&left, &map(vec![("c", Node::Null)])).is_err());
        assert_eq!(
            compare_subset(&s("val1"), &s("val2")),
            Err("Expected leaf values to match string string".to_owned())
        );
    }

    #[test]
    fn logical_matchers() {
        let left = map(vec![("name", s("first"))]);
        let first = Matcher::Subset(map(vec![("name", s("first"))]));
        let third = Matcher::Subset(map(vec![("name", s("third"))]));
        let idx = Node::Int(0.into());
        let m = Matcher::Or(vec![first.clone(), third.clone()]);
        assert_eq!(m.matches(&idx, &left, &Node::Null), Ok(true));
        let m = Matcher::And(vec![first.clone(), third]);
        assert_eq!(m.matches(&idx, &left, &Node::Null), Ok(false));
        let m = Matcher::Not(Box::new(first));
        assert_eq!(m.matches(&idx, &left, &Node::Null), Ok(false));
        assert_eq!(Matcher::Index(0).matches(&idx, &left, &left), Ok(true));
    }

    #[test]
    fn map_key() {
        let l = map(vec![("name", Node::Int(1.into()))]);
        let r = map(vec![("name", Node::Float(1.0))]);
        assert_eq!(map_key_matches(&s("name"), &l, &l), Ok(true));
        assert_eq!(map_key_matches(&s("name"), &l, &r), Ok(false));
        assert_eq!(map_key_matches(&s("name"), &r, &r), Ok(true));
        assert!(map_key_matches(&s("other"), &l, &r).is_err());
        assert!(map_key_matches(&s("name"), &s("x"), &r).is_err());
    }

    #[test]
    fn expects_strings() {
        assert_eq!(parse_expects_str("1+", "expects"), Ok(Expects::AtLeast(1)));
        assert_eq!(parse_expects_str("2", "expects"), Ok(Expects::Exactly(2)));
        assert!(parse_expects_str("x+", "expects").is_err());
        assert_eq!(Expects::missing_ok(true).describe(), "1");
        assert_eq!(Expects::AtLeast(2).describe(), ">= 2");
    }
}
