//! Elementwise arithmetic on sparse tensors: `sparse_add` (union of the stored entries),
//! `sparse_mul` (intersection), `scale` and `sparse_map`, for COO and compressed storage.
//!
//! Results are owned, in the left operand's policy (a right operand in the other order is
//! converted first) and store only non-zero results. Operands have the same shape:
//! static extents that differ do not compile ([`SameShape`]); dynamic ones are `Err`.
//!
//! `sparse_map(f)` needs `f(0) == 0` (checked by calling `f(0)`), so that the entries not
//! stored stay zero; otherwise `try_sparse_map` returns `Err(SparseError::NotZeroPreserving)`
//! (and `sparse_map` panics): map `to_dense()` instead.

use super::{merge, Side};
use crate::error::or_panic;
use crate::error::ShapeError;
use crate::extents::Extents;
use crate::layout::Layout;
use crate::sparse::validate::compare_coords;
use crate::sparse::{
    Arrays, Compressed, CompressedBase, Coo, Rank2, SameShape, SparseElem, SparseError, SparseIndex, SparseOrder,
};
use crate::tensor::Tensor;
use std::borrow::Cow;

/// Checks run-time extents of two operands of the same static rank.
fn same_dims(op: &'static str, lhs: &[usize], rhs: &[usize]) -> Result<(), SparseError> {
    if lhs != rhs {
        let reason = "sparse elementwise operations need equal shapes".to_string();
        return Err(ShapeError::Incompatible { op, lhs: lhs.to_vec(), rhs: rhs.to_vec(), reason }.into());
    }
    Ok(())
}

/// `op` on one stored entry of a union: the other side is zero.
fn one_sided<T: SparseElem>(op: &impl Fn(T, T) -> T, side: Side, a: &[T], b: &[T], union: bool) -> Option<T> {
    match side {
        Side::Both(i, j) => Some(op(a[i], b[j])),
        Side::Left(i) if union => Some(op(a[i], T::zero())),
        Side::Right(j) if union => Some(op(T::zero(), b[j])),
        _ => None,
    }
}

