//! Serde (feature `serde`) for the sparse and band storages: round trips keep every stored
//! entry, and crafted arrays are refused with the constructors' messages (never turned
//! into a matrix whose kernels would read out of bounds).
#![cfg(feature = "serde")]

use mdtensor::sparse::{CooTensor, CscMatrix, CsrMatrix};
use mdtensor::{ext, tensor, BandMatrix, Tensor};

fn de_err<T: serde::de::DeserializeOwned>(s: &str) -> String {
    match serde_json::from_str::<T>(s) {
        Ok(_) => panic!("{s} was accepted"),
        Err(e) => e.to_string(),
    }
}

fn dense() -> Tensor<i64, ext![_, _]> {
    Tensor::from_vec([3, 4], vec![0, 1, 0, 2, 0, 0, 0, 0, 3, 0, 4, 5])
}

#[test]
fn compressed_round_trips_in_both_orders_and_for_views() {
    let a: CsrMatrix<i64> = dense().to_csr();
    let back: CsrMatrix<i64> = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
    assert_eq!((back.indptr(), back.indices(), back.values()), (a.indptr(), a.indices(), a.values()));
    let c: CscMatrix<i64> = dense().to_csc();
    let back: CscMatrix<i64> = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
    assert_eq!(back.to_dense().to_vec(), dense().to_vec());
    // A borrowed transpose serializes as the CSC matrix it is.
    let t = serde_json::to_string(&a.sparse_t()).unwrap();
    assert!(t.starts_with(r#"{"format":"csc","shape":[4,3]"#), "{t}");
    let back: CscMatrix<i64> = serde_json::from_str(&t).unwrap();
    assert_eq!(back.to_dense().to_vec(), dense().t().to_standard_layout().to_vec());
    // Static extents are checked against the shape.
    let s: CsrMatrix<i64, ext![3, 4]> = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
    assert_eq!(s.nnz(), 5);
    let err = de_err::<CsrMatrix<i64, ext![4, 3]>>(&serde_json::to_string(&a).unwrap());
    assert!(err.contains("[3, 4]") && err.contains("[4, 3]"), "{err}");
}

#[test]
fn crafted_compressed_arrays_are_refused_with_the_position() {
    let case = |indptr: &str, indices: &str, data: &str| {
        de_err::<CsrMatrix<i64>>(&format!(
            r#"{{"format":"csr","shape":[2,3],"indptr":{indptr},"indices":{indices},"data":{data}}}"#
        ))
    };
    assert!(case("[0,2,1]", "[0,1]", "[1,2]").contains("indptr[2] = 1 is less than indptr[1] = 2"));
    assert!(case("[0,1,2]", "[0,9]", "[1,2]").contains("column index 9 is out of range for 3 columns"));
    assert!(case("[0,2]", "[0,1]", "[1,2]").contains("indptr"), "indptr of the wrong length");
    assert!(case("[0,1,2]", "[0,1]", "[1,2,3]").contains('3'), "more values than indices");
    assert!(case("[0,2,2]", "[1,0]", "[1,2]").contains("row 0"), "unsorted indices within a row");
    assert!(case("[0,2,2]", "[1,1]", "[1,2]").contains("row 0"), "a repeated index within a row");
    let err = de_err::<CsrMatrix<i64>>(r#"{"format":"csc","shape":[2,3],"indptr":[0,0,0,0],"indices":[],"data":[]}"#);
    assert!(err.contains("`csc` matrix cannot be read as `csr`"), "{err}");
    let err =
        de_err::<CsrMatrix<i64>>(r#"{"format":"csr","shape":[2,3],"indptr":[0,0,0],"indices":[],"data":[],"x":1}"#);
    assert!(err.contains("unknown field"), "{err}");
    // u32 indices: an extent that does not fit the index type is refused.
    let err = de_err::<CsrMatrix<i64, ext![_, _], u32>>(
        r#"{"format":"csr","shape":[1,5000000000],"indptr":[0,0],"indices":[],"data":[]}"#,
    );
    assert!(!err.is_empty());
}

#[test]
fn coo_round_trips_and_checks_order_and_coordinates() {
    let d = tensor![[[0, 1], [2, 0]], [[0, 0], [0, 3]]];
    let a: CooTensor<i32, ext![2, 2, 2]> = d.to_coo();
    let json = serde_json::to_string(&a).unwrap();
    assert_eq!(json, r#"{"order":"row-major","shape":[2,2,2],"coords":[0,0,1,0,1,0,1,1,1],"data":[1,2,3]}"#);
    let back: CooTensor<i32, ext![2, 2, 2]> = serde_json::from_str(&json).unwrap();
    assert_eq!(back.to_dense().to_vec(), d.to_vec());
    let err = de_err::<CooTensor<i32, ext![2, 2, 2]>>(
        r#"{"order":"row-major","shape":[2,2,2],"coords":[0,0,1,0,1,0,1,1,2],"data":[1,2,3]}"#,
    );
    assert!(err.contains("index 2 on axis 2 is out of range for extent 2"), "{err}");
    let err = de_err::<CooTensor<i32, ext![2, 2, 2]>>(
        r#"{"order":"row-major","shape":[2,2,2],"coords":[0,1,0,0,0,1],"data":[2,1]}"#,
    );
    assert!(err.contains("entry 1"), "unsorted entries: {err}");
    let err = de_err::<CooTensor<i32, ext![2, 2, 2]>>(r#"{"order":"col-major","shape":[2,2,2],"coords":[],"data":[]}"#);
    assert!(err.contains("cannot be read as `row-major`"), "{err}");
}

#[test]
fn band_round_trips_and_refuses_bad_buffers() {
    let a = BandMatrix::<i32>::from_dense(&tensor![[1, 2, 0], [3, 4, 5], [0, 6, 7]], 1, 1);
    let json = serde_json::to_string(&a).unwrap();
    let back: BandMatrix<i32> = serde_json::from_str(&json).unwrap();
    assert_eq!((back.kl(), back.ku(), back.to_dense().to_vec()), (1, 1, a.to_dense().to_vec()));
    let short = de_err::<BandMatrix<i32>>(r#"{"shape":[3,3],"kl":1,"ku":1,"data":[1,2,3]}"#);
    assert!(short.contains("9 elements"), "{short}");
    let wide = de_err::<BandMatrix<i32>>(r#"{"shape":[3,3],"kl":5,"ku":0,"data":[]}"#);
    assert!(!wide.is_empty(), "a bandwidth larger than the matrix");
    let static_mismatch = de_err::<BandMatrix<i32, ext![2, 2]>>(&json);
    assert!(static_mismatch.contains("[3, 3]"), "{static_mismatch}");
}
