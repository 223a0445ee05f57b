//! Transpose (reverse the axes) and general axis permutations.

use crate::error::or_panic;
use crate::error::ShapeError;
use crate::extents::{AxisAt, AxisList, Dim, Extents, Reverse};
use crate::layout::{Layout, Strided};
use crate::storage::{BorrowedStorage, ViewMutOf, ViewOf, Viewable, ViewableMut};
use crate::tensor::Tensor;

/// # Views: transposing and permuting
impl<T, E: Reverse, S: Layout<E>, St> Tensor<T, E, S, St>
where
    S::Transposed: Layout<E::Output>,
{
    /// Reverses the axes without moving any element, for any storage (an owned `RowMajor`
    /// tensor becomes an owned `ColMajor` one).
    pub fn reversed_axes(self) -> Tensor<T, E::Output, S::Transposed, St> {
        let ext = self.extents.reverse();
        let mut strides = self.strides();
        strides.as_mut().reverse();
        let m = <S::Transposed as Layout<E::Output>>::mapping_for(&ext, &strides, S::offset(&self.mapping))
            .expect("the transposed policy expresses reversed strides with the same offset");
        // SAFETY: the same positions, indexed in reverse axis order.
        unsafe { Tensor::from_parts_unchecked(self.storage, ext, m) }
    }
}

/// # Views: transposing and permuting
impl<T, E: Reverse, S: Layout<E>, St: Viewable<T>> Tensor<T, E, S, St>
where
    S::Transposed: Layout<E::Output>,
{
    /// The transpose as a view: axes reversed, `RowMajor` ↔ `ColMajor`, no copy.
    ///
    /// ```
    /// use mdtensor::{tensor, ColMajor, ext, TensorView};
    /// let a = tensor![[1, 2, 3], [4, 5, 6]];
    /// let t: TensorView<'_, i32, ext![3, 2], ColMajor> = a.t();
    /// assert_eq!(t[[2, 0]], 3);
    /// ```
    pub fn t(&self) -> Tensor<T, E::Output, S::Transposed, ViewOf<'_, T, St>> {
        self.view().reversed_axes()
    }
}

/// # Views: transposing and permuting
impl<T, E: Reverse, S: Layout<E>, St> Tensor<T, E, S, St>
where
    S::Transposed: Layout<E::Output>,
{
    /// The transpose as a mutable view.
    pub fn t_mut(&mut self) -> Tensor<T, E::Output, S::Transposed, ViewMutOf<'_, T, St>>
    where
        St: ViewableMut<T>,
    {
        self.view_mut().reversed_axes()
    }
}

/// Axis `I` in a static permutation: `(Ax<2>, Ax<0>, Ax<1>)`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ax<const I: usize>;

/// A static permutation of the axes of `E`: one `Ax<I>` per axis, each axis once.
///
/// Both rules are trait bounds, so `cargo check` reports a wrong count
/// ([`PermutationRank`]) or a repeated axis ([`DistinctAxis`]) at the call.
#[diagnostic::on_unimplemented(
    message = "permute_axes: `{Self}` is not a permutation of the axes of extents `{E}`",
    label = "name every axis once, as a tuple of `Ax<I>` with one entry per axis"
)]
pub trait Permutation<E: Extents> {
    /// The permuted extents.
    type Output: Extents<Index = E::Index, Strides = E::Strides>;
    /// The source axis of each result axis.
    const AXES: &'static [usize];
    /// The permuted extents value.
    fn permute(e: &E) -> Self::Output;
}

/// Extents of rank `R`: a permutation of `R` axes applies to them.
#[diagnostic::on_unimplemented(
    message = "permute_axes: the permutation names {R} axes but extents `{Self}` have another rank",
    label = "give one `Ax<I>` per axis of the tensor"
)]
pub trait PermutationRank<const R: usize>: Extents<Index = [usize; R], Strides = [isize; R]> {}

