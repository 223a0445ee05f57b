//! `broadcast_to`: a read-only view with zero strides on stretched axes.

use crate::error::ShapeError;
use crate::extents::{broadcast_strides, BroadcastTo, Extents};
use crate::layout::{Layout, Strided};
use crate::storage::{DenseStorage, View};
use crate::tensor::{or_panic, ShapeArg, Tensor};

/// # Views: broadcasting
impl<'a, T, E: Extents, S: Layout<E>> Tensor<T, E, S, View<'a, T>> {
    /// Consuming form of [`Tensor::broadcast_to`] (read-only views only: zero strides
    /// make several indices share an element, which a mutable view must never do).
    pub fn try_into_broadcast<E2: Extents>(
        self,
        shape: impl ShapeArg<E2>,
    ) -> Result<Tensor<T, E2, Strided, View<'a, T>>, ShapeError>
    where
        E: BroadcastTo<E2>,
    {
        let target = shape.into_extents("broadcast_to")?;
        // A broadcast view allocates nothing, but its element count must still be a number.
        target.checked_numel("broadcast_to", 1)?;
        let mut strides = target.zero_strides();
        broadcast_strides(
            "broadcast_to",
            self.dims().as_ref(),
            self.strides().as_ref(),
            target.dims().as_ref(),
            strides.as_mut(),
        )?;
        // SAFETY: every target index maps to a source index (stretched axes to index 0);
        // the storage is read-only, so shared positions are allowed.
        unsafe { self.relayout(target, strides, 0) }
    }
}

/// # Views: broadcasting
impl<T, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// See [`Tensor::broadcast_to`].
    pub fn try_broadcast_to<E2: Extents>(
        &self,
        shape: impl ShapeArg<E2>,
    ) -> Result<Tensor<T, E2, Strided, View<'_, T>>, ShapeError>
    where
        E: BroadcastTo<E2>,
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
    #[track_caller]
    pub fn broadcast_to<E2: Extents>(&self, shape: impl ShapeArg<E2>) -> Tensor<T, E2, Strided, View<'_, T>>
    where
        E: BroadcastTo<E2>,
    {
        or_panic(self.try_broadcast_to(shape))
    }
}
