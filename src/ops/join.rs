//! Joining and splitting along an axis: numpy's `concatenate`, `stack`, `split` and
//! `array_split`.
//!
//! * [`Tensor::concatenate`] joins two tensors along a static axis `I`; the result's
//!   extents follow in the type ([`ConcatAlong`]: `ext![2, 3]` and `ext![4, 3]` along axis
//!   0 give `ext![6, 3]`, a static mismatch off the axis does not compile).
//! * [`concatenate_dyn`], [`stack`] and [`stack_dyn`] join any number of tensors of one
//!   type, the axis static or chosen at run time.
//! * The splits return views of the tensor's own elements (no copy, as in numpy).
//!
//! Joins read every operand once in logical order: in row-major order a result is, for each
//! index of the axes before the joined one, one block from each operand in turn.

use super::axiswise::{check_axis, dyn_view};
use crate::alloc::try_vec_with_capacity;
use crate::error::or_panic;
use crate::error::{checked_numel, ShapeError};
use crate::exec::forms::forms;
use crate::extents::{extents_from, joined_dims, Axis, ConcatAlong, DynRank, Extents, StackAxis};
use crate::layout::{Layout, Strided};
use crate::storage::{DenseStorage, View};
use crate::tensor::{Tensor, TensorView};

/// A dense tensor of any extents, stride policy and storage: the right operand of
/// [`Tensor::concatenate`]. A trait rather than three more type parameters, so that a call
/// names only the axis: `a.concatenate::<0, _>(&b)`.
pub trait DenseOperand<T> {
    /// The operand's extents type.
    type Extents: Extents;
    /// The operand's extents.
    fn operand_extents(&self) -> &Self::Extents;
    /// The operand's elements as a dynamic-rank view.
    fn operand_view(&self) -> TensorView<'_, T, DynRank, Strided>;
}
impl<T, E: Extents, S: Layout<E>, St: DenseStorage<T>> DenseOperand<T> for Tensor<T, E, S, St> {
    type Extents = E;
    fn operand_extents(&self) -> &E {
        self.extents()
    }
    fn operand_view(&self) -> TensorView<'_, T, DynRank, Strided> {
        dyn_view(self)
    }
}

/// A right operand of [`Tensor::concatenate`] that joins after a tensor of extents `L`
/// along axis `I`: every [`DenseOperand`] whose extents `L` can be joined with
/// ([`ConcatAlong`]), through one blanket impl.
///
/// The method's bound is on the operand (whose type is still `_` when rustc looks the
/// method up) rather than on `L`: a bound on a generic `L` with no `ConcatAlong` would
/// hide the method (E0599, "trait bounds were not satisfied", suggesting
/// `L: ConcatAlong<_, _>`), where this one reports the missing `L: ConcatAlong<I, R>` once,
/// with the axis and the operand filled in, as the bound to add.
pub trait ConcatOperand<T, const I: usize, L: Extents>: DenseOperand<T> {
    /// The extents of the joined tensor.
    type Joined: Extents;
    /// The joined extents, or why run-time extents do not fit.
    fn joined_extents(lhs: &L, rhs: &Self) -> Result<Self::Joined, ShapeError>;
}
impl<T, const I: usize, L: ConcatAlong<I, R::Extents>, R: DenseOperand<T>> ConcatOperand<T, I, L> for R {
    type Joined = <L as ConcatAlong<I, R::Extents>>::Output;
    fn joined_extents(lhs: &L, rhs: &R) -> Result<Self::Joined, ShapeError> {
        lhs.concat_along(rhs.operand_extents())
    }
}

