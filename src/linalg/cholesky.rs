//! Cholesky through faer: `cholesky` (the lower factor, as numpy) and the reusable
//! [`ChoFactor`] (scipy's `cho_factor`/`cho_solve`).

use super::dense::LinalgStorage;
use super::dense::{
    build_matrix, col_major, col_major_mut, faer_par, mat_ref, owned_copy, solve_rhs, square, workspace,
};
use super::scalar::LinalgScalar;
use super::tiles::{copy_tiled, lower_from_upper};
use crate::alloc::AlignedBuf;
use crate::error::{LinalgError, ShapeError};
use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::extents::{CholeskySquare, Dim, RhsExtents};
use crate::layout::{Layout, RowMajor};
use crate::storage::{DenseStorage, Heap, ResultStorage};
use crate::tensor::Tensor;
use faer::linalg::cholesky::llt::{factor, solve};
use faer::{Conj, MatMut, MatRef};

/// The Cholesky factorization `A = L Lᴴ` of a Hermitian positive-definite matrix, kept
/// to solve for many right-hand sides (scipy's `cho_factor`, whose `cho_solve` is
/// [`ChoFactor::solve`]).
///
/// ```
/// use mdtensor::tensor;
/// let c = tensor![[4.0_f64, 2.0], [2.0, 3.0]].cho_factor();
/// let x = c.solve(&tensor![6.0, 5.0]);
/// assert!((x[[0]] - 1.0).abs() < 1e-12 && (x[[1]] - 1.0).abs() < 1e-12);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ChoFactor<T> {
    n: usize,
    /// `L`, column-major (its upper part is not read).
    l: AlignedBuf<T>,
}

impl<T: LinalgScalar> ChoFactor<T> {
    /// Factors the lower triangle of `a` (square).
    pub(crate) fn new(op: &'static str, a: MatRef<'_, T>, par: Par) -> Result<Self, LinalgError> {
        let n = a.nrows();
        let mut l = owned_copy(op, a)?;
        factor_in_place(op, col_major_mut(&mut l, n, n), par)?;
        Ok(ChoFactor { n, l })
    }

    /// The order of the matrix.
    pub fn order(&self) -> usize {
        self.n
    }

    /// Solves `A X = B` in place for the `n × k` matrix `rhs` (any strides).
    pub(crate) fn solve_mat(&self, op: &'static str, rhs: MatMut<'_, T>, par: Par) -> Result<(), ShapeError> {
        let fpar = faer_par(par, self.n);
        let mut mem = workspace(op, solve::solve_in_place_scratch::<T>(self.n, rhs.ncols(), fpar))?;
        solve::solve_in_place_with_conj(
            col_major(&self.l, self.n, self.n),
            Conj::No,
            rhs,
            fpar,
            faer::dyn_stack::MemStack::new(&mut mem),
        );
        Ok(())
    }

    forms! {
        /// The solution of `A x = b` for a vector `b` (`(N,)`) or a matrix `b` (`(N, K)`),
        /// in `b`'s extents; `Err` when `b`'s rows differ from the order.
        pub fn try_solve_with[E2, S2, St2](&self, b: &Tensor<T, E2, S2, St2>) with par
            -> Result<Tensor<T, E2>, LinalgError>
        where [E2: RhsExtents, S2: Layout<E2>, St2: DenseStorage<T>]
        {
            let op = "cho_solve";
            solve_rhs::<T, E2, S2, St2, Heap<T>>(op, self.n, b, |rhs| Ok(self.solve_mat(op, rhs, par)?))
        }
        /// See [`ChoFactor::try_solve_with`].
        pub fn try_solve;
        /// See [`ChoFactor::try_solve_with`]; panics with its message.
        pub fn solve;
        /// See [`ChoFactor::try_solve_with`]; panics with its message.
        pub fn solve_with;
    }
}

