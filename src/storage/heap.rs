//! Owned elements on the heap.

use super::{DenseStorage, DenseStorageMut, OwnedStorage, Storage};
use crate::alloc::AlignedBuf;

/// Owned heap storage, the default.
///
/// Two representations behind one type: a buffer the crate allocated itself (64-byte
/// aligned from 4 KiB, huge pages for large ones — see [`crate::alloc`]), used
/// by every constructor and every computed result; and a `Vec<T>` a user handed over with
/// `from_vec`, kept as is so that converting back with `into_vec` never copies.
/// `into_vec` of a crate-allocated buffer copies (once): the crate's buffers are not
/// `Vec`s, and from 4 KiB a `Vec` could not take over their larger alignment anyway.
pub struct Heap<T>(Repr<T>);

enum Repr<T> {
    Aligned(AlignedBuf<T>),
    Vec(Vec<T>),
}

impl<T> Heap<T> {
    /// The elements in memory order.
    pub fn as_slice(&self) -> &[T] {
        match &self.0 {
            Repr::Aligned(b) => b.as_slice(),
            Repr::Vec(v) => v,
        }
    }
    /// Wraps a buffer the crate allocated.
    pub(crate) fn from_aligned(buf: AlignedBuf<T>) -> Self {
        Heap(Repr::Aligned(buf))
    }
    /// The user's `Vec` back, without copying, when the buffer came from one.
    pub(crate) fn try_into_vec(self) -> Result<Vec<T>, Self> {
        match self.0 {
            Repr::Vec(v) => Ok(v),
            Repr::Aligned(b) => Err(Heap(Repr::Aligned(b))),
        }
    }
    /// Whether the buffer came from a user's `Vec` (so `into_vec` will not copy).
    pub fn is_vec_backed(&self) -> bool {
        matches!(self.0, Repr::Vec(_))
    }
}

impl<T: Clone> Clone for Heap<T> {
    #[allow(clippy::disallowed_methods, reason = "`Clone` cannot fail: a refused copy panics with the byte count")]
    fn clone(&self) -> Self {
        Heap(match &self.0 {
            Repr::Aligned(b) => Repr::Aligned(b.clone()),
            Repr::Vec(v) => Repr::Aligned(AlignedBuf::from_fn(v.len(), |i| v[i].clone())),
        })
    }
}

impl<T> Storage<T> for Heap<T> {
    const NAME: &'static str = "Heap";
}

// SAFETY: both representations point at `len` initialised elements they own.
unsafe impl<T> DenseStorage<T> for Heap<T> {
    #[inline(always)]
    fn as_ptr(&self) -> *const T {
        match &self.0 {
            Repr::Aligned(b) => b.as_ptr(),
            Repr::Vec(v) => v.as_ptr(),
        }
    }
    #[inline(always)]
    fn region_len(&self) -> usize {
        match &self.0 {
            Repr::Aligned(b) => b.len(),
            Repr::Vec(v) => v.len(),
        }
    }
    fn try_into_heap(self) -> Result<Heap<T>, Self> {
        Ok(self)
    }
}

// SAFETY: `&mut self` gives exclusive access to the owned elements.
unsafe impl<T> DenseStorageMut<T> for Heap<T> {
    #[inline(always)]
    fn as_mut_ptr(&mut self) -> *mut T {
        match &mut self.0 {
            Repr::Aligned(b) => b.as_mut_ptr(),
            Repr::Vec(v) => v.as_mut_ptr(),
        }
    }
}

// SAFETY: both constructors hold exactly the requested elements.
unsafe impl<T> OwnedStorage<T> for Heap<T> {
    #[track_caller]
    #[allow(clippy::disallowed_methods, reason = "the plain constructor; `try_from_fn_linear` is the fallible one")]
    fn from_fn_linear(n: usize, f: impl FnMut(usize) -> T) -> Option<Self> {
        Some(Heap(Repr::Aligned(AlignedBuf::from_fn(n, f))))
    }
    fn from_vec(v: Vec<T>) -> Result<Self, Vec<T>> {
        Ok(Heap(Repr::Vec(v)))
    }
    fn try_from_fn_linear(
        op: &'static str,
        n: usize,
        f: impl FnMut(usize) -> T,
    ) -> Result<Option<Self>, crate::ShapeError> {
        AlignedBuf::try_from_fn(n, f).map(|b| Some(Heap(Repr::Aligned(b)))).map_err(|e| e.with_op(op))
    }
    #[track_caller]
    #[allow(clippy::disallowed_methods, reason = "the plain constructor; `try_from_raw_init` is the fallible one")]
    unsafe fn from_raw_init(n: usize, init: impl FnOnce(*mut T)) -> Option<Self> {
        // SAFETY: forwarded contract.
        Some(Heap(Repr::Aligned(unsafe { AlignedBuf::from_raw_init(n, init) })))
    }
    unsafe fn try_from_raw_init(
        op: &'static str,
        n: usize,
        init: impl FnOnce(*mut T),
    ) -> Result<Option<Self>, crate::ShapeError> {
        // SAFETY: forwarded contract.
        let buf = unsafe { AlignedBuf::try_from_raw_init(n, init) }.map_err(|e| e.with_op(op))?;
        Ok(Some(Heap(Repr::Aligned(buf))))
    }
}
