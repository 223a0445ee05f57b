//! Conversions between rank-2 tensors and [nalgebra](https://docs.rs/nalgebra/0.35) 0.35
//! matrices (feature `nalgebra-0_35`).
//!
//! Dimensions keep their kind: `Const<N>` ↔ `nalgebra::Const<N>`, [`Dyn`] ↔
//! `nalgebra::Dyn`, so an `SMatrix<f32, 3, 4>` is a tensor with extents `ext![3, 4]` and a
//! `DMatrix` one with `ext![_, _]`. nalgebra stores matrices column-major, which is the
//! [`ColMajor`] policy: owned matrices and column-major tensors convert without
//! reordering.
//!
//! | from | to | method | copies? |
//! |---|---|---|---|
//! | `ColMajor` or `Strided` rank-2 tensor | `MatrixView` | [`Tensor::as_nalgebra`], [`Tensor::as_nalgebra_mut`], [`Tensor::into_nalgebra_view`] | never; static strides for `ColMajor`; for `Strided`, `Err` unless the layout is column-major-like (see below). `RowMajor`: not offered, see below |
//! | any `Matrix` (owned or view) | tensor view | [`Tensor::from_nalgebra_view`], [`Tensor::from_nalgebra_view_mut`] | never |
//! | `DMatrix<T>` | `Tensor<T, ext![_, _], ColMajor>` | `From` | never: the `Vec` moves |
//! | `Tensor<T, ext![_, _], ColMajor>` | `DMatrix<T>` | `From`, [`Tensor::into_nalgebra`] | no copy when the buffer is a `Vec` it was given (`from_vec`, `From<DMatrix>`); one copy otherwise |
//! | `SMatrix<T, R, C>` ↔ `StackTensor<T, ext![R, C], ColMajor>` | | `From` | both are inline arrays: the elements move with the value, no heap |
//! | any rank-2 tensor | `OMatrix` | [`Tensor::to_nalgebra`] | always (any policy) |
//! | any `Matrix` | owned tensor | [`Tensor::from_nalgebra`] | always (any policy, any owned storage) |
//!
//! # Which layouts nalgebra 0.35 can view
//! nalgebra 0.35 assumes in places that a view's columns are contiguous, or at least do
//! not overshoot the allocation, and views that break this are unsound *inside nalgebra*,
//! even when built with nalgebra's own safe constructors:
//!
//! * its element iterator (behind `iter`, `==`, `sum`, …) steps the pointer one row stride
//!   past the end of each column with in-bounds pointer arithmetic, which is undefined
//!   behaviour when that lands outside the allocation — e.g. any row-major view (Miri
//!   reports it for a view built with `MatrixView::from_slice_with_strides_generic(&data,
//!   Dyn(2), Dyn(3), Dyn(3), U1)` and iterated);
//! * its matrix product (`*`, `gemm`, `gemv`, `axpy`) takes a strided column's bounding
//!   box for its length, so a left operand whose row stride is not 1 is read and written
//!   out of bounds (nalgebra issue #1616; fix proposed in PR #1613).
//!
//! So mdtensor only hands nalgebra views it handles soundly: **row stride 1** (or a single
//! row) and **columns that do not interleave** (column stride ≥ row count, or a single
//! column) — every [`ColMajor`] tensor, checked in the type, and the [`Strided`] views that
//! satisfy it, checked at run time (`try_as_nalgebra`). A [`RowMajor`](crate::RowMajor)
//! tensor has no nalgebra view (a compile error: `RowMajor: NalgebraStrides` is not
//! satisfied): view its transpose, which *is* column-major
//! (`a.t().into_nalgebra_view()` is `aᵀ`), or copy with [`Tensor::to_nalgebra`]. The
//! other direction, nalgebra → mdtensor views, accepts every nalgebra layout: mdtensor
//! reads it with its own code.
//!
//! ```
//! use mdtensor::{ext, tensor, ColMajor, StackTensor, Tensor, TensorView};
//! use nalgebra::{DMatrix, Matrix3x4, SMatrix};
//!
//! let m = Matrix3x4::<f32>::from_fn(|i, j| (10 * i + j) as f32);
//! let t: StackTensor<f32, ext![3, 4], ColMajor> = m.into();       // static stays static
//! assert_eq!(t[[2, 3]], 23.0);
//! let back: SMatrix<f32, 3, 4> = t.into();
//! assert_eq!(back, m);
//!
//! let v = TensorView::<f32, ext![3, 4], ColMajor>::from_nalgebra_view(&m); // no copy
//! assert_eq!(v.as_ptr(), m.as_ptr());
//!
//! let a = tensor![[1.0, 2.0], [3.0, 4.0]];              // RowMajor
//! let at = a.t().into_nalgebra_view();                  // aᵀ, a ColMajor view: static strides
//! assert_eq!(at.transpose() * at, nalgebra::Matrix2::new(5.0, 11.0, 11.0, 25.0)); // a·aᵀ
//!
//! let d = DMatrix::<f64>::from_element(2, 3, 1.5);
//! let p = d.as_ptr();
//! let td: Tensor<f64, ext![_, _], ColMajor> = d.into(); // the Vec moves
//! assert_eq!(td.as_ptr(), p);
//! ```

