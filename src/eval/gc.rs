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

use std::cell::RefCell;
use std::fmt;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::eval::Evaluator;
use starlark::values::{Heap, NoSerialize, StarlarkPagable, StarlarkValue, Value};
use starlark_derive::starlark_value;

/// The loops being run and when to collect next, for the modules of one run.
#[derive(Default)]
pub struct LoopGc {
    /// Loops entered and not yet left: (serial of the module running it, its iterable
    /// never moves: collecting is sound while it runs).
    loops: RefCell<Vec<(u32, bool)>>,
    /// When the next collection of a module's heap is due, by module serial; set at the
    /// module's first collection point.
    next: RefCell<Vec<(u32, Schedule)>>,
    /// The bytes the process holds in large blocks, where the embedder's allocator counts
    /// them (the command line's does); without it the heap's size alone decides.
    pub held: Option<fn() -> usize>,
    /// The embedder's memory budget, in the bytes `held` counts: collections come before
    /// garbage would pass it.
    pub limit: Option<usize>,
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

    fn limit(&self) -> usize {
        self.limit.unwrap_or(usize::MAX)
    }

    /// Module `serial` ended (also in the middle of a loop, on an error).
    pub fn end_module(&self, serial: u32) {
        self.loops.borrow_mut().retain(|(s, _)| *s != serial);
        self.next.borrow_mut().retain(|(s, _)| *s != serial);
    }

    fn schedule(&self, serial: u32) -> Option<Schedule> {
        let next = self.next.borrow();
        next.iter()
            .rev()
            .find(|(s, _)| *s == serial)
            .map(|(_, n)| *n)
    }

    fn set_schedule(&self, serial: u32, schedule: Schedule) {
        let mut next = self.next.borrow_mut();
        match next.iter_mut().rev().find(|(s, _)| *s == serial) {
            Some((_, n)) => *n = schedule,
            None => next.push((serial, schedule)),
        }
    }

    /// A collection point of module `serial`: collects when memory grew enough since the
    /// last collection and collecting is sound here.
    pub fn point(&self, serial: u32, eval: &mut Evaluator) {
        let (arena, held) = (eval.heap().allocated_bytes(), self.held());
        let next = self.schedule(serial).unwrap_or_else(|| {
            let first = Schedule::first(arena, held, self.limit());
            self.set_schedule(serial, first);
            first
        });
        if !next.due(arena, held) {
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
        self.set_schedule(serial, Schedule::after(arena, held, self.limit()));
    }
}

/// The least growth of the heap, and of the memory held outside it, between two
/// collections.
const MIN_ARENA: usize = 128 << 10;
const MIN_GROWTH: usize = 4 << 20;

/// When a collection is due, from what the last one kept. A collection costs what is
/// live, so each threshold is a multiple of what was live after the last one: the cost of
/// collecting stays proportional to the work done between collections.
///
/// The heap (an arena: nothing is freed until a collection) is collected once it grew
/// past three times what the last collection kept, and `MIN_ARENA` more. A collection
/// trims a list's array to its length, and the next `append` allocates an array of twice
/// that length, in a chunk at most twice the heap's last: right after a collection, the
/// heap of a loop appending to a list may be three times what was kept, and a page.
/// Collecting there would copy the whole list at every iteration; past it, the list has
/// at least doubled since. The memory held outside the heap in large blocks (the digits
/// of big integers, the tables of dicts) is collected once it doubled.
///
/// Near the memory budget, garbage must not pass it (the run would stop): each threshold
/// is at most half the room left, so that collections come more often as live memory
/// nears the budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Schedule {
    /// Collect when the heap passes this many bytes...
    arena: usize,
    /// ... or the large blocks held outside the heap this many.
    outside: usize,
}

impl Schedule {
    /// Before a module's first collection: when its heap is no longer small, or the
    /// memory outside it grew from where the first loop started.
    fn first(arena: usize, held: usize, limit: usize) -> Self {
        let room = limit.saturating_sub(held) / 2;
        Self {
            arena: MIN_ARENA.min(arena.saturating_add(room)),
            outside: held
                .saturating_sub(arena)
                .saturating_add(MIN_GROWTH.min(room)),
        }
    }

