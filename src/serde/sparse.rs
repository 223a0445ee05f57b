//! The sparse forms, written as the arrays the storage keeps, and read back through the
//! same validation as the `try_new` constructors (so a crafted `indptr`, index or length
//! is an error naming the position, never an unsound matrix):
//!
//! ```text
//! compressed: { "format": "csr" | "csc", "shape": [r, c], "indptr": [..], "indices": [..], "data": [..] }
//! COO:        { "order": "row-major" | "col-major", "shape": [..], "coords": [..], "data": [..] }
//! ```
//!
//! The format (or order) is checked against the tensor's stride policy: CSC arrays read as
//! CSR would describe the transpose, so they are refused instead.
//!
//! ```
//! use mdtensor::{ext, tensor, sparse::{CscMatrix, CsrMatrix}};
//! let a = tensor![[1, 0, 2], [0, 0, 3]].to_csr();
//! let json = serde_json::to_string(&a).unwrap();
//! assert_eq!(json, r#"{"format":"csr","shape":[2,3],"indptr":[0,2,3],"indices":[0,2,2],"data":[1,2,3]}"#);
//! let back: CsrMatrix<i32> = serde_json::from_str(&json).unwrap();
//! assert_eq!(back.to_dense().to_vec(), [1, 0, 2, 0, 0, 3]);
//! assert!(serde_json::from_str::<CscMatrix<i32>>(&json).is_err()); // a CSR matrix is not CSC
//! let bad = r#"{"format":"csr","shape":[2,3],"indptr":[0,2,3],"indices":[0,7,2],"data":[1,2,3]}"#;
//! let err = serde_json::from_str::<CsrMatrix<i32>>(bad).unwrap_err();
//! assert!(err.to_string().contains("row 0: column index 7 is out of range for 3 columns"), "{err}");
//! ```

use super::{DeserializeStorage, SerializeStorage};
use crate::extents::{extents_from, Extents};
use crate::layout::Layout;
use crate::sparse::{Arrays, Compressed, CompressedBase, Coo, Rank2, SparseIndex, SparseOrder};
use crate::tensor::Tensor;
use ::serde::de::{self, Deserialize, Deserializer};
use ::serde::ser::{Serialize, Serializer};

const OP: &str = "deserialize";

/// The compressed format name of a stride policy.
fn format_of<S: SparseOrder>() -> &'static str {
    if S::REVERSED {
        "csc"
    } else {
        "csr"
    }
}
/// The COO order name of a stride policy.
fn order_of<S: SparseOrder>() -> &'static str {
    if S::REVERSED {
        "col-major"
    } else {
        "row-major"
    }
}

#[derive(::serde::Serialize)]
struct CompressedOut<'a, T, I> {
    format: &'static str,
    shape: [usize; 2],
    indptr: &'a [I],
    indices: &'a [I],
    data: &'a [T],
}

#[derive(::serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CompressedIn<T, I> {
    format: String,
    shape: Vec<usize>,
    indptr: Vec<I>,
    indices: Vec<I>,
    data: Vec<T>,
}

impl<T: Serialize, E: Rank2, S: SparseOrder + Layout<E>, I: SparseIndex + Serialize, A: Arrays<T, I>>
    SerializeStorage<T, E, S> for CompressedBase<T, I, A>
{
    fn serialize_tensor<Ser: Serializer>(
        tensor: &Tensor<T, E, S, Self>,
        serializer: Ser,
    ) -> Result<Ser::Ok, Ser::Error> {
        let d = tensor.dims();
        let d = d.as_ref();
        CompressedOut {
            format: format_of::<S>(),
            shape: [d[0], d[1]],
            indptr: tensor.indptr(),
            indices: tensor.indices(),
            data: tensor.values(),
        }
        .serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de>, E: Rank2, S: SparseOrder + Layout<E>, I: SparseIndex + Deserialize<'de>>
    DeserializeStorage<'de, T, E, S> for Compressed<T, I>
{
    fn deserialize_tensor<D: Deserializer<'de>>(deserializer: D) -> Result<Tensor<T, E, S, Self>, D::Error> {
        let raw = CompressedIn::<T, I>::deserialize(deserializer)?;
        if raw.format != format_of::<S>() {
            return Err(de::Error::custom(format!(
                "a `{}` matrix cannot be read as `{}`: convert it after reading instead",
                raw.format,
                format_of::<S>()
            )));
        }
        let ext: E = extents_from(OP, &raw.shape).map_err(de::Error::custom)?;
        Tensor::<T, E, S, Self>::try_new(ext, raw.indptr, raw.indices, raw.data).map_err(|r| de::Error::custom(r.error))
    }
}

#[derive(::serde::Serialize)]
struct CooOut<'a, T, I> {
    order: &'static str,
    shape: &'a [usize],
    coords: &'a [I],
    data: &'a [T],
}

#[derive(::serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CooIn<T, I> {
    order: String,
    shape: Vec<usize>,
    coords: Vec<I>,
    data: Vec<T>,
}

impl<T: Serialize, E: Extents, S: SparseOrder + Layout<E>, I: SparseIndex + Serialize> SerializeStorage<T, E, S>
    for Coo<T, I>
{
    fn serialize_tensor<Ser: Serializer>(
        tensor: &Tensor<T, E, S, Self>,
        serializer: Ser,
    ) -> Result<Ser::Ok, Ser::Error> {
        let d = tensor.dims();
        CooOut { order: order_of::<S>(), shape: d.as_ref(), coords: tensor.coords(), data: tensor.values() }
            .serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de>, E: Extents, S: SparseOrder + Layout<E>, I: SparseIndex + Deserialize<'de>>
    DeserializeStorage<'de, T, E, S> for Coo<T, I>
{
    fn deserialize_tensor<D: Deserializer<'de>>(deserializer: D) -> Result<Tensor<T, E, S, Self>, D::Error> {
        let raw = CooIn::<T, I>::deserialize(deserializer)?;
        if raw.order != order_of::<S>() {
            return Err(de::Error::custom(format!(
                "COO entries sorted in `{}` order cannot be read as `{}`",
                raw.order,
                order_of::<S>()
            )));
        }
        let ext: E = extents_from(OP, &raw.shape).map_err(de::Error::custom)?;
        Tensor::<T, E, S, Self>::try_new(ext, raw.coords, raw.data).map_err(|r| de::Error::custom(r.error))
    }
}
