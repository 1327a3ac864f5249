//! A memory budget for a run (`--max-memory`): a runaway template (`[1] * 100000000`, a
//! string doubled in a loop, an alias bomb) ends with a clear error and exit code 1 instead
//! of an abort in the allocator or the OOM killer.
//!
//! The binary's global allocator is [`Budgeted`]: mimalloc (on Linux), counting the bytes held in
//! large blocks. Large blocks are where memory goes when it runs away — the Starlark heap
//! grows in large chunks, big lists, strings and integers are single blocks — while small
//! ones are most allocations: counting only blocks of at least `COUNTED_FROM` bytes
//! keeps the count off the hot path (measured: no change in the benchmarks' time).
//!
//! An allocator cannot fail softly (a `Vec` aborts when it is refused), and it does not
//! know where the run is. So passing the budget raises a flag ([`budget`]) instead: the
//! engine stops Starlark code at its next step (a loop iteration or a call) with an error
//! that names the template line and its frames, and the command line fails a run that
//! passed the budget anywhere else. Until then, allocations go on up to twice the budget;
//! one that would pass that ends the run at once, with the message alone, as does one the
//! system refuses.

use std::alloc::{GlobalAlloc, Layout};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

mod first;

/// Blocks from this size on are counted.
const COUNTED_FROM: usize = 4096;

/// What a run that needs more memory than the budget is told.
pub const MESSAGE: &str = "the run needs more memory than --max-memory allows";
/// What a run is told when the system refuses memory within the budget.
const REFUSED: &str = "the run needs more memory than the system gives";

/// The budget when `--max-memory` is not given: far above any configuration's needs
/// (the largest benchmark peaks under 200 MiB; 3 GiB), and no more than a quarter of the
/// machine's memory: a run may hold up to twice its budget before it stops, and must
/// stop before the OOM killer would.
pub fn default_limit() -> usize {
    const CAP: usize = 3 << 30;
    physical_memory().map_or(CAP, |total| CAP.min(total / 4))
}

/// The machine's memory, where the system says it (Linux: `MemTotal`).
fn physical_memory() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Bytes held in large blocks from which a run is large: from then on the process may use
/// transparent huge pages (see [`start_with_small_pages`]). Renders near the median real-world one stay
/// below (`package --scale 0.05`, `many-files`, `package-inspect` peak between 2 and
/// 4 MiB); `package` passes it as it parses, the Starlark-heavy workloads early.
const LARGE_RUN: usize = 4 << 20;

static LIMIT: AtomicUsize = AtomicUsize::new(4 << 30);
static COUNTED: AtomicUsize = AtomicUsize::new(0);
/// The count passed the budget (see the module's documentation).
static PASSED: AtomicBool = AtomicBool::new(false);
/// The next count at which [`Budgeted`] looks up: the budget, or before it the size of a
/// large run while huge pages are still to be allowed. One comparison on the counted path.
static WATERMARK: AtomicUsize = AtomicUsize::new(LARGE_RUN);
/// Huge pages were disabled at start and are to be allowed when the run is large (see
/// [`start_with_small_pages`]); false when they are not managed (not Linux, or the
/// process was started with them disabled) or already allowed.
static HUGE_PAGES_PENDING: AtomicBool = AtomicBool::new(false);

/// Sets the budget in bytes (`--max-memory`); 0 means no limit.
pub fn set_limit(bytes: usize) {
    let limit = if bytes == 0 { usize::MAX } else { bytes };
    LIMIT.store(limit, Ordering::Relaxed);
    arm(limit);
}

/// The next count to look up at: the budget (before it, the size of a large run while
/// huge pages are still to be allowed).
fn arm(limit: usize) {
    let pending = HUGE_PAGES_PENDING.load(Ordering::Relaxed);
    WATERMARK.store(
        if pending { limit.min(LARGE_RUN) } else { limit },
        Ordering::Relaxed,
    );
}

/// Lowers the flag and arms the budget again, for the next run of a process that runs
/// one after another (the language server): each starts within the budget.
pub fn rearm() {
    PASSED.store(false, Ordering::Relaxed);
    arm(LIMIT.load(Ordering::Relaxed));
}