use super::{view_parts, ViewParts};
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{extents_from, Const, Dim, Dyn, Extents, One};
use crate::layout::{strides_match, ColMajor, Layout, Strided};
use crate::storage::{DenseStorage, DenseStorageMut, Heap, InlineExtents, OwnedStorage, View, ViewMut};
use crate::tensor::{StackTensor, Tensor};
use nalgebra::allocator::Allocator;
use nalgebra::storage::{RawStorage, RawStorageMut};
use nalgebra::{DMatrix, DefaultAllocator, Matrix, MatrixView, MatrixViewMut, OMatrix, SMatrix, Scalar, U1};
use nalgebra::{ViewStorage, ViewStorageMut};

/// An mdtensor axis with a nalgebra counterpart: [`Const<N>`] ↔ `nalgebra::Const<N>`,
/// [`Dyn`] ↔ `nalgebra::Dyn`.
pub trait NalgebraDim: Dim {
    /// The nalgebra dimension type.
    type Na: nalgebra::Dim;
    /// The nalgebra dimension value.
    fn to_na(self) -> Self::Na;
}
impl<const N: usize> NalgebraDim for Const<N> {
    type Na = nalgebra::Const<N>;
    fn to_na(self) -> Self::Na {
        nalgebra::Const
    }
}
impl NalgebraDim for One {
    type Na = nalgebra::U1;
    fn to_na(self) -> Self::Na {
        nalgebra::Const
    }
}
impl NalgebraDim for Dyn {
    type Na = nalgebra::Dyn;
    fn to_na(self) -> Self::Na {
        nalgebra::Dyn(self.0)
    }
}

/// A nalgebra dimension with an mdtensor counterpart (the inverse of [`NalgebraDim`]).
pub trait FromNalgebraDim: nalgebra::Dim {
    /// The mdtensor axis type.
    type Md: NalgebraDim<Na = Self>;
}
impl<const N: usize> FromNalgebraDim for nalgebra::Const<N> {
    type Md = Const<N>;
}
impl FromNalgebraDim for nalgebra::Dyn {
    type Md = Dyn;
}