/// The elements of `parts` interleaved block by block: for each index of the axes before
/// `axis`, every part's sub-block from `axis` on, in order.
/// The result's buffer is allocated fallibly before anything is read: a join of huge
/// broadcast views is an `OutOfMemory` error, not an abort.
fn interleave<T: Clone>(
    op: &'static str,
    parts: &[TensorView<'_, T, DynRank, Strided>],
    axis: usize,
    numel: usize,
) -> Result<Vec<T>, ShapeError> {
    // No elements: no blocks to copy, however many empty ones the outer axes describe.
    let outer: usize = if numel == 0 { 0 } else { parts[0].dims()[..axis].iter().product() };
    let mut out = try_vec_with_capacity(op, numel)?;
    let mut iters = try_vec_with_capacity(op, parts.len())?;
    iters.extend(parts.iter().map(|p| (p.iter(), p.dims()[axis..].iter().product::<usize>())));
    for _ in 0..outer {
        for (it, block) in &mut iters {
            out.extend(it.by_ref().take(*block).cloned());
        }
    }
    Ok(out)
}

/// A row-major tensor of extents `dims` from the interleaved `parts`.
fn assemble<T: Clone, E: Extents>(
    op: &'static str,
    parts: &[TensorView<'_, T, DynRank, Strided>],
    axis: usize,
    dims: &[usize],
) -> Result<Tensor<T, E>, ShapeError> {
    let ext: E = extents_from(op, dims)?;
    let n = checked_numel(op, dims, core::mem::size_of::<T>())?;
    Tensor::try_from_vec(ext, interleave(op, parts, axis, n)?).map_err(|(e, _)| e)
}

fn concat_dims(axis: usize, parts: &[TensorView<'_, impl Sized, DynRank, Strided>]) -> Result<Vec<usize>, ShapeError> {
    let first = parts
        .first()
        .ok_or_else(|| ShapeError::InvalidArgument { op: "concatenate", reason: "needs at least one tensor".into() })?;
    check_axis("concatenate", axis, first.rank())?;
    let mut dims = first.shape();
    for p in &parts[1..] {
        dims = joined_dims(axis, &dims, p.extents().as_slice())?;
    }
    Ok(dims)
}

fn stack_dims(axis: usize, parts: &[TensorView<'_, impl Sized, DynRank, Strided>]) -> Result<Vec<usize>, ShapeError> {
    let first = parts
        .first()
        .ok_or_else(|| ShapeError::InvalidArgument { op: "stack", reason: "needs at least one tensor".into() })?;
    if axis > first.rank() {
        return Err(ShapeError::NewAxisOutOfRange {
            op: "stack",
            axis: axis.min(isize::MAX as usize) as isize,
            rank: first.rank(),
        });
    }
    if let Some(p) = parts.iter().find(|p| p.extents() != first.extents()) {
        return Err(ShapeError::Incompatible {
            op: "stack",
            lhs: first.shape(),
            rhs: p.shape(),
            reason: "stacked tensors must have the same extents".into(),
        });
    }
    let mut dims = first.shape();
    dims.insert(axis, parts.len());
    Ok(dims)
}

fn dyn_views<'a, T, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    op: &'static str,
    parts: &[&'a Tensor<T, E, S, St>],
) -> Result<Vec<TensorView<'a, T, DynRank, Strided>>, ShapeError> {
    let mut views = try_vec_with_capacity(op, parts.len())?;
    views.extend(parts.iter().map(|p| dyn_view(p)));
    Ok(views)
}

/// See [`concatenate_dyn`].
pub fn try_concatenate_dyn<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    axis: impl Into<Axis>,
    parts: &[&Tensor<T, E, S, St>],
) -> Result<Tensor<T, E::Dynamic>, ShapeError> {
    // With no parts there is no rank to count a negative axis from: `concat_dims` reports
    // the missing parts.
    let axis = match parts.first() {
        Some(p) => axis.into().resolve("concatenate", p.rank())?,
        None => 0,
    };
    let views = dyn_views("concatenate", parts)?;
    let dims = concat_dims(axis, &views)?;
    assemble("concatenate", &views, axis, &dims)
}

/// Joins tensors of one type along a run-time `axis` (numpy's `concatenate(parts, axis)`;
/// a negative axis counts from the end).
/// `Err` for no parts, an axis out of range, or extents that differ off the axis.
///
/// ```
/// use mdtensor::{concatenate_dyn, tensor};
/// let a = tensor![[1, 2], [3, 4]];
/// let b = tensor![[5, 6], [7, 8]];
/// let c = concatenate_dyn(1, &[&a, &b]);
/// assert_eq!(c.dims(), [2, 4]);
/// assert_eq!(c.to_vec(), [1, 2, 5, 6, 3, 4, 7, 8]);
/// ```
#[track_caller]
pub fn concatenate_dyn<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    axis: impl Into<Axis>,
    parts: &[&Tensor<T, E, S, St>],
) -> Tensor<T, E::Dynamic> {
    or_panic(try_concatenate_dyn(axis, parts))
}

/// See [`stack`].
pub fn try_stack<const I: usize, T: Clone, E, S: Layout<E>, St: DenseStorage<T>>(
    parts: &[&Tensor<T, E, S, St>],
) -> Result<Tensor<T, <E as StackAxis<I>>::Output>, ShapeError>
where
    E: StackAxis<I>,
{
    let views = dyn_views("stack", parts)?;
    let dims = stack_dims(I, &views)?;
    // Checks the axis for dynamic rank; for tuples the type already did.
    parts[0].extents().stack_extents(parts.len())?;
    assemble("stack", &views, I, &dims)
}

/// Joins tensors of equal extents along a new axis `I` of extent `parts.len()` (numpy's
/// `stack(parts, axis=I)`); the other axes keep their types. `Err` for no parts or
/// differing extents. Generic code over `E` names `E: StackAxis<I>` (the bound rustc
/// suggests; the result's extents are its `Output`).
///
/// ```
/// use mdtensor::extents::StackAxis;
/// use mdtensor::{ext, stack, tensor, Tensor};
/// let a = tensor![1, 2, 3];
/// let b = tensor![4, 5, 6];
/// let s = stack::<1, _, _, _, _>(&[&a, &b]);
/// let _: &(mdtensor::Const<3>, mdtensor::Dyn) = s.extents();
/// assert_eq!(s.to_vec(), [1, 4, 2, 5, 3, 6]);
/// fn pair<E: StackAxis<0>>(a: &Tensor<f32, E>, b: &Tensor<f32, E>) -> Tensor<f32, E::Output> {
///     stack::<0, _, _, _, _>(&[a, b])
/// }
/// assert_eq!(pair(&tensor![1.0, 2.0], &tensor![3.0, 4.0]).shape(), [2, 2]);
/// ```
#[track_caller]
pub fn stack<const I: usize, T: Clone, E, S: Layout<E>, St: DenseStorage<T>>(
    parts: &[&Tensor<T, E, S, St>],
) -> Tensor<T, <E as StackAxis<I>>::Output>
where
    E: StackAxis<I>,
{
    or_panic(try_stack::<I, T, E, S, St>(parts))
}

/// See [`stack_dyn`].
pub fn try_stack_dyn<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    axis: impl Into<Axis>,
    parts: &[&Tensor<T, E, S, St>],
) -> Result<Tensor<T, DynRank>, ShapeError> {
    // The new axis counts in the result, one rank up (numpy's `stack(…, axis=-1)` appends).
    let axis = match parts.first() {
        Some(p) => {
            let axis = axis.into();
            axis.resolve("stack", p.rank() + 1).map_err(|e| match e {
                ShapeError::AxisOutOfRange { axis, .. } => ShapeError::NewAxisOutOfRange {
                    op: "stack",
                    axis: axis.min(isize::MAX as usize) as isize,
                    rank: p.rank(),
                },
                ShapeError::NegativeAxisOutOfRange { axis, .. } => {
                    ShapeError::NewAxisOutOfRange { op: "stack", axis, rank: p.rank() }
                }
                other => other,
            })?
        }
        None => 0,
    };
    let views = dyn_views("stack", parts)?;
    let dims = stack_dims(axis, &views)?;
    assemble("stack", &views, axis, &dims)
}

