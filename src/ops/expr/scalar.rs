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
