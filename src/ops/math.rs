//! Elementwise math, comparisons, `select` and `cast`, all lazy (they build [`Expr`]
//! nodes), plus the eager `map`/`mapv`/`map_inplace`/`zip_with` on tensors that users of
//! ndarray expect.

use super::complex::{AngleOp, ConjOp, ImagOp, NormSqrOp, PowcOp, RealOp};
use super::expr::{Binary, BinaryOp, Expr, ExprShape, FnOp, IntoExpr, Unary, UnaryOp};
use crate::alloc::AlignedBuf;
use crate::error::or_panic;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{BroadcastWith, CanBroadcast, Extents};
use crate::layout::{DenseOf, Layout, RowMajor};
use crate::storage::{DenseStorage, DenseStorageMut, Heap};
use crate::tensor::Inexact;
use crate::tensor::Tensor;
use num_traits::{AsPrimitive, Float};

/// Unary ops defined for real floats and complex numbers alike: bounded on [`Inexact`],
/// whose math comes from `num-complex`'s `ComplexFloat` (implemented for every
/// `Float + FloatConst` type and for `Complex<T>` of those), so one op type serves both.
macro_rules! inexact_ops {
    ($(($Op:ident, $doc:literal, |$x:ident| $body:expr)),* $(,)?) => {$(
        #[doc = $doc]
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $Op;
        impl<A: Inexact> UnaryOp<A> for $Op {
            type Out = A;
            #[inline(always)]
            fn apply(self, $x: A) -> A {
                $body
            }
        }
    )*};
}
inexact_ops!(
    (ExpOp, "`eˣ`", |x| x.exp()),
    (LnOp, "natural logarithm (the principal branch for complex numbers)", |x| x.ln()),
    (SqrtOp, "square root (the principal branch for complex numbers)", |x| x.sqrt()),
    (SinOp, "sine", |x| x.sin()),
    (CosOp, "cosine", |x| x.cos()),
    (TanhOp, "hyperbolic tangent", |x| x.tanh()),
);

/// Absolute value; of a complex number its modulus `|z|`, a real number (numpy's `abs`).
#[derive(Clone, Copy, Debug, Default)]
pub struct AbsOp;
impl<A: Inexact> UnaryOp<A> for AbsOp
where
    A::Real: Send + Sync,
{
    type Out = A::Real;
    #[inline(always)]
    fn apply(self, x: A) -> A::Real {
        x.abs()
    }
}

/// Unary ops of real floats only (they order values or round them).
macro_rules! float_ops {
    ($(($Op:ident, $doc:literal, |$x:ident| $body:expr)),* $(,)?) => {$(
        #[doc = $doc]
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $Op;
        impl<A: Float + Send + Sync> UnaryOp<A> for $Op {
            type Out = A;
            #[inline(always)]
            fn apply(self, $x: A) -> A {
                $body
            }
        }
    )*};
}
float_ops!(
    (SigmoidOp, "`1 / (1 + e⁻ˣ)`", |x| A::one() / (A::one() + (-x).exp())),
    (ReluOp, "`max(x, 0)` (NaN stays NaN)", |x| if x < A::zero() { A::zero() } else { x }),
    (FloorOp, "round down", |x| x.floor()),
    (RoundOp, "round half away from zero", |x| x.round()),
);

/// `xⁿ` for an integer `n`.
#[derive(Clone, Copy, Debug)]
pub struct PowiOp(pub i32);
impl<A: Inexact> UnaryOp<A> for PowiOp {
    type Out = A;
    #[inline(always)]
    fn apply(self, x: A) -> A {
        x.powi(self.0)
    }
}
/// `xᵖ` for a real `p` (of a complex `x`: the principal value).
#[derive(Clone, Copy, Debug)]
pub struct PowfOp<P>(pub P);
impl<A: Inexact> UnaryOp<A> for PowfOp<A::Real>
where
    A::Real: Send + Sync,
{
    type Out = A;
    #[inline(always)]
    fn apply(self, x: A) -> A {
        x.powf(self.0)
    }
}
/// `x` limited to `[lo, hi]` (NaN stays NaN).
#[derive(Clone, Copy, Debug)]
pub struct ClampOp<A> {
    lo: A,
    hi: A,
}
impl<A: PartialOrd + Copy + Send + Sync> UnaryOp<A> for ClampOp<A> {
    type Out = A;
    #[inline(always)]
    fn apply(self, x: A) -> A {
        if x < self.lo {
            self.lo
        } else if x > self.hi {
            self.hi
        } else {
            x
        }
    }
}
/// A numeric conversion `x as U` (through `num_traits::AsPrimitive`).
#[derive(Clone, Copy, Debug)]
pub struct CastOp<U>(core::marker::PhantomData<fn() -> U>);
impl<A: AsPrimitive<U> + Send + Sync, U: Copy + Send + Sync + 'static> UnaryOp<A> for CastOp<U> {
    type Out = U;
    #[inline(always)]
    fn apply(self, x: A) -> U {
        x.as_()
    }
}

