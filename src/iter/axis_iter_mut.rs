//! Mutable sub-views along axes: [`Tensor::outer_iter_mut`], [`Tensor::axis_iter_mut`],
//! [`Tensor::lanes_mut`] and [`Tensor::axis_chunks_mut`] (ndarray's names), each item a
//! mutable strided view of the tensor's own elements. The items of one iterator never
//! share an element, so they may all be alive at once (collected, or sent to threads).

use super::axis_iter::{locate_item, SubViews};
use crate::error::or_panic;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Axis, AxisAt, Dyn, DynRank, Extents, RemoveAxis};
use crate::layout::{Layout, Strided};
use crate::storage::{DenseStorageMut, ViewMut};
use crate::tensor::Tensor;
use core::marker::PhantomData;

/// An iterator over disjoint mutable views of one shape (`E2`) in a tensor of extents `E`;
/// see the module docs for the methods that make one.
pub struct SubViewsMut<'a, T, E: Extents, S: Layout<E>, E2: Extents> {
    ptr: *mut T,
    len: usize,
    extents: E,
    mapping: S::Mapping,
    grid: Vec<usize>,
    steps: Vec<isize>,
    item: E2,
    strides: E2::Strides,
    chunk: Option<(usize, usize, usize)>,
    next: usize,
    end: usize,
    _borrow: PhantomData<&'a mut T>,
}

// SAFETY: the items are disjoint `&mut`-like views of the borrowed elements, as
// `slice::ChunksMut`; sending the iterator sends them.
unsafe impl<T: Send, E: Extents, S: Layout<E>, E2: Extents> Send for SubViewsMut<'_, T, E, S, E2> {}
// SAFETY: a shared iterator hands out nothing.
unsafe impl<T: Sync, E: Extents, S: Layout<E>, E2: Extents> Sync for SubViewsMut<'_, T, E, S, E2> {}

impl<'a, T, E: Extents, S: Layout<E>, E2: Extents> SubViewsMut<'a, T, E, S, E2> {
    /// The geometry of `views` (made from `t`, whose unique layout makes the items
    /// disjoint) over the exclusive borrow of `t`.
    fn new<St: DenseStorageMut<T>>(
        t: &'a mut Tensor<T, E, S, St>,
        views: impl FnOnce(&Tensor<T, E, S, St>) -> Result<SubViews<'_, T, E, S, E2>, ShapeError>,
    ) -> Result<Self, ShapeError> {
        let v = views(t)?;
        let (grid, steps, item, strides, chunk, end) = (v.grid, v.steps, v.item, v.strides, v.chunk, v.end);
        let (extents, mapping, len) = (t.extents.clone(), t.mapping.clone(), t.storage.region_len());
        let ptr = t.storage.as_mut_ptr();
        Ok(SubViewsMut {
            ptr,
            len,
            extents,
            mapping,
            grid,
            steps,
            item,
            strides,
            chunk,
            next: 0,
            end,
            _borrow: PhantomData,
        })
    }

