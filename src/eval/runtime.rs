//! The template runtime: the instruction functions generated code calls
//! (`__ytt_start_node`, `__ytt_set_node`, …) and the node contexts they build.
//!
//! Every function whose body holds YAML (or text) nodes runs in its own context; nodes
//! are recorded in the context's arena as they start, attached to their nearest started
//! ancestor, and materialised into a node tree when the context ends.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use anyhow::{anyhow, bail};
use starlark::any::ProvidesStaticType;
use starlark::environment::GlobalsBuilder;
use starlark::eval::{Evaluator, FileLoader};
use starlark::starlark_module;
use starlark::values::dict::AllocDict;
use starlark::values::dict::DictRef;
use starlark::values::list::ListRef;
use starlark::values::none::NoneType;
use starlark::values::tuple::UnpackTuple;
use starlark::values::OwnedFrozenValue;
use starlark::values::{Heap, Value, ValueLike};

use super::convert::{from_node_in_fragment, key_from_value, to_node};
use super::fragment::{FragmentNode, YamlFragment};
use super::replace::{Noop, Replacement};
use super::ystruct::struct_fields;
use crate::template::{instr, CompiledTemplate, TKind};
use crate::validations::ASSERT_VALIDATE;
use crate::yaml::emit::AheadWriter;
use crate::yaml::{
    put_annotation, Annotation, Array, ArrayItem, Doc, DocSet, Map, MapItem, Meta, Node, Pos,
    ThinVec, ValueRef, Written,
};

/// What a root template produced.
#[derive(Debug, Clone)]
pub enum RootOutput {
    Docs(DocSet),
    Text(String),
}

/// The value a node was given by code.
#[derive(Debug)]
enum Setting {
    Value(Node),
    /// `template.replace(...)`: the node is replaced by the items of this node.
    Replace(Node),
}

/// An annotation's arguments as Starlark values: positional, then named.
pub type AnnotationArgs<'v> = (Vec<Value<'v>>, Vec<(String, Value<'v>)>);

#[derive(Debug)]
struct RNode {
    tag: u32,
    /// Taken (moved out) when the context is materialised, which happens once.
    setting: RefCell<Option<Setting>>,
    /// A key computed by code (boxed: rare, and arena nodes are copied as they start).
    key: Option<Box<Node>>,
    annotations: ThinVec<Arc<Annotation>>,
    /// The node's children, linked through the arena: no allocation per node.
    children: Children,
    /// The next child of this node's parent.
    next: Option<u32>,
    /// Left out of the output (an earlier item whose key a later one overrode).
    overridden: bool,
    /// The setting is a Starlark value (a dict, a list …), not a YAML fragment: a
    /// document computed this way stays even when empty (`Doc::computed`).
    computed: bool,
}

/// The first and last of a node's children (each links to the next), and their number.
#[derive(Debug, Default, Clone, Copy)]
struct Children {
    first: Option<u32>,
    last: Option<u32>,
    len: u32,
}

#[derive(Debug)]
struct Ctx {
    template: u32,
    arena: Vec<RNode>,
    root: Option<usize>,
    /// Started nodes from the root down to the last one: (tag, arena index).
    parents: Vec<(u32, usize)>,
    /// Annotations evaluated for the node about to start.
    pending_annotations: ThinVec<Arc<Annotation>>,
    /// Documents already finished and materialised (a new document started after them),
    /// so that the arena holds one document at a time.
    done_docs: Vec<Doc>,
    /// Where a template's finished documents go instead, to be written on another core
    /// as evaluation goes on ([`Runtime::write_ahead`]).
    ahead: Option<AheadWriter>,
    /// The function's body is text: when its code reaches none of its nodes, it
    /// returns an empty string (a YAML body returns a fragment of nothing, as the
    /// reference's: `null` where it is set, empty where iterated).
    text_body: bool,
    /// The items of large maps by key, for [`check_duplicate_key`] (once there is one).
    keys: Option<Box<KeyIndex>>,
}

/// State shared by every template evaluated in one run.
#[derive(Default)]
pub struct Runtime {
    templates: RefCell<Vec<Rc<CompiledTemplate>>>,
    ctxs: RefCell<Vec<Ctx>>,
    results: RefCell<HashMap<u32, RootOutput>>,
    /// Templates being evaluated, innermost last (their ids are the serials of the
    /// annotation values they hold).
    evaluating: RefCell<Vec<u32>>,
    /// Annotation values of modules whose evaluation finished.
    frozen_values: RefCell<HashMap<u32, OwnedFrozenValue>>,
    /// Evaluations outside of templates (`exec::with_evaluator`) so far; their serials
    /// follow [`HOST_SERIALS`].
    host_modules: std::cell::Cell<u32>,
    /// Templates numbered so far, and the number of each registered one (by id): see
    /// [`Runtime::number_template`].
    numbered: std::cell::Cell<u32>,
    numbers: RefCell<Vec<Option<u32>>>,
    /// The alias-expansion budget of the run's YAML files.
    pub aliases: crate::yaml::parser::AliasBudget,
    /// The run's files: their names (what positions' ids stand for) and their texts,
    /// which reports quote.
    pub sources: crate::schema::Sources,
    /// Garbage collection inside loops.
    pub gc: super::gc::LoopGc,
    /// The embedder's memory budget, which every evaluator watches.
    pub budget: Option<super::budget::MemoryBudget>,
    /// `print()` output and warnings.
    pub messages: Messages,
    /// The `@ytt:` modules the embedder registered.
    pub modules: crate::modules::Modules,
    /// The warnings given once per run so far (`@ytt:math`'s, through `module_api`).
    warned: RefCell<Vec<String>>,
    /// Whether an `@assert/validate` annotation was made in this run: output documents
    /// can carry one only then, and are not walked for them otherwise.
    asserts: std::cell::Cell<bool>,
    /// The template whose next evaluation writes its documents ahead.
    ahead_for: std::cell::Cell<Option<u32>>,
}

/// Where a run's messages go as they happen — `print()` output and warnings, each a
/// line, in the order they happen: the command line writes them to stderr; a test, a
/// playground or a language server keeps them. By default they are dropped.
#[derive(Clone, Default)]
pub struct Messages(Option<Arc<Sink>>);

/// Takes the bytes of one or more message lines (from the thread the run is on).
type Sink = dyn Fn(&[u8]) + Send + Sync;

impl Messages {
    pub fn new(sink: impl Fn(&[u8]) + Send + Sync + 'static) -> Self {
        Messages(Some(Arc::new(sink)))
    }

    /// One message line (`\n` added); its text is the bytes it stands for (`crate::bytestr`).
    pub fn line(&self, text: &str) {
        if let Some(sink) = &self.0 {
            let mut bytes = crate::bytestr::encode(text).into_owned();
            bytes.push(b'\n');
            sink(&bytes);
        }
    }
}

impl std::fmt::Debug for Messages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Messages"
        } else {
            "Messages(dropped)"
        })
    }
}

