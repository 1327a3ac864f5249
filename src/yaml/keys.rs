//! Finding a map's items by key in a large map: merging n keys into a map of m by
//! scanning it for each is n·m (a `--data-values-file` of 40,000 keys took seconds).

use std::collections::HashMap;

use super::node::{Map, Node, Str};

/// Below this many comparisons a scan is cheaper than building an index.
const SCAN: usize = 1_024;

/// The items of a map by key, for finding keys as the overlay engine does
/// (`Node::same_as`: `1` and `1.0` are two keys): each key's coarse form names a bucket,
/// whose items are then compared with `same_as`.
pub struct KeyIndex {
    buckets: HashMap<Coarse, Vec<usize>>,
}

#[derive(Hash, PartialEq, Eq)]
enum Coarse {
    Null,
    Bool(bool),
    Int(i128),
    /// The float's bits, -0.0 as 0.0 (they are equal).
    Float(u64),
    Str(Str),
    /// Maps, arrays and the rest: one bucket, compared in full.
    Other,
}

impl Coarse {
    fn of(key: &Node) -> Coarse {
        match key {
            Node::Null => Coarse::Null,
            Node::Bool(b) => Coarse::Bool(*b),
            Node::Int(i) => Coarse::Int(i.get()),
            Node::Float(f) => Coarse::Float((f + 0.0).to_bits()),
            Node::Str(s) => Coarse::Str(s.clone()),
            _ => Coarse::Other,
        }
    }
}

impl KeyIndex {
    /// An index of `map`'s keys, or none when finding `lookups` keys by scanning costs
    /// less.
    pub fn for_lookups(map: &Map, lookups: usize) -> Option<KeyIndex> {
        if map.items.len().saturating_mul(lookups) < SCAN && lookups < SCAN {
            return None;
        }
        let mut index = KeyIndex {
            buckets: HashMap::with_capacity(map.items.len()),
        };
        for (i, item) in map.items.iter().enumerate() {
            index.add(&item.key, i);
        }
        Some(index)
    }

    /// Notes that `map.items[at]` has `key` (an item pushed since the index was made).
    pub fn add(&mut self, key: &Node, at: usize) {
        self.buckets.entry(Coarse::of(key)).or_default().push(at);
    }

    /// The first item of `map` (the map indexed) whose key is `key`.
    pub fn find(&self, map: &Map, key: &Node) -> Option<usize> {
        self.all(map, key).next()
    }

    /// Every item of `map` whose key is `key`, in order.
    pub fn all<'m>(&'m self, map: &'m Map, key: &'m Node) -> impl Iterator<Item = usize> + 'm {
        let bucket = self.buckets.get(&Coarse::of(key));
        (bucket.into_iter().flatten().copied()).filter(move |&i| map.items[i].key.same_as(key))
    }
}

/// The first item of `map` whose key is `key`, through `index` when there is one.
pub fn position(map: &Map, index: Option<&KeyIndex>, key: &Node) -> Option<usize> {
    match index {
        Some(index) => index.find(map, key),
        None => map.items.iter().position(|i| i.key.same_as(key)),
    }
}

/// Every item of `map` whose key is `key`, in order, through `index` when there is one.
pub fn positions(map: &Map, index: Option<&KeyIndex>, key: &Node) -> Vec<usize> {
    match index {
        Some(index) => index.all(map, key).collect(),
        None => (map.items.iter().enumerate())
            .filter(|(_, i)| i.key.same_as(key))
            .map(|(at, _)| at)
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::node::{Int, Map, MapItem};
    use crate::yaml::Meta;

    fn map(keys: Vec<Node>) -> Map {
        Map {
            items: keys
                .into_iter()
                .map(|key| MapItem {
                    key,
                    value: Node::Null,
                    meta: Meta::default(),
                })
                .collect(),
        }
    }

    fn int(i: i128) -> Node {
        Node::Int(Int::new(i))
    }

    #[test]
    fn finds_what_a_scan_finds() {
        let mut keys: Vec<Node> = (0..2_000)
            .map(|i| Node::Str(format!("k{i}").into()))
            .collect();
        keys.extend([
            int(1),
            Node::Float(2.0),
            Node::Bool(true),
            Node::Null,
            Node::Float(-0.0),
        ]);
        keys.push(Node::Float(f64::NAN));
        let m = map(keys);
        let index = KeyIndex::for_lookups(&m, m.items.len()).expect("large enough");
        let probes = [
            Node::Str("k0".into()),
            Node::Str("k1999".into()),
            Node::Str("k2000".into()),
            // an integer and a float of one value are two keys, both ways
            Node::Float(1.0),
            int(2),
            int(0),
            Node::Float(0.0),
            Node::Bool(true),
            Node::Bool(false),
            Node::Null,
            Node::Float(f64::NAN),
        ];
        for key in &probes {
            let scanned = position(&m, None, key);
            assert_eq!(index.find(&m, key), scanned, "{key:?}");
            assert_eq!(positions(&m, Some(&index), key), positions(&m, None, key));
        }
        // `1` finds only `1`, `1.0` only `1.0`, as the reference's overlays find keys
        let both = map(vec![
            int(1),
            Node::Str("x".into()),
            Node::Float(1.0),
            int(1),
        ]);
        let index = KeyIndex::for_lookups(&both, SCAN).expect("asked for many");
        assert_eq!(positions(&both, Some(&index), &int(1)), [0, 3]);
        assert_eq!(positions(&both, None, &int(1)), [0, 3]);
        assert_eq!(positions(&both, Some(&index), &Node::Float(1.0)), [2]);
        assert_eq!(positions(&both, None, &Node::Float(1.0)), [2]);
    }

    #[test]
    fn small_maps_are_scanned() {
        let m = map(vec![int(1), int(2)]);
        assert!(KeyIndex::for_lookups(&m, 3).is_none());
        assert_eq!(position(&m, None, &int(2)), Some(1));
        assert_eq!(position(&m, None, &Node::Float(2.0)), None);
    }
}
