//! The shape rule of concatenation along axis `I`, written once on extents: the axis `I`
//! of the result is the sum of the operands' (`Const<2> + Const<4>` is `Const<6>`), every
//! other axis must agree (a static mismatch does not compile).
//!
//! With a [`DynRank`] operand on either side the result has dynamic rank, checked at run
//! time.
//!
//! Sums of static axes go through typenum (see [`super::static_arith`]): up to 1024 the
//! result is `Const<N>`, above it a `Dyn` axis holding the right value.

use super::static_arith::{StaticDim, ToDim};
use super::{Const, Dim, Dyn, DynRank, Extents, One};
use crate::error::ShapeError;

/// An axis that is not joined: the operands' extents must agree.
#[diagnostic::on_unimplemented(
    message = "concatenate: extents `{Self}` and `{Rhs}` differ on an axis that is not joined",
    label = "every axis but the joined one must have the same extent in both operands"
)]
pub trait JoinDim<Rhs: Dim>: Dim {
    /// The result axis (static when either operand is).
    type Output: Dim;
    /// The common extent, `None` when run-time extents differ.
    fn join(self, rhs: Rhs) -> Option<Self::Output>;
}
impl<const N: usize> JoinDim<Const<N>> for Const<N> {
    type Output = Const<N>;
    fn join(self, _: Const<N>) -> Option<Const<N>> {
        Some(Const)
    }
}
impl<const N: usize> JoinDim<Dyn> for Const<N> {
    type Output = Const<N>;
    fn join(self, rhs: Dyn) -> Option<Const<N>> {
        Const::from_size(rhs.0)
    }
}
impl<const N: usize> JoinDim<Const<N>> for Dyn {
    type Output = Const<N>;
    fn join(self, _: Const<N>) -> Option<Const<N>> {
        Const::from_size(self.0)
    }
}
impl JoinDim<Dyn> for Dyn {
    type Output = Dyn;
    fn join(self, rhs: Dyn) -> Option<Dyn> {
        (self == rhs).then_some(self)
    }
}

// `One` (a static extent of 1 that stretches elsewhere) joins as the extent 1.
impl JoinDim<One> for One {
    type Output = One;
    fn join(self, _: One) -> Option<One> {
        Some(One)
    }
}
impl JoinDim<Dyn> for One {
    type Output = One;
    fn join(self, rhs: Dyn) -> Option<One> {
        One::from_size(rhs.0)
    }
}
impl JoinDim<One> for Dyn {
    type Output = One;
    fn join(self, _: One) -> Option<One> {
        One::from_size(self.0)
    }
}
impl JoinDim<Const<1>> for One {
    type Output = One;
    fn join(self, _: Const<1>) -> Option<One> {
        Some(One)
    }
}
impl JoinDim<One> for Const<1> {
    type Output = One;
    fn join(self, _: One) -> Option<One> {
        Some(One)
    }
}

/// The joined axis: the sum of the operands' extents.
#[diagnostic::on_unimplemented(
    message = "concatenate: cannot add extents `{Self}` and `{Rhs}` at compile time",
    label = "static sums cover `Const<N>` for N in 0..=1024; use a `Dyn` axis otherwise"
)]
pub trait DimSum<Rhs: Dim>: Dim {
    /// The summed axis.
    type Output: Dim;
    /// The sum, `None` when it overflows `usize`.
    fn sum(self, rhs: Rhs) -> Option<Self::Output>;
}
impl<const A: usize, const B: usize> DimSum<Const<B>> for Const<A>
where
    Const<A>: StaticDim,
    Const<B>: StaticDim,
    <Const<A> as StaticDim>::U: core::ops::Add<<Const<B> as StaticDim>::U>,
    typenum::Sum<<Const<A> as StaticDim>::U, <Const<B> as StaticDim>::U>: ToDim,
{
    type Output = <typenum::Sum<<Const<A> as StaticDim>::U, <Const<B> as StaticDim>::U> as ToDim>::Output;
    fn sum(self, _: Const<B>) -> Option<Self::Output> {
        Self::Output::from_size(A + B)
    }
}
impl<const A: usize> DimSum<Dyn> for Const<A> {
    type Output = Dyn;
    fn sum(self, rhs: Dyn) -> Option<Dyn> {
        A.checked_add(rhs.0).map(Dyn)
    }
}
impl<const B: usize> DimSum<Const<B>> for Dyn {
    type Output = Dyn;
    fn sum(self, _: Const<B>) -> Option<Dyn> {
        self.0.checked_add(B).map(Dyn)
    }
}
impl DimSum<Dyn> for Dyn {
    type Output = Dyn;
    fn sum(self, rhs: Dyn) -> Option<Dyn> {
        self.0.checked_add(rhs.0).map(Dyn)
    }
}

