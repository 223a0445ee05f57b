//! The two dense orders, `RowMajor` and `ColMajor`, which store nothing.

use super::{Layout, StridePolicy};
use crate::extents::Extents;

/// C order: the last axis varies fastest. The default policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RowMajor;

/// Fortran order: the first axis varies fastest. A transposed `RowMajor` matrix is a
/// `ColMajor` matrix over the same memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ColMajor;

impl StridePolicy for RowMajor {
    const CONTIGUOUS: bool = true;
    const UNIQUE: bool = true;
    const NEGATIVE_STRIDES: bool = false;
    const NAME: &'static str = "RowMajor";
    type Owned = RowMajor;
    type Transposed = ColMajor;
    type AxesChanged = RowMajor;
    type Order = RowMajor;
}

impl StridePolicy for ColMajor {
    const CONTIGUOUS: bool = true;
    const UNIQUE: bool = true;
    const NEGATIVE_STRIDES: bool = false;
    const NAME: &'static str = "ColMajor";
    type Owned = ColMajor;
    type Transposed = RowMajor;
    type AxesChanged = ColMajor;
    type Order = ColMajor;
}

impl<E: Extents> Layout<E> for RowMajor {
    type Mapping = ();
    const ROW_MAJOR_CONTIGUOUS: bool = true;

    #[inline(always)]
    fn strides(ext: &E, _: &()) -> E::Strides {
        let dims = ext.dims();
        let mut s = ext.zero_strides();
        super::arith::dense_strides(dims.as_ref().iter().rev(), s.as_mut().iter_mut().rev());
        s
    }
    #[inline(always)]
    fn offset(_: &()) -> usize {
        0
    }
    #[inline(always)]
    fn dense_mapping(_: &E) {}
    fn mapping_for(ext: &E, strides: &E::Strides, offset: usize) -> Option<()> {
        let want = Self::strides(ext, &());
        (offset == 0 && super::strides_match(ext.dims().as_ref(), strides.as_ref(), want.as_ref())).then_some(())
    }
    #[inline(always)]
    fn is_row_major_contiguous(_: &E, _: &()) -> bool {
        true
    }
}

impl<E: Extents> Layout<E> for ColMajor {
    type Mapping = ();

    #[inline(always)]
    fn strides(ext: &E, _: &()) -> E::Strides {
        let dims = ext.dims();
        let mut s = ext.zero_strides();
        super::arith::dense_strides(dims.as_ref().iter(), s.as_mut().iter_mut());
        s
    }
    #[inline(always)]
    fn offset(_: &()) -> usize {
        0
    }
    #[inline(always)]
    fn dense_mapping(_: &E) {}
    fn mapping_for(ext: &E, strides: &E::Strides, offset: usize) -> Option<()> {
        let want = Self::strides(ext, &());
        (offset == 0 && super::strides_match(ext.dims().as_ref(), strides.as_ref(), want.as_ref())).then_some(())
    }
}
