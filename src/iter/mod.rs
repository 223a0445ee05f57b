//! Iteration in logical (row-major index) order, whatever the stride policy:
//! [`Iter`], [`IterMut`], [`IndexedIter`] and owned [`IntoIterator`]; sub-views along axes
//! ([`SubViews`]: `outer_iter`, `axis_iter`, `lanes`, `windows`, `axis_chunks`).

mod axis_iter;
mod axis_iter_mut;
pub(crate) mod walk;

pub use axis_iter::SubViews;
pub use axis_iter_mut::SubViewsMut;

use crate::extents::Extents;
use crate::layout::Layout;
use crate::storage::{DenseStorage, DenseStorageMut, OwnedStorage};
use crate::tensor::Tensor;
use core::marker::PhantomData;
use walk::Walker;

/// Shared references to the elements in logical order.
pub struct Iter<'a, T, E: Extents> {
    base: *const T,
    walker: Walker<E::Index, E::Strides>,
    _borrow: PhantomData<&'a T>,
}

/// Mutable references to the elements in logical order.
pub struct IterMut<'a, T, E: Extents> {
    base: *mut T,
    walker: Walker<E::Index, E::Strides>,
    _borrow: PhantomData<&'a mut T>,
}

/// `(index, &element)` pairs in logical order.
pub struct IndexedIter<'a, T, E: Extents> {
    base: *const T,
    walker: Walker<E::Index, E::Strides>,
    _borrow: PhantomData<&'a T>,
}

// SAFETY: Iter hands out `&T` only; it is as thread-safe as `&[T]`.
unsafe impl<T: Sync, E: Extents> Send for Iter<'_, T, E> {}
// SAFETY: as above.
unsafe impl<T: Sync, E: Extents> Sync for Iter<'_, T, E> {}
// SAFETY: IterMut hands out disjoint `&mut T`; it is as thread-safe as `&mut [T]`.
unsafe impl<T: Send, E: Extents> Send for IterMut<'_, T, E> {}
// SAFETY: as above.
unsafe impl<T: Sync, E: Extents> Sync for IterMut<'_, T, E> {}
// SAFETY: as for Iter.
unsafe impl<T: Sync, E: Extents> Send for IndexedIter<'_, T, E> {}

/// The walker for value iteration: one run when the tensor is row-major contiguous.
fn value_walker<T, E: Extents, S: Layout<E>, St>(t: &Tensor<T, E, S, St>) -> Walker<E::Index, E::Strides> {
    let ext = t.extents();
    if S::is_row_major_contiguous(ext, &t.mapping) {
        let mut dims = ext.zero_index();
        let mut strides = ext.zero_strides();
        let r = dims.as_ref().len();
        if r > 0 {
            dims.as_mut().iter_mut().for_each(|d| *d = 1);
            dims.as_mut()[r - 1] = t.numel();
            strides.as_mut()[r - 1] = 1;
        }
        Walker::new(dims, strides, ext.zero_index())
    } else {
        Walker::collapsed(ext.dims(), t.strides(), ext.zero_index())
    }
}

