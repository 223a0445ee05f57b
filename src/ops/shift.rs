//! Shifts and differences along an axis: numpy's `roll` (the extents are kept; without an
//! axis the elements roll in logical order, numpy's `axis=None`) and `diff` (the `n`-th
//! discrete difference, an axis `n` shorter, so that axis becomes dynamic in the result).
//!
//! Integer differences wrap on overflow as numpy's do ([`Difference`]); never a panic.

use super::axiswise::{around, check_axis};
use crate::alloc::try_vec_with_capacity;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Axis, AxisAt, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;
use num_complex::Complex;

/// The subtraction of numpy's `diff`: wrapping for integers (the plain `-` would panic in
/// debug builds), IEEE 754 for floats. Implement it for an element type of your own to
/// give it `diff`.
///
/// ```
/// use mdtensor::{ops::Difference, tensor};
/// assert_eq!(i8::MIN.difference(&1), i8::MAX);
/// assert_eq!(tensor![1, 4, 9, 16].diff_dyn(1, -1).to_vec(), [3, 5, 7]);
/// ```
pub trait Difference: Clone {
    /// `self - rhs`, wrapping for integers.
    fn difference(&self, rhs: &Self) -> Self;
}
macro_rules! difference_wrapping {
    ($($t:ty)*) => {$(
        impl Difference for $t {
            #[inline]
            fn difference(&self, rhs: &Self) -> Self {
                self.wrapping_sub(*rhs)
            }
        }
    )*};
}
difference_wrapping!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize);
macro_rules! difference_float {
    ($($t:ty)*) => {$(
        impl Difference for $t {
            #[inline]
            fn difference(&self, rhs: &Self) -> Self {
                self - rhs
            }
        }
        impl Difference for Complex<$t> {
            #[inline]
            fn difference(&self, rhs: &Self) -> Self {
                self - rhs
            }
        }
    )*};
}
difference_float!(f32 f64);

/// Lane element `j` of the rolled result is lane element `(j - shift) mod n` of the input.
fn rolled<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    shift: isize,
    axis: Option<usize>,
) -> Result<Tensor<T, E>, ShapeError> {
    let v = t.to_vec_op(op)?;
    let (outer, n, inner) = match axis {
        Some(a) => {
            check_axis(op, a, t.rank())?;
            around(t.dims().as_ref(), a)
        }
        None => (1, v.len(), 1),
    };
    let mut out: Vec<T> = try_vec_with_capacity(op, v.len())?;
    if !v.is_empty() {
        // |shift| mod n fits in usize; the sign decides the direction.
        let back = if shift >= 0 { n - shift.unsigned_abs() % n } else { shift.unsigned_abs() % n } % n;
        for o in 0..outer {
            for j in 0..n {
                let src = (j + back) % n;
                let at = (o * n + src) * inner;
                out.extend_from_slice(&v[at..at + inner]);
            }
        }
    }
    Tensor::try_from_vec(t.extents().clone(), out).map_err(|(e, _)| e)
}

/// The `n`-th difference along `axis` (checked), in a row-major result of extents `dims`
/// with that axis `n` shorter (0 when `n` reaches its length).
fn differences<T: Difference, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    n: usize,
    axis: usize,
) -> Result<Tensor<T, E::Dynamic>, ShapeError> {
    let mut v = t.to_vec_op(op)?;
    let (outer, mut len, inner) = around(t.dims().as_ref(), axis);
    for _ in 0..n.min(len) {
        // One step in place: lane length `len` becomes `len - 1`, the blocks packed.
        let mut w = 0;
        for o in 0..outer {
            for j in 0..len - 1 {
                for i in 0..inner {
                    let at = (o * len + j) * inner + i;
                    v[w] = v[at + inner].difference(&v[at]);
                    w += 1;
                }
            }
        }
        v.truncate(w);
        len -= 1;
    }
    let mut dims = t.extents().zero_index();
    dims.as_mut().copy_from_slice(t.dims().as_ref());
    dims.as_mut()[axis] = len;
    let ext = <E::Dynamic as Extents>::from_dims(dims.as_ref())?;
    Tensor::try_from_vec(ext, v).map_err(|(e, _)| e)
}

