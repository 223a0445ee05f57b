//! Run-time axis and index arguments numbered from the end when negative, as numpy does:
//! `axis = -1` is the last axis, `indices = [-1]` the last element along it. Every method
//! taking a run-time axis takes `impl Into<Axis>`, so `1`, `-1` and a `usize` variable all
//! work; `take` takes any [`TakeIndex`]; methods taking several axes (`sum_axes`,
//! `permute`, `squeeze_axes`, …) take any [`AxisList`].

use crate::error::ShapeError;

/// A run-time axis: counted from the front when non-negative, from the back when negative
/// (numpy's `normalize_axis_index`: `-1` is the last axis, `-rank` the first).
///
/// ```
/// use mdtensor::{Axis, DynRank, Tensor};
/// let t = Tensor::<f64, DynRank>::ones(vec![2, 3, 4]);
/// assert_eq!(t.sum_axis_dyn(-1).shape(), [2, 3]); // numpy: t.sum(axis=-1)
/// assert_eq!(t.sum_axis_dyn(2usize).shape(), [2, 3]);
/// assert_eq!(Axis::from(-3).resolve("example", 3), Ok(0));
/// assert!(t.try_sum_axis_dyn(-4).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Axis(Repr);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Repr {
    /// Counted from the front.
    Front(usize),
    /// `-k`: counted from the back, `k >= 1`.
    Back(usize),
}

impl Axis {
    /// The axis number `axis` of a tensor of rank `rank`; `Err(AxisOutOfRange)` (or
    /// `NegativeAxisOutOfRange`) outside `-rank..rank`.
    pub fn resolve(self, op: &'static str, rank: usize) -> Result<usize, ShapeError> {
        match self.0 {
            Repr::Front(a) if a < rank => Ok(a),
            Repr::Front(axis) => Err(ShapeError::AxisOutOfRange { op, axis, rank }),
            Repr::Back(k) if k <= rank => Ok(rank - k),
            Repr::Back(k) => {
                Err(ShapeError::NegativeAxisOutOfRange { op, axis: -(k.min(isize::MAX as usize) as isize), rank })
            }
        }
    }
}

impl From<usize> for Axis {
    fn from(a: usize) -> Self {
        Axis(Repr::Front(a))
    }
}

impl From<u32> for Axis {
    fn from(a: u32) -> Self {
        Axis(Repr::Front(a as usize))
    }
}

macro_rules! axis_from_signed {
    ($($t:ty),*) => {$(
        impl From<$t> for Axis {
            fn from(a: $t) -> Self {
                if a < 0 {
                    Axis(Repr::Back(a.unsigned_abs() as usize))
                } else {
                    Axis(Repr::Front(a as usize))
                }
            }
        }
    )*};
}
axis_from_signed!(i32, i64, isize);

/// An index for `take`: a `usize` as it is, a signed integer counted from the end when
/// negative (numpy wraps once: `-1` is the last element, `-n` the first, below that is out
/// of bounds).
///
/// ```
/// use mdtensor::tensor;
/// let a = tensor![[1, 2, 3], [4, 5, 6]];
/// assert_eq!(a.take_dyn(1, &[-1, 0]).to_vec(), [3, 1, 6, 4]);
/// assert!(a.try_take_dyn(1, &[-4]).is_err());
/// ```
pub trait TakeIndex: Copy {
    /// The index along an axis of extent `n`, or `None` when out of bounds.
    fn wrap(self, n: usize) -> Option<usize>;
    /// The index as it was given, for error messages.
    fn as_isize(self) -> isize;
}

impl TakeIndex for usize {
    fn wrap(self, n: usize) -> Option<usize> {
        (self < n).then_some(self)
    }
    fn as_isize(self) -> isize {
        self.min(isize::MAX as usize) as isize
    }
}

impl TakeIndex for u32 {
    fn wrap(self, n: usize) -> Option<usize> {
        (self as usize).wrap(n)
    }
    fn as_isize(self) -> isize {
        self as isize
    }
}

macro_rules! take_index_signed {
    ($($t:ty),*) => {$(
        impl TakeIndex for $t {
            fn wrap(self, n: usize) -> Option<usize> {
                if self < 0 {
                    n.checked_sub(self.unsigned_abs() as usize)
                } else {
                    (self as usize).wrap(n)
                }
            }
            fn as_isize(self) -> isize {
                self as isize
            }
        }
    )*};
}
take_index_signed!(i32, i64, isize);

