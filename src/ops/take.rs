//! Selection by index along an axis (numpy's `take(a, indices, axis)`) and by a boolean
//! mask (numpy's `a[mask]`). Both copy, as in numpy.

use super::along::{around, check_axis};
use crate::error::{checked_numel, ShapeError};
use crate::extents::{extents_from, Axis, Dyn, Extents, InsertAxis, RemoveAxis, TakeIndex};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::{or_panic, Tensor};

/// The extents of `take` along a static axis `I`: axis `I` becomes dynamic (as long as the
/// index list), the others keep their types.
pub type Taken<E, const I: usize> = <<E as RemoveAxis<I>>::Output as InsertAxis<I, Dyn>>::Output;

/// The elements at `indices` along `axis`, in row-major order, and their extents.
/// Negative indices count from the end, once (numpy's `take`, `mode='raise'`).
fn gather<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    axis: usize,
    indices: &[impl TakeIndex],
) -> Result<(Vec<T>, Vec<usize>), ShapeError> {
    check_axis(op, axis, t.rank())?;
    let dims = t.shape();
    let (outer, n, inner) = around(&dims, axis);
    let indices = indices
        .iter()
        .map(|&j| j.wrap(n).ok_or(ShapeError::IndexOutOfBounds { op, index: j.as_isize(), axis, extent: n }))
        .collect::<Result<Vec<usize>, _>>()?;
    let mut out_dims = dims.clone();
    out_dims[axis] = indices.len();
    let len = checked_numel(op, &out_dims, core::mem::size_of::<T>())?;
    // One row-major copy first, so that every block below is a contiguous slice.
    let data = t.to_vec();
    let mut out = Vec::with_capacity(len);
    for o in 0..outer {
        for &j in &indices {
            let start = (o * n + j) * inner;
            out.extend_from_slice(&data[start..start + inner]);
        }
    }
    Ok((out, out_dims))
}

/// # Selecting by index and by mask
impl<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// See [`Tensor::take`]; `Err` for an index out of bounds (or, for
    /// [`DynRank`](crate::DynRank), without axis `I`).
    pub fn try_take<const I: usize>(&self, indices: &[impl TakeIndex]) -> Result<Tensor<T, Taken<E, I>>, ShapeError>
    where
        E: RemoveAxis<I>,
        <E as RemoveAxis<I>>::Output: InsertAxis<I, Dyn>,
    {
        let (data, dims) = gather(self, "take", I, indices)?;
        Tensor::try_from_vec(extents_from::<Taken<E, I>>("take", &dims)?, data).map_err(|(e, _)| e)
    }
    /// The sub-tensors at `indices` along axis `I`, in that order, repeats allowed (numpy's
    /// `take(a, indices, axis=I)`); axis `I` of the result is dynamic. Indices are `usize`
    /// or signed ([`TakeIndex`]): a negative one counts from the end, once, as numpy
    /// (`-1` is the last, `-n` the first; beyond is out of bounds).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let a = tensor![[1, 2, 3], [4, 5, 6]];
    /// let t = a.take::<1>(&[2, 0, 2]);
    /// assert_eq!(t.dims(), [2, 3]);
    /// assert_eq!(t.to_vec(), [3, 1, 3, 6, 4, 6]);
    /// assert_eq!(a.take::<1>(&[-1, -3]).to_vec(), [3, 1, 6, 4]);
    /// ```
    #[track_caller]
    pub fn take<const I: usize>(&self, indices: &[impl TakeIndex]) -> Tensor<T, Taken<E, I>>
    where
        E: RemoveAxis<I>,
        <E as RemoveAxis<I>>::Output: InsertAxis<I, Dyn>,
    {
        or_panic(self.try_take::<I>(indices))
    }
    /// [`Tensor::take`] along a run-time axis (negative counts from the end); `Err` also
    /// for an axis outside `-rank..rank`.
    pub fn try_take_dyn(
        &self,
        axis: impl Into<Axis>,
        indices: &[impl TakeIndex],
    ) -> Result<Tensor<T, E::Dynamic>, ShapeError> {
        let axis = axis.into().resolve("take_dyn", self.rank())?;
        let (data, dims) = gather(self, "take_dyn", axis, indices)?;
        Tensor::try_from_vec(extents_from::<E::Dynamic>("take_dyn", &dims)?, data).map_err(|(e, _)| e)
    }
    /// [`Tensor::take`] along a run-time axis.
    #[track_caller]
    pub fn take_dyn(&self, axis: impl Into<Axis>, indices: &[impl TakeIndex]) -> Tensor<T, E::Dynamic> {
        or_panic(self.try_take_dyn(axis, indices))
    }
    /// See [`Tensor::masked_select`]; `Err` when the mask's extents differ.
    pub fn try_masked_select<E2: Extents, S2: Layout<E2>, St2: DenseStorage<bool>>(
        &self,
        mask: &Tensor<bool, E2, S2, St2>,
    ) -> Result<Tensor<T, (Dyn,)>, ShapeError> {
        if self.dims().as_ref() != mask.dims().as_ref() {
            return Err(ShapeError::Incompatible {
                op: "masked_select",
                lhs: self.shape(),
                rhs: mask.shape(),
                reason: "the mask must have the tensor's extents".into(),
            });
        }
        let v: Vec<T> = self.iter().zip(mask.iter()).filter(|(_, &m)| m).map(|(x, _)| x.clone()).collect();
        Ok(Tensor::from_vec([v.len()], v))
    }
    /// The elements where `mask` is true, in row-major order (numpy's `a[mask]`).
    ///
    /// ```
    /// use mdtensor::{prelude::*, tensor};
    /// let a = tensor![[1.0, -2.0], [-3.0, 4.0]];
    /// let positive = a.gt(0.0).eval();
    /// assert_eq!(a.masked_select(&positive).to_vec(), [1.0, 4.0]);
    /// ```
    #[track_caller]
    pub fn masked_select<E2: Extents, S2: Layout<E2>, St2: DenseStorage<bool>>(
        &self,
        mask: &Tensor<bool, E2, S2, St2>,
    ) -> Tensor<T, (Dyn,)> {
        or_panic(self.try_masked_select(mask))
    }
}
