//! Reductions: `sum`, `prod`, `mean`, `var`, `std`, `min`, `max`, `argmin`, `argmax`,
//! `all`, `any`, over everything or along one axis (the axis is a const generic, so the
//! result's rank — and static extents — follow in the type).
//!
//! * Sums are blocked and pairwise (see [`crate::kernels::reduce`]): accurate, and the same
//!   for any number of threads.
//! * NaN follows numpy: `min`, `max`, `argmin`, `argmax` propagate NaN (the first NaN wins);
//!   `sum`/`mean` of data containing NaN are NaN.
//! * Complex numbers order as numpy orders them, real parts first, then imaginary parts, a
//!   NaN in either part counting as NaN (the element bound is [`NanOrd`]); their `var` and
//!   `std` are real (numpy's `mean(|z - mean(z)|²)`).
//! * Empty inputs: `sum` is 0, `prod` is 1, `mean`/`var` are NaN; `min`, `max`, `argmin`,
//!   `argmax` are `None` (along an axis of extent 0 the `try_` forms return `Err`).
//! * Several axes, or an axis known only at run time: see the `_axes` and `_axis_dyn`
//!   methods of [`Tensor`] (`t.sum_axes(&[0, 2])`, `t.sum_axis_dyn(axis)`).
//!
//! ```
//! use mdtensor::{tensor, Complex};
//! let z = tensor![[Complex::new(1.0, 2.0), Complex::new(1.0, -3.0)], [Complex::new(0.0, 9.0), Complex::new(1.0, 0.0)]];
//! assert_eq!(z.max(), Some(Complex::new(1.0, 2.0)));
//! assert_eq!(z.argmin(), Some(2));
//! assert_eq!(z.argmax_axis::<1>().to_vec(), [0, 1]);
//! let v: f64 = z.var(0); // a real number: Σ|z - mean|² / n
//! assert!((v - 19.6875).abs() < 1e-12);
//! ```

use super::ddof::{var_divisor, Ddof};
use super::expr::{Expr, PathsFor};
use crate::alloc::AlignedBuf;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::extents::{Extents, RemoveAxis};
use crate::kernels::reduce::{reduce_all, reduce_axis, AxisFacts, Reducer};
use crate::layout::RowMajor;
use crate::storage::Heap;
use crate::tensor::Tensor;
use crate::tensor::{Inexact, NanOrd};
use num_complex::ComplexFloat;
use num_traits::{Float, NumCast, One, Zero};

/// Σ x.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sum;
impl<T: Copy + Send + Sync + Zero> Reducer<T> for Sum {
    type Acc = T;
    type Out = T;
    #[inline(always)]
    fn init(&self) -> T {
        T::zero()
    }
    #[inline(always)]
    fn fold(&self, acc: T, x: T, _: usize) -> T {
        acc + x
    }
    #[inline(always)]
    fn combine(&self, a: T, b: T) -> T {
        a + b
    }
    #[inline(always)]
    fn finish(&self, acc: T, _: usize) -> T {
        acc
    }
}

/// Π x.
#[derive(Clone, Copy, Debug, Default)]
pub struct Prod;
impl<T: Copy + Send + Sync + One> Reducer<T> for Prod {
    type Acc = T;
    type Out = T;
    #[inline(always)]
    fn init(&self) -> T {
        T::one()
    }
    #[inline(always)]
    fn fold(&self, acc: T, x: T, _: usize) -> T {
        acc * x
    }
    #[inline(always)]
    fn combine(&self, a: T, b: T) -> T {
        a * b
    }
    #[inline(always)]
    fn finish(&self, acc: T, _: usize) -> T {
        acc
    }
}

/// Σ x / n (NaN for no elements), for real floats and complex numbers ([`Inexact`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Mean;
impl<T: Inexact> Reducer<T> for Mean {
    type Acc = T;
    type Out = T;
    #[inline(always)]
    fn init(&self) -> T {
        Reducer::<T>::init(&Sum)
    }
    #[inline(always)]
    fn fold(&self, acc: T, x: T, pos: usize) -> T {
        Sum.fold(acc, x, pos)
    }
    #[inline(always)]
    fn combine(&self, a: T, b: T) -> T {
        Reducer::<T>::combine(&Sum, a, b)
    }
    #[inline(always)]
    fn finish(&self, acc: T, n: usize) -> T {
        // Divided by a real count: of a complex sum each part, as numpy does.
        acc / <T::Real as NumCast>::from(n).expect("count as float")
    }
}

