//! Element access by multi-index: `t[[i, j]]`, `get`, `get_mut`.
//!
//! An index has as many components as the tensor has axes; for static rank that is checked
//! by the type ([`TensorIndex`]), for dynamic rank at run time. Out-of-bounds access panics
//! with a message naming the index, the axis and the extent; `get` returns `None`.

use super::Tensor;
use crate::error::ShapeError;
use crate::extents::{Dim, DynRank, Extents};
use crate::layout::Layout;
use crate::storage::{DenseStorage, DenseStorageMut};
use core::ops::{Index, IndexMut};

/// A multi-index usable with extents `E`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot index a tensor with extents `{E}`",
    label = "the number of indices must equal the tensor's rank",
    note = "a tensor of rank R is indexed by `[usize; R]`"
)]
pub trait TensorIndex<E: Extents> {
    /// The components.
    fn components(&self) -> &[usize];
}

macro_rules! tuple_index {
    ($rank:literal; $($D:ident),*) => {
        impl<$($D: Dim),*> TensorIndex<($($D,)*)> for [usize; $rank] {
            #[inline(always)]
            fn components(&self) -> &[usize] {
                self
            }
        }
    };
}
tuple_index!(0;);
tuple_index!(1; A);
tuple_index!(2; A, B);
tuple_index!(3; A, B, C);
tuple_index!(4; A, B, C, D);
tuple_index!(5; A, B, C, D, F);
tuple_index!(6; A, B, C, D, F, G);

impl<const N: usize> TensorIndex<DynRank> for [usize; N] {
    fn components(&self) -> &[usize] {
        self
    }
}
impl TensorIndex<DynRank> for &[usize] {
    fn components(&self) -> &[usize] {
        self
    }
}
impl TensorIndex<DynRank> for Vec<usize> {
    fn components(&self) -> &[usize] {
        self
    }
}

/// # Element access by index
impl<T, E: Extents, S: Layout<E>, St> Tensor<T, E, S, St> {
    /// Position of `idx` relative to element `[0, …, 0]`, or the error naming the axis.
    #[inline(always)]
    pub(crate) fn try_offset_of(&self, idx: &[usize]) -> Result<isize, ShapeError> {
        let dims = self.dims();
        let strides = self.strides();
        if idx.len() != dims.as_ref().len() {
            return Err(ShapeError::RankMismatch { op: "index", expected: dims.as_ref().len(), found: idx.len() });
        }
        let mut off = 0isize;
        for (axis, ((&i, &d), &s)) in idx.iter().zip(dims.as_ref()).zip(strides.as_ref()).enumerate() {
            if i >= d {
                return Err(ShapeError::IndexOutOfBounds { op: "index", index: i as isize, axis, extent: d });
            }
            off += i as isize * s;
        }
        Ok(off)
    }
}

/// # Element access by index
impl<T, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// The element at `idx`, or the error naming the axis that is out of bounds.
    #[inline]
    pub fn try_get(&self, idx: impl TensorIndex<E>) -> Result<&T, ShapeError> {
        let off = self.try_offset_of(idx.components())?;
        // SAFETY: `idx` is in bounds, so by the dense invariant the position is inside
        // the storage region; the element is initialised and borrowed for `&self`.
        Ok(unsafe { &*self.as_ptr().offset(off) })
    }
    /// The element at a run-time index of any length (checked against the rank).
    #[inline]
    pub(crate) fn try_get_dyn(&self, idx: &[usize]) -> Result<&T, ShapeError> {
        let off = self.try_offset_of(idx)?;
        // SAFETY: in bounds, as in `try_get`.
        Ok(unsafe { &*self.as_ptr().offset(off) })
    }
    /// The element at `idx`, or `None` when out of bounds (or of the wrong rank, for
    /// dynamic rank).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let t = tensor![[1, 2], [3, 4]];
    /// assert_eq!(t.get([1, 0]), Some(&3));
    /// assert_eq!(t.get([2, 0]), None);
    /// ```
    #[inline]
    pub fn get(&self, idx: impl TensorIndex<E>) -> Option<&T> {
        self.try_get(idx).ok()
    }
}

/// # Element access by index
impl<T, E: Extents, S: Layout<E>, St> Tensor<T, E, S, St> {
    /// Mutable access to the element at `idx`, or the error naming the axis.
    #[inline]
    pub fn try_get_mut(&mut self, idx: impl TensorIndex<E>) -> Result<&mut T, ShapeError>
    where
        St: DenseStorageMut<T>,
    {
        let off = self.try_offset_of(idx.components())? + S::offset(&self.mapping) as isize;
        let base = self.storage.as_mut_ptr();
        // SAFETY: in bounds by the check above and the dense invariant; `&mut self` makes
        // the access exclusive (a writable storage is never aliased, see `DenseStorageMut`).
        Ok(unsafe { &mut *base.offset(off) })
    }
    /// Mutable access to the element at `idx`, or `None` when out of bounds.
    #[inline]
    pub fn get_mut(&mut self, idx: impl TensorIndex<E>) -> Option<&mut T>
    where
        St: DenseStorageMut<T>,
    {
        self.try_get_mut(idx).ok()
    }
}

impl<T, E: Extents, S: Layout<E>, St: DenseStorage<T>, I: TensorIndex<E>> Index<I> for Tensor<T, E, S, St> {
    type Output = T;
    #[inline]
    #[track_caller]
    fn index(&self, idx: I) -> &T {
        match self.try_get(idx) {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        }
    }
}

impl<T, E: Extents, S: Layout<E>, St: DenseStorageMut<T>, I: TensorIndex<E>> IndexMut<I> for Tensor<T, E, S, St> {
    #[inline]
    #[track_caller]
    fn index_mut(&mut self, idx: I) -> &mut T {
        match self.try_get_mut(idx) {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        }
    }
}
