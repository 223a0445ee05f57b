//! Axis-level shape rules with the axis number known at compile time: which dim sits at an
//! axis, removing one (squeeze, index), inserting one (unsqueeze) and reversing (transpose).
//!
//! For tuple extents these are type-level: an axis beyond the rank does not compile. For
//! [`DynRank`] they are checked at run time and the `Result` carries the error.

use super::{Dim, Dyn, DynRank, Extents};
use crate::error::ShapeError;

/// The dim at axis `I`.
#[diagnostic::on_unimplemented(
    message = "axis {I} is out of range for extents `{Self}`",
    label = "this tensor has no axis {I}",
    note = "axes are numbered from 0; a tensor of rank R has axes 0 to R-1"
)]
pub trait AxisAt<const I: usize>: Extents {
    /// The dim type of that axis.
    type Dim: Dim;
}

/// Extents with axis `I` removed.
#[diagnostic::on_unimplemented(
    message = "axis {I} is out of range for extents `{Self}`",
    label = "this tensor has no axis {I}",
    note = "axes are numbered from 0; a tensor of rank R has axes 0 to R-1"
)]
pub trait RemoveAxis<const I: usize>: Extents {
    /// The extents without axis `I`.
    type Output: Extents;
    /// Removes the axis; fails only for [`DynRank`] when `I >= rank`.
    fn remove_axis(&self) -> Result<Self::Output, ShapeError>;
}

/// Extents with a new axis of dim `New` inserted before axis `I` (`I == rank` appends).
#[diagnostic::on_unimplemented(
    message = "cannot insert an axis at position {I} into extents `{Self}`",
    label = "position {I} is beyond the rank",
    note = "a new axis goes at positions 0 to R for a tensor of rank R"
)]
pub trait InsertAxis<const I: usize, New: Dim>: Extents {
    /// The extents with the new axis.
    type Output: Extents;
    /// Inserts the axis; fails only for [`DynRank`] when `I > rank`.
    fn insert_axis(&self, new: New) -> Result<Self::Output, ShapeError>;
}

/// Parts of extents `Self` can be stacked along a new axis `I` (`0..=rank`): the shape rule
/// of `stack`, [`InsertAxis`] with a dynamic new axis (as many entries as parts), reported
/// under `stack`'s own message when `I` is beyond the parts' rank.
///
/// ```
/// use mdtensor::extents::StackAxis;
/// use mdtensor::{ext, Dyn};
/// let _: <ext![2, 3] as StackAxis<2>>::Output = (mdtensor::Const::<2>, mdtensor::Const::<3>, Dyn(4));
/// ```
#[diagnostic::on_unimplemented(
    message = "stack along axis {I}: parts of extents `{Self}` have no position {I} for the new axis",
    label = "axis {I} is beyond the rank of the parts",
    note = "the new axis goes at positions 0 to R for parts of rank R; tuple extents end at rank 6, so rank-6 parts stack with `stack_dyn`",
    note = "in generic code, state the rule as a bound: `E: mdtensor::extents::StackAxis<{I}>` (its `Output` is the stack's extents)"
)]
pub trait StackAxis<const I: usize>: Extents {
    /// The extents of the stack.
    type Output: Extents;
    /// The extents of a stack of `parts` tensors of these extents; fails only for
    /// [`DynRank`] when `I > rank`.
    fn stack_extents(&self, parts: usize) -> Result<Self::Output, ShapeError>;
}
// One impl per (rank, position) rather than a blanket impl over `InsertAxis`, so that
// every error about an unsupported position carries this trait's message.
macro_rules! stack_axis {
    ($dims:tt; $($i:literal)*) => { $(stack_axis!(@one $dims $i);)* };
    (@one [$($D:ident)*] $i:literal) => {
        impl<$($D: Dim),*> StackAxis<$i> for ($($D,)*) {
            type Output = <($($D,)*) as InsertAxis<$i, Dyn>>::Output;
            fn stack_extents(&self, parts: usize) -> Result<Self::Output, ShapeError> {
                <Self as InsertAxis<$i, Dyn>>::insert_axis(self, Dyn(parts))
            }
        }
    };
}
stack_axis!([]; 0);
stack_axis!([A]; 0 1);
stack_axis!([A B]; 0 1 2);
stack_axis!([A B C]; 0 1 2 3);
stack_axis!([A B C D]; 0 1 2 3 4);
stack_axis!([A B C D F]; 0 1 2 3 4 5);
impl<const I: usize> StackAxis<I> for DynRank {
    type Output = DynRank;
    fn stack_extents(&self, parts: usize) -> Result<DynRank, ShapeError> {
        <DynRank as InsertAxis<I, Dyn>>::insert_axis(self, Dyn(parts))
    }
}

