//! Static slices: start, end and step are compile-time values (uBLAS `span::slice<0,10,2>`),
//! so the sub-tensor's extents, and for a static parent its strides, are in its type.
//!
//! ```
//! use mdtensor::{ext, Full, Span, Tensor};
//! let a = Tensor::<usize, ext![4, 6]>::from_fn(ext![4, 6], |[i, j]| 10 * i + j);
//! let v = a.slice_static::<(Span<0, 4, 2>, Span<1, 6, 2>)>();
//! let _: &ext![2, 3] = v.extents();          // ceil((4-0)/2) × ceil((6-1)/2)
//! assert_eq!(v.to_vec(), [1, 3, 5, 21, 23, 25]);
//! assert_eq!(v.strides(), [12, 2]);          // row-major strides × steps, from the type
//! ```
//!
//! Per axis: [`Span<START, END, STEP>`] (`START <= END`, `STEP > 0`) or [`Full`]. On a
//! static axis an `END` past the extent does not compile; on a dynamic axis it is checked
//! at run time. Extents computed above 1024 become dynamic (see
//! [`static_arith`](crate::extents::static_arith)).

use crate::error::or_panic;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Const, Dim, Dyn, Extents, StaticDim, StaticExtents, ToDim};
use crate::layout::{ColMajor, Layout, RowMajor, SliceSteps, StaticSliced, Strided};
use crate::storage::{BorrowedStorage, ViewMutOf, ViewOf, Viewable, ViewableMut};
use crate::tensor::Tensor;
use typenum::{Diff, IsGreater, IsLessOrEqual, LeEq, Quot, Sub1, Sum, B0, B1, U0};

/// Indices `START, START+STEP, …` below `END` of one axis, all compile-time values.
#[derive(Clone, Copy, Debug, Default)]
pub struct Span<const START: usize, const END: usize, const STEP: usize>;

/// The whole axis.
#[derive(Clone, Copy, Debug, Default)]
pub struct Full;

/// How a static slice entry acts on an axis of dim `D`.
#[diagnostic::on_unimplemented(
    message = "static slice `{Self}` does not fit an axis of extent `{D}`",
    label = "a `Span<START, END, STEP>` needs START <= END <= the axis' extent and STEP > 0",
    note = "static slice bounds are checked with typenum, for values in 0..=1024 and powers of two"
)]
pub trait StaticAxisSlice<D: Dim> {
    /// Resulting dim.
    type Out: Dim;
    /// First index.
    const START: usize;
    /// Step.
    const STEP: usize;
    /// The resulting dim, checking a dynamic axis at run time.
    fn out(d: D, axis: usize) -> Result<Self::Out, ShapeError>;
}

impl<D: Dim> StaticAxisSlice<D> for Full {
    type Out = D;
    const START: usize = 0;
    const STEP: usize = 1;
    #[inline(always)]
    fn out(d: D, _: usize) -> Result<D, ShapeError> {
        Ok(d)
    }
}

type U<const N: usize> = typenum::U<N>;

/// The extent of a span, computed once its step and order are known to be valid.
#[diagnostic::on_unimplemented(
    message = "static slice `{Self}` is invalid: it needs STEP > 0 and START <= END",
    label = "a `Span<START, END, STEP>` needs STEP >= 1 and START <= END"
)]
#[doc(hidden)]
pub trait SpanLen {
    type Out: Dim;
}

/// A typenum comparison's outcome as a type of this crate, so that a failed check reads
/// `SpanStep<Fails>` rather than printing typenum's bits.
#[doc(hidden)]
pub struct Holds;
/// See [`Holds`].
#[doc(hidden)]
pub struct Fails;
/// Maps typenum's `B1`/`B0` to [`Holds`]/[`Fails`].
#[doc(hidden)]
pub trait Outcome {
    type Out;
}
impl Outcome for B1 {
    type Out = Holds;
}
impl Outcome for B0 {
    type Out = Fails;
}

