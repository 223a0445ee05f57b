//! Reshaping a tensor of any layout the numpy way: a view whenever the strides allow it
//! (numpy's `_attempt_nocopy_reshape`, C order), a copy otherwise, never a refusal of a
//! valid element count.
//!
//! How it fits the types: [`Tensor::reshape`] keeps its `RowMajor` view (and its
//! `Err(NotContiguous)` for other layouts), because a `RowMajor` result is what lets the
//! fast contiguous kernels run on it. The numpy rule needs general strides, so
//! [`Tensor::reshape_strided`] returns a `Strided` view (`Err` only when no view can
//! exist), and [`Tensor::to_shape`] — ndarray's name, whose `CowArray` is the same idea —
//! returns a [`CowTensor`]: the view when there is one, an owned row-major copy otherwise.

use super::reshape::ReshapeTo;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::Extents;
use crate::layout::{Layout, RowMajor, Strided};
use crate::storage::{BorrowedStorage, DenseStorage, Heap, View};
use crate::tensor::{ShapeArg, Tensor};

/// numpy's `_attempt_nocopy_reshape` in C order, on strides in elements: the strides under
/// which `new` reads the elements of `(old, old_strides)` in the same row-major logical
/// order, or `None` when no strides can (a copy is needed). Both shapes hold the same
/// number of elements.
pub(crate) fn nocopy_strides(old: &[usize], old_strides: &[isize], new: &[usize]) -> Option<Vec<isize>> {
    if new.contains(&0) || old.contains(&0) {
        // Nothing is read: any strides do; row-major ones keep the view tidy.
        return Some(row_major(new));
    }
    // Axes of extent 1 read one element: their strides do not matter.
    let (od, os): (Vec<usize>, Vec<isize>) =
        old.iter().zip(old_strides).filter(|(&d, _)| d != 1).map(|(&d, &s)| (d, s)).unzip();
    let mut ns = vec![0isize; new.len()];
    let (mut oi, mut oj, mut ni, mut nj) = (0, 1, 0, 1);
    while ni < new.len() && oi < od.len() {
        let (mut np, mut op) = (new[ni], od[oi]);
        // Grow the two groups of axes until they hold the same number of elements.
        while np != op {
            if np < op {
                np *= new[nj];
                nj += 1;
            } else {
                op *= od[oj];
                oj += 1;
            }
        }
        // The old axes of the group must combine into one run of equal steps.
        for ok in oi..oj - 1 {
            if os[ok] != (od[ok + 1] as isize).checked_mul(os[ok + 1])? {
                return None;
            }
        }
        ns[nj - 1] = os[oj - 1];
        for nk in (ni + 1..nj).rev() {
            ns[nk - 1] = ns[nk].checked_mul(new[nk] as isize)?;
        }
        ni = nj;
        nj += 1;
        oi = oj;
        oj += 1;
    }
    // Trailing axes of extent 1 of the new shape.
    let last = if ni >= 1 { ns[ni - 1] } else { 1 };
    ns[ni..].iter_mut().for_each(|s| *s = last);
    Some(ns)
}

fn row_major(dims: &[usize]) -> Vec<isize> {
    let mut s = vec![1isize; dims.len()];
    for k in (0..dims.len().saturating_sub(1)).rev() {
        s[k] = s[k + 1].saturating_mul(dims[k + 1].max(1) as isize);
    }
    s
}

impl<T, E: Extents, S: Layout<E>, St: BorrowedStorage<T>> Tensor<T, E, S, St> {
    /// Consuming form of [`Tensor::reshape_strided`].
    pub fn try_into_reshaped_strided<E2: Extents>(
        self,
        shape: impl ShapeArg<E2>,
    ) -> Result<Tensor<T, E2, Strided, St>, ShapeError>
    where
        E: ReshapeTo<E2>,
    {
        const OP: &str = "reshape_strided";
        let target = super::reshape::checked_target(OP, &self.extents, shape, core::mem::size_of::<T>())?;
        let new = nocopy_strides(self.dims().as_ref(), self.strides().as_ref(), target.dims().as_ref())
            .ok_or(ShapeError::NotContiguous { op: OP })?;
        let mut strides = target.zero_strides();
        strides.as_mut().copy_from_slice(&new);
        // SAFETY: `nocopy_strides` maps each index of the target to the position of the
        // source element with the same row-major rank, element [0, …, 0] to element
        // [0, …, 0]; distinct ranks were distinct positions, so they stay distinct.
        unsafe { self.relayout(target, strides, 0) }
    }
}

