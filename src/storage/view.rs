//! Borrowed storage: read-only and mutable views of another tensor's elements.

use super::borrow::{BorrowedStorage, ReadOnlyBorrow};
use super::{DenseStorage, DenseStorageMut, Storage};
use core::marker::PhantomData;
use core::ptr::NonNull;

/// A read-only borrow of a region of elements.
pub struct View<'a, T> {
    ptr: NonNull<T>,
    len: usize,
    _borrow: PhantomData<&'a [T]>,
}

/// A mutable borrow of a region of elements.
pub struct ViewMut<'a, T> {
    ptr: NonNull<T>,
    len: usize,
    _borrow: PhantomData<&'a mut [T]>,
}

impl<T> Clone for View<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for View<'_, T> {}

// SAFETY: a View is a `&[T]` in disguise.
unsafe impl<T: Sync> Send for View<'_, T> {}
// SAFETY: as for `&[T]`.
unsafe impl<T: Sync> Sync for View<'_, T> {}
// SAFETY: a ViewMut is a `&mut [T]` in disguise.
unsafe impl<T: Send> Send for ViewMut<'_, T> {}
// SAFETY: as for `&mut [T]`.
unsafe impl<T: Sync> Sync for ViewMut<'_, T> {}

impl<'a, T> View<'a, T> {
    /// A view of a slice.
    pub fn from_slice(s: &'a [T]) -> Self {
        View { ptr: NonNull::from(s).cast(), len: s.len(), _borrow: PhantomData }
    }
    /// # Safety
    /// `ptr` must be valid for reads of `len` initialised elements for `'a`, with no
    /// writer during `'a`.
    pub(crate) unsafe fn from_raw(ptr: *const T, len: usize) -> Self {
        // SAFETY: the caller guarantees `ptr` comes from a live allocation (never null).
        View { ptr: unsafe { NonNull::new_unchecked(ptr as *mut T) }, len, _borrow: PhantomData }
    }
}

impl<'a, T> ViewMut<'a, T> {
    /// A mutable view of a slice.
    pub fn from_slice(s: &'a mut [T]) -> Self {
        let len = s.len();
        ViewMut { ptr: NonNull::from(s).cast(), len, _borrow: PhantomData }
    }
    /// # Safety
    /// `ptr` must be valid for reads and writes of `len` initialised elements for `'a`,
    /// with no other access during `'a`.
    pub(crate) unsafe fn from_raw(ptr: *mut T, len: usize) -> Self {
        // SAFETY: the caller guarantees `ptr` comes from a live allocation (never null).
        ViewMut { ptr: unsafe { NonNull::new_unchecked(ptr) }, len, _borrow: PhantomData }
    }
}

impl<T> BorrowedStorage<T> for View<'_, T> {
    #[inline(always)]
    fn borrowed_len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    fn rebase(self, skip: usize) -> Self {
        assert!(skip <= self.len, "rebase past the end of a view");
        // SAFETY: `skip <= len` keeps the pointer inside (or one past) the region.
        unsafe { View::from_raw(self.ptr.as_ptr().add(skip), self.len - skip) }
    }
}

// SAFETY: a `View` is a shared borrow: nothing is written through it.
unsafe impl<T> ReadOnlyBorrow<T> for View<'_, T> {}

impl<T> BorrowedStorage<T> for ViewMut<'_, T> {
    #[inline(always)]
    fn borrowed_len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    fn rebase(self, skip: usize) -> Self {
        assert!(skip <= self.len, "rebase past the end of a view");
        // SAFETY: `skip <= len` keeps the pointer inside the exclusively borrowed region.
        unsafe { ViewMut::from_raw(self.ptr.as_ptr().add(skip), self.len - skip) }
    }
}

impl<T> Storage<T> for View<'_, T> {
    const NAME: &'static str = "View";
}
impl<T> Storage<T> for ViewMut<'_, T> {
    const NAME: &'static str = "ViewMut";
}

// SAFETY: constructed only from regions valid for `'a` (see `from_raw`).
unsafe impl<T> DenseStorage<T> for View<'_, T> {
    #[inline(always)]
    fn as_ptr(&self) -> *const T {
        self.ptr.as_ptr()
    }
    #[inline(always)]
    fn region_len(&self) -> usize {
        self.len
    }
}

// SAFETY: constructed only from regions valid for `'a` (see `from_raw`).
unsafe impl<T> DenseStorage<T> for ViewMut<'_, T> {
    #[inline(always)]
    fn as_ptr(&self) -> *const T {
        self.ptr.as_ptr()
    }
    #[inline(always)]
    fn region_len(&self) -> usize {
        self.len
    }
}

// SAFETY: a ViewMut holds the exclusive borrow of its region for `'a`.
unsafe impl<T> DenseStorageMut<T> for ViewMut<'_, T> {
    #[inline(always)]
    fn as_mut_ptr(&mut self) -> *mut T {
        self.ptr.as_ptr()
    }
}
