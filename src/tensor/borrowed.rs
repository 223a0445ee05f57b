//! Tensors over elements owned elsewhere, without copying: views of a borrowed slice in a
//! policy's dense order (ndarray's `ArrayView::from_shape`, numpy's `frombuffer(…)
//! .reshape(…)`), or with explicit strides (numpy's `as_strided`, checked), and an owned
//! tensor adopting a `Vec` with explicit strides.
//!
//! Strides are in elements and may be negative or zero. The slice (or `Vec`) starts at the
//! element with the lowest address, as in ndarray: with a negative stride, element
//! `[0, …, 0]` sits further in. Every constructor checks that each index stays inside the
//! slice; those that can write (mutable views, owned tensors) also refuse strides that
//! reach one element from two indices, as ndarray does.

use super::{fits_region, ShapeArg, Tensor};
use super::{strides_unique, view_parts, ViewParts};
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::Extents;
use crate::layout::Layout;
use crate::storage::{OwnedStorage, View, ViewMut};

/// The extents, and the checked mapping for `strides` inside a region of `len` elements
/// whose first element is the lowest-addressed one.
fn strided_parts<E: Extents, S: Layout<E>>(
    op: &'static str,
    shape: impl ShapeArg<E>,
    strides: &[isize],
    len: usize,
    unique: bool,
) -> Result<(E, S::Mapping), ShapeError> {
    let ext = shape.into_extents(op)?;
    let dims = ext.dims();
    let dims = dims.as_ref();
    if strides.len() != dims.len() {
        return Err(ShapeError::InvalidArgument {
            op,
            reason: format!("{} strides given for extents {dims:?}", strides.len()),
        });
    }
    if unique && !strides_unique(dims, strides) {
        return Err(ShapeError::InvalidArgument {
            op,
            reason: format!("strides {strides:?} for extents {dims:?} reach some element twice"),
        });
    }
    let ViewParts { ext, mapping, low, .. } = view_parts::<E, S>(op, dims, strides, S::NAME)?;
    if !fits_region(dims, strides, low.unsigned_abs(), len) {
        return Err(ShapeError::InvalidArgument {
            op,
            reason: format!("strides {strides:?} for extents {dims:?} reach past the {len} elements given"),
        });
    }
    Ok((ext, mapping))
}

/// The extents and the dense mapping of `S` for a slice of exactly `numel` elements.
fn dense_parts<E: Extents, S: Layout<E>>(
    op: &'static str,
    shape: impl ShapeArg<E>,
    len: usize,
) -> Result<(E, S::Mapping), ShapeError> {
    let ext = shape.into_extents(op)?;
    let n = ext.numel();
    if n != len {
        return Err(ShapeError::LengthMismatch { op, dims: ext.dims().as_ref().to_vec(), expected: n, found: len });
    }
    super::owns_dense::<E, S>(op, &ext)?;
    let mapping = S::dense_mapping(&ext);
    Ok((ext, mapping))
}

