//! Node contexts: every function whose body holds YAML (or text) nodes runs in its own
//! context; nodes are recorded in the context's arena as they start, attached to their
//! nearest started ancestor, and materialised into a node tree when the context ends.
//! The instruction functions generated code calls (`eval::instructions`) drive them.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use anyhow::{anyhow, bail};
use starlark::values::{Heap, Value, ValueLike};

use super::arena::{Arena, Children, RNode, Setting};
use super::convert::{key_from_value, to_node};
use super::fragment::{FragmentNode, YamlFragment};
use super::keys::{check_duplicate_key, check_replaced_keys, KeyIndex};
use super::materialize::Materializer;
use super::replace::{Noop, Replacement};
use crate::template::{CompiledTemplate, TKind};
use crate::yaml::emit::AheadWriter;
use crate::yaml::{put_annotation, Annotation, Doc, DocSet, Node, ThinVec};

/// What a root template produced.
#[derive(Debug, Clone)]
pub enum RootOutput {
    Docs(DocSet),
    Text(String),
}

#[derive(Debug)]
struct Ctx {
    template: Rc<CompiledTemplate>,
    arena: Arena,
    root: Option<usize>,
    /// Started nodes from the root down to the last one: (tag, arena index).
    parents: Vec<(u32, usize)>,
    /// Annotations evaluated for the node about to start.
    pending_annotations: ThinVec<Arc<Annotation>>,
    /// Documents already finished and materialised (a new document started after them),
    /// so that the arena holds one document at a time.
    done_docs: Vec<Doc>,
    /// Where a template's finished documents go instead, to be written on another core
    /// as evaluation goes on (`Runtime::write_ahead`).
    ahead: Option<AheadWriter>,
    /// The function's body is text: when its code reaches none of its nodes, it
    /// returns an empty string (a YAML body returns a fragment of nothing, as the
    /// reference's: `null` where it is set, empty where iterated).
    text_body: bool,
    /// The items of large maps by key, for [`check_duplicate_key`] (once there is one).
    keys: Option<Box<KeyIndex>>,
}

/// The node contexts of the functions being evaluated, innermost last, and what root
/// templates produced once their code ran.
#[derive(Default)]
pub(super) struct Contexts {
    stack: RefCell<Vec<Ctx>>,
    results: RefCell<HashMap<u32, RootOutput>>,
}

impl Contexts {
    /// Opens a node context for code of template `t`; `first_node` is the first node of a
    /// function's body (none: the template's own nodes), `ahead` whether its finished
    /// documents are written as it goes on.
    pub(super) fn start(
        &self,
        t: Rc<CompiledTemplate>,
        first_node: Option<u32>,
        ahead: bool,
    ) -> anyhow::Result<()> {
        let text_body = match first_node {
            Some(tag) => {
                let node = t
                    .nodes
                    .get(tag as usize)
                    .ok_or_else(|| anyhow!("internal error: unknown node {tag}"))?;
                node.kind == TKind::TextChunk
            }
            None => false,
        };
        self.stack.borrow_mut().push(Ctx {
            template: t,
            arena: Arena::default(),
            root: None,
            parents: Vec::new(),
            pending_annotations: ThinVec::new(),
            done_docs: Vec::new(),
            ahead: ahead.then(AheadWriter::default),
            text_body,
            keys: None,
        });
        Ok(())
    }

    /// An annotation for the node about to start in the innermost context.
    pub(super) fn annotate(&self, a: Arc<Annotation>) -> anyhow::Result<()> {
        let mut ctxs = self.stack.borrow_mut();
        let ctx = ctxs
            .last_mut()
            .ok_or_else(|| anyhow!("internal error: annotation outside of a context"))?;
        put_annotation(&mut ctx.pending_annotations, a);
        Ok(())
    }

    /// The output of root template `id` once its code ran.
    pub(super) fn take_result(&self, id: u32) -> Option<RootOutput> {
        self.results.borrow_mut().remove(&id)
    }

    /// Forgets contexts left open by an evaluation that failed.
    pub(super) fn truncate(&self, depth: usize) {
        self.stack.borrow_mut().truncate(depth);
    }

    pub(super) fn depth(&self) -> usize {
        self.stack.borrow().len()
    }

    fn pop_ctx(&self) -> anyhow::Result<Ctx> {
        self.stack
            .borrow_mut()
            .pop()
            .ok_or_else(|| anyhow!("internal error: node context ended twice"))
    }

