//! Operations on sparse tensors: products with dense vectors and matrices (`matvec`,
//! `matmat`), elementwise arithmetic between sparse tensors and with scalars (`sparse_add`,
//! `sparse_mul`, `scale`, `sparse_map`). Sums (`sum`, `sum_axis`) are shared with dense
//! tensors through [`SumStorage`](crate::ops::SumStorage).
//!
//! Names that dense tensors already use for something else get a `sparse_` prefix
//! (`sparse_add`, `sparse_map`, `sparse_view`, `sparse_t`): the two families live on the
//! same `Tensor` type, and a storage written outside this crate may be both.

mod elementwise;
mod product;

use core::cmp::Ordering;

/// Where a merged entry comes from.
#[derive(Clone, Copy)]
pub(crate) enum Side {
    Left(usize),
    Right(usize),
    Both(usize, usize),
}

/// Walks two sorted sequences of `na` and `nb` entries in order (`cmp(i, j)` compares
/// left entry `i` with right entry `j`), reporting each position once.
pub(crate) fn merge(na: usize, nb: usize, mut cmp: impl FnMut(usize, usize) -> Ordering, mut emit: impl FnMut(Side)) {
    let (mut i, mut j) = (0, 0);
    while i < na && j < nb {
        match cmp(i, j) {
            Ordering::Less => {
                emit(Side::Left(i));
                i += 1;
            }
            Ordering::Greater => {
                emit(Side::Right(j));
                j += 1;
            }
            Ordering::Equal => {
                emit(Side::Both(i, j));
                i += 1;
                j += 1;
            }
        }
    }
    (i..na).for_each(|i| emit(Side::Left(i)));
    (j..nb).for_each(|j| emit(Side::Right(j)));
}
