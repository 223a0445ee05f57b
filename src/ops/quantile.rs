//! Order statistics: numpy's `median`, `quantile`, `percentile` and their NaN-ignoring
//! forms `nanmedian`, `nanquantile`, `nanpercentile`, over all elements (numpy's
//! `axis=None`) or along one axis, for real floats.
//!
//! Each lane is selected, never sorted: `select_nth_unstable` puts the order statistic
//! numpy's method needs in place in O(n), and its neighbour is the least element above it.
//! The interpolation is numpy's (`_lerp`, in the element type, with the weight numpy's
//! method gives); a lane holding a NaN gives NaN, as numpy's does, unless the `nan` forms
//! drop NaN first (a lane of NaN only then gives NaN). `q` outside `[0, 1]` (or `p` outside
//! `[0, 100]`), and a quantile of no elements, are `Err`, where numpy raises.
//!
//! ```
//! use mdtensor::{ops::QuantileMethod, tensor};
//! let a = tensor![[10.0, 7.0, 4.0], [3.0, 2.0, 1.0]];
//! assert_eq!(a.median(), 3.5);
//! assert_eq!(a.median_axis::<1>().to_vec(), [7.0, 2.0]);
//! assert_eq!(a.quantile(0.5, QuantileMethod::Lower), 3.0);
//! assert_eq!(a.percentile_axis_dyn(50.0, 0, QuantileMethod::Linear).to_vec(), [6.5, 4.5, 2.5]);
//! ```

use super::axiswise::check_axis;
use super::bracket::{cmp, select_bracketed, Bracketed};
use super::lanes::{map_all, map_lanes};
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Axis, AxisAt, Extents, RemoveAxis, RemoveAxisDyn};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Real;
use crate::tensor::Tensor;

/// How a quantile between two order statistics is chosen: numpy's `method` argument of
/// `quantile`/`percentile` (Hyndman and Fan's nine methods and numpy's four older ones),
/// `Linear` by default as numpy's.
///
/// ```
/// use mdtensor::{ops::QuantileMethod, tensor};
/// let a = tensor![1.0, 2.0, 3.0, 4.0];
/// assert_eq!(a.quantile(0.4, QuantileMethod::default()), 2.2);
/// assert_eq!(a.quantile(0.4, QuantileMethod::Nearest), 2.0);
/// assert_eq!(a.quantile(0.4, QuantileMethod::Higher), 3.0);
/// assert_eq!(a.quantile(0.4, QuantileMethod::Midpoint), 2.5);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum QuantileMethod {
    /// H&F 1: the least order statistic whose empirical CDF reaches `q`.
    InvertedCdf,
    /// H&F 2: as `InvertedCdf`, averaging two statistics where the CDF is flat.
    AveragedInvertedCdf,
    /// H&F 3: the nearest order statistic, the even one on ties.
    ClosestObservation,
    /// H&F 4: linear interpolation of the empirical CDF (α = 0, β = 1).
    InterpolatedInvertedCdf,
    /// H&F 5: α = β = ½.
    Hazen,
    /// H&F 6: α = β = 0.
    Weibull,
    /// H&F 7, numpy's default: index `(n - 1)·q`, linear interpolation.
    #[default]
    Linear,
    /// H&F 8: α = β = ⅓ (median-unbiased whatever the distribution).
    MedianUnbiased,
    /// H&F 9: α = β = ⅜ (unbiased for normal data).
    NormalUnbiased,
    /// The order statistic at `floor((n - 1)·q)`.
    Lower,
    /// The order statistic at `ceil((n - 1)·q)`.
    Higher,
    /// The mean of `Lower` and `Higher`.
    Midpoint,
    /// The order statistic at `(n - 1)·q` rounded half to even.
    Nearest,
}

/// Which order statistics (0-based ranks in the sorted lane) and how to mix them.
pub(super) enum Pick {
    /// One order statistic.
    At(usize),
    /// numpy's `_lerp(sorted[prev], sorted[next], gamma)`.
    Lerp(usize, usize, f64),
}