/// [`stack`] along a run-time `axis` (`0..=rank`, or negative counted in the result:
/// `-1` appends, as numpy); the result has dynamic rank.
///
/// ```
/// use mdtensor::{stack_dyn, tensor};
/// let a = tensor![1, 2];
/// let s = stack_dyn(0, &[&a, &a, &a]);
/// assert_eq!(s.shape(), [3, 2]);
/// ```
#[track_caller]
pub fn stack_dyn<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    axis: impl Into<Axis>,
    parts: &[&Tensor<T, E, S, St>],
) -> Tensor<T, DynRank> {
    or_panic(try_stack_dyn(axis, parts))
}

/// Pieces of an axis of extent `n`: numpy's `split` (equal, `exact`) or `array_split`
/// (the first `n % sections` pieces one longer). An iterator, not a `Vec`: the count comes
/// from the caller and may be far larger than memory.
fn section_bounds(
    op: &'static str,
    n: usize,
    sections: usize,
    exact: bool,
) -> Result<impl Iterator<Item = (usize, usize)>, ShapeError> {
    if sections == 0 {
        return Err(ShapeError::InvalidArgument { op, reason: "the number of sections is 0".into() });
    }
    if exact && !n.is_multiple_of(sections) {
        return Err(ShapeError::InvalidArgument {
            op,
            reason: format!("an axis of extent {n} does not split into {sections} equal sections"),
        });
    }
    let (q, r) = (n / sections, n % sections);
    let mut start = 0;
    Ok((0..sections).map(move |k| {
        let len = q + usize::from(k < r);
        start += len;
        (start - len, len)
    }))
}