/// The first serial of evaluations outside of templates: template ids stay below it.
const HOST_SERIALS: u32 = 1 << 30;

/// Handed to the evaluator as `eval.extra`: the runtime, and the file loader of the
/// module being evaluated (for `load` nested in blocks, see `instr::LOAD`).
#[derive(ProvidesStaticType)]
pub struct Extra<'a>(pub &'a Runtime, pub Option<&'a dyn FileLoader>);

fn runtime<'a>(eval: &Evaluator<'_, 'a, '_>) -> anyhow::Result<&'a Runtime> {
    eval.extra
        .and_then(|e| e.downcast_ref::<Extra>())
        .map(|e| e.0)
        .ok_or_else(|| anyhow!("template instruction called outside of a template"))
}

impl Runtime {
    pub fn new() -> Self {
        Self::default()
    }

    /// The run's file names: what the file ids of positions stand for.
    pub fn names(&self) -> &crate::yaml::FileNames {
        self.sources.names()
    }

    /// `file.yml:12`, a position as reports print it.
    pub fn describe(&self, pos: &Pos) -> String {
        self.sources.describe(pos)
    }

    /// Gives `warning` the first time it is asked for in this run.
    pub fn warn_once(&self, warning: &str) {
        let mut warned = self.warned.borrow_mut();
        if !warned.iter().any(|w| w == warning) {
            warned.push(warning.to_owned());
            self.messages.line(warning);
        }
    }

    /// Notes the annotations made outside of template evaluation (see
    /// [`Runtime::makes_asserts`]).
    pub fn note_annotations(&self, anns: &[Arc<Annotation>]) {
        if anns.iter().any(|a| a.name == ASSERT_VALIDATE) {
            self.asserts.set(true);
        }
    }

    /// Whether any `@assert/validate` annotation was made in this run: every annotation
    /// is made by a template's evaluation ([`Runtime`]'s `annotate`) or noted
    /// ([`Runtime::note_annotations`]); overlays and the schema only copy them.
    pub fn makes_asserts(&self) -> bool {
        self.asserts.get()
    }

    /// The id the next registered template will get.
    pub fn next_id(&self) -> u32 {
        self.templates.borrow().len() as u32
    }

