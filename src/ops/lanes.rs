//! One value per 1-D lane along an axis, for functions that reorder the lane they are
//! given (selection, NaN filtering): the engine of the quantiles, `nanmedian` and
//! `logsumexp`. The tensor is copied once with the axis moved last, so each lane is a
//! contiguous run the function may permute in place, and groups of lanes go to rayon's
//! threads when the input is large ([`Par::Auto`]'s rule). The lanes are in row-major order
//! of the other axes, as numpy's results.

use super::axiswise::dyn_view;
use crate::alloc::try_vec_with_capacity;
use crate::error::ShapeError;
use crate::exec::par::{map_pieces, Par, Work};
use crate::extents::Extents;
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// `f(lane)` for every lane along `axis` (already checked), as a row-major tensor of
/// extents `out` (the input's without `axis`).
pub(crate) fn map_lanes<T: Copy + Send + Sync, U: Send, E: Extents, S: Layout<E>, St: DenseStorage<T>, E2: Extents>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    axis: usize,
    out: E2,
    f: impl Fn(&mut [T]) -> Result<U, ShapeError> + Send + Sync,
) -> Result<Tensor<U, E2>, ShapeError> {
    let lanes = out.numel();
    let n = t.extents().extent(axis);
    let mut values: Vec<U> = try_vec_with_capacity(op, lanes)?;
    if n == 0 || lanes == 0 {
        for _ in 0..lanes {
            values.push(f(&mut [])?);
        }
        return Tensor::try_from_vec(out, values).map_err(|(e, _)| e);
    }
    let last = t.rank() - 1;
    let mut data = dyn_view(t).try_into_moveaxis_dyn(axis, last)?.to_vec_op(op)?;
    let pieces = Par::Auto.pieces(Work::Elements(data.len()), 4).min(lanes);
    let per = lanes.div_ceil(pieces) * n;
    let parts: Vec<&mut [T]> = data.chunks_mut(per).collect();
    for part in map_pieces(parts, |part: &mut [T]| -> Result<Vec<U>, ShapeError> {
        let mut v = try_vec_with_capacity(op, part.len() / n)?;
        for lane in part.chunks_mut(n) {
            v.push(f(lane)?);
        }
        Ok(v)
    }) {
        values.extend(part?);
    }
    Tensor::try_from_vec(out, values).map_err(|(e, _)| e)
}

/// `f(all elements)` in logical order, in one fallible copy (numpy's `axis=None`).
pub(crate) fn map_all<T: Copy, U, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    f: impl FnOnce(&mut [T]) -> Result<U, ShapeError>,
) -> Result<U, ShapeError> {
    let mut all = t.to_vec_op(op)?;
    f(&mut all)
}
