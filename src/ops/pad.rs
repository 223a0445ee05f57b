//! numpy's `pad` in its modes `constant`, `edge`, `reflect`, `symmetric` and `wrap`.
//!
//! With the widths in the type (`pad::<(Pad<1, 1>, Pad<0, 2>)>(mode)`) static extents
//! stay static, `B + N + A` computed at compile time ([`PadWidths`]); with run-time widths
//! (`pad_dyn(&[(1, 1), (0, 2)], mode)`, or one pair for every axis as numpy's `pad(a, 2)`)
//! the extents become dynamic. Each padded axis maps its new index to a source index on
//! its own, so the corners are numpy's (which pads axis by axis): for `Reflect`,
//! `Symmetric` and `Wrap` a width longer than the axis keeps reflecting or wrapping, as
//! numpy's does. An empty axis can only be padded with `Constant` (numpy raises otherwise).

use crate::alloc::try_vec_with_capacity;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Extents, PadWidths};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// How `pad` fills the new elements: numpy's `mode`.
///
/// ```
/// use mdtensor::{ops::PadMode, tensor};
/// let a = tensor![1, 2, 3];
/// let w = [(2, 2)];
/// assert_eq!(a.pad_dyn(&w, PadMode::Constant(0)).to_vec(), [0, 0, 1, 2, 3, 0, 0]);
/// assert_eq!(a.pad_dyn(&w, PadMode::Edge).to_vec(), [1, 1, 1, 2, 3, 3, 3]);
/// assert_eq!(a.pad_dyn(&w, PadMode::Reflect).to_vec(), [3, 2, 1, 2, 3, 2, 1]);
/// assert_eq!(a.pad_dyn(&w, PadMode::Symmetric).to_vec(), [2, 1, 1, 2, 3, 3, 2]);
/// assert_eq!(a.pad_dyn(&w, PadMode::Wrap).to_vec(), [2, 3, 1, 2, 3, 1, 2]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PadMode<T> {
    /// Every new element is the value (numpy's default mode, with 0).
    Constant(T),
    /// The nearest edge element, repeated.
    Edge,
    /// The mirror image without the edge element (`3 2 | 1 2 3 | 2 1`).
    Reflect,
    /// The mirror image with the edge element (`2 1 | 1 2 3 | 3 2`).
    Symmetric,
    /// The other end of the axis (`2 3 | 1 2 3 | 1 2`).
    Wrap,
}

/// The source index along an axis of length `n` of new index `i` (`before` new elements
/// come first), or `None` for a constant.
fn source<T>(mode: &PadMode<T>, i: usize, before: usize, n: usize) -> Option<usize> {
    // Indices of a result that fits in memory fit in isize.
    let j = i as isize - before as isize;
    let n_i = n as isize;
    if (0..n_i).contains(&j) {
        return Some(j as usize);
    }
    let m = match mode {
        PadMode::Constant(_) => return None,
        PadMode::Edge => j.clamp(0, n_i - 1),
        PadMode::Wrap => j.rem_euclid(n_i),
        PadMode::Symmetric => {
            let m = j.rem_euclid(2 * n_i);
            if m >= n_i {
                2 * n_i - 1 - m
            } else {
                m
            }
        }
        PadMode::Reflect if n == 1 => 0,
        PadMode::Reflect => {
            let m = j.rem_euclid(2 * n_i - 2);
            if m >= n_i {
                2 * n_i - 2 - m
            } else {
                m
            }
        }
    };
    Some(m as usize)
}