/// # Rolling and differences
impl<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::roll`]; `Err` only for a [`DynRank`](crate::DynRank) tensor
        /// without axis `I`.
        pub fn try_roll[const I: usize]::<I>(&self, shift: isize) -> Result<Tensor<T, E>, ShapeError>
        where [E: AxisAt<I>]
        {
            rolled(self, "roll", shift, Some(I))
        }
        /// The elements shifted `shift` places along axis `I`, those pushed past the end
        /// coming back at the start (numpy's `roll(a, shift, axis=I)`; negative shifts go
        /// the other way). The extents are kept.
        ///
        /// ```
        /// use mdtensor::{ext, tensor};
        /// let a = tensor![[1, 2, 3], [4, 5, 6]];
        /// let r = a.roll::<1>(1);
        /// let _: &ext![2, 3] = r.extents();
        /// assert_eq!(r.to_vec(), [3, 1, 2, 6, 4, 5]);
        /// assert_eq!(a.roll::<0>(-3).to_vec(), [4, 5, 6, 1, 2, 3]);
        /// ```
        pub fn roll;
    }
    forms! {
        /// See [`Tensor::roll_dyn`]; `Err` outside `-rank..rank`.
        pub fn try_roll_dyn[](&self, shift: isize, axis: impl Into<Axis>) -> Result<Tensor<T, E>, ShapeError>
        {
            let axis = axis.into().resolve("roll_dyn", self.rank())?;
            rolled(self, "roll_dyn", shift, Some(axis))
        }
        /// [`Tensor::roll`] along a run-time axis (negative counts from the end).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[1, 2, 3], [4, 5, 6]].roll_dyn(-1, -1).to_vec(), [2, 3, 1, 5, 6, 4]);
        /// ```
        pub fn roll_dyn;
    }
    forms! {
        /// See [`Tensor::roll_flat`]; `Err` only when the allocator refuses the result.
        pub fn try_roll_flat[](&self, shift: isize) -> Result<Tensor<T, E>, ShapeError>
        {
            rolled(self, "roll_flat", shift, None)
        }
        /// The elements shifted in logical (row-major) order, the extents kept (numpy's
        /// `roll(a, shift)` without an axis).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[1, 2], [3, 4]].roll_flat(1).to_vec(), [4, 1, 2, 3]);
        /// ```
        pub fn roll_flat;
    }
    forms! {
        /// See [`Tensor::diff`]; `Err` only for a [`DynRank`](crate::DynRank) tensor
        /// without axis `I`.
        pub fn try_diff[const I: usize]::<I>(&self, n: usize) -> Result<Tensor<T, E::Dynamic>, ShapeError>
        where [E: AxisAt<I>, T: Difference]
        {
            check_axis("diff", I, self.rank())?;
            differences(self, "diff", n, I)
        }
        /// The `n`-th discrete difference along axis `I`: `out[j] = a[j + 1] - a[j]`, `n`
        /// times (numpy's `diff(a, n, axis=I)`); the axis is `n` shorter (empty when `n`
        /// reaches its length) and `n = 0` returns the input.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 3, 6, 10], [0, 5, 5, 0]];
        /// let d = a.diff::<1>(1);
        /// assert_eq!(d.dims(), [2, 3]);
        /// assert_eq!(d.to_vec(), [2, 3, 4, 5, 0, -5]);
        /// assert_eq!(a.diff::<1>(2).to_vec(), [1, 1, -5, -5]);
        /// assert_eq!(a.diff::<0>(1).to_vec(), [-1, 2, -1, -10]);
        /// ```
        pub fn diff;
    }
    forms! {
        /// See [`Tensor::diff_dyn`]; `Err` outside `-rank..rank`.
        pub fn try_diff_dyn[](&self, n: usize, axis: impl Into<Axis>) -> Result<Tensor<T, E::Dynamic>, ShapeError>
        where [T: Difference]
        {
            let axis = axis.into().resolve("diff_dyn", self.rank())?;
            differences(self, "diff_dyn", n, axis)
        }
        /// [`Tensor::diff`] along a run-time axis (numpy's default is `axis=-1`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![1.0, 0.5, 0.25].diff_dyn(1, -1).to_vec(), [-0.5, -0.25]);
        /// ```
        pub fn diff_dyn;
    }
}
