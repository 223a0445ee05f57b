//! Lazy elementwise math and comparisons as inherent methods of dense tensors (see
//! [`ElementwiseExt`]).

use crate::extents::{CanBroadcast, Extents};
use crate::layout::Layout;
use crate::ops::complex::{AngleOp, ConjOp, ImagOp, NormSqrOp, PowcOp, RealOp};
use crate::ops::expr::{Binary, BinaryOp, ExprShape, IntoExpr, Unary};
use crate::ops::math::{
    AbsOp, CastOp, ClampOp, CosOp, EqOp, ExpOp, FloorOp, GeOp, GtOp, LeOp, LnOp, LtOp, NeOp, PowfOp, PowiOp, ReluOp,
    RoundOp, SigmoidOp, SinOp, SqrtOp, TanhOp,
};
use crate::ops::ElementwiseExt;
use crate::storage::DenseStorage;
use crate::tensor::Inexact;
use crate::tensor::Tensor;
use num_traits::{AsPrimitive, Float};

/// One forwarding method per unary [`ElementwiseExt`] function.
macro_rules! unary_methods {
    ($Bound:path: $(($method:ident, $Op:ident, $what:literal)),* $(,)?) => {$(
        #[doc = concat!("Elementwise ", $what, ", lazily; see [`ElementwiseExt::", stringify!($method), "`].")]
        #[inline]
        pub fn $method(&self) -> Unary<&Self, $Op>
        where
            T: $Bound,
        {
            ElementwiseExt::$method(self)
        }
    )*};
}

/// One forwarding method per comparison of [`ElementwiseExt`].
macro_rules! compare_methods {
    ($(($method:ident, $Op:ident, $what:literal)),* $(,)?) => {$(
        #[doc = concat!("Elementwise `", $what, "` with `rhs` broadcast against `self`, as a lazy `bool` expression; see [`ElementwiseExt::", stringify!($method), "`].")]
        #[inline]
        pub fn $method<R: IntoExpr>(&self, rhs: R) -> Binary<&Self, R::Expr, $Op>
        where
            T: PartialOrd<<R::Expr as ExprShape>::Elem>,
            E: CanBroadcast<<R::Expr as ExprShape>::Extents>,
        {
            ElementwiseExt::$method(self, rhs)
        }
    )*};
}