/// Step check (`StepOk = Holds` when `STEP > 0`).
#[diagnostic::on_unimplemented(
    message = "static slice `{Self}` has step 0",
    label = "the step of a slice must be at least 1"
)]
#[doc(hidden)]
pub trait SpanStep<StepOk> {
    type Out: Dim;
}

/// Order check (`Ordered = Holds` when `START <= END`).
#[diagnostic::on_unimplemented(
    message = "static slice `{Self}` starts after it ends",
    label = "a static slice needs START <= END"
)]
#[doc(hidden)]
pub trait SpanOrder<Ordered> {
    type Out: Dim;
}

/// Bounds check (`InBounds = Holds` when `END <= N`).
#[diagnostic::on_unimplemented(
    message = "static slice `{Self}` is out of bounds for an axis of extent `{D}`",
    label = "END must not exceed the axis' extent"
)]
#[doc(hidden)]
pub trait SpanWithin<D, InBounds> {}

// Reported as a whole (the span), not through the typenum steps inside.
#[diagnostic::do_not_recommend]
impl<const S: usize, const E: usize, const ST: usize> SpanLen for Span<S, E, ST>
where
    typenum::Const<ST>: typenum::ToUInt,
    U<ST>: IsGreater<U0>,
    typenum::Gr<U<ST>, U0>: Outcome,
    Self: SpanStep<<typenum::Gr<U<ST>, U0> as Outcome>::Out>,
{
    type Out = <Self as SpanStep<<typenum::Gr<U<ST>, U0> as Outcome>::Out>>::Out;
}

#[diagnostic::do_not_recommend]
impl<const S: usize, const E: usize, const ST: usize> SpanStep<Holds> for Span<S, E, ST>
where
    typenum::Const<S>: typenum::ToUInt,
    typenum::Const<E>: typenum::ToUInt,
    U<S>: IsLessOrEqual<U<E>>,
    LeEq<U<S>, U<E>>: Outcome,
    Self: SpanOrder<<LeEq<U<S>, U<E>> as Outcome>::Out>,
{
    type Out = <Self as SpanOrder<<LeEq<U<S>, U<E>> as Outcome>::Out>>::Out;
}

// ceil((E - S) / ST) = (E - S + ST - 1) / ST
impl<const S: usize, const E: usize, const ST: usize> SpanOrder<Holds> for Span<S, E, ST>
where
    typenum::Const<S>: typenum::ToUInt,
    typenum::Const<E>: typenum::ToUInt,
    typenum::Const<ST>: typenum::ToUInt,
    U<E>: core::ops::Sub<U<S>>,
    U<ST>: core::ops::Sub<typenum::B1>,
    Diff<U<E>, U<S>>: core::ops::Add<Sub1<U<ST>>>,
    Sum<Diff<U<E>, U<S>>, Sub1<U<ST>>>: core::ops::Div<U<ST>>,
    Quot<Sum<Diff<U<E>, U<S>>, Sub1<U<ST>>>, U<ST>>: ToDim,
{
    type Out = <Quot<Sum<Diff<U<E>, U<S>>, Sub1<U<ST>>>, U<ST>> as ToDim>::Output;
}

impl<const S: usize, const E: usize, const ST: usize, const N: usize> SpanWithin<Const<N>, Holds> for Span<S, E, ST> {}

// Reported as a whole (the span and the extent), not through the typenum steps inside.
#[diagnostic::do_not_recommend]
impl<const S: usize, const E: usize, const ST: usize, const N: usize> StaticAxisSlice<Const<N>> for Span<S, E, ST>
where
    Self: SpanLen,
    Const<N>: StaticDim,
    typenum::Const<E>: typenum::ToUInt,
    U<E>: IsLessOrEqual<<Const<N> as StaticDim>::U>,
    LeEq<U<E>, <Const<N> as StaticDim>::U>: Outcome,
    Self: SpanWithin<Const<N>, <LeEq<U<E>, <Const<N> as StaticDim>::U> as Outcome>::Out>,
{
    type Out = <Self as SpanLen>::Out;
    const START: usize = S;
    const STEP: usize = ST;
    #[inline(always)]
    fn out(_: Const<N>, _: usize) -> Result<Self::Out, ShapeError> {
        Ok(<Self::Out as Dim>::from_size(E.saturating_sub(S).div_ceil(ST))
            .expect("typenum length equals the run-time formula"))
    }
}

