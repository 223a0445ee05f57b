//! LU with partial pivoting through faer: `solve`, `inv`, `det`, `slogdet`, the reusable
//! [`LuFactor`] (scipy's `lu_factor`/`lu_solve`) and `lu` (scipy's `P, L, U`).

use super::dense::LinalgStorage;
use super::dense::{
    build, build_copy, col_major, col_major_mut, extents, faer_par, mat_ref, owned_copy, solve_rhs, square,
    work_buffer, workspace,
};
use super::scalar::LinalgScalar;
use crate::alloc::AlignedBuf;
use crate::error::{LinalgError, ShapeError};
use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::extents::{DetSquare, Dim, Dyn, InvSquare, LuFactorSquare, RhsExtents};
use crate::layout::{Layout, RowMajor};
use crate::storage::{DenseStorage, Heap, ResultStorage};
use crate::tensor::Tensor;
use faer::linalg::lu::partial_pivoting::{factor, inverse, solve};
use faer::{Conj, MatMut, MatRef};

/// The LU factorization `P A = L U` with partial pivoting of a square matrix, kept to
/// solve for many right-hand sides (scipy's `lu_factor`, whose `lu_solve` is
/// [`LuFactor::solve`]).
///
/// ```
/// use mdtensor::tensor;
/// let a = tensor![[4.0_f64, 3.0], [6.0, 3.0]];
/// let lu = a.lu_factor();
/// let x = lu.solve(&tensor![10.0, 12.0]);
/// assert!((x[[0]] - 1.0).abs() < 1e-12 && (x[[1]] - 2.0).abs() < 1e-12);
/// assert!((lu.det() + 6.0).abs() < 1e-12);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct LuFactor<T> {
    n: usize,
    /// `L` (unit diagonal, below it) and `U` (on and above it), column-major.
    lu: AlignedBuf<T>,
    /// Row `i` of `P A` is row `perm[i]` of `A`.
    perm: Vec<usize>,
    perm_inv: Vec<usize>,
    transpositions: usize,
}

impl<T: LinalgScalar> LuFactor<T> {
    /// Factors `a` (square), with faer's threads for `par`.
    ///
    /// `A` itself is factored, in a column-major copy, also when it lies row-major: `Aᵀ`
    /// would need no transposing copy, but it pivots otherwise than LAPACK (numpy), so that
    /// an exactly singular matrix could come out as merely ill-conditioned.
    pub(crate) fn new(op: &'static str, a: MatRef<'_, T>, par: Par) -> Result<Self, ShapeError> {
        let (m, n) = (a.nrows(), a.ncols());
        let mut lu = owned_copy(op, a)?;
        let mut perm = crate::alloc::try_vec_filled(op, m, 0usize)?;
        let mut perm_inv = crate::alloc::try_vec_filled(op, m, 0usize)?;
        let fpar = faer_par(par, m.max(n));
        let mut mem = workspace(op, factor::lu_in_place_scratch::<usize, T>(m, n, fpar, Default::default()))?;
        let (info, _) = factor::lu_in_place(
            col_major_mut(&mut lu, m, n),
            &mut perm,
            &mut perm_inv,
            fpar,
            faer::dyn_stack::MemStack::new(&mut mem),
            Default::default(),
        );
        Ok(LuFactor { n: m, lu, perm, perm_inv, transpositions: info.transposition_count })
    }

