//! The shape rule of matrix products, written once on extents: which operand ranks
//! combine, the result's extents, and the inner dimensions that must agree.
//!
//! | left | right | result |
//! |---|---|---|
//! | `(M, K)` | `(K, N)` | `(M, N)` |
//! | `(M, K)` | `(K,)` | `(M,)` |
//! | `(K,)` | `(K, N)` | `(N,)` |
//! | `(K,)` | `(K,)` | `()` (dot product) |
//! | `(B, M, K)` | `(B, K, N)` | `(B, M, N)`, batch axes broadcast |
//! | `(B, M, K)` | `(K, N)` | `(B, M, N)` |
//! | `(M, K)` | `(B, K, N)` | `(B, M, N)` |
//! | `(B, M, K)` | `(K,)` | `(B, M)` (batched matrix·vector) |
//! | `(K,)` | `(B, K, N)` | `(B, N)` (batched vector·matrix) |
//! | `(B1, B2, M, K)` | `(C1, C2, K, N)` | `(B1∘C1, B2∘C2, M, N)`, and ranks 4 with 1, 2 or 3 |
//! | [`DynRank`] with anything | | [`DynRank`]: any number of batch axes |
//!
//! This is numpy's `matmul` rule: a vector operand is promoted to a matrix (a row on the
//! left, a column on the right) and its axis removed from the result; the axes before the
//! last two are batch axes, aligned from the right and broadcast (`∘`). Tuple extents
//! cover ranks 1 to 4; an operand of rank 5 or 6 goes through [`DynRank`]
//! (`t.into_dyn()`), where the rule is checked at run time for any rank.
//!
//! Static inner dimensions that differ do not compile ([`SameDim`]); dynamic ones are
//! checked at run time by [`matmul_dims`], the one run-time form of the rule, which every
//! extents case uses.

use super::{
    broadcast_shapes, BandDim, BandFromDenseDim, Const, Dim, DimBroadcast, DotDim, Dyn, DynRank, Extents, OutputDim,
    SameDim, SparseProductDim,
};
use crate::error::ShapeError;

/// Two vectors whose lengths may agree: the operands of a dot product.
#[diagnostic::on_unimplemented(
    message = "dot: extents `{Self}` and `{Rhs}` are not two vectors",
    label = "`dot` takes two rank-1 tensors; use `matmul` for matrices"
)]
pub trait DotShape<Rhs: Extents>: Extents {}
impl<K: Dim, K2: Dim> DotShape<(K2,)> for (K,) where K: DotDim<K2> {}
/// With [`DynRank`], both operands must have rank 1 at run time.
impl DotShape<DynRank> for DynRank {}
impl<K: Dim> DotShape<(K,)> for DynRank {}
impl<K: Dim> DotShape<DynRank> for (K,) {}

/// The length of an operand of a 3-D cross product: `Const<3>`, or `Dyn` (checked at run
/// time).
#[diagnostic::on_unimplemented(
    message = "cross: a vector of length `{Self}` has no cross product",
    label = "the cross product takes two vectors of length 3"
)]
pub trait CrossDim: Dim {}
impl CrossDim for Const<3> {}
impl CrossDim for Dyn {}

/// The sizes of a matrix product, from [`matmul_dims`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatMulDims {
    /// The broadcast batch extents (empty for a single product).
    pub batch: Vec<usize>,
    /// Rows of each product (1 when the left operand is a vector).
    pub m: usize,
    /// The contracted extent.
    pub k: usize,
    /// Columns of each product (1 when the right operand is a vector).
    pub n: usize,
    /// Whether the left operand is a vector (its axis is not in the result).
    pub lhs_vector: bool,
    /// Whether the right operand is a vector (its axis is not in the result).
    pub rhs_vector: bool,
}

impl MatMulDims {
    /// The result's extents: `batch`, then `m` unless the left operand is a vector, then
    /// `n` unless the right operand is a vector.
    pub fn out(&self) -> Vec<usize> {
        self.with_out(<[usize]>::to_vec)
    }

