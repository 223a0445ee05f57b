//! Lazy elementwise expressions (expression templates, mshadow's lesson).
//!
//! Arithmetic on tensors builds an [`Expr`] tree instead of computing: `&a * 2.0 + &b * &c`
//! is a `Binary<Binary<&A, f64, Mul>, Binary<&B, &C, Mul>, Add>`. Nothing is computed until
//! the tree is evaluated — collected with [`Expr::eval`], written with
//! [`Tensor::assign`](crate::Tensor::assign) or `+=`, or reduced with [`Reductions::sum`](crate::ops::Reductions::sum) — and
//! then it runs in one pass over the elements, with no temporaries.
//!
//! Leaves are tensors (owned or borrowed, any stride policy and dense storage) and scalars.
//! Shapes follow numpy's broadcasting; with static extents the result extents are computed
//! in the type ([`BroadcastWith`]) and incompatible extents do not compile.
//!
//! Evaluation uses one of two forms of each tree, prepared before the loop so that the
//! loop body sees only raw pointers and values:
//! * [`FlatKernel`]: every leaf is a row-major contiguous tensor of exactly the result
//!   shape (or a scalar) — element `i` of every leaf is at offset `i`, the loop is a plain
//!   indexed loop that the compiler vectorises;
//! * [`Cursor`]: anything else (broadcasting, transposed or sliced operands) — the
//!   traversal walks the result index space in runs along the last axis, each leaf with
//!   its own (possibly zero) strides.

use crate::error::ShapeError;
use crate::exec::par::Par;
use crate::extents::{
    broadcast_shapes_into, broadcast_strides, AxisArray, BroadcastWith, CanBroadcast, Extents, Reverse,
};
use crate::kernels::tile::{gather, new_tile, Tile, TILE};
use crate::layout::Layout;
use crate::layout::{ColMajor, RowMajor};
use crate::storage::DenseStorage;
use crate::storage::OwnedStorage;
use crate::tensor::{or_panic, Scalar, Tensor};
use core::mem::MaybeUninit;

/// A lazily evaluated elementwise expression; see the [module docs](self).
pub trait Expr: Sized {
    /// Element type of the result.
    type Elem: Copy + Send + Sync;
    /// Extents of the result.
    type Extents: Extents;
    /// The prepared form for the contiguous fast path.
    type Flat: FlatKernel<Elem = Self::Elem>;
    /// The prepared form for general traversal.
    type Cursor: Cursor<Elem = Self::Elem>;
    /// What the leaves' types guarantee, for leaving impossible evaluation paths out of
    /// the compiled code (see [`LeafFacts`]). The default guarantees nothing.
    #[doc(hidden)]
    const FACTS: LeafFacts = LeafFacts::NONE;

    /// The result's extents, checking dynamic broadcasting.
    fn shape(&self) -> Result<<Self::Extents as Extents>::Index, ShapeError>;
    /// Whether every leaf is row-major contiguous with exactly `dims` (or a scalar).
    fn is_flat(&self, dims: &[usize]) -> bool;
    /// The flat kernel; meaningful only when [`Expr::is_flat`] holds for the dims evaluated.
    fn flat(&self) -> Self::Flat;
    /// A cursor reading this expression broadcast to `dims` (which [`Expr::shape`] must
    /// broadcast to).
    fn cursor(&self, dims: &[usize]) -> Self::Cursor;

