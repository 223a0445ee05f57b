//! Band storage: a matrix whose non-zero elements lie within `kl` diagonals below the main
//! diagonal and `ku` above it, kept in LAPACK's general band layout so that the buffer
//! can be handed to a banded LAPACK routine (`?gbmv`, `?gbsv`, …) unchanged.
//!
//! # Layout
//! An `m × n` matrix with lower bandwidth `kl` and upper bandwidth `ku` is stored in a
//! column-major buffer of `ldab = kl + ku + 1` rows and `n` columns. Element `(i, j)` of
//! the band, `j - ku <= i <= j + kl`, lives in buffer row `ku + i - j` of column `j`, at
//! `data[(ku + i - j) + j * ldab]`: each matrix column keeps its band rows together, and
//! each diagonal becomes one buffer row.
//!
//! ```text
//!  matrix (5×5, kl = 1, ku = 2)      buffer (ldab = 4 rows × 5 columns, column-major)
//!
//!  a00 a01 a02  .   .                  *   *  a02 a13 a24    row 0: 2nd superdiagonal
//!  a10 a11 a12 a13  .                  *  a01 a12 a23 a34    row 1: 1st superdiagonal
//!   .  a21 a22 a23 a24                a00 a11 a22 a33 a44    row 2 = ku: main diagonal
//!   .   .  a32 a33 a34                a10 a21 a32 a43  *     row 3: 1st subdiagonal
//!   .   .   .  a43 a44
//! ```
//!
//! The cells marked `*` fall outside the matrix; LAPACK never reads them, and here they are
//! always zero. Rectangular matrices (`m != n`) are allowed, as in LAPACK.
//!
//! # Rules
//! * Reading outside the band gives zero ([`Tensor::value`](crate::Tensor::value)).
//! * Writing outside the band is an error ([`Tensor::try_set`](crate::Tensor::try_set)), never a silent drop.
//! * Any bandwidths, as LAPACK's `?gbmv` accepts: `kl >= m` or `ku >= n` describe a band
//!   wider than the matrix, whose extra diagonals are padding cells (zero, never read);
//!   the buffer has exactly `ldab * n` elements; the element counts fit in `isize::MAX`
//!   bytes. Constructors check both and say which failed ([`BandError`]).
//!
//! The band type is `Tensor<T, (M, N), ColMajor, Band<T>>`, spelled
//! [`BandMatrix`](crate::BandMatrix); its constructors live with the tensor type, its
//! operations (products, solves, conversions) in `mdtensor::ops`.

pub use crate::error::BandError;

use super::{NonDenseStorage, Storage};
use crate::error::ShapeError;
use core::ops::Range;
use num_traits::Zero;

/// The elements of a band matrix in LAPACK's general band layout (see the
/// [module docs](crate::storage::band)); the storage policy of [`BandMatrix`](crate::BandMatrix).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Band<T> {
    pub(crate) kl: usize,
    pub(crate) ku: usize,
    pub(crate) data: Vec<T>,
}

/// A band matrix is one of the sparse storages; its `sum` and `sum_axis` read its stored
/// entries (see `SumStorage` in `mdtensor::ops`).
impl<T> super::sparse::SparseStorage<T> for Band<T> {}

impl<T> Storage<T> for Band<T> {
    const NAME: &'static str = "Band";
}

