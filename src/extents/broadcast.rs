//! The broadcasting rule (numpy's), written once for every storage and operation.
//!
//! Axes are aligned from the right; a source axis of extent 1 stretches to any extent
//! (stride 0), otherwise the extents must be equal; missing leading source axes are
//! added with stride 0. With static extents the rule is checked by the type
//! ([`BroadcastTo`], [`BroadcastDim`]); dynamic axes are checked at run time.

use super::{Const, Dim, Dyn, DynRank, Extents, StaticDim};
use crate::error::ShapeError;
use typenum::{Eq, IsEqual, B0, B1, U1};

/// An axis of extent `Self` may broadcast to an axis of extent `Target`.
#[diagnostic::on_unimplemented(
    message = "cannot broadcast extent `{Self}` to `{Target}`",
    label = "the extents differ and the source is not 1"
)]
pub trait BroadcastDim<Target: Dim>: Dim {}

/// Dispatch on whether a static source extent is 1 (`IsOne = B1`), which avoids the
/// overlap of `Const<1> → any` with `Const<N> → Const<N>`.
#[diagnostic::on_unimplemented(
    message = "cannot broadcast extent `{Self}` to `{Target}`: they differ and the source is not 1",
    label = "incompatible extents"
)]
#[doc(hidden)]
pub trait BroadcastDimBit<Target, IsOne> {}

impl<const N: usize, Target: Dim> BroadcastDim<Target> for Const<N>
where
    Const<N>: StaticDim,
    <Const<N> as StaticDim>::U: IsEqual<U1>,
    Const<N>: BroadcastDimBit<Target, Eq<<Const<N> as StaticDim>::U, U1>>,
{
}
impl<Target: Dim> BroadcastDim<Target> for Dyn {}

impl<const N: usize, Target: Dim> BroadcastDimBit<Target, B1> for Const<N> {}
impl<const N: usize> BroadcastDimBit<Const<N>, B0> for Const<N> {}
impl<const N: usize> BroadcastDimBit<Dyn, B0> for Const<N> {}

/// Extents `Self` may broadcast to extents `Target` (rank may grow, never shrink).
#[diagnostic::on_unimplemented(
    message = "cannot broadcast extents `{Self}` to `{Target}`",
    label = "broadcasting cannot remove axes: the target needs at least as many axes"
)]
pub trait BroadcastTo<Target: Extents>: Extents {}

macro_rules! broadcast_to {
    ([$($S:ident)*] => [$($T:ident)*]; $($s:ident : $t:ident)*) => {
        impl<$($S: Dim,)* $($T: Dim),*> BroadcastTo<($($T,)*)> for ($($S,)*)
        where
            $($s: BroadcastDim<$t>,)*
        {
        }
    };
}
include!("broadcast_table.rs");

impl<Target: Extents> BroadcastTo<Target> for DynRank {}
macro_rules! to_dyn_rank {
    ($($S:ident)*) => {
        impl<$($S: Dim),*> BroadcastTo<DynRank> for ($($S,)*) {}
    };
}
to_dyn_rank!();
to_dyn_rank!(A);
to_dyn_rank!(A B);
to_dyn_rank!(A B C);
to_dyn_rank!(A B C D);
to_dyn_rank!(A B C D F);
to_dyn_rank!(A B C D F G);

/// Strides that view a source (`dims`, `strides`) as the target extents: the run-time half
/// of the rule, also the only half for dynamic extents.
pub(crate) fn broadcast_strides(
    op: &'static str,
    dims: &[usize],
    strides: &[isize],
    target: &[usize],
    out: &mut [isize],
) -> Result<(), ShapeError> {
    let incompatible =
        |reason: String| ShapeError::Incompatible { op, lhs: dims.to_vec(), rhs: target.to_vec(), reason };
    if dims.len() > target.len() {
        return Err(incompatible(format!(
            "the target has {} axes, fewer than the source's {}",
            target.len(),
            dims.len()
        )));
    }
    let lead = target.len() - dims.len();
    for (k, (o, &t)) in out.iter_mut().zip(target).enumerate() {
        *o = if k < lead {
            0
        } else {
            let (d, s) = (dims[k - lead], strides[k - lead]);
            if d == t {
                s
            } else if d == 1 {
                0
            } else {
                return Err(incompatible(format!("axis {k}: extent {d} cannot stretch to {t}")));
            }
        };
    }
    Ok(())
}

/// The broadcast shape of two shapes (numpy's `broadcast_shapes`).
///
/// ```
/// assert_eq!(mdtensor::broadcast_shapes(&[4, 1, 3], &[5, 1]).unwrap(), [4, 5, 3]);
/// assert!(mdtensor::broadcast_shapes(&[2, 3], &[4]).is_err());
/// ```
pub fn broadcast_shapes(a: &[usize], b: &[usize]) -> Result<Vec<usize>, ShapeError> {
    let mut out = vec![0; a.len().max(b.len())];
    broadcast_shapes_into(a, b, &mut out)?;
    Ok(out)
}

/// [`broadcast_shapes`] into a buffer of length `max(a.len(), b.len())`.
#[inline]
pub(crate) fn broadcast_shapes_into(a: &[usize], b: &[usize], out: &mut [usize]) -> Result<(), ShapeError> {
    let r = out.len();
    let at = |s: &[usize], k: usize| if k + s.len() >= r { s[k + s.len() - r] } else { 1 };
    for (k, o) in out.iter_mut().enumerate() {
        *o = match (at(a, k), at(b, k)) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            (x, y) => {
                return Err(ShapeError::Incompatible {
                    op: "broadcast",
                    lhs: a.to_vec(),
                    rhs: b.to_vec(),
                    reason: format!("axis {k}: extents {x} and {y} differ and neither is 1"),
                })
            }
        };
    }
    Ok(())
}

