//! Shared ownership with copy-on-write.

use super::{DenseStorage, DenseStorageMut, Heap, OwnedStorage, Storage};
use std::sync::Arc;

/// Reference-counted storage: cloning the tensor is O(1); the first write through a tensor
/// whose storage is shared copies the elements (copy-on-write, `Arc::make_mut`).
pub struct Shared<T>(Arc<Heap<T>>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<T> Shared<T> {
    /// Whether another tensor shares these elements.
    pub fn is_shared(&self) -> bool {
        Arc::strong_count(&self.0) > 1
    }
    /// Shares a heap buffer without copying it.
    pub(crate) fn from_heap(h: Heap<T>) -> Self {
        Shared(Arc::new(h))
    }
}

impl<T> Storage<T> for Shared<T> {
    const NAME: &'static str = "Shared";
}

// SAFETY: the Arc keeps the buffer alive and its elements initialised while `&self` lives.
unsafe impl<T> DenseStorage<T> for Shared<T> {
    #[inline(always)]
    fn as_ptr(&self) -> *const T {
        self.0.as_ptr()
    }
    #[inline(always)]
    fn region_len(&self) -> usize {
        self.0.region_len()
    }
    fn try_into_heap(self) -> Result<Heap<T>, Self> {
        Arc::try_unwrap(self.0).map_err(Shared)
    }
}

// SAFETY: `make_mut` leaves this handle the only owner of its buffer, so the pointer it
// yields is exclusive while `&mut self` lives.
unsafe impl<T: Clone> DenseStorageMut<T> for Shared<T> {
    #[inline]
    fn as_mut_ptr(&mut self) -> *mut T {
        Arc::make_mut(&mut self.0).as_mut_ptr()
    }
}

// SAFETY: delegates to Heap, which holds exactly the requested elements.
unsafe impl<T: Clone> OwnedStorage<T> for Shared<T> {
    fn from_fn_linear(n: usize, f: impl FnMut(usize) -> T) -> Option<Self> {
        Heap::from_fn_linear(n, f).map(Shared::from_heap)
    }
    fn from_vec(v: Vec<T>) -> Result<Self, Vec<T>> {
        Heap::from_vec(v).map(Shared::from_heap)
    }
    fn try_from_fn_linear(
        op: &'static str,
        n: usize,
        f: impl FnMut(usize) -> T,
    ) -> Result<Option<Self>, crate::ShapeError> {
        Ok(Heap::try_from_fn_linear(op, n, f)?.map(Shared::from_heap))
    }
    #[track_caller]
    unsafe fn from_raw_init(n: usize, init: impl FnOnce(*mut T)) -> Option<Self> {
        // SAFETY: forwarded contract.
        unsafe { Heap::from_raw_init(n, init) }.map(Shared::from_heap)
    }
    unsafe fn try_from_raw_init(
        op: &'static str,
        n: usize,
        init: impl FnOnce(*mut T),
    ) -> Result<Option<Self>, crate::ShapeError> {
        // SAFETY: forwarded contract.
        Ok(unsafe { Heap::try_from_raw_init(op, n, init) }?.map(Shared::from_heap))
    }
}
