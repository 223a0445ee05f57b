//! The same-shape rule of elementwise operations on sparse tensors, as bounds: static
//! extents that differ do not compile; dynamic ones are checked at run time.

use crate::extents::{Dim, DynRank, Extents};

pub use crate::extents::SameExtent;

/// Two extents that may describe the same shape: same rank, [`SameExtent`] on every axis.
#[diagnostic::on_unimplemented(
    message = "sparse elementwise operation: extents `{Self}` and `{Rhs}` differ",
    label = "both operands must have the same shape"
)]
pub trait SameShape<Rhs: Extents>: Extents {}

macro_rules! same_shape {
    ($($A:ident $B:ident),*) => {
        // Reported as a whole (both extents), not once per differing axis.
        #[diagnostic::do_not_recommend]
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
