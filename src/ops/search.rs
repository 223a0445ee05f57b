//! Searching a sorted vector: numpy's `searchsorted` (insertion indices, `usize`, on the
//! left or right of equal elements, in numpy's order with NaN last) and `interp` (piecewise
//! linear interpolation through the points `(xp, fp)`).
//!
//! numpy does not check that `a` (or `xp`) is sorted and gives meaningless results when it
//! is not; here that is `Err`, as are inputs numpy raises on (`xp` and `fp` of different
//! lengths, an empty `xp`), so a wrong grid never passes silently. The check is one pass
//! over the grid.

use crate::alloc::try_vec_with_capacity;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Dim, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::{NanOrd, Real, Tensor};
use core::cmp::Ordering;

/// Which of several equal elements an insertion index goes before or after: numpy's
/// `side` of `searchsorted`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Side {
    /// The first index `i` with `v <= a[i]` (numpy's default).
    #[default]
    Left,
    /// The first index `i` with `v < a[i]`.
    Right,
}

/// The elements of a 1-D grid in order, `Err` unless sorted by `cmp_nan_last`.
fn sorted_grid<T: Clone + NanOrd, D: Dim, S: Layout<(D,)>, St: DenseStorage<T>>(
    op: &'static str,
    a: &Tensor<T, (D,), S, St>,
) -> Result<Vec<T>, ShapeError> {
    let v = a.to_vec_op(op)?;
    if let Some(i) = v.windows(2).position(|w| w[0].cmp_nan_last(&w[1]) == Ordering::Greater) {
        return Err(ShapeError::InvalidArgument { op, reason: format!("the grid decreases at index {}", i + 1) });
    }
    Ok(v)
}

/// # Searching sorted vectors
impl<T: Clone + NanOrd, D: Dim, S: Layout<(D,)>, St: DenseStorage<T>> Tensor<T, (D,), S, St> {
    forms! {
        /// See [`Tensor::searchsorted`]; `Err` when this vector is not sorted (numpy's
        /// order: NaN last).
        pub fn try_searchsorted[E2: Extents, S2: Layout<E2>, St2: DenseStorage<T>](&self, v: &Tensor<T, E2, S2, St2>, side: Side) -> Result<Tensor<usize, E2>, ShapeError>
        {
            let op = "searchsorted";
            let a = sorted_grid(op, self)?;
            let mut out: Vec<usize> = try_vec_with_capacity(op, v.numel())?;
            for x in v.iter() {
                out.push(match side {
                    Side::Left => a.partition_point(|y| y.cmp_nan_last(x) == Ordering::Less),
                    Side::Right => a.partition_point(|y| y.cmp_nan_last(x) != Ordering::Greater),
                });
            }
            Tensor::try_from_vec(v.extents().clone(), out).map_err(|(e, _)| e)
        }
        /// For each element of `v`, where it would be inserted into this sorted vector to
        /// keep it sorted (numpy's `searchsorted(a, v, side)`), with `v`'s extents.
        ///
        /// ```
        /// use mdtensor::{ops::Side, tensor};
        /// let a = tensor![1.0, 2.0, 2.0, 3.0];
        /// assert_eq!(a.searchsorted(&tensor![2.0, 0.0, 9.0], Side::Left).to_vec(), [1, 0, 4]);
        /// assert_eq!(a.searchsorted(&tensor![[2.0, f64::NAN]], Side::Right).to_vec(), [3, 4]);
        /// assert!(tensor![2, 1].try_searchsorted(&tensor![1], Side::Left).is_err());
        /// ```
        pub fn searchsorted;
    }
}

