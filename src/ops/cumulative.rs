//! Running sums and products along an axis: numpy's `cumsum(a, axis)` and
//! `cumprod(a, axis)`, for any stride policy; the result has the input's extents. Without
//! an axis numpy flattens first: [`Tensor::cumsum_flat`], [`Tensor::cumprod_flat`].
//!
//! Integer running sums and products wrap on overflow, as numpy's do (numpy first widens
//! integers narrower than its default integer, so its `int8` cumsum wraps at 64 bits while
//! here an `i8` one wraps at 8: widen with `mapv` first for numpy's figures). Never a
//! panic, in debug builds too: see [`Accumulate`].

use super::axiswise::{around, check_axis};
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Axis, AxisAt, Dyn, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// The arithmetic of running sums and products: numpy's, which wraps integers on overflow
/// (the plain `+` would panic in debug builds and wrap in release) and follows IEEE 754 for
/// floats. Implemented for the primitive numbers; implement it for an element type of your
/// own to give it cumulative operations.
///
/// ```
/// use mdtensor::{ops::Accumulate, tensor};
/// assert_eq!(i8::MAX.acc_add(&1), i8::MIN);
/// assert_eq!(tensor![100i8, 100].cumsum_dyn(0).to_vec(), [100, -56]);
/// assert_eq!(tensor![0.5f64, 4.0].cumprod_dyn(0).to_vec(), [0.5, 2.0]);
/// ```
pub trait Accumulate: Clone {
    /// `self + rhs`, wrapping for integers.
    fn acc_add(&self, rhs: &Self) -> Self;
    /// `self * rhs`, wrapping for integers.
    fn acc_mul(&self, rhs: &Self) -> Self;
}
macro_rules! accumulate_wrapping {
    ($($t:ty)*) => {$(
        impl Accumulate for $t {
            #[inline]
            fn acc_add(&self, rhs: &Self) -> Self {
                self.wrapping_add(*rhs)
            }
            #[inline]
            fn acc_mul(&self, rhs: &Self) -> Self {
                self.wrapping_mul(*rhs)
            }
        }
    )*};
}
accumulate_wrapping!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize);
macro_rules! accumulate_float {
    ($($t:ty)*) => {$(
        impl Accumulate for $t {
            #[inline]
            fn acc_add(&self, rhs: &Self) -> Self {
                self + rhs
            }
            #[inline]
            fn acc_mul(&self, rhs: &Self) -> Self {
                self * rhs
            }
        }
    )*};
}
accumulate_float!(f32 f64);

/// `x[…, j, …] = f(x[…, j - 1, …], x[…, j, …])` along `axis`, in a row-major copy.
fn scan<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    axis: usize,
    f: impl Fn(&T, &T) -> T,
) -> Result<Tensor<T, E>, ShapeError> {
    scan_cleaned(t, op, axis, |_| {}, f)
}

/// [`scan`] of the elements after `clean` (numpy's `nancumsum` replaces NaN first).
pub(super) fn scan_cleaned<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    axis: usize,
    clean: impl Fn(&mut T),
    f: impl Fn(&T, &T) -> T,
) -> Result<Tensor<T, E>, ShapeError> {
    check_axis(op, axis, t.rank())?;
    // The result is as large as the input: one fallible copy, scanned in place.
    let mut v = t.to_vec_op(op)?;
    v.iter_mut().for_each(clean);
    let (outer, n, inner) = around(t.dims().as_ref(), axis);
    // No elements: nothing to scan, however many empty blocks the other axes describe.
    let outer = if v.is_empty() { 0 } else { outer };
    for o in 0..outer {
        let block = o * n * inner;
        for p in block + inner..block + n * inner {
            v[p] = f(&v[p - inner], &v[p]);
        }
    }
    Tensor::try_from_vec(t.extents().clone(), v).map_err(|(e, _)| e)
}

/// Running `f` over all elements in logical order: numpy's cumulative functions without an
/// axis.
fn scan_flat<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    f: impl Fn(&T, &T) -> T,
) -> Result<Tensor<T, (Dyn,)>, ShapeError> {
    scan_flat_cleaned(t, op, |_| {}, f)
}

