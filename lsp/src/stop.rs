//! Stopping a run: when it passes its time budget, when an edit supersedes it, or when it
//! passes the memory budget.
//!
//! The engine's evaluators watch one flag, the allocator's (`Memory::passed`): raised, a
//! run stops at its next Starlark step (a loop iteration, a call) with an error located
//! at the template line it was on. The allocator raises it past the memory budget; this
//! module raises it for the other two reasons, and remembers which, so that the report
//! says why. A watchdog thread keeps the time budget; the server cancels a superseded
//! job. Only one run is analysed at a time (on the worker thread), so the flag stands for
//! that run: it is lowered (and the budget armed again) when the run ends.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::host::Memory;

/// Why a run was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Time(Duration),
    /// The budget, in bytes.
    Memory(usize),
    /// An edit came: the result would be dropped.
    Superseded,
}

impl Reason {
    /// What the report says in place of the engine's stop message.
    pub fn message(&self) -> String {
        match self {
            Reason::Time(limit) => format!(
                "the language server stopped the run after {} ms, its time limit (does a loop not end?)",
                limit.as_millis()
            ),
            Reason::Memory(limit) => format!(
                "the language server stopped the run: it needs more memory than the server's budget ({} MiB)",
                limit >> 20
            ),
            Reason::Superseded => "the run was superseded by an edit".to_owned(),
        }
    }
}

#[derive(Default)]
struct State {
    /// The job whose run is being analysed, and when its time is up.
    running: Option<(u64, Instant)>,
    /// Why the flag was raised (none when the allocator raised it).
    reason: Option<Reason>,
    /// Jobs to give up (only the latest counts: jobs run in order).
    cancelled: u64,
    /// The watchdog is to end.
    closed: bool,
}

/// The stop flag and what it was raised for; shared by the worker, its watchdog and the
/// server.
pub struct Stopper {
    memory: Memory,
    time_limit: Duration,
    memory_limit: usize,
    state: Mutex<State>,
    wake: Condvar,
}

impl Stopper {
    /// A stopper, and its watchdog started.
    pub fn start(memory: Memory, time_limit: Duration, memory_limit: usize) -> Arc<Stopper> {
        let stopper = Arc::new(Stopper {
            memory,
            time_limit,
            memory_limit,
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
        });
        let watched = stopper.clone();
        // without a watchdog, no time limit: a run would be stopped by an edit or memory
        let _ = std::thread::Builder::new()
            .name("ytt-lsp-watchdog".into())
            .spawn(move || watched.watch());
        stopper
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn memory(&self) -> Memory {
        self.memory
    }

    pub fn memory_limit(&self) -> usize {
        self.memory_limit
    }

    /// A run of `job` begins: the flag is down, the budgets armed, the clock started.
    pub fn begin(&self, job: u64) {
        let mut s = self.lock();
        (self.memory.set_limit)(self.memory_limit);
        (self.memory.rearm)();
        s.reason = None;
        s.running = Some((job, Instant::now() + self.time_limit));
        if s.cancelled >= job {
            s.reason = Some(Reason::Superseded);
            self.memory.passed.store(true, Ordering::Relaxed);
        }
        self.wake.notify_all();
    }

    /// Why the run going on was stopped, if the flag is up.
    pub fn reason(&self) -> Option<Reason> {
        let s = self.lock();
        if !self.memory.passed.load(Ordering::Relaxed) {
            return None;
        }
        Some(s.reason.unwrap_or(Reason::Memory(self.memory_limit)))
    }

    /// The run ended: the flag goes down (under the lock, so that a stop meant for it
    /// cannot reach the next one).
    pub fn end(&self) {
        let mut s = self.lock();
        s.running = None;
        s.reason = None;
        (self.memory.rearm)();
    }

    /// Gives up job `job` and those before it: its run going on is stopped, its runs to
    /// come are not started.
    pub fn cancel(&self, job: u64) {
        let mut s = self.lock();
        s.cancelled = s.cancelled.max(job);
        if matches!(s.running, Some((j, _)) if j <= job) {
            s.reason = Some(Reason::Superseded);
            self.memory.passed.store(true, Ordering::Relaxed);
        }
    }

    /// Whether job `job` was given up.
    pub fn cancelled(&self, job: u64) -> bool {
        self.lock().cancelled >= job
    }

    /// Ends the watchdog.
    pub fn close(&self) {
        self.lock().closed = true;
        self.wake.notify_all();
    }

    /// The watchdog: raises the flag when the run going on passes its time.
    fn watch(&self) {
        let mut s = self.lock();
        while !s.closed {
            s = match s.running {
                Some((_, deadline)) if s.reason.is_none() => {
                    let now = Instant::now();
                    if now >= deadline {
                        s.reason = Some(Reason::Time(self.time_limit));
                        self.memory.passed.store(true, Ordering::Relaxed);
                        continue;
                    }
                    self.wake
                        .wait_timeout(s, deadline - now)
                        .unwrap_or_else(|e| e.into_inner())
                        .0
                }
                _ => self.wake.wait(s).unwrap_or_else(|e| e.into_inner()),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    static PASSED: AtomicBool = AtomicBool::new(false);

    fn memory() -> Memory {
        Memory {
            held: || 0,
            set_limit: |_| {},
            passed: &PASSED,
            rearm: || PASSED.store(false, Ordering::Relaxed),
        }
    }

    // one test: the flag is a static
    #[test]
    fn runs_stop_for_time_edits_and_memory() {
        let s = Stopper::start(memory(), Duration::from_millis(50), 1 << 20);
        s.begin(1);
        assert_eq!(s.reason(), None);
        let waited = Instant::now();
        while s.reason().is_none() {
            assert!(
                waited.elapsed() < Duration::from_secs(10),
                "the watchdog raises the flag"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(s.reason(), Some(Reason::Time(Duration::from_millis(50))));
        s.end();
        assert!(!PASSED.load(Ordering::Relaxed));

        s.begin(2);
        s.cancel(2);
        assert_eq!(s.reason(), Some(Reason::Superseded));
        s.end();
        assert!(s.cancelled(2) && !s.cancelled(3));
        // a cancelled job's later runs stop at once
        s.begin(2);
        assert_eq!(s.reason(), Some(Reason::Superseded));
        s.end();

        s.begin(3);
        PASSED.store(true, Ordering::Relaxed);
        assert_eq!(s.reason(), Some(Reason::Memory(1 << 20)));
        s.end();
        s.close();
    }
}