/// numpy's `interp` of one point (its C loop, operation for operation).
fn interp_one<T: Real>(x: T, xp: &[T], fp: &[T], left: T, right: T) -> T {
    let last = xp.len() - 1;
    if last == 0 {
        // numpy's one-point grid: only the comparisons, so NaN gives fp[0].
        return if x < xp[0] {
            left
        } else if x > xp[0] {
            right
        } else {
            fp[0]
        };
    }
    if x.is_nan() {
        return x;
    }
    if x > xp[last] {
        return right;
    }
    if x < xp[0] {
        return left;
    }
    if x == xp[last] {
        return fp[last];
    }
    // xp[j] <= x < xp[j + 1]
    let j = xp.partition_point(|&p| p <= x) - 1;
    if xp[j] == x {
        return fp[j];
    }
    let slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
    let r = slope * (x - xp[j]) + fp[j];
    if !r.is_nan() {
        return r;
    }
    let r = slope * (x - xp[j + 1]) + fp[j + 1];
    if r.is_nan() && fp[j] == fp[j + 1] {
        fp[j]
    } else {
        r
    }
}

/// # Interpolation
impl<T: Real, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::interp_with`].
        pub fn try_interp_with[D: Dim, S2: Layout<(D,)>, St2: DenseStorage<T>, D3: Dim, S3: Layout<(D3,)>, St3: DenseStorage<T>](
            &self,
            xp: &Tensor<T, (D,), S2, St2>,
            fp: &Tensor<T, (D3,), S3, St3>,
            left: Option<T>,
            right: Option<T>,
        ) -> Result<Tensor<T, E>, ShapeError>
        {
            let op = "interp";
            let xs = xp.to_vec_op(op)?;
            if xs.is_empty() {
                return Err(ShapeError::InvalidArgument { op, reason: "xp is empty".into() });
            }
            if xs.len() != fp.numel() {
                return Err(ShapeError::InvalidArgument { op, reason: format!("xp has {} points and fp {}", xs.len(), fp.numel()) });
            }
            if let Some(i) = xs.windows(2).position(|w| !matches!(w[0].partial_cmp(&w[1]), Some(Ordering::Less | Ordering::Equal))) {
                return Err(ShapeError::InvalidArgument { op, reason: format!("xp is not increasing at index {}", i + 1) });
            }
            let fs = fp.to_vec_op(op)?;
            let (l, r) = (left.unwrap_or(fs[0]), right.unwrap_or(fs[fs.len() - 1]));
            let mut out: Vec<T> = try_vec_with_capacity(op, self.numel())?;
            out.extend(self.iter().map(|&x| interp_one(x, &xs, &fs, l, r)));
            Tensor::try_from_vec(self.extents().clone(), out).map_err(|(e, _)| e)
        }
        /// [`Tensor::interp`] with numpy's `left` and `right`: the values below `xp[0]` and
        /// above the last point (`None`: the first and last of `fp`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let (xp, fp) = (tensor![0.0, 1.0], tensor![10.0, 20.0]);
        /// assert_eq!(tensor![-1.0, 2.0].interp_with(&xp, &fp, Some(0.0), None).to_vec(), [0.0, 20.0]);
        /// ```
        pub fn interp_with;
    }
    forms! {
        /// See [`Tensor::interp`]; `Err` when `xp` is empty, not increasing (or holds NaN),
        /// or not as long as `fp`.
        pub fn try_interp[D: Dim, S2: Layout<(D,)>, St2: DenseStorage<T>, D3: Dim, S3: Layout<(D3,)>, St3: DenseStorage<T>](
            &self,
            xp: &Tensor<T, (D,), S2, St2>,
            fp: &Tensor<T, (D3,), S3, St3>,
        ) -> Result<Tensor<T, E>, ShapeError>
        {
            self.try_interp_with(xp, fp, None, None)
        }
        /// The piecewise linear interpolant through `(xp, fp)` at each element (numpy's
        /// `interp(x, xp, fp)`), `fp`'s ends beyond the grid, NaN for NaN (on a grid of one
        /// point, `fp[0]`, as numpy's).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let (xp, fp) = (tensor![1.0, 2.0, 3.0], tensor![3.0, 2.0, 0.0]);
        /// assert_eq!(tensor![[0.0, 1.5], [2.5, 9.0]].interp(&xp, &fp).to_vec(), [3.0, 2.5, 1.0, 0.0]);
        /// ```
        pub fn interp;
    }
}
