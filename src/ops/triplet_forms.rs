//! Both spellings of triplets on both kinds of matrix, so that moving between a compressed
//! sparse matrix and a band matrix changes only the bandwidths: three parallel arrays
//! (scipy's `coo_matrix((data, (row, col)))`; [`Tensor::from_triplets`] of compressed
//! matrices) or a list of `(i, j, value)` tuples ([`Tensor::from_triplets`] of band
//! matrices). Each kind's `from_triplets` keeps its own spelling; the other one is added
//! here under its own name.

use crate::alloc::try_vec_with_capacity;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Dim, Extents};
use crate::layout::{ColMajor, Layout};
use crate::storage::sparse::{Compressed, Rank2, SparseElem, SparseError, SparseIndex, SparseOrder};
use crate::storage::{Band, BandError};
use crate::tensor::{ShapeArg, Tensor};
use num_traits::Zero;

impl<T, E: Extents, S: SparseOrder + Layout<E>, I: SparseIndex> Tensor<T, E, S, Compressed<T, I>> {
    forms! {
        /// [`Tensor::try_from_triplets`] from a list of `(row, col, value)` tuples, the
        /// spelling of the band matrices' `from_triplets`; repeated coordinates are summed.
        pub fn try_from_triplet_tuples[](
            shape: impl ShapeArg<E>,
            triplets: &[(usize, usize, T)],
        ) -> Result<Self, SparseError>
        where [T: SparseElem, E: Rank2]
        {
            // The compressed build reads three arrays: split the tuples into them, fallibly.
            const OP: &str = "from_triplet_tuples";
            let n = triplets.len();
            let (mut rows, mut cols, mut values) =
                (try_vec_with_capacity(OP, n)?, try_vec_with_capacity(OP, n)?, try_vec_with_capacity(OP, n)?);
            for &(i, j, v) in triplets {
                rows.push(i);
                cols.push(j);
                values.push(v);
            }
            Self::try_from_triplets(shape, &rows, &cols, &values)
        }
        /// See [`Tensor::try_from_triplet_tuples`].
        ///
        /// ```
        /// use mdtensor::{ext, CsrMatrix};
        /// let a = CsrMatrix::<f64, ext![2, 2]>::from_triplet_tuples(ext![2, 2], &[(0, 1, 2.0), (1, 0, 1.0), (1, 0, 3.0)]);
        /// assert_eq!(a.to_dense().to_vec(), [0.0, 2.0, 4.0, 0.0]);
        /// ```
        pub fn from_triplet_tuples;
    }
}

impl<T: Clone + Zero, M: Dim, N: Dim> Tensor<T, (M, N), ColMajor, Band<T>> {
    forms! {
        /// [`Tensor::try_from_triplets`] from three parallel arrays (`rows[k]`, `cols[k]`,
        /// `values[k]`), the spelling of the compressed matrices' `from_triplets`; repeated
        /// coordinates are added. `Err` also when the three lengths differ.
        pub fn try_from_triplet_arrays[](
            shape: impl ShapeArg<(M, N)>,
            kl: usize,
            ku: usize,
            rows: &[usize],
            cols: &[usize],
            values: &[T],
        ) -> Result<Self, BandError>
        {
            if rows.len() != cols.len() || rows.len() != values.len() {
                return Err(BandError::Shape(ShapeError::InvalidArgument {
                    op: "from_triplet_arrays",
                    reason: format!("{} rows, {} columns and {} values", rows.len(), cols.len(), values.len()),
                }));
            }
            let triplets = rows.iter().zip(cols).zip(values).map(|((&i, &j), v)| (i, j, v.clone()));
            Self::try_from_triplet_iter(shape, kl, ku, triplets)
        }
        /// See [`Tensor::try_from_triplet_arrays`]; panics with its message.
        ///
        /// ```
        /// use mdtensor::BandMatrix;
        /// let a = BandMatrix::<i32>::from_triplet_arrays([2, 2], 0, 1, &[0, 0, 0], &[0, 1, 1], &[1, 2, 3]);
        /// assert_eq!(a.to_dense().to_vec(), [1, 5, 0, 0]);
        /// ```
        pub fn from_triplet_arrays;
    }
}
