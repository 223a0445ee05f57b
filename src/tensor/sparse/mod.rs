//! Sparse storage: tensors that store only some entries and read the rest as zero.
//!
//! | storage | rank | stride policy picks | alias |
//! |---|---|---|---|
//! | [`Coo`] | any | the sort order of the coordinates: `RowMajor` lexicographic, `ColMajor` by reversed index | [`CooTensor`] |
//! | [`Compressed`] (owned), [`CompressedView`] (borrowed) | 2 | the compressed axis: `RowMajor` is CSR, `ColMajor` is CSC | [`CsrMatrix`], [`CscMatrix`] |
//!
//! The stride policy means for sparse storage what it means for dense storage: the order in
//! which the index space is linearised. So the transpose of a CSR matrix is a CSC matrix
//! over the same three arrays ([`Tensor::sparse_t`] borrows them, [`Tensor::reversed_axes`]
//! takes them): no entry moves, only the policy and the extents in the type change.
//!
//! # The sparse invariants
//! Every constructor except the `unsafe` `new_unchecked` ones establishes them, and the
//! kernels rely on them:
//! * **Compressed**: `indptr` has `lanes + 1` entries (a lane is a row for CSR, a column for
//!   CSC), starts at 0, never decreases and ends at `nnz == indices.len() == values.len()`;
//!   inside each lane the indices are strictly increasing and below the other extent; both
//!   extents and `nnz` fit in the index type `I`.
//! * **COO**: one coordinate per axis for every value, each below its extent, entries
//!   strictly increasing in the policy's order (sorted, no duplicates); `nnz` fits in `I`.
//!
//! Explicit zeros given to a constructor are kept (they count in `nnz`); operations that
//! compute new sparse tensors (conversions, `sparse_add`, `sparse_mul`, `sparse_map`,
//! `scale`) store only non-zero results.

//!
//! Sparse tensors are `Tensor`s whose storage policy is sparse: every shape rule and
//! generic method of [`Tensor`] serves them; this module adds their constructors,
//! accessors and conversions.

mod compressed;
mod compressed_build;
mod convert;
mod coo;
mod lane;

pub use crate::storage::sparse::*;

use crate::extents::Dyn;
use crate::layout::{ColMajor, RowMajor};
use crate::tensor::Tensor;

/// A CSR matrix: compressed rows (`RowMajor` policy).
///
/// ```
/// use mdtensor::{ext, sparse::CsrMatrix};
/// // [[1, 0, 2],
/// //  [0, 0, 3]]
/// let a = CsrMatrix::<f64, ext![2, 3]>::new(ext![2, 3], vec![0, 2, 3], vec![0, 2, 2], vec![1.0, 2.0, 3.0]);
/// assert_eq!(a.value([0, 2]), Some(2.0));
/// assert_eq!(a.value([1, 0]), Some(0.0)); // not stored: zero
/// assert_eq!(a.nnz(), 3);
/// ```
pub type CsrMatrix<T, E = (Dyn, Dyn), I = usize> = Tensor<T, E, RowMajor, Compressed<T, I>>;

/// A CSC matrix: compressed columns (`ColMajor` policy).
pub type CscMatrix<T, E = (Dyn, Dyn), I = usize> = Tensor<T, E, ColMajor, Compressed<T, I>>;

/// A COO tensor of any rank, sorted lexicographically by index (`RowMajor`); with
/// `ColMajor` as the stride policy it is sorted by reversed index.
pub type CooTensor<T, E, I = usize> = Tensor<T, E, RowMajor, Coo<T, I>>;
