//! Owned elements inline (on the stack), for static extents: no allocation at all.
//!
//! The buffer is a nested array computed from the extents by an associated type —
//! `(Const<A>, Const<B>)` holds `[[T; B]; A]` — rather than a `GenericArray` whose length
//! is a typenum product. That keeps typenum out of the type: a struct with a
//! `StackTensor<f32, ext![O, I]>` field for generic `const O, I` needs no where-clause, and
//! any static extent works (not only those in typenum's table).

use super::{DenseStorage, DenseStorageMut, OwnedStorage, Storage};
use crate::extents::{Const, Dim, Extents, One};
use core::mem::MaybeUninit;

/// A static axis, as the length of one level of a nested array.
///
/// Implemented for [`Const<N>`] and [`One`] only (sealed by the private supertrait).
#[diagnostic::on_unimplemented(
    message = "a `StackTensor` axis must be static: `{Self}` is known only at run time",
    label = "inline storage needs every extent at compile time",
    note = "use a heap `Tensor` for extents with a `Dyn` axis or dynamic rank"
)]
pub trait InlineDim: Dim + private::Sealed {
    /// The extent.
    const LEN: usize;
    /// `[X; LEN]`.
    type Array<X>;
}
impl<const N: usize> InlineDim for Const<N> {
    const LEN: usize = N;
    type Array<X> = [X; N];
}
impl InlineDim for One {
    const LEN: usize = 1;
    type Array<X> = [X; 1];
}

/// Extents whose every axis is static: the elements fit a nested array on the stack.
///
/// Implemented for every tuple of [`Const`]/[`One`] axes (rank 0 to 6), for any extent.
#[diagnostic::on_unimplemented(
    message = "extents `{Self}` cannot be stored inline: every axis must be static",
    label = "a `StackTensor` needs extents known at compile time (`Const<N>` or `One` on every axis)",
    note = "use a heap `Tensor` for extents with a `Dyn` axis or dynamic rank"
)]
pub trait InlineExtents: Extents + Copy + Default + private::Sealed {
    /// Number of elements.
    const NUMEL: usize;
    /// The nested array of `T` holding `NUMEL` elements with no padding (`T` itself for
    /// rank 0 is spelled `[T; 1]`).
    type Array<T>;
}

mod private {
    pub trait Sealed {}
    impl<const N: usize> Sealed for crate::extents::Const<N> {}
    impl Sealed for crate::extents::One {}
    impl Sealed for () {}
    impl<A> Sealed for (A,) {}
    impl<A, B> Sealed for (A, B) {}
    impl<A, B, C> Sealed for (A, B, C) {}
    impl<A, B, C, D> Sealed for (A, B, C, D) {}
    impl<A, B, C, D, F> Sealed for (A, B, C, D, F) {}
    impl<A, B, C, D, F, G> Sealed for (A, B, C, D, F, G) {}
}

impl InlineExtents for () {
    const NUMEL: usize = 1;
    type Array<T> = [T; 1];
}
macro_rules! inline_extents {
    ($($D:ident)+) => {
        impl<$($D: InlineDim + Default),+> InlineExtents for ($($D,)+) {
            const NUMEL: usize = 1 $(* $D::LEN)+;
            type Array<T> = inline_extents!(@nest T; $($D)+);
        }
    };
    (@nest $T:ty; $D:ident) => { <$D as InlineDim>::Array<$T> };
    (@nest $T:ty; $D:ident $($R:ident)+) => { <$D as InlineDim>::Array<inline_extents!(@nest $T; $($R)+)> };
}
inline_extents!(A);
inline_extents!(A B);
inline_extents!(A B C);
inline_extents!(A B C D);
inline_extents!(A B C D F);
inline_extents!(A B C D F G);

/// Inline storage of exactly `E::NUMEL` elements, for the static extents `E`.
/// Use it through [`crate::StackTensor`].
pub struct Inline<T, E: InlineExtents>(E::Array<T>);

