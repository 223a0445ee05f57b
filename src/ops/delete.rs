//! numpy's `delete`: a copy without some indices along an axis (ndarray's `remove_index`
//! removes one index in place; here any list, as numpy, and a new tensor).

use super::take::Taken;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Axis, Dyn, Extents, InsertAxis, RemoveAxis, TakeIndex};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// The indices `0..n` not in `removed` (each wrapped once when negative); `Err` for one
/// out of bounds. Repeats remove once, as in numpy.
fn kept(op: &'static str, axis: usize, n: usize, removed: &[impl TakeIndex]) -> Result<Vec<usize>, ShapeError> {
    let mut keep = vec![true; n];
    for &j in removed {
        let i = j.wrap(n).ok_or(ShapeError::IndexOutOfBounds { op, index: j.as_isize(), axis, extent: n })?;
        keep[i] = false;
    }
    Ok((0..n).filter(|&i| keep[i]).collect())
}

/// # Deleting indices along an axis
impl<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::delete`]; `Err` for an index out of bounds (or, for
        /// [`DynRank`](crate::DynRank), without axis `I`).
        pub fn try_delete[const I: usize]::<I>(
            &self,
            indices: &[impl TakeIndex],
        ) -> Result<Tensor<T, Taken<E, I>>, ShapeError>
        where [E: RemoveAxis<I>, <E as RemoveAxis<I>>::Output: InsertAxis<I, Dyn>]
        {
            if I >= self.rank() {
                return Err(ShapeError::AxisOutOfRange { op: "delete", axis: I, rank: self.rank() });
            }
            let keep = kept("delete", I, self.extents.extent(I), indices)?;
            self.try_take::<I>(&keep)
        }
        /// A copy without the sub-tensors at `indices` along axis `I` (numpy's
        /// `np.delete(a, indices, axis=I)`; ndarray's `remove_index` for one index). Negative
        /// indices count from the end; repeats remove once.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2, 3], [4, 5, 6]];
        /// assert_eq!(a.delete::<1>(&[0, -1]).to_vec(), [2, 5]);
        /// assert!(a.try_delete::<0>(&[2]).is_err());
        /// ```
        #[doc(alias = "remove_index")]
        pub fn delete;
    }
    forms! {
        /// [`Tensor::delete`] along a run-time axis (negative counts from the end); `Err` also
        /// outside `-rank..rank`.
        pub fn try_delete_dyn[](
            &self,
            axis: impl Into<Axis>,
            indices: &[impl TakeIndex],
        ) -> Result<Tensor<T, E::Dynamic>, ShapeError>
        {
            let axis = axis.into().resolve("delete_dyn", self.rank())?;
            let keep = kept("delete_dyn", axis, self.extents.extent(axis), indices)?;
            self.try_take_dyn(axis, &keep)
        }
        /// See [`Tensor::try_delete_dyn`].
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<i32, DynRank>::from_vec(vec![2, 3], vec![1, 2, 3, 4, 5, 6]);
        /// assert_eq!(a.delete_dyn(-1, &[1]).to_vec(), [1, 3, 4, 6]);
        /// ```
        pub fn delete_dyn;
    }
}