    /// Calls `f` with the result's extents, from a stack buffer when they fit (products of
    /// matrices and vectors with up to 6 batch axes allocate nothing here).
    pub fn with_out<R>(&self, f: impl FnOnce(&[usize]) -> R) -> R {
        let tail = [(self.m, !self.lhs_vector), (self.n, !self.rhs_vector)];
        let tail = tail.iter().filter(|&&(_, keep)| keep).map(|&(d, _)| d);
        let len = self.batch.len() + usize::from(!self.lhs_vector) + usize::from(!self.rhs_vector);
        let mut buf = [0usize; 8];
        if len <= buf.len() {
            for (o, d) in buf.iter_mut().zip(self.batch.iter().copied().chain(tail)) {
                *o = d;
            }
            f(&buf[..len])
        } else {
            f(&self.batch.iter().copied().chain(tail).collect::<Vec<_>>())
        }
    }
}

/// numpy's `matmul` shape rule at run time, for operands of any rank ≥ 1: `Err` when an
/// operand is a scalar, when the inner extents differ, or when batch axes do not
/// broadcast.
///
/// ```
/// use mdtensor::extents::matmul_dims;
/// let d = matmul_dims(&[3, 3, 2, 4], &[3, 1, 4, 4]).unwrap();
/// assert_eq!(d.out(), [3, 3, 2, 4]);
/// assert_eq!(matmul_dims(&[5, 6, 3], &[3]).unwrap().out(), [5, 6]);
/// assert!(matmul_dims(&[2, 3], &[4, 2]).is_err());
/// ```
pub fn matmul_dims(lhs: &[usize], rhs: &[usize]) -> Result<MatMulDims, ShapeError> {
    let incompatible =
        |reason: String| ShapeError::Incompatible { op: "matmul", lhs: lhs.to_vec(), rhs: rhs.to_vec(), reason };
    let (ra, rb) = (lhs.len(), rhs.len());
    if ra == 0 || rb == 0 {
        return Err(incompatible("a scalar operand has no matrix product; multiply elementwise instead".into()));
    }
    let (m, k) = if ra == 1 { (1, lhs[0]) } else { (lhs[ra - 2], lhs[ra - 1]) };
    let (k2, n) = if rb == 1 { (rhs[0], 1) } else { (rhs[rb - 2], rhs[rb - 1]) };
    if k != k2 {
        return Err(incompatible(format!("inner dimensions {k} and {k2} differ")));
    }
    let batch = broadcast_shapes(&lhs[..ra.saturating_sub(2)], &rhs[..rb.saturating_sub(2)]).map_err(|e| match e {
        ShapeError::Incompatible { reason, .. } => incompatible(format!("batch axes: {reason}")),
        other => other,
    })?;
    Ok(MatMulDims { batch, m, k, n, lhs_vector: ra == 1, rhs_vector: rb == 1 })
}

/// Extents `Self` (left operand) and `Rhs` (right operand) can be multiplied.
#[diagnostic::on_unimplemented(
    message = "matmul: extents `{Self}` and `{Rhs}` cannot be multiplied",
    label = "operands must be vectors, matrices, or batches of matrices (rank 1 to 4; convert to DynRank with `into_dyn()` for more)"
)]
pub trait MatMulShape<Rhs: Extents>: Extents {
    /// Extents of the product.
    type Output: Extents;
}

macro_rules! matmul_impl {
    (<$($g:ident),*> ($($l:ident),*) @ ($($r:ident),*) => ($($o:ty),*); $($k:ident: $k2:ident)?) => {
        impl<$($g: Dim),*> MatMulShape<($($r,)*)> for ($($l,)*)
        where
            $($k: SameDim<$k2>,)?
        {
            type Output = ($($o,)*);
        }
    };
}
/// Batch axes of a matrix product broadcast together (numpy's rule, as
/// [`CanBroadcastDim`](super::CanBroadcastDim)), with the headline of `matmul`.
#[diagnostic::on_unimplemented(
    message = "matmul: batch axes of extents `{Self}` and `{Rhs}` do not broadcast",
    label = "batch axes must be equal, or one of them 1",
    note = "only an axis of type `One` (spelled `1` in `ext!`, made by `keepdims`, `unsqueeze` or `NewAxis`) stretches; a `Const<1>` from a const generic or an array length does not"
)]
pub trait MatmulBatchDim<Rhs>: DimBroadcast<Rhs> {}
#[diagnostic::do_not_recommend]
impl<A: DimBroadcast<B> + super::CanBroadcastDim<B>, B> MatmulBatchDim<B> for A {}

