//! Conversions between mdtensor and [ndarray](https://docs.rs/ndarray/0.17) 0.17 (feature
//! `ndarray-0_17`).
//!
//! | from | to | method | copies? |
//! |---|---|---|---|
//! | any dense tensor | `ArrayView` | [`Tensor::as_ndarray`], `ArrayView::from(&t)` | never (any strides, negative included) |
//! | writable dense tensor | `ArrayViewMut` | [`Tensor::as_ndarray_mut`] | never |
//! | `ArrayView` | tensor view | [`Tensor::from_ndarray_view`], `TensorView::from(v)` | never (with `Strided`, any strides; `RowMajor`/`ColMajor` when the strides are theirs) |
//! | `ArrayViewMut` | mutable tensor view | [`Tensor::from_ndarray_view_mut`] | never |
//! | owned tensor | `Array` | [`Tensor::into_ndarray`], `Array::from(t)` | no copy when the buffer is a `Vec` in row- or column-major order (a tensor built by `from_vec`, or converted from ndarray); one copy otherwise |
//! | `Array` | owned tensor | [`Tensor::from_ndarray`], `Tensor::from(a)` | no copy when the array occupies its whole `Vec` in the target policy's order; one copy otherwise |
//!
//! Tensors the crate allocated itself (`zeros`, `from_fn`, every computed result) live in a
//! buffer of its own (64-byte aligned from 4 KiB) that a `Vec` cannot take over (see
//! [`crate::Heap`]), so
//! `into_ndarray` copies them once; to hand ndarray such a result without a copy, lend it
//! with `as_ndarray`. In the other direction the tensor keeps ndarray's `Vec` as it is
//! (its alignment is the element type's).
//!
//! Extents map to ndarray dimensions by rank (`ext![_, _]` ↔ `Ix2`, [`DynRank`] ↔ `IxDyn`);
//! converting into static extents checks them at run time (`try_` forms, `ShapeError`).
//!
//! ```
//! use mdtensor::{ext, s, tensor, Strided, Tensor, TensorView};
//! use ndarray::{array, Axis};
//!
//! let t = tensor![[1, 2, 3], [4, 5, 6]];
//! let flipped = t.slice(s![.., ..;-1]);            // negative stride
//! let nd = flipped.as_ndarray();                   // ArrayView2<i32>, same memory
//! assert_eq!(nd, array![[3, 2, 1], [6, 5, 4]]);
//! assert_eq!(nd.as_ptr(), flipped.as_ptr());
//!
//! let a = array![[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]];
//! let col = a.index_axis(Axis(1), 1);              // strided ndarray view
//! let v = TensorView::<f64, ext![3], Strided>::from_ndarray_view(col);
//! assert_eq!(v.to_vec(), [2.0, 4.0, 6.0]);
//!
//! let p = a.as_ptr();
//! let owned: Tensor<f64, ext![_, 2]> = Tensor::from_ndarray(a); // moves the Vec
//! assert_eq!(owned.as_ptr(), p);
//! ```

use super::{view_parts, ViewParts};
use crate::error::or_panic;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{extents_from, Dim, Dyn, DynRank, Extents};
use crate::layout::{ColMajor, Layout, RowMajor, Strided};
use crate::storage::{DenseStorage, DenseStorageMut, Heap, OwnedStorage, View, ViewMut};
use crate::tensor::{Tensor, TensorView, TensorViewMut};
use ndarray::{Array, ArrayView, ArrayViewMut, Axis, Dimension, IxDyn, ShapeBuilder};

/// Extents with an ndarray counterpart of the same rank: a tuple of rank `N` ↔ `IxN`,
/// [`DynRank`] ↔ `IxDyn`.
pub trait NdarrayDim: Extents {
    /// The ndarray dimension type.
    type Dim: Dimension;
}