    /// Ends the innermost context, whose function returns a value of its own.
    pub(super) fn pop(&self) -> anyhow::Result<()> {
        self.pop_ctx().map(drop)
    }

    /// Starts the nodes `first..=last` one after the other: a run the compiler found
    /// without code between its nodes, each after the first inside a node of the run
    /// and, as a map item, with a key its earlier siblings don't have (see
    /// `template::Builder::start_node`), so only the first one's key is checked.
    pub(super) fn start_nodes(
        &self,
        t: &CompiledTemplate,
        first: u32,
        last: u32,
    ) -> anyhow::Result<()> {
        let mut ctxs = self.stack.borrow_mut();
        let ctx = ctxs
            .last_mut()
            .ok_or_else(|| anyhow!("internal error: node started outside of a context"))?;
        for tag in first..=last {
            Self::start_node(t, ctx, tag, tag == first)?;
        }
        Ok(())
    }

    fn start_node(
        t: &CompiledTemplate,
        ctx: &mut Ctx,
        tag: u32,
        check_key: bool,
    ) -> anyhow::Result<()> {
        let node = t
            .nodes
            .get(tag as usize)
            .ok_or_else(|| anyhow!("internal error: unknown node {tag}"))?;
        if ctx.root.is_none() {
            // a function's first node decides what it returns: items are wrapped in
            // their collection (ytt's "wrap root value")
            let wrap = matches!(
                node.kind,
                TKind::MapItem | TKind::ArrayItem | TKind::Doc | TKind::TextChunk
            );
            let root_tag = match (wrap, node.parent) {
                (true, Some(p)) => p,
                _ => tag,
            };
            ctx.arena.nodes.push(RNode::new(root_tag));
            ctx.root = Some(0);
            ctx.parents.push((root_tag, 0));
            if root_tag == tag {
                return Ok(());
            }
        }
        // unwind to the nearest started ancestor
        let root_tag = ctx.parents.first().map(|&(r, _)| r);
        while ctx
            .parents
            .last()
            .is_some_and(|&(ptag, _)| !is_ancestor(t, ptag, tag))
        {
            ctx.parents.pop();
        }
        let Some(&(parent_tag, parent_inst)) = ctx.parents.last() else {
            // a body that starts inside a map (say) and goes on into the next document
            let outer = root_tag.and_then(|r| t.nodes.get(r as usize));
            bail!(
                "{} on line {} is outside the {} holding the function's first node: a \
                 function body cannot span documents or collections",
                kind_name(node.kind),
                node.pos.line,
                outer.map_or("collection", |o| kind_name(o.kind)),
            );
        };
        if node.parent != Some(parent_tag) {
            // its own parent started in a function that has ended (`#@ end` inside a
            // collection): it joins the nearest started ancestor if that holds its kind
            let wanted = match t.nodes[parent_tag as usize].kind {
                TKind::DocSet => Some((TKind::Doc, "document sets", "documents")),
                TKind::Map => Some((TKind::MapItem, "maps", "map items")),
                TKind::Array => Some((TKind::ArrayItem, "arrays", "array items")),
                _ => None,
            };
            if let Some((_, holders, items)) = wanted.filter(|w| w.0 != node.kind) {
                bail!(
                    "{holders} can only contain {items}; this is a {}",
                    kind_name(node.kind)
                );
            }
        }
        if node.kind == TKind::Doc && Some(parent_inst) == ctx.root && ctx.arena.nodes.len() > 1 {
            // the documents so far are finished: materialise them and free the arena
            let arena = &ctx.arena;
            let docs = Materializer { t, arena }.docset(parent_inst)?.docs;
            match &mut ctx.ahead {
                Some(ahead) => ahead.push(docs),
                None => ctx.done_docs.extend(docs),
            }
            ctx.arena.nodes.truncate(parent_inst + 1);
            ctx.arena[parent_inst].children = Children::default();
            if let Some(keys) = &mut ctx.keys {
                keys.forget_from(parent_inst);
            }
        }
        if node.kind == TKind::MapItem && check_key {
            if let Some(key) = &node.key {
                let (arena, keys) = (&mut ctx.arena, &mut ctx.keys);
                check_duplicate_key(t, arena, keys, parent_inst, None, key, node.key_override)?;
            }
        }
        let inst = ctx.arena.nodes.len();
        let mut rnode = RNode::new(tag);
        rnode.annotations = std::mem::take(&mut ctx.pending_annotations);
        ctx.arena.nodes.push(rnode);
        ctx.arena.add_child(parent_inst, inst);
        ctx.parents.push((tag, inst));
        Ok(())
    }

