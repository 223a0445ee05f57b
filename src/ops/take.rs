//! Selection by index along an axis (numpy's `take(a, indices, axis)`) and by a boolean
//! mask (numpy's `a[mask]`, over every axis or over the leading ones). All copy, as in
//! numpy.

use super::axiswise::check_axis;
use crate::alloc::try_vec_with_capacity;
use crate::error::{checked_numel, ShapeError};
use crate::exec::forms::forms;
use crate::extents::{extents_from, Axis, Dyn, DynRank, Extents, InsertAxis, RemoveAxis, TakeIndex};
use crate::iter::walk::Walker;
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// The extents of `take` along a static axis `I`: axis `I` becomes dynamic (as long as the
/// index list), the others keep their types.
pub type Taken<E, const I: usize> = <<E as RemoveAxis<I>>::Output as InsertAxis<I, Dyn>>::Output;

/// The elements at `indices` along `axis`, in row-major order, and their extents.
/// Negative indices count from the end, once (numpy's `take`, `mode='raise'`).
///
/// Read where they are, through the strides: copying the input first would cost the whole
/// input (a broadcast view may describe far more than memory) for a result that may be
/// one element, as numpy's `take` of one index from a huge broadcast row is.
fn gather<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    axis: usize,
    indices: &[impl TakeIndex],
) -> Result<(Vec<T>, Vec<usize>), ShapeError> {
    check_axis(op, axis, t.rank())?;
    let dims = t.shape();
    let n = dims[axis];
    // Checked here, wrapped again where read: a list of wrapped indices would cost as much
    // memory as the caller's own list.
    if let Some(bad) = indices.iter().find(|j| j.wrap(n).is_none()) {
        return Err(ShapeError::IndexOutOfBounds { op, index: bad.as_isize(), axis, extent: n });
    }
    let mut out_dims = dims.clone();
    out_dims[axis] = indices.len();
    let len = checked_numel(op, &out_dims, core::mem::size_of::<T>())?;
    let mut out = try_vec_with_capacity(op, len)?;
    if len == 0 {
        return Ok((out, out_dims));
    }
    let strides = t.strides();
    let strides = strides.as_ref();
    let step = strides[axis];
    let base = t.as_ptr();
    let zeros = |k: usize| vec![0usize; k];
    let mut outer = Walker::new(dims[..axis].to_vec(), strides[..axis].to_vec(), zeros(axis));
    let mut inner = Walker::new(dims[axis + 1..].to_vec(), strides[axis + 1..].to_vec(), zeros(dims.len() - axis - 1));
    let inner_len = inner.remaining;
    while let Some(po) = outer.next_pos() {
        for j in indices {
            let j = j.wrap(n).expect("every index was checked above");
            let pj = po + j as isize * step;
            // Back to the block's first element (one walker for every block).
            inner.index.fill(0);
            inner.pos = 0;
            inner.remaining = inner_len;
            while let Some(pi) = inner.next_pos() {
                // SAFETY: `pj + pi` is the offset from element `[0, …, 0]` of the index
                // (outer…, j, inner…), inside the extents (`j < n` was checked), so it lies
                // in the region by the dense invariant.
                out.push(unsafe { &*base.offset(pj + pi) }.clone());
            }
        }
    }
    Ok((out, out_dims))
}

/// The sub-tensors `t[i…]` (over the mask's `k` leading axes) where `mask[i…]` is true, in
/// row-major order of `i…`, and the result's extents `[count, dims[k..]…]`.
///
/// Read through the strides, block by block, for the reason given at [`gather`].
fn gather_masked<
    T: Clone,
    E: Extents,
    S: Layout<E>,
    St: DenseStorage<T>,
    E2: Extents,
    S2: Layout<E2>,
    St2: DenseStorage<bool>,
>(
    t: &Tensor<T, E, S, St>,
    mask: &Tensor<bool, E2, S2, St2>,
) -> Result<(Vec<T>, Vec<usize>), ShapeError> {
    const OP: &str = "masked_select_leading";
    let dims = t.shape();
    let mdims = mask.shape();
    let k = mdims.len();
    if k > dims.len() || dims[..k] != mdims[..] {
        return Err(ShapeError::Incompatible {
            op: OP,
            lhs: dims,
            rhs: mdims,
            reason: "the mask's extents must be the tensor's leading extents".into(),
        });
    }
    let count = mask.iter().filter(|&&m| m).count();
    let out_dims: Vec<usize> = core::iter::once(count).chain(dims[k..].iter().copied()).collect();
    let len = checked_numel(OP, &out_dims, core::mem::size_of::<T>())?;
    let mut out = try_vec_with_capacity(OP, len)?;
    if len == 0 {
        return Ok((out, out_dims));
    }
    let strides = t.strides();
    let strides = strides.as_ref();
    let base = t.as_ptr();
    let mut outer = Walker::new(dims[..k].to_vec(), strides[..k].to_vec(), vec![0; k]);
    let mut inner = Walker::new(dims[k..].to_vec(), strides[k..].to_vec(), vec![0; dims.len() - k]);
    let inner_len = inner.remaining;
    // The mask is read in row-major order, the order in which `outer` visits the blocks.
    for &m in mask.iter() {
        let po = outer.next_pos().expect("the mask has as many elements as the leading axes");
        if !m {
            continue;
        }
        inner.index.fill(0);
        inner.pos = 0;
        inner.remaining = inner_len;
        while let Some(pi) = inner.next_pos() {
            // SAFETY: `po + pi` is the offset from element `[0, …, 0]` of an index inside
            // the extents (both walkers stay within their axes), so it lies in the region
            // by the dense invariant.
            out.push(unsafe { &*base.offset(po + pi) }.clone());
        }
    }
    Ok((out, out_dims))
}

