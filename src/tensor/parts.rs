//! A tensor's parts taken from strided memory it did not allocate (a borrowed slice, a peer
//! crate's array): the extents and mapping its shape and strides give, checked, and
//! whether its strides let a mutable view write each element once.

use super::fits_region;
use crate::error::ShapeError;
use crate::extents::{extents_from, Extents};
use crate::layout::{span_of, Layout};

/// Extents, mapping and region of a tensor view over a peer crate's strided elements.
pub(crate) struct ViewParts<E, M> {
    pub ext: E,
    pub mapping: M,
    /// Position of the lowest-addressed element relative to element `[0, …, 0]` (≤ 0): the
    /// start of the region.
    pub low: isize,
    /// Elements from the lowest- to the highest-addressed element, inclusive.
    #[allow(dead_code)] // read by the peer-crate conversions (features ndarray, nalgebra)
    pub len: usize,
}

/// Checks a peer's shape against `E` and expresses its strides in policy `S`, over the
/// smallest region holding every element. `Err` names the shape or the strides that do
/// not fit.
pub(crate) fn view_parts<E: Extents, S: Layout<E>>(
    op: &'static str,
    dims: &[usize],
    strides: &[isize],
    policy: &str,
) -> Result<ViewParts<E, S::Mapping>, ShapeError> {
    let ext: E = extents_from(op, dims)?;
    let mut st = ext.zero_strides();
    st.as_mut().copy_from_slice(strides);
    let (low, len) = match span_of(dims, strides) {
        None => (0, 0),
        // A span that does not fit `isize` saturates; its length then fails `fits_region`.
        Some((lo, hi)) => (lo, hi.abs_diff(lo).saturating_add(1)),
    };
    let offset = low.unsigned_abs();
    let mapping = S::mapping_for(&ext, &st, offset).ok_or_else(|| ShapeError::InvalidArgument {
        op,
        reason: format!(
            "strides {strides:?} for extents {dims:?} are not those of the {policy} policy; take a Strided view"
        ),
    })?;
    if !fits_region(dims, strides, offset, len) {
        return Err(ShapeError::InvalidArgument { op, reason: format!("strides {strides:?} escape the region") });
    }
    Ok(ViewParts { ext, mapping, low, len })
}

/// Whether distinct indices always reach distinct positions. Sufficient test: with the
/// axes ordered by stride magnitude, each stride exceeds the furthest reach of the axes
/// before it (true of every layout that slicing, permuting and flipping a dense block
/// produce).
pub(crate) fn strides_unique(dims: &[usize], strides: &[isize]) -> bool {
    if dims.contains(&0) {
        return true;
    }
    let mut axes: Vec<(usize, usize)> =
        dims.iter().zip(strides).filter(|(&d, _)| d > 1).map(|(&d, &s)| (s.unsigned_abs(), d)).collect();
    axes.sort_unstable();
    let mut reach = 0usize;
    for (s, d) in axes {
        if s <= reach {
            return false;
        }
        reach = match (d - 1).checked_mul(s).and_then(|r| r.checked_add(reach)) {
            Some(r) => r,
            None => return false,
        };
    }
    true
}