macro_rules! compare_ops {
    ($(($Op:ident, $method:ident, $op:tt, $doc:literal)),*) => {$(
        #[doc = $doc]
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $Op;
        impl<A: PartialOrd<B>, B> BinaryOp<A, B> for $Op {
            type Out = bool;
            #[inline(always)]
            fn apply(self, a: A, b: B) -> bool {
                a $op b
            }
        }
    )*};
}
compare_ops!(
    (GtOp, gt, >, "`a > b`"),
    (GeOp, ge, >=, "`a >= b`"),
    (LtOp, lt, <, "`a < b`"),
    (LeOp, le, <=, "`a <= b`"),
    (EqOp, eq_elem, ==, "`a == b`"),
    (NeOp, ne_elem, !=, "`a != b`")
);

macro_rules! unary_methods {
    ($Bound:ident: $(($method:ident, $Op:ident)),*) => {$(
        #[doc = concat!("Elementwise `", stringify!($method), "`, lazily.")]
        fn $method(self) -> Unary<Self, $Op>
        where
            Self::Elem: $Bound,
        {
            Unary::new(self, $Op)
        }
    )*};
}
macro_rules! compare_methods {
    ($(($method:ident, $Op:ident)),*) => {$(
        #[doc = concat!("Elementwise comparison `", stringify!($method), "` giving a `bool` expression, lazily.")]
        fn $method<R: IntoExpr>(self, rhs: R) -> Binary<Self, R::Expr, $Op>
        where
            Self::Elem: PartialOrd<<R::Expr as ExprShape>::Elem>,
            Self::Extents: CanBroadcast<<R::Expr as ExprShape>::Extents>,
        {
            Binary::new(self, rhs.into_expr(), $Op)
        }
    )*};
}

