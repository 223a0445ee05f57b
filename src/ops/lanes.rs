//! One value per 1-D lane along an axis, for functions that reorder the lane they are
//! given (selection, NaN filtering): the engine of the quantiles, `nanmedian` and
//! `logsumexp`. Each lane is copied into a small scratch buffer the function may permute
//! in place; the input is read where it lies, with no copy of the whole tensor (a fresh
//! buffer of the input's size costs its page faults, more than selecting in it). Lanes
//! whose elements are not adjacent are gathered [`TILE`] at a time, so that neighbouring
//! lanes (a row-major tensor's columns) are read a cache line at a time, into scratch lanes
//! spaced so that they do not evict each other. Groups of lanes go
//! to rayon's threads when the input is large ([`Par::Auto`]'s rule). The lanes are in
//! row-major order of the other axes, as numpy's results.

use crate::alloc::try_vec_with_capacity;
use crate::error::ShapeError;
use crate::exec::par::{map_pieces, Par, Work};
use crate::extents::Extents;
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// Lanes gathered together when their elements are apart: 16 `f32` columns of a
/// row-major matrix are one 64-byte line per step along the axis.
const TILE: usize = 16;

/// Where the lanes of one axis lie in a dense region.
struct Lanes<'a, T> {
    region: &'a [T],
    /// Offset of element `[0, …, 0]`.
    offset: isize,
    /// Extents and strides of the other axes, in order.
    dims: Vec<usize>,
    strides: Vec<isize>,
    /// Length and stride of the lanes.
    n: usize,
    step: isize,
}

impl<T: Copy> Lanes<'_, T> {
    /// Region offsets of the first elements of lanes `lo..hi` (row-major order of the
    /// other axes), appended to `bases`.
    fn bases(&self, lo: usize, hi: usize, bases: &mut Vec<usize>) {
        let rank = self.dims.len();
        let mut idx = vec![0usize; rank];
        let mut rest = lo;
        for d in (0..rank).rev() {
            idx[d] = rest % self.dims[d];
            rest /= self.dims[d];
        }
        let mut at = self.offset + idx.iter().zip(&self.strides).map(|(&i, &s)| i as isize * s).sum::<isize>();
        for _ in lo..hi {
            // In range by the dense invariant: every in-bounds position maps into the region.
            bases.push(at as usize);
            for d in (0..rank).rev() {
                idx[d] += 1;
                at += self.strides[d];
                if idx[d] < self.dims[d] {
                    break;
                }
                at -= self.strides[d] * self.dims[d] as isize;
                idx[d] = 0;
            }
        }
    }

    /// Copies the lanes starting at `bases` into runs of `n` in `scratch`, `ls` apart.
    fn gather(&self, bases: &[usize], scratch: &mut [T], ls: usize) {
        let n = self.n;
        if self.step == 1 {
            for (dst, &b) in scratch.chunks_mut(ls).zip(bases) {
                dst[..n].copy_from_slice(&self.region[b..b + n]);
            }
            return;
        }
        let adjacent = bases.windows(2).all(|w| w[1] == w[0] + 1);
        for k in 0..n {
            let shift = k as isize * self.step;
            if adjacent {
                // Neighbouring lanes: one run of the region per step along the axis.
                let at = (bases[0] as isize + shift) as usize;
                for (j, &x) in self.region[at..at + bases.len()].iter().enumerate() {
                    scratch[j * ls + k] = x;
                }
            } else {
                for (j, &b) in bases.iter().enumerate() {
                    scratch[j * ls + k] = self.region[(b as isize + shift) as usize];
                }
            }
        }
    }
}

/// The distance between gathered lanes in the scratch: `n`, or for lanes of a page or more
/// a whole number of 4 KiB pages plus one cache line, so that the tile's lanes fall in
/// different cache sets (lanes a multiple of 4 KiB apart would all compete for one set, and
/// the tile's writes evict each other). Shorter lanes spread over the sets as they are.
fn lane_stride<T>(op: &'static str, n: usize, tile: usize) -> Result<usize, ShapeError> {
    let size = core::mem::size_of::<T>().max(1);
    if tile == 1 || n.saturating_mul(size) < 4096 {
        return Ok(n);
    }
    let overflow = || ShapeError::Overflow { op, dims: vec![tile, n] };
    let bytes = n.checked_mul(size).and_then(|b| b.checked_next_multiple_of(4096)).ok_or_else(overflow)?;
    let ls = (bytes / size).checked_add(64usize.div_ceil(size)).ok_or_else(overflow)?;
    ls.checked_mul(tile).ok_or_else(overflow)?;
    Ok(ls)
}

