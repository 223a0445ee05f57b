//! Sub-views along axes: numpy's `for row in a` ([`Tensor::outer_iter`]),
//! [`Tensor::axis_iter`], the 1-D [`Tensor::lanes`] along an axis, sliding
//! [`Tensor::windows`], [`Tensor::axis_chunks`], and [`Tensor::row`]/[`Tensor::col`] of a
//! matrix. Every item is a strided view of the tensor's own elements: nothing is copied.
//!
//! The static-axis forms (`::<I>`) keep the extents of the other axes in the item type; the
//! `_dyn(axis)` forms take the axis at run time and give dynamic-rank or dynamic items.

use crate::error::or_panic;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::check_axis;
use crate::extents::{Axis, AxisAt, Dim, Dyn, DynRank, Extents, RemoveAxis};
use crate::layout::{Layout, Strided};
use crate::storage::{DenseStorage, View};
use crate::tensor::{Tensor, TensorView};

/// An iterator over views of one shape (`E2`) laid out on a grid of positions in a tensor
/// of extents `E`; see the module docs for the methods that make one.
pub struct SubViews<'a, T, E: Extents, S: Layout<E>, E2: Extents> {
    base: TensorView<'a, T, E, S>,
    pub(super) grid: Vec<usize>,
    pub(super) steps: Vec<isize>,
    pub(super) item: E2,
    pub(super) strides: E2::Strides,
    /// For `axis_chunks`: (axis, chunk length, axis extent); the last chunk is shorter.
    pub(super) chunk: Option<(usize, usize, usize)>,
    pub(super) next: usize,
    pub(super) end: usize,
}

impl<'a, T, E: Extents, S: Layout<E>, E2: Extents> SubViews<'a, T, E, S, E2> {
    /// The position of grid point `i` relative to element `[0, …, 0]`, and the extents of
    /// its item.
    fn locate(&self, i: usize) -> (isize, E2) {
        locate_item(&self.grid, &self.steps, &self.item, self.chunk, i)
    }

    /// The `i`-th view of the grid (`i < end`).
    fn item_at(&self, i: usize) -> Tensor<T, E2, Strided, View<'a, T>> {
        let (first, ext) = self.locate(i);
        // SAFETY: `first` is the position of a grid point whose item, with the tensor's own
        // strides, stays inside the tensor (each constructor sizes the grid so), and the
        // positions of distinct indices are distinct as they are in the tensor.
        let v = unsafe {
            let b = &self.base;
            Tensor::<T, E, S, View<'a, T>>::from_parts_unchecked(b.storage, b.extents.clone(), b.mapping.clone())
                .relayout(ext, self.strides.clone(), first)
        };
        v.expect("a strided mapping takes any strides")
    }

    /// Splits the remaining views into the first `n` and the rest (ndarray's
    /// `AxisIter::split_at`); panics when `n` exceeds [`ExactSizeIterator::len`].
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let a = tensor![[1, 2], [3, 4], [5, 6]];
    /// let (head, tail) = a.outer_iter().split_at(1);
    /// assert_eq!(head.map(|r| r.to_vec()).collect::<Vec<_>>(), [[1, 2]]);
    /// assert_eq!(tail.rev().map(|r| r.to_vec()).collect::<Vec<_>>(), [[5, 6], [3, 4]]);
    /// ```
    #[track_caller]
    pub fn split_at(self, n: usize) -> (Self, Self) {
        let len = self.end - self.next;
        assert!(n <= len, "split_at: {n} is past the {len} remaining views");
        let mut head = self.clone();
        head.end = self.next + n;
        let mut tail = self;
        tail.next += n;
        (head, tail)
    }
}

/// The position of grid point `i` (row-major over `grid`, `steps` apart) and the extents
/// of its item: `item`, or for chunks the chunk's length along its axis.
pub(super) fn locate_item<E2: Extents>(
    grid: &[usize],
    steps: &[isize],
    item: &E2,
    chunk: Option<(usize, usize, usize)>,
    i: usize,
) -> (isize, E2) {
    let (mut rem, mut first) = (i, 0isize);
    for k in (0..grid.len()).rev() {
        first += (rem % grid[k]) as isize * steps[k];
        rem /= grid[k];
    }
    let ext = match chunk {
        None => item.clone(),
        Some((axis, size, total)) => {
            let mut d = item.dims();
            d.as_mut()[axis] = size.min(total - i * size);
            E2::from_dims(d.as_ref()).expect("a chunk has the extents of the chunk type")
        }
    };
    (first, ext)
}

