//! Reductions along a static axis as inherent methods of dense tensors (see
//! [`AxisReductions`]).

use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::extents::{Extents, RemoveAxis};
use crate::kernels::reduce::Reducer;
use crate::layout::Layout;
use crate::ops::{AxisReductions, Ddof};
use crate::storage::DenseStorage;
use crate::tensor::Tensor;
use crate::tensor::{Inexact, NanOrd};
use crate::ShapeError;
use num_traits::{One, Zero};

/// A tensor reduced along axis `I`: `E` without that axis.
type Reduced<T, E, const I: usize> = Tensor<T, <E as RemoveAxis<I>>::Output>;

/// # Reductions along a static axis
///
/// The axis `I` is a const generic: the result's extents are `E` without axis `I`, static
/// extents stay static, and an axis beyond a static rank does not compile. Each is the
/// [`AxisReductions`] method of the same name, on a borrowed tensor or view; the `try_`
/// forms return `Err` only for a [`DynRank`](crate::DynRank) tensor with `I >= rank`, or
/// for an empty axis where the reduction has no value (`max`, `argmax`, …).
/// [`Tensor::sum_axis`] is with the sums of every storage. An axis known only at run time:
/// [`Tensor::mean_axis_dyn`]; several axes: [`Tensor::mean_axes`]; numpy's
/// `keepdims=True`: [`Tensor::keepdims`].
///
/// ```
/// use mdtensor::{ext, tensor};
/// let t = tensor![[1.0, 2.0, 6.0], [4.0, 5.0, 0.0]];
/// let m = t.mean_axis::<1>();
/// let _: &ext![2] = m.extents();
/// assert_eq!(m.to_vec(), [3.0, 3.0]);
/// assert_eq!(t.argmax_axis::<0>().to_vec(), [1, 1, 0]);
/// assert_eq!(t.t().max_axis::<1>().to_vec(), [4.0, 5.0, 6.0]);
/// ```
impl<T: Copy + Send + Sync, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// Applies any [`Reducer`] along axis `I`; see [`AxisReductions::try_reduce_axis_with`].
        #[inline]
        pub fn try_reduce_axis_with[R: Reducer<T>, const I: usize]::<R, I>(
            &self,
            r: R,
            par: Par,
        ) -> Result<Reduced<R::Out, E, I>, ShapeError>
        where [E: RemoveAxis<I>]
        {
            AxisReductions::try_reduce_axis_with::<R, I>(self, r, par)
        }
        /// Applies any [`Reducer`] along axis `I` with an explicit choice of threads.
        ///
        /// ```
        /// use mdtensor::{ops::Sum, tensor, Par};
        /// assert_eq!(tensor![[1, 2], [3, 4]].reduce_axis_with::<_, 0>(Sum, Par::Seq).to_vec(), [4, 6]);
        /// ```
        pub fn reduce_axis_with;
    }
    /// Sum along axis `I` ([`Tensor::sum_axis`], the sums of every storage, as a `Result`);
    /// see [`AxisReductions::try_sum_axis`].
    #[inline]
    pub fn try_sum_axis<const I: usize>(&self) -> Result<Reduced<T, E, I>, ShapeError>
    where
        T: Zero,
        E: RemoveAxis<I>,
    {
        AxisReductions::try_sum_axis::<I>(self)
    }
    forms! {
        /// Sum along axis `I` with an explicit choice of threads; see
        /// [`AxisReductions::try_sum_axis_with`].
        pub fn try_sum_axis_with[const I: usize]::<I>(&self, par: Par) -> Result<Reduced<T, E, I>, ShapeError>
        where [T: Zero, E: RemoveAxis<I>]
        {
            AxisReductions::try_sum_axis_with::<I>(self, par)
        }
        /// Sum along axis `I` with an explicit choice of threads (the same result whatever
        /// the threads).
        ///
        /// ```
        /// use mdtensor::{tensor, Par};
        /// assert_eq!(tensor![[1, 2], [3, 4]].sum_axis_with::<0>(Par::Seq).to_vec(), [4, 6]);
        /// ```
        pub fn sum_axis_with;
    }

    forms! {
        /// Product along axis `I` with an explicit choice of threads; see [`AxisReductions::try_prod_axis_with`].
        pub fn try_prod_axis_with[const I: usize]::<I>(&self) with par
            -> Result<Reduced<T, E, I>, ShapeError>
        where [T: One, E: RemoveAxis<I>]
        {
            AxisReductions::try_prod_axis_with::<I>(self, par)
        }
        /// Product along axis `I`; see [`AxisReductions::try_prod_axis`].
        pub fn try_prod_axis;
        /// Product along axis `I`.
        pub fn prod_axis;
        /// Product along axis `I`, with an explicit choice of threads.
        pub fn prod_axis_with;
    }

    forms! {
        /// Mean along axis `I` (NaN along an empty axis) with an explicit choice of threads; see
        /// [`AxisReductions::try_mean_axis_with`].
        pub fn try_mean_axis_with[const I: usize]::<I>(&self) with par
            -> Result<Reduced<T, E, I>, ShapeError>
        where [T: Inexact, E: RemoveAxis<I>]
        {
            AxisReductions::try_mean_axis_with::<I>(self, par)
        }
        /// Mean along axis `I` (NaN along an empty axis); see [`AxisReductions::try_mean_axis`].
        pub fn try_mean_axis;
        /// Mean along axis `I` (NaN along an empty axis).
        pub fn mean_axis;
        /// Mean along axis `I` (NaN along an empty axis), with an explicit choice of threads.
        pub fn mean_axis_with;
    }

    forms! {
        /// Variance along axis `I` with `ddof` delta degrees of freedom with an explicit choice of threads; see
        /// [`AxisReductions::try_var_axis_with`].
        pub fn try_var_axis_with[const I: usize]::<I>(&self, ddof: impl Into<Ddof>) with par
            -> Result<Reduced<T::Real, E, I>, ShapeError>
        where [T: Inexact, E: RemoveAxis<I>]
        {
            AxisReductions::try_var_axis_with::<I>(self, ddof, par)
        }
        /// Variance along axis `I` with `ddof` delta degrees of freedom; see [`AxisReductions::try_var_axis`].
        pub fn try_var_axis;
        /// Variance along axis `I` with `ddof` delta degrees of freedom.
        pub fn var_axis;
        /// Variance along axis `I` with `ddof` delta degrees of freedom, with an explicit choice of threads.
        pub fn var_axis_with;
    }

    forms! {
        /// Standard deviation along axis `I` with `ddof` delta degrees of freedom with an explicit choice of threads;
        /// see [`AxisReductions::try_std_axis_with`].
        pub fn try_std_axis_with[const I: usize]::<I>(&self, ddof: impl Into<Ddof>) with par
            -> Result<Reduced<T::Real, E, I>, ShapeError>
        where [T: Inexact, E: RemoveAxis<I>]
        {
            AxisReductions::try_std_axis_with::<I>(self, ddof, par)
        }
        /// Standard deviation along axis `I` with `ddof` delta degrees of freedom; see
        /// [`AxisReductions::try_std_axis`].
        pub fn try_std_axis;
        /// Standard deviation along axis `I` with `ddof` delta degrees of freedom.
        pub fn std_axis;
        /// Standard deviation along axis `I` with `ddof` delta degrees of freedom, with an explicit choice of threads.
        pub fn std_axis_with;
    }

    forms! {
        /// Smallest element along axis `I` (NaN propagates) with an explicit choice of threads; see
        /// [`AxisReductions::try_min_axis_with`].
        pub fn try_min_axis_with[const I: usize]::<I>(&self) with par
            -> Result<Reduced<T, E, I>, ShapeError>
        where [T: NanOrd, E: RemoveAxis<I>]
        {
            AxisReductions::try_min_axis_with::<I>(self, par)
        }
        /// Smallest element along axis `I` (NaN propagates); see [`AxisReductions::try_min_axis`].
        pub fn try_min_axis;
        /// Smallest element along axis `I` (NaN propagates).
        pub fn min_axis;
        /// Smallest element along axis `I` (NaN propagates), with an explicit choice of threads.
        pub fn min_axis_with;
    }

    forms! {
        /// Largest element along axis `I` (NaN propagates) with an explicit choice of threads; see
        /// [`AxisReductions::try_max_axis_with`].
        pub fn try_max_axis_with[const I: usize]::<I>(&self) with par
            -> Result<Reduced<T, E, I>, ShapeError>
        where [T: NanOrd, E: RemoveAxis<I>]
        {
            AxisReductions::try_max_axis_with::<I>(self, par)
        }
        /// Largest element along axis `I` (NaN propagates); see [`AxisReductions::try_max_axis`].
        pub fn try_max_axis;
        /// Largest element along axis `I` (NaN propagates).
        pub fn max_axis;
        /// Largest element along axis `I` (NaN propagates), with an explicit choice of threads.
        pub fn max_axis_with;
    }

    forms! {
        /// Index along axis `I` of the first smallest element (of the first NaN) with an explicit choice of threads;
        /// see [`AxisReductions::try_argmin_axis_with`].
        pub fn try_argmin_axis_with[const I: usize]::<I>(&self) with par
            -> Result<Reduced<usize, E, I>, ShapeError>
        where [T: NanOrd, E: RemoveAxis<I>]
        {
            AxisReductions::try_argmin_axis_with::<I>(self, par)
        }
        /// Index along axis `I` of the first smallest element (of the first NaN); see
        /// [`AxisReductions::try_argmin_axis`].
        pub fn try_argmin_axis;
        /// Index along axis `I` of the first smallest element (of the first NaN).
        pub fn argmin_axis;
        /// Index along axis `I` of the first smallest element (of the first NaN), with an explicit choice of threads.
        pub fn argmin_axis_with;
    }

    forms! {
        /// Index along axis `I` of the first largest element (of the first NaN) with an explicit choice of threads; see
        /// [`AxisReductions::try_argmax_axis_with`].
        pub fn try_argmax_axis_with[const I: usize]::<I>(&self) with par
            -> Result<Reduced<usize, E, I>, ShapeError>
        where [T: NanOrd, E: RemoveAxis<I>]
        {
            AxisReductions::try_argmax_axis_with::<I>(self, par)
        }
        /// Index along axis `I` of the first largest element (of the first NaN); see
        /// [`AxisReductions::try_argmax_axis`].
        pub fn try_argmax_axis;
        /// Index along axis `I` of the first largest element (of the first NaN).
        pub fn argmax_axis;
        /// Index along axis `I` of the first largest element (of the first NaN), with an explicit choice of threads.
        pub fn argmax_axis_with;
    }
}

