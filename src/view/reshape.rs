//! `reshape`: new extents over the same elements in logical (row-major) order.
//!
//! When both extents are static, a different element count does not compile
//! ([`ReshapeTo`]); otherwise it is checked at run time. `reshape` gives a `RowMajor`
//! view, so a tensor that is not row-major contiguous gets
//! [`ShapeError::NotContiguous`]. numpy's `reshape` is [`Tensor::to_shape`] (a view when the
//! strides allow, a copy otherwise) and [`Tensor::reshape_strided`] (the view alone, for
//! any layout whose strides allow it).

use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Extents, StaticExtents};
use crate::layout::{Layout, RowMajor};
use crate::storage::{BorrowedStorage, Heap, ViewMutOf, ViewOf, Viewable, ViewableMut};
use crate::tensor::{ShapeArg, Tensor};
use typenum::{Bit, Eq, IsEqual, B0, B1};

/// Extents `Self` may be reshaped to `Target`: checked in the type when both are static.
#[diagnostic::on_unimplemented(
    message = "cannot reshape extents `{Self}` to `{Target}`",
    label = "the element counts differ",
    note = "static element counts are compared with typenum, for extents in 0..=1024 and powers of two"
)]
pub trait ReshapeTo<Target: Extents>: Extents {}

/// Dispatch on whether both sides are static (`BothStatic = B1`).
#[doc(hidden)]
pub trait ReshapeDispatch<Target, BothStatic> {}

/// The static element counts agree (`Equal = B1`).
#[diagnostic::on_unimplemented(
    message = "cannot reshape extents `{Self}` to `{Target}`: the element counts differ",
    label = "reshape must keep the number of elements"
)]
#[doc(hidden)]
pub trait SameNumel<Target, Equal: Bit> {}
impl<E, Target> SameNumel<Target, B1> for E {}

// Reported as a whole (both extents), not through the typenum dispatch inside.
#[diagnostic::do_not_recommend]
impl<E: Extents, Target: Extents> ReshapeTo<Target> for E where
    E: ReshapeDispatch<Target, <E::IsStatic as crate::extents::StaticBit>::And<Target::IsStatic>>
{
}
impl<E, Target> ReshapeDispatch<Target, B0> for E {}
impl<E: StaticExtents, Target: StaticExtents> ReshapeDispatch<Target, B1> for E
where
    E::Numel: IsEqual<Target::Numel>,
    E: SameNumel<Target, Eq<E::Numel, Target::Numel>>,
{
}

pub(super) fn checked_target<E: Extents, E2: Extents>(
    op: &'static str,
    from: &E,
    shape: impl ShapeArg<E2>,
    elem: usize,
) -> Result<E2, ShapeError> {
    let target = shape.into_extents(op)?;
    let n = target.checked_numel(op, elem)?;
    if n != from.numel() {
        return Err(ShapeError::Incompatible {
            op,
            lhs: from.dims().as_ref().to_vec(),
            rhs: target.dims().as_ref().to_vec(),
            reason: format!("{} elements cannot become {n}", from.numel()),
        });
    }
    Ok(target)
}

/// # Views: reshaping
impl<T, E: Extents, S: Layout<E>, St: BorrowedStorage<T>> Tensor<T, E, S, St> {
    /// Consuming form of [`Tensor::reshape`].
    pub fn try_into_reshaped<E2: Extents>(
        self,
        shape: impl ShapeArg<E2>,
    ) -> Result<Tensor<T, E2, RowMajor, St>, ShapeError>
    where
        E: ReshapeTo<E2>,
    {
        let target = checked_target("reshape", &self.extents, shape, core::mem::size_of::<T>())?;
        if !self.is_standard_layout() {
            return Err(ShapeError::NotContiguous { op: "reshape" });
        }
        let strides = <RowMajor as Layout<E2>>::strides(&target, &());
        // SAFETY: the source's elements are consecutive in row-major order from element
        // [0, …, 0], and the target has the same count in the same order.
        unsafe { self.relayout(target, strides, 0) }
    }
}

/// # Views: reshaping
impl<T, E: Extents, S: Layout<E>, St: Viewable<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::reshape`].
        pub fn try_reshape[E2: Extents](
            &self,
            shape: impl ShapeArg<E2>,
        ) -> Result<Tensor<T, E2, RowMajor, ViewOf<'_, T, St>>, ShapeError>
        where [E: ReshapeTo<E2>]
        {
            self.view().try_into_reshaped(shape)
        }
        /// A view with new extents over the same elements in logical order (no copy). Static
        /// extents with a different element count do not compile.
        ///
        /// ```
        /// use mdtensor::{ext, tensor};
        /// let a = tensor![[1, 2, 3], [4, 5, 6]];
        /// let b = a.reshape(ext![3, 2]);
        /// assert_eq!(b[[2, 0]], 5);
        /// ```
        pub fn reshape;
    }
}

/// # Views: reshaping
impl<T, E: Extents, S: Layout<E>, St> Tensor<T, E, S, St> {
    /// A mutable view with new extents; see [`Tensor::reshape`].
    pub fn try_reshape_mut<E2: Extents>(
        &mut self,
        shape: impl ShapeArg<E2>,
    ) -> Result<Tensor<T, E2, RowMajor, ViewMutOf<'_, T, St>>, ShapeError>
    where
        St: ViewableMut<T>,
        E: ReshapeTo<E2>,
    {
        self.view_mut().try_into_reshaped(shape)
    }
}

/// # Views: reshaping
impl<T, E: Extents> Tensor<T, E, RowMajor, Heap<T>> {
    /// Reshapes an owned row-major tensor without copying; on error the tensor comes back
    /// with the error.
    pub fn try_into_shape<E2: Extents>(
        self,
        shape: impl ShapeArg<E2>,
    ) -> Result<Tensor<T, E2, RowMajor, Heap<T>>, (ShapeError, Self)>
    where
        E: ReshapeTo<E2>,
    {
        match checked_target("into_shape", &self.extents, shape, core::mem::size_of::<T>()) {
            // SAFETY: a row-major heap tensor owns exactly its elements in row-major order.
            Ok(target) => Ok(unsafe { Tensor::from_parts_unchecked(self.storage, target, ()) }),
            Err(e) => Err((e, self)),
        }
    }
    /// Reshapes an owned row-major tensor without copying.
    #[track_caller]
    pub fn into_shape<E2: Extents>(self, shape: impl ShapeArg<E2>) -> Tensor<T, E2, RowMajor, Heap<T>>
    where
        E: ReshapeTo<E2>,
    {
        match self.try_into_shape(shape) {
            Ok(v) => v,
            Err((e, _)) => panic!("{e}"),
        }
    }
}
