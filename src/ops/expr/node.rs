//! The expression trait and what every tree shares: its element type, extents and
//! shape, the prepared forms the kernels read, and how a tree is collected into a new
//! tensor (`eval` and its relatives), whatever its nodes.

use super::facts::LeafFacts;
use super::tree::{Binary, FnOp, Unary, UnaryOp};
use crate::alloc::AlignedBuf;
use crate::error::or_panic;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::extents::{CanBroadcast, Extents, Reverse};
use crate::kernels::access::{Cursor, FlatKernel};
use crate::kernels::elementwise::run;
use crate::layout::{ColMajor, DenseOf, Layout, ResultOrder, RowMajor};
use crate::storage::Heap;
use crate::storage::OwnedStorage;
use crate::tensor::Tensor;

/// What every expression tree has, wherever its data lives: the element type, the extents
/// and the shape rule (numpy broadcasting, checked in the types where extents are static).
///
/// Operators (`+ - * / %`, unary `-`) are bounded by this trait alone, so the same static
/// shape checks serve every storage that can be an operand, host or device; [`Expr`] adds
/// evaluation on the host.
pub trait ExprShape: Sized {
    /// Element type of the result.
    type Elem: Copy + Send + Sync;
    /// Extents of the result.
    type Extents: Extents;
    /// The result's extents, checking dynamic broadcasting.
    fn shape(&self) -> Result<<Self::Extents as Extents>::Index, ShapeError>;
}

/// A lazily evaluated elementwise expression on the host; see the
/// [module docs](crate::ops::expr).
pub trait Expr: ExprShape {
    /// The order of the evaluated result (see [`ResultOrder`]): the first leaf with a
    /// dense order decides; scalars and views with arbitrary strides have no say.
    type Order: ResultOrder;
    /// The prepared form for the contiguous fast path.
    type Flat: FlatKernel<Elem = Self::Elem>;
    /// The prepared form for general traversal.
    type Cursor: Cursor<Elem = Self::Elem>;
    /// What the leaves' types guarantee, for leaving impossible evaluation paths out of
    /// the compiled code (see [`LeafFacts`]). The default guarantees nothing.
    #[doc(hidden)]
    const FACTS: LeafFacts = LeafFacts::NONE;

    /// Whether every leaf is row-major contiguous with exactly `dims` (or a scalar).
    fn is_flat(&self, dims: &[usize]) -> bool;
    /// Whether every leaf has exactly `dims` and the same strides as `strides` (which
    /// pack a dense block in some order), or is a scalar: element `i` in that memory order
    /// is then element `i` of every leaf's memory.
    fn is_flat_as(&self, dims: &[usize], strides: &[isize]) -> bool;
    /// The flat kernel; meaningful only when [`Expr::is_flat`] holds for the dims evaluated.
    fn flat(&self) -> Self::Flat;
    /// A cursor reading this expression broadcast to `dims` (which [`ExprShape::shape`] must
    /// broadcast to).
    fn cursor(&self, dims: &[usize]) -> Self::Cursor;
    /// A cursor over the result's axes taken in the order `axes` (a permutation of
    /// `0..dims.len()`): axis `k` of the traversal is axis `axes[k]` of the result.
    fn cursor_in(&self, dims: &[usize], axes: &[usize]) -> Self::Cursor;

