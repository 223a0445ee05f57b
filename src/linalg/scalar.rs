//! The element types of the linear-algebra routines: `f32`, `f64`, `Complex32`,
//! `Complex64`, the four faer computes with.

use faer::dyn_stack::MemStack;
use faer::linalg::evd::EvdError;
use faer::traits::ComplexField;
use faer::{MatMut, MatRef};
use num_complex::Complex;
use num_traits::{Float, One, Zero};

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
    impl Sealed for num_complex::Complex<f32> {}
    impl Sealed for num_complex::Complex<f64> {}
}

/// An element type of the linear-algebra routines (`f32`, `f64`, `Complex32`, `Complex64`).
///
/// `Real` is the type of norms, singular values and Hermitian eigenvalues (`f64` for
/// `Complex64`), `Complex` that of general eigenvalues (`Complex64` for `f64`).
///
/// ```
/// use mdtensor::linalg::LinalgScalar;
/// fn magnitude<T: LinalgScalar>(x: T) -> T::Re { x.modulus() }
/// assert_eq!(magnitude(mdtensor::Complex64::new(3.0, 4.0)), 5.0);
/// ```
pub trait LinalgScalar:
    ComplexField
    + sealed::Sealed
    + Copy
    + Send
    + Sync
    + core::fmt::Debug
    + PartialEq
    + Zero
    + One
    + core::ops::Add<Output = Self>
    + core::ops::Sub<Output = Self>
    + core::ops::Mul<Output = Self>
    + core::ops::Div<Output = Self>
    + core::ops::Neg<Output = Self>
    + core::ops::AddAssign
    + core::ops::SubAssign
    + core::ops::MulAssign
    + core::ops::DivAssign
    + 'static
{
    /// The real type of the same precision.
    type Re: LinalgScalar<Re = Self::Re> + Float;
    /// The complex type of the same precision.
    type Complex: LinalgScalar<Re = Self::Re>;
    /// Whether the type is complex.
    const IS_COMPLEX: bool;
    /// `|x|`.
    fn modulus(self) -> Self::Re;
    /// The real part.
    fn real_part(self) -> Self::Re;
    /// The complex conjugate (the value itself for a real type).
    fn conjugate(self) -> Self;
    /// A real number as this type.
    fn from_real(x: Self::Re) -> Self;
    /// This value as the complex type.
    fn to_complex(self) -> Self::Complex;
    /// Whether either part is NaN.
    fn has_nan(self) -> bool;
    /// faer's real type is this crate's (an identity: the two name the same type).
    #[doc(hidden)]
    fn real_from_faer(x: <Self as ComplexField>::Real) -> Self::Re;
    /// faer's complex type is this crate's (an identity).
    #[doc(hidden)]
    fn complex_from_faer(z: Complex<<Self::Complex as ComplexField>::Real>) -> Self::Complex;
    /// faer's general eigendecomposition of a complex matrix into caller-owned buffers
    /// (the eigenvalues in `s`, the right eigenvectors in `u` when given).
    #[doc(hidden)]
    fn complex_evd(
        a: MatRef<'_, Self::Complex>,
        s: &mut [Self::Complex],
        u: Option<MatMut<'_, Self::Complex>>,
        par: faer::Par,
        stack: &mut MemStack,
    ) -> Result<(), EvdError>;
}

/// The body of [`LinalgScalar::complex_evd`] for `Complex<$t>`.
macro_rules! complex_evd {
    ($t:ty) => {
        fn complex_evd(
            a: MatRef<'_, Complex<$t>>,
            s: &mut [Complex<$t>],
            u: Option<MatMut<'_, Complex<$t>>>,
            par: faer::Par,
            stack: &mut MemStack,
        ) -> Result<(), EvdError> {
            faer::linalg::evd::evd_cplx::<$t>(
                a,
                faer::ColMut::from_slice_mut(s).as_diagonal_mut(),
                None,
                u,
                par,
                stack,
                Default::default(),
            )
        }
    };
}

macro_rules! real {
    ($t:ty) => {
        impl LinalgScalar for $t {
            type Re = $t;
            type Complex = Complex<$t>;
            const IS_COMPLEX: bool = false;
            fn modulus(self) -> $t {
                self.abs()
            }
            fn real_part(self) -> $t {
                self
            }
            fn conjugate(self) -> Self {
                self
            }
            fn from_real(x: $t) -> Self {
                x
            }
            fn to_complex(self) -> Complex<$t> {
                Complex::new(self, 0.0)
            }
            fn has_nan(self) -> bool {
                self.is_nan()
            }
            fn real_from_faer(x: $t) -> $t {
                x
            }
            fn complex_from_faer(z: Complex<$t>) -> Complex<$t> {
                z
            }
            complex_evd!($t);
        }
        impl LinalgScalar for Complex<$t> {
            type Re = $t;
            type Complex = Complex<$t>;
            const IS_COMPLEX: bool = true;
            fn modulus(self) -> $t {
                self.norm()
            }
            fn real_part(self) -> $t {
                self.re
            }
            fn conjugate(self) -> Self {
                self.conj()
            }
            fn from_real(x: $t) -> Self {
                Complex::new(x, 0.0)
            }
            fn to_complex(self) -> Self {
                self
            }
            fn has_nan(self) -> bool {
                self.re.is_nan() || self.im.is_nan()
            }
            fn real_from_faer(x: $t) -> $t {
                x
            }
            fn complex_from_faer(z: Complex<$t>) -> Complex<$t> {
                z
            }
            complex_evd!($t);
        }
    };
}
real!(f32);
real!(f64);
