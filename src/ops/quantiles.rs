//! Several quantiles in one call, as numpy's `quantile(a, [q1, q2, …])`: `quantiles`,
//! `percentiles` and their NaN-ignoring forms, over all elements or along one axis.
//!
//! The result has the quantiles' axis first, then the other axes (numpy's layout); a list
//! given as an array `[f64; K]` gives that axis the static extent `K`, a slice or `Vec` a
//! dynamic one. Each lane is selected once for all the quantiles (a multi-select: the
//! middle rank wanted is put in place, and the ranks below and above it are selected in the
//! two sides, so `m` quantiles of `n` elements cost O(n log m), never a sort; the upper
//! neighbour an interpolation needs is the least element past its lower one, a scan). The methods,
//! the interpolation and the NaN rules are those of the one-quantile forms
//! ([`Tensor::quantile`]), value for value.
//!
//! ```
//! use mdtensor::{ops::QuantileMethod, tensor};
//! let a = tensor![[10.0, 7.0, 4.0], [3.0, 2.0, 1.0]];
//! assert_eq!(a.quantiles([0.0, 0.5, 1.0], QuantileMethod::Linear).to_vec(), [1.0, 3.5, 10.0]);
//! let q = a.quantiles_axis::<1, _>([0.25, 0.75], QuantileMethod::Linear);
//! assert_eq!(q.dims(), [2, 2]);
//! assert_eq!(q.to_vec(), [5.5, 1.5, 8.5, 2.5]);
//! ```

use super::axiswise::check_axis;
use super::bracket::cmp;
use super::lanes::{lane_values, map_all};
use super::quantile::{check_p, check_q, lerp, nan_free, plan, Pick, QuantileMethod};
use crate::alloc::try_vec_with_capacity;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Axis, AxisAt, Const, Dim, Dyn, Extents, InsertAxis, RemoveAxis, RemoveAxisDyn};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Real;
use crate::tensor::Tensor;

/// A list of quantiles (or percentiles) and the extent it gives the result's first axis:
/// static for an array `[f64; K]` (or a reference to one), dynamic for a slice or a `Vec`.
/// The static axis is `Const<K>`, also for `K = 1` (not [`One`](crate::One), the
/// broadcasting unit that `ext![1, …]` names).
///
/// ```
/// use mdtensor::{ops::{QuantileList, QuantileMethod}, tensor, Const, Dyn};
/// assert_eq!([0.1, 0.9].extent(), Const::<2>);
/// assert_eq!(vec![0.5].extent(), Dyn(1));
/// let a = tensor![1.0, 2.0, 3.0];
/// let q: Vec<f64> = vec![0.0, 1.0];
/// assert_eq!(a.quantiles(&q[..], QuantileMethod::Linear).to_vec(), [1.0, 3.0]);
/// ```
pub trait QuantileList {
    /// The extent of the result's quantile axis.
    type Dim: Dim;
    /// The quantiles, in order.
    fn values(&self) -> &[f64];
    /// Their number, as the quantile axis's extent.
    fn extent(&self) -> Self::Dim;
}

impl<const K: usize> QuantileList for [f64; K] {
    type Dim = Const<K>;
    fn values(&self) -> &[f64] {
        self
    }
    fn extent(&self) -> Const<K> {
        Const
    }
}

impl<const K: usize> QuantileList for &[f64; K] {
    type Dim = Const<K>;
    fn values(&self) -> &[f64] {
        &self[..]
    }
    fn extent(&self) -> Const<K> {
        Const
    }
}

impl QuantileList for &[f64] {
    type Dim = Dyn;
    fn values(&self) -> &[f64] {
        self
    }
    fn extent(&self) -> Dyn {
        Dyn(self.len())
    }
}

impl QuantileList for Vec<f64> {
    type Dim = Dyn;
    fn values(&self) -> &[f64] {
        self
    }
    fn extent(&self) -> Dyn {
        Dyn(self.len())
    }
}

