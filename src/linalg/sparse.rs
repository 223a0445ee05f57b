//! Sparse solvers on CSR and CSC matrices: `splu` → [`SparseLu`] (faer's sparse LU, its
//! symbolic analysis kept so that a matrix of the same pattern refactors without it, as
//! scipy's `splu`/`factorized`), `spsolve`, and the conjugate-gradient iteration `cg` for
//! Hermitian positive-definite systems.

use super::dense::{solve_rhs, workspace};
use super::scalar::LinalgScalar;
use crate::error::{LinalgError, ShapeError};
use crate::exec::forms::forms;
use crate::extents::{Dim, Dyn, RhsExtents};
use crate::layout::Layout;
use crate::storage::sparse::{Arrays, CompressedBase, Rank2, SparseOrder};
use crate::storage::{DenseStorage, Heap};
use crate::tensor::Tensor;
use faer::dyn_stack::MemStack;
use faer::sparse::linalg::lu::{factorize_symbolic_lu, LuRef, NumericLu, SymbolicLu};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};
use num_traits::{Float, Zero};

/// A sparse LU factorization `P A Q = L U` (faer's), kept to solve for many right-hand
/// sides and to refactor a matrix of the same sparsity pattern without a new symbolic
/// analysis (scipy's `splu` and `factorized`).
///
/// ```
/// use mdtensor::{tensor, CsrMatrix};
/// // [[4, 1, 0], [1, 3, 0], [0, 0, 2]]
/// let a = CsrMatrix::<f64>::from_triplets([3, 3], &[0usize, 0, 1, 1, 2], &[0usize, 1, 0, 1, 2], &[4.0, 1.0, 1.0, 3.0, 2.0]);
/// let lu = a.splu();
/// let x = lu.solve(&tensor![5.0, 4.0, 2.0]);
/// assert!(x.iter().all(|&v| (v - 1.0).abs() < 1e-12));
/// ```
pub struct SparseLu<T: LinalgScalar> {
    n: usize,
    /// The stored arrays are `A` itself (CSC) or `Aᵀ` (CSR, its rows read as columns).
    transposed: bool,
    symbolic: SymbolicLu<usize>,
    /// The numeric factor of the symbolic analysis (faer's lower-level API, whose
    /// workspaces this crate allocates fallibly).
    lu: NumericLu<usize, T>,
    indptr: Vec<usize>,
    indices: Vec<usize>,
}

impl<T: LinalgScalar> core::fmt::Debug for SparseLu<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SparseLu").field("n", &self.n).field("nnz", &self.indices.len()).finish()
    }
}

pub(super) fn faer_error(op: &'static str, e: faer::sparse::FaerError) -> LinalgError {
    match e {
        faer::sparse::FaerError::OutOfMemory => ShapeError::OutOfMemory { op, bytes: 0 }.into(),
        _ => ShapeError::InvalidArgument { op, reason: format!("{e:?}") }.into(),
    }
}

fn lu_error(op: &'static str, e: faer::sparse::linalg::LuError) -> LinalgError {
    match e {
        faer::sparse::linalg::LuError::SymbolicSingular { index } => {
            LinalgError::Singular { op, column: index, matrix: None }
        }
        faer::sparse::linalg::LuError::Generic(e) => faer_error(op, e),
    }
}

impl<T: LinalgScalar> SparseLu<T> {
    /// Refactors for `values`, the stored values of a matrix with the same pattern.
    fn numeric(&mut self, op: &'static str, values: &[T]) -> Result<(), LinalgError> {
        let par = faer::Par::Seq;
        let mut mem = workspace(op, self.symbolic.factorize_numeric_lu_scratch::<T>(par, Default::default()))?;
        let m = SparseColMatRef::new(pattern(self.n, &self.indptr, &self.indices), values);
        self.symbolic
            .factorize_numeric_lu(&mut self.lu, m, par, MemStack::new(&mut mem), Default::default())
            .map_err(|e| lu_error(op, e))?;
        Ok(())
    }

    /// The order of the matrix.
    pub fn order(&self) -> usize {
        self.n
    }

    /// Factors `values` (the stored values of a matrix with this factor's pattern, in its
    /// storage order) reusing the symbolic analysis; `Err` when the length differs.
    pub fn refactor(&mut self, values: &[T]) -> Result<(), LinalgError> {
        same_pattern(values.len(), self.indices.len())?;
        self.numeric("refactor", values)
    }

