//! Equality of dense tensors: same shape, then equal elements in logical order, whatever
//! the stride policies and storages of the two sides.
//!
//! ```
//! use mdtensor::{ext, tensor, ColMajor, Tensor};
//! let a = tensor![[1, 2], [3, 4]];
//! let b = Tensor::<i32, ext![2, 2], ColMajor>::from_vec(ext![2, 2], vec![1, 3, 2, 4]);
//! assert_eq!(a, b);             // same elements, different memory order
//! assert_ne!(a, a.t());         // same shape, different elements
//! assert_ne!(tensor![1, 2, 3, 4], a); // different shapes are never equal
//! ```

use super::Tensor;
use crate::extents::Extents;
use crate::layout::Layout;
use crate::storage::{DenseStorage, Heap, Inline, Shared, View, ViewMut};

/// # Comparing whole tensors
impl<T, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// Whether `other` has the same shape and `eq` holds for every pair of elements at the
    /// same index; tensors of different shapes never match. The one comparison loop behind
    /// `==` and the `approx` traits.
    pub(crate) fn all_pairs<U, E2, S2, St2>(
        &self,
        other: &Tensor<U, E2, S2, St2>,
        mut eq: impl FnMut(&T, &U) -> bool,
    ) -> bool
    where
        E2: Extents,
        S2: Layout<E2>,
        St2: DenseStorage<U>,
    {
        self.dims().as_ref() == other.dims().as_ref() && self.iter().zip(other.iter()).all(|(a, b)| eq(a, b))
    }
}

/// `==` for each dense storage on the left, any dense storage on the right (one impl per
/// left storage, so that other storage families can define their own equality).
macro_rules! dense_eq {
    ($($St:ty => [$($gen:tt)*]),* $(,)?) => {$(
        impl<$($gen)*, U, E: Extents, S: Layout<E>, E2: Extents, S2: Layout<E2>, St2: DenseStorage<U>>
            PartialEq<Tensor<U, E2, S2, St2>> for Tensor<T, E, S, $St>
        where
            T: PartialEq<U>,
        {
            fn eq(&self, other: &Tensor<U, E2, S2, St2>) -> bool {
                self.all_pairs(other, |a, b| a == b)
            }
        }
    )*};
}
dense_eq! {
    Heap<T> => [T],
    Shared<T> => [T],
    Inline<T, IE> => [T, IE: crate::storage::InlineExtents],
    View<'a, T> => ['a, T],
    ViewMut<'a, T> => ['a, T],
}
