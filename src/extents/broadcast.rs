//! The broadcasting rule (numpy's), written once for every storage and operation.
//!
//! Axes are aligned from the right; a source axis of extent 1 stretches to any extent
//! (stride 0), otherwise the extents must be equal; missing leading source axes are
//! added with stride 0. With static extents the rule is checked by the type
//! ([`BroadcastTo`], [`BroadcastDim`]); dynamic axes are checked at run time.

use super::{Const, Dim, Dyn, DynRank, Extents, One};
use crate::error::ShapeError;

/// An axis of extent `Self` may broadcast to an axis of extent `Target`: equal static
/// extents, [`One`] to anything, anything to or from `Dyn` (checked at run time).
#[diagnostic::on_unimplemented(
    message = "cannot broadcast extent `{Self}` to `{Target}`: they differ and the source is not 1",
    label = "incompatible extents",
    note = "only an axis of type `One` (spelled `1` in `ext!`, made by `keepdims`, `unsqueeze` or `NewAxis`) stretches; a `Const<1>` from a const generic or an array length does not"
)]
pub trait BroadcastDim<Target: Dim>: Dim {}

impl<const N: usize> BroadcastDim<Const<N>> for Const<N> {}
impl<const N: usize> BroadcastDim<Dyn> for Const<N> {}
impl BroadcastDim<One> for Const<1> {}
impl<Target: Dim> BroadcastDim<Target> for One {}
impl<Target: Dim> BroadcastDim<Target> for Dyn {}

/// Extents `Self` may broadcast to extents `Target` (rank may grow, never shrink).
#[diagnostic::on_unimplemented(
    message = "cannot broadcast extents `{Self}` to `{Target}`",
    label = "aligned from the right, each axis must equal the target's or be 1, and the target needs at least as many axes",
    note = "only an axis of type `One` (spelled `1` in `ext!`, made by `keepdims`, `unsqueeze` or `NewAxis`) stretches; a `Const<1>` from a const generic or an array length does not"
)]
pub trait BroadcastTo<Target: Extents>: Extents {}

macro_rules! broadcast_to {
    ([$($S:ident)*] => [$($T:ident)*]; $($s:ident : $t:ident)*) => {
        // Reported as a whole (both extents in one headline), not once per failing axis.
        #[diagnostic::do_not_recommend]
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

// The binary rule comes in two halves. `CanBroadcast`/`CanBroadcastDim` are the check:
// strict, with the messages, and the bound of every operator. `BroadcastWith`/
// `DimBroadcast` compute the result's extents and are total (two static extents give the
// left one, which the check has made equal): an expression whose operator failed the check
// is still a well-formed `Expr`, so the mistake is reported once, at the operator, and not
// again at the `.eval()` that follows.

/// Two axes may broadcast together: equal static extents, [`One`] with anything, anything
/// with `Dyn` (checked at run time). Equality needs no typenum, so `Const<N>` with
/// `Const<N>` holds for a generic `N`.
///
/// Not a subtrait of [`Dim`]: `Dim` has `CanBroadcastDim<Self>` as a supertrait.
#[diagnostic::on_unimplemented(
    message = "cannot broadcast extents `{Self}` and `{Rhs}` together: they differ and neither is 1",
    label = "incompatible extents",
    note = "only an axis of type `One` (spelled `1` in `ext!`, made by `keepdims`, `unsqueeze` or `NewAxis`) stretches; a `Const<1>` from a const generic or an array length does not"
)]
pub trait CanBroadcastDim<Rhs>: DimBroadcast<Rhs> {}
impl<const N: usize> CanBroadcastDim<Const<N>> for Const<N> {}
impl<const N: usize> CanBroadcastDim<Dyn> for Const<N> {}
impl<const N: usize> CanBroadcastDim<Const<N>> for Dyn {}
impl<const N: usize> CanBroadcastDim<One> for Const<N> {}
impl<const N: usize> CanBroadcastDim<Const<N>> for One {}
impl CanBroadcastDim<Dyn> for Dyn {}
impl CanBroadcastDim<One> for Dyn {}
impl CanBroadcastDim<Dyn> for One {}
impl CanBroadcastDim<One> for One {}

