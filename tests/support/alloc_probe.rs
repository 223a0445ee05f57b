//! A global allocator for tests that measure allocations: it forwards every call to
//! `System` and, on the current thread while a measurement runs, counts the allocations
//! (reallocations included), adds up their bytes and keeps the largest.
//!
//! Tests run on parallel threads, so measuring is switched on per thread. The thread
//! locals are `const`-initialised and have no destructors, so reading them inside the
//! allocator can neither allocate nor recurse. A test file installs it with
//! `#[global_allocator] static GLOBAL: alloc_probe::Probe = alloc_probe::Probe;`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// What [`measure`] saw.
#[derive(Clone, Copy, Debug, Default)]
#[allow(dead_code)] // each test file reads the fields it needs
pub struct Allocations {
    /// Number of allocations and reallocations.
    pub calls: usize,
    /// Bytes requested, summed.
    pub bytes: usize,
    /// The largest single request, in bytes.
    pub largest: usize,
}

thread_local! {
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    static CALLS: Cell<usize> = const { Cell::new(0) };
    static BYTES: Cell<usize> = const { Cell::new(0) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn note(bytes: usize) {
    // `try_with`: during thread teardown the locals may be gone; such allocations are not
    // ours to count.
    let _ = ACTIVE.try_with(|a| {
        if a.get() {
            CALLS.with(|c| c.set(c.get() + 1));
            BYTES.with(|b| b.set(b.get() + bytes));
            LARGEST.with(|l| l.set(l.get().max(bytes)));
        }
    });
}

/// The allocator; see the module docs.
pub struct Probe;

// SAFETY: every call is forwarded unchanged to `System`.
unsafe impl GlobalAlloc for Probe {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Runs `f` on this thread and returns its result with what it allocated.
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, Allocations) {
    CALLS.with(|c| c.set(0));
    BYTES.with(|b| b.set(0));
    LARGEST.with(|l| l.set(0));
    ACTIVE.with(|a| a.set(true));
    let r = f();
    ACTIVE.with(|a| a.set(false));
    let seen =
        Allocations { calls: CALLS.with(Cell::get), bytes: BYTES.with(Cell::get), largest: LARGEST.with(Cell::get) };
    (r, seen)
}