    fn current_node(ctx: &mut Ctx, tag: u32) -> anyhow::Result<&mut RNode> {
        let inst = Self::started(ctx, tag)?;
        Ok(&mut ctx.arena[inst])
    }

    /// The arena index of the innermost started node of `tag`.
    fn started(ctx: &Ctx, tag: u32) -> anyhow::Result<usize> {
        ctx.parents
            .iter()
            .rev()
            .find(|(t, _)| *t == tag)
            .map(|(_, i)| *i)
            .ok_or_else(|| anyhow!("internal error: node {tag} is not started"))
    }

    pub(super) fn set_node(
        &self,
        t: &CompiledTemplate,
        tag: u32,
        value: Value,
    ) -> anyhow::Result<()> {
        let kind = t
            .nodes
            .get(tag as usize)
            .map(|n| n.kind)
            .ok_or_else(|| anyhow!("internal error: unknown node {tag}"))?;
        let computed = value.downcast_ref::<YamlFragment>().is_none();
        let setting = if value.downcast_ref::<Noop>().is_some() {
            Setting::Value(Node::Null)
        } else if kind == TKind::TextChunk {
            match value.unpack_str() {
                Some(s) => Setting::Value(Node::Str(s.into())),
                None => bail!(
                    "cannot set non-string value ({}), consider using str(...) to convert to string",
                    crate::typenames::converted_go(value)
                ),
            }
        } else {
            if let Some(f) = value.downcast_ref::<YamlFragment>() {
                if matches!(&*f.node, FragmentNode::DocSet(_)) {
                    let what = match kind {
                        TKind::ArrayItem => "array items can only contain maps, arrays, or scalars",
                        TKind::MapItem => "map items can only contain arrays, maps, or scalars",
                        _ => "documents can only contain arrays, maps, or scalars",
                    };
                    bail!("{what}; this is a document set");
                }
            }
            Setting::Value(to_node(value)?)
        };
        let mut ctxs = self.stack.borrow_mut();
        let ctx = ctxs
            .last_mut()
            .ok_or_else(|| anyhow!("internal error: no node context"))?;
        let node = Self::current_node(ctx, tag)?;
        let slot = node.setting.get_mut();
        if let Some(Setting::Replace(_)) = slot {
            // replaced already (`template.replace` in its value): what is set goes nowhere
            return Ok(());
        }
        *slot = Some(setting);
        node.computed = computed;
        Ok(())
    }

    /// `template.replace`: replaces the current node of `template` — the last node
    /// started in its innermost node context — by `r`'s items (see `eval::replace`).
    pub(super) fn replace_current(
        &self,
        template: Option<u32>,
        r: Replacement,
    ) -> anyhow::Result<()> {
        let mut ctxs = self.stack.borrow_mut();
        let Some(ctx) = ctxs
            .iter_mut()
            .rev()
            .find(|c| Some(c.template.id) == template)
        else {
            bail!(
                "template.replace: expected to be called in a YAML template, whose current \
                 node it replaces"
            );
        };
        let t = ctx.template.clone();
        let current = ctx
            .parents
            .last()
            .map(|&(tag, inst)| (t.nodes[tag as usize].kind, tag, inst));
        let (kind, tag, inst) = match current {
            Some(c @ (TKind::Doc | TKind::MapItem | TKind::ArrayItem, ..)) => c,
            Some((TKind::Text | TKind::TextChunk, ..)) => {
                bail!("template.replace: unsupported operation")
            }
            other => bail!(
                "template.replace: expected to replace document value, map item or array \
                 item, but found {}",
                match other {
                    Some((TKind::Map, ..)) => "map",
                    Some((TKind::Array, ..)) => "array",
                    Some(_) => "document set",
                    None => "null",
                }
            ),
        };
        r.check_placement(kind)?;
        if matches!(
            &*ctx.arena[inst].setting.borrow(),
            Some(Setting::Replace(_))
        ) {
            bail!(
                "template.replace: expected to find placeholder {}",
                match kind {
                    TKind::MapItem => "map item in map",
                    TKind::ArrayItem => "array item in array",
                    _ => "document in document set",
                }
            );
        }
        if let (TKind::MapItem, true, Node::Map(m)) = (kind, r.of_fragment(), &r.node) {
            check_replaced_keys(&t, &ctx.arena, &ctx.parents, tag, m)?;
        }
        let node = &mut ctx.arena[inst];
        node.computed = !r.of_fragment();
        *node.setting.borrow_mut() = Some(Setting::Replace(r.node));
        Ok(())
    }

