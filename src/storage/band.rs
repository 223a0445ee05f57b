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
//! * Reading outside the band gives zero ([`Tensor::value`]).
//! * Writing outside the band is an error ([`Tensor::try_set`]), never a silent drop.
//! * Any bandwidths, as LAPACK's `?gbmv` accepts: `kl >= m` or `ku >= n` describe a band
//!   wider than the matrix, whose extra diagonals are padding cells (zero, never read);
//!   the buffer has exactly `ldab * n` elements; the element counts fit in `isize::MAX`
//!   bytes. Constructors check both and say which failed ([`BandError`]).
//!
//! The band type is `Tensor<T, (M, N), ColMajor, Band<T>>`, spelled [`BandMatrix`]; its
//! operations (products, solves, conversions) live in [`crate::ops`].

mod error;

pub use error::BandError;

use super::{NonDenseStorage, ReadStorage, Storage};
use crate::error::ShapeError;
use crate::extents::Dim;
use crate::layout::ColMajor;
use crate::tensor::{ShapeArg, Tensor};
use core::ops::Range;
use num_traits::Zero;

/// The elements of a band matrix in LAPACK's general band layout (see the
/// [module docs](self)); the storage policy of [`BandMatrix`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Band<T> {
    kl: usize,
    ku: usize,
    data: Vec<T>,
}

/// A band matrix: `Tensor<T, (M, N), ColMajor, Band<T>>`, dynamic extents by default.
///
/// `Debug` shows the bandwidth-independent view: the stored entries as `[i, j] = v`.
///
/// ```
/// use mdtensor::{BandMatrix, tensor};
/// // 4×4 tridiagonal: kl = ku = 1.
/// let mut a = BandMatrix::<f64>::with_bandwidths([4, 4], 1, 1);
/// for i in 0..4 {
///     a.try_set([i, i], 2.0).unwrap();
///     if i > 0 {
///         a.try_set([i, i - 1], -1.0).unwrap();
///         a.try_set([i - 1, i], -1.0).unwrap();
///     }
/// }
/// assert_eq!(a.value([0, 3]), Some(0.0)); // outside the band: zero
/// assert_eq!(a.value([0, 4]), None); // outside the matrix
/// assert!(a.try_set([0, 3], 1.0).is_err()); // and not writable
/// let y = a.matvec(&tensor![1.0, 1.0, 1.0, 1.0]);
/// assert_eq!(y.to_vec(), [1.0, 0.0, 0.0, 1.0]);
/// ```
pub type BandMatrix<T, E = crate::ext![_, _]> = Tensor<T, E, ColMajor, Band<T>>;

/// A band matrix is one of the sparse storages; its `sum` and `sum_axis` read its stored
/// entries (see [`SumStorage`](crate::ops::SumStorage)).
impl<T> crate::sparse::SparseStorage<T> for Band<T> {}

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

impl<T: Clone + Zero, M: Dim, N: Dim> ReadStorage<T, (M, N), ColMajor> for Band<T> {
    fn value_at(tensor: &Tensor<T, (M, N), ColMajor, Self>, index: &[usize]) -> T {
        let rows = tensor.dims()[0];
        match tensor.storage.position(index[0], index[1], rows) {
            Some(p) => tensor.storage.data[p].clone(),
            None => T::zero(),
        }
    }
    fn stored_len(tensor: &Tensor<T, (M, N), ColMajor, Self>) -> usize {
        let [rows, cols] = tensor.dims();
        (0..cols).map(|j| tensor.storage.rows_of_col(j, rows).len()).sum()
    }
    fn for_each_stored(tensor: &Tensor<T, (M, N), ColMajor, Self>, f: &mut dyn FnMut(&[usize], &T)) {
        tensor.entries().for_each(|(idx, v)| f(&idx, v));
    }
}

