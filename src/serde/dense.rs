//! The dense form `{ "shape": [..], "data": [..] }` (elements in logical order) for the
//! [`Heap`], [`Shared`], [`Inline`], [`View`] and [`ViewMut`] storages; the owned ones
//! also deserialize.

use super::{DeserializeStorage, SerializeStorage};
use crate::error::ShapeError;
use crate::extents::{extents_from, Extents};
use crate::layout::{Layout, RowMajor};
use crate::storage::{DenseStorage, Heap, Inline, OwnedStorage, Shared, View, ViewMut};
use crate::tensor::{owns_dense, Tensor};
use ::serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use ::serde::ser::{Serialize, SerializeStruct, Serializer};
use core::fmt;
use core::marker::PhantomData;

const OP: &str = "deserialize";
const FIELDS: &[&str] = &["shape", "data"];

fn serialize_dense<T, E, S, St, Ser>(tensor: &Tensor<T, E, S, St>, serializer: Ser) -> Result<Ser::Ok, Ser::Error>
where
    T: Serialize,
    E: Extents,
    S: Layout<E>,
    St: DenseStorage<T>,
    Ser: Serializer,
{
    let mut st = serializer.serialize_struct("Tensor", 2)?;
    st.serialize_field("shape", tensor.dims().as_ref())?;
    st.serialize_field("data", &LogicalOrder(tensor))?;
    st.end()
}

/// The elements of a tensor as a sequence in logical order, streamed without a copy.
struct LogicalOrder<'a, T, E: Extents, S: Layout<E>, St>(&'a Tensor<T, E, S, St>);

impl<T: Serialize, E: Extents, S: Layout<E>, St: DenseStorage<T>> Serialize for LogicalOrder<'_, T, E, S, St> {
    fn serialize<Ser: Serializer>(&self, serializer: Ser) -> Result<Ser::Ok, Ser::Error> {
        serializer.collect_seq(self.0.iter())
    }
}

/// The two fields as read, before any check.
struct RawDense<T> {
    shape: Vec<usize>,
    data: Vec<T>,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for RawDense<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_struct("Tensor", FIELDS, RawVisitor(PhantomData))
    }
}

struct RawVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for RawVisitor<T> {
    type Value = RawDense<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a tensor: a struct with fields `shape` and `data`")
    }

    /// Self-describing formats (JSON, …): the fields in any order, each exactly once.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut shape, mut data) = (None, None);
        while let Some(key) = map.next_key::<Field>()? {
            match key {
                Field::Shape if shape.is_some() => return Err(de::Error::duplicate_field("shape")),
                Field::Data if data.is_some() => return Err(de::Error::duplicate_field("data")),
                Field::Shape => shape = Some(map.next_value()?),
                Field::Data => data = Some(map.next_value()?),
            }
        }
        Ok(RawDense {
            shape: shape.ok_or_else(|| de::Error::missing_field("shape"))?,
            data: data.ok_or_else(|| de::Error::missing_field("data"))?,
        })
    }

    /// Compact formats that write a struct as a sequence: `shape`, then `data`.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let shape = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let data = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(1, &self))?;
        Ok(RawDense { shape, data })
    }
}

enum Field {
    Shape,
    Data,
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FieldVisitor;
        impl Visitor<'_> for FieldVisitor {
            type Value = Field;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("`shape` or `data`")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Field, E> {
                match v {
                    "shape" => Ok(Field::Shape),
                    "data" => Ok(Field::Data),
                    other => Err(de::Error::unknown_field(other, FIELDS)),
                }
            }
        }
        deserializer.deserialize_identifier(FieldVisitor)
    }
}

impl<T> RawDense<T> {
    /// The checks of `try_from_vec` (rank, static extents, element-count overflow, data
    /// length), then the tensor in `S`'s memory order.
    fn into_tensor<E: Extents, S: Layout<E>, St: OwnedStorage<T>>(self) -> Result<Tensor<T, E, S, St>, ShapeError> {
        let RawDense { shape, data } = self;
        let ext: E = extents_from(OP, &shape)?;
        let n = ext.checked_numel(OP, core::mem::size_of::<T>())?;
        if data.len() != n {
            return Err(ShapeError::LengthMismatch { op: OP, dims: shape, expected: n, found: data.len() });
        }
        owns_dense::<E, S>(OP, &ext)?;
        if S::is_row_major_contiguous(&ext, &S::dense_mapping(&ext)) {
            return Tensor::try_from_vec(ext, data).map_err(|(e, _)| e);
        }
        // Another memory order (ColMajor): move each element to its place, no `Clone` needed.
        let row_major = <RowMajor as Layout<E>>::strides(&ext, &());
        let mut slots: Vec<Option<T>> = data.into_iter().map(Some).collect();
        Tensor::try_from_fn(ext, |idx| {
            let pos: isize = idx.as_ref().iter().zip(row_major.as_ref()).map(|(&i, &s)| i as isize * s).sum();
            slots[pos as usize].take().expect("every logical position is read once")
        })
    }
}

macro_rules! dense_serde {
    (serialize: $($St:ty => [$($gen:tt)*]),* $(,)?) => {$(
        impl<$($gen)*, E: Extents, S: Layout<E>> SerializeStorage<T, E, S> for $St
        where
            T: Serialize,
        {
            fn serialize_tensor<Ser: Serializer>(
                tensor: &Tensor<T, E, S, Self>,
                serializer: Ser,
            ) -> Result<Ser::Ok, Ser::Error> {
                serialize_dense(tensor, serializer)
            }
        }
    )*};
    (deserialize: $($St:ty => [$($gen:tt)*]),* $(,)?) => {$(
        impl<'de, $($gen)*, E: Extents, S: Layout<E>> DeserializeStorage<'de, T, E, S> for $St
        where
            T: Deserialize<'de>,
            $St: OwnedStorage<T>,
        {
            fn deserialize_tensor<D: Deserializer<'de>>(deserializer: D) -> Result<Tensor<T, E, S, Self>, D::Error> {
                RawDense::<T>::deserialize(deserializer)?.into_tensor().map_err(de::Error::custom)
            }
        }
    )*};
}
dense_serde! { serialize:
    Heap<T> => [T],
    Shared<T> => [T],
    Inline<T, IE> => [T, IE: crate::storage::InlineExtents],
    View<'a, T> => ['a, T],
    ViewMut<'a, T> => ['a, T],
}
dense_serde! { deserialize:
    Heap<T> => [T],
    Shared<T> => [T],
    Inline<T, IE> => [T, IE: crate::storage::InlineExtents],
}
