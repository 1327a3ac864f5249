//! Checking data values against a type: every mismatch is collected, missing map keys are
//! filled with their defaults (inside array items too), and each value node gets its
//! type's `schema/validation` annotations.

use super::types::{Kind, MapItemType, Type, VALIDATION};
use crate::yaml::{Map, Meta, Node, Pos, ThinVec};

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
    meta.annotations.retain(|a| a.name != VALIDATION);
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
            for item in &mut m.items {
                match types.iter().find(|t| t.key.value_eq(&item.key)) {
                    Some(t) => check(
                        &t.ty,
                        &mut item.value,
                        &mut item.meta,
                        Holder::Key(&item.key),
                        out,
                    ),
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
            let present = |m: &Map, t: &MapItemType| m.items.iter().any(|i| i.key.value_eq(&t.key));
            let missing = types.iter().filter(|t| !present(m, t)).count();
            // exact: a grown vector would waste up to half of every defaulted map
            m.items.reserve_exact(missing);
            for t in types {
                if present(m, t) {
                    continue;
                }
                let mut item = crate::yaml::MapItem {
                    key: t.key.clone(),
                    value: t.ty.default.clone(),
                    meta: Meta::at(t.ty.pos.clone()),
                };
                let mut ignored = Vec::new();
                check(
                    &t.ty,
                    &mut item.value,
                    &mut item.meta,
                    Holder::Key(&t.key),
                    &mut ignored,
                );
                m.items.push(item);
            }
        }
        (Kind::Array(elem), Node::Array(a)) => {
            for item in &mut a.items {
                check(elem, &mut item.value, &mut item.meta, Holder::Item, out);
            }
        }
        (Kind::String, Node::Str(_))
        | (Kind::Integer, Node::Int(_))
        | (Kind::Float, Node::Float(_) | Node::Int(_))
        | (Kind::Boolean, Node::Bool(_)) => {}
        _ => mismatch(value, meta, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::types::{MapItemType, TypeDoc};
    use crate::yaml::{Array, ArrayItem, Map, MapItem};
    use std::sync::Arc;

    fn pos(line: u32) -> Pos {
        Pos::new(&Arc::from("s.yml"), line)
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
        let elem = map_of(
            vec![
                ("id", scalar(Kind::Integer, 4, Node::Int(0.into()))),
                ("mask", scalar(Kind::String, 5, Node::Str("m".into()))),
            ],
            3,
        );
        let ty = map_of(
            vec![(
                "subnets",
                Type {
                    kind: Kind::Array(Box::new(elem)),
                    nullable: false,
                    pos: pos(2),
                    default: Node::Array(Array::default()),
                    doc: TypeDoc::default(),
                    validations: vec![],
                },
            )],
            1,
        );
        let mut v = map(vec![(
            "subnets",
            Node::Array(Array {
                items: vec![
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
}
