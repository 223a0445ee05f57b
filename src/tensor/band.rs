//! Band matrices as tensors: [`BandMatrix`], its constructors and accessors, and how it is
//! read through [`ReadStorage`]. The storage itself ([`Band`]: LAPACK's band layout) is
//! [`crate::storage::band`]'s; products, solves and conversions are [`crate::ops`]'.

use super::{ReadStorage, ShapeArg, Tensor};
use crate::error::BandError;
use crate::exec::forms::forms;
use crate::extents::Dim;
use crate::layout::ColMajor;
use crate::storage::band::validate;
use crate::storage::Band;
use num_traits::Zero;

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

/// # Band matrices: construction and access
impl<T, M: Dim, N: Dim> Tensor<T, (M, N), ColMajor, Band<T>> {
    /// A band matrix from its LAPACK band buffer (`(kl + ku + 1) * cols` elements,
    /// column-major, see the [storage's docs](crate::storage::band)); buffer cells outside the matrix are
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
    forms! {
        /// A band matrix of zeros; `Err` when the bandwidths or extents are invalid.
        pub fn try_with_bandwidths[](shape: impl ShapeArg<(M, N)>, kl: usize, ku: usize) -> Result<Self, BandError>
        where [T: Clone + Zero]
        {
            let ext: (M, N) = shape.into_extents("band")?;
            let len = validate(ext.0.size(), ext.1.size(), kl, ku, core::mem::size_of::<T>())?;
            let data = crate::alloc::try_vec_filled("band", len, T::zero())?;
            Ok(Self::assemble_non_dense(Band { kl, ku, data }, ext))
        }
        /// A band matrix of zeros with `kl` diagonals below and `ku` above the main one.
        /// (Not called `zeros`: that name belongs to the dense constructors.)
        pub fn with_bandwidths;
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
    forms! {
        /// Writes `[i, j]`; `Err` outside the matrix or outside the band (naming the index and
        /// the bandwidths).
        pub fn try_set[](&mut self, idx: [usize; 2], value: T) -> Result<(), BandError> {
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
        pub fn set;
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