impl<T, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::reshape_strided`]; `Err(NotContiguous)` when no view can hold the new
        /// shape (numpy would copy; [`Tensor::to_shape`] does).
        pub fn try_reshape_strided[E2: Extents](
            &self,
            shape: impl ShapeArg<E2>,
        ) -> Result<Tensor<T, E2, Strided, View<'_, T>>, ShapeError>
        where [E: ReshapeTo<E2>]
        {
            self.view().try_into_reshaped_strided(shape)
        }
        /// A view with new extents over the same elements in logical order, for any layout
        /// whose strides allow it (numpy's rule: each group of old axes that the new shape
        /// merges or splits must step evenly). Sliced, transposed and broadcast views qualify
        /// more often than not.
        ///
        /// ```
        /// use mdtensor::{s, DynRank, Tensor};
        /// let a = Tensor::<i32, DynRank>::from_fn(vec![4, 4, 4], |i| (i[0] * 16 + i[1] * 4 + i[2]) as i32);
        /// // Every other row of each block, split into 2×2×2×2×2: still a view.
        /// let rows = a.slice(s![.., ..;2, ..]);
        /// let v = rows.reshape_strided::<DynRank>(vec![2, 2, 2, 2, 2]);
        /// assert_eq!(v.strides(), [32, 16, 8, 2, 1]);
        /// assert_eq!(v.to_vec(), rows.to_vec());
        /// // A transposed matrix cannot be flattened without a copy.
        /// let m = Tensor::<i32, DynRank>::zeros(vec![2, 3]);
        /// assert!(m.t().try_reshape_strided::<DynRank>(vec![6]).is_err());
        /// ```
        pub fn reshape_strided;
    }
    forms! {
        /// See [`Tensor::to_shape`]; `Err` only when the element counts differ.
        pub fn try_to_shape[E2: Extents](&self, shape: impl ShapeArg<E2>) -> Result<CowTensor<'_, T, E2>, ShapeError>
        where [E: ReshapeTo<E2>, T: Clone]
        {
            const OP: &str = "to_shape";
            let target: E2 = super::reshape::checked_target(OP, &self.extents, shape, core::mem::size_of::<T>())?;
            match self.try_reshape_strided(target.clone()) {
                Ok(v) => Ok(CowTensor::Viewed(v)),
                Err(ShapeError::NotContiguous { .. }) => {
                    let data = self.to_vec_op(OP)?;
                    Tensor::try_from_vec(target, data).map(CowTensor::Copied).map_err(|(e, _)| e)
                }
                Err(e) => Err(e),
            }
        }
        /// numpy's `reshape`: new extents over the same elements in logical order, as a view
        /// when the strides allow it ([`Tensor::reshape_strided`]) and as a row-major copy
        /// otherwise; it never refuses a matching element count (ndarray's `to_shape`).
        ///
        /// ```
        /// use mdtensor::{ext, tensor};
        /// let a = tensor![[1, 2, 3], [4, 5, 6]];
        /// let v = a.to_shape(ext![3, 2]);
        /// assert!(v.is_view());
        /// let at = a.t();
        /// let t = at.to_shape(ext![6]); // a transposed matrix needs a copy
        /// assert!(!t.is_view());
        /// assert_eq!(t.view().to_vec(), [1, 4, 2, 5, 3, 6]);
        /// ```
        pub fn to_shape;
    }
}

