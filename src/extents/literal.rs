//! The extents of a tensor literal (`tensor![…]`): an axis of literal length 1 is
//! [`One`], as `ext![1]` spells it, every other axis `Const<N>`.
//!
//! Array lengths reach the type as const generics, where stable Rust cannot single out
//! `N = 1`; the macro sees the tokens, though, so it marks each axis ([`UnitAxis`] where
//! the literal has one entry, [`KeepAxis`] elsewhere) and [`LiteralExtents`] maps the
//! nested array's `Const` extents through the marks.

use super::{Const, Dim, Extents, One};

/// Mark of an axis whose literal length is 1: it becomes [`One`].
#[derive(Clone, Copy, Debug, Default)]
pub struct UnitAxis;
/// Mark of an axis that keeps its `Const<N>`.
#[derive(Clone, Copy, Debug, Default)]
pub struct KeepAxis;

/// One axis of a literal under its mark.
pub trait LiteralAxis<Mark> {
    /// The axis type in the literal's extents.
    type Output: Dim;
}
impl<const N: usize> LiteralAxis<KeepAxis> for Const<N> {
    type Output = Const<N>;
}
impl LiteralAxis<UnitAxis> for Const<1> {
    type Output = One;
}

/// The extents of a nested array under the marks `Marks` of its leading axes (axes past
/// the marks keep their `Const<N>`: a row given as an array variable has no tokens to
/// read).
///
/// ```
/// use mdtensor::extents::{KeepAxis, LiteralExtents, UnitAxis};
/// use mdtensor::{ext, Const};
/// let _: <(Const<1>, Const<3>) as LiteralExtents<(UnitAxis, KeepAxis)>>::Output = ext![1, 3];
/// let _: <(Const<2>, Const<3>) as LiteralExtents<(KeepAxis,)>>::Output = ext![2, 3];
/// ```
pub trait LiteralExtents<Marks>: Extents {
    /// The literal's extents.
    type Output: Extents + Default;
}

macro_rules! literal_extents {
    ([$($A:ident $M:ident),*] [$($B:ident),*]) => {
        impl<$($A: LiteralAxis<$M>, $M,)* $($B: Dim + Default,)*> LiteralExtents<($($M,)*)> for ($($A,)* $($B,)*)
        where
            ($($A,)* $($B,)*): Extents,
            ($($A::Output,)* $($B,)*): Extents + Default,
        {
            type Output = ($($A::Output,)* $($B,)*);
        }
    };
}
literal_extents!([A0 M0] []);
literal_extents!([A0 M0] [B1]);
literal_extents!([A0 M0, A1 M1] []);
literal_extents!([A0 M0] [B1, B2]);
literal_extents!([A0 M0, A1 M1] [B2]);
literal_extents!([A0 M0, A1 M1, A2 M2] []);
literal_extents!([A0 M0] [B1, B2, B3]);
literal_extents!([A0 M0, A1 M1] [B2, B3]);
literal_extents!([A0 M0, A1 M1, A2 M2] [B3]);
literal_extents!([A0 M0, A1 M1, A2 M2, A3 M3] []);
