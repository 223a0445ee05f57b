//! Conversions into sparse storage from any readable tensor (dense or sparse): COO of any
//! rank, CSR and CSC for matrices (a [`DynRank`] tensor's rank checked at run time). Zeros
//! are not stored. `to_dense` is the way back (see
//! [`ReadStorage`]).

use super::{CooTensor, CscMatrix, CsrMatrix};
use crate::extents::{extents_from, Dyn, DynRank, Extents};
use crate::layout::{ColMajor, Layout, RowMajor};
use crate::storage::sparse::validate::fits;
use crate::storage::sparse::{Compressed, Coo, Rank2, SparseElem, SparseError, SparseIndex, SparseOrder};
use crate::tensor::ReadStorage;
use crate::tensor::Tensor;

/// # Sparse conversions
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

/// The non-zero entries of a matrix as `(rows, cols, values)`, in the storage's order.
fn nonzero_triplets<T: SparseElem, E: Extents, S: Layout<E>, St: ReadStorage<T, E, S>>(
    t: &Tensor<T, E, S, St>,
) -> (Vec<usize>, Vec<usize>, Vec<T>) {
    let (mut rows, mut cols, mut values) = (Vec::new(), Vec::new(), Vec::new());
    t.for_each_stored(|idx, v| {
        if !v.is_zero() {
            rows.push(idx[0]);
            cols.push(idx[1]);
            values.push(*v);
        }
    });
    (rows, cols, values)
}

/// # Sparse conversions
impl<T: SparseElem, E: Rank2, S: Layout<E>, St: ReadStorage<T, E, S>> Tensor<T, E, S, St> {
    /// The non-zero entries in compressed storage of policy `S2` (`RowMajor`: CSR,
    /// `ColMajor`: CSC) with index type `I`, built by a counting sort; `Err` when an extent
    /// or `nnz` does not fit `I`.
    pub fn try_to_compressed<S2: SparseOrder + Layout<E>, I: SparseIndex>(
        &self,
    ) -> Result<Tensor<T, E, S2, Compressed<T, I>>, SparseError> {
        let (rows, cols, values) = nonzero_triplets(self);
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

/// # Sparse conversions
impl<T: SparseElem, S: Layout<DynRank>, St: ReadStorage<T, DynRank, S>> Tensor<T, DynRank, S, St> {
    /// The non-zero entries of a [`DynRank`] tensor of rank 2 in compressed storage of
    /// policy `S2` (`RowMajor`: CSR, `ColMajor`: CSC) with dynamic extents; `Err` when the
    /// rank is not 2 (checked at run time) or an extent or `nnz` does not fit `I`.
    pub fn try_to_compressed<S2: SparseOrder + Layout<(Dyn, Dyn)>, I: SparseIndex>(
        &self,
    ) -> Result<Tensor<T, (Dyn, Dyn), S2, Compressed<T, I>>, SparseError> {
        let ext: (Dyn, Dyn) = extents_from("to_compressed", self.extents().as_slice())?;
        let (rows, cols, values) = nonzero_triplets(self);
        Tensor::<T, (Dyn, Dyn), S2, Compressed<T, I>>::try_from_triplets(ext, &rows, &cols, &values)
    }

    /// The non-zero entries of a [`DynRank`] tensor of rank 2 as a CSR matrix; `Err` when
    /// the rank is not 2.
    ///
    /// ```
    /// use mdtensor::{DynRank, Tensor};
    /// let d = Tensor::<i32, DynRank>::from_vec(DynRank::new(vec![2, 3]), vec![0, 3, 0, 4, 0, 5]);
    /// let a = d.try_to_csr().unwrap();
    /// assert_eq!(a.indptr(), [0, 1, 3]);
    /// assert!(Tensor::<i32, DynRank>::zeros(DynRank::new(vec![2, 2, 2])).try_to_csr().is_err());
    /// ```
    pub fn try_to_csr(&self) -> Result<CsrMatrix<T, (Dyn, Dyn)>, SparseError> {
        self.try_to_compressed::<RowMajor, usize>()
    }

    /// The non-zero entries of a [`DynRank`] tensor of rank 2 as a CSC matrix; `Err` when
    /// the rank is not 2.
    pub fn try_to_csc(&self) -> Result<CscMatrix<T, (Dyn, Dyn)>, SparseError> {
        self.try_to_compressed::<ColMajor, usize>()
    }
}
