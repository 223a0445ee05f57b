//! Reductions whose axes are chosen at run time, for every extents case: along one axis
//! (`sum_axis_dyn(1)`, beside the static `sum_axis::<1>()`) or over several axes in one
//! pass (`sum_axes(&[0, 2])`, numpy's `sum(axis=(0, 2))`), with or without `keepdims`.
//!
//! * **Result extents.** One run-time axis: rank `R − 1` with dynamic axes for a static rank
//!   (which axis goes is not known to the compiler), [`DynRank`] for [`DynRank`]
//!   ([`RemoveAxisDyn`]). Several axes: [`DynRank`]; with `_keepdims`, the input's rank with
//!   every axis dynamic (`E::Dynamic`), the reduced axes of extent 1.
//! * **Axes.** One axis: a number from 0, or negative from the end as in numpy (`-1` is
//!   the last axis, [`Axis`]); outside `-rank..rank` it is `Err(AxisOutOfRange)` (or
//!   `NegativeAxisOutOfRange`) from the `try_` form. A list of axes (`_axes`) takes
//!   `usize` numbers only, so that an empty list `&[]` still needs no annotation; an axis
//!   `>= rank` or repeated is `Err`, as in numpy. An empty list reduces nothing (each
//!   element alone, as numpy's `axis=()`).
//! * The arithmetic is the one of the static forms ([`crate::ops::Reductions`],
//!   [`crate::ops::AxisReductions`]): the same reducers and kernels, so `sum_axis_dyn(1)`
//!   and `sum_axis::<1>()` give identical bits.

use super::ddof::Ddof;
use super::reduce::{extreme_positions, extreme_values, Extreme, Logical, Mean, Prod, Var};
use crate::alloc::AlignedBuf;
use crate::error::or_panic;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::exec::paths::AnyPaths;
use crate::extents::{Axis, AxisList, DynRank, Extents, RemoveAxisDyn};
use crate::kernels::reduce::{reduce_all, reduce_axes, reduce_axis, AnyAxis, Reducer};
use crate::layout::Layout;
use crate::storage::{DenseStorage, Heap};
use crate::tensor::Tensor;
use crate::tensor::{Inexact, NanOrd};
use num_traits::{Float, One};

/// Which axes of a tensor of rank `rank` are reduced; `Err` for an axis out of range or
/// given twice.
pub(crate) fn reduced_mask(op: &'static str, axes: &[usize], rank: usize) -> Result<Vec<bool>, ShapeError> {
    let mut mask = vec![false; rank];
    for &axis in axes {
        match mask.get_mut(axis) {
            None => return Err(ShapeError::AxisOutOfRange { op, axis, rank }),
            Some(true) => {
                return Err(ShapeError::InvalidArgument { op, reason: format!("axis {axis} is given twice") })
            }
            Some(m) => *m = true,
        }
    }
    Ok(mask)
}

