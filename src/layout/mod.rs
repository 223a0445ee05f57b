//! Stride policies: how a multi-index maps to a position in storage.
//!
//! * [`RowMajor`] — the last axis varies fastest (C order, uBLAS `last_order`).
//! * [`ColMajor`] — the first axis varies fastest (Fortran order, `first_order`).
//! * [`Strided`] — arbitrary signed strides and an offset: views after slicing,
//!   permuting, flipping (negative strides) or broadcasting (zero strides).
//!
//! A policy states its properties as associated consts, so kernels pick their fast path at
//! compile time. For `RowMajor` and `ColMajor` nothing is stored: strides are computed from
//! the extents, and with static extents the compiler folds them to constants.
//!
//! The policy means the same thing for every storage: the order in which the index space
//! is linearised. For compressed sparse storage it picks CSR (`RowMajor`) or CSC
//! (`ColMajor`).

pub(crate) mod arith;
mod contiguous;
mod order;
mod static_sliced;
mod strided;

#[cfg(feature = "cuda")]
pub(crate) use arith::positions_fit_i32;
pub(crate) use arith::{axes_by_stride, is_dense_in_some_order, span_of};
pub use contiguous::{ColMajor, RowMajor};
pub use order::{AnyOrder, DenseOf, ResultOrder};
pub use static_sliced::{SliceSteps, StaticSliced};
pub use strided::{Strided, StridedMapping};

use crate::extents::Extents;
use core::fmt::Debug;

/// Properties every stride policy states at compile time.
pub trait StridePolicy: Copy + Default + Debug + Send + Sync + 'static {
    /// Every tensor of this policy covers one dense block in the policy's order.
    const CONTIGUOUS: bool;
    /// No two indices map to the same element.
    const UNIQUE: bool;
    /// Strides may be negative.
    const NEGATIVE_STRIDES: bool;
    /// Short name, for `Debug`.
    const NAME: &'static str;
    /// The policy of an owned copy (`Strided` copies become `RowMajor`).
    type Owned: StridePolicy;
    /// The policy of the transpose (axes reversed): `RowMajor` ↔ `ColMajor`.
    type Transposed: StridePolicy;
    /// The policy after removing or inserting an axis of extent 1 (squeeze, unsqueeze):
    /// the same for the dense orders, `Strided` otherwise.
    type AxesChanged: StridePolicy;
    /// The order of what is computed from a tensor of this policy (see [`ResultOrder`]):
    /// itself for the dense orders, [`AnyOrder`] (no preference) for arbitrary strides.
    type Order: ResultOrder;
}

/// A stride policy applied to extents `E`: the run-time mapping data it needs.
pub trait Layout<E: Extents>: StridePolicy {
    /// True when every tensor with this policy is row-major contiguous from offset 0
    /// ([`RowMajor`]): its memory order is its logical order. Kernels use it to leave out,
    /// at compile time, the paths such tensors never take.
    const ROW_MAJOR_CONTIGUOUS: bool = false;
    /// What a tensor stores for this policy (`()` for `RowMajor`/`ColMajor`).
    type Mapping: Clone + Debug + PartialEq + Send + Sync;

    /// Strides in elements, one per axis.
    fn strides(ext: &E, m: &Self::Mapping) -> E::Strides;
    /// Position of element `[0, …, 0]` from the start of the storage region, in elements.
    fn offset(m: &Self::Mapping) -> usize;
    /// The mapping of a freshly allocated tensor in this policy's order.
    fn dense_mapping(ext: &E) -> Self::Mapping;
    /// The mapping with exactly these strides and offset, if the policy can express it.
    fn mapping_for(ext: &E, strides: &E::Strides, offset: usize) -> Option<Self::Mapping>;
    /// Whether the tensor occupies `numel` consecutive elements starting at the offset, in
    /// row-major (logical) order.
    #[inline]
    fn is_row_major_contiguous(ext: &E, m: &Self::Mapping) -> bool {
        let s = Self::strides(ext, m);
        let want = <RowMajor as Layout<E>>::strides(ext, &());
        strides_match(ext.dims().as_ref(), s.as_ref(), want.as_ref())
    }
}

/// Whether `strides` address the same elements as `want` for these `dims`: axes of extent
/// 1 may have any stride, and an empty tensor matches anything.
#[inline]
pub(crate) fn strides_match(dims: &[usize], strides: &[isize], want: &[isize]) -> bool {
    if dims.contains(&0) {
        return true;
    }
    dims.iter().zip(strides.iter().zip(want)).all(|(&d, (&s, &w))| d == 1 || s == w)
}
