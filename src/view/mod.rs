//! Views: new extents and strides over the same elements, never a copy.
//!
//! Each transform is written once, as a consuming method on tensors with borrowed storage
//! (`into_*`, for [`View`](crate::View) and [`ViewMut`](crate::ViewMut)); the borrowing
//! forms (`t.flip_axis(0)`, `t.slice_mut(s![..])`) are `self.view().into_…` and
//! `self.view_mut().into_…`. Failing transforms therefore lose nothing.
//!
//! | transform | static extents | result policy |
//! |---|---|---|
//! | [`t`](crate::Tensor::t), [`reversed_axes`](crate::Tensor::reversed_axes) | kept, reversed | `RowMajor` ↔ `ColMajor` |
//! | [`permute`](crate::Tensor::permute), [`permute_axes`](crate::Tensor::permute_axes) | dynamic / kept | `Strided` |
//! | [`squeeze`](crate::Tensor::squeeze), [`unsqueeze`](crate::Tensor::unsqueeze) | kept | same dense order |
//! | [`index_axis`](crate::Tensor::index_axis) | kept | `Strided` |
//! | [`flip`](crate::Tensor::flip) | kept | `Strided` (negative stride) |
//! | [`swapaxes`](crate::Tensor::swapaxes), [`moveaxis`](crate::Tensor::moveaxis), [`rot90`](crate::Tensor::rot90) | moved with their axes (`_dyn`: dynamic) | `Strided` |
//! | [`index_axis_dyn`](crate::Tensor::index_axis_dyn), [`squeeze_dyn`](crate::Tensor::squeeze_dyn), [`unsqueeze_dyn`](crate::Tensor::unsqueeze_dyn) (run-time axis) | same rank, dynamic | as the static forms |
//! | [`keepdims`](crate::Tensor::keepdims), [`keepdims_dyn`](crate::Tensor::keepdims_dyn) (owned or borrowed) | an axis of extent 1 added | same dense order |
//! | [`broadcast_to`](crate::Tensor::broadcast_to) | checked in the type | `Strided` (zero strides), read-only |
//! | [`reshape`](crate::Tensor::reshape) | element count checked in the type | `RowMajor` |
//! | [`slice`](crate::Tensor::slice) (`s![..]`) | dynamic | `Strided` |
//! | [`slice_static`](crate::Tensor::slice_static) | computed in the type | [`StaticSliced`](crate::layout::StaticSliced) |
//! | [`into_dyn`](crate::Tensor::into_dyn), [`try_into_extents`](crate::Tensor::try_into_extents) | `DynRank` / checked | kept |

mod axes;
mod axes_dyn;
mod axes_list;
mod axis_moves;
mod broadcast;
mod diag;
mod keepdims;
mod multi_slice;
mod rank;
mod reshape;
mod reshape_any;
mod slice;
mod slice_static;
mod split_at;
mod transpose;

pub use axes::Squeezable;
pub use axis_moves::{MoveAxis, Rot90, SwapAxes};
pub use multi_slice::MultiSliceArg;
pub use reshape::ReshapeTo;
pub use reshape_any::CowTensor;
pub use slice::{NewAxis, SliceArg, SliceElem, SliceInfo, SliceInput};
pub use slice_static::{Full, Span, StaticAxisSlice, StaticSlicePolicy, StaticSliceSpec};
pub use transpose::{Ax, DistinctAxis, Permutation, PermutationRank};

use crate::error::ShapeError;
use crate::extents::Extents;
use crate::layout::Layout;
use crate::storage::BorrowedStorage;
use crate::tensor::{fits_region, Tensor};

/// # Views: borrowing
impl<T, E: Extents, S: Layout<E>, St: BorrowedStorage<T>> Tensor<T, E, S, St> {
    /// The same borrowed elements under new extents, strides and policy; element
    /// `[0, …, 0]` of the result is at `first` relative to this tensor's.
    ///
    /// # Safety
    /// For every valid index `i` of `ext`, `first + Σ iₖ·strides[k]` must be the position
    /// of an element of `self`; when `St` is writable, distinct indices must give distinct
    /// positions.
    pub(crate) unsafe fn relayout<E2: Extents, S2: Layout<E2>>(
        self,
        ext: E2,
        strides: E2::Strides,
        first: isize,
    ) -> Result<Tensor<T, E2, S2, St>, ShapeError> {
        // An empty result reads nothing: anchor it at the region start.
        let abs = if ext.numel() == 0 { 0 } else { S::offset(&self.mapping) as isize + first };
        debug_assert!(abs >= 0, "a valid element position is never before the region");
        let abs = abs as usize;
        let fits = |len: usize, off: usize| fits_region(ext.dims().as_ref(), strides.as_ref(), off, len);
        if let Some(m) = S2::mapping_for(&ext, &strides, abs) {
            debug_assert!(fits(self.storage.borrowed_len(), abs), "view escapes its region");
            // SAFETY: same region; the caller vouches for every position.
            return Ok(unsafe { Tensor::from_parts_unchecked(self.storage, ext, m) });
        }
        let m = S2::mapping_for(&ext, &strides, 0).ok_or(ShapeError::NotContiguous { op: "view" })?;
        let storage = self.storage.rebase(abs);
        debug_assert!(fits(storage.borrowed_len(), 0), "view escapes its region");
        // SAFETY: the region now starts at element [0, …, 0]; positions are unchanged.
        Ok(unsafe { Tensor::from_parts_unchecked(storage, ext, m) })
    }
}