    /// Evaluates into a new row-major tensor in one pass; `Err` when dynamic extents do
    /// not broadcast. Large results are computed on rayon's pool.
    ///
    /// The result is `Tensor<Elem, Extents>` whatever the operands' stride policies, so
    /// generic code over any layout gets back the type its signature names;
    /// [`Expr::try_eval_in_order`] keeps the operands' order instead.
    fn try_eval(self) -> Result<Tensor<Self::Elem, Self::Extents>, ShapeError> {
        try_eval(self, Par::Auto)
    }
    /// Evaluates into a new row-major tensor (see [`Expr::try_eval`]); panics when
    /// dynamic extents do not broadcast.
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor, DenseStorage, Extents, Layout, Tensor};
    /// let (a, b) = (tensor![1.0, 2.0, 3.0], tensor![10.0, 20.0, 30.0]);
    /// let c = (&a * 2.0 + &b).eval();
    /// assert_eq!(c.to_vec(), [12.0, 24.0, 36.0]);
    /// // Over any layout and storage, the result is the `Tensor<T, E>` the signature names.
    /// fn normalize<E: Extents, S: Layout<E>, St: DenseStorage<f64>>(t: &Tensor<f64, E, S, St>) -> Tensor<f64, E> {
    ///     let s = t.sum();
    ///     (t / s).eval()
    /// }
    /// let m = tensor![[1.0, 2.0], [3.0, 4.0]];
    /// assert_eq!(normalize(&m.t()).to_vec(), [0.1, 0.3, 0.2, 0.4]);
    /// ```
    #[track_caller]
    fn eval(self) -> Tensor<Self::Elem, Self::Extents> {
        or_panic(self.try_eval())
    }
    forms! {
        /// [`Expr::try_eval`] with an explicit choice of threads.
        fn try_eval_with[](self, par: Par) -> Result<Tensor<Self::Elem, Self::Extents>, ShapeError>
        {
            try_eval(self, par)
        }
        /// [`Expr::eval`] with an explicit choice of threads.
        ///
        /// ```
        /// use mdtensor::{prelude::*, tensor};
        /// let a = tensor![1.0, 2.0];
        /// assert_eq!((&a * 2.0).eval_with(Par::Seq).to_vec(), [2.0, 4.0]);
        /// ```
        fn eval_with;
    }
    forms! {
        /// Evaluates into a new tensor dense in the order of the first operand that has
        /// one ([`Expr::Order`], numpy's default `order='K'`): column-major operands give a
        /// column-major result written in their memory order (a flat pass, no transposing
        /// copy); views with arbitrary strides and scalars have no say, and with no say at
        /// all the result is row-major. `Err` when dynamic extents do not broadcast.
        ///
        /// The result's policy is [`Evaluated<Self>`]: concrete for concrete operands,
        /// a projection in code generic over the stride policy (name it, or use
        /// [`Expr::try_eval`] for a `Tensor<T, E>`).
        fn try_eval_in_order_with[](self) with par -> Result<Evaluated<Self>, ShapeError>
        {
            try_eval_ordered(self, par)
        }
        /// See [`Expr::try_eval_in_order_with`].
        fn try_eval_in_order;
        /// Evaluates into a new tensor in its operands' order (see
        /// [`Expr::try_eval_in_order_with`]); panics when dynamic extents do not broadcast.
        ///
        /// ```
        /// use mdtensor::{prelude::*, tensor, ColMajor, Tensor};
        /// let m = tensor![[1, 2], [3, 4]];
        /// let t: Tensor<i32, _, ColMajor> = (m.t() + 1).eval_in_order(); // follows the transposed view
        /// assert_eq!(t.to_vec(), [2, 4, 3, 5]);
        /// assert_eq!(t.as_slice_memory_order(), Some(&[2, 3, 4, 5][..]));
        /// let r = (m.t() + 1).eval(); // row-major
        /// assert!(r.is_standard_layout() && r == t);
        /// ```
        fn eval_in_order;
        /// [`Expr::eval_in_order`] with an explicit choice of threads.
        fn eval_in_order_with;
    }
    forms! {
        /// Evaluates into a new row-major tensor: the same as [`Expr::try_eval`], named
        /// for contrast with [`Expr::try_eval_in_order`] (numpy's
        /// `ascontiguousarray(expr)`).
        fn try_eval_row_major[](self) -> Result<Tensor<Self::Elem, Self::Extents>, ShapeError>
        {
            try_eval(self, Par::Auto)
        }
        /// [`Expr::try_eval_row_major`], panicking on extents that do not broadcast: the
        /// same as [`Expr::eval`].
        ///
        /// ```
        /// use mdtensor::{prelude::*, tensor, Tensor};
        /// fn doubled<X: Expr>(x: X) -> Tensor<X::Elem, X::Extents>
        /// where
        ///     X::Elem: core::ops::Add<Output = X::Elem>,
        /// {
        ///     x.map(|v| v + v).eval_row_major()
        /// }
        /// let m = tensor![[1, 2], [3, 4]];
        /// assert_eq!(doubled(&m.t()).to_vec(), [2, 6, 4, 8]);
        /// ```
        fn eval_row_major;
    }
    /// Evaluates into any owned storage, e.g. a [`StackTensor`](crate::StackTensor) for
    /// static extents (no heap allocation); always on the calling thread.
    fn try_eval_in<St: OwnedStorage<Self::Elem>>(
        self,
    ) -> Result<Tensor<Self::Elem, Self::Extents, RowMajor, St>, ShapeError> {
        try_eval_in(self)
    }
    /// See [`Expr::try_eval_in`].
    #[track_caller]
    fn eval_in<St: OwnedStorage<Self::Elem>>(self) -> Tensor<Self::Elem, Self::Extents, RowMajor, St> {
        eval_in(self)
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
        self.eval_row_major().into_vec()
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
        self.eval_row_major().reversed_axes()
    }

    /// Maps every element lazily.
    fn map<F: UnaryOp<Self::Elem>>(self, f: F) -> Unary<Self, F> {
        Unary::new(self, f)
    }
    /// Combines with another expression elementwise, lazily, with broadcasting.
    fn zip_with<R: IntoExpr, O: Copy + Send + Sync, F>(self, rhs: R, f: F) -> Binary<Self, R::Expr, FnOp<F>>
    where
        F: Fn(Self::Elem, <R::Expr as ExprShape>::Elem) -> O + Copy + Send + Sync,
        // The shape rule at the call, so a mismatch is reported here and not at `.eval()`.
        Self::Extents: CanBroadcast<<R::Expr as ExprShape>::Extents>,
    {
        Binary::new(self, rhs.into_expr(), FnOp(f))
    }
}