impl<'a, T, E: Extents, S: Layout<E>, E2: Extents> Iterator for SubViews<'a, T, E, S, E2> {
    type Item = Tensor<T, E2, Strided, View<'a, T>>;
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
    fn nth(&mut self, n: usize) -> Option<Self::Item> {
        self.next = self.next.saturating_add(n).min(self.end);
        self.next()
    }
}
impl<T, E: Extents, S: Layout<E>, E2: Extents> ExactSizeIterator for SubViews<'_, T, E, S, E2> {}
impl<T, E: Extents, S: Layout<E>, E2: Extents> core::iter::FusedIterator for SubViews<'_, T, E, S, E2> {}
impl<T, E: Extents, S: Layout<E>, E2: Extents> DoubleEndedIterator for SubViews<'_, T, E, S, E2> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        self.end -= 1;
        Some(self.item_at(self.end))
    }
}
impl<T, E: Extents, S: Layout<E>, E2: Extents> Clone for SubViews<'_, T, E, S, E2> {
    fn clone(&self) -> Self {
        let b = &self.base;
        // SAFETY: the same borrowed storage, extents and mapping: a copy of a view.
        let base = unsafe { Tensor::from_parts_unchecked(b.storage, b.extents.clone(), b.mapping.clone()) };
        SubViews {
            base,
            grid: self.grid.clone(),
            steps: self.steps.clone(),
            item: self.item.clone(),
            strides: self.strides.clone(),
            chunk: self.chunk,
            next: self.next,
            end: self.end,
        }
    }
}

impl<'a, T, E: Extents, S: Layout<E>, E2: Extents> SubViews<'a, T, E, S, E2> {
    fn new(base: TensorView<'a, T, E, S>, grid: Vec<usize>, steps: Vec<isize>, item: E2, strides: &[isize]) -> Self {
        let mut s = item.zero_strides();
        s.as_mut().copy_from_slice(strides);
        let end = grid.iter().product();
        SubViews { base, grid, steps, item, strides: s, chunk: None, next: 0, end }
    }
}

/// `v` without element `k`.
fn without<X: Copy>(v: &[X], k: usize) -> Vec<X> {
    v.iter().enumerate().filter(|&(j, _)| j != k).map(|(_, &x)| x).collect()
}

