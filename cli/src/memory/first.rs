//! The first allocations of a run, handed out one after the other from a static block
//! instead of by the allocator.
//!
//! mimalloc keeps each size class in pages of its own, and each thread its own pages, so
//! the 600 allocations of a trivial run (`ytt -f a.yml`: 147 kB in all, 78 kB at most at
//! once) touched 112 fresh 4 KiB pages, each a page fault of 1–1.5 µs on this project's
//! machines: more time than all the run's instructions. From this block they touch the
//! pages their bytes fill.
//!
//! Nothing handed out here is handed out again: a block freed stays taken (a run of any
//! size leaves at most [`SIZE`] bytes so), and memory never handed out is still the zeros
//! of `.bss`, so a zeroed allocation needs no clearing. The block handed out last grows in
//! place (a `Vec` filled element by element doubles its buffer). Requests over
//! [`LARGEST`] bytes, and every one that no longer fits, go to the allocator.

use std::alloc::Layout;
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The block's size: a trivial run's allocations, twice over.
const SIZE: usize = 256 << 10;

/// The largest request served from the block: larger ones are few, and are the data of
/// runs too large for the block to matter.
const LARGEST: usize = 32 << 10;

/// The block's alignment, and the largest served.
const PAGE: usize = 4096;

#[repr(C, align(4096))]
struct Block(UnsafeCell<[u8; SIZE]>);

// SAFETY: the bytes are only reached through the disjoint ranges `take` hands out.
unsafe impl Sync for Block {}

static BLOCK: Block = Block(UnsafeCell::new([0; SIZE]));

/// The offset of the first byte never handed out.
static NEXT: AtomicUsize = AtomicUsize::new(0);

fn base() -> usize {
    BLOCK.0.get() as usize
}

/// Set when a request no longer fits.
static FULL: AtomicBool = AtomicBool::new(false);

/// Whether the block no longer serves requests (one load, inlined: the block's code stays
/// out of the callers of a large run's allocations).
#[inline]
pub fn full() -> bool {
    FULL.load(Ordering::Relaxed)
}

/// Memory for `layout` from the block (zeroed), or `None` where the allocator is to serve
/// it. Threads take disjoint ranges: the offset only moves forward, by compare-and-swap.
pub fn take(layout: Layout) -> Option<*mut u8> {
    if layout.size() > LARGEST || layout.align() > PAGE {
        return None;
    }
    let base = base();
    let mut next = NEXT.load(Ordering::Relaxed);
    loop {
        let start = (base + next).checked_next_multiple_of(layout.align())? - base;
        let end = start.checked_add(layout.size())?;
        if end > SIZE {
            // what is left is smaller than a request the block serves
            FULL.store(true, Ordering::Relaxed);
            return None;
        }
        match NEXT.compare_exchange_weak(next, end, Ordering::Relaxed, Ordering::Relaxed) {
            // SAFETY: start..end lies inside the block
            Ok(_) => return Some(unsafe { BLOCK.0.get().cast::<u8>().add(start) }),
            Err(now) => next = now,
        }
    }
}

/// Whether `ptr` was handed out by [`take`] (freeing it is then a no-op).
#[inline]
pub fn holds(ptr: *mut u8) -> bool {
    (ptr as usize).wrapping_sub(base()) < SIZE
}

/// Resizes in place the memory at `ptr` (from [`take`], `old` bytes) to `new` bytes: a
/// smaller size keeps the same bytes; a larger one takes the bytes after it if they were
/// never handed out (it was the last taken, and the block has room). False: the caller
/// must move it.
pub fn resize_in_place(ptr: *mut u8, old: usize, new: usize) -> bool {
    if new <= old {
        return true;
    }
    let start = ptr as usize - base();
    let Some(end) = start.checked_add(new).filter(|&end| end <= SIZE) else {
        return false;
    };
    NEXT.compare_exchange(start + old, end, Ordering::Relaxed, Ordering::Relaxed)
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tests take from the one block at the same time (the unit tests' allocator is
    /// the system's): each checks what holds whatever the others took.
    #[test]
    fn ranges_are_disjoint_aligned_and_zeroed() {
        let mut taken = vec![];
        for (size, align) in [(1, 1), (24, 8), (100, 64), (3, 1), (4096, 4096), (8, 8)] {
            let Some(p) = take(Layout::from_size_align(size, align).unwrap()) else {
                continue;
            };
            assert!(holds(p));
            assert_eq!(p as usize % align, 0);
            // SAFETY: p holds `size` bytes just taken
            let bytes = unsafe { std::slice::from_raw_parts_mut(p, size) };
            assert!(bytes.iter().all(|&b| b == 0));
            bytes.fill(0xAB);
            taken.push((p as usize, size));
        }
        taken.sort();
        for pair in taken.windows(2) {
            assert!(pair[0].0 + pair[0].1 <= pair[1].0, "{taken:?}");
        }
    }

    #[test]
    fn too_large_requests_and_foreign_pointers_are_not_the_blocks() {
        assert_eq!(take(Layout::from_size_align(LARGEST + 1, 8).unwrap()), None);
        assert_eq!(take(Layout::from_size_align(8, PAGE * 2).unwrap()), None);
        assert!(!full(), "an unusual request does not end the block");
        let mut on_stack = 0u8;
        assert!(!holds(&mut on_stack));
        assert!(!holds(std::ptr::null_mut()));
    }

    #[test]
    fn the_last_taken_grows_in_place_and_an_earlier_one_does_not() {
        let layout = Layout::from_size_align(16, 8).unwrap();
        let (Some(a), Some(b)) = (take(layout), take(layout)) else {
            return; // the block is full
        };
        assert!(resize_in_place(a, 16, 8), "shrinking keeps the bytes");
        if b as usize == a as usize + 16 {
            assert!(!resize_in_place(a, 16, 32), "b follows a");
        }
        // b is the last taken unless another test took memory since
        if resize_in_place(b, 16, 48) {
            let next = take(Layout::from_size_align(1, 1).unwrap());
            assert!(next.is_none_or(|n| n as usize >= b as usize + 48));
        }
        assert!(!resize_in_place(b, 16, SIZE + 1));
    }
}
