//! Dynamic slicing with numpy semantics: ranges, steps (negative too), an index that
//! drops an axis, and [`NewAxis`].
//!
//! `s![1..3, .., 2, NewAxis, ..;-1]` builds a [`SliceInfo`] whose *type* records how many
//! axes it consumes and produces, so `t.slice(s![..])` has a static rank (every result
//! axis is dynamic) and a slice with the wrong number of entries does not compile for a
//! static-rank tensor. [`Tensor::try_slice_dyn`] takes a run-time list instead and gives a
//! dynamic-rank view.

use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Dyn, DynRank, Extents};
use crate::layout::arith::{advance, step_stride};
use crate::layout::{Layout, Strided};
use crate::storage::{BorrowedStorage, ViewMutOf, ViewOf, Viewable, ViewableMut};
use crate::tensor::Tensor;
use core::marker::PhantomData;
use core::ops::{Range, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};

/// One entry of a slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliceElem {
    /// `start..end;step` (numpy's `start:end:step`); `None` bounds take numpy's defaults
    /// for the sign of `step`, negative bounds count from the end.
    Range {
        /// First index (default: 0, or the last index for a negative step).
        start: Option<isize>,
        /// One past the last index (default: the end, or before the first index).
        end: Option<isize>,
        /// Step, never 0.
        step: isize,
    },
    /// A single index; the axis disappears. Negative counts from the end.
    Index(isize),
    /// A new axis of extent 1.
    NewAxis,
}

/// A new axis of extent 1 inside `s![..]` (numpy's `np.newaxis`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NewAxis;

/// Type-level effect of a slice entry on the counts of input and output axes.
#[doc(hidden)]
pub trait SliceKind {
    type In<I: AxisCount>: AxisCount;
    type Out<O: AxisCount>: AxisCount;
}
#[doc(hidden)]
pub struct KeepAxis;
#[doc(hidden)]
pub struct DropAxis;
#[doc(hidden)]
pub struct AddAxis;
impl SliceKind for KeepAxis {
    type In<I: AxisCount> = I::Next;
    type Out<O: AxisCount> = O::Next;
}
impl SliceKind for DropAxis {
    type In<I: AxisCount> = I::Next;
    type Out<O: AxisCount> = O;
}
impl SliceKind for AddAxis {
    type In<I: AxisCount> = I;
    type Out<O: AxisCount> = O::Next;
}

/// A count of axes as a tuple of [`Dyn`]: `()`, `(Dyn,)`, …; past rank 6, [`TooManyAxes`].
#[doc(hidden)]
pub trait AxisCount {
    type Next: AxisCount;
}
/// More than six axes: no tensor has that many.
#[doc(hidden)]
pub struct TooManyAxes;
impl AxisCount for TooManyAxes {
    type Next = TooManyAxes;
}
impl AxisCount for () {
    type Next = (Dyn,);
}
impl AxisCount for (Dyn,) {
    type Next = (Dyn, Dyn);
}
impl AxisCount for (Dyn, Dyn) {
    type Next = (Dyn, Dyn, Dyn);
}
impl AxisCount for (Dyn, Dyn, Dyn) {
    type Next = (Dyn, Dyn, Dyn, Dyn);
}
impl AxisCount for (Dyn, Dyn, Dyn, Dyn) {
    type Next = (Dyn, Dyn, Dyn, Dyn, Dyn);
}
impl AxisCount for (Dyn, Dyn, Dyn, Dyn, Dyn) {
    type Next = (Dyn, Dyn, Dyn, Dyn, Dyn, Dyn);
}
impl AxisCount for (Dyn, Dyn, Dyn, Dyn, Dyn, Dyn) {
    type Next = TooManyAxes;
}

/// A value usable as a slice entry: ranges of `usize`, `isize`, `i32` or `i64`, an index
/// of those types, or [`NewAxis`].
pub trait SliceArg {
    /// Effect on the axis counts.
    #[doc(hidden)]
    type Kind: SliceKind;
    /// The entry, with an optional step (ranges only; `1` when absent).
    fn elem(self, step: Option<isize>) -> SliceElem;
}

/// An index value as `isize`, saturating (numpy clamps out-of-range bounds).
#[inline]
fn sat<I: TryInto<isize> + PartialOrd + Default>(x: I) -> isize {
    let negative = x < I::default();
    x.try_into().unwrap_or(if negative { isize::MIN } else { isize::MAX })
}