/// Two different axes of a static permutation.
#[diagnostic::on_unimplemented(
    message = "permute_axes: axis `{Self}` appears twice in the permutation",
    label = "each axis must appear exactly once"
)]
pub trait DistinctAxis<Other> {}

macro_rules! distinct_axes {
    ($($a:literal: $($b:literal)*;)*) => { $($(impl DistinctAxis<Ax<$b>> for Ax<$a> {})*)* };
}
// Every ordered pair of different axes below the largest rank (6).
distinct_axes! {
    0: 1 2 3 4 5;
    1: 0 2 3 4 5;
    2: 0 1 3 4 5;
    3: 0 1 2 4 5;
    4: 0 1 2 3 5;
    5: 0 1 2 3 4;
}

macro_rules! permutation {
    ($rank:literal; $($D:ident $I:ident),*; $($x:ident: $($y:ident)*;)*) => {
        impl<$($D: Dim),*> PermutationRank<$rank> for ($($D,)*) {}

        impl<E, $(const $I: usize),*> Permutation<E> for ($(Ax<$I>,)*)
        where
            E: PermutationRank<$rank> $(+ AxisAt<$I>)*,
            $($(Ax<$x>: DistinctAxis<Ax<$y>>,)*)*
        {
            type Output = ($(<E as AxisAt<$I>>::Dim,)*);
            const AXES: &'static [usize] = &[$($I),*];
            #[inline(always)]
            fn permute(e: &E) -> Self::Output {
                let d = e.dims();
                ($(<<E as AxisAt<$I>>::Dim as Dim>::from_size(d[$I]).expect("same axis"),)*)
            }
        }
    };
}
permutation!(1; A I0;);
permutation!(2; A I0, B I1; I0: I1;);
permutation!(3; A I0, B I1, C I2; I0: I1 I2; I1: I2;);
permutation!(4; A I0, B I1, C I2, D I3; I0: I1 I2 I3; I1: I2 I3; I2: I3;);
permutation!(5; A I0, B I1, C I2, D I3, F I4; I0: I1 I2 I3 I4; I1: I2 I3 I4; I2: I3 I4; I3: I4;);
permutation!(6; A I0, B I1, C I2, D I3, F I4, G I5; I0: I1 I2 I3 I4 I5; I1: I2 I3 I4 I5; I2: I3 I4 I5; I3: I4 I5; I4: I5;);

/// Validates a run-time permutation of `rank` axes.
fn check_permutation(axes: &[usize], rank: usize) -> Result<(), ShapeError> {
    if axes.len() != rank {
        return Err(ShapeError::RankMismatch { op: "permute", expected: rank, found: axes.len() });
    }
    let mut seen = vec![false; rank];
    for &a in axes {
        if a >= rank {
            return Err(ShapeError::AxisOutOfRange { op: "permute", axis: a, rank });
        }
        if std::mem::replace(&mut seen[a], true) {
            return Err(ShapeError::InvalidArgument {
                op: "permute",
                reason: format!("axis {a} appears twice in {axes:?}"),
            });
        }
    }
    Ok(())
}

/// # Views: transposing and permuting
impl<T, E: Extents, S: Layout<E>, St: BorrowedStorage<T>> Tensor<T, E, S, St> {
    /// Permutes the axes by a run-time list: result axis `k` is source axis `axes[k]`
    /// (negative counts from the end, as numpy's `transpose(a, axes)`; [`AxisList`]).
    /// The extents become dynamic (which static dim lands where is not known to the type);
    /// see [`Tensor::into_permuted_axes`] to keep them static.
    pub fn try_into_permuted(self, axes: impl AxisList) -> Result<Tensor<T, E::Dynamic, Strided, St>, ShapeError> {
        // The length first, as before negative axes: a list of the wrong length is a rank
        // mismatch whatever its entries.
        let rank = self.rank();
        if axes.axis_count() != rank {
            return Err(ShapeError::RankMismatch { op: "permute", expected: rank, found: axes.axis_count() });
        }
        let axes = axes.resolve_axes("permute", rank)?;
        check_permutation(&axes, rank)?;
        let (dims, strides) = (self.dims(), self.strides());
        let mut new_dims = self.extents.zero_index();
        let mut new_strides = self.extents.zero_strides();
        for (k, &a) in axes.iter().enumerate() {
            new_dims.as_mut()[k] = dims.as_ref()[a];
            new_strides.as_mut()[k] = strides.as_ref()[a];
        }
        let ext = <E::Dynamic as Extents>::from_dims(new_dims.as_ref())?;
        // SAFETY: a permutation visits the same positions, each once.
        unsafe { self.relayout(ext, new_strides, 0) }
    }

