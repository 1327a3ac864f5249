//! The run's state as evaluation sees it: the templates evaluated in one run, the
//! modules being evaluated and the annotation values they hold, the node contexts of the
//! functions being evaluated (`eval::contexts`), and what a run reports through (its file
//! names, messages and memory budget).

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use anyhow::{anyhow, bail};
use starlark::any::ProvidesStaticType;
use starlark::eval::{Evaluator, FileLoader};
use starlark::values::list::ListRef;
use starlark::values::OwnedFrozenValue;
use starlark::values::Value;

use super::contexts::{Contexts, RootOutput};
use super::replace::Replacement;
use crate::messages::Messages;
use crate::template::annotations::ASSERT_VALIDATE;
use crate::template::{instr, CompiledTemplate};
use crate::yaml::{Annotation, FileNames, Pos, ValueRef};

/// An annotation's arguments as Starlark values: positional, then named.
pub type AnnotationArgs<'v> = (Vec<Value<'v>>, Vec<(String, Value<'v>)>);

/// State shared by every template evaluated in one run.
#[derive(Default)]
pub struct Runtime {
    /// The registered templates by id (`None`: an id reserved, its template not yet
    /// registered).
    templates: RefCell<Vec<Option<Rc<CompiledTemplate>>>>,
    /// The node contexts of the functions being evaluated.
    pub(super) contexts: Contexts,
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
    /// The run's file names: what positions' ids stand for.
    names: FileNames,
    /// What the runtime's owner, the step that runs the evaluations, keeps of the run
    /// (the workspace's: the texts of its files, the YAML alias budget, the `@ytt:`
    /// modules the embedder registered), held for it so that its native functions
    /// (`@ytt:library`, which runs a library) reach it from an evaluator as its own code
    /// does; evaluation does not know its type.
    owner: Option<Box<dyn Any>>,
    /// Garbage collection inside loops.
    pub gc: super::gc::LoopGc,
    /// The embedder's memory budget, which every evaluator watches.
    pub budget: Option<super::budget::MemoryBudget>,
    /// `print()` output and warnings: [`Runtime::messages`] gives them out.
    pub messages: Messages,
    /// Asked before a message goes out: `false` drops it. (A run whose files are parsed
    /// meanwhile waits for them here, and drops what a serial run would never have
    /// printed: a YAML error of theirs comes before anything runs.)
    pub gate: Option<fn(&Runtime) -> bool>,
    /// Where overlays note what each `@overlay/match` node matched, when a front end
    /// asks.
    pub overlay_log: Option<crate::overlay::MatchLog>,
    /// The warnings given once per run so far (`@ytt:math`'s, through `module_api`).
    warned: RefCell<Vec<String>>,
    /// Whether an `@assert/validate` annotation was made in this run: output documents
    /// can carry one only then, and are not walked for them otherwise.
    asserts: std::cell::Cell<bool>,
    /// The template whose next evaluation writes its documents ahead.
    ahead_for: std::cell::Cell<Option<u32>>,
}

/// The first serial of evaluations outside of templates: template ids stay below it.
const HOST_SERIALS: u32 = 1 << 30;

/// Handed to the evaluator as `eval.extra`: the runtime, and the file loader of the
/// module being evaluated (for `load` nested in blocks, see `instr::LOAD`).
#[derive(ProvidesStaticType)]
pub struct Extra<'a>(pub &'a Runtime, pub Option<&'a dyn FileLoader>);

pub(super) fn runtime<'a>(eval: &Evaluator<'_, 'a, '_>) -> anyhow::Result<&'a Runtime> {
    eval.extra
        .and_then(|e| e.downcast_ref::<Extra>())
        .map(|e| e.0)
        .ok_or_else(|| anyhow!("template instruction called outside of a template"))
}

impl Runtime {
    /// The runtime of a run whose files are named in `names`, holding what its owner,
    /// the step that runs the evaluations, keeps of the run.
    pub fn new(names: FileNames, owner: impl Any) -> Self {
        Runtime {
            names,
            owner: Some(Box::new(owner)),
            ..Self::default()
        }
    }

    /// What the runtime's owner keeps of the run, if it is a `T`.
    pub fn owner<T: Any>(&self) -> Option<&T> {
        self.owner.as_deref()?.downcast_ref()
    }