/// The stride types of a policy's nalgebra view: static for [`ColMajor`] (1 and the row
/// count), dynamic for [`Strided`]. Not implemented for [`RowMajor`](crate::RowMajor): nalgebra 0.35
/// mishandles row-major views (see the [module docs](self#which-layouts-nalgebra-035-can-view)).
#[diagnostic::on_unimplemented(
    message = "nalgebra 0.35 cannot safely view a `{Self}` matrix: its iterators and products mishandle row strides other than 1",
    label = "no nalgebra view for this stride policy",
    note = "view the transpose instead (`a.t().into_nalgebra_view()` is a column-major view of aᵀ), or copy with `to_nalgebra()`"
)]
pub trait NalgebraStrides<R: NalgebraDim, C: NalgebraDim>: Layout<(R, C)> {
    /// Row stride type.
    type RStride: nalgebra::Dim;
    /// Column stride type.
    type CStride: nalgebra::Dim;
    /// The stride values (row stride 1 or a single row, columns not interleaved: checked by
    /// the caller).
    fn na_strides(rows: usize, cols: usize) -> (Self::RStride, Self::CStride);
}
impl<R: NalgebraDim, C: NalgebraDim> NalgebraStrides<R, C> for ColMajor {
    type RStride = U1;
    type CStride = R::Na;
    fn na_strides(_: usize, cols: usize) -> (U1, R::Na) {
        (U1, nalgebra::Dim::from_usize(cols))
    }
}
impl<R: NalgebraDim, C: NalgebraDim> NalgebraStrides<R, C> for Strided {
    type RStride = nalgebra::Dyn;
    type CStride = nalgebra::Dyn;
    fn na_strides(rows: usize, cols: usize) -> (nalgebra::Dyn, nalgebra::Dyn) {
        (nalgebra::Dyn(rows), nalgebra::Dyn(cols))
    }
}

/// The view's shape and strides in nalgebra's types, or why nalgebra cannot express them.
#[allow(clippy::type_complexity)]
fn na_layout<R: NalgebraDim, C: NalgebraDim, S: NalgebraStrides<R, C>>(
    op: &'static str,
    ext: &(R, C),
    strides: [isize; 2],
) -> Result<((R::Na, C::Na), (S::RStride, S::CStride)), ShapeError> {
    let [nrows, ncols] = [ext.0.size(), ext.1.size()];
    if S::CONTIGUOUS {
        // ColMajor: exactly what its static stride types say.
        return Ok(((ext.0.to_na(), ext.1.to_na()), S::na_strides(strides[0] as usize, strides[1] as usize)));
    }
    // A stride along an axis of extent 0 or 1 reaches no second element; nalgebra's
    // iterator still steps by it once, so it takes the value of a column-major layout.
    let rs = if nrows <= 1 { 1 } else { strides[0] };
    let cs = if ncols <= 1 { nrows.max(1) as isize } else { strides[1] };
    if rs != 1 || cs <= 0 || (cs as usize) < nrows {
        return Err(ShapeError::InvalidArgument {
            op,
            reason: format!(
                "nalgebra 0.35 views need row stride 1 and columns that do not interleave, not strides {strides:?} \
                 for extents [{nrows}, {ncols}]; view the transpose or copy with to_nalgebra"
            ),
        });
    }
    let (rs, cs) = (rs as usize, cs as usize);
    Ok(((ext.0.to_na(), ext.1.to_na()), S::na_strides(rs, cs)))
}

// The policy bound sits on each method, not on the impl, so that a `RowMajor` tensor
// finds the method and the compiler reports `NalgebraStrides`' message.
/// # Conversion: nalgebra
impl<T, R: NalgebraDim, C: NalgebraDim, S: Layout<(R, C)>, St: DenseStorage<T>> Tensor<T, (R, C), S, St> {
    forms! {
        /// A nalgebra view of the same elements (no copy), or `Err` for a layout nalgebra 0.35
        /// does not handle soundly: a row stride other than 1, interleaved, flipped or
        /// broadcast columns (see the [module docs](self#which-layouts-nalgebra-035-can-view)).
        #[allow(clippy::type_complexity)]
        pub fn try_as_nalgebra[](&self) -> Result<MatrixView<'_, T, R::Na, C::Na, S::RStride, S::CStride>, ShapeError>
        where [S: NalgebraStrides<R, C>]
        {
            let (shape, strides) = na_layout::<R, C, S>("as_nalgebra", &self.extents, self.strides())?;
            // SAFETY: the strides are non-negative and, by the dense invariant, every element
            // position lies in the storage region, which `&self` keeps alive and unwritten for
            // the view's lifetime.
            let storage = unsafe { ViewStorage::from_raw_parts(self.as_ptr(), shape, strides) };
            Ok(Matrix::from_data(storage))
        }
        /// See [`Tensor::try_as_nalgebra`]; never fails for `ColMajor`.
        ///
        /// ```
        /// use mdtensor::{ext, ColMajor, Tensor};
        /// let t = Tensor::<i32, ext![2, 3], ColMajor>::from_vec(ext![2, 3], vec![1, 4, 2, 5, 3, 6]);
        /// let m = t.as_nalgebra();        // MatrixView<i32, Const<2>, Const<3>, Const<1>, Const<2>>
        /// assert_eq!(m[(1, 2)], 6);
        /// assert_eq!(m.as_ptr(), t.as_ptr());
        /// ```
        ///
        /// A `RowMajor` tensor has none (nalgebra 0.35 mishandles row-major views):
        ///
        /// ```compile_fail
        /// let t = mdtensor::tensor![[1, 2, 3], [4, 5, 6]];
        /// let m = t.as_nalgebra(); // error: `RowMajor: NalgebraStrides<Const<2>, Const<3>>` is not satisfied
        /// ```
        pub fn as_nalgebra;
    }

