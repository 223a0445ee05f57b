//! numpy's NaN-ignoring reductions (`nansum`, `nanprod`, `nanmean`, `nanmax`, `nanmin`,
//! `nanargmax`, `nanargmin`) and scipy's `logsumexp`, over all elements or along an axis.
//!
//! The `nan*` reductions are [`Reducer`]s ([`NanSum`], [`NanProd`], [`NanMean`],
//! [`NanExtreme`], [`NanArgExtreme`]), so they run on the crate's reduction kernels, on
//! several threads for large inputs, with the same results whatever the threads, and give
//! every axis form the other reductions have (`reduce_with`, `reduce_axis_with::<I>`,
//! `reduce_axis_dyn_with`). numpy's rules: NaN counts as 0 in a sum and 1 in a product; the
//! mean, maximum and minimum of a lane of NaN only (or of no elements) are NaN; its
//! `nanargmax`/`nanargmin` raise, here `Err`.
//!
//! ```
//! use mdtensor::tensor;
//! let a = tensor![[1.0, f64::NAN], [3.0, 4.0]];
//! assert_eq!(a.nansum(), 8.0);
//! assert_eq!(a.nanmean_axis_dyn(1).to_vec(), [1.0, 3.5]);
//! assert_eq!(a.nanargmax(), 3);
//! ```

use super::lanes::map_lanes;
use super::reduce::{Extreme, Reductions};
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::extents::{Axis, Extents, RemoveAxisDyn};
use crate::kernels::reduce::Reducer;
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Real;
use crate::tensor::Tensor;

/// Σ x over the elements that are not NaN (numpy's `nansum`; 0 for none).
#[derive(Clone, Copy, Debug, Default)]
pub struct NanSum;
impl<T: Real> Reducer<T> for NanSum {
    type Acc = T;
    type Out = T;
    #[inline(always)]
    fn init(&self) -> T {
        T::zero()
    }
    #[inline(always)]
    fn fold(&self, acc: T, x: T, _: usize) -> T {
        if x.is_nan() {
            acc
        } else {
            acc + x
        }
    }
    #[inline(always)]
    fn combine(&self, a: T, b: T) -> T {
        a + b
    }
    #[inline(always)]
    fn finish(&self, acc: T, _: usize) -> T {
        acc
    }
}

/// Π x over the elements that are not NaN (numpy's `nanprod`; 1 for none).
#[derive(Clone, Copy, Debug, Default)]
pub struct NanProd;
impl<T: Real> Reducer<T> for NanProd {
    type Acc = T;
    type Out = T;
    #[inline(always)]
    fn init(&self) -> T {
        T::one()
    }
    #[inline(always)]
    fn fold(&self, acc: T, x: T, _: usize) -> T {
        if x.is_nan() {
            acc
        } else {
            acc * x
        }
    }
    #[inline(always)]
    fn combine(&self, a: T, b: T) -> T {
        a * b
    }
    #[inline(always)]
    fn finish(&self, acc: T, _: usize) -> T {
        acc
    }
}

/// The mean of the elements that are not NaN (numpy's `nanmean`; NaN for none).
#[derive(Clone, Copy, Debug, Default)]
pub struct NanMean;
impl<T: Real> Reducer<T> for NanMean {
    type Acc = (T, usize);
    type Out = T;
    #[inline(always)]
    fn init(&self) -> (T, usize) {
        (T::zero(), 0)
    }
    #[inline(always)]
    fn fold(&self, acc: (T, usize), x: T, _: usize) -> (T, usize) {
        if x.is_nan() {
            acc
        } else {
            (acc.0 + x, acc.1 + 1)
        }
    }
    #[inline(always)]
    fn combine(&self, a: (T, usize), b: (T, usize)) -> (T, usize) {
        (a.0 + b.0, a.1 + b.1)
    }
    #[inline(always)]
    fn finish(&self, acc: (T, usize), _: usize) -> T {
        match (acc.1, T::from_usize(acc.1)) {
            (0, _) | (_, None) => T::nan(),
            (_, Some(n)) => acc.0 / n,
        }
    }
}

