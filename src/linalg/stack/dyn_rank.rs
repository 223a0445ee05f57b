//! numpy's batched routines on [`DynRank`] stacks `(..., M, N)`: every result a `DynRank`
//! tensor of numpy's shape; no static rule (a non-square stack is `Err` from `try_`).

use super::super::cholesky::ChoFactor;
use super::super::decomp::{QrMode, Uplo};
use super::super::dense::LinalgStorage;
use super::super::derived::{Lstsq, MatrixOrd};
use super::super::lu::LuFactor;
use super::super::scalar::LinalgScalar;
use super::driver::{operand, Stacked};
use super::factors::{factor_stack, Factors};
use super::routines;
use crate::error::{LinalgError, ShapeError};
use crate::exec::forms::forms;
use crate::extents::{DynRank, Extents, RhsExtents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

super::methods::stack_routines! {
    /// # Linear algebra on stacks `(..., M, N)` (feature `linalg`)
    impl[T: LinalgScalar, S: Layout<DynRank>, St: DenseStorage<T> + LinalgStorage] Tensor<T, DynRank, S, St>;
    same: DynRank, batch: DynRank, order: DynRank, k: DynRank, q: DynRank, r: DynRank, pinv: DynRank, perm: DynRank;
    inv: [], det: [], cholesky: [], power: [], expm: [], eig: [], lu_factor: [];
}

/// # Linear algebra on a `DynRank` matrix: least squares (feature `linalg`)
impl<T: LinalgScalar, S: Layout<DynRank>, St: DenseStorage<T> + LinalgStorage> Tensor<T, DynRank, S, St> {
    forms! {
        /// numpy's `linalg.lstsq(a, b, rcond)` of a `DynRank` matrix: as the rank-2
        /// [`Tensor::lstsq`]; numpy's takes one matrix, so a stack (or a vector) is `Err`.
        pub fn try_lstsq[E2, S2, St2](&self, b: &Tensor<T, E2, S2, St2>, rcond: Option<T::Re>)
            -> Result<Lstsq<T, E2>, LinalgError>
        where [E2: RhsExtents, S2: Layout<E2>, St2: DenseStorage<T>]
        {
            let op = "lstsq";
            let a = operand(self);
            if a.dims.len() != 2 {
                let reason = format!("lstsq takes one matrix (M, N); this operand has rank {}", a.dims.len());
                return Err(ShapeError::Incompatible { op, lhs: a.dims, rhs: b.shape(), reason }.into());
            }
            Stacked::new(op, a.ptr, &a.dims, &a.strides, &[])?.matrix(&[], 0)?.try_lstsq(b, rcond)
        }
        /// numpy's `linalg.lstsq` of a `DynRank` matrix; see [`Lstsq`].
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_vec(&[3, 2][..], vec![0.0, 1.0, 1.0, 1.0, 2.0, 1.0]);
        /// let b = Tensor::<f64, DynRank>::from_vec(&[3][..], vec![1.0, 2.0, 3.5]);
        /// let r = a.lstsq(&b, None);
        /// assert!((r.x.to_vec()[0] - 1.25).abs() < 1e-12 && r.rank == 2);
        /// ```
        pub fn lstsq;
    }
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
