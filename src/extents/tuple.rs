//! [`Extents`] for tuples of [`Dim`]s, rank 0 to 6.

use super::{Dim, Dyn, Extents, StaticBit};
use crate::error::ShapeError;

macro_rules! tuple_extents {
    ($rank:literal; $($D:ident $i:tt),*) => {
        impl<$($D: Dim),*> Extents for ($($D,)*) {
            const RANK: Option<usize> = Some($rank);
            const ALL_STATIC: bool = true $(&& $D::STATIC.is_some())*;
            const STATIC_NUMEL: Option<usize> = {
                #[allow(unused_mut)]
                let mut n = Some(1usize);
                $(
                    n = match (n, $D::STATIC) {
                        (Some(a), Some(b)) => Some(a.saturating_mul(b)),
                        _ => None,
                    };
                )*
                n
            };
            type Index = [usize; $rank];
            type Strides = [isize; $rank];
            type Dynamic = tuple_extents!(@dyn $($D)*);
            type IsStatic = tuple_extents!(@bit $($D)*);

            #[inline(always)]
            fn rank(&self) -> usize {
                $rank
            }
            #[inline(always)]
            fn extent(&self, axis: usize) -> usize {
                self.dims()[axis]
            }
            #[inline(always)]
            fn dims(&self) -> [usize; $rank] {
                [$(self.$i.size()),*]
            }
            fn static_pattern(&self) -> Vec<Option<usize>> {
                vec![$($D::STATIC),*]
            }
            #[inline]
            fn from_dims(dims: &[usize]) -> Result<Self, ShapeError> {
                if dims.len() != $rank {
                    return Err(ShapeError::RankMismatch { op: "extents", expected: $rank, found: dims.len() });
                }
                #[allow(unused_variables)]
                let mismatch = || ShapeError::StaticMismatch {
                    op: "extents",
                    expected: vec![$($D::STATIC),*],
                    found: dims.to_vec(),
                };
                Ok(($($D::from_size(dims[$i]).ok_or_else(mismatch)?,)*))
            }
            #[inline]
            #[allow(clippy::unused_unit)]
            fn to_dynamic(&self) -> Self::Dynamic {
                ($(Dyn(self.$i.size()),)*)
            }
            #[inline(always)]
            fn zero_index(&self) -> [usize; $rank] {
                [0; $rank]
            }
            #[inline(always)]
            fn zero_strides(&self) -> [isize; $rank] {
                [0; $rank]
            }
        }
    };
    (@dyn $($D:ident)*) => { ($(tuple_extents!(@one $D),)*) };
    (@one $D:ident) => { Dyn };
    (@bit) => { typenum::B1 };
    (@bit $D:ident $($R:ident)*) => { <$D::IsStatic as StaticBit>::And<tuple_extents!(@bit $($R)*)> };
}

tuple_extents!(0;);
tuple_extents!(1; A 0);
tuple_extents!(2; A 0, B 1);
tuple_extents!(3; A 0, B 1, C 2);
tuple_extents!(4; A 0, B 1, C 2, D 3);
tuple_extents!(5; A 0, B 1, C 2, D 3, F 4);
tuple_extents!(6; A 0, B 1, C 2, D 3, F 4, G 5);
