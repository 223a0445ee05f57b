//! One order statistic (or two adjacent ones) of all elements of a large tensor without
//! copying it: numpy's `median(a)` and `quantile(a, q)` (`axis=None`) copy the whole input
//! and partition the copy; a fresh copy of a large input costs its page faults, and the
//! partition runs on one thread. Here a sorted sample of the elements brackets the wanted
//! ranks between two of its values; one pass over the input, split across threads, counts
//! the elements below the bracket and keeps those inside it (a small fraction), and the
//! ranks are selected among those. When the bracket misses (an adversarial order of the
//! elements can make the sample unrepresentative), the caller falls back to the copy, so
//! the answer never depends on the sample.

use crate::exec::par::{map_pieces, Par, Work};
use crate::tensor::Real;
use core::cmp::Ordering;

/// Numbers in order, NaN-free input assumed (an unordered pair counts as equal).
pub(super) fn cmp<T: Real>(a: &T, b: &T) -> Ordering {
    a.partial_cmp(b).unwrap_or(Ordering::Equal)
}

/// Inputs below this many elements take the copy: the sample would not pay.
const MIN_LEN: usize = 1 << 20;
/// Sample size: its sort costs about a millisecond; the bracket then keeps about
/// `2·SPREAD/SAMPLE` of the elements.
const SAMPLE: usize = 1 << 16;
/// Half-width of the bracket, in sample ranks: four standard deviations of the sample rank
/// of the wanted element (`√SAMPLE / 2`).
const SPREAD: usize = 512;

/// The position of the `i`-th sampled element of `n`: scattered by a multiplicative hash
/// (an evenly spaced sample meets the periods of structured inputs, such as one column
/// of a matrix, and misses).
fn sample_at(i: usize, n: usize) -> usize {
    ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) % n as u64) as usize
}

/// What the bracket found.
pub(super) enum Bracketed<T> {
    /// The order statistics of ranks `lo` and `hi`.
    Values(T, T),
    /// An element is NaN, so the statistic is.
    Nan,
    /// The bracket missed, or memory for its elements was refused: copy instead.
    Fallback,
}

/// The order statistics of ranks `lo <= hi` (`hi <= lo + 1`) of `x`, all its elements in any
/// order.
pub(super) fn select_bracketed<T: Real>(x: &[T], lo: usize, hi: usize) -> Bracketed<T> {
    let n = x.len();
    if n < MIN_LEN || hi >= n || hi > lo + 1 {
        return Bracketed::Fallback;
    }
    let mut sample: Vec<T> = Vec::new();
    if sample.try_reserve_exact(SAMPLE).is_err() {
        return Bracketed::Fallback;
    }
    sample.extend((0..SAMPLE).map(|i| x[sample_at(i, n)]));
    if sample.iter().any(|v| v.is_nan()) {
        return Bracketed::Nan;
    }
    sample.sort_unstable_by(cmp);
    // The sample rank of `lo`, widened by the spread on both sides.
    let at = lo / (n / SAMPLE);
    let below = sample[at.saturating_sub(SPREAD).min(SAMPLE - 1)];
    let above = sample[(at + SPREAD).min(SAMPLE - 1)];
    let pieces = Par::Auto.pieces(Work::Elements(n), 4);
    let chunk = n.div_ceil(pieces);
    let parts: Vec<&[T]> = x.chunks(chunk).collect();
    // Per piece: elements below the bracket, NaN seen, the elements inside it.
    let found = map_pieces(parts, |part: &[T]| -> Option<(usize, bool, Vec<T>)> {
        let (mut less, mut nan) = (0usize, false);
        let mut inside = Vec::new();
        inside.try_reserve(part.len() / 32 + 16).ok()?;
        for &v in part {
            nan |= v.is_nan();
            less += usize::from(v < below);
            if v >= below && v <= above {
                if inside.len() == inside.capacity() {
                    inside.try_reserve(inside.len()).ok()?;
                }
                inside.push(v);
            }
        }
        Some((less, nan, inside))
    });
    let (mut less, mut nan, mut total) = (0usize, false, 0usize);
    for f in &found {
        let Some((l, n, inside)) = f else { return Bracketed::Fallback };
        less += l;
        nan |= n;
        total += inside.len();
    }
    if nan {
        return Bracketed::Nan;
    }
    if less > lo || less + total <= hi {
        return Bracketed::Fallback;
    }
    let mut mid: Vec<T> = Vec::new();
    if mid.try_reserve_exact(total).is_err() {
        return Bracketed::Fallback;
    }
    for (_, _, inside) in found.into_iter().flatten() {
        mid.extend_from_slice(&inside);
    }
    let k = lo - less;
    let a = *mid.select_nth_unstable_by(k, cmp).1;
    let b = if hi == lo { a } else { mid[k + 1..].iter().copied().fold(mid[k + 1], |m, v| if v < m { v } else { m }) };
    Bracketed::Values(a, b)
}