/// numpy's `_discrete_interpolation_to_boundaries`: `floor(index)`, or the next one unless
/// `take_previous(gamma, index)`, clipped at 0.
fn discrete(index: f64, take_previous: impl Fn(f64, f64) -> bool) -> f64 {
    let previous = index.floor();
    let gamma = index - previous;
    let r = if take_previous(gamma, index) { previous } else { previous + 1.0 };
    r.max(0.0)
}

/// numpy's plan for quantile `q` of `n ≥ 1` elements.
pub(super) fn plan(method: QuantileMethod, n: usize, q: f64) -> Pick {
    use QuantileMethod as M;
    let nf = n as f64;
    let last = n - 1;
    let at = |i: f64| Pick::At((i as usize).min(last));
    // numpy's `_compute_virtual_index`, operation for operation.
    let continuous = |alpha: f64, beta: f64| nf * q + (alpha + q * (1.0 - alpha - beta)) - 1.0;
    let (index, fix): (f64, fn(f64, f64) -> f64) = match method {
        M::InvertedCdf => return at(discrete(nf * q - 1.0, |g, _| g == 0.0)),
        M::ClosestObservation => {
            return at(discrete(nf * q - 1.0 - 0.5, |g, i| g == 0.0 && i.floor().rem_euclid(2.0) == 1.0))
        }
        M::Lower => return at(((nf - 1.0) * q).floor()),
        M::Higher => return at(((nf - 1.0) * q).ceil()),
        M::Nearest => return at(((nf - 1.0) * q).round_ties_even()),
        M::AveragedInvertedCdf => (nf * q - 1.0, |g, _| if g == 0.0 { 0.5 } else { 1.0 }),
        M::Midpoint => {
            let i = (nf - 1.0) * q;
            (0.5 * (i.floor() + i.ceil()), |_, i| if i % 1.0 == 0.0 { 0.0 } else { 0.5 })
        }
        M::InterpolatedInvertedCdf => (continuous(0.0, 1.0), |g, _| g),
        M::Hazen => (continuous(0.5, 0.5), |g, _| g),
        M::Weibull => (continuous(0.0, 0.0), |g, _| g),
        M::Linear => ((nf - 1.0) * q, |g, _| g),
        M::MedianUnbiased => (continuous(1.0 / 3.0, 1.0 / 3.0), |g, _| g),
        M::NormalUnbiased => (continuous(3.0 / 8.0, 3.0 / 8.0), |g, _| g),
    };
    // numpy's `_get_indexes`: above the last index both are the last (numpy's -1, which
    // its weight then counts from), below 0 both are the first.
    let (previous, prev, next) = if index >= nf - 1.0 {
        (-1.0, last, last)
    } else if index < 0.0 {
        (0.0, 0, 0)
    } else {
        let p = index.floor();
        (p, p as usize, p as usize + 1)
    };
    Pick::Lerp(prev, next, fix(index - previous, index))
}

/// numpy's `_lerp(a, b, t)`: `a + (b - a)·t`, or `b - (b - a)·(1 - t)` from `t = ½` on;
/// `t` and `1 - t` are numpy's Python floats, rounded to the element type only then.
pub(super) fn lerp<T: Real>(a: T, b: T, t: f64) -> T {
    let d = b - a;
    let cast = |x: f64| T::from_f64(x).unwrap_or_else(T::nan);
    if t >= 0.5 {
        b - d * cast(1.0 - t)
    } else {
        a + d * cast(t)
    }
}

/// The `k`-th least of `v` (NaN-free), by selection; `v` is reordered.
fn kth<T: Real>(v: &mut [T], k: usize) -> T {
    *v.select_nth_unstable_by(k, cmp).1
}

/// The least element of `v[k + 1..]` once `v` is partitioned at `k`: the `k + 1`-th.
fn next_after<T: Real>(v: &[T], k: usize) -> T {
    v[k + 1..].iter().copied().fold(v[k + 1], |m, x| if x < m { x } else { m })
}

/// Drops NaN to the end of `v` and returns the length of the NaN-free front.
fn drop_nan<T: Real>(v: &mut [T]) -> usize {
    let mut n = 0;
    for i in 0..v.len() {
        if !v[i].is_nan() {
            v.swap(n, i);
            n += 1;
        }
    }
    n
}

