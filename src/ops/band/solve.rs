//! Solving `A x = b` for a square band matrix: LU factorization with partial pivoting in
//! the band layout, as LAPACK's `?gbtrf`/`?gbtrs` (together `?gbsv`) do it.
//!
//! Row interchanges let `U` grow `kl` diagonals beyond `A`'s upper bandwidth, so the
//! factor lives in a buffer of `ldab = 2·kl + ku + 1` rows (LAPACK's `LDAB` for `?gbsv`):
//! the top `kl` rows take the fill-in, `U` has `kl + ku` superdiagonals, and the
//! multipliers of `L` sit below the diagonal. A zero pivot is an error naming its column
//! (LAPACK's `INFO > 0`).

use crate::exec::forms::forms;
use crate::extents::{BandSolveDim, Dim, RhsExtents};
use crate::layout::{ColMajor, Layout};
use crate::storage::{Band, BandError, DenseStorage};
use crate::tensor::Tensor;
use num_traits::Float;

/// The LU factorization `P A = L U` of a square band matrix, in LAPACK's `?gbtrf` layout.
///
/// ```
/// use mdtensor::{tensor, BandMatrix};
/// // Partial pivoting: |4| > |1| in column 0, so rows 0 and 1 are swapped first.
/// let a = BandMatrix::<f64>::from_dense(&tensor![[1.0, 2.0, 0.0], [4.0, 1.0, 1.0], [0.0, 1.0, 3.0]], 1, 1);
/// let lu = a.factorize().unwrap();
/// assert_eq!(lu.pivots()[0], 1);
/// let x = lu.solve(&tensor![3.0, 6.0, 4.0]).unwrap();
/// assert!((x.to_vec()[0] - 1.0).abs() < 1e-12);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct BandLu<T> {
    n: usize,
    kl: usize,
    ku: usize,
    ab: Vec<T>,
    pivots: Vec<usize>,
}

/// # Band matrices: solving
impl<T: Float, M: Dim, N: Dim> Tensor<T, (M, N), ColMajor, Band<T>> {
    /// LU factorization with partial pivoting; `Err` when the matrix is not square or is
    /// singular (a pivot exactly zero, [`BandError::Singular`] naming its column).
    pub fn factorize(&self) -> Result<BandLu<T>, BandError> {
        let [rows, cols] = self.dims();
        if rows != cols {
            return Err(BandError::NotSquare { rows, cols });
        }
        let (n, kl, ku) = (rows, self.kl(), self.ku());
        let ld = 2 * kl + ku + 1;
        let len =
            ld.checked_mul(n).ok_or_else(|| crate::ShapeError::Overflow { op: "factorize", dims: vec![ld, n] })?;
        let mut ab = crate::alloc::try_vec_filled("factorize", len, T::zero())?;
        // Each column of A moves down by kl rows; the kl rows on top start as zero.
        for (dst, src) in ab.chunks_exact_mut(ld).zip(self.as_lapack_slice().chunks_exact(kl + ku + 1)) {
            dst[kl..].copy_from_slice(src);
        }
        let mut lu = BandLu { n, kl, ku, ab, pivots: vec![0; n] };
        lu.factor()?;
        Ok(lu)
    }
    forms! {
        /// The solution `x` of `A x = b` for a vector `b` (`(N,)`) or the columns of a
        /// matrix `b` (`(N, K)`), in `b`'s extents (as the dense and sparse `solve`); `Err`
        /// when `A` is not square, `b`'s rows are not `A`'s order, or `A` is singular.
        /// Factorizes on every call: to solve for several right-hand sides over time, keep
        /// the [`BandLu`] from [`Tensor::factorize`].
        pub fn try_solve[E2, S2, St2](&self, b: &Tensor<T, E2, S2, St2>) -> Result<Tensor<T, E2>, BandError>
        where [E2: RhsExtents, M: BandSolveDim<N> + BandSolveDim<E2::Rows>, S2: Layout<E2>, St2: DenseStorage<T>]
        {
            let lu = self.factorize()?;
            lu.solve(b)
        }
        /// See [`Tensor::try_solve`]; panics with its message.
        ///
        /// ```
        /// use mdtensor::{tensor, BandMatrix};
        /// let a = BandMatrix::<f64>::from_dense(&tensor![[2.0, 1.0], [1.0, 2.0]], 1, 1);
        /// assert_eq!(a.solve(&tensor![3.0, 3.0]).to_vec(), [1.0, 1.0]);
        /// ```
        pub fn solve;
    }
}

impl<T: Float> BandLu<T> {
    /// Order of the matrix.
    pub fn order(&self) -> usize {
        self.n
    }
    /// Lower bandwidth of the factorized matrix.
    pub fn kl(&self) -> usize {
        self.kl
    }
    /// Upper bandwidth of the factorized matrix (`U` has `kl + ku`).
    pub fn ku(&self) -> usize {
        self.ku
    }
    /// Rows of the factor buffer: `2·kl + ku + 1`.
    pub fn ldab(&self) -> usize {
        2 * self.kl + self.ku + 1
    }
    /// The factors in LAPACK's `?gbtrf` output layout (`AB`, with `LDAB = ldab()`).
    pub fn as_lapack_slice(&self) -> &[T] {
        &self.ab
    }
    /// Row interchanges, 0-based: at step `j`, row `j` was swapped with `pivots()[j]`
    /// (LAPACK's `IPIV` minus one).
    pub fn pivots(&self) -> &[usize] {
        &self.pivots
    }

