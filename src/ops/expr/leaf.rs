//! Tensors as expression leaves, borrowed (`&a`) or owned ([`Owned`]), and which operands
//! become expressions unchanged.

use super::facts::LeafFacts;
use super::node::{Expr, ExprShape, IntoExpr};
use super::scalar::ScalarLeaf;
use super::tree::{Binary, Unary};
use crate::error::ShapeError;
use crate::extents::{broadcast_strides, Extents};
use crate::kernels::access::{Cursor, FlatKernel};
use crate::kernels::tile::{gather, Tile};
use crate::layout::{strides_match, Layout};
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// Contiguous-path leaf: a pointer to element `[0, …, 0]` of a row-major block.
#[derive(Clone, Copy, Debug)]
pub struct FlatLeaf<T>(*const T);
// SAFETY: a FlatLeaf only reads through its pointer, like `&[T]`.
unsafe impl<T: Sync> Send for FlatLeaf<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for FlatLeaf<T> {}

impl<T: Copy + Sync> FlatKernel for FlatLeaf<T> {
    type Elem = T;
    #[inline(always)]
    unsafe fn at(&self, i: usize) -> T {
        // SAFETY: the caller guarantees `i < numel` of a contiguous block (dense invariant).
        unsafe { *self.0.add(i) }
    }
}

/// A leaf of a run with inner stride 1 (or 0: a broadcast axis).
#[derive(Clone, Copy, Debug)]
pub struct RunLeaf<T> {
    ptr: *const T,
    bcast: bool,
}
// SAFETY: only reads, like `&[T]`.
unsafe impl<T: Sync> Send for RunLeaf<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for RunLeaf<T> {}
impl<T: Copy + Sync> FlatKernel for RunLeaf<T> {
    type Elem = T;
    #[inline(always)]
    unsafe fn at(&self, i: usize) -> T {
        // A loop-invariant test, but LLVM keeps it per element (a select of addresses,
        // which blocks vector loads): runs without broadcast leaves use `at_dense`.
        let i = if self.bcast { 0 } else { i };
        // SAFETY: `i` is inside the run (caller's contract).
        unsafe { *self.ptr.add(i) }
    }
    #[inline(always)]
    unsafe fn at_dense(&self, i: usize) -> T {
        // SAFETY: `i` is inside the run, which this leaf is not broadcast along.
        unsafe { *self.ptr.add(i) }
    }
}

/// General-path leaf: a pointer, per-axis strides against the result's axes (zero on
/// broadcast axes), and the position of the current run.
#[derive(Clone, Debug)]
pub struct StridedLeaf<T> {
    ptr: *const T,
    strides: Vec<isize>,
    pos: isize,
    inner: isize,
    /// Stride along the second-to-last axis (0 below rank 2).
    row: isize,
}
// SAFETY: a StridedLeaf only reads through its pointer, like `&[T]`.
unsafe impl<T: Sync> Send for StridedLeaf<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for StridedLeaf<T> {}

impl<T: Copy + Sync> Cursor for StridedLeaf<T> {
    type Elem = T;
    type Run = RunLeaf<T>;
    #[inline(always)]
    fn run(&self) -> RunLeaf<T> {
        RunLeaf { ptr: self.ptr.wrapping_offset(self.pos), bcast: self.inner == 0 }
    }
    #[inline(always)]
    fn seek(&mut self, idx: &[usize]) {
        self.pos = idx.iter().zip(&self.strides).map(|(&i, &s)| i as isize * s).sum();
    }
    #[inline(always)]
    fn unit_inner(&self) -> bool {
        self.inner == 1 || self.inner == 0
    }
    #[inline(always)]
    fn dense_inner(&self) -> bool {
        self.inner == 1
    }
    #[inline(always)]
    unsafe fn at(&self, t: usize) -> T {
        // SAFETY: seek placed `pos` on a valid index and `t` stays inside the run, so the
        // position is one of the tensor's elements (dense invariant, broadcast strides).
        unsafe { *self.ptr.offset(self.pos + t as isize * self.inner) }
    }
    #[inline(always)]
    unsafe fn at_unit(&self, t: usize) -> T {
        // A loop-invariant test: the compiler hoists it out of the run loop.
        let step = if self.inner == 0 { 0 } else { t as isize };
        // SAFETY: as `at`, with an inner stride of 1 or 0.
        unsafe { *self.ptr.offset(self.pos + step) }
    }
    #[inline(always)]
    unsafe fn tile(&self, rows: usize, cols: usize, dst: &mut Tile<T>) {
        // SAFETY: the block is inside the result's index space (caller's contract), so
        // each of its positions is one of the tensor's elements (broadcast strides).
        unsafe { gather(self.ptr.wrapping_offset(self.pos), self.row, self.inner, rows, cols, dst) }
    }
}

impl<T, E, S, St> ExprShape for &Tensor<T, E, S, St>
where
    T: Copy + Send + Sync,
    E: Extents,
    S: Layout<E>,
    St: DenseStorage<T>,
{
    type Elem = T;
    type Extents = E;
    #[inline(always)]
    fn shape(&self) -> Result<E::Index, ShapeError> {
        Ok(self.dims())
    }
}

