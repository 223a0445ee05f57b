//! Views that remove or insert one axis chosen at run time: `index_axis_dyn`,
//! `squeeze_dyn`, `unsqueeze_dyn` (the const-generic forms are in `axes.rs`, whose helpers
//! these share). With a static rank the result keeps a static rank with dynamic extents
//! ([`RemoveAxisDyn`], [`InsertAxisDyn`]); an axis out of range is `Err` from the `try_`
//! form.

use crate::error::or_panic;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Axis, Extents, InsertAxisDyn, RemoveAxisDyn};
use crate::layout::{Layout, Strided};
use crate::storage::{BorrowedStorage, ViewMutOf, ViewOf, Viewable, ViewableMut};
use crate::tensor::Tensor;

/// # Views: axes chosen at run time
impl<T, E: Extents, S: Layout<E>, St: BorrowedStorage<T>> Tensor<T, E, S, St> {
    /// The sub-tensor at `index` along the run-time axis `axis`, which disappears; `Err`
    /// outside `-rank..rank` (a negative axis counts from the end) or when `index` is out
    /// of bounds.
    pub fn try_into_index_axis_dyn(
        self,
        axis: impl Into<Axis>,
        index: usize,
    ) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output, Strided, St>, ShapeError>
    where
        E: RemoveAxisDyn,
    {
        let axis = axis.into().resolve("index_axis_dyn", self.rank())?;
        let ext = self.extents.remove_axis_dyn("index_axis_dyn", axis)?;
        self.fix_index("index_axis_dyn", ext, axis, index)
    }

    /// Removes the run-time axis `axis`, which must have extent 1; `Err` otherwise or outside
    /// `-rank..rank` (a negative axis counts from the end).
    pub fn try_into_squeezed_dyn(
        self,
        axis: impl Into<Axis>,
    ) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output, S::AxesChanged, St>, ShapeError>
    where
        E: RemoveAxisDyn,
        S::AxesChanged: Layout<<E as RemoveAxisDyn>::Output>,
    {
        let axis = axis.into().resolve("squeeze_dyn", self.rank())?;
        let ext = self.extents.remove_axis_dyn("squeeze_dyn", axis)?;
        self.drop_unit_axis("squeeze_dyn", ext, axis)
    }

    /// Inserts an axis of extent 1 before the run-time axis `axis` (`axis == rank`
    /// appends; a negative axis counts in the result, so `-1` appends, as numpy's
    /// `expand_dims`); `Err` outside `-rank-1..=rank`.
    pub fn try_into_unsqueezed_dyn(
        self,
        axis: impl Into<Axis>,
    ) -> Result<Tensor<T, <E as InsertAxisDyn>::Output, S::AxesChanged, St>, ShapeError>
    where
        E: InsertAxisDyn,
        S::AxesChanged: Layout<<E as InsertAxisDyn>::Output>,
    {
        // numpy's expand_dims counts a negative axis in the result: -1 appends.
        let axis = axis.into().resolve("unsqueeze_dyn", self.rank() + 1)?;
        let ext = self.extents.insert_axis_dyn("unsqueeze_dyn", axis, 1)?;
        self.add_unit_axis(ext, axis)
    }
}

/// # Views: axes chosen at run time
impl<T, E: Extents, S: Layout<E>, St: Viewable<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::try_into_index_axis_dyn`].
        pub fn try_index_axis_dyn[](
            &self,
            axis: impl Into<Axis>,
            index: usize,
        ) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output, Strided, ViewOf<'_, T, St>>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            self.view().try_into_index_axis_dyn(axis, index)
        }
        /// The view at `index` along the run-time axis `axis` (numpy's `np.take(a, index,
        /// axis)` without a copy); the rank drops by one and, for a static rank, the extents
        /// become dynamic.
        ///
        /// ```
        /// use mdtensor::{ext, tensor};
        /// let a = tensor![[1, 2, 3], [4, 5, 6]];
        /// let c = a.index_axis_dyn(1, 2);
        /// let _: &ext![_] = c.extents();
        /// assert_eq!(c.to_vec(), [3, 6]);
        /// assert!(a.try_index_axis_dyn(2, 0).is_err());
        /// ```
        pub fn index_axis_dyn;
    }
    forms! {
        /// See [`Tensor::try_into_squeezed_dyn`].
        #[allow(clippy::type_complexity)] // the view type of the policy after the change
        pub fn try_squeeze_dyn[](
            &self,
            axis: impl Into<Axis>,
        ) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output, S::AxesChanged, ViewOf<'_, T, St>>, ShapeError>
        where [E: RemoveAxisDyn, S::AxesChanged: Layout<<E as RemoveAxisDyn>::Output>]
        {
            self.view().try_into_squeezed_dyn(axis)
        }
        /// A view without the run-time axis `axis`, which must have extent 1.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<f32, DynRank>::zeros(DynRank::new(vec![3, 1, 2]));
        /// assert_eq!(a.squeeze_dyn(1).shape(), [3, 2]);
        /// assert!(a.try_squeeze_dyn(0).is_err()); // extent 3
        /// ```
        pub fn squeeze_dyn;
    }
    forms! {
        /// See [`Tensor::try_into_unsqueezed_dyn`].
        #[allow(clippy::type_complexity)] // the view type of the policy after the change
        pub fn try_unsqueeze_dyn[](
            &self,
            axis: impl Into<Axis>,
        ) -> Result<Tensor<T, <E as InsertAxisDyn>::Output, S::AxesChanged, ViewOf<'_, T, St>>, ShapeError>
        where [E: InsertAxisDyn, S::AxesChanged: Layout<<E as InsertAxisDyn>::Output>]
        {
            self.view().try_into_unsqueezed_dyn(axis)
        }
        /// A view with a new axis of extent 1 before the run-time axis `axis` (numpy's
        /// `expand_dims(a, axis)`).
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<f32, DynRank>::zeros(DynRank::new(vec![3, 2]));
        /// assert_eq!(a.unsqueeze_dyn(2).shape(), [3, 2, 1]);
        /// assert!(a.try_unsqueeze_dyn(3).is_err());
        /// ```
        pub fn unsqueeze_dyn;
    }
}

/// # Views: axes chosen at run time
impl<T, E: Extents, S: Layout<E>, St> Tensor<T, E, S, St> {
    /// A mutable view at `index` along the run-time axis `axis`.
    #[track_caller]
    pub fn index_axis_dyn_mut(
        &mut self,
        axis: impl Into<Axis>,
        index: usize,
    ) -> Tensor<T, <E as RemoveAxisDyn>::Output, Strided, ViewMutOf<'_, T, St>>
    where
        St: ViewableMut<T>,
        E: RemoveAxisDyn,
    {
        or_panic(self.view_mut().try_into_index_axis_dyn(axis, index))
    }
}
