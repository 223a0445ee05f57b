//! The one place where stride and offset arithmetic is done with overflow checks.
//!
//! Every stride a view computes (a slice's `stride × step`, a flip's negated stride, the
//! strides of a dense order) and every element position it anchors at (`index × stride`
//! summed over axes) goes through these functions, so a hostile shape, step or index
//! gives an error instead of a wrapped number or a debug-build panic. The size rule
//! ([`crate::error::checked_numel`]) keeps the product of the non-zero extents of every
//! live tensor within `isize::MAX`; these functions do not rely on it.

use crate::error::ShapeError;

fn overflow(op: &'static str, what: &str) -> ShapeError {
    ShapeError::InvalidArgument { op, reason: format!("{what} overflows isize") }
}

/// Strides of the dense order that visits `dims` in `order` (innermost axis first),
/// written into `out`. An axis of extent 0 makes every outer stride 0: such a tensor has
/// no element, so its strides are never used, and they cannot overflow.
#[inline(always)]
pub(crate) fn dense_strides<'a>(dims: impl Iterator<Item = &'a usize>, out: impl Iterator<Item = &'a mut isize>) {
    let mut acc = 1isize;
    for (st, &d) in out.zip(dims) {
        *st = acc;
        // Beyond isize::MAX only when the element count is refused by the size rule, or
        // after an extent 0; 0 is right for both (no element is ever addressed).
        acc = isize::try_from(d).ok().and_then(|d| acc.checked_mul(d)).unwrap_or(0);
    }
}

/// The axes ordered by the size of their strides, largest first: the outer-to-inner order
/// of the memory they address. Stable: axes of equal stride (extent 1) keep their logical
/// order.
pub(crate) fn axes_by_stride(strides: &[isize]) -> Vec<usize> {
    let mut axes: Vec<usize> = (0..strides.len()).collect();
    axes.sort_by_key(|&k| core::cmp::Reverse(strides[k].unsigned_abs()));
    axes
}

/// Whether `dims` with `strides` cover one dense block in some order of the axes (each
/// axis of more than one element stepping by the product of the extents of the axes
/// inside it, all strides positive): a row-major, column-major or permuted contiguous
/// tensor. Axes of one element (whatever their stride) and empty tensors always qualify.
pub(crate) fn is_dense_in_some_order(dims: &[usize], strides: &[isize]) -> bool {
    if dims.contains(&0) {
        return true;
    }
    let mut axes: [(isize, usize); 32] = [(0, 0); 32];
    let mut n = 0;
    for (&d, &s) in dims.iter().zip(strides) {
        if d > 1 {
            if n == axes.len() {
                return false;
            }
            axes[n] = (s, d);
            n += 1;
        }
    }
    let axes = &mut axes[..n];
    axes.sort_unstable_by_key(|&(s, _)| s);
    let mut expected = 1isize;
    for &(s, d) in axes.iter() {
        if s != expected {
            return false;
        }
        // A live tensor's element count fits isize (the size rule), so this cannot wrap.
        expected = match isize::try_from(d).ok().and_then(|d| expected.checked_mul(d)) {
            Some(e) => e,
            None => return false,
        };
    }
    true
}

/// The stride of an axis of `len` elements taken every `step` elements of an axis of
/// stride `stride`. With two or more elements the product lies inside the parent's span;
/// an axis of at most one element never moves, so when its product overflows its stride
/// is 0 (and the traversal ignores the stride of such an axis anyway, see
/// [`crate::iter`]'s walker).
#[inline]
pub(crate) fn step_stride(op: &'static str, stride: isize, step: isize, len: usize) -> Result<isize, ShapeError> {
    match stride.checked_mul(step) {
        Some(s) => Ok(s),
        None if len <= 1 => Ok(0),
        None => Err(overflow(op, &format!("stride {stride} times step {step}"))),
    }
}

/// The stride of an axis reversed in place (0 for an axis of at most one element whose
/// stride cannot be negated).
#[inline]
pub(crate) fn negated_stride(op: &'static str, stride: isize, len: usize) -> Result<isize, ShapeError> {
    match stride.checked_neg() {
        Some(s) => Ok(s),
        None if len <= 1 => Ok(0),
        None => Err(overflow(op, &format!("the negation of stride {stride}"))),
    }
}

