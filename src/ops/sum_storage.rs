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

use super::reduce::Sum;
use super::reduce::{AxisReductions, Reductions};
use super::reduce_dyn::{reduced_mask, rename};
use crate::error::or_panic;
use crate::error::ShapeError;
use crate::exec::par::Par;
use crate::extents::{Axis, AxisList, Dim, DynRank, Extents, RemoveAxis, RemoveAxisDyn};
use crate::layout::{ColMajor, Layout, RowMajor};
use crate::sparse::{Arrays, CompressedBase, Coo, Rank2, SparseIndex, SparseOrder};
use crate::storage::{Band, DenseStorage, Heap, Inline, InlineExtents, Shared, Storage, View, ViewMut};
use crate::tensor::Tensor;
use crate::tensor::{NanOrd, ReadStorage};
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
/// # use mdtensor::{extents::RemoveAxis, ReadStorage, Tensor};
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
    /// Sums along the run-time axis `axis`; `Err` when `axis >= rank`. The default adds the
    /// stored entries ([`sum_stored_axes_keepdims`]); dense storages use their kernels.
    fn try_sum_axis_dyn(
        tensor: &Tensor<T, E, S, Self>,
        axis: usize,
    ) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
    where
        E: RemoveAxisDyn,
        T: Copy + Zero,
        Self: ReadStorage<T, E, S>,
    {
        let ext = tensor.extents().remove_axis_dyn("sum_axis_dyn", axis)?;
        let keep = sum_stored_axes_keepdims(tensor, &[axis], "sum_axis_dyn")?;
        Ok(drop_unit_axes(keep, ext))
    }
    /// Sums over the axes `axes` (numpy's `axis=(…)`, numbered from the front: the tensor
    /// method normalises negative axes first), into a dense [`DynRank`] tensor; `Err` for
    /// an axis out of range or repeated.
    fn try_sum_axes(tensor: &Tensor<T, E, S, Self>, axes: &[usize]) -> Result<Tensor<T, DynRank>, ShapeError>
    where
        T: Copy + Zero,
        Self: ReadStorage<T, E, S>,
    {
        let keep = sum_stored_axes_keepdims(tensor, axes, "sum_axes")?;
        let kept: Vec<usize> =
            tensor.dims().as_ref().iter().enumerate().filter(|(k, _)| !axes.contains(k)).map(|(_, &d)| d).collect();
        Ok(drop_unit_axes(keep, DynRank::new(kept)))
    }
    /// Sums over the axes `axes`, which stay with extent 1 (numpy's `keepdims=True`).
    fn try_sum_axes_keepdims(
        tensor: &Tensor<T, E, S, Self>,
        axes: &[usize],
    ) -> Result<Tensor<T, E::Dynamic>, ShapeError>
    where
        T: Copy + Zero,
        Self: ReadStorage<T, E, S>,
    {
        sum_stored_axes_keepdims(tensor, axes, "sum_axes_keepdims")
    }
    /// The smallest (`LARGEST = false`) or largest element, NaN if any is NaN, `None` when
    /// empty: what [`ReadTensor::min`](crate::ReadTensor::min) and
    /// [`ReadTensor::max`](crate::ReadTensor::max) call. The default reads the stored
    /// entries, and zero when some element is not stored ([`extreme_stored`]); dense
    /// storages use the kernels of [`Reductions::min`] and [`Reductions::max`].
    fn extreme<const LARGEST: bool>(tensor: &Tensor<T, E, S, Self>) -> Option<T>
    where
        T: Copy + Zero + NanOrd,
        Self: ReadStorage<T, E, S>,
    {
        extreme_stored::<LARGEST, T, E, S, Self>(tensor)
    }
}