/// Anything that can be an operand of an expression: expressions, borrowed and owned
/// tensors, scalars.
pub trait IntoExpr {
    /// The expression it becomes ([`Expr`] where it can be evaluated on the host).
    type Expr: ExprShape;
    /// Converts.
    fn into_expr(self) -> Self::Expr;
}

/// The tensor an expression evaluates to in its operands' order
/// ([`Expr::eval_in_order`]): its element type and extents, dense in the order its operands
/// decide ([`Expr::Order`]), on the heap. [`Expr::eval`] gives `Tensor<Elem, Extents>`.
pub type Evaluated<X> =
    Tensor<<X as ExprShape>::Elem, <X as ExprShape>::Extents, DenseOf<<X as Expr>::Order, <X as ExprShape>::Extents>>;

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
    #[inline(always)]
    fn is_flat_as(&self, dims: &[usize], strides: &[isize]) -> bool {
        Expr::is_flat_as(self, dims, strides)
    }
    #[inline(always)]
    fn cursor_in(&self, dims: &[usize], axes: &[usize]) -> X::Cursor {
        Expr::cursor_in(self, dims, axes)
    }
}

/// The store of evaluation and assignment: writes `v` at `p`, a valid, exclusive output
/// position (the engine's contract).
///
/// The stores are closures written in functions generic over the element type alone: a
/// closure's type carries every generic parameter of the function it is written in, so
/// one written in `try_eval::<X>` would give the engine's loops a new copy per expression
/// type (see `kernels::elementwise::run`).
#[inline(always)]
pub(crate) fn write<T>() -> impl Fn(*mut T, T) + Copy + Send + Sync {
    // SAFETY: the engine passes valid, exclusive output positions.
    |p, v| unsafe { p.write(v) }
}