/// # Sparse: elementwise
impl<T: SparseElem, E: Rank2, S: SparseOrder + Layout<E>, I: SparseIndex, A: Arrays<T, I>>
    Tensor<T, E, S, CompressedBase<T, I, A>>
{
    /// `f` of every stored value, keeping the non-zero results.
    #[allow(clippy::disallowed_methods, reason = "no larger than the operand's own index arrays")]
    fn filter_values<U: SparseElem>(&self, f: impl Fn(T) -> U) -> Tensor<U, E, S, Compressed<U, I>> {
        let (p, ix, v) = (self.indptr(), self.indices(), self.values());
        let mut indptr = Vec::with_capacity(p.len());
        let (mut indices, mut values) = (Vec::with_capacity(ix.len()), Vec::with_capacity(v.len()));
        indptr.push(I::default());
        for lane in 0..p.len() - 1 {
            for k in p[lane].index()..p[lane + 1].index() {
                let y = f(v[k]);
                if !y.is_zero() {
                    indices.push(ix[k]);
                    values.push(y);
                }
            }
            // At most the old count, which fits `I`.
            indptr.push(I::from_usize(values.len()).unwrap_or_default());
        }
        // SAFETY: a subsequence of each lane of a valid matrix of the same shape.
        unsafe { Tensor::<U, E, S, Compressed<U, I>>::new_unchecked(self.extents().clone(), indptr, indices, values) }
    }

    /// `alpha · self` (entries that become zero are dropped).
    pub fn scale(&self, alpha: T) -> Tensor<T, E, S, Compressed<T, I>> {
        self.filter_values(|v| v * alpha)
    }

    /// `f` of every stored value, keeping the sparsity; `Err(SparseError::NotZeroPreserving)`
    /// when `f(0) != 0` (the result would be dense: map `to_dense()` instead).
    pub fn try_sparse_map<U: SparseElem>(
        &self,
        f: impl Fn(T) -> U,
    ) -> Result<Tensor<U, E, S, Compressed<U, I>>, SparseError> {
        if !f(T::zero()).is_zero() {
            return Err(SparseError::NotZeroPreserving);
        }
        Ok(self.filter_values(f))
    }
    /// `f` of every stored value, keeping the sparsity; panics when `f(0) != 0`.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let a = tensor![[0.0, -2.0], [3.0, 0.0]].to_csr();
    /// assert_eq!(a.sparse_map(|x: f64| x.abs()).to_dense().to_vec(), [0.0, 2.0, 3.0, 0.0]);
    /// assert!(a.try_sparse_map(|x| x + 1.0).is_err()); // f(0) = 1: the result would be dense
    /// ```
    #[track_caller]
    pub fn sparse_map<U: SparseElem>(&self, f: impl Fn(T) -> U) -> Tensor<U, E, S, Compressed<U, I>> {
        or_panic(self.try_sparse_map(f))
    }

    /// Lane-by-lane merge with `rhs`, in this matrix's policy.
    #[allow(clippy::disallowed_methods, reason = "no larger than the operand's own index arrays")]
    fn combine<E2: Rank2, S2: SparseOrder + Layout<E2>, A2: Arrays<T, I>>(
        &self,
        op_name: &'static str,
        rhs: &Tensor<T, E2, S2, CompressedBase<T, I, A2>>,
        union: bool,
        op: impl Fn(T, T) -> T,
    ) -> Result<Tensor<T, E, S, Compressed<T, I>>, SparseError>
    where
        S: Layout<E2>,
    {
        same_dims(op_name, &self.dims(), &rhs.dims())?;
        let converted;
        let (bp, bi, bv) = if S2::REVERSED == S::REVERSED {
            (rhs.indptr(), rhs.indices(), rhs.values())
        } else {
            converted = rhs.try_to_compressed::<S, I>()?;
            (converted.indptr(), converted.indices(), converted.values())
        };
        let (ap, ai, av) = (self.indptr(), self.indices(), self.values());
        let mut indptr = Vec::with_capacity(ap.len());
        let (mut indices, mut values) = (Vec::new(), Vec::new());
        indptr.push(I::default());
        for lane in 0..ap.len() - 1 {
            let (ra, rb) = (ap[lane].index()..ap[lane + 1].index(), bp[lane].index()..bp[lane + 1].index());
            let (ia, ib) = (&ai[ra.clone()], &bi[rb.clone()]);
            let (va, vb) = (&av[ra], &bv[rb]);
            merge(
                ia.len(),
                ib.len(),
                |i, j| ia[i].cmp(&ib[j]),
                |side| {
                    if let Some(y) = one_sided(&op, side, va, vb, union).filter(|y| !y.is_zero()) {
                        indices.push(match side {
                            Side::Left(i) | Side::Both(i, _) => ia[i],
                            Side::Right(j) => ib[j],
                        });
                        values.push(y);
                    }
                },
            );
            crate::storage::sparse::validate_fits::<I>("nnz", values.len())?;
            indptr.push(I::from_usize(values.len()).unwrap_or_default());
        }
        // SAFETY: merging two sorted lanes gives a sorted lane of indices from either one,
        // both valid for this shape; `nnz` was checked to fit `I`.
        Ok(unsafe {
            Tensor::<T, E, S, Compressed<T, I>>::new_unchecked(self.extents().clone(), indptr, indices, values)
        })
    }

    /// `self + rhs`; `Err` when dynamic extents differ.
    pub fn try_sparse_add<E2: Rank2, S2: SparseOrder + Layout<E2>, A2: Arrays<T, I>>(
        &self,
        rhs: &Tensor<T, E2, S2, CompressedBase<T, I, A2>>,
    ) -> Result<Tensor<T, E, S, Compressed<T, I>>, SparseError>
    where
        E: SameShape<E2>,
        S: Layout<E2>,
    {
        self.combine("sparse_add", rhs, true, |a, b| a + b)
    }
    /// Sum of two sparse matrices (CSR and CSC may be mixed; the result takes this one's
    /// policy).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let a = tensor![[1, 0], [0, 2]].to_csr();
    /// let b = tensor![[0, 5], [0, -2]].to_csc();
    /// let c = a.sparse_add(&b);
    /// assert_eq!(c.to_dense().to_vec(), [1, 5, 0, 0]);
    /// assert_eq!(c.nnz(), 2); // 2 + (-2) is not stored
    /// ```
    #[track_caller]
    pub fn sparse_add<E2: Rank2, S2: SparseOrder + Layout<E2>, A2: Arrays<T, I>>(
        &self,
        rhs: &Tensor<T, E2, S2, CompressedBase<T, I, A2>>,
    ) -> Tensor<T, E, S, Compressed<T, I>>
    where
        E: SameShape<E2>,
        S: Layout<E2>,
    {
        or_panic(self.try_sparse_add(rhs))
    }
    /// Elementwise product; `Err` when dynamic extents differ.
    pub fn try_sparse_mul<E2: Rank2, S2: SparseOrder + Layout<E2>, A2: Arrays<T, I>>(
        &self,
        rhs: &Tensor<T, E2, S2, CompressedBase<T, I, A2>>,
    ) -> Result<Tensor<T, E, S, Compressed<T, I>>, SparseError>
    where
        E: SameShape<E2>,
        S: Layout<E2>,
    {
        self.combine("sparse_mul", rhs, false, |a, b| a * b)
    }
    /// Elementwise (Hadamard) product: stored only where both operands store an entry.
    #[track_caller]
    pub fn sparse_mul<E2: Rank2, S2: SparseOrder + Layout<E2>, A2: Arrays<T, I>>(
        &self,
        rhs: &Tensor<T, E2, S2, CompressedBase<T, I, A2>>,
    ) -> Tensor<T, E, S, Compressed<T, I>>
    where
        E: SameShape<E2>,
        S: Layout<E2>,
    {
        or_panic(self.try_sparse_mul(rhs))
    }
}