    /// Evaluates into a new row-major tensor in one pass; `Err` when dynamic extents do
    /// not broadcast. Large results are computed on rayon's pool.
    fn try_eval(self) -> Result<Tensor<Self::Elem, Self::Extents>, ShapeError> {
        super::eval::try_eval(self, Par::Auto)
    }
    /// Evaluates into a new row-major tensor; panics when dynamic extents do not broadcast.
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor};
    /// let (a, b) = (tensor![1.0, 2.0, 3.0], tensor![10.0, 20.0, 30.0]);
    /// let c = (&a * 2.0 + &b).eval();
    /// assert_eq!(c.to_vec(), [12.0, 24.0, 36.0]);
    /// ```
    #[track_caller]
    fn eval(self) -> Tensor<Self::Elem, Self::Extents> {
        or_panic(self.try_eval())
    }
    /// [`Expr::try_eval`] with an explicit choice of threads.
    fn try_eval_with(self, par: Par) -> Result<Tensor<Self::Elem, Self::Extents>, ShapeError> {
        super::eval::try_eval(self, par)
    }
    /// Evaluates into any owned storage, e.g. a [`StackTensor`](crate::StackTensor) for
    /// static extents (no heap allocation); always on the calling thread.
    fn try_eval_in<St: OwnedStorage<Self::Elem>>(
        self,
    ) -> Result<Tensor<Self::Elem, Self::Extents, RowMajor, St>, ShapeError> {
        super::eval::try_eval_in(self)
    }
    /// See [`Expr::try_eval_in`].
    #[track_caller]
    fn eval_in<St: OwnedStorage<Self::Elem>>(self) -> Tensor<Self::Elem, Self::Extents, RowMajor, St> {
        super::eval::eval_in(self)
    }

    /// Evaluates into a [`StackTensor`](crate::StackTensor): static extents, inline storage,
    /// no heap allocation (the way to keep small static arithmetic allocation-free).
    ///
    /// ```
    /// use mdtensor::{prelude::*, StackTensor};
    /// let a = StackTensor::<f32, ext![4, 4]>::eye(ext![4, 4]);
    /// let b: StackTensor<f32, ext![4, 4]> = (a + a * 2.0).eval_stack();
    /// assert_eq!(b[[3, 3]], 3.0);
    /// ```
    #[track_caller]
    fn eval_stack(self) -> crate::StackTensor<Self::Elem, Self::Extents>
    where
        Self::Extents: crate::storage::InlineExtents,
    {
        self.eval_in()
    }

    /// Evaluates and returns the elements in row-major order: an expression read as the
    /// tensor it stands for.
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor};
    /// let a = tensor![[1, 2], [3, 4]];
    /// assert_eq!((&a * 10).to_vec(), [10, 20, 30, 40]);
    /// ```
    #[track_caller]
    fn to_vec(self) -> Vec<Self::Elem> {
        self.eval().into_vec()
    }
    /// Evaluates and transposes, without a second copy: the result is the owned, reversed
    /// (`ColMajor`) tensor, as `x.eval().reversed_axes()`.
    ///
    /// ```
    /// use mdtensor::{prelude::*, ext, tensor};
    /// let a = tensor![[1, 2, 3], [4, 5, 6]];
    /// let t = (&a + 1).t();
    /// let _: &ext![3, 2] = t.extents();
    /// assert_eq!(t[[2, 0]], 4);
    /// ```
    #[track_caller]
    fn t(self) -> Tensor<Self::Elem, <Self::Extents as Reverse>::Output, ColMajor>
    where
        Self::Extents: Reverse,
    {
        self.eval().reversed_axes()
    }

    /// Maps every element lazily.
    fn map<F: UnaryOp<Self::Elem>>(self, f: F) -> Unary<Self, F> {
        Unary::new(self, f)
    }
    /// Combines with another expression elementwise, lazily, with broadcasting.
    fn zip_with<R: IntoExpr, O: Copy + Send + Sync, F>(self, rhs: R, f: F) -> Binary<Self, R::Expr, FnOp<F>>
    where
        F: Fn(Self::Elem, <R::Expr as Expr>::Elem) -> O + Copy + Send + Sync,
        // The shape rule at the call, so a mismatch is reported here and not at `.eval()`.
        Self::Extents: CanBroadcast<<R::Expr as Expr>::Extents>,
    {
        Binary::new(self, rhs.into_expr(), FnOp(f))
    }
}

