//! Serialization with [serde](https://serde.rs) (feature `serde`).
//!
//! Every storage decides its own serialized form in one small file beside this one
//! (`dense.rs` for the dense storages, `sparse.rs` for COO and CSR/CSC, `band.rs`); this module holds the two traits those files
//! implement and the `Serialize`/`Deserialize` impls of [`Tensor`] that forward to them.
//!
//! # Dense form
//! A dense tensor (any stride policy, any dense storage, views included) serializes as a
//! struct of two fields:
//!
//! ```text
//! { "shape": [2, 3], "data": [1, 2, 3, 4, 5, 6] }
//! ```
//!
//! `data` lists the elements in **logical (row-major index) order**, whatever the policy
//! of the source: a `ColMajor` tensor, a transposed view and a row-major copy of it
//! serialize identically. Strides and offsets are never written, so nothing read back
//! can point outside its buffer.
//!
//! Deserialization builds an *owned* tensor ([`crate::Heap`], [`crate::Shared`] or
//! [`crate::Inline`] storage, any stride policy) and runs the checks of
//! [`Tensor::try_from_vec`]: the rank and every static extent of the type, the element
//! count (no overflow of `isize::MAX` bytes) and the length of `data`. A failed check is a
//! deserialization error whose message is the [`crate::ShapeError`]'s, naming the shapes;
//! it is never a tensor that breaks an invariant. Views cannot be deserialized (they own
//! nothing).
//!
//! ```
//! use mdtensor::{ext, tensor, StackTensor, Tensor};
//! let a = tensor![[1, 2, 3], [4, 5, 6]];
//! let json = serde_json::to_string(&a.t()).unwrap(); // a ColMajor view
//! assert_eq!(json, r#"{"shape":[3,2],"data":[1,4,2,5,3,6]}"#);
//!
//! let back: Tensor<i32, ext![_, _]> = serde_json::from_str(&json).unwrap();
//! assert_eq!(back.to_vec(), [1, 4, 2, 5, 3, 6]);
//! let stack: StackTensor<i32, ext![3, 2]> = serde_json::from_str(&json).unwrap();
//! assert_eq!(stack[[2, 1]], 6);
//!
//! let err = serde_json::from_str::<Tensor<i32, ext![2, 3]>>(&json).unwrap_err();
//! assert!(err.to_string().contains("extents [3, 2] do not match the static extents [2, 3]"));
//! ```

mod band;
mod dense;
mod sparse;

use crate::extents::Extents;
use crate::layout::Layout;
use crate::tensor::Tensor;
use ::serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A storage whose tensors can be serialized; each storage family implements it in its own
/// file of this module.
pub trait SerializeStorage<T, E: Extents, S: Layout<E>>: Sized {
    /// Writes `tensor` in this storage family's serialized form.
    fn serialize_tensor<Ser: Serializer>(
        tensor: &Tensor<T, E, S, Self>,
        serializer: Ser,
    ) -> Result<Ser::Ok, Ser::Error>;
}

/// An owned storage whose tensors can be deserialized, with every check of the storage's
/// `try_` constructors.
pub trait DeserializeStorage<'de, T, E: Extents, S: Layout<E>>: Sized {
    /// Reads a tensor in this storage family's serialized form, or the error naming what
    /// was wrong with it.
    fn deserialize_tensor<D: Deserializer<'de>>(deserializer: D) -> Result<Tensor<T, E, S, Self>, D::Error>;
}

impl<T, E: Extents, S: Layout<E>, St: SerializeStorage<T, E, S>> Serialize for Tensor<T, E, S, St> {
    fn serialize<Ser: Serializer>(&self, serializer: Ser) -> Result<Ser::Ok, Ser::Error> {
        St::serialize_tensor(self, serializer)
    }
}

impl<'de, T, E: Extents, S: Layout<E>, St: DeserializeStorage<'de, T, E, S>> Deserialize<'de> for Tensor<T, E, S, St> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        St::deserialize_tensor(deserializer)
    }
}
