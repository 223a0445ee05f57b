//! Building compressed arrays: a counting sort of triplets by lane (linear in the number of
//! triplets, where a comparison sort would be `n log n`), then a sort of each short lane
//! and a summing of repeated indices.

use crate::kernels::par::Par;
use crate::storage::sparse::{SparseElem, SparseError, SparseIndex};
use rayon::prelude::*;

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

/// Splits `indices`/`values` at the lane boundaries `bounds`, into one mutable piece per
/// block: `(first lane, indices, values)`.
pub(crate) fn split_blocks<'a, T, I: SparseIndex>(
    indptr: &[I],
    bounds: &[usize],
    mut indices: &'a mut [I],
    mut values: &'a mut [T],
) -> Vec<(usize, &'a mut [I], &'a mut [T])> {
    let mut out = Vec::with_capacity(bounds.len());
    for w in bounds.windows(2) {
        let len = indptr[w[1]].index() - indptr[w[0]].index();
        let (i, irest) = indices.split_at_mut(len);
        let (v, vrest) = values.split_at_mut(len);
        out.push((w[0], i, v));
        (indices, values) = (irest, vrest);
    }
    out
}

/// Compressed arrays from triplets: `outer[k]` is the lane (row for CSR), `inner[k]` the
/// index inside it, repeated coordinates summed. `outer_axis` names the axis of `outer` in
/// errors.
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
    // Pass 1: count per lane, checking every coordinate.
    let mut start = vec![0usize; lanes + 1];
    for (e, (o, i)) in outer.iter().zip(inner).enumerate() {
        let o = o.try_index().unwrap_or(usize::MAX);
        if o >= lanes {
            return Err(SparseError::CoordinateOutOfRange { entry: e, axis: outer_axis, index: o, extent: lanes });
        }
        let i = i.try_index().unwrap_or(usize::MAX);
        if i >= inner_extent {
            let axis = 1 - outer_axis;
            return Err(SparseError::CoordinateOutOfRange { entry: e, axis, index: i, extent: inner_extent });
        }
        start[o + 1] += 1;
    }
    for l in 0..lanes {
        start[l + 1] += start[l];
    }
    // Pass 2: scatter every triplet to the next free slot of its lane. Zero-initialised
    // buffers come from the allocator's zeroed pages, so the fill costs nothing extra.
    let mut next = start[..lanes].to_vec();
    let mut indices = vec![I::default(); n];
    let mut vals = vec![T::zero(); n];
    for ((o, i), &v) in outer.iter().zip(inner).zip(values) {
        let slot = &mut next[o.index()];
        // Checked in pass 1 to be below the inner extent, which fits `I`.
        indices[*slot] = I::from_usize(i.index()).unwrap_or_default();
        vals[*slot] = v;
        *slot += 1;
    }
    // Every count is at most n, which fits `I`.
    let mut indptr: Vec<I> = start.iter().map(|&s| I::from_usize(s).unwrap_or_default()).collect();
    sort_and_sum_lanes(&mut indptr, &mut indices, &mut vals, par);
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
/// and rewriting `indptr` when some index repeats. Lanes are sorted in parallel blocks.
pub(crate) fn sort_and_sum_lanes<T: SparseElem, I: SparseIndex>(
    indptr: &mut [I],
    indices: &mut Vec<I>,
    values: &mut Vec<T>,
    par: Par,
) {
    let lanes = indptr.len() - 1;
    let sort_block = |(first, idx, vals): (usize, &mut [I], &mut [T]), last: usize| {
        let base = indptr[first].index();
        let mut dup = false;
        for l in first..last {
            let (s, e) = (indptr[l].index() - base, indptr[l + 1].index() - base);
            dup |= sort_lane(&mut idx[s..e], &mut vals[s..e]);
        }
        dup
    };
    let blocks = if par.parallel_for(indices.len()) { rayon::current_num_threads() * 4 } else { 1 };
    let bounds = balanced_blocks(indptr, blocks);
    let pieces = split_blocks(indptr, &bounds, indices, values);
    let dup = if pieces.len() > 1 {
        pieces
            .into_par_iter()
            .zip(bounds[1..].par_iter())
            .map(|(p, &last)| sort_block(p, last))
            .reduce(|| false, |a, b| a | b)
    } else {
        pieces.into_iter().zip(&bounds[1..]).any(|(p, &last)| sort_block(p, last))
    };
    if !dup {
        return;
    }
    // Sum runs of equal indices, moving entries left.
    let mut w = 0;
    let mut lane_start = 0;
    for l in 0..lanes {
        let (s, e) = (lane_start, indptr[l + 1].index());
        let first_out = w;
        for k in s..e {
            if w > first_out && indices[w - 1] == indices[k] {
                values[w - 1] = values[w - 1] + values[k];
            } else {
                indices[w] = indices[k];
                values[w] = values[k];
                w += 1;
            }
        }
        lane_start = e;
        // `w` never exceeds the old end, which fits `I`.
        indptr[l + 1] = I::from_usize(w).unwrap_or_default();
    }
    indices.truncate(w);
    values.truncate(w);
}
