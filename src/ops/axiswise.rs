//! What the axis-wise operations (join, cumulative, take, sort) share: the run-time axis
//! check, the split of a row-major index space around one axis, and a dynamic-rank view
//! that lets operands of different types go through one code path.

use crate::extents::{DynRank, Extents};
use crate::layout::{Layout, Strided};
use crate::storage::{DenseStorage, View};
use crate::tensor::Tensor;

pub(crate) use crate::extents::check_axis;

/// `(outer, n, inner)`: in row-major order, the index space of `dims` is `outer` blocks of
/// `n` steps along `axis`, each step `inner` consecutive elements. The products are those
/// of a live tensor's extents, which its constructor checked for overflow.
pub(crate) fn around(dims: &[usize], axis: usize) -> (usize, usize, usize) {
    (dims[..axis].iter().product(), dims[axis], dims[axis + 1..].iter().product())
}

/// The same elements as a dynamic-rank strided view.
pub(crate) fn dyn_view<T, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
) -> Tensor<T, DynRank, Strided, View<'_, T>> {
    let ext = DynRank::new(t.dims().as_ref().to_vec());
    let strides = t.strides().as_ref().to_vec();
    // SAFETY: the same extents and strides as `t`: every position is one of `t`'s.
    unsafe { t.view().relayout(ext, strides, 0) }.expect("a strided mapping takes any strides")
}