    /// Registers a compiled template; `numbered` as in [`Runtime::number_template`].
    pub fn register(&self, t: CompiledTemplate, numbered: bool) -> Rc<CompiledTemplate> {
        let t = Rc::new(t);
        self.templates.borrow_mut().push(t.clone());
        let number = numbered.then(|| self.number_template());
        self.numbers.borrow_mut().push(number);
        t
    }

    /// The next number of a YAML or text template, as error messages name its
    /// instructions (`__ytt_tpl3_set_node`): the reference numbers the templates it
    /// compiles from 2 in the order it compiles them, plain YAML files included (which
    /// need no evaluation here, so take a number without being registered).
    pub fn number_template(&self) -> u32 {
        let n = self.numbered.get();
        self.numbered.set(n + 1);
        n + 2
    }

    /// The number of a registered template (see [`Runtime::number_template`]).
    fn template_number(&self, id: u32) -> Option<u32> {
        self.numbers.borrow().get(id as usize).copied().flatten()
    }

    pub fn template(&self, id: u32) -> Option<Rc<CompiledTemplate>> {
        self.templates.borrow().get(id as usize).cloned()
    }

    /// The output of a root template once its code ran.
    pub fn take_result(&self, id: u32) -> Option<RootOutput> {
        self.results.borrow_mut().remove(&id)
    }

    /// Forgets contexts left open by an evaluation that failed.
    pub fn reset_contexts(&self, depth: usize) {
        self.ctxs.borrow_mut().truncate(depth);
    }

    pub fn context_depth(&self) -> usize {
        self.ctxs.borrow().len()
    }

    fn tpl(&self, id: u32) -> anyhow::Result<Rc<CompiledTemplate>> {
        self.template(id)
            .ok_or_else(|| anyhow!("internal error: unknown template {id}"))
    }

    /// Opens a node context; `first_node` is the first node of a function's body.
    fn start_ctx(&self, template: u32, first_node: Option<u32>) -> anyhow::Result<()> {
        let text_body = match first_node {
            Some(tag) => {
                let t = self.tpl(template)?;
                let node = t
                    .nodes
                    .get(tag as usize)
                    .ok_or_else(|| anyhow!("internal error: unknown node {tag}"))?;
                node.kind == TKind::TextChunk
            }
            None => false,
        };
        self.ctxs.borrow_mut().push(Ctx {
            template,
            arena: Vec::new(),
            root: None,
            parents: Vec::new(),
            pending_annotations: ThinVec::new(),
            done_docs: Vec::new(),
            // a template's own nodes, not a function's
            ahead: (first_node.is_none() && self.ahead_for.get() == Some(template))
                .then(AheadWriter::default),
            text_body,
            keys: None,
        });
        Ok(())
    }

    /// The documents of template `id`'s next evaluation (as the run's template, not
    /// loaded) are written as YAML on another core as they are finished (see
    /// `emit::AheadWriter`); `None` stops that.
    pub fn write_ahead(&self, id: Option<u32>) {
        self.ahead_for.set(id);
    }

    /// Marks the start of a module's evaluation.
    pub fn begin_module(&self, id: u32) {
        self.evaluating.borrow_mut().push(id);
    }

    /// Marks the start of an evaluation outside of templates; returns its serial.
    pub fn begin_host_module(&self) -> u32 {
        let n = self.host_modules.get();
        self.host_modules.set(n + 1);
        let serial = HOST_SERIALS + n;
        self.begin_module(serial);
        serial
    }

    /// Marks the end of a module's evaluation, keeping its annotation values.
    pub fn end_module(&self, id: u32, values: Option<OwnedFrozenValue>) {
        self.evaluating.borrow_mut().retain(|&e| e != id);
        self.gc.end_module(id);
        if let Some(v) = values {
            self.frozen_values.borrow_mut().insert(id, v);
        }
    }

    /// The serial of the module being evaluated.
    fn evaluating_serial(&self) -> anyhow::Result<u32> {
        self.evaluating
            .borrow()
            .last()
            .copied()
            .ok_or_else(|| anyhow!("internal error: no module is being evaluated"))
    }

