//! Linear-algebra products: `matmul` (matrix, matrix-vector, vector-matrix, batched with
//! broadcast batch axes), `dot`, `outer` and the 3-D `cross` product.
//!
//! Shapes follow [`MatMulShape`]: static inner dimensions that differ do not compile;
//! dynamic ones are `Err` from the `try_` forms. Operands may have any stride policy
//! (row-major, column-major, transposed or sliced views) and are read in place.

use crate::error::ShapeError;
use crate::extents::{CrossDim, DotShape, Extents, MatMulShape};
use crate::kernels::gemm::{gemm, GemmElem, MatRef};
use crate::kernels::par::Par;
use crate::layout::{Layout, RowMajor};
use crate::storage::{DenseStorage, OwnedStorage, ResultStorage};
use crate::tensor::{or_panic, Tensor};

/// A product's result type: extents from [`MatMulShape`], storage from the left operand
/// ([`ResultStorage`]: stack stays stack).
pub type Product<T, E, E2, St> =
    Tensor<T, <E as MatMulShape<E2>>::Output, RowMajor, <St as ResultStorage<T, <E as MatMulShape<E2>>::Output>>::Out>;

/// Views an operand of rank 1 to 3 as `(batch, rows, cols)` with strides; a vector is a
/// row (left operand) or a column (right operand).
fn as_batch(dims: &[usize], strides: &[isize], vector_as_row: bool) -> ([usize; 3], [isize; 3]) {
    match dims.len() {
        1 if vector_as_row => ([1, 1, dims[0]], [0, 0, strides[0]]),
        1 => ([1, dims[0], 1], [0, strides[0], 0]),
        2 => ([1, dims[0], dims[1]], [0, strides[0], strides[1]]),
        _ => ([dims[0], dims[1], dims[2]], [strides[0], strides[1], strides[2]]),
    }
}

