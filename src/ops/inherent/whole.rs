//! Whole-tensor reductions as inherent methods of dense tensors (see [`Reductions`]).

use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::extents::Extents;
use crate::kernels::reduce::Reducer;
use crate::layout::Layout;
use crate::ops::{Ddof, Reductions};
use crate::storage::DenseStorage;
use crate::tensor::Tensor;
use crate::tensor::{Inexact, NanOrd};
use crate::ShapeError;
use num_traits::{One, Zero};

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
    forms! {
        /// Applies any [`Reducer`] to every element; see [`Reductions::try_reduce_with`].
        #[inline]
        pub fn try_reduce_with[R: Reducer<T>](&self, r: R, par: Par) -> Result<R::Out, ShapeError>
        {
            Reductions::try_reduce_with(self, r, par)
        }
        /// Applies any [`Reducer`] to every element with an explicit choice of threads (the
        /// same bits whatever the threads).
        ///
        /// ```
        /// use mdtensor::{ops::Sum, tensor, Par};
        /// assert_eq!(tensor![[1, 2], [3, 4]].reduce_with(Sum, Par::Seq), 10);
        /// ```
        pub fn reduce_with;
    }
    forms! {
        /// Sum with an explicit choice of threads; see [`Reductions::try_sum_with`] (for a
        /// tensor it is always `Ok`).
        pub fn try_sum_with[](&self, par: Par) -> Result<T, ShapeError>
        where [T: Zero]
        {
            Reductions::try_sum_with(self, par)
        }
        /// Sum with an explicit choice of threads (the result is the same either way); the
        /// sums of every storage: [`Tensor::sum`].
        ///
        /// ```
        /// use mdtensor::{tensor, Par};
        /// assert_eq!(tensor![[1, 2], [3, 4]].sum_with(Par::Seq), 10);
        /// ```
        pub fn sum_with;
    }

    forms! {
        /// Product of all elements (1 when empty), with an explicit choice of threads; see
        /// [`Reductions::try_prod_with`].
        pub fn try_prod_with[](&self) with par -> Result<T, ShapeError>
        where [T: One,]
        {
            Reductions::try_prod_with(self, par)
        }
        /// See [`Reductions::try_prod`].
        pub fn try_prod;
        /// Product of all elements (1 when empty); see [`Reductions::prod`].
        pub fn prod;
        /// Product of all elements (1 when empty), with an explicit choice of threads.
        pub fn prod_with;
    }

    forms! {
        /// Arithmetic mean (NaN when empty): numpy's `a.mean()`, with an explicit choice of threads; see
        /// [`Reductions::try_mean_with`].
        pub fn try_mean_with[](&self) with par -> Result<T, ShapeError>
        where [T: Inexact,]
        {
            Reductions::try_mean_with(self, par)
        }
        /// See [`Reductions::try_mean`].
        pub fn try_mean;
        /// Arithmetic mean (NaN when empty): numpy's `a.mean()`; see [`Reductions::mean`].
        pub fn mean;
        /// Arithmetic mean (NaN when empty): numpy's `a.mean()`, with an explicit choice of threads.
        pub fn mean_with;
    }

    forms! {
        /// Variance with `ddof` delta degrees of freedom (numpy's `var(ddof=…)`, an integer or a float: [`Ddof`]);
        /// the divisor is `max(n - ddof, 0)`, so `ddof >= n` gives `inf` (NaN when every element is equal, and when
        /// there are none unless `ddof < 0`), with an explicit choice of threads; see [`Reductions::try_var_with`].
        pub fn try_var_with[](&self, ddof: impl Into<Ddof>) with par -> Result<T::Real, ShapeError>
        where [T: Inexact,]
        {
            Reductions::try_var_with(self, ddof, par)
        }
        /// See [`Reductions::try_var`].
        pub fn try_var;
        /// Variance with `ddof` delta degrees of freedom (numpy's `var(ddof=…)`, an integer or a float: [`Ddof`]);
        /// the divisor is `max(n - ddof, 0)`, so `ddof >= n` gives `inf` (NaN when every element is equal, and when
        /// there are none unless `ddof < 0`); see [`Reductions::var`].
        pub fn var;
        /// Variance with `ddof` delta degrees of freedom (numpy's `var(ddof=…)`, an integer or a float: [`Ddof`]);
        /// the divisor is `max(n - ddof, 0)`, so `ddof >= n` gives `inf` (NaN when every element is equal, and when
        /// there are none unless `ddof < 0`), with an explicit choice of threads.
        pub fn var_with;
    }

    forms! {
        /// Standard deviation with `ddof` delta degrees of freedom, with an explicit choice of threads; see
        /// [`Reductions::try_std_with`].
        pub fn try_std_with[](&self, ddof: impl Into<Ddof>) with par -> Result<T::Real, ShapeError>
        where [T: Inexact,]
        {
            Reductions::try_std_with(self, ddof, par)
        }
        /// See [`Reductions::try_std`].
        pub fn try_std;
        /// Standard deviation with `ddof` delta degrees of freedom; see [`Reductions::std`].
        pub fn std;
        /// Standard deviation with `ddof` delta degrees of freedom, with an explicit choice of threads.
        pub fn std_with;
    }

    forms! {
        /// Smallest element; NaN if any is NaN; `None` when empty, with an explicit choice of threads; see
        /// [`Reductions::try_min_with`].
        pub fn try_min_with[](&self) with par -> Result<Option<T>, ShapeError>
        where [T: NanOrd,]
        {
            Reductions::try_min_with(self, par)
        }
        /// See [`Reductions::try_min`].
        pub fn try_min;
        /// Smallest element; NaN if any is NaN; `None` when empty; see [`Reductions::min`].
        pub fn min;
        /// Smallest element; NaN if any is NaN; `None` when empty, with an explicit choice of threads.
        pub fn min_with;
    }

    forms! {
        /// Largest element; NaN if any is NaN; `None` when empty, with an explicit choice of threads; see
        /// [`Reductions::try_max_with`].
        pub fn try_max_with[](&self) with par -> Result<Option<T>, ShapeError>
        where [T: NanOrd,]
        {
            Reductions::try_max_with(self, par)
        }
        /// See [`Reductions::try_max`].
        pub fn try_max;
        /// Largest element; NaN if any is NaN; `None` when empty; see [`Reductions::max`].
        pub fn max;
        /// Largest element; NaN if any is NaN; `None` when empty, with an explicit choice of threads.
        pub fn max_with;
    }

    forms! {
        /// Row-major position of the first smallest element (of the first NaN, if any), with an explicit choice of
        /// threads; see [`Reductions::try_argmin_with`].
        pub fn try_argmin_with[](&self) with par -> Result<Option<usize>, ShapeError>
        where [T: NanOrd,]
        {
            Reductions::try_argmin_with(self, par)
        }
        /// See [`Reductions::try_argmin`].
        pub fn try_argmin;
        /// Row-major position of the first smallest element (of the first NaN, if any); see [`Reductions::argmin`].
        pub fn argmin;
        /// Row-major position of the first smallest element (of the first NaN, if any), with an explicit choice of
        /// threads.
        pub fn argmin_with;
    }

    forms! {
        /// Row-major position of the first largest element (of the first NaN, if any): numpy's `a.argmax()`, with
        /// an explicit choice of threads; see [`Reductions::try_argmax_with`].
        pub fn try_argmax_with[](&self) with par -> Result<Option<usize>, ShapeError>
        where [T: NanOrd,]
        {
            Reductions::try_argmax_with(self, par)
        }
        /// See [`Reductions::try_argmax`].
        pub fn try_argmax;
        /// Row-major position of the first largest element (of the first NaN, if any): numpy's `a.argmax()`; see
        /// [`Reductions::argmax`].
        pub fn argmax;
        /// Row-major position of the first largest element (of the first NaN, if any): numpy's `a.argmax()`, with
        /// an explicit choice of threads.
        pub fn argmax_with;
    }
}

