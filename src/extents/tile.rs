//! The static rule of numpy's `tile` with counts known at compile time: axis `k` of
//! extent `D` repeated `Rep<R>` times has extent `D·R`, computed in the type ([`DimProd`]:
//! static up to 1024, a [`Dyn`] axis beyond; a `Dyn` axis stays `Dyn`).

use super::static_arith::{StaticDim, ToDim};
use super::{AxisAt, Const, Dim, Dyn, Extents, InsertAxis, RemoveAxis};

/// An axis times a static count.
#[diagnostic::on_unimplemented(
    message = "tile: cannot multiply extent `{Self}` by `{Rhs}` at compile time",
    label = "static products cover `Const<N>` for N in 0..=1024; use a `Dyn` axis or `tile_dyn` otherwise"
)]
pub trait DimProd<Rhs: Dim>: Dim {
    /// The product axis.
    type Output: Dim;
}
impl<D: StaticDim, const R: usize> DimProd<Const<R>> for D
where
    Const<R>: StaticDim,
    D::U: core::ops::Mul<<Const<R> as StaticDim>::U>,
    typenum::Prod<D::U, <Const<R> as StaticDim>::U>: ToDim,
{
    type Output = <typenum::Prod<D::U, <Const<R> as StaticDim>::U> as ToDim>::Output;
}
impl<const R: usize> DimProd<Const<R>> for Dyn {
    type Output = Dyn;
}

/// `R` copies along one axis: an entry of a static `tile` spec.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rep<const R: usize>;

/// One [`Rep`] per axis of `E`: the counts of a static `tile` and the tiled extents.
#[diagnostic::on_unimplemented(
    message = "tile: `{Self}` is not one `Rep<R>` per axis of extents `{E}`",
    label = "give a tuple with one `Rep<count>` per axis; `tile_dyn` takes other ranks, as numpy's `tile`"
)]
pub trait TileReps<E: Extents> {
    /// The tiled extents.
    type Output: Extents<Index = E::Index, Strides = E::Strides>;
    /// The count per axis.
    const REPS: &'static [usize];
}

macro_rules! tile_reps {
    ($($D:ident $R:ident),+) => {
        impl<$($D: DimProd<Const<$R>>, const $R: usize,)+> TileReps<($($D,)+)> for ($(Rep<$R>,)+) {
            type Output = ($(<$D as DimProd<Const<$R>>>::Output,)+);
            const REPS: &'static [usize] = &[$($R),+];
        }
    };
}
tile_reps!(D0 R0);
tile_reps!(D0 R0, D1 R1);
tile_reps!(D0 R0, D1 R1, D2 R2);
tile_reps!(D0 R0, D1 R1, D2 R2, D3 R3);
tile_reps!(D0 R0, D1 R1, D2 R2, D3 R3, D4 R4);
tile_reps!(D0 R0, D1 R1, D2 R2, D3 R3, D4 R4, D5 R5);

/// Extents whose axis `I` is repeated `C` times element by element: the static rule of
/// numpy's `repeat(a, C, axis=I)`, the axis' extent multiplied in the type ([`DimProd`]).
#[diagnostic::on_unimplemented(
    message = "repeat::<{C}, {I}>: extents `{Self}` have no axis {I}, or its extent times {C} is not computable at compile time",
    label = "axis {I} must exist and static products cover extents up to 1024; `repeat_dyn` takes run-time counts and axes"
)]
pub trait RepeatAxis<const I: usize, const C: usize>: Extents {
    /// The extents with axis `I` `C` times as long.
    type Output: Extents;
}
impl<E, const I: usize, const C: usize> RepeatAxis<I, C> for E
where
    E: AxisAt<I> + RemoveAxis<I>,
    <E as AxisAt<I>>::Dim: DimProd<Const<C>>,
    <E as RemoveAxis<I>>::Output: InsertAxis<I, <<E as AxisAt<I>>::Dim as DimProd<Const<C>>>::Output>,
{
    type Output =
        <<E as RemoveAxis<I>>::Output as InsertAxis<I, <<E as AxisAt<I>>::Dim as DimProd<Const<C>>>::Output>>::Output;
}
