//! Scalars as expression leaves: rank 0, broadcast to anything.

use super::facts::{FlatFact, LeafFacts};
use super::node::{Expr, ExprShape, IntoExpr};
use crate::error::ShapeError;
use crate::kernels::access::{Cursor, FlatKernel};
use crate::kernels::tile::{Tile, TILE};
use crate::tensor::Scalar;
use core::mem::MaybeUninit;

/// A scalar inside an expression.
#[derive(Clone, Copy, Debug)]
pub struct ScalarKernel<T>(T);

impl<T: Copy + Send + Sync> FlatKernel for ScalarKernel<T> {
    type Elem = T;
    #[inline(always)]
    unsafe fn at(&self, _: usize) -> T {
        self.0
    }
}
impl<T: Copy + Send + Sync> Cursor for ScalarKernel<T> {
    type Elem = T;
    type Run = Self;
    #[inline(always)]
    fn run(&self) -> Self {
        *self
    }
    #[inline(always)]
    fn seek(&mut self, _: &[usize]) {}
    #[inline(always)]
    fn unit_inner(&self) -> bool {
        true
    }
    #[inline(always)]
    fn dense_inner(&self) -> bool {
        true
    }
    #[inline(always)]
    unsafe fn at(&self, _: usize) -> T {
        self.0
    }
    #[inline(always)]
    unsafe fn at_unit(&self, _: usize) -> T {
        self.0
    }
    #[inline(always)]
    unsafe fn tile(&self, rows: usize, cols: usize, dst: &mut Tile<T>) {
        for i in 0..rows {
            for v in &mut dst[i * TILE..i * TILE + cols] {
                *v = MaybeUninit::new(self.0);
            }
        }
    }
}

/// A scalar operand of an expression (`&a * 2.0`): rank 0, broadcast to anything.
/// Scalars are wrapped rather than being expressions themselves, so that the expression
/// traits' methods (`max`, `min`, `clamp`, …) never compete with `Ord::max` on numbers.
#[derive(Clone, Copy, Debug)]
pub struct ScalarLeaf<T>(pub T);

impl<T: Scalar + Send + Sync> ExprShape for ScalarLeaf<T> {
    type Elem = T;
    type Extents = ();
    #[inline(always)]
    fn shape(&self) -> Result<[usize; 0], ShapeError> {
        Ok([])
    }
}

impl<T: Scalar + Send + Sync> Expr for ScalarLeaf<T> {
    type Order = crate::layout::AnyOrder;
    type Flat = ScalarKernel<T>;
    type Cursor = ScalarKernel<T>;
    const FACTS: LeafFacts = LeafFacts { unit_inner: true, flat: FlatFact::Any };
    #[inline(always)]
    fn is_flat(&self, _: &[usize]) -> bool {
        true
    }
    #[inline(always)]
    fn flat(&self) -> ScalarKernel<T> {
        ScalarKernel(self.0)
    }
    #[inline(always)]
    fn cursor(&self, _: &[usize]) -> ScalarKernel<T> {
        ScalarKernel(self.0)
    }
    #[inline(always)]
    fn is_flat_as(&self, _: &[usize], _: &[isize]) -> bool {
        true
    }
    #[inline(always)]
    fn cursor_in(&self, _: &[usize], _: &[usize]) -> ScalarKernel<T> {
        ScalarKernel(self.0)
    }
}

impl<T: Scalar + Send + Sync> IntoExpr for T {
    type Expr = ScalarLeaf<T>;
    #[inline(always)]
    fn into_expr(self) -> ScalarLeaf<T> {
        ScalarLeaf(self)
    }
}

/// A scalar type that may stand on the left of an operator whose right operand has
/// elements of type `Elem` (`2.0 * &t`): the same type, or a real scalar beside complex
/// elements of its precision (and a complex scalar beside real ones). Each scalar type's
/// operator impls ask for it, so that a literal (`2.0 / &t`, `1 - &t`) is inferred from the
/// elements instead of being ambiguous between `f32` and `f64`.
#[diagnostic::on_unimplemented(
    message = "a scalar of type `{Self}` does not combine with elements of type `{Elem}`",
    label = "the scalar must have the elements' type",
    note = "write the scalar in the elements' type (`2.0_f32` for `f32` elements), or convert the tensor with `mapv`"
)]
pub trait LeftScalar<Elem> {
    /// `X`: the operator's result goes through it, so that without an impl rustc stops
    /// at this error instead of going on to the methods of a result that cannot work.
    type Then<X>;
    /// `x`, as [`Then`](LeftScalar::Then).
    fn then<X>(x: X) -> Self::Then<X>;
}

macro_rules! left_scalar {
    ($($s:ty: $($e:ty),*;)*) => {$($(
        impl LeftScalar<$e> for $s {
            type Then<X> = X;
            #[inline(always)]
            fn then<X>(x: X) -> X {
                x
            }
        }
    )*)*};
}
left_scalar! {
    f32: f32, num_complex::Complex<f32>;
    f64: f64, num_complex::Complex<f64>;
    i32: i32;
    i64: i64;
    u32: u32;
    u64: u64;
    usize: usize;
    num_complex::Complex<f32>: num_complex::Complex<f32>, f32;
    num_complex::Complex<f64>: num_complex::Complex<f64>, f64;
}