    /// The `i`-th view of the grid (`i < end`), handed out once.
    fn item_at(&mut self, i: usize) -> Tensor<T, E2, Strided, ViewMut<'a, T>> {
        let (first, ext) = locate_item(&self.grid, &self.steps, &self.item, self.chunk, i);
        // SAFETY: the region is exclusively borrowed for 'a; the item reaches positions of
        // the tensor (each constructor sizes the grid so), and items at distinct grid
        // points share no element (distinct indices of a writable tensor are distinct
        // positions), so each view is the only one that reaches its elements. Every grid
        // point is handed out at most once (`next` and `end` only move towards each other).
        let v = unsafe {
            let base = Tensor::<T, E, S, ViewMut<'a, T>>::from_parts_unchecked(
                ViewMut::from_raw(self.ptr, self.len),
                self.extents.clone(),
                self.mapping.clone(),
            );
            base.relayout(ext, self.strides.clone(), first)
        };
        v.expect("a strided mapping takes any strides")
    }

    /// Splits the remaining views into the first `n` and the rest; panics when `n` exceeds
    /// [`ExactSizeIterator::len`].
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let mut a = tensor![[1, 2], [3, 4], [5, 6]];
    /// let (head, tail) = a.outer_iter_mut().split_at(1);
    /// for (mut h, t) in head.zip(tail) {
    ///     h.assign(&t); // both alive at once: they share no element
    /// }
    /// assert_eq!(a.to_vec(), [3, 4, 3, 4, 5, 6]);
    /// ```
    #[track_caller]
    pub fn split_at(self, n: usize) -> (Self, Self) {
        let len = self.end - self.next;
        assert!(n <= len, "split_at: {n} is past the {len} remaining views");
        let head = SubViewsMut {
            ptr: self.ptr,
            len: self.len,
            extents: self.extents.clone(),
            mapping: self.mapping.clone(),
            grid: self.grid.clone(),
            steps: self.steps.clone(),
            item: self.item.clone(),
            strides: self.strides.clone(),
            chunk: self.chunk,
            next: self.next,
            end: self.next + n,
            _borrow: PhantomData,
        };
        let mut tail = self;
        tail.next += n;
        (head, tail)
    }
}

impl<'a, T, E: Extents, S: Layout<E>, E2: Extents> Iterator for SubViewsMut<'a, T, E, S, E2> {
    type Item = Tensor<T, E2, Strided, ViewMut<'a, T>>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        self.next += 1;
        Some(self.item_at(self.next - 1))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.end - self.next, Some(self.end - self.next))
    }
}
impl<T, E: Extents, S: Layout<E>, E2: Extents> ExactSizeIterator for SubViewsMut<'_, T, E, S, E2> {}
impl<T, E: Extents, S: Layout<E>, E2: Extents> core::iter::FusedIterator for SubViewsMut<'_, T, E, S, E2> {}
impl<T, E: Extents, S: Layout<E>, E2: Extents> DoubleEndedIterator for SubViewsMut<'_, T, E, S, E2> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        self.end -= 1;
        Some(self.item_at(self.end))
    }
}