/// Variance by Welford's update, partial results merged with Chan's formula: one pass,
/// numerically stable, and parallel like every other reduction. Of complex numbers it is
/// numpy's `mean(|z - mean(z)|²)`, a real number (of the parts' type).
#[derive(Clone, Copy, Debug)]
pub struct Var {
    /// Delta degrees of freedom: the divisor is `max(n - ddof, 0)` (see [`Ddof`]).
    pub ddof: Ddof,
}
impl Var {
    /// The variance with `ddof` delta degrees of freedom.
    ///
    /// ```
    /// use mdtensor::ops::{Ddof, Var};
    /// assert_eq!(Var::new(1).ddof, Ddof(1.0));
    /// assert_eq!(Var::new(0.5).ddof, Ddof(0.5));
    /// ```
    pub fn new(ddof: impl Into<Ddof>) -> Self {
        Var { ddof: ddof.into() }
    }
}
/// `Re(conj(a) · b)`: of real numbers their product, of complex numbers the real part
/// of the Hermitian product (for `a = b` the squared modulus).
#[inline(always)]
fn re_dot<T: Inexact>(a: T, b: T) -> T::Real {
    (a.conj() * b).re()
}
impl<T: Inexact> Reducer<T> for Var {
    /// (count, mean, sum of squared deviations)
    type Acc = (T::Real, T, T::Real);
    type Out = T::Real;
    #[inline(always)]
    fn init(&self) -> Self::Acc {
        (T::Real::zero(), T::zero(), T::Real::zero())
    }
    #[inline(always)]
    fn fold(&self, (n, mean, m2): Self::Acc, x: T, _: usize) -> Self::Acc {
        let n1 = n + T::Real::one();
        let d = x - mean;
        let mean1 = mean + d / n1;
        (n1, mean1, m2 + re_dot(d, x - mean1))
    }
    #[inline(always)]
    fn combine(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc {
        if a.0 == T::Real::zero() {
            return b;
        }
        if b.0 == T::Real::zero() {
            return a;
        }
        let n = a.0 + b.0;
        let d = b.1 - a.1;
        (n, a.1 + d * b.0 / n, a.2 + b.2 + re_dot(d, d) * a.0 * b.0 / n)
    }
    #[inline(always)]
    fn finish(&self, acc: Self::Acc, n: usize) -> T::Real {
        let count = <T::Real as NumCast>::from(n).expect("count as float");
        // With ddof >= n the sum of squares divides by zero (inf, or NaN when it is zero
        // too, as for no elements).
        acc.2 / var_divisor(count, self.ddof.to_float())
    }
}

/// The position and value of the first extreme element; NaN counts as the extreme.
#[derive(Clone, Copy, Debug)]
pub struct Extreme<const MAX: bool>;

/// NaN-aware "is `b` better than `a`" for `Extreme`.
#[inline(always)]
fn better<T: NanOrd, const MAX: bool>(a: T, b: T) -> bool {
    let a_nan = a.is_nan_elem();
    let b_nan = b.is_nan_elem();
    if a_nan || b_nan {
        return b_nan && !a_nan;
    }
    if MAX {
        a.lt_elem(&b)
    } else {
        b.lt_elem(&a)
    }
}

impl<T: NanOrd + Copy + Send + Sync, const MAX: bool> Reducer<T> for Extreme<MAX> {
    type Acc = Option<(T, usize)>;
    type Out = Option<(T, usize)>;
    #[inline(always)]
    fn init(&self) -> Self::Acc {
        None
    }
    #[inline(always)]
    fn fold(&self, acc: Self::Acc, x: T, pos: usize) -> Self::Acc {
        match acc {
            Some((v, p)) if !better::<T, MAX>(v, x) => Some((v, p)),
            _ => Some((x, pos)),
        }
    }
    #[inline(always)]
    fn combine(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc {
        match (a, b) {
            (None, b) => b,
            (a, None) => a,
            (Some((va, pa)), Some((vb, pb))) => {
                // Lanes interleave positions: on a tie the earlier position wins.
                if better::<T, MAX>(va, vb) || (!better::<T, MAX>(vb, va) && pb < pa) {
                    Some((vb, pb))
                } else {
                    Some((va, pa))
                }
            }
        }
    }
    #[inline(always)]
    fn finish(&self, acc: Self::Acc, _: usize) -> Self::Acc {
        acc
    }
}

/// Logical and / or.
#[derive(Clone, Copy, Debug)]
pub struct Logical<const ALL: bool>;
impl<const ALL: bool> Reducer<bool> for Logical<ALL> {
    type Acc = bool;
    type Out = bool;
    #[inline(always)]
    fn init(&self) -> bool {
        ALL
    }
    #[inline(always)]
    fn fold(&self, acc: bool, x: bool, _: usize) -> bool {
        if ALL {
            acc & x
        } else {
            acc | x
        }
    }
    #[inline(always)]
    fn combine(&self, a: bool, b: bool) -> bool {
        self.fold(a, b, 0)
    }
    #[inline(always)]
    fn finish(&self, acc: bool, _: usize) -> bool {
        acc
    }
}

/// Whole-tensor reductions of any expression (tensors, views, fused expressions).
///
/// ```
/// use mdtensor::{prelude::*, tensor};
/// let t = tensor![[1.0, 5.0], [3.0, 2.0]];
/// assert_eq!(t.sum(), 11.0);
/// assert_eq!(t.max(), Some(5.0));
/// assert_eq!(t.argmin(), Some(0));
/// assert_eq!((&t * &t).sum(), 39.0); // fused: no temporary for t * t
/// ```
pub trait Reductions: Expr {
    /// Applies a [`Reducer`] to every element (checking dynamic broadcasting).
    fn try_reduce_with<R: Reducer<Self::Elem>>(self, r: R, par: Par) -> Result<R::Out, ShapeError> {
        let dims = self.shape()?;
        Ok(reduce_all::<Self, R, PathsFor<Self, Self::Extents, RowMajor>>(&self, dims.as_ref(), r, par))
    }
    forms! {
        /// Sum of all elements (0 when empty), with an explicit choice of threads (the same result whatever the
        /// threads); `Err` only when a fused expression's dynamic extents do not broadcast.
        fn try_sum_with[](self) with par -> Result<Self::Elem, ShapeError>
        where [Self::Elem: Zero,]
        {
            self.try_reduce_with(Sum, par)
        }
        /// Sum of all elements (0 when empty); `Err` only when a fused expression's dynamic extents do not
        /// broadcast.
        fn try_sum;
        /// Sum of all elements (0 when empty).
        fn sum;
        /// Sum of all elements (0 when empty), with an explicit choice of threads.
        fn sum_with;
    }