    /// Element `(i, j)` of the factor buffer (`j - kl - ku <= i <= j + kl`).
    #[inline]
    fn at(&self, i: usize, j: usize) -> usize {
        (self.kl + self.ku + i - j) + j * self.ldab()
    }

    /// `?gbtf2`: column by column, pick the largest pivot among the `kl` rows below, swap
    /// it up, scale the multipliers and update the columns the swap reached.
    fn factor(&mut self) -> Result<(), BandError> {
        let (n, kl, ku) = (self.n, self.kl, self.ku);
        // Last column touched by the row swaps so far.
        let mut ju = 0;
        for j in 0..n {
            let km = kl.min(n - 1 - j);
            let diag = self.at(j, j);
            let mut jp = 0;
            for t in 1..=km {
                if self.ab[diag + t].abs() > self.ab[diag + jp].abs() {
                    jp = t;
                }
            }
            self.pivots[j] = j + jp;
            let pivot = self.ab[diag + jp];
            if pivot == T::zero() {
                return Err(BandError::Singular { column: j });
            }
            ju = ju.max((j + ku + jp).min(n - 1));
            if jp != 0 {
                for c in j..=ju {
                    let (a, b) = (self.at(j, c), self.at(j + jp, c));
                    self.ab.swap(a, b);
                }
            }
            if km == 0 {
                continue;
            }
            let pivot = self.ab[diag];
            for t in 1..=km {
                self.ab[diag + t] = self.ab[diag + t] / pivot;
            }
            for c in j + 1..=ju {
                let u = self.ab[self.at(j, c)];
                if u == T::zero() {
                    continue;
                }
                let below = self.at(j + 1, c);
                for t in 0..km {
                    self.ab[below + t] = self.ab[below + t] - self.ab[diag + 1 + t] * u;
                }
            }
        }
        Ok(())
    }

    /// Solves `A x = b` in place (`?gbtrs`): the row swaps and `L` forward, then `U`
    /// backward. `Err` when `b.len()` is not the order of the matrix.
    pub fn solve_in_place(&self, b: &mut [T]) -> Result<(), BandError> {
        let (n, kl) = (self.n, self.kl);
        if b.len() != n {
            return Err(BandError::DimensionMismatch { op: "solve", rows: n, cols: n, expected: n, found: b.len() });
        }
        for j in 0..n {
            b.swap(j, self.pivots[j]);
            let lm = kl.min(n - 1 - j);
            let (bj, diag) = (b[j], self.at(j, j));
            for (bi, &l) in b[j + 1..=j + lm].iter_mut().zip(&self.ab[diag + 1..=diag + lm]) {
                *bi = *bi - l * bj;
            }
        }
        let kv = self.kl + self.ku;
        for j in (0..n).rev() {
            b[j] = b[j] / self.ab[self.at(j, j)];
            let bj = b[j];
            // Column j of U above the diagonal: rows j - kv .. j, consecutive in the buffer.
            let lo = j.saturating_sub(kv);
            for (bi, &u) in b[lo..j].iter_mut().zip(&self.ab[self.at(lo, j)..self.at(j, j)]) {
                *bi = *bi - u * bj;
            }
        }
        Ok(())
    }
    /// The solution of `A x = b` for a vector `b` or the columns of a matrix `b`, in `b`'s
    /// extents; `Err` when `b`'s rows are not the order of the matrix or `b` is neither a
    /// vector nor a matrix (a `DynRank` `b` of another rank).
    ///
    /// ```
    /// use mdtensor::{tensor, BandMatrix};
    /// let lu = BandMatrix::<f64>::from_dense(&tensor![[2.0, 1.0], [1.0, 2.0]], 1, 1).factorize().unwrap();
    /// let x = lu.solve(&tensor![[3.0, 1.0], [3.0, -1.0]]).unwrap();
    /// assert_eq!(x.to_vec(), [1.0, 1.0, 1.0, -1.0]);
    /// ```
    pub fn solve<E2: RhsExtents, S2: Layout<E2>, St2: DenseStorage<T>>(
        &self,
        b: &Tensor<T, E2, S2, St2>,
    ) -> Result<Tensor<T, E2>, BandError> {
        let n = self.n;
        let dims = b.shape();
        let (rows, k) = match dims[..] {
            [r] => (r, 1),
            [r, k] => (r, k),
            _ => {
                return Err(BandError::Shape(crate::ShapeError::Incompatible {
                    op: "solve",
                    lhs: vec![n, n],
                    rhs: dims.clone(),
                    reason: format!(
                        "the right-hand side must be a vector or a matrix (rank 1 or 2); it has rank {}",
                        dims.len()
                    ),
                }));
            }
        };
        if rows != n {
            return Err(BandError::DimensionMismatch { op: "solve", rows: n, cols: n, expected: n, found: rows });
        }
        let mut x = b.to_vec_op("solve").map_err(BandError::Shape)?;
        if k == 1 {
            self.solve_in_place(&mut x)?;
        } else {
            // Column by column through one scratch column (`x` is row-major).
            let mut col = crate::alloc::try_vec_filled("solve", n, T::zero())?;
            for c in 0..k {
                col.iter_mut().enumerate().for_each(|(i, v)| *v = x[i * k + c]);
                self.solve_in_place(&mut col)?;
                col.iter().enumerate().for_each(|(i, &v)| x[i * k + c] = v);
            }
        }
        Tensor::try_from_vec(b.extents().clone(), x).map_err(|(e, _)| BandError::Shape(e))
    }
}
