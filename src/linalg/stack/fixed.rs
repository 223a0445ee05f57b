//! numpy's batched routines on stacks of fixed rank, `(A, M, N)` and `(A, B, M, N)` of
//! any [`Dim`]s: the static square rules of the rank-2 routines (so `inv` of
//! `ext![2, 3, 4]` does not compile), and result extents that keep what is static
//! (`inv` of `(A, M, M)` is `(A, M, M)`, `det` is `(A,)`); a length the type does not know
//! (`K = min(M, N)`, a broadcast batch axis) is `Dyn`.

use super::super::batched;
use super::super::cholesky::ChoFactor;
use super::super::decomp::{QrMode, Uplo};
use super::super::dense::LinalgStorage;
use super::super::derived::MatrixOrd;
use super::super::lu::LuFactor;
use super::super::scalar::LinalgScalar;
use super::driver::operand;
use super::factors::{factor_stack, Factors};
use super::routines;
use crate::error::LinalgError;
use crate::exec::forms::forms;
use crate::extents::{
    CholeskySquare, DetSquare, Dim, Dyn, EigSquare, ExpmSquare, InvSquare, LuFactorSquare, PowerSquare, SolveRhs,
    SolveSquare, StackRhs, TriangularSquare,
};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// The routines on one fixed rank: batch axes `$b`.
macro_rules! fixed_rank_stacks {
    ($rank:literal; $($b:ident),+) => {
        super::methods::stack_routines! {
            #[doc = concat!("# Linear algebra on stacks of rank ", $rank, " (feature `linalg`)")]
            impl[T: LinalgScalar, $($b: Dim,)+ M: Dim, N: Dim, S: Layout<($($b,)+ M, N)>, St: DenseStorage<T> + LinalgStorage]
                Tensor<T, ($($b,)+ M, N), S, St>;
            same: ($($b,)+ M, N), batch: ($($b,)+), order: ($($b,)+ M), k: ($($b,)+ Dyn), q: ($($b,)+ M, Dyn),
                r: ($($b,)+ Dyn, N), pinv: ($($b,)+ N, M), perm: ($($b,)+ M, M);
            inv: [M: InvSquare<N>], det: [M: DetSquare<N>], cholesky: [M: CholeskySquare<N>], power: [M: PowerSquare<N>],
                expm: [M: ExpmSquare<N>], eig: [M: EigSquare<N>], lu_factor: [M: LuFactorSquare<N>];
        }

        #[doc = concat!("# Linear algebra on stacks of rank ", $rank, ": solving (feature `linalg`)")]
        impl<T: LinalgScalar, $($b: Dim,)+ M: Dim, N: Dim, S: Layout<($($b,)+ M, N)>, St: DenseStorage<T> + LinalgStorage>
            Tensor<T, ($($b,)+ M, N), S, St>
        {
            forms! {
                /// numpy's `linalg.solve` on a fixed-rank stack with an explicit choice of
                /// threads: `b` a vector `(M,)` (one per matrix: the result is `(..., M)`), a
                /// matrix `(M, K)` shared by every matrix, or a stack `(..., M, K)` whose batch
                /// axes broadcast with the matrix's; see [`StackRhs`] for the result's extents
                /// (a batch axis both operands have is `Dyn`, checked at run time).
                pub fn try_solve_with[E2, S2, St2](&self, b: &Tensor<T, E2, S2, St2>) with par
                    -> Result<Tensor<T, <E2 as StackRhs<($($b,)+), M>>::Output>, LinalgError>
                where [M: SolveSquare<N> + SolveRhs<<E2 as StackRhs<($($b,)+), M>>::Rows>, E2: StackRhs<($($b,)+), M>, S2: Layout<E2>, St2: DenseStorage<T>]
                {
                    batched::solve(&operand(self), &operand(b), par)?.into_tensor("solve")
                }
                /// See [`Tensor::try_solve_with`].
                pub fn try_solve;
                /// numpy's `linalg.solve` on a fixed-rank stack; a non-square static matrix
                /// or a right-hand side of the wrong static length does not compile.
                ///
                /// ```
                /// use mdtensor::{ext, Tensor};
                /// let a = Tensor::<f64, ext![2, 2, 2]>::from_vec(ext![2, 2, 2], vec![2.0, 0.0, 0.0, 2.0, 1.0, 0.0, 0.0, 4.0]);
                /// let b = Tensor::<f64, ext![1, 2, 1]>::from_vec(ext![1, 2, 1], vec![2.0, 4.0]);
                /// let x = a.solve(&b);
                /// assert_eq!((x.shape(), x.to_vec()), (vec![2, 2, 1], vec![1.0, 2.0, 2.0, 1.0]));
                /// // A vector is one right-hand side per matrix (numpy 2): the result is `(2, 2)`.
                /// let v: Tensor<f64, ext![2, 2]> = a.solve(&Tensor::<f64, ext![2]>::from_vec(ext![2], vec![2.0, 4.0]));
                /// assert_eq!(v.to_vec(), [1.0, 2.0, 2.0, 1.0]);
                /// ```
                pub fn solve;
                /// [`Tensor::solve`] on a fixed-rank stack with an explicit choice of threads.
                pub fn solve_with;
            }

            forms! {
                /// scipy's `solve_triangular` on a fixed-rank stack with an explicit choice of
                /// threads, `b` paired and broadcast as [`Tensor::solve`]'s.
                pub fn try_solve_triangular_with[E2, S2, St2](&self, b: &Tensor<T, E2, S2, St2>, lower: bool, unit_diagonal: bool) with par
                    -> Result<Tensor<T, <E2 as StackRhs<($($b,)+), M>>::Output>, LinalgError>
                where [M: TriangularSquare<N> + SolveRhs<<E2 as StackRhs<($($b,)+), M>>::Rows>, E2: StackRhs<($($b,)+), M>, S2: Layout<E2>, St2: DenseStorage<T>]
                {
                    routines::solve_triangular(&operand(self), &operand(b), lower, unit_diagonal, par)?.into_tensor("solve_triangular")
                }
                /// See [`Tensor::try_solve_triangular_with`].
                pub fn try_solve_triangular;
                /// scipy's `solve_triangular` on a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, Tensor};
                /// let l = Tensor::<f64, ext![1, 2, 2]>::from_vec(ext![1, 2, 2], vec![2.0, 0.0, 1.0, 1.0]);
                /// let b = Tensor::<f64, ext![1, 2, 1]>::from_vec(ext![1, 2, 1], vec![4.0, 3.0]);
                /// assert_eq!(l.solve_triangular(&b, true, false).to_vec(), [2.0, 1.0]);
                /// ```
                pub fn solve_triangular;
                /// [`Tensor::solve_triangular`] with an explicit choice of threads.
                pub fn solve_triangular_with;
            }
        }
    };
}

fixed_rank_stacks!(3; A);
fixed_rank_stacks!(4; A, B);