    /// The Starlark value behind an annotation argument.
    pub fn resolve<'v>(
        &self,
        eval: &Evaluator<'v, '_, '_>,
        r: ValueRef,
    ) -> anyhow::Result<Value<'v>> {
        if let Some(list) = self.frozen_values.borrow().get(&r.serial) {
            // the evaluating module keeps the heap holding these values alive
            eval.frozen_heap().add_reference(list.owner());
            // SAFETY: the reference just added keeps the value's heap alive as long as
            // the module being evaluated, which outlives every value of the evaluation.
            let v = unsafe { list.unchecked_frozen_value() }.to_value();
            return ListRef::from_value(v)
                .and_then(|l| l.content().get(r.index as usize).copied())
                .ok_or_else(|| anyhow!("internal error: annotation value {r:?} not found"));
        }
        if let Some(list) = eval.module().get(instr::ANNOTATION_VALUES) {
            let owner = ListRef::from_value(list)
                .and_then(|l| l.content().first().copied())
                .and_then(|v| v.unpack_i32());
            if owner != Some(r.serial as i32) {
                bail!("internal error: annotation value {r:?} is not reachable from here");
            }
            return ListRef::from_value(list)
                .and_then(|l| l.content().get(r.index as usize).copied())
                .ok_or_else(|| anyhow!("internal error: annotation value {r:?} not found"));
        }
        bail!("internal error: annotation value {r:?} is not reachable from here")
    }

    /// An annotation's arguments as Starlark values: positional, then named.
    pub fn resolve_args<'v>(
        &self,
        eval: &Evaluator<'v, '_, '_>,
        a: &Annotation,
    ) -> anyhow::Result<AnnotationArgs<'v>> {
        let mut args = Vec::with_capacity(a.args.len());
        for r in &a.args {
            args.push(self.resolve(eval, *r)?);
        }
        let mut kwargs = Vec::with_capacity(a.kwargs.len());
        for (k, r) in &a.kwargs {
            kwargs.push((k.clone(), self.resolve(eval, *r)?));
        }
        Ok((args, kwargs))
    }

    fn annotate<'v>(
        &self,
        eval: &mut Evaluator<'v, '_, '_>,
        template: u32,
        tag: u32,
        name: &str,
        args: &[Value<'v>],
        kwargs: &[(String, Value<'v>)],
    ) -> starlark::Result<()> {
        let t = self.tpl(template)?;
        // the annotation's own comment line (the instruction's call site), else the node's
        let line = eval
            .call_stack_top_location()
            .filter(|span| span.filename().parse::<u32>().ok() == Some(template))
            .and_then(|span| t.report_line(span.resolve_span().begin.line))
            .map(|(l, _)| l)
            .unwrap_or_else(|| t.nodes.get(tag as usize).map_or(0, |n| n.pos.line));
        let serial = *self
            .evaluating
            .borrow()
            .last()
            .ok_or_else(|| anyhow!("internal error: annotation outside of a module"))?;
        let list = eval
            .module()
            .get(instr::ANNOTATION_VALUES)
            .ok_or_else(|| anyhow!("internal error: no annotation values"))?;
        let append = list
            .get_attr_error("append", eval.heap())
            .map_err(|e| anyhow!("internal error: {e}"))?;
        // the evaluator's own errors pass through: at the call stack's limit, this call
        // is where a recursive template overflows
        let mut push = |v: Value<'v>| -> starlark::Result<ValueRef> {
            let index = ListRef::from_value(list).map_or(0, |l| l.len()) as u32;
            eval.eval_function(append, &[v], &[])?;
            Ok(ValueRef { serial, index })
        };
        let mut arg_refs = Vec::with_capacity(args.len());
        for v in args {
            arg_refs.push(push(*v)?);
        }
        let mut kwarg_refs = Vec::with_capacity(kwargs.len());
        for (k, v) in kwargs {
            kwarg_refs.push((k.clone(), push(*v)?));
        }
        let (args, kwargs) = (arg_refs, kwarg_refs);
        let mut ctxs = self.ctxs.borrow_mut();
        let ctx = ctxs
            .last_mut()
            .ok_or_else(|| anyhow!("internal error: annotation outside of a context"))?;
        if name == ASSERT_VALIDATE {
            self.asserts.set(true);
        }
        put_annotation(
            &mut ctx.pending_annotations,
            Arc::new(Annotation::new(name, Pos::new(t.file, line), args, kwargs)),
        );
        Ok(())
    }

    fn pop_ctx(&self) -> anyhow::Result<Ctx> {
        self.ctxs
            .borrow_mut()
            .pop()
            .ok_or_else(|| anyhow!("internal error: node context ended twice"))
    }

    /// Starts the nodes `first..=last` one after the other: a run the compiler found
    /// without code between its nodes, each after the first inside a node of the run
    /// and, as a map item, with a key its earlier siblings don't have (see
    /// `template::Builder::start_node`), so only the first one's key is checked.
    fn start_nodes(&self, template: u32, first: u32, last: u32) -> anyhow::Result<()> {
        let t = self.tpl(template)?;
        let mut ctxs = self.ctxs.borrow_mut();
        let ctx = ctxs
            .last_mut()
            .ok_or_else(|| anyhow!("internal error: node started outside of a context"))?;
        for tag in first..=last {
            Self::start_node(&t, ctx, tag, tag == first)?;
        }
        Ok(())
    }

    fn start_node(
        t: &Rc<CompiledTemplate>,
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
            ctx.arena.push(RNode::new(root_tag));
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
        if node.kind == TKind::Doc && Some(parent_inst) == ctx.root && ctx.arena.len() > 1 {
            // the documents so far are finished: materialise them and free the arena
            let docs = Materializer { t, ctx }.docset(parent_inst)?.docs;
            match &mut ctx.ahead {
                Some(ahead) => ahead.push(docs),
                None => ctx.done_docs.extend(docs),
            }
            ctx.arena.truncate(parent_inst + 1);
            ctx.arena[parent_inst].children = Children::default();
            if let Some(keys) = &mut ctx.keys {
                keys.forget_from(parent_inst);
            }
        }
        if node.kind == TKind::MapItem && check_key {
            if let Some(key) = &node.key {
                check_duplicate_key(t, ctx, parent_inst, None, key, node.key_override)?;
            }
        }
        let inst = ctx.arena.len();
        let mut rnode = RNode::new(tag);
        rnode.annotations = std::mem::take(&mut ctx.pending_annotations);
        ctx.arena.push(rnode);
        ctx.add_child(parent_inst, inst);
        ctx.parents.push((tag, inst));
        Ok(())
    }

    fn current_node(ctx: &mut Ctx, tag: u32) -> anyhow::Result<&mut RNode> {
        let inst = ctx
            .parents
            .iter()
            .rev()
            .find(|(t, _)| *t == tag)
            .map(|(_, i)| *i)
            .ok_or_else(|| anyhow!("internal error: node {tag} is not started"))?;
        Ok(&mut ctx.arena[inst])
    }

    fn set_node(&self, template: u32, tag: u32, value: Value) -> anyhow::Result<()> {
        let t = self.tpl(template)?;
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
        let mut ctxs = self.ctxs.borrow_mut();
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
    pub fn replace_current(&self, template: Option<u32>, r: Replacement) -> anyhow::Result<()> {
        let mut ctxs = self.ctxs.borrow_mut();
        let Some(ctx) = ctxs.iter_mut().rev().find(|c| Some(c.template) == template) else {
            bail!(
                "template.replace: expected to be called in a YAML template, whose current \
                 node it replaces"
            );
        };
        let t = self.tpl(ctx.template)?;
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
            check_replaced_keys(&t, &*ctx, tag, m)?;
        }
        let node = &mut ctx.arena[inst];
        node.computed = !r.of_fragment();
        *node.setting.borrow_mut() = Some(Setting::Replace(r.node));
        Ok(())
    }

    fn set_key(&self, template: u32, tag: u32, value: Value) -> anyhow::Result<()> {
        let t = self.tpl(template)?;
        let key = key_from_value(value)?;
        let mut ctxs = self.ctxs.borrow_mut();
        let ctx = ctxs
            .last_mut()
            .ok_or_else(|| anyhow!("internal error: no node context"))?;
        let inst = ctx
            .parents
            .iter()
            .rev()
            .find(|(t, _)| *t == tag)
            .map(|(_, i)| *i)
            .ok_or_else(|| anyhow!("internal error: node {tag} is not started"))?;
        let override_ok = t.nodes.get(tag as usize).is_some_and(|n| n.key_override);
        // the node's parent is the started node before it
        let at = ctx.parents.iter().rposition(|&(_, i)| i == inst);
        if let Some(&(_, parent_inst)) = at.and_then(|k| ctx.parents.get(k.checked_sub(1)?)) {
            check_duplicate_key(&t, ctx, parent_inst, Some(inst), &key, override_ok)?;
            if let Some(keys) = &mut ctx.keys {
                keys.rekey(parent_inst, &key, inst);
            }
        }
        ctx.arena[inst].key = Some(Box::new(key));
        Ok(())
    }

    /// Ends a function's context: its nodes as a value (a fragment, or a string for text).
    fn end_ctx<'v>(&self, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        let mut ctx = self.pop_ctx()?;
        let t = self.tpl(ctx.template)?;
        let Some(root) = ctx.root else {
            // no node reached (all skipped by `if`/`for`)
            return Ok(match ctx.text_body {
                true => heap.alloc(""),
                false => heap.alloc(YamlFragment::new(FragmentNode::Empty)),
            });
        };
        let done = std::mem::take(&mut ctx.done_docs);
        let m = Materializer { t: &t, ctx: &ctx };
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

    fn end_root(&self) -> anyhow::Result<()> {
        let mut ctx = self.pop_ctx()?;
        let t = self.tpl(ctx.template)?;
        let mut done = match ctx.ahead.take() {
            Some(ahead) => ahead.finish(),
            None => Vec::new(),
        };
        done.append(&mut ctx.done_docs);
        let m = Materializer { t: &t, ctx: &ctx };
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
        self.results.borrow_mut().insert(ctx.template, out);
        Ok(())
    }
}