/// The result extents of `x`, checked.
#[inline(always)]
fn result_extents<X: Expr>(x: &X) -> Result<X::Extents, ShapeError> {
    let dims = x.shape()?;
    let ext = X::Extents::from_dims(dims.as_ref())?;
    ext.checked_numel("eval", core::mem::size_of::<X::Elem>())?;
    Ok(ext)
}

/// Evaluates `x` into a new row-major tensor.
pub(crate) fn try_eval<X: Expr>(x: X, par: Par) -> Result<Tensor<X::Elem, X::Extents>, ShapeError> {
    try_eval_dense::<X, RowMajor>(x, par)
}

/// Evaluates `x` into a new tensor in its operands' order ([`Expr::Order`]).
pub(crate) fn try_eval_ordered<X: Expr>(x: X, par: Par) -> Result<Evaluated<X>, ShapeError> {
    try_eval_dense::<X, DenseOf<X::Order, X::Extents>>(x, par)
}

/// Evaluates `x` into a new tensor dense in the order of `L` (`RowMajor` or `ColMajor`).
fn try_eval_dense<X: Expr, L: Layout<X::Extents>>(
    x: X,
    par: Par,
) -> Result<Tensor<X::Elem, X::Extents, L>, ShapeError> {
    let ext = result_extents(&x)?;
    let dims = ext.dims();
    let mapping = L::dense_mapping(&ext);
    let strides = L::strides(&ext, &mapping);
    let standard = L::is_row_major_contiguous(&ext, &mapping);
    // SAFETY: `run` writes every element of the dense block of `numel` elements that `L`'s
    // fresh mapping addresses, each exactly once, and the shape of `x` was checked to be
    // `dims`. A refused allocation is an `Err` of the `try_` form, not an abort.
    let buf = unsafe {
        AlignedBuf::try_from_raw_init(ext.numel(), |p| {
            run::<X, PathsFor<X, X::Extents, L>, _>(&x, dims.as_ref(), p, strides.as_ref(), standard, par, write())
        })
    }
    .map_err(|e| e.with_op("eval"))?;
    // SAFETY: a buffer of exactly numel elements in `L`'s dense order.
    Ok(unsafe { Tensor::from_parts_unchecked(Heap::from_aligned(buf), ext, mapping) })
}

/// Elements of an expression in row-major order, one at a time (for storages that are
/// filled sequentially, such as inline arrays).
///
/// The runs (rows of the innermost axis) are walked with an odometer rather than listed
/// first: a broadcast input may have far more rows than memory could list.
fn sequential<X: Expr>(x: &X, dims: &[usize]) -> impl FnMut(usize) -> X::Elem {
    let flat = x.is_flat(dims).then(|| x.flat());
    let mut cursor = if flat.is_none() { Some(x.cursor(dims)) } else { None };
    let row = dims.last().copied().unwrap_or(1);
    let dims = dims.to_vec();
    let mut idx = vec![0usize; dims.len()];
    let mut t = 0usize;
    move |i| match (&flat, &mut cursor) {
        // SAFETY: `i < n` on a flat expression.
        (Some(k), _) => unsafe { k.at(i) },
        (None, Some(c)) => {
            if t == 0 {
                c.seek(&idx);
            }
            // SAFETY: `t` is inside the current row, which `idx` starts.
            let v = unsafe { c.at(t) };
            t += 1;
            if t == row {
                t = 0;
                // The next row: carry into the outer axes.
                for k in (0..dims.len().saturating_sub(1)).rev() {
                    idx[k] += 1;
                    if idx[k] < dims[k] {
                        break;
                    }
                    idx[k] = 0;
                }
            }
            v
        }
        (None, None) => unreachable!("one of the two forms is prepared"),
    }
}