/// What the types of an expression's leaves guarantee about every evaluation of it.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeafFacts {
    /// Every leaf steps by one element (or stays put) along the last axis.
    pub unit_inner: bool,
    /// When every leaf is contiguous and static: their common (rank, element count).
    pub flat: FlatFact,
}

/// Whether an expression's leaves are contiguous with known extents.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlatFact {
    /// Not known from the types.
    Unknown,
    /// Only scalars: flat over any extents.
    Any,
    /// Row-major contiguous leaves, all of this static rank and element count.
    Static(usize, usize),
}

impl LeafFacts {
    /// No guarantee.
    pub const NONE: LeafFacts = LeafFacts { unit_inner: false, flat: FlatFact::Unknown };
    /// Facts of a tensor leaf with extents `E` and stride policy `S`.
    pub const fn leaf<E: Extents, S: Layout<E>>() -> LeafFacts {
        let flat = match (S::ROW_MAJOR_CONTIGUOUS, E::RANK, E::STATIC_NUMEL) {
            (true, Some(r), Some(n)) => FlatFact::Static(r, n),
            _ => FlatFact::Unknown,
        };
        LeafFacts { unit_inner: S::ROW_MAJOR_CONTIGUOUS, flat }
    }
    /// Facts of a node over two operands.
    pub const fn both(a: LeafFacts, b: LeafFacts) -> LeafFacts {
        let flat = match (a.flat, b.flat) {
            (FlatFact::Any, f) | (f, FlatFact::Any) => f,
            (FlatFact::Static(r1, n1), FlatFact::Static(r2, n2)) if r1 == r2 && n1 == n2 => FlatFact::Static(r1, n1),
            _ => FlatFact::Unknown,
        };
        LeafFacts { unit_inner: a.unit_inner && b.unit_inner, flat }
    }
    /// Whether every leaf is flat over extents `E`: static leaves of `E`'s rank and
    /// element count broadcast to `E` only if they have its extents (each axis is 1 or
    /// equal, and the products agree; with a zero extent nothing is evaluated).
    pub const fn flat_over<E: Extents>(self) -> bool {
        match (self.flat, E::RANK, E::STATIC_NUMEL) {
            (FlatFact::Any, _, _) => true,
            (FlatFact::Static(r, n), Some(re), Some(ne)) => r == re && n == ne,
            _ => false,
        }
    }
}

/// The evaluation paths that `X` evaluated over extents `E` into a tensor with stride
/// policy `S` can take (see [`Paths`](crate::exec::paths::Paths)); reductions, which
/// have no output layout, use `RowMajor`.
pub(crate) struct PathsFor<X, E, S>(core::marker::PhantomData<(X, E, S)>);
impl<X: Expr, E: Extents, S: Layout<E>> crate::exec::paths::Paths for PathsFor<X, E, S> {
    const FLAT_ONLY: bool = S::ROW_MAJOR_CONTIGUOUS && X::FACTS.flat_over::<E>();
    const UNIT_INNER: bool = S::ROW_MAJOR_CONTIGUOUS && X::FACTS.unit_inner;
    const WIDE: bool = crate::exec::cpu::wide_for(E::STATIC_NUMEL);
}

/// The paths of a kernel over a whole row-major tensor of extents `E` that has no
/// expression: only the width fact is known (see [`Paths::WIDE`](crate::exec::paths::Paths::WIDE)).
pub(crate) struct SizePaths<E>(core::marker::PhantomData<E>);
impl<E: Extents> crate::exec::paths::Paths for SizePaths<E> {
    const FLAT_ONLY: bool = false;
    const UNIT_INNER: bool = false;
    const WIDE: bool = crate::exec::cpu::wide_for(E::STATIC_NUMEL);
}

// The prepared forms and the contract the kernels read them by live with the kernels
// (`kernels::access`); expressions implement them here.
pub use crate::kernels::access::{Cursor, FlatKernel};

