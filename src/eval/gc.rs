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
//! root the collector cannot see is the iteration lock a mutable list or dict carries
//! while a loop runs over it (its copy would start unlocked, and the loop's end would
//! unlock it a second time): so a module collects only while every loop it is in
//! iterates over a value that has no such lock — a frozen value (data values, loaded
//! values; never moved), a tuple, a `range` or a `while` loop. A loop over a list the
//! template builds runs as before, without collecting.

use std::cell::{Cell, RefCell};

use starlark::eval::Evaluator;
use starlark::values::Value;

/// The arena size below which no collection runs, and the least growth of memory held in
/// large blocks (strings, big ints) between two collections.
const MIN_ARENA: usize = 128 << 10;
const MIN_GROWTH: usize = 4 << 20;

/// The loops being run and when to collect next, for the modules of one run.
#[derive(Default)]
pub struct LoopGc {
    /// Loops entered and not yet left: (serial of the module running it, collecting is
    /// sound while it runs).
    loops: RefCell<Vec<(u32, bool)>>,
    /// Collect when the module's heap reaches this many bytes, or the process holds this
    /// many bytes in large blocks (`crate::memory::counted`).
    next: Cell<Option<(usize, usize)>>,
}

impl LoopGc {
    /// A loop of module `serial` starts iterating over `over`.
    pub fn enter(&self, serial: u32, over: Value) {
        let lock_free = over.unpack_frozen().is_some()
            || matches!(over.get_type(), "tuple" | "range" | "forever");
        self.loops.borrow_mut().push((serial, lock_free));
    }

    /// The innermost loop of module `serial` ended.
    pub fn leave(&self, serial: u32) {
        let mut loops = self.loops.borrow_mut();
        if let Some(i) = loops.iter().rposition(|(s, _)| *s == serial) {
            loops.remove(i);
        }
    }

    /// Module `serial` ended (also in the middle of a loop, on an error).
    pub fn end_module(&self, serial: u32) {
        self.loops.borrow_mut().retain(|(s, _)| *s != serial);
    }

    /// A collection point of module `serial`: collects when memory grew enough since the
    /// last collection and collecting is sound here.
    pub fn point(&self, serial: u32, eval: &mut Evaluator) {
        let arena = eval.heap().allocated_bytes();
        let held = crate::memory::counted();
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
            .all(|(_, lock_free)| *lock_free);
        // on the call stack: the module's code and `__ytt_gc()`, no function between
        if !sound || eval.call_stack_count() != 2 {
            return;
        }
        // SAFETY: see the module documentation: module code, a statement of its own,
        // every loop running over a value without an iteration lock.
        unsafe { eval.garbage_collect() };
        let (arena, held) = (eval.heap().allocated_bytes(), crate::memory::counted());
        self.next.set(Some((
            (arena * 2).max(MIN_ARENA),
            held.saturating_add(held.max(MIN_GROWTH)),
        )));
    }
}
