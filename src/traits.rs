//! The traits you name in generic code, in one place: `use mdtensor::traits::*;`.
//!
//! Most programs need none of them: every operation is an inherent method of
//! [`Tensor`](crate::Tensor), and static shapes need no bounds (see
//! [`guide::generic`](crate::guide::generic)). Reach for these when a function is generic
//! over what a tensor is made of.
//!
//! | you are generic over… | bound | what it gives |
//! |---|---|---|
//! | the element type | [`Real`] (floats), [`Inexact`] (floats and complex numbers, with [`ComplexFloat`]), [`GemmElem`] (products), [`NanOrd`] (numpy's order, complex numbers included), [`Scalar`] | arithmetic, math functions, `matmul`/`dot`, `min`/`max`/`sort` |
//! | the extents | [`Extents`], [`Dim`] per axis | `dims()`, `numel()`, every shape method |
//! | the stride policy | [`Layout<E>`](Layout) ([`StridePolicy`] for the policy alone) | indexing, views, every dense method |
//! | the storage, dense | [`DenseStorage<T>`](DenseStorage), [`DenseStorageMut<T>`](DenseStorageMut) for writes | reading and writing elements in place |
//! | the storage, any | [`ReadStorage<T, E, S>`](ReadStorage) | `value`, `nnz`, `to_dense` on sparse and band tensors too |
//! | the whole tensor | [`DenseTensor`] or [`ReadTensor`] (one bound for the four parameters) | as the two rows above, and `sum`, `mean`, `min`, `max` on the bound alone |
//! | an operand of `+`, `assign`, … | [`IntoExpr`] (tensors, views, scalars, expressions); [`ExprShape`] for an expression's element type, extents and shape (every storage), [`Expr`] to evaluate it on the host | lazy elementwise work |
//! | a reduction | [`Reductions`], [`AxisReductions`] (on expressions), [`Reducer`] (your own) | `sum`, `mean`, `max`, … |
//! | elementwise math on expressions | [`ElementwiseExt`] | `exp`, `relu`, `clip`, … |
//! | a shape rule | [`BroadcastTo`], [`InsertAxis`], [`RemoveAxis`], [`AxisAt`], [`Reverse`], [`ConcatAlong`], [`StackAxis`], [`ReshapeTo`], [`Squeezable`], [`Permutation`], [`SliceArg`] | `broadcast_to`, `unsqueeze`, `squeeze`, `t()`, `concatenate`, `stack`, `reshape`, `permute`, `slice` over generic extents |
//! | a band or sparse element | [`BandElem`], [`SparseElem`], [`SparseIndex`] | their products and constructors |
//! | a storage of your own | [`Storage`], [`NonDenseStorage`], [`ReadStorage`], [`DebugStorage`] | see `examples/custom_storage.rs` |
//!
//! ```
//! use mdtensor::traits::*;
//! use mdtensor::{ext, Tensor};
//!
//! // Any real element type, any extents, any stride policy, any dense storage;
//! // `view()` gives the borrowed tensor, where every method is available.
//! fn rms<T: Real, X: DenseTensor<Elem = T>>(x: &X) -> T {
//!     let v = x.view();
//!     let n = T::from(v.numel()).unwrap();
//!     (v.iter().fold(T::zero(), |s, &e| s + e * e) / n).sqrt()
//! }
//! let a = Tensor::<f64, ext![2, 2]>::from_vec(ext![2, 2], vec![1.0, 1.0, 1.0, 1.0]);
//! assert_eq!(rms(&a), 1.0);
//! assert_eq!(rms(&a.t()), 1.0);
//!
//! // The whole-tensor reductions come with the bound: any storage, sparse included.
//! fn total(x: &impl ReadTensor<Elem = f64>) -> f64 {
//!     x.sum()
//! }
//! fn range<T: Real, X: ReadTensor<Elem = T>>(x: &X) -> Option<T> {
//!     Some(x.max()? - x.min()?)
//! }
//! assert_eq!(total(&a), 4.0);
//! assert_eq!(total(&a.to_csr()), 4.0);
//! assert_eq!(range(&a.t()), Some(0.0));
//! assert_eq!(x_mean(&a), 1.0);
//! fn x_mean(x: &impl DenseTensor<Elem = f64>) -> f64 {
//!     x.mean()
//! }
//! ```

pub use crate::extents::{
    AxisAt, BroadcastTo, ConcatAlong, Dim, DynOfRank, Extents, InsertAxis, RemoveAxis, Reverse, StackAxis, StaticDim,
    StaticExtents,
};
pub use crate::fmt::DebugStorage;
pub use crate::kernels::band::BandElem;
pub use crate::kernels::gemm::GemmElem;
pub use crate::kernels::reduce::Reducer;
pub use crate::layout::{Layout, StridePolicy};
pub use crate::ops::{AxisReductions, ElementwiseExt, Expr, ExprShape, IntoExpr, Reductions};
pub use crate::storage::sparse::{SparseElem, SparseIndex};
pub use crate::storage::{BorrowedStorage, DenseStorage, DenseStorageMut, NonDenseStorage, OwnedStorage, Storage};
pub use crate::tensor::{DenseTensor, Inexact, NanOrd, ReadStorage, ReadTensor, Real, Scalar};
pub use crate::view::{MultiSliceArg, Permutation, ReshapeTo, SliceArg, Squeezable};
pub use num_complex::ComplexFloat;
