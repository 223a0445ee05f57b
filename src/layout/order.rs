//! The order of a computed result: which dense order a new tensor made from operands
//! takes, decided in the types.
//!
//! numpy computes `a + b` in the operands' memory order (`order='K'`) and ndarray keeps a
//! column-major operand's order in `map`; a policy-based design can say it in the result's
//! type. Each stride policy states an [`ResultOrder`]: the dense orders vote for
//! themselves ([`RowMajor`], [`ColMajor`]), views with arbitrary strides abstain
//! ([`AnyOrder`]), as do scalars. An operation over several operands takes the order of
//! the first operand that votes ([`ResultOrder::Then`]); when none does, the result is
//! row-major.
//!
//! The order-following forms ask for it (`eval_in_order`, `mapv_in_order`,
//! `map_in_order`) and `matmul` uses [`ResultOrder::Both`]; `eval`, `mapv`, `map`,
//! `zip_with` and `clip` give row-major `Tensor<T, E>`, the type that code generic over
//! the stride policy can name (for a generic `S` the projection below stays opaque).

use super::{ColMajor, Layout, RowMajor};
use crate::extents::Extents;

/// The order a computed result takes, as a type: [`RowMajor`], [`ColMajor`], or
/// [`AnyOrder`] (no preference, which gives a row-major result).
///
/// ```
/// use mdtensor::{prelude::*, tensor, ColMajor, Tensor};
/// let a = tensor![[1.0, 2.0], [3.0, 4.0]];
/// // A transposed row-major matrix is a column-major view; what is computed from it is
/// // column-major too, written in its memory order.
/// let c: Tensor<f64, _, ColMajor> = (a.t() * 2.0).eval_in_order();
/// assert_eq!(c.to_vec(), [2.0, 6.0, 4.0, 8.0]);
/// assert_eq!(c.as_slice_memory_order(), Some(&[2.0, 4.0, 6.0, 8.0][..]));
/// // The first operand that has a dense order decides.
/// let d = (&a + a.t()).eval_in_order(); // row-major
/// assert!(d.is_standard_layout());
/// // `eval` is row-major whatever the operands.
/// assert!((a.t() * 2.0).eval().is_standard_layout());
/// ```
pub trait ResultOrder: 'static {
    /// This order, unless it abstains; then `B`'s.
    type Then<B: ResultOrder>: ResultOrder;
    /// This order if `B` has it too, otherwise no preference: the rule of products
    /// (`matmul`), whose result is column-major only when both operands are.
    type Both<B: ResultOrder>: ResultOrder;
    /// `ColMajor` if this is `ColMajor`, otherwise no preference (a step of `Both`).
    type MeetCol: ResultOrder;
    /// The stride policy of a new dense tensor of extents `E` in this order.
    type Dense<E: Extents>: Layout<E>;
}

/// No preference for an order: the vote of scalars and of views with arbitrary strides.
/// Alone it gives a row-major result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AnyOrder;

impl ResultOrder for RowMajor {
    type Then<B: ResultOrder> = RowMajor;
    type Both<B: ResultOrder> = AnyOrder;
    type MeetCol = AnyOrder;
    type Dense<E: Extents> = RowMajor;
}

impl ResultOrder for ColMajor {
    type Then<B: ResultOrder> = ColMajor;
    type Both<B: ResultOrder> = B::MeetCol;
    type MeetCol = ColMajor;
    type Dense<E: Extents> = ColMajor;
}

impl ResultOrder for AnyOrder {
    type Then<B: ResultOrder> = B;
    type Both<B: ResultOrder> = AnyOrder;
    type MeetCol = AnyOrder;
    type Dense<E: Extents> = RowMajor;
}

/// The stride policy of a dense result computed from operands whose orders are `O`.
pub type DenseOf<O, E> = <O as ResultOrder>::Dense<E>;
