//! Owned, aligned element buffers: the allocation of every tensor the crate creates.
//!
//! Why not `Vec`: glibc hands out large blocks at page + 16 bytes, so 64-byte vector loads
//! split cache lines, and every fresh 4 KiB page costs a fault on first touch (about
//! 1.65 µs on the benchmark machine). An [`AlignedBuf`] of at least
//! [`ALIGNED_FROM_BYTES`](super::ALIGNED_FROM_BYTES) is 64-byte aligned; from
//! [`HUGE_PAGE_BYTES`] up it is 2 MiB aligned and advised to use transparent huge pages,
//! so one fault maps 2 MiB, and the last one freed (up to 64 MiB) is kept for the next
//! buffer of the same size (`alloc::reuse`), so a loop that makes a large result per
//! step pays no faults after its first. Smaller buffers keep the element's own alignment: a
//! 64-byte-aligned request goes through `posix_memalign`, whose bookkeeping costs more
//! than a whole dynamic 4×4 add, while a plain request is malloc's fast path.
//! Results are written straight into uninitialised memory: no zeroing pass.
//!
//! Every allocation here is fallible underneath: running out of memory is
//! [`ShapeError::OutOfMemory`] naming the bytes (an `Err` from the `try_` forms, a panic
//! with that message from the plain ones), never an abort. `try_vec_filled` and
//! `try_vec_with_capacity` do the same for the `Vec`s of sparse and band storage.

use super::sizes::{layout_for, HUGE_PAGE_BYTES};
use crate::error::ShapeError;
use core::ptr::NonNull;

/// A heap buffer of `len` initialised `T`s, 64-byte aligned from
/// [`ALIGNED_FROM_BYTES`](super::ALIGNED_FROM_BYTES).
pub struct AlignedBuf<T> {
    ptr: NonNull<T>,
    len: usize,
}

// SAFETY: AlignedBuf owns its elements like a Vec.
unsafe impl<T: Send> Send for AlignedBuf<T> {}
// SAFETY: as for Vec: shared access only hands out `&T`.
unsafe impl<T: Sync> Sync for AlignedBuf<T> {}

/// Advises the kernel to back `[ptr, ptr + bytes)` with huge pages (best effort).
#[cfg(all(target_os = "linux", not(miri)))]
fn advise_huge(ptr: *mut u8, bytes: usize) {
    // SAFETY: the range is one live allocation we own; madvise only changes paging policy
    // and its failure is harmless, so the result is ignored on purpose.
    unsafe {
        libc::madvise(ptr.cast(), bytes, libc::MADV_HUGEPAGE);
    }
}
#[cfg(any(not(target_os = "linux"), miri))]
fn advise_huge(_: *mut u8, _: usize) {}

impl<T> AlignedBuf<T> {
    /// Allocates room for `len` elements and lets `init` write all of them through a raw
    /// pointer, in any order and from any thread.
    ///
    /// # Safety
    /// `init` must initialise every one of the `len` elements before returning. If it
    /// panics, elements it wrote are leaked (not dropped), which is safe.
    #[track_caller]
    pub unsafe fn from_raw_init(len: usize, init: impl FnOnce(*mut T)) -> Self {
        // SAFETY: forwarded contract.
        crate::error::or_panic(unsafe { Self::try_from_raw_init(len, init) })
    }

    /// [`AlignedBuf::from_raw_init`], with a refused allocation reported as
    /// [`ShapeError::OutOfMemory`] (or [`ShapeError::Overflow`] beyond `isize::MAX`
    /// bytes) instead of a panic; `init` is not called then.
    ///
    /// # Safety
    /// As for [`AlignedBuf::from_raw_init`].
    pub unsafe fn try_from_raw_init(len: usize, init: impl FnOnce(*mut T)) -> Result<Self, ShapeError> {
        let ptr = Self::try_allocate(len)?;
        init(ptr.as_ptr());
        Ok(AlignedBuf { ptr, len })
    }

    /// A buffer of `f(0), f(1), …, f(len - 1)`; panics with the number of bytes when the
    /// allocator refuses it.
    #[track_caller]
    pub fn from_fn(len: usize, f: impl FnMut(usize) -> T) -> Self {
        crate::error::or_panic(Self::try_from_fn(len, f))
    }

