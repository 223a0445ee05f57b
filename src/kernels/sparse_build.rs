//! Building compressed arrays: a counting sort of triplets by lane (linear in the number of
//! triplets, where a comparison sort would be `n log n`), then a sort of each short lane
//! and a summing of repeated indices.

use crate::alloc::{try_vec_filled, try_vec_with_capacity};
use crate::exec::par::{Par, Work};
use crate::storage::sparse::{SparseElem, SparseError, SparseIndex};

/// Compressed arrays.
pub(crate) struct Built<T, I> {
    pub indptr: Vec<I>,
    pub indices: Vec<I>,
    pub values: Vec<T>,
}

/// The first position in `0..n` where `pred` is false (`pred` true then false).
pub(crate) fn partition_point(n: usize, mut pred: impl FnMut(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Lane boundaries `0 = b₀ < … ≤ b_k = lanes` splitting the lanes into `blocks` runs of
/// about equal work, counting one unit per stored entry and one per lane.
#[allow(clippy::disallowed_methods, reason = "one bound per thread block")]
pub(crate) fn balanced_blocks<I: SparseIndex>(indptr: &[I], blocks: usize) -> Vec<usize> {
    let lanes = indptr.len() - 1;
    let total = indptr[lanes].index() + lanes;
    let mut out = Vec::with_capacity(blocks + 1);
    out.push(0);
    for b in 1..blocks {
        let target = (total as u128 * b as u128 / blocks as u128) as usize;
        let l = partition_point(lanes + 1, |l| indptr[l].index() + l < target);
        if l > *out.last().expect("starts with 0") && l < lanes {
            out.push(l);
        }
    }
    out.push(lanes);
    out
}

/// Cuts `lens`, `idx` and `vals` into consecutive pieces: piece `b` has `lanes[b]` lane
/// lengths and `sizes[b]` entries.
#[allow(clippy::type_complexity)]
#[allow(clippy::disallowed_methods, reason = "one slot per block size already listed")]
fn split3<'a, T, I>(
    lanes: &[usize],
    sizes: &[usize],
    mut lens: &'a mut [usize],
    mut idx: &'a mut [I],
    mut vals: &'a mut [T],
) -> Vec<(&'a mut [usize], &'a mut [I], &'a mut [T])> {
    let mut out = Vec::with_capacity(sizes.len());
    for (&l, &s) in lanes.iter().zip(sizes) {
        let (a, ra) = lens.split_at_mut(l);
        let (b, rb) = idx.split_at_mut(s);
        let (c, rc) = vals.split_at_mut(s);
        out.push((a, b, c));
        (lens, idx, vals) = (ra, rb, rc);
    }
    out
}

/// Runs `f` on every piece, in parallel when there are several; returns the results in
/// order.
fn each_piece<P: Send, R: Send>(pieces: Vec<P>, f: impl Fn(P) -> R + Sync + Send) -> Vec<R> {
    crate::exec::par::map_pieces(pieces, f)
}

/// Sorts each lane of a block (lane lengths `lens`) and sums repeated indices in place,
/// updating `lens`; returns how many entries the block keeps (at its front).
fn sort_block<T: SparseElem, I: SparseIndex>(lens: &mut [usize], idx: &mut [I], vals: &mut [T]) -> usize {
    let mut start = 0;
    let mut dup = false;
    for &len in lens.iter() {
        dup |= sort_lane(&mut idx[start..start + len], &mut vals[start..start + len]);
        start += len;
    }
    if !dup {
        return start;
    }
    let (mut r, mut w) = (0, 0);
    for len in lens.iter_mut() {
        let first = w;
        for k in r..r + *len {
            if w > first && idx[w - 1] == idx[k] {
                vals[w - 1] = vals[w - 1] + vals[k];
            } else {
                idx[w] = idx[k];
                vals[w] = vals[k];
                w += 1;
            }
        }
        r += *len;
        *len = w - first;
    }
    w
}

/// Moves each block's `kept[b]` entries (of the `sizes[b]` it spanned) next to the previous
/// block's, then truncates.
fn close_gaps<T: Copy, I: Copy>(sizes: &[usize], kept: &[usize], idx: &mut Vec<I>, vals: &mut Vec<T>) {
    let (mut r, mut w) = (0, 0);
    for (&s, &k) in sizes.iter().zip(kept) {
        if r != w {
            idx.copy_within(r..r + k, w);
            vals.copy_within(r..r + k, w);
        }
        r += s;
        w += k;
    }
    idx.truncate(w);
    vals.truncate(w);
}

/// `indptr` from lane lengths whose total fits `I`.
fn indptr_from_lens<I: SparseIndex>(lens: &[usize], out: &mut Vec<I>) {
    out.clear();
    out.reserve(lens.len() + 1);
    let mut acc = 0;
    out.push(I::default());
    for &l in lens {
        acc += l;
        // At most the number of entries, which fits `I`.
        out.push(I::from_usize(acc).unwrap_or_default());
    }
}

/// Output entries per block that keep a block's slice of the output in cache while it is
/// scattered (tiny under Miri, so that small inputs reach the multi-block path).
const BLOCK_ENTRIES: usize = if cfg!(miri) { 64 } else { 1 << 16 };

/// Compressed arrays from triplets: `outer[k]` is the lane (row for CSR), `inner[k]` the
/// index inside it, repeated coordinates summed (in input order). `outer_axis` names the
/// axis of `outer` in errors.
///
/// Two counting-sort passes: triplets are first distributed to blocks of `2^shift`
/// consecutive lanes (in parallel over chunks of the input), then each block is sorted by
/// lane into its own slice of the output (in parallel over blocks). A block's slice is small
/// enough to stay in cache, so the scattered writes of the second pass are cheap. The
/// buckets hold a copy of the triplets: peak memory is about twice the result's.
#[allow(
    clippy::disallowed_methods,
    reason = "the buckets together hold the entries the caller already holds, and one slot per row"
)]
pub(crate) fn from_triplets<T: SparseElem, J: SparseIndex, I: SparseIndex>(
    lanes: usize,
    inner_extent: usize,
    outer_axis: usize,
    outer: &[J],
    inner: &[J],
    values: &[T],
    par: Par,
) -> Result<Built<T, I>, SparseError> {
    let n = values.len();
    if outer.len() != n || inner.len() != n {
        let indices = if outer.len() != n { outer.len() } else { inner.len() };
        let what = if (outer.len() != n) == (outer_axis == 0) { "row indices" } else { "column indices" };
        return Err(SparseError::LengthMismatch { what, indices, values: n });
    }
    crate::storage::sparse::validate_fits::<I>("nnz", n)?;
    // Saturating: a declared extent far beyond the input must not wrap to a tiny block
    // size (and so to one block per lane).
    let per_block =
        usize::try_from(lanes as u128 * BLOCK_ENTRIES as u128 / n.max(1) as u128).unwrap_or(usize::MAX).max(1);
    let shift = usize::BITS - 1 - per_block.leading_zeros();
    let nblocks = if lanes == 0 { 0 } else { ((lanes - 1) >> shift) + 1 };
    // Pass 1: check every coordinate, then copy each chunk's triplets into one bucket per
    // block (lane, index, value): sequential reads, and one write stream per block.
    let chunks = par.pieces(Work::Elements(n), 2);
    let chunk_len = n.div_ceil(chunks).max(1);
    let distribute = |c: usize| -> Result<Vec<Vec<(usize, I, T)>>, SparseError> {
        let range = c * chunk_len..((c + 1) * chunk_len).min(n);
        let mut counts = vec![0usize; nblocks];
        for e in range.clone() {
            let o = outer[e].try_index().unwrap_or(usize::MAX);
            if o >= lanes {
                return Err(SparseError::CoordinateOutOfRange { entry: e, axis: outer_axis, index: o, extent: lanes });
            }
            let i = inner[e].try_index().unwrap_or(usize::MAX);
            if i >= inner_extent {
                let axis = 1 - outer_axis;
                return Err(SparseError::CoordinateOutOfRange { entry: e, axis, index: i, extent: inner_extent });
            }
            counts[o >> shift] += 1;
        }
        let mut buckets: Vec<Vec<(usize, I, T)>> = counts.iter().map(|&k| Vec::with_capacity(k)).collect();
        for e in range {
            let o = outer[e].index();
            // Checked above to be below the inner extent, which fits `I`.
            let i = I::from_usize(inner[e].index()).unwrap_or_default();
            buckets[o >> shift].push((o, i, values[e]));
        }
        Ok(buckets)
    };
    // Each chunk reports its first bad entry, so the first error in chunk order is the
    // first bad entry overall.
    let buckets: Vec<Vec<Vec<(usize, I, T)>>> =
        each_piece((0..chunks).collect(), distribute).into_iter().collect::<Result<_, _>>()?;
    // Pass 2: each block counts its lanes, scatters its entries into its own (cache-sized)
    // slice of the output, then sorts and sums its lanes.
    let sizes: Vec<usize> = (0..nblocks).map(|b| buckets.iter().map(|bk| bk[b].len()).sum()).collect();
    let block_lanes: Vec<usize> = (0..nblocks).map(|b| ((b + 1) << shift).min(lanes) - (b << shift)).collect();
    // The only buffers sized by the declared shape rather than by the input: one count
    // per lane, and `indptr`. Both are allocated fallibly, so a shape larger than memory
    // is an error, not an abort.
    let mut lens = try_vec_filled("compressed sparse matrix", lanes, 0usize)?;
    let mut indptr = try_vec_with_capacity("compressed sparse matrix", lanes.saturating_add(1))?;
    let mut indices = vec![I::default(); n];
    let mut vals = vec![T::zero(); n];
    let pieces: Vec<_> =
        split3(&block_lanes, &sizes, &mut lens, &mut indices, &mut vals).into_iter().enumerate().collect();
    let kept = each_piece(pieces, |(b, (lens, idx, vs))| {
        let lane0 = b << shift;
        let entries = || buckets.iter().flat_map(|bk| bk[b].iter());
        for &(o, _, _) in entries() {
            lens[o - lane0] += 1;
        }
        let mut next = Vec::with_capacity(lens.len());
        let mut acc = 0;
        for &l in lens.iter() {
            next.push(acc);
            acc += l;
        }
        for &(o, i, v) in entries() {
            let slot = &mut next[o - lane0];
            idx[*slot] = i;
            vs[*slot] = v;
            *slot += 1;
        }
        sort_block(lens, idx, vs)
    });
    drop(buckets);
    close_gaps(&sizes, &kept, &mut indices, &mut vals);
    indptr_from_lens(&lens, &mut indptr);
    Ok(Built { indptr, indices, values: vals })
}