    /// Permutes the axes by a static permutation, keeping each axis' static extent.
    pub fn into_permuted_axes<P: Permutation<E>>(self) -> Tensor<T, P::Output, Strided, St> {
        let strides = self.strides();
        let mut new_strides = self.extents.zero_strides();
        for (k, &a) in P::AXES.iter().enumerate() {
            new_strides.as_mut()[k] = strides.as_ref()[a];
        }
        let ext = P::permute(&self.extents);
        // SAFETY: a permutation visits the same positions, each once.
        unsafe { self.relayout(ext, new_strides, 0) }.expect("Strided expresses any strides")
    }
}

/// # Views: transposing and permuting
impl<T, E: Extents, S: Layout<E>, St: Viewable<T>> Tensor<T, E, S, St> {
    /// See [`Tensor::try_into_permuted`].
    pub fn try_permute(
        &self,
        axes: impl AxisList,
    ) -> Result<Tensor<T, E::Dynamic, Strided, ViewOf<'_, T, St>>, ShapeError> {
        self.view().try_into_permuted(axes)
    }
    /// A view with axes permuted by a run-time list (panics on an invalid permutation).
    ///
    /// ```
    /// use mdtensor::{ext, Tensor};
    /// let a = Tensor::<usize, ext![2, 3, 4]>::from_fn(ext![2, 3, 4], |[i, j, k]| 100 * i + 10 * j + k);
    /// let p = a.permute(&[2, 0, 1]);
    /// assert_eq!(p.dims(), [4, 2, 3]);
    /// assert_eq!(p[[3, 1, 2]], 123);
    /// assert_eq!(a.permute(&[-1, 0, 1]).dims(), [4, 2, 3]);
    /// assert!(a.try_permute(&[2, -1, 0]).is_err()); // axis 2 twice
    /// ```
    #[track_caller]
    pub fn permute(&self, axes: impl AxisList) -> Tensor<T, E::Dynamic, Strided, ViewOf<'_, T, St>> {
        or_panic(self.try_permute(axes))
    }
    /// A view with axes permuted statically; static extents stay static.
    ///
    /// ```
    /// use mdtensor::{ext, Ax, Tensor};
    /// let a = Tensor::<usize, ext![2, 3, 4]>::from_fn(ext![2, 3, 4], |[i, j, k]| 100 * i + 10 * j + k);
    /// let p = a.permute_axes::<(Ax<2>, Ax<0>, Ax<1>)>();
    /// let _: &ext![4, 2, 3] = p.extents();
    /// assert_eq!(p[[3, 1, 2]], 123);
    /// ```
    pub fn permute_axes<P: Permutation<E>>(&self) -> Tensor<T, P::Output, Strided, ViewOf<'_, T, St>> {
        self.view().into_permuted_axes::<P>()
    }
}

/// # Views: transposing and permuting
impl<T, E: Extents, S: Layout<E>, St> Tensor<T, E, S, St> {
    /// A mutable view with axes permuted by a run-time list.
    pub fn try_permute_mut(
        &mut self,
        axes: &[usize],
    ) -> Result<Tensor<T, E::Dynamic, Strided, ViewMutOf<'_, T, St>>, ShapeError>
    where
        St: ViewableMut<T>,
    {
        self.view_mut().try_into_permuted(axes)
    }
}
