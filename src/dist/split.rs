//! How an axis of `n` elements is split over `parts` ranks: numpy's `array_split` rule
//! (the first `n % parts` parts get one element more), so uneven splits need no padding.

use core::ops::Range;

/// The range of indices part `part` of `parts` holds of an axis of `n` elements.
///
/// ```
/// use mdtensor::dist::split_range;
/// // np.array_split(np.arange(10), 3) -> sizes 4, 3, 3
/// assert_eq!(split_range(10, 3, 0), 0..4);
/// assert_eq!(split_range(10, 3, 1), 4..7);
/// assert_eq!(split_range(10, 3, 2), 7..10);
/// // more parts than elements: the last parts are empty
/// assert_eq!(split_range(2, 3, 2), 2..2);
/// ```
pub fn split_range(n: usize, parts: usize, part: usize) -> Range<usize> {
    let parts = parts.max(1);
    let (q, r) = (n / parts, n % parts);
    // part * q <= n and min(part, r) <= r, so neither sum overflows.
    let start = part * q + part.min(r);
    let len = q + usize::from(part < r);
    start..start + len
}

/// The part holding index `i` of an axis of `n` elements split in `parts` (`i < n`).
pub(crate) fn owner_of(n: usize, parts: usize, i: usize) -> usize {
    let parts = parts.max(1);
    let (q, r) = (n / parts, n % parts);
    let big = (q + 1) * r;
    if i < big {
        i / (q + 1)
    } else {
        r + (i - big) / q.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_cover_the_axis_in_order() {
        for n in 0..20 {
            for parts in 1..7 {
                let mut next = 0;
                for p in 0..parts {
                    let r = split_range(n, parts, p);
                    assert_eq!(r.start, next);
                    next = r.end;
                    for i in r.clone() {
                        assert_eq!(owner_of(n, parts, i), p, "n={n} parts={parts} i={i}");
                    }
                    // numpy's `array_split` sizes: ⌊n / parts⌋ or one more.
                    assert!(r.len() >= n / parts);
                    assert!(r.len() <= n / parts + 1);
                }
                assert_eq!(next, n);
            }
        }
    }
}
