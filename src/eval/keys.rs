//! Duplicate keys: a map item started, or keyed by code, may not repeat the key of an
//! earlier item of its map unless it overrides it (`@yaml/map-key-override`). Past 32
//! items, the earlier items with a key are found by its hash ([`KeyIndex`]), so a map of
//! many computed keys stays linear.

use std::collections::HashMap;

use anyhow::bail;

use super::arena::{Arena, RNode, Setting};
use crate::template::CompiledTemplate;
use crate::yaml::{Map, Node};

pub(super) fn item_key<'a>(t: &'a CompiledTemplate, n: &'a RNode) -> Option<&'a Node> {
    if matches!(*n.setting.borrow(), Some(Setting::Replace(_))) {
        return None;
    }
    n.key.as_deref().or(t.nodes[n.tag as usize].key.as_ref())
}

fn duplicate_key_message(key: &Node) -> String {
    let k = match key {
        Node::Str(s) => s.clone(),
        other => crate::yaml::emit::yaml_node(other).trim_end().into(),
    };
    format!(
        "expected key '{k}' to not be specified again (unless 'yaml/map-key-override' annotation is added)"
    )
}

/// Whether an item of `parent` other than `except` has `key`: an error, or that item is
/// overridden (`@yaml/map-key-override`). A map of many items is looked up in its
/// [`KeyIndex`]; a small one scanned.
pub(super) fn check_duplicate_key(
    t: &CompiledTemplate,
    arena: &mut Arena,
    keys: &mut Option<Box<KeyIndex>>,
    parent: usize,
    except: Option<usize>,
    key: &Node,
    override_ok: bool,
) -> anyhow::Result<()> {
    if arena[parent].children.len >= KeyIndex::FROM {
        let keys = keys.get_or_insert_with(Box::default);
        for c in keys.candidates(t, arena, parent, key, except) {
            check_item_key(t, arena, c, except, key, override_ok)?;
        }
    } else {
        let mut next = arena[parent].children.first;
        while let Some(c) = next.map(|c| c as usize) {
            next = arena[c].next;
            check_item_key(t, arena, c, except, key, override_ok)?;
        }
    }
    Ok(())
}

/// Item `c` (unless it is `except`) has `key`: an error, or it is overridden.
#[inline(always)]
fn check_item_key(
    t: &CompiledTemplate,
    arena: &mut Arena,
    c: usize,
    except: Option<usize>,
    key: &Node,
    override_ok: bool,
) -> anyhow::Result<()> {
    let same = Some(c) != except
        && !arena[c].overridden
        && item_key(t, &arena[c]).is_some_and(|k| k.value_eq(key));
    if same {
        if !override_ok {
            bail!(duplicate_key_message(key));
        }
        arena[c].overridden = true;
    }
    Ok(())
}

/// The items of a map with many items, by a hash of their keys, so that each new item is
/// checked against the few with its key's hash rather than all earlier ones (a map of
/// 20,000 computed keys took 2.4 s). Items are indexed as they are looked up, in the
/// order they were added; an item whose key code sets later is indexed again under it.
/// An entry is a candidate only: its key is compared again, so a key that changed or
/// went away (a `template.replace`) leaves a harmless stale entry.
#[derive(Debug, Default)]
pub(super) struct KeyIndex {
    /// Per indexed map: its last item indexed so far.
    last: HashMap<usize, usize>,
    items: HashMap<(usize, u64), Vec<usize>>,
}

impl KeyIndex {
    /// Maps of fewer items are scanned: building an index would cost more.
    const FROM: u32 = 32;

    /// Every item of `parent` that may have `key`, after indexing those added since but
    /// `except`, whose key code is setting (see [`KeyIndex::rekey`]): indexed under the
    /// key it started with, every item would share one bucket.
    fn candidates(
        &mut self,
        t: &CompiledTemplate,
        arena: &Arena,
        parent: usize,
        key: &Node,
        except: Option<usize>,
    ) -> Vec<usize> {
        let mut next = match self.last.get(&parent) {
            Some(&last) => arena[last].next,
            None => arena[parent].children.first,
        };
        while let Some(c) = next.map(|c| c as usize) {
            if let Some(k) = item_key(t, &arena[c]).filter(|_| Some(c) != except) {
                self.insert(parent, k, c);
            }
            self.last.insert(parent, c);
            next = arena[c].next;
        }
        self.items
            .get(&(parent, key_hash(key)))
            .cloned()
            .unwrap_or_default()
    }

    /// Item `child` of `parent` now has `key` (set by code), if `parent` is indexed.
    pub(super) fn rekey(&mut self, parent: usize, key: &Node, child: usize) {
        if self.last.contains_key(&parent) {
            self.insert(parent, key, child);
        }
    }

    fn insert(&mut self, parent: usize, key: &Node, child: usize) {
        self.items
            .entry((parent, key_hash(key)))
            .or_default()
            .push(child);
    }

    /// The arena was cut back to node `last`, whose items were dropped.
    pub(super) fn forget_from(&mut self, last: usize) {
        self.last.retain(|&p, _| p < last);
        self.items.retain(|&(p, _), _| p < last);
    }
}

/// A hash that keys equal by `value_eq` share: a string's own; every other key (numbers
/// equal across int and float, rare as keys) one bucket.
fn key_hash(key: &Node) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    match key {
        Node::Str(s) => BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default()
            .hash_one(s.as_str()),
        _ => 0,
    }
}

/// Items put into a map by `template.replace(fragment)` may not repeat keys of the map:
/// `tag` is the replaced map item, started (with its ancestors) in `parents`.
pub(super) fn check_replaced_keys(
    t: &CompiledTemplate,
    arena: &Arena,
    parents: &[(u32, usize)],
    tag: u32,
    m: &Map,
) -> anyhow::Result<()> {
    let Some(pos) = parents.iter().rposition(|(ptag, _)| *ptag == tag) else {
        return Ok(());
    };
    let Some(&(_, parent)) = parents.get(pos.wrapping_sub(1)) else {
        return Ok(());
    };
    let me = parents[pos].1;
    for c in arena.children(parent) {
        let sibling = &arena[c];
        if c == me || sibling.overridden {
            continue;
        }
        let setting = sibling.setting.borrow();
        let keys: Vec<&Node> = match &*setting {
            Some(Setting::Replace(Node::Map(r))) => r.items.iter().map(|i| &i.key).collect(),
            Some(Setting::Replace(_)) => vec![],
            _ => item_key(t, sibling).into_iter().collect(),
        };
        for item in &m.items {
            if keys.iter().any(|k| k.value_eq(&item.key)) {
                bail!("template.replace: {}", duplicate_key_message(&item.key));
            }
        }
    }
    Ok(())
}
