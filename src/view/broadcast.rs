//! `broadcast_to`: a read-only view with zero strides on stretched axes.

use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{broadcast_strides, BroadcastTo, Extents};
use crate::layout::{Layout, Strided};
use crate::storage::{ReadOnlyBorrow, ViewOf, Viewable};
use crate::tensor::{ShapeArg, Tensor};

/// The extents and strides of a view of `dims`/`strides` broadcast to `shape` (numpy's
/// rule; stretched axes get stride 0).
fn broadcast_layout<E2: Extents>(
    dims: &[usize],
    strides: &[isize],
    shape: impl ShapeArg<E2>,
) -> Result<(E2, E2::Strides), ShapeError> {
    let target = shape.into_extents("broadcast_to")?;
    // A broadcast view allocates nothing, but its element count must still be a number.
    target.checked_numel("broadcast_to", 1)?;
    let mut out = target.zero_strides();
    broadcast_strides("broadcast_to", dims, strides, target.dims().as_ref(), out.as_mut())?;
    Ok((target, out))
}

/// # Views: broadcasting
impl<T, E: Extents, S: Layout<E>, St: ReadOnlyBorrow<T>> Tensor<T, E, S, St> {
    /// Consuming form of [`Tensor::broadcast_to`] (read-only views only, host or device:
    /// zero strides make several indices share an element, which a mutable view must
    /// never do).
    pub fn try_into_broadcast<E2: Extents>(
        self,
        shape: impl ShapeArg<E2>,
    ) -> Result<Tensor<T, E2, Strided, St>, ShapeError>
    where
        E: BroadcastTo<E2>,
    {
        let (target, strides) = broadcast_layout(self.dims().as_ref(), self.strides().as_ref(), shape)?;
        // SAFETY: every target index maps to a source index (stretched axes to index 0);
        // the storage is read-only, so shared positions are allowed.
        unsafe { self.relayout(target, strides, 0) }
    }
}

/// # Views: broadcasting
impl<T, E: Extents, S: Layout<E>, St: Viewable<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::broadcast_to`].
        pub fn try_broadcast_to[E2: Extents](
            &self,
            shape: impl ShapeArg<E2>,
        ) -> Result<Tensor<T, E2, Strided, ViewOf<'_, T, St>>, ShapeError>
        where [E: BroadcastTo<E2>]
        {
            self.view().try_into_broadcast(shape)
        }
        /// A read-only view of this tensor stretched to `shape` by numpy's rules. With static
        /// extents an impossible broadcast does not compile; dynamic axes are checked at run
        /// time (this form panics, [`Tensor::try_broadcast_to`] returns the error).
        ///
        /// ```
        /// use mdtensor::{ext, tensor};
        /// let row = tensor![1, 2, 3];
        /// let m = row.broadcast_to(ext![2, 3]);
        /// assert_eq!(m.to_vec(), [1, 2, 3, 1, 2, 3]);
        /// ```
        pub fn broadcast_to;
    }
}