// The check is `MatmulBatchDim` (strict, with the message); this is the result axis.
type Bc<A, B> = <A as DimBroadcast<B>>::Broadcast;
matmul_impl!(<M, K, K2, N> (M, K) @ (K2, N) => (M, N); K: K2);
matmul_impl!(<M, K, K2> (M, K) @ (K2) => (M); K: K2);
matmul_impl!(<K, K2, N> (K) @ (K2, N) => (N); K: K2);
matmul_impl!(<K, K2> (K) @ (K2) => (); K: K2);
impl<B: Dim, M: Dim, K: Dim, B2: Dim, K2: Dim, N: Dim> MatMulShape<(B2, K2, N)> for (B, M, K)
where
    K: SameDim<K2>,
    B: MatmulBatchDim<B2>,
{
    type Output = (Bc<B, B2>, M, N);
}
matmul_impl!(<B, M, K, K2, N> (B, M, K) @ (K2, N) => (B, M, N); K: K2);
matmul_impl!(<M, K, B, K2, N> (M, K) @ (B, K2, N) => (B, M, N); K: K2);
matmul_impl!(<B, M, K, K2> (B, M, K) @ (K2) => (B, M); K: K2);
matmul_impl!(<K, B, K2, N> (K) @ (B, K2, N) => (B, N); K: K2);
impl<B1: Dim, B2: Dim, M: Dim, K: Dim, C1: Dim, C2: Dim, K2: Dim, N: Dim> MatMulShape<(C1, C2, K2, N)>
    for (B1, B2, M, K)
where
    K: SameDim<K2>,
    B1: MatmulBatchDim<C1>,
    B2: MatmulBatchDim<C2>,
{
    type Output = (Bc<B1, C1>, Bc<B2, C2>, M, N);
}
impl<B1: Dim, B2: Dim, M: Dim, K: Dim, C2: Dim, K2: Dim, N: Dim> MatMulShape<(C2, K2, N)> for (B1, B2, M, K)
where
    K: SameDim<K2>,
    B2: MatmulBatchDim<C2>,
{
    type Output = (B1, Bc<B2, C2>, M, N);
}
impl<B2: Dim, M: Dim, K: Dim, C1: Dim, C2: Dim, K2: Dim, N: Dim> MatMulShape<(C1, C2, K2, N)> for (B2, M, K)
where
    K: SameDim<K2>,
    B2: MatmulBatchDim<C2>,
{
    type Output = (C1, Bc<B2, C2>, M, N);
}
matmul_impl!(<B1, B2, M, K, K2, N> (B1, B2, M, K) @ (K2, N) => (B1, B2, M, N); K: K2);
matmul_impl!(<M, K, C1, C2, K2, N> (M, K) @ (C1, C2, K2, N) => (C1, C2, M, N); K: K2);
matmul_impl!(<B1, B2, M, K, K2> (B1, B2, M, K) @ (K2) => (B1, B2, M); K: K2);
matmul_impl!(<K, C1, C2, K2, N> (K) @ (C1, C2, K2, N) => (C1, C2, N); K: K2);

/// A [`DynRank`] operand makes the product [`DynRank`], checked at run time.
impl<Rhs: Extents> MatMulShape<Rhs> for DynRank {
    type Output = DynRank;
}
macro_rules! matmul_dyn_rhs {
    ($($D:ident)*) => {
        impl<$($D: Dim),*> MatMulShape<DynRank> for ($($D,)*) {
            type Output = DynRank;
        }
    };
}
matmul_dyn_rhs!();
matmul_dyn_rhs!(A);
matmul_dyn_rhs!(A B);
matmul_dyn_rhs!(A B C);
matmul_dyn_rhs!(A B C D);
matmul_dyn_rhs!(A B C D F);
matmul_dyn_rhs!(A B C D F G);

/// No impls: the bound of the rank-0, rank-5 and rank-6 impls below, which exist so that a tuple
/// right operand is not inferred to be [`DynRank`] (the only other impl) and the error is
/// reported on [`MatMulShape`] with its message. Private, so that no impl can ever
/// satisfy it.
mod unsupported {
    pub trait MatMulUnsupportedRank<Lhs> {}
}
use unsupported::MatMulUnsupportedRank;

