//! numpy's `keepdims=True` after a reduction: the reduced axis comes back with extent 1,
//! for any storage (owned or borrowed) and without a copy. The axis is a const generic
//! (`keepdims::<1>()`) or a run-time value (`keepdims_dyn(1)`).

use super::axes::with_unit;
use crate::error::ShapeError;
use crate::extents::{Axis, Extents, InsertAxis, InsertAxisDyn, One};
use crate::layout::Layout;
use crate::storage::Viewable;
use crate::tensor::Tensor;

/// # Views: reduced axes kept as length 1
impl<T, E: Extents, S: Layout<E>, St: Viewable<T>> Tensor<T, E, S, St> {
    /// The same elements with a new axis of extent 1 at `axis`, for any storage (owned or
    /// borrowed): positions do not change, so nothing is copied.
    fn with_unit_axis<E2: Extents>(
        self,
        ext: E2,
        axis: usize,
    ) -> Result<Tensor<T, E2, S::AxesChanged, St>, (ShapeError, Self)>
    where
        S::AxesChanged: Layout<E2>,
    {
        let strides = with_unit(self.strides().as_ref(), axis, ext.zero_strides());
        match <S::AxesChanged as Layout<E2>>::mapping_for(&ext, &strides, S::offset(&self.mapping)) {
            // SAFETY: same storage and positions; the new axis contributes 0.
            Some(m) => Ok(unsafe { Tensor::from_parts_unchecked(self.storage, ext, m) }),
            None => Err((ShapeError::NotContiguous { op: "keepdims" }, self)),
        }
    }

    /// Re-inserts a reduced axis `I` as an axis of extent 1 (numpy's `keepdims=True`),
    /// without copying, for any storage; `Err` (with the tensor back) only for
    /// [`DynRank`](crate::DynRank) when `I > rank`.
    #[allow(clippy::type_complexity)] // the tensor handed back with the error
    pub fn try_keepdims<const I: usize>(
        self,
    ) -> Result<Tensor<T, <E as InsertAxis<I, One>>::Output, S::AxesChanged, St>, (ShapeError, Self)>
    where
        E: InsertAxis<I, One>,
        S::AxesChanged: Layout<<E as InsertAxis<I, One>>::Output>,
    {
        match self.extents.insert_axis(One) {
            Ok(ext) => self.with_unit_axis(ext, I),
            Err(e) => Err((e, self)),
        }
    }

    /// Re-inserts a reduced axis `I` as an axis of extent 1 (numpy's `keepdims=True`),
    /// without copying. See [`Tensor::try_keepdims`].
    ///
    /// ```
    /// use mdtensor::{prelude::*, ext, tensor};
    /// let t = tensor![[1, 2, 3], [4, 5, 6]];
    /// let k = t.sum_axis::<1>().keepdims::<1>();
    /// let _: &ext![2, 1] = k.extents();
    /// assert_eq!(k.to_vec(), [6, 15]);
    /// ```
    #[track_caller]
    pub fn keepdims<const I: usize>(self) -> Tensor<T, <E as InsertAxis<I, One>>::Output, S::AxesChanged, St>
    where
        E: InsertAxis<I, One>,
        S::AxesChanged: Layout<<E as InsertAxis<I, One>>::Output>,
    {
        match self.try_keepdims::<I>() {
            Ok(v) => v,
            Err((e, _)) => panic!("{e}"),
        }
    }

    /// Re-inserts a reduced run-time axis `axis` as an axis of extent 1, without copying:
    /// the twin of the `*_axis_dyn` reductions. `Err` (with the tensor back) outside
    /// `-rank-1..=rank` (a negative axis counts in the result, as numpy's `expand_dims`).
    #[allow(clippy::type_complexity)] // the tensor handed back with the error
    pub fn try_keepdims_dyn(
        self,
        axis: impl Into<Axis>,
    ) -> Result<Tensor<T, <E as InsertAxisDyn>::Output, S::AxesChanged, St>, (ShapeError, Self)>
    where
        E: InsertAxisDyn,
        S::AxesChanged: Layout<<E as InsertAxisDyn>::Output>,
    {
        // The axis counts in the result, one rank up: -1 appends, as numpy's expand_dims.
        let axis = match axis.into().resolve("keepdims_dyn", self.rank() + 1) {
            Ok(a) => a,
            Err(e) => return Err((e, self)),
        };
        match self.extents.insert_axis_dyn("keepdims_dyn", axis, 1) {
            Ok(ext) => self.with_unit_axis(ext, axis),
            Err(e) => Err((e, self)),
        }
    }

    /// See [`Tensor::try_keepdims_dyn`].
    ///
    /// ```
    /// use mdtensor::{ext, tensor};
    /// let t = tensor![[1, 2, 3], [4, 5, 6]];
    /// let axis = 1;
    /// let k = t.sum_axis_dyn(axis).keepdims_dyn(axis);
    /// let _: &ext![_, _] = k.extents();
    /// assert_eq!(k.shape(), [2, 1]);
    /// ```
    #[track_caller]
    pub fn keepdims_dyn(self, axis: impl Into<Axis>) -> Tensor<T, <E as InsertAxisDyn>::Output, S::AxesChanged, St>
    where
        E: InsertAxisDyn,
        S::AxesChanged: Layout<<E as InsertAxisDyn>::Output>,
    {
        match self.try_keepdims_dyn(axis) {
            Ok(v) => v,
            Err((e, _)) => panic!("{e}"),
        }
    }
}
