//! Band matrix × vector, `y = A x`, on the LAPACK band buffer.
//!
//! The output rows are cut into blocks small enough that a block of `y`, the matching
//! part of `x` and the band columns it needs stay in the L1/L2 cache. Inside a block each
//! diagonal is one pass `y[i] += a[i] * x[i - d]` over plain slices: buffer row `r` of
//! the band is diagonal `d = r - ku`, read with stride `ldab` from column-chunks of the
//! buffer, so the loop has no bounds checks and the compiler vectorizes the `x`/`y` side.
//! Blocks of rows are independent, so large products split them across rayon's pool.

use super::par::Par;
use core::ops::{Add, Mul};
use num_traits::Zero;
use rayon::prelude::*;

/// Rows per cache block: `y` and `x` blocks of 8 KiB (f64) and `ldab`·8 KiB of band.
const BLOCK_ROWS: usize = if cfg!(miri) { 8 } else { 1024 };
/// Rows per rayon task (whole blocks).
const TASK_ROWS: usize = if cfg!(miri) { 16 } else { 16 * 1024 };

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
    if par.parallel_for(s.rows.saturating_mul(s.ldab())) && s.rows > TASK_ROWS {
        y.par_chunks_mut(TASK_ROWS).enumerate().for_each(|(t, yt)| rows_block(s, ab, x, t * TASK_ROWS, yt));
    } else {
        rows_block(s, ab, x, 0, y);
    }
}

/// Rows `first..first + y.len()` of `A x`, one cache block at a time.
fn rows_block<T: BandElem>(s: BandShape, ab: &[T], x: &[T], first: usize, y: &mut [T]) {
    for (b, yb) in y.chunks_mut(BLOCK_ROWS).enumerate() {
        let i0 = first + b * BLOCK_ROWS;
        yb.fill(T::zero());
        for r in 0..s.ldab() {
            diagonal_pass(s, ab, x, r, i0, yb);
        }
    }
}

/// Adds diagonal `r - ku` (buffer row `r`) to rows `i0..i0 + y.len()`.
#[inline]
fn diagonal_pass<T: BandElem>(s: BandShape, ab: &[T], x: &[T], r: usize, i0: usize, y: &mut [T]) {
    let ldab = s.ldab();
    // Row i meets column j = i + ku - r; both must be inside the matrix.
    let lo = i0.max(r.saturating_sub(s.ku));
    let hi = (i0 + y.len()).min((s.cols + r).saturating_sub(s.ku));
    if lo >= hi {
        return;
    }
    let j0 = lo + s.ku - r;
    let n = hi - lo;
    let cols = ab[j0 * ldab..(j0 + n) * ldab].chunks_exact(ldab);
    for ((yi, &xj), col) in y[lo - i0..hi - i0].iter_mut().zip(&x[j0..j0 + n]).zip(cols) {
        *yi = *yi + col[r] * xj;
    }
}