/// Elementwise math and comparisons on any [`Expr`] (tensors, views, expressions).
///
/// ```
/// use mdtensor::{prelude::*, tensor};
/// let x = tensor![-1.0, 0.0, 2.0];
/// assert_eq!(x.relu().eval().to_vec(), [0.0, 0.0, 2.0]);
/// assert_eq!(x.gt(0.5).eval().to_vec(), [false, false, true]);
/// assert_eq!((&x * 2.0).exp().ln().eval().to_vec(), [-2.0, 0.0, 4.0]);
/// ```
pub trait ElementwiseExt: Expr {
    unary_methods!(Inexact: (exp, ExpOp), (ln, LnOp), (sqrt, SqrtOp), (sin, SinOp), (cos, CosOp), (tanh, TanhOp));
    unary_methods!(Float: (sigmoid, SigmoidOp), (relu, ReluOp), (floor, FloorOp), (round, RoundOp));
    /// Elementwise absolute value, lazily; of complex numbers their modulus, a real
    /// expression.
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor, Complex};
    /// assert_eq!((&tensor![Complex::new(3.0, 4.0)] * 2.0).abs().eval().to_vec(), [10.0]);
    /// assert_eq!((&tensor![-1.5, 2.0] * 2.0).abs().eval().to_vec(), [3.0, 4.0]);
    /// ```
    fn abs(self) -> Unary<Self, AbsOp>
    where
        Self::Elem: Inexact,
    {
        Unary::new(self, AbsOp)
    }
    compare_methods!((gt, GtOp), (ge, GeOp), (lt, LtOp), (le, LeOp), (eq_elem, EqOp), (ne_elem, NeOp));

    /// `xⁿ`, lazily.
    fn powi(self, n: i32) -> Unary<Self, PowiOp>
    where
        Self::Elem: Inexact,
    {
        Unary::new(self, PowiOp(n))
    }
    /// `xᵖ` for a real `p`, lazily.
    fn powf<P>(self, p: P) -> Unary<Self, PowfOp<P>>
    where
        Self::Elem: Inexact<Real = P>,
        P: Send + Sync,
    {
        Unary::new(self, PowfOp(p))
    }
    /// `xʷ` for a complex exponent `w` (a scalar, tensor, view or expression of complex
    /// numbers, broadcast against `self`), a complex expression, lazily: numpy's `x ** w`
    /// with a complex `w`, its special cases included (see [`powc`](super::powc)). A real
    /// `x` is raised as a complex number.
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor, Complex};
    /// let z = tensor![Complex::new(1.0, 1.0), Complex::new(0.0, 0.0)];
    /// let two = Complex::new(2.0, 0.0);
    /// assert_eq!((&z * 1.0).powc(two).eval().to_vec(), [Complex::new(0.0, 2.0), Complex::new(0.0, 0.0)]);
    /// let w = tensor![[two], [Complex::new(0.0, 0.0)]];  // broadcast to [2, 2]
    /// assert_eq!(z.powc(&w).eval().shape(), [2, 2]);
    /// assert_eq!(tensor![-1.0].powc(Complex::new(0.5, 0.0)).eval().to_vec()[0].im, 1.0);
    /// ```
    fn powc<R: IntoExpr>(self, w: R) -> Binary<Self, R::Expr, PowcOp>
    where
        PowcOp: BinaryOp<Self::Elem, <R::Expr as ExprShape>::Elem>,
        Self::Extents: CanBroadcast<<R::Expr as ExprShape>::Extents>,
    {
        Binary::new(self, w.into_expr(), PowcOp)
    }
    /// Complex conjugate, lazily (numpy's `conj`; a real element is its own conjugate).
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor, Complex};
    /// let z = tensor![Complex::new(1.0, 2.0), Complex::new(3.0, -1.0)];
    /// assert_eq!((&z + 1.0).conj().eval().to_vec(), [Complex::new(2.0, -2.0), Complex::new(4.0, 1.0)]);
    /// ```
    fn conj(self) -> Unary<Self, ConjOp>
    where
        Self::Elem: Inexact,
    {
        Unary::new(self, ConjOp)
    }
    /// Real parts, a real expression, lazily (numpy's `real`); the same as [`re`](Self::re).
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor, Complex};
    /// let z = tensor![Complex::new(1.0, 2.0), Complex::new(3.0, -1.0)];
    /// assert_eq!((&z * 2.0).real().eval().to_vec(), [2.0, 6.0]);
    /// ```
    fn real(self) -> Unary<Self, RealOp>
    where
        Self::Elem: Inexact,
    {
        Unary::new(self, RealOp)
    }
    /// Real parts, lazily: [`real`](Self::real) under `num-complex`'s name.
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor, Complex};
    /// assert_eq!(tensor![Complex::new(1.0, 2.0)].conj().re().eval().to_vec(), [1.0]);
    /// ```
    fn re(self) -> Unary<Self, RealOp>
    where
        Self::Elem: Inexact,
    {
        Unary::new(self, RealOp)
    }
    /// Imaginary parts, a real expression, lazily (numpy's `imag`; zeros for real
    /// elements); the same as [`im`](Self::im).
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor, Complex};
    /// let z = tensor![Complex::new(1.0, 2.0), Complex::new(3.0, -1.0)];
    /// assert_eq!(z.conj().imag().eval().to_vec(), [-2.0, 1.0]);
    /// ```
    fn imag(self) -> Unary<Self, ImagOp>
    where
        Self::Elem: Inexact,
    {
        Unary::new(self, ImagOp)
    }
    /// Imaginary parts, lazily: [`imag`](Self::imag) under `num-complex`'s name.
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor, Complex};
    /// assert_eq!(tensor![Complex::new(1.0, 2.0)].conj().im().eval().to_vec(), [-2.0]);
    /// ```
    fn im(self) -> Unary<Self, ImagOp>
    where
        Self::Elem: Inexact,
    {
        Unary::new(self, ImagOp)
    }
    /// Arguments `atan2(im, re)` in `(-π, π]`, a real expression, lazily (numpy's
    /// `angle`); the same as [`arg`](Self::arg).
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor, Complex};
    /// let z = tensor![Complex::new(0.0, 2.0), Complex::new(-1.0, 0.0)];
    /// let half_pi = std::f64::consts::FRAC_PI_2;
    /// assert_eq!(z.conj().angle().eval().to_vec(), [-half_pi, -std::f64::consts::PI]);
    /// ```
    fn angle(self) -> Unary<Self, AngleOp>
    where
        Self::Elem: Inexact,
    {
        Unary::new(self, AngleOp)
    }
    /// Arguments, lazily: [`angle`](Self::angle) under `num-complex`'s name.
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor, Complex};
    /// assert_eq!(tensor![Complex::new(0.0, -1.0)].conj().arg().eval().to_vec(), [std::f64::consts::FRAC_PI_2]);
    /// ```
    fn arg(self) -> Unary<Self, AngleOp>
    where
        Self::Elem: Inexact,
    {
        Unary::new(self, AngleOp)
    }
    /// Squared moduli `re² + im²`, a real expression, lazily (`abs` squared without the
    /// square root).
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor, Complex};
    /// let z = tensor![Complex::new(3.0, 4.0), Complex::new(1.0, -1.0)];
    /// assert_eq!((&z * 2.0).norm_sqr().eval().to_vec(), [100.0, 8.0]);
    /// ```
    fn norm_sqr(self) -> Unary<Self, NormSqrOp>
    where
        Self::Elem: Inexact,
    {
        Unary::new(self, NormSqrOp)
    }
    /// Each element limited to `[lo, hi]`, lazily.
    fn clamp(self, lo: Self::Elem, hi: Self::Elem) -> Unary<Self, ClampOp<Self::Elem>>
    where
        Self::Elem: PartialOrd,
    {
        Unary::new(self, ClampOp { lo, hi })
    }
    /// Each element converted with `as`, lazily.
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor};
    /// assert_eq!(tensor![1.7f64, -2.2].cast::<i32>().eval().to_vec(), [1, -2]);
    /// ```
    fn cast<U: Copy + Send + Sync + 'static>(self) -> Unary<Self, CastOp<U>>
    where
        Self::Elem: AsPrimitive<U>,
    {
        Unary::new(self, CastOp(core::marker::PhantomData))
    }
}
impl<X: Expr> ElementwiseExt for X {}

