//! Triangles and diagonals: numpy's `triu`, `tril` (of the last two axes, with diagonal
//! offset `k`), `diagonal` and `trace` (with `offset`, `axis1`, `axis2`).
//!
//! `triu`/`tril` keep the extents, static ones included. numpy turns a 1-D input of length
//! `n` into the `n × n` matrix of its rows first; so does a [`DynRank`] input here, while a
//! tuple rank-1 input is `Err` (its extents type cannot become a matrix's: broadcast the
//! vector to a matrix first). Rank 0 is `Err`, as numpy raises.
//! `diagonal` is a view; `trace` sums it.

use super::axiswise::dyn_view;
use super::reduce::Sum;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::extents::{Axis, DynRank, Extents};
use crate::layout::arith::advance;
use crate::layout::{Layout, Strided};
use crate::storage::{DenseStorage, View};
use crate::tensor::Tensor;
use num_traits::Zero;

/// A copy of `t` with the elements `[…, i, j]` for which `keep(j - i)` fails set to 0.
fn masked<T: Clone + Zero, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    keep: impl Fn(isize) -> bool,
) -> Result<Tensor<T, E>, ShapeError> {
    let rank = t.rank();
    if rank == 1 {
        return masked_vector(t, op, keep);
    }
    if rank < 2 {
        return Err(ShapeError::InvalidArgument { op, reason: format!("needs at least 1 axis, not {rank}") });
    }
    let mut v = t.to_vec_op(op)?;
    let dims = t.dims();
    let (rows, cols) = (dims.as_ref()[rank - 2], dims.as_ref()[rank - 1]);
    if cols > 0 && rows > 0 {
        for (p, x) in v.iter_mut().enumerate() {
            // Extents of a live tensor fit in isize.
            let (i, j) = (((p / cols) % rows) as isize, (p % cols) as isize);
            if !keep(j - i) {
                *x = T::zero();
            }
        }
    }
    Tensor::try_from_vec(t.extents().clone(), v).map_err(|(e, _)| e)
}

/// numpy's rule for a vector `x` of length `n`: the `n × n` matrix of rows `x`, masked.
/// Only extents whose rank can change ([`DynRank`]) hold that result.
fn masked_vector<T: Clone + Zero, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    keep: impl Fn(isize) -> bool,
) -> Result<Tensor<T, E>, ShapeError> {
    let n = t.extents().extent(0);
    let ext = E::from_dims(&[n, n]).map_err(|_| ShapeError::InvalidArgument {
        op,
        reason:
            "numpy turns a vector into a square matrix, which needs DynRank extents (or broadcast it to a matrix first)"
                .into(),
    })?;
    let x = t.to_vec_op(op)?;
    let len = n.checked_mul(n).ok_or_else(|| ShapeError::Overflow { op, dims: vec![n, n] })?;
    let mut v = crate::alloc::try_vec_with_capacity(op, len)?;
    for i in 0..n {
        // Extents of a live tensor fit in isize.
        v.extend(x.iter().enumerate().map(|(j, e)| if keep(j as isize - i as isize) { e.clone() } else { T::zero() }));
    }
    Tensor::try_from_vec(ext, v).map_err(|(e, _)| e)
}