macro_rules! nd_dim {
    ($($Ix:ident: ($($D:ident),*);)*) => {$(
        impl<$($D: Dim),*> NdarrayDim for ($($D,)*) {
            type Dim = ndarray::$Ix;
        }
    )*};
}
nd_dim! {
    Ix0: ();
    Ix1: (A);
    Ix2: (A, B);
    Ix3: (A, B, C);
    Ix4: (A, B, C, D);
    Ix5: (A, B, C, D, F);
    Ix6: (A, B, C, D, F, G);
}
impl NdarrayDim for DynRank {
    type Dim = IxDyn;
}

/// An ndarray dimension value with these extents.
fn nd_dim<D: Dimension>(dims: &[usize]) -> D {
    let mut d = D::zeros(dims.len());
    d.slice_mut().copy_from_slice(dims);
    d
}

/// Shape, non-negative strides and the axes to invert afterwards: ndarray's raw-pointer
/// constructors take non-negative strides from the lowest-addressed element.
struct NdLayout<D> {
    shape: D,
    abs_strides: D,
    /// Position of the lowest-addressed element relative to element `[0, …, 0]` (≤ 0).
    low: isize,
    negative_axes: Vec<usize>,
}

fn nd_layout<D: Dimension>(dims: &[usize], strides: &[isize]) -> NdLayout<D> {
    if dims.contains(&0) {
        // Nothing is read: ndarray's own strides for the shape keep its checks content.
        let shape: D = nd_dim(dims);
        let abs_strides = shape.default_strides();
        return NdLayout { shape, abs_strides, low: 0, negative_axes: Vec::new() };
    }
    let abs: Vec<usize> = strides.iter().map(|s| s.unsigned_abs()).collect();
    let negative_axes: Vec<usize> = (0..dims.len()).filter(|&k| strides[k] < 0 && dims[k] > 1).collect();
    let low = negative_axes.iter().map(|&k| (dims[k] as isize - 1) * strides[k]).sum();
    NdLayout { shape: nd_dim(dims), abs_strides: nd_dim(&abs), low, negative_axes }
}

/// An ndarray view of the elements `first + Σ iₖ·stridesₖ`.
///
/// # Safety
/// Those positions must be elements readable and unwritten for `'a` (the dense invariant
/// of a tensor borrowed for `'a`), and the element count must fit `isize::MAX` bytes.
unsafe fn nd_view<'a, T, D: Dimension>(first: *const T, dims: &[usize], strides: &[isize]) -> ArrayView<'a, T, D> {
    let l = nd_layout::<D>(dims, strides);
    // SAFETY: the lowest-addressed element `first + low` is one of the tensor's, and the
    // absolute strides from it reach exactly the tensor's elements (the caller's
    // guarantee); an empty tensor reads nothing.
    let mut v = unsafe { ArrayView::from_shape_ptr(l.shape.strides(l.abs_strides), first.offset(l.low)) };
    l.negative_axes.iter().for_each(|&k| v.invert_axis(Axis(k)));
    v
}

/// A mutable ndarray view of the elements `first + Σ iₖ·stridesₖ`.
///
/// # Safety
/// As [`nd_view`], with the positions exclusively borrowed (readable and writable, no
/// other access) for `'a`, and distinct for distinct indices.
unsafe fn nd_view_mut<'a, T, D: Dimension>(first: *mut T, dims: &[usize], strides: &[isize]) -> ArrayViewMut<'a, T, D> {
    let l = nd_layout::<D>(dims, strides);
    // SAFETY: as in `nd_view`, with the exclusive borrow and distinct positions an
    // `ArrayViewMut` needs.
    let mut v = unsafe { ArrayViewMut::from_shape_ptr(l.shape.strides(l.abs_strides), first.offset(l.low)) };
    l.negative_axes.iter().for_each(|&k| v.invert_axis(Axis(k)));
    v
}