/// # Selecting by index and by mask
impl<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::take`]; `Err` for an index out of bounds (or, for
        /// [`DynRank`], without axis `I`).
        pub fn try_take[const I: usize]::<I>(
            &self,
            indices: &[impl TakeIndex],
        ) -> Result<Tensor<T, Taken<E, I>>, ShapeError>
        where [E: RemoveAxis<I>, <E as RemoveAxis<I>>::Output: InsertAxis<I, Dyn>]
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
        pub fn take;
    }
    forms! {
        /// [`Tensor::take`] along a run-time axis (negative counts from the end); `Err` also
        /// for an axis outside `-rank..rank`.
        pub fn try_take_dyn[](
            &self,
            axis: impl Into<Axis>,
            indices: &[impl TakeIndex],
        ) -> Result<Tensor<T, E::Dynamic>, ShapeError>
        {
            let axis = axis.into().resolve("take_dyn", self.rank())?;
            let (data, dims) = gather(self, "take_dyn", axis, indices)?;
            Tensor::try_from_vec(extents_from::<E::Dynamic>("take_dyn", &dims)?, data).map_err(|(e, _)| e)
        }
        /// [`Tensor::take`] along a run-time axis.
        pub fn take_dyn;
    }
    forms! {
        /// See [`Tensor::masked_select`]; `Err` when the mask's extents differ.
        pub fn try_masked_select[E2: Extents, S2: Layout<E2>, St2: DenseStorage<bool>](
            &self,
            mask: &Tensor<bool, E2, S2, St2>,
        ) -> Result<Tensor<T, (Dyn,)>, ShapeError>
        {
            if self.dims().as_ref() != mask.dims().as_ref() {
                return Err(ShapeError::Incompatible {
                    op: "masked_select",
                    lhs: self.shape(),
                    rhs: mask.shape(),
                    reason: "the mask must have the tensor's extents".into(),
                });
            }
            // Counted first, so the result is allocated once, fallibly, at its own size.
            let count = mask.iter().filter(|&&m| m).count();
            let mut v = try_vec_with_capacity("masked_select", count)?;
            v.extend(self.iter().zip(mask.iter()).filter(|(_, &m)| m).map(|(x, _)| x.clone()));
            Tensor::try_from_vec([count], v).map_err(|(e, _)| e)
        }
        /// The elements where `mask` is true, in row-major order (numpy's `a[mask]`).
        ///
        /// ```
        /// use mdtensor::{prelude::*, tensor};
        /// let a = tensor![[1.0, -2.0], [-3.0, 4.0]];
        /// let positive = a.gt(0.0).eval();
        /// assert_eq!(a.masked_select(&positive).to_vec(), [1.0, 4.0]);
        /// ```
        pub fn masked_select;
    }
    forms! {
        /// See [`Tensor::masked_select_leading`]; `Err` when the mask's extents are not the
        /// tensor's leading extents.
        pub fn try_masked_select_leading[E2: Extents, S2: Layout<E2>, St2: DenseStorage<bool>](
            &self,
            mask: &Tensor<bool, E2, S2, St2>,
        ) -> Result<Tensor<T, DynRank>, ShapeError>
        {
            let (data, dims) = gather_masked(self, mask)?;
            Tensor::try_from_vec(DynRank::new(dims), data).map_err(|(e, _)| e)
        }
        /// The sub-tensors where a mask over the leading axes is true (numpy's `a[mask]` with
        /// `mask.shape == a.shape[:k]`): for a mask of rank `k`, the result has extents
        /// `[count of true, a's extents from axis k on…]`, its blocks in the mask's row-major
        /// order. A mask of the tensor's full shape gives what
        /// [`masked_select`](Tensor::masked_select) gives, as a rank-1 [`DynRank`] tensor.
        /// Panics when the mask's extents are not the tensor's leading extents.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2, 3], [4, 5, 6], [7, 8, 9]];
        /// let rows = tensor![true, false, true];
        /// let picked = a.masked_select_leading(&rows);
        /// assert_eq!(picked.dims(), [2, 3]);
        /// assert_eq!(picked.to_vec(), [1, 2, 3, 7, 8, 9]);
        /// // The mask must be a prefix of the shape.
        /// assert!(a.try_masked_select_leading(&tensor![true, false]).is_err());
        /// ```
        pub fn masked_select_leading;
    }
}