    forms! {
        /// The solution of `A x = b` for a vector `b` (`(N,)`) or the columns of a matrix
        /// `b` (`(N, K)`), in `b`'s extents; `Err` when `b`'s rows differ from the order.
        /// A numerically singular matrix gives infinite or NaN entries, as scipy's
        /// `spsolve` (a structurally singular one was already `Err` from `splu`).
        pub fn try_solve[E2, S2, St2](&self, b: &Tensor<T, E2, S2, St2>) -> Result<Tensor<T, E2>, LinalgError>
        where [E2: RhsExtents, S2: Layout<E2>, St2: DenseStorage<T>]
        {
            let op = "splu solve";
            solve_rhs::<T, E2, S2, St2, Heap<T>>(op, self.n, b, |rhs| {
                let par = faer::Par::Seq;
                let mut mem = workspace(op, self.symbolic.solve_in_place_scratch::<T>(rhs.ncols(), par))?;
                let stack = MemStack::new(&mut mem);
                let lu = LuRef::new_unchecked(&self.symbolic, &self.lu);
                if self.transposed {
                    lu.solve_transpose_in_place_with_conj(faer::Conj::No, rhs, par, stack);
                } else {
                    lu.solve_in_place_with_conj(faer::Conj::No, rhs, par, stack);
                }
                Ok(())
            })
        }
        /// See [`SparseLu::try_solve`]; panics with its message.
        pub fn solve;
    }
}

/// `Err` unless `values` (the length of a refactor's values) is the pattern's `nnz`.
pub(super) fn same_pattern(values: usize, nnz: usize) -> Result<(), ShapeError> {
    if values == nnz {
        Ok(())
    } else {
        Err(ShapeError::InvalidArgument {
            op: "refactor",
            reason: format!("{values} values given for a pattern of {nnz} entries"),
        })
    }
}

/// A kept pattern as faer's column-major pattern.
pub(super) fn pattern<'a>(n: usize, indptr: &'a [usize], indices: &'a [usize]) -> SymbolicSparseColMatRef<'a, usize> {
    // SAFETY: `indptr`/`indices` were copied from a validated compressed matrix
    // (pointers non-decreasing and ending at nnz; indices in range, sorted and unique
    // in each lane), which is faer's invariant for a column-major pattern.
    unsafe { SymbolicSparseColMatRef::new_unchecked(n, n, indptr, None, indices) }
}

/// Fallible copies of a compressed matrix's pointers and indices (a factor keeps them).
#[allow(clippy::type_complexity)] // the two arrays
pub(super) fn pattern_copy(
    op: &'static str,
    indptr: &[usize],
    indices: &[usize],
) -> Result<(Vec<usize>, Vec<usize>), ShapeError> {
    let mut p = crate::alloc::try_vec_with_capacity(op, indptr.len())?;
    p.extend_from_slice(indptr);
    let mut i = crate::alloc::try_vec_with_capacity(op, indices.len())?;
    i.extend_from_slice(indices);
    Ok((p, i))
}

/// `y = A x` from the compressed arrays (`rows_are_lanes`: CSR).
fn spmv<T: LinalgScalar>(
    indptr: &[usize],
    indices: &[usize],
    values: &[T],
    rows_are_lanes: bool,
    x: &[T],
    y: &mut [T],
) {
    y.iter_mut().for_each(|v| *v = T::zero());
    for lane in 0..indptr.len().saturating_sub(1) {
        for p in indptr[lane]..indptr[lane + 1] {
            let (i, j) = if rows_are_lanes { (lane, indices[p]) } else { (indices[p], lane) };
            y[i] += values[p] * x[j];
        }
    }
}

fn dot<T: LinalgScalar>(a: &[T], b: &[T]) -> T {
    a.iter().zip(b).fold(T::zero(), |s, (&x, &y)| s + x.conjugate() * y)
}

