//! Sparse Cholesky on CSR and CSC matrices: `cho_factor` → [`SparseCholesky`] (faer's
//! sparse `L Lᴴ` with a fill-reducing ordering, simplicial or supernodal as faer picks),
//! its symbolic analysis kept so that a matrix of the same pattern refactors without it.
//! Every buffer and workspace is allocated fallibly: running out of memory is an `Err`.

use super::dense::{faer_par_work, solve_rhs, workspace};
use super::scalar::LinalgScalar;
use super::sparse::{faer_error, pattern, pattern_copy, same_pattern};
use crate::error::LinalgError;
use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::extents::RhsExtents;
use crate::layout::Layout;
use crate::storage::sparse::{Arrays, CompressedBase, Rank2, SparseOrder};
use crate::storage::{DenseStorage, Heap};
use crate::tensor::Tensor;
use faer::dyn_stack::MemStack;
use faer::linalg::cholesky::llt::factor::LltError as PivotError;
use faer::sparse::linalg::cholesky::{factorize_symbolic_cholesky, LltRef, SymbolicCholesky, SymbolicCholeskyRaw};
use faer::sparse::SparseColMatRef;
use faer::{Conj, Side};

/// The sparse Cholesky factorization `P A Pᵀ = L Lᴴ` of a Hermitian positive-definite
/// CSR or CSC matrix (faer's, `P` a fill-reducing ordering), kept to solve for many
/// right-hand sides and to [`refactor`](SparseCholesky::refactor) a matrix of the same
/// sparsity pattern without a new symbolic analysis (what scipy's `factorized` and
/// CHOLMOD's `analyze`/`factorize` split give).
///
/// Only the lower triangle of `A` is read, as numpy's `cholesky`. A matrix that is not
/// positive definite is `Err(NotPositiveDefinite)`, its `order` counted in the ordering
/// `P` (the first pivot of `P A Pᵀ` that is not positive).
///
/// ```
/// use mdtensor::{tensor, CsrMatrix};
/// // [[4, 1, 0], [1, 3, 1], [0, 1, 2]]
/// let (r, c) = ([0usize, 0, 1, 1, 1, 2, 2], [0usize, 1, 0, 1, 2, 1, 2]);
/// let a = CsrMatrix::<f64>::from_triplets([3, 3], &r, &c, &[4.0, 1.0, 1.0, 3.0, 1.0, 1.0, 2.0]);
/// let mut f = a.cho_factor();
/// let x = f.solve(&tensor![5.0, 5.0, 3.0]);
/// assert!(x.iter().all(|&v| (v - 1.0).abs() < 1e-12));
/// // The same pattern with every value doubled: no new symbolic analysis.
/// f.refactor(&[8.0, 2.0, 2.0, 6.0, 2.0, 2.0, 4.0]).unwrap();
/// assert!(f.solve(&tensor![10.0, 10.0, 6.0]).iter().all(|&v| (v - 1.0).abs() < 1e-12));
/// ```
pub struct SparseCholesky<T: LinalgScalar> {
    n: usize,
    /// The stored arrays are `A` itself (CSC) or `Aᵀ = conj(A)` (CSR, its rows read as
    /// columns): then the factor is that of `conj(A)`, and solves conjugate it back.
    transposed: bool,
    symbolic: SymbolicCholesky<usize>,
    /// The values of `L`, in the layout of `symbolic`.
    l: Vec<T>,
    indptr: Vec<usize>,
    indices: Vec<usize>,
}

impl<T: LinalgScalar> core::fmt::Debug for SparseCholesky<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SparseCholesky")
            .field("n", &self.n)
            .field("nnz", &self.indices.len())
            .field("nnz_l", &self.l.len())
            .finish()
    }
}

impl<T: LinalgScalar> SparseCholesky<T> {
    /// The triangle of the stored arrays that holds `A`'s lower triangle.
    fn side(&self) -> Side {
        if self.transposed {
            Side::Upper
        } else {
            Side::Lower
        }
    }

    /// faer's threads for the numeric work, about `nnz(L)² / n` multiply-adds.
    fn par(&self, par: Par) -> faer::Par {
        let nnz = self.l.len();
        faer_par_work(par, nnz.saturating_mul(nnz) / self.n.max(1))
    }

    /// Factors `values` (the stored values of a matrix of this pattern) into `self.l`.
    fn numeric(&mut self, op: &'static str, values: &[T], par: Par) -> Result<(), LinalgError> {
        let fpar = self.par(par);
        let mut mem = workspace(op, self.symbolic.factorize_numeric_llt_scratch::<T>(fpar, Default::default()))?;
        let a = SparseColMatRef::new(pattern(self.n, &self.indptr, &self.indices), values);
        let side = self.side();
        match self.symbolic.factorize_numeric_llt(
            &mut self.l,
            a,
            side,
            Default::default(),
            fpar,
            MemStack::new(&mut mem),
            Default::default(),
        ) {
            Ok(_) => Ok(()),
            // A NaN pivot fails faer's `d > 0` test too, so it lands here (LAPACK's potrf).
            // faer's simplicial factorization reports the failing pivot counted from 1 (the
            // order of the minor), its supernodal one counted from 0.
            Err(PivotError::NonPositivePivot { index }) => {
                let order = match self.symbolic.raw() {
                    SymbolicCholeskyRaw::Simplicial(_) => index,
                    SymbolicCholeskyRaw::Supernodal(_) => index + 1,
                };
                Err(LinalgError::NotPositiveDefinite { op, order, matrix: None })
            }
        }
    }

