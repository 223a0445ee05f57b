//! `solve` of a CSR or CSC matrix: the sparse Cholesky when the matrix can be positive
//! definite (Hermitian, its diagonal real and positive), the sparse LU otherwise or when
//! the Cholesky meets a pivot that is not positive. MATLAB's backslash picks the same
//! way: a Cholesky factor is about half an LU's work and fill, and the test costs one pass
//! over the stored entries.

use super::scalar::LinalgScalar;
use crate::error::LinalgError;
use crate::exec::forms::forms;
use crate::extents::RhsExtents;
use crate::layout::Layout;
use crate::storage::sparse::{Arrays, CompressedBase, Rank2, SparseOrder};
use crate::storage::DenseStorage;
use crate::tensor::Tensor;
use core::cmp::Ordering;

/// Whether the square compressed matrix (`indptr`, `indices`, `values`; lanes sorted and
/// without repeats) is Hermitian with a real positive diagonal: the matrices a Cholesky
/// can factor. `None` when its scratch cannot be allocated.
///
/// Lane `i`'s entry at index `j` must meet lane `j`'s entry at index `i`. Lanes are read
/// in order, so lane `j`'s entries are met in order too: one cursor per lane suffices,
/// and a cursor that skips or stops short means an entry without its mirror.
pub(super) fn maybe_positive_definite<T: LinalgScalar>(
    indptr: &[usize],
    indices: &[usize],
    values: &[T],
) -> Option<bool> {
    let n = indptr.len().checked_sub(1)?;
    let mut cursor = crate::alloc::try_vec_with_capacity::<usize>("solve", n).ok()?;
    cursor.extend_from_slice(&indptr[..n]);
    for i in 0..n {
        let mut diagonal = false;
        for p in indptr[i]..indptr[i + 1] {
            let (j, v) = (indices[p], values[p]);
            let q = cursor[j];
            if q >= indptr[j + 1] || indices[q] != i || values[q] != v.conjugate() {
                return Some(false);
            }
            cursor[j] = q + 1;
            if j == i {
                // NaN fails `> 0` and so goes to the LU, as any entry that is not its mirror.
                let positive =
                    v.real_part().partial_cmp(&<T::Re as num_traits::Zero>::zero()) == Some(Ordering::Greater);
                if v != T::from_real(v.real_part()) || !positive {
                    return Some(false);
                }
                diagonal = true;
            }
        }
        if !diagonal {
            return Some(false);
        }
    }
    Some((0..n).all(|j| cursor[j] == indptr[j + 1]))
}

/// # Sparse linear algebra: `solve` (feature `linalg`)
impl<T: LinalgScalar, E: Rank2, S: SparseOrder + Layout<E>, A: Arrays<T, usize>>
    Tensor<T, E, S, CompressedBase<T, usize, A>>
{
    forms! {
        /// `A x = b` for a vector `b` (`(N,)`) or a matrix `b` (`(N, K)`), in `b`'s extents,
        /// the name dense matrices use: the sparse Cholesky ([`Tensor::cho_factor`]) when
        /// `A` is Hermitian with a real positive diagonal and turns out positive definite,
        /// the sparse LU ([`Tensor::spsolve`]) otherwise.
        pub fn try_solve[E2, S2, St2](&self, b: &Tensor<T, E2, S2, St2>) -> Result<Tensor<T, E2>, LinalgError>
        where [E2: RhsExtents, S2: Layout<E2>, St2: DenseStorage<T>]
        {
            let [m, n] = self.dims();
            super::dense::square("solve", m, n)?;
            if maybe_positive_definite(self.indptr(), self.indices(), self.values()) == Some(true) {
                match self.try_cho_factor() {
                    Ok(f) => return f.try_solve(b),
                    Err(LinalgError::NotPositiveDefinite { .. }) => {}
                    Err(e) => return Err(e),
                }
            }
            self.try_spsolve(b)
        }
        /// The solution `x` of `A x = b` for a square CSR or CSC matrix; `Err` from
        /// `try_solve` when `A` is not square, `b`'s length is not its order, or it is
        /// structurally singular. A Hermitian matrix with a positive diagonal is tried with
        /// the sparse Cholesky first (as MATLAB's backslash), anything else goes through
        /// the sparse LU (as scipy's `spsolve`). A matrix `b` is solved column by column.
        ///
        /// ```
        /// use mdtensor::{tensor, CsrMatrix};
        /// let a = CsrMatrix::<f64>::from_triplets([2, 2], &[0usize, 1, 1], &[0usize, 0, 1], &[2.0, 1.0, 4.0]); // [[2, 0], [1, 4]]
        /// assert_eq!(a.solve(&tensor![2.0, 9.0]).to_vec(), [1.0, 2.0]);
        /// // [[4, 1], [1, 3]]: symmetric, so the Cholesky.
        /// let s = CsrMatrix::<f64>::from_triplets([2, 2], &[0usize, 0, 1, 1], &[0usize, 1, 0, 1], &[4.0, 1.0, 1.0, 3.0]);
        /// let x = s.solve(&tensor![5.0, 4.0]);
        /// assert!(x.iter().all(|&v| (v - 1.0).abs() < 1e-12));
        /// ```
        pub fn solve;
    }
}

