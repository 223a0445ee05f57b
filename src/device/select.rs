//! Comparisons and `select` in fused device expressions: `a.gt(&b)` is the host's
//! comparison node (`Binary<_, _, GtOp>`, a `bool` expression), emitted as a C condition;
//! [`select`] is the host's `select` node (`mask ? a : b`, numpy's `where`), emitted as
//! C's `?:`, so the whole tree stays one kernel. Device tensors hold floats only, so a
//! condition is used inside `select` rather than evaluated on its own.

use super::kernel::{Args, DeviceExpr, Gen};
use super::storage::DeviceElem;
use crate::extents::{BroadcastWith, CanBroadcast};
use crate::layout::ResultOrder;
use crate::ops::{Binary, EqOp, ExprShape, GeOp, GtOp, IntoExpr, LeOp, LtOp, NeOp, PairOp, PickOp};

/// A `bool` expression the fused kernel can compute: a comparison of two device
/// expressions of element type [`DeviceCond::Item`].
pub trait DeviceCond: ExprShape<Elem = bool> {
    /// The element type of the operands compared.
    type Item: DeviceElem;
    /// The order its operands vote for ([`DeviceExpr::Order`]).
    type Order: ResultOrder;
    /// The C condition computing this node at the current element.
    fn emit(g: &mut Gen) -> String;
    /// Pushes the operands' leaves and parameters in [`DeviceCond::emit`]'s order.
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

/// `mask ? a : b` elementwise on the device, with broadcasting among the three (numpy's
/// `where`): the host's [`select`](crate::ops::select) node, with the same static shape
/// rules, for device expressions. Lazy: evaluate with
/// [`eval_on`](super::DeviceEval::eval_on) or [`device_assign`](crate::Tensor::device_assign).
///
/// ```no_run
/// use mdtensor::device::{select, Device, DeviceEval, DeviceMath};
/// use mdtensor::tensor;
/// let dev = Device::new(0)?;
/// let x = tensor![-1.0f32, 3.0, -2.0].to_device(&dev)?;
/// let y = select(x.gt(0.0f32), &x, 0.0f32).eval_on(&dev)?; // one kernel
/// assert_eq!(y.to_host()?.to_vec(), [0.0, 3.0, 0.0]);
/// # Ok::<(), mdtensor::Error>(())
/// ```
#[allow(clippy::type_complexity)]
pub fn select<M, A, B, T>(mask: M, a: A, b: B) -> Binary<M::Expr, Binary<A::Expr, B::Expr, PairOp>, PickOp>
where
    M: IntoExpr,
    M::Expr: DeviceCond<Item = T>,
    A: IntoExpr,
    A::Expr: DeviceExpr<Item = T>,
    B: IntoExpr,
    B::Expr: DeviceExpr<Item = T>,
    T: DeviceElem,
    // The host's shape rules at the call, so a mismatch is reported here.
    <A::Expr as ExprShape>::Extents: CanBroadcast<<B::Expr as ExprShape>::Extents>,
    <M::Expr as ExprShape>::Extents:
        CanBroadcast<<<A::Expr as ExprShape>::Extents as BroadcastWith<<B::Expr as ExprShape>::Extents>>::Broadcast>,
{
    Binary::new(mask.into_expr(), Binary::new(a.into_expr(), b.into_expr(), PairOp), PickOp)
}
