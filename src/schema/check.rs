//! Checking data values against a type: every mismatch is collected, missing map keys are
//! filled with their defaults (inside array items too), and each value node gets its
//! type's `schema/validation` annotations.

use std::sync::Mutex;

use super::types::{Kind, MapItemType, Type};
use crate::cores::{available, on_cores, TREE_STACK};
use crate::template::annotations::SCHEMA_VALIDATION;
use crate::yaml::{ArrayItem, Map, Meta, Node, Pos, ThinVec};

/// From this many items, an array's items are checked on every core (each takes a few
/// thousand instructions: far more than handing out a run of them).
const SPREAD_FROM: usize = 2048;

/// What holds the value being checked (for the "Data value calculated" rendering).
#[derive(Clone, Copy, Debug)]
pub enum Holder<'a> {
    Doc,
    Key(&'a Node),
    Item,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ViolationKind {
    /// The value is not of the expected type.
    Mismatch {
        found: &'static str,
        expected: &'static str,
        /// Where the type was declared.
        by: Pos,
    },
    /// A map key the schema does not declare.
    Undeclared {
        key: String,
        /// The keys the schema declares for that map.
        allowed: Vec<String>,
        /// Where the map was declared.
        map_pos: Pos,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    pub kind: ViolationKind,
    /// Where the offending value came from.
    pub pos: Pos,
    /// The offending item as YAML-ish text, for values computed in memory.
    pub calculated: String,
}

fn repr(n: &Node) -> String {
    match n {
        Node::Null => "null".to_owned(),
        Node::Bool(b) => b.to_string(),
        Node::Int(i) => i.to_string(),
        Node::Float(f) => f.to_string(),
        Node::Str(s) => serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}")),
        Node::Map(m) => {
            let items: Vec<String> = m
                .items
                .iter()
                .map(|i| format!("{}: {}", i.key.key_text(), repr(&i.value)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
        Node::Array(a) => {
            let items: Vec<String> = a.items.iter().map(|i| repr(&i.value)).collect();
            format!("[{}]", items.join(", "))
        }
    }
}

fn calculated(holder: Holder, value: &Node) -> String {
    match holder {
        Holder::Doc => repr(value),
        Holder::Key(k) => format!("{}: {}", k.key_text(), repr(value)),
        Holder::Item => format!("- {}", repr(value)),
    }
}

/// Puts the type's validations on the value's metadata (replacing those of an earlier
/// check).
fn annotate(ty: &Type, meta: &mut Meta) {
    meta.annotations.retain(|a| a.name != SCHEMA_VALIDATION);
    if !ty.validations.is_empty() {
        let mut anns: ThinVec<_> = ty.validations.iter().cloned().collect();
        anns.extend(std::mem::take(&mut meta.annotations));
        meta.annotations = anns;
    }
}

/// Checks `value` (held by an item with metadata `meta`) against `ty`, filling in
/// defaults; violations are appended to `out` in document order.
pub fn check(
    ty: &Type,
    value: &mut Node,
    meta: &mut Meta,
    holder: Holder,
    out: &mut Vec<Violation>,
) {
    walk(ty, value, meta, holder, out, true);
}

/// [`check`]; `spread`: a long array may be checked on every core (not inside a run of
/// items that already is).
fn walk(
    ty: &Type,
    value: &mut Node,
    meta: &mut Meta,
    holder: Holder,
    out: &mut Vec<Violation>,
    spread: bool,
) {
    annotate(ty, meta);
    if ty.is_any() || (ty.nullable && value.is_null()) {
        return;
    }
    let mismatch = |value: &Node, meta: &Meta, out: &mut Vec<Violation>| {
        out.push(Violation {
            kind: ViolationKind::Mismatch {
                found: value.type_name(),
                expected: ty.name(),
                by: ty.pos.clone(),
            },
            pos: meta.pos.clone(),
            calculated: calculated(holder, value),
        });
    };
    match (&ty.kind, &mut *value) {
        (Kind::Map(types), Node::Map(m)) => {
            // which declared keys the map has, a bit each (the first 128; past them the
            // items are searched again below)
            let mut has = 0u128;
            for (i, item) in m.items.iter_mut().enumerate() {
                // items are most often in the schema's order: try the same place first
                let found = match types.get(i) {
                    Some(t) if t.key.value_eq(&item.key) => Some(i),
                    _ => types.iter().position(|t| t.key.value_eq(&item.key)),
                };
                match found.map(|j| (j, &types[j])) {
                    Some((j, t)) => {
                        if j < 128 {
                            has |= 1 << j;
                        }
                        walk(
                            &t.ty,
                            &mut item.value,
                            &mut item.meta,
                            Holder::Key(&item.key),
                            out,
                            spread,
                        )
                    }
                    None => out.push(Violation {
                        kind: ViolationKind::Undeclared {
                            key: item.key.key_text(),
                            allowed: types.iter().map(|t| t.key.key_text()).collect(),
                            map_pos: ty.pos.clone(),
                        },
                        pos: item.meta.pos.clone(),
                        calculated: calculated(Holder::Key(&item.key), &item.value),
                    }),
                }
            }
            let present = |m: &Map, j: usize, t: &MapItemType| match j {
                0..128 => has & (1 << j) != 0,
                _ => m.items.iter().any(|i| i.key.value_eq(&t.key)),
            };
            let missing = (types.iter().enumerate())
                .filter(|&(j, t)| !present(m, j, t))
                .count();
            // exact: a grown vector would waste up to half of every defaulted map
            m.items.reserve_exact(missing);
            for (j, t) in types.iter().enumerate() {
                if present(m, j, t) {
                    continue;
                }
                let mut item = crate::yaml::MapItem {
                    key: t.key.clone(),
                    value: t.ty.default.clone(),
                    meta: Meta::at(t.ty.pos.clone()),
                };
                let mut ignored = Vec::new();
                walk(
                    &t.ty,
                    &mut item.value,
                    &mut item.meta,
                    Holder::Key(&t.key),
                    &mut ignored,
                    spread,
                );
                m.items.push(item);
            }
        }
        (Kind::Array(elem), Node::Array(a)) => check_items(elem, &mut a.items, out, spread),
        (Kind::String, Node::Str(_))
        | (Kind::Integer, Node::Int(_))
        | (Kind::Float, Node::Float(_) | Node::Int(_))
        | (Kind::Boolean, Node::Bool(_)) => {}
        _ => mismatch(value, meta, out),
    }
}

/// Checks array items, each on its own: a long array's runs of items on every core, their
/// violations kept in item order.
fn check_items(elem: &Type, items: &mut [ArrayItem], out: &mut Vec<Violation>, spread: bool) {
    let threads = match spread && items.len() >= SPREAD_FROM {
        true => available(),
        false => 1,
    };
    let run = |items: &mut [ArrayItem], out: &mut Vec<Violation>, spread: bool| {
        for item in items {
            walk(
                elem,
                &mut item.value,
                &mut item.meta,
                Holder::Item,
                out,
                spread,
            );
        }
    };
    if threads < 2 {
        return run(items, out, spread);
    }
    let runs: Vec<Mutex<&mut [ArrayItem]>> = items
        .chunks_mut(items.len().div_ceil(threads * 4))
        .map(Mutex::new)
        .collect();
    let found = on_cores(threads, "ytt-check", TREE_STACK, runs.len(), |u| {
        let mut items = runs[u].lock().ok()?;
        let mut found = Vec::new();
        run(&mut items, &mut found, false);
        Some(found)
    });
    for (found, items) in found.into_iter().zip(runs) {
        match found {
            Some(found) => out.extend(found),
            // a run whose helper could not start (or panicked: the same panic follows here)
            None => {
                let items = items.into_inner().unwrap_or_else(|e| e.into_inner());
                run(items, out, false);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::types::{MapItemType, TypeDoc};
    use crate::yaml::{Array, ArrayItem, Map, MapItem};

    fn pos(line: u32) -> Pos {
        Pos::new(crate::yaml::FileNames::default().id("s.yml"), line)
    }

    fn scalar(kind: Kind, line: u32, default: Node) -> Type {
        Type {
            kind,
            nullable: false,
            pos: pos(line),
            default,
            doc: TypeDoc::default(),
            validations: vec![],
        }
    }

    fn map_of(items: Vec<(&str, Type)>, line: u32) -> Type {
        let default = Node::Map(Map {
            items: items
                .iter()
                .map(|(k, t)| MapItem {
                    key: Node::Str((*k).into()),
                    value: t.default.clone(),
                    meta: Meta::at(t.pos.clone()),
                })
                .collect(),
        });
        Type {
            kind: Kind::Map(
                items
                    .into_iter()
                    .map(|(k, ty)| MapItemType {
                        key: Node::Str(k.into()),
                        ty,
                    })
                    .collect(),
            ),
            nullable: false,
            pos: pos(line),
            default,
            doc: TypeDoc::default(),
            validations: vec![],
        }
    }

    fn array_of(elem: Type, line: u32) -> Type {
        Type {
            kind: Kind::Array(Box::new(elem)),
            nullable: false,
            pos: pos(line),
            default: Node::Array(Array::default()),
            doc: TypeDoc::default(),
            validations: vec![],
        }
    }

    /// A map of an integer `id` (line 4) and a string `mask` (line 5), declared on line 3.
    fn subnet() -> Type {
        map_of(
            vec![
                ("id", scalar(Kind::Integer, 4, Node::Int(0.into()))),
                ("mask", scalar(Kind::String, 5, Node::Str("m".into()))),
            ],
            3,
        )
    }

    fn map(items: Vec<(&str, Node)>) -> Node {
        Node::Map(Map {
            items: items
                .into_iter()
                .map(|(k, v)| MapItem {
                    key: Node::Str(k.into()),
                    value: v,
                    meta: Meta::default(),
                })
                .collect(),
        })
    }

    #[test]
    fn fills_defaults_in_array_items_and_reports_mismatches() {
        let elem = subnet();
        let ty = map_of(vec![("subnets", array_of(elem, 2))], 1);
        let mut v = map(vec![(
            "subnets",
            Node::Array(Array {
                items: thin_vec::thin_vec![
                    ArrayItem {
                        value: map(vec![("id", Node::Int(2.into()))]),
                        meta: Meta::default(),
                    },
                    ArrayItem {
                        value: map(vec![
                            ("id", Node::Str("x".into())),
                            ("nope", Node::Int(1.into())),
                        ]),
                        meta: Meta::default(),
                    },
                ],
            }),
        )]);
        let mut meta = Meta::default();
        let mut out = Vec::new();
        check(&ty, &mut v, &mut meta, Holder::Doc, &mut out);
        assert_eq!(out.len(), 2);
        assert_eq!(
            out[0].kind,
            ViolationKind::Mismatch {
                found: "string",
                expected: "integer",
                by: pos(4)
            }
        );
        assert_eq!(out[0].calculated, "id: \"x\"");
        assert!(
            matches!(&out[1].kind, ViolationKind::Undeclared { key, allowed, .. } if key == "nope" && allowed.len() == 2)
        );
        let Node::Map(m) = &v else { panic!() };
        let Node::Array(a) = &m.items[0].value else {
            panic!()
        };
        let Node::Map(first) = &a.items[0].value else {
            panic!()
        };
        assert_eq!(first.get_str("mask"), Some(&Node::Str("m".into())));
        assert_eq!(first.items[1].meta.pos, pos(5));
    }

    #[test]
    fn keys_in_any_order_and_past_the_first_128_are_found_and_defaulted() {
        let names: Vec<String> = (0..200).map(|i| format!("k{i}")).collect();
        let ty = map_of(
            (names.iter().enumerate())
                .map(|(i, k)| {
                    let default = Node::Int((i as i64).into());
                    (k.as_str(), scalar(Kind::Integer, i as u32 + 2, default))
                })
                .collect(),
            1,
        );
        // every third key missing, the others in reverse order; one of the wrong type,
        // one undeclared
        let mut given: Vec<(&str, Node)> = (names.iter().enumerate().rev())
            .filter(|(i, _)| i % 3 != 0)
            .map(|(i, k)| (k.as_str(), Node::Int((1000 + i as i64).into())))
            .collect();
        given[5].1 = Node::Str("x".into());
        given.push(("nope", Node::Null));
        let mut v = map(given.clone());
        let mut out = Vec::new();
        check(&ty, &mut v, &mut Meta::default(), Holder::Doc, &mut out);

        let Node::Map(m) = &v else { panic!() };
        let keys: Vec<String> = m.items.iter().map(|i| i.key.key_text()).collect();
        let missing = (names.iter().enumerate()).filter(|(i, _)| i % 3 == 0);
        let expected: Vec<String> = (given.iter().map(|(k, _)| k.to_string()))
            .chain(missing.map(|(_, k)| k.clone()))
            .collect();
        assert_eq!(keys, expected);
        assert_eq!(m.get_str("k198"), Some(&Node::Int(198.into())));
        assert_eq!(m.get_str("k199"), Some(&Node::Int(1199.into())));
        let kinds: Vec<_> = out.iter().map(|v| &v.kind).collect();
        assert!(
            matches!(
                kinds[..],
                [
                    ViolationKind::Mismatch { .. },
                    ViolationKind::Undeclared { .. }
                ]
            ),
            "{kinds:?}"
        );
    }

    #[test]
    fn ints_are_floats_but_not_the_reverse() {
        let mut out = Vec::new();
        let f = scalar(Kind::Float, 1, Node::Float(1.0));
        check(
            &f,
            &mut Node::Int(3.into()),
            &mut Meta::default(),
            Holder::Doc,
            &mut out,
        );
        assert!(out.is_empty());
        let i = scalar(Kind::Integer, 1, Node::Int(1.into()));
        check(
            &i,
            &mut Node::Float(3.5),
            &mut Meta::default(),
            Holder::Doc,
            &mut out,
        );
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn a_long_array_checked_on_every_core_is_checked_as_one_after_the_other() {
        let elem = subnet();
        let ty = array_of(map_of(vec![("subnets", array_of(elem, 6))], 7), 2);
        // items with mismatches, undeclared keys and missing keys here and there, each
        // holding an array that is long too
        let item = |n: usize| {
            let subnet = |k: usize| match (n + k) % 7 {
                0 => map(vec![("id", Node::Str(format!("x{n}-{k}").into()))]),
                3 => map(vec![("nope", Node::Int(1.into()))]),
                _ => map(vec![("id", Node::Int((k as i64).into()))]),
            };
            let len = if n.is_multiple_of(500) {
                SPREAD_FROM
            } else {
                3
            };
            let subnets = Array {
                items: (0..len)
                    .map(|k| ArrayItem {
                        value: subnet(k),
                        meta: Meta::at(pos(k as u32 + 1)),
                    })
                    .collect(),
            };
            ArrayItem {
                value: map(vec![("subnets", Node::Array(subnets))]),
                meta: Meta::at(pos(n as u32 + 1)),
            }
        };
        let values = Node::Array(Array {
            items: (0..3 * SPREAD_FROM).map(item).collect(),
        });
        let (mut spread, mut serial) = (values.clone(), values);
        let (mut spread_out, mut serial_out) = (Vec::new(), Vec::new());
        check(
            &ty,
            &mut spread,
            &mut Meta::default(),
            Holder::Doc,
            &mut spread_out,
        );
        walk(
            &ty,
            &mut serial,
            &mut Meta::default(),
            Holder::Doc,
            &mut serial_out,
            false,
        );
        assert!(
            serial_out.len() > SPREAD_FROM,
            "{} violations",
            serial_out.len()
        );
        assert_eq!(spread_out, serial_out);
        assert_eq!(spread, serial);
    }
}