    forms! {
        /// Product of all elements (1 when empty), with an explicit choice of threads (the same result whatever the
        /// threads); `Err` only when a fused expression's dynamic extents do not broadcast.
        fn try_prod_with[](self) with par -> Result<Self::Elem, ShapeError>
        where [Self::Elem: One,]
        {
            self.try_reduce_with(Prod, par)
        }
        /// Product of all elements (1 when empty); `Err` only when a fused expression's dynamic extents do not
        /// broadcast.
        fn try_prod;
        /// Product of all elements (1 when empty).
        fn prod;
        /// Product of all elements (1 when empty), with an explicit choice of threads.
        fn prod_with;
    }

    forms! {
        /// Arithmetic mean (NaN when empty): numpy's `a.mean()`, with an explicit choice of threads (the same
        /// result whatever the threads); `Err` only when a fused expression's dynamic extents do not broadcast.
        fn try_mean_with[](self) with par -> Result<Self::Elem, ShapeError>
        where [Self::Elem: Inexact,]
        {
            self.try_reduce_with(Mean, par)
        }
        /// Arithmetic mean (NaN when empty): numpy's `a.mean()`; `Err` only when a fused expression's dynamic
        /// extents do not broadcast.
        fn try_mean;
        /// Arithmetic mean (NaN when empty): numpy's `a.mean()`.
        fn mean;
        /// Arithmetic mean (NaN when empty): numpy's `a.mean()`, with an explicit choice of threads.
        fn mean_with;
    }

    forms! {
        /// Variance with `ddof` delta degrees of freedom (numpy's `var(ddof=…)`, an integer or a float: [`Ddof`]);
        /// the divisor is `max(n - ddof, 0)`, so `ddof >= n` gives `inf` (NaN when every element is equal, and when
        /// there are none unless `ddof < 0`), with an explicit choice of threads (the same result whatever the
        /// threads); `Err` only when a fused expression's dynamic extents do not broadcast. Of complex elements
        /// a real number, numpy's `mean(|z - mean(z)|²)` (divided as above).
        fn try_var_with[](self, ddof: impl Into<Ddof>) with par -> Result< <Self::Elem as ComplexFloat>::Real, ShapeError>
        where [Self::Elem: Inexact,]
        {
            self.try_reduce_with(Var::new(ddof), par)
        }
        /// Variance with `ddof` delta degrees of freedom (numpy's `var(ddof=…)`, an integer or a float: [`Ddof`]);
        /// the divisor is `max(n - ddof, 0)`, so `ddof >= n` gives `inf` (NaN when every element is equal, and when
        /// there are none unless `ddof < 0`); `Err` only when a fused expression's dynamic extents do not
        /// broadcast.
        fn try_var;
        /// Variance with `ddof` delta degrees of freedom (numpy's `var(ddof=…)`, an integer or a float: [`Ddof`]);
        /// the divisor is `max(n - ddof, 0)`, so `ddof >= n` gives `inf` (NaN when every element is equal, and when
        /// there are none unless `ddof < 0`).
        fn var;
        /// Variance with `ddof` delta degrees of freedom (numpy's `var(ddof=…)`, an integer or a float: [`Ddof`]);
        /// the divisor is `max(n - ddof, 0)`, so `ddof >= n` gives `inf` (NaN when every element is equal, and when
        /// there are none unless `ddof < 0`), with an explicit choice of threads.
        fn var_with;
    }