/// The smallest (`LARGEST = false`) or largest of the stored entries and, when some element
/// is not stored, zero; the first NaN met if any is NaN; `None` when the tensor is empty.
/// The sparse and band [`SumStorage::extreme`].
///
/// ```
/// use mdtensor::{ops::extreme_stored, tensor};
/// let a = tensor![[0.0, 3.0], [-2.0, 0.0]].to_csr();
/// assert_eq!(extreme_stored::<true, _, _, _, _>(&a), Some(3.0));
/// assert_eq!(extreme_stored::<false, _, _, _, _>(&tensor![[4.0, 3.0]].to_csr()), Some(3.0));
/// assert_eq!(extreme_stored::<false, _, _, _, _>(&tensor![[4.0, 0.0]].to_csr()), Some(0.0));
/// ```
pub fn extreme_stored<const LARGEST: bool, T, E, S, St>(tensor: &Tensor<T, E, S, St>) -> Option<T>
where
    T: Copy + Zero + NanOrd,
    E: Extents,
    S: Layout<E>,
    St: ReadStorage<T, E, S>,
{
    if tensor.numel() == 0 {
        return None;
    }
    let mut best: Option<T> = None;
    let mut nan: Option<T> = None;
    let better = |v: T, b: T| if LARGEST { b.lt_elem(&v) } else { v.lt_elem(&b) };
    tensor.for_each_stored(|_, &v| {
        if nan.is_some() {
            return;
        }
        if v.is_nan_elem() {
            nan = Some(v);
            return;
        }
        best = Some(match best {
            Some(b) if !better(v, b) => b,
            _ => v,
        });
    });
    if nan.is_some() {
        return nan;
    }
    let unstored = tensor.nnz() < tensor.numel();
    match best {
        Some(b) if unstored && better(T::zero(), b) => Some(T::zero()),
        Some(b) => Some(b),
        None => Some(T::zero()),
    }
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

    /// Sums along the run-time axis `axis` (numpy's `a.sum(axis=axis)`; negative counts
    /// from the end, [`Axis`]); `Err` outside `-rank..rank`. The static twin is [`Tensor::sum_axis`].
    ///
    /// ```
    /// use mdtensor::{tensor, DynRank};
    /// let a = tensor![[1, 0, 2], [0, 3, 0]];
    /// assert_eq!(a.try_sum_axis_dyn(0).unwrap().to_vec(), [1, 3, 2]);
    /// assert_eq!(a.to_csr().try_sum_axis_dyn(1).unwrap().to_vec(), [3, 3]);
    /// assert!(a.try_sum_axis_dyn(2).is_err());
    /// assert_eq!(a.sum_axis_dyn(-1).to_vec(), [3, 3]); // numpy's axis=-1
    /// ```
    pub fn try_sum_axis_dyn(&self, axis: impl Into<Axis>) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
    where
        E: RemoveAxisDyn,
        T: Copy + Zero,
        St: ReadStorage<T, E, S>,
    {
        St::try_sum_axis_dyn(self, axis.into().resolve("sum_axis_dyn", self.rank())?)
    }
    /// See [`Tensor::try_sum_axis_dyn`]; panics with its message.
    #[track_caller]
    pub fn sum_axis_dyn(&self, axis: impl Into<Axis>) -> Tensor<T, <E as RemoveAxisDyn>::Output>
    where
        E: RemoveAxisDyn,
        T: Copy + Zero,
        St: ReadStorage<T, E, S>,
    {
        or_panic(self.try_sum_axis_dyn(axis))
    }
    /// Sums over several axes in one pass (numpy's `a.sum(axis=(0, 2))`), as a [`DynRank`]
    /// tensor; `Err` for an axis out of range or given twice (negative axes count from the
    /// end, [`AxisList`]). An empty list sums nothing (numpy's `axis=()`).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let a = tensor![[[1, 2], [3, 4]], [[5, 6], [7, 8]]];
    /// assert_eq!(a.try_sum_axes(&[0, 2]).unwrap().to_vec(), [14, 22]);
    /// assert!(a.try_sum_axes(&[1, 1]).is_err());
    /// assert_eq!(a.sum_axes(&[-1, 0]).to_vec(), [14, 22]);
    /// assert!(a.try_sum_axes(&[-1, 2]).is_err()); // axis 2, twice
    /// ```
    pub fn try_sum_axes(&self, axes: impl AxisList) -> Result<Tensor<T, DynRank>, ShapeError>
    where
        T: Copy + Zero,
        St: ReadStorage<T, E, S>,
    {
        St::try_sum_axes(self, &axes.resolve_axes("sum_axes", self.rank())?)
    }
    /// See [`Tensor::try_sum_axes`]; panics with its message.
    #[track_caller]
    pub fn sum_axes(&self, axes: impl AxisList) -> Tensor<T, DynRank>
    where
        T: Copy + Zero,
        St: ReadStorage<T, E, S>,
    {
        or_panic(self.try_sum_axes(axes))
    }
    /// Sums over several axes, which stay with extent 1 (numpy's `keepdims=True`).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let a = tensor![[1, 2], [3, 4]];
    /// let k = a.to_csc().sum_axes_keepdims(&[1]);
    /// assert_eq!((k.shape(), k.to_vec()), (vec![2, 1], vec![3, 7]));
    /// ```
    pub fn try_sum_axes_keepdims(&self, axes: impl AxisList) -> Result<Tensor<T, E::Dynamic>, ShapeError>
    where
        T: Copy + Zero,
        St: ReadStorage<T, E, S>,
    {
        St::try_sum_axes_keepdims(self, &axes.resolve_axes("sum_axes_keepdims", self.rank())?)
    }
    /// See [`Tensor::try_sum_axes_keepdims`]; panics with its message.
    #[track_caller]
    pub fn sum_axes_keepdims(&self, axes: impl AxisList) -> Tensor<T, E::Dynamic>
    where
        T: Copy + Zero,
        St: ReadStorage<T, E, S>,
    {
        or_panic(self.try_sum_axes_keepdims(axes))
    }
}