impl<const B: usize> DimSum<Const<B>> for One
where
    Const<B>: StaticDim,
    typenum::U1: core::ops::Add<<Const<B> as StaticDim>::U>,
    typenum::Sum<typenum::U1, <Const<B> as StaticDim>::U>: ToDim,
{
    type Output = <typenum::Sum<typenum::U1, <Const<B> as StaticDim>::U> as ToDim>::Output;
    fn sum(self, _: Const<B>) -> Option<Self::Output> {
        Self::Output::from_size(1 + B)
    }
}
impl<const A: usize> DimSum<One> for Const<A>
where
    Const<A>: StaticDim,
    <Const<A> as StaticDim>::U: core::ops::Add<typenum::U1>,
    typenum::Sum<<Const<A> as StaticDim>::U, typenum::U1>: ToDim,
{
    type Output = <typenum::Sum<<Const<A> as StaticDim>::U, typenum::U1> as ToDim>::Output;
    fn sum(self, _: One) -> Option<Self::Output> {
        Self::Output::from_size(A + 1)
    }
}
impl DimSum<One> for One {
    type Output = Const<2>;
    fn sum(self, _: One) -> Option<Const<2>> {
        Some(Const)
    }
}
impl DimSum<Dyn> for One {
    type Output = Dyn;
    fn sum(self, rhs: Dyn) -> Option<Dyn> {
        rhs.0.checked_add(1).map(Dyn)
    }
}
impl DimSum<One> for Dyn {
    type Output = Dyn;
    fn sum(self, _: One) -> Option<Dyn> {
        self.0.checked_add(1).map(Dyn)
    }
}

/// Extents `Self` and `Rhs` joined along axis `I`: the result of `concatenate`.
#[diagnostic::on_unimplemented(
    message = "concatenate along axis {I}: extents `{Self}` and `{Rhs}` cannot be joined",
    label = "both operands need the same rank, and axis {I} must exist",
    note = "axes are numbered from 0; a tensor of rank R has axes 0 to R-1",
    note = "in generic code, state the rule as a bound: `E: mdtensor::extents::ConcatAlong<{I}, E>` for two operands of extents `E` (its `Output` is the joined extents)"
)]
pub trait ConcatAlong<const I: usize, Rhs: Extents>: Extents {
    /// The joined extents.
    type Output: Extents;
    /// The joined extents, or why run-time extents do not fit.
    fn concat_along(&self, rhs: &Rhs) -> Result<Self::Output, ShapeError>;
}

/// The error of a failed join on axis `k` (`I` is the joined axis).
fn join_error(i: usize, k: usize, lhs: Vec<usize>, rhs: Vec<usize>) -> ShapeError {
    let reason = if k == i {
        format!("the joined axis {i} overflows usize")
    } else {
        format!("axis {k} differs and only axis {i} is joined")
    };
    ShapeError::Incompatible { op: "concatenate", lhs, rhs, reason }
}

