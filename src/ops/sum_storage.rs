//! `sum` and `sum_axis` for every storage, through one inherent method each.
//!
//! Dense tensors sum with the blocked pairwise kernel of [`Reductions`]; sparse and band
//! tensors add their stored entries (the others are zero). Both must be *inherent*
//! methods, so that the `Tensor` page documents them and no import is needed, but two
//! inherent methods of one name with different storage bounds do not compile (E0592:
//! rustc cannot rule out a storage that is both dense and sparse). So there is one
//! inherent `sum` and one `sum_axis`, and the storage picks the algorithm through
//! [`SumStorage`].
//!
//! The impls are listed per storage type, as [`ReadStorage`]'s are: a blanket impl over
//! `DenseStorage<T>` next to one for `Coo<T, I>` would be rejected by coherence, because a
//! downstream crate may implement `DenseStorage<Its>` for `Coo<Its, I>`.

use super::reduce::{AxisReductions, Reductions};
use crate::extents::{Dim, Extents, RemoveAxis};
use crate::layout::{ColMajor, Layout, RowMajor};
use crate::sparse::{Arrays, CompressedBase, Coo, Rank2, SparseIndex, SparseOrder};
use crate::storage::{Band, DenseStorage, Heap, Inline, InlineExtents, ReadStorage, Shared, Storage, View, ViewMut};
use crate::tensor::{or_panic, Tensor};
use num_traits::Zero;

/// A storage that knows how to sum its tensors: the dispatch behind [`Tensor::sum`] and
/// [`Tensor::sum_axis`].
///
/// Implemented for every storage of this crate. For a storage of your own (see
/// [`ReadStorage`]), implement it with [`sum_stored`] and [`sum_stored_axis`], which add
/// the stored entries:
///
/// ```
/// # use mdtensor::{extents::Extents, layout::Layout, ops::{sum_stored, sum_stored_axis, SumStorage}};
/// # use mdtensor::{extents::RemoveAxis, storage::ReadStorage, Tensor};
/// # struct Mine;
/// # impl<T> mdtensor::storage::Storage<T> for Mine { const NAME: &'static str = "Mine"; }
/// # impl<T: Clone + num_traits::Zero, E: Extents, S: Layout<E>> ReadStorage<T, E, S> for Mine {
/// #     fn value_at(_: &Tensor<T, E, S, Self>, _: &[usize]) -> T { T::zero() }
/// #     fn stored_len(_: &Tensor<T, E, S, Self>) -> usize { 0 }
/// #     fn for_each_stored(_: &Tensor<T, E, S, Self>, _: &mut dyn FnMut(&[usize], &T)) {}
/// # }
/// # use mdtensor::num_traits;
/// impl<T: Copy + num_traits::Zero, E: Extents, S: Layout<E>> SumStorage<T, E, S> for Mine {
///     fn sum(tensor: &Tensor<T, E, S, Self>) -> T {
///         sum_stored(tensor)
///     }
///     fn sum_axis<const AX: usize>(tensor: &Tensor<T, E, S, Self>) -> Tensor<T, <E as RemoveAxis<AX>>::Output>
///     where
///         E: RemoveAxis<AX>,
///     {
///         sum_stored_axis::<T, E, S, Self, AX>(tensor)
///     }
/// }
/// ```
pub trait SumStorage<T, E: Extents, S: Layout<E>>: Storage<T> + Sized {
    /// Sum of all elements of `tensor` (0 when empty).
    fn sum(tensor: &Tensor<T, E, S, Self>) -> T;
    /// Sums of `tensor` along axis `AX`, into a dense tensor without that axis.
    fn sum_axis<const AX: usize>(tensor: &Tensor<T, E, S, Self>) -> Tensor<T, <E as RemoveAxis<AX>>::Output>
    where
        E: RemoveAxis<AX>;
}

/// # Sums (any storage)
///
/// Dense tensors use the blocked pairwise kernel of [`Reductions::sum`] (accurate, the
/// same for any number of threads, NaN propagates); sparse and band tensors add their
/// stored entries. For more reductions see [`Tensor::mean`] and its neighbours, and the
/// [API by task](crate::guide::api).
impl<T, E: Extents, S: Layout<E>, St: SumStorage<T, E, S>> Tensor<T, E, S, St> {
    /// Sum of all elements (0 when empty): numpy's `a.sum()`.
    ///
    /// For dense tensors this is [`Reductions::sum`]; for sparse and band tensors the sum
    /// of the stored entries.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let a = tensor![[1.0, 2.0], [3.0, 4.0]];
    /// assert_eq!(a.sum(), 10.0);
    /// assert_eq!(a.t().sum(), 10.0);
    /// assert_eq!(tensor![[0, 3], [4, 0]].to_csr().sum(), 7);
    /// ```
    #[inline]
    #[track_caller]
    pub fn sum(&self) -> T {
        St::sum(self)
    }