/// [`scan_flat`] of the elements after `clean`.
pub(super) fn scan_flat_cleaned<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    clean: impl Fn(&mut T),
    f: impl Fn(&T, &T) -> T,
) -> Result<Tensor<T, (Dyn,)>, ShapeError> {
    let mut v = t.to_vec_op(op)?;
    v.iter_mut().for_each(clean);
    for p in 1..v.len() {
        v[p] = f(&v[p - 1], &v[p]);
    }
    Tensor::try_from_vec([v.len()], v).map_err(|(e, _)| e)
}

/// # Cumulative sums and products
impl<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::cumsum_flat`]; `Err` only when the allocator refuses the result.
        pub fn try_cumsum_flat[](&self) -> Result<Tensor<T, (Dyn,)>, ShapeError>
        where [T: Accumulate]
        {
            scan_flat(self, "cumsum_flat", T::acc_add)
        }
        /// Running sums of all elements in logical (row-major) order, a vector (numpy's
        /// `cumsum(a)` without an axis).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[1, 2], [3, 4]].t().cumsum_flat().to_vec(), [1, 4, 6, 10]);
        /// ```
        pub fn cumsum_flat;
    }
    forms! {
        /// See [`Tensor::cumprod_flat`]; `Err` only when the allocator refuses the result.
        pub fn try_cumprod_flat[](&self) -> Result<Tensor<T, (Dyn,)>, ShapeError>
        where [T: Accumulate]
        {
            scan_flat(self, "cumprod_flat", T::acc_mul)
        }
        /// Running products of all elements in logical order (numpy's `cumprod(a)`).
        pub fn cumprod_flat;
    }
    forms! {
        /// See [`Tensor::cumsum`]; `Err` only for a [`DynRank`](crate::DynRank) tensor without
        /// axis `I`.
        pub fn try_cumsum[const I: usize]::<I>(&self) -> Result<Tensor<T, E>, ShapeError>
        where [E: AxisAt<I>, T: Accumulate]
        {
            scan(self, "cumsum", I, T::acc_add)
        }
        /// Running sums along axis `I` (numpy's `cumsum(a, axis=I)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2, 3], [4, 5, 6]];
        /// assert_eq!(a.cumsum::<1>().to_vec(), [1, 3, 6, 4, 9, 15]);
        /// assert_eq!(a.cumsum::<0>().to_vec(), [1, 2, 3, 5, 7, 9]);
        /// ```
        pub fn cumsum;
    }
    forms! {
        /// [`Tensor::cumsum`] along a run-time axis; `Err` outside `-rank..rank` (a negative axis counts from the end).
        pub fn try_cumsum_dyn[](&self, axis: impl Into<Axis>) -> Result<Tensor<T, E>, ShapeError>
        where [T: Accumulate]
        {
            let axis = axis.into().resolve("cumsum_dyn", self.rank())?;
            scan(self, "cumsum_dyn", axis, T::acc_add)
        }
        /// [`Tensor::cumsum`] along a run-time axis.
        pub fn cumsum_dyn;
    }
    forms! {
        /// See [`Tensor::cumprod`].
        pub fn try_cumprod[const I: usize]::<I>(&self) -> Result<Tensor<T, E>, ShapeError>
        where [E: AxisAt<I>, T: Accumulate]
        {
            scan(self, "cumprod", I, T::acc_mul)
        }
        /// Running products along axis `I` (numpy's `cumprod(a, axis=I)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![1, 2, 3, 4].cumprod::<0>().to_vec(), [1, 2, 6, 24]);
        /// ```
        pub fn cumprod;
    }
    forms! {
        /// [`Tensor::cumprod`] along a run-time axis; `Err` outside `-rank..rank` (a negative axis counts from the
        /// end).
        pub fn try_cumprod_dyn[](&self, axis: impl Into<Axis>) -> Result<Tensor<T, E>, ShapeError>
        where [T: Accumulate]
        {
            let axis = axis.into().resolve("cumprod_dyn", self.rank())?;
            scan(self, "cumprod_dyn", axis, T::acc_mul)
        }
        /// [`Tensor::cumprod`] along a run-time axis.
        pub fn cumprod_dyn;
    }
}
