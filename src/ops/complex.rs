//! Complex numbers: the lazy parts of complex elements (`conj`, `real`, `imag`, `angle`,
//! `norm_sqr`), complex elements built from two real operands ([`complex`]), powers with a
//! complex exponent ([`powc`], [`PowcOp`]), and numpy's `vdot` ([`Tensor::vdot`]).
//!
//! The ops are bounded on [`ComplexFloat`], so they apply to real floats too, as numpy's
//! do: the conjugate of a real number is itself, its imaginary part zero, its angle 0 or π.

use super::expr::{Binary, BinaryOp, IntoExpr, UnaryOp};
use super::ExprShape;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{CanBroadcast, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Inexact;
use crate::tensor::Tensor;
use num_complex::Complex;
use num_traits::{Float, NumCast};

/// Complex conjugate `re - im·i` (numpy's `conj`).
///
/// ```
/// use mdtensor::{ops::{ConjOp, UnaryOp}, Complex};
/// assert_eq!(ConjOp.apply(Complex::new(1.0, 2.0)), Complex::new(1.0, -2.0));
/// assert_eq!(ConjOp.apply(-1.5), -1.5);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct ConjOp;
impl<A: Inexact> UnaryOp<A> for ConjOp {
    type Out = A;
    #[inline(always)]
    fn apply(self, x: A) -> A {
        x.conj()
    }
}

/// Unary ops from an element to a real part of it.
macro_rules! part_ops {
    ($(($Op:ident, $doc:literal, $want:literal, |$x:ident| $body:expr)),* $(,)?) => {$(
        #[doc = $doc]
        ///
        /// ```
        #[doc = concat!("use mdtensor::{ops::{", stringify!($Op), ", UnaryOp}, Complex};")]
        #[doc = concat!("assert_eq!(", stringify!($Op), ".apply(Complex::new(3.0, 4.0)), ", $want, ");")]
        /// ```
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $Op;
        impl<A: Inexact> UnaryOp<A> for $Op
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
    (RealOp, "Real part (numpy's `real`).", "3.0", |x| x.re()),
    (ImagOp, "Imaginary part (numpy's `imag`; zero for a real number).", "4.0", |x| x.im()),
    (AngleOp, "Argument `atan2(im, re)` in `(-π, π]` (numpy's `angle`).", "4f64.atan2(3.0)", |x| x.arg()),
    (NormSqrOp, "Squared modulus `re² + im²` (no square root, unlike `abs`).", "25.0", |x| {
        let (re, im) = (x.re(), x.im());
        re * re + im * im
    }),
);

/// `re + im·i` from a real and an imaginary part: the operation of [`complex`].
///
/// ```
/// use mdtensor::{ops::{BinaryOp, ComplexOp}, Complex};
/// assert_eq!(ComplexOp.apply(1.0f32, -2.0), Complex::new(1.0, -2.0));
/// ```
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
/// assert!((unit.get([1]).unwrap().im - 1.0).abs() < 1e-15);
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

/// `zʷ` for a complex exponent `w`, with numpy's rules (`z ** w` on complex arrays):
/// `z⁰ = 1` for every `z`; `0ʷ` is `0` when `Re w > 0` and `nan+nanj` otherwise;
/// an integer exponent in `-100..100` by repeated multiplication (so `(1+1j)²` is exactly
/// `2j`); any other exponent by the principal value `exp(w · ln z)`.
///
/// ```
/// use mdtensor::{ops::powc, Complex};
/// let i = Complex::new(0.0f64, 1.0);
/// assert_eq!(powc(Complex::new(1.0, 1.0), Complex::new(2.0, 0.0)), Complex::new(0.0, 2.0));
/// assert_eq!(powc(Complex::new(0.0, 0.0), Complex::new(0.5, 0.0)), Complex::new(0.0, 0.0));
/// assert!(powc(Complex::new(0.0, 0.0), i).re.is_nan());
/// let r = powc(i, i); // e^(-π/2)
/// assert!((r.re - (-std::f64::consts::FRAC_PI_2).exp()).abs() < 1e-16 && r.im.abs() < 1e-16);
/// ```
pub fn powc<T: Float>(z: Complex<T>, w: Complex<T>) -> Complex<T> {
    let (zero, one) = (T::zero(), T::one());
    if w.re == zero && w.im == zero {
        return Complex::new(one, zero);
    }
    if z.re == zero && z.im == zero {
        // numpy's zero to a power: zero for a positive real part, else undefined.
        return if w.re > zero { Complex::new(zero, zero) } else { Complex::new(T::nan(), T::nan()) };
    }
    let small_int = |n: &i32| *n > -100 && *n < 100 && <T as NumCast>::from(*n) == Some(w.re);
    if let Some(n) = w.re.to_i32().filter(small_int).filter(|_| w.im == zero) {
        match n {
            1 => return z,
            2 => return z * z,
            3 => return z * z * z,
            _ => {
                // Binary powering, then one reciprocal for a negative power.
                let (mut acc, mut p, mut m) = (Complex::new(one, zero), z, n.unsigned_abs());
                loop {
                    if m & 1 == 1 {
                        acc = acc * p;
                    }
                    m >>= 1;
                    if m == 0 {
                        break;
                    }
                    p = p * p;
                }
                return if n < 0 { reciprocal(acc) } else { acc };
            }
        }
    }
    (w * z.ln()).exp()
}

/// `1 / z` by Smith's scaling, as numpy divides: no overflow of `|z|²` for large `z`.
fn reciprocal<T: Float>(z: Complex<T>) -> Complex<T> {
    if z.re.abs() >= z.im.abs() {
        let ratio = z.im / z.re;
        let denom = z.re + z.im * ratio;
        Complex::new(T::one() / denom, -ratio / denom)
    } else {
        let ratio = z.re / z.im;
        let denom = z.re * ratio + z.im;
        Complex::new(ratio / denom, -T::one() / denom)
    }
}

/// `zʷ` for a complex exponent: the operation of [`Tensor::powc`] and
/// [`ElementwiseExt::powc`](super::ElementwiseExt::powc) (numpy's rules: see [`powc`]).
/// A real base is taken as a complex number with a zero imaginary part.
///
/// ```
/// use mdtensor::{ops::{BinaryOp, PowcOp}, Complex};
/// assert_eq!(PowcOp.apply(Complex::new(0.0, 1.0), Complex::new(2.0, 0.0)), Complex::new(-1.0, 0.0));
/// assert_eq!(PowcOp.apply(4.0f32, Complex::new(0.5, 0.0)), Complex::new(2.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct PowcOp;
impl<A: Inexact> BinaryOp<A, Complex<A::Real>> for PowcOp {
    type Out = Complex<A::Real>;
    #[inline(always)]
    fn apply(self, z: A, w: Complex<A::Real>) -> Complex<A::Real> {
        powc(Complex::new(z.re(), z.im()), w)
    }
}

/// # Linear algebra: products
impl<T: Inexact, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// `Σ conj(a_i) · b_i` over both tensors flattened in logical order (numpy's `vdot`:
        /// the first operand conjugated, any shapes with the same number of elements); `Err`
        /// when the element counts differ. Of real tensors, their flattened dot product.
        ///
        /// ```
        /// use mdtensor::{tensor, Complex};
        /// let a = tensor![[Complex::new(0.0, 1.0), Complex::new(1.0, 0.0)]];
        /// assert_eq!(a.try_vdot(&a.t()).unwrap(), Complex::new(2.0, 0.0));
        /// assert!(a.try_vdot(&tensor![Complex::new(1.0, 0.0)]).is_err());
        /// ```
        pub fn try_vdot[E2: Extents, S2: Layout<E2>, St2: DenseStorage<T>](
            &self,
            rhs: &Tensor<T, E2, S2, St2>,
        ) -> Result<T, ShapeError>
        {
            let (n, n2) = (self.numel(), rhs.numel());
            if n != n2 {
                return Err(ShapeError::Incompatible {
                    op: "vdot",
                    lhs: self.shape(),
                    rhs: rhs.shape(),
                    reason: format!("element counts {n} and {n2} differ"),
                });
            }
            let term = |s: T, (&x, &y): (&T, &T)| s + x.conj() * y;
            if let (Some(a), Some(b)) = (self.as_slice(), rhs.as_slice()) {
                // Eight independent partial sums, as `dot`: a shorter error chain.
                let mut acc = [T::zero(); 8];
                let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
                let (ra, rb) = (ca.remainder(), cb.remainder());
                for (x, y) in ca.zip(cb) {
                    for l in 0..8 {
                        acc[l] = acc[l] + x[l].conj() * y[l];
                    }
                }
                let tail = ra.iter().zip(rb).fold(T::zero(), term);
                return Ok(((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7])) + tail);
            }
            Ok(self.iter().zip(rhs.iter()).fold(T::zero(), term))
        }
        /// See [`Tensor::try_vdot`].
        ///
        /// ```
        /// use mdtensor::{tensor, Complex};
        /// let a = tensor![Complex::new(1.0, 2.0), Complex::new(3.0, 4.0)];
        /// let b = tensor![Complex::new(5.0, 6.0), Complex::new(7.0, 8.0)];
        /// assert_eq!(a.vdot(&b), Complex::new(70.0, -8.0)); // numpy: (70-8j)
        /// assert_eq!(b.vdot(&a), Complex::new(70.0, 8.0));
        /// // Any shapes with as many elements: both are flattened.
        /// assert_eq!(tensor![[1.0, 2.0], [3.0, 4.0]].vdot(&tensor![1.0, 1.0, 1.0, 1.0]), 10.0);
        /// ```
        pub fn vdot;
    }
}