/// `mask ? a : b` elementwise, with broadcasting among the three (numpy's `where`).
/// It builds a lazy node from the operands' shapes only, so the one `select` serves host
/// expressions (evaluated with `.eval()`) and, with the `cuda` feature, device
/// expressions (evaluated with `eval_on`, one fused kernel).
///
/// ```
/// use mdtensor::{prelude::*, ops::select, tensor};
/// let x = tensor![-1.0, 3.0, -2.0];
/// let y = select(x.gt(0.0), &x, 0.0).eval();
/// assert_eq!(y.to_vec(), [0.0, 3.0, 0.0]);
/// ```
#[allow(clippy::type_complexity)]
pub fn select<M, A, B, T>(mask: M, a: A, b: B) -> Binary<M::Expr, Binary<A::Expr, B::Expr, PairOp>, PickOp>
where
    M: IntoExpr,
    M::Expr: ExprShape<Elem = bool>,
    A: IntoExpr,
    A::Expr: ExprShape<Elem = T>,
    B: IntoExpr,
    B::Expr: ExprShape<Elem = T>,
    T: Copy + Send + Sync,
    // The shape rules at the call, so a mismatch is reported here and not at `.eval()`.
    <A::Expr as ExprShape>::Extents: CanBroadcast<<B::Expr as ExprShape>::Extents>,
    <M::Expr as ExprShape>::Extents:
        CanBroadcast<<<A::Expr as ExprShape>::Extents as BroadcastWith<<B::Expr as ExprShape>::Extents>>::Broadcast>,
{
    Binary::new(mask.into_expr(), Binary::new(a.into_expr(), b.into_expr(), PairOp), PickOp)
}

/// `(a, b)`: carries both branches of [`select`] to the mask.
#[derive(Clone, Copy, Debug, Default)]
pub struct PairOp;
impl<T: Copy + Send + Sync> BinaryOp<T, T> for PairOp {
    type Out = (T, T);
    #[inline(always)]
    fn apply(self, a: T, b: T) -> (T, T) {
        (a, b)
    }
}
/// `if m { a } else { b }`.
#[derive(Clone, Copy, Debug, Default)]
pub struct PickOp;
impl<T: Copy + Send + Sync> BinaryOp<bool, (T, T)> for PickOp {
    type Out = T;
    #[inline(always)]
    fn apply(self, m: bool, (a, b): (T, T)) -> T {
        if m {
            a
        } else {
            b
        }
    }
}

