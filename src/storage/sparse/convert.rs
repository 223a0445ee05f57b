//! Conversions into sparse storage from any readable tensor (dense or sparse): COO of any
//! rank, CSR and CSC for matrices. Zeros are not stored. `to_dense` is the way back (see
//! [`ReadStorage`]).

use super::validate::fits;
use super::{
    Compressed, Coo, CooTensor, CscMatrix, CsrMatrix, Rank2, SparseElem, SparseError, SparseIndex, SparseOrder,
};
use crate::extents::Extents;
use crate::layout::{ColMajor, Layout, RowMajor};
use crate::storage::ReadStorage;
use crate::tensor::Tensor;

impl<T: SparseElem, E: Extents, S: Layout<E>, St: ReadStorage<T, E, S>> Tensor<T, E, S, St> {
    /// The non-zero entries in COO storage ordered by policy `S2`, with index type `I`;
    /// `Err` when an extent or the number of entries does not fit `I`.
    pub fn try_to_coo<S2: SparseOrder + Layout<E>, I: SparseIndex>(
        &self,
    ) -> Result<Tensor<T, E, S2, Coo<T, I>>, SparseError> {
        for d in self.dims().as_ref() {
            fits::<I>("an extent", *d)?;
        }
        let (mut coords, mut values) = (Vec::new(), Vec::new());
        self.for_each_stored(|idx, v| {
            if !v.is_zero() {
                // Below an extent, which fits `I` (checked above).
                coords.extend(idx.iter().map(|&i| I::from_usize(i).unwrap_or_default()));
                values.push(*v);
            }
        });
        Tensor::<T, E, S2, Coo<T, I>>::try_from_unsorted(self.extents().clone(), coords, values).map_err(|r| r.error)
    }

    /// The non-zero entries as a COO tensor (sorted by index, `usize` indices).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let c = tensor![[0, 3], [4, 0]].to_coo();
    /// assert_eq!(c.coords(), [0, 1, 1, 0]);
    /// assert_eq!(c.values(), [3, 4]);
    /// ```
    pub fn to_coo(&self) -> CooTensor<T, E> {
        self.try_to_coo::<RowMajor, usize>().expect("extents and entry counts fit usize")
    }
}

impl<T: SparseElem, E: Rank2, S: Layout<E>, St: ReadStorage<T, E, S>> Tensor<T, E, S, St> {
    /// The non-zero entries in compressed storage of policy `S2` (`RowMajor`: CSR,
    /// `ColMajor`: CSC) with index type `I`, built by a counting sort; `Err` when an extent
    /// or `nnz` does not fit `I`.
    pub fn try_to_compressed<S2: SparseOrder + Layout<E>, I: SparseIndex>(
        &self,
    ) -> Result<Tensor<T, E, S2, Compressed<T, I>>, SparseError> {
        let (mut rows, mut cols, mut values) = (Vec::new(), Vec::new(), Vec::new());
        self.for_each_stored(|idx, v| {
            if !v.is_zero() {
                rows.push(idx[0]);
                cols.push(idx[1]);
                values.push(*v);
            }
        });
        Tensor::<T, E, S2, Compressed<T, I>>::try_from_triplets(self.extents().clone(), &rows, &cols, &values)
    }

    /// The non-zero entries as a CSR matrix (`usize` indices).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let a = tensor![[0, 3, 0], [4, 0, 5]].to_csr();
    /// assert_eq!(a.indptr(), [0, 1, 3]);
    /// assert_eq!(a.indices(), [1, 0, 2]);
    /// assert_eq!(a.to_csc().to_dense().to_vec(), [0, 3, 0, 4, 0, 5]);
    /// ```
    pub fn to_csr(&self) -> CsrMatrix<T, E> {
        self.try_to_compressed::<RowMajor, usize>().expect("extents and nnz fit usize")
    }

    /// The non-zero entries as a CSC matrix (`usize` indices).
    pub fn to_csc(&self) -> CscMatrix<T, E> {
        self.try_to_compressed::<ColMajor, usize>().expect("extents and nnz fit usize")
    }
}
