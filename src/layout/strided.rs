//! Arbitrary signed strides plus an offset: the policy of general views.

use super::{Layout, RowMajor, StridePolicy};
use crate::extents::Extents;

/// Any strides, including negative (flipped axes) and zero (broadcast axes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Strided;

/// What a [`Strided`] tensor stores: one stride per axis and the position of element
/// `[0, …, 0]` in its storage region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StridedMapping<S> {
    /// Strides in elements.
    pub strides: S,
    /// Offset of the first element, in elements.
    pub offset: usize,
}

impl StridePolicy for Strided {
    const CONTIGUOUS: bool = false;
    const UNIQUE: bool = false;
    const NEGATIVE_STRIDES: bool = true;
    const NAME: &'static str = "Strided";
    type Owned = RowMajor;
    type Transposed = Strided;
    type AxesChanged = Strided;
    type Order = super::AnyOrder;
}

impl<E: Extents> Layout<E> for Strided {
    type Mapping = StridedMapping<E::Strides>;

    #[inline(always)]
    fn strides(_: &E, m: &Self::Mapping) -> E::Strides {
        m.strides.clone()
    }
    #[inline(always)]
    fn offset(m: &Self::Mapping) -> usize {
        m.offset
    }
    fn dense_mapping(ext: &E) -> Self::Mapping {
        StridedMapping { strides: <RowMajor as Layout<E>>::strides(ext, &()), offset: 0 }
    }
    fn mapping_for(_: &E, strides: &E::Strides, offset: usize) -> Option<Self::Mapping> {
        Some(StridedMapping { strides: strides.clone(), offset })
    }
}