    forms! {
        /// A mutable nalgebra view (no copy); errors as [`Tensor::try_as_nalgebra`].
        #[allow(clippy::type_complexity)]
        pub fn try_as_nalgebra_mut[](
            &mut self,
        ) -> Result<MatrixViewMut<'_, T, R::Na, C::Na, S::RStride, S::CStride>, ShapeError>
        where [S: NalgebraStrides<R, C>, St: DenseStorageMut<T>]
        {
            let (shape, strides) = na_layout::<R, C, S>("as_nalgebra_mut", &self.extents, self.strides())?;
            let off = S::offset(&self.mapping);
            // SAFETY: as in `try_as_nalgebra`, with exclusive access through `&mut self`;
            // writable storage maps distinct indices to distinct elements (dense invariant).
            let storage = unsafe { ViewStorageMut::from_raw_parts(self.storage.as_mut_ptr().add(off), shape, strides) };
            Ok(Matrix::from_data(storage))
        }
        /// See [`Tensor::try_as_nalgebra_mut`].
        ///
        /// ```
        /// use mdtensor::{ext, ColMajor, Tensor};
        /// let mut t = Tensor::<f64, ext![2, 2], ColMajor>::zeros(ext![2, 2]);
        /// t.as_nalgebra_mut().fill_diagonal(1.0);
        /// assert_eq!(t.to_vec(), [1.0, 0.0, 0.0, 1.0]);
        /// ```
        pub fn as_nalgebra_mut;
    }
}

/// # Conversion: nalgebra
impl<'a, T, R: NalgebraDim, C: NalgebraDim, S: Layout<(R, C)>> Tensor<T, (R, C), S, View<'a, T>> {
    forms! {
        /// The nalgebra view of a tensor view, with the borrow's own lifetime `'a` (so
        /// `a.t().try_into_nalgebra_view()` outlives the temporary `a.t()`); errors as
        /// [`Tensor::try_as_nalgebra`].
        #[allow(clippy::type_complexity)]
        pub fn try_into_nalgebra_view[](
            self,
        ) -> Result<MatrixView<'a, T, R::Na, C::Na, S::RStride, S::CStride>, ShapeError>
        where [S: NalgebraStrides<R, C>]
        {
            let (shape, strides) = na_layout::<R, C, S>("into_nalgebra_view", &self.extents, self.strides())?;
            // SAFETY: as in `try_as_nalgebra`; a `View<'a>` keeps its region readable and
            // unwritten for 'a.
            let storage = unsafe { ViewStorage::from_raw_parts(self.as_ptr(), shape, strides) };
            Ok(Matrix::from_data(storage))
        }
        /// See [`Tensor::try_into_nalgebra_view`].
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2], [3, 4]];
        /// let t = a.t().into_nalgebra_view();       // ColMajor: U1 and Const<2> strides
        /// assert_eq!(t, nalgebra::Matrix2::new(1, 3, 2, 4));
        /// ```
        pub fn into_nalgebra_view;
    }
}

