//! One value per 1-D lane along an axis, each lane copied into one reused buffer that the
//! value's function may reorder (selection, NaN filtering): the engine of the quantiles,
//! `nanmedian` and `logsumexp`. The lanes are in row-major order of the other axes, as
//! numpy's results.

use crate::alloc::try_vec_with_capacity;
use crate::error::ShapeError;
use crate::extents::Extents;
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// `f(lane)` for every lane along `axis` (already checked), as a row-major tensor of
/// extents `out` (the input's without `axis`).
pub(crate) fn map_lanes<T: Copy, U, E: Extents, S: Layout<E>, St: DenseStorage<T>, E2: Extents>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    axis: usize,
    out: E2,
    mut f: impl FnMut(&mut [T]) -> Result<U, ShapeError>,
) -> Result<Tensor<U, E2>, ShapeError> {
    let count = out.numel();
    let mut values: Vec<U> = try_vec_with_capacity(op, count)?;
    // No lanes: no buffer, however long the (absent) lanes would be.
    let n = if count == 0 { 0 } else { t.extents().extent(axis) };
    let mut lane: Vec<T> = try_vec_with_capacity(op, n)?;
    for view in t.try_lanes_dyn(axis)? {
        lane.clear();
        lane.extend(view.iter().copied());
        values.push(f(&mut lane)?);
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
