//! Sparse × dense products: SpMV (`y = A x`) and SpMM (`C = A B`, `B` and `C` row-major).
//!
//! * **CSR** — rows are independent: the rows are cut into blocks of about equal work
//!   (stored entries plus rows, [`balanced_blocks`]), several blocks per thread so that a
//!   slow block does not leave a thread idle, and each block writes its own slice of the
//!   output. SpMV keeps four independent accumulators for long rows, so additions of
//!   different entries overlap in the pipeline (short rows overlap with each other); SpMM
//!   adds `a[i, k] · B[k, :]` into a register tile of the output row, a loop over the dense
//!   columns that vectorises. Each output element is summed by one thread in a fixed
//!   order, so results do not depend on the number of threads.
//! * **CSC** — a column scatters into many rows, so threads cannot share the output:
//!   columns are cut into one block per thread, the first block scatters into the output
//!   and every other into its own zeroed partial output, and the partials are added at the
//!   end. This costs one extra output-sized buffer per thread after the first, and in
//!   floating point the last bits can depend on the thread count (the additions are
//!   grouped differently); serially it is a plain scatter, column after column, with
//!   nothing but the loop over the column's entries (no per-entry slicing of an output
//!   row: `n = 1` has its own loop).
//!
//! The loops are memory-bound (one random access of the dense operand, or of the output,
//! per stored entry), so what matters is keeping that randomly accessed vector in the
//! caches: the CSR and CSC SpMV loops hint their index and value arrays as non-temporal a
//! few lines ahead ([`Hinted`]), so the streams that are read once do not evict it.
//! Unchecked indexing, prefetching `x` itself and AVX-512 make no measurable difference to
//! such a loop, so it stays safe and plain.
//!
//! Below [`crate::exec::par::PAR_THRESHOLD`] stored entries (with `Par::Auto`) everything
//! runs on the calling thread.

use crate::exec::par::{Par, Work};
use crate::exec::prefetch;
use crate::kernels::sparse_build::balanced_blocks;
use crate::storage::sparse::{SparseElem, SparseIndex};

/// `out = A B` for compressed `A` (CSC when `csc`, else CSR) and row-major `B` with `n`
/// columns (`n = 1`: `B` is a vector), `out` row-major; every element of `out` is written.
/// `zeroed` says that `out` already holds zeros (a new buffer), which the CSC scatter needs
/// and then does not write again.
pub(crate) fn product<T: SparseElem, I: SparseIndex>(
    a: CsRef<'_, T, I>,
    csc: bool,
    b: &[T],
    n: usize,
    out: &mut [T],
    zeroed: bool,
    par: Par,
) {
    if csc {
        if !zeroed {
            out.fill(T::zero());
        }
        csc_matmat(a, b, n, out, par);
    } else if n == 1 {
        csr_matvec(a, b, out, par);
    } else {
        csr_matmat(a, b, n, out, par);
    }
}

/// Borrowed compressed arrays (checked by a constructor: the sparse invariants hold).
#[derive(Clone, Copy)]
pub(crate) struct CsRef<'a, T, I> {
    pub indptr: &'a [I],
    pub indices: &'a [I],
    pub values: &'a [T],
}

impl<T, I: SparseIndex> CsRef<'_, T, I> {
    fn lanes(&self) -> usize {
        self.indptr.len() - 1
    }
    fn range(&self, lane: usize) -> core::ops::Range<usize> {
        self.indptr[lane].index()..self.indptr[lane + 1].index()
    }
}

/// Blocks of lanes for `par`: several per thread when parallel, one otherwise.
fn blocks_for<T, I: SparseIndex>(a: &CsRef<'_, T, I>, par: Par, per_thread: usize) -> Vec<usize> {
    let nnz = a.values.len();
    let blocks = par.pieces(Work::Elements(nnz + a.lanes()), per_thread);
    balanced_blocks(a.indptr, blocks)
}

/// Runs `f(first_lane, out_rows)` over blocks of CSR rows, each with its own rows of `out`
/// (`width` elements per row), in parallel when there are several blocks.
#[allow(clippy::disallowed_methods, reason = "one slot per thread block")]
fn for_row_blocks<T: Send>(bounds: &[usize], out: &mut [T], width: usize, f: impl Fn(usize, &mut [T]) + Sync) {
    let mut pieces = Vec::with_capacity(bounds.len());
    let mut rest = out;
    for w in bounds.windows(2) {
        let (piece, r) = rest.split_at_mut((w[1] - w[0]) * width);
        pieces.push((w[0], piece));
        rest = r;
    }
    crate::exec::par::map_pieces(
        pieces,
        #[inline(always)]
        |(first, piece)| f(first, piece),
    );
}