/// # Joining and splitting
impl<T, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::concatenate`].
        pub fn try_concatenate[const I: usize, R: ConcatOperand<T, I, E>]::<I, R>(
            &self,
            other: &R,
        ) -> Result<Tensor<T, R::Joined>, ShapeError>
        where [T: Clone]
        {
            let ext = R::joined_extents(self.extents(), other)?;
            let views = [dyn_view(self), other.operand_view()];
            let dims = ext.dims();
            let n = checked_numel("concatenate", dims.as_ref(), core::mem::size_of::<T>())?;
            Tensor::try_from_vec(ext, interleave("concatenate", &views, I, n)?).map_err(|(e, _)| e)
        }
        /// `self` followed by `other` along axis `I` (numpy's `concatenate((a, b), axis=I)`),
        /// any stride policies and storages. Static extents are added in the type and must
        /// agree off the axis at compile time; dynamic ones are checked at run time
        /// (`try_concatenate`). The `_` stands for the operand's type.
        ///
        /// ```
        /// use mdtensor::{ext, tensor, Tensor};
        /// let a = Tensor::<i32, ext![2, 3]>::zeros(ext![2, 3]);
        /// let b = Tensor::<i32, ext![4, 3]>::ones(ext![4, 3]);
        /// let c = a.concatenate::<0, _>(&b);
        /// let _: &ext![6, 3] = c.extents();
        /// let d = tensor![[1, 2], [3, 4]].concatenate::<1, _>(&tensor![[5, 6]].t());
        /// assert_eq!(d.to_vec(), [1, 2, 5, 3, 4, 6]);
        /// ```
        pub fn concatenate;
    }

    fn pieces(
        &self,
        op: &'static str,
        axis: usize,
        sections: usize,
        exact: bool,
    ) -> Result<Vec<Tensor<T, E::Dynamic, Strided, View<'_, T>>>, ShapeError> {
        check_axis(op, axis, self.rank())?;
        let bounds = section_bounds(op, self.extents().extent(axis), sections, exact)?;
        self.pieces_at(op, axis, sections, bounds)
    }
    /// Views of the `count` ranges `(start, len)` along `axis`, each inside the axis.
    fn pieces_at(
        &self,
        op: &'static str,
        axis: usize,
        count: usize,
        bounds: impl Iterator<Item = (usize, usize)>,
    ) -> Result<Vec<Tensor<T, E::Dynamic, Strided, View<'_, T>>>, ShapeError> {
        let dims = self.dims();
        let step = self.strides().as_ref()[axis];
        let mut out = try_vec_with_capacity(op, count)?;
        let mut item = try_vec_with_capacity(op, dims.as_ref().len())?;
        item.extend_from_slice(dims.as_ref());
        for (start, len) in bounds {
            item[axis] = len;
            let ext = E::Dynamic::from_dims(&item)?;
            let mut strides = ext.zero_strides();
            strides.as_mut().copy_from_slice(self.strides().as_ref());
            // SAFETY: indices `start..start + len` of the axis are in bounds (the callers'
            // ranges lie inside it); the other axes are unchanged.
            out.push(unsafe { self.view().relayout(ext, strides, start as isize * step) }?);
        }
        Ok(out)
    }
    forms! {
        /// See [`Tensor::split`]; `Err` when `sections` is 0 or does not divide the extent (or,
        /// for [`DynRank`], without axis `I`).
        pub fn try_split[const I: usize]::<I>(
            &self,
            sections: usize,
        ) -> Result<Vec<Tensor<T, E::Dynamic, Strided, View<'_, T>>>, ShapeError>
        where [E: crate::extents::AxisAt<I>]
        {
            self.pieces("split", I, sections, true)
        }
        /// `sections` equal views along axis `I` (numpy's `split(a, sections, axis=I)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2, 3, 4], [5, 6, 7, 8]];
        /// let p = a.split::<1>(2);
        /// assert_eq!(p[1].to_vec(), [3, 4, 7, 8]);
        /// ```
        pub fn split;
    }
    forms! {
        /// [`Tensor::split`] along a run-time axis; `Err` also outside `-rank..rank` (a negative axis counts from the end).
        pub fn try_split_dyn[](
            &self,
            axis: impl Into<Axis>,
            sections: usize,
        ) -> Result<Vec<Tensor<T, E::Dynamic, Strided, View<'_, T>>>, ShapeError>
        {
            let axis = axis.into().resolve("split_dyn", self.rank())?;
            self.pieces("split_dyn", axis, sections, true)
        }
        /// [`Tensor::split`] along a run-time axis.
        pub fn split_dyn;
    }
    fn pieces_between(
        &self,
        op: &'static str,
        axis: usize,
        indices: &[usize],
    ) -> Result<Vec<Tensor<T, E::Dynamic, Strided, View<'_, T>>>, ShapeError> {
        check_axis(op, axis, self.rank())?;
        let n = self.extents().extent(axis);
        // numpy slices `a[p:q]` between consecutive points (0, the indices clipped to the
        // axis, then its end): empty when `q <= p`.
        let starts = core::iter::once(0).chain(indices.iter().map(|&i| i.min(n)));
        let ends = indices.iter().map(|&i| i.min(n)).chain([n]);
        let bounds = starts.zip(ends).map(|(p, q)| (p, q.saturating_sub(p)));
        self.pieces_at(op, axis, indices.len() + 1, bounds)
    }
    forms! {
        /// See [`Tensor::split_indices`]; `Err` only for a [`DynRank`] tensor without axis `I`.
        pub fn try_split_indices[const I: usize]::<I>(
            &self,
            indices: &[usize],
        ) -> Result<Vec<Tensor<T, E::Dynamic, Strided, View<'_, T>>>, ShapeError>
        where [E: crate::extents::AxisAt<I>]
        {
            self.pieces_between("split_indices", I, indices)
        }
        /// Views between the given indices along axis `I`: `a[:i0]`, `a[i0:i1]`, …, `a[ik:]`
        /// (numpy's `split(a, [i0, i1, …], axis=I)`; indices past the end are clipped, and a
        /// piece whose end is before its start is empty, as numpy's slices).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![0, 1, 2, 3, 4, 5];
        /// let p: Vec<Vec<i32>> = a.split_indices::<0>(&[2, 5]).iter().map(|v| v.to_vec()).collect();
        /// assert_eq!(p, [vec![0, 1], vec![2, 3, 4], vec![5]]);
        /// ```
        pub fn split_indices;
    }
    forms! {
        /// [`Tensor::split_indices`] along a run-time axis; `Err` outside `-rank..rank` (a negative axis counts from the end).
        pub fn try_split_indices_dyn[](
            &self,
            axis: impl Into<Axis>,
            indices: &[usize],
        ) -> Result<Vec<Tensor<T, E::Dynamic, Strided, View<'_, T>>>, ShapeError>
        {
            let axis = axis.into().resolve("split_indices_dyn", self.rank())?;
            self.pieces_between("split_indices_dyn", axis, indices)
        }
        /// [`Tensor::split_indices`] along a run-time axis.
        pub fn split_indices_dyn;
    }
    forms! {
        /// See [`Tensor::array_split`]; `Err` when `sections` is 0.
        pub fn try_array_split[const I: usize]::<I>(
            &self,
            sections: usize,
        ) -> Result<Vec<Tensor<T, E::Dynamic, Strided, View<'_, T>>>, ShapeError>
        where [E: crate::extents::AxisAt<I>]
        {
            self.pieces("array_split", I, sections, false)
        }
        /// `sections` views along axis `I`, the first `extent % sections` one longer (numpy's
        /// `array_split`); more sections than indices give empty views.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![1, 2, 3, 4, 5];
        /// let p: Vec<Vec<i32>> = a.array_split::<0>(3).iter().map(|v| v.to_vec()).collect();
        /// assert_eq!(p, [vec![1, 2], vec![3, 4], vec![5]]);
        /// ```
        pub fn array_split;
    }
    forms! {
        /// [`Tensor::array_split`] along a run-time axis; `Err` also outside `-rank..rank` (a negative axis counts from the end).
        pub fn try_array_split_dyn[](
            &self,
            axis: impl Into<Axis>,
            sections: usize,
        ) -> Result<Vec<Tensor<T, E::Dynamic, Strided, View<'_, T>>>, ShapeError>
        {
            let axis = axis.into().resolve("array_split_dyn", self.rank())?;
            self.pieces("array_split_dyn", axis, sections, false)
        }
        /// [`Tensor::array_split`] along a run-time axis.
        pub fn array_split_dyn;
    }
}