/// The broadcast of two dims: the extent of a result axis of a binary operation.
///
/// `Const<N>` with `Const<N>`, `Const<1>` with anything, and anything with `Dyn` resolve in
/// the type; two different static extents, neither 1, do not compile.
#[diagnostic::on_unimplemented(
    message = "cannot broadcast extents `{Self}` and `{Rhs}` together",
    label = "they differ and neither is 1"
)]
pub trait DimBroadcast<Rhs: Dim>: Dim {
    /// The result axis.
    type Output: Dim;
}

/// Dispatch helpers: is the left (`L1`) or the right (`R1`) static extent 1?
#[doc(hidden)]
pub trait DimBroadcastLeftOne<Rhs, L1> {
    type Output: Dim;
}
#[doc(hidden)]
pub trait DimBroadcastRightOne<Rhs, R1> {
    type Output: Dim;
}

/// Two static extents, neither 1, must be equal.
#[diagnostic::on_unimplemented(
    message = "cannot broadcast extents `{Self}` and `{Rhs}` together: they differ and neither is 1",
    label = "incompatible extents"
)]
#[doc(hidden)]
pub trait SameExtent<Rhs> {}
impl<const N: usize> SameExtent<Const<N>> for Const<N> {}

type IsOne<const N: usize> = Eq<<Const<N> as StaticDim>::U, U1>;

impl<const A: usize, R: Dim> DimBroadcast<R> for Const<A>
where
    Const<A>: StaticDim,
    <Const<A> as StaticDim>::U: IsEqual<U1>,
    Const<A>: DimBroadcastLeftOne<R, IsOne<A>>,
{
    type Output = <Const<A> as DimBroadcastLeftOne<R, IsOne<A>>>::Output;
}
// Left is 1: the result is the right axis, whatever it is.
impl<const A: usize, R: Dim> DimBroadcastLeftOne<R, B1> for Const<A> {
    type Output = R;
}
// Left is a static N != 1: against Dyn it stays N (checked at run time).
impl<const A: usize> DimBroadcastLeftOne<Dyn, B0> for Const<A> {
    type Output = Const<A>;
}
impl<const A: usize, const B: usize> DimBroadcastLeftOne<Const<B>, B0> for Const<A>
where
    Const<B>: StaticDim,
    <Const<B> as StaticDim>::U: IsEqual<U1>,
    Const<A>: DimBroadcastRightOne<Const<B>, IsOne<B>>,
{
    type Output = <Const<A> as DimBroadcastRightOne<Const<B>, IsOne<B>>>::Output;
}
impl<const A: usize, const B: usize> DimBroadcastRightOne<Const<B>, B1> for Const<A> {
    type Output = Const<A>;
}
impl<const A: usize, const B: usize> DimBroadcastRightOne<Const<B>, B0> for Const<A>
where
    Const<A>: SameExtent<Const<B>>,
{
    type Output = Const<A>;
}
impl DimBroadcast<Dyn> for Dyn {
    type Output = Dyn;
}
impl<const B: usize> DimBroadcast<Const<B>> for Dyn
where
    Const<B>: StaticDim,
    <Const<B> as StaticDim>::U: IsEqual<U1>,
    Dyn: DimBroadcastRightOne<Const<B>, IsOne<B>>,
{
    type Output = <Dyn as DimBroadcastRightOne<Const<B>, IsOne<B>>>::Output;
}
impl<const B: usize> DimBroadcastRightOne<Const<B>, B1> for Dyn {
    type Output = Dyn;
}
impl<const B: usize> DimBroadcastRightOne<Const<B>, B0> for Dyn {
    type Output = Const<B>;
}

/// The extents of the result of a binary operation between `Self` and `Rhs`.
#[diagnostic::on_unimplemented(
    message = "cannot broadcast extents `{Self}` and `{Rhs}` together",
    label = "numpy's rule: align axes from the right; each pair must be equal or contain a 1"
)]
pub trait BroadcastWith<Rhs: Extents>: Extents {
    /// The result extents.
    type Output: Extents;
}

macro_rules! broadcast_with {
    ([$($L:ident)*] [$($R:ident)*]; lead [$($lead:ident)*]; pairs [$($a:ident : $b:ident)*]) => {
        impl<$($L: Dim,)* $($R: Dim),*> BroadcastWith<($($R,)*)> for ($($L,)*)
        where
            $($a: DimBroadcast<$b>,)*
        {
            type Output = ($($lead,)* $(<$a as DimBroadcast<$b>>::Output,)*);
        }
    };
}
include!("broadcast_pair_table.rs");

impl<Rhs: Extents> BroadcastWith<Rhs> for DynRank {
    type Output = DynRank;
}
macro_rules! with_dyn_rank {
    ($($S:ident)*) => {
        impl<$($S: Dim),*> BroadcastWith<DynRank> for ($($S,)*) {
            type Output = DynRank;
        }
    };
}
with_dyn_rank!();
with_dyn_rank!(A);
with_dyn_rank!(A B);
with_dyn_rank!(A B C);
with_dyn_rank!(A B C D);
with_dyn_rank!(A B C D F);
with_dyn_rank!(A B C D F G);
