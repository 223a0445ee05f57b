//! Approximate equality with the [`approx`](https://docs.rs/approx/0.5) crate (feature
//! `approx`): [`AbsDiffEq`], [`RelativeEq`] and [`UlpsEq`] for tensors of every dense
//! storage and every stride policy, against tensors of any dense storage and policy.
//!
//! Shapes are compared first: tensors of different shapes are never equal, however small
//! they are. Then every pair of elements at the same logical index is compared with the
//! element type's own rule and the tolerance given.
//!
//! ```
//! use approx::{assert_abs_diff_eq, assert_relative_eq, assert_relative_ne, assert_ulps_eq};
//! use mdtensor::{ext, tensor, ColMajor, Tensor};
//! let a = tensor![[1.0f64, 2.0], [3.0, 4.0]];
//! let b = Tensor::<f64, ext![2, 2], ColMajor>::from_vec(ext![2, 2], vec![1.0, 3.0 + 1e-12, 2.0, 4.0]);
//! assert_abs_diff_eq!(a, b, epsilon = 1e-9);
//! assert_relative_eq!(a, b, max_relative = 1e-9);
//! assert_ulps_eq!(a.t(), a.t().to_owned());
//! assert_relative_ne!(a, a.t());
//! ```

use crate::extents::Extents;
use crate::layout::Layout;
use crate::storage::{DenseStorage, Heap, Inline, Shared, View, ViewMut};
use crate::tensor::Tensor;
use approx::{AbsDiffEq, RelativeEq, UlpsEq};

/// The three traits for each dense storage on the left (one impl per left storage, so
/// other storage families can add their own), any dense storage on the right.
macro_rules! dense_approx {
    ($($St:ty => [$($gen:tt)*]),* $(,)?) => {$(
        impl<$($gen)*, U, E: Extents, S: Layout<E>, E2: Extents, S2: Layout<E2>, St2: DenseStorage<U>>
            AbsDiffEq<Tensor<U, E2, S2, St2>> for Tensor<T, E, S, $St>
        where
            T: AbsDiffEq<U>,
            T::Epsilon: Clone,
        {
            type Epsilon = T::Epsilon;
            fn default_epsilon() -> T::Epsilon {
                T::default_epsilon()
            }
            fn abs_diff_eq(&self, other: &Tensor<U, E2, S2, St2>, epsilon: T::Epsilon) -> bool {
                self.all_pairs(other, |a, b| a.abs_diff_eq(b, epsilon.clone()))
            }
        }

        impl<$($gen)*, U, E: Extents, S: Layout<E>, E2: Extents, S2: Layout<E2>, St2: DenseStorage<U>>
            RelativeEq<Tensor<U, E2, S2, St2>> for Tensor<T, E, S, $St>
        where
            T: RelativeEq<U>,
            T::Epsilon: Clone,
        {
            fn default_max_relative() -> T::Epsilon {
                T::default_max_relative()
            }
            fn relative_eq(&self, other: &Tensor<U, E2, S2, St2>, epsilon: T::Epsilon, max_relative: T::Epsilon) -> bool {
                self.all_pairs(other, |a, b| a.relative_eq(b, epsilon.clone(), max_relative.clone()))
            }
        }

        impl<$($gen)*, U, E: Extents, S: Layout<E>, E2: Extents, S2: Layout<E2>, St2: DenseStorage<U>>
            UlpsEq<Tensor<U, E2, S2, St2>> for Tensor<T, E, S, $St>
        where
            T: UlpsEq<U>,
            T::Epsilon: Clone,
        {
            fn default_max_ulps() -> u32 {
                T::default_max_ulps()
            }
            fn ulps_eq(&self, other: &Tensor<U, E2, S2, St2>, epsilon: T::Epsilon, max_ulps: u32) -> bool {
                self.all_pairs(other, |a, b| a.ulps_eq(b, epsilon.clone(), max_ulps))
            }
        }
    )*};
}
dense_approx! {
    Heap<T> => [T],
    Shared<T> => [T],
    Inline<T, IE> => [T, IE: crate::storage::InlineExtents],
    View<'a, T> => ['a, T],
    ViewMut<'a, T> => ['a, T],
}