impl RNode {
    fn new(tag: u32) -> Self {
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

impl Ctx {
    /// Appends node `child` to `parent`'s children.
    fn add_child(&mut self, parent: usize, child: usize) {
        let c = Some(child as u32);
        let kids = self.arena[parent].children;
        match kids.last {
            Some(last) => self.arena[last as usize].next = c,
            None => self.arena[parent].children.first = c,
        }
        let kids = &mut self.arena[parent].children;
        kids.last = c;
        kids.len += 1;
    }

    fn children(&self, inst: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.arena[inst].children.first, |&c| {
            self.arena[c as usize].next
        })
        .map(|c| c as usize)
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

fn item_key<'a>(t: &'a CompiledTemplate, n: &'a RNode) -> Option<&'a Node> {
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
fn check_duplicate_key(
    t: &CompiledTemplate,
    ctx: &mut Ctx,
    parent: usize,
    except: Option<usize>,
    key: &Node,
    override_ok: bool,
) -> anyhow::Result<()> {
    if ctx.arena[parent].children.len >= KeyIndex::FROM {
        let keys = ctx.keys.get_or_insert_with(Box::default);
        for c in keys.candidates(t, &ctx.arena, parent, key, except) {
            check_item_key(t, ctx, c, except, key, override_ok)?;
        }
    } else {
        let mut next = ctx.arena[parent].children.first;
        while let Some(c) = next.map(|c| c as usize) {
            next = ctx.arena[c].next;
            check_item_key(t, ctx, c, except, key, override_ok)?;
        }
    }
    Ok(())
}

/// Item `c` (unless it is `except`) has `key`: an error, or it is overridden.
#[inline(always)]
fn check_item_key(
    t: &CompiledTemplate,
    ctx: &mut Ctx,
    c: usize,
    except: Option<usize>,
    key: &Node,
    override_ok: bool,
) -> anyhow::Result<()> {
    let same = Some(c) != except
        && !ctx.arena[c].overridden
        && item_key(t, &ctx.arena[c]).is_some_and(|k| k.value_eq(key));
    if same {
        if !override_ok {
            bail!(duplicate_key_message(key));
        }
        ctx.arena[c].overridden = true;
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
struct KeyIndex {
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
        arena: &[RNode],
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
    fn rekey(&mut self, parent: usize, key: &Node, child: usize) {
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
    fn forget_from(&mut self, last: usize) {
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

/// Items put into a map by `template.replace(fragment)` may not repeat keys of the map.
fn check_replaced_keys(t: &CompiledTemplate, ctx: &Ctx, tag: u32, m: &Map) -> anyhow::Result<()> {
    let Some(pos) = ctx.parents.iter().rposition(|(ptag, _)| *ptag == tag) else {
        return Ok(());
    };
    let Some(&(_, parent)) = ctx.parents.get(pos.wrapping_sub(1)) else {
        return Ok(());
    };
    let me = ctx.parents[pos].1;
    for c in ctx.children(parent) {
        let sibling = &ctx.arena[c];
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

/// Builds node trees from a finished context.
struct Materializer<'a> {
    t: &'a CompiledTemplate,
    ctx: &'a Ctx,
}

impl Materializer<'_> {
    fn rnode(&self, inst: usize) -> &RNode {
        &self.ctx.arena[inst]
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

    fn docset(&self, inst: usize) -> anyhow::Result<DocSet> {
        let mut docs = Vec::new();
        for c in self.ctx.children(inst) {
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

    fn map(&self, inst: usize) -> anyhow::Result<Map> {
        // Sized up front: output trees are large and a grown vector wastes up to half.
        let mut items: ThinVec<MapItem> =
            ThinVec::with_capacity(self.rnode(inst).children.len as usize);
        for c in self.ctx.children(inst) {
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

    fn array(&self, inst: usize) -> anyhow::Result<Array> {
        let mut items = ThinVec::with_capacity(self.rnode(inst).children.len as usize);
        for c in self.ctx.children(inst) {
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

    fn text(&self, inst: usize) -> anyhow::Result<String> {
        let mut out = String::new();
        for c in self.ctx.children(inst) {
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

/// Errors of node instructions carry the instruction's name, as the reference's do.
fn instruction_error(
    rt: &Runtime,
    template: i32,
    instruction: &str,
    e: anyhow::Error,
) -> anyhow::Error {
    let msg = format!("{e:#}");
    if msg.starts_with("template.replace:") {
        return e;
    }
    let number = u32::try_from(template)
        .ok()
        .and_then(|id| rt.template_number(id))
        .unwrap_or(2);
    anyhow!("__ytt_tpl{number}_{instruction}: {msg}")
}

fn as_u32(v: i32) -> anyhow::Result<u32> {
    u32::try_from(v).map_err(|_| anyhow!("internal error: bad instruction argument {v}"))
}

/// The instruction functions every template's globals include.
#[starlark_module]
pub fn instructions(builder: &mut GlobalsBuilder) {
    /// A `load` nested in top-level blocks (see `instr::LOAD`): loads the module with the
    /// file loader of the module being evaluated (so once per run, with the errors of a
    /// top-level `load`) and returns the named values (one, or a tuple of several).
    fn __ytt_load<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let internal = |m: &str| starlark::Error::new_other(anyhow!("internal error: {m}"));
        let loader = eval
            .extra
            .and_then(|e| e.downcast_ref::<Extra>())
            .and_then(|e| e.1)
            .ok_or_else(|| internal("load outside of a module"))?;
        let mut strs = args.items.iter().map(|v| v.unpack_str());
        let path = strs
            .next()
            .flatten()
            .ok_or_else(|| internal("bad load instruction"))?;
        let module = loader.load(path)?;
        // the evaluating module's heap keeps the loaded module's heap alive
        eval.frozen_heap().add_reference(module.frozen_heap());
        let mut values = Vec::with_capacity(args.items.len().saturating_sub(1));
        for name in strs {
            let name = name.ok_or_else(|| internal("bad load instruction"))?;
            let value = match module.get_option(name) {
                Ok(Some(v)) => v,
                _ => {
                    let exported = crate::eval::error::exported_names(&module);
                    let msg = crate::eval::error::not_found(name, path, &exported);
                    return Err(starlark::Error::new_other(anyhow!(msg)));
                }
            };
            // SAFETY: the reference added above keeps the value's heap alive as long as
            // the module being evaluated, which outlives every value of the evaluation.
            values.push(unsafe { value.unchecked_frozen_value() }.to_value());
        }
        Ok(match values.as_slice() {
            [one] => *one,
            _ => eval
                .heap()
                .alloc(starlark::values::tuple::AllocTuple(values)),
        })
    }

    fn __ytt_start_ctx(
        #[starlark(require = pos)] template: i32,
        #[starlark(require = pos)] first_node: Option<i32>,
        eval: &mut Evaluator,
    ) -> anyhow::Result<NoneType> {
        let first_node = first_node.map(as_u32).transpose()?;
        runtime(eval)?.start_ctx(as_u32(template)?, first_node)?;
        Ok(NoneType)
    }

    fn __ytt_end_ctx<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        let rt = runtime(eval)?;
        if let Some(v) = args.items.get(1) {
            rt.pop_ctx()?;
            return Ok(*v);
        }
        rt.end_ctx(eval.heap())
    }

    fn __ytt_end_root(
        #[starlark(require = pos)] template: i32,
        eval: &mut Evaluator,
    ) -> anyhow::Result<NoneType> {
        let _ = template;
        runtime(eval)?.end_root()?;
        Ok(NoneType)
    }

    /// Starts node `tag`, or the nodes `tag..=last`.
    fn __ytt_start_node(
        #[starlark(require = pos)] template: i32,
        #[starlark(require = pos)] tag: i32,
        #[starlark(require = pos)] last: Option<i32>,
        eval: &mut Evaluator,
    ) -> anyhow::Result<NoneType> {
        let rt = runtime(eval)?;
        let first = as_u32(tag)?;
        let last = last.map_or(Ok(first), as_u32)?;
        rt.start_nodes(as_u32(template)?, first, last)
            .map_err(|e| instruction_error(rt, template, "start_node", e))?;
        Ok(NoneType)
    }

    fn __ytt_set_node<'v>(
        #[starlark(require = pos)] template: i32,
        #[starlark(require = pos)] tag: i32,
        #[starlark(require = pos)] value: Value<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<NoneType> {
        let rt = runtime(eval)?;
        rt.set_node(as_u32(template)?, as_u32(tag)?, value)
            .map_err(|e| instruction_error(rt, template, "set_node", e))?;
        Ok(NoneType)
    }

    fn __ytt_set_key<'v>(
        #[starlark(require = pos)] template: i32,
        #[starlark(require = pos)] tag: i32,
        #[starlark(require = pos)] value: Value<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<NoneType> {
        let rt = runtime(eval)?;
        rt.set_key(as_u32(template)?, as_u32(tag)?, value)
            .map_err(|e| instruction_error(rt, template, "start_node", e))?;
        Ok(NoneType)
    }

    /// Annotation arguments are evaluated (so mistakes in them are reported); what the
    /// annotations mean is decided by later pipeline steps.
    fn __ytt_annotate<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<String, Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<NoneType> {
        let (Some(t), Some(tag), Some(name)) = (
            args.items.first().and_then(|v| v.unpack_i32()),
            args.items.get(1).and_then(|v| v.unpack_i32()),
            args.items.get(2).and_then(|v| v.unpack_str()),
        ) else {
            return Err(anyhow!("internal error: bad annotation instruction").into());
        };
        let kwargs: Vec<(String, Value<'v>)> = kwargs.into_iter().collect();
        runtime(eval)?.annotate(
            eval,
            as_u32(t)?,
            as_u32(tag)?,
            name,
            &args.items[3..],
            &kwargs,
        )?;
        Ok(NoneType)
    }

    fn __ytt_kwargs<'v>(
        #[starlark(require = pos)] value: Value<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        if DictRef::from_value(value).is_some() {
            return Ok(value);
        }
        if let Some(fields) = struct_fields(value) {
            return Ok(heap.alloc(AllocDict(fields)));
        }
        if let Some(f) = value.downcast_ref::<YamlFragment>() {
            return match &*f.node {
                FragmentNode::Empty => Ok(heap.alloc(AllocDict::EMPTY)),
                FragmentNode::Map(m) => Ok(heap.alloc(AllocDict(m.items.iter().map(|i| {
                    (
                        from_node_in_fragment(heap, &i.key),
                        from_node_in_fragment(heap, &i.value),
                    )
                })))),
                _ => bail!("argument after ** must be a mapping, not yamlfragment"),
            };
        }
        bail!(
            "argument after ** must be a mapping, not {}",
            value.get_type()
        )
    }

    fn __ytt_forever<'v>(eval: &mut Evaluator<'v, '_, '_>) -> anyhow::Result<Value<'v>> {
        Ok(super::gc::forever(eval))
    }

    /// The iterable of a loop outside any function (see `eval::gc`).
    fn __ytt_loop<'v>(
        #[starlark(require = pos)] over: Value<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let (over, fixed) = super::gc::loop_iterable(over, eval)?;
        let rt = runtime(eval)?;
        rt.gc.enter(rt.evaluating_serial()?, fixed);
        Ok(over)
    }

    fn __ytt_loop_end(eval: &mut Evaluator) -> anyhow::Result<NoneType> {
        let rt = runtime(eval)?;
        rt.gc.leave(rt.evaluating_serial()?);
        Ok(NoneType)
    }

    fn __ytt_gc(eval: &mut Evaluator) -> anyhow::Result<NoneType> {
        let rt = runtime(eval)?;
        rt.gc.point(rt.evaluating_serial()?, eval);
        Ok(NoneType)
    }
}

/// Calls `func` for a caller that catches its failure and goes on (`assert.try_to`,
/// validation rules).
///
/// A function whose body holds nodes and fails midway never reaches its
/// `__ytt_end_ctx`: the node contexts the call opened are ended here, so that the
/// caller's own nodes are not started or set in the failed function's half-built
/// context (and none of its nodes reach the output).
pub fn call_catching<'v>(
    eval: &mut Evaluator<'v, '_, '_>,
    func: Value<'v>,
    args: &[Value<'v>],
) -> starlark::Result<Value<'v>> {
    let rt = runtime(eval).ok();
    let depth = rt.map(Runtime::context_depth);
    let result = eval.eval_function(func, args, &[]);
    if let (Err(_), Some(rt), Some(depth)) = (&result, rt, depth) {
        rt.reset_contexts(depth);
    }
    result
}

/// The runtime of the templates being evaluated (`eval.extra`), for native functions that
/// resolve annotation values (`@ytt:overlay`).
pub fn runtime_of<'a>(eval: &Evaluator<'_, 'a, '_>) -> anyhow::Result<&'a Runtime> {
    runtime(eval)
}

/// The file names of the run `eval` belongs to (an empty table outside a run: positions
/// are then unknown).
pub fn names_of(eval: &Evaluator) -> crate::yaml::FileNames {
    runtime_of(eval).map_or_else(|_| Default::default(), |rt| rt.names().clone())
}

/// The messages of the run `eval` belongs to (dropped outside a run).
pub fn messages_of(eval: &Evaluator) -> Messages {
    runtime_of(eval).map_or_else(|_| Messages::default(), |rt| rt.messages.clone())
}