/// What the forms share: the list (already checked and scaled to `[0, 1]`), the method,
/// and whether NaN are dropped.
struct Request {
    op: &'static str,
    qs: Vec<f64>,
    method: QuantileMethod,
    skip_nan: bool,
}

impl Request {
    /// Checks the list: each `q` in `[0, 1]`, or each percentile in `[0, 100]` when
    /// `percent`.
    fn new(
        op: &'static str,
        list: &[f64],
        percent: bool,
        method: QuantileMethod,
        skip_nan: bool,
    ) -> Result<Self, ShapeError> {
        let mut qs = try_vec_with_capacity(op, list.len())?;
        for &q in list {
            qs.push(if percent {
                check_p(op, q)?
            } else {
                check_q(op, q)?;
                q
            });
        }
        Ok(Request { op, qs, method, skip_nan })
    }
}

/// Puts the order statistics of ranks `ks` (ascending, distinct, offset by `base`) of the
/// NaN-free `v` in place: the middle one by selection, then those below and above it in
/// the two sides.
fn select_ranks<T: Real>(v: &mut [T], ks: &[usize], base: usize) {
    if ks.is_empty() {
        return;
    }
    let mid = ks.len() / 2;
    let k = ks[mid] - base;
    v.select_nth_unstable_by(k, cmp);
    let (below, above) = v.split_at_mut(k);
    select_ranks(below, &ks[..mid], base);
    select_ranks(&mut above[1..], &ks[mid + 1..], base + k + 1);
}

/// The order statistic of rank `a + 1` once `ranks` (holding `a`) are in place: the least
/// element between `a` and the next selected rank (or the end), which that selection left
/// on the right side of `a`.
fn next_above<T: Real>(v: &[T], ranks: &[usize], a: usize) -> T {
    let i = ranks.partition_point(|&k| k <= a);
    match ranks.get(i) {
        Some(&next) if next == a + 1 => v[next],
        next => {
            let end = next.map_or(v.len(), |&k| k);
            v[a + 1..end].iter().copied().fold(v[a + 1], |m, x| if x < m { x } else { m })
        }
    }
}

/// Pushes the quantiles of one lane onto `out` (all NaN when the lane's statistic is);
/// `v` is reordered.
fn lane_quantiles<T: Real>(r: &Request, v: &mut [T], out: &mut Vec<T>) -> Result<(), ShapeError> {
    let Some(v) = nan_free(v, r.skip_nan) else {
        out.extend(r.qs.iter().map(|_| T::nan()));
        return Ok(());
    };
    if v.is_empty() {
        return Err(ShapeError::InvalidArgument { op: r.op, reason: "a quantile of no elements".into() });
    }
    let mut picks = try_vec_with_capacity(r.op, r.qs.len())?;
    let mut ranks = try_vec_with_capacity(r.op, r.qs.len())?;
    for &q in &r.qs {
        let p = plan(r.method, v.len(), q);
        // The upper neighbour of an interpolation is not selected: see `next_above`.
        ranks.push(match p {
            Pick::At(k) | Pick::Lerp(k, _, _) => k,
        });
        picks.push(p);
    }
    ranks.sort_unstable();
    ranks.dedup();
    select_ranks(v, &ranks, 0);
    out.extend(picks.iter().map(|p| match *p {
        Pick::At(k) => v[k],
        Pick::Lerp(a, b, g) => lerp(v[a], if b == a { v[a] } else { next_above(v, &ranks, a) }, g),
    }));
    Ok(())
}

/// The quantiles of all elements, as a 1-D tensor along the list.
fn over_all<T: Real, E: Extents, S: Layout<E>, St: DenseStorage<T>, Q: QuantileList>(
    t: &Tensor<T, E, S, St>,
    list: &Q,
    r: &Request,
) -> Result<Tensor<T, (Q::Dim,)>, ShapeError> {
    let mut out = try_vec_with_capacity(r.op, r.qs.len())?;
    map_all(t, r.op, |v| lane_quantiles(r, v, &mut out))?;
    Tensor::try_from_vec((list.extent(),), out).map_err(|(e, _)| e)
}