/// # Conversion: ndarray
// The storage bounds are on each method, so that on a device tensor the method is found
// and the unmet bound says to copy with `.to_host()` (see `DenseStorage`), not E0599.
impl<T, E: NdarrayDim, S: Layout<E>, St> Tensor<T, E, S, St> {
    /// An ndarray view of the same elements, for any stride policy (negative and zero
    /// strides included); never copies. (From a tensor view, [`Tensor::into_ndarray_view`]
    /// keeps the view's own lifetime.)
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let t = tensor![[1, 2, 3], [4, 5, 6]];
    /// let tt = t.t();
    /// let a = tt.as_ndarray();                     // ArrayView2, Fortran-ordered
    /// assert_eq!(a.shape(), [3, 2]);
    /// assert_eq!(a[[2, 1]], 6);
    /// assert_eq!(a.as_ptr(), t.as_ptr());
    /// ```
    pub fn as_ndarray(&self) -> ArrayView<'_, T, E::Dim>
    where
        St: DenseStorage<T>,
    {
        // SAFETY: the dense invariant puts every element inside the storage region, which
        // `&self` keeps alive and unwritten; constructors checked the element count.
        unsafe { nd_view(self.as_ptr(), self.dims().as_ref(), self.strides().as_ref()) }
    }

    /// A mutable ndarray view of the same elements; never copies.
    ///
    /// ```
    /// use mdtensor::{s, tensor};
    /// let mut t = tensor![[1, 2, 3], [4, 5, 6]];
    /// t.slice_mut(s![.., ..;-2]).as_ndarray_mut().fill(0);
    /// assert_eq!(t.to_vec(), [0, 2, 0, 0, 5, 0]);
    /// ```
    pub fn as_ndarray_mut(&mut self) -> ArrayViewMut<'_, T, E::Dim>
    where
        St: DenseStorageMut<T>,
    {
        let (dims, strides, off) = (self.dims(), self.strides(), S::offset(&self.mapping));
        // SAFETY: as in `as_ndarray`, with exclusive access through `&mut self` (a shared
        // storage is made unique by `as_mut_ptr`); writable storage never maps two indices
        // to one element (the dense invariant).
        unsafe { nd_view_mut(self.storage.as_mut_ptr().add(off), dims.as_ref(), strides.as_ref()) }
    }
}

/// # Conversion: ndarray
impl<'a, T, E: NdarrayDim, S: Layout<E>> Tensor<T, E, S, View<'a, T>> {
    /// The ndarray view of a tensor view, with the borrow's own lifetime `'a` (so
    /// `a.t().into_ndarray_view()` outlives the temporary `a.t()`); never copies.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let a = tensor![[1, 2], [3, 4]];
    /// let t = a.t().into_ndarray_view();
    /// assert_eq!(t, ndarray::array![[1, 3], [2, 4]]);
    /// ```
    pub fn into_ndarray_view(self) -> ArrayView<'a, T, E::Dim> {
        // SAFETY: a `View<'a>` keeps its region readable and unwritten for 'a; the rest as
        // in `as_ndarray`.
        unsafe { nd_view(self.as_ptr(), self.dims().as_ref(), self.strides().as_ref()) }
    }
}

/// # Conversion: ndarray
impl<'a, T, E: NdarrayDim, S: Layout<E>> Tensor<T, E, S, ViewMut<'a, T>> {
    /// The mutable ndarray view of a mutable tensor view, with the borrow's lifetime `'a`;
    /// never copies.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let mut a = tensor![[1, 2], [3, 4]];
    /// a.t_mut().into_ndarray_view_mut().row_mut(0).fill(0);
    /// assert_eq!(a.to_vec(), [0, 2, 0, 4]);
    /// ```
    pub fn into_ndarray_view_mut(mut self) -> ArrayViewMut<'a, T, E::Dim> {
        let (dims, strides, off) = (self.dims(), self.strides(), S::offset(&self.mapping));
        // SAFETY: a `ViewMut<'a>` holds the exclusive borrow of its region for 'a and is
        // consumed here; the rest as in `as_ndarray_mut`.
        unsafe { nd_view_mut(self.storage.as_mut_ptr().add(off), dims.as_ref(), strides.as_ref()) }
    }
}

