//! Storage policies: where and how a tensor's elements live.
//!
//! Every storage implements [`Storage`]. Dense storages also implement [`DenseStorage`]
//! (elements reachable through a pointer) and, when writable, [`DenseStorageMut`].
//!
//! | storage | owns | allocation | writable |
//! |---|---|---|---|
//! | [`Heap`] | yes | heap | yes |
//! | [`Inline`] | yes | none (on the stack; static extents) | yes |
//! | [`Shared`] | shared (`Arc`) | heap | yes, copy-on-write |
//! | [`View`] | borrows | none | no |
//! | [`ViewMut`] | borrows mutably | none | yes |
//!
//! # The dense invariant
//! For a tensor with dense storage, extents `E`, strides `s` and offset `o` (from its stride
//! policy), every valid multi-index `i` gives a position `o + Σ iₖ·sₖ` inside
//! `0..region_len()` of the storage, and the element count fits in `isize::MAX` bytes.
//! Constructors establish it; every `unsafe` block in the crate cites it as
//! "the dense invariant".

pub(crate) mod entries;
mod heap;
mod inline;
mod shared;
pub mod sparse;
mod view;

pub use entries::ReadStorage;
pub use heap::Heap;
pub use inline::Inline;
pub use shared::Shared;
pub use view::{BorrowedStorage, View, ViewMut};

/// Any storage policy for elements of type `T`.
pub trait Storage<T> {
    /// Short name, for `Debug`.
    const NAME: &'static str;
}

/// Storage whose elements are reachable through a pointer to a region of
/// `region_len()` consecutive elements.
///
/// # Safety
/// `as_ptr()` must be valid for reads of `region_len()` elements for as long as `&self`
/// lives, and the elements must be initialised.
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
impl<T, N: generic_array::ArrayLength, E: crate::extents::Extents> ResultStorage<T, E> for Inline<T, N>
where
    Inline<T, N>: InlineResult<T, E, E::IsStatic>,
{
    type Out = <Inline<T, N> as InlineResult<T, E, E::IsStatic>>::Out;
}

/// Dispatch for results of inline operands: inline again when the result's extents are
/// static, on the heap when some axis is dynamic.
#[doc(hidden)]
pub trait InlineResult<T, E, IsStatic> {
    type Out: OwnedStorage<T>;
}
impl<T, N: generic_array::ArrayLength, E: crate::extents::StaticExtents> InlineResult<T, E, typenum::B1>
    for Inline<T, N>
{
    type Out = Inline<T, E::Numel>;
}
impl<T, N: generic_array::ArrayLength, E> InlineResult<T, E, typenum::B0> for Inline<T, N> {
    type Out = Heap<T>;
}
