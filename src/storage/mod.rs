//! Storage policies: where and how a tensor's elements live.
//!
//! Every storage implements [`Storage`] and [`ReadStorage`](crate::ReadStorage) (the generic read contract).
//! Dense storages also implement [`DenseStorage`] (elements reachable through a pointer)
//! and, when writable, [`DenseStorageMut`]. Storages that keep only some elements — the
//! [`Band`] matrix here, or a storage of your own — implement [`NonDenseStorage`] instead,
//! which lets [`Tensor::try_from_storage`](crate::Tensor::try_from_storage) assemble a
//! tensor around them.
//!
//! | storage | owns | allocation | writable |
//! |---|---|---|---|
//! | [`Heap`] | yes | heap | yes |
//! | [`Inline`] | yes | none (on the stack; static extents) | yes |
//! | [`Shared`] | shared (`Arc`) | heap | yes, copy-on-write |
//! | [`View`] | borrows | none | no |
//! | [`ViewMut`] | borrows mutably | none | yes |
//! | `Mmap` (feature `mmap`) | maps a `.npy` file | none (pages load on touch) | no |
//! | `MmapMut` (feature `mmap`) | maps a `.npy` file | none | yes, into the file |
//! | [`Band`] | yes | heap, LAPACK band layout | inside the band |
//!
//! # Writing a storage of your own
//! Implement three traits (`examples/custom_storage.rs` does it for a diagonal matrix):
//! 1. [`Storage`] — a name for `Debug` output.
//! 2. [`NonDenseStorage`] — [`NonDenseStorage::check_extents`] says whether the storage
//!    can stand for a tensor of the given extents; it is called once, when the tensor is
//!    assembled with [`Tensor::try_from_storage`](crate::Tensor::try_from_storage).
//! 3. [`ReadStorage`](crate::ReadStorage) — the value at an index (zero where nothing is stored), the number
//!    of stored entries, and a walk over them. That is all the generic API needs:
//!    [`value`](crate::Tensor::value), [`nnz`](crate::Tensor::nnz),
//!    [`for_each_stored`](crate::Tensor::for_each_stored) and
//!    [`to_dense`](crate::Tensor::to_dense) then work on your tensors, and so does any
//!    function written over `St: ReadStorage<T, E, S>`.
//!
//! A user storage never implements [`DenseStorage`]: that trait is `unsafe` because the
//! crate's dense kernels read through its pointer without bounds checks.
//!
//! # The dense invariant
//! For a tensor with dense storage, extents `E`, strides `s` and offset `o` (from its stride
//! policy), every valid multi-index `i` gives a position `o + Σ iₖ·sₖ` inside
//! `0..region_len()` of the storage, and the element count fits in `isize::MAX` bytes.
//! Constructors establish it; every `unsafe` block in the crate cites it as
//! "the dense invariant".

pub mod band;
mod borrow;
mod heap;
mod inline;
#[cfg(feature = "mmap")]
mod mmap;
mod shared;
pub mod sparse;
mod view;

pub use band::{Band, BandError};
pub use borrow::{BorrowedStorage, ReadOnlyBorrow, ViewMutOf, ViewOf, Viewable, ViewableMut};
pub use heap::Heap;
pub use inline::{Inline, InlineDim, InlineExtents};
#[cfg(feature = "mmap")]
pub use mmap::{Mmap, MmapMut};
pub use shared::Shared;
pub use view::{View, ViewMut};

/// Any storage policy for elements of type `T`: the one trait every storage implements.
///
/// It carries no behaviour; what a storage can do is stated by the traits built on it:
/// [`ReadStorage`](crate::ReadStorage) (read any element, list the stored ones), [`DenseStorage`] and
/// [`DenseStorageMut`] (a pointer to every element, for the crate's dense storages) or
/// [`NonDenseStorage`] (everything else, including storages defined outside this crate).
pub trait Storage<T> {
    /// Short name, for `Debug` output and messages (`"Heap"`, `"Band"`).
    const NAME: &'static str;
}