/// # Conversion: ndarray
impl<'a, T, E: Extents, S: Layout<E>> Tensor<T, E, S, View<'a, T>> {
    forms! {
        /// A tensor view of an ndarray view, without copying: `Err` when the shape does not
        /// fit `E` (rank or a static extent), or when the strides are not the policy's (any
        /// strides fit [`Strided`]).
        pub fn try_from_ndarray_view[D: Dimension](view: ArrayView<'a, T, D>) -> Result<Self, ShapeError>
        {
            let parts = view_parts::<E, S>("from_ndarray_view", view.shape(), view.strides(), S::NAME)?;
            let ViewParts { ext, mapping, low, len } = parts;
            // SAFETY: ndarray guarantees every element of the view lies in one allocation,
            // readable and unwritten for 'a; `low` is the lowest of them and `len` reaches the
            // highest, and the tensor only ever reads at its elements' positions (`view_parts`
            // checked they fit the region).
            let storage = unsafe { View::from_raw(view.as_ptr().offset(low), len) };
            // SAFETY: `view_parts` built the mapping for this region and checked the dense
            // invariant.
            Ok(unsafe { Tensor::from_parts_unchecked(storage, ext, mapping) })
        }
        /// See [`Tensor::try_from_ndarray_view`]; panics with its message.
        ///
        /// ```
        /// use mdtensor::{ext, ColMajor, TensorView};
        /// let a = ndarray::Array2::<f32>::zeros((3, 4).f()); // Fortran order
        /// # use ndarray::ShapeBuilder;
        /// let t = TensorView::<f32, ext![3, 4], ColMajor>::from_ndarray_view(a.view());
        /// assert_eq!(t.as_ptr(), a.as_ptr());
        /// ```
        pub fn from_ndarray_view;
    }
}

/// # Conversion: ndarray
impl<'a, T, E: Extents, S: Layout<E>> Tensor<T, E, S, ViewMut<'a, T>> {
    /// A mutable tensor view of a mutable ndarray view, without copying; errors as
    /// [`Tensor::try_from_ndarray_view`].
    pub fn try_from_ndarray_view_mut<D: Dimension>(mut view: ArrayViewMut<'a, T, D>) -> Result<Self, ShapeError> {
        let parts = view_parts::<E, S>("from_ndarray_view_mut", view.shape(), view.strides(), S::NAME)?;
        let ViewParts { ext, mapping, low, len } = parts;
        // SAFETY: as in `try_from_ndarray_view`, with the exclusive borrow an
        // `ArrayViewMut` holds for 'a (ndarray rejects overlapping mutable views, so the
        // elements are distinct); the tensor writes only at its elements' positions.
        let storage = unsafe { ViewMut::from_raw(view.as_mut_ptr().offset(low), len) };
        // SAFETY: as in `try_from_ndarray_view`.
        Ok(unsafe { Tensor::from_parts_unchecked(storage, ext, mapping) })
    }
    /// See [`Tensor::try_from_ndarray_view_mut`]; panics with its message.
    ///
    /// ```
    /// use mdtensor::{ext, Strided, TensorViewMut};
    /// let mut a = ndarray::array![[1, 2], [3, 4]];
    /// let mut t = TensorViewMut::<i32, ext![_, _], Strided>::from_ndarray_view_mut(a.column_mut(1).insert_axis(ndarray::Axis(1)));
    /// t.fill(0);
    /// assert_eq!(a, ndarray::array![[1, 0], [3, 0]]);
    /// ```
    #[track_caller]
    pub fn from_ndarray_view_mut<D: Dimension>(view: ArrayViewMut<'a, T, D>) -> Self {
        or_panic(Self::try_from_ndarray_view_mut(view))
    }
}

/// Whether `strides` are exactly the dense strides of policy `P` for `dims`.
fn is_dense_order<E: Extents, P: Layout<E, Mapping = ()>>(ext: &E, strides: &[isize]) -> bool {
    let want = P::strides(ext, &());
    crate::layout::strides_match(ext.dims().as_ref(), strides, want.as_ref())
}

/// # Conversion: ndarray
impl<T, E: Extents, S: Layout<E>> Tensor<T, E, S, Heap<T>> {
    forms! {
        /// An owned tensor from an owned ndarray array, or why its shape does not fit `E`.
        ///
        /// No copy when the array fills its whole `Vec` (offset 0, no gaps) in an order the
        /// policy `S` expresses (C order for `RowMajor`, Fortran order for `ColMajor`); the
        /// tensor then keeps that `Vec`. Otherwise the elements are copied once, into `S`'s
        /// order.
        pub fn try_from_ndarray[D: Dimension](array: Array<T, D>) -> Result<Self, ShapeError>
        where [T: Clone]
        {
            const OP: &str = "from_ndarray";
            let ext: E = extents_from(OP, array.shape())?;
            let n = ext.checked_numel(OP, core::mem::size_of::<T>())?;
            crate::tensor::owns_dense::<E, S>(OP, &ext)?;
            let mut strides = ext.zero_strides();
            strides.as_mut().copy_from_slice(array.strides());
            // Contiguous by ndarray's own test: one position per element, no gaps.
            let contiguous = array.as_slice_memory_order().is_some();
            let (vec, offset) = array.into_raw_vec_and_offset();
            let offset = offset.unwrap_or(0);
            let fits = crate::tensor::fits_region(ext.dims().as_ref(), strides.as_ref(), 0, vec.len());
            if contiguous && offset == 0 && vec.len() == n && fits {
                if let Some(mapping) = S::mapping_for(&ext, &strides, 0) {
                    let storage = Heap::from_vec(vec).unwrap_or_else(|_| unreachable!("Heap takes any Vec"));
                    // SAFETY: `n` distinct positions (a contiguous array), checked above to lie
                    // inside the `Vec` of length `n` at the positions these strides give from 0:
                    // the dense invariant; `n` was checked for overflow.
                    return Ok(unsafe { Tensor::from_parts_unchecked(storage, ext, mapping) });
                }
            }
            // Another order, an offset or gaps: copy each element from its position in the
            // `Vec` (indexing is bounds-checked, so a wrong position panics, never reads out).
            Tensor::try_from_fn(ext, |idx| {
                let pos = idx.as_ref().iter().zip(strides.as_ref()).fold(offset as isize, |p, (&i, &s)| p + i as isize * s);
                vec[pos as usize].clone()
            })
        }
        /// See [`Tensor::try_from_ndarray`]; panics with its message.
        ///
        /// ```
        /// use mdtensor::{ext, ColMajor, Tensor};
        /// use ndarray::ShapeBuilder;
        /// let a = ndarray::Array::from_shape_vec((2, 3).f(), vec![1, 4, 2, 5, 3, 6]).unwrap();
        /// let p = a.as_ptr();
        /// let t = Tensor::<i32, ext![2, 3], ColMajor>::from_ndarray(a); // Fortran order kept: no copy
        /// assert_eq!(t.as_ptr(), p);
        /// assert_eq!(t.to_vec(), [1, 2, 3, 4, 5, 6]);
        /// ```
        pub fn from_ndarray;
    }
}

/// # Conversion: ndarray
impl<T: Clone, E: NdarrayDim, S: Layout<E>, St> Tensor<T, E, S, St> {
    /// An owned ndarray array with the same elements. No copy when the storage is a `Vec`
    /// the tensor was given (by `from_vec` or `from_ndarray`) holding exactly its elements
    /// in row- or column-major order; one copy otherwise (a crate-allocated buffer, a
    /// shared, inline or borrowed storage, another order).
    ///
    /// ```
    /// use mdtensor::{ext, Tensor};
    /// let t = Tensor::<f32, ext![_, _]>::from_vec([2, 2], vec![1.0, 2.0, 3.0, 4.0]);
    /// let p = t.as_ptr();
    /// let a = t.into_ndarray();                    // Array2<f32>, the same Vec
    /// assert_eq!(a.as_ptr(), p);
    /// assert_eq!(a[[1, 0]], 3.0);
    /// ```
    #[allow(
        clippy::disallowed_methods,
        reason = "a conversion without a try_ form copies at most what the tensor already holds"
    )]
    pub fn into_ndarray(self) -> Array<T, E::Dim>
    where
        St: DenseStorage<T>,
    {
        let shape: E::Dim = nd_dim(self.dims().as_ref());
        let strides = self.strides();
        let row = is_dense_order::<E, RowMajor>(&self.extents, strides.as_ref());
        let col = is_dense_order::<E, ColMajor>(&self.extents, strides.as_ref());
        let whole = S::offset(&self.mapping) == 0 && self.storage.region_len() == self.numel();
        if whole && (row || col) {
            let Tensor { storage, extents, mapping, .. } = self;
            match storage.try_into_heap() {
                Ok(heap) => {
                    // Memory order is C or Fortran order: the Vec itself, or one copy of it.
                    let vec = heap.try_into_vec().unwrap_or_else(|h| h.as_slice().to_vec());
                    let array =
                        if row { Array::from_shape_vec(shape, vec) } else { Array::from_shape_vec(shape.f(), vec) };
                    return array.expect("numel elements in C or Fortran order fit the shape");
                }
                Err(storage) => {
                    // SAFETY: the parts were just taken from a valid tensor.
                    let t: Self = unsafe { Tensor::from_parts_unchecked(storage, extents, mapping) };
                    return Array::from_shape_vec(shape, t.to_vec()).expect("numel elements fit the shape");
                }
            }
        }
        Array::from_shape_vec(shape, self.to_vec()).expect("numel elements in logical order fit the shape")
    }
}