impl<T: GemmElem, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// Matrix product with an explicit choice of threads; `Err` when dynamic inner
    /// dimensions or batch axes disagree.
    #[inline]
    pub fn try_matmul_with<E2, S2, St2>(
        &self,
        rhs: &Tensor<T, E2, S2, St2>,
        par: Par,
    ) -> Result<Product<T, E, E2, St>, ShapeError>
    where
        E: MatMulShape<E2>,
        E2: Extents,
        S2: Layout<E2>,
        St2: DenseStorage<T>,
        St: ResultStorage<T, <E as MatMulShape<E2>>::Output>,
    {
        let (ad, bd) = (self.dims(), rhs.dims());
        let (ad, bd) = (ad.as_ref(), bd.as_ref());
        let incompatible =
            |reason: String| ShapeError::Incompatible { op: "matmul", lhs: ad.to_vec(), rhs: bd.to_vec(), reason };
        let (adims, astr) = as_batch(ad, self.strides().as_ref(), true);
        let (bdims, bstr) = as_batch(bd, rhs.strides().as_ref(), false);
        let (m, k, k2, n) = (adims[1], adims[2], bdims[1], bdims[2]);
        if k != k2 {
            return Err(incompatible(format!("inner dimensions {k} and {k2} differ")));
        }
        let batch = match (adims[0], bdims[0]) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            (x, y) => return Err(incompatible(format!("batch extents {x} and {y} differ and neither is 1"))),
        };
        let (ab, bb) = (if adims[0] == 1 { 0 } else { astr[0] }, if bdims[0] == 1 { 0 } else { bstr[0] });
        // [batch, m, n], without the axes of vector operands, then only as many trailing
        // axes as the result has (a product of plain matrices has no batch axis).
        let (va, vb) = <E as MatMulShape<E2>>::VECTORS;
        let mut all = [0usize; 3];
        let mut len = 0;
        for (k, d) in [batch, m, n].into_iter().enumerate() {
            if (k == 1 && va) || (k == 2 && vb) {
                continue;
            }
            all[len] = d;
            len += 1;
        }
        let out_rank = <<E as MatMulShape<E2>>::Output as Extents>::RANK.expect("matmul results have static rank");
        let out_dims = &all[len - out_rank..len];
        let ext = <<E as MatMulShape<E2>>::Output as Extents>::from_dims(out_dims)?;
        let total = ext.checked_numel("matmul", core::mem::size_of::<T>())?;
        // The kernel writes batch·m·n elements: the output extents must hold exactly that
        // many (MatMulShape is a public trait; a foreign impl must not shrink the buffer).
        if batch.checked_mul(m).and_then(|x| x.checked_mul(n)) != Some(total) {
            return Err(incompatible(format!("the result extents {out_dims:?} do not hold {batch}×{m}×{n} elements")));
        }
        let (pa, pb) = (self.as_ptr(), rhs.as_ptr());
        let init = |c: *mut T| {
            for bi in 0..batch {
                let a = MatRef { ptr: pa.wrapping_offset(bi as isize * ab), rs: astr[1], cs: astr[2] };
                let b = MatRef { ptr: pb.wrapping_offset(bi as isize * bb), rs: bstr[1], cs: bstr[2] };
                // SAFETY: batch `bi` of A and B is inside each operand (dense invariant, batch
                // stride 0 when broadcast); C's batch block holds m×n elements.
                unsafe { gemm(m, k, n, a, b, c.add(bi * m * n), n, par) };
            }
        };
        // SAFETY: `init` writes all batch·m·n = numel elements of C.
        let storage = unsafe { <St as ResultStorage<T, _>>::Out::from_raw_init(total, init) }.ok_or_else(|| {
            ShapeError::LengthMismatch { op: "matmul", dims: out_dims.to_vec(), expected: total, found: total }
        })?;
        // SAFETY: a row-major block of numel elements.
        Ok(unsafe { Tensor::from_parts_unchecked(storage, ext, ()) })
    }

    /// See [`Tensor::matmul`].
    #[inline]
    pub fn try_matmul<E2, S2, St2>(&self, rhs: &Tensor<T, E2, S2, St2>) -> Result<Product<T, E, E2, St>, ShapeError>
    where
        E: MatMulShape<E2>,
        E2: Extents,
        S2: Layout<E2>,
        St2: DenseStorage<T>,
        St: ResultStorage<T, <E as MatMulShape<E2>>::Output>,
    {
        self.try_matmul_with(rhs, Par::Auto)
    }

    /// Matrix product (numpy's `@`): matrix × matrix, matrix × vector, vector × matrix,
    /// vector · vector, and batches of matrices with broadcast batch axes.
    ///
    /// ```
    /// use mdtensor::{ext, tensor, Tensor};
    /// let a = tensor![[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]; // 3×2
    /// let b = tensor![[1.0, 0.0, 2.0], [0.0, 1.0, 3.0]];   // 2×3
    /// let c = a.matmul(&b);
    /// let _: &ext![3, 3] = c.extents();
    /// assert_eq!(c.to_vec(), [1.0, 2.0, 8.0, 3.0, 4.0, 18.0, 5.0, 6.0, 28.0]);
    /// assert_eq!(a.t().matmul(&a).to_vec(), [35.0, 44.0, 44.0, 56.0]); // transposed view, no copy
    /// ```
    #[track_caller]
    #[inline]
    pub fn matmul<E2, S2, St2>(&self, rhs: &Tensor<T, E2, S2, St2>) -> Product<T, E, E2, St>
    where
        E: MatMulShape<E2>,
        E2: Extents,
        S2: Layout<E2>,
        St2: DenseStorage<T>,
        St: ResultStorage<T, <E as MatMulShape<E2>>::Output>,
    {
        or_panic(self.try_matmul(rhs))
    }

    /// Dot product of two vectors; `Err` when dynamic lengths differ.
    #[inline]
    pub fn try_dot<E2, S2, St2>(&self, rhs: &Tensor<T, E2, S2, St2>) -> Result<T, ShapeError>
    where
        E: DotShape<E2>,
        E2: Extents,
        S2: Layout<E2>,
        St2: DenseStorage<T>,
    {
        let (n, n2) = (self.numel(), rhs.numel());
        if n != n2 {
            return Err(ShapeError::Incompatible {
                op: "dot",
                lhs: self.shape(),
                rhs: rhs.shape(),
                reason: format!("lengths {n} and {n2} differ"),
            });
        }
        if let (Some(a), Some(b)) = (self.as_slice(), rhs.as_slice()) {
            // Eight independent partial sums: vectorisable, and a shorter error chain.
            let mut acc = [T::zero(); 8];
            let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
            let (ra, rb) = (ca.remainder(), cb.remainder());
            for (x, y) in ca.zip(cb) {
                for l in 0..8 {
                    acc[l] = acc[l] + x[l] * y[l];
                }
            }
            let tail = ra.iter().zip(rb).fold(T::zero(), |s, (&x, &y)| s + x * y);
            return Ok(((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7])) + tail);
        }
        Ok(self.iter().zip(rhs.iter()).fold(T::zero(), |s, (&x, &y)| s + x * y))
    }

    /// Dot product of two vectors (static lengths that differ do not compile).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// assert_eq!(tensor![1, 2, 3].dot(&tensor![4, 5, 6]), 32);
    /// ```
    #[track_caller]
    #[inline]
    pub fn dot<E2, S2, St2>(&self, rhs: &Tensor<T, E2, S2, St2>) -> T
    where
        E: DotShape<E2>,
        E2: Extents,
        S2: Layout<E2>,
        St2: DenseStorage<T>,
    {
        or_panic(self.try_dot(rhs))
    }
}

