//! Sorting along an axis: numpy's `sort(a, axis, kind='stable')` and `argsort`. The order
//! is stable and puts NaN (any element not comparable with itself) last, as numpy does.

use super::along::{around, check_axis};
use crate::error::ShapeError;
use crate::extents::{Axis, AxisAt, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::{or_panic, Tensor};
use core::cmp::Ordering;

/// A total order for `PartialOrd` values: the usual order, with NaN after everything.
#[allow(clippy::eq_op)]
fn nan_last<T: PartialOrd>(a: &T, b: &T) -> Ordering {
    a.partial_cmp(b).unwrap_or_else(|| {
        let (a_nan, b_nan) = (a.partial_cmp(a).is_none(), b.partial_cmp(b).is_none());
        a_nan.cmp(&b_nan)
    })
}

/// The row-major elements and, for every lane along `axis`, the stable sorting permutation
/// written in place of the lane (`perm[(o·n + j)·inner + i]` is the source index `j'`).
fn sort_lanes<T: Clone + PartialOrd, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    axis: usize,
) -> Result<(Vec<T>, Vec<usize>), ShapeError> {
    check_axis(op, axis, t.rank())?;
    let data = t.to_vec();
    let (outer, n, inner) = around(t.dims().as_ref(), axis);
    let mut perm = vec![0; data.len()];
    let mut lane: Vec<usize> = Vec::with_capacity(n);
    for o in 0..outer {
        for i in 0..inner {
            let at = |j: usize| (o * n + j) * inner + i;
            lane.clear();
            lane.extend(0..n);
            lane.sort_by(|&x, &y| nan_last(&data[at(x)], &data[at(y)]));
            for (j, &src) in lane.iter().enumerate() {
                perm[at(j)] = src;
            }
        }
    }
    Ok((data, perm))
}

fn sorted<T: Clone + PartialOrd, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    axis: usize,
) -> Result<Tensor<T, E>, ShapeError> {
    let (data, perm) = sort_lanes(t, op, axis)?;
    let (_, n, inner) = around(t.dims().as_ref(), axis);
    // Position p sits at lane index j = (p / inner) % n; its value comes from index perm[p].
    let v = (0..data.len()).map(|p| data[p - ((p / inner) % n) * inner + perm[p] * inner].clone()).collect();
    Tensor::try_from_vec(t.extents().clone(), v).map_err(|(e, _)| e)
}

fn argsorted<T: Clone + PartialOrd, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    axis: usize,
) -> Result<Tensor<usize, E>, ShapeError> {
    let (_, perm) = sort_lanes(t, op, axis)?;
    Tensor::try_from_vec(t.extents().clone(), perm).map_err(|(e, _)| e)
}

/// # Sorting along an axis
impl<T: Clone + PartialOrd, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// See [`Tensor::sort_axis`]; `Err` only for a [`DynRank`](crate::DynRank) tensor
    /// without axis `I`.
    pub fn try_sort_axis<const I: usize>(&self) -> Result<Tensor<T, E>, ShapeError>
    where
        E: AxisAt<I>,
    {
        sorted(self, "sort_axis", I)
    }
    /// A copy sorted along axis `I`, stable, NaN last (numpy's
    /// `sort(a, axis=I, kind='stable')`).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let a = tensor![[3.0, f64::NAN, 1.0], [2.0, 0.0, -1.0]];
    /// let s = a.sort_axis::<1>().to_vec();
    /// assert_eq!(&s[..2], [1.0, 3.0]);
    /// assert!(s[2].is_nan());
    /// assert_eq!(&s[3..], [-1.0, 0.0, 2.0]);
    /// ```
    #[track_caller]
    pub fn sort_axis<const I: usize>(&self) -> Tensor<T, E>
    where
        E: AxisAt<I>,
    {
        or_panic(self.try_sort_axis::<I>())
    }
    /// [`Tensor::sort_axis`] along a run-time axis; `Err` outside `-rank..rank` (a negative axis counts from the end).
    pub fn try_sort_axis_dyn(&self, axis: impl Into<Axis>) -> Result<Tensor<T, E>, ShapeError> {
        let axis = axis.into().resolve("sort_axis_dyn", self.rank())?;
        sorted(self, "sort_axis_dyn", axis)
    }
    /// [`Tensor::sort_axis`] along a run-time axis.
    #[track_caller]
    pub fn sort_axis_dyn(&self, axis: impl Into<Axis>) -> Tensor<T, E> {
        or_panic(self.try_sort_axis_dyn(axis))
    }
    /// See [`Tensor::argsort_axis`].
    pub fn try_argsort_axis<const I: usize>(&self) -> Result<Tensor<usize, E>, ShapeError>
    where
        E: AxisAt<I>,
    {
        argsorted(self, "argsort_axis", I)
    }
    /// The indices along axis `I` that sort each lane, stable (ties keep their order), NaN
    /// last (numpy's `argsort(a, axis=I, kind='stable')`).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let a = tensor![2.0, f64::NAN, 1.0, 2.0];
    /// assert_eq!(a.argsort_axis::<0>().to_vec(), [2, 0, 3, 1]);
    /// ```
    #[track_caller]
    pub fn argsort_axis<const I: usize>(&self) -> Tensor<usize, E>
    where
        E: AxisAt<I>,
    {
        or_panic(self.try_argsort_axis::<I>())
    }
    /// [`Tensor::argsort_axis`] along a run-time axis; `Err` outside `-rank..rank` (a negative axis counts from the end).
    pub fn try_argsort_axis_dyn(&self, axis: impl Into<Axis>) -> Result<Tensor<usize, E>, ShapeError> {
        let axis = axis.into().resolve("argsort_axis_dyn", self.rank())?;
        argsorted(self, "argsort_axis_dyn", axis)
    }
    /// [`Tensor::argsort_axis`] along a run-time axis.
    #[track_caller]
    pub fn argsort_axis_dyn(&self, axis: impl Into<Axis>) -> Tensor<usize, E> {
        or_panic(self.try_argsort_axis_dyn(axis))
    }
}
