//! The page's allocator: the system's, within a budget. WebAssembly's memory only grows,
//! up to 4 GiB, and a runaway template (`[1] * 1000000000`, a string doubled in a loop)
//! would take all of it before failing; over the budget an allocation fails, which
//! panics, and the worker reports it and starts afresh.

// natively, only the tests use the allocator
#![cfg_attr(not(any(target_arch = "wasm32", test)), allow(dead_code))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Far above what a configuration edited in a page needs.
pub const BUDGET: usize = 1 << 30;

static HELD: AtomicUsize = AtomicUsize::new(0);
static OVER: AtomicBool = AtomicBool::new(false);

/// The bytes held now (the engine's loop collector watches them).
pub fn held() -> usize {
    HELD.load(Ordering::Relaxed)
}

/// An allocation was refused for the budget.
pub fn over_budget() -> bool {
    OVER.load(Ordering::Relaxed)
}

struct Budgeted;

/// Only in the module: native tests keep the process's allocator.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static GLOBAL: Budgeted = Budgeted;

impl Budgeted {
    fn take(size: usize) -> bool {
        let now = HELD.fetch_add(size, Ordering::Relaxed) + size;
        if now > BUDGET {
            HELD.fetch_sub(size, Ordering::Relaxed);
            OVER.store(true, Ordering::Relaxed);
            return false;
        }
        true
    }
}

// SAFETY: every call is forwarded to the system allocator unchanged; the budget only
// counts sizes and refuses (a null pointer) what would go over it.
unsafe impl GlobalAlloc for Budgeted {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !Self::take(layout.size()) {
            return std::ptr::null_mut();
        }
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !Self::take(layout.size()) {
            return std::ptr::null_mut();
        }
        System.alloc_zeroed(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() && !Self::take(new_size - layout.size()) {
            return std::ptr::null_mut();
        }
        let p = System.realloc(ptr, layout, new_size);
        if p.is_null() {
            if new_size > layout.size() {
                HELD.fetch_sub(new_size - layout.size(), Ordering::Relaxed);
            }
        } else if new_size < layout.size() {
            HELD.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_refuses_what_would_go_over_it() {
        let small = Layout::from_size_align(4096, 8).unwrap();
        let before = held();
        // SAFETY: the block is freed with its own layout
        unsafe {
            let p = Budgeted.alloc(small);
            assert!(!p.is_null());
            assert_eq!(held() - before, 4096);
            let p = Budgeted.realloc(p, small, 8192);
            assert!(!p.is_null());
            assert_eq!(held() - before, 8192);
            Budgeted.dealloc(p, Layout::from_size_align(8192, 8).unwrap());
        }
        assert_eq!(held(), before);
        assert!(!over_budget());
        let huge = Layout::from_size_align(BUDGET + 1, 8).unwrap();
        // SAFETY: a refused allocation returns null and holds nothing
        assert!(unsafe { Budgeted.alloc(huge) }.is_null());
        assert!(over_budget());
        assert_eq!(held(), before);
    }
}