impl<
        T: Copy + Send + Sync + core::ops::Mul<Output = T>,
        D: crate::extents::Dim,
        S: Layout<(D,)>,
        St: DenseStorage<T>,
    > Tensor<T, (D,), S, St>
{
    /// Outer product of two vectors: `out[i, j] = a[i] · b[j]`.
    ///
    /// ```
    /// use mdtensor::{ext, tensor};
    /// let o = tensor![1, 2].outer(&tensor![10, 20, 30]);
    /// let _: &ext![2, 3] = o.extents();
    /// assert_eq!(o.to_vec(), [10, 20, 30, 20, 40, 60]);
    /// ```
    pub fn outer<D2: crate::extents::Dim, S2: Layout<(D2,)>, St2: DenseStorage<T>>(
        &self,
        rhs: &Tensor<T, (D2,), S2, St2>,
    ) -> Tensor<T, (D, D2)> {
        let ext = (self.extents().0, rhs.extents().0);
        let (a, b) = (self, rhs);
        // Both indices come from the extents just built, so they are in bounds.
        Tensor::from_fn(ext, |[i, j]| a[[i]] * b[[j]])
    }
}

impl<T, D: crate::extents::Dim, S: Layout<(D,)>, St: DenseStorage<T> + ResultStorage<T, (D,)>> Tensor<T, (D,), S, St>
where
    T: Copy + core::ops::Mul<Output = T> + core::ops::Sub<Output = T>,
{
    /// Cross product of two 3-vectors, `a × b`; `Err` when a dynamic length is not 3.
    #[inline]
    pub fn try_cross<D2: CrossDim, S2: Layout<(D2,)>, St2: DenseStorage<T>>(
        &self,
        rhs: &Tensor<T, (D2,), S2, St2>,
    ) -> Result<Tensor<T, (D,), RowMajor, St::Out>, ShapeError>
    where
        D: CrossDim,
    {
        let (n, n2) = (self.numel(), rhs.numel());
        if n != 3 || n2 != 3 {
            return Err(ShapeError::Incompatible {
                op: "cross",
                lhs: self.shape(),
                rhs: rhs.shape(),
                reason: format!("the cross product needs two vectors of length 3, not {n} and {n2}"),
            });
        }
        let (a, b) = (|i: usize| self[[i]], |i: usize| rhs[[i]]);
        let c = [a(1) * b(2) - a(2) * b(1), a(2) * b(0) - a(0) * b(2), a(0) * b(1) - a(1) * b(0)];
        let storage = St::Out::from_fn_linear(3, |i| c[i]).expect("a result storage of a 3-vector holds 3 elements");
        // SAFETY: a fresh row-major storage of exactly 3 elements for extents of length 3.
        Ok(unsafe { Tensor::from_parts_unchecked(storage, *self.extents(), ()) })
    }

    /// Cross product of two 3-vectors (a static length other than 3 does not compile).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let z = tensor![1.0, 0.0, 0.0].cross(&tensor![0.0, 1.0, 0.0]);
    /// assert_eq!(z.to_vec(), [0.0, 0.0, 1.0]);
    /// ```
    #[track_caller]
    #[inline]
    pub fn cross<D2: CrossDim, S2: Layout<(D2,)>, St2: DenseStorage<T>>(
        &self,
        rhs: &Tensor<T, (D2,), S2, St2>,
    ) -> Tensor<T, (D,), RowMajor, St::Out>
    where
        D: CrossDim,
    {
        or_panic(self.try_cross(rhs))
    }
}
