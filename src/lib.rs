//! # mdtensor
//!
//! N-dimensional tensors built from three orthogonal policies, each a type parameter:
//!
//! ```text
//! Tensor<T, E: Extents, S: StridePolicy = RowMajor, St: Storage = Heap<T>>
//! ```
//!
//! * **Extents** ([`extents`]) — static (`ext![2, 3]`), mixed (`ext![2, _]`), dynamic
//!   (`ext![_, _]`) or dynamic rank ([`DynRank`]). Static axes are zero-sized.
//! * **Stride policy** ([`layout`]) — [`RowMajor`], [`ColMajor`] or [`Strided`].
//! * **Storage** ([`storage`]) — [`Heap`], [`Inline`] (stack), [`Shared`] (copy-on-write),
//!   [`View`], [`ViewMut`], `Mmap`/`MmapMut` for memory-mapped `.npy` files; [`Band`]
//!   (LAPACK band layout, [`BandMatrix`]); or a storage of your own ([`NonDenseStorage`],
//!   [`ReadStorage`]).
//!
//! numpy's `.npy` and `.npz` files are read and written by [`io`].
//!
//! Every dense operation is an inherent method of [`Tensor`] (no trait import needed),
//! grouped on its page by purpose; [`guide::api`] lists them by task, and [`guide`] maps
//! numpy expressions to them.
//!
//! Where extents are static, shape mistakes are compile errors; where they are dynamic,
//! the same mistakes are `Err(ShapeError)` from the `try_` form of the operation. Each
//! concern has its own error enum; [`Error`] wraps them all, so `?` mixes them.
//!
//! ```
//! use mdtensor::{ext, tensor, Tensor};
//! let a = tensor![[1, 2, 3], [4, 5, 6]];          // Tensor<i32, ext![2, 3]>
//! let col = a.slice_static::<(mdtensor::Full, mdtensor::Span<1, 3, 1>)>();
//! assert_eq!(col.dims(), [2, 2]);
//! assert_eq!(col.to_vec(), [2, 3, 5, 6]);
//! let d: Tensor<i32, ext![_, _]> = Tensor::from_vec([2, 3], vec![1, 2, 3, 4, 5, 6]);
//! assert!(d.try_reshape::<ext![_, _]>([4, 2]).is_err());
//! ```
#![deny(missing_docs)]
// Buffers sized by input go through the fallible allocation path (see `clippy.toml`).
#![cfg_attr(not(test), deny(clippy::disallowed_methods))]

// Declared in layer order, lowest first (see docs/DESIGN.md); the `Tensor` page lists each
// module's methods in this order, so construction and views come before operations.
pub mod error;

pub mod alloc;
pub mod exec;

pub mod extents;

pub mod layout;

pub mod storage;

mod kernels;

pub mod tensor;

pub mod view;

pub mod iter;

#[cfg(feature = "linalg")]
pub mod linalg;
pub mod ops;

#[cfg(feature = "fft")]
pub mod fft;

#[cfg(feature = "cuda")]
pub mod device;

#[cfg(feature = "mpi")]
pub mod dist;

mod fmt;

pub mod io;

pub mod interop;

#[cfg(feature = "serde")]
pub mod serde;

#[cfg(feature = "approx")]
pub mod approx;

pub mod guide;

mod macros;
pub mod traits;

pub use error::LinalgError;
pub use error::{Error, ShapeError};
pub use exec::Par;
pub use extents::{
    broadcast_shapes, Axis, AxisAt, AxisList, BroadcastDim, BroadcastTo, Const, Dim, Dyn, DynOfRank, DynRank, Extents,
    InsertAxis, One, Rank, RemoveAxis, Reverse, StaticDim, StaticExtents, TakeIndex, ToDim,
};
pub use extents::{Pad, PadWidths, Rep, TileReps};
pub use fmt::DebugStorage;
pub use layout::{AnyOrder, ColMajor, Layout, ResultOrder, RowMajor, StridePolicy, Strided};
/// The `num-complex` crate (0.4), whose [`Complex<f32>`](Complex) and [`Complex<f64>`](Complex)
/// are element types like numpy's `complex64` and `complex128`: see
/// [`guide::api`](crate::guide::api#complex-numbers).
pub use num_complex;
pub use num_complex::{Complex, Complex32, Complex64};
pub use num_traits;
pub use ops::{concatenate_dyn, stack, stack_dyn, try_concatenate_dyn, try_stack, try_stack_dyn, Expr, ExprShape};
pub use ops::{einsum, einsum_with, try_einsum, try_einsum_with};
pub use storage::{
    Band, BandError, BorrowedStorage, DenseStorage, DenseStorageMut, Heap, Inline, NonDenseStorage, OwnedStorage,
    Shared, Storage, View, ViewMut,
};
#[cfg(feature = "mmap")]
pub use storage::{Mmap, MmapMut};
pub use tensor::sparse;
pub use tensor::sparse::{CooTensor, CscMatrix, CsrMatrix};
pub use tensor::{
    BandMatrix, DenseTensor, Inexact, NanOrd, ReadStorage, ReadTensor, Real, ShapeArg, SharedTensor, StackTensor,
    Tensor, TensorIndex, TensorView, TensorViewMut,
};
pub use view::{Ax, CowTensor, Full, MultiSliceArg, NewAxis, SliceElem, SliceInfo, Span};

/// The traits most programs need: `use mdtensor::prelude::*;`.
pub mod prelude {
    pub use crate::ops::{select, AxisReductions, ElementwiseExt, Expr, Reductions};
    pub use crate::{ext, s, tensor, Par};
    // `.eval()` of a device expression is then one error naming `.eval_on(&dev)`, and
    // `.sum()` of a host/device mix one naming `.to_device(&dev)`.
    #[cfg(feature = "cuda")]
    pub use crate::device::{DeviceEvalHint, MixedReductionHint};
}

/// The README's examples run as doc-tests, so the tour cannot drift from the code.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
