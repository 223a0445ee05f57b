//! Band matrix × vector, `y = A x`, on the LAPACK band buffer.
//!
//! Row by row: row `i` meets columns `j = i + ku - r` for buffer rows `r = 0..ldab`, and
//! those columns are consecutive in the buffer, so each output element is one short dot
//! product over a window of `ldab` buffer columns and `ldab` elements of `x`, written once
//! (a per-diagonal pass would re-read and re-write `y` once per diagonal, which is
//! slower). The interior rows, where every diagonal is inside the matrix, run without
//! branches, with `ldab` a compile-time constant for the common small bandwidths, in
//! vector passes (see `interior_fixed`); the few edge rows check each diagonal. Every row
//! sums its products in the same order, so all paths give the same bits. Rows are
//! independent, so large products split them across rayon's pool.

use crate::exec::par::{for_each_chunk_mut, Par};
use core::ops::{Add, Mul};
use num_traits::Zero;

/// Rows per rayon task.
const TASK_ROWS: usize = if cfg!(miri) { 16 } else { 32 * 1024 };

/// Element types of the band kernels.
pub trait BandElem: Copy + Send + Sync + Zero + Mul<Output = Self> + Add<Output = Self> {}
impl<T: Copy + Send + Sync + Zero + Mul<Output = T> + Add<Output = T>> BandElem for T {}

/// The shape of a band matrix: `rows × cols`, bandwidths `kl`, `ku`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BandShape {
    pub rows: usize,
    pub cols: usize,
    pub kl: usize,
    pub ku: usize,
}

impl BandShape {
    pub fn ldab(&self) -> usize {
        self.kl + self.ku + 1
    }
}

/// `y = A x` for the band matrix `A` of shape `s` with buffer `ab`
/// (`ab.len() == ldab·cols`, `x.len() == cols`, `y.len() == rows`; checked by the caller).
pub(crate) fn band_matvec<T: BandElem>(s: BandShape, ab: &[T], x: &[T], y: &mut [T], par: Par) {
    debug_assert!(ab.len() == s.ldab() * s.cols && x.len() == s.cols && y.len() == s.rows);
    let parallel = par.parallel_for(s.rows.saturating_mul(s.ldab())) && s.rows > TASK_ROWS;
    for_each_chunk_mut(
        y,
        TASK_ROWS,
        parallel,
        #[inline(always)]
        |first, yt| rows_block(s, ab, x, first, yt),
    );
}

/// Rows `first..first + y.len()` of `A x`. Common small bandwidths get a copy of the
/// loop with `ldab` known to the compiler (fully unrolled dot products); all of it is
/// inlined into the CPU-feature copies of `for_each_chunk_mut`.
#[inline(always)]
fn rows_block<T: BandElem>(s: BandShape, ab: &[T], x: &[T], first: usize, y: &mut [T]) {
    match s.ldab() {
        1 => rows_fixed::<T, 1>(s, ab, x, first, y),
        2 => rows_fixed::<T, 2>(s, ab, x, first, y),
        3 => rows_fixed::<T, 3>(s, ab, x, first, y),
        4 => rows_fixed::<T, 4>(s, ab, x, first, y),
        5 => rows_fixed::<T, 5>(s, ab, x, first, y),
        6 => rows_fixed::<T, 6>(s, ab, x, first, y),
        7 => rows_fixed::<T, 7>(s, ab, x, first, y),
        ldab => rows_any(s, ab, x, first, y, ldab),
    }
}

#[inline(always)]
fn rows_fixed<T: BandElem, const LDAB: usize>(s: BandShape, ab: &[T], x: &[T], first: usize, y: &mut [T]) {
    rows(s, ab, x, first, y, LDAB, interior_fixed::<T, LDAB>)
}

#[inline(always)]
fn rows_any<T: BandElem>(s: BandShape, ab: &[T], x: &[T], first: usize, y: &mut [T], ldab: usize) {
    rows(s, ab, x, first, y, ldab, |abw, xw, interior| {
        for (t, yi) in interior.iter_mut().enumerate() {
            *yi = row_sum(abw, xw, t, ldab);
        }
    })
}