    /// The order of the matrix.
    pub fn order(&self) -> usize {
        self.n
    }

    /// The number of stored entries of `L` (its fill, after the ordering).
    pub fn nnz_l(&self) -> usize {
        self.l.len()
    }

    /// Factors `values` (the stored values of a matrix with this factor's pattern, in its
    /// storage order) reusing the symbolic analysis; `Err` when the length differs or
    /// the matrix is not positive definite (the factor is then unusable until a
    /// successful refactor).
    pub fn refactor(&mut self, values: &[T]) -> Result<(), LinalgError> {
        same_pattern(values.len(), self.indices.len())?;
        self.numeric("refactor", values, Par::Auto)
    }

    forms! {
        /// The solution of `A x = b` for a vector `b` (`(N,)`) or the columns of a matrix
        /// `b` (`(N, K)`), in `b`'s extents; `Err` when `b`'s rows differ from the order.
        pub fn try_solve_with[E2, S2, St2](&self, b: &Tensor<T, E2, S2, St2>) with par
            -> Result<Tensor<T, E2>, LinalgError>
        where [E2: RhsExtents, S2: Layout<E2>, St2: DenseStorage<T>]
        {
            let op = "cho_solve";
            solve_rhs::<T, E2, S2, St2, Heap<T>>(op, self.n, b, |rhs| {
                let fpar = self.par(par);
                let mut mem = workspace(op, self.symbolic.solve_in_place_scratch::<T>(rhs.ncols(), fpar))?;
                let conj = if self.transposed { Conj::Yes } else { Conj::No };
                LltRef::new(&self.symbolic, &self.l).solve_in_place_with_conj(conj, rhs, fpar, MemStack::new(&mut mem));
                Ok(())
            })
        }
        /// See [`SparseCholesky::try_solve_with`].
        pub fn try_solve;
        /// See [`SparseCholesky::try_solve_with`]; panics with its message.
        pub fn solve;
        /// See [`SparseCholesky::try_solve_with`]; panics with its message.
        pub fn solve_with;
    }
}

/// # Sparse linear algebra: Cholesky (feature `linalg`)
impl<T: LinalgScalar, E: Rank2, S: SparseOrder + Layout<E>, A: Arrays<T, usize>>
    Tensor<T, E, S, CompressedBase<T, usize, A>>
{
    forms! {
        /// The sparse Cholesky factorization with an explicit choice of threads.
        pub fn try_cho_factor_with[](&self) with par -> Result<SparseCholesky<T>, LinalgError>
        where []
        {
            let op = "cho_factor";
            let [m, n] = self.dims();
            let n = super::dense::square(op, m, n)?;
            let (indptr, indices) = pattern_copy(op, self.indptr(), self.indices())?;
            let transposed = S::OUTER_AXIS == 0;
            let side = if transposed { Side::Upper } else { Side::Lower };
            let symbolic = factorize_symbolic_cholesky(
                pattern(n, &indptr, &indices),
                side,
                Default::default(),
                Default::default(),
            )
            .map_err(|e| faer_error(op, e))?;
            let l = crate::alloc::try_vec_filled(op, symbolic.len_val(), T::zero())?;
            let mut f = SparseCholesky { n, transposed, symbolic, l, indptr, indices };
            f.numeric(op, self.values(), par)?;
            Ok(f)
        }
        /// The sparse Cholesky factorization; see [`SparseCholesky`].
        pub fn try_cho_factor;
        /// The sparse Cholesky factorization of a Hermitian positive-definite CSR or CSC
        /// matrix (its lower triangle read), kept for many solves and refactors; see
        /// [`SparseCholesky`]. `Err(NotPositiveDefinite)` from `try_cho_factor` when it
        /// is not positive definite.
        ///
        /// ```
        /// use mdtensor::{tensor, CscMatrix};
        /// let a = CscMatrix::<f64>::from_triplets([2, 2], &[0usize, 1, 0, 1], &[0usize, 0, 1, 1], &[4.0, 2.0, 2.0, 3.0]);
        /// let x = a.cho_factor().solve(&tensor![6.0, 5.0]);
        /// assert!((x[[0]] - 1.0).abs() < 1e-12 && (x[[1]] - 1.0).abs() < 1e-12);
        /// let b = CscMatrix::<f64>::from_triplets([2, 2], &[0usize, 1, 0, 1], &[0usize, 0, 1, 1], &[1.0, 2.0, 2.0, 1.0]);
        /// assert!(b.try_cho_factor().is_err()); // eigenvalues 3 and -1
        /// ```
        pub fn cho_factor;
        /// The sparse Cholesky factorization with an explicit choice of threads.
        pub fn cho_factor_with;
    }
}
