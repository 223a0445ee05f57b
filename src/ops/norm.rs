//! Vector norms of all elements (numpy's `np.linalg.norm(a.ravel(), ord)`) or of every
//! lane along an axis (`np.linalg.norm(a, ord, axis)`), and `clip`.

use super::axiswise::check_axis;
use super::expr::{Expr, Unary};
use super::reduce::Reductions;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{extents_from, Axis, DynRank, Extents, RemoveAxis};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::{NanOrd, Tensor};
use num_traits::Float;

/// Which norm [`Tensor::norm`] computes, over all elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Norm {
    /// Σ |x| (numpy's `ord=1` for a vector).
    L1,
    /// √(Σ x²) (numpy's default for a vector).
    L2,
    /// max |x| (numpy's `ord=inf` for a vector); 0 for no elements.
    Max,
    /// √(Σ x²) over every element: numpy's `'fro'` for a matrix, its default for any rank.
    Fro,
}

/// # Norms and clipping
impl<T: Float + NanOrd + Send + Sync, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// The norm `kind` of all elements, taken as one vector; NaN if any element is NaN.
    /// Sums are the crate's pairwise sums.
    ///
    /// ```
    /// use mdtensor::{ops::Norm, tensor};
    /// let v = tensor![3.0, -4.0];
    /// assert_eq!(v.norm(Norm::L2), 5.0);
    /// assert_eq!(v.norm(Norm::L1), 7.0);
    /// assert_eq!(v.norm(Norm::Max), 4.0);
    /// assert_eq!(tensor![[1.0, 2.0], [2.0, 4.0]].norm(Norm::Fro), 5.0);
    /// ```
    pub fn norm(&self, kind: Norm) -> T {
        match kind {
            Norm::L1 => Unary::new(self, |x: T| x.abs()).sum(),
            Norm::L2 | Norm::Fro => Unary::new(self, |x: T| x * x).sum().sqrt(),
            Norm::Max => Unary::new(self, |x: T| x.abs()).max().unwrap_or_else(T::zero),
        }
    }

    /// The norm of every lane along `axis`, in row-major order of the other axes, and
    /// their extents.
    fn lane_norms(&self, op: &'static str, axis: usize, kind: Norm) -> Result<(Vec<T>, Vec<usize>), ShapeError> {
        check_axis(op, axis, self.rank())?;
        let mut dims = self.shape();
        dims.remove(axis);
        let mut v = crate::alloc::try_vec_with_capacity(op, dims.iter().product())?;
        v.extend(self.lanes_dyn(axis).map(|lane| lane.norm(kind)));
        Ok((v, dims))
    }
    forms! {
        /// See [`Tensor::norm_axis`]; `Err` only for a [`DynRank`] tensor without axis `I`.
        pub fn try_norm_axis[const I: usize]::<I>(
            &self,
            kind: Norm,
        ) -> Result<Tensor<T, <E as RemoveAxis<I>>::Output>, ShapeError>
        where [E: RemoveAxis<I>]
        {
            let (v, dims) = self.lane_norms("norm_axis", I, kind)?;
            let ext: <E as RemoveAxis<I>>::Output = extents_from("norm_axis", &dims)?;
            Tensor::try_from_vec(ext, v).map_err(|(e, _)| e)
        }
        /// The norm `kind` of every lane along axis `I`, which disappears (numpy's
        /// `np.linalg.norm(a, ord, axis=I)` for `ord` 1, 2 and inf).
        ///
        /// ```
        /// use mdtensor::{ops::Norm, tensor};
        /// let a = tensor![[3.0, 4.0], [-6.0, 8.0]];
        /// assert_eq!(a.norm_axis::<1>(Norm::L2).to_vec(), [5.0, 10.0]);
        /// assert_eq!(a.norm_axis::<0>(Norm::L1).to_vec(), [9.0, 12.0]);
        /// ```
        pub fn norm_axis;
    }
    forms! {
        /// [`Tensor::norm_axis`] along a run-time axis (a dynamic-rank result); `Err` outside
        /// `-rank..rank` (a negative axis counts from the end).
        pub fn try_norm_axis_dyn[](&self, axis: impl Into<Axis>, kind: Norm) -> Result<Tensor<T, DynRank>, ShapeError>
        {
            let axis = axis.into().resolve("norm_axis_dyn", self.rank())?;
            let (v, dims) = self.lane_norms("norm_axis_dyn", axis, kind)?;
            Tensor::try_from_vec(DynRank::new(dims), v).map_err(|(e, _)| e)
        }
        /// [`Tensor::norm_axis`] along a run-time axis.
        pub fn norm_axis_dyn;
    }
}

/// # Norms and clipping
impl<T: PartialOrd + Copy + Send + Sync, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// Every element limited to `[lo, hi]`, as numpy's `clip(a, lo, hi)`, that is
    /// `min(max(x, lo), hi)` with NaN propagating: a NaN element stays NaN, a NaN bound
    /// makes every element NaN, and `lo > hi` gives `hi` everywhere.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// assert_eq!(tensor![-2.0, 0.5, 3.0].clip(0.0, 1.0).to_vec(), [0.0, 0.5, 1.0]);
    /// assert!(tensor![-2.0, 0.5].clip(f64::NAN, 1.0).iter().all(|x| x.is_nan()));
    /// ```
    #[track_caller]
    pub fn clip(&self, lo: T, hi: T) -> Tensor<T, E> {
        self.mapv(move |x| clip_one(x, lo, hi))
    }
    /// [`Tensor::clip`], with a refused allocation as `Err(OutOfMemory)`.
    pub fn try_clip(&self, lo: T, hi: T) -> Result<Tensor<T, E>, ShapeError> {
        Unary::new(self, move |x| clip_one(x, lo, hi)).try_eval()
    }
}

/// numpy's `minimum(maximum(x, lo), hi)`: the first NaN among `x`, `lo`, `hi` wins (a
/// value is NaN when it does not compare with itself).
#[inline]
#[allow(clippy::eq_op)]
fn clip_one<T: PartialOrd + Copy>(x: T, lo: T, hi: T) -> T {
    let nan = |v: &T| v.partial_cmp(v).is_none();
    if nan(&x) {
        return x;
    }
    if nan(&lo) {
        return lo;
    }
    if nan(&hi) {
        return hi;
    }
    let x = if x < lo { lo } else { x };
    if x > hi {
        hi
    } else {
        x
    }
}