impl<X: Expr> crate::kernels::access::Source for X {
    type Elem = X::Elem;
    type Flat = X::Flat;
    type Cursor = X::Cursor;
    #[inline(always)]
    fn is_flat(&self, dims: &[usize]) -> bool {
        Expr::is_flat(self, dims)
    }
    #[inline(always)]
    fn flat(&self) -> X::Flat {
        Expr::flat(self)
    }
    #[inline(always)]
    fn cursor(&self, dims: &[usize]) -> X::Cursor {
        Expr::cursor(self, dims)
    }
}

// ---------------------------------------------------------------------------------------
// Leaves: tensors.

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

impl<T, E, S, St> Expr for &Tensor<T, E, S, St>
where
    T: Copy + Send + Sync,
    E: Extents,
    S: Layout<E>,
    St: DenseStorage<T>,
{
    type Elem = T;
    type Extents = E;
    type Flat = FlatLeaf<T>;
    type Cursor = StridedLeaf<T>;
    const FACTS: LeafFacts = LeafFacts::leaf::<E, S>();

    #[inline(always)]
    fn shape(&self) -> Result<E::Index, ShapeError> {
        Ok(self.dims())
    }
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
        let mut strides = vec![0; dims.len()];
        broadcast_strides("expression", self.dims().as_ref(), self.strides().as_ref(), dims, &mut strides)
            .expect("the expression's shape was checked before traversal");
        let inner = strides.last().copied().unwrap_or(1);
        let row = if strides.len() >= 2 { strides[strides.len() - 2] } else { 0 };
        StridedLeaf { ptr: self.as_ptr(), strides, pos: 0, inner, row }
    }
}

/// An owned tensor inside an expression (`a + &b` with `a` owned): read in place and
/// dropped after evaluation. Owned tensors are not expressions themselves, so that
/// `x.exp()` borrows `x` instead of consuming it.
#[derive(Clone, Debug)]
pub struct Owned<X>(pub X);

impl<T, E, S, St> Expr for Owned<Tensor<T, E, S, St>>
where
    T: Copy + Send + Sync,
    E: Extents,
    S: Layout<E>,
    St: DenseStorage<T>,
{
    type Elem = T;
    type Extents = E;
    type Flat = FlatLeaf<T>;
    type Cursor = StridedLeaf<T>;
    const FACTS: LeafFacts = LeafFacts::leaf::<E, S>();

    #[inline(always)]
    fn shape(&self) -> Result<E::Index, ShapeError> {
        Ok(self.0.dims())
    }
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
}

/// Anything that can be an operand of an expression: expressions, borrowed and owned
/// tensors, scalars.
pub trait IntoExpr {
    /// The expression it becomes.
    type Expr: Expr;
    /// Converts.
    fn into_expr(self) -> Self::Expr;
}
impl<T, E: Extents, S: Layout<E>, St> IntoExpr for Tensor<T, E, S, St>
where
    Owned<Tensor<T, E, S, St>>: Expr,
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
            $t: Expr,
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
impl<T: Scalar + Send + Sync> IntoExpr for T {
    type Expr = ScalarLeaf<T>;
    #[inline(always)]
    fn into_expr(self) -> ScalarLeaf<T> {
        ScalarLeaf(self)
    }
}

// ---------------------------------------------------------------------------------------
// Leaves: scalars (rank 0, broadcast to anything).

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

impl<T: Scalar + Send + Sync> Expr for ScalarLeaf<T> {
    type Elem = T;
    type Extents = ();
    type Flat = ScalarKernel<T>;
    type Cursor = ScalarKernel<T>;
    const FACTS: LeafFacts = LeafFacts { unit_inner: true, flat: FlatFact::Any };
    #[inline(always)]
    fn shape(&self) -> Result<[usize; 0], ShapeError> {
        Ok([])
    }
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
}