/// # Logical reductions along a static axis
///
/// For `bool` tensors; each is the [`AxisReductions`] method of the same name.
///
/// ```
/// use mdtensor::{prelude::*, tensor};
/// let t = tensor![[1, -2], [3, 4]];
/// assert_eq!(t.gt(0).eval().all_axis::<1>().to_vec(), [false, true]);
/// assert_eq!(t.gt(0).eval().any_axis::<0>().to_vec(), [true, true]);
/// ```
impl<E: Extents, S: Layout<E>, St: DenseStorage<bool>> Tensor<bool, E, S, St> {
    forms! {
        /// Whether every element along axis `I` is true with an explicit choice of threads; see
        /// [`AxisReductions::try_all_axis_with`].
        pub fn try_all_axis_with[const I: usize]::<I>(&self) with par
            -> Result<Reduced<bool, E, I>, ShapeError>
        where [E: RemoveAxis<I>]
        {
            AxisReductions::try_all_axis_with::<I>(self, par)
        }
        /// Whether every element along axis `I` is true; see [`AxisReductions::try_all_axis`].
        pub fn try_all_axis;
        /// Whether every element along axis `I` is true.
        pub fn all_axis;
        /// Whether every element along axis `I` is true, with an explicit choice of threads.
        pub fn all_axis_with;
    }

    forms! {
        /// Whether some element along axis `I` is true with an explicit choice of threads; see
        /// [`AxisReductions::try_any_axis_with`].
        pub fn try_any_axis_with[const I: usize]::<I>(&self) with par
            -> Result<Reduced<bool, E, I>, ShapeError>
        where [E: RemoveAxis<I>]
        {
            AxisReductions::try_any_axis_with::<I>(self, par)
        }
        /// Whether some element along axis `I` is true; see [`AxisReductions::try_any_axis`].
        pub fn try_any_axis;
        /// Whether some element along axis `I` is true.
        pub fn any_axis;
        /// Whether some element along axis `I` is true, with an explicit choice of threads.
        pub fn any_axis_with;
    }
}
