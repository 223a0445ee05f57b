//! How one elementwise launch walks its elements: the output's axes reordered by their
//! strides, axes of extent 1 dropped, neighbouring axes that step over each other in every
//! operand merged, and 32-bit index arithmetic whenever every position fits.
//!
//! Fewer axes mean fewer divisions per element, and a GPU divides 64-bit integers in
//! software, several times slower than 32-bit ones; merging also turns operands that
//! share any one dense order (all column-major, say) into the flat kernel, which needs
//! no division at all.

use super::handle::{IndexWidth, LayoutClass};
use crate::layout::positions_fit_i32;

/// The walk of an elementwise launch over `n` elements: its [`LayoutClass`] and, when
/// strided, the merged dims (last axis fastest) and each operand's strides over them.
/// Operand 0 is the output; the others are the expression's tensor leaves, in the order
/// the kernel numbers them.
///
/// ```
/// use mdtensor::device::{ElementwisePlan, IndexWidth, LayoutClass};
/// // A 4×3 column-major output from a column-major operand: one contiguous run.
/// let p = ElementwisePlan::new(&[4, 3], &[vec![1, 4], vec![1, 4]]);
/// assert_eq!(p.class, LayoutClass::Flat);
/// // A row added to every row of a row-major matrix: two axes, 32-bit positions.
/// let p = ElementwisePlan::new(&[4, 3], &[vec![3, 1], vec![3, 1], vec![0, 1]]);
/// assert_eq!(p.class, LayoutClass::Strided(IndexWidth::I32));
/// assert_eq!(p.dims, [4, 3]);
/// assert_eq!(p.strides[2], [0, 1]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElementwisePlan {
    /// Flat (element `i` of every operand at position `i`) or strided.
    pub class: LayoutClass,
    /// The merged dims of a strided walk (empty when flat).
    pub dims: Vec<usize>,
    /// Per operand, its strides over [`ElementwisePlan::dims`] (empty when flat).
    pub strides: Vec<Vec<isize>>,
    /// The number of elements.
    pub n: usize,
}

impl ElementwisePlan {
    /// The plan for an output of `dims` whose operands (output first) have `strides`, each
    /// already broadcast to `dims` (stride 0 along a broadcast axis). Every operand's
    /// elements keep their positions: element `c` (a row-major coordinate over the merged
    /// dims) of operand `k` is at `Σ c[d] * strides[k][d]`, the position of the same
    /// element of the original walk.
    pub fn new(dims: &[usize], strides: &[Vec<isize>]) -> Self {
        let n: usize = dims.iter().product();
        // Axes of extent 1 never move a position; ordered by the output's stride, largest
        // first, so the output is written in memory order (stable: ties keep their order).
        let mut axes: Vec<usize> = (0..dims.len()).filter(|&d| dims[d] != 1).collect();
        if let Some(out) = strides.first() {
            axes.sort_by_key(|&d| core::cmp::Reverse(out[d].unsigned_abs()));
        }
        let mut mdims: Vec<usize> = Vec::new();
        let mut mstrides: Vec<Vec<isize>> = vec![Vec::new(); strides.len()];
        for &d in &axes {
            // Axis `d` continues the previous one when, in every operand, one step of the
            // previous axis is `dims[d]` steps of this one.
            let merges = !mdims.is_empty()
                && strides.iter().zip(&mstrides).all(|(s, m)| m.last() == Some(&(s[d] * dims[d] as isize)));
            if merges {
                *mdims.last_mut().expect("not empty") *= dims[d];
                for (s, m) in strides.iter().zip(&mut mstrides) {
                    *m.last_mut().expect("not empty") = s[d];
                }
            } else {
                mdims.push(dims[d]);
                for (s, m) in strides.iter().zip(&mut mstrides) {
                    m.push(s[d]);
                }
            }
        }
        let flat = mdims.is_empty() || (mdims.len() == 1 && mstrides.iter().all(|m| m[0] == 1));
        if flat {
            return ElementwisePlan { class: LayoutClass::Flat, dims: Vec::new(), strides: Vec::new(), n };
        }
        let width = if fits_i32(n, &mdims, &mstrides) { IndexWidth::I32 } else { IndexWidth::I64 };
        ElementwisePlan { class: LayoutClass::Strided(width), dims: mdims, strides: mstrides, n }
    }

    /// The number of axes of the walk (0 when flat).
    pub fn rank(&self) -> usize {
        self.dims.len()
    }
}

/// Whether the element count and every operand's positions fit in an `i32` (the host's
/// [`positions_fit_i32`] per operand).
fn fits_i32(n: usize, dims: &[usize], strides: &[Vec<isize>]) -> bool {
    n <= i32::MAX as usize && strides.iter().all(|s| positions_fit_i32(dims, s))
}
