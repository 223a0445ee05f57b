//! The sizes and alignments the crate's buffers are given, by how large they are.

use core::alloc::Layout;

/// Alignment of every buffer of at least [`ALIGNED_FROM_BYTES`]: a cache line (and an
/// AVX-512 register).
pub const ALIGN: usize = 64;
/// Size from which buffers are [`ALIGN`]ed (below it, vector loads are few and the
/// allocation itself is the cost). An aligned request is glibc's `posix_memalign`, whose
/// bookkeeping is about a quarter of a 64 × 64 `f32` `sum_axis::<0>()` (256-byte output).
pub const ALIGNED_FROM_BYTES: usize = 4096;
/// Size from which buffers are 2 MiB aligned with huge-page advice.
pub const HUGE_PAGE_BYTES: usize = 4 << 20;
pub(crate) const HUGE_ALIGN: usize = 2 << 20;

/// The layout of a buffer of `len` `T`s: the element's own alignment when small, [`ALIGN`]
/// from [`ALIGNED_FROM_BYTES`], 2 MiB from [`HUGE_PAGE_BYTES`]. `None` when the size
/// overflows.
pub(crate) fn layout_for<T>(len: usize) -> Option<Layout> {
    let bytes = len.checked_mul(core::mem::size_of::<T>())?;
    let align = if bytes >= HUGE_PAGE_BYTES {
        HUGE_ALIGN
    } else if bytes >= ALIGNED_FROM_BYTES {
        ALIGN.max(core::mem::align_of::<T>())
    } else {
        core::mem::align_of::<T>()
    };
    Layout::from_size_align(bytes, align).ok()
}