/// Extents in reverse axis order (the shape of a transpose).
pub trait Reverse: Extents {
    /// The reversed extents.
    type Output: Extents<Index = Self::Index, Strides = Self::Strides>;
    /// Reverses the axes.
    fn reverse(&self) -> Self::Output;
}

macro_rules! axis_impls {
    ($($D:ident)*; $($i:literal)*) => {
        axis_impls!(@walk [] [$($D)*] [$($i)*] all [$($D)*]);
    };
    // Rank 6 is the largest tuple rank: no axis can be inserted into it.
    (@max $($D:ident)*; $($i:literal)*) => {
        axis_impls!(@walkmax [] [$($D)*] [$($i)*] all [$($D)*]);
    };
    (@walkmax [$($before:ident)*] [$cur:ident $($after:ident)*] [$i:literal $($is:literal)*] all [$($all:ident)*]) => {
        impl<$($all: Dim),*> AxisAt<$i> for ($($all,)*) {
            type Dim = $cur;
        }
        impl<$($all: Dim),*> RemoveAxis<$i> for ($($all,)*) {
            type Output = ($($before,)* $($after,)*);
            #[allow(non_snake_case)]
            #[inline(always)]
            fn remove_axis(&self) -> Result<Self::Output, ShapeError> {
                let ($($all,)*) = *self;
                let _ = $cur;
                Ok(($($before,)* $($after,)*))
            }
        }
        axis_impls!(@walkmax [$($before)* $cur] [$($after)*] [$($is)*] all [$($all)*]);
    };
    (@walkmax [$($before:ident)*] [] [] all [$($all:ident)*]) => {};
    (@walk [$($before:ident)*] [$cur:ident $($after:ident)*] [$i:literal $($is:literal)*] all [$($all:ident)*]) => {
        impl<$($all: Dim),*> AxisAt<$i> for ($($all,)*) {
            type Dim = $cur;
        }
        impl<$($all: Dim),*> RemoveAxis<$i> for ($($all,)*) {
            type Output = ($($before,)* $($after,)*);
            #[allow(non_snake_case)]
            #[inline(always)]
            fn remove_axis(&self) -> Result<Self::Output, ShapeError> {
                let ($($all,)*) = *self;
                let _ = $cur;
                Ok(($($before,)* $($after,)*))
            }
        }
        impl<$($all: Dim,)* New: Dim> InsertAxis<$i, New> for ($($all,)*) {
            type Output = ($($before,)* New, $cur, $($after,)*);
            #[allow(non_snake_case)]
            #[inline(always)]
            fn insert_axis(&self, new: New) -> Result<Self::Output, ShapeError> {
                let ($($all,)*) = *self;
                Ok(($($before,)* new, $cur, $($after,)*))
            }
        }
        axis_impls!(@walk [$($before)* $cur] [$($after)*] [$($is)*] all [$($all)*]);
    };
    (@walk [$($before:ident)*] [] [$i:literal] all []) => {
        impl<New: Dim> InsertAxis<0, New> for () {
            type Output = (New,);
            #[inline(always)]
            fn insert_axis(&self, new: New) -> Result<(New,), ShapeError> {
                Ok((new,))
            }
        }
    };
    (@walk [$($before:ident)*] [] [$i:literal $($is:literal)*] all [$($all:ident)*]) => {
        impl<$($all: Dim,)* New: Dim> InsertAxis<$i, New> for ($($all,)*) {
            type Output = ($($all,)* New,);
            #[allow(non_snake_case)]
            #[inline(always)]
            fn insert_axis(&self, new: New) -> Result<Self::Output, ShapeError> {
                let ($($all,)*) = *self;
                Ok(($($all,)* new,))
            }
        }
    };
}

