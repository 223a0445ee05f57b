//! numpy's `nanvar` and `nanstd`: the variance and standard deviation of the elements that
//! are not NaN, over all elements or along an axis, with `ddof`.
//!
//! numpy's rules, as values: the divisor is `count - ddof` over the non-NaN elements; where
//! it is not positive (`ddof >= count`, a lane of NaN only, no elements) the result is NaN,
//! where numpy warns ("Degrees of freedom <= 0 for slice") and gives NaN. (The plain `var`
//! divides by `max(n - ddof, 0)` instead, and so gives `inf` for `ddof >= n`, as numpy's
//! `var` does.) [`NanVar`] is a [`Reducer`]: it runs on the crate's reduction kernels,
//! threads included, and serves `reduce_with`/`reduce_axis_with::<I>` too.
//!
//! ```
//! use mdtensor::tensor;
//! let a = tensor![[1.0, f64::NAN, 3.0], [f64::NAN, f64::NAN, 5.0]];
//! assert_eq!(a.nanvar(0), 8.0 / 3.0);
//! assert_eq!(a.nanvar_axis_dyn(1, 0).to_vec(), [1.0, 0.0]);
//! assert!(a.nanstd_axis_dyn(1, 1).to_vec()[1].is_nan()); // one element, ddof 1
//! ```

use super::ddof::Ddof;
use super::reduce::Reductions;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::extents::{Axis, Extents, RemoveAxisDyn};
use crate::kernels::reduce::Reducer;
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Real;
use crate::tensor::Tensor;

/// The variance (or, with `std`, the standard deviation) of the elements that are not NaN
/// (numpy's `nanvar`/`nanstd`): NaN where `count - ddof <= 0`.
///
/// ```
/// use mdtensor::ops::{NanVar, Reductions};
/// use mdtensor::tensor;
/// let a = tensor![2.0, f64::NAN, 4.0];
/// assert_eq!(a.reduce_with(NanVar::var(1), mdtensor::Par::Auto), 2.0);
/// assert_eq!(a.reduce_with(NanVar::std(0), mdtensor::Par::Auto), 1.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NanVar {
    /// Delta degrees of freedom (see [`Ddof`]).
    pub ddof: Ddof,
    /// The square root of the variance: the standard deviation.
    pub std: bool,
}

impl NanVar {
    /// The variance with `ddof` delta degrees of freedom.
    pub fn var(ddof: impl Into<Ddof>) -> Self {
        NanVar { ddof: ddof.into(), std: false }
    }
    /// The standard deviation with `ddof` delta degrees of freedom.
    pub fn std(ddof: impl Into<Ddof>) -> Self {
        NanVar { ddof: ddof.into(), std: true }
    }
}

impl<T: Real> Reducer<T> for NanVar {
    /// (count, mean, sum of squared deviations) of the non-NaN elements.
    type Acc = (T, T, T);
    type Out = T;
    #[inline(always)]
    fn init(&self) -> (T, T, T) {
        (T::zero(), T::zero(), T::zero())
    }
    #[inline(always)]
    fn fold(&self, (n, mean, m2): (T, T, T), x: T, _: usize) -> (T, T, T) {
        if x.is_nan() {
            return (n, mean, m2);
        }
        // Welford's update, as the plain variance's.
        let n1 = n + T::one();
        let d = x - mean;
        let mean1 = mean + d / n1;
        (n1, mean1, m2 + d * (x - mean1))
    }
    #[inline(always)]
    fn combine(&self, a: (T, T, T), b: (T, T, T)) -> (T, T, T) {
        if a.0 == T::zero() {
            return b;
        }
        if b.0 == T::zero() {
            return a;
        }
        let n = a.0 + b.0;
        let d = b.1 - a.1;
        (n, a.1 + d * b.0 / n, a.2 + b.2 + d * d * a.0 * b.0 / n)
    }
    #[inline(always)]
    fn finish(&self, (n, _, m2): (T, T, T), _: usize) -> T {
        let dof = n - self.ddof.to_float::<T>();
        // `!(dof > 0)` also catches a NaN `ddof`.
        let var = if dof > T::zero() { m2 / dof } else { T::nan() };
        if self.std {
            var.sqrt()
        } else {
            var
        }
    }
}

/// # NaN-ignoring variance and standard deviation
impl<T: Real, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// The variance of the elements that are not NaN (numpy's `nanvar(a, ddof=…)`); NaN
    /// when `count - ddof <= 0`.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// assert_eq!(tensor![1.0, f64::NAN, 2.0].nanvar(1), 0.5);
    /// assert!(tensor![f64::NAN, 2.0].nanvar(1).is_nan());
    /// ```
    pub fn nanvar(&self, ddof: impl Into<Ddof>) -> T {
        // A tensor's own shape always holds: reducing a leaf cannot fail.
        Reductions::try_reduce_with(self, NanVar::var(ddof), Par::Auto).unwrap_or_else(|_| T::nan())
    }
    /// The standard deviation of the elements that are not NaN (numpy's `nanstd(a,
    /// ddof=…)`); NaN when `count - ddof <= 0`.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// assert_eq!(tensor![1.0, f64::NAN, 3.0].nanstd(0), 1.0);
    /// ```
    pub fn nanstd(&self, ddof: impl Into<Ddof>) -> T {
        Reductions::try_reduce_with(self, NanVar::std(ddof), Par::Auto).unwrap_or_else(|_| T::nan())
    }
    forms! {
        /// See [`Tensor::nanvar_axis_dyn`].
        pub fn try_nanvar_axis_dyn[](&self, axis: impl Into<Axis>, ddof: impl Into<Ddof>) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            self.try_reduce_axis_dyn_with(NanVar::var(ddof), axis, Par::Auto)
        }
        /// [`Tensor::nanvar`] along a run-time axis (numpy's `nanvar(a, axis, ddof=…)`;
        /// negative axes count from the end).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1.0, f64::NAN], [3.0, 4.0]];
        /// assert_eq!(a.nanvar_axis_dyn(0, 0).to_vec(), [1.0, 0.0]);
        /// assert_eq!(a.nanvar_axis_dyn(-1, 1).to_vec()[1], 0.5);
        /// ```
        pub fn nanvar_axis_dyn;
    }
    forms! {
        /// See [`Tensor::nanstd_axis_dyn`].
        pub fn try_nanstd_axis_dyn[](&self, axis: impl Into<Axis>, ddof: impl Into<Ddof>) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            self.try_reduce_axis_dyn_with(NanVar::std(ddof), axis, Par::Auto)
        }
        /// [`Tensor::nanstd`] along a run-time axis (numpy's `nanstd(a, axis, ddof=…)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1.0, f64::NAN, 3.0], [f64::NAN, f64::NAN, f64::NAN]];
        /// let s = a.nanstd_axis_dyn(1, 0).to_vec();
        /// assert_eq!(s[0], 1.0);
        /// assert!(s[1].is_nan());
        /// ```
        pub fn nanstd_axis_dyn;
    }
}