/// # Conversion: nalgebra
impl<T: Scalar, R: NalgebraDim, C: NalgebraDim, S: Layout<(R, C)>, St: DenseStorage<T>> Tensor<T, (R, C), S, St>
where
    DefaultAllocator: Allocator<R::Na, C::Na>,
{
    /// An owned nalgebra matrix with the same dimension types (static stays static);
    /// always a copy, for any stride policy.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let t = tensor![[1, 2, 3], [4, 5, 6]];
    /// let m: nalgebra::SMatrix<i32, 2, 3> = t.to_nalgebra();
    /// assert_eq!(m, nalgebra::Matrix2x3::new(1, 2, 3, 4, 5, 6));
    /// ```
    pub fn to_nalgebra(&self) -> OMatrix<T, R::Na, C::Na> {
        let (r, c) = (self.extents.0.to_na(), self.extents.1.to_na());
        Matrix::from_fn_generic(r, c, |i, j| self[[i, j]].clone())
    }
}

/// # Conversion: nalgebra
impl<T: Scalar, R: NalgebraDim, C: NalgebraDim, S: Layout<(R, C)>, St: DenseStorage<T>> Tensor<T, (R, C), S, St>
where
    DefaultAllocator: Allocator<R::Na, C::Na>,
{
    /// An owned nalgebra matrix. For a dynamically sized matrix the `Vec` moves without a
    /// copy when the tensor is column-major and its buffer is a `Vec` it was given
    /// (`from_vec`, `From<DMatrix>`); otherwise one copy.
    ///
    /// ```
    /// use mdtensor::{ext, ColMajor, Tensor};
    /// let t = Tensor::<f32, ext![_, _], ColMajor>::from_vec([2, 2], vec![1.0, 2.0, 3.0, 4.0]);
    /// let p = t.as_ptr();
    /// let m = t.into_nalgebra();     // DMatrix<f32>
    /// assert_eq!(m.as_ptr(), p);
    /// assert_eq!(m[(0, 1)], 3.0);
    /// ```
    pub fn into_nalgebra(self) -> OMatrix<T, R::Na, C::Na> {
        let ext = self.extents;
        let (r, c) = (ext.0.to_na(), ext.1.to_na());
        let col_major = <ColMajor as Layout<(R, C)>>::strides(&ext, &());
        let in_order = strides_match(&[ext.0.size(), ext.1.size()], self.strides().as_ref(), &col_major);
        if in_order && S::offset(&self.mapping) == 0 && self.storage.region_len() == self.numel() {
            let Tensor { storage, extents, mapping, .. } = self;
            match storage.try_into_heap() {
                Ok(heap) => {
                    return match heap.try_into_vec() {
                        Ok(vec) => Matrix::from_vec_generic(r, c, vec),
                        Err(heap) => Matrix::from_iterator_generic(r, c, heap.as_slice().iter().cloned()),
                    };
                }
                Err(storage) => {
                    // SAFETY: the parts were just taken from a valid tensor.
                    let t: Self = unsafe { Tensor::from_parts_unchecked(storage, extents, mapping) };
                    return t.to_nalgebra();
                }
            }
        }
        self.to_nalgebra()
    }
}