axis_impls!(; 0);
axis_impls!(A; 0 1);
axis_impls!(A B; 0 1 2);
axis_impls!(A B C; 0 1 2 3);
axis_impls!(A B C D; 0 1 2 3 4);
axis_impls!(A B C D F; 0 1 2 3 4 5);
axis_impls!(@max A B C D F G; 0 1 2 3 4 5);

macro_rules! reverse_impl {
    ($($D:ident)*; $($R:ident)*) => {
        impl<$($D: Dim),*> Reverse for ($($D,)*) {
            type Output = ($($R,)*);
            #[allow(non_snake_case, clippy::unused_unit)]
            #[inline(always)]
            fn reverse(&self) -> Self::Output {
                let ($($D,)*) = *self;
                ($($R,)*)
            }
        }
    };
}
reverse_impl!(;);
reverse_impl!(A; A);
reverse_impl!(A B; B A);
reverse_impl!(A B C; C B A);
reverse_impl!(A B C D; D C B A);
reverse_impl!(A B C D F; F D C B A);
reverse_impl!(A B C D F G; G F D C B A);

impl<const I: usize> AxisAt<I> for DynRank {
    type Dim = super::Dyn;
}

impl<const I: usize> RemoveAxis<I> for DynRank {
    type Output = DynRank;
    fn remove_axis(&self) -> Result<DynRank, ShapeError> {
        let mut d = self.dims();
        if I >= d.len() {
            return Err(ShapeError::AxisOutOfRange { op: "remove_axis", axis: I, rank: d.len() });
        }
        d.remove(I);
        Ok(DynRank::new(d))
    }
}

impl<const I: usize, New: Dim> InsertAxis<I, New> for DynRank {
    type Output = DynRank;
    fn insert_axis(&self, new: New) -> Result<DynRank, ShapeError> {
        let mut d = self.dims();
        if I > d.len() {
            return Err(ShapeError::AxisOutOfRange { op: "insert_axis", axis: I, rank: d.len() });
        }
        d.insert(I, new.size());
        Ok(DynRank::new(d))
    }
}

impl Reverse for DynRank {
    type Output = DynRank;
    fn reverse(&self) -> DynRank {
        let mut d = self.dims();
        d.reverse();
        DynRank::new(d)
    }
}