/// The padded copy of `t` with extents `out` (whose dims are `t`'s widened by `widths`).
fn padded<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>, E2: Extents>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    widths: &[(usize, usize)],
    mode: &PadMode<T>,
) -> Result<Tensor<T, E2>, ShapeError> {
    let dims = t.dims();
    let dims = dims.as_ref();
    let rank = dims.len();
    let widths: Vec<(usize, usize)> = match widths.len() {
        1 if rank != 1 => vec![widths[0]; rank],
        n if n == rank => widths.to_vec(),
        n => return Err(ShapeError::RankMismatch { op, expected: rank, found: n }),
    };
    let too_big = || ShapeError::InvalidArgument { op, reason: "a padded extent overflows usize".into() };
    let mut out_dims = Vec::new();
    for (&d, &(b, a)) in dims.iter().zip(&widths) {
        if d == 0 && (b, a) != (0, 0) && !matches!(mode, PadMode::Constant(_)) {
            return Err(ShapeError::InvalidArgument {
                op,
                reason: "an empty axis can only be padded with PadMode::Constant".into(),
            });
        }
        out_dims.push(d.checked_add(b).and_then(|x| x.checked_add(a)).ok_or_else(too_big)?);
    }
    let ext = E2::from_dims(&out_dims)?;
    let count = ext.checked_numel(op, core::mem::size_of::<T>())?;
    let mut v: Vec<T> = try_vec_with_capacity(op, count)?;
    if count == 0 {
        // However long the other padded axes, nothing to fill (nor to map).
        return Tensor::try_from_vec(ext, v).map_err(|(e, _)| e);
    }
    // Per axis: the source index of each new index, and the source's row-major stride.
    let maps: Vec<Vec<Option<usize>>> =
        (0..rank).map(|k| (0..out_dims[k]).map(|i| source(mode, i, widths[k].0, dims[k])).collect()).collect();
    let mut row = vec![1usize; rank];
    for k in (0..rank.saturating_sub(1)).rev() {
        row[k] = row[k + 1] * dims[k + 1];
    }
    let src = t.to_vec_op(op)?;
    let mut idx = vec![0usize; rank];
    for _ in 0..count {
        let mut at = Some(0usize);
        for k in 0..rank {
            at = at.and_then(|p| maps[k][idx[k]].map(|s| p + s * row[k]));
        }
        v.push(match (at, mode) {
            (Some(p), _) => src[p].clone(),
            (None, PadMode::Constant(c)) => c.clone(),
            (None, _) => unreachable!("only the constant mode leaves an index without a source"),
        });
        for k in (0..rank).rev() {
            idx[k] += 1;
            if idx[k] < out_dims[k] {
                break;
            }
            idx[k] = 0;
        }
    }
    Tensor::try_from_vec(ext, v).map_err(|(e, _)| e)
}

/// # Padding
impl<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::pad`]; `Err` for an empty axis padded with a mode other than
        /// `Constant`, or when the allocator refuses the result.
        pub fn try_pad[P: PadWidths<E>]::<P>(&self, mode: PadMode<T>) -> Result<Tensor<T, P::Output>, ShapeError>
        {
            padded(self, "pad", P::WIDTHS, &mode)
        }
        /// A copy with `P`'s widths added before and after each axis (numpy's
        /// `pad(a, ((b0, a0), (b1, a1), …), mode)`), the padded extents computed in the type.
        ///
        /// ```
        /// use mdtensor::{ext, ops::PadMode, tensor, Pad};
        /// let a = tensor![[1, 2], [3, 4]];
        /// let p = a.pad::<(Pad<1, 0>, Pad<0, 2>)>(PadMode::Edge);
        /// let _: &ext![3, 4] = p.extents();
        /// assert_eq!(p.to_vec(), [1, 2, 2, 2, 1, 2, 2, 2, 3, 4, 4, 4]);
        /// ```
        pub fn pad;
    }
    forms! {
        /// See [`Tensor::pad_dyn`]; `Err` for a list that is neither one pair nor one pair
        /// per axis, an empty axis padded with a mode other than `Constant`, or a result
        /// that does not fit.
        pub fn try_pad_dyn[](&self, widths: &[(usize, usize)], mode: PadMode<T>) -> Result<Tensor<T, E::Dynamic>, ShapeError>
        {
            padded(self, "pad_dyn", widths, &mode)
        }
        /// A copy padded by run-time widths: one `(before, after)` pair per axis, or one pair
        /// for every axis (numpy's `pad(a, ((b, a),))`); the extents become dynamic.
        ///
        /// ```
        /// use mdtensor::{ops::PadMode, tensor};
        /// let a = tensor![[1, 2], [3, 4]];
        /// let p = a.pad_dyn(&[(1, 1)], PadMode::Constant(0));
        /// assert_eq!(p.dims(), [4, 4]);
        /// assert_eq!(p.to_vec(), [0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 0]);
        /// assert_eq!(a.pad_dyn(&[(0, 0), (3, 0)], PadMode::Wrap).to_vec(), [2, 1, 2, 1, 2, 4, 3, 4, 3, 4]);
        /// ```
        pub fn pad_dyn;
    }
}