/// The flag raised past the budget (see [`budget`]).
pub fn passed_flag() -> &'static AtomicBool {
    &PASSED
}

/// The bytes counted so far (large blocks held).
pub fn counted() -> usize {
    COUNTED.load(Ordering::Relaxed)
}

/// The budget as the engine is told it; none without a limit.
pub fn budget() -> Option<ytt::MemoryBudget> {
    let limit = LIMIT.load(Ordering::Relaxed);
    (limit != usize::MAX).then_some(ytt::MemoryBudget {
        limit,
        passed: &PASSED,
        message: MESSAGE,
    })
}

/// Whether the count passed the budget since the process started.
pub fn passed() -> bool {
    PASSED.load(Ordering::Relaxed)
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

/// The allocator behind the budget: mimalloc on Linux (the default allocator's per-thread
/// arena grows in small steps, which cost a quarter of the run time on large inputs,
/// measured on bench/overlays), the system's elsewhere.
#[cfg(target_os = "linux")]
use mimalloc::MiMalloc as Inner;
#[cfg(not(target_os = "linux"))]
use std::alloc::System as Inner;

/// The global allocator of the binary: the first small requests from a static block
/// ([`first`]), the rest from [`Inner`]; all within the budget.
pub struct Budgeted;

impl Budgeted {
    /// Counts `size` more bytes; over the budget, the run ends (see [`exceeded`]).
    #[inline]
    fn take(size: usize) {
        if size >= COUNTED_FROM {
            let now = COUNTED.fetch_add(size, Ordering::Relaxed) + size;
            if now > WATERMARK.load(Ordering::Relaxed) {
                crossed(now);
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

/// The count passed the watermark: the run is large (huge pages from now on), over its
/// budget (the flag is raised; the next watermark is twice the budget), or over twice
/// the budget.
#[cold]
fn crossed(now: usize) {
    let limit = LIMIT.load(Ordering::Relaxed);
    let hard = limit.saturating_mul(2);
    if now > hard {
        exceeded(MESSAGE);
    }
    if HUGE_PAGES_PENDING.swap(false, Ordering::Relaxed) {
        set_huge_pages(true);
    }
    if now > limit {
        PASSED.store(true, Ordering::Relaxed);
        WATERMARK.store(hard, Ordering::Relaxed);
    } else {
        WATERMARK.store(limit, Ordering::Relaxed);
    }
}

/// Disables transparent huge pages until the run is large. Call before the first
/// allocation (the binary does it from `.init_array`, before mimalloc's constructor); a
/// process started with huge pages disabled keeps them disabled.
///
/// mimalloc asks for huge pages on its whole arena. A page fault costs 1–4 µs per 4 KiB
/// page on this project's machines and much less per 4 KiB of a 2 MiB page, but a small
/// run touches a few bytes of many 2 MiB pages: with them `package --scale 0.05` peaks at
/// 22 MiB, without at 13.4 MiB (the reference: 19 MiB), `a: 1` at 14.4 and 8.8 MiB, in
/// the same time; without them the large workloads take up to 45 % longer. So a run
/// starts without huge pages and allows them once it holds
/// `LARGE_RUN` bytes in large blocks: memory faulted before stays in small pages,
/// every fresh 2 MiB range after is one fault.
///
/// Huge pages need the arena advised for them (`madvise`, the machines' THP mode), which
/// mimalloc does when it reserves the arena for a segment allowed large pages, and it
/// refuses them to a thread's first segment while other threads run
/// (`eager_commit_delay`). Once [`first`] served a trivial run's allocations, the first
/// to reach mimalloc came from the run's thread, and the whole arena went without: the
/// `compute` benchmark took 41 % longer. So no segment is delayed; the arena is advised
/// whichever thread reserves it (`MIMALLOC_EAGER_COMMIT_DELAY` still overrides).
pub fn start_with_small_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: sets the default of one of mimalloc's options, before its initialisation.
    unsafe {
        libmimalloc_sys::mi_option_set_default(libmimalloc_sys::mi_option_eager_commit_delay, 0);
    }
    #[cfg(target_os = "linux")]
    // SAFETY: PR_GET_THP_DISABLE reads a flag of this process.
    if unsafe { libc::prctl(libc::PR_GET_THP_DISABLE, 0, 0, 0, 0) } == 0 {
        HUGE_PAGES_PENDING.store(true, Ordering::Relaxed);
        set_huge_pages(false);
    }
    if !HUGE_PAGES_PENDING.load(Ordering::Relaxed) {
        WATERMARK.store(LIMIT.load(Ordering::Relaxed), Ordering::Relaxed);
    }
}

/// Whether the process may use transparent huge pages (Linux; elsewhere a no-op).
fn set_huge_pages(allowed: bool) {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE only sets a flag of this process, read at page faults.
    unsafe {
        libc::prctl(
            libc::PR_SET_THP_DISABLE,
            libc::c_ulong::from(!allowed),
            0 as libc::c_ulong,
            0 as libc::c_ulong,
            0 as libc::c_ulong,
        );
    }
    #[cfg(not(target_os = "linux"))]
    let _ = allowed;
}

/// Ends the run: nothing may allocate here (the allocator is what failed), so the message
/// is a constant written straight to stderr, and the process exits without unwinding.
#[cold]
fn exceeded(message: &str) -> ! {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(b"ytt: Error: ");
    let _ = err.write_all(message.as_bytes());
    let _ = err.write_all(b"\n");
    std::process::exit(1);
}

// SAFETY: a request is served by `first` (disjoint, aligned ranges of a static block,
// never handed out twice) or forwarded to the inner allocator unchanged, and each pointer
// goes back to where it came from; the budget only counts sizes, and ends the process
// where the inner allocator refuses.
unsafe impl GlobalAlloc for Budgeted {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::take(layout.size());
        let p = if first::full() {
            unsafe { Inner.alloc(layout) }
        } else {
            unsafe { alloc_early(layout, false) }
        };
        if p.is_null() {
            refused();
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Self::take(layout.size());
        let p = if first::full() {
            unsafe { Inner.alloc_zeroed(layout) }
        } else {
            unsafe { alloc_early(layout, true) }
        };
        if p.is_null() {
            refused();
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        Self::give_back(layout.size());
        if !first::holds(ptr) {
            unsafe { Inner.dealloc(ptr, layout) }
        }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Self::take(new_size);
        let p = if first::holds(ptr) {
            unsafe { realloc_from_first(ptr, layout, new_size) }
        } else {
            unsafe { Inner.realloc(ptr, layout, new_size) }
        };
        if p.is_null() {
            refused();
        }
        Self::give_back(layout.size());
        p
    }
}

/// An allocation while the block of [`first`] serves requests: from it (its memory is
/// zeroed) or from [`Inner`]. Out of line, as is all the block's code but two checks.
///
/// # Safety
///
/// As `GlobalAlloc::alloc`.
#[inline(never)]
unsafe fn alloc_early(layout: Layout, zeroed: bool) -> *mut u8 {
    match first::take(layout) {
        Some(p) => p,
        None if zeroed => unsafe { Inner.alloc_zeroed(layout) },
        None => unsafe { Inner.alloc(layout) },
    }
}

/// `GlobalAlloc::realloc` of memory from the block of [`first`]: in place where it can
/// be, else moved to the block or to [`Inner`]. Null where [`Inner`] refuses.
///
/// # Safety
///
/// As `GlobalAlloc::realloc`, for `ptr` from [`first::take`].
#[inline(never)]
unsafe fn realloc_from_first(ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
    if first::resize_in_place(ptr, layout.size(), new_size) {
        return ptr;
    }
    // SAFETY: the caller's alignment with the new size is a valid layout (realloc's contract)
    let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
    let to = unsafe { alloc_early(new_layout, false) };
    if !to.is_null() {
        // SAFETY: both hold the smaller size, and they do not overlap: a range of the
        // block is never handed out twice
        unsafe { std::ptr::copy_nonoverlapping(ptr, to, layout.size().min(new_size)) };
    }
    to
}

/// The system refused memory the budget allows: a `Vec` would abort, the Starlark heap
/// panic (`out of memory`, reported as a bug); the run ends with the reason instead.
#[cold]
fn refused() -> ! {
    exceeded(REFUSED)
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