/// A storage that does not hold every element behind one pointer: band, sparse, or a
/// user's own (a diagonal, a constant). Implementing it lets
/// [`Tensor::try_from_storage`](crate::Tensor::try_from_storage) assemble a tensor around
/// the storage, after asking it whether it fits the extents.
///
/// It is safe to implement: nothing in the crate reads such a storage except through its
/// own [`ReadStorage`](crate::ReadStorage) methods. A type must not implement both this trait and
/// [`DenseStorage`] (whose `unsafe impl` promises so), because dense kernels trust the
/// length of a dense region and `try_from_storage` does not establish it. The trait has
/// no element-type parameter on purpose: the orphan rule then forbids other crates to
/// implement it for the crate's dense storages (`Heap<TheirType>`), so that promise cannot
/// be broken from outside.
pub trait NonDenseStorage {
    /// `Ok` when this storage can represent a tensor with extents `dims` (every axis
    /// length, in order); otherwise the reason, as a [`ShapeError`](crate::ShapeError)
    /// (usually [`ShapeError::InvalidArgument`](crate::ShapeError::InvalidArgument) or
    /// [`ShapeError::LengthMismatch`](crate::ShapeError::LengthMismatch)). After `Ok`,
    /// [`ReadStorage::value_at`](crate::ReadStorage::value_at) must answer for every in-bounds index of `dims` without
    /// panicking.
    fn check_extents(&self, dims: &[usize]) -> Result<(), crate::ShapeError>;
}

/// Storage whose elements are reachable through a pointer to a region of
/// `region_len()` consecutive elements.
///
/// # Safety
/// `as_ptr()` must be valid for reads of `region_len()` elements for as long as `&self`
/// lives, and the elements must be initialised. While `&self` lives the elements must not
/// change: the kernels read them through the pointer from several threads at once (for
/// `T: Sync`), so the storage itself need not be `Sync`. The type must not implement
/// [`NonDenseStorage`] (tensors over it could then be assembled without the dense
/// invariant).
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not hold its elements in host memory",
    label = "this needs a tensor whose elements are in host memory",
    note = "a device tensor (storage `Cuda`, `CudaRef`, `CudaMut`) must be copied with `.to_host()` first, and a device expression is evaluated with `.eval_on(&dev)`; a band or sparse tensor is copied with `.to_dense()`"
)]
pub unsafe trait DenseStorage<T>: Storage<T> {
    /// Start of the region.
    fn as_ptr(&self) -> *const T;
    /// Number of elements in the region.
    fn region_len(&self) -> usize;
    /// The elements as [`Heap`] storage without copying, when this storage owns them
    /// alone (`Heap` itself, an unshared `Shared`).
    fn try_into_heap(self) -> Result<Heap<T>, Self>
    where
        Self: Sized,
    {
        Err(self)
    }
}

/// Dense storage that can be written.
///
/// # Safety
/// `as_mut_ptr()` must be valid for reads and writes of `region_len()` elements while
/// `&mut self` lives, and no other live reference may reach those elements.
#[diagnostic::on_unimplemented(
    message = "cannot write through `{Self}`: it is read-only",
    label = "this tensor's storage does not allow writes",
    note = "take a mutable view with `.view_mut()` of an owned tensor, or copy with `.to_owned()`"
)]
pub unsafe trait DenseStorageMut<T>: DenseStorage<T> {
    /// Start of the region, for writing (a shared storage first makes its copy unique).
    fn as_mut_ptr(&mut self) -> *mut T;
}

