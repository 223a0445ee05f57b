//! Sparse × dense products: `matvec` (SpMV) and `matmat` (SpMM) for CSR and CSC matrices,
//! with `_with` (choice of threads) and `_into` (existing output) forms.
//!
//! The dense operand may have any dense storage and stride policy: a row-major contiguous
//! one is read in place, any other is first copied into row-major order (one pass over it,
//! cheap next to the product). Static extents that disagree do not compile
//! ([`SparseProductDim`]); dynamic ones are `Err(ShapeError)`. The dense operand of `matvec` and
//! `matmat` may also be a [`DynRank`](crate::DynRank) tensor ([`VectorOf`], [`MatrixOf`]):
//! its rank is then checked at run time.
//!
//! CSR products gather (each output element is one thread's sum, in the same order on any
//! number of threads); CSC products, such as `a.sparse_t().matvec(&x)`, scatter column by
//! column, and on several threads add per-thread partial outputs, so their floating-point
//! results can differ in the last bits between thread counts (`Par::Seq` is the plain
//! column-order scatter). Both cost about the same per stored entry: the transpose view
//! needs no copy to be fast.

use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::extents::{Dim, MatrixOf, SparseProductDim, VectorOf};
use crate::kernels::spmv::{product, CsRef};
use crate::layout::Layout;
use crate::sparse::{Arrays, CompressedBase, Rank2, SparseElem, SparseIndex, SparseOrder};
use crate::storage::{DenseStorage, DenseStorageMut};
use crate::tensor::Tensor;
use std::borrow::Cow;

/// The elements of a dense tensor in row-major order, borrowed when they already are.
fn row_major<T: Copy, E: crate::Extents, S: Layout<E>, St: DenseStorage<T>>(t: &Tensor<T, E, S, St>) -> Cow<'_, [T]> {
    match t.as_slice() {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(t.iter().copied().collect()),
    }
}

fn mismatch(op: &'static str, lhs: Vec<usize>, rhs: Vec<usize>, reason: String) -> ShapeError {
    ShapeError::Incompatible { op, lhs, rhs, reason }
}

