//! numpy's batched routines on [`DynRank`] stacks `(..., M, N)`: every result a `DynRank`
//! tensor of numpy's shape; no static rule (a non-square stack is `Err` from `try_`).

use super::super::decomp::{QrMode, Uplo};
use super::super::dense::LinalgStorage;
use super::super::derived::MatrixOrd;
use super::super::scalar::LinalgScalar;
use super::driver::operand;
use super::routines;
use crate::error::LinalgError;
use crate::exec::forms::forms;
use crate::extents::{DynRank, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

super::methods::stack_routines! {
    /// # Linear algebra on stacks `(..., M, N)` (feature `linalg`)
    impl[T: LinalgScalar, S: Layout<DynRank>, St: DenseStorage<T> + LinalgStorage] Tensor<T, DynRank, S, St>;
    same: DynRank, batch: DynRank, order: DynRank, k: DynRank, q: DynRank, r: DynRank, pinv: DynRank, perm: DynRank;
    inv: [], det: [], cholesky: [], power: [], expm: [], eig: [];
}

/// # Linear algebra on stacks `(..., M, N)`: triangular systems (feature `linalg`)
impl<T: LinalgScalar, S: Layout<DynRank>, St: DenseStorage<T> + LinalgStorage> Tensor<T, DynRank, S, St> {
    forms! {
        /// scipy's `linalg.solve_triangular(a, b, lower, unit_diagonal)` on stacks, with an
        /// explicit choice of threads: `a` `(..., M, M)`, `b` `(..., M, K)` or `(M,)`, the
        /// leading axes broadcast as [`Tensor::solve`]'s.
        pub fn try_solve_triangular_with[E2, S2, St2](&self, b: &Tensor<T, E2, S2, St2>, lower: bool, unit_diagonal: bool) with par
            -> Result<Tensor<T, DynRank>, LinalgError>
        where [E2: Extents, S2: Layout<E2>, St2: DenseStorage<T>]
        {
            routines::solve_triangular(&operand(self), &operand(b), lower, unit_diagonal, par)?.into_tensor("solve_triangular")
        }
        /// See [`Tensor::try_solve_triangular_with`].
        pub fn try_solve_triangular;
        /// scipy's `linalg.solve_triangular` on stacks.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let l = Tensor::<f64, DynRank>::from_vec(&[2, 2, 2][..], vec![2.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 4.0]);
        /// let b = Tensor::<f64, DynRank>::from_vec(&[2][..], vec![4.0, 3.0]);
        /// assert_eq!(l.solve_triangular(&b, true, false).to_vec(), [2.0, 1.0, 4.0, 0.75]);
        /// ```
        pub fn solve_triangular;
        /// [`Tensor::solve_triangular`] on stacks with an explicit choice of threads.
        pub fn solve_triangular_with;
    }
}