impl<T, E, S, St> Expr for &Tensor<T, E, S, St>
where
    T: Copy + Send + Sync,
    E: Extents,
    S: Layout<E>,
    St: DenseStorage<T>,
{
    type Order = S::Order;
    type Flat = FlatLeaf<T>;
    type Cursor = StridedLeaf<T>;
    const FACTS: LeafFacts = LeafFacts::leaf::<E, S>();
    #[inline(always)]
    fn is_flat(&self, dims: &[usize]) -> bool {
        self.is_standard_layout() && {
            // Element by element: a slice `==` becomes a memcmp of the dims just stored,
            // a store-forwarding stall that costs more than a small evaluation.
            let d = self.dims();
            let d = d.as_ref();
            d.len() == dims.len() && (0..d.len()).all(|k| d[k] == dims[k])
        }
    }
    #[inline(always)]
    fn flat(&self) -> FlatLeaf<T> {
        FlatLeaf(self.as_ptr())
    }
    fn cursor(&self, dims: &[usize]) -> StridedLeaf<T> {
        StridedLeaf::new(self.as_ptr(), self.leaf_strides(dims))
    }
    #[inline]
    fn is_flat_as(&self, dims: &[usize], strides: &[isize]) -> bool {
        let (d, s) = (self.dims(), self.strides());
        d.as_ref() == dims && strides_match(dims, s.as_ref(), strides)
    }
    fn cursor_in(&self, dims: &[usize], axes: &[usize]) -> StridedLeaf<T> {
        let strides = self.leaf_strides(dims);
        StridedLeaf::new(self.as_ptr(), axes.iter().map(|&k| strides[k]).collect())
    }
}

impl<T, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// This tensor's strides against the result extents `dims` it broadcasts to (zero on
    /// broadcast axes).
    fn leaf_strides(&self, dims: &[usize]) -> Vec<isize> {
        let mut strides = vec![0; dims.len()];
        broadcast_strides("expression", self.dims().as_ref(), self.strides().as_ref(), dims, &mut strides)
            .expect("the expression's shape was checked before traversal");
        strides
    }
}

impl<T> StridedLeaf<T> {
    /// A cursor at the start of the data `ptr` with these per-axis strides.
    fn new(ptr: *const T, strides: Vec<isize>) -> Self {
        let inner = strides.last().copied().unwrap_or(1);
        let row = if strides.len() >= 2 { strides[strides.len() - 2] } else { 0 };
        StridedLeaf { ptr, strides, pos: 0, inner, row }
    }
}

/// An owned tensor inside an expression (`a + &b` with `a` owned): read in place and
/// dropped after evaluation. Owned tensors are not expressions themselves, so that
/// `x.exp()` borrows `x` instead of consuming it.
#[derive(Clone, Debug)]
pub struct Owned<X>(pub X);

impl<T, E, S, St> ExprShape for Owned<Tensor<T, E, S, St>>
where
    T: Copy + Send + Sync,
    E: Extents,
    S: Layout<E>,
    St: DenseStorage<T>,
{
    type Elem = T;
    type Extents = E;
    #[inline(always)]
    fn shape(&self) -> Result<E::Index, ShapeError> {
        Ok(self.0.dims())
    }
}

impl<T, E, S, St> Expr for Owned<Tensor<T, E, S, St>>
where
    T: Copy + Send + Sync,
    E: Extents,
    S: Layout<E>,
    St: DenseStorage<T>,
{
    type Order = S::Order;
    type Flat = FlatLeaf<T>;
    type Cursor = StridedLeaf<T>;
    const FACTS: LeafFacts = LeafFacts::leaf::<E, S>();
    #[inline(always)]
    fn is_flat(&self, dims: &[usize]) -> bool {
        (&self.0).is_flat(dims)
    }
    #[inline(always)]
    fn flat(&self) -> FlatLeaf<T> {
        (&self.0).flat()
    }
    fn cursor(&self, dims: &[usize]) -> StridedLeaf<T> {
        (&self.0).cursor(dims)
    }
    #[inline]
    fn is_flat_as(&self, dims: &[usize], strides: &[isize]) -> bool {
        (&self.0).is_flat_as(dims, strides)
    }
    fn cursor_in(&self, dims: &[usize], axes: &[usize]) -> StridedLeaf<T> {
        (&self.0).cursor_in(dims, axes)
    }
}

impl<T, E: Extents, S: Layout<E>, St> IntoExpr for Tensor<T, E, S, St>
where
    Owned<Tensor<T, E, S, St>>: ExprShape,
{
    type Expr = Owned<Self>;
    #[inline(always)]
    fn into_expr(self) -> Owned<Self> {
        Owned(self)
    }
}
macro_rules! into_expr_identity {
    ($([$($g:tt)*] $t:ty),*) => {$(
        impl<$($g)*> IntoExpr for $t
        where
            $t: ExprShape,
        {
            type Expr = Self;
            #[inline(always)]
            fn into_expr(self) -> Self {
                self
            }
        }
    )*};
}
into_expr_identity!(
    ['a, T, E: Extents, S: Layout<E>, St] &'a Tensor<T, E, S, St>,
    [L, R, O] Binary<L, R, O>,
    [X, F] Unary<X, F>,
    [X] Owned<X>,
    [T] ScalarLeaf<T>
);