    forms! {
        /// Standard deviation with `ddof` delta degrees of freedom, with an explicit choice of threads (the same
        /// result whatever the threads); `Err` only when a fused expression's dynamic extents do not broadcast.
        fn try_std_with[](self, ddof: impl Into<Ddof>) with par -> Result< <Self::Elem as ComplexFloat>::Real, ShapeError>
        where [Self::Elem: Inexact,]
        {
            Ok(Float::sqrt(self.try_var_with(ddof, par)?))
        }
        /// Standard deviation with `ddof` delta degrees of freedom; `Err` only when a fused expression's dynamic
        /// extents do not broadcast.
        fn try_std;
        /// Standard deviation with `ddof` delta degrees of freedom.
        fn std;
        /// Standard deviation with `ddof` delta degrees of freedom, with an explicit choice of threads.
        fn std_with;
    }

    forms! {
        /// Smallest element; NaN if any is NaN; `None` when empty, with an explicit choice of threads (the same
        /// result whatever the threads); `Err` only when a fused expression's dynamic extents do not broadcast.
        fn try_min_with[](self) with par -> Result<Option<Self::Elem>, ShapeError>
        where [Self::Elem: NanOrd,]
        {
            Ok(self.try_reduce_with(Extreme::<false>, par)?.map(|(v, _)| v))
        }
        /// Smallest element; NaN if any is NaN; `None` when empty; `Err` only when a fused expression's dynamic
        /// extents do not broadcast.
        fn try_min;
        /// Smallest element; NaN if any is NaN; `None` when empty.
        fn min;
        /// Smallest element; NaN if any is NaN; `None` when empty, with an explicit choice of threads.
        fn min_with;
    }

    forms! {
        /// Largest element; NaN if any is NaN; `None` when empty, with an explicit choice of threads (the same
        /// result whatever the threads); `Err` only when a fused expression's dynamic extents do not broadcast.
        fn try_max_with[](self) with par -> Result<Option<Self::Elem>, ShapeError>
        where [Self::Elem: NanOrd,]
        {
            Ok(self.try_reduce_with(Extreme::<true>, par)?.map(|(v, _)| v))
        }
        /// Largest element; NaN if any is NaN; `None` when empty; `Err` only when a fused expression's dynamic
        /// extents do not broadcast.
        fn try_max;
        /// Largest element; NaN if any is NaN; `None` when empty.
        fn max;
        /// Largest element; NaN if any is NaN; `None` when empty, with an explicit choice of threads.
        fn max_with;
    }

    forms! {
        /// Row-major position of the first smallest element (of the first NaN, if any), with an explicit choice of
        /// threads (the same result whatever the threads); `Err` only when a fused expression's dynamic extents do
        /// not broadcast.
        fn try_argmin_with[](self) with par -> Result<Option<usize>, ShapeError>
        where [Self::Elem: NanOrd,]
        {
            Ok(self.try_reduce_with(Extreme::<false>, par)?.map(|(_, p)| p))
        }
        /// Row-major position of the first smallest element (of the first NaN, if any); `Err` only when a fused
        /// expression's dynamic extents do not broadcast.
        fn try_argmin;
        /// Row-major position of the first smallest element (of the first NaN, if any).
        fn argmin;
        /// Row-major position of the first smallest element (of the first NaN, if any), with an explicit choice of
        /// threads.
        fn argmin_with;
    }