    /// Sums along axis `AX` (a const generic: the result's extents follow in the type),
    /// into a dense tensor without that axis: numpy's `a.sum(axis=AX)`.
    ///
    /// For dense tensors this is [`AxisReductions::sum_axis`] (see
    /// [`Tensor::try_sum_axis`] for the `Result` form); a sparse or band tensor's sums are
    /// dense too (a sum along an axis is rarely sparse). An axis known only at run time:
    /// [`Tensor::sum_axis_dyn`]; several axes: [`Tensor::sum_axes`].
    ///
    /// ```
    /// use mdtensor::{ext, tensor};
    /// let a = tensor![[1, 0, 2], [0, 3, 0]];
    /// let s = a.sum_axis::<0>();
    /// let _: &ext![3] = s.extents();
    /// assert_eq!(s.to_vec(), [1, 3, 2]);
    /// assert_eq!(a.to_csc().sum_axis::<1>().to_vec(), [3, 3]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn sum_axis<const AX: usize>(&self) -> Tensor<T, <E as RemoveAxis<AX>>::Output>
    where
        E: RemoveAxis<AX>,
    {
        St::sum_axis::<AX>(self)
    }
}

/// Sum of the stored entries of any [`ReadStorage`] tensor (the others are zero): the
/// sparse and band [`SumStorage::sum`].
pub fn sum_stored<T: Copy + Zero, E: Extents, S: Layout<E>, St: ReadStorage<T, E, S>>(
    tensor: &Tensor<T, E, S, St>,
) -> T {
    let mut s = T::zero();
    tensor.for_each_stored(|_, &v| s = s + v);
    s
}

/// Sums of the stored entries along axis `AX` into a dense tensor: the sparse and band
/// [`SumStorage::sum_axis`].
#[track_caller]
pub fn sum_stored_axis<T: Copy + Zero, E: RemoveAxis<AX>, S: Layout<E>, St: ReadStorage<T, E, S>, const AX: usize>(
    tensor: &Tensor<T, E, S, St>,
) -> Tensor<T, <E as RemoveAxis<AX>>::Output> {
    let ext = or_panic(tensor.extents().remove_axis());
    let strides = <RowMajor as Layout<_>>::strides(&ext, &());
    let mut out = Tensor::<T, _>::full(ext, T::zero());
    let buf = out.as_slice_mut().expect("a fresh row-major tensor is contiguous");
    tensor.for_each_stored(|idx, &v| {
        let rest = idx[..AX].iter().chain(&idx[AX + 1..]);
        let pos: isize = rest.zip(strides.as_ref()).map(|(&i, &s)| i as isize * s).sum();
        buf[pos as usize] = buf[pos as usize] + v;
    });
    out
}

/// Implements [`SumStorage`] for storage types, forwarding to a pair of functions.
macro_rules! sum_storage {
    ($sum:ident, $sum_axis:ident: $([$($gen:tt)*] $St:ty, $E:ty, $S:ty;)*) => {$(
        impl<$($gen)*> SumStorage<T, $E, $S> for $St {
            #[inline]
            #[track_caller]
            fn sum(tensor: &Tensor<T, $E, $S, Self>) -> T {
                $sum(tensor)
            }
            #[inline]
            #[track_caller]
            fn sum_axis<const AX: usize>(tensor: &Tensor<T, $E, $S, Self>) -> Tensor<T, <$E as RemoveAxis<AX>>::Output>
            where
                $E: RemoveAxis<AX>,
            {
                $sum_axis::<_, _, _, _, AX>(tensor)
            }
        }
    )*};
}

/// [`Reductions::sum`] through the borrowed tensor.
#[inline]
#[track_caller]
fn sum_dense<T: Copy + Send + Sync + Zero, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
) -> T {
    Reductions::sum(t)
}
/// [`AxisReductions::sum_axis`] through the borrowed tensor.
#[inline]
#[track_caller]
fn sum_dense_axis<
    T: Copy + Send + Sync + Zero,
    E: RemoveAxis<AX>,
    S: Layout<E>,
    St: DenseStorage<T>,
    const AX: usize,
>(
    t: &Tensor<T, E, S, St>,
) -> Tensor<T, <E as RemoveAxis<AX>>::Output> {
    AxisReductions::sum_axis::<AX>(t)
}

sum_storage! { sum_dense, sum_dense_axis:
    [T: Copy + Send + Sync + Zero, E: Extents, S: Layout<E>] Heap<T>, E, S;
    [T: Copy + Send + Sync + Zero, E: Extents, S: Layout<E>] Shared<T>, E, S;
    [T: Copy + Send + Sync + Zero, E: Extents, S: Layout<E>, IE: InlineExtents] Inline<T, IE>, E, S;
    ['a, T: Copy + Send + Sync + Zero, E: Extents, S: Layout<E>] View<'a, T>, E, S;
    ['a, T: Copy + Send + Sync + Zero, E: Extents, S: Layout<E>] ViewMut<'a, T>, E, S;
}
#[cfg(feature = "mmap")]
sum_storage! { sum_dense, sum_dense_axis:
    [T: Copy + Send + Sync + Zero, E: Extents, S: Layout<E>] crate::storage::Mmap<T>, E, S;
    [T: Copy + Send + Sync + Zero, E: Extents, S: Layout<E>] crate::storage::MmapMut<T>, E, S;
}
sum_storage! { sum_stored, sum_stored_axis:
    [T: Copy + Zero, E: Extents, S: SparseOrder + Layout<E>, I: SparseIndex] Coo<T, I>, E, S;
    [T: Copy + Zero, I: SparseIndex, A: Arrays<T, I>, E: Rank2, S: SparseOrder + Layout<E>] CompressedBase<T, I, A>, E, S;
    [T: Copy + Zero, M: Dim, N: Dim] Band<T>, (M, N), ColMajor;
}