macro_rules! slice_args {
    ($($i:ty),*) => {$(
        impl SliceArg for $i {
            type Kind = DropAxis;
            fn elem(self, _: Option<isize>) -> SliceElem {
                SliceElem::Index(sat(self))
            }
        }
        impl SliceArg for Range<$i> {
            type Kind = KeepAxis;
            fn elem(self, step: Option<isize>) -> SliceElem {
                SliceElem::Range { start: Some(sat(self.start)), end: Some(sat(self.end)), step: step.unwrap_or(1) }
            }
        }
        impl SliceArg for RangeInclusive<$i> {
            type Kind = KeepAxis;
            fn elem(self, step: Option<isize>) -> SliceElem {
                let end = sat(*self.end()).saturating_add(1);
                SliceElem::Range { start: Some(sat(*self.start())), end: if end == 0 { None } else { Some(end) }, step: step.unwrap_or(1) }
            }
        }
        impl SliceArg for RangeFrom<$i> {
            type Kind = KeepAxis;
            fn elem(self, step: Option<isize>) -> SliceElem {
                SliceElem::Range { start: Some(sat(self.start)), end: None, step: step.unwrap_or(1) }
            }
        }
        impl SliceArg for RangeTo<$i> {
            type Kind = KeepAxis;
            fn elem(self, step: Option<isize>) -> SliceElem {
                SliceElem::Range { start: None, end: Some(sat(self.end)), step: step.unwrap_or(1) }
            }
        }
        impl SliceArg for RangeToInclusive<$i> {
            type Kind = KeepAxis;
            fn elem(self, step: Option<isize>) -> SliceElem {
                let end = sat(self.end).saturating_add(1);
                SliceElem::Range { start: None, end: if end == 0 { None } else { Some(end) }, step: step.unwrap_or(1) }
            }
        }
    )*};
}
slice_args!(usize, isize, i32, i64);

impl SliceArg for RangeFull {
    type Kind = KeepAxis;
    fn elem(self, step: Option<isize>) -> SliceElem {
        SliceElem::Range { start: None, end: None, step: step.unwrap_or(1) }
    }
}
impl SliceArg for NewAxis {
    type Kind = AddAxis;
    fn elem(self, _: Option<isize>) -> SliceElem {
        SliceElem::NewAxis
    }
}

/// At most this many entries (6 input axes plus new axes, at most 6 output axes).
const MAX_ELEMS: usize = 12;

/// A slice built by [`s!`](crate::s): its entries and, in the type, the number of input
/// axes it consumes (`In`) and of output axes it produces (`Out`).
#[derive(Clone, Copy, Debug)]
pub struct SliceInfo<In, Out> {
    elems: [SliceElem; MAX_ELEMS],
    len: usize,
    _counts: PhantomData<fn() -> (In, Out)>,
}

impl SliceInfo<(), ()> {
    /// The empty slice; entries are added with [`SliceInfo::push`].
    pub fn start() -> Self {
        SliceInfo { elems: [SliceElem::NewAxis; MAX_ELEMS], len: 0, _counts: PhantomData }
    }
}

impl<In, Out> SliceInfo<In, Out> {
    /// The entries, whatever the axis counts in the type.
    pub(super) fn entries(&self) -> &[SliceElem] {
        &self.elems[..self.len]
    }
}

impl<In: AxisCount, Out: AxisCount> SliceInfo<In, Out> {
    /// Adds an entry.
    pub fn push<A: SliceArg>(
        self,
        arg: A,
        step: Option<isize>,
    ) -> SliceInfo<<A::Kind as SliceKind>::In<In>, <A::Kind as SliceKind>::Out<Out>> {
        assert!(self.len < MAX_ELEMS, "s![..]: more than {MAX_ELEMS} entries");
        let mut elems = self.elems;
        elems[self.len] = arg.elem(step);
        SliceInfo { elems, len: self.len + 1, _counts: PhantomData }
    }
    /// The entries.
    pub fn elems(&self) -> &[SliceElem] {
        &self.elems[..self.len]
    }
}

