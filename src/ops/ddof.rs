//! The `ddof` argument of the variance and standard deviation: numpy takes any number
//! (`var(ddof=1)`, `var(ddof=0.5)`), so every `var`/`std` method takes `impl Into<Ddof>`,
//! which an integer literal, a `usize` count or a float all are.

/// Delta degrees of freedom: the variance divides the sum of squared deviations by
/// `max(n - ddof, 0)`, as numpy does. `ddof >= n` therefore divides by zero: `inf` when the
/// deviations are not all zero, NaN when they are (numpy warns and gives the same).
///
/// ```
/// use mdtensor::tensor;
/// let a = tensor![1.0, 2.0];
/// assert_eq!(a.var(1), 0.5);          // an integer literal
/// assert_eq!(a.var(0.5), 1.0 / 3.0);  // a float, as numpy's ddof=0.5
/// assert_eq!(a.var(2usize), f64::INFINITY);
/// assert!(tensor![1.0f64, 1.0].var(2).is_nan());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd, Default)]
pub struct Ddof(pub f64);

impl Ddof {
    /// This `ddof` in the float type `R` (NaN where it does not convert): what the
    /// variance computes with, on the host and on the device.
    pub(crate) fn to_float<R: num_traits::Float>(self) -> R {
        R::from(self.0).unwrap_or_else(R::nan)
    }
}

/// numpy's divisor of the sum of squared deviations, `max(n - ddof, 0)` (a NaN `ddof`
/// stays NaN), with both already in the float type: the one rule of the host's `Var` and
/// of the device's empty-reduction value.
pub(crate) fn var_divisor<R: num_traits::Float>(n: R, ddof: R) -> R {
    let d = n - ddof;
    if d < R::zero() {
        R::zero()
    } else {
        d
    }
}

macro_rules! ddof_from {
    ($($t:ty),*) => {$(
        impl From<$t> for Ddof {
            #[inline]
            fn from(d: $t) -> Self {
                Ddof(d as f64)
            }
        }
    )*};
}
ddof_from!(usize, u8, u16, u32, u64, isize, i8, i16, i32, i64, f32, f64);
