//! Memory-mapped storage: a tensor whose elements are the payload of a `.npy` file mapped
//! into memory (feature `mmap`). Pages are read from disk only when an element on them is
//! touched, so a tensor larger than RAM can be sliced, reduced and multiplied.
//!
//! Build these with [`crate::io::map_npy`] (read-only) and [`crate::io::map_npy_mut`]
//! (writes go to the file). Results of operations on mapped tensors are [`Heap`] tensors.

use super::{DenseStorage, DenseStorageMut, Heap, ResultStorage, Storage};
use crate::extents::Extents;
use core::marker::PhantomData;

/// Read-only memory-mapped elements.
pub struct Mmap<T> {
    map: memmap2::Mmap,
    offset: usize,
    len: usize,
    _elem: PhantomData<T>,
}

/// Read-write memory-mapped elements: writes through the tensor change the file.
pub struct MmapMut<T> {
    map: memmap2::MmapMut,
    offset: usize,
    len: usize,
    _elem: PhantomData<T>,
}

/// Checks that `len` elements of `T` starting `offset` bytes into a mapping of `map_len`
/// bytes at `base` are in bounds and aligned.
fn check_region<T>(base: *const u8, map_len: usize, offset: usize, len: usize) -> bool {
    let bytes = len.checked_mul(core::mem::size_of::<T>());
    let end = bytes.and_then(|b| b.checked_add(offset));
    end.is_some_and(|e| e <= map_len) && (base as usize).wrapping_add(offset).is_multiple_of(core::mem::align_of::<T>())
}

impl<T> Mmap<T> {
    /// Wraps `len` elements starting `offset` bytes into `map`; `None` when they do not fit
    /// the mapping or are misaligned for `T`.
    ///
    /// # Safety
    /// Every bit pattern of `size_of::<T>()` bytes must be a valid `T`.
    pub(crate) unsafe fn new(map: memmap2::Mmap, offset: usize, len: usize) -> Option<Self> {
        check_region::<T>(map.as_ptr(), map.len(), offset, len).then_some(Mmap { map, offset, len, _elem: PhantomData })
    }
}

impl<T> MmapMut<T> {
    /// As [`Mmap::new`], for a writable mapping.
    ///
    /// # Safety
    /// Every bit pattern of `size_of::<T>()` bytes must be a valid `T`.
    pub(crate) unsafe fn new(map: memmap2::MmapMut, offset: usize, len: usize) -> Option<Self> {
        check_region::<T>(map.as_ptr(), map.len(), offset, len).then_some(MmapMut {
            map,
            offset,
            len,
            _elem: PhantomData,
        })
    }
    /// Writes changed pages back to the file and waits until they are on disk. (The
    /// operating system writes them back eventually in any case, and on unmapping.)
    pub fn flush(&self) -> std::io::Result<()> {
        self.map.flush()
    }
}

impl<T> Storage<T> for Mmap<T> {
    const NAME: &'static str = "Mmap";
}
impl<T> Storage<T> for MmapMut<T> {
    const NAME: &'static str = "MmapMut";
}

// SAFETY: `new` checked that the `len` elements from `offset` lie inside the mapping and are
// aligned; its caller guaranteed that any bytes are valid `T`s, so they are initialised
// values. The mapping lives as long as `self`. (That no other process changes the file
// is the promise the caller of `map_npy` makes, as with memmap2's `Mmap::map`.)
unsafe impl<T> DenseStorage<T> for Mmap<T> {
    #[inline(always)]
    fn as_ptr(&self) -> *const T {
        // SAFETY: `offset` is inside the mapping (checked in `new`).
        unsafe { self.map.as_ptr().add(self.offset).cast() }
    }
    #[inline(always)]
    fn region_len(&self) -> usize {
        self.len
    }
}

// SAFETY: as for `Mmap`.
unsafe impl<T> DenseStorage<T> for MmapMut<T> {
    #[inline(always)]
    fn as_ptr(&self) -> *const T {
        // SAFETY: `offset` is inside the mapping (checked in `new`).
        unsafe { self.map.as_ptr().add(self.offset).cast() }
    }
    #[inline(always)]
    fn region_len(&self) -> usize {
        self.len
    }
}

// SAFETY: the mapping is owned by `self`, so `&mut self` is the only access to it in this
// process; writes to any bytes leave valid `T`s (the `new` contract).
unsafe impl<T> DenseStorageMut<T> for MmapMut<T> {
    #[inline(always)]
    fn as_mut_ptr(&mut self) -> *mut T {
        // SAFETY: `offset` is inside the mapping (checked in `new`).
        unsafe { self.map.as_mut_ptr().add(self.offset).cast() }
    }
}

impl<T, E: Extents> ResultStorage<T, E> for Mmap<T> {
    type Out = Heap<T>;
}
impl<T, E: Extents> ResultStorage<T, E> for MmapMut<T> {
    type Out = Heap<T>;
}
