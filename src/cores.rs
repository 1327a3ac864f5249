//! Work spread over the cores: units taken in turn from a shared counter by helper
//! threads and the calling thread, so that uneven units balance without measuring them.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The stack a run gets (reserved, not committed): templates, values and trees nest up to
/// the parser's limit (`yaml::parser::MAX_DEPTH`), and every step recurses as deep; the
/// template compiler bounds the code it hands starlark-rust by it
/// (`template::nesting::MAX_NESTING`). WebAssembly has no threads: there it is the stack
/// the module is linked with (the playground's `build.rs`).
#[cfg(not(target_arch = "wasm32"))]
pub const RUN_STACK: usize = 256 << 20;
#[cfg(target_arch = "wasm32")]
pub const RUN_STACK: usize = 32 << 20;

/// Stack of a helper thread whose work recurses as deep as a tree nests (parsing,
/// checking or freeing one): nesting is bounded (`yaml::parser::MAX_DEPTH`).
pub(crate) const TREE_STACK: usize = 64 << 20;

/// How many cores the process may use (1 when that cannot be known).
pub(crate) fn available() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `work(u)` for every unit `u` in `0..units`, on `threads` threads (the caller's
/// included) named `name` with `stack` bytes of stack. A unit's slot is `None` when its
/// work gave nothing, or when the helper that took it panicked or could not start (the
/// caller does those itself afterwards, in order); a panic of the caller's own work
/// propagates.
pub(crate) fn on_cores<T: Send>(
    threads: usize,
    name: &str,
    stack: usize,
    units: usize,
    work: impl Fn(usize) -> Option<T> + Sync,
) -> Vec<Option<T>> {
    let next = AtomicUsize::new(0);
    let take_units = || {
        let mut done = Vec::new();
        loop {
            let u = next.fetch_add(1, Ordering::Relaxed);
            if u >= units {
                return done;
            }
            if let Some(t) = work(u) {
                done.push((u, t));
            }
        }
    };
    let mut slots: Vec<Option<T>> = (0..units).map(|_| None).collect();
    std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads.min(units))
            .filter_map(|_| {
                std::thread::Builder::new()
                    .name(name.into())
                    .stack_size(stack)
                    .spawn_scoped(s, take_units)
                    .ok()
            })
            .collect();
        let mut done = take_units();
        for h in helpers {
            done.extend(h.join().unwrap_or_default());
        }
        for (u, t) in done {
            slots[u] = Some(t);
        }
    });
    slots
}

/// Units a helper thread works through in order while the caller goes on; the caller
/// takes each unit's result when it needs it ([`Pipeline::take`]), doing itself a unit
/// the helper has not started. A panic of the helper's work propagates to the caller
/// that takes that unit. Dropping the pipeline stops the helper after its current unit.
pub(crate) struct Pipeline<I: Send + 'static, T: Send + 'static> {
    shared: Arc<Line<I, T>>,
    helper: Option<std::thread::JoinHandle<()>>,
}

struct Line<I, T> {
    slots: std::sync::Mutex<Vec<Slot<I, T>>>,
    changed: std::sync::Condvar,
    work: Box<dyn Fn(I) -> T + Send + Sync>,
}

enum Slot<I, T> {
    Waiting(I),
    Running,
    Done(std::thread::Result<T>),
    Taken,
}

impl<I: Send + 'static, T: Send + 'static> Pipeline<I, T> {
    /// Starts a helper thread named `name`, with `stack` bytes of stack, doing `work`
    /// on each input in order. Where none can be started, the caller does every unit.
    pub(crate) fn start(
        name: &str,
        stack: usize,
        inputs: Vec<I>,
        work: impl Fn(I) -> T + Send + Sync + 'static,
    ) -> Self {
        let shared = Arc::new(Line {
            slots: std::sync::Mutex::new(inputs.into_iter().map(Slot::Waiting).collect()),
            changed: std::sync::Condvar::new(),
            work: Box::new(work),
        });
        let line = shared.clone();
        let helper = std::thread::Builder::new()
            .name(name.into())
            .stack_size(stack)
            .spawn(move || line.work_through())
            .ok();
        Pipeline { shared, helper }
    }

