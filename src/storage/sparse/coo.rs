//! Coordinate (COO) storage for sparse tensors of any rank: one coordinate per axis and a
//! value for every stored entry, kept sorted in the stride policy's order (`RowMajor`:
//! lexicographic by index; `ColMajor`: by reversed index) with no duplicates.

use super::validate::compare_coords;
use super::{SparseElem, SparseIndex, SparseStorage};
use crate::storage::Storage;

/// Owned COO storage: `coords` holds `rank` indices per entry (entry `e` at
/// `coords[e * rank..(e + 1) * rank]`), `values` one value per entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Coo<T, I = usize> {
    pub(crate) coords: Vec<I>,
    pub(crate) values: Vec<T>,
}
impl<T, I> Storage<T> for Coo<T, I> {
    const NAME: &'static str = "Coo";
}
impl<T, I> SparseStorage<T> for Coo<T, I> {}

pub(crate) type Parts<T, I> = (Vec<I>, Vec<T>);

/// Sorts entries into the policy's order and sums the values of equal coordinates (in
/// their input order, so the result does not depend on the sort).
#[allow(clippy::disallowed_methods, reason = "no larger than the input arrays it copies from")]
pub(crate) fn sort_and_sum<T: SparseElem, I: SparseIndex>(
    rank: usize,
    coords: &[I],
    values: &[T],
    reversed: bool,
) -> Parts<T, I> {
    let coord = |e: usize| &coords[e * rank..(e + 1) * rank];
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| compare_coords(coord(a), coord(b), reversed));
    let (mut out_c, mut out_v): (Vec<I>, Vec<T>) = (Vec::with_capacity(coords.len()), Vec::with_capacity(values.len()));
    for e in order {
        let last = out_v.len().checked_sub(1);
        match last {
            Some(l) if &out_c[l * rank..] == coord(e) => out_v[l] = out_v[l] + values[e],
            _ => {
                out_c.extend_from_slice(coord(e));
                out_v.push(values[e]);
            }
        }
    }
    (out_c, out_v)
}