/// # Sub-views along axes (no copies)
impl<T, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    pub(super) fn axis_views<E2: Extents>(
        &self,
        op: &'static str,
        axis: usize,
    ) -> Result<SubViews<'_, T, E, S, E2>, ShapeError> {
        check_axis(op, axis, self.rank())?;
        let (dims, strides) = (self.dims(), self.strides());
        let (dims, strides) = (dims.as_ref(), strides.as_ref());
        let item = crate::extents::extents_from(op, &without(dims, axis))?;
        Ok(SubViews::new(self.view(), vec![dims[axis]], vec![strides[axis]], item, &without(strides, axis)))
    }
    forms! {
        /// See [`Tensor::axis_iter`]; `Err` only for a [`DynRank`] tensor without axis `I`.
        pub fn try_axis_iter[const I: usize]::<I>(
            &self,
        ) -> Result<SubViews<'_, T, E, S, <E as RemoveAxis<I>>::Output>, ShapeError>
        where [E: RemoveAxis<I>]
        {
            self.axis_views("axis_iter", I)
        }
        /// The views at index 0, 1, … along axis `I`, which they lack (numpy's `a[:, i]` for
        /// `I = 1`, in a loop).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2, 3], [4, 5, 6]];
        /// let cols: Vec<Vec<i32>> = a.axis_iter::<1>().map(|c| c.to_vec()).collect();
        /// assert_eq!(cols, [[1, 4], [2, 5], [3, 6]]);
        /// ```
        pub fn axis_iter;
    }
    /// The sub-tensors along the first axis, numpy's `for x in a` (`axis_iter::<0>`).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let a = tensor![[1, 2], [3, 4]];
    /// let sums: Vec<i32> = a.outer_iter().map(|row| row.iter().sum()).collect();
    /// assert_eq!(sums, [3, 7]);
    /// ```
    #[track_caller]
    pub fn outer_iter(&self) -> SubViews<'_, T, E, S, <E as RemoveAxis<0>>::Output>
    where
        E: RemoveAxis<0>,
    {
        or_panic(self.try_axis_iter::<0>())
    }
    forms! {
        /// [`Tensor::axis_iter`] with the axis chosen at run time; `Err` outside `-rank..rank` (a negative axis counts from the end).
        pub fn try_axis_iter_dyn[](&self, axis: impl Into<Axis>) -> Result<SubViews<'_, T, E, S, DynRank>, ShapeError>
        {
            let axis = axis.into().resolve("axis_iter_dyn", self.rank())?;
            self.axis_views("axis_iter_dyn", axis)
        }
        /// [`Tensor::axis_iter`] with the axis chosen at run time; the items have dynamic rank.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2], [3, 4]];
        /// assert_eq!(a.axis_iter_dyn(1).nth(1).unwrap().to_vec(), [2, 4]);
        /// ```
        pub fn axis_iter_dyn;
    }

    pub(super) fn lane_views<D: Dim>(
        &self,
        op: &'static str,
        axis: usize,
    ) -> Result<SubViews<'_, T, E, S, (D,)>, ShapeError> {
        check_axis(op, axis, self.rank())?;
        let (dims, strides) = (self.dims(), self.strides());
        let (dims, strides) = (dims.as_ref(), strides.as_ref());
        let item = crate::extents::extents_from(op, &[dims[axis]])?;
        Ok(SubViews::new(self.view(), without(dims, axis), without(strides, axis), item, &[strides[axis]]))
    }
    forms! {
        /// See [`Tensor::lanes`]; `Err` only for a [`DynRank`] tensor without axis `I`.
        pub fn try_lanes[const I: usize]::<I>(
            &self,
        ) -> Result<SubViews<'_, T, E, S, (<E as AxisAt<I>>::Dim,)>, ShapeError>
        where [E: AxisAt<I>]
        {
            self.lane_views("lanes", I)
        }
        /// Every 1-D view along axis `I`, the other axes in row-major order (ndarray's
        /// `lanes(Axis(I))`: for a matrix, `lanes::<1>()` are its rows).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2, 3], [4, 5, 6]];
        /// let maxima: Vec<i32> = a.lanes::<0>().map(|l| *l.iter().max().unwrap()).collect();
        /// assert_eq!(maxima, [4, 5, 6]);
        /// ```
        pub fn lanes;
    }
    forms! {
        /// [`Tensor::lanes`] with the axis chosen at run time; `Err` outside `-rank..rank` (a negative axis counts from the end).
        pub fn try_lanes_dyn[](&self, axis: impl Into<Axis>) -> Result<SubViews<'_, T, E, S, (Dyn,)>, ShapeError>
        {
            let axis = axis.into().resolve("lanes_dyn", self.rank())?;
            self.lane_views("lanes_dyn", axis)
        }
        /// [`Tensor::lanes`] with the axis chosen at run time.
        pub fn lanes_dyn;
    }

    forms! {
        /// See [`Tensor::windows`].
        pub fn try_windows[](&self, window: &[usize]) -> Result<SubViews<'_, T, E, S, E::Dynamic>, ShapeError>
        {
            let (dims, strides) = (self.dims(), self.strides());
            let (dims, strides) = (dims.as_ref(), strides.as_ref());
            if window.len() != dims.len() {
                return Err(ShapeError::RankMismatch { op: "windows", expected: dims.len(), found: window.len() });
            }
            if let Some(k) = (0..dims.len()).find(|&k| window[k] == 0 || window[k] > dims[k]) {
                return Err(ShapeError::InvalidArgument {
                    op: "windows",
                    reason: format!("window {window:?} on extents {dims:?}: axis {k} needs 1 <= window <= extent"),
                });
            }
            let grid = dims.iter().zip(window).map(|(&n, &w)| n - w + 1).collect();
            let item = E::Dynamic::from_dims(window)?;
            Ok(SubViews::new(self.view(), grid, strides.to_vec(), item, strides))
        }
        /// Every window of extents `window`, sliding by one along each axis, in row-major order
        /// of their first element (numpy's `sliding_window_view`). `Err` when the rank differs
        /// or a window extent is 0 or larger than the axis.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![1, 2, 3, 4];
        /// let sums: Vec<i32> = a.windows(&[2]).map(|w| w.iter().sum()).collect();
        /// assert_eq!(sums, [3, 5, 7]);
        /// ```
        pub fn windows;
    }

    pub(super) fn chunk_views(
        &self,
        op: &'static str,
        axis: usize,
        size: usize,
    ) -> Result<SubViews<'_, T, E, S, E::Dynamic>, ShapeError> {
        check_axis(op, axis, self.rank())?;
        if size == 0 {
            return Err(ShapeError::InvalidArgument { op, reason: "the chunk length is 0".into() });
        }
        let (dims, strides) = (self.dims(), self.strides());
        let (dims, strides) = (dims.as_ref(), strides.as_ref());
        let n = dims[axis];
        let mut item = dims.to_vec();
        item[axis] = size.min(n);
        let item = E::Dynamic::from_dims(&item)?;
        // A chunk step past the tensor is never taken: the last chunk starts inside it.
        let step = strides[axis].checked_mul(size as isize).unwrap_or(0);
        let mut v = SubViews::new(self.view(), vec![n.div_ceil(size)], vec![step], item, strides);
        v.chunk = Some((axis, size, n));
        Ok(v)
    }
    forms! {
        /// See [`Tensor::axis_chunks`]; `Err` when `size` is 0 (or, for [`DynRank`], without
        /// axis `I`).
        pub fn try_axis_chunks[const I: usize]::<I>(
            &self,
            size: usize,
        ) -> Result<SubViews<'_, T, E, S, E::Dynamic>, ShapeError>
        where [E: AxisAt<I>]
        {
            self.chunk_views("axis_chunks", I, size)
        }
        /// Views of `size` consecutive indices along axis `I` (the last one shorter when
        /// `size` does not divide the extent), ndarray's `axis_chunks_iter`.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![1, 2, 3, 4, 5];
        /// let parts: Vec<Vec<i32>> = a.axis_chunks::<0>(2).map(|c| c.to_vec()).collect();
        /// assert_eq!(parts, [vec![1, 2], vec![3, 4], vec![5]]);
        /// ```
        pub fn axis_chunks;
    }
    forms! {
        /// [`Tensor::axis_chunks`] with the axis chosen at run time; `Err` outside `-rank..rank` (a negative axis counts from the end)
        /// or `size` is 0.
        pub fn try_axis_chunks_dyn[](
            &self,
            axis: impl Into<Axis>,
            size: usize,
        ) -> Result<SubViews<'_, T, E, S, E::Dynamic>, ShapeError>
        {
            let axis = axis.into().resolve("axis_chunks_dyn", self.rank())?;
            self.chunk_views("axis_chunks_dyn", axis, size)
        }
        /// [`Tensor::axis_chunks`] with the axis chosen at run time.
        pub fn axis_chunks_dyn;
    }
}

