//! numpy's `average` with weights: `Σ a·w / Σ w` over all elements (weights of the same
//! shape) or along an axis (weights of the axis's length, numpy's 1-D form). Without
//! weights numpy's `average` is the mean ([`Reductions::mean`](crate::ops::Reductions)).
//! Weights that sum to zero are `Err`, where numpy raises `ZeroDivisionError`; NaN in
//! the data or the weights propagates.
//!
//! ```
//! use mdtensor::tensor;
//! let a = tensor![[1.0, 2.0], [3.0, 4.0]];
//! assert_eq!(a.average(&tensor![[1.0, 0.0], [0.0, 3.0]]), 3.25);
//! assert_eq!(a.average_axis_dyn(&tensor![3.0, 1.0], 1).to_vec(), [1.25, 3.25]);
//! ```

use super::lanes::lane_values;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Axis, Extents, RemoveAxisDyn};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Real;
use crate::tensor::Tensor;

/// `Σ x·w / Σ w` of paired elements, `Err` when the weights sum to zero.
fn weighted<T: Real>(op: &'static str, pairs: impl Iterator<Item = (T, T)>) -> Result<T, ShapeError> {
    let (num, den) = pairs.fold((T::zero(), T::zero()), |(n, d), (x, w)| (n + x * w, d + w));
    if den == T::zero() {
        return Err(ShapeError::InvalidArgument {
            op,
            reason: "the weights sum to zero, so they cannot be normalized".into(),
        });
    }
    Ok(num / den)
}

/// # Weighted average
impl<T: Real, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::average`]; `Err` when the shapes differ or the weights sum to zero.
        pub fn try_average[E2: Extents, S2: Layout<E2>, St2: DenseStorage<T>](&self, weights: &Tensor<T, E2, S2, St2>) -> Result<T, ShapeError>
        {
            let (a, w) = (self.dims(), weights.dims());
            if a.as_ref() != w.as_ref() {
                return Err(ShapeError::Incompatible {
                    op: "average",
                    lhs: a.as_ref().to_vec(),
                    rhs: w.as_ref().to_vec(),
                    reason: "the weights need the data's shape (or give an axis and one weight per element along it)".into(),
                });
            }
            weighted("average", self.iter().copied().zip(weights.iter().copied()))
        }
        /// The weighted average of all elements (numpy's `average(a, weights=w)`, `w` of
        /// `a`'s shape).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![1.0, 2.0, 4.0].average(&tensor![1.0, 1.0, 2.0]), 2.75);
        /// assert!(tensor![1.0, 2.0].try_average(&tensor![1.0, -1.0]).is_err());
        /// ```
        pub fn average;
    }
    forms! {
        /// See [`Tensor::average_axis_dyn`]; `Err` outside `-rank..rank`, when the weights'
        /// are not 1-D of the axis's length, or when they sum to zero.
        pub fn try_average_axis_dyn[E2: Extents, S2: Layout<E2>, St2: DenseStorage<T>](&self, weights: &Tensor<T, E2, S2, St2>, axis: impl Into<Axis>) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            let op = "average_axis_dyn";
            let axis = axis.into().resolve(op, self.rank())?;
            let out = self.extents().remove_axis_dyn(op, axis)?;
            let n = self.extents().extent(axis);
            if weights.rank() != 1 || weights.numel() != n {
                return Err(ShapeError::Incompatible {
                    op,
                    lhs: self.dims().as_ref().to_vec(),
                    rhs: weights.dims().as_ref().to_vec(),
                    reason: format!("the weights must be 1-D, one per element along axis {axis} ({n})"),
                });
            }
            let w = weights.to_vec_op(op)?;
            let values = lane_values(self, op, axis, out.numel(), 1, |lane, v| {
                v.push(weighted(op, lane.iter().copied().zip(w.iter().copied()))?);
                Ok(())
            })?;
            Tensor::try_from_vec(out, values).map_err(|(e, _)| e)
        }
        /// The weighted average along a run-time axis (numpy's `average(a, axis,
        /// weights=w)` with `w` 1-D, one weight per element along the axis).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1.0, 2.0], [3.0, 4.0]];
        /// assert_eq!(a.average_axis_dyn(&tensor![1.0, 3.0], 0).to_vec(), [2.5, 3.5]);
        /// assert!(a.try_average_axis_dyn(&tensor![1.0, 2.0, 3.0], -1).is_err());
        /// ```
        pub fn average_axis_dyn;
    }
}
