//! numpy's `nancumsum` and `nancumprod`: running sums and products in which NaN counts as
//! 0 (sums) or 1 (products), along a run-time axis or over all elements in logical order.
//! A lane of NaN only gives zeros (ones), as numpy's does.
//!
//! ```
//! use mdtensor::tensor;
//! let a = tensor![[f64::NAN, 1.0, 2.0], [3.0, f64::NAN, 4.0]];
//! assert_eq!(a.nancumsum_dyn(1).to_vec(), [0.0, 1.0, 3.0, 3.0, 3.0, 7.0]);
//! assert_eq!(a.nancumprod_flat().to_vec(), [1.0, 1.0, 2.0, 6.0, 6.0, 24.0]);
//! ```

use super::cumulative::{scan_cleaned, scan_flat_cleaned, Accumulate};
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Axis, Dyn, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Real;
use crate::tensor::Tensor;

/// Replaces NaN by `by`.
fn unnan<T: Real>(by: T) -> impl Fn(&mut T) {
    move |x| {
        if x.is_nan() {
            *x = by;
        }
    }
}

/// # NaN-ignoring cumulative sums and products
impl<T: Real + Accumulate, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::nancumsum_dyn`]; `Err` outside `-rank..rank`.
        pub fn try_nancumsum_dyn[](&self, axis: impl Into<Axis>) -> Result<Tensor<T, E>, ShapeError>
        {
            let axis = axis.into().resolve("nancumsum_dyn", self.rank())?;
            scan_cleaned(self, "nancumsum_dyn", axis, unnan(T::zero()), T::acc_add)
        }
        /// Running sums along a run-time axis with NaN counted as 0 (numpy's
        /// `nancumsum(a, axis)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[1.0, f64::NAN], [2.0, 5.0]].nancumsum_dyn(0).to_vec(), [1.0, 0.0, 3.0, 5.0]);
        /// ```
        pub fn nancumsum_dyn;
    }
    forms! {
        /// See [`Tensor::nancumprod_dyn`]; `Err` outside `-rank..rank`.
        pub fn try_nancumprod_dyn[](&self, axis: impl Into<Axis>) -> Result<Tensor<T, E>, ShapeError>
        {
            let axis = axis.into().resolve("nancumprod_dyn", self.rank())?;
            scan_cleaned(self, "nancumprod_dyn", axis, unnan(T::one()), T::acc_mul)
        }
        /// Running products along a run-time axis with NaN counted as 1 (numpy's
        /// `nancumprod(a, axis)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![2.0, f64::NAN, 3.0].nancumprod_dyn(-1).to_vec(), [2.0, 2.0, 6.0]);
        /// ```
        pub fn nancumprod_dyn;
    }
    forms! {
        /// See [`Tensor::nancumsum_flat`]; `Err` only when the allocator refuses the result.
        pub fn try_nancumsum_flat[](&self) -> Result<Tensor<T, (Dyn,)>, ShapeError>
        {
            scan_flat_cleaned(self, "nancumsum_flat", unnan(T::zero()), T::acc_add)
        }
        /// Running sums of all elements in logical order, NaN counted as 0 (numpy's
        /// `nancumsum(a)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![f64::NAN, 1.0, 2.0].nancumsum_flat().to_vec(), [0.0, 1.0, 3.0]);
        /// ```
        pub fn nancumsum_flat;
    }
    forms! {
        /// See [`Tensor::nancumprod_flat`]; `Err` only when the allocator refuses the result.
        pub fn try_nancumprod_flat[](&self) -> Result<Tensor<T, (Dyn,)>, ShapeError>
        {
            scan_flat_cleaned(self, "nancumprod_flat", unnan(T::one()), T::acc_mul)
        }
        /// Running products of all elements in logical order, NaN counted as 1 (numpy's
        /// `nancumprod(a)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[f64::NAN, 2.0], [3.0, 4.0]].nancumprod_flat().to_vec(), [1.0, 2.0, 6.0, 24.0]);
        /// ```
        pub fn nancumprod_flat;
    }
}