macro_rules! concat_along {
    ($i:literal; $([$k:tt $A:ident $B:ident $how:ident $f:ident])*) => {
        impl<$($A: Dim, $B: Dim),*> ConcatAlong<$i, ($($B,)*)> for ($($A,)*)
        where
            $($A: $how<$B>,)*
        {
            type Output = ($(<$A as $how<$B>>::Output,)*);
            fn concat_along(&self, rhs: &($($B,)*)) -> Result<Self::Output, ShapeError> {
                let err = |k: usize| join_error($i, k, self.dims().to_vec(), rhs.dims().to_vec());
                Ok(($(self.$k.$f(rhs.$k).ok_or_else(|| err($k))?,)*))
            }
        }
        // Not suggested in messages: a static mistake is about the tuple impl above.
        #[diagnostic::do_not_recommend]
        impl<$($A: Dim),*> ConcatAlong<$i, DynRank> for ($($A,)*) {
            type Output = DynRank;
            fn concat_along(&self, rhs: &DynRank) -> Result<DynRank, ShapeError> {
                dyn_rank_join($i, self.dims().as_ref(), rhs.as_slice())
            }
        }
        #[diagnostic::do_not_recommend]
        impl<$($A: Dim),*> ConcatAlong<$i, ($($A,)*)> for DynRank {
            type Output = DynRank;
            fn concat_along(&self, rhs: &($($A,)*)) -> Result<DynRank, ShapeError> {
                dyn_rank_join($i, self.as_slice(), rhs.dims().as_ref())
            }
        }
    };
}
include!("join_table.rs");

/// Never implemented: the condition of the hidden `ConcatAlong` impls below, which exist
/// only so that a wrong static axis is reported once, with both operands' extents.
///
/// Without them, `a.concatenate::<2, _>(&b)` on matrices has no candidate impl at all
/// while `b`'s type is still being inferred, so rustc reports the failure at once (showing
/// `_` for the right operand) and again for the return type. Two impls per rank for
/// right operands of other ranks, under this never-met condition, keep the question open
/// until both types are known; then exactly one error names both.
#[doc(hidden)]
pub trait Unjoinable {}

macro_rules! concat_never {
    ([$($A:ident)*] [$P0:ident $($P:ident)*]) => {
        #[diagnostic::do_not_recommend]
        impl<const I: usize, $($A: Dim,)* $P0: Dim $(, $P: Dim)*> ConcatAlong<I, ($P0, $($P,)*)> for ($($A,)*)
        where
            $P0: Unjoinable,
        {
            type Output = DynRank;
            fn concat_along(&self, rhs: &($P0, $($P,)*)) -> Result<DynRank, ShapeError> {
                joined_dims(I, self.dims().as_ref(), rhs.dims().as_ref()).map(DynRank::new)
            }
        }
    };
    ($lhs:tt $($rhs:tt)*) => {$(concat_never!($lhs $rhs);)*};
}
concat_never!([] [P] [P Q]);
concat_never!([A] [P Q] [P Q R]);
concat_never!([A B] [P] [P Q R]);
concat_never!([A B C] [P] [P Q]);
concat_never!([A B C D] [P] [P Q]);
concat_never!([A B C D F] [P] [P Q]);
concat_never!([A B C D F G] [P] [P Q]);

impl<const I: usize> ConcatAlong<I, DynRank> for DynRank {
    type Output = DynRank;
    fn concat_along(&self, rhs: &DynRank) -> Result<DynRank, ShapeError> {
        dyn_rank_join(I, self.as_slice(), rhs.as_slice())
    }
}

/// A dynamic-rank operand on either side makes the result dynamic-rank, checked at run time.
fn dyn_rank_join(axis: usize, l: &[usize], r: &[usize]) -> Result<DynRank, ShapeError> {
    if axis >= l.len() {
        return Err(ShapeError::AxisOutOfRange { op: "concatenate", axis, rank: l.len() });
    }
    joined_dims(axis, l, r).map(DynRank::new)
}

/// numpy's concatenation rule on run-time extents: same rank, equal extents off axis
/// `axis`, summed extents on it. `axis` must be below the rank of `l`.
pub(crate) fn joined_dims(axis: usize, l: &[usize], r: &[usize]) -> Result<Vec<usize>, ShapeError> {
    if l.len() != r.len() {
        return Err(ShapeError::Incompatible {
            op: "concatenate",
            lhs: l.to_vec(),
            rhs: r.to_vec(),
            reason: format!("ranks {} and {} differ", l.len(), r.len()),
        });
    }
    let mut out = l.to_vec();
    for k in 0..l.len() {
        if k == axis {
            out[k] = l[k].checked_add(r[k]).ok_or_else(|| join_error(axis, k, l.to_vec(), r.to_vec()))?;
        } else if l[k] != r[k] {
            return Err(join_error(axis, k, l.to_vec(), r.to_vec()));
        }
    }
    Ok(out)
}
