//! Splitting a tensor in two along an axis, as views (ndarray's `split_at`, also mutable:
//! `split_at_mut`, the two halves alive at once like `slice::split_at_mut`).

use crate::error::or_panic;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Axis, Extents};
use crate::layout::{Layout, Strided};
use crate::storage::{DenseStorage, DenseStorageMut, ViewMut, ViewOf, Viewable};
use crate::tensor::Tensor;

/// The two halves' extents and the position of the second's first element, for a split of
/// `dims` (with `strides`) before `index` along `axis` (already resolved).
fn halves<E: Extents>(
    op: &'static str,
    ext: &E,
    strides: &[isize],
    axis: usize,
    index: usize,
) -> Result<(E::Dynamic, E::Dynamic, isize), ShapeError> {
    let dims = ext.dims();
    let n = dims.as_ref()[axis];
    if index > n {
        return Err(ShapeError::IndexOutOfBounds {
            op,
            index: index.min(isize::MAX as usize) as isize,
            axis,
            extent: n,
        });
    }
    let (mut a, mut b) = (dims.clone(), dims);
    a.as_mut()[axis] = index;
    b.as_mut()[axis] = n - index;
    // An empty second half reads nothing: anchor it at element [0, …, 0].
    let first = if index == n { 0 } else { index as isize * strides[axis] };
    Ok((E::Dynamic::from_dims(a.as_ref())?, E::Dynamic::from_dims(b.as_ref())?, first))
}

/// # Splitting in two
impl<T, E: Extents, S: Layout<E>, St: Viewable<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::split_at`]; `Err` for an axis outside `-rank..rank` or `index` past
        /// the axis' extent.
        #[allow(clippy::type_complexity)] // a pair of views
        pub fn try_split_at[](
            &self,
            axis: impl Into<Axis>,
            index: usize,
        ) -> Result<(Tensor<T, E::Dynamic, Strided, ViewOf<'_, T, St>>, Tensor<T, E::Dynamic, Strided, ViewOf<'_, T, St>>), ShapeError>
        {
            let axis = axis.into().resolve("split_at", self.rank())?;
            let strides = self.strides();
            let (a, b, first) = halves("split_at", &self.extents, strides.as_ref(), axis, index)?;
            let mut st = a.zero_strides();
            st.as_mut().copy_from_slice(strides.as_ref());
            // SAFETY: each half is a sub-range of the axis with the tensor's own strides, so
            // every index of a half is an index of the tensor.
            let left = unsafe { self.view().relayout(a, st.clone(), 0) }?;
            // SAFETY: as above; `first` is the position of index `index` along `axis`.
            let right = unsafe { self.view().relayout(b, st, first) }?;
            Ok((left, right))
        }
        /// The views before and from `index` along `axis` (ndarray's `split_at(Axis(k), i)`;
        /// numpy's `np.split(a, [i], axis)`); a negative axis counts from the end.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2, 3], [4, 5, 6]];
        /// let (l, r) = a.split_at(1, 1);
        /// assert_eq!((l.to_vec(), r.to_vec()), (vec![1, 4], vec![2, 3, 5, 6]));
        /// ```
        #[allow(clippy::type_complexity)] // a pair of views
        pub fn split_at;
    }
}

impl<T, E: Extents, S: Layout<E>, St: DenseStorageMut<T>> Tensor<T, E, S, St> {
    /// See [`Tensor::split_at_mut`]; `Err` as [`Tensor::try_split_at`].
    #[allow(clippy::type_complexity)] // a pair of views
    pub fn try_split_at_mut(
        &mut self,
        axis: impl Into<Axis>,
        index: usize,
    ) -> Result<
        (Tensor<T, E::Dynamic, Strided, ViewMut<'_, T>>, Tensor<T, E::Dynamic, Strided, ViewMut<'_, T>>),
        ShapeError,
    > {
        let axis = axis.into().resolve("split_at_mut", self.rank())?;
        let strides = self.strides();
        let (a, b, first) = halves("split_at_mut", &self.extents, strides.as_ref(), axis, index)?;
        let mut st = a.zero_strides();
        st.as_mut().copy_from_slice(strides.as_ref());
        let base = self.view_mut();
        let (ptr, len) = (base.storage.as_ptr() as *mut T, base.storage.region_len());
        // SAFETY: `base` holds the exclusive borrow of the region for the halves' lifetime;
        // the second storage handle covers the same region, and the two halves reach
        // disjoint index ranges along `axis`, which the tensor's unique layout maps to
        // disjoint elements, so no element is reachable from both.
        let other = unsafe {
            Tensor::<T, E, S, ViewMut<'_, T>>::from_parts_unchecked(
                ViewMut::from_raw(ptr, len),
                base.extents.clone(),
                base.mapping.clone(),
            )
        };
        // SAFETY: as in `try_split_at`.
        let left = unsafe { base.relayout(a, st.clone(), 0) }?;
        // SAFETY: as in `try_split_at`.
        let right = unsafe { other.relayout(b, st, first) }?;
        Ok((left, right))
    }
    /// The mutable views before and from `index` along `axis`, usable at the same time
    /// (ndarray's `split_at` on an `ArrayViewMut`).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let mut a = tensor![[1, 2], [3, 4], [5, 6]];
    /// let (mut top, bottom) = a.split_at_mut(0, 1);
    /// top.iter_mut().zip(bottom.iter()).for_each(|(t, b)| *t += *b);
    /// assert_eq!(a.to_vec(), [4, 6, 3, 4, 5, 6]);
    /// ```
    #[track_caller]
    #[allow(clippy::type_complexity)] // a pair of views
    pub fn split_at_mut(
        &mut self,
        axis: impl Into<Axis>,
        index: usize,
    ) -> (Tensor<T, E::Dynamic, Strided, ViewMut<'_, T>>, Tensor<T, E::Dynamic, Strided, ViewMut<'_, T>>) {
        or_panic(self.try_split_at_mut(axis, index))
    }
}
