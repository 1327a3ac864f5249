//! Garbage collection inside long loops.
//!
//! starlark-rust collects garbage only between the top-level statements of a module, so
//! a loop kept everything it ever allocated: `x = x * 3` 200,000 times grew to 4.5 GB,
//! 20,000 string concatenations to 2 GB, a function building 200,000 strings in a loop
//! 67 MiB. The template compiler (`template::blocks`) therefore starts the body of every
//! loop, in a function or not, with `__ytt_gc()`: a collection point, a statement of its
//! own.
//!
//! The temporaries of the code calling `__ytt_gc()` are emptied first (but the iterators
//! of the loops around it): between statements they are dead, and a slot kept its last
//! value until reused (`s = s + x` kept the previous `s`, twice the memory).
//!
//! A collection moves every value of the module's heap, so it is sound only where every
//! value still in use is where the collector finds it. At a collection point it is when
//! the code on the call stack is the module's and `def`s called from Starlark code
//! (`Evaluator::collecting_is_sound`, a patch of the vendored starlark): their values
//! are then in the module's variables, on the call stack, or in their frames' slots —
//! locals and temporaries (a call's other arguments, a loop's iterator), which the
//! patched collector traces — and the runtime's own state holds YAML nodes, not Starlark
//! values. A native function between (`sorted` calling its `key`, `assert.try_to`), or
//! a function the runtime calls from outside any module (an overlay's matcher, a
//! validation rule) holds values the collector cannot see: there the loop runs without
//! collecting, as every loop did before.

use std::cell::RefCell;
use std::fmt;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::eval::Evaluator;
use starlark::values::{Heap, NoSerialize, StarlarkPagable, StarlarkValue, Value};
use starlark_derive::starlark_value;

/// When to collect next, for the modules of one run.
#[derive(Default)]
pub struct LoopGc {
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
    fn held(&self) -> usize {
        self.held.map_or(0, |count| count())
    }

    fn limit(&self) -> usize {
        self.limit.unwrap_or(usize::MAX)
    }

    /// Module `serial` ended.
    pub fn end_module(&self, serial: u32) {
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
        if !eval.collecting_is_sound() {
            return;
        }
        // SAFETY: see the module documentation: called by `__ytt_gc()`, a statement of
        // its own that holds no value, from code that only the collector's roots hold
        // values for.
        unsafe {
            eval.clear_temporaries_between_statements();
            eval.garbage_collect();
        }
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

/// The iterable of a `while` loop (a `for` over it, broken when the condition fails).
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
