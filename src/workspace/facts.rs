//! What a front end may ask of a run besides its output (a language server does): the
//! root library's data values as they end up, its schema, and what set each value.
//!
//! What set a value is found by the steps themselves, not guessed: the data values are
//! built in precedence order (`library_values`), and every step leaves its own position
//! on each item it sets (an overlay or a plain merge repositions the items it replaces, a
//! flag puts its own on the items it sets). After each step, `Trace::step` compares
//! each item's position and scalar value with those before it: an item that changed was
//! set by that step. Nothing of this runs unless a front end asks ([`FactsSink`]).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use crate::schema::export::SchemaExport;
use crate::yaml::{FileNames, Location, Node, Pos};

/// The root library's data values once they are final (before their rules run).
#[derive(Clone, Debug)]
pub struct Facts {
    /// The final data values; each item carries the position that last set it.
    pub values: Node,
    /// The library's schema with its rules (none: no schema, anything goes).
    pub schema: Option<SchemaExport>,
    /// What set each value, in order.
    pub provenance: Provenance,
    /// The run's file names, for the positions in `values`.
    pub names: FileNames,
}

/// One step of a path into the data values.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Seg {
    /// A map item, by its key's text.
    Key(String),
    /// An array item, by its index.
    Index(usize),
}

/// What set a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The schema's default, declared there (or completed by the schema after a step).
    Schema(Location),
    /// A `@data/values` document of the library's files (an overlay on those before it,
    /// or the first), at the line that set it.
    Document(Location),
    /// A `--data-values-file` file, at the line that set it.
    ValuesFile(Location),
    /// A key-value flag: which (`-v`, `--data-value-yaml`, `--data-value-file`, ...)
    /// and its text as given.
    Flag { flag: &'static str, text: String },
    /// `library.with_data_values()` of the library's caller (values made in code).
    Caller,
}

/// What set each value of the final data values, in precedence order (paths under the
/// document; the document itself has no entry).
#[derive(Clone, Debug, Default)]
pub struct Provenance(BTreeMap<Vec<Seg>, Vec<Origin>>);

impl Provenance {
    /// What set the value at `path`, in order; empty for a path that is not there.
    pub fn of(&self, path: &[Seg]) -> &[Origin] {
        self.0.get(path).map_or(&[], Vec::as_slice)
    }

    /// Every path with what set it, in path order.
    pub fn iter(&self) -> impl Iterator<Item = (&[Seg], &[Origin])> {
        self.0.iter().map(|(p, o)| (p.as_slice(), o.as_slice()))
    }
}

/// Where a run leaves its [`Facts`] when a front end asks for them: filled as soon as
/// the root library's data values are final, so a run that fails afterwards (a rule
/// rejects a value, a template fails) still leaves them.
#[derive(Clone, Debug, Default)]
pub struct FactsSink(Arc<Mutex<Option<Facts>>>);

impl FactsSink {
    /// The facts the run left, if it got that far.
    pub fn take(&self) -> Option<Facts> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    pub(crate) fn put(&self, facts: Facts) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(facts);
    }
}

/// What a step of the data values is, for the origin of what it sets.
pub(crate) enum Step {
    Schema,
    Document,
    ValuesFile,
    Flag { flag: &'static str, text: String },
    Caller,
}

impl Step {
    fn origin(&self, at: Location) -> Origin {
        match self {
            Step::Schema => Origin::Schema(at),
            Step::Document => Origin::Document(at),
            Step::ValuesFile => Origin::ValuesFile(at),
            Step::Flag { flag, text } => Origin::Flag {
                flag,
                text: text.clone(),
            },
            Step::Caller => Origin::Caller,
        }
    }
}

/// The data values' items as the last step left them, and what set each.
#[derive(Default)]
pub(crate) struct Trace {
    items: HashMap<Vec<Seg>, Item>,
}

struct Item {
    pos: Pos,
    /// A scalar's value (a step may set the value a flag had, on the same position).
    scalar: Option<Node>,
    origins: Vec<Origin>,
}

impl Trace {
    /// Notes what `step` set in `values`: each item whose position or scalar value
    /// differs from before it (or that is new). Items no longer there are forgotten.
    pub fn step(&mut self, values: &Node, step: Step, names: &FileNames) {
        let mut before = std::mem::take(&mut self.items);
        let mut path = Vec::new();
        walk(values, &mut path, &mut |path, pos, value| {
            let scalar = value.is_scalar().then(|| value.clone());
            let mut item = match before.remove(path) {
                Some(old) => old,
                None => Item {
                    pos: Pos::unknown(),
                    scalar: None,
                    origins: Vec::new(),
                },
            };
            let set = item.origins.is_empty()
                || item.pos != *pos
                || !scalars_equal(&item.scalar, &scalar);
            if set {
                item.origins.push(step.origin(names.locate(pos)));
                item.pos = pos.clone();
                item.scalar = scalar;
            }
            self.items.insert(path.to_vec(), item);
        });
    }