/// Extents `Self` can be sliced by a slice consuming `In` axes.
#[diagnostic::on_unimplemented(
    message = "a slice consuming axes `{In}` does not fit extents `{Self}`",
    label = "give one range or index per axis (`NewAxis` entries do not count)"
)]
pub trait SliceInput<In> {}
impl<In: AxisCount> SliceInput<In> for DynRank {}
macro_rules! slice_input {
    ($($D:ident $d:ident),*) => {
        impl<$($D: crate::extents::Dim),*> SliceInput<($($d,)*)> for ($($D,)*) {}
    };
}
slice_input!();
slice_input!(A Dyn);
slice_input!(A Dyn, B Dyn);
slice_input!(A Dyn, B Dyn, C Dyn);
slice_input!(A Dyn, B Dyn, C Dyn, D Dyn);
slice_input!(A Dyn, B Dyn, C Dyn, D Dyn, F Dyn);
slice_input!(A Dyn, B Dyn, C Dyn, D Dyn, F Dyn, G Dyn);

/// Numpy's rule for one range on an axis of extent `n`: `(first index, length)`.
pub(super) fn resolve_range(
    axis: usize,
    n: usize,
    start: Option<isize>,
    end: Option<isize>,
    step: isize,
) -> Result<(isize, usize), ShapeError> {
    if step == 0 {
        return Err(ShapeError::InvalidArgument { op: "slice", reason: format!("axis {axis}: step is 0") });
    }
    let n = n as isize;
    let norm = |x: isize| if x < 0 { x.saturating_add(n) } else { x };
    // Lengths as (distance - 1) / |step| + 1: never overflows, whatever the step.
    let m = step.unsigned_abs();
    if step > 0 {
        let s = start.map_or(0, |x| norm(x).clamp(0, n));
        let e = end.map_or(n, |x| norm(x).clamp(0, n));
        let len = if e > s { (e - s - 1) as usize / m + 1 } else { 0 };
        Ok((s, len))
    } else {
        let s = start.map_or(n - 1, |x| norm(x).clamp(-1, n - 1));
        let e = end.map_or(-1, |x| norm(x).clamp(-1, n - 1));
        let len = if s > e { (s - e - 1) as usize / m + 1 } else { 0 };
        Ok((s, len))
    }
}

/// Applies slice entries to (`dims`, `strides`): the shape rule of slicing, shared by the
/// typed and the dynamic form. Returns the position of the new element `[0, …, 0]`.
fn apply_slice(
    elems: &[SliceElem],
    dims: &[usize],
    strides: &[isize],
    out_dims: &mut Vec<usize>,
    out_strides: &mut Vec<isize>,
) -> Result<isize, ShapeError> {
    let consumed = elems.iter().filter(|e| !matches!(e, SliceElem::NewAxis)).count();
    if consumed != dims.len() {
        return Err(ShapeError::RankMismatch { op: "slice", expected: dims.len(), found: consumed });
    }
    let mut axis = 0;
    let mut first = 0isize;
    for e in elems {
        match *e {
            SliceElem::NewAxis => {
                out_dims.push(1);
                out_strides.push(0);
            }
            SliceElem::Index(i) => {
                let n = dims[axis];
                let j = if i < 0 { i + n as isize } else { i };
                if j < 0 || j >= n as isize {
                    return Err(ShapeError::IndexOutOfBounds { op: "slice", index: i, axis, extent: n });
                }
                first = advance("slice", first, j as usize, strides[axis])?;
                axis += 1;
            }
            SliceElem::Range { start, end, step } => {
                let (s, len) = resolve_range(axis, dims[axis], start, end, step)?;
                if len > 0 {
                    // `s` is a valid index when the range is not empty.
                    first = advance("slice", first, s as usize, strides[axis])?;
                }
                out_dims.push(len);
                out_strides.push(step_stride("slice", strides[axis], step, len)?);
                axis += 1;
            }
        }
    }
    Ok(first)
}

/// # Views: slicing
impl<T, E: Extents, S: Layout<E>, St: BorrowedStorage<T>> Tensor<T, E, S, St> {
    /// Consuming form of [`Tensor::slice`].
    #[allow(clippy::disallowed_methods, reason = "a fixed capacity of six axes")]
    pub fn try_into_sliced<In, Out: Extents>(
        self,
        info: SliceInfo<In, Out>,
    ) -> Result<Tensor<T, Out, Strided, St>, ShapeError>
    where
        E: SliceInput<In>,
    {
        let (mut d, mut s) = (Vec::with_capacity(6), Vec::with_capacity(6));
        let first =
            apply_slice(&info.elems[..info.len], self.dims().as_ref(), self.strides().as_ref(), &mut d, &mut s)?;
        let ext = Out::from_dims(&d)?;
        let mut strides = ext.zero_strides();
        strides.as_mut().copy_from_slice(&s);
        // SAFETY: every kept index is in bounds of its axis (resolve_range clamps, and a
        // range of length > 0 stays inside), new axes take only index 0, and non-zero steps
        // keep distinct indices at distinct positions.
        unsafe { self.relayout(ext, strides, first) }
    }

