//! Comparisons and `select` in fused device expressions: `a.gt(&b)` is the host's
//! comparison node (`Binary<_, _, GtOp>`, a `bool` expression), emitted as a C condition;
//! the host's [`select`](crate::ops::select) (`mask ? a : b`, numpy's `where`, the same
//! function and node) is emitted as C's `?:`, so the whole tree stays one kernel. Device tensors hold floats only, so a
//! condition is used inside `select` rather than evaluated on its own.

use super::kernel::{Args, DeviceExpr, Gen};
use super::storage::DeviceElem;
use crate::layout::ResultOrder;
use crate::ops::{Binary, EqOp, ExprShape, GeOp, GtOp, LeOp, LtOp, NeOp, PairOp, PickOp};

/// A `bool` expression the fused kernel can compute: a comparison of two device
/// expressions of element type [`DeviceCond::Item`].
pub trait DeviceCond: ExprShape<Elem = bool> {
    /// The element type of the operands compared.
    type Item: DeviceElem;
    /// The order its operands vote for ([`DeviceExpr::Order`]).
    type Order: ResultOrder;
    /// The C condition computing this node at the current element.
    #[doc(hidden)]
    fn emit(g: &mut Gen) -> String;
    /// Pushes the operands' leaves and parameters in [`DeviceCond::emit`]'s order.
    #[doc(hidden)]
    fn collect<'s>(&'s self, args: &mut Args<'s, Self::Item>);
}

macro_rules! device_compare {
    ($(($Op:ty, $c:literal)),*) => {$(
        impl<L: DeviceExpr, R: DeviceExpr<Item = L::Item>> DeviceCond for Binary<L, R, $Op>
        where
            Binary<L, R, $Op>: ExprShape<Elem = bool>,
        {
            type Item = L::Item;
            type Order = <L::Order as ResultOrder>::Then<R::Order>;
            fn emit(g: &mut Gen) -> String {
                let l = L::emit(g);
                let r = R::emit(g);
                // C's comparisons are IEEE's, as Rust's `PartialOrd`: false with a NaN
                // operand, except `!=`.
                format!(concat!("({} ", $c, " {})"), l, r)
            }
            fn collect<'s>(&'s self, args: &mut Args<'s, L::Item>) {
                self.lhs.collect(args);
                self.rhs.collect(args);
            }
        }
    )*};
}
device_compare!((GtOp, ">"), (GeOp, ">="), (LtOp, "<"), (LeOp, "<="), (EqOp, "=="), (NeOp, "!="));

impl<M, A, B> DeviceExpr for Binary<M, Binary<A, B, PairOp>, PickOp>
where
    M: DeviceCond<Item = A::Item>,
    A: DeviceExpr,
    B: DeviceExpr<Item = A::Item>,
    Binary<M, Binary<A, B, PairOp>, PickOp>: ExprShape<Elem = A::Item>,
{
    type Item = A::Item;
    type Order = <M::Order as ResultOrder>::Then<<A::Order as ResultOrder>::Then<B::Order>>;
    fn emit(g: &mut Gen) -> String {
        let m = M::emit(g);
        let a = A::emit(g);
        let b = B::emit(g);
        format!("({m} ? {a} : {b})")
    }
    fn collect<'s>(&'s self, args: &mut Args<'s, A::Item>) {
        self.lhs.collect(args);
        self.rhs.lhs.collect(args);
        self.rhs.rhs.collect(args);
    }
}