/// # Logical reductions over the whole tensor
///
/// For `bool` tensors (from a comparison such as [`Tensor::gt`], evaluated); each is the
/// [`Reductions`] method of the same name. Along one axis: [`Tensor::all_axis`],
/// [`Tensor::any_axis`].
impl<E: Extents, S: Layout<E>, St: DenseStorage<bool>> Tensor<bool, E, S, St> {
    forms! {
        /// Whether every element is true (true when empty), with an explicit choice of threads; see
        /// [`Reductions::try_all_with`].
        pub fn try_all_with[](&self) with par -> Result<bool, ShapeError>
        where []
        {
            Reductions::try_all_with(self, par)
        }
        /// See [`Reductions::try_all`].
        pub fn try_all;
        /// Whether every element is true (true when empty); see [`Reductions::all`].
        ///
        /// ```
        /// use mdtensor::{prelude::*, tensor};
        /// let x = tensor![1.0, 2.0, 3.0];
        /// assert!(x.gt(0.0).eval().all());
        /// assert!(!x.gt(1.5).eval().all());
        /// ```
        pub fn all;
        /// Whether every element is true (true when empty), with an explicit choice of threads.
        pub fn all_with;
    }

    forms! {
        /// Whether some element is true (false when empty), with an explicit choice of threads; see
        /// [`Reductions::try_any_with`].
        pub fn try_any_with[](&self) with par -> Result<bool, ShapeError>
        where []
        {
            Reductions::try_any_with(self, par)
        }
        /// See [`Reductions::try_any`].
        pub fn try_any;
        /// Whether some element is true (false when empty); see [`Reductions::any`].
        pub fn any;
        /// Whether some element is true (false when empty), with an explicit choice of threads.
        pub fn any_with;
    }
}
