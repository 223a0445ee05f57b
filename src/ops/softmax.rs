//! `softmax` and `log_softmax` along an axis, numerically stable: each fiber is shifted by
//! its maximum before exponentiation, so inputs of ±1000 neither overflow nor lose the
//! result. The axis is a const generic (`softmax::<1>()`) or a run-time value
//! (`softmax_dyn(1)`); each has a `try_` form.

use crate::error::ShapeError;
use crate::extents::{AxisAt, Extents};
use crate::kernels::elementwise::{unravel, SendPtr};
use crate::kernels::par::{for_each_block, Par};
use crate::layout::{Layout, RowMajor};
use crate::storage::DenseStorage;
use crate::tensor::{or_panic, Tensor};
use num_traits::Float;

/// Runs `f(pointer to the fiber's first element, length, stride)` on every fiber of a
/// row-major tensor along `axis`, in parallel when large.
fn for_each_fiber<T: Send + Sync>(
    t: &mut Tensor<T, impl Extents, RowMajor>,
    axis: usize,
    f: impl Fn(*mut T, usize, isize) + Send + Sync,
) {
    let dims = t.shape();
    let strides = t.strides();
    let len = dims[axis];
    let stride = strides.as_ref()[axis];
    let outer: Vec<usize> = dims.iter().enumerate().filter(|&(k, _)| k != axis).map(|(_, &d)| d).collect();
    let outer_strides: Vec<isize> =
        strides.as_ref().iter().enumerate().filter(|&(k, _)| k != axis).map(|(_, &s)| s).collect();
    let fibers: usize = outer.iter().product();
    if len == 0 || fibers == 0 {
        return;
    }
    let base = SendPtr(t.as_slice_mut().expect("row-major owned tensor").as_mut_ptr());
    let run = |lo: usize, hi: usize| {
        let mut idx = vec![0usize; outer.len()];
        for o in lo..hi {
            unravel(o, &outer, &mut idx);
            let off: isize = idx.iter().zip(&outer_strides).map(|(&i, &s)| i as isize * s).sum();
            // SAFETY: `off` is the position of a fiber's first element inside the buffer;
            // fibers are disjoint, so parallel tasks never touch the same element.
            f(unsafe { base.get().offset(off) }, len, stride);
        }
    };
    for_each_block(fibers, Par::Auto.parallel_for(fibers * len), run);
}

/// Shifts a fiber by its maximum, exponentiates it and returns the sum of the exponentials.
///
/// # Safety
/// `p + i·stride` for `i < len` are valid, exclusively accessible elements.
#[inline(always)]
unsafe fn shift_exp<T: Float>(p: *mut T, len: usize, stride: isize, keep_shifted: bool) -> (T, T) {
    let at = |i: usize| p.wrapping_offset(i as isize * stride);
    // SAFETY: caller's contract, for every access below.
    let max =
        (0..len).map(|i| unsafe { *at(i) }).fold(T::neg_infinity(), |m, x| if x > m || x.is_nan() { x } else { m });
    let mut sum = T::zero();
    for i in 0..len {
        // SAFETY: as above.
        unsafe {
            let shifted = *at(i) - max;
            let e = shifted.exp();
            sum = sum + e;
            *at(i) = if keep_shifted { shifted } else { e };
        }
    }
    (max, sum)
}

