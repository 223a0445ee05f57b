//! One freed large block, kept for the next allocation of the same layout.
//!
//! Why: [`super::AlignedBuf`] asks for 2 MiB alignment from 4 MiB up (huge
//! pages), and glibc serves such a request with a fresh `mmap` every time and unmaps it
//! on free. So every large result made in a loop (a product per step, an `eval()` per
//! step) would pay a page fault and the kernel's zeroing of each of its pages, and an
//! unmap that must flush the TLB of every thread that touched it (`clear_page` alone is 3%
//! of a two-thread `f64` 1024² product). Keeping the last freed block for the next request of
//! the same size and alignment removes that, as a caching allocator (jemalloc, mimalloc)
//! would. Memory held after a drop: one block of at most [`KEEP_MAX_BYTES`], until a
//! block of another size replaces it.
//!
//! The slot is taken with `try_lock`: when two threads meet there, the second goes to the
//! allocator, so no thread ever waits on it.

use core::alloc::Layout;
use core::ptr::NonNull;
use std::sync::Mutex;

/// Blocks from this size up are kept (below it, the allocator's own free lists serve, and
/// under Miri small sizes let the tests reach the slot).
pub(crate) const KEEP_FROM_BYTES: usize = if cfg!(miri) { 256 } else { super::sizes::HUGE_PAGE_BYTES };
/// Blocks above this size are freed at once: holding more after a tensor is dropped would
/// cost a user more memory than the faults cost time.
pub(crate) const KEEP_MAX_BYTES: usize = if cfg!(miri) { 4096 } else { 64 << 20 };

/// The block the crate's buffers share.
pub(crate) static LARGE: Slot = Slot::new();

/// A slot holding at most one freed block and its layout.
pub(crate) struct Slot(Mutex<Option<Kept>>);

struct Kept {
    ptr: NonNull<u8>,
    layout: Layout,
}

// SAFETY: a kept block is owned by the slot alone (`give`'s contract: no reference into
// it survives), so moving it to another thread moves plain memory.
unsafe impl Send for Kept {}

fn kept_size(layout: Layout) -> bool {
    (KEEP_FROM_BYTES..=KEEP_MAX_BYTES).contains(&layout.size())
}

impl Slot {
    pub(crate) const fn new() -> Self {
        Slot(Mutex::new(None))
    }

    /// The kept block, if it has exactly `layout`; its bytes are whatever its last owner
    /// left there (`0xFF` in debug builds).
    pub(crate) fn take(&self, layout: Layout) -> Option<NonNull<u8>> {
        if !kept_size(layout) {
            return None;
        }
        let mut slot = self.0.try_lock().ok()?;
        match slot.take() {
            Some(k) if k.layout == layout => {
                // Debug builds fill the block with 0xFF bytes (NaN in every float, -1 in
                // every signed integer): a path that reads its output before writing it
                // then fails its tests, instead of passing on pages that were zero when
                // fresh.
                if cfg!(debug_assertions) {
                    // SAFETY: the block is `layout.size()` bytes, owned by this slot until
                    // it is returned here.
                    unsafe { k.ptr.as_ptr().write_bytes(0xFF, layout.size()) };
                }
                Some(k.ptr)
            }
            other => {
                *slot = other;
                None
            }
        }
    }

    /// Keeps a freed block for [`Slot::take`]. Returns the block the caller must free
    /// now: this one when it is not kept, or the one it replaced.
    ///
    /// # Safety
    /// `ptr` must be a live allocation of `layout` from the global allocator, owned by the
    /// caller and no longer used by it.
    pub(crate) unsafe fn give(&self, ptr: NonNull<u8>, layout: Layout) -> Option<(NonNull<u8>, Layout)> {
        if !kept_size(layout) {
            return Some((ptr, layout));
        }
        let Ok(mut slot) = self.0.try_lock() else {
            return Some((ptr, layout));
        };
        slot.replace(Kept { ptr, layout }).map(|old| (old.ptr, old.layout))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(k) = self.0.get_mut().ok().and_then(Option::take) {
            // SAFETY: the slot owned the block, which `give` received as a live allocation
            // of `k.layout` from the global allocator.
            unsafe { std::alloc::dealloc(k.ptr.as_ptr(), k.layout) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alloc(layout: Layout) -> NonNull<u8> {
        // SAFETY: every layout here has a non-zero size.
        NonNull::new(unsafe { std::alloc::alloc(layout) }).expect("test allocation")
    }
    fn free(block: Option<(NonNull<u8>, Layout)>) {
        if let Some((p, l)) = block {
            // SAFETY: blocks handed back by `give` are live allocations of their layout.
            unsafe { std::alloc::dealloc(p.as_ptr(), l) };
        }
    }

    #[test]
    fn keeps_one_block_and_hands_it_out_once_for_its_layout() {
        let slot = Slot::new();
        let layout = Layout::from_size_align(KEEP_FROM_BYTES, 64).unwrap();
        let other = Layout::from_size_align(KEEP_FROM_BYTES + 64, 64).unwrap();
        let a = alloc(layout);
        // SAFETY: `a` is `layout.size()` bytes of ours.
        unsafe { a.as_ptr().write_bytes(0, layout.size()) };
        // SAFETY: `a` is ours and unused from here on.
        assert!(unsafe { slot.give(a, layout) }.is_none(), "an empty slot keeps the block");
        assert_eq!(slot.take(other), None, "another size is not served");
        assert_eq!(slot.take(Layout::from_size_align(KEEP_FROM_BYTES, 128).unwrap()), None, "nor another alignment");
        assert_eq!(slot.take(layout), Some(a));
        assert_eq!(slot.take(layout), None, "handed out once");
        // SAFETY: the block is `layout.size()` initialised bytes, ours again.
        let bytes = unsafe { core::slice::from_raw_parts(a.as_ptr(), layout.size()) };
        let fill = if cfg!(debug_assertions) { 0xFF } else { 0 };
        assert!(bytes.iter().all(|&b| b == fill), "debug builds poison a reused block");

        // A second block replaces the first, which comes back to be freed.
        let b = alloc(other);
        // SAFETY: both blocks are ours and unused.
        assert!(unsafe { slot.give(a, layout) }.is_none());
        let back = unsafe { slot.give(b, other) };
        assert_eq!(back, Some((a, layout)));
        free(back);
        // The slot frees the block it still holds when it is dropped (Miri checks this).
    }

    #[test]
    fn sizes_outside_the_range_are_never_kept() {
        let slot = Slot::new();
        for size in [KEEP_FROM_BYTES - 1, KEEP_MAX_BYTES + 1] {
            let layout = Layout::from_size_align(size, 64).unwrap();
            let p = alloc(layout);
            // SAFETY: `p` is ours and unused.
            let back = unsafe { slot.give(p, layout) };
            assert_eq!(back, Some((p, layout)));
            free(back);
            assert_eq!(slot.take(layout), None);
        }
    }

    #[test]
    fn a_busy_slot_is_skipped_not_waited_on() {
        let slot = Slot::new();
        let layout = Layout::from_size_align(KEEP_FROM_BYTES, 64).unwrap();
        let _held = slot.0.lock().unwrap();
        assert_eq!(slot.take(layout), None);
        let p = alloc(layout);
        // SAFETY: `p` is ours and unused.
        let back = unsafe { slot.give(p, layout) };
        assert_eq!(back, Some((p, layout)));
        free(back);
    }
}