/// # Lazy elementwise math
///
/// Each builds an [`Expr`](crate::Expr) node that borrows the tensor: nothing is computed until
/// `.eval()` (or a reduction, or an assignment), and chains fuse into one pass. Each is
/// the [`ElementwiseExt`] method of the same name, which also applies to expressions
/// (`(&a * 2.0).exp()`). Eager forms: [`Tensor::mapv`], [`Tensor::map`],
/// [`Tensor::clip`]; operators (`&a + &b`, `&a * 2.0`) are in the trait implementations
/// below.
///
/// ```
/// use mdtensor::{prelude::*, tensor};
/// let x = tensor![-1.0, 0.0, 4.0];
/// assert_eq!(x.relu().eval().to_vec(), [0.0, 0.0, 4.0]);
/// assert_eq!(x.abs().sqrt().to_vec(), [1.0, 0.0, 2.0]); // fused: one pass, no temporary
/// assert_eq!(x.cast::<i32>().to_vec(), [-1, 0, 4]);
/// ```
impl<T: Copy + Send + Sync, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    unary_methods!(
        Inexact:
        (exp, ExpOp, "`eˣ`"),
        (ln, LnOp, "natural logarithm"),
        (sqrt, SqrtOp, "square root"),
        (sin, SinOp, "sine"),
        (cos, CosOp, "cosine"),
        (tanh, TanhOp, "hyperbolic tangent"),
        (conj, ConjOp, "complex conjugate"),
    );
    unary_methods!(
        Inexact:
        (abs, AbsOp, "absolute value (of complex elements their modulus, a real tensor)"),
        (real, RealOp, "real part, a real tensor (numpy's `real`)"),
        (re, RealOp, "real part (`real` under `num-complex`'s name)"),
        (imag, ImagOp, "imaginary part, a real tensor (numpy's `imag`)"),
        (im, ImagOp, "imaginary part (`imag` under `num-complex`'s name)"),
        (angle, AngleOp, "argument `atan2(im, re)`, a real tensor (numpy's `angle`)"),
        (arg, AngleOp, "argument (`angle` under `num-complex`'s name)"),
        (norm_sqr, NormSqrOp, "squared modulus `re² + im²`, a real tensor"),
    );
    unary_methods!(
        Float:
        (sigmoid, SigmoidOp, "`1 / (1 + e⁻ˣ)`"),
        (relu, ReluOp, "`max(x, 0)` (NaN stays NaN)"),
        (floor, FloorOp, "rounding down"),
        (round, RoundOp, "rounding half away from zero"),
    );
    /// Elementwise `xⁿ` for an integer `n`, lazily; see [`ElementwiseExt::powi`].
    #[inline]
    pub fn powi(&self, n: i32) -> Unary<&Self, PowiOp>
    where
        T: Inexact,
    {
        ElementwiseExt::powi(self, n)
    }
    /// Elementwise `xᵖ` for a real `p`, lazily; see [`ElementwiseExt::powf`].
    #[inline]
    pub fn powf<P: Send + Sync>(&self, p: P) -> Unary<&Self, PowfOp<P>>
    where
        T: Inexact<Real = P>,
    {
        ElementwiseExt::powf(self, p)
    }
    /// Elementwise `xʷ` for a complex exponent `w` (a scalar or a broadcast operand), a
    /// complex expression, lazily: numpy's `x ** w` for complex `w`; see
    /// [`ElementwiseExt::powc`].
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor, Complex};
    /// let i = Complex::new(0.0, 1.0);
    /// let z = tensor![i, Complex::new(2.0, 0.0)];
    /// let p = z.powc(&tensor![Complex::new(2.0, 0.0), Complex::new(-1.0, 0.0)]).eval();
    /// assert_eq!(p.to_vec(), [Complex::new(-1.0, 0.0), Complex::new(0.5, 0.0)]);
    /// ```
    #[inline]
    pub fn powc<R: IntoExpr>(&self, w: R) -> Binary<&Self, R::Expr, PowcOp>
    where
        PowcOp: BinaryOp<T, <R::Expr as ExprShape>::Elem>,
        E: CanBroadcast<<R::Expr as ExprShape>::Extents>,
    {
        ElementwiseExt::powc(self, w)
    }
    /// Each element limited to `[lo, hi]`, lazily (NaN stays NaN); see
    /// [`ElementwiseExt::clamp`]. The eager form is [`Tensor::clip`].
    #[inline]
    pub fn clamp(&self, lo: T, hi: T) -> Unary<&Self, ClampOp<T>>
    where
        T: PartialOrd,
    {
        ElementwiseExt::clamp(self, lo, hi)
    }
    /// Each element converted with `as`, lazily: numpy's `a.astype(U)`; see
    /// [`ElementwiseExt::cast`].
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor};
    /// let a = tensor![[1.7f64, -2.2], [3.5, 0.0]];
    /// let b = a.cast::<i32>().eval();
    /// assert_eq!(b.to_vec(), [1, -2, 3, 0]);
    /// ```
    #[inline]
    pub fn cast<U: Copy + Send + Sync + 'static>(&self) -> Unary<&Self, CastOp<U>>
    where
        T: AsPrimitive<U>,
    {
        ElementwiseExt::cast(self)
    }
}

/// # Lazy comparisons
///
/// Each compares elementwise with another tensor, view, expression or scalar (broadcast
/// as numpy does) and builds a lazy `bool` [`Expr`](crate::Expr): evaluate it, reduce it
/// ([`Tensor::all`], [`Tensor::any`] after `.eval()`), or use it as the mask of
/// [`select`](crate::ops::select). Each is the [`ElementwiseExt`] method of the same name.
/// Whole-tensor equality is `==` ([`PartialEq`]).
///
/// ```
/// use mdtensor::{prelude::*, tensor};
/// let a = tensor![[1, 5], [3, 2]];
/// assert_eq!(a.gt(2).to_vec(), [false, true, true, false]);
/// assert_eq!(a.eq_elem(&a.t()).to_vec(), [true, false, false, true]);
/// ```
impl<T: Copy + Send + Sync, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    compare_methods!(
        (gt, GtOp, "a > b"),
        (ge, GeOp, "a >= b"),
        (lt, LtOp, "a < b"),
        (le, LeOp, "a <= b"),
        (eq_elem, EqOp, "a == b"),
        (ne_elem, NeOp, "a != b"),
    );
}
