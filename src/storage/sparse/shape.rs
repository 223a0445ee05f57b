//! The same-shape rule of elementwise operations on sparse tensors, as bounds: static
//! extents that differ do not compile; dynamic ones are checked at run time.

use crate::extents::{Const, Dim, Dyn, DynRank, Extents};

/// One axis of two operands that may have the same extent.
#[diagnostic::on_unimplemented(
    message = "sparse elementwise operation: extents `{Self}` and `{Rhs}` differ",
    label = "both operands must have the same extents on every axis"
)]
pub trait SameExtent<Rhs: Dim>: Dim {}
impl<const N: usize> SameExtent<Const<N>> for Const<N> {}
impl<const N: usize> SameExtent<Dyn> for Const<N> {}
impl<const N: usize> SameExtent<Const<N>> for Dyn {}
impl SameExtent<Dyn> for Dyn {}

/// Two extents that may describe the same shape: same rank, [`SameExtent`] on every axis.
#[diagnostic::on_unimplemented(
    message = "sparse elementwise operation: extents `{Self}` and `{Rhs}` have different ranks",
    label = "both operands must have the same shape"
)]
pub trait SameShape<Rhs: Extents>: Extents {}

macro_rules! same_shape {
    ($($A:ident $B:ident),*) => {
        impl<$($A: Dim + SameExtent<$B>, $B: Dim),*> SameShape<($($B,)*)> for ($($A,)*) {}
    };
}
same_shape!();
same_shape!(A0 B0);
same_shape!(A0 B0, A1 B1);
same_shape!(A0 B0, A1 B1, A2 B2);
same_shape!(A0 B0, A1 B1, A2 B2, A3 B3);
same_shape!(A0 B0, A1 B1, A2 B2, A3 B3, A4 B4);
same_shape!(A0 B0, A1 B1, A2 B2, A3 B3, A4 B4, A5 B5);
impl SameShape<DynRank> for DynRank {}
