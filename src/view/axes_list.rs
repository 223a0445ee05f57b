//! Views that remove or insert several axes named by a run-time list (numpy's
//! `squeeze(a, axis=(…))` and `expand_dims(a, axis=(…))`), negative axes included
//! ([`AxisList`]). The rank changes by the list's length, so the result has
//! [`DynRank`] extents and `Strided` layout; one axis at a time with a static rank is
//! `squeeze_dyn` / `unsqueeze_dyn`.

use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{AxisList, DynRank, Extents};
use crate::layout::{Layout, Strided};
use crate::storage::{BorrowedStorage, ViewOf, Viewable};
use crate::tensor::Tensor;

/// Marks the listed axes of a rank-`rank` shape; `Err` naming a repeated axis.
fn mark(op: &'static str, axes: &[usize], rank: usize) -> Result<Vec<bool>, ShapeError> {
    let mut marked = vec![false; rank];
    for &a in axes {
        if std::mem::replace(&mut marked[a], true) {
            return Err(ShapeError::InvalidArgument { op, reason: format!("axis {a} is given twice") });
        }
    }
    Ok(marked)
}

/// # Views: several axes chosen at run time
impl<T, E: Extents, S: Layout<E>, St: BorrowedStorage<T>> Tensor<T, E, S, St> {
    /// Removes the listed axes, each of which must have extent 1 (numpy's
    /// `squeeze(a, axis=(…))`); `Err` for an axis outside `-rank..rank`, repeated (after
    /// numbering negative axes from the end) or of another extent.
    pub fn try_into_squeezed_axes(self, axes: impl AxisList) -> Result<Tensor<T, DynRank, Strided, St>, ShapeError> {
        const OP: &str = "squeeze_axes";
        let rank = self.rank();
        let axes = axes.resolve_axes(OP, rank)?;
        let marked = mark(OP, &axes, rank)?;
        let (dims, strides) = (self.dims(), self.strides());
        let (dims, strides) = (dims.as_ref(), strides.as_ref());
        if let Some(&a) = axes.iter().find(|&&a| dims[a] != 1) {
            return Err(ShapeError::InvalidArgument {
                op: OP,
                reason: format!("axis {a} has extent {}, not 1", dims[a]),
            });
        }
        let keep = |k: &usize| !marked[*k];
        let new_dims: Vec<usize> = (0..rank).filter(keep).map(|k| dims[k]).collect();
        let new_strides: Vec<isize> = (0..rank).filter(keep).map(|k| strides[k]).collect();
        // SAFETY: only axes of extent 1 go, whose index is always 0: the same positions.
        unsafe { self.relayout(DynRank::new(new_dims), new_strides, 0) }
    }

    /// Inserts axes of extent 1 at the listed positions of the result (numpy's
    /// `expand_dims(a, axis=(…))`: positions count in the result, whose rank is the
    /// tensor's plus the list's length, so `-1` appends); `Err` for a position outside the
    /// result's `-rank..rank` or repeated.
    pub fn try_into_unsqueezed_axes(self, axes: impl AxisList) -> Result<Tensor<T, DynRank, Strided, St>, ShapeError> {
        const OP: &str = "unsqueeze_axes";
        let rank = self
            .rank()
            .checked_add(axes.axis_count())
            .ok_or(ShapeError::InvalidArgument { op: OP, reason: "too many axes".into() })?;
        let axes = axes.resolve_axes(OP, rank)?;
        let marked = mark(OP, &axes, rank)?;
        let (dims, strides) = (self.dims(), self.strides());
        let (mut src_dims, mut src_strides) = (dims.as_ref().iter(), strides.as_ref().iter());
        let mut new_dims = Vec::new();
        let mut new_strides = Vec::new();
        for &m in &marked {
            if m {
                new_dims.push(1);
                new_strides.push(0);
            } else {
                new_dims.push(*src_dims.next().expect("one source axis per unmarked position"));
                new_strides.push(*src_strides.next().expect("one source axis per unmarked position"));
            }
        }
        // SAFETY: new axes have extent 1 (index 0 only): the same positions.
        unsafe { self.relayout(DynRank::new(new_dims), new_strides, 0) }
    }
}

/// # Views: several axes chosen at run time
impl<T, E: Extents, S: Layout<E>, St: Viewable<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::try_into_squeezed_axes`].
        pub fn try_squeeze_axes[](
            &self,
            axes: impl AxisList,
        ) -> Result<Tensor<T, DynRank, Strided, ViewOf<'_, T, St>>, ShapeError>
        {
            self.view().try_into_squeezed_axes(axes)
        }
        /// A view without the listed axes, each of extent 1 (numpy's `squeeze(a, axis=(…))`;
        /// negative axes count from the end). Panics as [`Tensor::try_into_squeezed_axes`]
        /// errs.
        ///
        /// ```
        /// use mdtensor::{ext, Tensor};
        /// let a = Tensor::<f32, ext![1, 3, 1, 2]>::zeros(ext![1, 3, 1, 2]);
        /// assert_eq!(a.squeeze_axes(&[0, -2]).shape(), [3, 2]);
        /// assert!(a.try_squeeze_axes(&[1]).is_err());      // extent 3
        /// assert!(a.try_squeeze_axes(&[2, -2]).is_err());  // axis 2 twice
        /// ```
        pub fn squeeze_axes;
    }
    forms! {
        /// See [`Tensor::try_into_unsqueezed_axes`].
        pub fn try_unsqueeze_axes[](
            &self,
            axes: impl AxisList,
        ) -> Result<Tensor<T, DynRank, Strided, ViewOf<'_, T, St>>, ShapeError>
        {
            self.view().try_into_unsqueezed_axes(axes)
        }
        /// A view with axes of extent 1 at the listed positions of the result (numpy's
        /// `expand_dims(a, axis=(…))`). Panics as [`Tensor::try_into_unsqueezed_axes`] errs.
        ///
        /// ```
        /// use mdtensor::{ext, Tensor};
        /// let a = Tensor::<f32, ext![3, 2]>::zeros(ext![3, 2]);
        /// assert_eq!(a.unsqueeze_axes(&[0, -1]).shape(), [1, 3, 2, 1]);
        /// assert_eq!(a.unsqueeze_axes(&[1, 3]).shape(), [3, 1, 2, 1]);
        /// assert!(a.try_unsqueeze_axes(&[0, -4]).is_err()); // position 0 twice
        /// assert!(a.try_unsqueeze_axes(&[4]).is_err());     // the result has rank 3
        /// ```
        pub fn unsqueeze_axes;
    }
}
