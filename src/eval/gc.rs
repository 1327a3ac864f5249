//! Garbage collection inside long loops.
//!
//! starlark-rust collects garbage only between the top-level statements of a module, so
//! a loop at a template's top level kept everything it ever allocated: `x = x * 3`
//! 200,000 times grew to 4.5 GB, 20,000 string concatenations to 2 GB. The template
//! compiler (`template::blocks`) therefore gives every loop outside a function:
//!
//! - `for x in __ytt_loop(iterable):` — the runtime learns what the loop iterates over;
//! - `__ytt_gc()` as the first statement of the body — a collection point;
//! - `__ytt_loop_end()` after the loop (reached after `break` too).
//!
//! A collection at that point is sound because of where it runs: in module code, not in
//! a function (the only Starlark frame is the module's, which the collector traces with
//! the module's variables), in an expression statement of its own (no temporary values
//! held), with the runtime's own state holding YAML nodes, not Starlark values. The one
//! thing the collector cannot see is what a running loop holds outside of Starlark's
//! slots: the iterable (and, for a mutable list or dict, its iteration lock). A
//! collection moves every value of the module's heap, so a loop holding a moved value
//! would read freed memory. A module therefore collects only while every loop it is in
//! runs over a value that never moves: a frozen value (data values, loaded values), or
//! one `__ytt_loop` puts on the module's frozen heap — a `range` (copied as a
//! [`LoopRange`]) and the [`Forever`] of `while` loops. A loop over anything else (a
//! list the template builds, a tuple) runs as before, without collecting.

use std::cell::{Cell, RefCell};
use std::fmt;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::eval::Evaluator;
use starlark::values::{Heap, NoSerialize, StarlarkPagable, StarlarkValue, Value};
use starlark_derive::starlark_value;

/// The arena size below which no collection runs, and the least growth of memory held in
/// large blocks (strings, big ints) between two collections.
const MIN_ARENA: usize = 128 << 10;
const MIN_GROWTH: usize = 4 << 20;

/// The loops being run and when to collect next, for the modules of one run.
#[derive(Default)]
pub struct LoopGc {
    /// Loops entered and not yet left: (serial of the module running it, its iterable
    /// never moves: collecting is sound while it runs).
    loops: RefCell<Vec<(u32, bool)>>,
    /// Collect when the module's heap reaches this many bytes, or the process holds this
    /// many bytes in large blocks (as `held` counts them).
    next: Cell<Option<(usize, usize)>>,
    /// The bytes the process holds in large blocks, where the embedder's allocator counts
    /// them (the command line's does); without it the heap's size alone decides.
    pub held: Option<fn() -> usize>,
}

impl LoopGc {
    /// A loop of module `serial` starts; `fixed`: its iterable never moves (see
    /// [`loop_iterable`]).
    pub fn enter(&self, serial: u32, fixed: bool) {
        self.loops.borrow_mut().push((serial, fixed));
    }

    /// The innermost loop of module `serial` ended.
    pub fn leave(&self, serial: u32) {
        let mut loops = self.loops.borrow_mut();
        if let Some(i) = loops.iter().rposition(|(s, _)| *s == serial) {
            loops.remove(i);
        }
    }

    fn held(&self) -> usize {
        self.held.map_or(0, |count| count())
    }

    /// Module `serial` ended (also in the middle of a loop, on an error).
    pub fn end_module(&self, serial: u32) {
        self.loops.borrow_mut().retain(|(s, _)| *s != serial);
    }

    /// A collection point of module `serial`: collects when memory grew enough since the
    /// last collection and collecting is sound here.
    pub fn point(&self, serial: u32, eval: &mut Evaluator) {
        let arena = eval.heap().allocated_bytes();
        let held = self.held();
        let (next_arena, next_held) = match self.next.get() {
            Some(next) => next,
            None => {
                let first = (MIN_ARENA, held.saturating_add(MIN_GROWTH));
                self.next.set(Some(first));
                first
            }
        };
        if arena < next_arena && held < next_held {
            return;
        }
        let sound = self
            .loops
            .borrow()
            .iter()
            .filter(|(s, _)| *s == serial)
            .all(|(_, fixed)| *fixed);
        // on the call stack: the module's code and `__ytt_gc()`, no function between
        if !sound || eval.call_stack_count() != 2 {
            return;
        }
        // SAFETY: see the module documentation: module code, a statement of its own,
        // every loop running over a value that does not move.
        unsafe { eval.garbage_collect() };
        let (arena, held) = (eval.heap().allocated_bytes(), self.held());
        self.next.set(Some((
            (arena * 2).max(MIN_ARENA),
            held.saturating_add(held.max(MIN_GROWTH)),
        )));
    }
}

/// The iterable a loop outside any function runs over, and whether it never moves: a
/// frozen value as it is, a `range` copied to the module's frozen heap; anything else as
/// it is, not fixed.
pub fn loop_iterable<'v>(
    over: Value<'v>,
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<(Value<'v>, bool)> {
    if over.unpack_frozen().is_some() {
        return Ok((over, true));
    }
    if over.get_type() == "range" {
        let heap = eval.heap();
        let len = over.length()?;
        let at = |i: i32| -> starlark::Result<i32> {
            let v = over.at(heap.alloc(i), heap)?;
            v.unpack_i32()
                .ok_or_else(|| starlark::Error::new_other(anyhow::anyhow!("range item {v}")))
        };
        let start = if len > 0 { at(0)? } else { 0 };
        let step = if len > 1 { at(1)? - start } else { 1 };
        let range = LoopRange { start, step, len };
        return Ok((eval.frozen_heap().alloc_simple(range).to_value(), true));
    }
    Ok((over, false))
}

/// The iterable of a `while` loop, on the module's frozen heap (it never moves).
pub fn forever<'v>(eval: &mut Evaluator<'v, '_, '_>) -> Value<'v> {
    eval.frozen_heap().alloc_simple(Forever).to_value()
}

/// Infinite iterator behind `while` loops.
#[derive(Debug, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative)]
pub struct Forever;

impl fmt::Display for Forever {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("forever")
    }
}

#[starlark_value(type = "forever")]
impl<'v> StarlarkValue<'v> for Forever {
    unsafe fn iterate(&self, me: Value<'v>, _heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        Ok(me)
    }
    unsafe fn iter_next(&self, _index: usize, _heap: Heap<'v>) -> Option<Value<'v>> {
        Some(Value::new_none())
    }
    unsafe fn iter_stop(&self) {}
}

/// A `range` a loop runs over, as a value of the frozen heap: `len` integers from
/// `start`, `step` apart.
#[derive(Debug, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative)]
pub struct LoopRange {
    start: i32,
    step: i32,
    len: i32,
}

impl fmt::Display for LoopRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "range({}, {} items)", self.start, self.len)
    }
}

#[starlark_value(type = "range")]
impl<'v> StarlarkValue<'v> for LoopRange {
    unsafe fn iterate(&self, me: Value<'v>, _heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        Ok(me)
    }
    unsafe fn iter_next(&self, index: usize, heap: Heap<'v>) -> Option<Value<'v>> {
        let i = i32::try_from(index).ok().filter(|&i| i < self.len)?;
        // within the range's bounds, which are i32
        Some(heap.alloc(self.start + i * self.step))
    }
    unsafe fn iter_stop(&self) {}
}
