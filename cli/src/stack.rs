//! The run's deep stack (`cmd::STACK_SIZE`: templates nest as deep as the limits allow)
//! without a thread of its own.
//!
//! On Linux the calling thread's stack pointer moves to a fresh mapping for the call
//! (`psm`): a thread cost a trivial run (`ytt version`, `ytt -f a.yml`) more than a tenth of
//! its time — its start, a second allocator heap whose first pages are all fresh, its exit.
//! (`stacker`, which does the same, first asks where the current stack ends, which glibc
//! answers for the main thread by parsing `/proc/self/maps`: as much again.) Elsewhere, a
//! thread.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::thread::Result as Caught;

/// `run()` on a stack of `size` bytes (reserved, not committed), its panic caught; `None`
/// when no such stack could be had (then `run` was not called).
pub fn on_stack_of<T: Send>(size: usize, run: impl FnOnce() -> T + Send) -> Option<Caught<T>> {
    let run = AssertUnwindSafe(run);
    imp::on_stack_of(size, move || catch_unwind(run))
}

#[cfg(target_os = "linux")]
mod imp {
    /// `run` (which must not unwind) on a mapping of `size` bytes with a guard page
    /// below it, unmapped afterwards.
    pub fn on_stack_of<T>(size: usize, run: impl FnOnce() -> T) -> Option<T> {
        // SAFETY: sysconf only reads a constant of the system.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) })
            .ok()
            .filter(|p| p.is_power_of_two())?;
        let size = size.checked_next_multiple_of(page)?;
        let len = size.checked_add(page)?;
        // SAFETY: a new private anonymous mapping, touching no memory of the process.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_STACK,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let mapping = Mapping { base, len };
        // SAFETY: the lowest page of the mapping just made: an overflow faults there
        // instead of running into other memory.
        if unsafe { libc::mprotect(base, page, libc::PROT_NONE) } != 0 {
            return None;
        }
        // SAFETY: the stack is the mapping above its guard page, page-aligned, a multiple
        // of the page size, and only used during the call; `run` does not unwind (the
        // caller catches its panics).
        let out = unsafe { psm::on_stack(mapping.base.cast::<u8>().add(page), size, run) };
        drop(mapping);
        Some(out)
    }

    struct Mapping {
        base: *mut libc::c_void,
        len: usize,
    }

    impl Drop for Mapping {
        fn drop(&mut self) {
            // SAFETY: the mapping made above, no longer in use.
            unsafe { libc::munmap(self.base, self.len) };
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub fn on_stack_of<T: Send>(size: usize, run: impl FnOnce() -> T + Send) -> Option<T> {
        std::thread::scope(|s| {
            let spawned = std::thread::Builder::new()
                .name("ytt".into())
                .stack_size(size)
                .spawn_scoped(s, run);
            spawned.ok().and_then(|handle| handle.join().ok())
        })
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
        assert!(on_stack_of(usize::MAX - 1, || called = true).is_none());
        assert!(!called);
    }
}