/// # Conversion: nalgebra
impl<T, E: Extents, S: Layout<E>, St: OwnedStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// An owned tensor (any policy, any owned storage) copied from any nalgebra matrix or
        /// view; `Err` when its dimensions do not fit the rank-2 extents `E`.
        ///
        /// ```
        /// use mdtensor::{ext, StackTensor};
        /// let m = nalgebra::Matrix2x3::new(1, 2, 3, 4, 5, 6);
        /// let t = StackTensor::<i32, ext![2, 3]>::from_nalgebra(&m.transpose().transpose());
        /// assert_eq!(t.to_vec(), [1, 2, 3, 4, 5, 6]);
        /// assert!(StackTensor::<i32, ext![3, 2]>::try_from_nalgebra(&m).is_err());
        /// ```
        pub fn try_from_nalgebra[R, C, NS](m: &Matrix<T, R, C, NS>) -> Result<Self, ShapeError>
        where [T: Clone, R: nalgebra::Dim, C: nalgebra::Dim, NS: RawStorage<T, R, C>]
        {
            let (r, c) = m.shape();
            let ext: E = extents_from("from_nalgebra", &[r, c])?;
            crate::tensor::owns_dense::<E, S>("from_nalgebra", &ext)?;
            // SAFETY: `(i, j)` comes from the checked extents `[r, c]`, inside the matrix.
            Tensor::try_from_fn(ext, |idx| unsafe { m.get_unchecked((idx.as_ref()[0], idx.as_ref()[1])) }.clone())
        }
        /// See [`Tensor::try_from_nalgebra`]; panics with its message.
        pub fn from_nalgebra;
    }
}

/// Dimensions and strides of a matrix as mdtensor sees them.
fn matrix_layout<T, R: nalgebra::Dim, C: nalgebra::Dim, NS: RawStorage<T, R, C>>(
    m: &Matrix<T, R, C, NS>,
) -> ([usize; 2], [isize; 2]) {
    let (r, c) = m.shape();
    let (rs, cs) = m.strides();
    ([r, c], [rs as isize, cs as isize])
}