/// # Reductions along run-time axes
impl<T: Copy + Send + Sync, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// Applies a [`Reducer`] along the run-time axis `axis` (the engine of every
        /// `*_axis_dyn` method; negative counts from the end); `Err` outside `-rank..rank`.
        pub fn try_reduce_axis_dyn_with[R: Reducer<T>](
            &self,
            r: R,
            axis: impl Into<Axis>,
            par: Par,
        ) -> Result<Tensor<R::Out, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            let axis = axis.into().resolve("reduce_axis_dyn", self.rank())?;
            let out_ext = self.extents.remove_axis_dyn("reduce_axis_dyn", axis)?;
            let dims = self.dims();
            // SAFETY: reduce_axis writes each of the numel outputs (row-major over the other
            // axes) exactly once.
            let buf = unsafe {
                AlignedBuf::try_from_raw_init(out_ext.numel(), |p| {
                    reduce_axis::<_, R, AnyPaths, AnyAxis>(&self, dims.as_ref(), axis, r, par, p)
                })
            }
            .map_err(|e| e.with_op("reduce_axis_dyn"))?;
            // SAFETY: a row-major buffer of exactly numel elements.
            Ok(unsafe { Tensor::from_parts_unchecked(Heap::from_aligned(buf), out_ext, ()) })
        }
        /// Applies any [`Reducer`] along a run-time axis with an explicit choice of threads.
        ///
        /// ```
        /// use mdtensor::{ops::Sum, tensor, Par};
        /// assert_eq!(tensor![[1, 2], [3, 4]].reduce_axis_dyn_with(Sum, -1, Par::Seq).to_vec(), [3, 7]);
        /// ```
        pub fn reduce_axis_dyn_with;
    }

    /// Whether one of `axes` (already checked to be in range) has extent 0.
    fn empty_along(&self, axes: &[usize]) -> bool {
        axes.iter().any(|&a| self.extents.extent(a) == 0)
    }

    /// The reduced values over `axes` in one pass, row-major over the kept axes, and the
    /// mask of reduced axes.
    fn reduce_axes_buf<R: Reducer<T>>(
        &self,
        r: R,
        axes: &[usize],
        par: Par,
    ) -> Result<(AlignedBuf<R::Out>, Vec<bool>), ShapeError> {
        let dims = self.dims();
        let dims = dims.as_ref();
        let mask = reduced_mask("reduce_axes", axes, dims.len())?;
        let kept: usize = dims.iter().zip(&mask).filter(|&(_, &m)| !m).map(|(&d, _)| d).product();
        let buf = match axes.len() {
            0 => {
                let mut it = self.iter();
                AlignedBuf::try_from_fn(self.numel(), |_| {
                    let x = *it.next().expect("numel elements");
                    r.finish(r.fold(r.init(), x, 0), 1)
                })
            }
            1 => {
                // SAFETY: reduce_axis writes every output of the kept axes once.
                unsafe {
                    AlignedBuf::try_from_raw_init(kept, |p| {
                        reduce_axis::<_, R, AnyPaths, AnyAxis>(&self, dims, axes[0], r, par, p)
                    })
                }
            }
            n if n == dims.len() => AlignedBuf::try_from_fn(1, |_| reduce_all::<_, R, AnyPaths>(&self, dims, r, par)),
            // SAFETY: reduce_axes writes every output of the kept axes once (at least one
            // axis is kept and two are reduced here).
            _ => unsafe { AlignedBuf::try_from_raw_init(kept, |p| reduce_axes(&self, dims, &mask, r, par, p)) },
        }
        .map_err(|e| e.with_op("reduce_axes"))?;
        Ok((buf, mask))
    }

    forms! {
        /// Applies a [`Reducer`] over several run-time axes at once (the engine of every
        /// `*_axes` method); the result has the kept axes, in order.
        pub fn try_reduce_axes_with[R: Reducer<T>](
            &self,
            r: R,
            axes: impl AxisList,
            par: Par,
        ) -> Result<Tensor<R::Out, DynRank>, ShapeError>
        {
            let axes = axes.resolve_axes("reduce_axes", self.rank())?;
            let (buf, mask) = self.reduce_axes_buf(r, &axes, par)?;
            let dims = self.dims();
            let kept = dims.as_ref().iter().zip(&mask).filter(|&(_, &m)| !m).map(|(&d, _)| d).collect();
            // SAFETY: a row-major buffer over the kept axes, numel elements.
            Ok(unsafe { Tensor::from_parts_unchecked(Heap::from_aligned(buf), DynRank::new(kept), ()) })
        }
        /// Applies any [`Reducer`] over several run-time axes with an explicit choice of
        /// threads.
        ///
        /// ```
        /// use mdtensor::{ops::Sum, tensor, Par};
        /// assert_eq!(tensor![[1, 2], [3, 4]].reduce_axes_with(Sum, &[0, 1], Par::Seq).to_vec(), [10]);
        /// ```
        pub fn reduce_axes_with;
    }

    forms! {
        /// [`Tensor::try_reduce_axes_with`] with numpy's `keepdims=True`: the reduced axes stay, with
        /// extent 1, so the result broadcasts against the input.
        pub fn try_reduce_axes_keepdims_with[R: Reducer<T>](
            &self,
            r: R,
            axes: impl AxisList,
            par: Par,
        ) -> Result<Tensor<R::Out, E::Dynamic>, ShapeError>
        {
            let axes = axes.resolve_axes("reduce_axes_keepdims", self.rank())?;
            let (buf, mask) = self.reduce_axes_buf(r, &axes, par)?;
            let mut dims = self.dims();
            dims.as_mut().iter_mut().zip(&mask).filter(|(_, &m)| m).for_each(|(d, _)| *d = 1);
            let ext = E::Dynamic::from_dims(dims.as_ref())?;
            // SAFETY: axes of extent 1 do not change the row-major order of the kept ones.
            Ok(unsafe { Tensor::from_parts_unchecked(Heap::from_aligned(buf), ext, ()) })
        }
        /// [`Tensor::reduce_axes_with`] keeping the reduced axes as length 1.
        pub fn reduce_axes_keepdims_with;
    }
}

