//! Conversions of band matrices: from a dense matrix and from `(i, j, value)` triplets,
//! and back to triplets. (Back to dense is the generic [`Tensor::to_dense`].)
//!
//! A conversion never drops an element silently: a non-zero element outside the band is
//! an error naming its `(i, j)`.

use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{BandDenseOf, Dim};
use crate::layout::{ColMajor, Layout};
use crate::storage::{Band, BandError, DenseStorage};
use crate::tensor::{ShapeArg, Tensor};
use num_traits::Zero;

/// # Band matrices: conversions
impl<T: Clone + Zero, M: Dim, N: Dim> Tensor<T, (M, N), ColMajor, Band<T>> {
    forms! {
        /// The band part of a dense matrix (any layout, any rank-2 extents whose lengths fit
        /// `(M, N)`, or a [`DynRank`](crate::DynRank) tensor of rank 2); `Err` when the rank or
        /// the extents do not fit, or an element outside the band is not zero — the error
        /// names the first such `(i, j)` in row-major order.
        ///
        /// ```
        /// use mdtensor::{tensor, BandMatrix, BandError};
        /// let d = tensor![[1, 2, 0], [0, 3, 4], [5, 0, 6]];
        /// let err = BandMatrix::<i32, mdtensor::ext![3, 3]>::try_from_dense(&d, 0, 1).err().unwrap();
        /// assert!(matches!(err, BandError::OutsideBand { row: 2, col: 0, .. }));
        /// ```
        pub fn try_from_dense[E2: BandDenseOf<M, N>, S2: Layout<E2>, St2: DenseStorage<T>](
            dense: &Tensor<T, E2, S2, St2>,
            kl: usize,
            ku: usize,
        ) -> Result<Self, BandError>
        {
            if dense.rank() != 2 {
                // Only reachable with DynRank: tuple extents are rank 2 by the bound.
                return Err(ShapeError::RankMismatch { op: "from_dense", expected: 2, found: dense.rank() }.into());
            }
            let mut band = Self::try_with_bandwidths(dense.dims().as_ref(), kl, ku)?;
            for (idx, v) in dense.indexed_iter() {
                let (i, j) = (idx.as_ref()[0], idx.as_ref()[1]);
                match band.stored_mut([i, j]) {
                    Some(slot) => *slot = v.clone(),
                    None if v.is_zero() => {}
                    None => return Err(BandError::OutsideBand { op: "from_dense", row: i, col: j, kl, ku }),
                }
            }
            Ok(band)
        }
        /// See [`Tensor::try_from_dense`]; panics with its message.
        pub fn from_dense;
    }

    forms! {
        /// A band matrix from `(i, j, value)` triplets in any order; values given twice for
        /// the same `(i, j)` are added (as a COO matrix would). `Err` for the first triplet
        /// outside the matrix or outside the band, even when its value is zero.
        ///
        /// ```
        /// use mdtensor::BandMatrix;
        /// let a = BandMatrix::<i32>::try_from_triplets([2, 2], 0, 1, &[(0, 0, 1), (0, 1, 2), (0, 1, 3)]).unwrap();
        /// assert_eq!(a.to_dense().to_vec(), [1, 5, 0, 0]);
        /// assert!(BandMatrix::<i32>::try_from_triplets([2, 2], 0, 1, &[(1, 0, 1)]).is_err());
        /// ```
        pub fn try_from_triplets[](
            shape: impl ShapeArg<(M, N)>,
            kl: usize,
            ku: usize,
            triplets: &[(usize, usize, T)],
        ) -> Result<Self, BandError>
        {
            Self::try_from_triplet_iter(shape, kl, ku, triplets.iter().cloned())
        }
        /// See [`Tensor::try_from_triplets`]; panics with its message.
        pub fn from_triplets;
    }
    /// The one loop of both triplet spellings: each `(i, j, value)` added into its slot.
    pub(crate) fn try_from_triplet_iter(
        shape: impl ShapeArg<(M, N)>,
        kl: usize,
        ku: usize,
        triplets: impl Iterator<Item = (usize, usize, T)>,
    ) -> Result<Self, BandError> {
        let mut band = Self::try_with_bandwidths(shape, kl, ku)?;
        for (i, j, v) in triplets {
            let [rows, cols] = band.dims();
            if i >= rows || j >= cols {
                return Err(BandError::IndexOutOfBounds { op: "from_triplets", row: i, col: j, rows, cols });
            }
            let slot = band.stored_mut([i, j]).ok_or(BandError::OutsideBand {
                op: "from_triplets",
                row: i,
                col: j,
                kl,
                ku,
            })?;
            *slot = slot.clone() + v;
        }
        Ok(band)
    }
    /// Every stored entry as `(i, j, value)`, column by column; zeros inside the band
    /// included, so that [`Tensor::try_from_triplets`] rebuilds the same matrix.
    pub fn to_triplets(&self) -> Vec<(usize, usize, T)> {
        self.entries().map(|([i, j], v)| (i, j, v.clone())).collect()
    }
}