/// # Iteration
// The storage bound is on each method, so that on a device tensor the method is found and
// the unmet bound says to copy with `.to_host()` (see `DenseStorage`), not E0599.
impl<T, E: Extents, S: Layout<E>, St> Tensor<T, E, S, St> {
    /// Iterates over `&T` in logical order.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let t = tensor![[1, 2, 3], [4, 5, 6]];
    /// assert_eq!(t.t().iter().copied().collect::<Vec<_>>(), [1, 4, 2, 5, 3, 6]);
    /// ```
    pub fn iter(&self) -> Iter<'_, T, E>
    where
        St: DenseStorage<T>,
    {
        Iter { base: self.as_ptr(), walker: value_walker(self), _borrow: PhantomData }
    }
    /// Iterates over `(index, &T)` in logical order.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let t = tensor![[1, 2], [3, 4]];
    /// let (idx, v) = t.indexed_iter().last().unwrap();
    /// assert_eq!((idx, *v), ([1, 1], 4));
    /// ```
    pub fn indexed_iter(&self) -> IndexedIter<'_, T, E>
    where
        St: DenseStorage<T>,
    {
        let ext = self.extents();
        IndexedIter {
            base: self.as_ptr(),
            walker: Walker::new(ext.dims(), self.strides(), ext.zero_index()),
            _borrow: PhantomData,
        }
    }
    /// The elements in logical order, copied into a `Vec`.
    #[track_caller]
    pub fn to_vec(&self) -> Vec<T>
    where
        T: Clone,
        St: DenseStorage<T>,
    {
        crate::error::or_panic(self.try_to_vec())
    }
    /// [`Tensor::to_vec`], with a refused allocation as `Err(OutOfMemory)` (a broadcast
    /// view may describe far more elements than memory holds).
    ///
    /// ```
    /// use mdtensor::{DynRank, ShapeError, Tensor};
    /// let one = Tensor::<u8, DynRank>::from_vec([1], vec![7]);
    /// let v = one.broadcast_to::<DynRank>([1 << 44]);
    /// assert!(matches!(v.try_to_vec(), Err(ShapeError::OutOfMemory { .. })));
    /// assert_eq!(v.try_slice_dyn(&[mdtensor::SliceElem::Index(5)]).unwrap().try_to_vec().unwrap(), [7]);
    /// ```
    pub fn try_to_vec(&self) -> Result<Vec<T>, crate::ShapeError>
    where
        T: Clone,
        St: DenseStorage<T>,
    {
        self.to_vec_op("to_vec")
    }
    /// [`Tensor::try_to_vec`] with the error naming `op`.
    pub(crate) fn to_vec_op(&self, op: &'static str) -> Result<Vec<T>, crate::ShapeError>
    where
        T: Clone,
        St: DenseStorage<T>,
    {
        let mut v = crate::alloc::try_vec_with_capacity(op, self.numel())?;
        v.extend(self.iter().cloned());
        Ok(v)
    }
}

/// # Iteration
impl<T, E: Extents, S: Layout<E>, St> Tensor<T, E, S, St> {
    /// Iterates over `&mut T` in logical order.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let mut t = tensor![[1, 2], [3, 4]];
    /// t.iter_mut().for_each(|x| *x *= 10);
    /// assert_eq!(t.to_vec(), [10, 20, 30, 40]);
    /// ```
    pub fn iter_mut(&mut self) -> IterMut<'_, T, E>
    where
        St: DenseStorageMut<T>,
    {
        let walker = value_walker(self);
        let off = S::offset(&self.mapping);
        // SAFETY: the offset is inside the region by the dense invariant.
        let base = unsafe { self.storage.as_mut_ptr().add(off) };
        IterMut { base, walker, _borrow: PhantomData }
    }
    /// Sets every element to `value`.
    pub fn fill(&mut self, value: T)
    where
        St: DenseStorageMut<T>,
        T: Clone,
    {
        self.iter_mut().for_each(|x| *x = value.clone());
    }
}

impl<'a, T, E: Extents> Iterator for Iter<'a, T, E> {
    type Item = &'a T;
    #[inline(always)]
    fn next(&mut self) -> Option<&'a T> {
        // SAFETY: the walker only yields positions of valid indices, which the dense
        // invariant puts inside the borrowed region.
        self.walker.next_pos().map(|p| unsafe { &*self.base.offset(p) })
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.walker.remaining, Some(self.walker.remaining))
    }
    #[inline]
    fn fold<B, F: FnMut(B, &'a T) -> B>(mut self, init: B, mut f: F) -> B {
        let mut acc = init;
        while let Some((p, n, s)) = self.walker.next_run() {
            if s == 1 {
                // SAFETY: a unit-stride run of valid positions is a contiguous slice inside
                // the borrowed region (dense invariant).
                let run = unsafe { core::slice::from_raw_parts(self.base.offset(p), n) };
                acc = run.iter().fold(acc, &mut f);
            } else {
                for t in 0..n as isize {
                    // SAFETY: every position of the run is valid (dense invariant).
                    acc = f(acc, unsafe { &*self.base.offset(p + t * s) });
                }
            }
        }
        acc
    }
}
impl<T, E: Extents> ExactSizeIterator for Iter<'_, T, E> {}
impl<T, E: Extents> core::iter::FusedIterator for Iter<'_, T, E> {}
impl<'a, T, E: Extents> DoubleEndedIterator for Iter<'a, T, E> {
    /// ```
    /// use mdtensor::tensor;
    /// let t = tensor![[1, 2, 3], [4, 5, 6]];
    /// assert_eq!(t.t().iter().rev().copied().collect::<Vec<_>>(), [6, 3, 5, 2, 4, 1]);
    /// ```
    #[inline]
    fn next_back(&mut self) -> Option<&'a T> {
        let mut idx = self.walker.index.clone();
        // SAFETY: as in `next`: a position of a valid index not yet visited.
        self.walker.next_back_pos(&mut idx).map(|p| unsafe { &*self.base.offset(p) })
    }
}
impl<T, E: Extents> Clone for Iter<'_, T, E> {
    fn clone(&self) -> Self {
        Iter { base: self.base, walker: self.walker.clone(), _borrow: PhantomData }
    }
}