/// # Conversion: ndarray
impl<'a, T, E: NdarrayDim, S: Layout<E>, St: DenseStorage<T>> From<&'a Tensor<T, E, S, St>>
    for ArrayView<'a, T, E::Dim>
{
    /// See [`Tensor::as_ndarray`].
    fn from(t: &'a Tensor<T, E, S, St>) -> Self {
        t.as_ndarray()
    }
}

impl<T: Clone, E: NdarrayDim, S: Layout<E>> From<Tensor<T, E, S, Heap<T>>> for Array<T, E::Dim> {
    /// See [`Tensor::into_ndarray`].
    fn from(t: Tensor<T, E, S, Heap<T>>) -> Self {
        t.into_ndarray()
    }
}

/// The infallible direction ndarray → mdtensor: every ndarray dimension has all-dynamic
/// extents of the same rank, and views land in the [`Strided`] policy, which takes any
/// strides.
macro_rules! from_ndarray {
    ($($Ix:ident => $E:ty;)*) => {$(
        impl<'a, T> From<ArrayView<'a, T, ndarray::$Ix>> for TensorView<'a, T, $E, Strided> {
            /// See [`Tensor::from_ndarray_view`].
            fn from(v: ArrayView<'a, T, ndarray::$Ix>) -> Self {
                Tensor::from_ndarray_view(v)
            }
        }
        impl<'a, T> From<ArrayViewMut<'a, T, ndarray::$Ix>> for TensorViewMut<'a, T, $E, Strided> {
            /// See [`Tensor::from_ndarray_view_mut`].
            fn from(v: ArrayViewMut<'a, T, ndarray::$Ix>) -> Self {
                Tensor::from_ndarray_view_mut(v)
            }
        }
        impl<T: Clone> From<Array<T, ndarray::$Ix>> for Tensor<T, $E> {
            /// See [`Tensor::from_ndarray`].
            fn from(a: Array<T, ndarray::$Ix>) -> Self {
                Tensor::from_ndarray(a)
            }
        }
    )*};
}
from_ndarray! {
    Ix0 => ();
    Ix1 => (Dyn,);
    Ix2 => (Dyn, Dyn);
    Ix3 => (Dyn, Dyn, Dyn);
    Ix4 => (Dyn, Dyn, Dyn, Dyn);
    Ix5 => (Dyn, Dyn, Dyn, Dyn, Dyn);
    Ix6 => (Dyn, Dyn, Dyn, Dyn, Dyn, Dyn);
    IxDyn => DynRank;
}