/// Rows shorter than this are summed with one accumulator: their few additions already
/// overlap with the neighbouring rows' in the pipeline, and setting up four accumulators
/// costs more than it saves (the `spmv_*` benches have 10 entries per row); longer rows get
/// four independent ones.
const MULTI_ACC_LEN: usize = 16;

/// `Σ values[k] · x[indices[k]]`.
#[inline(always)]
fn sparse_dot<T: SparseElem, I: SparseIndex>(indices: &[I], values: &[T], x: &[T]) -> T {
    if indices.len() < MULTI_ACC_LEN {
        return indices.iter().zip(values).fold(T::zero(), |s, (i, &v)| s + v * x[i.index()]);
    }
    let mut acc = [T::zero(); 4];
    let (ci, cv) = (indices.chunks_exact(4), values.chunks_exact(4));
    let (ri, rv) = (ci.remainder(), cv.remainder());
    for (i, v) in ci.zip(cv) {
        for l in 0..4 {
            acc[l] = acc[l] + v[l] * x[i[l].index()];
        }
    }
    let tail = ri.iter().zip(rv).fold(T::zero(), |s, (i, &v)| s + v * x[i.index()]);
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}

/// Entries hinted ahead of the one being read: 64 `usize` indices are 512 bytes, eight
/// cache lines (the best of 32–512 entries in a standalone SpMV loop, see
/// [`prefetch::streaming`]).
const HINT_AHEAD: usize = 64;

/// Rows longer than this are left to the hardware prefetcher, which follows one long
/// sequential run by itself; hinting all of such a row before reading it would fetch more
/// than L1 holds.
const HINT_MAX_ROW: usize = 256;

/// Keeps non-temporal hints [`HINT_AHEAD`] entries ahead of the reading position in a block
/// of a compressed matrix's index and value arrays, row by row for CSR and column by column
/// for CSC (see [`prefetch::streaming`]).
struct Hinted<'a, T, I> {
    indices: &'a [I],
    values: &'a [T],
    /// First entry (of the block) of the next row to be read.
    row_start: usize,
    /// Next entry (of the block) whose cache lines are not hinted yet.
    next: usize,
}

impl<'a, T, I> Hinted<'a, T, I> {
    /// One hint per cache line of the wider of the two arrays.
    const STEP: usize = 64 / max(max(size_of::<T>(), size_of::<I>()), 1);

    fn new(indices: &'a [I], values: &'a [T]) -> Self {
        Hinted { indices, values, row_start: 0, next: 0 }
    }

    /// Before the block's next row, of `len` entries: hints the lines up to
    /// [`HINT_AHEAD`] entries past it.
    #[inline(always)]
    fn ahead_of(&mut self, len: usize) {
        let row_end = self.row_start + len;
        self.row_start = row_end;
        if len > HINT_MAX_ROW {
            self.next = self.next.max(row_end);
            return;
        }
        let until = (row_end + HINT_AHEAD).min(self.indices.len());
        while self.next < until {
            prefetch::streaming(self.indices.as_ptr().wrapping_add(self.next));
            prefetch::streaming(self.values.as_ptr().wrapping_add(self.next));
            self.next += Self::STEP;
        }
    }
}

const fn max(a: usize, b: usize) -> usize {
    if a > b {
        a
    } else {
        b
    }
}

/// `y = A x` for CSR `A` (`x.len()` = columns, `y.len()` = rows).
fn csr_matvec<T: SparseElem, I: SparseIndex>(a: CsRef<'_, T, I>, x: &[T], y: &mut [T], par: Par) {
    let bounds = blocks_for(&a, par, 4);
    for_row_blocks(
        &bounds,
        y,
        1,
        #[inline(always)]
        |first, ys| {
            // The block's entries as one run, cut row by row: one length check per row
            // instead of re-reading and re-checking `indptr` and both slices.
            let ptr = &a.indptr[first..=first + ys.len()];
            let k = ptr[0].index()..ptr[ys.len()].index();
            let (mut idx, mut vals) = (&a.indices[k.clone()], &a.values[k]);
            let mut hinted = Hinted::new(idx, vals);
            for (yr, w) in ys.iter_mut().zip(ptr.windows(2)) {
                let len = w[1].index() - w[0].index();
                hinted.ahead_of(len);
                let (ri, rest_i) = idx.split_at(len);
                let (rv, rest_v) = vals.split_at(len);
                *yr = sparse_dot(ri, rv, x);
                (idx, vals) = (rest_i, rest_v);
            }
        },
    );
}