/// # Sparse linear algebra (feature `linalg`)
impl<T: LinalgScalar, E: Rank2, S: SparseOrder + Layout<E>, A: Arrays<T, usize>>
    Tensor<T, E, S, CompressedBase<T, usize, A>>
{
    fn square_order(&self, op: &'static str) -> Result<usize, LinalgError> {
        let [m, n] = self.dims();
        super::dense::square(op, m, n)
    }

    forms! {
        /// scipy's `splu`: the sparse LU factorization of a square CSR or CSC matrix, its
        /// symbolic analysis kept for [`SparseLu::refactor`]; `Err(Singular)` when the
        /// pattern is structurally singular.
        pub fn try_splu[](&self) -> Result<SparseLu<T>, LinalgError>
        where []
        {
            let op = "splu";
            let n = self.square_order(op)?;
            let (indptr, indices) = pattern_copy(op, self.indptr(), self.indices())?;
            let symbolic = factorize_symbolic_lu(pattern(n, &indptr, &indices), Default::default()).map_err(|e| faer_error(op, e))?;
            let mut lu = SparseLu { n, transposed: S::OUTER_AXIS == 0, symbolic, lu: NumericLu::new(), indptr, indices };
            lu.numeric(op, self.values())?;
            Ok(lu)
        }
        /// scipy's `splu`; see [`SparseLu`].
        pub fn splu;
    }

    forms! {
        /// scipy's `spsolve(A, b)` for a vector or a matrix `b` (one [`Tensor::splu`] and
        /// one solve), in `b`'s extents.
        pub fn try_spsolve[E2, S2, St2](&self, b: &Tensor<T, E2, S2, St2>) -> Result<Tensor<T, E2>, LinalgError>
        where [E2: RhsExtents, S2: Layout<E2>, St2: DenseStorage<T>]
        {
            self.try_splu()?.try_solve(b)
        }
        /// scipy's `spsolve`.
        ///
        /// ```
        /// use mdtensor::{tensor, CscMatrix};
        /// let a = CscMatrix::<f64>::from_triplets([2, 2], &[0usize, 1, 1], &[0usize, 0, 1], &[2.0, 1.0, 4.0]); // [[2, 0], [1, 4]]
        /// assert_eq!(a.spsolve(&tensor![2.0, 9.0]).to_vec(), [1.0, 2.0]);
        /// ```
        pub fn spsolve;
    }

    forms! {
        /// scipy's `sparse.linalg.factorized(A)`: the factor whose `solve` is the function
        /// scipy returns (a sparse LU, as [`Tensor::splu`]), to solve for many
        /// right-hand sides. For a Hermitian positive-definite matrix `cho_factor` is the
        /// Cholesky one ([`SparseCholesky`](super::SparseCholesky)).
        pub fn try_factorized[](&self) -> Result<SparseLu<T>, LinalgError>
        where []
        {
            self.try_splu()
        }
        /// scipy's `factorized`.
        ///
        /// ```
        /// use mdtensor::{tensor, CscMatrix};
        /// let a = CscMatrix::<f64>::from_triplets([2, 2], &[0usize, 1, 1], &[0usize, 0, 1], &[2.0, 1.0, 4.0]);
        /// let solve = a.factorized();
        /// assert_eq!(solve.solve(&tensor![2.0, 9.0]).to_vec(), [1.0, 2.0]);
        /// assert_eq!(solve.solve(&tensor![4.0, 6.0]).to_vec(), [2.0, 1.0]);
        /// ```
        pub fn factorized;
    }

    forms! {
        /// scipy's `sparse.linalg.cg(A, b, rtol, maxiter)` for a Hermitian positive-definite
        /// `A`, from `x = 0`: stops when `‖b − A x‖ ≤ rtol · ‖b‖` (scipy's defaults
        /// `rtol = 1e-5`, `maxiter = 10 n`); `Err(NoConvergence)` after `maxiter` steps.
        pub fn try_cg[D: Dim, S2: Layout<(D,)>, St2: DenseStorage<T>](
            &self,
            b: &Tensor<T, (D,), S2, St2>,
            rtol: Option<T::Re>,
            maxiter: Option<usize>,
        ) -> Result<Tensor<T, (Dyn,)>, LinalgError>
        where []
        {
            let op = "cg";
            let n = self.square_order(op)?;
            let [len] = b.dims();
            if len != n {
                return Err(ShapeError::Incompatible {
                    op,
                    lhs: vec![n, n],
                    rhs: vec![len],
                    reason: format!("the right-hand side has {len} entries; the matrix's order is {n}"),
                }
                .into());
            }
            let rtol = rtol.unwrap_or_else(|| <T::Re as num_traits::NumCast>::from(1e-5).unwrap_or_else(T::Re::epsilon));
            let maxiter = maxiter.unwrap_or(n.saturating_mul(10));
            let (ip, ix, vals) = (self.indptr(), self.indices(), self.values());
            let rows_are_lanes = S::OUTER_AXIS == 0;
            let mut x = super::dense::buffer::<T>(op, n, 1)?;
            let mut r = super::dense::buffer::<T>(op, n, 1)?;
            r.iter_mut().zip(b.iter()).for_each(|(r, &v)| *r = v);
            let mut p = r.clone();
            let mut ap = super::dense::buffer::<T>(op, n, 1)?;
            let bnorm = dot(&r, &r).real_part().sqrt();
            let goal = rtol * bnorm;
            let mut rr = dot(&r, &r).real_part();
            for it in 0..=maxiter {
                if rr.sqrt() <= goal || rr.is_zero() {
                    return Tensor::try_from_vec([n], x).map_err(|(e, _)| LinalgError::Shape(e));
                }
                if it == maxiter || rr.is_nan() {
                    break;
                }
                spmv(ip, ix, vals, rows_are_lanes, &p, &mut ap);
                let alpha = T::from_real(rr) / dot(&p, &ap);
                x.iter_mut().zip(&p).for_each(|(x, &p)| *x += alpha * p);
                r.iter_mut().zip(&ap).for_each(|(r, &a)| *r -= alpha * a);
                let next = dot(&r, &r).real_part();
                let beta = T::from_real(next / rr);
                p.iter_mut().zip(&r).for_each(|(p, &r)| *p = r + beta * *p);
                rr = next;
            }
            Err(LinalgError::NoConvergence { op, iterations: maxiter, matrix: None })
        }
        /// scipy's `sparse.linalg.cg`.
        ///
        /// ```
        /// use mdtensor::{tensor, CsrMatrix};
        /// let a = CsrMatrix::<f64>::from_triplets([2, 2], &[0usize, 0, 1, 1], &[0usize, 1, 0, 1], &[4.0, 1.0, 1.0, 3.0]);
        /// let x = a.cg(&tensor![1.0, 2.0], Some(1e-12), None);
        /// assert!((x[[0]] - 1.0 / 11.0).abs() < 1e-10 && (x[[1]] - 7.0 / 11.0).abs() < 1e-10);
        /// ```
        pub fn cg;
    }
}