    /// [`AlignedBuf::from_fn`], with a refused allocation as an error.
    pub fn try_from_fn(len: usize, mut f: impl FnMut(usize) -> T) -> Result<Self, ShapeError> {
        let ptr = Self::try_allocate(len)?;
        // Drops the elements written so far, and frees the block, if `f` panics.
        struct Guard<T> {
            ptr: NonNull<T>,
            written: usize,
            len: usize,
        }
        impl<T> Drop for Guard<T> {
            fn drop(&mut self) {
                // SAFETY: exactly `written` elements were initialised; the block came from
                // `allocate(len)`.
                unsafe {
                    core::ptr::drop_in_place(core::ptr::slice_from_raw_parts_mut(self.ptr.as_ptr(), self.written));
                    AlignedBuf::<T>::deallocate(self.ptr, self.len);
                }
            }
        }
        let mut guard = Guard { ptr, written: 0, len };
        while guard.written < len {
            // SAFETY: `written < len` is inside the allocation.
            unsafe { ptr.as_ptr().add(guard.written).write(f(guard.written)) };
            guard.written += 1;
        }
        core::mem::forget(guard);
        Ok(AlignedBuf { ptr, len })
    }

    /// The one allocation of the crate's dense buffers. Fallible: running out of memory is
    /// an error naming the bytes, never an abort (`handle_alloc_error`), so every `try_`
    /// constructor can return it.
    fn try_allocate(len: usize) -> Result<NonNull<T>, ShapeError> {
        const OP: &str = "allocate";
        let bytes = len.saturating_mul(core::mem::size_of::<T>());
        let layout = layout_for::<T>(len).ok_or_else(|| ShapeError::Overflow { op: OP, dims: vec![len] })?;
        if layout.size() == 0 {
            // A well-aligned dangling pointer: ALIGN is a multiple of align_of::<T>() for all
            // element types with alignment up to 64.
            return Ok(
                NonNull::new(core::ptr::without_provenance_mut::<T>(layout.align())).expect("non-zero alignment")
            );
        }
        // A block freed by an earlier buffer of this very layout (see `alloc::reuse`): its
        // stale bytes are fine, since every constructor writes all elements before use.
        if let Some(kept) = super::reuse::LARGE.take(layout) {
            return Ok(kept.cast());
        }
        // SAFETY: the layout has non-zero size.
        let raw = unsafe { std::alloc::alloc(layout) };
        let ptr = NonNull::new(raw).ok_or(ShapeError::OutOfMemory { op: OP, bytes })?;
        if layout.size() >= HUGE_PAGE_BYTES {
            advise_huge(raw, layout.size());
        }
        Ok(ptr.cast())
    }

    /// # Safety
    /// `ptr` must come from `allocate(len)` and its elements must already be dropped.
    unsafe fn deallocate(ptr: NonNull<T>, len: usize) {
        let layout = layout_for::<T>(len).expect("layout was valid at allocation");
        if layout.size() == 0 {
            return;
        }
        // SAFETY: the block is ours (the caller's contract) and no longer used.
        if let Some((block, layout)) = unsafe { super::reuse::LARGE.give(ptr.cast(), layout) } {
            // SAFETY: `block` is a live allocation of `layout`: ours, or the one the slot
            // held, which it hands back with its layout.
            unsafe { std::alloc::dealloc(block.as_ptr(), layout) };
        }
    }

    /// Number of elements.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Start of the buffer.
    #[inline(always)]
    pub fn as_ptr(&self) -> *const T {
        self.ptr.as_ptr()
    }
    /// Start of the buffer, for writing.
    #[inline(always)]
    pub fn as_mut_ptr(&mut self) -> *mut T {
        self.ptr.as_ptr()
    }
    /// The elements.
    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: `len` initialised elements live at `ptr`.
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
    /// The elements, for writing.
    ///
    /// ```
    /// let mut b = mdtensor::alloc::AlignedBuf::from_fn(3, |i| i);
    /// b.as_mut_slice()[1] = 7;
    /// assert_eq!(*b, [0, 7, 2]);
    /// ```
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: `len` initialised elements live at `ptr`, and `&mut self` is the only
        // access to them while the slice lives.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> core::ops::Deref for AlignedBuf<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}
impl<T> core::ops::DerefMut for AlignedBuf<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}
impl<T: core::fmt::Debug> core::fmt::Debug for AlignedBuf<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}
impl<T: PartialEq> PartialEq for AlignedBuf<T> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T> Drop for AlignedBuf<T> {
    fn drop(&mut self) {
        // SAFETY: all `len` elements are initialised and owned; the block came from
        // `allocate(len)`.
        unsafe {
            core::ptr::drop_in_place(core::ptr::slice_from_raw_parts_mut(self.ptr.as_ptr(), self.len));
            Self::deallocate(self.ptr, self.len);
        }
    }
}