/// Sorts one lane by index, moving the values along; returns whether an index repeats.
fn sort_lane<T: Copy, I: SparseIndex>(idx: &mut [I], vals: &mut [T]) -> bool {
    if idx.windows(2).all(|w| w[0] < w[1]) {
        return false;
    }
    if idx.len() <= 16 {
        // Insertion sort: lanes are short in typical sparse matrices, and it is stable,
        // so repeated indices are summed in their input order.
        for k in 1..idx.len() {
            let (key, v) = (idx[k], vals[k]);
            let mut j = k;
            while j > 0 && idx[j - 1] > key {
                idx[j] = idx[j - 1];
                vals[j] = vals[j - 1];
                j -= 1;
            }
            idx[j] = key;
            vals[j] = v;
        }
    } else {
        let mut pairs: Vec<(I, T)> = idx.iter().copied().zip(vals.iter().copied()).collect();
        pairs.sort_by_key(|p| p.0);
        for ((i, v), (pi, pv)) in idx.iter_mut().zip(vals.iter_mut()).zip(pairs) {
            (*i, *v) = (pi, pv);
        }
    }
    idx.windows(2).any(|w| w[0] == w[1])
}

/// Sorts every lane by index and sums the values of repeated indices, shrinking the arrays
/// and rewriting `indptr` when some index repeats. Blocks of lanes are sorted in parallel.
pub(crate) fn sort_and_sum_lanes<T: SparseElem, I: SparseIndex>(
    indptr: &mut Vec<I>,
    indices: &mut Vec<I>,
    values: &mut Vec<T>,
    par: Par,
) {
    let blocks = par.pieces(Work::Elements(indices.len()), 4);
    let bounds = balanced_blocks(indptr, blocks);
    let mut lens: Vec<usize> = indptr.windows(2).map(|w| w[1].index() - w[0].index()).collect();
    let block_lanes: Vec<usize> = bounds.windows(2).map(|w| w[1] - w[0]).collect();
    let sizes: Vec<usize> = bounds.windows(2).map(|w| indptr[w[1]].index() - indptr[w[0]].index()).collect();
    let pieces = split3(&block_lanes, &sizes, &mut lens, indices, values);
    let kept = each_piece(pieces, |(l, i, v)| sort_block(l, i, v));
    if kept != sizes {
        close_gaps(&sizes, &kept, indices, values);
        indptr_from_lens(&lens, indptr);
    }
}