/// A list of run-time axes, each counted from the back when negative (numpy's
/// `normalize_axis_tuple`): `&[0, 2]`, `&[-1, 0]`, `&vec` of a `Vec<usize>`, or a borrowed
/// array, slice or `Vec` of any of `usize`, `u32`, `i32`, `i64`, `isize` and [`Axis`]. The methods that
/// take it (the `*_axes` reductions, `permute`, `squeeze_axes`, `expand_dims_axes`)
/// normalise it first, so `-1` and `rank - 1` are the same axis: given both, the axis is
/// repeated, an `Err` as in numpy.
///
/// An empty list needs its element type, which an empty literal does not say:
/// `&[0usize; 0]` or `&Vec::<usize>::new()` (numpy's `axis=()`).
///
/// ```
/// use mdtensor::{AxisList, DynRank, Tensor};
/// let t = Tensor::<f64, DynRank>::ones(vec![2, 3, 4]);
/// assert_eq!(t.mean_axes(&[-1, 0]).shape(), [3]);      // numpy: t.mean(axis=(-1, 0))
/// assert_eq!(t.sum_axes(&[2, 0]).shape(), [3]);
/// assert_eq!(t.permute(&[-1, 0, 1]).shape(), [4, 2, 3]);
/// assert!(t.try_sum_axes(&[-1, 2]).is_err());          // the same axis twice
/// assert!(t.try_sum_axes(&[-4]).is_err());
/// assert_eq!(t.sum_axes(&[0usize; 0]).shape(), [2, 3, 4]);
/// assert_eq!((&[-1, 1][..]).resolve_axes("example", 3), Ok(vec![2, 1]));
/// ```
pub trait AxisList {
    /// Every axis of the list numbered from the front (in `0..rank`), in the list's order;
    /// `Err` for an axis outside `-rank..rank`. Repeats are kept: each caller says what a
    /// repeat means (an error for reductions and permutations).
    fn resolve_axes(&self, op: &'static str, rank: usize) -> Result<Vec<usize>, ShapeError>;
    /// How many axes the list names (repeats counted).
    fn axis_count(&self) -> usize;
}

fn resolve_all<A: Copy + Into<Axis>>(axes: &[A], op: &'static str, rank: usize) -> Result<Vec<usize>, ShapeError> {
    axes.iter().map(|&a| a.into().resolve(op, rank)).collect()
}

// Borrowed forms only: a by-value impl next to the borrowed one would make clippy ask
// every caller to drop the `&` of `&[0, 2]`.
macro_rules! axis_list {
    ($($t:ty),*) => {$(
        impl AxisList for &[$t] {
            fn resolve_axes(&self, op: &'static str, rank: usize) -> Result<Vec<usize>, ShapeError> {
                resolve_all(self, op, rank)
            }
            fn axis_count(&self) -> usize {
                self.len()
            }
        }
        impl<const N: usize> AxisList for &[$t; N] {
            fn resolve_axes(&self, op: &'static str, rank: usize) -> Result<Vec<usize>, ShapeError> {
                resolve_all(*self, op, rank)
            }
            fn axis_count(&self) -> usize {
                N
            }
        }
        impl AxisList for &Vec<$t> {
            fn resolve_axes(&self, op: &'static str, rank: usize) -> Result<Vec<usize>, ShapeError> {
                resolve_all(self, op, rank)
            }
            fn axis_count(&self) -> usize {
                self.len()
            }
        }
    )*};
}
axis_list!(usize, u32, i32, i64, isize, Axis);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_resolve_like_numpy() {
        for rank in 0..4usize {
            for a in -6i64..6 {
                let want = if (-(rank as i64)..rank as i64).contains(&a) {
                    Some(a.rem_euclid(rank as i64) as usize)
                } else {
                    None
                };
                assert_eq!(Axis::from(a).resolve("t", rank).ok(), want, "axis {a} rank {rank}");
            }
        }
        assert!(Axis::from(usize::MAX).resolve("t", 3).is_err());
        assert_eq!(
            Axis::from(isize::MIN).resolve("t", 3),
            Err(ShapeError::NegativeAxisOutOfRange { op: "t", axis: -isize::MAX, rank: 3 })
        );
    }

    #[test]
    fn take_indices_wrap_once() {
        assert_eq!((-1i32).wrap(3), Some(2));
        assert_eq!((-3i32).wrap(3), Some(0));
        assert_eq!((-4i32).wrap(3), None);
        assert_eq!(3usize.wrap(3), None);
        assert_eq!(i64::MIN.wrap(3), None);
        assert_eq!(usize::MAX.as_isize(), isize::MAX);
    }
}