/// # Sparse: elementwise
impl<T: SparseElem, E: Extents, S: SparseOrder + Layout<E>, I: SparseIndex> Tensor<T, E, S, Coo<T, I>> {
    fn filter_values<U: SparseElem>(&self, f: impl Fn(T) -> U) -> Tensor<U, E, S, Coo<U, I>> {
        let (mut coords, mut values) = (Vec::new(), Vec::new());
        for (c, &v) in self.entries() {
            let y = f(v);
            if !y.is_zero() {
                coords.extend_from_slice(c);
                values.push(y);
            }
        }
        // SAFETY: a subsequence of the entries of a valid tensor of the same shape.
        unsafe { Tensor::<U, E, S, Coo<U, I>>::new_unchecked(self.extents().clone(), coords, values) }
    }

    /// `alpha · self` (entries that become zero are dropped).
    pub fn scale(&self, alpha: T) -> Tensor<T, E, S, Coo<T, I>> {
        self.filter_values(|v| v * alpha)
    }
    /// `f` of every stored value, keeping the sparsity; `Err(SparseError::NotZeroPreserving)`
    /// when `f(0) != 0` (the result would be dense: map `to_dense()` instead).
    pub fn try_sparse_map<U: SparseElem>(&self, f: impl Fn(T) -> U) -> Result<Tensor<U, E, S, Coo<U, I>>, SparseError> {
        if !f(T::zero()).is_zero() {
            return Err(SparseError::NotZeroPreserving);
        }
        Ok(self.filter_values(f))
    }
    /// `f` of every stored value, keeping the sparsity; panics when `f(0) != 0`.
    #[track_caller]
    pub fn sparse_map<U: SparseElem>(&self, f: impl Fn(T) -> U) -> Tensor<U, E, S, Coo<U, I>> {
        or_panic(self.try_sparse_map(f))
    }