    fn mat(&self) -> MatRef<'_, T> {
        col_major(&self.lu, self.n, self.lu.len().checked_div(self.n).unwrap_or(0))
    }

    /// The first column whose pivot is exactly zero (LAPACK's `INFO > 0`).
    pub(crate) fn zero_pivot(&self) -> Option<usize> {
        let m = self.mat();
        (0..m.nrows().min(m.ncols())).find(|&i| m[(i, i)] == T::zero())
    }

    /// `Err(Singular)` naming `op` when a pivot is zero.
    pub(crate) fn nonsingular(self, op: &'static str) -> Result<Self, LinalgError> {
        match self.zero_pivot() {
            Some(column) => Err(LinalgError::Singular { op, column, matrix: None }),
            None => Ok(self),
        }
    }

    /// Solves `A X = B` in place for the `n × k` matrix `rhs` (any strides).
    pub(crate) fn solve_mat(&self, op: &'static str, rhs: MatMut<'_, T>, par: Par) -> Result<(), ShapeError> {
        let fpar = faer_par(par, self.n);
        let mut mem = workspace(op, solve::solve_in_place_scratch::<usize, T>(self.n, rhs.ncols(), fpar))?;
        // SAFETY: `perm` and `perm_inv` are the inverse permutations faer wrote.
        let p = unsafe { faer::perm::PermRef::new_unchecked(&self.perm, &self.perm_inv, self.n) };
        let lu = self.mat();
        solve::solve_in_place_with_conj(lu, lu, p, Conj::No, rhs, fpar, faer::dyn_stack::MemStack::new(&mut mem));
        Ok(())
    }

    /// `A⁻¹`, column-major, in an aligned buffer (faer's inverse from the factors: `L⁻¹`,
    /// `U⁻¹` and their product, a third fewer multiply-adds than solving for the identity).
    pub(crate) fn inverse(&self, op: &'static str, par: Par) -> Result<AlignedBuf<T>, ShapeError> {
        let n = self.n;
        let fpar = faer_par(par, n);
        let mut mem = workspace(op, inverse::inverse_scratch::<usize, T>(n, fpar))?;
        // SAFETY: `perm` and `perm_inv` are the inverse permutations faer wrote.
        let p = unsafe { faer::perm::PermRef::new_unchecked(&self.perm, &self.perm_inv, n) };
        let lu = self.mat();
        let mut w = work_buffer::<T>(op, n, n)?;
        inverse::inverse(col_major_mut(&mut w, n, n), lu, lu, p, fpar, faer::dyn_stack::MemStack::new(&mut mem));
        Ok(w)
    }

    /// The order of the matrix.
    pub fn order(&self) -> usize {
        self.n
    }

    /// The row permutation: row `i` of `P A` is row `perm()[i]` of `A`.
    pub fn perm(&self) -> &[usize] {
        &self.perm
    }

    /// The determinant: the product of `U`'s diagonal and the permutation's sign (0 for a
    /// singular matrix, NaN when the input had a NaN).
    pub fn det(&self) -> T {
        let m = self.mat();
        let d = (0..self.n).fold(T::one(), |acc, i| acc * m[(i, i)]);
        if d == T::zero() {
            return T::zero(); // numpy's sign · exp(logdet) is +0, never -0
        }
        if self.transpositions % 2 == 1 {
            -d
        } else {
            d
        }
    }

    /// The sign (a unit complex number for complex types; 0 for a singular matrix) and the
    /// natural logarithm of the absolute value of the determinant (numpy's `slogdet`).
    pub fn slogdet(&self) -> (T, T::Re) {
        let m = self.mat();
        let mut sign = if self.transpositions % 2 == 1 { -T::one() } else { T::one() };
        let mut log = <T::Re as num_traits::Zero>::zero();
        for i in 0..self.n {
            let u = m[(i, i)];
            let a = u.modulus();
            if a == <T::Re as num_traits::Zero>::zero() {
                return (T::zero(), <T::Re as num_traits::Float>::neg_infinity());
            }
            sign *= u / T::from_real(a);
            log += num_traits::Float::ln(a);
        }
        (sign, log)
    }

    forms! {
        /// The solution of `A x = b` for a vector `b` (`(N,)`) or the columns of a matrix
        /// `b` (`(N, K)`), in `b`'s extents; `Err` when `b`'s rows differ from the order.
        pub fn try_solve_with[E2, S2, St2](&self, b: &Tensor<T, E2, S2, St2>) with par
            -> Result<Tensor<T, E2>, LinalgError>
        where [E2: RhsExtents, S2: Layout<E2>, St2: DenseStorage<T>]
        {
            solve_into::<T, E2, S2, St2, Heap<T>>("lu_solve", self, b, par)
        }
        /// See [`LuFactor::try_solve_with`].
        pub fn try_solve;
        /// See [`LuFactor::try_solve_with`]; panics with its message.
        pub fn solve;
        /// See [`LuFactor::try_solve_with`]; panics with its message.
        pub fn solve_with;
    }
}

/// `x` with `A x = b` from the factor, in `b`'s extents and the storage `Out`.
pub(crate) fn solve_into<T: LinalgScalar, E2: RhsExtents, S2: Layout<E2>, St2: DenseStorage<T>, Out>(
    op: &'static str,
    lu: &LuFactor<T>,
    b: &Tensor<T, E2, S2, St2>,
    par: Par,
) -> Result<Tensor<T, E2, RowMajor, Out>, LinalgError>
where
    Out: crate::storage::OwnedStorage<T>,
{
    solve_rhs(op, lu.n, b, |rhs| Ok(lu.solve_mat(op, rhs, par)?))
}

/// # Linear algebra: LU (feature `linalg`)
impl<T: LinalgScalar, M: Dim, N: Dim, S: Layout<(M, N)>, St: DenseStorage<T> + LinalgStorage> Tensor<T, (M, N), S, St> {
    forms! {
        /// numpy's `linalg.inv` with an explicit choice of threads.
        #[inline] // a small static matrix folds to a few instructions: no call
        pub fn try_inv_with[](&self) with par
            -> Result<Tensor<T, (M, N), RowMajor, <St as ResultStorage<T, (M, N)>>::Out>, LinalgError>
        where [M: InvSquare<N>, St: ResultStorage<T, (M, N)>]
        {
            let [m, n] = self.dims();
            let n = square("inv", m, n)?;
            if let Some(x) = super::small::inv(self) {
                return x;
            }
            let lu = LuFactor::new("inv", mat_ref(self), par)?.nonsingular("inv")?;
            debug_assert_eq!(lu.order(), n);
            Ok(build_copy("inv", *self.extents(), col_major(&lu.inverse("inv", par)?, n, n))?)
        }
        /// See [`Tensor::inv`].
        pub fn try_inv;
        /// The inverse (numpy's `linalg.inv`), in the matrix's extents (`ext![N, N]` stays
        /// `ext![N, N]`, a stack matrix stays on the stack). A singular matrix is
        /// `Err(Singular)` from `try_inv`.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[4.0_f64, 7.0], [2.0, 6.0]];
        /// let i = a.inv();
        /// assert!((a.matmul(&i)[[0, 0]] - 1.0).abs() < 1e-12);
        /// ```
        pub fn inv;
        /// [`Tensor::inv`] with an explicit choice of threads.
        pub fn inv_with;
    }