/// Writes, for one reducer, the six forms: along one run-time axis, over several axes,
/// over several axes keeping them; each `try_` and panicking.
macro_rules! reduction_family {
    (
        $what:literal, where ($($w:tt)*), $out:ty, ($($arg:ident: $argty:ty),*) => $r:expr;
        $try_dyn:ident $dyn_:ident $try_axes:ident $axes:ident $try_keep:ident $keep:ident
    ) => {
        #[doc = concat!($what, " along the run-time axis `axis` (negative counts from the end); `Err` outside `-rank..rank`.")]
        pub fn $try_dyn(&self, axis: impl Into<Axis> $(, $arg: $argty)*) -> Result<Tensor<$out, <E as RemoveAxisDyn>::Output>, ShapeError>
        where
            $($w)*
            E: RemoveAxisDyn,
        {
            self.try_reduce_axis_dyn_with($r, axis, Par::Auto).map_err(|e| rename(e, stringify!($dyn_)))
        }
        #[doc = concat!($what, " along the run-time axis `axis`. See [`Tensor::", stringify!($try_dyn), "`].")]
        #[track_caller]
        pub fn $dyn_(&self, axis: impl Into<Axis> $(, $arg: $argty)*) -> Tensor<$out, <E as RemoveAxisDyn>::Output>
        where
            $($w)*
            E: RemoveAxisDyn,
        {
            or_panic(self.$try_dyn(axis $(, $arg)*))
        }
        #[doc = concat!($what, " over the axes `axes` in one pass (numpy's `axis=(…)`); `Err` for an axis out of range or repeated.")]
        pub fn $try_axes(&self, axes: impl AxisList $(, $arg: $argty)*) -> Result<Tensor<$out, DynRank>, ShapeError>
        where
            $($w)*
        {
            self.try_reduce_axes_with($r, axes, Par::Auto).map_err(|e| rename(e, stringify!($axes)))
        }
        #[doc = concat!($what, " over the axes `axes` in one pass. See [`Tensor::", stringify!($try_axes), "`].")]
        #[track_caller]
        pub fn $axes(&self, axes: impl AxisList $(, $arg: $argty)*) -> Tensor<$out, DynRank>
        where
            $($w)*
        {
            or_panic(self.$try_axes(axes $(, $arg)*))
        }
        #[doc = concat!($what, " over the axes `axes`, which stay with extent 1 (numpy's `keepdims=True`).")]
        pub fn $try_keep(&self, axes: impl AxisList $(, $arg: $argty)*) -> Result<Tensor<$out, E::Dynamic>, ShapeError>
        where
            $($w)*
        {
            self.try_reduce_axes_keepdims_with($r, axes, Par::Auto).map_err(|e| rename(e, stringify!($keep)))
        }
        #[doc = concat!($what, " over the axes `axes`, kept with extent 1. See [`Tensor::", stringify!($try_keep), "`].")]
        #[track_caller]
        pub fn $keep(&self, axes: impl AxisList $(, $arg: $argty)*) -> Tensor<$out, E::Dynamic>
        where
            $($w)*
        {
            or_panic(self.$try_keep(axes $(, $arg)*))
        }
    };
}

/// The error of the engine, with the name of the method the user called.
pub(crate) fn rename(e: ShapeError, op: &'static str) -> ShapeError {
    match e {
        ShapeError::AxisOutOfRange { axis, rank, .. } => ShapeError::AxisOutOfRange { op, axis, rank },
        ShapeError::NegativeAxisOutOfRange { axis, rank, .. } => ShapeError::NegativeAxisOutOfRange { op, axis, rank },
        ShapeError::InvalidArgument { reason, .. } => ShapeError::InvalidArgument { op, reason },
        other => other,
    }
}

/// Sums, products, means, variances and standard deviations along run-time axes.
///
/// ```
/// use mdtensor::{ext, DynRank, Tensor};
/// let t = Tensor::<f64, DynRank>::from_fn(DynRank::new(vec![2, 3, 4]), |i| (i[0] * 12 + i[1] * 4 + i[2]) as f64);
/// let axis = 1; // known only at run time
/// assert_eq!(t.sum_axis_dyn(axis).shape(), [2, 4]);
/// assert!(t.try_sum_axis_dyn(3).is_err());
/// let s = t.sum_axes(&[0, 2]);               // numpy: t.sum(axis=(0, 2))
/// assert_eq!(s.to_vec(), [60.0, 92.0, 124.0]);
/// let k = t.mean_axes_keepdims(&[0, 2]);     // keepdims=True: shape [1, 3, 1]
/// assert_eq!(k.shape(), [1, 3, 1]);
/// // A static rank keeps its rank in the type, with dynamic extents:
/// let m = Tensor::<f64, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| (i * 3 + j) as f64);
/// let r = m.sum_axis_dyn(0);
/// let _: &ext![_] = r.extents();
/// assert_eq!(r.to_vec(), [3.0, 5.0, 7.0]);
/// ```
impl<T: Copy + Send + Sync, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    reduction_family!("Product", where (T: One,), T, () => Prod;
        try_prod_axis_dyn prod_axis_dyn try_prod_axes prod_axes try_prod_axes_keepdims prod_axes_keepdims);
    reduction_family!("Mean (NaN over no elements)", where (T: Inexact,), T, () => Mean;
        try_mean_axis_dyn mean_axis_dyn try_mean_axes mean_axes try_mean_axes_keepdims mean_axes_keepdims);
    reduction_family!("Variance with `ddof` delta degrees of freedom", where (T: Inexact,), T::Real, (ddof: impl Into<Ddof>) => Var::new(ddof);
        try_var_axis_dyn var_axis_dyn try_var_axes var_axes try_var_axes_keepdims var_axes_keepdims);
}