/// The same row-major elements under extents without the reduced axes of extent 1.
fn drop_unit_axes<T, E: Extents, E2: Extents>(keep: Tensor<T, E>, ext: E2) -> Tensor<T, E2> {
    assert_eq!(keep.numel(), ext.numel(), "removing axes of extent 1 keeps the element count");
    // SAFETY: a row-major heap tensor owns exactly its elements in row-major order, and
    // removing axes of extent 1 changes neither the count nor the order.
    unsafe { Tensor::from_parts_unchecked(keep.storage, ext, ()) }
}

/// Sums of the stored entries over the axes `axes`, which stay with extent 1: the sparse
/// and band run-time-axis sums. `Err` for an axis out of range or given twice.
pub fn sum_stored_axes_keepdims<T: Copy + Zero, E: Extents, S: Layout<E>, St: ReadStorage<T, E, S>>(
    tensor: &Tensor<T, E, S, St>,
    axes: &[usize],
    op: &'static str,
) -> Result<Tensor<T, E::Dynamic>, ShapeError> {
    let dims = tensor.dims();
    let reduced = reduced_mask(op, axes, dims.as_ref().len())?;
    let kept: Vec<usize> = dims.as_ref().iter().zip(&reduced).map(|(&d, &r)| if r { 1 } else { d }).collect();
    let ext = <E::Dynamic as Extents>::from_dims(&kept)?;
    let strides = <RowMajor as Layout<E::Dynamic>>::strides(&ext, &());
    let mut out = Tensor::<T, E::Dynamic>::try_full(ext, T::zero())?;
    let buf = out.as_slice_mut().expect("a fresh row-major tensor is contiguous");
    tensor.for_each_stored(|idx, &v| {
        let pos: isize = idx
            .iter()
            .zip(strides.as_ref())
            .zip(&reduced)
            .map(|((&i, &s), &r)| if r { 0 } else { i as isize * s })
            .sum();
        buf[pos as usize] = buf[pos as usize] + v;
    });
    Ok(out)
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
    ($sum:ident, $sum_axis:ident, $extra:tt: $([$($gen:tt)*] $St:ty, $E:ty, $S:ty;)*) => {$(
        sum_storage!(@one $sum, $sum_axis, $extra, [$($gen)*] $St, $E, $S);
    )*};
    (@one $sum:ident, $sum_axis:ident, [$($extra:tt)*], [$($gen:tt)*] $St:ty, $E:ty, $S:ty) => {
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
            $($extra)*
        }
    };
}