/// # Conversion: nalgebra
impl<'a, T, E: Extents, S: Layout<E>> Tensor<T, E, S, View<'a, T>> {
    forms! {
        /// A tensor view of a nalgebra matrix or view, without copying: `Err` when the
        /// dimensions do not fit `E` or the strides are not the policy's (an owned matrix is
        /// [`ColMajor`]; any strides fit [`Strided`]).
        pub fn try_from_nalgebra_view[R, C, NS](m: &'a Matrix<T, R, C, NS>) -> Result<Self, ShapeError>
        where [R: nalgebra::Dim, C: nalgebra::Dim, NS: RawStorage<T, R, C>]
        {
            let (dims, strides) = matrix_layout(m);
            let ViewParts { ext, mapping, low, len } = view_parts::<E, S>("from_nalgebra_view", &dims, &strides, S::NAME)?;
            debug_assert_eq!(low, 0, "nalgebra strides are non-negative");
            // SAFETY: nalgebra's `RawStorage` contract: every element at `ptr + i·rs + j·cs` is
            // valid for reads while the matrix is borrowed (for 'a); `len` reaches the last
            // one, and the tensor reads only at its elements' positions.
            let storage = unsafe { View::from_raw(m.as_ptr(), len) };
            // SAFETY: `view_parts` built the mapping for this region and checked the dense
            // invariant.
            Ok(unsafe { Tensor::from_parts_unchecked(storage, ext, mapping) })
        }
        /// See [`Tensor::try_from_nalgebra_view`]; panics with its message.
        ///
        /// ```
        /// use mdtensor::{ext, Strided, TensorView};
        /// let m = nalgebra::Matrix3::new(1, 2, 3, 4, 5, 6, 7, 8, 9);
        /// let block = m.view((1, 1), (2, 2));              // a strided nalgebra view
        /// let t = TensorView::<i32, ext![2, 2], Strided>::from_nalgebra_view(&block);
        /// assert_eq!(t.to_vec(), [5, 6, 8, 9]);
        /// ```
        pub fn from_nalgebra_view;
    }
}

/// # Conversion: nalgebra
impl<'a, T, E: Extents, S: Layout<E>> Tensor<T, E, S, ViewMut<'a, T>> {
    forms! {
        /// A mutable tensor view of a nalgebra matrix or mutable view, without copying; errors
        /// as [`Tensor::try_from_nalgebra_view`], and when two indices could reach the same
        /// element (nalgebra's unchecked views can overlap; a tensor that writes must not).
        pub fn try_from_nalgebra_view_mut[R, C, NS](m: &'a mut Matrix<T, R, C, NS>) -> Result<Self, ShapeError>
        where [R: nalgebra::Dim, C: nalgebra::Dim, NS: RawStorageMut<T, R, C>]
        {
            const OP: &str = "from_nalgebra_view_mut";
            let (dims, strides) = matrix_layout(m);
            if !super::strides_unique(&dims, &strides) {
                return Err(ShapeError::InvalidArgument {
                    op: OP,
                    reason: format!("strides {strides:?} for extents {dims:?} reach some element twice"),
                });
            }
            let ViewParts { ext, mapping, len, .. } = view_parts::<E, S>(OP, &dims, &strides, S::NAME)?;
            // SAFETY: as in `try_from_nalgebra_view`, with the exclusive borrow of the matrix
            // for 'a (`RawStorageMut`: the elements are valid for writes); the strides were
            // checked to reach every element once.
            let storage = unsafe { ViewMut::from_raw(m.as_mut_ptr(), len) };
            // SAFETY: as in `try_from_nalgebra_view`.
            Ok(unsafe { Tensor::from_parts_unchecked(storage, ext, mapping) })
        }
        /// See [`Tensor::try_from_nalgebra_view_mut`]; panics with its message.
        ///
        /// ```
        /// use mdtensor::{ext, ColMajor, TensorViewMut};
        /// let mut m = nalgebra::Matrix2::new(1, 2, 3, 4);
        /// TensorViewMut::<i32, ext![2, 2], ColMajor>::from_nalgebra_view_mut(&mut m).fill(7);
        /// assert_eq!(m, nalgebra::Matrix2::repeat(7));
        /// ```
        pub fn from_nalgebra_view_mut;
    }
}

impl<T> From<DMatrix<T>> for Tensor<T, (Dyn, Dyn), ColMajor, Heap<T>> {
    /// Moves the matrix's `Vec` into the tensor: no copy.
    fn from(m: DMatrix<T>) -> Self {
        let (r, c) = m.shape_generic();
        let vec: Vec<T> = m.data.into();
        Tensor::from_vec([r.0, c.0], vec)
    }
}

impl<T: Scalar> From<Tensor<T, (Dyn, Dyn), ColMajor, Heap<T>>> for DMatrix<T> {
    /// See [`Tensor::into_nalgebra`].
    fn from(t: Tensor<T, (Dyn, Dyn), ColMajor, Heap<T>>) -> Self {
        t.into_nalgebra()
    }
}

impl<T: Scalar, const R: usize, const C: usize> From<SMatrix<T, R, C>>
    for StackTensor<T, (Const<R>, Const<C>), ColMajor>
{
    /// The column-major elements, moved from one inline array to another.
    fn from(m: SMatrix<T, R, C>) -> Self {
        let mut it = m.into_iter().cloned();
        Tensor::from_fn_memory_order(|| it.next().expect("R·C elements"))
    }
}

impl<T: Scalar, const R: usize, const C: usize> From<StackTensor<T, (Const<R>, Const<C>), ColMajor>>
    for SMatrix<T, R, C>
{
    /// The column-major elements, copied into the matrix's inline array.
    fn from(t: StackTensor<T, (Const<R>, Const<C>), ColMajor>) -> Self {
        SMatrix::from_column_slice(t.as_slice_memory_order().expect("a ColMajor tensor is one dense block"))
    }
}

/// # Conversion: nalgebra
impl<T, E: InlineExtents, S: Layout<E>, St: OwnedStorage<T>> Tensor<T, E, S, St> {
    /// Fills a tensor with static extents from `next()` in the policy's memory order.
    fn from_fn_memory_order(mut next: impl FnMut() -> T) -> Self {
        let ext = E::default();
        let n = ext.numel();
        let storage = St::from_fn_linear(n, |_| next()).expect("the storage holds the static element count");
        // SAFETY: `n` elements in the dense order of `S`, which `dense_mapping` describes.
        unsafe { Tensor::from_parts_unchecked(storage, ext, S::dense_mapping(&E::default())) }
    }
}