/// The NaN-free part of a lane, `None` when the statistic is NaN: the lane holds a NaN,
/// or (for `skip_nan`, which drops them) holds NaN only. An empty lane stays empty.
pub(super) fn nan_free<T: Real>(v: &mut [T], skip_nan: bool) -> Option<&mut [T]> {
    if skip_nan {
        let n = drop_nan(v);
        (n > 0 || v.is_empty()).then_some(&mut v[..n])
    } else {
        // A fold, not `any`: without the early exit the scan vectorizes.
        (!v.iter().fold(false, |nan, x| nan | x.is_nan())).then_some(v)
    }
}

/// The quantile of one lane: NaN when it holds a NaN (after dropping them for `skip_nan`).
fn lane_quantile<T: Real>(
    op: &'static str,
    v: &mut [T],
    q: f64,
    method: QuantileMethod,
    skip_nan: bool,
) -> Result<T, ShapeError> {
    let Some(v) = nan_free(v, skip_nan) else { return Ok(T::nan()) };
    if v.is_empty() {
        return Err(ShapeError::InvalidArgument { op, reason: "a quantile of no elements".into() });
    }
    Ok(match plan(method, v.len(), q) {
        Pick::At(k) => kth(v, k),
        Pick::Lerp(p, n, g) => {
            let a = kth(v, p);
            let b = if n == p { a } else { next_after(v, p) };
            lerp(a, b, g)
        }
    })
}

/// numpy's median of one lane: the middle element, or the mean of the two middle ones;
/// NaN for no elements or (unless `skip_nan`) when the lane holds a NaN.
fn lane_median<T: Real>(v: &mut [T], skip_nan: bool) -> Result<T, ShapeError> {
    let Some(v) = nan_free(v, skip_nan) else { return Ok(T::nan()) };
    let n = v.len();
    if n == 0 {
        return Ok(T::nan());
    }
    let hi = kth(v, n / 2);
    if n % 2 == 1 {
        return Ok(hi);
    }
    // The lower middle is the greatest of the elements left of the upper one.
    let lo = v[..n / 2].iter().copied().fold(v[0], |m, x| if x > m { x } else { m });
    Ok((lo + hi) / (T::one() + T::one()))
}

/// A statistic of all elements from the order statistics of ranks `ranks` (`None` for no
/// elements) mixed by `mix`: bracketed in place when the input is large and packed (see
/// `bracket`), otherwise `in_copy` of a copy.
fn over_all<T: Real, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    ranks: Option<(usize, usize)>,
    mix: impl Fn(T, T) -> T,
    in_copy: impl FnOnce(&mut [T]) -> Result<T, ShapeError>,
) -> Result<T, ShapeError> {
    if let (Some(x), Some((lo, hi))) = (t.as_slice_memory_order(), ranks) {
        match select_bracketed(x, lo, hi) {
            Bracketed::Values(a, b) => return Ok(mix(a, b)),
            Bracketed::Nan => return Ok(T::nan()),
            Bracketed::Fallback => {}
        }
    }
    map_all(t, op, in_copy)
}

/// numpy's median of all elements.
fn median_all<T: Real, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
) -> Result<T, ShapeError> {
    let n = t.numel();
    let ranks = (n > 0).then(|| if n % 2 == 1 { (n / 2, n / 2) } else { (n / 2 - 1, n / 2) });
    let mix = |a: T, b: T| if n % 2 == 1 { a } else { (a + b) / (T::one() + T::one()) };
    over_all(t, "median", ranks, mix, |v| lane_median(v, false))
}

/// numpy's `q`-th quantile of all elements (`q` checked).
fn quantile_all<T: Real, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    q: f64,
    method: QuantileMethod,
) -> Result<T, ShapeError> {
    let n = t.numel();
    let pick = (n > 0).then(|| plan(method, n, q));
    let ranks = pick.as_ref().map(|p| match *p {
        Pick::At(k) => (k, k),
        Pick::Lerp(a, b, _) => (a, b),
    });
    let mix = |a: T, b: T| match pick {
        Some(Pick::Lerp(_, _, g)) => lerp(a, b, g),
        _ => a,
    };
    over_all(t, op, ranks, mix, |v| lane_quantile(op, v, q, method, false))
}