impl<'a, T, E: Extents> Iterator for IterMut<'a, T, E> {
    type Item = &'a mut T;
    #[inline(always)]
    fn next(&mut self) -> Option<&'a mut T> {
        // SAFETY: positions are valid (dense invariant) and distinct, because writable
        // tensors have unique layouts (no zero strides), so each `&mut` is exclusive.
        self.walker.next_pos().map(|p| unsafe { &mut *self.base.offset(p) })
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.walker.remaining, Some(self.walker.remaining))
    }
    #[inline]
    fn fold<B, F: FnMut(B, &'a mut T) -> B>(mut self, init: B, mut f: F) -> B {
        let mut acc = init;
        while let Some((p, n, s)) = self.walker.next_run() {
            if s == 1 {
                // SAFETY: a unit-stride run is a contiguous, exclusively borrowed slice.
                let run = unsafe { core::slice::from_raw_parts_mut(self.base.offset(p), n) };
                acc = run.iter_mut().fold(acc, &mut f);
            } else {
                for t in 0..n as isize {
                    // SAFETY: valid, distinct positions (see `next`).
                    acc = f(acc, unsafe { &mut *self.base.offset(p + t * s) });
                }
            }
        }
        acc
    }
}
impl<T, E: Extents> ExactSizeIterator for IterMut<'_, T, E> {}
impl<T, E: Extents> core::iter::FusedIterator for IterMut<'_, T, E> {}
impl<'a, T, E: Extents> DoubleEndedIterator for IterMut<'a, T, E> {
    #[inline]
    fn next_back(&mut self) -> Option<&'a mut T> {
        let mut idx = self.walker.index.clone();
        // SAFETY: a valid position not yet visited from either end, distinct from every
        // other (see `next`), so the `&mut` is exclusive.
        self.walker.next_back_pos(&mut idx).map(|p| unsafe { &mut *self.base.offset(p) })
    }
}

impl<'a, T, E: Extents> Iterator for IndexedIter<'a, T, E> {
    type Item = (E::Index, &'a T);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let idx = self.walker.index.clone();
        // SAFETY: valid positions (dense invariant).
        self.walker.next_pos().map(|p| (idx, unsafe { &*self.base.offset(p) }))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.walker.remaining, Some(self.walker.remaining))
    }
}
impl<T, E: Extents> ExactSizeIterator for IndexedIter<'_, T, E> {}
impl<T, E: Extents> core::iter::FusedIterator for IndexedIter<'_, T, E> {}
impl<'a, T, E: Extents> DoubleEndedIterator for IndexedIter<'a, T, E> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        let mut idx = self.walker.index.clone();
        // SAFETY: valid positions (dense invariant).
        self.walker.next_back_pos(&mut idx).map(|p| (idx, unsafe { &*self.base.offset(p) }))
    }
}
impl<T, E: Extents> Clone for IndexedIter<'_, T, E> {
    fn clone(&self) -> Self {
        IndexedIter { base: self.base, walker: self.walker.clone(), _borrow: PhantomData }
    }
}

impl<'a, T, E: Extents, S: Layout<E>, St: DenseStorage<T>> IntoIterator for &'a Tensor<T, E, S, St> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T, E>;
    fn into_iter(self) -> Iter<'a, T, E> {
        self.iter()
    }
}

impl<'a, T, E: Extents, S: Layout<E>, St: DenseStorageMut<T>> IntoIterator for &'a mut Tensor<T, E, S, St> {
    type Item = &'a mut T;
    type IntoIter = IterMut<'a, T, E>;
    fn into_iter(self) -> IterMut<'a, T, E> {
        self.iter_mut()
    }
}

impl<T: Clone, E: Extents, S: Layout<E>, St: OwnedStorage<T>> IntoIterator for Tensor<T, E, S, St>
where
    S::Owned: Layout<E>,
{
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    /// The elements by value in logical order (no copy for a row-major [`crate::Heap`] tensor).
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}