/// # Triangles, diagonals and the trace
impl<T, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::triu`]; `Err` for rank 0, and for a vector of tuple extents.
        pub fn try_triu[](&self, k: isize) -> Result<Tensor<T, E>, ShapeError>
        where [T: Clone + Zero]
        {
            masked(self, "triu", |d| d >= k)
        }
        /// The upper triangle of the last two axes: elements below diagonal `k` set to 0
        /// (numpy's `triu(m, k)`; `k > 0` is above the main diagonal). The extents are kept.
        ///
        /// ```
        /// use mdtensor::{ext, tensor};
        /// let m = tensor![[1, 2, 3], [4, 5, 6], [7, 8, 9]];
        /// let u = m.triu(0);
        /// let _: &ext![3, 3] = u.extents();
        /// assert_eq!(u.to_vec(), [1, 2, 3, 0, 5, 6, 0, 0, 9]);
        /// assert_eq!(m.triu(1).to_vec(), [0, 2, 3, 0, 0, 6, 0, 0, 0]);
        /// // numpy's vector rule, at dynamic rank: the square matrix of rows `v`.
        /// let v = mdtensor::Tensor::<i32, mdtensor::DynRank>::from_vec(vec![3], vec![1, 2, 3]);
        /// assert_eq!(v.triu(0).to_vec(), [1, 2, 3, 0, 2, 3, 0, 0, 3]);
        /// assert!(tensor![1, 2, 3].try_triu(0).is_err()); // tuple extents keep rank 1
        /// ```
        pub fn triu;
    }
    forms! {
        /// See [`Tensor::tril`]; `Err` for rank 0, and for a vector of tuple extents.
        pub fn try_tril[](&self, k: isize) -> Result<Tensor<T, E>, ShapeError>
        where [T: Clone + Zero]
        {
            masked(self, "tril", |d| d <= k)
        }
        /// The lower triangle of the last two axes: elements above diagonal `k` set to 0
        /// (numpy's `tril(m, k)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let m = tensor![[1, 2, 3], [4, 5, 6]];
        /// assert_eq!(m.tril(0).to_vec(), [1, 0, 0, 4, 5, 0]);
        /// assert_eq!(m.tril(-1).to_vec(), [0, 0, 0, 4, 0, 0]);
        /// ```
        pub fn tril;
    }
    forms! {
        /// See [`Tensor::diagonal`]; `Err` for equal axes or an axis outside `-rank..rank`.
        pub fn try_diagonal[](&self, offset: isize, axis1: impl Into<Axis>, axis2: impl Into<Axis>) -> Result<Tensor<T, DynRank, Strided, View<'_, T>>, ShapeError>
        {
            let op = "diagonal";
            let rank = self.rank();
            let (a1, a2) = (axis1.into().resolve(op, rank)?, axis2.into().resolve(op, rank)?);
            if a1 == a2 {
                return Err(ShapeError::InvalidArgument { op, reason: format!("axis1 and axis2 are both axis {a1}") });
            }
            let (dims, strides) = (self.dims(), self.strides());
            let (dims, strides) = (dims.as_ref(), strides.as_ref());
            let (n1, n2, s1, s2) = (dims[a1], dims[a2], strides[a1], strides[a2]);
            // numpy's diagonal starts at [0, offset] (or [-offset, 0]) and runs while both
            // indices are in range.
            let off = offset.unsigned_abs();
            let (start1, start2) = if offset >= 0 { (0, off) } else { (off, 0) };
            let len = n1.saturating_sub(start1).min(n2.saturating_sub(start2));
            let mut new_dims: Vec<usize> = (0..rank).filter(|&k| k != a1 && k != a2).map(|k| dims[k]).collect();
            let mut new_strides: Vec<isize> = (0..rank).filter(|&k| k != a1 && k != a2).map(|k| strides[k]).collect();
            new_dims.push(len);
            let overflow = || ShapeError::InvalidArgument { op, reason: "the diagonal's stride overflows isize".into() };
            new_strides.push(if len > 1 { s1.checked_add(s2).ok_or_else(overflow)? } else { 0 });
            let first = if len == 0 { 0 } else { advance(op, advance(op, 0, start1, s1)?, start2, s2)? };
            let view = dyn_view(self);
            // SAFETY: index `[…, d]` of the result is index `[…, start1 + d, …, start2 + d, …]`
            // of the tensor, in range for every `d < len`; distinct indices stay distinct.
            unsafe { view.relayout(DynRank::new(new_dims), new_strides, first) }
        }
        /// The diagonal with `offset` of the plane of `axis1` and `axis2`, as a view whose
        /// last axis runs along the diagonal and whose other axes are the remaining ones
        /// (numpy's `diagonal(a, offset, axis1, axis2)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let m = tensor![[1, 2, 3], [4, 5, 6]];
        /// assert_eq!(m.diagonal(1, 0, 1).to_vec(), [2, 6]);
        /// assert_eq!(m.diagonal(-1, 0, 1).to_vec(), [4]);
        /// ```
        pub fn diagonal;
    }
    forms! {
        /// See [`Tensor::trace`]; `Err` unless the rank is 2 (see [`Tensor::trace_dyn`]).
        pub fn try_trace[](&self, offset: isize) -> Result<T, ShapeError>
        where [T: Copy + Send + Sync + Zero]
        {
            if self.rank() != 2 {
                return Err(ShapeError::RankMismatch { op: "trace", expected: 2, found: self.rank() });
            }
            let d = self.try_diagonal(offset, 0, 1)?;
            super::reduce::Reductions::try_reduce_with(&d, Sum, Par::Auto)
        }
        /// The sum of a matrix's diagonal `offset` (numpy's `trace(m, offset)`; 0 for an
        /// empty diagonal).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let m = tensor![[1, 2, 3], [4, 5, 6]];
        /// assert_eq!(m.trace(0), 6);
        /// assert_eq!(m.trace(1), 8);
        /// assert_eq!(m.trace(5), 0);
        /// ```
        pub fn trace;
    }
    forms! {
        /// See [`Tensor::trace_dyn`].
        pub fn try_trace_dyn[](&self, offset: isize, axis1: impl Into<Axis>, axis2: impl Into<Axis>) -> Result<Tensor<T, DynRank>, ShapeError>
        where [T: Copy + Send + Sync + Zero]
        {
            let d = self.try_diagonal(offset, axis1, axis2)?;
            d.try_reduce_axis_dyn_with(Sum, -1, Par::Auto)
        }
        /// The sums along diagonals `offset` of the planes of `axis1` and `axis2`, over the
        /// other axes (numpy's `trace(a, offset, axis1, axis2)`).
        ///
        /// ```
        /// use mdtensor::{ext, Tensor};
        /// let a = Tensor::<i32, ext![2, 2, 3]>::from_fn(ext![2, 2, 3], |[i, j, k]| (i * 6 + j * 3 + k) as i32);
        /// assert_eq!(a.trace_dyn(0, 0, 1).to_vec(), [9, 11, 13]);
        /// assert_eq!(a.trace_dyn(0, -1, -2).to_vec(), [4, 16]);
        /// ```
        pub fn trace_dyn;
    }
}
