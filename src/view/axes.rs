//! Views that remove, insert or reverse one axis: squeeze, unsqueeze, index_axis, flip.
//!
//! The axis is a const generic, so for static rank an axis beyond the rank does not
//! compile; for [`DynRank`](crate::DynRank) it is a run-time `Err`. The forms with a
//! run-time axis (`index_axis_dyn`, …) are in `axes_dyn.rs` and share the helpers here;
//! `flip_dyn` is here, beside the older name `flip_axis`.

use crate::error::or_panic;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Axis, AxisAt, Const, Dim, Dyn, Extents, InsertAxis, One, RemoveAxis};
use crate::layout::arith::{advance, negated_stride};
use crate::layout::{Layout, Strided};
use crate::storage::{BorrowedStorage, ViewMutOf, ViewOf, Viewable, ViewableMut};
use crate::tensor::Tensor;

/// An axis that `squeeze` may remove: statically of extent 1, or dynamic (checked at run
/// time).
#[diagnostic::on_unimplemented(
    message = "cannot squeeze an axis of extent `{Self}`: only an axis of extent 1 can be removed",
    label = "this axis does not have extent 1"
)]
pub trait Squeezable: Dim {}
impl Squeezable for Const<1> {}
impl Squeezable for One {}
impl Squeezable for Dyn {}

/// Copies `src` into `out` without element `skip` (`out` is one shorter).
fn without<A: AsMut<[isize]>>(src: &[isize], skip: usize, mut out: A) -> A {
    let o = out.as_mut();
    for (k, &s) in src.iter().enumerate().filter(|&(k, _)| k != skip) {
        o[if k < skip { k } else { k - 1 }] = s;
    }
    out
}

/// Copies `src` into `out` with a new axis before `axis` (`out` is one longer). Its unit
/// stride keeps `RowMajor`/`ColMajor` checks simple; it is never multiplied by anything
/// but 0, since the axis has extent 1.
pub(super) fn with_unit<A: AsMut<[isize]>>(src: &[isize], axis: usize, mut out: A) -> A {
    let o = out.as_mut();
    for (k, &s) in src.iter().enumerate() {
        o[if k < axis { k } else { k + 1 }] = s;
    }
    o[axis] = 1;
    out
}

/// # Views: adding, removing and flipping axes
impl<T, E: Extents, S: Layout<E>, St: BorrowedStorage<T>> Tensor<T, E, S, St> {
    /// Removes axis `I`, which must have extent 1 (a static extent other than 1 does not
    /// compile).
    pub fn try_into_squeezed<const I: usize>(
        self,
    ) -> Result<Tensor<T, <E as RemoveAxis<I>>::Output, S::AxesChanged, St>, ShapeError>
    where
        E: RemoveAxis<I> + AxisAt<I>,
        <E as AxisAt<I>>::Dim: Squeezable,
        S::AxesChanged: Layout<<E as RemoveAxis<I>>::Output>,
    {
        let ext = self.extents.remove_axis()?;
        self.drop_unit_axis("squeeze", ext, I)
    }

    /// Inserts an axis of extent 1 before axis `I` (`I == rank` appends).
    pub fn try_into_unsqueezed<const I: usize>(
        self,
    ) -> Result<Tensor<T, <E as InsertAxis<I, One>>::Output, S::AxesChanged, St>, ShapeError>
    where
        E: InsertAxis<I, One>,
        S::AxesChanged: Layout<<E as InsertAxis<I, One>>::Output>,
    {
        let ext = self.extents.insert_axis(One)?;
        self.add_unit_axis(ext, I)
    }

    /// The sub-tensor at `index` along axis `I`, which disappears.
    pub fn try_into_index_axis<const I: usize>(
        self,
        index: usize,
    ) -> Result<Tensor<T, <E as RemoveAxis<I>>::Output, Strided, St>, ShapeError>
    where
        E: RemoveAxis<I>,
    {
        let ext = self.extents.remove_axis()?;
        self.fix_index("index_axis", ext, I, index)
    }