    forms! {
        /// The LU factorization of a square matrix with an explicit choice of threads.
        /// A singular matrix is factored too (its [`LuFactor::det`] is 0).
        pub fn try_lu_factor_with[](&self) with par -> Result<LuFactor<T>, LinalgError>
        where [M: LuFactorSquare<N>]
        {
            let [m, n] = self.dims();
            square("lu_factor", m, n)?;
            Ok(LuFactor::new("lu_factor", mat_ref(self), par)?)
        }
        /// See [`Tensor::lu_factor`].
        pub fn try_lu_factor;
        /// The reusable LU factorization (scipy's `lu_factor`); see [`LuFactor`].
        pub fn lu_factor;
        /// [`Tensor::lu_factor`] with an explicit choice of threads.
        pub fn lu_factor_with;
    }

    forms! {
        /// The determinant (numpy's `linalg.det`): 0 for a singular matrix, NaN when an
        /// element is NaN; `Err` only for a dynamic non-square matrix or no memory.
        #[inline] // a small static matrix folds to a few instructions: no call
        pub fn try_det[](&self) -> Result<T, LinalgError>
        where [M: DetSquare<N>]
        {
            let [m, n] = self.dims();
            square("det", m, n)?;
            if let Some(d) = super::small::det(self) {
                return Ok(d);
            }
            Ok(LuFactor::new("det", mat_ref(self), Par::Auto)?.det())
        }
        /// The determinant (numpy's `linalg.det`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert!((tensor![[1.0_f64, 2.0], [3.0, 4.0]].det() + 2.0).abs() < 1e-12);
        /// assert_eq!(tensor![[1.0_f64, 2.0], [2.0, 4.0]].det(), 0.0);
        /// ```
        pub fn det;
    }

    forms! {
        /// numpy's `linalg.slogdet`: the sign and `ln |det|`; `(0, -inf)` when singular.
        pub fn try_slogdet[](&self) -> Result<(T, T::Re), LinalgError>
        where [M: DetSquare<N>]
        {
            let [m, n] = self.dims();
            square("slogdet", m, n)?;
            Ok(LuFactor::new("slogdet", mat_ref(self), Par::Auto)?.slogdet())
        }
        /// numpy's `linalg.slogdet`: the sign and `ln |det|`.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let (sign, logdet) = tensor![[1.0_f64, 2.0], [3.0, 4.0]].slogdet();
        /// assert_eq!(sign, -1.0);
        /// assert!((logdet - 2f64.ln()).abs() < 1e-12);
        /// ```
        pub fn slogdet;
    }

    forms! {
        /// scipy's `linalg.lu`: `P`, `L`, `U` with `A = P L U`, for any `m × n` matrix:
        /// `P` is `m × m`, `L` is `m × k` (unit diagonal), `U` is `k × n`, `k = min(m, n)`.
        #[allow(clippy::type_complexity)] // the three factors
        pub fn try_lu[](&self) -> Result<(Tensor<T, (Dyn, Dyn)>, Tensor<T, (Dyn, Dyn)>, Tensor<T, (Dyn, Dyn)>), LinalgError>
        where []
        {
            let [m, n] = self.dims();
            let k = m.min(n);
            let f = LuFactor::new("lu", mat_ref(self), Par::Auto)?;
            let a = col_major(&f.lu, m, n);
            let (perm, zero) = (&f.perm, T::zero());
            let p = build("lu", extents("lu", &[m, m])?, |i| if perm[i % m.max(1)] == i / m.max(1) { T::one() } else { zero })?;
            let l = build("lu", extents("lu", &[m, k])?, |i| {
                let (r, c) = (i / k.max(1), i % k.max(1));
                match r.cmp(&c) {
                    core::cmp::Ordering::Greater => a[(r, c)],
                    core::cmp::Ordering::Equal => T::one(),
                    core::cmp::Ordering::Less => zero,
                }
            })?;
            let u = build("lu", extents("lu", &[k, n])?, |i| {
                let (r, c) = (i / n.max(1), i % n.max(1));
                if c >= r { a[(r, c)] } else { zero }
            })?;
            Ok((p, l, u))
        }
        /// scipy's `linalg.lu`: `(P, L, U)` with `A = P L U`.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1.0_f64, 2.0], [3.0, 4.0], [5.0, 6.0]];
        /// let (p, l, u) = a.lu();
        /// let back = p.matmul(&l).matmul(&u);
        /// assert!(back.iter().zip(a.iter()).all(|(x, y)| (x - y).abs() < 1e-12));
        /// ```
        pub fn lu;
    }
}