    /// Consuming form of [`Tensor::try_slice_dyn`].
    pub fn try_into_sliced_dyn(self, elems: &[SliceElem]) -> Result<Tensor<T, DynRank, Strided, St>, ShapeError> {
        let (mut d, mut s) = (Vec::new(), Vec::new());
        let first = apply_slice(elems, self.dims().as_ref(), self.strides().as_ref(), &mut d, &mut s)?;
        // SAFETY: as in `try_into_sliced`.
        unsafe { self.relayout(DynRank::new(d), s, first) }
    }
}

/// # Views: slicing
impl<T, E: Extents, S: Layout<E>, St: Viewable<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::slice`].
        pub fn try_slice[In, Out: Extents](
            &self,
            info: SliceInfo<In, Out>,
        ) -> Result<Tensor<T, Out, Strided, ViewOf<'_, T, St>>, ShapeError>
        where [E: SliceInput<In>]
        {
            self.view().try_into_sliced(info)
        }
        /// A view of a slice, numpy style.
        ///
        /// ```
        /// use mdtensor::{s, tensor, NewAxis};
        /// let a = tensor![[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]];
        /// assert_eq!(a.slice(s![1.., ..;2]).to_vec(), [4, 6, 8, 10]);
        /// assert_eq!(a.slice(s![-1, ..;-1]).to_vec(), [11, 10, 9, 8]);
        /// assert_eq!(a.slice(s![0, NewAxis, 1..3]).dims(), [1usize, 2]);
        /// ```
        pub fn slice;
    }
    /// A view of a slice given at run time; the result has dynamic rank.
    pub fn try_slice_dyn(
        &self,
        elems: &[SliceElem],
    ) -> Result<Tensor<T, DynRank, Strided, ViewOf<'_, T, St>>, ShapeError> {
        self.view().try_into_sliced_dyn(elems)
    }
}

/// # Views: slicing
impl<T, E: Extents, S: Layout<E>, St> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::slice_mut`].
        pub fn try_slice_mut[In, Out: Extents](
            &mut self,
            info: SliceInfo<In, Out>,
        ) -> Result<Tensor<T, Out, Strided, ViewMutOf<'_, T, St>>, ShapeError>
        where [St: ViewableMut<T>, E: SliceInput<In>]
        {
            self.view_mut().try_into_sliced(info)
        }
        /// A mutable view of a slice: writing through it writes this tensor.
        ///
        /// ```
        /// use mdtensor::{s, tensor};
        /// let mut a = tensor![[1, 2, 3], [4, 5, 6]];
        /// a.slice_mut(s![.., 1]).fill(0);
        /// assert_eq!(a.to_vec(), [1, 0, 3, 4, 0, 6]);
        /// ```
        pub fn slice_mut;
    }
}

#[cfg(test)]
mod tests {
    use super::resolve_range;

    #[test]
    fn numpy_range_rules() {
        // (n, start, end, step) → (first, len), checked against Python's range semantics.
        let cases = [
            (5, None, None, 1, (0, 5)),
            (5, Some(1), Some(4), 2, (1, 2)),
            (5, None, None, -1, (4, 5)),
            (5, Some(-2), None, -1, (3, 4)),
            (5, Some(3), Some(1), -1, (3, 2)),
            (5, Some(10), Some(20), 1, (5, 0)),
            (5, Some(-10), Some(2), 1, (0, 2)),
            (0, None, None, -1, (-1, 0)),
            (5, None, None, -2, (4, 3)),
        ];
        for (n, s, e, st, want) in cases {
            assert_eq!(resolve_range(0, n, s, e, st).unwrap(), want, "{n} {s:?} {e:?} {st}");
        }
        assert!(resolve_range(0, 5, None, None, 0).is_err());
    }
}