    forms! {
        /// Row-major position of the first largest element (of the first NaN, if any): numpy's `a.argmax()`, with
        /// an explicit choice of threads (the same result whatever the threads); `Err` only when a fused
        /// expression's dynamic extents do not broadcast.
        fn try_argmax_with[](self) with par -> Result<Option<usize>, ShapeError>
        where [Self::Elem: NanOrd,]
        {
            Ok(self.try_reduce_with(Extreme::<true>, par)?.map(|(_, p)| p))
        }
        /// Row-major position of the first largest element (of the first NaN, if any): numpy's `a.argmax()`; `Err`
        /// only when a fused expression's dynamic extents do not broadcast.
        fn try_argmax;
        /// Row-major position of the first largest element (of the first NaN, if any): numpy's `a.argmax()`.
        fn argmax;
        /// Row-major position of the first largest element (of the first NaN, if any): numpy's `a.argmax()`, with
        /// an explicit choice of threads.
        fn argmax_with;
    }

    forms! {
        /// Whether every element is true (true when empty), with an explicit choice of threads (the same result
        /// whatever the threads); `Err` only when a fused expression's dynamic extents do not broadcast.
        fn try_all_with[](self) with par -> Result<bool, ShapeError>
        where [Self: Expr<Elem = bool>,]
        {
            self.try_reduce_with(Logical::<true>, par)
        }
        /// Whether every element is true (true when empty); `Err` only when a fused expression's dynamic extents do
        /// not broadcast.
        fn try_all;
        /// Whether every element is true (true when empty).
        fn all;
        /// Whether every element is true (true when empty), with an explicit choice of threads.
        fn all_with;
    }

    forms! {
        /// Whether some element is true (false when empty), with an explicit choice of threads (the same result
        /// whatever the threads); `Err` only when a fused expression's dynamic extents do not broadcast.
        fn try_any_with[](self) with par -> Result<bool, ShapeError>
        where [Self: Expr<Elem = bool>,]
        {
            self.try_reduce_with(Logical::<false>, par)
        }
        /// Whether some element is true (false when empty); `Err` only when a fused expression's dynamic extents do
        /// not broadcast.
        fn try_any;
        /// Whether some element is true (false when empty).
        fn any;
        /// Whether some element is true (false when empty), with an explicit choice of threads.
        fn any_with;
    }
}
impl<X: Expr> Reductions for X {}

/// Where axis `I` of extents `E` lies, for the kernel (see `kernels::reduce::AxisFacts`).
struct AxisOf<E, const I: usize>(core::marker::PhantomData<E>);
impl<E: Extents, const I: usize> AxisFacts for AxisOf<E, I> {
    const LAST: bool = matches!(E::RANK, Some(r) if I + 1 == r);
    const NOT_LAST: bool = matches!(E::RANK, Some(r) if I + 1 != r);
}

type Reduced<T, E, const I: usize> = Tensor<T, <E as RemoveAxis<I>>::Output>;

fn axis_reduce<X: Expr, R: Reducer<X::Elem>, const I: usize>(
    x: &X,
    r: R,
    par: Par,
) -> Result<Reduced<R::Out, X::Extents, I>, ShapeError>
where
    X::Extents: RemoveAxis<I>,
{
    let dims = x.shape()?;
    let ext = X::Extents::from_dims(dims.as_ref())?;
    let out_ext = ext.remove_axis()?;
    let n = out_ext.numel();
    // SAFETY: reduce_axis writes every one of the `n` outputs (row-major over the
    // remaining axes) exactly once.
    let buf = unsafe {
        AlignedBuf::try_from_raw_init(n, |p| {
            reduce_axis::<X, R, PathsFor<X, X::Extents, RowMajor>, AxisOf<X::Extents, I>>(
                x,
                dims.as_ref(),
                I,
                r,
                par,
                p,
            )
        })
    }
    .map_err(|e| e.with_op("reduce_axis"))?;
    // SAFETY: a row-major buffer of exactly numel elements.
    Ok(unsafe { Tensor::from_parts_unchecked(Heap::from_aligned(buf), out_ext, ()) })
}

/// Reductions along one axis `I` (a const generic: the result's extents are
/// `<E as RemoveAxis<I>>::Output`, and an axis beyond a static rank does not compile).
///
/// ```
/// use mdtensor::{prelude::*, ext, tensor};
/// let t = tensor![[1, 2, 3], [4, 5, 6]];
/// let s = t.sum_axis::<0>();
/// let _: &ext![3] = s.extents();
/// assert_eq!(s.to_vec(), [5, 7, 9]);
/// assert_eq!(t.sum_axis::<1>().to_vec(), [6, 15]);
/// assert_eq!(t.argmax_axis::<1>().to_vec(), [2, 2]);
/// let k = t.sum_axis::<1>().keepdims::<1>(); // numpy's keepdims=True
/// let _: &ext![2, 1] = k.extents();
/// ```
pub trait AxisReductions: Expr {
    /// Applies a [`Reducer`] along axis `I`.
    fn try_reduce_axis_with<R: Reducer<Self::Elem>, const I: usize>(
        self,
        r: R,
        par: Par,
    ) -> Result<Reduced<R::Out, Self::Extents, I>, ShapeError>
    where
        Self::Extents: RemoveAxis<I>,
    {
        axis_reduce::<Self, R, I>(&self, r, par)
    }
    forms! {
        /// Sum along axis `I`, with an explicit choice of threads (the same result whatever the
        /// threads); `Err` only for [`DynRank`](crate::DynRank) when `I >= rank`, or when a fused expression's dynamic
        /// extents do not broadcast.
        fn try_sum_axis_with[const I: usize]::<I>(self) with par
            -> Result<Reduced<Self::Elem, Self::Extents, I>, ShapeError>
        where [Self::Elem: Zero, Self::Extents: RemoveAxis<I>]
        {
            self.try_reduce_axis_with::<_, I>(Sum, par)
        }
        /// Sum along axis `I`; `Err` only for [`DynRank`](crate::DynRank) when `I >= rank`, or when a fused
        /// expression's dynamic extents do not broadcast.
        fn try_sum_axis;
        /// Sum along axis `I`.
        fn sum_axis;
        /// Sum along axis `I`, with an explicit choice of threads.
        fn sum_axis_with;
    }

