//! Whole-tensor reductions as inherent methods of dense tensors (see [`Reductions`]).

use crate::exec::par::Par;
use crate::extents::Extents;
use crate::kernels::reduce::Reducer;
use crate::layout::Layout;
use crate::ops::{Ddof, Reductions};
use crate::storage::DenseStorage;
use crate::tensor::or_panic;
use crate::tensor::Inexact;
use crate::tensor::Tensor;
use crate::ShapeError;
use num_traits::{Float, FromPrimitive, One, Zero};

/// # Reductions over the whole tensor
///
/// Each is the [`Reductions`] method of the same name, on a borrowed tensor or view (the
/// trait also reduces fused expressions: `(&a * &b).sum()`). [`Tensor::sum`] is with the
/// sums of every storage; along one axis see [`Tensor::mean_axis`] and its neighbours;
/// along axes known at run time, [`Tensor::mean_axis_dyn`] and [`Tensor::mean_axes`].
///
/// ```
/// use mdtensor::tensor;
/// let t = tensor![[1.0, 5.0], [3.0, 2.0]];
/// assert_eq!(t.mean(), 2.75);
/// assert_eq!(t.max(), Some(5.0));
/// assert_eq!(t.t().argmax(), Some(2)); // row-major position in the transposed view
/// ```
impl<T: Copy + Send + Sync, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// Applies any [`Reducer`] to every element; see [`Reductions::try_reduce_with`].
    #[inline]
    pub fn try_reduce_with<R: Reducer<T>>(&self, r: R, par: Par) -> Result<R::Out, ShapeError> {
        Reductions::try_reduce_with(self, r, par)
    }
    /// Applies any [`Reducer`] to every element with an explicit choice of threads (the
    /// same bits whatever the threads).
    ///
    /// ```
    /// use mdtensor::{ops::Sum, tensor, Par};
    /// assert_eq!(tensor![[1, 2], [3, 4]].reduce_with(Sum, Par::Seq), 10);
    /// ```
    #[track_caller]
    pub fn reduce_with<R: Reducer<T>>(&self, r: R, par: Par) -> R::Out {
        or_panic(self.try_reduce_with(r, par))
    }
    /// Sum with an explicit choice of threads (the result is the same either way); see
    /// [`Reductions::sum_with`].
    #[inline]
    #[track_caller]
    pub fn sum_with(&self, par: Par) -> T
    where
        T: Zero,
    {
        Reductions::sum_with(self, par)
    }
    /// Product of all elements (1 when empty); see [`Reductions::prod`].
    #[inline]
    #[track_caller]
    pub fn prod(&self) -> T
    where
        T: One,
    {
        Reductions::prod(self)
    }
    /// Arithmetic mean (NaN when empty): numpy's `a.mean()`; see [`Reductions::mean`].
    ///
    /// ```
    /// use mdtensor::tensor;
    /// assert_eq!(tensor![[1.0, 2.0], [3.0, 6.0]].mean(), 3.0);
    /// ```
    #[inline]
    #[track_caller]
    pub fn mean(&self) -> T
    where
        T: Inexact,
    {
        Reductions::mean(self)
    }
    /// Variance with `ddof` delta degrees of freedom (numpy's `var(ddof=…)`); see
    /// [`Reductions::var`].
    #[inline]
    #[track_caller]
    pub fn var(&self, ddof: impl Into<Ddof>) -> T
    where
        T: Float + FromPrimitive,
    {
        Reductions::var(self, ddof)
    }
    /// Standard deviation with `ddof` delta degrees of freedom; see [`Reductions::std`].
    #[inline]
    #[track_caller]
    pub fn std(&self, ddof: impl Into<Ddof>) -> T
    where
        T: Float + FromPrimitive,
    {
        Reductions::std(self, ddof)
    }
    /// Smallest element (NaN if any is NaN; `None` when empty); see [`Reductions::min`].
    #[inline]
    #[track_caller]
    pub fn min(&self) -> Option<T>
    where
        T: PartialOrd,
    {
        Reductions::min(self)
    }
    /// Largest element (NaN if any is NaN; `None` when empty); see [`Reductions::max`].
    #[inline]
    #[track_caller]
    pub fn max(&self) -> Option<T>
    where
        T: PartialOrd,
    {
        Reductions::max(self)
    }
    /// Row-major position of the first smallest element; see [`Reductions::argmin`].
    #[inline]
    #[track_caller]
    pub fn argmin(&self) -> Option<usize>
    where
        T: PartialOrd,
    {
        Reductions::argmin(self)
    }
    /// Row-major position of the first largest element: numpy's `a.argmax()`; see
    /// [`Reductions::argmax`].
    ///
    /// ```
    /// use mdtensor::tensor;
    /// assert_eq!(tensor![[1, 9], [9, 2]].argmax(), Some(1)); // the first of equal maxima
    /// ```
    #[inline]
    #[track_caller]
    pub fn argmax(&self) -> Option<usize>
    where
        T: PartialOrd,
    {
        Reductions::argmax(self)
    }
}

/// # Logical reductions over the whole tensor
///
/// For `bool` tensors (from a comparison such as [`Tensor::gt`], evaluated); each is the
/// [`Reductions`] method of the same name. Along one axis: [`Tensor::all_axis`],
/// [`Tensor::any_axis`].
impl<E: Extents, S: Layout<E>, St: DenseStorage<bool>> Tensor<bool, E, S, St> {
    /// Whether every element is true (true when empty); see [`Reductions::all`].
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor};
    /// let x = tensor![1.0, 2.0, 3.0];
    /// assert!(x.gt(0.0).eval().all());
    /// assert!(!x.gt(1.5).eval().all());
    /// ```
    #[inline]
    #[track_caller]
    pub fn all(&self) -> bool {
        Reductions::all(self)
    }
    /// Whether some element is true (false when empty); see [`Reductions::any`].
    #[inline]
    #[track_caller]
    pub fn any(&self) -> bool {
        Reductions::any(self)
    }
}