/// The result of [`Tensor::to_shape`]: a view of the original elements when the strides
/// allowed one, an owned row-major copy otherwise (ndarray's `CowArray`). The variants are
/// not named `View`/`Owned`: those names belong to storage types, and compiler messages
/// print the short names only while they are unique. Read it through
/// [`CowTensor::view`]; [`CowTensor::into_owned`] copies only a view.
pub enum CowTensor<'a, T, E: Extents> {
    /// The original elements under new strides.
    Viewed(Tensor<T, E, Strided, View<'a, T>>),
    /// A copy, made because no strides could read the elements in order.
    Copied(Tensor<T, E, RowMajor, Heap<T>>),
}

impl<'a, T, E: Extents> CowTensor<'a, T, E> {
    /// Whether the result borrows the original elements (no copy was made).
    pub fn is_view(&self) -> bool {
        matches!(self, CowTensor::Viewed(_))
    }
    /// A view of the elements, whichever case this is.
    ///
    /// ```
    /// use mdtensor::{ext, tensor};
    /// let a = tensor![[1.0, 2.0], [3.0, 4.0]];
    /// assert_eq!(a.t().to_shape(ext![4]).view().sum(), 10.0);
    /// ```
    pub fn view(&self) -> Tensor<T, E, Strided, View<'_, T>> {
        match self {
            CowTensor::Viewed(v) => v.view(),
            CowTensor::Copied(t) => {
                let v = t.view();
                let (ext, strides) = (v.extents.clone(), v.strides());
                // SAFETY: the tensor's own extents and strides, element [0, …, 0] in place.
                unsafe { v.relayout(ext, strides, 0) }.expect("the Strided policy takes any strides")
            }
        }
    }
    /// An owned row-major tensor: the copy itself, or a copy of the view.
    #[allow(clippy::disallowed_methods, reason = "a plain form: a refused copy panics with the size")]
    pub fn into_owned(self) -> Tensor<T, E, RowMajor, Heap<T>>
    where
        T: Clone,
    {
        match self {
            // The view's own extents and numel elements: `from_vec` cannot refuse them.
            CowTensor::Viewed(v) => Tensor::from_vec(v.extents.clone(), v.to_vec()),
            CowTensor::Copied(t) => t,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nocopy_strides_follow_numpy() {
        // Contiguous: plain row-major strides.
        assert_eq!(nocopy_strides(&[2, 3], &[3, 1], &[3, 2]), Some(vec![2, 1]));
        // Every other row of a [4, 4, 4] block (numpy: a[:, ::2, :].reshape(2, 2, 2, 2, 2)).
        assert_eq!(nocopy_strides(&[4, 2, 4], &[16, 8, 1], &[2, 2, 2, 2, 2]), Some(vec![32, 16, 8, 2, 1]));
        // A broadcast axis splits into zero strides.
        assert_eq!(nocopy_strides(&[2, 4, 4], &[16, 0, 1], &[2, 2, 2, 2, 2]), Some(vec![16, 0, 0, 2, 1]));
        assert_eq!(nocopy_strides(&[2, 4, 4], &[16, 0, 1], &[2, 2, 2, 4]), Some(vec![16, 0, 0, 1]));
        // Transposed: merging the axes needs a copy, splitting one does not.
        assert_eq!(nocopy_strides(&[3, 2], &[1, 3], &[6]), None);
        assert_eq!(nocopy_strides(&[4, 2], &[1, 4], &[2, 2, 2]), Some(vec![2, 1, 4]));
        // Axes of extent 1 anywhere, and nothing to read.
        assert_eq!(nocopy_strides(&[1, 3, 1], &[7, 2, 9], &[3, 1, 1]), Some(vec![2, 2, 2]));
        assert_eq!(nocopy_strides(&[1, 1], &[5, 5], &[1]), Some(vec![1]));
        assert_eq!(nocopy_strides(&[0, 3], &[3, 1], &[3, 0]), Some(vec![1, 1]));
    }
}