    /// The run's file names: what the file ids of positions stand for.
    pub fn names(&self) -> &FileNames {
        &self.names
    }

    /// `file.yml:12`, a position as reports print it.
    pub fn describe(&self, pos: &Pos) -> String {
        self.names.describe(pos)
    }

    /// Where a message goes now (see [`Runtime::gate`]).
    pub fn messages(&self) -> Messages {
        match self.gate.is_none_or(|open| open(self)) {
            true => self.messages.clone(),
            false => Messages::default(),
        }
    }

    /// Gives `warning` the first time it is asked for in this run.
    pub fn warn_once(&self, warning: &str) {
        let mut warned = self.warned.borrow_mut();
        if !warned.iter().any(|w| w == warning) {
            warned.push(warning.to_owned());
            self.messages().line(warning);
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

    /// Reserves an id for a template compiled ahead (elsewhere), registered later.
    pub fn reserve_id(&self) -> u32 {
        let id = self.next_id();
        self.templates.borrow_mut().push(None);
        self.numbers.borrow_mut().push(None);
        id
    }

    /// Registers a compiled template, with the id it was compiled with ([`next_id`] or
    /// reserved); `numbered` as in [`Runtime::number_template`]: templates are
    /// numbered in the order they are registered.
    ///
    /// [`next_id`]: Runtime::next_id
    pub fn register(&self, t: CompiledTemplate, numbered: bool) -> Rc<CompiledTemplate> {
        let t = Rc::new(t);
        let number = numbered.then(|| self.number_template());
        let id = t.id as usize;
        let mut templates = self.templates.borrow_mut();
        let mut numbers = self.numbers.borrow_mut();
        if id < templates.len() {
            templates[id] = Some(t.clone());
            numbers[id] = number;
        } else {
            templates.push(Some(t.clone()));
            numbers.push(number);
        }
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
    pub(super) fn template_number(&self, id: u32) -> Option<u32> {
        self.numbers.borrow().get(id as usize).copied().flatten()
    }

    pub fn template(&self, id: u32) -> Option<Rc<CompiledTemplate>> {
        self.templates.borrow().get(id as usize).cloned().flatten()
    }

    /// The output of a root template once its code ran.
    pub fn take_result(&self, id: u32) -> Option<RootOutput> {
        self.contexts.take_result(id)
    }

    /// Forgets contexts left open by an evaluation that failed.
    pub fn reset_contexts(&self, depth: usize) {
        self.contexts.truncate(depth);
    }

    pub fn context_depth(&self) -> usize {
        self.contexts.depth()
    }

    pub(super) fn tpl(&self, id: u32) -> anyhow::Result<Rc<CompiledTemplate>> {
        self.template(id)
            .ok_or_else(|| anyhow!("internal error: unknown template {id}"))
    }

    /// The documents of template `id`'s next evaluation (as the run's template, not
    /// loaded) are written as YAML on another core as they are finished (see
    /// `emit::AheadWriter`); `None` stops that.
    pub fn write_ahead(&self, id: Option<u32>) {
        self.ahead_for.set(id);
    }

    /// Whether template `id`'s evaluation writes its documents ahead.
    pub(super) fn writes_ahead(&self, id: u32) -> bool {
        self.ahead_for.get() == Some(id)
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
    pub(super) fn evaluating_serial(&self) -> anyhow::Result<u32> {
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

    pub(super) fn annotate<'v>(
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
        let pos = Pos::new(t.file, line);
        (self.contexts).annotate(Arc::new(Annotation::new(name, pos, args, kwargs)))?;
        if name == ASSERT_VALIDATE {
            self.asserts.set(true);
        }
        Ok(())
    }

    /// `template.replace`: replaces the current node of `template` — the last node
    /// started in its innermost node context — by `r`'s items (see `eval::replace`).
    pub fn replace_current(&self, template: Option<u32>, r: Replacement) -> anyhow::Result<()> {
        self.contexts.replace_current(template, r)
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
pub fn names_of(eval: &Evaluator) -> FileNames {
    runtime_of(eval).map_or_else(|_| Default::default(), |rt| rt.names().clone())
}

/// The messages of the run `eval` belongs to (dropped outside a run).
pub fn messages_of(eval: &Evaluator) -> Messages {
    runtime_of(eval).map_or_else(|_| Messages::default(), Runtime::messages)
}
