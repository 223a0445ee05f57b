//! Evaluating a [`Unary`] node: its prepared forms (the shape is its operand's).

use super::facts::LeafFacts;
use super::node::{Expr, ExprShape};
use super::tree::{Unary, UnaryOp};
use crate::error::ShapeError;
use crate::extents::Extents;
use crate::kernels::access::{Cursor, FlatKernel};
use crate::kernels::tile::{new_tile, Tile, TILE};
use core::mem::MaybeUninit;

/// Prepared form of a [`Unary`] node.
#[derive(Clone, Copy, Debug)]
pub struct UnaryKernel<K, F> {
    inner: K,
    f: F,
}

impl<K: FlatKernel, F: UnaryOp<K::Elem>> FlatKernel for UnaryKernel<K, F> {
    type Elem = F::Out;
    #[inline(always)]
    unsafe fn at(&self, i: usize) -> F::Out {
        // SAFETY: forwarded contract.
        self.f.apply(unsafe { self.inner.at(i) })
    }
    #[inline(always)]
    unsafe fn at_dense(&self, i: usize) -> F::Out {
        // SAFETY: forwarded contract.
        self.f.apply(unsafe { self.inner.at_dense(i) })
    }
}

impl<K: Cursor, F: UnaryOp<K::Elem>> Cursor for UnaryKernel<K, F> {
    type Elem = F::Out;
    type Run = UnaryKernel<K::Run, F>;
    #[inline(always)]
    fn run(&self) -> Self::Run {
        UnaryKernel { inner: self.inner.run(), f: self.f }
    }
    #[inline(always)]
    fn seek(&mut self, idx: &[usize]) {
        self.inner.seek(idx);
    }
    #[inline(always)]
    fn unit_inner(&self) -> bool {
        self.inner.unit_inner()
    }
    #[inline(always)]
    fn dense_inner(&self) -> bool {
        self.inner.dense_inner()
    }
    #[inline(always)]
    unsafe fn at(&self, t: usize) -> F::Out {
        // SAFETY: forwarded contract.
        self.f.apply(unsafe { self.inner.at(t) })
    }
    #[inline(always)]
    unsafe fn at_unit(&self, t: usize) -> F::Out {
        // SAFETY: forwarded contract.
        self.f.apply(unsafe { self.inner.at_unit(t) })
    }
    #[inline(always)]
    unsafe fn tile(&self, rows: usize, cols: usize, dst: &mut Tile<F::Out>) {
        let mut x = new_tile();
        // SAFETY: forwarded contract; the child fills the corner read back.
        unsafe {
            self.inner.tile(rows, cols, &mut x);
            for i in 0..rows {
                for k in i * TILE..i * TILE + cols {
                    dst[k] = MaybeUninit::new(self.f.apply(x[k].assume_init()));
                }
            }
        }
    }
}

impl<X: ExprShape, F: UnaryOp<X::Elem>> ExprShape for Unary<X, F> {
    type Elem = F::Out;
    type Extents = X::Extents;

    #[inline(always)]
    fn shape(&self) -> Result<<X::Extents as Extents>::Index, ShapeError> {
        self.inner.shape()
    }
}

impl<X: Expr, F: UnaryOp<X::Elem>> Expr for Unary<X, F> {
    type Order = X::Order;
    type Flat = UnaryKernel<X::Flat, F>;
    type Cursor = UnaryKernel<X::Cursor, F>;
    const FACTS: LeafFacts = X::FACTS;
    #[inline(always)]
    fn is_flat(&self, dims: &[usize]) -> bool {
        self.inner.is_flat(dims)
    }
    #[inline(always)]
    fn flat(&self) -> Self::Flat {
        UnaryKernel { inner: self.inner.flat(), f: self.f }
    }
    fn cursor(&self, dims: &[usize]) -> Self::Cursor {
        UnaryKernel { inner: self.inner.cursor(dims), f: self.f }
    }
    #[inline(always)]
    fn is_flat_as(&self, dims: &[usize], strides: &[isize]) -> bool {
        self.inner.is_flat_as(dims, strides)
    }
    fn cursor_in(&self, dims: &[usize], axes: &[usize]) -> Self::Cursor {
        UnaryKernel { inner: self.inner.cursor_in(dims, axes), f: self.f }
    }
}
