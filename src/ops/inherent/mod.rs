//! Inherent methods on dense tensors for everything the prelude traits offer, so the
//! `Tensor` page lists every dense method, grouped by purpose, with no import needed.
//!
//! [`Reductions`](super::Reductions), [`AxisReductions`](super::AxisReductions) and
//! [`ElementwiseExt`](super::ElementwiseExt) are implemented for every [`Expr`](super::Expr)
//! (fused expressions too), and rustdoc lists such blanket impls far down the page, where a
//! user looking for `mean` does not find them. Each method here forwards through the
//! borrowed tensor (`&Tensor` is an `Expr` for dense storage) with the trait method's own
//! bounds: the same code runs, and the trait stays the way to write code generic over
//! expressions. `sum` and `sum_axis` serve every storage and live in
//! [`sum_storage`](super::sum_storage).

mod elementwise;

mod whole;

mod axis;
