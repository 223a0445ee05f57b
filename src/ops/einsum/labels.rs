//! What the [`einsum!`](crate::einsum!) macro expands to: each label becomes a local
//! value whose type carries the label's extent type, met once per axis the label names
//! (the [`EinsumDim`] rule: a compile error for static extents that differ), and the
//! output's labels give the result's extents type. Hidden: only the macro names these.

use core::marker::PhantomData;

use crate::error::or_panic;
use crate::extents::{Dim, Dyn, DynRank, EinsumDim, EinsumMerge, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// The extent of a label that has met no axis yet: it agrees with any.
pub struct Free;
impl<D: Dim> EinsumDim<Free> for D {}
impl<D: Dim> EinsumDim<D> for Free {}
impl EinsumDim<Free> for Free {}
impl<D: Dim> EinsumMerge<Free> for D {
    type Out = D;
}
impl<D: Dim> EinsumMerge<D> for Free {
    type Out = D;
}
impl EinsumMerge<Free> for Free {
    type Out = Free;
}

/// A label whose axes so far have the extent type `D`.
pub struct Label<D>(PhantomData<D>);
impl<D> Clone for Label<D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<D> Copy for Label<D> {}

/// A label that has met no axis yet.
pub fn free() -> Label<Free> {
    Label(PhantomData)
}

/// An operand's axes, first axis first: `(Label<D0>, (Label<D1>, ()))`.
pub trait AxisLabels {
    /// The list.
    type Labels: NextAxis;
    /// The list.
    fn labels() -> Self::Labels;
}
macro_rules! axis_labels {
    ($($D:ident)*) => {
        impl<$($D: Dim),*> AxisLabels for ($($D,)*) {
            type Labels = axis_labels!(@list $($D)*);
            fn labels() -> Self::Labels {
                axis_labels!(@value $($D)*)
            }
        }
    };
    (@list) => { () };
    (@list $D:ident $($rest:ident)*) => { (Label<$D>, axis_labels!(@list $($rest)*)) };
    (@value) => { () };
    (@value $D:ident $($rest:ident)*) => { (Label(PhantomData::<$D>), axis_labels!(@value $($rest)*)) };
}
axis_labels!();
axis_labels!(D0);
axis_labels!(D0 D1);
axis_labels!(D0 D1 D2);
axis_labels!(D0 D1 D2 D3);
axis_labels!(D0 D1 D2 D3 D4);
axis_labels!(D0 D1 D2 D3 D4 D5);

/// The axes of a [`DynRank`] operand: as many dynamic axes as its term names (its rank is
/// checked at run time).
#[derive(Clone, Copy)]
pub struct DynAxes;
impl AxisLabels for DynRank {
    type Labels = DynAxes;
    fn labels() -> DynAxes {
        DynAxes
    }
}

/// The first of the remaining axes, and the rest. Defined for the empty list too (an axis
/// that agrees with anything), so that a term longer than its operand is reported once,
/// by [`TermFits`].
pub trait NextAxis {
    /// The first axis's extent type.
    type Head;
    /// The rest.
    type Tail: NextAxis;
    /// The rest.
    fn tail(self) -> Self::Tail;
}
impl<H, T: NextAxis> NextAxis for (Label<H>, T) {
    type Head = H;
    type Tail = T;
    fn tail(self) -> T {
        self.1
    }
}
impl NextAxis for () {
    type Head = Free;
    type Tail = ();
    fn tail(self) {}
}
impl NextAxis for DynAxes {
    type Head = Dyn;
    type Tail = DynAxes;
    fn tail(self) -> DynAxes {
        DynAxes
    }
}

/// One label of a term, counted by [`TermFits`].
pub struct Slot;
/// Never a term: see [`TermFits`]'s impls.
pub struct NotATerm;

/// A term names one label per axis of its operand (`Slots` is a tuple of one [`Slot`] per
/// label).
#[diagnostic::on_unimplemented(
    message = "einsum!: a term's labels do not match its operand's axes `{Self}`",
    label = "give every axis of this operand exactly one label"
)]
pub trait TermFits<Slots> {}
macro_rules! term_fits {
    ($($D:ident)*) => {
        #[diagnostic::do_not_recommend]
        impl<$($D: Dim),*> TermFits<($(term_fits!(@slot $D),)*)> for ($($D,)*) {}
        // A second impl, so that rustc does not infer the term's length from the
        // operand's rank (a bare tuple-length mismatch) but reports this rule.
        #[diagnostic::do_not_recommend]
        impl<$($D: Dim),*> TermFits<NotATerm> for ($($D,)*) {}
    };
    (@slot $D:ident) => { Slot };
}
term_fits!();
term_fits!(D0);
term_fits!(D0 D1);
term_fits!(D0 D1 D2);
term_fits!(D0 D1 D2 D3);
term_fits!(D0 D1 D2 D3 D4);
term_fits!(D0 D1 D2 D3 D4 D5);
#[diagnostic::do_not_recommend]
impl<U> TermFits<U> for DynRank {}

/// The axes of an operand, after checking that its term has one label per axis.
pub fn axes_of<T, E, S, St, U>(_: &Tensor<T, E, S, St>, _: U) -> E::Labels
where
    E: Extents + AxisLabels + TermFits<U>,
    S: Layout<E>,
    St: DenseStorage<T>,
{
    E::labels()
}

/// A term's slot for `label`.
pub fn slot<L>(_: &L) -> Slot {
    Slot
}

/// `label` meets the first of `axes`: the label afterwards, and the other axes.
#[allow(clippy::type_complexity)] // the merged label and the rest of the list
pub fn next_axis<D, A: NextAxis>(_: Label<D>, axes: A) -> (Label<<D as EinsumMerge<A::Head>>::Out>, A::Tail)
where
    D: EinsumDim<A::Head> + EinsumMerge<A::Head>,
{
    (Label(PhantomData), axes.tail())
}

/// The output's labels as an extents type: `(Label<D0>, Label<D1>)` gives `(D0, D1)`.
pub trait OutputLabels {
    /// The result's extents.
    type Extents: Extents;
}
macro_rules! output_labels {
    ($($D:ident)*) => {
        impl<$($D: Dim),*> OutputLabels for ($(Label<$D>,)*) {
            type Extents = ($($D,)*);
        }
    };
}
output_labels!();
output_labels!(D0);
output_labels!(D0 D1);
output_labels!(D0 D1 D2);
output_labels!(D0 D1 D2 D3);
output_labels!(D0 D1 D2 D3 D4);
output_labels!(D0 D1 D2 D3 D4 D5);

/// The result of the run-time evaluation with the extents the labels say.
#[track_caller]
pub fn finish<T, L: OutputLabels>(t: Tensor<T, DynRank>, _: L) -> Tensor<T, L::Extents> {
    // The labels' static extents were checked against every operand; a dynamic axis the
    // evaluation broadcast is the one way to differ, and it panics with the shapes.
    or_panic(t.try_into_extents::<L::Extents>().map_err(|(e, _)| e))
}
