//! Vector norms of all elements (numpy's `np.linalg.norm(a.ravel(), ord)`) and `clip`.

use super::expr::Unary;
use super::reduce::Reductions;
use crate::extents::Extents;
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;
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
impl<T: Float + Send + Sync, E: Extents, S: Layout<E>, St: DenseStorage<T> + Sync> Tensor<T, E, S, St> {
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
}

/// # Norms and clipping
impl<T: PartialOrd + Copy + Send + Sync, E: Extents, S: Layout<E>, St: DenseStorage<T> + Sync> Tensor<T, E, S, St> {
    /// Every element limited to `[lo, hi]`, as numpy's `clip(a, lo, hi)`, that is
    /// `min(max(x, lo), hi)`: NaN stays NaN, and `lo > hi` gives `hi` everywhere.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// assert_eq!(tensor![-2.0, 0.5, 3.0].clip(0.0, 1.0).to_vec(), [0.0, 0.5, 1.0]);
    /// ```
    pub fn clip(&self, lo: T, hi: T) -> Tensor<T, E> {
        self.mapv(move |x| {
            let x = if x < lo { lo } else { x };
            if x > hi {
                hi
            } else {
                x
            }
        })
    }
}