    /// Fixes `index` on `axis`, which disappears: `ext` is the extents without it.
    pub(super) fn fix_index<E2: Extents>(
        self,
        op: &'static str,
        ext: E2,
        axis: usize,
        index: usize,
    ) -> Result<Tensor<T, E2, Strided, St>, ShapeError> {
        let n = self.extents.extent(axis);
        if index >= n {
            return Err(ShapeError::IndexOutOfBounds { op, index: index as isize, axis, extent: n });
        }
        let src = self.strides();
        let first = advance(op, 0, index, src.as_ref()[axis])?;
        let strides = without(src.as_ref(), axis, ext.zero_strides());
        // SAFETY: fixing one in-bounds index selects a subset of the positions.
        unsafe { self.relayout(ext, strides, first) }
    }

    /// Removes `axis`, which must have extent 1: `ext` is the extents without it.
    pub(super) fn drop_unit_axis<E2: Extents>(
        self,
        op: &'static str,
        ext: E2,
        axis: usize,
    ) -> Result<Tensor<T, E2, S::AxesChanged, St>, ShapeError>
    where
        S::AxesChanged: Layout<E2>,
    {
        let n = self.extents.extent(axis);
        if n != 1 {
            return Err(ShapeError::InvalidArgument { op, reason: format!("axis {axis} has extent {n}, not 1") });
        }
        let strides = without(self.strides().as_ref(), axis, ext.zero_strides());
        // SAFETY: an axis of extent 1 contributes nothing to positions.
        unsafe { self.relayout(ext, strides, 0) }
    }

    /// Inserts an axis of extent 1 before `axis`: `ext` is the extents with it.
    pub(super) fn add_unit_axis<E2: Extents>(
        self,
        ext: E2,
        axis: usize,
    ) -> Result<Tensor<T, E2, S::AxesChanged, St>, ShapeError>
    where
        S::AxesChanged: Layout<E2>,
    {
        let strides = with_unit(self.strides().as_ref(), axis, ext.zero_strides());
        // SAFETY: the new axis only takes index 0: positions are unchanged.
        unsafe { self.relayout(ext, strides, 0) }
    }

    /// Reverses axis `axis` (a negative stride), numpy's `flip(a, axis)`.
    pub fn try_into_flipped(self, axis: impl Into<Axis>) -> Result<Tensor<T, E, Strided, St>, ShapeError> {
        let axis = axis.into().resolve("flip", self.rank())?;
        let n = self.extents.extent(axis);
        let mut strides = self.strides();
        let s = strides.as_ref()[axis];
        strides.as_mut()[axis] = negated_stride("flip", s, n)?;
        let ext = self.extents.clone();
        let first = advance("flip", 0, n.saturating_sub(1), s)?;
        // SAFETY: index i on the flipped axis is index n-1-i of the original.
        unsafe { self.relayout(ext, strides, first) }
    }
}

