//! What a tensor is made of: its extents and dims, strides, storage and offset.

use super::Tensor;
use crate::extents::Extents;
use crate::layout::Layout;
use crate::storage::DenseStorage;
use core::marker::PhantomData;

/// # Shape, strides and storage
impl<T, E: Extents, S: Layout<E>, St> Tensor<T, E, S, St> {
    /// The extents value.
    #[inline(always)]
    pub fn extents(&self) -> &E {
        &self.extents
    }
    /// Extent of every axis.
    #[inline(always)]
    pub fn dims(&self) -> E::Index {
        self.extents.dims()
    }
    /// Extents as a `Vec` (numpy's `shape`).
    pub fn shape(&self) -> Vec<usize> {
        self.extents.dims().as_ref().to_vec()
    }
    /// Number of axes.
    #[inline(always)]
    pub fn rank(&self) -> usize {
        self.extents.rank()
    }
    /// Number of elements.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.extents.numel()
    }
    /// Number of elements (numpy's `size`).
    #[inline(always)]
    pub fn numel(&self) -> usize {
        self.extents.numel()
    }
    /// True when some axis has extent 0.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.numel() == 0
    }
    /// Strides in elements, as the stride policy gives them.
    #[inline(always)]
    pub fn strides(&self) -> E::Strides {
        S::strides(&self.extents, &self.mapping)
    }
    /// The storage.
    pub fn storage(&self) -> &St {
        &self.storage
    }
    /// Whether elements are consecutive in memory in logical (row-major) order.
    #[inline]
    pub fn is_standard_layout(&self) -> bool {
        S::is_row_major_contiguous(&self.extents, &self.mapping)
    }

    /// Assembles a tensor from its parts without checks.
    ///
    /// # Safety
    /// The parts must satisfy the dense invariant (see [`crate::storage`]) when `St` is
    /// dense, and `extents.numel()` must not overflow.
    pub(crate) unsafe fn from_parts_unchecked(storage: St, extents: E, mapping: S::Mapping) -> Self {
        Tensor { storage, extents, mapping, _elem: PhantomData }
    }
}

/// # Shape, strides and storage
impl<T, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// Pointer to element `[0, …, 0]`.
    #[inline(always)]
    pub fn as_ptr(&self) -> *const T {
        // SAFETY: by the dense invariant the offset lies inside the region (or is 0 for
        // an empty region), so the pointer stays in bounds of the allocation.
        unsafe { self.storage.as_ptr().add(S::offset(&self.mapping)) }
    }
}