    /// What set each item, once the values are final.
    pub fn provenance(self) -> Provenance {
        Provenance(
            (self.items.into_iter())
                .map(|(path, item)| (path, item.origins))
                .collect(),
        )
    }
}

fn scalars_equal(a: &Option<Node>, b: &Option<Node>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.value_eq(b) && a.type_name() == b.type_name(),
        (None, None) => true,
        _ => false,
    }
}

/// Calls `visit` on every item under `n`, parents first, with its path and position.
fn walk(n: &Node, path: &mut Vec<Seg>, visit: &mut dyn FnMut(&[Seg], &Pos, &Node)) {
    match n {
        Node::Map(m) => {
            for i in &m.items {
                path.push(Seg::Key(i.key.key_text()));
                visit(path, &i.meta.pos, &i.value);
                walk(&i.value, path, visit);
                path.pop();
            }
        }
        Node::Array(a) => {
            for (index, i) in a.items.iter().enumerate() {
                path.push(Seg::Index(index));
                visit(path, &i.meta.pos, &i.value);
                walk(&i.value, path, visit);
                path.pop();
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::{Map, MapItem, Meta};

    fn item(key: &str, value: Node, pos: Pos) -> MapItem {
        MapItem {
            key: Node::Str(key.into()),
            value,
            meta: Meta::at(pos),
        }
    }

    fn map(items: Vec<MapItem>) -> Node {
        Node::Map(Map {
            items: items.into(),
        })
    }

    #[test]
    fn an_item_is_set_by_each_step_that_moves_or_changes_it() {
        let names = FileNames::default();
        let schema = names.pos("schema.yml", 2);
        let mut trace = Trace::default();
        let values = |a_pos: &Pos, a: i64, b_pos: &Pos| {
            map(vec![item(
                "app",
                map(vec![
                    item("a", Node::Int(a.into()), a_pos.clone()),
                    item("b", Node::Bool(true), b_pos.clone()),
                ]),
                names.pos("schema.yml", 1),
            )])
        };
        trace.step(&values(&schema, 1, &schema), Step::Schema, &names);
        let doc = names.pos("values.yml", 3);
        trace.step(&values(&doc, 2, &schema), Step::Document, &names);
        // a flag on its own line, then another on the same line with another value
        let flag = names.pos("(data-value arg)", 1);
        let v = |text: &str| Step::Flag {
            flag: "-v",
            text: text.into(),
        };
        trace.step(&values(&flag, 3, &schema), v("app.a=3"), &names);
        trace.step(&values(&flag, 4, &schema), v("app.a=4"), &names);
        let p = trace.provenance();
        let key = |k: &str| Seg::Key(k.into());
        assert_eq!(
            p.of(&[key("app"), key("a")]),
            [
                Origin::Schema(Location::new("schema.yml", 2)),
                Origin::Document(Location::new("values.yml", 3)),
                Origin::Flag {
                    flag: "-v",
                    text: "app.a=3".into()
                },
                Origin::Flag {
                    flag: "-v",
                    text: "app.a=4".into()
                },
            ]
        );
        assert_eq!(
            p.of(&[key("app"), key("b")]),
            [Origin::Schema(Location::new("schema.yml", 2))]
        );
        assert_eq!(p.of(&[key("app")]).len(), 1);
        assert!(p.of(&[key("nothing")]).is_empty());
    }

    #[test]
    fn an_item_removed_is_forgotten() {
        let names = FileNames::default();
        let mut trace = Trace::default();
        let one = map(vec![item("a", Node::Null, names.pos("v.yml", 1))]);
        trace.step(&one, Step::Document, &names);
        trace.step(&map(vec![]), Step::Document, &names);
        trace.step(&one, Step::ValuesFile, &names);
        let p = trace.provenance();
        assert_eq!(
            p.of(&[Seg::Key("a".into())]),
            [Origin::ValuesFile(Location::new("v.yml", 1))]
        );
    }
}
