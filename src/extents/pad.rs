//! The static rule of numpy's `pad` with widths known at compile time: axis `k` of
//! extent `D` padded by `Pad<B, A>` has extent `B + D + A`, computed in the type
//! ([`DimSum`]: static up to 1024, a [`Dyn`](super::Dyn) axis beyond, a `Dyn` axis stays
//! `Dyn`).

use super::join::DimSum;
use super::{Const, Extents};

/// `B` elements before and `A` after one axis: an entry of a static `pad` spec.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pad<const B: usize, const A: usize>;

/// One [`Pad`] per axis of `E`: the widths of a static `pad` and the padded extents.
#[diagnostic::on_unimplemented(
    message = "pad: `{Self}` is not one `Pad<B, A>` per axis of extents `{E}`",
    label = "give a tuple with one `Pad<before, after>` per axis (static sums cover extents up to 1024)"
)]
pub trait PadWidths<E: Extents> {
    /// The padded extents.
    type Output: Extents<Index = E::Index, Strides = E::Strides>;
    /// `(before, after)` per axis.
    const WIDTHS: &'static [(usize, usize)];
}

macro_rules! pad_widths {
    ($($D:ident $B:ident $A:ident),+) => {
        impl<$($D: DimSum<Const<$B>>, const $B: usize, const $A: usize,)+> PadWidths<($($D,)+)> for ($(Pad<$B, $A>,)+)
        where
            $(<$D as DimSum<Const<$B>>>::Output: DimSum<Const<$A>>,)+
        {
            type Output = ($(<<$D as DimSum<Const<$B>>>::Output as DimSum<Const<$A>>>::Output,)+);
            const WIDTHS: &'static [(usize, usize)] = &[$(($B, $A)),+];
        }
    };
}
pad_widths!(D0 BEFORE0 AFTER0);
pad_widths!(D0 BEFORE0 AFTER0, D1 BEFORE1 AFTER1);
pad_widths!(D0 BEFORE0 AFTER0, D1 BEFORE1 AFTER1, D2 BEFORE2 AFTER2);
pad_widths!(D0 BEFORE0 AFTER0, D1 BEFORE1 AFTER1, D2 BEFORE2 AFTER2, D3 BEFORE3 AFTER3);
pad_widths!(D0 BEFORE0 AFTER0, D1 BEFORE1 AFTER1, D2 BEFORE2 AFTER2, D3 BEFORE3 AFTER3, D4 BEFORE4 AFTER4);
pad_widths!(D0 BEFORE0 AFTER0, D1 BEFORE1 AFTER1, D2 BEFORE2 AFTER2, D3 BEFORE3 AFTER3, D4 BEFORE4 AFTER4, D5 BEFORE5 AFTER5);
