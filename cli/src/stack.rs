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
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::Result as Caught;

/// `run()` on a thread with a stack of `size` bytes (reserved, not committed), its panic
/// caught; on this thread where no such thread can be started.
pub fn on_stack_of<T: Send>(size: usize, run: impl FnOnce() -> T + Send) -> Caught<T> {
    let mut run = Some(run);
    let mut once = || run.take().map(|run| catch_unwind(AssertUnwindSafe(run)));
    let done = std::thread::scope(|s| {
        let spawned = std::thread::Builder::new()
            .name("ytt".into())
            .stack_size(size)
            .spawn_scoped(s, &mut once);
        // the thread catches the run's panic: joining it succeeds
        spawned.ok().and_then(|handle| handle.join().ok()).flatten()
    });
    // not started: the run is still to be done
    done.unwrap_or_else(|| once().unwrap_or_else(|| Err(Box::new("the run was lost"))))
}

/// Starts `warm` on a thread of its own, the first time only, that nobody waits for: the
/// process ends when its run does, whether `warm` is done or not. For what a run will
/// need and builds once per process (it waits for the part not built by then): started
/// while the run does other work, it is built on the core the run leaves idle. (A new
/// thread goes to the idle core; waking the waiting main thread put it beside the run.)
pub fn build_meanwhile(warm: fn()) {
    static STARTED: AtomicBool = AtomicBool::new(false);
    if !STARTED.swap(true, Ordering::Relaxed) {
        // (if it cannot start, the run builds what it needs itself)
        let _ = std::thread::Builder::new()
            .name("ytt-warm".into())
            .spawn(warm);
    }
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
        assert_eq!(on_stack_of(64 << 20, || depth(20_000)).ok(), Some(20_000));
    }

    #[test]
    fn a_panic_is_caught_and_returned() {
        let got = on_stack_of(1 << 20, || -> u8 { panic!("on the stack") });
        let panic = got.expect_err("panicked");
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"on the stack"));
    }

    /// `build_meanwhile` starts its work once per process, whoever asks.
    #[test]
    fn what_is_built_meanwhile_is_built_once() {
        static BUILT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        fn build() {
            BUILT.fetch_add(1, Ordering::SeqCst);
        }
        build_meanwhile(build);
        build_meanwhile(build);
        let started = std::time::Instant::now();
        while BUILT.load(Ordering::SeqCst) == 0 && started.elapsed().as_secs() < 30 {
            std::thread::yield_now();
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert_eq!(BUILT.load(Ordering::SeqCst), 1);
    }

    /// No thread with such a stack can start: the run is done on the caller's.
    #[test]
    fn runs_here_when_no_thread_can_start() {
        let here = std::thread::current().id();
        let got = on_stack_of(usize::MAX - (1 << 20), || std::thread::current().id());
        assert_eq!(got.ok(), Some(here));
    }
}
