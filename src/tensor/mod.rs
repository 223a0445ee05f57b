//! The [`Tensor`] type: element type, extents, stride policy and storage policy.
//!
//! This module holds the type; its construction, shape accessors, indexing and
//! conversions live in the files beside it, views and slicing in [`crate::view`].

// In the order the `Tensor` page lists their methods.
mod construct;

mod borrowed;

mod shape;

mod index;

mod convert;

mod eq;

mod read;

pub mod sparse;

mod band;

mod generic;

mod parts;

mod order;

pub use band::BandMatrix;
pub use construct::{ArrayShape, NestedArray, Scalar, ShapeArg};
pub use generic::{DenseTensor, Inexact, ReadTensor, Real};
pub use index::TensorIndex;
pub use order::NanOrd;
pub(crate) use parts::{strides_unique, view_parts, ViewParts};
pub(crate) use read::check_index;
pub use read::ReadStorage;

use crate::extents::Extents;
use crate::layout::{Layout, RowMajor};
use crate::storage::{Heap, Inline, Shared, View, ViewMut};
use core::marker::PhantomData;

/// An n-dimensional array.
///
/// * `T` — element type.
/// * `E` — [`Extents`]: static (`ext![2, 3]`), mixed (`ext![2, _]`), dynamic (`ext![_, _]`)
///   or dynamic rank ([`crate::DynRank`]).
/// * `S` — stride policy: [`RowMajor`] (default), [`crate::ColMajor`] or [`crate::Strided`].
/// * `St` — storage policy: [`Heap`] (default), [`Inline`], [`Shared`], [`View`], [`ViewMut`].
///
/// Every dense operation is a method on this page, grouped by purpose (each impl block
/// below starts with a heading such as *Reductions over the whole tensor* or *Lazy
/// elementwise math*); no trait import is needed to call them. To find a method by task —
/// construct, view, reshape, elementwise, reduce, multiply, join, sort, sparse, files — see
/// the [API by task](crate::guide::api); for numpy spellings, the
/// [numpy guide](crate::guide).
///
/// ```
/// use mdtensor::{ext, Tensor};
/// let a = Tensor::<f64, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| (i * 3 + j) as f64);
/// assert_eq!(a[[1, 2]], 5.0);
/// assert_eq!(a.dims(), [2, 3]);
/// let t = a.t(); // a ColMajor view of the same memory, extents 3×2
/// assert_eq!(t[[2, 1]], 5.0);
/// ```
pub struct Tensor<T, E: Extents, S: Layout<E> = RowMajor, St = Heap<T>> {
    pub(crate) storage: St,
    pub(crate) extents: E,
    pub(crate) mapping: S::Mapping,
    pub(crate) _elem: PhantomData<T>,
}

/// A read-only view.
pub type TensorView<'a, T, E, S = RowMajor> = Tensor<T, E, S, View<'a, T>>;
/// A mutable view.
pub type TensorViewMut<'a, T, E, S = RowMajor> = Tensor<T, E, S, ViewMut<'a, T>>;
/// A tensor with shared, copy-on-write storage.
pub type SharedTensor<T, E, S = RowMajor> = Tensor<T, E, S, Shared<T>>;
/// A tensor stored inline (on the stack) for static extents: no heap allocation.
///
/// ```
/// use mdtensor::{ext, StackTensor};
/// let m = StackTensor::<f32, ext![4, 4]>::eye(ext![4, 4]);
/// assert_eq!(m[[2, 2]], 1.0);
/// ```
pub type StackTensor<T, E, S = RowMajor> = Tensor<T, E, S, Inline<T, E>>;

impl<T: Clone, E: Extents, S: Layout<E>, St: Clone> Clone for Tensor<T, E, S, St> {
    fn clone(&self) -> Self {
        Tensor {
            storage: self.storage.clone(),
            extents: self.extents.clone(),
            mapping: self.mapping.clone(),
            _elem: PhantomData,
        }
    }
}

impl<T: Copy, E: Extents + Copy, S: Layout<E>, St: Copy> Copy for Tensor<T, E, S, St> where S::Mapping: Copy {}

/// Checks the dense invariant for a region of `len` elements; used by every constructor
/// that accepts strides from outside.
pub(crate) fn fits_region(dims: &[usize], strides: &[isize], offset: usize, len: usize) -> bool {
    match crate::layout::span_of(dims, strides) {
        None => offset <= len,
        Some((lo, hi)) => {
            let off = offset as isize;
            off + lo >= 0 && (off as i128 + hi as i128) < len as i128
        }
    }
}

/// Whether a freshly allocated buffer of `numel` elements in `S`'s dense mapping satisfies
/// the dense invariant. Not every policy can own a dense buffer: a `StaticSliced` policy's
/// strides are its parent's times the slice steps, which reach past `numel` elements.
/// Every constructor that allocates or adopts a buffer checks this first.
pub(crate) fn owns_dense<E: crate::extents::Extents, S: Layout<E>>(
    op: &'static str,
    ext: &E,
) -> Result<(), crate::ShapeError> {
    let m = S::dense_mapping(ext);
    if fits_region(ext.dims().as_ref(), S::strides(ext, &m).as_ref(), S::offset(&m), ext.numel()) {
        Ok(())
    } else {
        Err(cannot_own_dense(op, S::NAME))
    }
}

/// The error of [`owns_dense`], built out of line: every constructor of a user's program
/// instantiates `owns_dense`, and the formatting would be compiled into each copy.
#[cold]
#[inline(never)]
fn cannot_own_dense(op: &'static str, policy: &str) -> crate::ShapeError {
    crate::ShapeError::InvalidArgument {
        op,
        reason: format!("the {policy} stride policy cannot own a dense buffer; use RowMajor, ColMajor or Strided"),
    }
}
