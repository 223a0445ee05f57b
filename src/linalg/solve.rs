//! numpy's `linalg.solve` of one matrix: a right-hand side vector, a matrix of them, or a
//! [`DynRank`](crate::DynRank) stack of them (each solved with the one factorization).

use super::batched::solve as solve_stack;
use super::dense::LinalgStorage;
use super::dense::{build, extents, mat_ref, square};
use super::lu::{solve_into, LuFactor};
use super::scalar::LinalgScalar;
use super::stack::driver::operand;
use crate::error::LinalgError;
use crate::exec::forms::forms;
use crate::extents::{Dim, RhsExtents, SolveRhs, SolveSquare};
use crate::layout::{Layout, RowMajor};
use crate::storage::{DenseStorage, ResultStorage};
use crate::tensor::Tensor;

/// # Linear algebra: solving (feature `linalg`)
impl<T: LinalgScalar, M: Dim, N: Dim, S: Layout<(M, N)>, St: DenseStorage<T> + LinalgStorage> Tensor<T, (M, N), S, St> {
    forms! {
        /// numpy's `linalg.solve(a, b)` with an explicit choice of threads.
        #[inline] // a small static matrix folds to a few instructions: no call
        pub fn try_solve_with[E2, S2, St2](&self, b: &Tensor<T, E2, S2, St2>) with par
            -> Result<Tensor<T, E2, RowMajor, <St2 as ResultStorage<T, E2>>::Out>, LinalgError>
        where [
            M: SolveSquare<N> + SolveRhs<<E2 as RhsExtents>::Rows>,
            E2: RhsExtents,
            S2: Layout<E2>,
            St2: DenseStorage<T> + ResultStorage<T, E2>,
        ]
        {
            let [m, n] = self.dims();
            square("solve", m, n)?;
            if b.rank() > 2 || b.rank() == 0 {
                // numpy pairs the matrix with every matrix of a stack `(..., N, K)` (and
                // the stack path's error names a scalar right-hand side).
                let x = solve_stack(&operand(self), &operand(b), par)?;
                return Ok(build("solve", extents("solve", &x.dims)?, |i| x.data[i])?);
            }
            if let Some(x) = super::small::solve(self, b) {
                return x;
            }
            let lu = LuFactor::new("solve", mat_ref(self), par)?.nonsingular("solve")?;
            solve_into("solve", &lu, b, par)
        }
        /// See [`Tensor::solve`].
        pub fn try_solve;
        /// The solution `x` of `A x = b` (numpy's `linalg.solve`): `b` a vector `(N,)`, a
        /// matrix `(N, K)` of right-hand sides, or (a [`DynRank`](crate::DynRank) `b`) a
        /// stack `(..., N, K)` of them, `x` in `b`'s extents. A static non-square
        /// `A` or a `b` of the wrong static length does not compile; dynamic ones, and a
        /// singular `A` ([`LinalgError::Singular`]), are `Err` from `try_solve`.
        ///
        /// ```
        /// use mdtensor::{ext, tensor, Tensor};
        /// let a = Tensor::<f64, ext![_, _]>::from_vec([2, 2], vec![3.0, 1.0, 1.0, 2.0]);
        /// let x = a.solve(&tensor![9.0, 8.0]);
        /// assert!((x[[0]] - 2.0).abs() < 1e-12 && (x[[1]] - 3.0).abs() < 1e-12);
        /// assert!(tensor![[1.0_f64, 2.0], [2.0, 4.0]].try_solve(&tensor![1.0, 1.0]).is_err()); // singular
        /// ```
        pub fn solve;
        /// [`Tensor::solve`] with an explicit choice of threads.
        pub fn solve_with;
    }
}
