//! Strides fixed at compile time by a static slice.

use super::{Layout, RowMajor, StridePolicy, Strided};
use crate::extents::{Extents, StaticExtents};
use core::fmt;
use core::marker::PhantomData;

/// The per-axis steps of a static slice specification (see [`crate::view::Span`]).
pub trait SliceSteps: 'static {
    /// Step along `axis`.
    fn step(axis: usize) -> usize;
}

/// The stride policy of a static slice of a tensor whose extents are static and whose
/// policy `P` stores nothing (`RowMajor`, `ColMajor`, or another `StaticSliced`).
///
/// The strides are `P`'s strides for the parent extents `PE` times the steps of `Spec`:
/// all of it is in the type, nothing is stored, and the compiler folds the strides to
/// constants.
pub struct StaticSliced<P, PE, Spec>(PhantomData<fn() -> (P, PE, Spec)>);

impl<P, PE, Spec> Clone for StaticSliced<P, PE, Spec> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P, PE, Spec> Copy for StaticSliced<P, PE, Spec> {}
impl<P, PE, Spec> Default for StaticSliced<P, PE, Spec> {
    fn default() -> Self {
        StaticSliced(PhantomData)
    }
}
impl<P, PE, Spec> fmt::Debug for StaticSliced<P, PE, Spec> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(core::any::type_name::<Self>())
    }
}

impl<P: 'static, PE: 'static, Spec: 'static> StridePolicy for StaticSliced<P, PE, Spec> {
    const CONTIGUOUS: bool = false;
    const UNIQUE: bool = true;
    const NEGATIVE_STRIDES: bool = false;
    const NAME: &'static str = "StaticSliced";
    type Owned = RowMajor;
    type Transposed = Strided;
    type AxesChanged = Strided;
    type Order = super::AnyOrder;
}

impl<E, P, PE, Spec> Layout<E> for StaticSliced<P, PE, Spec>
where
    E: Extents,
    P: Layout<PE, Mapping = ()>,
    PE: StaticExtents,
    Spec: SliceSteps,
{
    type Mapping = ();

    #[inline(always)]
    fn strides(ext: &E, _: &()) -> E::Strides {
        let parent = P::strides(&PE::default(), &());
        let mut s = ext.zero_strides();
        for (axis, (o, &p)) in s.as_mut().iter_mut().zip(parent.as_ref()).enumerate() {
            *o = p * Spec::step(axis) as isize;
        }
        s
    }
    #[inline(always)]
    fn offset(_: &()) -> usize {
        0
    }
    fn dense_mapping(_: &E) {}
    fn mapping_for(ext: &E, strides: &E::Strides, offset: usize) -> Option<()> {
        let want = Self::strides(ext, &());
        (offset == 0 && super::strides_match(ext.dims().as_ref(), strides.as_ref(), want.as_ref())).then_some(())
    }
}
