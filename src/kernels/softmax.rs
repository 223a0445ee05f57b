//! Softmax along one axis, in place: the loop behind `Tensor::softmax` and `log_softmax`.
//!
//! Each fiber is shifted by its maximum before exponentiation, so inputs of ±1000 neither
//! overflow nor lose the result. The kernel sees a buffer, its extents and strides, and is
//! generic over the element type only (and the [`Paths`] width fact), so every shape a
//! program uses shares one copy.

use super::elementwise::{unravel, SendPtr};
use crate::exec::par::{for_each_block_as, Par};
use crate::exec::paths::Paths;
use num_traits::Float;

/// Axes besides the softmax axis kept on the stack (more go to a `Vec`).
const SMALL: usize = 8;

/// Shifts a fiber by its maximum, exponentiates it and returns the sum of the exponentials.
///
/// # Safety
/// `p + i·stride` for `i < len` are valid, exclusively accessible elements.
#[inline(always)]
unsafe fn shift_exp<T: Float>(p: *mut T, len: usize, stride: isize, keep_shifted: bool) -> T {
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
    sum
}

/// Replaces every fiber along `axis` of the buffer at `data` (extents `dims`, strides
/// `strides`, in elements) by its softmax, or its log-softmax when `log`; in parallel when
/// large. `P` is [`Known`](super::access::Known) facts (only `WIDE` is read).
///
/// # Safety
/// `data` with `strides` addresses a valid, uniquely laid out, exclusively accessible
/// element for every index of `dims`, and `axis < dims.len()`.
#[inline(never)]
pub(crate) unsafe fn softmax_fibers<T: Float + Send + Sync, P: Paths>(
    data: *mut T,
    dims: &[usize],
    strides: &[isize],
    axis: usize,
    log: bool,
    par: Par,
) {
    let len = dims[axis];
    let stride = strides[axis];
    // The other axes' extents and strides, and the running index, on the stack for up to
    // `SMALL` axes: a static stack tensor's softmax allocates nothing.
    let r = dims.len() - 1;
    let others = || (0..dims.len()).filter(|&k| k != axis);
    let (mut outer_buf, mut stride_buf) = ([0usize; SMALL], [0isize; SMALL]);
    let (outer_vec, stride_vec): (Vec<usize>, Vec<isize>) = if r <= SMALL {
        for (j, k) in others().enumerate() {
            outer_buf[j] = dims[k];
            stride_buf[j] = strides[k];
        }
        (Vec::new(), Vec::new())
    } else {
        (others().map(|k| dims[k]).collect(), others().map(|k| strides[k]).collect())
    };
    let (outer, outer_strides): (&[usize], &[isize]) =
        if r <= SMALL { (&outer_buf[..r], &stride_buf[..r]) } else { (&outer_vec, &stride_vec) };
    let fibers: usize = outer.iter().product();
    if len == 0 || fibers == 0 {
        return;
    }
    let base = SendPtr(data);
    for_each_block_as::<P>(fibers, par.parallel_for(fibers * len), |lo, hi| {
        let mut idx_buf = [0usize; SMALL];
        let mut idx_vec = Vec::new();
        let idx: &mut [usize] = if r <= SMALL {
            &mut idx_buf[..r]
        } else {
            idx_vec.resize(r, 0);
            &mut idx_vec
        };
        for o in lo..hi {
            unravel(o, outer, idx);
            let off: isize = idx.iter().zip(outer_strides).map(|(&i, &s)| i as isize * s).sum();
            // SAFETY: `off` is the position of a fiber's first element (caller's contract);
            // fibers are disjoint, so parallel tasks never touch the same element.
            unsafe {
                let p = base.get().offset(off);
                let sum = shift_exp(p, len, stride, log);
                let log_sum = sum.ln();
                for i in 0..len {
                    let q = p.offset(i as isize * stride);
                    *q = if log { *q - log_sum } else { *q / sum };
                }
            }
        }
    });
}