/// Extents with one axis removed, the axis chosen at run time: for a static rank `R` the
/// result has rank `R − 1` with every axis dynamic (which axis goes is not known to the
/// compiler, so neither are the remaining extents); for [`DynRank`] it is [`DynRank`].
#[diagnostic::on_unimplemented(
    message = "extents `{Self}` have no axis to remove",
    label = "a run-time axis needs a tensor of rank 1 or more"
)]
pub trait RemoveAxisDyn: Extents {
    /// The extents without the axis.
    type Output: Extents;
    /// Removes `axis`; `Err(AxisOutOfRange)` naming `op` when `axis >= rank`.
    fn remove_axis_dyn(&self, op: &'static str, axis: usize) -> Result<Self::Output, ShapeError>;
}

/// Extents with an axis of extent `n` inserted before `axis` (`axis == rank` appends),
/// chosen at run time: rank `R + 1`, every axis dynamic, or [`DynRank`].
#[diagnostic::on_unimplemented(
    message = "cannot insert an axis into extents `{Self}`",
    label = "rank 6 is the largest tuple rank; use `DynRank`"
)]
pub trait InsertAxisDyn: Extents {
    /// The extents with the new axis.
    type Output: Extents;
    /// Inserts the axis; `Err(AxisOutOfRange)` naming `op` when `axis > rank`.
    fn insert_axis_dyn(&self, op: &'static str, axis: usize, n: usize) -> Result<Self::Output, ShapeError>;
}

/// `dims` without `axis` (or with `n` inserted before it) into a stack buffer, then
/// `E::from_dims`: no allocation for tuple extents.
fn edit_dims<E: Extents>(
    op: &'static str,
    dims: &[usize],
    axis: usize,
    insert: Option<usize>,
) -> Result<E, ShapeError> {
    let rank = dims.len();
    let limit = if insert.is_some() { rank } else { rank.saturating_sub(1) };
    if axis > limit || (insert.is_none() && rank == 0) {
        return Err(ShapeError::AxisOutOfRange { op, axis, rank });
    }
    let mut buf = [0usize; 8];
    let edited = dims[..axis].iter().chain(insert.as_slice()).chain(&dims[axis + usize::from(insert.is_none())..]);
    let len = if insert.is_some() { rank + 1 } else { rank - 1 };
    if len > buf.len() {
        return E::from_dims(&edited.copied().collect::<Vec<_>>());
    }
    for (o, &d) in buf.iter_mut().zip(edited) {
        *o = d;
    }
    E::from_dims(&buf[..len])
}

macro_rules! axis_dyn_impls {
    ($($D:ident)*; $($Less:ident)*; $($More:ident)*) => {
        impl<$($D: Dim),*> RemoveAxisDyn for ($($D,)*) {
            type Output = ($($Less,)*);
            fn remove_axis_dyn(&self, op: &'static str, axis: usize) -> Result<Self::Output, ShapeError> {
                edit_dims(op, self.dims().as_ref(), axis, None)
            }
        }
        impl<$($D: Dim),*> InsertAxisDyn for ($($D,)*) {
            type Output = ($($More,)*);
            fn insert_axis_dyn(&self, op: &'static str, axis: usize, n: usize) -> Result<Self::Output, ShapeError> {
                edit_dims(op, self.dims().as_ref(), axis, Some(n))
            }
        }
    };
}
impl InsertAxisDyn for () {
    type Output = (Dyn,);
    fn insert_axis_dyn(&self, op: &'static str, axis: usize, n: usize) -> Result<(Dyn,), ShapeError> {
        edit_dims(op, &[], axis, Some(n))
    }
}
axis_dyn_impls!(A; ; Dyn Dyn);
axis_dyn_impls!(A B; Dyn; Dyn Dyn Dyn);
axis_dyn_impls!(A B C; Dyn Dyn; Dyn Dyn Dyn Dyn);
axis_dyn_impls!(A B C D; Dyn Dyn Dyn; Dyn Dyn Dyn Dyn Dyn);
axis_dyn_impls!(A B C D F; Dyn Dyn Dyn Dyn; Dyn Dyn Dyn Dyn Dyn Dyn);
impl<A: Dim, B: Dim, C: Dim, D: Dim, F: Dim, G: Dim> RemoveAxisDyn for (A, B, C, D, F, G) {
    type Output = (Dyn, Dyn, Dyn, Dyn, Dyn);
    fn remove_axis_dyn(&self, op: &'static str, axis: usize) -> Result<Self::Output, ShapeError> {
        edit_dims(op, self.dims().as_ref(), axis, None)
    }
}
impl RemoveAxisDyn for DynRank {
    type Output = DynRank;
    fn remove_axis_dyn(&self, op: &'static str, axis: usize) -> Result<DynRank, ShapeError> {
        edit_dims(op, self.as_slice(), axis, None)
    }
}
impl InsertAxisDyn for DynRank {
    type Output = DynRank;
    fn insert_axis_dyn(&self, op: &'static str, axis: usize, n: usize) -> Result<DynRank, ShapeError> {
        edit_dims(op, self.as_slice(), axis, Some(n))
    }
}

/// `Err(AxisOutOfRange)` unless `axis < rank`: the run-time form of [`AxisAt`]'s rule.
pub(crate) fn check_axis(op: &'static str, axis: usize, rank: usize) -> Result<(), ShapeError> {
    if axis >= rank {
        return Err(ShapeError::AxisOutOfRange { op, axis, rank });
    }
    Ok(())
}
