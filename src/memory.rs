//! A memory budget for a run (`--max-memory`): a runaway template (`[1] * 2147483647`, a
//! string doubled in a loop, an alias bomb) ends with a clear error and exit code 1 instead
//! of an abort in the allocator or the OOM killer.
//!
//! The binary's global allocator is [`Budgeted`]: mimalloc, counting the bytes held in
//! large blocks. Large blocks are where memory goes when it runs away — the Starlark heap
//! grows in large chunks, big lists, strings and integers are single blocks — while small
//! ones are most allocations: counting only blocks of at least [`COUNTED_FROM`] bytes
//! keeps the count off the hot path (measured: no change in the benchmarks' time).

use std::alloc::{GlobalAlloc, Layout};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Blocks from this size on are counted.
const COUNTED_FROM: usize = 4096;

/// The budget when `--max-memory` is not given: far above any configuration's needs
/// (the largest benchmark peaks under 200 MiB; 3 GiB), and no more than half the machine's
/// memory, so that the run stops before the OOM killer would.
pub fn default_limit() -> usize {
    const CAP: usize = 3 << 30;
    physical_memory().map_or(CAP, |total| CAP.min(total / 2))
}

/// The machine's memory, where the system says it (Linux: `MemTotal`).
fn physical_memory() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

static LIMIT: AtomicUsize = AtomicUsize::new(4 << 30);
static COUNTED: AtomicUsize = AtomicUsize::new(0);

/// Sets the budget in bytes (`--max-memory`); 0 means no limit.
pub fn set_limit(bytes: usize) {
    LIMIT.store(
        if bytes == 0 { usize::MAX } else { bytes },
        Ordering::Relaxed,
    );
}

/// The bytes counted so far (large blocks held).
pub fn counted() -> usize {
    COUNTED.load(Ordering::Relaxed)
}

/// Parses a `--max-memory` size: bytes, or with a unit `K`/`M`/`G` (powers of 1024,
/// optionally followed by `i`/`iB`/`B`).
pub fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let digits = t.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = &t[digits.len()..];
    let n: usize = digits
        .trim()
        .parse()
        .map_err(|_| format!("Expected a size such as 512M or 4G, but was '{s}'"))?;
    let shift = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KI" | "KB" | "KIB" => 10,
        "M" | "MI" | "MB" | "MIB" => 20,
        "G" | "GI" | "GB" | "GIB" => 30,
        _ => return Err(format!("Expected a size such as 512M or 4G, but was '{s}'")),
    };
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("Expected a size such as 512M or 4G, but was '{s}'"))
}

/// The global allocator of the binary: mimalloc within the budget.
pub struct Budgeted;

impl Budgeted {
    /// Counts `size` more bytes; over the budget, the run ends (see [`exceeded`]).
    #[inline]
    fn take(size: usize) {
        if size >= COUNTED_FROM {
            let now = COUNTED.fetch_add(size, Ordering::Relaxed) + size;
            if now > LIMIT.load(Ordering::Relaxed) {
                exceeded();
            }
        }
    }

    #[inline]
    fn give_back(size: usize) {
        if size >= COUNTED_FROM {
            COUNTED.fetch_sub(size, Ordering::Relaxed);
        }
    }
}

/// Ends the run: nothing may allocate here (the allocator is what failed), so the message
/// is a constant written straight to stderr, and the process exits without unwinding.
#[cold]
fn exceeded() -> ! {
    let _ = std::io::stderr()
        .write_all(b"ytt: Error: the run needs more memory than --max-memory allows\n");
    std::process::exit(1);
}

// SAFETY: every call is forwarded to mimalloc unchanged; the budget only counts sizes.
unsafe impl GlobalAlloc for Budgeted {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::take(layout.size());
        let p = unsafe { mimalloc::MiMalloc.alloc(layout) };
        if p.is_null() {
            Self::give_back(layout.size());
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Self::take(layout.size());
        let p = unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) };
        if p.is_null() {
            Self::give_back(layout.size());
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        Self::give_back(layout.size());
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Self::take(new_size);
        let p = unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) };
        if p.is_null() {
            Self::give_back(new_size);
        } else {
            Self::give_back(layout.size());
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("512"), Ok(512));
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("512MiB"), Ok(512 << 20));
        assert_eq!(parse_size("64k"), Ok(64 << 10));
        assert_eq!(parse_size("0"), Ok(0));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("1T").is_err());
        assert!(parse_size("99999999999999999999G").is_err());
    }
}