/// Output columns of SpMM accumulated together in registers (a fixed-size array the
/// compiler keeps out of memory) before one store per row.
const TILE: usize = 16;

/// `C = A B` for CSR `A` and row-major `B` (`n` columns), `C` row-major.
///
/// Each output row is computed in tiles of [`TILE`] columns held in a local array, so the
/// sums stay in registers across the row's entries; the last `n % TILE` columns are added
/// into the output row directly.
fn csr_matmat<T: SparseElem, I: SparseIndex>(a: CsRef<'_, T, I>, b: &[T], n: usize, c: &mut [T], par: Par) {
    if n == 0 {
        return;
    }
    let bounds = blocks_for(&a, par, 4);
    for_row_blocks(
        &bounds,
        c,
        n,
        #[inline(always)]
        |first, cs| {
            for (r, crow) in cs.chunks_exact_mut(n).enumerate() {
                let k = a.range(first + r);
                let (idx, vals) = (&a.indices[k.clone()], &a.values[k]);
                let mut col = 0;
                while col + TILE <= n {
                    let mut acc = [T::zero(); TILE];
                    for (j, &v) in idx.iter().zip(vals) {
                        let start = j.index() * n + col;
                        let brow: &[T; TILE] = b[start..start + TILE].try_into().expect("a slice of TILE elements");
                        for l in 0..TILE {
                            acc[l] = acc[l] + v * brow[l];
                        }
                    }
                    crow[col..col + TILE].copy_from_slice(&acc);
                    col += TILE;
                }
                if col < n {
                    let rest = &mut crow[col..];
                    rest.fill(T::zero());
                    for (j, &v) in idx.iter().zip(vals) {
                        let brow = &b[j.index() * n + col..(j.index() + 1) * n];
                        for (o, &bv) in rest.iter_mut().zip(brow) {
                            *o = *o + v * bv;
                        }
                    }
                }
            }
        },
    );
}

/// Adds `A B` into the zeroed `C` for CSC `A` and row-major `B` (`n` columns; `n = 1` is
/// SpMV), `C` row-major.
///
/// In parallel the columns of `A` are cut into one block per thread (balanced by stored
/// entries); the first block scatters straight into `C`, every other one into a zeroed
/// partial output of its own, and the partials are added into `C` at the end (in block
/// order, in parallel over the elements). A partial is allocated only when it can be: when
/// the allocator refuses, the product runs serially instead of failing.
///
/// Cutting the rows instead (each thread scattering only the entries of its own rows)
/// needs no scratch memory and would give the serial result bit for bit, but every thread
/// then reads the whole matrix: in a standalone copy, two threads did twice the reading of
/// one, so there was nothing left to gain from the second.
#[allow(clippy::disallowed_methods, reason = "one slot per thread block")]
fn csc_matmat<T: SparseElem, I: SparseIndex>(a: CsRef<'_, T, I>, b: &[T], n: usize, c: &mut [T], par: Par) {
    if n == 0 {
        return;
    }
    let scatter = |lanes: core::ops::Range<usize>, out: &mut [T]| {
        if n == 1 {
            csc_scatter_vec(&a, lanes, b, out);
        } else {
            csc_scatter_mat(&a, lanes, b, n, out);
        }
    };
    // A partial costs about three passes over an output-sized buffer; below one stored
    // entry per output row the scatter itself is cheaper than that, so it stays serial.
    let bounds = if a.values.len() >= c.len() / n { blocks_for(&a, par, 1) } else { vec![0, a.lanes()] };
    // Room for the partials, reserved here (fallibly) and zeroed by the thread that uses
    // them, so that their first-touch page faults are taken in parallel.
    let reserved: Option<Vec<Vec<T>>> = (bounds.len() > 2)
        .then(|| (2..bounds.len()).map(|_| crate::alloc::try_vec_with_capacity("csc", c.len()).ok()).collect())
        .flatten();
    let Some(mut partials) = reserved else {
        crate::exec::par::map_pieces(
            vec![c],
            #[inline(always)]
            |c| scatter(0..a.lanes(), c),
        );
        return;
    };
    let len = c.len();
    let mut outs: Vec<Target<'_, T>> = Vec::with_capacity(bounds.len() - 1);
    outs.push(Target::Output(&mut *c));
    outs.extend(partials.iter_mut().map(Target::Partial));
    let pieces: Vec<_> = bounds.windows(2).map(|w| w[0]..w[1]).zip(outs).collect();
    crate::exec::par::map_pieces(
        pieces,
        #[inline(always)]
        |(lanes, out)| match out {
            Target::Output(o) => scatter(lanes, o),
            Target::Partial(p) => {
                p.resize(len, T::zero());
                scatter(lanes, p);
            }
        },
    );
    crate::exec::par::for_each_chunk_mut(
        c,
        crate::exec::par::CHUNK,
        true,
        #[inline(always)]
        |base, chunk| {
            let len = chunk.len();
            for part in &partials {
                for (o, &p) in chunk.iter_mut().zip(&part[base..base + len]) {
                    *o = *o + p;
                }
            }
        },
    );
}