#[diagnostic::do_not_recommend]
impl<const S: usize, const E: usize, const ST: usize> StaticAxisSlice<Dyn> for Span<S, E, ST>
where
    Self: SpanLen,
{
    type Out = <Self as SpanLen>::Out;
    const START: usize = S;
    const STEP: usize = ST;
    fn out(d: Dyn, axis: usize) -> Result<Self::Out, ShapeError> {
        if E > d.size() {
            return Err(ShapeError::IndexOutOfBounds { op: "slice_static", index: E as isize, axis, extent: d.size() });
        }
        Ok(<Self::Out as Dim>::from_size(E.saturating_sub(S).div_ceil(ST))
            .expect("typenum length equals the run-time formula"))
    }
}

/// A tuple of per-axis static slices for extents `E`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a static slice of extents `{E}`",
    label = "give one `Span<START, END, STEP>` or `Full` per axis"
)]
pub trait StaticSliceSpec<E: Extents>: SliceSteps {
    /// The sub-tensor's extents.
    type Out: Extents<Index = E::Index, Strides = E::Strides>;
    /// Extents and index of the first element, checking dynamic axes at run time.
    fn apply(e: &E) -> Result<(Self::Out, E::Index), ShapeError>;
}

macro_rules! static_spec {
    ($($A:ident $D:ident $i:tt),*) => {
        impl<$($A: 'static,)*> SliceSteps for ($($A,)*)
        where
            $($A: StepOf,)*
        {
            #[inline(always)]
            fn step(axis: usize) -> usize {
                [$($A::STEP_OF),*][axis]
            }
        }
        impl<$($D: Dim, $A: StaticAxisSlice<$D> + StepOf + 'static),*> StaticSliceSpec<($($D,)*)> for ($($A,)*)
        where
            ($($A::Out,)*): Extents<Index = <($($D,)*) as Extents>::Index, Strides = <($($D,)*) as Extents>::Strides>,
        {
            type Out = ($($A::Out,)*);
            #[inline(always)]
            fn apply(e: &($($D,)*)) -> Result<(Self::Out, <($($D,)*) as Extents>::Index), ShapeError> {
                Ok((($($A::out(e.$i, $i)?,)*), [$($A::START),*]))
            }
        }
    };
}

/// The step of a static slice entry, independent of the axis it is applied to.
#[doc(hidden)]
pub trait StepOf {
    const STEP_OF: usize;
}
impl StepOf for Full {
    const STEP_OF: usize = 1;
}
impl<const S: usize, const E: usize, const ST: usize> StepOf for Span<S, E, ST> {
    const STEP_OF: usize = ST;
}

static_spec!(A0 D0 0);
static_spec!(A0 D0 0, A1 D1 1);
static_spec!(A0 D0 0, A1 D1 1, A2 D2 2);
static_spec!(A0 D0 0, A1 D1 1, A2 D2 2, A3 D3 3);
static_spec!(A0 D0 0, A1 D1 1, A2 D2 2, A3 D3 3, A4 D4 4);
static_spec!(A0 D0 0, A1 D1 1, A2 D2 2, A3 D3 3, A4 D4 4, A5 D5 5);

/// The stride policy of a static slice of a tensor with policy `Self` and extents `E`:
/// [`StaticSliced`] (strides in the type) when `E` is static and `Self` stores nothing,
/// [`Strided`] otherwise.
pub trait StaticSlicePolicy<E: Extents, Spec: StaticSliceSpec<E>>: Layout<E> {
    /// The result policy.
    type Out: Layout<Spec::Out>;
}

/// Dispatch on whether the parent extents are static.
#[doc(hidden)]
pub trait PickSlicePolicy<E: Extents, Spec: StaticSliceSpec<E>, IsStatic> {
    type Out: Layout<Spec::Out>;
}
impl<P, E: Extents, Spec: StaticSliceSpec<E>> PickSlicePolicy<E, Spec, B0> for P {
    type Out = Strided;
}
impl<P, E, Spec> PickSlicePolicy<E, Spec, B1> for P
where
    P: Layout<E, Mapping = ()>,
    E: StaticExtents,
    Spec: StaticSliceSpec<E>,
{
    type Out = StaticSliced<P, E, Spec>;
}

macro_rules! zero_size_policy_slices {
    ($($P:ty => [$($g:ident),*]),*) => {$(
        impl<E: Extents, Spec: StaticSliceSpec<E> $(, $g: 'static)*> StaticSlicePolicy<E, Spec> for $P
        where
            $P: Layout<E> + PickSlicePolicy<E, Spec, E::IsStatic>,
        {
            type Out = <$P as PickSlicePolicy<E, Spec, E::IsStatic>>::Out;
        }
    )*};
}
zero_size_policy_slices!(RowMajor => [], ColMajor => [], StaticSliced<P, PE, Sp> => [P, PE, Sp]);

impl<E: Extents, Spec: StaticSliceSpec<E>> StaticSlicePolicy<E, Spec> for Strided {
    type Out = Strided;
}

/// # Views: static slicing
impl<T, E: Extents, S: Layout<E>, St: BorrowedStorage<T>> Tensor<T, E, S, St> {
    /// Consuming form of [`Tensor::slice_static`].
    pub fn try_into_sliced_static<Spec: StaticSliceSpec<E>>(
        self,
    ) -> Result<Tensor<T, Spec::Out, <S as StaticSlicePolicy<E, Spec>>::Out, St>, ShapeError>
    where
        S: StaticSlicePolicy<E, Spec>,
    {
        let (ext, start) = Spec::apply(&self.extents)?;
        let src = self.strides();
        let mut strides = ext.zero_strides();
        let mut first = 0isize;
        for (k, (o, &s)) in strides.as_mut().iter_mut().zip(src.as_ref()).enumerate() {
            *o = s * Spec::step(k) as isize;
            first += start.as_ref()[k] as isize * s;
        }
        // SAFETY: each span stays below END <= extent (checked in the type for static axes,
        // at run time for dynamic ones), steps are at least 1, so positions are distinct
        // positions of `self`.
        unsafe { self.relayout(ext, strides, first) }
    }
}

/// # Views: static slicing
impl<T, E: Extents, S: Layout<E>, St: Viewable<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::slice_static`].
        pub fn try_slice_static[Spec: StaticSliceSpec<E>]::<Spec>(
            &self,
        ) -> Result<Tensor<T, Spec::Out, <S as StaticSlicePolicy<E, Spec>>::Out, ViewOf<'_, T, St>>, ShapeError>
        where [S: StaticSlicePolicy<E, Spec>]
        {
            self.view().try_into_sliced_static::<Spec>()
        }
        /// A view of a static slice; see [`StaticSliceSpec`]. Panics only when a span
        /// overruns a dynamic axis.
        pub fn slice_static;
    }
}

/// # Views: static slicing
impl<T, E: Extents, S: Layout<E>, St> Tensor<T, E, S, St> {
    /// A mutable view of a static slice: writes go to this tensor.
    #[track_caller]
    pub fn slice_static_mut<Spec: StaticSliceSpec<E>>(
        &mut self,
    ) -> Tensor<T, Spec::Out, <S as StaticSlicePolicy<E, Spec>>::Out, ViewMutOf<'_, T, St>>
    where
        St: ViewableMut<T>,
        S: StaticSlicePolicy<E, Spec>,
    {
        or_panic(self.view_mut().try_into_sliced_static::<Spec>())
    }
}
