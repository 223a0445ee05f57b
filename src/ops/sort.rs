//! Sorting along an axis: numpy's `sort(a, axis, kind='stable')` and `argsort`. The order
//! is numpy's ([`NanOrd`]): stable, NaN last, complex numbers by real part then imaginary
//! part, those with NaN parts last in numpy's classes `[R + Rj, R + nanj, nan + Rj,
//! nan + nanj]`.
//!
//! ```
//! use mdtensor::{tensor, Complex};
//! let z = tensor![Complex::new(2.0, 0.0), Complex::new(f64::NAN, 0.0), Complex::new(1.0, 5.0), Complex::new(1.0, -1.0)];
//! assert_eq!(z.argsort_axis::<0>().to_vec(), [3, 2, 0, 1]);
//! ```

use super::axiswise::{around, check_axis};
use crate::alloc::{try_vec_filled, try_vec_with_capacity};
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Axis, AxisAt, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::NanOrd;
use crate::tensor::Tensor;

/// For each lane along `axis` of the row-major `data` of extents `dims`, the lane's
/// stable sorting permutation, NaN last, is computed (`perm[j]`: the source index along
/// the lane of the `j`-th smallest element) and `visit(data, at, perm)` is called, where
/// `at(j)` is the position in `data` of lane index `j`.
fn sort_lanes<T: NanOrd>(
    op: &'static str,
    data: &mut [T],
    dims: &[usize],
    axis: usize,
    mut visit: impl FnMut(&mut [T], &dyn Fn(usize) -> usize, &[usize]),
) -> Result<(), ShapeError> {
    let (outer, n, inner) = around(dims, axis);
    // With no elements there is nothing to visit, however many lanes of length 0 (or
    // empty lanes) the other axes describe: 2^44 of them would take hours.
    if outer == 0 || n == 0 || inner == 0 {
        return Ok(());
    }
    let mut perm: Vec<usize> = try_vec_with_capacity(op, n)?;
    for o in 0..outer {
        for i in 0..inner {
            let at = |j: usize| (o * n + j) * inner + i;
            perm.clear();
            perm.extend(0..n);
            let d = &*data;
            perm.sort_by(|&x, &y| d[at(x)].cmp_nan_last(&d[at(y)]));
            visit(data, &at, &perm);
        }
    }
    Ok(())
}

fn sorted<T: Clone + NanOrd, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    axis: usize,
) -> Result<Tensor<T, E>, ShapeError> {
    check_axis(op, axis, t.rank())?;
    // The result is as large as the input: one fallible copy, each lane then sorted in
    // place through a buffer of one lane.
    let mut data = t.to_vec_op(op)?;
    let dims = t.dims();
    // One lane's buffer, not needed (however long the lane) when there are no elements.
    let lane_len = if data.is_empty() { 0 } else { dims.as_ref()[axis] };
    let mut lane: Vec<T> = try_vec_with_capacity(op, lane_len)?;
    sort_lanes(op, &mut data, dims.as_ref(), axis, |data, at, perm| {
        lane.clear();
        lane.extend(perm.iter().map(|&src| data[at(src)].clone()));
        for (j, x) in lane.drain(..).enumerate() {
            data[at(j)] = x;
        }
    })?;
    Tensor::try_from_vec(t.extents().clone(), data).map_err(|(e, _)| e)
}

fn argsorted<T: Clone + NanOrd, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    axis: usize,
) -> Result<Tensor<usize, E>, ShapeError> {
    check_axis(op, axis, t.rank())?;
    let mut data = t.to_vec_op(op)?;
    let dims = t.dims();
    let mut out = try_vec_filled(op, data.len(), 0usize)?;
    sort_lanes(op, &mut data, dims.as_ref(), axis, |_, at, perm| {
        for (j, &src) in perm.iter().enumerate() {
            out[at(j)] = src;
        }
    })?;
    Tensor::try_from_vec(t.extents().clone(), out).map_err(|(e, _)| e)
}

/// # Sorting along an axis
impl<T: Clone + NanOrd, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::sort_axis`]; `Err` only for a [`DynRank`](crate::DynRank) tensor
        /// without axis `I`.
        pub fn try_sort_axis[const I: usize]::<I>(&self) -> Result<Tensor<T, E>, ShapeError>
        where [E: AxisAt<I>]
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
        pub fn sort_axis;
    }
    forms! {
        /// [`Tensor::sort_axis`] along a run-time axis; `Err` outside `-rank..rank` (a negative axis counts from the
        /// end).
        pub fn try_sort_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<Tensor<T, E>, ShapeError>
        {
            let axis = axis.into().resolve("sort_axis_dyn", self.rank())?;
            sorted(self, "sort_axis_dyn", axis)
        }
        /// [`Tensor::sort_axis`] along a run-time axis.
        pub fn sort_axis_dyn;
    }
    forms! {
        /// See [`Tensor::argsort_axis`].
        pub fn try_argsort_axis[const I: usize]::<I>(&self) -> Result<Tensor<usize, E>, ShapeError>
        where [E: AxisAt<I>]
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
        pub fn argsort_axis;
    }
    forms! {
        /// [`Tensor::argsort_axis`] along a run-time axis; `Err` outside `-rank..rank` (a negative axis counts from the
        /// end).
        pub fn try_argsort_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<Tensor<usize, E>, ShapeError>
        {
            let axis = axis.into().resolve("argsort_axis_dyn", self.rank())?;
            argsorted(self, "argsort_axis_dyn", axis)
        }
        /// [`Tensor::argsort_axis`] along a run-time axis.
        pub fn argsort_axis_dyn;
    }
}