    forms! {
        /// Product along axis `I`, with an explicit choice of threads (the same result whatever the
        /// threads); `Err` only for [`DynRank`](crate::DynRank) when `I >= rank`, or when a fused expression's dynamic
        /// extents do not broadcast.
        fn try_prod_axis_with[const I: usize]::<I>(self) with par
            -> Result<Reduced<Self::Elem, Self::Extents, I>, ShapeError>
        where [Self::Elem: One, Self::Extents: RemoveAxis<I>]
        {
            self.try_reduce_axis_with::<_, I>(Prod, par)
        }
        /// Product along axis `I`; `Err` only for [`DynRank`](crate::DynRank) when `I >= rank`, or when a fused
        /// expression's dynamic extents do not broadcast.
        fn try_prod_axis;
        /// Product along axis `I`.
        fn prod_axis;
        /// Product along axis `I`, with an explicit choice of threads.
        fn prod_axis_with;
    }

    forms! {
        /// Mean along axis `I` (NaN along an empty axis), with an explicit choice of threads (the same result whatever
        /// the
        /// threads); `Err` only for [`DynRank`](crate::DynRank) when `I >= rank`, or when a fused expression's dynamic
        /// extents do not broadcast.
        fn try_mean_axis_with[const I: usize]::<I>(self) with par
            -> Result<Reduced<Self::Elem, Self::Extents, I>, ShapeError>
        where [Self::Elem: Inexact, Self::Extents: RemoveAxis<I>]
        {
            self.try_reduce_axis_with::<_, I>(Mean, par)
        }
        /// Mean along axis `I` (NaN along an empty axis); `Err` only for [`DynRank`](crate::DynRank) when `I >= rank`,
        /// or when a fused expression's dynamic extents do not broadcast.
        fn try_mean_axis;
        /// Mean along axis `I` (NaN along an empty axis).
        fn mean_axis;
        /// Mean along axis `I` (NaN along an empty axis), with an explicit choice of threads.
        fn mean_axis_with;
    }

    forms! {
        /// Variance along axis `I` with `ddof` delta degrees of freedom, with an explicit choice of threads (the same
        /// result whatever the
        /// threads); `Err` only for [`DynRank`](crate::DynRank) when `I >= rank`, or when a fused expression's dynamic
        /// extents do not broadcast.
        fn try_var_axis_with[const I: usize]::<I>(self, ddof: impl Into<Ddof>) with par
            -> Result<Reduced<<Self::Elem as ComplexFloat>::Real, Self::Extents, I>, ShapeError>
        where [Self::Elem: Inexact, Self::Extents: RemoveAxis<I>]
        {
            self.try_reduce_axis_with::<_, I>(Var::new(ddof), par)
        }
        /// Variance along axis `I` with `ddof` delta degrees of freedom; `Err` only for [`DynRank`](crate::DynRank)
        /// when `I >= rank`, or when a fused expression's dynamic extents do not broadcast.
        fn try_var_axis;
        /// Variance along axis `I` with `ddof` delta degrees of freedom.
        fn var_axis;
        /// Variance along axis `I` with `ddof` delta degrees of freedom, with an explicit choice of threads.
        fn var_axis_with;
    }