// ---------------------------------------------------------------------------------------
// Nodes.

/// An elementwise function of two operands.
pub trait BinaryOp<A, B>: Copy + Send + Sync {
    /// Result element.
    type Out: Copy + Send + Sync;
    /// Applies the function.
    fn apply(self, a: A, b: B) -> Self::Out;
}

/// `f(a, b)` for a closure: the node behind [`Expr::zip_with`].
#[derive(Clone, Copy, Debug)]
pub struct FnOp<F>(pub F);
impl<A, B, O: Copy + Send + Sync, F: Fn(A, B) -> O + Copy + Send + Sync> BinaryOp<A, B> for FnOp<F> {
    type Out = O;
    #[inline(always)]
    fn apply(self, a: A, b: B) -> O {
        (self.0)(a, b)
    }
}

/// Two operands combined elementwise, broadcast against each other.
#[derive(Clone, Copy, Debug)]
pub struct Binary<L, R, Op> {
    pub(crate) lhs: L,
    pub(crate) rhs: R,
    pub(crate) op: Op,
}

impl<L, R, Op> Binary<L, R, Op> {
    /// Combines `lhs` and `rhs` with `op`.
    pub fn new(lhs: L, rhs: R, op: Op) -> Self {
        Binary { lhs, rhs, op }
    }
}

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

impl<L: Expr, R: Expr, Op: BinaryOp<L::Elem, R::Elem>> Expr for Binary<L, R, Op>
where
    L::Extents: BroadcastWith<R::Extents>,
{
    type Elem = Op::Out;
    type Extents = <L::Extents as BroadcastWith<R::Extents>>::Broadcast;
    type Flat = BinaryKernel<L::Flat, R::Flat, Op>;
    type Cursor = BinaryKernel<L::Cursor, R::Cursor, Op>;
    const FACTS: LeafFacts = LeafFacts::both(L::FACTS, R::FACTS);

    #[inline(always)]
    fn shape(&self) -> Result<<Self::Extents as Extents>::Index, ShapeError> {
        let (a, b) = (self.lhs.shape()?, self.rhs.shape()?);
        let (a, b) = (a.as_ref(), b.as_ref());
        let mut out = <<Self::Extents as Extents>::Index as AxisArray<usize>>::filled(a.len().max(b.len()), 0);
        broadcast_shapes_into(a, b, out.as_mut())?;
        Ok(out)
    }
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
}

/// An elementwise function of one operand. Closures `Fn(A) -> U` are unary ops; so are
/// the named ops behind `-x`, `x.exp()`, … (whose types can be written down).
pub trait UnaryOp<A>: Copy + Send + Sync {
    /// Result element.
    type Out: Copy + Send + Sync;
    /// Applies the function.
    fn apply(self, a: A) -> Self::Out;
}
impl<A, U: Copy + Send + Sync, F: Fn(A) -> U + Copy + Send + Sync> UnaryOp<A> for F {
    type Out = U;
    #[inline(always)]
    fn apply(self, a: A) -> U {
        self(a)
    }
}

/// One operand mapped elementwise.
#[derive(Clone, Copy, Debug)]
pub struct Unary<X, F> {
    pub(crate) inner: X,
    pub(crate) f: F,
}

impl<X, F> Unary<X, F> {
    /// Maps `inner` by `f`.
    pub fn new(inner: X, f: F) -> Self {
        Unary { inner, f }
    }
}

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

impl<X: Expr, F: UnaryOp<X::Elem>> Expr for Unary<X, F> {
    type Elem = F::Out;
    type Extents = X::Extents;
    type Flat = UnaryKernel<X::Flat, F>;
    type Cursor = UnaryKernel<X::Cursor, F>;
    const FACTS: LeafFacts = X::FACTS;

    #[inline(always)]
    fn shape(&self) -> Result<<X::Extents as Extents>::Index, ShapeError> {
        self.inner.shape()
    }
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
}
