//! Evaluating a [`Binary`] node: its prepared forms and its shape (numpy broadcasting).

use super::facts::LeafFacts;
use super::node::{Expr, ExprShape};
use super::tree::{Binary, BinaryOp};
use crate::error::ShapeError;
use crate::extents::{broadcast_shapes_into, AxisArray, BroadcastWith, Extents};
use crate::kernels::access::{Cursor, FlatKernel};
use crate::kernels::tile::{new_tile, Tile, TILE};
use crate::layout::ResultOrder;
use core::mem::MaybeUninit;

/// Prepared form of a [`Binary`] node (flat kernel or cursor).
#[derive(Clone, Copy, Debug)]
pub struct BinaryKernel<L, R, Op> {
    lhs: L,
    rhs: R,
    op: Op,
}

impl<L: FlatKernel, R: FlatKernel, Op: BinaryOp<L::Elem, R::Elem>> FlatKernel for BinaryKernel<L, R, Op> {
    type Elem = Op::Out;
    #[inline(always)]
    unsafe fn at(&self, i: usize) -> Op::Out {
        // SAFETY: forwarded contract.
        unsafe { self.op.apply(self.lhs.at(i), self.rhs.at(i)) }
    }
    #[inline(always)]
    unsafe fn at_dense(&self, i: usize) -> Op::Out {
        // SAFETY: forwarded contract.
        unsafe { self.op.apply(self.lhs.at_dense(i), self.rhs.at_dense(i)) }
    }
}

impl<L: Cursor, R: Cursor, Op: BinaryOp<L::Elem, R::Elem>> Cursor for BinaryKernel<L, R, Op> {
    type Elem = Op::Out;
    type Run = BinaryKernel<L::Run, R::Run, Op>;
    #[inline(always)]
    fn run(&self) -> Self::Run {
        BinaryKernel { lhs: self.lhs.run(), rhs: self.rhs.run(), op: self.op }
    }
    #[inline(always)]
    fn seek(&mut self, idx: &[usize]) {
        self.lhs.seek(idx);
        self.rhs.seek(idx);
    }
    #[inline(always)]
    fn unit_inner(&self) -> bool {
        self.lhs.unit_inner() && self.rhs.unit_inner()
    }
    #[inline(always)]
    fn dense_inner(&self) -> bool {
        self.lhs.dense_inner() && self.rhs.dense_inner()
    }
    #[inline(always)]
    unsafe fn at(&self, t: usize) -> Op::Out {
        // SAFETY: forwarded contract.
        unsafe { self.op.apply(self.lhs.at(t), self.rhs.at(t)) }
    }
    #[inline(always)]
    unsafe fn at_unit(&self, t: usize) -> Op::Out {
        // SAFETY: forwarded contract.
        unsafe { self.op.apply(self.lhs.at_unit(t), self.rhs.at_unit(t)) }
    }
    #[inline(always)]
    unsafe fn tile(&self, rows: usize, cols: usize, dst: &mut Tile<Op::Out>) {
        let (mut l, mut r) = (new_tile(), new_tile());
        // SAFETY: forwarded contract; both children fill the same `rows × cols` corner,
        // which is all that is read back.
        unsafe {
            self.lhs.tile(rows, cols, &mut l);
            self.rhs.tile(rows, cols, &mut r);
            for i in 0..rows {
                for k in i * TILE..i * TILE + cols {
                    dst[k] = MaybeUninit::new(self.op.apply(l[k].assume_init(), r[k].assume_init()));
                }
            }
        }
    }
}

impl<L: ExprShape, R: ExprShape, Op: BinaryOp<L::Elem, R::Elem>> ExprShape for Binary<L, R, Op>
where
    L::Extents: BroadcastWith<R::Extents>,
{
    type Elem = Op::Out;
    type Extents = <L::Extents as BroadcastWith<R::Extents>>::Broadcast;

    #[inline(always)]
    fn shape(&self) -> Result<<Self::Extents as Extents>::Index, ShapeError> {
        let (a, b) = (self.lhs.shape()?, self.rhs.shape()?);
        let (a, b) = (a.as_ref(), b.as_ref());
        let mut out = <<Self::Extents as Extents>::Index as AxisArray<usize>>::filled(a.len().max(b.len()), 0);
        broadcast_shapes_into(a, b, out.as_mut())?;
        Ok(out)
    }
}

impl<L: Expr, R: Expr, Op: BinaryOp<L::Elem, R::Elem>> Expr for Binary<L, R, Op>
where
    L::Extents: BroadcastWith<R::Extents>,
{
    type Order = <L::Order as ResultOrder>::Then<R::Order>;
    type Flat = BinaryKernel<L::Flat, R::Flat, Op>;
    type Cursor = BinaryKernel<L::Cursor, R::Cursor, Op>;
    const FACTS: LeafFacts = LeafFacts::both(L::FACTS, R::FACTS);
    #[inline(always)]
    fn is_flat(&self, dims: &[usize]) -> bool {
        self.lhs.is_flat(dims) && self.rhs.is_flat(dims)
    }
    #[inline(always)]
    fn flat(&self) -> Self::Flat {
        BinaryKernel { lhs: self.lhs.flat(), rhs: self.rhs.flat(), op: self.op }
    }
    fn cursor(&self, dims: &[usize]) -> Self::Cursor {
        BinaryKernel { lhs: self.lhs.cursor(dims), rhs: self.rhs.cursor(dims), op: self.op }
    }
    #[inline(always)]
    fn is_flat_as(&self, dims: &[usize], strides: &[isize]) -> bool {
        self.lhs.is_flat_as(dims, strides) && self.rhs.is_flat_as(dims, strides)
    }
    fn cursor_in(&self, dims: &[usize], axes: &[usize]) -> Self::Cursor {
        BinaryKernel { lhs: self.lhs.cursor_in(dims, axes), rhs: self.rhs.cursor_in(dims, axes), op: self.op }
    }
}