/// Rows `first..first + y.len()`: the edge rows one by one, and the interior rows (where
/// every diagonal is inside the matrix) through `interior(buffer window, x window, their
/// outputs)`: interior row `t` reads buffer columns and `x` elements `t ..= t + ldab - 1`
/// of the windows.
#[inline(always)]
fn rows<T: BandElem>(
    s: BandShape,
    ab: &[T],
    x: &[T],
    first: usize,
    y: &mut [T],
    ldab: usize,
    interior: impl FnOnce(&[T], &[T], &mut [T]),
) {
    let last = first + y.len();
    // Interior rows: every column i + ku - r, r in 0..ldab, is inside 0..cols.
    let lo = first.max(s.kl).min(last);
    let hi = last.min(s.cols.saturating_sub(s.ku)).max(lo);
    let (head, rest) = y.split_at_mut(lo - first);
    let (inner, tail) = rest.split_at_mut(hi - lo);
    for (i, yi) in (first..lo).chain(hi..last).zip(head.iter_mut().chain(tail)) {
        *yi = edge_row(s, ab, x, i, ldab);
    }
    if lo == hi {
        return;
    }
    // Row i reads columns i - kl ..= i + ku: buffer row r of column (i - kl) + (ldab - 1 - r).
    // Consecutive rows slide the window by one column (`ldab` buffer elements).
    let (c0, span) = (lo - s.kl, hi - lo + ldab - 1);
    interior(&ab[c0 * ldab..(c0 + span) * ldab], &x[c0..c0 + span], inner);
}

/// Interior row `t`: its diagonals' products summed in order from zero.
#[inline(always)]
fn row_sum<T: BandElem>(abw: &[T], xw: &[T], t: usize, ldab: usize) -> T {
    let mut acc = T::zero();
    for r in 0..ldab {
        let c = ldab - 1 - r;
        acc = acc + abw[(t + c) * ldab + r] * xw[t + c];
    }
    acc
}

/// Rows per pass of [`interior_fixed`]: its products stay in L1.
const PASS: usize = 256;

/// The interior rows with `LDAB` a constant, in passes of [`PASS`] rows.
///
/// Row by row ([`row_sum`]), a diagonal's elements are `LDAB` apart in the buffer and the
/// loop stayed scalar. Instead, a pass first walks whole buffer columns — `LDAB`
/// consecutive elements, which LLVM loads as vectors and deinterleaves — and keeps each
/// product `ab[r + j·LDAB] · x[j]` in a contiguous array per diagonal; then each row adds
/// its `LDAB` products with vector loads. The products, and the order of the sums (from
/// zero, diagonal by diagonal), are [`row_sum`]'s: the same bits.
#[inline(always)]
fn interior_fixed<T: BandElem, const LDAB: usize>(abw: &[T], xw: &[T], y: &mut [T]) {
    // A pass of up to PASS rows reads up to PASS + LDAB - 1 columns (LDAB <= 8 here).
    let mut prod = [[T::zero(); PASS + 8]; LDAB];
    for (p, yb) in y.chunks_mut(PASS).enumerate() {
        let t0 = p * PASS;
        let cols = yb.len() + LDAB - 1;
        let (a, _) = abw[t0 * LDAB..(t0 + cols) * LDAB].as_chunks::<LDAB>();
        let xs = &xw[t0..t0 + cols];
        // (Stated so that the indexing below needs no checks in the loop.)
        assert!(cols <= PASS + 8 && a.len() == cols);
        for j in 0..cols {
            for (r, pr) in prod.iter_mut().enumerate() {
                pr[j] = a[j][r] * xs[j];
            }
        }
        for (k, yk) in yb.iter_mut().enumerate() {
            let mut acc = T::zero();
            for (r, pr) in prod.iter().enumerate() {
                acc = acc + pr[k + LDAB - 1 - r];
            }
            *yk = acc;
        }
    }
}

/// Row `i` when some of its diagonals fall outside the matrix.
fn edge_row<T: BandElem>(s: BandShape, ab: &[T], x: &[T], i: usize, ldab: usize) -> T {
    let mut acc = T::zero();
    for r in 0..ldab {
        if let Some(j) = (i + s.ku).checked_sub(r).filter(|&j| j < s.cols) {
            acc = acc + ab[r + j * ldab] * x[j];
        }
    }
    acc
}
