//! Reductions along a static axis as inherent methods of dense tensors (see
//! [`AxisReductions`]).

use crate::exec::par::Par;
use crate::extents::{Extents, RemoveAxis};
use crate::kernels::reduce::Reducer;
use crate::layout::Layout;
use crate::ops::{AxisReductions, Ddof};
use crate::storage::DenseStorage;
use crate::tensor::or_panic;
use crate::tensor::Inexact;
use crate::tensor::Tensor;
use crate::ShapeError;
use num_traits::{Float, FromPrimitive, One, Zero};

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
    /// Applies any [`Reducer`] along axis `I`; see [`AxisReductions::try_reduce_axis_with`].
    #[inline]
    pub fn try_reduce_axis_with<R: Reducer<T>, const I: usize>(
        &self,
        r: R,
        par: Par,
    ) -> Result<Reduced<R::Out, E, I>, ShapeError>
    where
        E: RemoveAxis<I>,
    {
        AxisReductions::try_reduce_axis_with::<R, I>(self, r, par)
    }
    /// Applies any [`Reducer`] along axis `I` with an explicit choice of threads.
    ///
    /// ```
    /// use mdtensor::{ops::Sum, tensor, Par};
    /// assert_eq!(tensor![[1, 2], [3, 4]].reduce_axis_with::<_, 0>(Sum, Par::Seq).to_vec(), [4, 6]);
    /// ```
    #[track_caller]
    pub fn reduce_axis_with<R: Reducer<T>, const I: usize>(&self, r: R, par: Par) -> Reduced<R::Out, E, I>
    where
        E: RemoveAxis<I>,
    {
        or_panic(self.try_reduce_axis_with::<R, I>(r, par))
    }
    /// Sum along axis `I` ([`Tensor::sum_axis`] as a `Result`); see [`AxisReductions::try_sum_axis`].
    #[inline]
    pub fn try_sum_axis<const I: usize>(&self) -> Result<Reduced<T, E, I>, ShapeError>
    where
        T: Zero,
        E: RemoveAxis<I>,
    {
        AxisReductions::try_sum_axis::<I>(self)
    }
    /// Product along axis `I`; see [`AxisReductions::try_prod_axis`].
    #[inline]
    pub fn try_prod_axis<const I: usize>(&self) -> Result<Reduced<T, E, I>, ShapeError>
    where
        T: One,
        E: RemoveAxis<I>,
    {
        AxisReductions::try_prod_axis::<I>(self)
    }
    /// Product along axis `I`; see [`AxisReductions::prod_axis`].
    #[inline]
    #[track_caller]
    pub fn prod_axis<const I: usize>(&self) -> Reduced<T, E, I>
    where
        T: One,
        E: RemoveAxis<I>,
    {
        AxisReductions::prod_axis::<I>(self)
    }
    /// Mean along axis `I` (NaN along an empty axis); see [`AxisReductions::try_mean_axis`].
    #[inline]
    pub fn try_mean_axis<const I: usize>(&self) -> Result<Reduced<T, E, I>, ShapeError>
    where
        T: Inexact,
        E: RemoveAxis<I>,
    {
        AxisReductions::try_mean_axis::<I>(self)
    }
    /// Mean along axis `I` (NaN along an empty axis): numpy's `a.mean(axis=I)`; see [`AxisReductions::mean_axis`].
    #[inline]
    #[track_caller]
    pub fn mean_axis<const I: usize>(&self) -> Reduced<T, E, I>
    where
        T: Inexact,
        E: RemoveAxis<I>,
    {
        AxisReductions::mean_axis::<I>(self)
    }
    /// Variance along axis `I` with `ddof` delta degrees of freedom; see [`AxisReductions::try_var_axis`].
    #[inline]
    pub fn try_var_axis<const I: usize>(&self, ddof: impl Into<Ddof>) -> Result<Reduced<T, E, I>, ShapeError>
    where
        T: Float + FromPrimitive,
        E: RemoveAxis<I>,
    {
        AxisReductions::try_var_axis::<I>(self, ddof)
    }
    /// Variance along axis `I` with `ddof` delta degrees of freedom; see [`AxisReductions::var_axis`].
    #[inline]
    #[track_caller]
    pub fn var_axis<const I: usize>(&self, ddof: impl Into<Ddof>) -> Reduced<T, E, I>
    where
        T: Float + FromPrimitive,
        E: RemoveAxis<I>,
    {
        AxisReductions::var_axis::<I>(self, ddof)
    }
    /// Standard deviation along axis `I` with `ddof` delta degrees of freedom; see [`AxisReductions::try_std_axis`].
    #[inline]
    pub fn try_std_axis<const I: usize>(&self, ddof: impl Into<Ddof>) -> Result<Reduced<T, E, I>, ShapeError>
    where
        T: Float + FromPrimitive,
        E: RemoveAxis<I>,
    {
        AxisReductions::try_std_axis::<I>(self, ddof)
    }
    /// Standard deviation along axis `I` with `ddof` delta degrees of freedom; see [`AxisReductions::std_axis`].
    #[inline]
    #[track_caller]
    pub fn std_axis<const I: usize>(&self, ddof: impl Into<Ddof>) -> Reduced<T, E, I>
    where
        T: Float + FromPrimitive,
        E: RemoveAxis<I>,
    {
        AxisReductions::std_axis::<I>(self, ddof)
    }
    /// Smallest element along axis `I` (NaN propagates); `Err` for an empty axis; see [`AxisReductions::try_min_axis`].
    #[inline]
    pub fn try_min_axis<const I: usize>(&self) -> Result<Reduced<T, E, I>, ShapeError>
    where
        T: PartialOrd,
        E: RemoveAxis<I>,
    {
        AxisReductions::try_min_axis::<I>(self)
    }
    /// Smallest element along axis `I` (NaN propagates); panics for an empty axis; see [`AxisReductions::min_axis`].
    #[inline]
    #[track_caller]
    pub fn min_axis<const I: usize>(&self) -> Reduced<T, E, I>
    where
        T: PartialOrd,
        E: RemoveAxis<I>,
    {
        AxisReductions::min_axis::<I>(self)
    }
    /// Largest element along axis `I` (NaN propagates); `Err` for an empty axis; see [`AxisReductions::try_max_axis`].
    #[inline]
    pub fn try_max_axis<const I: usize>(&self) -> Result<Reduced<T, E, I>, ShapeError>
    where
        T: PartialOrd,
        E: RemoveAxis<I>,
    {
        AxisReductions::try_max_axis::<I>(self)
    }
    /// Largest element along axis `I` (NaN propagates): numpy's `a.max(axis=I)`; panics for an empty axis; see [`AxisReductions::max_axis`].
    #[inline]
    #[track_caller]
    pub fn max_axis<const I: usize>(&self) -> Reduced<T, E, I>
    where
        T: PartialOrd,
        E: RemoveAxis<I>,
    {
        AxisReductions::max_axis::<I>(self)
    }
    /// Index along axis `I` of the first smallest element; `Err` for an empty axis; see [`AxisReductions::try_argmin_axis`].
    #[inline]
    pub fn try_argmin_axis<const I: usize>(&self) -> Result<Reduced<usize, E, I>, ShapeError>
    where
        T: PartialOrd,
        E: RemoveAxis<I>,
    {
        AxisReductions::try_argmin_axis::<I>(self)
    }
    /// Index along axis `I` of the first smallest element; panics for an empty axis; see [`AxisReductions::argmin_axis`].
    #[inline]
    #[track_caller]
    pub fn argmin_axis<const I: usize>(&self) -> Reduced<usize, E, I>
    where
        T: PartialOrd,
        E: RemoveAxis<I>,
    {
        AxisReductions::argmin_axis::<I>(self)
    }
    /// Index along axis `I` of the first largest element; `Err` for an empty axis; see [`AxisReductions::try_argmax_axis`].
    #[inline]
    pub fn try_argmax_axis<const I: usize>(&self) -> Result<Reduced<usize, E, I>, ShapeError>
    where
        T: PartialOrd,
        E: RemoveAxis<I>,
    {
        AxisReductions::try_argmax_axis::<I>(self)
    }
    /// Index along axis `I` of the first largest element: numpy's `a.argmax(axis=I)`; panics for an empty axis; see [`AxisReductions::argmax_axis`].
    #[inline]
    #[track_caller]
    pub fn argmax_axis<const I: usize>(&self) -> Reduced<usize, E, I>
    where
        T: PartialOrd,
        E: RemoveAxis<I>,
    {
        AxisReductions::argmax_axis::<I>(self)
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
    /// Whether every element along axis `I` is true; see [`AxisReductions::try_all_axis`].
    #[inline]
    pub fn try_all_axis<const I: usize>(&self) -> Result<Reduced<bool, E, I>, ShapeError>
    where
        E: RemoveAxis<I>,
    {
        AxisReductions::try_all_axis::<I>(self)
    }
    /// Whether every element along axis `I` is true; see [`AxisReductions::all_axis`].
    #[inline]
    #[track_caller]
    pub fn all_axis<const I: usize>(&self) -> Reduced<bool, E, I>
    where
        E: RemoveAxis<I>,
    {
        AxisReductions::all_axis::<I>(self)
    }
    /// Whether some element along axis `I` is true; see [`AxisReductions::try_any_axis`].
    #[inline]
    pub fn try_any_axis<const I: usize>(&self) -> Result<Reduced<bool, E, I>, ShapeError>
    where
        E: RemoveAxis<I>,
    {
        AxisReductions::try_any_axis::<I>(self)
    }
    /// Whether some element along axis `I` is true; see [`AxisReductions::any_axis`].
    #[inline]
    #[track_caller]
    pub fn any_axis<const I: usize>(&self) -> Reduced<bool, E, I>
    where
        E: RemoveAxis<I>,
    {
        AxisReductions::any_axis::<I>(self)
    }
}