/// # Views of a borrowed slice
impl<'a, T, E: Extents, S: Layout<E>> Tensor<T, E, S, View<'a, T>> {
    forms! {
        /// See [`Tensor::from_shape`]; `Err` when the slice does not hold exactly `numel`
        /// elements.
        pub fn try_from_shape[](shape: impl ShapeArg<E>, data: &'a [T]) -> Result<Self, ShapeError>
        {
            let (ext, mapping) = dense_parts::<E, S>("from_shape", shape, data.len())?;
            // SAFETY: the slice holds exactly the `numel` elements of the dense mapping of `S`,
            // which stays inside them (`owns_dense`), and is borrowed for 'a.
            Ok(unsafe { Tensor::from_parts_unchecked(View::from_slice(data), ext, mapping) })
        }
        /// A view of `data`, read in the policy's memory order (row-major by default), without
        /// copying (ndarray's `ArrayView::from_shape`; numpy's `frombuffer(data).reshape(shape)`).
        ///
        /// ```
        /// use mdtensor::{ext, ColMajor, TensorView};
        /// let data = [1, 2, 3, 4, 5, 6];
        /// let v = TensorView::<i32, ext![2, 3]>::from_shape(ext![2, 3], &data);
        /// assert_eq!(v[[1, 0]], 4);
        /// let f = TensorView::<i32, ext![_, _], ColMajor>::from_shape([2, 3], &data);
        /// assert_eq!(f[[1, 0]], 2);
        /// assert!(TensorView::<i32, ext![_, _]>::try_from_shape([4, 2], &data).is_err());
        /// ```
        #[doc(alias = "from_slice")]
        pub fn from_shape;
    }
    forms! {
        /// See [`Tensor::from_shape_strides`]; `Err` when the strides are not one per axis, reach
        /// outside the slice, or (for a policy other than `Strided`) are not the policy's.
        pub fn try_from_shape_strides[](
            shape: impl ShapeArg<E>,
            strides: &[isize],
            data: &'a [T],
        ) -> Result<Self, ShapeError>
        {
            let (ext, mapping) = strided_parts::<E, S>("from_shape_strides", shape, strides, data.len(), false)?;
            // SAFETY: every index reaches an element of the slice (`strided_parts` checked the
            // span against its length), borrowed for 'a; a read-only view may alias.
            Ok(unsafe { Tensor::from_parts_unchecked(View::from_slice(data), ext, mapping) })
        }
        /// A read-only view of `data` with explicit strides in elements, negative or zero
        /// allowed, so several indices may read one element (numpy's `as_strided`, checked:
        /// every index must stay inside `data`). The slice starts at the lowest-addressed
        /// element.
        ///
        /// ```
        /// use mdtensor::{DynRank, Strided, TensorView};
        /// let data = [0, 1, 2, 3, 4];
        /// // Sliding windows of 3: numpy's as_strided(a, (3, 3), (8, 8)) for int64.
        /// let w = TensorView::<i32, DynRank, Strided>::from_shape_strides(vec![3, 3], &[1, 1], &data);
        /// assert_eq!(w.to_vec(), [0, 1, 2, 1, 2, 3, 2, 3, 4]);
        /// // A negative stride reads backwards; the slice begins at the lowest address.
        /// let r = TensorView::<i32, DynRank, Strided>::from_shape_strides(vec![5], &[-1], &data);
        /// assert_eq!(r.to_vec(), [4, 3, 2, 1, 0]);
        /// assert!(TensorView::<i32, DynRank, Strided>::try_from_shape_strides(vec![3, 3], &[2, 1], &data).is_err());
        /// ```
        #[doc(alias = "as_strided")]
        pub fn from_shape_strides;
    }
}

/// # Mutable views of a borrowed slice
impl<'a, T, E: Extents, S: Layout<E>> Tensor<T, E, S, ViewMut<'a, T>> {
    forms! {
        /// See [`Tensor::from_shape_mut`]; `Err` when the slice does not hold exactly `numel`
        /// elements.
        pub fn try_from_shape_mut[](shape: impl ShapeArg<E>, data: &'a mut [T]) -> Result<Self, ShapeError>
        {
            let (ext, mapping) = dense_parts::<E, S>("from_shape_mut", shape, data.len())?;
            // SAFETY: as in `try_from_shape`, with the slice borrowed exclusively for 'a; the
            // dense mapping reaches each element once.
            Ok(unsafe { Tensor::from_parts_unchecked(ViewMut::from_slice(data), ext, mapping) })
        }
        /// A mutable view of `data` in the policy's memory order, without copying (ndarray's
        /// `ArrayViewMut::from_shape`).
        ///
        /// ```
        /// use mdtensor::{ext, TensorViewMut};
        /// let mut data = vec![0.0; 6];
        /// let mut v = TensorViewMut::<f64, ext![2, 3]>::from_shape_mut(ext![2, 3], &mut data);
        /// v[[1, 2]] = 5.0;
        /// assert_eq!(data[5], 5.0);
        /// ```
        #[doc(alias = "from_slice_mut")]
        pub fn from_shape_mut;
    }
    forms! {
        /// See [`Tensor::from_shape_strides_mut`]; `Err` as
        /// [`Tensor::try_from_shape_strides`], and when two indices reach one element.
        pub fn try_from_shape_strides_mut[](
            shape: impl ShapeArg<E>,
            strides: &[isize],
            data: &'a mut [T],
        ) -> Result<Self, ShapeError>
        {
            let (ext, mapping) = strided_parts::<E, S>("from_shape_strides_mut", shape, strides, data.len(), true)?;
            // SAFETY: every index reaches an element of the slice, borrowed exclusively for 'a,
            // and no two indices reach the same one (`strides_unique`).
            Ok(unsafe { Tensor::from_parts_unchecked(ViewMut::from_slice(data), ext, mapping) })
        }
        /// A mutable view of `data` with explicit strides in elements (negative allowed), each
        /// element reached from at most one index: strides that overlap (zero, or too short
        /// for the axes inside them) are refused, as ndarray refuses them for mutable views.
        ///
        /// ```
        /// use mdtensor::{ext, Strided, TensorViewMut};
        /// let mut data = [0; 6];
        /// // Every other element, from the end.
        /// let mut v = TensorViewMut::<i32, ext![_], Strided>::from_shape_strides_mut([3], &[-2], &mut data);
        /// v.fill(7);
        /// assert_eq!(data, [7, 0, 7, 0, 7, 0]);
        /// assert!(TensorViewMut::<i32, ext![_, _], Strided>::try_from_shape_strides_mut([2, 2], &[1, 1], &mut data).is_err());
        /// ```
        pub fn from_shape_strides_mut;
    }
}

/// # An owned tensor over a `Vec` with explicit strides
impl<T, E: Extents, S: Layout<E>, St: OwnedStorage<T>> Tensor<T, E, S, St> {
    /// Adopts `data` without copying, with explicit strides in elements (ndarray's
    /// `Array::from_shape_vec(shape.strides(…), v)`, negative strides allowed; the `Vec`
    /// starts at the lowest-addressed element). Elements no index reaches stay in the
    /// buffer unseen. `Err` (with the `Vec` back) as
    /// [`Tensor::try_from_shape_strides_mut`], or when the storage cannot adopt a `Vec` of
    /// that length.
    ///
    /// ```
    /// use mdtensor::{DynRank, Strided, Tensor};
    /// // A column-major 2×3 buffer, read as it lies.
    /// let t = Tensor::<i32, DynRank, Strided>::try_from_vec_strides(vec![2, 3], &[1, 2], vec![1, 4, 2, 5, 3, 6]).unwrap();
    /// assert_eq!(t.to_vec(), [1, 2, 3, 4, 5, 6]);
    /// assert!(Tensor::<i32, DynRank, Strided>::try_from_vec_strides(vec![2], &[0], vec![1]).is_err());
    /// ```
    pub fn try_from_vec_strides(
        shape: impl ShapeArg<E>,
        strides: &[isize],
        data: Vec<T>,
    ) -> Result<Self, (ShapeError, Vec<T>)> {
        const OP: &str = "from_vec_strides";
        let (ext, mapping) = match strided_parts::<E, S>(OP, shape, strides, data.len(), true) {
            Ok(p) => p,
            Err(e) => return Err((e, data)),
        };
        let len = data.len();
        let storage = St::from_vec(data).map_err(|v| {
            let reason = format!("this storage cannot hold a buffer of {len} elements");
            (ShapeError::InvalidArgument { op: OP, reason }, v)
        })?;
        // SAFETY: every index reaches an element of the buffer, and no two the same one.
        Ok(unsafe { Tensor::from_parts_unchecked(storage, ext, mapping) })
    }
    /// See [`Tensor::try_from_vec_strides`]; panics with its message.
    ///
    /// ```
    /// use mdtensor::{ext, Strided, Tensor};
    /// let t = Tensor::<i32, ext![_], Strided>::from_vec_strides([3], &[-1], vec![1, 2, 3]);
    /// assert_eq!(t.to_vec(), [3, 2, 1]);
    /// ```
    #[track_caller]
    pub fn from_vec_strides(shape: impl ShapeArg<E>, strides: &[isize], data: Vec<T>) -> Self {
        Self::try_from_vec_strides(shape, strides, data).unwrap_or_else(|(e, _)| panic!("{e}"))
    }
}
