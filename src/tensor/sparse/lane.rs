//! What a sparse lane does with dense tensors.

use crate::extents::Dim;
use crate::layout::Layout;
use crate::storage::sparse::{SparseElem, SparseIndex, SparseLane};
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

impl<T, I: SparseIndex> SparseLane<'_, T, I> {
    /// Dot product with a dense vector of the same length; `None` when lengths differ.
    ///
    /// ```
    /// use mdtensor::{ext, tensor, sparse::CsrMatrix};
    /// let a = CsrMatrix::<i64, ext![2, 3]>::new(ext![2, 3], vec![0, 2, 3], vec![0, 2, 1], vec![1, 2, 3]);
    /// assert_eq!(a.row(0).dot(&tensor![10, 20, 30]), Some(1 * 10 + 2 * 30));
    /// ```
    pub fn dot<D: Dim, S: Layout<(D,)>, St: DenseStorage<T>>(&self, x: &Tensor<T, (D,), S, St>) -> Option<T>
    where
        T: SparseElem,
    {
        if x.numel() != self.len {
            return None;
        }
        Some(match x.as_slice() {
            Some(xs) => self.iter().fold(T::zero(), |s, (j, &v)| s + v * xs[j]),
            None => self.iter().fold(T::zero(), |s, (j, &v)| s + v * x[[j]]),
        })
    }
}
