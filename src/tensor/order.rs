//! numpy's order of elements, for `min`, `max`, `argmin`, `argmax`, `sort` and `argsort`:
//! the usual order of integers and real floats, the lexicographic order of complex numbers
//! (real parts first, then imaginary parts), and NaN handled as numpy handles it.
//!
//! One trait, [`NanOrd`], serves every element type those operations accept, so the
//! reductions and sorts are written once. For the real floats its methods are the
//! comparisons the code used before (`x != x`, `<`), inlined: the same machine code.

use core::cmp::Ordering;
use num_complex::Complex;
use num_traits::Float;

/// numpy's comparison of elements: what `min`, `max`, `argmin`, `argmax` (NaN propagates:
/// the first NaN wins) and `sort`, `argsort` (NaN last) ask of an element.
///
/// * Integers, `bool`, `char`: their usual order; nothing is NaN.
/// * `f32`, `f64`: the usual order; NaN is the one value not comparable with itself.
/// * [`Complex<f32>`](Complex), [`Complex<f64>`](Complex): lexicographic, the real parts
///   first, then the imaginary parts (numpy's order of complex numbers); a number is NaN
///   when either part is. Sorting puts them in numpy's classes `[R + Rj, R + nanj,
///   nan + Rj, nan + nanj]`, each sorted by its non-NaN part.
///
/// Implement it for an element type of your own to sort it and take its extremes.
///
/// ```
/// use mdtensor::{Complex, NanOrd};
/// use std::cmp::Ordering;
/// let (a, b) = (Complex::new(1.0, 5.0), Complex::new(2.0, -1.0));
/// assert!(a.lt_elem(&b));                      // real parts first
/// assert!(Complex::new(1.0, -1.0).lt_elem(&a)); // then imaginary parts
/// assert!(Complex::new(1.0, f64::NAN).is_nan_elem());
/// // Sorting: R + nanj after every number, before nan + Rj.
/// let c = Complex::new(f64::NAN, 0.0);
/// assert_eq!(Complex::new(9.0, f64::NAN).cmp_nan_last(&c), Ordering::Less);
/// assert_eq!(f64::NAN.cmp_nan_last(&1.0), Ordering::Greater);
/// assert_eq!(3.cmp_nan_last(&2), Ordering::Greater);
/// ```
pub trait NanOrd {
    /// Whether the value is NaN for numpy (of a complex number: either part).
    fn is_nan_elem(&self) -> bool;
    /// `self < other`, for values that are not NaN (lexicographic for complex numbers).
    fn lt_elem(&self, other: &Self) -> bool;
    /// numpy's sorting order: a total order with NaN after every number (see the trait).
    fn cmp_nan_last(&self, other: &Self) -> Ordering;
}

macro_rules! total {
    ($($t:ty),*) => {$(
        impl NanOrd for $t {
            #[inline(always)]
            fn is_nan_elem(&self) -> bool {
                false
            }
            #[inline(always)]
            fn lt_elem(&self, other: &Self) -> bool {
                self < other
            }
            #[inline(always)]
            fn cmp_nan_last(&self, other: &Self) -> Ordering {
                self.cmp(other)
            }
        }
    )*};
}
total!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, bool, char);

macro_rules! float {
    ($($t:ty),*) => {$(
        impl NanOrd for $t {
            #[inline(always)]
            #[allow(clippy::eq_op)]
            fn is_nan_elem(&self) -> bool {
                self != self
            }
            #[inline(always)]
            fn lt_elem(&self, other: &Self) -> bool {
                self < other
            }
            #[inline(always)]
            fn cmp_nan_last(&self, other: &Self) -> Ordering {
                self.partial_cmp(other).unwrap_or_else(|| self.is_nan().cmp(&other.is_nan()))
            }
        }
    )*};
}
float!(f32, f64);

impl<T: Float> NanOrd for Complex<T> {
    #[inline(always)]
    fn is_nan_elem(&self) -> bool {
        self.re.is_nan() || self.im.is_nan()
    }
    #[inline(always)]
    fn lt_elem(&self, other: &Self) -> bool {
        self.re < other.re || (self.re == other.re && self.im < other.im)
    }
    fn cmp_nan_last(&self, other: &Self) -> Ordering {
        // numpy's classes: no NaN, NaN imaginary part, NaN real part, both NaN; within a
        // class the parts that are not NaN decide, real first.
        let class = |z: &Self| (z.re.is_nan(), z.im.is_nan());
        let part = |a: T, b: T| a.partial_cmp(&b).unwrap_or(Ordering::Equal);
        let (ca, cb) = (class(self), class(other));
        ca.cmp(&cb).then_with(|| if ca.0 { Ordering::Equal } else { part(self.re, other.re) }).then_with(|| {
            if ca.1 {
                Ordering::Equal
            } else {
                part(self.im, other.im)
            }
        })
    }
}
