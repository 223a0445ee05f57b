//! Reduction kernels: whole-tensor and along one axis.
//!
//! **Determinism and accuracy.** A whole reduction splits the row-major index space into
//! fixed chunks of `RCHUNK` elements; each chunk folds its elements into `LANES`
//! independent accumulators (element `i` of a chunk goes to lane `i % LANES`), the lanes are
//! combined pairwise, and the chunk results are combined pairwise in a fixed tree. The
//! arithmetic therefore does not depend on the number of threads, and a float sum's error
//! grows with the length of one lane (≈ RCHUNK / LANES), not with the element count.

use super::elementwise::{for_each_run, SendPtr};
use super::par::Par;
use crate::ops::expr::{Cursor, Expr, FlatKernel};
use rayon::prelude::*;

/// Elements per chunk of a whole reduction.
pub(crate) const RCHUNK: usize = if cfg!(miri) { 64 } else { 1 << 12 };
/// Independent accumulators per chunk (enough to keep vector adders busy).
pub(crate) const LANES: usize = 16;

/// How elements fold into an accumulator, and how accumulators combine.
pub trait Reducer<T>: Copy + Send + Sync {
    /// Partial result.
    type Acc: Copy + Send + Sync;
    /// Final result.
    type Out: Copy + Send + Sync;
    /// The accumulator of no elements.
    fn init(&self) -> Self::Acc;
    /// Adds element `x` found at position `pos` (linear position, or index along the axis).
    fn fold(&self, acc: Self::Acc, x: T, pos: usize) -> Self::Acc;
    /// Combines two partial results (`a` covers earlier positions than `b`).
    fn combine(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc;
    /// The result for `count` elements.
    fn finish(&self, acc: Self::Acc, count: usize) -> Self::Out;
}

/// Combines accumulators pairwise in a fixed tree.
fn tree<R: Reducer<T>, T>(r: &R, accs: &mut [R::Acc]) -> R::Acc {
    match accs.len() {
        0 => r.init(),
        1 => accs[0],
        n => {
            let (a, b) = accs.split_at_mut(n / 2);
            r.combine(tree(r, a), tree(r, b))
        }
    }
}

/// One chunk `lo..hi` of a whole reduction.
#[inline(always)]
fn chunk<X: Expr, R: Reducer<X::Elem>>(
    x: &X,
    flat: Option<X::Flat>,
    cursor: &mut Option<X::Cursor>,
    dims: &[usize],
    lo: usize,
    hi: usize,
    r: R,
) -> R::Acc {
    let mut lanes = [r.init(); LANES];
    match flat {
        Some(k) => {
            let mut i = lo;
            while i + LANES <= hi {
                for (l, acc) in lanes.iter_mut().enumerate() {
                    // SAFETY: `i + l < hi <= numel` on a flat expression.
                    *acc = r.fold(*acc, unsafe { k.at(i + l) }, i + l);
                }
                i += LANES;
            }
            for (l, p) in (i..hi).enumerate() {
                // SAFETY: `p < hi <= numel`.
                lanes[l] = r.fold(lanes[l], unsafe { k.at(p) }, p);
            }
        }
        None => {
            let c = cursor.get_or_insert_with(|| x.cursor(dims));
            let mut p = lo;
            for_each_run(dims, lo, hi, |idx, len| {
                c.seek(idx);
                for t in 0..len {
                    let l = (p - lo) % LANES;
                    // SAFETY: `t` is inside the run.
                    lanes[l] = r.fold(lanes[l], unsafe { c.at(t) }, p);
                    p += 1;
                }
            });
        }
    }
    tree(&r, &mut lanes)
}

/// Reduces every element of `x` (shape `dims`, already checked).
pub(crate) fn reduce_all<X: Expr, R: Reducer<X::Elem>>(x: &X, dims: &[usize], r: R, par: Par) -> R::Out {
    let n: usize = dims.iter().product();
    let flat = x.is_flat(dims).then(|| x.flat());
    let acc = if n <= RCHUNK {
        chunk(x, flat, &mut None, dims, 0, n, r)
    } else {
        let chunks = n.div_ceil(RCHUNK);
        let bounds = |c: usize| (c * RCHUNK, ((c + 1) * RCHUNK).min(n));
        let mut accs: Vec<R::Acc> = if par.parallel_for(n) {
            (0..chunks)
                .into_par_iter()
                .map_init(|| None, |cur, c| chunk(x, flat, cur, dims, bounds(c).0, bounds(c).1, r))
                .collect()
        } else {
            let mut cur = None;
            (0..chunks).map(|c| chunk(x, flat, &mut cur, dims, bounds(c).0, bounds(c).1, r)).collect()
        };
        tree(&r, &mut accs)
    };
    r.finish(acc, n)
}

/// Reduces `x` (shape `dims`) along `axis` into `out`, a row-major buffer for the
/// remaining axes: `out` receives one `R::Out` per position of `dims` without `axis`.
///
/// # Safety
/// `out` must be valid for writes of `numel(dims) / dims[axis]` elements (or of the
/// product of the other extents when `dims[axis] == 0`).
pub(crate) unsafe fn reduce_axis<X: Expr, R: Reducer<X::Elem>>(
    x: &X,
    dims: &[usize],
    axis: usize,
    r: R,
    par: Par,
    out: *mut R::Out,
) {
    let r_len = dims[axis];
    let rank = dims.len();
    let last = rank - 1;
    let inner = if axis == last { 1 } else { dims[last] };
    // The index space of the loop: every axis but `axis` and the last one ("outer"),
    // visited in row-major order; each outer position produces `inner` outputs.
    let outer_dims: Vec<usize> = (0..rank).filter(|&k| k != axis && k != last).map(|k| dims[k]).collect();
    let outer_n: usize = outer_dims.iter().product();
    let total_out = outer_n * inner;
    if total_out == 0 {
        return;
    }
    let out = SendPtr(out);
    let work = move |o_lo: usize, o_hi: usize| {
        let out = out;
        let mut c = x.cursor(dims);
        let mut oidx = vec![0usize; outer_dims.len()];
        let mut idx = vec![0usize; rank];
        let mut row = vec![r.init(); inner];
        for o in o_lo..o_hi {
            super::elementwise::unravel(o, &outer_dims, &mut oidx);
            let mut it = oidx.iter();
            for (k, slot) in idx.iter_mut().enumerate() {
                *slot = if k == axis || k == last { 0 } else { *it.next().expect("outer axis") };
            }
            if axis == last {
                c.seek(&idx);
                // Independent lanes, as in whole reductions: no single dependency chain.
                let mut lanes = [r.init(); LANES];
                let unit = c.unit_inner();
                let mut t = 0;
                while t + LANES <= r_len {
                    for (l, acc) in lanes.iter_mut().enumerate() {
                        // SAFETY: `t + l < r_len`, inside the last axis.
                        let x = unsafe {
                            if unit {
                                c.at_unit(t + l)
                            } else {
                                c.at(t + l)
                            }
                        };
                        *acc = r.fold(*acc, x, t + l);
                    }
                    t += LANES;
                }
                for (l, p) in (t..r_len).enumerate() {
                    // SAFETY: `p < r_len`.
                    lanes[l] = r.fold(lanes[l], unsafe { c.at(p) }, p);
                }
                let acc = tree(&r, &mut lanes);
                // SAFETY: output `o` is inside the buffer (caller's contract).
                unsafe { out.0.add(o).write(r.finish(acc, r_len)) };
            } else {
                row.iter_mut().for_each(|a| *a = r.init());
                for i in 0..r_len {
                    idx[axis] = i;
                    c.seek(&idx);
                    if c.unit_inner() {
                        for (t, a) in row.iter_mut().enumerate() {
                            // SAFETY: `t < inner`, the extent of the last axis.
                            *a = r.fold(*a, unsafe { c.at_unit(t) }, i);
                        }
                    } else {
                        for (t, a) in row.iter_mut().enumerate() {
                            // SAFETY: as above.
                            *a = r.fold(*a, unsafe { c.at(t) }, i);
                        }
                    }
                }
                for (t, a) in row.iter().enumerate() {
                    // SAFETY: outputs `o * inner + t` are inside the buffer.
                    unsafe { out.0.add(o * inner + t).write(r.finish(*a, r_len)) };
                }
            }
        }
    };
    let cost = total_out.saturating_mul(r_len.max(1));
    if par.parallel_for(cost) && outer_n > 1 {
        let per = (outer_n / (4 * rayon::current_num_threads())).max(1);
        let tasks = outer_n.div_ceil(per);
        (0..tasks).into_par_iter().for_each(|t| work(t * per, ((t + 1) * per).min(outer_n)));
    } else {
        work(0, outer_n);
    }
}
