//! numpy's `repeat` (each element `count` times along an axis, or per-element counts, or
//! flattened without an axis) and `tile` (the whole tensor repeated along each axis, the
//! ranks promoted by leading axes of extent 1 as numpy's). The repeated axes are dynamic in
//! the result.

use super::axiswise::around;
use super::axiswise::check_axis;
use crate::alloc::try_vec_with_capacity;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Axis, Dyn, DynRank, Extents, RepeatAxis, TileReps};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// Lane element `j` of `t` (row-major, extents `dims`) repeated `counts(j)` times along
/// `axis`, into extents of dims `out_dims`.
fn repeated<T: Clone, E2: Extents>(
    op: &'static str,
    v: &[T],
    dims: &[usize],
    axis: usize,
    counts: &dyn Fn(usize) -> usize,
    out: E2,
) -> Result<Tensor<T, E2>, ShapeError> {
    let (outer, n, inner) = around(dims, axis);
    let count = out.checked_numel(op, core::mem::size_of::<T>())?;
    let mut w: Vec<T> = try_vec_with_capacity(op, count)?;
    if count > 0 {
        for o in 0..outer {
            for j in 0..n {
                let at = (o * n + j) * inner;
                for _ in 0..counts(j) {
                    w.extend_from_slice(&v[at..at + inner]);
                }
            }
        }
    }
    Tensor::try_from_vec(out, w).map_err(|(e, _)| e)
}

fn overflow(op: &'static str) -> ShapeError {
    ShapeError::InvalidArgument { op, reason: "the repeated extent overflows usize".into() }
}

/// numpy's `tile` of `t` by `reps`: the result's dims and row-major elements.
fn tiled<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    reps: &[usize],
) -> Result<(Vec<usize>, Vec<T>), ShapeError> {
    let rank = t.rank().max(reps.len());
    // numpy promotes both to the longer rank with leading ones.
    let mut dims = vec![1usize; rank];
    let own = t.dims();
    dims[rank - own.as_ref().len()..].copy_from_slice(own.as_ref());
    let mut r = vec![1usize; rank];
    r[rank - reps.len()..].copy_from_slice(reps);
    let mut v = t.to_vec_op(op)?;
    // One axis at a time: the whole block of axes `k..` repeated `r[k]` times.
    for k in (0..rank).rev() {
        let mut out_dims = dims.clone();
        out_dims[k] = dims[k].checked_mul(r[k]).ok_or_else(|| overflow(op))?;
        let out = DynRank::new(out_dims.clone());
        let (outer, n, inner) = around(&dims, k);
        let count = out.checked_numel(op, core::mem::size_of::<T>())?;
        let mut w: Vec<T> = try_vec_with_capacity(op, count)?;
        if count > 0 {
            for o in 0..outer {
                let block = &v[o * n * inner..(o + 1) * n * inner];
                for _ in 0..r[k] {
                    w.extend_from_slice(block);
                }
            }
        }
        v = w;
        dims = out_dims;
    }
    Ok((dims, v))
}