impl<T: Clone> Clone for AlignedBuf<T> {
    #[allow(clippy::disallowed_methods, reason = "`Clone` cannot fail: a refused copy panics with the byte count")]
    fn clone(&self) -> Self {
        let src = self.as_slice();
        AlignedBuf::from_fn(self.len, |i| src[i].clone())
    }
}

/// A `Vec` with room for exactly `n` elements, or [`ShapeError::OutOfMemory`] (or
/// [`ShapeError::Overflow`] past `isize::MAX` bytes) instead of an abort: the fallible
/// allocation behind every buffer whose size comes from input.
pub(crate) fn try_vec_with_capacity<T>(op: &'static str, n: usize) -> Result<Vec<T>, ShapeError> {
    let bytes = n.saturating_mul(core::mem::size_of::<T>());
    let mut v = Vec::new();
    match v.try_reserve_exact(n) {
        Ok(()) => Ok(v),
        Err(_) if bytes > isize::MAX as usize => Err(ShapeError::Overflow { op, dims: vec![n] }),
        Err(_) => Err(ShapeError::OutOfMemory { op, bytes }),
    }
}

/// `n` copies of `value` in a fallibly allocated `Vec` (see [`try_vec_with_capacity`]).
pub(crate) fn try_vec_filled<T: Clone>(op: &'static str, n: usize, value: T) -> Result<Vec<T>, ShapeError> {
    let mut v = try_vec_with_capacity(op, n)?;
    v.resize(n, value);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::super::sizes::{ALIGN, ALIGNED_FROM_BYTES, HUGE_ALIGN};
    use super::*;

    #[test]
    fn alignment_and_contents() {
        let large = if cfg!(miri) { 4096 } else { (HUGE_PAGE_BYTES / 4) + 3 };
        for n in [0usize, 1, 7, 1000, large] {
            let b = AlignedBuf::from_fn(n, |i| i as f32);
            if n * 4 >= ALIGNED_FROM_BYTES {
                assert_eq!(b.as_ptr() as usize % ALIGN, 0, "n = {n}");
            }
            assert!(b.as_slice().iter().enumerate().all(|(i, &x)| x == i as f32));
        }
        if cfg!(not(miri)) {
            let big = AlignedBuf::from_fn(HUGE_PAGE_BYTES, |_| 0u8);
            assert_eq!(big.as_ptr() as usize % HUGE_ALIGN, 0);
        }
    }

    #[test]
    fn drops_every_element_once_and_survives_panics() {
        use std::rc::Rc;
        let token = Rc::new(());
        let b = AlignedBuf::from_fn(10, |_| Rc::clone(&token));
        let c = b.clone();
        assert_eq!(Rc::strong_count(&token), 21);
        drop(b);
        drop(c);
        assert_eq!(Rc::strong_count(&token), 1);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            AlignedBuf::from_fn(10, |i| if i == 5 { panic!("boom") } else { Rc::clone(&token) })
        }));
        assert!(r.is_err());
        assert_eq!(Rc::strong_count(&token), 1, "the five written elements were dropped");
    }

    #[test]
    fn writes_through_the_mutable_slice() {
        for n in [0usize, 1, 9, 2000] {
            let mut b = AlignedBuf::from_fn(n, |i| i as u64);
            for (i, x) in b.as_mut_slice().iter_mut().enumerate() {
                *x += 2 * i as u64;
            }
            b.iter_mut().for_each(|x| *x += 1);
            assert!(b.iter().enumerate().all(|(i, &x)| x == 3 * i as u64 + 1), "n = {n}");
            assert_eq!(b, b.clone());
        }
        let mut units = AlignedBuf::from_fn(4, |_| ());
        assert_eq!(units.as_mut_slice().len(), 4);
        assert_eq!(format!("{:?}", AlignedBuf::from_fn(2, |i| i)), "[0, 1]");
    }

    #[test]
    fn zero_sized_elements() {
        let b = AlignedBuf::from_fn(5, |_| ());
        assert_eq!(b.len(), 5);
    }

    #[test]
    #[cfg_attr(miri, ignore = "Miri aborts on an allocation larger than the address space it models")]
    fn refused_allocations_are_errors() {
        let e = AlignedBuf::<u8>::try_from_fn(1 << 45, |_| 0).expect_err("32 TiB cannot be allocated");
        assert_eq!(e, ShapeError::OutOfMemory { op: "allocate", bytes: 1 << 45 });
        let e = AlignedBuf::<u64>::try_from_fn(usize::MAX / 4, |_| 0).expect_err("beyond isize::MAX bytes");
        assert!(matches!(e, ShapeError::Overflow { .. }), "{e}");
    }
}