/// `f(lane)` for every lane along `axis` (already checked), as a row-major tensor of
/// extents `out` (the input's without `axis`).
pub(crate) fn map_lanes<T: Copy + Send + Sync, U: Send, E: Extents, S: Layout<E>, St: DenseStorage<T>, E2: Extents>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    axis: usize,
    out: E2,
    f: impl Fn(&mut [T]) -> Result<U, ShapeError> + Send + Sync,
) -> Result<Tensor<U, E2>, ShapeError> {
    let values = lane_values(t, op, axis, out.numel(), 1, |lane, v| {
        v.push(f(lane)?);
        Ok(())
    })?;
    Tensor::try_from_vec(out, values).map_err(|(e, _)| e)
}

/// `each(lane, values)` for each of the `lanes` lanes along `axis` (already checked), in
/// row-major order of the other axes; `each` pushes `per` values a lane onto `values`.
pub(crate) fn lane_values<T: Copy + Send + Sync, U: Send, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    axis: usize,
    lanes: usize,
    per: usize,
    each: impl Fn(&mut [T], &mut Vec<U>) -> Result<(), ShapeError> + Send + Sync,
) -> Result<Vec<U>, ShapeError> {
    let n = t.extents().extent(axis);
    let total = lanes.checked_mul(per).ok_or_else(|| ShapeError::Overflow { op, dims: vec![per, lanes] })?;
    let mut values: Vec<U> = try_vec_with_capacity(op, total)?;
    if n == 0 || lanes == 0 {
        for _ in 0..lanes {
            each(&mut [], &mut values)?;
        }
        return Ok(values);
    }
    // SAFETY: `DenseStorage` promises `as_ptr()` valid for reads of `region_len()`
    // initialised elements that do not change while `&t` lives, which outlives `region`.
    let region = unsafe { core::slice::from_raw_parts(t.storage.as_ptr(), t.storage.region_len()) };
    let (mut dims, mut strides) = (t.dims().as_ref().to_vec(), t.strides().as_ref().to_vec());
    let step = strides.remove(axis);
    dims.remove(axis);
    let at = Lanes { region, offset: S::offset(&t.mapping) as isize, dims, strides, n, step };
    let tile = if step == 1 { 1 } else { TILE };
    let pieces = Par::Auto.pieces(Work::Elements(t.numel()), 4).min(lanes);
    let chunk = lanes.div_ceil(pieces);
    let ranges: Vec<(usize, usize)> = (0..lanes).step_by(chunk).map(|lo| (lo, (lo + chunk).min(lanes))).collect();
    for part in map_pieces(ranges, |(lo, hi)| -> Result<Vec<U>, ShapeError> {
        let mut v = try_vec_with_capacity(op, (hi - lo) * per)?;
        let tile = tile.min(hi - lo);
        let ls = lane_stride::<T>(op, n, tile)?;
        let mut scratch = try_vec_with_capacity(op, tile * ls)?;
        scratch.resize(tile * ls, region[0]);
        let mut bases = try_vec_with_capacity(op, tile)?;
        for first in (lo..hi).step_by(tile) {
            bases.clear();
            at.bases(first, (first + tile).min(hi), &mut bases);
            at.gather(&bases, &mut scratch, ls);
            for lane in scratch.chunks_mut(ls).take(bases.len()) {
                each(&mut lane[..n], &mut v)?;
            }
        }
        Ok(v)
    }) {
        values.extend(part?);
    }
    Ok(values)
}

/// `f(all elements)`, in one fallible copy (numpy's `axis=None`), for an `f` that does not
/// depend on their order: packed elements are copied in memory order, as one block.
pub(crate) fn map_all<T: Copy, U, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    f: impl FnOnce(&mut [T]) -> Result<U, ShapeError>,
) -> Result<U, ShapeError> {
    let mut all = match t.as_slice_memory_order() {
        Some(s) => {
            let mut v = try_vec_with_capacity(op, s.len())?;
            v.extend_from_slice(s);
            v
        }
        None => t.to_vec_op(op)?,
    };
    f(&mut all)
}