/// # Views: adding, removing and flipping axes
impl<T, E: Extents, S: Layout<E>, St: Viewable<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::try_into_squeezed`].
        pub fn try_squeeze[const I: usize]::<I>(
            &self,
        ) -> Result<Tensor<T, <E as RemoveAxis<I>>::Output, S::AxesChanged, ViewOf<'_, T, St>>, ShapeError>
        where [E: RemoveAxis<I> + AxisAt<I>, <E as AxisAt<I>>::Dim: Squeezable, S::AxesChanged: Layout<<E as RemoveAxis<I>>::Output>]
        {
            self.view().try_into_squeezed::<I>()
        }
        /// A view without axis `I`, which must have extent 1.
        ///
        /// ```
        /// use mdtensor::{ext, Tensor};
        /// let a = Tensor::<f32, ext![3, 1]>::zeros(ext![3, 1]);
        /// let v = a.squeeze::<1>();
        /// let _: &ext![3] = v.extents();
        /// ```
        pub fn squeeze;
    }
    forms! {
        /// See [`Tensor::try_into_unsqueezed`]: `Err` only for [`DynRank`](crate::DynRank)
        /// when `I > rank`.
        #[allow(clippy::type_complexity)] // the view type of the policy after the change
        pub fn try_unsqueeze[const I: usize]::<I>(
            &self,
        ) -> Result<Tensor<T, <E as InsertAxis<I, One>>::Output, S::AxesChanged, ViewOf<'_, T, St>>, ShapeError>
        where [E: InsertAxis<I, One>, S::AxesChanged: Layout<<E as InsertAxis<I, One>>::Output>]
        {
            self.view().try_into_unsqueezed::<I>()
        }
        /// A view with a new axis of extent 1 before axis `I`.
        ///
        /// ```
        /// use mdtensor::{ext, Tensor};
        /// let a = Tensor::<f32, ext![3]>::zeros(ext![3]);
        /// let _: &ext![1, 3] = a.unsqueeze::<0>().extents();
        /// ```
        pub fn unsqueeze;
    }
    forms! {
        /// See [`Tensor::try_into_index_axis`].
        pub fn try_index_axis[const I: usize]::<I>(
            &self,
            index: usize,
        ) -> Result<Tensor<T, <E as RemoveAxis<I>>::Output, Strided, ViewOf<'_, T, St>>, ShapeError>
        where [E: RemoveAxis<I>]
        {
            self.view().try_into_index_axis::<I>(index)
        }
        /// The view at `index` along axis `I` (numpy's `a[:, index]` for `I = 1`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2, 3], [4, 5, 6]];
        /// assert_eq!(a.index_axis::<1>(2).to_vec(), [3, 6]);
        /// ```
        pub fn index_axis;
    }
    forms! {
        /// See [`Tensor::try_into_flipped`].
        pub fn try_flip_dyn[](&self, axis: impl Into<Axis>) -> Result<Tensor<T, E, Strided, ViewOf<'_, T, St>>, ShapeError>
        {
            self.view().try_into_flipped(axis)
        }
        /// A view with the run-time axis `axis` reversed (numpy's `flip(a, axis)`; a negative
        /// axis counts from the end); panics outside `-rank..rank`.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2, 3], [4, 5, 6]];
        /// assert_eq!(a.flip_dyn(0).to_vec(), [4, 5, 6, 1, 2, 3]);
        /// assert!(a.try_flip_dyn(2).is_err());
        /// ```
        pub fn flip_dyn;
    }
    /// The same as [`Tensor::try_flip_dyn`] (its name before the `_dyn` convention for
    /// run-time axes).
    pub fn try_flip_axis(&self, axis: impl Into<Axis>) -> Result<Tensor<T, E, Strided, ViewOf<'_, T, St>>, ShapeError> {
        self.try_flip_dyn(axis)
    }
    /// The same as [`Tensor::flip_dyn`] (its name before the `_dyn` convention for
    /// run-time axes).
    #[track_caller]
    pub fn flip_axis(&self, axis: impl Into<Axis>) -> Tensor<T, E, Strided, ViewOf<'_, T, St>> {
        self.flip_dyn(axis)
    }
    /// A view with axis `I` reversed; an axis beyond a static rank does not compile.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let a = tensor![[1, 2, 3], [4, 5, 6]];
    /// assert_eq!(a.flip::<1>().to_vec(), [3, 2, 1, 6, 5, 4]);
    /// ```
    #[track_caller]
    pub fn flip<const I: usize>(&self) -> Tensor<T, E, Strided, ViewOf<'_, T, St>>
    where
        E: AxisAt<I>,
    {
        or_panic(self.try_flip_axis(I))
    }
}

/// # Views: adding, removing and flipping axes
impl<T, E: Extents, S: Layout<E>, St> Tensor<T, E, S, St> {
    /// A mutable view at `index` along axis `I`.
    #[track_caller]
    pub fn index_axis_mut<const I: usize>(
        &mut self,
        index: usize,
    ) -> Tensor<T, <E as RemoveAxis<I>>::Output, Strided, ViewMutOf<'_, T, St>>
    where
        St: ViewableMut<T>,
        E: RemoveAxis<I>,
    {
        or_panic(self.view_mut().try_into_index_axis::<I>(index))
    }
    /// A mutable view with the run-time axis `axis` reversed.
    #[track_caller]
    pub fn flip_dyn_mut(&mut self, axis: impl Into<Axis>) -> Tensor<T, E, Strided, ViewMutOf<'_, T, St>>
    where
        St: ViewableMut<T>,
    {
        or_panic(self.view_mut().try_into_flipped(axis))
    }
    /// A mutable view with axis `I` reversed.
    #[track_caller]
    pub fn flip_mut<const I: usize>(&mut self) -> Tensor<T, E, Strided, ViewMutOf<'_, T, St>>
    where
        St: ViewableMut<T>,
        E: AxisAt<I>,
    {
        or_panic(self.view_mut().try_into_flipped(I))
    }
}