/// `Extreme`'s fold or combine for a run-time `max`: NaN never reaches it, so its rule
/// (the first position of the greatest or least element) is the NaN-ignoring one.
macro_rules! extreme {
    ($max:expr, $method:ident($($arg:expr),*)) => {
        if $max {
            Reducer::<T>::$method(&Extreme::<true>, $($arg),*)
        } else {
            Reducer::<T>::$method(&Extreme::<false>, $($arg),*)
        }
    };
}

/// The greatest (`max: true`) or least element that is not NaN (numpy's `nanmax`/`nanmin`;
/// NaN for none).
#[derive(Clone, Copy, Debug)]
pub struct NanExtreme {
    /// `true` for the maximum, `false` for the minimum.
    pub max: bool,
}
impl<T: Real> Reducer<T> for NanExtreme {
    type Acc = Option<(T, usize)>;
    type Out = T;
    #[inline(always)]
    fn init(&self) -> Self::Acc {
        None
    }
    #[inline(always)]
    fn fold(&self, acc: Self::Acc, x: T, pos: usize) -> Self::Acc {
        if x.is_nan() {
            acc
        } else {
            extreme!(self.max, fold(acc, x, pos))
        }
    }
    #[inline(always)]
    fn combine(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc {
        extreme!(self.max, combine(a, b))
    }
    #[inline(always)]
    fn finish(&self, acc: Self::Acc, _: usize) -> T {
        acc.map_or_else(T::nan, |(x, _)| x)
    }
}

/// The first position of the greatest (`max: true`) or least element that is not NaN
/// (numpy's `nanargmax`/`nanargmin`); `None` when every element is NaN (numpy raises).
#[derive(Clone, Copy, Debug)]
pub struct NanArgExtreme {
    /// `true` for the maximum, `false` for the minimum.
    pub max: bool,
}
impl<T: Real> Reducer<T> for NanArgExtreme {
    type Acc = Option<(T, usize)>;
    type Out = Option<usize>;
    #[inline(always)]
    fn init(&self) -> Self::Acc {
        None
    }
    #[inline(always)]
    fn fold(&self, acc: Self::Acc, x: T, pos: usize) -> Self::Acc {
        Reducer::<T>::fold(&NanExtreme { max: self.max }, acc, x, pos)
    }
    #[inline(always)]
    fn combine(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc {
        Reducer::<T>::combine(&NanExtreme { max: self.max }, a, b)
    }
    #[inline(always)]
    fn finish(&self, acc: Self::Acc, _: usize) -> Option<usize> {
        acc.map(|(_, p)| p)
    }
}

fn all_nan(op: &'static str) -> ShapeError {
    ShapeError::InvalidArgument { op, reason: "every element is NaN (or there are none)".into() }
}

/// scipy's `logsumexp` of one lane: `m + ln Σ exp(x - m)` with `m` the maximum (0 when it
/// is not finite), so that large elements do not overflow.
fn lane_logsumexp<T: Real>(v: &[T]) -> T {
    if v.iter().any(|x| x.is_nan()) {
        return T::nan();
    }
    let m = v.iter().copied().fold(T::neg_infinity(), T::max);
    let m = if m.is_finite() { m } else { T::zero() };
    let s = v.iter().fold(T::zero(), |s, &x| s + (x - m).exp());
    s.ln() + m
}

/// # NaN-ignoring reductions and logsumexp
impl<T: Real, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// The sum of the elements that are not NaN (numpy's `nansum(a)`).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// assert_eq!(tensor![f64::NAN, 2.0, 3.0].nansum(), 5.0);
    /// ```
    pub fn nansum(&self) -> T {
        self.nan_whole(NanSum)
    }
    /// The product of the elements that are not NaN (numpy's `nanprod(a)`).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// assert_eq!(tensor![f64::NAN, 2.0, 3.0].nanprod(), 6.0);
    /// ```
    pub fn nanprod(&self) -> T {
        self.nan_whole(NanProd)
    }
    /// The mean of the elements that are not NaN (numpy's `nanmean(a)`); NaN for none.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// assert_eq!(tensor![f64::NAN, 2.0, 3.0].nanmean(), 2.5);
    /// ```
    pub fn nanmean(&self) -> T {
        self.nan_whole(NanMean)
    }
    /// The greatest element that is not NaN (numpy's `nanmax(a)`); NaN for none.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// assert_eq!(tensor![f64::NAN, 2.0, 3.0].nanmax(), 3.0);
    /// ```
    pub fn nanmax(&self) -> T {
        self.nan_whole(NanExtreme { max: true })
    }
    /// The least element that is not NaN (numpy's `nanmin(a)`); NaN for none.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// assert_eq!(tensor![f64::NAN, 2.0, 3.0].nanmin(), 2.0);
    /// ```
    pub fn nanmin(&self) -> T {
        self.nan_whole(NanExtreme { max: false })
    }
    fn nan_whole<R: Reducer<T, Out = T>>(&self, r: R) -> T {
        // A tensor's own shape always holds: reducing a leaf cannot fail.
        Reductions::try_reduce_with(self, r, Par::Auto).unwrap_or_else(|_| T::nan())
    }
    forms! {
        /// See [`Tensor::nanargmax`]; `Err` when every element is NaN or there are none.
        pub fn try_nanargmax[](&self) -> Result<usize, ShapeError>
        {
            Reductions::try_reduce_with(self, NanArgExtreme { max: true }, Par::Auto)?.ok_or_else(|| all_nan("nanargmax"))
        }
        /// The row-major position of the first greatest element that is not NaN (numpy's
        /// `nanargmax(a)`); panics when every element is NaN.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![f64::NAN, 3.0, 1.0, 3.0].nanargmax(), 1);
        /// assert!(tensor![f64::NAN].try_nanargmax().is_err());
        /// ```
        pub fn nanargmax;
    }
    forms! {
        /// See [`Tensor::nanargmin`]; `Err` when every element is NaN or there are none.
        pub fn try_nanargmin[](&self) -> Result<usize, ShapeError>
        {
            Reductions::try_reduce_with(self, NanArgExtreme { max: false }, Par::Auto)?.ok_or_else(|| all_nan("nanargmin"))
        }
        /// The row-major position of the first least element that is not NaN (numpy's
        /// `nanargmin(a)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![2.0, f64::NAN, 1.0].nanargmin(), 2);
        /// ```
        pub fn nanargmin;
    }
    forms! {
        /// See [`Tensor::nansum_axis_dyn`].
        pub fn try_nansum_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            self.try_reduce_axis_dyn_with(NanSum, axis, Par::Auto)
        }
        /// [`Tensor::nansum`] along a run-time axis (negative counts from the end).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[1.0, f64::NAN], [3.0, 4.0]].nansum_axis_dyn(0).to_vec(), [4.0, 4.0]);
        /// ```
        pub fn nansum_axis_dyn;
    }
    forms! {
        /// See [`Tensor::nanprod_axis_dyn`].
        pub fn try_nanprod_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            self.try_reduce_axis_dyn_with(NanProd, axis, Par::Auto)
        }
        /// [`Tensor::nanprod`] along a run-time axis.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[2.0, f64::NAN], [3.0, 4.0]].nanprod_axis_dyn(1).to_vec(), [2.0, 12.0]);
        /// ```
        pub fn nanprod_axis_dyn;
    }
    forms! {
        /// See [`Tensor::nanmean_axis_dyn`].
        pub fn try_nanmean_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            self.try_reduce_axis_dyn_with(NanMean, axis, Par::Auto)
        }
        /// [`Tensor::nanmean`] along a run-time axis; NaN for a lane of NaN only.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[2.0, f64::NAN], [3.0, 4.0]].nanmean_axis_dyn(0).to_vec(), [2.5, 4.0]);
        /// ```
        pub fn nanmean_axis_dyn;
    }
    forms! {
        /// See [`Tensor::nanmax_axis_dyn`].
        pub fn try_nanmax_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            self.try_reduce_axis_dyn_with(NanExtreme { max: true }, axis, Par::Auto)
        }
        /// [`Tensor::nanmax`] along a run-time axis; NaN for a lane of NaN only.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[2.0, f64::NAN], [3.0, 4.0]].nanmax_axis_dyn(-1).to_vec(), [2.0, 4.0]);
        /// ```
        pub fn nanmax_axis_dyn;
    }
    forms! {
        /// See [`Tensor::nanmin_axis_dyn`].
        pub fn try_nanmin_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            self.try_reduce_axis_dyn_with(NanExtreme { max: false }, axis, Par::Auto)
        }
        /// [`Tensor::nanmin`] along a run-time axis; NaN for a lane of NaN only.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[2.0, f64::NAN], [3.0, 4.0]].nanmin_axis_dyn(0).to_vec(), [2.0, 4.0]);
        /// ```
        pub fn nanmin_axis_dyn;
    }
    forms! {
        /// See [`Tensor::nanargmax_axis_dyn`]; `Err` when a lane is all NaN.
        pub fn try_nanargmax_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<Tensor<usize, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            let found = self.try_reduce_axis_dyn_with(NanArgExtreme { max: true }, axis, Par::Auto)?;
            found.try_map_op("nanargmax_axis_dyn", |p| p.unwrap_or(usize::MAX)).and_then(|t| {
                if t.iter().any(|&p| p == usize::MAX) { Err(all_nan("nanargmax_axis_dyn")) } else { Ok(t) }
            })
        }
        /// The first position of the greatest non-NaN element in each lane along a run-time
        /// axis (numpy's `nanargmax(a, axis)`); panics when a lane is all NaN.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[2.0, f64::NAN], [3.0, 4.0]].nanargmax_axis_dyn(1).to_vec(), [0, 1]);
        /// ```
        pub fn nanargmax_axis_dyn;
    }
    forms! {
        /// See [`Tensor::nanargmin_axis_dyn`]; `Err` when a lane is all NaN.
        pub fn try_nanargmin_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<Tensor<usize, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            let found = self.try_reduce_axis_dyn_with(NanArgExtreme { max: false }, axis, Par::Auto)?;
            found.try_map_op("nanargmin_axis_dyn", |p| p.unwrap_or(usize::MAX)).and_then(|t| {
                if t.iter().any(|&p| p == usize::MAX) { Err(all_nan("nanargmin_axis_dyn")) } else { Ok(t) }
            })
        }
        /// The first position of the least non-NaN element in each lane along a run-time axis
        /// (numpy's `nanargmin(a, axis)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[2.0, f64::NAN], [3.0, 1.0]].nanargmin_axis_dyn(0).to_vec(), [0, 1]);
        /// ```
        pub fn nanargmin_axis_dyn;
    }
    forms! {
        /// See [`Tensor::logsumexp`]; `Err` only when the allocator refuses the copy.
        pub fn try_logsumexp[](&self) -> Result<T, ShapeError>
        {
            let v = self.to_vec_op("logsumexp")?;
            Ok(lane_logsumexp(&v))
        }
        /// `ln Σ exp(x)` over all elements without overflow (scipy's
        /// `special.logsumexp(a)`): `-inf` for none, NaN when any is NaN.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![1000.0, 1000.0].logsumexp(), 1000.0 + 2f64.ln());
        /// ```
        pub fn logsumexp;
    }
    forms! {
        /// See [`Tensor::logsumexp_axis_dyn`]; `Err` outside `-rank..rank`.
        pub fn try_logsumexp_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            let axis = axis.into().resolve("logsumexp_axis_dyn", self.rank())?;
            let out = self.extents().remove_axis_dyn("logsumexp_axis_dyn", axis)?;
            map_lanes(self, "logsumexp_axis_dyn", axis, out, |v| Ok(lane_logsumexp(v)))
        }
        /// [`Tensor::logsumexp`] along a run-time axis (scipy's `logsumexp(a, axis)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let l = tensor![[0.0, 0.0], [1.0, f64::NEG_INFINITY]].logsumexp_axis_dyn(1).to_vec();
        /// assert_eq!(l, [2f64.ln(), 1.0]);
        /// ```
        pub fn logsumexp_axis_dyn;
    }
}
