//! The rule of a label in the [`einsum!`](crate::einsum!) macro: every axis a label names
//! has one extent. Static extents must be equal (a compile error otherwise); a dynamic
//! extent is checked at run time; [`One`] broadcasts against any extent, as numpy's size-1
//! axes do. The label's extent in the result ([`EinsumMerge`]) is the most static of its
//! axes.

use super::{Const, Dyn, One};

/// Two axes named by one einsum label agree.
#[diagnostic::on_unimplemented(
    message = "einsum!: one label names axes of extents `{Self}` and `{Rhs}`",
    label = "this label's axes differ",
    note = "every axis a label names must have the same extent (or be a broadcast axis `1`)"
)]
pub trait EinsumDim<Rhs> {}
#[diagnostic::do_not_recommend]
impl<const N: usize> EinsumDim<Const<N>> for Const<N> {}
#[diagnostic::do_not_recommend]
impl<const N: usize> EinsumDim<Dyn> for Const<N> {}
#[diagnostic::do_not_recommend]
impl<const N: usize> EinsumDim<Const<N>> for Dyn {}
#[diagnostic::do_not_recommend]
impl EinsumDim<Dyn> for Dyn {}
#[diagnostic::do_not_recommend]
impl<const N: usize> EinsumDim<Const<N>> for One {}
#[diagnostic::do_not_recommend]
impl<const N: usize> EinsumDim<One> for Const<N> {}
#[diagnostic::do_not_recommend]
impl EinsumDim<Dyn> for One {}
#[diagnostic::do_not_recommend]
impl EinsumDim<One> for Dyn {}
#[diagnostic::do_not_recommend]
impl EinsumDim<One> for One {}

/// The extent of a label after it meets one more axis: the static one where either is
/// static (a broadcast `1` yields to the other). Defined for every pair, so that a
/// mismatch is reported once, by [`EinsumDim`].
#[doc(hidden)]
pub trait EinsumMerge<Rhs> {
    /// The label's extent.
    type Out;
}
impl<const N: usize, const M: usize> EinsumMerge<Const<M>> for Const<N> {
    type Out = Const<N>;
}
impl<const N: usize> EinsumMerge<Dyn> for Const<N> {
    type Out = Const<N>;
}
impl<const N: usize> EinsumMerge<Const<N>> for Dyn {
    type Out = Const<N>;
}
impl EinsumMerge<Dyn> for Dyn {
    type Out = Dyn;
}
impl<const N: usize> EinsumMerge<Const<N>> for One {
    type Out = Const<N>;
}
impl<const N: usize> EinsumMerge<One> for Const<N> {
    type Out = Const<N>;
}
impl EinsumMerge<Dyn> for One {
    type Out = Dyn;
}
impl EinsumMerge<One> for Dyn {
    type Out = Dyn;
}
impl EinsumMerge<One> for One {
    type Out = One;
}