/// Standard deviations, extremes and their positions along run-time axes.
///
/// ```
/// use mdtensor::{DynRank, Tensor};
/// let t = Tensor::<f64, DynRank>::from_vec(DynRank::new(vec![2, 3]), vec![3.0, 9.0, 1.0, 4.0, f64::NAN, 8.0]);
/// assert_eq!(t.argmax_axis_dyn(1).to_vec(), [1, 1]); // NaN counts as the largest
/// assert_eq!(t.max_axis_dyn(0).to_vec()[0], 4.0);
/// assert_eq!(t.min_axes(&[0, 1]).to_vec()[0].is_nan(), true);
/// assert!(Tensor::<f64, DynRank>::zeros(DynRank::new(vec![0, 2])).try_max_axis_dyn(0).is_err());
/// ```
impl<T: Copy + Send + Sync, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// Standard deviation along the run-time axis `axis` (negative counts from the end)
        /// with `ddof` delta degrees of freedom; `Err` outside `-rank..rank`.
        pub fn try_std_axis_dyn[](
            &self,
            axis: impl Into<Axis>,
            ddof: impl Into<Ddof>,
        ) -> Result<Tensor<T::Real, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [T: Inexact, E: RemoveAxisDyn]
        {
            self.try_var_axis_dyn(axis, ddof)
                .map_err(|e| rename(e, "std_axis_dyn"))?
                .try_map_op("std_axis_dyn", |v| v.sqrt())
        }
        /// See [`Tensor::try_std_axis_dyn`].
        pub fn std_axis_dyn;
    }
    forms! {
        /// Standard deviation over the axes `axes` in one pass; `Err` for an axis out of range
        /// or repeated.
        pub fn try_std_axes[](
            &self,
            axes: impl AxisList,
            ddof: impl Into<Ddof>,
        ) -> Result<Tensor<T::Real, DynRank>, ShapeError>
        where [T: Inexact]
        {
            self.try_var_axes(axes, ddof).map_err(|e| rename(e, "std_axes"))?.try_map_op("std_axes", |v| v.sqrt())
        }
        /// See [`Tensor::try_std_axes`].
        pub fn std_axes;
    }
    forms! {
        /// Standard deviation over the axes `axes`, kept with extent 1.
        pub fn try_std_axes_keepdims[](
            &self,
            axes: impl AxisList,
            ddof: impl Into<Ddof>,
        ) -> Result<Tensor<T::Real, E::Dynamic>, ShapeError>
        where [T: Inexact]
        {
            self.try_var_axes_keepdims(axes, ddof)
                .map_err(|e| rename(e, "std_axes_keepdims"))?
                .try_map_op("std_axes_keepdims", |v| v.sqrt())
        }
        /// See [`Tensor::try_std_axes_keepdims`].
        pub fn std_axes_keepdims;
    }
}