/// `L` in place of the lower triangle of `m` (any strides; the upper part is left as it
/// was), or `Err(NotPositiveDefinite)`.
fn factor_in_place<T: LinalgScalar>(op: &'static str, mut m: MatMut<'_, T>, par: Par) -> Result<(), LinalgError> {
    let n = m.nrows();
    let fpar = faer_par(par, n);
    let mut mem = workspace(op, factor::cholesky_in_place_scratch::<T>(n, fpar, Default::default()))?;
    let r = factor::cholesky_in_place(
        m.as_mut(),
        Default::default(),
        fpar,
        faer::dyn_stack::MemStack::new(&mut mem),
        Default::default(),
    );
    if let Err(factor::LltError::NonPositivePivot { index }) = r {
        return Err(LinalgError::NotPositiveDefinite { op, order: index + 1, matrix: None });
    }
    // NaN compares false with everything: a NaN pivot is not positive (LAPACK's potrf).
    if let Some(i) = (0..n).find(|&i| m[(i, i)].has_nan()) {
        return Err(LinalgError::NotPositiveDefinite { op, order: i + 1, matrix: None });
    }
    Ok(())
}

/// # Linear algebra: Cholesky (feature `linalg`)
impl<T: LinalgScalar, M: Dim, N: Dim, S: Layout<(M, N)>, St: DenseStorage<T> + LinalgStorage> Tensor<T, (M, N), S, St> {
    forms! {
        /// numpy's `linalg.cholesky` with an explicit choice of threads.
        #[inline] // a small static matrix folds to a few instructions: no call
        pub fn try_cholesky_with[](&self) with par
            -> Result<Tensor<T, (M, N), RowMajor, <St as ResultStorage<T, (M, N)>>::Out>, LinalgError>
        where [M: CholeskySquare<N>, St: ResultStorage<T, (M, N)>]
        {
            let [m, n] = self.dims();
            let n = square("cholesky", m, n)?;
            if let Some(l) = super::small::cholesky(self) {
                return l;
            }
            // faer's blocked Cholesky is fast on a column-major matrix only (on another layout
            // its diagonal blocks take a scalar path, 1.5× slower at 1024²). The result's own
            // buffer, read column-major, is that matrix: the lower triangle goes into it
            // transposed, faer factors it there, and one pass moves the factor across the
            // diagonal (no second buffer, no second copy).
            let op = "cholesky";
            build_matrix(op, *self.extents(), [n, n], |w| {
                copy_tiled(col_major_mut(w, n, n), mat_ref(self), true);
                factor_in_place(op, col_major_mut(w, n, n), par)?;
                lower_from_upper(w, n);
                Ok(())
            })
        }
        /// See [`Tensor::cholesky`].
        pub fn try_cholesky;
        /// The lower Cholesky factor `L` with `A = L Lᴴ` (numpy's `linalg.cholesky`; only
        /// the lower triangle of `A` is read). A matrix that is not positive definite is
        /// `Err(NotPositiveDefinite)` from `try_cholesky`.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let l = tensor![[4.0_f64, 2.0], [2.0, 2.0]].cholesky();
        /// assert_eq!(l.to_vec(), [2.0, 0.0, 1.0, 1.0]);
        /// assert!(tensor![[1.0_f64, 2.0], [2.0, 1.0]].try_cholesky().is_err());
        /// ```
        pub fn cholesky;
        /// [`Tensor::cholesky`] with an explicit choice of threads.
        pub fn cholesky_with;
    }

    forms! {
        /// scipy's `cho_factor` with an explicit choice of threads.
        pub fn try_cho_factor_with[](&self) with par -> Result<ChoFactor<T>, LinalgError>
        where [M: CholeskySquare<N>]
        {
            let [m, n] = self.dims();
            square("cho_factor", m, n)?;
            ChoFactor::new("cho_factor", mat_ref(self), par)
        }
        /// See [`Tensor::cho_factor`].
        pub fn try_cho_factor;
        /// The reusable Cholesky factorization (scipy's `cho_factor`); see [`ChoFactor`].
        pub fn cho_factor;
        /// [`Tensor::cho_factor`] with an explicit choice of threads.
        pub fn cho_factor_with;
    }
}
