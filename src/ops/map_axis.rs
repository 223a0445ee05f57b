//! Closures along an axis (ndarray's `map_axis`, `fold_axis`, `accumulate_axis_inplace`;
//! numpy's `apply_along_axis` for a scalar-valued function, `ufunc.accumulate`): each
//! 1-D lane along the axis is handed to the closure as a view, the lanes in row-major
//! order of the other axes.

use crate::error::or_panic;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Axis, AxisAt, Dyn, Extents, RemoveAxis, RemoveAxisDyn};
use crate::layout::{Layout, Strided};
use crate::storage::{DenseStorage, DenseStorageMut, View};
use crate::tensor::Tensor;

/// # Closures along an axis
impl<T, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::map_axis`]; `Err` only for a [`DynRank`](crate::DynRank) tensor
        /// without axis `I`.
        pub fn try_map_axis[const I: usize, B]::<I, B>(
            &self,
            f: impl FnMut(Tensor<T, (<E as AxisAt<I>>::Dim,), Strided, View<'_, T>>) -> B,
        ) -> Result<Tensor<B, <E as RemoveAxis<I>>::Output>, ShapeError>
        where [E: AxisAt<I> + RemoveAxis<I>]
        {
            let ext = RemoveAxis::<I>::remove_axis(&self.extents)?;
            let v: Vec<B> = self.try_lanes::<I>()?.map(f).collect();
            Tensor::try_from_vec(ext, v).map_err(|(e, _)| e)
        }
        /// One value per 1-D lane along axis `I`, computed by `f` from the lane's view (ndarray's
        /// `map_axis(Axis(I), f)`); the result lacks axis `I`.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 5, 3], [4, 2, 6]];
        /// // The spread of each row.
        /// let spread = a.map_axis::<1, _>(|row| row.max().unwrap() - row.min().unwrap());
        /// assert_eq!(spread.to_vec(), [4, 4]);
        /// ```
        pub fn map_axis;
    }
    forms! {
        /// [`Tensor::map_axis`] along a run-time axis (negative counts from the end); `Err`
        /// outside `-rank..rank`.
        pub fn try_map_axis_dyn[B](
            &self,
            axis: impl Into<Axis>,
            f: impl FnMut(Tensor<T, (Dyn,), Strided, View<'_, T>>) -> B,
        ) -> Result<Tensor<B, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            let axis = axis.into().resolve("map_axis_dyn", self.rank())?;
            let ext = self.extents.remove_axis_dyn("map_axis_dyn", axis)?;
            let v: Vec<B> = self.try_lanes_dyn(axis)?.map(f).collect();
            Tensor::try_from_vec(ext, v).map_err(|(e, _)| e)
        }
        /// See [`Tensor::try_map_axis_dyn`].
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<i32, DynRank>::from_vec(vec![2, 3], vec![1, 5, 3, 4, 2, 6]);
        /// assert_eq!(a.map_axis_dyn(-1, |row| row.iter().filter(|&&x| x > 2).count()).to_vec(), [2, 2]);
        /// ```
        pub fn map_axis_dyn;
    }
    /// Folds each lane along axis `I` from `init` (ndarray's `fold_axis`); the result lacks
    /// axis `I`.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let a = tensor![[1, 2, 3], [4, 5, 6]];
    /// assert_eq!(a.fold_axis::<0, _>(0, |acc, &x| acc * 10 + x).to_vec(), [14, 25, 36]);
    /// ```
    #[track_caller]
    pub fn fold_axis<const I: usize, B: Clone>(
        &self,
        init: B,
        mut f: impl FnMut(B, &T) -> B,
    ) -> Tensor<B, <E as RemoveAxis<I>>::Output>
    where
        E: AxisAt<I> + RemoveAxis<I>,
    {
        self.map_axis::<I, B>(|lane| lane.iter().fold(init.clone(), &mut f))
    }
    /// [`Tensor::fold_axis`] along a run-time axis; `Err` outside `-rank..rank`.
    pub fn try_fold_axis_dyn<B: Clone>(
        &self,
        axis: impl Into<Axis>,
        init: B,
        mut f: impl FnMut(B, &T) -> B,
    ) -> Result<Tensor<B, <E as RemoveAxisDyn>::Output>, ShapeError>
    where
        E: RemoveAxisDyn,
    {
        self.try_map_axis_dyn(axis, |lane| lane.iter().fold(init.clone(), &mut f))
    }
    /// See [`Tensor::try_fold_axis_dyn`].
    #[track_caller]
    pub fn fold_axis_dyn<B: Clone>(
        &self,
        axis: impl Into<Axis>,
        init: B,
        f: impl FnMut(B, &T) -> B,
    ) -> Tensor<B, <E as RemoveAxisDyn>::Output>
    where
        E: RemoveAxisDyn,
    {
        or_panic(self.try_fold_axis_dyn(axis, init, f))
    }
}

impl<T, E: Extents, S: Layout<E>, St: DenseStorageMut<T>> Tensor<T, E, S, St> {
    /// Along each lane of axis `I`, calls `f(&previous, &mut current)` from the second
    /// element on, in order, so each element can absorb the ones before it (ndarray's
    /// `accumulate_axis_inplace`; numpy's `np.add.accumulate(a, axis=I, out=a)` with
    /// `|p, c| *c += *p`).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let mut a = tensor![[1, 2, 3], [4, 5, 6]];
    /// a.accumulate_axis_inplace::<1>(|p, c| *c += *p);
    /// assert_eq!(a.to_vec(), [1, 3, 6, 4, 9, 15]);
    /// ```
    #[track_caller]
    pub fn accumulate_axis_inplace<const I: usize>(&mut self, mut f: impl FnMut(&T, &mut T))
    where
        E: AxisAt<I>,
    {
        for mut lane in self.lanes_mut::<I>() {
            accumulate(&mut lane, &mut f);
        }
    }
    /// [`Tensor::accumulate_axis_inplace`] along a run-time axis (negative counts from the
    /// end); `Err` outside `-rank..rank`, with nothing changed.
    pub fn try_accumulate_axis_inplace_dyn(
        &mut self,
        axis: impl Into<Axis>,
        mut f: impl FnMut(&T, &mut T),
    ) -> Result<(), ShapeError> {
        for mut lane in self.try_lanes_dyn_mut(axis)? {
            accumulate(&mut lane, &mut f);
        }
        Ok(())
    }
    /// See [`Tensor::try_accumulate_axis_inplace_dyn`].
    #[track_caller]
    pub fn accumulate_axis_inplace_dyn(&mut self, axis: impl Into<Axis>, f: impl FnMut(&T, &mut T)) {
        or_panic(self.try_accumulate_axis_inplace_dyn(axis, f))
    }
}

/// `f(&lane[i - 1], &mut lane[i])` for `i = 1, 2, …`.
fn accumulate<T, D: crate::extents::Dim, St: DenseStorageMut<T>>(
    lane: &mut Tensor<T, (D,), Strided, St>,
    f: &mut impl FnMut(&T, &mut T),
) {
    let mut it = lane.iter_mut();
    if let Some(mut prev) = it.next() {
        for cur in it {
            f(prev, cur);
            prev = cur;
        }
    }
}
