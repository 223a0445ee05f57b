//! Serde (feature `serde`): round trips for every dense storage and stride policy, the
//! logical-order form, and crafted inputs that must be rejected with a message naming
//! the shapes — never turned into a tensor that breaks an invariant.
#![cfg(feature = "serde")]

mod common;

use common::strided::strided_case;
use mdtensor::{ext, s, tensor, ColMajor, DynRank, Full, SharedTensor, Span, StackTensor, Strided, Tensor};
use proptest::prelude::*;

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap()
}

fn de_err<T: serde::de::DeserializeOwned>(s: &str) -> String {
    match serde_json::from_str::<T>(s) {
        Ok(_) => panic!("{s} was accepted"),
        Err(e) => e.to_string(),
    }
}

fn m23() -> Tensor<i32, ext![2, 3]> {
    tensor![[1, 2, 3], [4, 5, 6]]
}

const M23: &str = r#"{"shape":[2,3],"data":[1,2,3,4,5,6]}"#;

// ---------------------------------------------------------------------------------------
// The serialized form
// ---------------------------------------------------------------------------------------

#[test]
fn every_dense_storage_serializes_the_same_form() {
    let a = m23();
    assert_eq!(json(&a), M23);
    assert_eq!(json(&a.view()), M23);
    assert_eq!(json(&a.clone().into_shared()), M23);
    assert_eq!(json(&StackTensor::<i32, ext![2, 3]>::from_slice(ext![2, 3], &[1, 2, 3, 4, 5, 6])), M23);
    let mut b = a.clone();
    assert_eq!(json(&b.view_mut()), M23);
}