#[cfg(test)]
mod tests {
    use super::maybe_positive_definite;
    use num_complex::Complex64;

    #[test]
    fn the_test_needs_every_mirror_and_a_positive_diagonal() {
        // [[4, 1], [1, 3]] in CSR.
        assert_eq!(maybe_positive_definite(&[0, 2, 4], &[0, 1, 0, 1], &[4.0, 1.0, 1.0, 3.0]), Some(true));
        // A mirror with another value, a missing mirror, a missing diagonal, a negative one.
        assert_eq!(maybe_positive_definite(&[0, 2, 4], &[0, 1, 0, 1], &[4.0, 1.0, 2.0, 3.0]), Some(false));
        assert_eq!(maybe_positive_definite(&[0, 2, 3], &[0, 1, 1], &[4.0, 1.0, 3.0]), Some(false));
        assert_eq!(maybe_positive_definite(&[0, 1, 2], &[1, 0], &[1.0, 1.0]), Some(false));
        assert_eq!(maybe_positive_definite(&[0, 1, 2], &[0, 1], &[1.0, -1.0]), Some(false));
        assert_eq!(maybe_positive_definite(&[0, 1, 2], &[0, 1], &[1.0, f64::NAN]), Some(false));
        // Symmetric with an isolated last row; then the same with (0, 2) and no (2, 0).
        assert_eq!(maybe_positive_definite(&[0, 2, 4, 5], &[0, 1, 0, 1, 2], &[2.0, 1.0, 1.0, 2.0, 2.0]), Some(true));
        assert_eq!(
            maybe_positive_definite(&[0, 3, 5, 6], &[0, 1, 2, 0, 1, 2], &[2.0, 1.0, 1.0, 1.0, 2.0, 2.0]),
            Some(false)
        );
        // Hermitian: the mirror is the conjugate, the diagonal real.
        let z = |re, im| Complex64::new(re, im);
        let h = [z(2.0, 0.0), z(0.0, 1.0), z(0.0, -1.0), z(2.0, 0.0)];
        assert_eq!(maybe_positive_definite(&[0, 2, 4], &[0, 1, 0, 1], &h), Some(true));
        let not_hermitian = [z(2.0, 0.0), z(0.0, 1.0), z(0.0, 1.0), z(2.0, 0.0)];
        assert_eq!(maybe_positive_definite(&[0, 2, 4], &[0, 1, 0, 1], &not_hermitian), Some(false));
        let complex_diagonal = [z(2.0, 0.5), z(0.0, 1.0), z(0.0, -1.0), z(2.0, 0.0)];
        assert_eq!(maybe_positive_definite(&[0, 2, 4], &[0, 1, 0, 1], &complex_diagonal), Some(false));
        assert_eq!(maybe_positive_definite::<f64>(&[0], &[], &[]), Some(true));
    }
}
