//! Operations on band matrices: band × vector, band × scalar, `map_stored`, sums along
//! an axis. Conversions are in `convert.rs`, the LU solve in `solve.rs`.
//!
//! A static length mismatch of `matvec` (a `Const<5>` column count and a `Const<4>`
//! vector) does not compile ([`BandDim`]); dynamic lengths are checked at run time, and
//! so is the rank of a [`DynRank`](crate::DynRank) vector ([`BandVectorOf`]).

use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::extents::{BandDim, BandVectorOf, Dim};
use crate::kernels::band::{band_matvec, BandElem, BandShape};
use crate::layout::{ColMajor, Layout};
use crate::storage::{Band, BandError, DenseStorage, DenseStorageMut};
use crate::tensor::Tensor;
use crate::ShapeError;
use num_traits::Zero;
use std::borrow::Cow;

/// # Band matrices: products
impl<T, M: Dim, N: Dim> Tensor<T, (M, N), ColMajor, Band<T>> {
    /// The shape for the kernels.
    pub(crate) fn band_shape(&self) -> BandShape {
        let [rows, cols] = self.dims();
        BandShape { rows, cols, kl: self.kl(), ku: self.ku() }
    }
}

/// # Band matrices: products
impl<T: BandElem, M: Dim, N: Dim> Tensor<T, (M, N), ColMajor, Band<T>> {
    forms! {
        /// `y = A x` into an existing vector, with an explicit choice of threads; `Err` when
        /// dynamic lengths disagree or `y` is not contiguous.
        pub fn try_matvec_into_with[X, S2, St2, M2, S3, St3](
            &self,
            x: &Tensor<T, X, S2, St2>,
            y: &mut Tensor<T, (M2,), S3, St3>,
        ) with par -> Result<(), BandError>
        where [
            X: BandVectorOf<N>,
            S2: Layout<X>,
            St2: DenseStorage<T>,
            M: BandDim<M2>,
            M2: Dim,
            S3: Layout<(M2,)>,
            St3: DenseStorageMut<T>,
        ]
        {
            let y = y.as_slice_mut().ok_or(BandError::Shape(ShapeError::NotContiguous { op: "matvec_into" }))?;
            self.matvec_slice(x, y, par)
        }
        /// `y = A x` into an existing vector; see [`Tensor::try_matvec_into_with`].
        pub fn try_matvec_into;
        /// `y = A x` into an existing vector; panics with the message of
        /// [`Tensor::try_matvec_into_with`].
        pub fn matvec_into;
        /// [`Tensor::matvec_into`] with an explicit choice of threads.
        pub fn matvec_into_with;
    }

    forms! {
        /// `A x` as a new vector, with an explicit choice of threads; `Err` when a dynamic
        /// length of `x` disagrees with the column count.
        pub fn try_matvec_with[X, S2, St2](&self, x: &Tensor<T, X, S2, St2>) with par
            -> Result<Tensor<T, (M,)>, BandError>
        where [X: BandVectorOf<N>, S2: Layout<X>, St2: DenseStorage<T>]
        {
            let mut y = crate::alloc::try_vec_filled("band matvec", self.dims()[0], T::zero())?;
            self.matvec_slice(x, &mut y, par)?;
            Ok(Tensor::from_vec((self.extents.0,), y))
        }
        /// `A x` as a new vector; `Err` when a dynamic length of `x` disagrees with the
        /// column count.
        pub fn try_matvec;
        /// `A x` (band × vector) as a new vector, on rayon's pool for large matrices.
        ///
        /// ```
        /// use mdtensor::{ext, tensor, BandMatrix};
        /// let a = BandMatrix::<i64, ext![3, 3]>::from_dense(&tensor![[2, 1, 0], [1, 2, 1], [0, 1, 2]], 1, 1);
        /// assert_eq!(a.matvec(&tensor![1, 2, 3]).to_vec(), [4, 8, 8]);
        /// ```
        pub fn matvec;
        /// [`Tensor::matvec`] with an explicit choice of threads.
        pub fn matvec_with;
    }

    /// `y = A x` into a slice, after checking both lengths.
    fn matvec_slice<X: BandVectorOf<N>, S2: Layout<X>, St2: DenseStorage<T>>(
        &self,
        x: &Tensor<T, X, S2, St2>,
        y: &mut [T],
        par: Par,
    ) -> Result<(), BandError> {
        let s = self.band_shape();
        let mismatch = |expected, found| BandError::DimensionMismatch {
            op: "matvec",
            rows: s.rows,
            cols: s.cols,
            expected,
            found,
        };
        if x.rank() != 1 {
            // Only reachable with DynRank: tuple extents are rank 1 by the bound.
            return Err(BandError::Shape(ShapeError::RankMismatch { op: "matvec", expected: 1, found: x.rank() }));
        }
        if x.numel() != s.cols {
            return Err(mismatch(s.cols, x.numel()));
        }
        if y.len() != s.rows {
            return Err(mismatch(s.rows, y.len()));
        }
        let x: Cow<'_, [T]> = match x.as_slice() {
            Some(xs) => Cow::Borrowed(xs),
            None => Cow::Owned(x.to_vec_op("matvec").map_err(BandError::Shape)?),
        };
        band_matvec(s, self.as_lapack_slice(), &x, y, par);
        Ok(())
    }
    /// Multiplies every stored element by `alpha` in place.
    pub fn scale_in_place(&mut self, alpha: T) {
        let rows = self.dims()[0];
        self.storage.for_each_stored_column_mut(rows, |col| col.iter_mut().for_each(|v| *v = *v * alpha));
    }
    /// `alpha · A`, with the same band.
    ///
    /// ```
    /// use mdtensor::{tensor, BandMatrix};
    /// let a = BandMatrix::<i32, mdtensor::ext![_, _]>::from_dense(&tensor![[1, 2], [0, 3]], 0, 1);
    /// assert_eq!(a.scale(10).to_dense().to_vec(), [10, 20, 0, 30]);
    /// ```
    pub fn scale(&self, alpha: T) -> Self {
        let mut out = self.clone();
        out.scale_in_place(alpha);
        out
    }
}

/// # Band matrices: products
impl<T: Clone + Zero, M: Dim, N: Dim> Tensor<T, (M, N), ColMajor, Band<T>> {
    forms! {
        /// A band matrix of `f(&x)` for every stored element, with the same band; `Err`
        /// ([`BandError::NotZeroPreserving`]) when `f(0) != 0`, since the elements outside the
        /// band would then not be zero. `f` is called once more, on zero, to check that.
        pub fn try_map_stored[U: Clone + Zero](&self, f: impl FnMut(&T) -> U)
            -> Result<Tensor<U, (M, N), ColMajor, Band<U>>, BandError>
        {
            let mut f = f;
            if !f(&T::zero()).is_zero() {
                return Err(BandError::NotZeroPreserving);
            }
            let mut out = Tensor::<U, (M, N), ColMajor, Band<U>>::try_with_bandwidths(self.extents, self.kl(), self.ku())?;
            for ([i, j], v) in self.entries() {
                *out.stored_mut([i, j]).expect("same band") = f(v);
            }
            Ok(out)
        }
        /// See [`Tensor::try_map_stored`]; panics when `f(0) != 0`.
        ///
        /// ```
        /// use mdtensor::{tensor, BandMatrix};
        /// let a = BandMatrix::<i32>::from_dense(&tensor![[1, -2], [0, 3]], 0, 1);
        /// assert_eq!(a.map_stored(|v| v.abs()).to_dense().to_vec(), [1, 2, 0, 3]);
        /// ```
        pub fn map_stored;
    }
}