    forms! {
        /// Standard deviation along axis `I` with `ddof` delta degrees of freedom, with an explicit choice of threads
        /// (the same result whatever the
        /// threads); `Err` only for [`DynRank`](crate::DynRank) when `I >= rank`, or when a fused expression's dynamic
        /// extents do not broadcast.
        fn try_std_axis_with[const I: usize]::<I>(self, ddof: impl Into<Ddof>) with par
            -> Result<Reduced<<Self::Elem as ComplexFloat>::Real, Self::Extents, I>, ShapeError>
        where [Self::Elem: Inexact, Self::Extents: RemoveAxis<I>]
        {
            self.try_var_axis_with::<I>(ddof, par)?.try_map_op("std_axis", |&v: &<Self::Elem as ComplexFloat>::Real| Float::sqrt(v))
        }
        /// Standard deviation along axis `I` with `ddof` delta degrees of freedom; `Err` only for
        /// [`DynRank`](crate::DynRank) when `I >= rank`, or when a fused expression's dynamic extents do not broadcast.
        fn try_std_axis;
        /// Standard deviation along axis `I` with `ddof` delta degrees of freedom.
        fn std_axis;
        /// Standard deviation along axis `I` with `ddof` delta degrees of freedom, with an explicit choice of threads.
        fn std_axis_with;
    }

    forms! {
        /// Smallest element along axis `I` (NaN propagates), with an explicit choice of threads (the same result
        /// whatever the
        /// threads); `Err` for an empty axis, for [`DynRank`](crate::DynRank) when `I >= rank`, or when a fused
        /// expression's dynamic extents do not broadcast.
        fn try_min_axis_with[const I: usize]::<I>(self) with par
            -> Result<Reduced<Self::Elem, Self::Extents, I>, ShapeError>
        where [Self::Elem: NanOrd, Self::Extents: RemoveAxis<I>]
        {
            let empty = self.shape()?.as_ref().get(I) == Some(&0);
            extreme_values(self.try_reduce_axis_with::<_, I>(Extreme::<false>, par)?, "min_axis", empty)
        }
        /// Smallest element along axis `I` (NaN propagates); `Err` for an empty axis, for [`DynRank`](crate::DynRank)
        /// when `I >= rank`, or when a fused expression's dynamic extents do not broadcast.
        fn try_min_axis;
        /// Smallest element along axis `I` (NaN propagates).
        fn min_axis;
        /// Smallest element along axis `I` (NaN propagates), with an explicit choice of threads.
        fn min_axis_with;
    }

    forms! {
        /// Largest element along axis `I` (NaN propagates), with an explicit choice of threads (the same result
        /// whatever the
        /// threads); `Err` for an empty axis, for [`DynRank`](crate::DynRank) when `I >= rank`, or when a fused
        /// expression's dynamic extents do not broadcast.
        fn try_max_axis_with[const I: usize]::<I>(self) with par
            -> Result<Reduced<Self::Elem, Self::Extents, I>, ShapeError>
        where [Self::Elem: NanOrd, Self::Extents: RemoveAxis<I>]
        {
            let empty = self.shape()?.as_ref().get(I) == Some(&0);
            extreme_values(self.try_reduce_axis_with::<_, I>(Extreme::<true>, par)?, "max_axis", empty)
        }
        /// Largest element along axis `I` (NaN propagates); `Err` for an empty axis, for [`DynRank`](crate::DynRank)
        /// when `I >= rank`, or when a fused expression's dynamic extents do not broadcast.
        fn try_max_axis;
        /// Largest element along axis `I` (NaN propagates).
        fn max_axis;
        /// Largest element along axis `I` (NaN propagates), with an explicit choice of threads.
        fn max_axis_with;
    }

    forms! {
        /// Index along axis `I` of the first smallest element (of the first NaN), with an explicit choice of threads
        /// (the same result whatever the
        /// threads); `Err` for an empty axis, for [`DynRank`](crate::DynRank) when `I >= rank`, or when a fused
        /// expression's dynamic extents do not broadcast.
        fn try_argmin_axis_with[const I: usize]::<I>(self) with par
            -> Result<Reduced<usize, Self::Extents, I>, ShapeError>
        where [Self::Elem: NanOrd, Self::Extents: RemoveAxis<I>]
        {
            let empty = self.shape()?.as_ref().get(I) == Some(&0);
            extreme_positions(self.try_reduce_axis_with::<_, I>(Extreme::<false>, par)?, "argmin_axis", empty)
        }
        /// Index along axis `I` of the first smallest element (of the first NaN); `Err` for an empty axis, for
        /// [`DynRank`](crate::DynRank) when `I >= rank`, or when a fused expression's dynamic extents do not broadcast.
        fn try_argmin_axis;
        /// Index along axis `I` of the first smallest element (of the first NaN).
        fn argmin_axis;
        /// Index along axis `I` of the first smallest element (of the first NaN), with an explicit choice of threads.
        fn argmin_axis_with;
    }