impl<T> Band<T> {
    /// Lower bandwidth: diagonals stored below the main one.
    pub fn kl(&self) -> usize {
        self.kl
    }
    /// Upper bandwidth: diagonals stored above the main one.
    pub fn ku(&self) -> usize {
        self.ku
    }
    /// Rows of the band buffer: `kl + ku + 1` (LAPACK's `LDAB`).
    pub fn ldab(&self) -> usize {
        self.kl + self.ku + 1
    }
    /// The buffer, column-major with leading dimension [`Band::ldab`].
    pub fn as_slice(&self) -> &[T] {
        &self.data
    }
    /// Rows of column `j` that lie in the band of a matrix with `rows` rows.
    #[inline]
    pub(crate) fn rows_of_col(&self, j: usize, rows: usize) -> Range<usize> {
        j.saturating_sub(self.ku)..rows.min(j.saturating_add(self.kl).saturating_add(1))
    }
    /// Buffer position of `(i, j)` when it lies in the band and the matrix has `rows` rows.
    #[inline]
    pub(crate) fn position(&self, i: usize, j: usize, rows: usize) -> Option<usize> {
        self.rows_of_col(j, rows).contains(&i).then(|| (self.ku + i - j) + j * self.ldab())
    }
    /// Builds the storage of a `rows × cols` matrix from a buffer that [`validate`] accepted;
    /// zeroes the cells outside the matrix so that whole-buffer loops may touch them.
    pub(crate) fn from_checked(kl: usize, ku: usize, mut data: Vec<T>, rows: usize) -> Self
    where
        T: Zero,
    {
        let ldab = kl + ku + 1;
        for (j, col) in data.chunks_exact_mut(ldab).enumerate() {
            let (top, bottom) = (ku.saturating_sub(j), (ku + rows).saturating_sub(j).min(ldab));
            col[..top].iter_mut().for_each(|x| *x = T::zero());
            col[bottom.max(top)..].iter_mut().for_each(|x| *x = T::zero());
        }
        Band { kl, ku, data }
    }
    /// Calls `f` with the stored rows of every column of a matrix with `rows` rows: one
    /// contiguous slice of the buffer per column.
    pub(crate) fn for_each_stored_column_mut(&mut self, rows: usize, mut f: impl FnMut(&mut [T])) {
        let (kl, ku, ldab) = (self.kl, self.ku, self.ldab());
        for (j, col) in self.data.chunks_exact_mut(ldab).enumerate() {
            let (lo, hi) = (j.saturating_sub(ku), rows.min(j + kl + 1));
            if lo < hi {
                f(&mut col[ku + lo - j..ku + hi - j]);
            }
        }
    }
}

/// Checks extents and bandwidths; returns the buffer length `(kl + ku + 1) * cols`.
pub(crate) fn validate(rows: usize, cols: usize, kl: usize, ku: usize, elem: usize) -> Result<usize, BandError> {
    let overflow = BandError::Overflow { rows, cols, kl, ku };
    crate::error::checked_numel("band", &[rows, cols], elem).map_err(|_| overflow.clone())?;
    // Bandwidths beyond the matrix are allowed (LAPACK's `?gbmv` takes them): every loop
    // clips the band to the matrix with `rows_of_col`.
    let ldab = kl.checked_add(ku).and_then(|s| s.checked_add(1)).ok_or(overflow.clone())?;
    crate::error::checked_numel("band", &[ldab, cols], elem).map_err(|_| overflow)
}

impl<T: Zero> NonDenseStorage for Band<T> {
    fn check_extents(&self, dims: &[usize]) -> Result<(), ShapeError> {
        let invalid = |reason: String| ShapeError::InvalidArgument { op: "from_storage", reason };
        let &[rows, cols] = dims else {
            return Err(ShapeError::RankMismatch { op: "from_storage", expected: 2, found: dims.len() });
        };
        let len =
            validate(rows, cols, self.kl, self.ku, core::mem::size_of::<T>()).map_err(|e| invalid(e.to_string()))?;
        if len != self.data.len() {
            let e = BandError::LengthMismatch {
                rows,
                cols,
                kl: self.kl,
                ku: self.ku,
                expected: len,
                found: self.data.len(),
            };
            return Err(invalid(e.to_string()));
        }
        // Padding cells must read as zero for the whole-buffer kernels.
        let padding_zero = (0..cols).all(|j| {
            let band = self.rows_of_col(j, rows);
            let col = &self.data[j * self.ldab()..(j + 1) * self.ldab()];
            col.iter().enumerate().all(|(r, v)| band.contains(&(j + r).wrapping_sub(self.ku)) || v.is_zero())
        });
        if !padding_zero {
            return Err(invalid("band: the buffer cells outside the matrix must be zero".into()));
        }
        Ok(())
    }
}