/// The crate's dense storages. `row`/`col` of a dense matrix are bounded by it rather than
/// by [`DenseStorage`], which a downstream crate could implement for the compressed storage
/// whose `row`/`col` are sparse lanes: the two inherent methods would then overlap.
mod sealed {
    pub trait CrateDense {}
    impl<T> CrateDense for crate::storage::Heap<T> {}
    impl<T, IE: crate::storage::InlineExtents> CrateDense for crate::storage::Inline<T, IE> {}
    impl<T> CrateDense for crate::storage::Shared<T> {}
    impl<T> CrateDense for crate::storage::View<'_, T> {}
    impl<T> CrateDense for crate::storage::ViewMut<'_, T> {}
    #[cfg(feature = "mmap")]
    impl<T> CrateDense for crate::storage::Mmap<T> {}
    #[cfg(feature = "mmap")]
    impl<T> CrateDense for crate::storage::MmapMut<T> {}
}

/// # Rows and columns of a dense matrix (views)
///
/// For the crate's dense storages; with a storage of your own, use
/// [`Tensor::index_axis`] (`index_axis::<0>(i)` is row `i`).
#[allow(private_bounds)]
impl<T, R: Dim, C: Dim, S: Layout<(R, C)>, St: DenseStorage<T> + sealed::CrateDense> Tensor<T, (R, C), S, St> {
    forms! {
        /// See [`Tensor::row`].
        pub fn try_row[](&self, i: usize) -> Result<Tensor<T, (C,), Strided, View<'_, T>>, ShapeError>
        {
            self.view().try_into_index_axis::<0>(i)
        }
        /// Row `i` as a view (numpy's `a[i, :]`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2, 3], [4, 5, 6]];
        /// assert_eq!(a.row(1).to_vec(), [4, 5, 6]);
        /// assert_eq!(a.t().row(1).to_vec(), [2, 5]);
        /// ```
        pub fn row;
    }
    forms! {
        /// See [`Tensor::col`].
        pub fn try_col[](&self, j: usize) -> Result<Tensor<T, (R,), Strided, View<'_, T>>, ShapeError>
        {
            self.view().try_into_index_axis::<1>(j)
        }
        /// Column `j` as a view (numpy's `a[:, j]`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2, 3], [4, 5, 6]];
        /// assert_eq!(a.col(2).to_vec(), [3, 6]);
        /// ```
        pub fn col;
    }
}
