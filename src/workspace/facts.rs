//! What a front end may ask of a run besides its output (a language server does): the
//! root library's data values as they end up, its schema, and what set each value; and
//! what each `@overlay/match` node of the run matched (`overlay::record`).
//!
//! What set a value is found by the steps themselves, not guessed: the data values are
//! built in precedence order (`library_values`), and every step leaves its own position
//! on each item it sets (an overlay or a plain merge repositions the items it replaces, a
//! flag puts its own on the items it sets). After each step, `Trace::step` compares
//! each item's position and scalar value with those before it: an item that changed was
//! set by that step. Nothing of this runs unless a front end asks ([`FactsSink`]).

use std::sync::{Arc, Mutex};

use crate::overlay::{Applied, MatchLog};
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
    /// Each application of an `@overlay/match` node in the run (in every library: its
    /// data values, `overlay.apply()` in code, its overlay documents), in order, until
    /// the run ended or failed.
    pub overlays: Vec<Applied>,
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
/// document; the document itself has no entry): a tree shaped as the values are.
#[derive(Clone, Debug, Default)]
pub struct Provenance(Traced);

impl Provenance {
    /// What set the value at `path`, in order; empty for a path that is not there.
    pub fn of(&self, path: &[Seg]) -> &[Origin] {
        let mut node = &self.0;
        for seg in path {
            match node.children.iter().find(|(s, _)| s == seg) {
                Some((_, child)) => node = child,
                None => return &[],
            }
        }
        &node.origins
    }
}

/// Where a run leaves its [`Facts`] when a front end asks for them: filled as soon as
/// the root library's data values are final, so a run that fails afterwards (a rule
/// rejects a value, a template fails) still leaves them; the overlays' matches are noted
/// as they are applied.
#[derive(Clone, Debug, Default)]
pub struct FactsSink {
    facts: Arc<Mutex<Option<Facts>>>,
    pub(crate) overlays: MatchLog,
}

impl FactsSink {
    /// The facts the run left, if it got that far, with the overlays' matches.
    pub fn take(&self) -> Option<Facts> {
        let mut facts = self
            .facts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()?;
        facts.overlays = self.overlays.take();
        Some(facts)
    }

    pub(crate) fn put(&self, facts: Facts) {
        *self.facts.lock().unwrap_or_else(|e| e.into_inner()) = Some(facts);
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
    root: Traced,
}

/// An item as a step left it, what set it, and its items, in the value's order.
#[derive(Clone, Debug, Default)]
struct Traced {
    pos: Pos,
    /// A scalar's value (a step may set the value a flag had, on the same position).
    scalar: Option<Node>,
    origins: Vec<Origin>,
    children: Vec<(Seg, Traced)>,
}

impl Trace {
    /// Notes what `step` set in `values`: each item whose position or scalar value
    /// differs from before it (or that is new). Items no longer there are forgotten.
    /// The trace is walked beside the values, items matched by key (most keep their
    /// place) or index.
    pub fn step(&mut self, values: &Node, step: Step, names: &FileNames) {
        children(&mut self.root, values, &step, names);
    }

    /// What set each item, once the values are final.
    pub fn provenance(self) -> Provenance {
        Provenance(self.root)
    }
}

/// Updates the items under `traced` from the collection `value`.
fn children(traced: &mut Traced, value: &Node, step: &Step, names: &FileNames) {
    let mut before = std::mem::take(&mut traced.children);
    match value {
        Node::Map(m) => {
            // the old items by key, made only when an item is not where it was
            let mut by_key: Option<std::collections::HashMap<String, usize>> = None;
            for (i, item) in m.items.iter().enumerate() {
                // a string key is compared as it is (most are): no text is made for it
                let is_key = |k: &str| match &item.key {
                    Node::Str(s) => s.as_str() == k,
                    other => other.key_text() == k,
                };
                let at = match before.get(i) {
                    Some((Seg::Key(k), _)) if is_key(k) => Some(i),
                    _ => by_key
                        .get_or_insert_with(|| keys_of(&before))
                        .get(&item.key.key_text())
                        .copied(),
                };
                let (seg, old) = match at {
                    Some(at) => {
                        // taken: its place holds no key
                        let taken = (Seg::Index(usize::MAX), Traced::default());
                        let (seg, old) = std::mem::replace(&mut before[at], taken);
                        (seg, Some(old))
                    }
                    None => (Seg::Key(item.key.key_text()), None),
                };
                let child = item_of(old, &item.meta.pos, &item.value, step, names);
                traced.children.push((seg, child));
            }
        }
        Node::Array(a) => {
            for (i, item) in a.items.iter().enumerate() {
                let old = before.get_mut(i).map(|(_, t)| std::mem::take(t));
                let child = item_of(old, &item.meta.pos, &item.value, step, names);
                traced.children.push((Seg::Index(i), child));
            }
        }
        _ => {}
    }
}

fn keys_of(items: &[(Seg, Traced)]) -> std::collections::HashMap<String, usize> {
    (items.iter().enumerate())
        .filter_map(|(i, (seg, _))| match seg {
            Seg::Key(k) => Some((k.clone(), i)),
            Seg::Index(_) => None,
        })
        .collect()
}

/// An item after `step`: set by it when new, moved or changed.
fn item_of(old: Option<Traced>, pos: &Pos, value: &Node, step: &Step, names: &FileNames) -> Traced {
    let mut t = old.unwrap_or_default();
    let scalar = value.is_scalar();
    let same = !t.origins.is_empty()
        && t.pos == *pos
        && match &t.scalar {
            Some(old) => scalar && old.value_eq(value) && old.type_name() == value.type_name(),
            None => !scalar,
        };
    if !same {
        t.origins.push(step.origin(names.locate(pos)));
        t.pos = pos.clone();
        t.scalar = scalar.then(|| value.clone());
    }
    children(&mut t, value, step, names);
    t
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
    fn items_are_followed_by_key_wherever_they_move() {
        let names = FileNames::default();
        let at = |line| names.pos("v.yml", line);
        let mut trace = Trace::default();
        let first = map(vec![
            item("a", Node::Null, at(1)),
            item("b", Node::Null, at(2)),
        ]);
        trace.step(&first, Step::Document, &names);
        // a new key first, the others after it and in another order: only it is set
        let second = map(vec![
            item("c", Node::Null, at(3)),
            item("b", Node::Null, at(2)),
            item("a", Node::Null, at(1)),
        ]);
        trace.step(&second, Step::ValuesFile, &names);
        let p = trace.provenance();
        let of = |k: &str| p.of(&[Seg::Key(k.into())]).to_vec();
        assert_eq!(of("a"), [Origin::Document(Location::new("v.yml", 1))]);
        assert_eq!(of("b"), [Origin::Document(Location::new("v.yml", 2))]);
        assert_eq!(of("c"), [Origin::ValuesFile(Location::new("v.yml", 3))]);
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