pub(super) fn check_q(op: &'static str, q: f64) -> Result<(), ShapeError> {
    if (0.0..=1.0).contains(&q) {
        Ok(())
    } else {
        Err(ShapeError::InvalidArgument { op, reason: format!("quantile {q} is outside [0, 1]") })
    }
}

pub(super) fn check_p(op: &'static str, p: f64) -> Result<f64, ShapeError> {
    if (0.0..=100.0).contains(&p) {
        Ok(p / 100.0)
    } else {
        Err(ShapeError::InvalidArgument { op, reason: format!("percentile {p} is outside [0, 100]") })
    }
}

/// # Order statistics: median, quantiles, percentiles
impl<T: Real, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::median`]; `Err` only when the allocator refuses the copy.
        pub fn try_median[](&self) -> Result<T, ShapeError>
        {
            median_all(self)
        }
        /// The median of all elements (numpy's `median(a)`): NaN when any is NaN or there
        /// are none.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[3.0, 1.0], [4.0, 2.0]].median(), 2.5);
        /// assert!(tensor![1.0, f64::NAN].median().is_nan());
        /// ```
        pub fn median;
    }
    forms! {
        /// See [`Tensor::median_axis`].
        pub fn try_median_axis[const I: usize]::<I>(&self) -> Result<Tensor<T, <E as RemoveAxis<I>>::Output>, ShapeError>
        where [E: AxisAt<I> + RemoveAxis<I>]
        {
            check_axis("median_axis", I, self.rank())?;
            let out = RemoveAxis::<I>::remove_axis(self.extents())?;
            map_lanes(self, "median_axis", I, out, |v| lane_median(v, false))
        }
        /// The median along axis `I` (numpy's `median(a, axis=I)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1.0, 9.0], [3.0, 5.0], [2.0, 7.0]];
        /// assert_eq!(a.median_axis::<0>().to_vec(), [2.0, 7.0]);
        /// ```
        pub fn median_axis;
    }
    forms! {
        /// See [`Tensor::median_axis_dyn`]; `Err` outside `-rank..rank`.
        pub fn try_median_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            let axis = axis.into().resolve("median_axis_dyn", self.rank())?;
            let out = self.extents().remove_axis_dyn("median_axis_dyn", axis)?;
            map_lanes(self, "median_axis_dyn", axis, out, |v| lane_median(v, false))
        }
        /// The median along a run-time axis (negative counts from the end).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[1.0, 9.0, 4.0], [3.0, 5.0, 0.0]].median_axis_dyn(-1).to_vec(), [4.0, 3.0]);
        /// ```
        pub fn median_axis_dyn;
    }
    forms! {
        /// See [`Tensor::nanmedian`].
        pub fn try_nanmedian[](&self) -> Result<T, ShapeError>
        {
            map_all(self, "nanmedian", |v| lane_median(v, true))
        }
        /// The median of the elements that are not NaN (numpy's `nanmedian(a)`); NaN when
        /// all are.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![1.0, f64::NAN, 3.0].nanmedian(), 2.0);
        /// ```
        pub fn nanmedian;
    }
    forms! {
        /// See [`Tensor::nanmedian_axis_dyn`]; `Err` outside `-rank..rank`.
        pub fn try_nanmedian_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            let axis = axis.into().resolve("nanmedian_axis_dyn", self.rank())?;
            let out = self.extents().remove_axis_dyn("nanmedian_axis_dyn", axis)?;
            map_lanes(self, "nanmedian_axis_dyn", axis, out, |v| lane_median(v, true))
        }
        /// [`Tensor::nanmedian`] along a run-time axis (numpy's `nanmedian(a, axis)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1.0, f64::NAN], [f64::NAN, f64::NAN]];
        /// let m = a.nanmedian_axis_dyn(1).to_vec();
        /// assert_eq!(m[0], 1.0);
        /// assert!(m[1].is_nan());
        /// ```
        pub fn nanmedian_axis_dyn;
    }
    forms! {
        /// See [`Tensor::quantile`]; `Err` for `q` outside `[0, 1]` or no elements.
        pub fn try_quantile[](&self, q: f64, method: QuantileMethod) -> Result<T, ShapeError>
        {
            check_q("quantile", q)?;
            quantile_all(self, "quantile", q, method)
        }
        /// The `q`-th quantile of all elements (numpy's `quantile(a, q, method=…)`); NaN
        /// when any element is NaN.
        ///
        /// ```
        /// use mdtensor::{ops::QuantileMethod, tensor};
        /// let a = tensor![[4.0, 1.0], [2.0, 3.0]];
        /// assert_eq!(a.quantile(0.25, QuantileMethod::Linear), 1.75);
        /// assert!(a.try_quantile(1.5, QuantileMethod::Linear).is_err());
        /// ```
        pub fn quantile;
    }
    forms! {
        /// See [`Tensor::quantile_axis`].
        pub fn try_quantile_axis[const I: usize]::<I>(&self, q: f64, method: QuantileMethod) -> Result<Tensor<T, <E as RemoveAxis<I>>::Output>, ShapeError>
        where [E: AxisAt<I> + RemoveAxis<I>]
        {
            check_q("quantile_axis", q)?;
            check_axis("quantile_axis", I, self.rank())?;
            let out = RemoveAxis::<I>::remove_axis(self.extents())?;
            map_lanes(self, "quantile_axis", I, out, |v| lane_quantile("quantile_axis", v, q, method, false))
        }
        /// The `q`-th quantile along axis `I` (numpy's `quantile(a, q, axis=I, method=…)`).
        ///
        /// ```
        /// use mdtensor::{ops::QuantileMethod, tensor};
        /// let a = tensor![[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]];
        /// assert_eq!(a.quantile_axis::<1>(0.5, QuantileMethod::Linear).to_vec(), [2.0, 20.0]);
        /// ```
        pub fn quantile_axis;
    }
    forms! {
        /// See [`Tensor::quantile_axis_dyn`]; `Err` outside `-rank..rank` too.
        pub fn try_quantile_axis_dyn[](&self, q: f64, axis: impl Into<Axis>, method: QuantileMethod) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            check_q("quantile_axis_dyn", q)?;
            let axis = axis.into().resolve("quantile_axis_dyn", self.rank())?;
            let out = self.extents().remove_axis_dyn("quantile_axis_dyn", axis)?;
            map_lanes(self, "quantile_axis_dyn", axis, out, |v| lane_quantile("quantile_axis_dyn", v, q, method, false))
        }
        /// [`Tensor::quantile_axis`] along a run-time axis (negative counts from the end).
        ///
        /// ```
        /// use mdtensor::{ops::QuantileMethod, tensor};
        /// let a = tensor![[1.0, 2.0], [3.0, 4.0]];
        /// assert_eq!(a.quantile_axis_dyn(1.0, 0, QuantileMethod::Linear).to_vec(), [3.0, 4.0]);
        /// ```
        pub fn quantile_axis_dyn;
    }
    forms! {
        /// See [`Tensor::nanquantile_axis_dyn`].
        pub fn try_nanquantile_axis_dyn[](&self, q: f64, axis: impl Into<Axis>, method: QuantileMethod) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            check_q("nanquantile_axis_dyn", q)?;
            let axis = axis.into().resolve("nanquantile_axis_dyn", self.rank())?;
            let out = self.extents().remove_axis_dyn("nanquantile_axis_dyn", axis)?;
            map_lanes(self, "nanquantile_axis_dyn", axis, out, |v| lane_quantile("nanquantile_axis_dyn", v, q, method, true))
        }
        /// The `q`-th quantile of the non-NaN elements along a run-time axis (numpy's
        /// `nanquantile`); NaN for a lane of NaN only.
        ///
        /// ```
        /// use mdtensor::{ops::QuantileMethod, tensor};
        /// let a = tensor![[1.0, f64::NAN, 3.0]];
        /// assert_eq!(a.nanquantile_axis_dyn(0.5, 1, QuantileMethod::Linear).to_vec(), [2.0]);
        /// ```
        pub fn nanquantile_axis_dyn;
    }
    forms! {
        /// See [`Tensor::nanquantile`].
        pub fn try_nanquantile[](&self, q: f64, method: QuantileMethod) -> Result<T, ShapeError>
        {
            check_q("nanquantile", q)?;
            map_all(self, "nanquantile", |v| lane_quantile("nanquantile", v, q, method, true))
        }
        /// The `q`-th quantile of the elements that are not NaN (numpy's `nanquantile(a, q)`).
        ///
        /// ```
        /// use mdtensor::{ops::QuantileMethod, tensor};
        /// assert_eq!(tensor![f64::NAN, 1.0, 2.0].nanquantile(1.0, QuantileMethod::Linear), 2.0);
        /// ```
        pub fn nanquantile;
    }
    forms! {
        /// See [`Tensor::percentile`]; `Err` for `p` outside `[0, 100]` or no elements.
        pub fn try_percentile[](&self, p: f64, method: QuantileMethod) -> Result<T, ShapeError>
        {
            let q = check_p("percentile", p)?;
            quantile_all(self, "percentile", q, method)
        }
        /// The `p`-th percentile of all elements (numpy's `percentile(a, p, method=…)`: the
        /// quantile `p / 100`).
        ///
        /// ```
        /// use mdtensor::{ops::QuantileMethod, tensor};
        /// assert_eq!(tensor![1.0, 2.0, 3.0, 4.0, 5.0].percentile(25.0, QuantileMethod::Linear), 2.0);
        /// ```
        pub fn percentile;
    }
    forms! {
        /// See [`Tensor::percentile_axis_dyn`].
        pub fn try_percentile_axis_dyn[](&self, p: f64, axis: impl Into<Axis>, method: QuantileMethod) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            let q = check_p("percentile_axis_dyn", p)?;
            self.try_quantile_axis_dyn(q, axis, method)
        }
        /// The `p`-th percentile along a run-time axis (numpy's `percentile(a, p, axis)`).
        ///
        /// ```
        /// use mdtensor::{ops::QuantileMethod, tensor};
        /// let a = tensor![[0.0, 10.0], [20.0, 30.0]];
        /// assert_eq!(a.percentile_axis_dyn(50.0, -1, QuantileMethod::Linear).to_vec(), [5.0, 25.0]);
        /// ```
        pub fn percentile_axis_dyn;
    }
    forms! {
        /// See [`Tensor::nanpercentile_axis_dyn`].
        pub fn try_nanpercentile_axis_dyn[](&self, p: f64, axis: impl Into<Axis>, method: QuantileMethod) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            let q = check_p("nanpercentile_axis_dyn", p)?;
            self.try_nanquantile_axis_dyn(q, axis, method)
        }
        /// The `p`-th percentile of the non-NaN elements along a run-time axis (numpy's
        /// `nanpercentile(a, p, axis)`); NaN for a lane of NaN only.
        ///
        /// ```
        /// use mdtensor::{ops::QuantileMethod, tensor};
        /// let a = tensor![[0.0, f64::NAN, 10.0], [1.0, 2.0, 3.0]];
        /// assert_eq!(a.nanpercentile_axis_dyn(50.0, 1, QuantileMethod::Linear).to_vec(), [5.0, 2.0]);
        /// ```
        pub fn nanpercentile_axis_dyn;
    }
    forms! {
        /// See [`Tensor::nanpercentile`].
        pub fn try_nanpercentile[](&self, p: f64, method: QuantileMethod) -> Result<T, ShapeError>
        {
            let q = check_p("nanpercentile", p)?;
            map_all(self, "nanpercentile", |v| lane_quantile("nanpercentile", v, q, method, true))
        }
        /// The `p`-th percentile of the elements that are not NaN (numpy's `nanpercentile`).
        ///
        /// ```
        /// use mdtensor::{ops::QuantileMethod, tensor};
        /// assert_eq!(tensor![f64::NAN, 0.0, 10.0].nanpercentile(50.0, QuantileMethod::Linear), 5.0);
        /// ```
        pub fn nanpercentile;
    }
}
