//! A node context's arena: the nodes a function's body started, in the order they
//! started, each linked to the next child of its parent, so that starting a node
//! allocates nothing but its slot.

use std::cell::RefCell;
use std::ops::{Index, IndexMut};
use std::sync::Arc;

use crate::yaml::{Annotation, Node, ThinVec};

/// The value a node was given by code.
#[derive(Debug)]
pub(super) enum Setting {
    Value(Node),
    /// `template.replace(...)`: the node is replaced by the items of this node.
    Replace(Node),
}

#[derive(Debug)]
pub(super) struct RNode {
    pub(super) tag: u32,
    /// Taken (moved out) when the context is materialised, which happens once.
    pub(super) setting: RefCell<Option<Setting>>,
    /// A key computed by code (boxed: rare, and arena nodes are copied as they start).
    pub(super) key: Option<Box<Node>>,
    pub(super) annotations: ThinVec<Arc<Annotation>>,
    /// The node's children, linked through the arena: no allocation per node.
    pub(super) children: Children,
    /// The next child of this node's parent.
    pub(super) next: Option<u32>,
    /// Left out of the output (an earlier item whose key a later one overrode).
    pub(super) overridden: bool,
    /// The setting is a Starlark value (a dict, a list …), not a YAML fragment: a
    /// document computed this way stays even when empty (`Doc::computed`).
    pub(super) computed: bool,
}

/// The first and last of a node's children (each links to the next), and their number.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Children {
    pub(super) first: Option<u32>,
    pub(super) last: Option<u32>,
    pub(super) len: u32,
}

impl RNode {
    pub(super) fn new(tag: u32) -> Self {
        RNode {
            tag,
            setting: RefCell::new(None),
            key: None,
            annotations: ThinVec::new(),
            children: Children::default(),
            next: None,
            overridden: false,
            computed: false,
        }
    }
}

/// The nodes of one context, by the index they started at.
#[derive(Debug, Default)]
pub(super) struct Arena {
    pub(super) nodes: Vec<RNode>,
}

impl Arena {
    /// Appends node `child` to `parent`'s children.
    pub(super) fn add_child(&mut self, parent: usize, child: usize) {
        let c = Some(child as u32);
        let kids = self.nodes[parent].children;
        match kids.last {
            Some(last) => self.nodes[last as usize].next = c,
            None => self.nodes[parent].children.first = c,
        }
        let kids = &mut self.nodes[parent].children;
        kids.last = c;
        kids.len += 1;
    }

    pub(super) fn children(&self, inst: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.nodes[inst].children.first, |&c| {
            self.nodes[c as usize].next
        })
        .map(|c| c as usize)
    }
}

impl Index<usize> for Arena {
    type Output = RNode;

    fn index(&self, inst: usize) -> &RNode {
        &self.nodes[inst]
    }
}

impl IndexMut<usize> for Arena {
    fn index_mut(&mut self, inst: usize) -> &mut RNode {
        &mut self.nodes[inst]
    }
}
