//! A global allocator that counts allocations (and reallocations), shared by the zero-allocation
//! test and the dispatch benchmark. Including this module installs it for the whole binary.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// This thread's allocations: a const-initialised cell, so counting never allocates.
    static THREAD_ALLOCS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    ALLOCS.fetch_add(1, Ordering::Relaxed);
    // A thread being torn down has no cell any more; its last frees are not counted anyway.
    let _ = THREAD_ALLOCS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations and reallocations so far, by every thread.
#[allow(dead_code)]
pub fn allocations() -> usize {
    ALLOCS.load(Ordering::SeqCst)
}

/// Allocations and reallocations so far by the calling thread alone (other threads, such as
/// the simulated GPU's, are not counted).
#[allow(dead_code)]
pub fn thread_allocations() -> usize {
    THREAD_ALLOCS.with(Cell::get)
}