/// What [`Tensor::zip_with`] returns: `U`s over the broadcast extents of `self` (extents
/// `E`) and `R`, row-major.
pub type Zipped<U, E, R> = Tensor<U, <E as BroadcastWith<<R as ExprShape>::Extents>>::Broadcast>;

/// # Elementwise: math
// The storage bound is on each method rather than on the impl, so that on a device tensor
// the method is found and its unmet bound reports `DenseStorage`'s message (copy with
// `.to_host()` first) instead of E0599's "exists but its trait bounds were not satisfied".
impl<T, E: Extents, S: Layout<E>, St> Tensor<T, E, S, St> {
    /// A new row-major tensor of `f(&x)` for every element (eager, any element type),
    /// visited in logical order; [`Tensor::map_in_order`] keeps this tensor's order.
    ///
    /// ```
    /// use mdtensor::{tensor, DenseStorage, Extents, Layout, Tensor};
    /// let t = tensor![[1, 2], [3, 4]];
    /// assert_eq!(t.map(|x| x.to_string()).to_vec(), ["1", "2", "3", "4"]);
    /// // Over any layout, the result is the `Tensor<U, E>` the signature names.
    /// fn labels<E: Extents, S: Layout<E>, St: DenseStorage<i32>>(t: &Tensor<i32, E, S, St>) -> Tensor<String, E> {
    ///     t.map(|x| format!("#{x}"))
    /// }
    /// assert_eq!(labels(&t.t()).to_vec(), ["#1", "#3", "#2", "#4"]);
    /// ```
    #[track_caller]
    pub fn map<U, F: FnMut(&T) -> U>(&self, f: F) -> Tensor<U, E>
    where
        St: DenseStorage<T>,
    {
        or_panic(self.try_map_op("map", f))
    }
    /// A new tensor of `f(&x)` for every element, in this tensor's order: a column-major
    /// tensor (or a transposed row-major one) maps to a column-major result, its elements
    /// visited in memory order, as ndarray's `map`; a view with arbitrary strides maps to
    /// a row-major result, visited in logical order.
    ///
    /// ```
    /// use mdtensor::{tensor, ColMajor, Tensor};
    /// let t = tensor![[1, 2], [3, 4]];
    /// let c: Tensor<String, _, ColMajor> = t.t().map_in_order(|x| x.to_string());
    /// assert_eq!(c[[0, 1]], "3");
    /// ```
    #[track_caller]
    pub fn map_in_order<U, F: FnMut(&T) -> U>(&self, f: F) -> Tensor<U, E, DenseOf<S::Order, E>>
    where
        St: DenseStorage<T>,
    {
        or_panic(self.try_map_dense::<U, DenseOf<S::Order, E>, F>("map_in_order", f))
    }
    /// [`Tensor::map`] with a refused allocation as `Err(OutOfMemory)` naming `op`.
    pub(crate) fn try_map_op<U, F: FnMut(&T) -> U>(&self, op: &'static str, f: F) -> Result<Tensor<U, E>, ShapeError>
    where
        St: DenseStorage<T>,
    {
        self.try_map_dense::<U, RowMajor, F>(op, f)
    }
    /// [`Tensor::try_map_op`] into the dense order of `L`.
    fn try_map_dense<U, L: Layout<E>, F: FnMut(&T) -> U>(
        &self,
        op: &'static str,
        mut f: F,
    ) -> Result<Tensor<U, E, L>, ShapeError>
    where
        St: DenseStorage<T>,
    {
        let ext = self.extents().clone();
        let mapping = <L as Layout<E>>::dense_mapping(&ext);
        let out = <L as Layout<E>>::strides(&ext, &mapping);
        let buf = if <L as Layout<E>>::is_row_major_contiguous(&ext, &mapping) {
            let mut it = self.iter();
            AlignedBuf::try_from_fn(self.numel(), |_| f(it.next().expect("numel elements")))
        } else {
            // The result's memory order: an odometer over its axes, innermost first,
            // reading each element through this tensor's own strides.
            let (dims, strides) = (self.dims(), self.strides());
            let (dims, strides) = (dims.as_ref(), strides.as_ref());
            let axes: Vec<usize> = crate::layout::axes_by_stride(out.as_ref()).into_iter().rev().collect();
            let mut idx = vec![0usize; dims.len()];
            let base = self.as_ptr();
            AlignedBuf::try_from_fn(self.numel(), |_| {
                let pos: isize = idx.iter().zip(strides).map(|(&i, &s)| i as isize * s).sum();
                // SAFETY: `idx` is inside the extents (the odometer below keeps it there
                // for the numel visits), so the position is one of this tensor's elements.
                let v = f(unsafe { &*base.offset(pos) });
                for &k in &axes {
                    idx[k] += 1;
                    if idx[k] < dims[k] {
                        break;
                    }
                    idx[k] = 0;
                }
                v
            })
        }
        .map_err(|e| e.with_op(op))?;
        // SAFETY: numel elements in the result policy's dense order.
        Ok(unsafe { Tensor::from_parts_unchecked(Heap::from_aligned(buf), ext, mapping) })
    }
    /// A new row-major tensor of `f(x)` for every element (eager; fused and parallel
    /// through the expression engine); [`Tensor::mapv_in_order`] keeps this tensor's
    /// order.
    ///
    /// ```
    /// use mdtensor::{tensor, DenseStorage, Extents, Layout, Tensor};
    /// fn doubled<E: Extents, S: Layout<E>, St: DenseStorage<f64>>(t: &Tensor<f64, E, S, St>) -> Tensor<f64, E> {
    ///     t.mapv(|x| 2.0 * x)
    /// }
    /// let m = tensor![[1.0, 2.0], [3.0, 4.0]];
    /// assert_eq!(doubled(&m.t()).to_vec(), [2.0, 6.0, 4.0, 8.0]);
    /// assert!(doubled(&m.t()).is_standard_layout());
    /// ```
    #[track_caller]
    pub fn mapv<U: Copy + Send + Sync, F: Fn(T) -> U + Copy + Send + Sync>(&self, f: F) -> Tensor<U, E>
    where
        T: Copy + Send + Sync,
        St: DenseStorage<T>,
    {
        Unary::new(self, f).eval()
    }
    /// A new tensor of `f(x)` for every element in this tensor's order, as
    /// [`Tensor::map_in_order`]: a column-major tensor is mapped in one flat pass over its
    /// memory.
    ///
    /// ```
    /// use mdtensor::{tensor, ColMajor, Tensor};
    /// let m = tensor![[1.0, 2.0], [3.0, 4.0]];
    /// let c: Tensor<f64, _, ColMajor> = m.t().mapv_in_order(|x| x + 1.0);
    /// assert_eq!(c.as_slice_memory_order(), Some(&[2.0, 3.0, 4.0, 5.0][..]));
    /// ```
    #[track_caller]
    pub fn mapv_in_order<U: Copy + Send + Sync, F: Fn(T) -> U + Copy + Send + Sync>(
        &self,
        f: F,
    ) -> Tensor<U, E, DenseOf<S::Order, E>>
    where
        T: Copy + Send + Sync,
        St: DenseStorage<T>,
    {
        Unary::new(self, f).eval_in_order()
    }
    forms! {
        /// A new row-major tensor of `f(a, b)` with `b` broadcast against `self`; `Err`
        /// when dynamic extents do not broadcast. `Expr::zip_with(self, rhs, f)` is the
        /// lazy form (`.eval_in_order()` of it keeps the operands' order).
        pub fn try_zip_with[R: IntoExpr, U: Copy + Send + Sync, F](
            &self,
            rhs: R,
            f: F,
        ) -> Result<Zipped<U, E, R::Expr>, ShapeError>
        where [T: Copy + Send + Sync, R::Expr: Expr, E: CanBroadcast<<R::Expr as ExprShape>::Extents>, F: Fn(T, <R::Expr as ExprShape>::Elem) -> U + Copy + Send + Sync, St: DenseStorage<T>]
        {
            Binary::new(self, rhs.into_expr(), FnOp(f)).try_eval()
        }
        /// See [`Tensor::try_zip_with`].
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let (a, b) = (tensor![[1, 2], [3, 4]], tensor![10, 20]);
        /// assert_eq!(a.zip_with(&b, |x, y| x * y).to_vec(), [10, 40, 30, 80]);
        /// ```
        pub fn zip_with;
    }
}

/// # Elementwise: math
impl<T, E: Extents, S: Layout<E>, St> Tensor<T, E, S, St> {
    /// Applies `f` to every element in place, in logical order.
    pub fn map_inplace<F: FnMut(&mut T)>(&mut self, f: F)
    where
        St: DenseStorageMut<T>,
    {
        self.iter_mut().for_each(f);
    }
}
