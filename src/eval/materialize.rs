//! Materialising a node context: the node trees its arena stands for, once its function
//! is done (documents, once the next one starts, so that the arena holds one at a time).

use anyhow::bail;

use super::arena::{Arena, RNode, Setting};
use crate::template::{CompiledTemplate, TKind};
use crate::yaml::{Array, ArrayItem, Doc, DocSet, Map, MapItem, Meta, Node, Pos, ThinVec, Written};

/// Gives nodes computed in Starlark (no position) the position of the template node
/// they were set on.
fn fill_unknown_pos(n: &mut Node, pos: &Pos) {
    match n {
        Node::Map(m) => {
            for i in &mut m.items {
                if i.meta.pos.file.is_none() {
                    i.meta.pos = pos.clone();
                }
                fill_unknown_pos(&mut i.value, pos);
            }
        }
        Node::Array(a) => {
            for i in &mut a.items {
                if i.meta.pos.file.is_none() {
                    i.meta.pos = pos.clone();
                }
                fill_unknown_pos(&mut i.value, pos);
            }
        }
        _ => {}
    }
}

/// Builds node trees from a finished context: `arena` holds the nodes of template `t`.
pub(super) struct Materializer<'a> {
    pub(super) t: &'a CompiledTemplate,
    pub(super) arena: &'a Arena,
}

impl Materializer<'_> {
    fn rnode(&self, inst: usize) -> &RNode {
        &self.arena[inst]
    }

    fn meta(&self, n: &RNode) -> Meta {
        Meta {
            pos: self.t.nodes[n.tag as usize].pos.clone(),
            annotations: n.annotations.clone(),
            ..Meta::default()
        }
    }

    /// A replacement's items, placed where the node they replace was (those computed in
    /// Starlark have no position of their own).
    fn positioned(&self, n: &RNode, mut v: Node) -> Node {
        fill_unknown_pos(&mut v, &self.t.nodes[n.tag as usize].pos);
        v
    }

    /// The value of an item node (document, map item, array item), whose setting was
    /// taken out of it.
    fn item_value(&self, inst: usize, setting: Option<Setting>) -> anyhow::Result<Node> {
        let n = self.rnode(inst);
        if let Some(Setting::Value(v)) = setting {
            return Ok(self.positioned(n, v));
        }
        if let Some(c) = n.children.first.map(|c| c as usize) {
            let child = self.rnode(c);
            return Ok(match self.t.nodes[child.tag as usize].kind {
                TKind::Map => Node::Map(self.map(c)?),
                TKind::Array => Node::Array(self.array(c)?),
                _ => Node::Null,
            });
        }
        Ok(self.t.nodes[n.tag as usize]
            .literal
            .clone()
            .unwrap_or(Node::Null))
    }

    pub(super) fn docset(&self, inst: usize) -> anyhow::Result<DocSet> {
        let mut docs = Vec::new();
        for c in self.arena.children(inst) {
            let n = self.rnode(c);
            match n.setting.take() {
                Some(Setting::Replace(v)) => match self.positioned(n, v) {
                    Node::Array(a) => docs.extend(a.items.into_iter().map(|i| Doc {
                        value: i.value,
                        meta: i.meta,
                        computed: n.computed,
                        written: Written::default(),
                    })),
                    // (`Replacement::check_placement` let no other through)
                    other => bail!("internal error: replaced by {}", other.type_name()),
                },
                setting => docs.push(Doc {
                    computed: n.computed && matches!(setting, Some(Setting::Value(_))),
                    value: self.item_value(c, setting)?,
                    meta: self.meta(n),
                    written: Written::default(),
                }),
            }
        }
        Ok(DocSet {
            docs,
            meta: Meta::default(),
        })
    }

    pub(super) fn map(&self, inst: usize) -> anyhow::Result<Map> {
        // Sized up front: output trees are large and a grown vector wastes up to half.
        let mut items: ThinVec<MapItem> =
            ThinVec::with_capacity(self.rnode(inst).children.len as usize);
        for c in self.arena.children(inst) {
            let n = self.rnode(c);
            if n.overridden {
                continue;
            }
            match n.setting.take() {
                Some(Setting::Replace(v)) => match self.positioned(n, v) {
                    Node::Map(m) => {
                        for i in m.items {
                            match items.iter_mut().find(|e| e.key.value_eq(&i.key)) {
                                Some(existing) => existing.value = i.value,
                                None => items.push(i),
                            }
                        }
                    }
                    // (`Replacement::check_placement` let no other through)
                    other => bail!("internal error: replaced by {}", other.type_name()),
                },
                setting => {
                    let key = n
                        .key
                        .as_deref()
                        .or(self.t.nodes[n.tag as usize].key.as_ref())
                        .cloned()
                        .unwrap_or(Node::Null);
                    if self.t.nodes[n.tag as usize].key_override {
                        items.retain(|e| !e.key.value_eq(&key));
                    }
                    items.push(MapItem {
                        key,
                        value: self.item_value(c, setting)?,
                        meta: self.meta(n),
                    });
                }
            }
        }
        Ok(Map { items })
    }

    pub(super) fn array(&self, inst: usize) -> anyhow::Result<Array> {
        let mut items = ThinVec::with_capacity(self.rnode(inst).children.len as usize);
        for c in self.arena.children(inst) {
            let n = self.rnode(c);
            match n.setting.take() {
                Some(Setting::Replace(v)) => match self.positioned(n, v) {
                    Node::Array(a) => items.extend(a.items),
                    // (`Replacement::check_placement` let no other through)
                    other => bail!("internal error: replaced by {}", other.type_name()),
                },
                setting => items.push(ArrayItem {
                    value: self.item_value(c, setting)?,
                    meta: self.meta(n),
                }),
            }
        }
        Ok(Array { items })
    }

    pub(super) fn text(&self, inst: usize) -> anyhow::Result<String> {
        let mut out = String::new();
        for c in self.arena.children(inst) {
            let n = self.rnode(c);
            match &*n.setting.borrow() {
                Some(Setting::Value(Node::Str(s))) => out.push_str(s),
                Some(_) => bail!("cannot set non-string value in a text template"),
                None => out.push_str(self.t.nodes[n.tag as usize].text.as_deref().unwrap_or("")),
            }
        }
        // pieces that end and start with bytes that are not UTF-8 may form UTF-8
        Ok(crate::bytestr::normalize(out))
    }
}