/// The extremes: values (min, max) over one or several run-time axes, positions (argmin,
/// argmax) along one. NaN propagates as in numpy; an empty reduced axis is `Err`.
macro_rules! extreme_family {
    ($what:literal, $max:literal;
     $try_dyn:ident $dyn_:ident $try_axes:ident $axes:ident $try_keep:ident $keep:ident $try_arg:ident $arg:ident) => {
        #[doc = concat!($what, " along the run-time axis `axis` (NaN propagates; negative counts from the end); `Err` outside `-rank..rank` or when the axis is empty.")]
        pub fn $try_dyn(&self, axis: impl Into<Axis>) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
        where
            E: RemoveAxisDyn,
        {
            let op = stringify!($dyn_);
            let axis = axis.into().resolve(op, self.rank())?;
            extreme_values(self.try_reduce_axis_dyn_with(Extreme::<$max>, axis, Par::Auto).map_err(|e| rename(e, op))?, op, self.empty_along(&[axis]))
        }
        #[doc = concat!("See [`Tensor::", stringify!($try_dyn), "`].")]
        #[track_caller]
        pub fn $dyn_(&self, axis: impl Into<Axis>) -> Tensor<T, <E as RemoveAxisDyn>::Output>
        where
            E: RemoveAxisDyn,
        {
            or_panic(self.$try_dyn(axis))
        }
        #[doc = concat!($what, " over the axes `axes` in one pass; `Err` for an axis out of range or repeated, or nothing to reduce.")]
        pub fn $try_axes(&self, axes: impl AxisList) -> Result<Tensor<T, DynRank>, ShapeError> {
            let op = stringify!($axes);
            let axes = axes.resolve_axes(op, self.rank())?;
            extreme_values(self.try_reduce_axes_with(Extreme::<$max>, &axes, Par::Auto).map_err(|e| rename(e, op))?, op, self.empty_along(&axes))
        }
        #[doc = concat!("See [`Tensor::", stringify!($try_axes), "`].")]
        #[track_caller]
        pub fn $axes(&self, axes: impl AxisList) -> Tensor<T, DynRank> {
            or_panic(self.$try_axes(axes))
        }
        #[doc = concat!($what, " over the axes `axes`, kept with extent 1.")]
        pub fn $try_keep(&self, axes: impl AxisList) -> Result<Tensor<T, E::Dynamic>, ShapeError> {
            let op = stringify!($keep);
            let axes = axes.resolve_axes(op, self.rank())?;
            extreme_values(self.try_reduce_axes_keepdims_with(Extreme::<$max>, &axes, Par::Auto).map_err(|e| rename(e, op))?, op, self.empty_along(&axes))
        }
        #[doc = concat!("See [`Tensor::", stringify!($try_keep), "`].")]
        #[track_caller]
        pub fn $keep(&self, axes: impl AxisList) -> Tensor<T, E::Dynamic> {
            or_panic(self.$try_keep(axes))
        }
        #[doc = concat!("Index along the run-time axis `axis` (negative counts from the end) of the first ", $what, " element (of the first NaN); `Err` outside `-rank..rank` or when the axis is empty.")]
        pub fn $try_arg(&self, axis: impl Into<Axis>) -> Result<Tensor<usize, <E as RemoveAxisDyn>::Output>, ShapeError>
        where
            E: RemoveAxisDyn,
        {
            let op = stringify!($arg);
            let axis = axis.into().resolve(op, self.rank())?;
            extreme_positions(self.try_reduce_axis_dyn_with(Extreme::<$max>, axis, Par::Auto).map_err(|e| rename(e, op))?, op, self.empty_along(&[axis]))
        }
        #[doc = concat!("See [`Tensor::", stringify!($try_arg), "`].")]
        #[track_caller]
        pub fn $arg(&self, axis: impl Into<Axis>) -> Tensor<usize, <E as RemoveAxisDyn>::Output>
        where
            E: RemoveAxisDyn,
        {
            or_panic(self.$try_arg(axis))
        }
    };
}

/// # Reductions along run-time axes
impl<T: Copy + NanOrd + Send + Sync, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    extreme_family!("Largest", true;
        try_max_axis_dyn max_axis_dyn try_max_axes max_axes try_max_axes_keepdims max_axes_keepdims
        try_argmax_axis_dyn argmax_axis_dyn);
    extreme_family!("Smallest", false;
        try_min_axis_dyn min_axis_dyn try_min_axes min_axes try_min_axes_keepdims min_axes_keepdims
        try_argmin_axis_dyn argmin_axis_dyn);
}

/// Logical reductions along run-time axes.
///
/// ```
/// use mdtensor::tensor;
/// let t = tensor![[true, false], [true, true]];
/// assert_eq!(t.all_axis_dyn(1).to_vec(), [false, true]);
/// assert_eq!(t.any_axes(&[0, 1]).to_vec(), [true]);
/// ```
impl<T: Copy + Send + Sync, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    reduction_family!("Whether every element is true", where (Logical<true>: Reducer<T, Out = bool>,), bool, () => Logical::<true>;
        try_all_axis_dyn all_axis_dyn try_all_axes all_axes try_all_axes_keepdims all_axes_keepdims);
    reduction_family!("Whether some element is true", where (Logical<false>: Reducer<T, Out = bool>,), bool, () => Logical::<false>;
        try_any_axis_dyn any_axis_dyn try_any_axes any_axes try_any_axes_keepdims any_axes_keepdims);
}
