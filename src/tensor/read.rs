//! Reading any storage the same way: the value at an index (zero where a sparse or band
//! storage keeps nothing) and the entries it stores.
//!
//! This is the contract that makes one generic API serve every storage policy: code
//! written against [`ReadStorage`] (through [`Tensor::value`], [`Tensor::nnz`],
//! [`Tensor::for_each_stored`] and [`Tensor::to_dense`]) runs unchanged on dense, sparse
//! and band tensors, and on a user's own storage.

use super::{Tensor, TensorIndex};
use crate::error::ShapeError;
use crate::extents::Extents;
use crate::layout::Layout;
use crate::storage::{Heap, Inline, Shared, Storage, View, ViewMut};
use num_traits::Zero;

/// A storage whose elements can be read one by one and whose stored entries can be listed.
///
/// Dense storages store every element; sparse and band storages store some and read the
/// rest as zero. To write a storage of your own, implement [`Storage`],
/// [`NonDenseStorage`](crate::storage::NonDenseStorage) and this trait (see
/// `examples/custom_storage.rs`); the tensor methods [`Tensor::value`], [`Tensor::nnz`],
/// [`Tensor::for_each_stored`] and [`Tensor::to_dense`], and any function generic over
/// `St: ReadStorage<T, E, S>`, then work on it.
///
/// The three methods must agree with each other. Call the *stored set* the indices
/// [`ReadStorage::for_each_stored`] visits; then:
/// * every index in the stored set is in bounds and visited exactly once;
/// * [`ReadStorage::stored_len`] is the size of the stored set;
/// * [`ReadStorage::value_at`] returns the visited value for an index in the stored set
///   and zero for every other in-bounds index.
///
/// A stored entry may hold zero (an explicit zero inside a band). The methods take the
/// whole tensor, so the storage can read the extents (`tensor.dims()`) and its own data
/// (`tensor.storage()`). None of them may panic for a tensor whose storage passed
/// [`NonDenseStorage::check_extents`](crate::storage::NonDenseStorage::check_extents).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read element by element on the host",
    label = "this needs a storage the host can read",
    note = "a device tensor (storage `Cuda`, `CudaRef`, `CudaMut`) must be copied with `.to_host()` first"
)]
pub trait ReadStorage<T: Clone + Zero, E: Extents, S: Layout<E>>: Storage<T> + Sized {
    /// The value at `index` (one entry per axis), which the caller has checked against
    /// the extents: the stored value, or zero where nothing is stored.
    fn value_at(tensor: &Tensor<T, E, S, Self>, index: &[usize]) -> T;
    /// How many entries are stored (every element for dense storage).
    fn stored_len(tensor: &Tensor<T, E, S, Self>) -> usize;
    /// Calls `f` with the multi-index and value of every stored entry, once each, in the
    /// storage's own order.
    fn for_each_stored(tensor: &Tensor<T, E, S, Self>, f: &mut dyn FnMut(&[usize], &T));
}

/// # Reading any storage (dense, sparse, band, your own)
impl<T: Clone + Zero, E: Extents, S: Layout<E>, St: ReadStorage<T, E, S>> Tensor<T, E, S, St> {
    /// The value at `idx` for any storage: zero where a sparse or band storage keeps
    /// nothing, or the error naming the axis that is out of bounds.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let t = tensor![[1, 0], [0, 4]];
    /// assert_eq!(t.try_value([1, 1]).unwrap(), 4);
    /// assert!(t.try_value([2, 0]).is_err());
    /// ```
    pub fn try_value(&self, idx: impl TensorIndex<E>) -> Result<T, ShapeError> {
        let idx = idx.components();
        check_index(self.extents(), idx)?;
        Ok(St::value_at(self, idx))
    }
    /// The value at `idx` for any storage, or `None` when out of bounds.
    pub fn value(&self, idx: impl TensorIndex<E>) -> Option<T> {
        self.try_value(idx).ok()
    }
    /// Number of stored entries (every element of a dense tensor).
    pub fn nnz(&self) -> usize {
        St::stored_len(self)
    }
    /// Stored entries as a fraction of all elements (0 for an empty tensor).
    pub fn density(&self) -> f64 {
        match self.numel() {
            0 => 0.0,
            n => self.nnz() as f64 / n as f64,
        }
    }
    /// Calls `f(index, value)` for every stored entry, in the storage's order.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let t = tensor![[1, 2], [3, 4]];
    /// let mut total = 0;
    /// t.for_each_stored(|idx, v| total += v * (idx[0] as i32 + 1));
    /// assert_eq!(total, 1 + 2 + 2 * (3 + 4));
    /// ```
    pub fn for_each_stored(&self, mut f: impl FnMut(&[usize], &T)) {
        St::for_each_stored(self, &mut f)
    }
    /// A dense, row-major copy with every element, zeros included.
    pub fn to_dense(&self) -> Tensor<T, E> {
        let mut out = Tensor::<T, E>::full(self.extents().clone(), T::zero());
        let strides = <crate::RowMajor as Layout<E>>::strides(self.extents(), &());
        let buf = out.as_slice_mut().expect("a fresh row-major tensor is contiguous");
        self.for_each_stored(|idx, v| {
            let pos: isize = idx.iter().zip(strides.as_ref()).map(|(&i, &s)| i as isize * s).sum();
            buf[pos as usize] = v.clone();
        });
        out
    }
}

/// Checks a multi-index against extents: rank, then every axis.
pub(crate) fn check_index<E: Extents>(ext: &E, idx: &[usize]) -> Result<(), ShapeError> {
    let dims = ext.dims();
    if idx.len() != dims.as_ref().len() {
        return Err(ShapeError::RankMismatch { op: "index", expected: dims.as_ref().len(), found: idx.len() });
    }
    for (axis, (&i, &d)) in idx.iter().zip(dims.as_ref()).enumerate() {
        if i >= d {
            return Err(ShapeError::IndexOutOfBounds { op: "index", index: i as isize, axis, extent: d });
        }
    }
    Ok(())
}

macro_rules! dense_read_storage {
    ($($St:ty => [$($gen:tt)*]),* $(,)?) => {$(
        impl<$($gen)*, E: Extents, S: Layout<E>> ReadStorage<T, E, S> for $St
        where
            T: Clone + Zero,
        {
            fn value_at(tensor: &Tensor<T, E, S, Self>, index: &[usize]) -> T {
                tensor.try_get_dyn(index).expect("index checked by the caller").clone()
            }
            fn stored_len(tensor: &Tensor<T, E, S, Self>) -> usize {
                tensor.numel()
            }
            fn for_each_stored(tensor: &Tensor<T, E, S, Self>, f: &mut dyn FnMut(&[usize], &T)) {
                for (idx, v) in tensor.indexed_iter() {
                    f(idx.as_ref(), v);
                }
            }
        }
    )*};
}
dense_read_storage! {
    Heap<T> => [T],
    Shared<T> => [T],
    View<'a, T> => ['a, T],
    ViewMut<'a, T> => ['a, T],
    Inline<T, IE> => [T, IE: crate::storage::InlineExtents],
}
#[cfg(feature = "mmap")]
dense_read_storage! {
    crate::storage::Mmap<T> => [T],
    crate::storage::MmapMut<T> => [T],
}