    /// Whether the helper is still at work.
    pub(crate) fn busy(&self) -> bool {
        self.helper.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Every unit's result, in order, for a caller that needs them all at once: it takes
    /// them from the last, doing those the helper (working from the first) has not
    /// reached, then waits only for the one the helper is at. `None` for a unit taken
    /// before.
    pub(crate) fn take_all(&self) -> Vec<Option<T>> {
        let units = lock(&self.shared.slots).len();
        let mut all: Vec<Option<T>> = (0..units).rev().map(|k| self.take(k)).collect();
        all.reverse();
        all
    }

    /// Unit `k`'s result: the helper's (waited for while it runs), or done here when
    /// the helper has not started it. `None` when it was taken before.
    pub(crate) fn take(&self, k: usize) -> Option<T> {
        let line = &self.shared;
        let mut slots = lock(&line.slots);
        loop {
            match std::mem::replace(slots.get_mut(k)?, Slot::Taken) {
                Slot::Waiting(input) => {
                    drop(slots);
                    return Some((line.work)(input));
                }
                Slot::Running => {
                    slots[k] = Slot::Running;
                    slots = line.changed.wait(slots).unwrap_or_else(|e| e.into_inner());
                }
                Slot::Done(Ok(t)) => return Some(t),
                Slot::Done(Err(panic)) => std::panic::resume_unwind(panic),
                Slot::Taken => return None,
            }
        }
    }
}

impl<I, T> Line<I, T> {
    /// The helper's loop: the first unit waiting, one after the other; it ends when
    /// none is left (the caller took them, or the pipeline was dropped).
    fn work_through(&self) {
        let mut next = 0;
        loop {
            let input = {
                let mut slots = lock(&self.slots);
                let Some(k) = (next..slots.len()).find(|&k| matches!(slots[k], Slot::Waiting(_)))
                else {
                    return;
                };
                next = k + 1;
                match std::mem::replace(&mut slots[k], Slot::Running) {
                    Slot::Waiting(input) => (k, input),
                    _ => return,
                }
            };
            let (k, input) = input;
            let done =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (self.work)(input)));
            lock(&self.slots)[k] = Slot::Done(done);
            self.changed.notify_all();
        }
    }
}

impl<I: Send + 'static, T: Send + 'static> Drop for Pipeline<I, T> {
    fn drop(&mut self) {
        // units not started are not wanted any more: the helper ends after its current one
        for slot in lock(&self.shared.slots).iter_mut() {
            if matches!(slot, Slot::Waiting(_)) {
                *slot = Slot::Taken;
            }
        }
        if let Some(h) = self.helper.take() {
            let _ = h.join();
        }
    }
}

fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_unit_is_done_once_in_its_slot() {
        for threads in [1, 2, 4] {
            let slots = on_cores(threads, "t", 1 << 20, 100, |u| {
                (u % 3 != 0).then_some(u * u)
            });
            assert_eq!(slots.len(), 100);
            for (u, s) in slots.into_iter().enumerate() {
                assert_eq!(s, (u % 3 != 0).then_some(u * u));
            }
        }
        assert!(on_cores(2, "t", 1 << 20, 0, Some).is_empty());
    }

    #[test]
    fn a_pipeline_gives_each_unit_once_whoever_does_it() {
        for units in [0, 1, 2, 50] {
            let line = Pipeline::start("t", 1 << 20, (0..units).collect(), |u: usize| u * u);
            // taken out of order too: the helper may not have started the last one
            if units > 0 {
                assert_eq!(line.take(units - 1), Some((units - 1) * (units - 1)));
            }
            for u in 0..units.saturating_sub(1) {
                assert_eq!(line.take(u), Some(u * u));
            }
            assert_eq!(line.take(0), None);
            assert_eq!(line.take(units), None);
        }
        // dropped with units left
        drop(Pipeline::start(
            "t",
            1 << 20,
            (0..100).collect(),
            |u: usize| u,
        ));
        // all at once, some taken before
        for units in [0, 1, 7, 100] {
            let line = Pipeline::start("t", 1 << 20, (0..units).collect(), |u: usize| u * u);
            let _ = line.take(units / 2);
            let all = line.take_all();
            assert_eq!(all.len(), units);
            for (u, s) in all.into_iter().enumerate() {
                assert_eq!(s, (u != units / 2).then_some(u * u));
            }
        }
    }

    #[test]
    fn a_panic_of_the_helper_reaches_the_caller_taking_its_unit() {
        let line = Pipeline::start("t", 1 << 20, vec![0, 1], |u: usize| {
            assert!(u != 0, "unit 0");
            u
        });
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| line.take(0)));
        assert!(caught.is_err());
        assert_eq!(line.take(1), Some(1));
    }
}
