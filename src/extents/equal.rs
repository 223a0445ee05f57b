//! Equality rules between two axes, one trait per operation so that a mistake's headline
//! names the operation the user called (`dot: vector lengths …`, `tensordot: …`).
//!
//! Equality needs no typenum: `Const<N>` matches `Const<N>` for a generic `N`, so these
//! rules hold in generic user code with no bound, and every [`Dim`](super::Dim) has each of
//! them with itself as a supertrait.

use super::{Const, Dyn, Extents, One};
// For the [`Dim`] links in the rules' docs: a path written in the link would change the
// macro invocation that compile errors quote (and the ui tests' expected output).
#[cfg(doc)]
use super::Dim;

/// What an equality rule's `Ok` type is: a result type written as
/// `<<K as SameDim<K2>>::Ok as Verdict>::Then<X>` is `X` when the rule holds and does not
/// exist when it fails, so rustc reports the rule alone instead of going on with a result
/// computed from mismatched operands (a cascade of errors about the wrong extents).
#[doc(hidden)]
pub trait Verdict {
    /// `X` itself.
    type Then<X: Extents>: Extents;
}
/// The one [`Verdict`]: the rule holds.
#[doc(hidden)]
pub struct Holds;
impl Verdict for Holds {
    type Then<X: Extents> = X;
}

/// Defines an equality rule between two axes, with the headline of the operation that
/// needs it: `Const<N>` with `Const<N>` (for a generic `N` too: no typenum), anything with
/// `Dyn` (checked at run time), and [`One`] with 1. Each operation has its own trait so
/// that a mistake names the operation the user called.
macro_rules! equal_dims_rule {
    ($(#[$doc:meta])* $name:ident, $message:tt, $label:tt) => {
        $(#[$doc])*
        #[diagnostic::on_unimplemented(message = $message, label = $label)]
        pub trait $name<Rhs> {
            /// [`Holds`], reachable only through the rule (see [`Verdict`]).
            type Ok: Verdict;
        }
        impl<const N: usize> $name<Const<N>> for Const<N> { type Ok = Holds; }
        impl<const N: usize> $name<Dyn> for Const<N> { type Ok = Holds; }
        impl<const N: usize> $name<Const<N>> for Dyn { type Ok = Holds; }
        impl $name<Dyn> for Dyn { type Ok = Holds; }
        impl $name<One> for One { type Ok = Holds; }
        impl $name<Dyn> for One { type Ok = Holds; }
        impl $name<One> for Dyn { type Ok = Holds; }
        impl $name<Const<1>> for One { type Ok = Holds; }
        impl $name<One> for Const<1> { type Ok = Holds; }
    };
}

equal_dims_rule!(
    /// The inner dimensions of a matrix product agree.
    ///
    /// Every [`Dim`] matches itself (a supertrait of `Dim`), so `a.t().matmul(&a)` over
    /// generic dims needs no bound.
    SameDim,
    "matmul: inner dimensions `{Self}` and `{Rhs}` differ",
    "the left operand's last axis must match the right operand's contracted axis"
);
equal_dims_rule!(
    /// The two vectors of a dot product have the same length.
    DotDim,
    "dot: vector lengths `{Self}` and `{Rhs}` differ",
    "both vectors must have the same length"
);
equal_dims_rule!(
    /// The paired axes of a tensordot have the same extent.
    TensordotDim,
    "tensordot: paired axes of extents `{Self}` and `{Rhs}` differ",
    "each contracted axis of the left operand must match its partner in the right operand"
);
equal_dims_rule!(
    /// A band matrix and the vectors of its product agree.
    BandDim,
    "band matvec: extents `{Self}` and `{Rhs}` differ",
    "`x` needs one entry per column of the band matrix, and the output `y` one per row"
);
equal_dims_rule!(
    /// The operands of an elementwise operation on sparse tensors have the same extent.
    SameExtent,
    "sparse elementwise operation: extents `{Self}` and `{Rhs}` differ",
    "both operands must have the same extents on every axis"
);
equal_dims_rule!(
    /// A sparse matrix and the dense operand or output of its product agree.
    SparseProductDim,
    "sparse product: extents `{Self}` and `{Rhs}` differ",
    "the dense operand needs one row per column of the sparse matrix, and the output one row per row"
);

equal_dims_rule!(
    /// A dense matrix has the extents of the band matrix built from it.
    BandFromDenseDim,
    "band from_dense: extents `{Self}` and `{Rhs}` differ",
    "the dense matrix must have the band matrix's extents"
);
equal_dims_rule!(
    /// A band system is square and its right-hand side has the matrix's order.
    BandSolveDim,
    "band solve: extents `{Self}` and `{Rhs}` differ",
    "the matrix must be square and the right-hand side as long as its order"
);
equal_dims_rule!(
    /// One axis of the output of `matmul_into` holds the product's axis.
    OutputDim,
    "matmul_into: an output axis of extent `{Self}` cannot hold the product's axis of extent `{Rhs}`",
    "the output must have the product's extents"
);
