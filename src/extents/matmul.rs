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
//!
//! Static inner dimensions that differ do not compile ([`SameDim`]); dynamic ones are
//! checked at run time.

use super::{CanBroadcastDim, Const, Dim, DimBroadcast, DotDim, Dyn, Extents, SameDim};

/// Two vectors whose lengths may agree: the operands of a dot product.
#[diagnostic::on_unimplemented(
    message = "dot: extents `{Self}` and `{Rhs}` are not two vectors",
    label = "`dot` takes two rank-1 tensors; use `matmul` for matrices"
)]
pub trait DotShape<Rhs: Extents>: Extents {}
impl<K: Dim, K2: Dim> DotShape<(K2,)> for (K,) where K: DotDim<K2> {}

/// The length of an operand of a 3-D cross product: `Const<3>`, or `Dyn` (checked at run
/// time).
#[diagnostic::on_unimplemented(
    message = "cross: a vector of length `{Self}` has no cross product",
    label = "the cross product takes two vectors of length 3"
)]
pub trait CrossDim: Dim {}
impl CrossDim for Const<3> {}
impl CrossDim for Dyn {}

/// Extents `Self` (left operand) and `Rhs` (right operand) can be multiplied.
#[diagnostic::on_unimplemented(
    message = "matmul: extents `{Self}` and `{Rhs}` cannot be multiplied",
    label = "operands must be vectors, matrices, or batches of matrices (rank 1 to 3)"
)]
pub trait MatMulShape<Rhs: Extents>: Extents {
    /// Extents of the product.
    type Output: Extents;
    /// Whether the left operand is a vector (a single row) and the right one a vector
    /// (a single column): they lose their axis in the result.
    const VECTORS: (bool, bool);
}

impl<M: Dim, K: Dim, K2: Dim, N: Dim> MatMulShape<(K2, N)> for (M, K)
where
    K: SameDim<K2>,
{
    type Output = (M, N);
    const VECTORS: (bool, bool) = (false, false);
}
impl<M: Dim, K: Dim, K2: Dim> MatMulShape<(K2,)> for (M, K)
where
    K: SameDim<K2>,
{
    type Output = (M,);
    const VECTORS: (bool, bool) = (false, true);
}
impl<K: Dim, K2: Dim, N: Dim> MatMulShape<(K2, N)> for (K,)
where
    K: SameDim<K2>,
{
    type Output = (N,);
    const VECTORS: (bool, bool) = (true, false);
}
impl<K: Dim, K2: Dim> MatMulShape<(K2,)> for (K,)
where
    K: SameDim<K2>,
{
    type Output = ();
    const VECTORS: (bool, bool) = (true, true);
}
impl<B: Dim, M: Dim, K: Dim, B2: Dim, K2: Dim, N: Dim> MatMulShape<(B2, K2, N)> for (B, M, K)
where
    K: SameDim<K2>,
    B: CanBroadcastDim<B2> + DimBroadcast<B2>,
{
    type Output = (<B as DimBroadcast<B2>>::Broadcast, M, N);
    const VECTORS: (bool, bool) = (false, false);
}
impl<B: Dim, M: Dim, K: Dim, K2: Dim, N: Dim> MatMulShape<(K2, N)> for (B, M, K)
where
    K: SameDim<K2>,
{
    type Output = (B, M, N);
    const VECTORS: (bool, bool) = (false, false);
}
impl<M: Dim, K: Dim, B: Dim, K2: Dim, N: Dim> MatMulShape<(B, K2, N)> for (M, K)
where
    K: SameDim<K2>,
{
    type Output = (B, M, N);
    const VECTORS: (bool, bool) = (false, false);
}

/// No impls: the bound of the unsupported-rank impls below, which exist only so that
/// method lookup (which does not know the right operand yet) finds `matmul`, and the error
/// is then reported on [`MatMulShape`]. `Rhs` is the `Self` type so that the bound stays
/// undecided while the right operand is unknown.
///
/// Private (unnameable outside the crate), so that no impl can ever satisfy the bound: the
/// kernels handle ranks 1 to 3 only.
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
            type Output = ();
            const VECTORS: (bool, bool) = (false, false);
        }
    };
}
unsupported_rank!();
unsupported_rank!(A B C D);
unsupported_rank!(A B C D F);
unsupported_rank!(A B C D F G);