    /// After a collection that kept `arena` bytes of heap, with `held` bytes held in
    /// large blocks (the heap's own included).
    fn after(arena: usize, held: usize, limit: usize) -> Self {
        let room = limit.saturating_sub(held) / 2;
        let outside = held.saturating_sub(arena);
        let arena_growth = arena.saturating_mul(2).saturating_add(MIN_ARENA);
        Self {
            arena: arena.saturating_add(arena_growth.min(room)),
            outside: outside.saturating_add(outside.max(MIN_GROWTH).min(room)),
        }
    }

    fn due(self, arena: usize, held: usize) -> bool {
        arena > self.arena || held.saturating_sub(arena) >= self.outside
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

#[cfg(test)]
mod tests {
    use super::*;

    const NO_LIMIT: usize = usize::MAX;

    #[test]
    fn thresholds_grow_with_what_a_collection_kept() {
        let s = Schedule::after(8 << 20, 20 << 20, NO_LIMIT);
        assert_eq!(s.arena, (24 << 20) + MIN_ARENA);
        assert_eq!(s.outside, 24 << 20);
        assert!(!s.due((24 << 20) + MIN_ARENA, (36 << 20) - 1));
        assert!(s.due((25 << 20) + MIN_ARENA, 40 << 20));
        assert!(s.due(8 << 20, 32 << 20));
        // small heaps and little memory outside them: the least growth
        let s = Schedule::after(1 << 10, 2 << 10, NO_LIMIT);
        assert_eq!(
            (s.arena, s.outside),
            ((3 << 10) + MIN_ARENA, (1 << 10) + MIN_GROWTH)
        );
        let s = Schedule::first(4 << 10, 10 << 20, NO_LIMIT);
        assert_eq!(
            (s.arena, s.outside),
            (MIN_ARENA, (10 << 20) - (4 << 10) + MIN_GROWTH)
        );
    }

    /// A loop appending to a list, as starlark-rust grows it (an array of twice the
    /// length when full, allocated on the heap; trimmed to its length by a collection):
    /// the collections copy a bounded multiple of the final list in all, and are few.
    #[test]
    fn a_growing_list_is_collected_in_amortised_linear_time() {
        const WORD: usize = 8;
        let n = 1_000_000;
        let (mut len, mut cap, mut arena) = (0usize, 0usize, 0usize);
        let mut next = Schedule::first(arena, arena, NO_LIMIT);
        let (mut copied, mut collections) = (0, 0);
        for _ in 0..n {
            if next.due(arena, arena) {
                arena = len * WORD;
                cap = len;
                copied += arena;
                collections += 1;
                next = Schedule::after(arena, arena, NO_LIMIT);
            }
            if len == cap {
                cap = (len * 2).max(len + 1).max(4);
                arena += cap * WORD;
            }
            len += 1;
        }
        assert!(copied <= 4 * n * WORD, "{copied} bytes copied");
        assert!(collections <= 20, "{collections} collections");
    }

    /// Memory outside the heap that grows (a dict's table): collected when it doubled.
    #[test]
    fn memory_outside_the_heap_is_collected_when_it_doubled() {
        let arena = 64 << 10;
        let mut next = Schedule::after(arena, arena, NO_LIMIT);
        let mut collections = 0;
        for mib in 1..=1024usize {
            let held = arena + (mib << 20);
            if next.due(arena, held) {
                collections += 1;
                next = Schedule::after(arena, held, NO_LIMIT);
            }
        }
        // at 4, 8, 16, ... 1024 MiB
        assert_eq!(collections, 9);
    }

    /// Near the budget, collections come before garbage passes it: a loop that keeps
    /// 40 MiB and makes 1 MiB of garbage an iteration, within 64 MiB.
    #[test]
    fn garbage_does_not_pass_the_budget() {
        let limit = 64 << 20;
        let live = 40 << 20;
        let mut arena = live;
        let mut next = Schedule::after(arena, arena, limit);
        let mut collections = 0;
        for _ in 0..1000 {
            arena += 1 << 20;
            assert!(arena <= limit, "{arena} bytes held");
            if next.due(arena, arena) {
                arena = live;
                collections += 1;
                next = Schedule::after(arena, arena, limit);
            }
        }
        // every thirteen iterations (past half the 24 MiB left)
        assert_eq!(collections, 1000 / 13);
    }
}
