//! Borrowing a storage's elements as a view storage, host or device.
//!
//! Views are written once for every dense storage, wherever its elements live: a view
//! transform (`slice`, `index_axis`, `t`, `permute`, …) borrows the storage as its
//! [`Viewable::Ref`] (a [`View`] of host memory, a `CudaRef` of device memory) and then
//! only moves the region's start ([`BorrowedStorage::rebase`]) and changes extents and
//! strides, which needs no access to the elements themselves.

use super::{DenseStorage, DenseStorageMut, Storage, View, ViewMut};

/// Storage that borrows a region of elements, so a view can start further into it: the
/// storage of views, host ([`View`], [`ViewMut`]) or device (`CudaRef`, `CudaMut`). View
/// transforms (slicing, flipping, permuting …) consume tensors of this storage: the
/// elements stay in their owner, so a failed transform loses nothing.
///
/// ```
/// use mdtensor::storage::{BorrowedStorage, View};
/// let v = View::from_slice(&[1, 2, 3][..]);
/// assert_eq!(v.rebase(1).borrowed_len(), 2);
/// ```
pub trait BorrowedStorage<T>: Storage<T> + Sized {
    /// Number of elements in the borrowed region.
    fn borrowed_len(&self) -> usize;
    /// The same borrow, starting `skip` elements later (`skip <= borrowed_len()`).
    fn rebase(self, skip: usize) -> Self;
}

/// A borrowed storage nothing is written through, so several indices may share one
/// element: the storage of `broadcast_to` views (zero strides).
///
/// # Safety
/// No method of the crate or of the implementor writes elements through this storage.
pub unsafe trait ReadOnlyBorrow<T>: BorrowedStorage<T> {}

/// A storage whose elements can be borrowed as a view: every dense storage of host
/// memory (through [`DenseStorage`]) and of device memory. The borrowing view methods
/// (`view`, `t`, `slice`, `index_axis`, `broadcast_to`, …) are written over this trait,
/// so they are the same methods on host and device tensors.
///
/// Generic code over every dense storage, host or device, bounds the storage on this
/// trait and names the view's storage [`ViewOf`]:
///
/// ```
/// use mdtensor::storage::{View, ViewOf, Viewable};
/// use mdtensor::{ext, tensor, RowMajor, Strided, Tensor};
/// fn first_row<St: Viewable<i32>>(
///     t: &Tensor<i32, ext![2, 2], RowMajor, St>,
/// ) -> Tensor<i32, ext![2], Strided, ViewOf<'_, i32, St>> {
///     t.index_axis::<0>(0)
/// }
/// let a = tensor![[1, 2], [3, 4]];
/// let r: Tensor<i32, ext![2], Strided, View<'_, i32>> = first_row(&a); // host: a `View`
/// assert_eq!(r.to_vec(), [1, 2]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot lend its elements as a view",
    label = "this needs a tensor with dense storage",
    note = "views borrow dense storage (host or device); a band or sparse tensor must be made dense first with `.to_dense()`"
)]
pub trait Viewable<T>: Storage<T> {
    /// The storage of a read-only view borrowed for `'a`.
    type Ref<'a>: ReadOnlyBorrow<T>
    where
        Self: 'a,
        T: 'a;
    /// The whole region, borrowed read-only.
    fn borrow_region(&self) -> Self::Ref<'_>;
}

/// A storage whose elements can be borrowed mutably as a view: every writable dense
/// storage, host or device.
#[diagnostic::on_unimplemented(
    message = "cannot write through `{Self}`: it is read-only",
    label = "this tensor's storage does not allow writes",
    note = "take a mutable view with `.view_mut()` of an owned tensor, or copy with `.to_owned()`"
)]
pub trait ViewableMut<T>: Viewable<T> {
    /// The storage of a mutable view borrowed for `'a`.
    type Mut<'a>: BorrowedStorage<T>
    where
        Self: 'a,
        T: 'a;
    /// The whole region, borrowed exclusively.
    fn borrow_region_mut(&mut self) -> Self::Mut<'_>;
}

/// The storage of a read-only view of storage `St`: [`View`] for host storages.
pub type ViewOf<'a, T, St> = <St as Viewable<T>>::Ref<'a>;
/// The storage of a mutable view of storage `St`: [`ViewMut`] for host storages.
pub type ViewMutOf<'a, T, St> = <St as ViewableMut<T>>::Mut<'a>;

impl<T, St: DenseStorage<T>> Viewable<T> for St {
    type Ref<'a>
        = View<'a, T>
    where
        Self: 'a,
        T: 'a;
    #[inline]
    fn borrow_region(&self) -> View<'_, T> {
        // SAFETY: the region is valid for reads while `&self` is borrowed (dense invariant).
        unsafe { View::from_raw(self.as_ptr(), self.region_len()) }
    }
}

impl<T, St: DenseStorageMut<T>> ViewableMut<T> for St {
    type Mut<'a>
        = ViewMut<'a, T>
    where
        Self: 'a,
        T: 'a;
    #[inline]
    fn borrow_region_mut(&mut self) -> ViewMut<'_, T> {
        let len = self.region_len();
        // SAFETY: the region is exclusively borrowed for the view's lifetime.
        unsafe { ViewMut::from_raw(self.as_mut_ptr(), len) }
    }
}
