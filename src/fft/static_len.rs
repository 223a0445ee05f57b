//! The result extents of the FFTs along an axis named at compile time (`fft_axis::<I>`,
//! `rfft_axis::<I>`): a complex transform of every point keeps every extent, and `rfft`
//! turns a static extent `N` into `N/2 + 1` in the type.
//!
//! Stable Rust cannot write `Const<{N / 2 + 1}>`, so the half goes through typenum as the
//! other static shape rules do (`tile`'s products): static for `N` up to 1024 and for
//! powers of two (typenum's `U<N>`), a `Dyn` axis holding the right value when the result
//! passes 1024 (never for these inputs); a `Dyn` axis stays `Dyn`.

use core::ops::{Add, Div};

use typenum::{Quot, Sum, U1, U2};

use crate::extents::{Dim, Dyn, DynRank, Extents, StaticDim, ToDim};

/// An axis of `N` points and its `rfft`: `N/2 + 1` terms.
///
/// ```
/// use mdtensor::{fft::RfftDim, Const, Dyn};
/// let _: <Const<8> as RfftDim>::Output = Const::<5>;
/// let _: <Const<7> as RfftDim>::Output = Const::<4>;
/// let _: <Dyn as RfftDim>::Output = Dyn(3);
/// ```
#[diagnostic::on_unimplemented(
    message = "rfft: cannot compute `{Self}`/2 + 1 at compile time",
    label = "static halves cover `Const<N>` for N in 0..=1024 and powers of two; use a `Dyn` axis or `rfft` otherwise"
)]
pub trait RfftDim: Dim {
    /// The axis of the `N/2 + 1` terms.
    type Output: Dim;
}
impl<D: StaticDim> RfftDim for D
where
    D::U: Div<U2>,
    Quot<D::U, U2>: Add<U1>,
    Sum<Quot<D::U, U2>, U1>: ToDim,
{
    type Output = <Sum<Quot<D::U, U2>, U1> as ToDim>::Output;
}
impl RfftDim for Dyn {
    type Output = Dyn;
}

/// Extents whose axis `I` is replaced by its `rfft`'s `N/2 + 1` terms ([`RfftDim`]): the
/// extents of [`Tensor::rfft_axis`](crate::Tensor::rfft_axis).
///
/// ```
/// use mdtensor::{ext, fft::RfftAxis};
/// let _: <ext![3, 16] as RfftAxis<1>>::Output = <ext![3, 9]>::default();
/// ```
#[diagnostic::on_unimplemented(
    message = "rfft_axis::<{I}>: extents `{Self}` have no axis {I}, or its N/2 + 1 is not computable at compile time",
    label = "axis {I} must exist, and static halves cover extents up to 1024 and powers of two; `rfft` takes run-time axes"
)]
pub trait RfftAxis<const I: usize>: Extents {
    /// The extents of the result.
    type Output: Extents;
}
// One impl per rank and axis (not a blanket impl over `AxisAt`/`RemoveAxis`), so that a
// missing axis is one error in `rfft_axis`'s words.
macro_rules! rfft_axis {
    ($i:literal: $($pre:ident),*; $ax:ident; $($post:ident),*) => {
        impl<$($pre: Dim,)* $ax: RfftDim, $($post: Dim),*> RfftAxis<$i> for ($($pre,)* $ax, $($post,)*) {
            type Output = ($($pre,)* $ax::Output, $($post,)*);
        }
    };
}
rfft_axis!(0: ; D0; );
rfft_axis!(0: ; D0; D1);
rfft_axis!(1: D0; D1; );
rfft_axis!(0: ; D0; D1, D2);
rfft_axis!(1: D0; D1; D2);
rfft_axis!(2: D0, D1; D2; );
rfft_axis!(0: ; D0; D1, D2, D3);
rfft_axis!(1: D0; D1; D2, D3);
rfft_axis!(2: D0, D1; D2; D3);
rfft_axis!(3: D0, D1, D2; D3; );
rfft_axis!(0: ; D0; D1, D2, D3, D4);
rfft_axis!(1: D0; D1; D2, D3, D4);
rfft_axis!(2: D0, D1; D2; D3, D4);
rfft_axis!(3: D0, D1, D2; D3; D4);
rfft_axis!(4: D0, D1, D2, D3; D4; );
rfft_axis!(0: ; D0; D1, D2, D3, D4, D5);
rfft_axis!(1: D0; D1; D2, D3, D4, D5);
rfft_axis!(2: D0, D1; D2; D3, D4, D5);
rfft_axis!(3: D0, D1, D2; D3; D4, D5);
rfft_axis!(4: D0, D1, D2, D3; D4; D5);
rfft_axis!(5: D0, D1, D2, D3, D4; D5; );
impl<const I: usize> RfftAxis<I> for DynRank {
    type Output = DynRank;
}