/// `first + index × stride`: the position of an element `index` steps along an axis.
#[inline]
pub(crate) fn advance(op: &'static str, first: isize, index: usize, stride: isize) -> Result<isize, ShapeError> {
    isize::try_from(index)
        .ok()
        .and_then(|i| i.checked_mul(stride))
        .and_then(|d| first.checked_add(d))
        .ok_or_else(|| overflow(op, &format!("the position of index {index} at stride {stride}")))
}

/// Lowest and highest element positions (relative to element `[0, …, 0]`) that the strides
/// reach, or `None` for an empty tensor. A span beyond `isize` saturates to `isize::MIN`
/// or `isize::MAX`, which no region of memory contains, so a saturated span never passes
/// a bounds check.
pub(crate) fn span_of(dims: &[usize], strides: &[isize]) -> Option<(isize, isize)> {
    if dims.contains(&0) {
        return None;
    }
    let (mut lo, mut hi) = (0isize, 0isize);
    for (&d, &s) in dims.iter().zip(strides) {
        let reach = isize::try_from(d - 1).ok().and_then(|d| d.checked_mul(s));
        match reach {
            Some(r) if r < 0 => lo = lo.saturating_add(r),
            Some(r) => hi = hi.saturating_add(r),
            None if s < 0 => lo = isize::MIN,
            None => hi = isize::MAX,
        }
    }
    Some((lo, hi))
}

/// Whether a walk of `dims` at `strides` may compute its positions (relative to element
/// `[0, …, 0]`) in 32-bit integers: the distance between the lowest and highest position
/// it reaches, `Σ (dims[d] - 1) * |strides[d]|`, which bounds every partial sum of a
/// position, is at most `i32::MAX`. An empty walk reaches none. (The device's kernels
/// choose their integer width by it.)
#[cfg(feature = "cuda")]
pub(crate) fn positions_fit_i32(dims: &[usize], strides: &[isize]) -> bool {
    span_of(dims, strides).is_none_or(|(lo, hi)| hi.checked_sub(lo).is_some_and(|w| w <= i32::MAX as isize))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "cuda")]
    #[test]
    fn the_32_bit_test_bounds_the_distance_between_extreme_positions() {
        assert!(positions_fit_i32(&[4096, 4096], &[4096, 1]));
        assert!(positions_fit_i32(&[2, 2], &[i32::MAX as isize / 2, -(i32::MAX as isize / 2)]));
        assert!(!positions_fit_i32(&[2, 2], &[i32::MAX as isize / 2 + 1, -(i32::MAX as isize / 2 + 1)]));
        assert!(!positions_fit_i32(&[2, 3], &[1 << 31, 1]));
        assert!(positions_fit_i32(&[0, 3], &[1 << 40, 1]));
        assert!(!positions_fit_i32(&[3], &[isize::MAX]));
    }

    #[test]
    fn dense_strides_never_overflow() {
        let dims = [0usize, 1 << 40, 1 << 40];
        let mut s = [0isize; 3];
        dense_strides(dims.iter().rev(), s.iter_mut().rev());
        assert_eq!(s, [0, 1 << 40, 1]);
        let dims = [2usize, 3, 4];
        dense_strides(dims.iter().rev(), s.iter_mut().rev());
        assert_eq!(s, [12, 4, 1]);
    }

    #[test]
    fn checked_steps_and_positions() {
        assert_eq!(step_stride("t", 1, isize::MAX, 1), Ok(isize::MAX));
        assert_eq!(step_stride("t", 2, isize::MAX, 1), Ok(0));
        assert_eq!(step_stride("t", 3, -2, 5), Ok(-6));
        assert!(step_stride("t", 2, isize::MAX, 2).is_err());
        assert_eq!(negated_stride("t", 4, 3), Ok(-4));
        assert!(negated_stride("t", isize::MIN, 2).is_err());
        assert_eq!(negated_stride("t", isize::MIN, 1), Ok(0));
        assert_eq!(advance("t", 5, 3, -2), Ok(-1));
        assert!(advance("t", 0, usize::MAX, 1).is_err());
        assert!(advance("t", 1, 1, isize::MAX).is_err());
        assert_eq!(span_of(&[3, 2], &[-4, 1]), Some((-8, 1)));
        assert_eq!(span_of(&[3, 1 << 62], &[1, 4]), Some((0, isize::MAX)));
        assert_eq!(span_of(&[0, 5], &[1, 1]), None);
    }
}