/// # Sparse: products
impl<T: SparseElem, E: Rank2, S: SparseOrder + Layout<E>, I: SparseIndex, A: Arrays<T, I>>
    Tensor<T, E, S, CompressedBase<T, I, A>>
{
    fn cs_ref(&self) -> CsRef<'_, T, I> {
        CsRef { indptr: self.indptr(), indices: self.indices(), values: self.values() }
    }

    /// `out = self · b` for `b` row-major with `n` columns, `out` row-major (`zeroed`: `out`
    /// holds zeros already).
    fn product_into(&self, b: &[T], n: usize, out: &mut [T], zeroed: bool, par: Par) {
        product(self.cs_ref(), S::REVERSED, b, n, out, zeroed, par);
    }

    /// `self · b` (`b` row-major with `n` columns) as a new row-major tensor with
    /// dimensions `dims`.
    ///
    /// The output is a zeroed `Vec` rather than the crate's aligned huge-page buffer written
    /// in place, which is faster here: the allocator hands the `Vec` a recently freed,
    /// already mapped block, while the aligned block faults its pages in again on every
    /// call.
    fn new_product<D: crate::Extents>(
        &self,
        op: &'static str,
        dims: &[usize],
        b: &[T],
        n: usize,
        par: Par,
    ) -> Result<Tensor<T, D>, ShapeError> {
        let len = crate::error::checked_numel(op, dims, core::mem::size_of::<T>())?;
        let mut out = crate::alloc::try_vec_filled(op, len, T::zero())?;
        self.product_into(b, n, &mut out, true, par);
        Tensor::try_from_vec(dims, out).map_err(|(e, _)| e)
    }

    /// Checks the right operand's rank (run-time for [`DynRank`](crate::DynRank)) and rows.
    fn check_inner(&self, op: &'static str, rhs: Vec<usize>, rank: usize) -> Result<(), ShapeError> {
        let [_, cols] = self.dims();
        if rhs.len() != rank {
            return Err(ShapeError::RankMismatch { op, expected: rank, found: rhs.len() });
        }
        if rhs[0] != cols {
            let reason = format!("the matrix has {cols} columns but the right operand has {} rows", rhs[0]);
            return Err(mismatch(op, self.shape(), rhs, reason));
        }
        Ok(())
    }

    forms! {
        /// `self · x` with an explicit choice of threads; `Err` when `x`'s length differs
        /// from the number of columns.
        pub fn try_matvec_with[X: VectorOf<E::Cols>, S2: Layout<X>, St2: DenseStorage<T>](
            &self,
            x: &Tensor<T, X, S2, St2>,
        ) with par -> Result<Tensor<T, (E::Rows,)>, ShapeError>
        {
            self.check_inner("matvec", x.shape(), 1)?;
            self.new_product("matvec", &[self.dims()[0]], &row_major(x), 1, par)
        }
        /// See [`Tensor::matvec`].
        pub fn try_matvec;
        /// Sparse matrix × dense vector (SpMV), parallel for large matrices.
        ///
        /// ```
        /// use mdtensor::{ext, tensor, sparse::CsrMatrix};
        /// // [[1, 0, 2],
        /// //  [0, 3, 0]]
        /// let a = CsrMatrix::<f64, ext![2, 3]>::new(ext![2, 3], vec![0, 2, 3], vec![0, 2, 1], vec![1.0, 2.0, 3.0]);
        /// let y = a.matvec(&tensor![1.0, 10.0, 100.0]);
        /// assert_eq!(y.to_vec(), [201.0, 30.0]);
        /// assert_eq!(a.sparse_t().matvec(&tensor![1.0, 2.0]).to_vec(), [1.0, 6.0, 2.0]); // CSC view
        /// ```
        pub fn matvec;
        /// [`Tensor::matvec`] with an explicit choice of threads.
        pub fn matvec_with;
    }

    forms! {
        /// `y = self · x` into an existing vector, with an explicit choice of threads; `Err`
        /// when a length differs.
        pub fn try_matvec_into_with[K: Dim, R: Dim, S2: Layout<(K,)>, St2: DenseStorage<T>, S3: Layout<(R,)>, St3](
            &self,
            x: &Tensor<T, (K,), S2, St2>,
            y: &mut Tensor<T, (R,), S3, St3>,
        ) with par -> Result<(), ShapeError>
        where [E::Cols: SparseProductDim<K>, E::Rows: SparseProductDim<R>, St3: DenseStorageMut<T>]
        {
            self.check_inner("matvec_into", x.shape(), 1)?;
            let rows = self.dims()[0];
            if y.numel() != rows {
                let reason = format!("the matrix has {rows} rows but the output has {}", y.numel());
                return Err(mismatch("matvec_into", self.shape(), y.shape(), reason));
            }
            self.write_into("matvec_into", &row_major(x), 1, y, par)
        }
        /// `y = self · x` into an existing vector; `Err` when a length differs.
        pub fn try_matvec_into;
        /// See [`Tensor::try_matvec_into`] (panics on a length mismatch).
        pub fn matvec_into;
        /// [`Tensor::matvec_into`] with an explicit choice of threads.
        pub fn matvec_into_with;
    }

    /// Writes `self · b` into `out` in place when it is row-major contiguous, else through
    /// a temporary (allocated fallibly: `Err` when refused).
    fn write_into<E3: crate::Extents, S3: Layout<E3>, St3: DenseStorageMut<T>>(
        &self,
        op: &'static str,
        b: &[T],
        n: usize,
        out: &mut Tensor<T, E3, S3, St3>,
        par: Par,
    ) -> Result<(), ShapeError> {
        match out.as_slice_mut() {
            Some(o) => self.product_into(b, n, o, false, par),
            None => {
                let mut tmp = crate::alloc::try_vec_filled(op, out.numel(), T::zero())?;
                self.product_into(b, n, &mut tmp, true, par);
                for (o, v) in out.iter_mut().zip(tmp) {
                    *o = v;
                }
            }
        }
        Ok(())
    }

    forms! {
        /// `self · b` with an explicit choice of threads; `Err` when `b`'s rows differ from
        /// the number of columns.
        pub fn try_matmat_with[B: MatrixOf<E::Cols>, S2: Layout<B>, St2: DenseStorage<T>](
            &self,
            b: &Tensor<T, B, S2, St2>,
        ) with par -> Result<Tensor<T, (E::Rows, B::N)>, ShapeError>
        {
            self.check_inner("matmat", b.shape(), 2)?;
            let (rows, n) = (self.dims()[0], b.shape()[1]);
            self.new_product("matmat", &[rows, n], &row_major(b), n, par)
        }
        /// See [`Tensor::matmat`].
        pub fn try_matmat;
        /// Sparse matrix × dense matrix (SpMM), parallel for large matrices; the result is a
        /// dense row-major matrix. (`matmul` is the dense product's name, hence `matmat`.)
        ///
        /// ```
        /// use mdtensor::{ext, tensor, sparse::CscMatrix};
        /// let a = CscMatrix::<i64, ext![2, 2]>::from_triplets(ext![2, 2], &[0usize, 1], &[1, 0], &[2, 3]);
        /// let c = a.matmat(&tensor![[1, 2], [10, 20]]);
        /// assert_eq!(c.to_vec(), [20, 40, 3, 6]);
        /// ```
        pub fn matmat;
        /// [`Tensor::matmat`] with an explicit choice of threads.
        pub fn matmat_with;
    }

    forms! {
        /// `c = self · b` into an existing matrix, with an explicit choice of threads; `Err`
        /// when a dimension differs.
        #[allow(clippy::type_complexity)]
        pub fn try_matmat_into_with[K: Dim, N, R: Dim, N2: Dim, S2, St2, S3, St3](
            &self,
            b: &Tensor<T, (K, N), S2, St2>,
            c: &mut Tensor<T, (R, N2), S3, St3>,
        ) with par -> Result<(), ShapeError>
        where [
            E::Cols: SparseProductDim<K>,
            E::Rows: SparseProductDim<R>,
            N: Dim + SparseProductDim<N2>,
            S2: Layout<(K, N)>,
            St2: DenseStorage<T>,
            S3: Layout<(R, N2)>,
            St3: DenseStorageMut<T>,
        ]
        {
            self.check_inner("matmat_into", b.shape(), 2)?;
            let want = [self.dims()[0], b.dims()[1]];
            if c.dims() != want {
                let reason = format!("the product is {want:?} but the output is {:?}", c.dims());
                return Err(mismatch("matmat_into", self.shape(), c.shape(), reason));
            }
            self.write_into("matmat_into", &row_major(b), want[1], c, par)
        }
        /// `c = self · b` into an existing matrix; `Err` when a dimension differs.
        #[allow(clippy::type_complexity)]
        pub fn try_matmat_into;
        /// See [`Tensor::try_matmat_into`] (panics on a dimension mismatch).
        pub fn matmat_into;
        /// [`Tensor::matmat_into`] with an explicit choice of threads.
        pub fn matmat_into_with;
    }
}