#[test]
fn data_is_in_logical_order_whatever_the_policy() {
    let a = m23();
    let col = Tensor::<i32, ext![2, 3], ColMajor>::from_vec(ext![2, 3], vec![1, 4, 2, 5, 3, 6]);
    assert_eq!(json(&col), M23, "ColMajor");
    assert_eq!(json(&a.t()), r#"{"shape":[3,2],"data":[1,4,2,5,3,6]}"#, "transposed view");
    assert_eq!(json(&a.slice(s![.., ..;-2])), r#"{"shape":[2,2],"data":[3,1,6,4]}"#, "negative strides");
    assert_eq!(json(&a.slice_static::<(Full, Span<0, 3, 2>)>()), r#"{"shape":[2,2],"data":[1,3,4,6]}"#);
    let b = tensor![1, 2, 3].into_shape(ext![1, 3]);
    let bc = b.broadcast_to::<ext![2, 3]>(ext![2, 3]);
    assert_eq!(json(&bc), r#"{"shape":[2,3],"data":[1,2,3,1,2,3]}"#, "zero strides");
}

#[test]
fn rank_zero_and_empty_tensors() {
    let s = Tensor::<f64, ext![]>::full(ext![], 2.5);
    assert_eq!(json(&s), r#"{"shape":[],"data":[2.5]}"#);
    let back: Tensor<f64, ext![]> = serde_json::from_str(&json(&s)).unwrap();
    assert_eq!(back, s);
    let e = Tensor::<i32, DynRank>::zeros(vec![2, 0, 3]);
    assert_eq!(json(&e), r#"{"shape":[2,0,3],"data":[]}"#);
    let back: Tensor<i32, DynRank> = serde_json::from_str(&json(&e)).unwrap();
    assert_eq!(back.shape(), [2, 0, 3]);
}

// ---------------------------------------------------------------------------------------
// Deserializing into owned tensors
// ---------------------------------------------------------------------------------------

#[test]
fn deserializes_into_every_owned_storage_and_policy() {
    let a = m23();
    let heap: Tensor<i32, ext![2, 3]> = serde_json::from_str(M23).unwrap();
    let mixed: Tensor<i32, ext![_, 3]> = serde_json::from_str(M23).unwrap();
    let dynr: Tensor<i32, DynRank> = serde_json::from_str(M23).unwrap();
    let stack: StackTensor<i32, ext![2, 3]> = serde_json::from_str(M23).unwrap();
    let shared: SharedTensor<i32, ext![_, _]> = serde_json::from_str(M23).unwrap();
    let col: Tensor<i32, ext![2, 3], ColMajor> = serde_json::from_str(M23).unwrap();
    let strided: Tensor<i32, ext![2, 3], Strided> = serde_json::from_str(M23).unwrap();
    assert_eq!(heap, a);
    assert_eq!(mixed, a);
    assert_eq!(dynr.shape(), [2, 3]);
    assert_eq!(dynr.to_vec(), a.to_vec());
    assert_eq!(stack, a);
    assert_eq!(shared, a);
    assert_eq!(col, a);
    assert_eq!(col.as_slice_memory_order(), Some(&[1, 4, 2, 5, 3, 6][..]), "stored in column-major order");
    assert_eq!(strided, a);
    assert!(strided.is_standard_layout(), "deserialized tensors are standard layout");
}

#[test]
fn fields_in_any_order_and_the_sequence_form() {
    let swapped: Tensor<i32, ext![2, 3]> = serde_json::from_str(r#"{"data":[1,2,3,4,5,6],"shape":[2,3]}"#).unwrap();
    assert_eq!(swapped, m23());
    // Formats that write structs as sequences (shape, then data).
    let seq: Tensor<i32, ext![2, 3]> = serde_json::from_str("[[2,3],[1,2,3,4,5,6]]").unwrap();
    assert_eq!(seq, m23());
}

#[test]
fn binary_round_trip_cbor() {
    let a = Tensor::<f32, ext![_, _, _]>::from_fn([2, 3, 4], |[i, j, k]| (i * 12 + j * 4 + k) as f32 * 0.5);
    let mut buf = Vec::new();
    ciborium::into_writer(&a.permute(&[2, 0, 1]), &mut buf).unwrap();
    let back: Tensor<f32, ext![_, _, _]> = ciborium::from_reader(&buf[..]).unwrap();
    assert_eq!(back, a.permute(&[2, 0, 1]));
}

// ---------------------------------------------------------------------------------------
// Crafted inputs: every one is an error naming what was wrong
// ---------------------------------------------------------------------------------------

#[test]
fn wrong_data_length_is_rejected() {
    let e = de_err::<Tensor<i32, ext![_, _]>>(r#"{"shape":[2,3],"data":[1,2,3,4,5]}"#);
    assert!(e.contains("extents [2, 3] need 6 elements but 5 were given"), "{e}");
    let e = de_err::<Tensor<i32, ext![_, _]>>(r#"{"shape":[2,3],"data":[1,2,3,4,5,6,7]}"#);
    assert!(e.contains("need 6 elements but 7 were given"), "{e}");
    // A shape that claims far more elements than are given is refused before allocating.
    let e = de_err::<Tensor<u8, DynRank>>(r#"{"shape":[1048576,1048576],"data":[1,2,3]}"#);
    assert!(e.contains("need 1099511627776 elements but 3 were given"), "{e}");
    let e = de_err::<StackTensor<i32, ext![2, 3]>>(r#"{"shape":[2,3],"data":[]}"#);
    assert!(e.contains("need 6 elements but 0 were given"), "{e}");
}

#[test]
fn static_shape_and_rank_mismatches_are_rejected() {
    let e = de_err::<Tensor<i32, ext![3, 2]>>(M23);
    assert!(e.contains("deserialize: extents [2, 3] do not match the static extents [3, 2] of the type"), "{e}");
    let e = de_err::<StackTensor<i32, ext![3, 2]>>(M23);
    assert!(e.contains("extents [2, 3] do not match the static extents [3, 2]"), "{e}");
    let e = de_err::<Tensor<i32, ext![_, 2]>>(M23);
    assert!(e.contains("do not match the static extents [_, 2]"), "{e}");
    let e = de_err::<Tensor<i32, ext![_, _, _]>>(M23);
    assert!(e.contains("deserialize: expected 3 axes, found 2"), "{e}");
    // Same element count, other shape: still refused.
    let e = de_err::<Tensor<i32, ext![6]>>(M23);
    assert!(e.contains("expected 1 axes, found 2"), "{e}");
}

#[test]
fn negative_and_overflowing_extents_are_rejected() {
    let e = de_err::<Tensor<i32, ext![_, _]>>(r#"{"shape":[-1,3],"data":[]}"#);
    assert!(e.contains("invalid value: integer `-1`"), "{e}");
    let e = de_err::<Tensor<i32, ext![_, _]>>(r#"{"shape":[1.5,3],"data":[]}"#);
    assert!(e.contains("invalid type: floating point"), "{e}");
    let huge = format!(r#"{{"shape":[{},3],"data":[]}}"#, usize::MAX);
    let e = de_err::<Tensor<i32, ext![_, _]>>(&huge);
    assert!(e.contains("overflows isize::MAX bytes"), "{e}");
    // The element count fits usize, the byte count does not.
    let bytes = format!(r#"{{"shape":[{}],"data":[]}}"#, usize::MAX / 4);
    let e = de_err::<Tensor<u64, DynRank>>(&bytes);
    assert!(e.contains("overflows isize::MAX bytes"), "{e}");
    let too_big = format!(r#"{{"shape":[{}],"data":[]}}"#, u128::from(u64::MAX) + 1);
    assert!(serde_json::from_str::<Tensor<i32, DynRank>>(&too_big).is_err());
}

#[test]
fn a_policy_that_cannot_own_a_buffer_is_rejected() {
    // A StaticSliced policy's strides are its parent's times the steps: [8, 2] here, which
    // would reach past a 4-element buffer.
    type Sliced = mdtensor::layout::StaticSliced<mdtensor::RowMajor, ext![4, 4], (Span<0, 4, 2>, Span<0, 4, 2>)>;
    let e = de_err::<Tensor<i32, ext![2, 2], Sliced>>(r#"{"shape":[2,2],"data":[1,2,3,4]}"#);
    assert!(e.contains("the StaticSliced stride policy cannot own a dense buffer"), "{e}");
}

#[test]
fn malformed_structs_are_rejected() {
    let e = de_err::<Tensor<i32, ext![_]>>(r#"{"data":[1,2]}"#);
    assert!(e.contains("missing field `shape`"), "{e}");
    let e = de_err::<Tensor<i32, ext![_]>>(r#"{"shape":[2]}"#);
    assert!(e.contains("missing field `data`"), "{e}");
    let e = de_err::<Tensor<i32, ext![_]>>(r#"{"shape":[2],"shape":[2],"data":[1,2]}"#);
    assert!(e.contains("duplicate field `shape`"), "{e}");
    let e = de_err::<Tensor<i32, ext![_]>>(r#"{"shape":[2],"data":[1,2],"strides":[1]}"#);
    assert!(e.contains("unknown field `strides`"), "{e}");
    let e = de_err::<Tensor<i32, ext![_]>>(r#"{"shape":[2],"data":[1,"x"]}"#);
    assert!(e.contains("invalid type: string"), "{e}");
    let e = de_err::<Tensor<i32, ext![_, _]>>("[[2,3]]");
    assert!(e.contains("invalid length 1"), "{e}");
    let e = de_err::<Tensor<i32, ext![_]>>("7");
    assert!(e.contains("a tensor"), "{e}");
}

// ---------------------------------------------------------------------------------------
// Properties: any strided view round-trips to the reference's shape and elements
// ---------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(common::config())]

    #[test]
    fn strided_views_round_trip(case in strided_case(4, 4)) {
        let t = case.tensor();
        let v = case.view(&t);
        let text = json(&v);
        let back: Tensor<i64, DynRank> = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(back.shape(), case.view_shape());
        prop_assert_eq!(back.to_vec(), case.view_elements());
        prop_assert!(back.is_standard_layout());
        let col: Tensor<i64, DynRank, ColMajor> = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(col.to_vec(), case.view_elements());
    }

    #[test]
    fn any_wrong_length_is_an_error(shape in proptest::collection::vec(0usize..5, 0..4), extra in 1usize..4, shorter in any::<bool>()) {
        let n: usize = shape.iter().product();
        let len = if shorter { n.saturating_sub(extra) } else { n + extra };
        prop_assume!(len != n);
        let text = format!(r#"{{"shape":{:?},"data":{:?}}}"#, shape, vec![0; len]);
        let err = serde_json::from_str::<Tensor<i32, DynRank>>(&text).unwrap_err().to_string();
        let want = format!("need {n} elements but {len} were given");
        prop_assert!(err.contains(&want), "{}", err);
    }
}