/// Fills a storage of `St` with `x` over the checked extents `ext`; `None` when `St`
/// cannot hold that many elements.
#[inline(always)]
fn fill<X: Expr, St: OwnedStorage<X::Elem>>(x: &X, ext: &X::Extents) -> Option<St> {
    let dims = ext.dims();
    let n = ext.numel();
    if x.is_flat(dims.as_ref()) && St::fixed_len().is_some() {
        // A fixed-size (stack) result from contiguous operands: generating the array by
        // value lets LLVM keep it in vector registers.
        let k = x.flat();
        // SAFETY: `i < n` on a flat expression.
        St::from_fn_linear(n, |i| unsafe { k.at(i) })
    } else if x.is_flat(dims.as_ref()) {
        // Contiguous operands: element i of the result is element i of every leaf.
        let k = x.flat();
        // SAFETY: the loop writes all n elements; `i < n` on a flat expression.
        unsafe {
            St::from_raw_init(n, |p| {
                for i in 0..n {
                    p.add(i).write(k.at(i));
                }
            })
        }
    } else {
        St::from_fn_linear(n, sequential(x, dims.as_ref()))
    }
}

/// [`fill`] for the `try_` forms: a refused allocation is `Err(OutOfMemory)`. Kept apart
/// from `fill` for the reason given at [`eval_in`].
#[inline(always)]
fn try_fill<X: Expr, St: OwnedStorage<X::Elem>>(x: &X, ext: &X::Extents) -> Result<Option<St>, ShapeError> {
    const OP: &str = "eval_in";
    let dims = ext.dims();
    let n = ext.numel();
    if x.is_flat(dims.as_ref()) && St::fixed_len().is_some() {
        let k = x.flat();
        // SAFETY: `i < n` on a flat expression.
        St::try_from_fn_linear(OP, n, |i| unsafe { k.at(i) })
    } else if x.is_flat(dims.as_ref()) {
        let k = x.flat();
        // SAFETY: the loop writes all n elements; `i < n` on a flat expression.
        unsafe {
            St::try_from_raw_init(OP, n, |p| {
                for i in 0..n {
                    p.add(i).write(k.at(i));
                }
            })
        }
    } else {
        St::try_from_fn_linear(OP, n, sequential(x, dims.as_ref()))
    }
}

/// The error of a storage that cannot hold the result.
#[cold]
fn capacity_error<E: Extents>(ext: &E, fixed: Option<usize>) -> ShapeError {
    let n = ext.numel();
    ShapeError::LengthMismatch {
        op: "eval_in",
        dims: ext.dims().as_ref().to_vec(),
        expected: n,
        found: fixed.unwrap_or(n),
    }
}

#[inline]
pub(crate) fn try_eval_in<X: Expr, St: OwnedStorage<X::Elem>>(
    x: X,
) -> Result<Tensor<X::Elem, X::Extents, RowMajor, St>, ShapeError> {
    let ext = result_extents(&x)?;
    let storage = try_fill::<X, St>(&x, &ext)?.ok_or_else(|| capacity_error(&ext, St::fixed_len()))?;
    // SAFETY: a row-major block of exactly numel elements.
    Ok(unsafe { Tensor::from_parts_unchecked(storage, ext, ()) })
}

/// [`try_eval_in`] for the panicking forms. The result never travels inside a `Result`:
/// there, a small inline array shares bytes with the error's fields, and LLVM moved it
/// through integer registers (a static 4×4 add takes twice as long).
#[inline]
#[track_caller]
pub(crate) fn eval_in<X: Expr, St: OwnedStorage<X::Elem>>(x: X) -> Tensor<X::Elem, X::Extents, RowMajor, St> {
    let ext = or_panic(result_extents(&x));
    let Some(storage) = fill::<X, St>(&x, &ext) else { panic!("{}", capacity_error(&ext, St::fixed_len())) };
    // SAFETY: a row-major block of exactly numel elements.
    unsafe { Tensor::from_parts_unchecked(storage, ext, ()) }
}