    pub(super) fn set_key(
        &self,
        t: &CompiledTemplate,
        tag: u32,
        value: Value,
    ) -> anyhow::Result<()> {
        let key = key_from_value(value)?;
        let mut ctxs = self.stack.borrow_mut();
        let ctx = ctxs
            .last_mut()
            .ok_or_else(|| anyhow!("internal error: no node context"))?;
        let inst = Self::started(ctx, tag)?;
        let override_ok = t.nodes.get(tag as usize).is_some_and(|n| n.key_override);
        // the node's parent is the started node before it
        let at = ctx.parents.iter().rposition(|&(_, i)| i == inst);
        if let Some(&(_, parent_inst)) = at.and_then(|k| ctx.parents.get(k.checked_sub(1)?)) {
            let (arena, keys) = (&mut ctx.arena, &mut ctx.keys);
            check_duplicate_key(t, arena, keys, parent_inst, Some(inst), &key, override_ok)?;
            if let Some(keys) = &mut ctx.keys {
                keys.rekey(parent_inst, &key, inst);
            }
        }
        ctx.arena[inst].key = Some(Box::new(key));
        Ok(())
    }

    /// Ends a function's context: its nodes as a value (a fragment, or a string for text).
    pub(super) fn end<'v>(&self, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        let mut ctx = self.pop_ctx()?;
        let t = &ctx.template;
        let Some(root) = ctx.root else {
            // no node reached (all skipped by `if`/`for`)
            return Ok(match ctx.text_body {
                true => heap.alloc(""),
                false => heap.alloc(YamlFragment::new(FragmentNode::Empty)),
            });
        };
        let done = std::mem::take(&mut ctx.done_docs);
        let m = Materializer {
            t,
            arena: &ctx.arena,
        };
        Ok(match t.nodes[ctx.arena[root].tag as usize].kind {
            TKind::DocSet => {
                let mut docs = m.docset(root)?;
                docs.docs.splice(0..0, done);
                heap.alloc(YamlFragment::new(FragmentNode::DocSet(docs)))
            }
            TKind::Map => heap.alloc(YamlFragment::new(FragmentNode::Map(m.map(root)?))),
            TKind::Array => heap.alloc(YamlFragment::new(FragmentNode::Array(m.array(root)?))),
            TKind::Text => heap.alloc(m.text(root)?),
            _ => heap.alloc(YamlFragment::new(FragmentNode::Empty)),
        })
    }

    pub(super) fn end_root(&self) -> anyhow::Result<()> {
        let mut ctx = self.pop_ctx()?;
        let mut done = match ctx.ahead.take() {
            Some(ahead) => ahead.finish(),
            None => Vec::new(),
        };
        done.append(&mut ctx.done_docs);
        let t = &ctx.template;
        let m = Materializer {
            t,
            arena: &ctx.arena,
        };
        let out = match ctx.root {
            None => RootOutput::Docs(DocSet::default()),
            Some(root) => match t.nodes[ctx.arena[root].tag as usize].kind {
                TKind::Text => RootOutput::Text(m.text(root)?),
                _ => {
                    let mut docs = m.docset(root)?;
                    docs.docs.splice(0..0, done);
                    RootOutput::Docs(docs)
                }
            },
        };
        self.results.borrow_mut().insert(t.id, out);
        Ok(())
    }
}

/// A template node's kind as error messages name it.
fn kind_name(k: TKind) -> &'static str {
    match k {
        TKind::DocSet => "document set",
        TKind::Doc => "document",
        TKind::Map => "map",
        TKind::MapItem => "map item",
        TKind::Array => "array",
        TKind::ArrayItem => "array item",
        TKind::Text | TKind::TextChunk => "text",
    }
}

fn is_ancestor(t: &CompiledTemplate, ancestor: u32, mut tag: u32) -> bool {
    let target_depth = t.nodes[ancestor as usize].depth;
    while let Some(p) = t.nodes[tag as usize].parent {
        if t.nodes[p as usize].depth < target_depth {
            return false;
        }
        if p == ancestor {
            return true;
        }
        tag = p;
    }
    false
}
