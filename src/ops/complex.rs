//! Complex numbers: the lazy parts of complex elements (`conj`, `real`, `imag`, `angle`,
//! `norm_sqr`) and complex elements built from two real operands ([`complex`]).
//!
//! The ops are bounded on [`ComplexFloat`], so they apply to real floats too, as numpy's
//! do: the conjugate of a real number is itself, its imaginary part zero, its angle 0 or π.

use super::expr::{Binary, BinaryOp, IntoExpr, UnaryOp};
use super::ExprShape;
use crate::extents::CanBroadcast;
use num_complex::{Complex, ComplexFloat};
use num_traits::Float;

/// Complex conjugate `re - im·i` (numpy's `conj`).
#[derive(Clone, Copy, Debug, Default)]
pub struct ConjOp;
impl<A: ComplexFloat + Send + Sync> UnaryOp<A> for ConjOp {
    type Out = A;
    #[inline(always)]
    fn apply(self, x: A) -> A {
        x.conj()
    }
}

/// Unary ops from an element to a real part of it.
macro_rules! part_ops {
    ($(($Op:ident, $doc:literal, |$x:ident| $body:expr)),* $(,)?) => {$(
        #[doc = $doc]
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $Op;
        impl<A: ComplexFloat + Send + Sync> UnaryOp<A> for $Op
        where
            A::Real: Send + Sync,
        {
            type Out = A::Real;
            #[inline(always)]
            fn apply(self, $x: A) -> A::Real {
                $body
            }
        }
    )*};
}
part_ops!(
    (RealOp, "Real part (numpy's `real`).", |x| x.re()),
    (ImagOp, "Imaginary part (numpy's `imag`; zero for a real number).", |x| x.im()),
    (AngleOp, "Argument `atan2(im, re)` in `(-π, π]` (numpy's `angle`).", |x| x.arg()),
    (NormSqrOp, "Squared modulus `re² + im²` (no square root, unlike `abs`).", |x| {
        let (re, im) = (x.re(), x.im());
        re * re + im * im
    }),
);

/// `re + im·i` from a real and an imaginary part.
#[derive(Clone, Copy, Debug, Default)]
pub struct ComplexOp;
impl<T: Float + Send + Sync> BinaryOp<T, T> for ComplexOp {
    type Out = Complex<T>;
    #[inline(always)]
    fn apply(self, re: T, im: T) -> Complex<T> {
        Complex::new(re, im)
    }
}

/// Complex elements `re + im·i` from real and imaginary parts (tensors, views, expressions
/// or scalars), broadcast against each other, lazily: numpy's `re + 1j * im`.
///
/// ```
/// use mdtensor::{ops::complex, prelude::*, tensor, Complex};
/// let z = complex(&tensor![1.0, 2.0], &tensor![0.5, -1.0]).eval();
/// assert_eq!(z.to_vec(), [Complex::new(1.0, 0.5), Complex::new(2.0, -1.0)]);
/// // A scalar part broadcasts: the points on the unit circle's upper half, here 0 and i.
/// let angles = tensor![0.0f64, std::f64::consts::FRAC_PI_2];
/// let unit = complex(angles.cos(), angles.sin()).eval();
/// assert!((unit.get([1]).im - 1.0).abs() < 1e-15);
/// assert_eq!(complex(&tensor![1.0f32, 2.0], 0.0f32).eval().imag().to_vec(), [0.0, 0.0]);
/// ```
pub fn complex<R, I>(re: R, im: I) -> Binary<R::Expr, I::Expr, ComplexOp>
where
    R: IntoExpr,
    I: IntoExpr,
    <R::Expr as ExprShape>::Extents: CanBroadcast<<I::Expr as ExprShape>::Extents>,
{
    Binary::new(re.into_expr(), im.into_expr(), ComplexOp)
}