impl<T, E: InlineExtents> Inline<T, E> {
    /// Fails the build (at monomorphization) if the nested array is not exactly `NUMEL`
    /// elements; it always is for the sealed impls above, this keeps the pointer casts honest.
    const LAYOUT_OK: () = assert!(
        core::mem::size_of::<E::Array<T>>() == E::NUMEL * core::mem::size_of::<T>()
            && core::mem::align_of::<E::Array<T>>() == core::mem::align_of::<T>()
    );
}

impl<T: Clone, E: InlineExtents> Clone for Inline<T, E>
where
    E::Array<T>: Clone,
{
    fn clone(&self) -> Self {
        Inline(self.0.clone())
    }
}
impl<T: Copy, E: InlineExtents> Copy for Inline<T, E> where E::Array<T>: Copy {}

impl<T, E: InlineExtents> Storage<T> for Inline<T, E> {
    const NAME: &'static str = "Inline";
}

// SAFETY: the nested array holds exactly NUMEL initialised elements of `T`, contiguous and
// without padding (`LAYOUT_OK`).
unsafe impl<T, E: InlineExtents> DenseStorage<T> for Inline<T, E> {
    #[inline(always)]
    fn as_ptr(&self) -> *const T {
        let () = Self::LAYOUT_OK;
        (&self.0 as *const E::Array<T>).cast()
    }
    #[inline(always)]
    fn region_len(&self) -> usize {
        E::NUMEL
    }
}

// SAFETY: `&mut self` gives exclusive access to the inline elements.
unsafe impl<T, E: InlineExtents> DenseStorageMut<T> for Inline<T, E> {
    #[inline(always)]
    fn as_mut_ptr(&mut self) -> *mut T {
        let () = Self::LAYOUT_OK;
        (&mut self.0 as *mut E::Array<T>).cast()
    }
}

/// Drops the first `done` elements written so far if a fill panics half way.
struct PartialFill<T> {
    start: *mut T,
    done: usize,
}
impl<T> Drop for PartialFill<T> {
    fn drop(&mut self) {
        // SAFETY: exactly the first `done` elements were written and are dropped once; the
        // buffer is then forgotten as uninitialised memory.
        unsafe { core::ptr::drop_in_place(core::ptr::slice_from_raw_parts_mut(self.start, self.done)) }
    }
}

// SAFETY: every constructor checks `n == NUMEL` and fills all NUMEL elements.
unsafe impl<T, E: InlineExtents> OwnedStorage<T> for Inline<T, E> {
    #[inline(always)]
    fn from_fn_linear(n: usize, mut f: impl FnMut(usize) -> T) -> Option<Self> {
        // SAFETY: the closure writes all `n == NUMEL` elements in order; a panic in `f` drops
        // the ones already written (PartialFill) and never exposes the array.
        unsafe {
            Self::from_raw_init(n, |p| {
                let mut guard = PartialFill { start: p, done: 0 };
                for i in 0..n {
                    p.add(i).write(f(i));
                    guard.done = i + 1;
                }
                core::mem::forget(guard);
            })
        }
    }
    fn fixed_len() -> Option<usize> {
        Some(E::NUMEL)
    }
    #[inline(always)]
    unsafe fn from_raw_init(n: usize, init: impl FnOnce(*mut T)) -> Option<Self> {
        let () = Self::LAYOUT_OK;
        if n != E::NUMEL {
            return None;
        }
        let mut arr = MaybeUninit::<E::Array<T>>::uninit();
        init(arr.as_mut_ptr().cast());
        // SAFETY: the caller's `init` wrote all NUMEL elements, which is the whole array.
        Some(Inline(unsafe { arr.assume_init() }))
    }
    fn from_vec(v: Vec<T>) -> Result<Self, Vec<T>> {
        if v.len() != E::NUMEL {
            return Err(v);
        }
        let mut it = v.into_iter();
        Ok(Self::from_fn_linear(E::NUMEL, |_| it.next().expect("length checked above")).expect("length checked above"))
    }
}