macro_rules! unsupported_rank {
    ($($D:ident)*) => {
        #[diagnostic::do_not_recommend]
        impl<$($D: Dim,)* Rhs: Extents> MatMulShape<Rhs> for ($($D,)*)
        where
            Rhs: MatMulUnsupportedRank<($($D,)*)>,
        {
            type Output = DynRank;
        }
    };
}
unsupported_rank!();
unsupported_rank!(A B C D F);
unsupported_rank!(A B C D F G);

/// Extents `Self` of an output tensor can hold a result of extents `Out`: same rank and
/// [`SameDim`] on every axis (a [`DynRank`] side is checked at run time).
#[diagnostic::on_unimplemented(
    message = "matmul_into: an output of extents `{Self}` cannot hold a product of extents `{Out}`",
    label = "the output must have the product's extents"
)]
pub trait OutputFor<Out: Extents>: Extents {}

macro_rules! output_for {
    ($($A:ident $B:ident),*) => {
        // Reported as a whole (both extents), not once per differing axis.
        #[diagnostic::do_not_recommend]
        impl<$($A: Dim + OutputDim<$B>, $B: Dim),*> OutputFor<($($B,)*)> for ($($A,)*) {}
        impl<$($A: Dim),*> OutputFor<DynRank> for ($($A,)*) {}
        impl<$($A: Dim),*> OutputFor<($($A,)*)> for DynRank {}
    };
}
output_for!();
output_for!(A0 B0);
output_for!(A0 B0, A1 B1);
output_for!(A0 B0, A1 B1, A2 B2);
output_for!(A0 B0, A1 B1, A2 B2, A3 B3);
output_for!(A0 B0, A1 B1, A2 B2, A3 B3, A4 B4);
output_for!(A0 B0, A1 B1, A2 B2, A3 B3, A4 B4, A5 B5);
impl OutputFor<DynRank> for DynRank {}

/// The right operand of a sparse matrix·vector product whose matrix has `Cols` columns: a
/// vector `(K,)` whose static length agrees ([`SparseProductDim`]), or a [`DynRank`] tensor,
/// whose rank (1) and length are checked at run time.
pub trait VectorOf<Cols: Dim>: Extents {}
impl<K: Dim, C: Dim + SparseProductDim<K>> VectorOf<C> for (K,) {}
impl<C: Dim> VectorOf<C> for DynRank {}

/// The vector operand of a band matrix·vector product whose matrix has `Cols` columns: a
/// vector `(K,)` whose static length agrees ([`BandDim`]), or a [`DynRank`] tensor, whose
/// rank (1) and length are checked at run time.
pub trait BandVectorOf<Cols: Dim>: Extents {}
impl<K: Dim, C: Dim + BandDim<K>> BandVectorOf<C> for (K,) {}
impl<C: Dim> BandVectorOf<C> for DynRank {}

/// A dense matrix that may become a band matrix of extents `(M, N)`: `(M2, N2)` whose static
/// extents agree ([`BandFromDenseDim`]), or a [`DynRank`] tensor, whose rank (2) and
/// extents are checked at run time.
pub trait BandDenseOf<M: Dim, N: Dim>: Extents {}
impl<M2: Dim, N2: Dim, M: Dim + BandFromDenseDim<M2>, N: Dim + BandFromDenseDim<N2>> BandDenseOf<M, N> for (M2, N2) {}
impl<M: Dim, N: Dim> BandDenseOf<M, N> for DynRank {}

/// The right operand of a matrix·matrix product (sparse `matmat`) whose matrix has `Cols`
/// columns: a matrix `(K, N)` whose static row count agrees ([`SparseProductDim`]), or a
/// [`DynRank`] tensor, whose rank (2) and row count are checked at run time.
pub trait MatrixOf<Cols: Dim>: Extents {
    /// The columns of the operand (and of the product): `N`, or [`Dyn`] for [`DynRank`].
    type N: Dim;
}
impl<K: Dim, N: Dim, C: Dim + SparseProductDim<K>> MatrixOf<C> for (K, N) {
    type N = N;
}
impl<C: Dim> MatrixOf<C> for DynRank {
    type N = Dyn;
}