    fn combine<E2: Extents, S2: SparseOrder + Layout<E2>>(
        &self,
        op_name: &'static str,
        rhs: &Tensor<T, E2, S2, Coo<T, I>>,
        union: bool,
        op: impl Fn(T, T) -> T,
    ) -> Result<Tensor<T, E, S, Coo<T, I>>, SparseError>
    where
        S: Layout<E2>,
    {
        same_dims(op_name, self.dims().as_ref(), rhs.dims().as_ref())?;
        let rank = self.rank();
        let (bc, bv) = if S2::REVERSED == S::REVERSED {
            (Cow::Borrowed(rhs.coords()), Cow::Borrowed(rhs.values()))
        } else {
            let (c, v) = rhs.try_to_coo::<S, I>()?.into_parts();
            (Cow::Owned(c), Cow::Owned(v))
        };
        let (ac, av) = (self.coords(), self.values());
        let (mut coords, mut values) = (Vec::new(), Vec::new());
        let coord = |c: &[I], e: usize| -> Vec<I> { c[e * rank..(e + 1) * rank].to_vec() };
        merge(
            av.len(),
            bv.len(),
            |i, j| compare_coords(&ac[i * rank..(i + 1) * rank], &bc[j * rank..(j + 1) * rank], S::REVERSED),
            |side| {
                if let Some(y) = one_sided(&op, side, av, &bv, union).filter(|y| !y.is_zero()) {
                    coords.extend(match side {
                        Side::Left(i) | Side::Both(i, _) => coord(ac, i),
                        Side::Right(j) => coord(&bc, j),
                    });
                    values.push(y);
                }
            },
        );
        crate::storage::sparse::validate_fits::<I>("nnz", values.len())?;
        // SAFETY: merging two sorted entry lists gives a sorted list of valid coordinates.
        Ok(unsafe { Tensor::<T, E, S, Coo<T, I>>::new_unchecked(self.extents().clone(), coords, values) })
    }

    /// `self + rhs`; `Err` when dynamic extents differ.
    pub fn try_sparse_add<E2: Extents, S2: SparseOrder + Layout<E2>>(
        &self,
        rhs: &Tensor<T, E2, S2, Coo<T, I>>,
    ) -> Result<Tensor<T, E, S, Coo<T, I>>, SparseError>
    where
        E: SameShape<E2>,
        S: Layout<E2>,
    {
        self.combine("sparse_add", rhs, true, |a, b| a + b)
    }
    /// Sum of two COO tensors (the result takes this one's order).
    #[track_caller]
    pub fn sparse_add<E2: Extents, S2: SparseOrder + Layout<E2>>(
        &self,
        rhs: &Tensor<T, E2, S2, Coo<T, I>>,
    ) -> Tensor<T, E, S, Coo<T, I>>
    where
        E: SameShape<E2>,
        S: Layout<E2>,
    {
        or_panic(self.try_sparse_add(rhs))
    }
    /// Elementwise product; `Err` when dynamic extents differ.
    pub fn try_sparse_mul<E2: Extents, S2: SparseOrder + Layout<E2>>(
        &self,
        rhs: &Tensor<T, E2, S2, Coo<T, I>>,
    ) -> Result<Tensor<T, E, S, Coo<T, I>>, SparseError>
    where
        E: SameShape<E2>,
        S: Layout<E2>,
    {
        self.combine("sparse_mul", rhs, false, |a, b| a * b)
    }
    /// Elementwise (Hadamard) product of two COO tensors.
    #[track_caller]
    pub fn sparse_mul<E2: Extents, S2: SparseOrder + Layout<E2>>(
        &self,
        rhs: &Tensor<T, E2, S2, Coo<T, I>>,
    ) -> Tensor<T, E, S, Coo<T, I>>
    where
        E: SameShape<E2>,
        S: Layout<E2>,
    {
        or_panic(self.try_sparse_mul(rhs))
    }
}