/// Storage that owns its elements and can be filled by the crate's constructors.
///
/// # Safety
/// Every constructor that returns `Some`/`Ok` must return a storage whose
/// [`DenseStorage::region_len`] is exactly the `n` (or the `Vec` length) it was asked for:
/// tensors are built on that promise without checking it again.
pub unsafe trait OwnedStorage<T>: DenseStorageMut<T> + Sized {
    /// A region of `n` elements produced by `f(0), f(1), …`; `None` when this storage
    /// cannot hold `n` elements (an [`Inline`] array of another length).
    fn from_fn_linear(n: usize, f: impl FnMut(usize) -> T) -> Option<Self>;
    /// Takes a buffer; gives it back when its length cannot be held.
    fn from_vec(v: Vec<T>) -> Result<Self, Vec<T>>;
    /// A region of `n` elements written by `init` through a raw pointer (in any order);
    /// `None` when this storage cannot hold `n` elements.
    ///
    /// # Safety
    /// `init` must initialise all `n` elements.
    unsafe fn from_raw_init(n: usize, init: impl FnOnce(*mut T)) -> Option<Self>;
    /// The one length this storage can hold, if it is fixed (an [`Inline`] array).
    fn fixed_len() -> Option<usize> {
        None
    }
    /// [`OwnedStorage::from_fn_linear`] for the `try_` constructors: a storage that
    /// allocates reports a refused allocation as
    /// [`ShapeError::OutOfMemory`](crate::ShapeError::OutOfMemory) (naming `op` and the
    /// bytes) instead of aborting. The default suits storages that do not allocate.
    fn try_from_fn_linear(
        op: &'static str,
        n: usize,
        f: impl FnMut(usize) -> T,
    ) -> Result<Option<Self>, crate::ShapeError> {
        let _ = op;
        Ok(Self::from_fn_linear(n, f))
    }
    /// [`OwnedStorage::from_raw_init`] for the `try_` forms: a storage that allocates
    /// reports a refused allocation as
    /// [`ShapeError::OutOfMemory`](crate::ShapeError::OutOfMemory) naming `op` (and does
    /// not call `init` then). The default suits storages that do not allocate.
    ///
    /// # Safety
    /// As for [`OwnedStorage::from_raw_init`].
    unsafe fn try_from_raw_init(
        op: &'static str,
        n: usize,
        init: impl FnOnce(*mut T),
    ) -> Result<Option<Self>, crate::ShapeError> {
        let _ = op;
        // SAFETY: forwarded contract.
        Ok(unsafe { Self::from_raw_init(n, init) })
    }
}

/// The owned storage of a computed result, chosen from an operand's storage: results of
/// inline (stack) tensors stay inline, everything else goes to the heap.
pub trait ResultStorage<T, E: crate::extents::Extents> {
    /// The result's storage.
    type Out: OwnedStorage<T>;
}
impl<T, E: crate::extents::Extents> ResultStorage<T, E> for Heap<T> {
    type Out = Heap<T>;
}
impl<T: Clone, E: crate::extents::Extents> ResultStorage<T, E> for Shared<T> {
    type Out = Heap<T>;
}
impl<T, E: crate::extents::Extents> ResultStorage<T, E> for View<'_, T> {
    type Out = Heap<T>;
}
impl<T, E: crate::extents::Extents> ResultStorage<T, E> for ViewMut<'_, T> {
    type Out = Heap<T>;
}
impl<T, E0: InlineExtents, E: crate::extents::Extents> ResultStorage<T, E> for Inline<T, E0>
where
    Inline<T, E0>: InlineResult<T, E, E::IsStatic>,
{
    type Out = <Inline<T, E0> as InlineResult<T, E, E::IsStatic>>::Out;
}

/// Dispatch for results of inline operands: inline again when the result's extents are
/// static, on the heap when some axis is dynamic.
#[doc(hidden)]
pub trait InlineResult<T, E, IsStatic> {
    type Out: OwnedStorage<T>;
}
impl<T, E0: InlineExtents, E: InlineExtents> InlineResult<T, E, typenum::B1> for Inline<T, E0> {
    type Out = Inline<T, E>;
}
impl<T, E0: InlineExtents, E> InlineResult<T, E, typenum::B0> for Inline<T, E0> {
    type Out = Heap<T>;
}
