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
    let take_units = || take_units(&next, units, &work);
    let mut slots = empty_slots(units);
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
        fill(&mut slots, done);
    });
    slots
}

/// Units of work a helper thread starts on at once while the caller goes on with
/// something else; the caller joins in when it needs the results ([`Background::finish`]).
/// Slots are as [`on_cores`] gives them.
pub(crate) struct Background<T> {
    shared: Arc<Shared<T>>,
    helper: Option<std::thread::JoinHandle<Vec<(usize, T)>>>,
}

struct Shared<T> {
    next: AtomicUsize,
    units: usize,
    work: Box<dyn Fn(usize) -> Option<T> + Send + Sync>,
}

impl<T: Send + 'static> Background<T> {
    /// Starts a helper thread named `name`, with `stack` bytes of stack, on the units.
    /// Where none can be started, the caller does them all when it finishes.
    pub(crate) fn start(
        name: &str,
        stack: usize,
        units: usize,
        work: impl Fn(usize) -> Option<T> + Send + Sync + 'static,
    ) -> Self {
        let shared = Arc::new(Shared {
            next: AtomicUsize::new(0),
            units,
            work: Box::new(work),
        });
        let theirs = shared.clone();
        let helper = std::thread::Builder::new()
            .name(name.into())
            .stack_size(stack)
            .spawn(move || take_units(&theirs.next, theirs.units, &theirs.work))
            .ok();
        Background { shared, helper }
    }

    /// Takes the units left, then waits for the helper's: every unit's slot.
    pub(crate) fn finish(self) -> Vec<Option<T>> {
        let shared = &self.shared;
        let mut done = take_units(&shared.next, shared.units, &shared.work);
        if let Some(h) = self.helper {
            done.extend(h.join().unwrap_or_default());
        }
        let mut slots = empty_slots(shared.units);
        fill(&mut slots, done);
        slots
    }
}

/// Does units taken in turn from `next` until none is left: those that gave something.
fn take_units<T>(
    next: &AtomicUsize,
    units: usize,
    work: impl Fn(usize) -> Option<T>,
) -> Vec<(usize, T)> {
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
}

fn empty_slots<T>(units: usize) -> Vec<Option<T>> {
    (0..units).map(|_| None).collect()
}

fn fill<T>(slots: &mut [Option<T>], done: Vec<(usize, T)>) {
    for (u, t) in done {
        slots[u] = Some(t);
    }
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
    fn background_units_are_done_once_whoever_takes_them() {
        for units in [0, 1, 7, 100] {
            let started = Background::start("t", 1 << 20, units, |u| (u % 3 != 0).then_some(u * u));
            let slots = started.finish();
            assert_eq!(slots.len(), units);
            for (u, s) in slots.into_iter().enumerate() {
                assert_eq!(s, (u % 3 != 0).then_some(u * u));
            }
        }
    }
}