impl<T, M: Dim, N: Dim> Tensor<T, (M, N), ColMajor, Band<T>> {
    /// A band matrix from its LAPACK band buffer (`(kl + ku + 1) * cols` elements,
    /// column-major, see the [module docs](self)); buffer cells outside the matrix are
    /// ignored and set to zero. The buffer is returned inside the error.
    ///
    /// ```
    /// use mdtensor::BandMatrix;
    /// // 3×3, kl = 1, ku = 0: the diagonal then the subdiagonal of each column.
    /// let a = BandMatrix::<i32>::try_from_parts([3, 3], 1, 0, vec![1, 4, 2, 5, 3, 0]).unwrap();
    /// assert_eq!(a.to_dense().to_vec(), [1, 0, 0, 4, 2, 0, 0, 5, 3]);
    /// let (err, _data) = BandMatrix::<i32>::try_from_parts([3, 3], 1, 0, vec![1, 2]).err().unwrap();
    /// assert!(err.to_string().contains("needs a buffer of (kl + ku + 1)·3 = 6 elements, but 2"));
    /// ```
    pub fn try_from_parts(
        shape: impl ShapeArg<(M, N)>,
        kl: usize,
        ku: usize,
        data: Vec<T>,
    ) -> Result<Self, (BandError, Vec<T>)>
    where
        T: Zero,
    {
        let ext: (M, N) = match shape.into_extents("band") {
            Ok(e) => e,
            Err(e) => return Err((e.into(), data)),
        };
        let (rows, cols) = (ext.0.size(), ext.1.size());
        match validate(rows, cols, kl, ku, core::mem::size_of::<T>()) {
            Err(e) => Err((e, data)),
            Ok(len) if len != data.len() => {
                Err((BandError::LengthMismatch { rows, cols, kl, ku, expected: len, found: data.len() }, data))
            }
            Ok(_) => Ok(Self::assemble_non_dense(Band::from_checked(kl, ku, data, rows), ext)),
        }
    }
    /// See [`Tensor::try_from_parts`]; panics with its message.
    #[track_caller]
    pub fn from_parts(shape: impl ShapeArg<(M, N)>, kl: usize, ku: usize, data: Vec<T>) -> Self
    where
        T: Zero,
    {
        match Self::try_from_parts(shape, kl, ku, data) {
            Ok(v) => v,
            Err((e, _)) => panic!("{e}"),
        }
    }
    /// A band matrix of zeros; `Err` when the bandwidths or extents are invalid.
    pub fn try_with_bandwidths(shape: impl ShapeArg<(M, N)>, kl: usize, ku: usize) -> Result<Self, BandError>
    where
        T: Clone + Zero,
    {
        let ext: (M, N) = shape.into_extents("band")?;
        let len = validate(ext.0.size(), ext.1.size(), kl, ku, core::mem::size_of::<T>())?;
        let data = crate::kernels::buffer::try_vec_filled("band", len, T::zero())?;
        Ok(Self::assemble_non_dense(Band { kl, ku, data }, ext))
    }
    /// A band matrix of zeros with `kl` diagonals below and `ku` above the main one.
    /// (Not called `zeros`: that name belongs to the dense constructors.)
    #[track_caller]
    pub fn with_bandwidths(shape: impl ShapeArg<(M, N)>, kl: usize, ku: usize) -> Self
    where
        T: Clone + Zero,
    {
        match Self::try_with_bandwidths(shape, kl, ku) {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        }
    }

    /// Lower bandwidth.
    pub fn kl(&self) -> usize {
        self.storage.kl
    }
    /// Upper bandwidth.
    pub fn ku(&self) -> usize {
        self.storage.ku
    }
    /// Rows of the band buffer, `kl + ku + 1` (LAPACK's `LDAB`).
    pub fn ldab(&self) -> usize {
        self.storage.ldab()
    }
    /// The band buffer as LAPACK's `?gbmv`/`?gbsv` expect it (`AB` with `LDAB = ldab()`;
    /// `?gbsv` itself needs `kl` more rows on top, see [`Tensor::factorize`]).
    pub fn as_lapack_slice(&self) -> &[T] {
        &self.storage.data
    }
    /// The bandwidths and buffer, taking the matrix apart.
    pub fn into_parts(self) -> (usize, usize, Vec<T>) {
        (self.storage.kl, self.storage.ku, self.storage.data)
    }

    /// Checks `[i, j]` against the extents and the band: `Ok(Some(pos))` inside the band,
    /// `Ok(None)` inside the matrix but outside the band.
    fn locate(&self, op: &'static str, [i, j]: [usize; 2]) -> Result<Option<usize>, BandError> {
        let [rows, cols] = self.dims();
        if i >= rows || j >= cols {
            return Err(BandError::IndexOutOfBounds { op, row: i, col: j, rows, cols });
        }
        Ok(self.storage.position(i, j, rows))
    }
    /// The stored element at `[i, j]` for writing; `None` outside the matrix or the band.
    /// (Reading any element, zero outside the band, is [`Tensor::value`].)
    pub fn stored_mut(&mut self, idx: [usize; 2]) -> Option<&mut T> {
        let p = self.locate("stored_mut", idx).ok()??;
        Some(&mut self.storage.data[p])
    }
    /// Writes `[i, j]`; `Err` outside the matrix or outside the band (naming the index and
    /// the bandwidths).
    pub fn try_set(&mut self, idx: [usize; 2], value: T) -> Result<(), BandError> {
        let p = self.locate("set", idx)?.ok_or(BandError::OutsideBand {
            op: "set",
            row: idx[0],
            col: idx[1],
            kl: self.kl(),
            ku: self.ku(),
        })?;
        self.storage.data[p] = value;
        Ok(())
    }
    /// See [`Tensor::try_set`]; panics with its message.
    #[track_caller]
    pub fn set(&mut self, idx: [usize; 2], value: T) {
        match self.try_set(idx, value) {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        }
    }

    /// The stored entries `([i, j], &value)`, column by column (the buffer's order), zeros
    /// inside the band included.
    pub fn entries(&self) -> impl Iterator<Item = ([usize; 2], &T)> + '_ {
        let [rows, cols] = self.dims();
        let band = &self.storage;
        (0..cols).flat_map(move |j| {
            band.rows_of_col(j, rows).map(move |i| ([i, j], &band.data[(band.ku + i - j) + j * band.ldab()]))
        })
    }
}