/// # Mutable sub-views along axes (no copies)
impl<T, E: Extents, S: Layout<E>, St: DenseStorageMut<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::axis_iter_mut`]; `Err` only for a [`DynRank`] tensor without axis `I`.
        pub fn try_axis_iter_mut[const I: usize]::<I>(
            &mut self,
        ) -> Result<SubViewsMut<'_, T, E, S, <E as RemoveAxis<I>>::Output>, ShapeError>
        where [E: RemoveAxis<I>]
        {
            SubViewsMut::new(self, |t| t.axis_views("axis_iter_mut", I))
        }
        /// Mutable views at index 0, 1, … along axis `I`, which they lack (ndarray's
        /// `axis_iter_mut(Axis(I))`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let mut a = tensor![[1, 2, 3], [4, 5, 6]];
        /// for (j, mut col) in a.axis_iter_mut::<1>().enumerate() {
        ///     col.iter_mut().for_each(|x| *x *= j as i32);
        /// }
        /// assert_eq!(a.to_vec(), [0, 2, 6, 0, 5, 12]);
        /// ```
        pub fn axis_iter_mut;
    }
    /// Mutable sub-tensors along the first axis (ndarray's `outer_iter_mut`).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let mut a = tensor![[1, 2], [3, 4]];
    /// a.outer_iter_mut().rev().enumerate().for_each(|(i, mut row)| row.fill(i as i32));
    /// assert_eq!(a.to_vec(), [1, 1, 0, 0]);
    /// ```
    #[track_caller]
    pub fn outer_iter_mut(&mut self) -> SubViewsMut<'_, T, E, S, <E as RemoveAxis<0>>::Output>
    where
        E: RemoveAxis<0>,
    {
        or_panic(self.try_axis_iter_mut::<0>())
    }
    forms! {
        /// [`Tensor::axis_iter_mut`] with the axis chosen at run time (negative counts from the
        /// end); `Err` outside `-rank..rank`.
        pub fn try_axis_iter_dyn_mut[](
            &mut self,
            axis: impl Into<Axis>,
        ) -> Result<SubViewsMut<'_, T, E, S, DynRank>, ShapeError>
        {
            let axis = axis.into().resolve("axis_iter_dyn_mut", self.rank())?;
            SubViewsMut::new(self, |t| t.axis_views("axis_iter_dyn_mut", axis))
        }
        /// See [`Tensor::try_axis_iter_dyn_mut`].
        pub fn axis_iter_dyn_mut;
    }
    forms! {
        /// See [`Tensor::lanes_mut`].
        pub fn try_lanes_mut[const I: usize]::<I>(
            &mut self,
        ) -> Result<SubViewsMut<'_, T, E, S, (<E as AxisAt<I>>::Dim,)>, ShapeError>
        where [E: AxisAt<I>]
        {
            SubViewsMut::new(self, |t| t.lane_views("lanes_mut", I))
        }
        /// Every 1-D mutable view along axis `I` (ndarray's `lanes_mut(Axis(I))`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let mut a = tensor![[3, 1, 2], [9, 7, 8]];
        /// for mut row in a.lanes_mut::<1>() {
        ///     let first = row[[0]];
        ///     row.iter_mut().for_each(|x| *x -= first);
        /// }
        /// assert_eq!(a.to_vec(), [0, -2, -1, 0, -2, -1]);
        /// ```
        pub fn lanes_mut;
    }
    forms! {
        /// [`Tensor::lanes_mut`] along a run-time axis (negative counts from the end); `Err`
        /// outside `-rank..rank`.
        pub fn try_lanes_dyn_mut[](
            &mut self,
            axis: impl Into<Axis>,
        ) -> Result<SubViewsMut<'_, T, E, S, (Dyn,)>, ShapeError>
        {
            let axis = axis.into().resolve("lanes_dyn_mut", self.rank())?;
            SubViewsMut::new(self, |t| t.lane_views("lanes_dyn_mut", axis))
        }
        /// See [`Tensor::try_lanes_dyn_mut`].
        pub fn lanes_dyn_mut;
    }
    forms! {
        /// See [`Tensor::axis_chunks_mut`]; `Err` when `size` is 0 (or, for [`DynRank`],
        /// without axis `I`).
        pub fn try_axis_chunks_mut[const I: usize]::<I>(
            &mut self,
            size: usize,
        ) -> Result<SubViewsMut<'_, T, E, S, E::Dynamic>, ShapeError>
        where [E: AxisAt<I>]
        {
            SubViewsMut::new(self, |t| t.chunk_views("axis_chunks_mut", I, size))
        }
        /// Mutable views of `size` consecutive indices along axis `I`, the last one shorter
        /// when `size` does not divide the extent (ndarray's `axis_chunks_iter_mut`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let mut a = tensor![1, 2, 3, 4, 5];
        /// for (k, mut c) in a.axis_chunks_mut::<0>(2).enumerate() {
        ///     c.fill(k as i32);
        /// }
        /// assert_eq!(a.to_vec(), [0, 0, 1, 1, 2]);
        /// ```
        #[doc(alias = "axis_chunks_iter_mut")]
        pub fn axis_chunks_mut;
    }
    forms! {
        /// [`Tensor::axis_chunks_mut`] along a run-time axis; `Err` as
        /// [`Tensor::try_axis_chunks_mut`] and outside `-rank..rank`.
        pub fn try_axis_chunks_dyn_mut[](
            &mut self,
            axis: impl Into<Axis>,
            size: usize,
        ) -> Result<SubViewsMut<'_, T, E, S, E::Dynamic>, ShapeError>
        {
            let axis = axis.into().resolve("axis_chunks_dyn_mut", self.rank())?;
            SubViewsMut::new(self, |t| t.chunk_views("axis_chunks_dyn_mut", axis, size))
        }
        /// See [`Tensor::try_axis_chunks_dyn_mut`].
        pub fn axis_chunks_dyn_mut;
    }
}