/// The quantiles along `axis` (checked), the list's axis first, then `rest`: the extents
/// of the other axes.
fn along<T: Real, E: Extents, S: Layout<E>, St: DenseStorage<T>, Q: QuantileList, R: InsertAxis<0, Q::Dim>>(
    t: &Tensor<T, E, S, St>,
    list: &Q,
    r: &Request,
    axis: usize,
    rest: R,
) -> Result<Tensor<T, R::Output>, ShapeError> {
    let (lanes, m) = (rest.numel(), r.qs.len());
    let by_lane = lane_values(t, r.op, axis, lanes, m, |v, out| lane_quantiles(r, v, out))?;
    // numpy's layout: quantile-major, each quantile's lanes in row-major order.
    let mut values = try_vec_with_capacity(r.op, by_lane.len())?;
    for q in 0..m {
        values.extend(by_lane.iter().skip(q).step_by(m.max(1)).copied());
    }
    let out = rest.insert_axis(list.extent())?;
    Tensor::try_from_vec(out, values).map_err(|(e, _)| e)
}

/// # Several quantiles at once
impl<T: Real, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::quantiles`]; `Err` for a `q` outside `[0, 1]` or no elements.
        pub fn try_quantiles[Q: QuantileList](&self, qs: Q, method: QuantileMethod) -> Result<Tensor<T, (Q::Dim,)>, ShapeError>
        {
            over_all(self, &qs, &Request::new("quantiles", qs.values(), false, method, false)?)
        }
        /// The quantiles `qs` of all elements (numpy's `quantile(a, [q1, q2, …])`), one
        /// selection pass for all of them; NaN when any element is NaN.
        ///
        /// ```
        /// use mdtensor::{ops::QuantileMethod, tensor};
        /// let a = tensor![[4.0, 1.0], [2.0, 3.0]];
        /// let q = a.quantiles([0.25, 0.5], QuantileMethod::Linear); // extents ext![2]
        /// assert_eq!(q.to_vec(), [1.75, 2.5]);
        /// assert!(a.try_quantiles(vec![0.5, 2.0], QuantileMethod::Linear).is_err());
        /// ```
        pub fn quantiles;
    }
    forms! {
        /// See [`Tensor::quantiles_axis`].
        pub fn try_quantiles_axis[const I: usize, Q: QuantileList]::<I, Q>(&self, qs: Q, method: QuantileMethod) -> Result<Tensor<T, <<E as RemoveAxis<I>>::Output as InsertAxis<0, Q::Dim>>::Output>, ShapeError>
        where [E: AxisAt<I> + RemoveAxis<I>, <E as RemoveAxis<I>>::Output: InsertAxis<0, Q::Dim>]
        {
            let r = Request::new("quantiles_axis", qs.values(), false, method, false)?;
            check_axis(r.op, I, self.rank())?;
            along(self, &qs, &r, I, RemoveAxis::<I>::remove_axis(self.extents())?)
        }
        /// The quantiles `qs` along axis `I` (numpy's `quantile(a, [q1, …], axis=I)`): the
        /// list's axis first, then the other axes, static where the input's and the list's
        /// are. The call names the axis only: `quantiles_axis::<I, _>(…)`.
        ///
        /// ```
        /// use mdtensor::{ops::QuantileMethod, tensor};
        /// let a = tensor![[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]];
        /// let q = a.quantiles_axis::<0, _>([0.0, 1.0], QuantileMethod::Lower); // ext![2, 3]
        /// assert_eq!(q.to_vec(), [1.0, 2.0, 3.0, 10.0, 20.0, 30.0]);
        /// ```
        pub fn quantiles_axis;
    }
    forms! {
        /// See [`Tensor::quantiles_axis_dyn`]; `Err` outside `-rank..rank` too.
        pub fn try_quantiles_axis_dyn[Q: QuantileList](&self, qs: Q, axis: impl Into<Axis>, method: QuantileMethod) -> Result<Tensor<T, <<E as RemoveAxisDyn>::Output as InsertAxis<0, Q::Dim>>::Output>, ShapeError>
        where [E: RemoveAxisDyn, <E as RemoveAxisDyn>::Output: InsertAxis<0, Q::Dim>]
        {
            let r = Request::new("quantiles_axis_dyn", qs.values(), false, method, false)?;
            let axis = axis.into().resolve(r.op, self.rank())?;
            along(self, &qs, &r, axis, self.extents().remove_axis_dyn(r.op, axis)?)
        }
        /// [`Tensor::quantiles_axis`] along a run-time axis (negative counts from the end).
        ///
        /// ```
        /// use mdtensor::{ops::QuantileMethod, tensor};
        /// let a = tensor![[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]];
        /// let q = a.quantiles_axis_dyn(vec![0.5, 1.0], -1, QuantileMethod::Linear);
        /// assert_eq!(q.dims(), [2, 2]);
        /// assert_eq!(q.to_vec(), [2.0, 20.0, 3.0, 30.0]);
        /// ```
        pub fn quantiles_axis_dyn;
    }
    forms! {
        /// See [`Tensor::nanquantiles`].
        pub fn try_nanquantiles[Q: QuantileList](&self, qs: Q, method: QuantileMethod) -> Result<Tensor<T, (Q::Dim,)>, ShapeError>
        {
            over_all(self, &qs, &Request::new("nanquantiles", qs.values(), false, method, true)?)
        }
        /// The quantiles `qs` of the elements that are not NaN (numpy's `nanquantile(a, [q1,
        /// …])`); NaN when all are.
        ///
        /// ```
        /// use mdtensor::{ops::QuantileMethod, tensor};
        /// let a = tensor![f64::NAN, 1.0, 3.0];
        /// assert_eq!(a.nanquantiles([0.0, 0.5], QuantileMethod::Linear).to_vec(), [1.0, 2.0]);
        /// ```
        pub fn nanquantiles;
    }
    forms! {
        /// See [`Tensor::nanquantiles_axis_dyn`].
        pub fn try_nanquantiles_axis_dyn[Q: QuantileList](&self, qs: Q, axis: impl Into<Axis>, method: QuantileMethod) -> Result<Tensor<T, <<E as RemoveAxisDyn>::Output as InsertAxis<0, Q::Dim>>::Output>, ShapeError>
        where [E: RemoveAxisDyn, <E as RemoveAxisDyn>::Output: InsertAxis<0, Q::Dim>]
        {
            let r = Request::new("nanquantiles_axis_dyn", qs.values(), false, method, true)?;
            let axis = axis.into().resolve(r.op, self.rank())?;
            along(self, &qs, &r, axis, self.extents().remove_axis_dyn(r.op, axis)?)
        }
        /// [`Tensor::nanquantiles`] along a run-time axis; NaN for a lane of NaN only.
        ///
        /// ```
        /// use mdtensor::{ops::QuantileMethod, tensor};
        /// let a = tensor![[1.0, f64::NAN, 3.0], [f64::NAN, f64::NAN, f64::NAN]];
        /// let q = a.nanquantiles_axis_dyn([0.5], 1, QuantileMethod::Linear).to_vec();
        /// assert_eq!(q[0], 2.0);
        /// assert!(q[1].is_nan());
        /// ```
        pub fn nanquantiles_axis_dyn;
    }
    forms! {
        /// See [`Tensor::percentiles`]; `Err` for a `p` outside `[0, 100]` or no elements.
        pub fn try_percentiles[Q: QuantileList](&self, ps: Q, method: QuantileMethod) -> Result<Tensor<T, (Q::Dim,)>, ShapeError>
        {
            over_all(self, &ps, &Request::new("percentiles", ps.values(), true, method, false)?)
        }
        /// The percentiles `ps` of all elements (numpy's `percentile(a, [p1, p2, …])`: the
        /// quantiles `p / 100`).
        ///
        /// ```
        /// use mdtensor::{ops::QuantileMethod, tensor};
        /// let a = tensor![1.0, 2.0, 3.0, 4.0, 5.0];
        /// assert_eq!(a.percentiles([25.0, 75.0], QuantileMethod::Linear).to_vec(), [2.0, 4.0]);
        /// ```
        pub fn percentiles;
    }
    forms! {
        /// See [`Tensor::percentiles_axis_dyn`].
        pub fn try_percentiles_axis_dyn[Q: QuantileList](&self, ps: Q, axis: impl Into<Axis>, method: QuantileMethod) -> Result<Tensor<T, <<E as RemoveAxisDyn>::Output as InsertAxis<0, Q::Dim>>::Output>, ShapeError>
        where [E: RemoveAxisDyn, <E as RemoveAxisDyn>::Output: InsertAxis<0, Q::Dim>]
        {
            let r = Request::new("percentiles_axis_dyn", ps.values(), true, method, false)?;
            let axis = axis.into().resolve(r.op, self.rank())?;
            along(self, &ps, &r, axis, self.extents().remove_axis_dyn(r.op, axis)?)
        }
        /// The percentiles `ps` along a run-time axis (numpy's `percentile(a, [p1, …], axis)`).
        ///
        /// ```
        /// use mdtensor::{ops::QuantileMethod, tensor};
        /// let a = tensor![[0.0, 10.0], [20.0, 30.0]];
        /// let p = a.percentiles_axis_dyn([50.0, 100.0], 0, QuantileMethod::Linear);
        /// assert_eq!(p.to_vec(), [10.0, 20.0, 20.0, 30.0]);
        /// ```
        pub fn percentiles_axis_dyn;
    }
    forms! {
        /// See [`Tensor::nanpercentiles`].
        pub fn try_nanpercentiles[Q: QuantileList](&self, ps: Q, method: QuantileMethod) -> Result<Tensor<T, (Q::Dim,)>, ShapeError>
        {
            over_all(self, &ps, &Request::new("nanpercentiles", ps.values(), true, method, true)?)
        }
        /// The percentiles `ps` of the elements that are not NaN (numpy's `nanpercentile(a,
        /// [p1, …])`).
        ///
        /// ```
        /// use mdtensor::{ops::QuantileMethod, tensor};
        /// let a = tensor![f64::NAN, 0.0, 10.0];
        /// assert_eq!(a.nanpercentiles([0.0, 50.0], QuantileMethod::Linear).to_vec(), [0.0, 5.0]);
        /// ```
        pub fn nanpercentiles;
    }
    forms! {
        /// See [`Tensor::nanpercentiles_axis_dyn`].
        pub fn try_nanpercentiles_axis_dyn[Q: QuantileList](&self, ps: Q, axis: impl Into<Axis>, method: QuantileMethod) -> Result<Tensor<T, <<E as RemoveAxisDyn>::Output as InsertAxis<0, Q::Dim>>::Output>, ShapeError>
        where [E: RemoveAxisDyn, <E as RemoveAxisDyn>::Output: InsertAxis<0, Q::Dim>]
        {
            let r = Request::new("nanpercentiles_axis_dyn", ps.values(), true, method, true)?;
            let axis = axis.into().resolve(r.op, self.rank())?;
            along(self, &ps, &r, axis, self.extents().remove_axis_dyn(r.op, axis)?)
        }
        /// [`Tensor::nanpercentiles`] along a run-time axis.
        ///
        /// ```
        /// use mdtensor::{ops::QuantileMethod, tensor};
        /// let a = tensor![[0.0, f64::NAN, 10.0]];
        /// assert_eq!(a.nanpercentiles_axis_dyn([50.0], -1, QuantileMethod::Linear).to_vec(), [5.0]);
        /// ```
        pub fn nanpercentiles_axis_dyn;
    }
    forms! {
        /// See [`Tensor::nanquantiles_axis`].
        pub fn try_nanquantiles_axis[const I: usize, Q: QuantileList]::<I, Q>(&self, qs: Q, method: QuantileMethod) -> Result<Tensor<T, <<E as RemoveAxis<I>>::Output as InsertAxis<0, Q::Dim>>::Output>, ShapeError>
        where [E: AxisAt<I> + RemoveAxis<I>, <E as RemoveAxis<I>>::Output: InsertAxis<0, Q::Dim>]
        {
            let r = Request::new("nanquantiles_axis", qs.values(), false, method, true)?;
            check_axis(r.op, I, self.rank())?;
            along(self, &qs, &r, I, RemoveAxis::<I>::remove_axis(self.extents())?)
        }
        /// [`Tensor::nanquantiles`] along axis `I`, static extents kept
        /// (`nanquantiles_axis::<I, _>(…)`).
        ///
        /// ```
        /// use mdtensor::{ext, ops::QuantileMethod, tensor, Tensor};
        /// let a = tensor![[1.0, f64::NAN, 3.0], [4.0, 5.0, 6.0]];
        /// let q: Tensor<f64, ext![2, 2]> = a.nanquantiles_axis::<1, _>([0.5, 1.0], QuantileMethod::Linear);
        /// assert_eq!(q.to_vec(), [2.0, 5.0, 3.0, 6.0]);
        /// ```
        pub fn nanquantiles_axis;
    }
    forms! {
        /// See [`Tensor::percentiles_axis`].
        pub fn try_percentiles_axis[const I: usize, Q: QuantileList]::<I, Q>(&self, ps: Q, method: QuantileMethod) -> Result<Tensor<T, <<E as RemoveAxis<I>>::Output as InsertAxis<0, Q::Dim>>::Output>, ShapeError>
        where [E: AxisAt<I> + RemoveAxis<I>, <E as RemoveAxis<I>>::Output: InsertAxis<0, Q::Dim>]
        {
            let r = Request::new("percentiles_axis", ps.values(), true, method, false)?;
            check_axis(r.op, I, self.rank())?;
            along(self, &ps, &r, I, RemoveAxis::<I>::remove_axis(self.extents())?)
        }
        /// [`Tensor::percentiles`] along axis `I`, static extents kept
        /// (`percentiles_axis::<I, _>(…)`).
        ///
        /// ```
        /// use mdtensor::{ext, ops::QuantileMethod, tensor, Tensor};
        /// let a = tensor![[0.0, 10.0], [20.0, 30.0]];
        /// let p: Tensor<f64, ext![2, 2]> = a.percentiles_axis::<1, _>([0.0, 50.0], QuantileMethod::Linear);
        /// assert_eq!(p.to_vec(), [0.0, 20.0, 5.0, 25.0]);
        /// ```
        pub fn percentiles_axis;
    }
    forms! {
        /// See [`Tensor::nanpercentiles_axis`].
        pub fn try_nanpercentiles_axis[const I: usize, Q: QuantileList]::<I, Q>(&self, ps: Q, method: QuantileMethod) -> Result<Tensor<T, <<E as RemoveAxis<I>>::Output as InsertAxis<0, Q::Dim>>::Output>, ShapeError>
        where [E: AxisAt<I> + RemoveAxis<I>, <E as RemoveAxis<I>>::Output: InsertAxis<0, Q::Dim>]
        {
            let r = Request::new("nanpercentiles_axis", ps.values(), true, method, true)?;
            check_axis(r.op, I, self.rank())?;
            along(self, &ps, &r, I, RemoveAxis::<I>::remove_axis(self.extents())?)
        }
        /// [`Tensor::nanpercentiles`] along axis `I`, static extents kept
        /// (`nanpercentiles_axis::<I, _>(…)`).
        ///
        /// ```
        /// use mdtensor::{ext, ops::QuantileMethod, tensor, Tensor};
        /// let a = tensor![[0.0, f64::NAN], [20.0, 30.0]];
        /// let p: Tensor<f64, ext![2, 2]> = a.nanpercentiles_axis::<0, _>([50.0, 0.0], QuantileMethod::Linear);
        /// assert_eq!(p.to_vec(), [10.0, 30.0, 0.0, 30.0]);
        /// ```
        pub fn nanpercentiles_axis;
    }
}