/// The result axis of two axes that broadcast together ([`CanBroadcastDim`] is the check):
/// a static axis wins over `One` and `Dyn`, `Dyn` over `One`.
pub trait DimBroadcast<Rhs> {
    /// The result axis.
    type Broadcast: Dim;
}
// Equal by the check: the left one.
impl<const N: usize, const M: usize> DimBroadcast<Const<M>> for Const<N> {
    type Broadcast = Const<N>;
}
// A static extent against a dynamic one stays static; the run-time half checks the value.
impl<const N: usize> DimBroadcast<Dyn> for Const<N> {
    type Broadcast = Const<N>;
}
impl<const N: usize> DimBroadcast<Const<N>> for Dyn {
    type Broadcast = Const<N>;
}
impl<const N: usize> DimBroadcast<One> for Const<N> {
    type Broadcast = Const<N>;
}
impl<const N: usize> DimBroadcast<Const<N>> for One {
    type Broadcast = Const<N>;
}
impl DimBroadcast<Dyn> for Dyn {
    type Broadcast = Dyn;
}
impl DimBroadcast<One> for Dyn {
    type Broadcast = Dyn;
}
impl DimBroadcast<Dyn> for One {
    type Broadcast = Dyn;
}
impl DimBroadcast<One> for One {
    type Broadcast = One;
}

/// The operands of a binary operation broadcast together (numpy's rule, checked in the type
/// for static axes): the bound of every operator, `select` and `zip_with`.
///
/// Not a subtrait of [`Extents`]: `Extents` has `CanBroadcast<Self>` and `CanBroadcast<()>`
/// as supertraits, so same-shape and scalar work on a generic `E: Extents` needs no bound.
#[diagnostic::on_unimplemented(
    message = "cannot broadcast extents `{Self}` and `{Rhs}` together",
    label = "numpy's rule: align axes from the right; each pair must be equal, or one of them 1",
    note = "only an axis of type `One` (spelled `1` in `ext!`, made by `keepdims`, `unsqueeze` or `NewAxis`) stretches; a `Const<1>` from a const generic or an array length does not"
)]
pub trait CanBroadcast<Rhs>: BroadcastWith<Rhs> {}

/// The extents of the result of a binary operation between `Self` and `Rhs`, for operands
/// that pass [`CanBroadcast`].
///
/// Not a subtrait of [`Extents`]: `Extents` has `BroadcastWith<Self, Broadcast = Self>` as a
/// supertrait, so same-shape elementwise work on a generic `E: Extents` needs no bound.
pub trait BroadcastWith<Rhs> {
    /// The result extents.
    type Broadcast: Extents;
}

macro_rules! broadcast_with {
    ([$($L:ident)*] [$($R:ident)*]; lead [$($lead:ident)*]; pairs [$($a:ident : $b:ident)*]) => {
        // Reported as a whole (both extents in one headline), not once per failing axis.
        #[diagnostic::do_not_recommend]
        impl<$($L: Dim,)* $($R: Dim),*> CanBroadcast<($($R,)*)> for ($($L,)*)
        where
            $($a: CanBroadcastDim<$b>,)*
        {
        }
        // Total for every pair of `Dim`s, so this never fails for concrete extents.
        impl<$($L: Dim,)* $($R: Dim),*> BroadcastWith<($($R,)*)> for ($($L,)*)
        where
            $($a: DimBroadcast<$b>,)*
        {
            type Broadcast = ($($lead,)* $(<$a as DimBroadcast<$b>>::Broadcast,)*);
        }
    };
}
include!("broadcast_pair_table.rs");

// A scalar (rank 0) on the left takes the other side's extents: one generic impl, so that
// `2.0 * &t` holds for a generic `E` with no bound.
impl<Rhs: Extents> CanBroadcast<Rhs> for () {}
impl<Rhs: Extents> BroadcastWith<Rhs> for () {
    type Broadcast = Rhs;
}

impl<Rhs: Extents> CanBroadcast<Rhs> for DynRank {}
impl<Rhs: Extents> BroadcastWith<Rhs> for DynRank {
    type Broadcast = DynRank;
}
macro_rules! with_dyn_rank {
    ($($S:ident)*) => {
        impl<$($S: Dim),*> CanBroadcast<DynRank> for ($($S,)*) {}
        impl<$($S: Dim),*> BroadcastWith<DynRank> for ($($S,)*) {
            type Broadcast = DynRank;
        }
    };
}
with_dyn_rank!(A);
with_dyn_rank!(A B);
with_dyn_rank!(A B C);
with_dyn_rank!(A B C D);
with_dyn_rank!(A B C D F);
with_dyn_rank!(A B C D F G);