/// The run-time-axis sums of a dense storage: the blocked kernels of the other dense
/// reductions (`try_reduce_axis_dyn_with`, `try_reduce_axes_with`), so `sum_axis_dyn(1)` and
/// `sum_axis::<1>()` give identical bits.
macro_rules! dense_run_time_sums {
    () => {
        fn try_sum_axis_dyn(
            tensor: &Tensor<T, E, S, Self>,
            axis: usize,
        ) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
        where
            E: RemoveAxisDyn,
        {
            tensor.try_reduce_axis_dyn_with(Sum, axis, Par::Auto).map_err(|e| rename(e, "sum_axis_dyn"))
        }
        fn try_sum_axes(tensor: &Tensor<T, E, S, Self>, axes: &[usize]) -> Result<Tensor<T, DynRank>, ShapeError> {
            tensor.try_reduce_axes_with(Sum, axes, Par::Auto).map_err(|e| rename(e, "sum_axes"))
        }
        fn try_sum_axes_keepdims(
            tensor: &Tensor<T, E, S, Self>,
            axes: &[usize],
        ) -> Result<Tensor<T, E::Dynamic>, ShapeError> {
            tensor.try_reduce_axes_keepdims_with(Sum, axes, Par::Auto).map_err(|e| rename(e, "sum_axes_keepdims"))
        }
        fn extreme<const LARGEST: bool>(tensor: &Tensor<T, E, S, Self>) -> Option<T>
        where
            T: NanOrd,
        {
            if LARGEST {
                Reductions::max(tensor)
            } else {
                Reductions::min(tensor)
            }
        }
    };
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

sum_storage! { sum_dense, sum_dense_axis, [dense_run_time_sums!();]:
    [T: Copy + Send + Sync + Zero, E: Extents, S: Layout<E>] Heap<T>, E, S;
    [T: Copy + Send + Sync + Zero, E: Extents, S: Layout<E>] Shared<T>, E, S;
    [T: Copy + Send + Sync + Zero, E: Extents, S: Layout<E>, IE: InlineExtents] Inline<T, IE>, E, S;
    ['a, T: Copy + Send + Sync + Zero, E: Extents, S: Layout<E>] View<'a, T>, E, S;
    ['a, T: Copy + Send + Sync + Zero, E: Extents, S: Layout<E>] ViewMut<'a, T>, E, S;
}
#[cfg(feature = "mmap")]
sum_storage! { sum_dense, sum_dense_axis, [dense_run_time_sums!();]:
    [T: Copy + Send + Sync + Zero, E: Extents, S: Layout<E>] crate::storage::Mmap<T>, E, S;
    [T: Copy + Send + Sync + Zero, E: Extents, S: Layout<E>] crate::storage::MmapMut<T>, E, S;
}
sum_storage! { sum_stored, sum_stored_axis, []:
    [T: Copy + Zero, E: Extents, S: SparseOrder + Layout<E>, I: SparseIndex] Coo<T, I>, E, S;
    [T: Copy + Zero, I: SparseIndex, A: Arrays<T, I>, E: Rank2, S: SparseOrder + Layout<E>] CompressedBase<T, I, A>, E, S;
    [T: Copy + Zero, M: Dim, N: Dim] Band<T>, (M, N), ColMajor;
}
