//! The checks behind every sparse constructor, written once (and meant for deserialisers
//! too): each returns the first violation of the sparse invariants (see [`super`]) it finds,
//! naming its position.

use super::{SparseError, SparseIndex};
use core::cmp::Ordering;

/// The extents' element count does not overflow `usize`, and each extent fits `I`.
pub(crate) fn check_extents<I: SparseIndex>(dims: &[usize]) -> Result<(), SparseError> {
    crate::error::checked_numel("sparse tensor", dims, 1)?;
    for &d in dims {
        fits::<I>("an extent", d)?;
    }
    Ok(())
}

/// `value` fits the index type `I`.
pub(crate) fn fits<I: SparseIndex>(what: &'static str, value: usize) -> Result<(), SparseError> {
    match I::from_usize(value) {
        Some(_) => Ok(()),
        None => Err(SparseError::IndexTypeOverflow { what, value, index_type: I::NAME }),
    }
}

/// Names of a compressed layout's lanes and indices, for messages.
#[derive(Clone, Copy)]
pub(crate) struct LaneNames {
    pub lane: &'static str,
    pub inner: &'static str,
}

/// What a compressed constructor demands of the indices inside each lane.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum LaneOrder {
    /// Strictly increasing (the invariant).
    Sorted,
    /// Anything in range (`from_unsorted` sorts and sums afterwards).
    Any,
}

/// Checks compressed arrays for `lanes` lanes of `inner` positions each.
pub(crate) fn check_compressed<I: SparseIndex>(
    names: LaneNames,
    lanes: usize,
    inner: usize,
    indptr: &[I],
    indices: &[I],
    n_values: usize,
    order: LaneOrder,
) -> Result<(), SparseError> {
    let nnz = indices.len();
    if nnz != n_values {
        return Err(SparseError::LengthMismatch { what: "indices", indices: nnz, values: n_values });
    }
    fits::<I>("nnz", nnz)?;
    if indptr.len() != lanes.saturating_add(1) {
        return Err(SparseError::IndptrLength {
            lane: names.lane,
            expected: lanes.saturating_add(1),
            found: indptr.len(),
        });
    }
    // A value that does not even fit `usize` is necessarily beyond `nnz`.
    let ptr = |p: usize| indptr[p].try_index().unwrap_or(usize::MAX);
    if ptr(0) != 0 {
        return Err(SparseError::IndptrStart { found: ptr(0) });
    }
    for p in 1..indptr.len() {
        let (prev, value) = (ptr(p - 1), ptr(p));
        if value < prev {
            return Err(SparseError::IndptrDecreasing { pos: p, value, prev });
        }
    }
    // Non-decreasing and ending at `nnz`: every lane lies inside `0..nnz`.
    if ptr(lanes) != nnz {
        return Err(SparseError::IndptrEnd { pos: lanes, value: ptr(lanes), nnz });
    }
    for lane in 0..lanes {
        let (start, end) = (ptr(lane), ptr(lane + 1));
        let mut prev: Option<usize> = None;
        for (pos, &ix) in indices.iter().enumerate().take(end).skip(start) {
            let index = ix.try_index().unwrap_or(usize::MAX);
            if index >= inner {
                return Err(SparseError::IndexOutOfRange {
                    lane: names.lane,
                    lane_index: lane,
                    inner: names.inner,
                    index,
                    extent: inner,
                });
            }
            if order == LaneOrder::Sorted {
                match prev.map(|p| index.cmp(&p)) {
                    Some(Ordering::Less) => {
                        return Err(SparseError::Unsorted {
                            lane: names.lane,
                            lane_index: lane,
                            inner: names.inner,
                            pos,
                            index,
                            prev: prev.unwrap_or(0),
                        })
                    }
                    Some(Ordering::Equal) => {
                        return Err(SparseError::Duplicate {
                            lane: names.lane,
                            lane_index: lane,
                            inner: names.inner,
                            index,
                        })
                    }
                    _ => {}
                }
            }
            prev = Some(index);
        }
    }
    Ok(())
}

/// Checks flat COO coordinates (`rank` per entry) against `dims`; with
/// [`LaneOrder::Sorted`] also that entries strictly increase under `cmp`.
pub(crate) fn check_coo<I: SparseIndex>(
    dims: &[usize],
    coords: &[I],
    n_values: usize,
    order: LaneOrder,
    reversed: bool,
) -> Result<(), SparseError> {
    let rank = dims.len();
    let expected = n_values.checked_mul(rank);
    if expected != Some(coords.len()) {
        return Err(SparseError::LengthMismatch { what: "coordinates", indices: coords.len(), values: n_values });
    }
    fits::<I>("nnz", n_values)?;
    if order == LaneOrder::Sorted && rank == 0 && n_values > 1 {
        // A rank-0 tensor has one position: a second entry repeats it.
        return Err(SparseError::EntryDuplicate { entry: 1, index: vec![] });
    }
    for e in 0..n_values {
        let c = &coords[e * rank..(e + 1) * rank];
        for (axis, (&ix, &extent)) in c.iter().zip(dims).enumerate() {
            let index = ix.try_index().unwrap_or(usize::MAX);
            if index >= extent {
                return Err(SparseError::CoordinateOutOfRange { entry: e, axis, index, extent });
            }
        }
        if order == LaneOrder::Sorted && e > 0 {
            match compare_coords(&coords[(e - 1) * rank..e * rank], c, reversed) {
                Ordering::Greater => return Err(SparseError::EntryUnsorted { entry: e }),
                Ordering::Equal => {
                    return Err(SparseError::EntryDuplicate { entry: e, index: c.iter().map(|i| i.index()).collect() })
                }
                Ordering::Less => {}
            }
        }
    }
    Ok(())
}

/// Order of two coordinates: lexicographic, or from the last axis when `reversed`.
#[inline]
pub(crate) fn compare_coords<I: Ord>(a: &[I], b: &[I], reversed: bool) -> Ordering {
    if reversed {
        a.iter().rev().cmp(b.iter().rev())
    } else {
        a.cmp(b)
    }
}
