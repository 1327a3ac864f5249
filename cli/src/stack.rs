//! The run's deep stack (`cmd::STACK_SIZE`: templates nest as deep as the limits allow):
//! a thread of that size for the commands that read templates and YAML (`cmd::run`), so
//! that the others (`ytt version`, help, completion) start none: the thread, its allocator
//! heap with fresh pages and its exit were a third of `ytt version`'s time beyond a
//! process start.
//!
//! Switching the main thread's stack pointer to a mapping instead (`psm`) started a
//! trivial render 0.1 ms sooner but made `package-inspect` 5–10 % and `package` 3–7 %
//! slower (interleaved medians of 61–81 runs, fewer instructions): kept as a thread.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::thread::Result as Caught;

/// `run()` on a thread with a stack of `size` bytes (reserved, not committed), its panic
/// caught; `None` when no such thread could be started (then `run` was not called).
pub fn on_stack_of<T: Send>(size: usize, run: impl FnOnce() -> T + Send) -> Option<Caught<T>> {
    let run = AssertUnwindSafe(run);
    std::thread::scope(|s| {
        let spawned = std::thread::Builder::new()
            .name("ytt".into())
            .stack_size(size)
            .spawn_scoped(s, move || catch_unwind(run));
        // the thread catches the run's panic: joining it succeeds
        spawned.ok().and_then(|handle| handle.join().ok())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deeper than a default thread stack (2 MiB here, 8 MiB for a main thread).
    #[test]
    fn runs_deep_recursion_and_returns_its_value() {
        fn depth(n: u64) -> u64 {
            let pad = std::hint::black_box([0u8; 1024]);
            if n == 0 {
                u64::from(pad[0])
            } else {
                1 + depth(n - 1)
            }
        }
        let got = on_stack_of(64 << 20, || depth(20_000)).expect("a stack");
        assert_eq!(got.ok(), Some(20_000));
    }

    #[test]
    fn a_panic_is_caught_and_returned() {
        let got = on_stack_of(1 << 20, || -> u8 { panic!("on the stack") }).expect("a stack");
        let panic = got.expect_err("panicked");
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"on the stack"));
    }

    #[test]
    fn no_stack_no_call() {
        let mut called = false;
        assert!(on_stack_of(usize::MAX - (1 << 20), || called = true).is_none());
        assert!(!called);
    }
}
