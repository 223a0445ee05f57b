//! `softmax` and `log_softmax` along an axis, numerically stable: each fiber is shifted by
//! its maximum before exponentiation, so inputs of ±1000 neither overflow nor lose the
//! result.

use crate::extents::{AxisAt, Extents};
use crate::kernels::elementwise::{unravel, SendPtr};
use crate::kernels::par::{for_each_block, Par};
use crate::layout::{Layout, RowMajor};
use crate::storage::DenseStorage;
use crate::tensor::Tensor;
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
    /// `exp(x) / Σ exp(x)` along axis `I`, computed stably (inputs of 1000 are fine).
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor};
    /// let x = tensor![[1000.0, 1000.0], [0.0, f64::ln(3.0)]];
    /// let s = x.softmax::<1>();
    /// assert_eq!(s.to_vec(), [0.5, 0.5, 0.25, 0.75]);
    /// assert!((s.sum_axis::<1>().to_vec()[1] - 1.0f64).abs() < 1e-12);
    /// ```
    pub fn softmax<const I: usize>(&self) -> Tensor<T, E>
    where
        E: AxisAt<I>,
    {
        let mut out = self.map(|&x| x);
        for_each_fiber(&mut out, I, |p, len, stride| {
            // SAFETY: a fiber handed out by for_each_fiber.
            let (_, sum) = unsafe { shift_exp(p, len, stride, false) };
            for i in 0..len {
                // SAFETY: as above.
                unsafe { *p.offset(i as isize * stride) = *p.offset(i as isize * stride) / sum };
            }
        });
        out
    }

    /// `x - log Σ exp(x)` along axis `I`, computed stably.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let x = tensor![[-1000.0, -1000.0]];
    /// let l = x.log_softmax::<1>();
    /// assert!((l[[0, 0]] - (-std::f64::consts::LN_2)).abs() < 1e-12);
    /// ```
    pub fn log_softmax<const I: usize>(&self) -> Tensor<T, E>
    where
        E: AxisAt<I>,
    {
        let mut out = self.map(|&x| x);
        for_each_fiber(&mut out, I, |p, len, stride| {
            // SAFETY: a fiber handed out by for_each_fiber.
            let (_, sum) = unsafe { shift_exp(p, len, stride, true) };
            let log_sum = sum.ln();
            for i in 0..len {
                // SAFETY: as above.
                unsafe { *p.offset(i as isize * stride) = *p.offset(i as isize * stride) - log_sum };
            }
        });
        out
    }
}
