//! The band form: the bandwidths and the LAPACK band buffer, read back through
//! [`Tensor::try_from_parts`]'s checks (bandwidths against the shape, buffer length), so a
//! crafted buffer is an error, never a matrix whose reads leave it.
//!
//! ```text
//! { "shape": [m, n], "kl": 1, "ku": 1, "data": [..] }   // data: (kl + ku + 1)·n, column-major
//! ```
//!
//! ```
//! use mdtensor::{tensor, BandMatrix};
//! let a = BandMatrix::<i32>::from_dense(&tensor![[1, 2, 0], [3, 4, 5], [0, 6, 7]], 1, 1);
//! let json = serde_json::to_string(&a).unwrap();
//! let back: BandMatrix<i32> = serde_json::from_str(&json).unwrap();
//! assert_eq!(back.to_dense().to_vec(), a.to_dense().to_vec());
//! let bad = r#"{"shape":[3,3],"kl":1,"ku":1,"data":[1,2,3]}"#;
//! assert!(serde_json::from_str::<BandMatrix<i32>>(bad).is_err());
//! ```

use super::{DeserializeStorage, SerializeStorage};
use crate::extents::{extents_from, Dim};
use crate::layout::ColMajor;
use crate::storage::Band;
use crate::tensor::Tensor;
use ::serde::de::{self, Deserialize, Deserializer};
use ::serde::ser::{Serialize, Serializer};
use num_traits::Zero;

#[derive(::serde::Serialize)]
struct BandOut<'a, T> {
    shape: [usize; 2],
    kl: usize,
    ku: usize,
    data: &'a [T],
}

#[derive(::serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct BandIn<T> {
    shape: Vec<usize>,
    kl: usize,
    ku: usize,
    data: Vec<T>,
}

impl<T: Serialize, M: Dim, N: Dim> SerializeStorage<T, (M, N), ColMajor> for Band<T> {
    fn serialize_tensor<Ser: Serializer>(
        tensor: &Tensor<T, (M, N), ColMajor, Self>,
        serializer: Ser,
    ) -> Result<Ser::Ok, Ser::Error> {
        let [m, n] = tensor.dims();
        BandOut { shape: [m, n], kl: tensor.kl(), ku: tensor.ku(), data: tensor.as_lapack_slice() }
            .serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de> + Zero, M: Dim, N: Dim> DeserializeStorage<'de, T, (M, N), ColMajor> for Band<T> {
    fn deserialize_tensor<D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Tensor<T, (M, N), ColMajor, Self>, D::Error> {
        let raw = BandIn::<T>::deserialize(deserializer)?;
        let ext: (M, N) = extents_from("deserialize", &raw.shape).map_err(de::Error::custom)?;
        Tensor::try_from_parts(ext, raw.kl, raw.ku, raw.data).map_err(|(e, _)| de::Error::custom(e))
    }
}