    forms! {
        /// Index along axis `I` of the first largest element (of the first NaN), with an explicit choice of threads
        /// (the same result whatever the
        /// threads); `Err` for an empty axis, for [`DynRank`](crate::DynRank) when `I >= rank`, or when a fused
        /// expression's dynamic extents do not broadcast.
        fn try_argmax_axis_with[const I: usize]::<I>(self) with par
            -> Result<Reduced<usize, Self::Extents, I>, ShapeError>
        where [Self::Elem: NanOrd, Self::Extents: RemoveAxis<I>]
        {
            let empty = self.shape()?.as_ref().get(I) == Some(&0);
            extreme_positions(self.try_reduce_axis_with::<_, I>(Extreme::<true>, par)?, "argmax_axis", empty)
        }
        /// Index along axis `I` of the first largest element (of the first NaN); `Err` for an empty axis, for
        /// [`DynRank`](crate::DynRank) when `I >= rank`, or when a fused expression's dynamic extents do not broadcast.
        fn try_argmax_axis;
        /// Index along axis `I` of the first largest element (of the first NaN).
        fn argmax_axis;
        /// Index along axis `I` of the first largest element (of the first NaN), with an explicit choice of threads.
        fn argmax_axis_with;
    }

    forms! {
        /// Whether every element along axis `I` is true, with an explicit choice of threads (the same result whatever
        /// the
        /// threads); `Err` only for [`DynRank`](crate::DynRank) when `I >= rank`, or when a fused expression's dynamic
        /// extents do not broadcast.
        fn try_all_axis_with[const I: usize]::<I>(self) with par
            -> Result<Reduced<bool, Self::Extents, I>, ShapeError>
        where [Self: Expr<Elem = bool>, Self::Extents: RemoveAxis<I>]
        {
            self.try_reduce_axis_with::<_, I>(Logical::<true>, par)
        }
        /// Whether every element along axis `I` is true; `Err` only for [`DynRank`](crate::DynRank) when `I >= rank`,
        /// or when a fused expression's dynamic extents do not broadcast.
        fn try_all_axis;
        /// Whether every element along axis `I` is true.
        fn all_axis;
        /// Whether every element along axis `I` is true, with an explicit choice of threads.
        fn all_axis_with;
    }

    forms! {
        /// Whether some element along axis `I` is true, with an explicit choice of threads (the same result whatever
        /// the
        /// threads); `Err` only for [`DynRank`](crate::DynRank) when `I >= rank`, or when a fused expression's dynamic
        /// extents do not broadcast.
        fn try_any_axis_with[const I: usize]::<I>(self) with par
            -> Result<Reduced<bool, Self::Extents, I>, ShapeError>
        where [Self: Expr<Elem = bool>, Self::Extents: RemoveAxis<I>]
        {
            self.try_reduce_axis_with::<_, I>(Logical::<false>, par)
        }
        /// Whether some element along axis `I` is true; `Err` only for [`DynRank`](crate::DynRank) when `I >= rank`, or
        /// when a fused expression's dynamic extents do not broadcast.
        fn try_any_axis;
        /// Whether some element along axis `I` is true.
        fn any_axis;
        /// Whether some element along axis `I` is true, with an explicit choice of threads.
        fn any_axis_with;
    }
}
impl<X: Expr> AxisReductions for X {}

/// The values of an extreme reduction; `Err` when a reduced axis is `empty` (even with no
/// outputs, as numpy: a maximum of nothing has no value).
pub(crate) fn extreme_values<T: Copy, E: Extents>(
    t: Tensor<Option<(T, usize)>, E>,
    op: &'static str,
    empty: bool,
) -> Result<Tensor<T, E>, ShapeError> {
    if empty || t.iter().any(|x| x.is_none()) {
        return Err(ShapeError::InvalidArgument { op, reason: "the reduced axis is empty".into() });
    }
    t.try_map_op(op, |x| x.expect("checked").0)
}
/// The positions of an extreme reduction; `Err` as [`extreme_values`].
pub(crate) fn extreme_positions<T: Copy, E: Extents>(
    t: Tensor<Option<(T, usize)>, E>,
    op: &'static str,
    empty: bool,
) -> Result<Tensor<usize, E>, ShapeError> {
    if empty || t.iter().any(|x| x.is_none()) {
        return Err(ShapeError::InvalidArgument { op, reason: "the reduced axis is empty".into() });
    }
    t.try_map_op(op, |x| x.expect("checked").1)
}