/// Where a block of CSC columns scatters: the (zeroed) output itself, or a partial output
/// (empty, with room reserved).
enum Target<'a, T> {
    Output(&'a mut [T]),
    Partial(&'a mut Vec<T>),
}

/// Adds `A[:, lanes] x` into `y` for CSC `A`: `a[i, j] · x[j]` scattered column after
/// column.
#[inline(always)]
fn csc_scatter_vec<T: SparseElem, I: SparseIndex>(
    a: &CsRef<'_, T, I>,
    lanes: core::ops::Range<usize>,
    x: &[T],
    y: &mut [T],
) {
    // The block's entries as one run, cut column by column (as in `csr_matvec`).
    let ptr = &a.indptr[lanes.start..=lanes.end];
    let k = ptr[0].index()..ptr[lanes.len()].index();
    let (mut idx, mut vals) = (&a.indices[k.clone()], &a.values[k]);
    let mut hinted = Hinted::new(idx, vals);
    for (&xj, w) in x[lanes].iter().zip(ptr.windows(2)) {
        let len = w[1].index() - w[0].index();
        hinted.ahead_of(len);
        let (ci, rest_i) = idx.split_at(len);
        let (cv, rest_v) = vals.split_at(len);
        for (i, &v) in ci.iter().zip(cv) {
            let o = &mut y[i.index()];
            *o = *o + v * xj;
        }
        (idx, vals) = (rest_i, rest_v);
    }
}

/// [`csc_scatter_vec`] for `n > 1` columns of `B` and `C`: every entry adds
/// `a[i, j] · B[j, :]` to row `i` of `C`.
#[inline(always)]
fn csc_scatter_mat<T: SparseElem, I: SparseIndex>(
    a: &CsRef<'_, T, I>,
    lanes: core::ops::Range<usize>,
    b: &[T],
    n: usize,
    c: &mut [T],
) {
    for j in lanes {
        let brow = &b[j * n..(j + 1) * n];
        let k = a.range(j);
        for (i, &v) in a.indices[k.clone()].iter().zip(&a.values[k]) {
            let crow = &mut c[i.index() * n..(i.index() + 1) * n];
            for (o, &bv) in crow.iter_mut().zip(brow) {
                *o = *o + v * bv;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_run_ahead_of_short_rows_and_skip_long_ones() {
        let (indices, values) = (vec![0usize; 1000], vec![0f32; 1000]);
        let mut h = Hinted::new(&indices, &values);
        let mut left = indices.len();
        // Row lengths: empty, short, one past the hinted length, short up to the end.
        for (len, hinted_to) in [(0, HINT_AHEAD), (5, 5 + HINT_AHEAD), (HINT_MAX_ROW + 1, 5 + HINT_MAX_ROW + 1)] {
            h.ahead_of(len);
            assert!(h.next >= hinted_to, "after a row of {len}: {} < {hinted_to}", h.next);
            assert!(h.next < hinted_to + Hinted::<f32, usize>::STEP);
            left -= len;
        }
        while left > 0 {
            let len = left.min(7);
            h.ahead_of(len);
            left -= len;
            let row_end = indices.len() - left;
            assert!(h.next >= (row_end + HINT_AHEAD).min(indices.len()));
        }
        assert!(h.next < indices.len() + Hinted::<f32, usize>::STEP);
    }
}