impl<T: Float + Send + Sync, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// `softmax` (or `log_softmax` when `log`) along `axis`, the engine of every form.
    fn softmax_along(&self, op: &'static str, axis: usize, log: bool) -> Result<Tensor<T, E>, ShapeError> {
        if axis >= self.rank() {
            return Err(ShapeError::AxisOutOfRange { op, axis, rank: self.rank() });
        }
        let mut out = self.map(|&x| x);
        for_each_fiber(&mut out, axis, |p, len, stride| {
            // SAFETY: a fiber handed out by for_each_fiber.
            let (_, sum) = unsafe { shift_exp(p, len, stride, log) };
            let log_sum = sum.ln();
            for i in 0..len {
                // SAFETY: as above.
                unsafe {
                    let q = p.offset(i as isize * stride);
                    *q = if log { *q - log_sum } else { *q / sum };
                }
            }
        });
        Ok(out)
    }

    /// `exp(x) / Σ exp(x)` along axis `I`; `Err` only for [`DynRank`](crate::DynRank) when
    /// `I >= rank`.
    pub fn try_softmax<const I: usize>(&self) -> Result<Tensor<T, E>, ShapeError>
    where
        E: AxisAt<I>,
    {
        self.softmax_along("softmax", I, false)
    }

    /// `exp(x) / Σ exp(x)` along axis `I`, computed stably (inputs of 1000 are fine).
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor};
    /// let x = tensor![[1000.0, 1000.0], [0.0, f64::ln(3.0)]];
    /// let s = x.softmax::<1>();
    /// assert_eq!(s.to_vec(), [0.5, 0.5, 0.25, 0.75]);
    /// assert!((s.sum_axis::<1>().to_vec()[1] - 1.0f64).abs() < 1e-12);
    /// ```
    #[track_caller]
    pub fn softmax<const I: usize>(&self) -> Tensor<T, E>
    where
        E: AxisAt<I>,
    {
        or_panic(self.try_softmax::<I>())
    }

    /// `exp(x) / Σ exp(x)` along the run-time axis `axis`; `Err` when `axis >= rank`.
    pub fn try_softmax_dyn(&self, axis: usize) -> Result<Tensor<T, E>, ShapeError> {
        self.softmax_along("softmax_dyn", axis, false)
    }

    /// `exp(x) / Σ exp(x)` along the run-time axis `axis`, computed stably.
    ///
    /// ```
    /// use mdtensor::{DynRank, Tensor};
    /// let x = Tensor::<f64, DynRank>::from_vec(DynRank::new(vec![2, 2]), vec![0.0, 0.0, 1.0, 1.0]);
    /// assert_eq!(x.softmax_dyn(1).to_vec(), [0.5, 0.5, 0.5, 0.5]);
    /// assert!(x.try_softmax_dyn(2).is_err());
    /// ```
    #[track_caller]
    pub fn softmax_dyn(&self, axis: usize) -> Tensor<T, E> {
        or_panic(self.try_softmax_dyn(axis))
    }

    /// `x - log Σ exp(x)` along axis `I`; `Err` only for [`DynRank`](crate::DynRank) when
    /// `I >= rank`.
    pub fn try_log_softmax<const I: usize>(&self) -> Result<Tensor<T, E>, ShapeError>
    where
        E: AxisAt<I>,
    {
        self.softmax_along("log_softmax", I, true)
    }

    /// `x - log Σ exp(x)` along axis `I`, computed stably.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let x = tensor![[-1000.0, -1000.0]];
    /// let l = x.log_softmax::<1>();
    /// assert!((l[[0, 0]] - (-std::f64::consts::LN_2)).abs() < 1e-12);
    /// ```
    #[track_caller]
    pub fn log_softmax<const I: usize>(&self) -> Tensor<T, E>
    where
        E: AxisAt<I>,
    {
        or_panic(self.try_log_softmax::<I>())
    }

    /// `x - log Σ exp(x)` along the run-time axis `axis`; `Err` when `axis >= rank`.
    pub fn try_log_softmax_dyn(&self, axis: usize) -> Result<Tensor<T, E>, ShapeError> {
        self.softmax_along("log_softmax_dyn", axis, true)
    }

    /// `x - log Σ exp(x)` along the run-time axis `axis`, computed stably.
    #[track_caller]
    pub fn log_softmax_dyn(&self, axis: usize) -> Tensor<T, E> {
        or_panic(self.try_log_softmax_dyn(axis))
    }
}