/// # Repeating and tiling
impl<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::repeat_dyn`]; `Err` outside `-rank..rank` or for a result that
        /// does not fit.
        pub fn try_repeat_dyn[](&self, count: usize, axis: impl Into<Axis>) -> Result<Tensor<T, E::Dynamic>, ShapeError>
        {
            let op = "repeat_dyn";
            let axis = axis.into().resolve(op, self.rank())?;
            let mut dims = self.dims();
            let n = dims.as_ref()[axis];
            dims.as_mut()[axis] = n.checked_mul(count).ok_or_else(|| overflow(op))?;
            let out = <E::Dynamic as Extents>::from_dims(dims.as_ref())?;
            let v = self.to_vec_op(op)?;
            repeated(op, &v, self.dims().as_ref(), axis, &|_| count, out)
        }
        /// Each element `count` times in a row along `axis` (numpy's `repeat(a, count,
        /// axis)`; a negative axis counts from the end).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2], [3, 4]];
        /// assert_eq!(a.repeat_dyn(2, 1).to_vec(), [1, 1, 2, 2, 3, 3, 4, 4]);
        /// assert_eq!(a.repeat_dyn(2, 0).dims(), [4, 2]);
        /// ```
        pub fn repeat_dyn;
    }
    forms! {
        /// See [`Tensor::repeat_each_dyn`]; `Err` unless there is one count per element of
        /// the axis.
        pub fn try_repeat_each_dyn[](&self, counts: &[usize], axis: impl Into<Axis>) -> Result<Tensor<T, E::Dynamic>, ShapeError>
        {
            let op = "repeat_each_dyn";
            let axis = axis.into().resolve(op, self.rank())?;
            let mut dims = self.dims();
            let n = dims.as_ref()[axis];
            if counts.len() != n {
                return Err(ShapeError::InvalidArgument {
                    op,
                    reason: format!("{} counts for an axis of {n} elements", counts.len()),
                });
            }
            dims.as_mut()[axis] = counts.iter().try_fold(0usize, |s, &c| s.checked_add(c)).ok_or_else(|| overflow(op))?;
            let out = <E::Dynamic as Extents>::from_dims(dims.as_ref())?;
            let v = self.to_vec_op(op)?;
            repeated(op, &v, self.dims().as_ref(), axis, &|j| counts[j], out)
        }
        /// Element `j` of `axis` repeated `counts[j]` times (numpy's `repeat(a, counts,
        /// axis)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![1, 2, 3].repeat_each_dyn(&[0, 2, 1], 0).to_vec(), [2, 2, 3]);
        /// ```
        pub fn repeat_each_dyn;
    }
    forms! {
        /// See [`Tensor::repeat_flat`].
        pub fn try_repeat_flat[](&self, count: usize) -> Result<Tensor<T, (Dyn,)>, ShapeError>
        {
            let op = "repeat_flat";
            let v = self.to_vec_op(op)?;
            let len = v.len().checked_mul(count).ok_or_else(|| overflow(op))?;
            repeated(op, &v, &[v.len()], 0, &|_| count, (Dyn(len),))
        }
        /// Each element `count` times, in logical order, as a vector (numpy's `repeat(a,
        /// count)` without an axis).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[1, 2], [3, 4]].repeat_flat(2).to_vec(), [1, 1, 2, 2, 3, 3, 4, 4]);
        /// ```
        pub fn repeat_flat;
    }
    forms! {
        /// See [`Tensor::tile_dyn`]; `Err` for a result that does not fit.
        pub fn try_tile_dyn[](&self, reps: &[usize]) -> Result<Tensor<T, DynRank>, ShapeError>
        {
            let (dims, v) = tiled(self, "tile_dyn", reps)?;
            Tensor::try_from_vec(DynRank::new(dims), v).map_err(|(e, _)| e)
        }
        /// The tensor repeated `reps[k]` times along axis `k` (numpy's `tile(a, reps)`: the
        /// shorter of the rank and `reps` is padded with leading ones).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2], [3, 4]];
        /// assert_eq!(a.tile_dyn(&[2]).to_vec(), [1, 2, 1, 2, 3, 4, 3, 4]);
        /// let t = a.tile_dyn(&[2, 1, 1]);
        /// assert_eq!(t.dims(), [2, 2, 2]);
        /// assert_eq!(tensor![1, 2].tile_dyn(&[2, 2]).to_vec(), [1, 2, 1, 2, 1, 2, 1, 2]);
        /// ```
        pub fn tile_dyn;
    }
    forms! {
        /// See [`Tensor::tile`]; `Err` for a result that does not fit.
        pub fn try_tile[R: TileReps<E>]::<R>(&self) -> Result<Tensor<T, R::Output>, ShapeError>
        {
            let (dims, v) = tiled(self, "tile", R::REPS)?;
            Tensor::try_from_vec(R::Output::from_dims(&dims)?, v).map_err(|(e, _)| e)
        }
        /// The tensor repeated along each axis by the counts of `R`, one [`Rep`](crate::Rep)
        /// per axis (numpy's `tile(a, reps)` for `reps` as long as the rank), the tiled
        /// extents computed in the type.
        ///
        /// ```
        /// use mdtensor::{ext, tensor, Rep};
        /// let a = tensor![[1, 2], [3, 4]];
        /// let t = a.tile::<(Rep<2>, Rep<1>)>();
        /// let _: &ext![4, 2] = t.extents();
        /// assert_eq!(t.to_vec(), [1, 2, 3, 4, 1, 2, 3, 4]);
        /// ```
        pub fn tile;
    }
    forms! {
        /// See [`Tensor::repeat`]; `Err` only for a [`DynRank`] tensor
        /// without axis `I`, or a result that does not fit.
        pub fn try_repeat[const C: usize, const I: usize]::<C, I>(&self) -> Result<Tensor<T, <E as RepeatAxis<I, C>>::Output>, ShapeError>
        where [E: RepeatAxis<I, C>]
        {
            let op = "repeat";
            check_axis(op, I, self.rank())?;
            let mut dims = self.dims();
            let n = dims.as_ref()[I];
            dims.as_mut()[I] = n.checked_mul(C).ok_or_else(|| overflow(op))?;
            let out = <<E as RepeatAxis<I, C>>::Output as Extents>::from_dims(dims.as_ref())?;
            let v = self.to_vec_op(op)?;
            repeated(op, &v, self.dims().as_ref(), I, &|_| C, out)
        }
        /// Each element `C` times in a row along axis `I` (numpy's `repeat(a, C, axis=I)`),
        /// the repeated extent computed in the type.
        ///
        /// ```
        /// use mdtensor::{ext, tensor};
        /// let a = tensor![[1, 2], [3, 4]];
        /// let r = a.repeat::<3, 1>();
        /// let _: &ext![2, 6] = r.extents();
        /// assert_eq!(r.to_vec(), [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]);
        /// ```
        pub fn repeat;
    }
}
