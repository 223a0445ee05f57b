//! Sparse API: every bad input is rejected with a message naming the offending position,
//! the inputs come back inside the error, and the static-extent forms work.

use mdtensor::sparse::{CooTensor, CscMatrix, CsrMatrix, Rejected, SparseError};
use mdtensor::{ext, tensor, ColMajor, Par, Tensor};

type Csr = CsrMatrix<f64>;

/// The error of a rejected CSR construction of a 3×4 matrix.
fn csr_err(indptr: Vec<usize>, indices: Vec<usize>, values: Vec<f64>) -> Rejected<(Vec<usize>, Vec<usize>, Vec<f64>)> {
    match Csr::try_new([3, 4], indptr, indices, values) {
        Ok(_) => panic!("expected a rejection"),
        Err(e) => e,
    }
}

#[test]
fn valid_csr_is_accepted() {
    let a = Csr::new([3, 4], vec![0, 2, 2, 3], vec![0, 3, 1], vec![1.0, 2.0, 3.0]);
    assert_eq!(a.nnz(), 3);
    assert_eq!(a.indptr(), [0, 2, 2, 3]);
    assert_eq!(a.row(1).nnz(), 0);
    assert_eq!(a.to_dense().to_vec(), [1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0]);
}

#[test]
fn indptr_of_wrong_length() {
    let e = csr_err(vec![0, 1, 2], vec![0, 1], vec![1.0, 2.0]);
    assert_eq!(e.error, SparseError::IndptrLength { lane: "row", expected: 4, found: 3 });
    assert_eq!(e.to_string(), "indptr has 3 entries; 3 rows need 4");
    assert_eq!(e.parts, (vec![0, 1, 2], vec![0, 1], vec![1.0, 2.0]), "inputs come back");
}

#[test]
fn indptr_not_starting_at_zero() {
    let e = csr_err(vec![1, 1, 2, 2], vec![0, 1], vec![1.0, 2.0]);
    assert_eq!(e.to_string(), "indptr[0] = 1, but it must be 0");
}

#[test]
fn indptr_not_monotonic() {
    let e = csr_err(vec![0, 2, 1, 2], vec![0, 1], vec![1.0, 2.0]);
    assert_eq!(e.error, SparseError::IndptrDecreasing { pos: 2, value: 1, prev: 2 });
    assert_eq!(e.to_string(), "indptr[2] = 1 is less than indptr[1] = 2");
    // A pointer beyond nnz followed by a smaller one is reported where it decreases.
    let e = csr_err(vec![0, 5, 2, 2], vec![0, 1], vec![1.0, 2.0]);
    assert_eq!(e.to_string(), "indptr[2] = 2 is less than indptr[1] = 5");
}

#[test]
fn indptr_not_ending_at_nnz() {
    let e = csr_err(vec![0, 1, 1, 1], vec![0, 1], vec![1.0, 2.0]);
    assert_eq!(e.to_string(), "indptr[3] = 1, but it must equal the number of stored entries, 2");
    let e = csr_err(vec![0, 1, 5, 5], vec![0, 1], vec![1.0, 2.0]);
    assert!(matches!(e.error, SparseError::IndptrEnd { pos: 3, value: 5, nnz: 2 }), "{e}");
}

#[test]
fn column_index_out_of_range() {
    let e = csr_err(vec![0, 1, 1, 2], vec![0, 12], vec![1.0, 2.0]);
    assert_eq!(e.to_string(), "row 2: column index 12 is out of range for 4 columns");
    let e = CscMatrix::<f64>::try_new([3, 2], vec![0, 0, 1], vec![3], vec![1.0]).err().unwrap();
    assert_eq!(e.to_string(), "column 1: row index 3 is out of range for 3 rows");
}

#[test]
fn unsorted_or_duplicate_within_a_row() {
    let e = csr_err(vec![0, 0, 2, 2], vec![3, 1], vec![1.0, 2.0]);
    assert_eq!(
        e.error,
        SparseError::Unsorted { lane: "row", lane_index: 1, inner: "column", pos: 1, index: 1, prev: 3 }
    );
    assert!(e.to_string().starts_with("row 1: column indices are not sorted: indices[1] = 1 follows 3"), "{e}");
    let e = csr_err(vec![0, 0, 0, 2], vec![2, 2], vec![1.0, 2.0]);
    assert!(e.to_string().starts_with("row 2: column index 2 appears twice"), "{e}");
    // Sorting across rows is not required: only within each row.
    assert!(Csr::try_new([3, 4], vec![0, 1, 2, 2], vec![3, 0], vec![1.0, 2.0]).is_ok());
    // `from_unsorted` repairs both.
    let a = Csr::from_unsorted([3, 4], vec![0, 0, 3, 3], vec![3, 1, 3], vec![1.0, 2.0, 4.0]);
    assert_eq!(a.indices(), [1, 3]);
    assert_eq!(a.values(), [2.0, 5.0]);
}

#[test]
fn mismatched_lengths() {
    let e = csr_err(vec![0, 1, 1, 2], vec![0, 1], vec![1.0]);
    assert_eq!(e.to_string(), "2 indices but 1 values");
    let e = CooTensor::<f64, ext![_, _]>::try_new([2, 2], vec![0, 1, 1], vec![1.0, 2.0]).err().unwrap();
    assert_eq!(e.to_string(), "3 coordinates but 2 values");
    let e = CsrMatrix::<f64>::try_from_triplets([2, 2], &[0usize, 1], &[0usize], &[1.0, 2.0]).err().unwrap();
    assert_eq!(e.to_string(), "1 column indices but 2 values");
}

#[test]
fn extents_whose_product_overflows() {
    let e = Csr::try_new([usize::MAX, 3], vec![0; 1], vec![], vec![]).err().unwrap();
    assert!(matches!(e.error, SparseError::Shape(mdtensor::ShapeError::Overflow { .. })), "{e}");
    let e = CooTensor::<f64, ext![_, _, _]>::try_new([1 << 40, 1 << 40, 2], vec![], vec![]).err().unwrap();
    assert!(e.to_string().contains("overflows"), "{e}");
}

#[test]
fn index_type_overflow_is_checked() {
    // 2^32 rows do not fit u32 indices.
    let rows = 1usize << 32;
    let e =
        CsrMatrix::<f32, ext![_, _], u32>::try_from_triplets([rows, 1], &[0usize], &[0usize], &[1.0]).err().unwrap();
    assert_eq!(e.to_string(), "an extent = 4294967296 does not fit the index type u32");
    let e = tensor![[1.0f32]].try_to_compressed::<ColMajor, u32>();
    assert!(e.is_ok());
}

#[test]
fn static_extents_mismatch_is_reported() {
    let e = CsrMatrix::<f64, ext![2, 2]>::try_new(&[3, 2][..], vec![0, 0, 0, 0], vec![], vec![]).err().unwrap();
    assert!(matches!(e.error, SparseError::Shape(mdtensor::ShapeError::StaticMismatch { .. })), "{e}");
}

#[test]
fn triplet_out_of_range_names_the_entry() {
    let e = CsrMatrix::<f64>::try_from_triplets([2, 3], &[0usize, 1, 2], &[0usize, 1, 0], &[1.0; 3]).err().unwrap();
    assert_eq!(e.to_string(), "entry 2: index 2 on axis 0 is out of range for extent 2");
    let e = CscMatrix::<f64>::try_from_triplets([2, 3], &[0usize, 1], &[0usize, 3], &[1.0; 2]).err().unwrap();
    assert_eq!(e.to_string(), "entry 1: index 3 on axis 1 is out of range for extent 3");
}

#[test]
fn coo_validation() {
    type Coo3 = CooTensor<i32, ext![_, _, _]>;
    let e = Coo3::try_new([2, 2, 2], vec![1, 0, 0, 0, 1, 1], vec![1, 2]).err().unwrap();
    assert_eq!(e.error, SparseError::EntryUnsorted { entry: 1 });
    assert!(e.to_string().starts_with("entry 1 comes before entry 0"), "{e}");
    let e = Coo3::try_new([2, 2, 2], vec![0, 1, 1, 0, 1, 1], vec![1, 2]).err().unwrap();
    assert!(e.to_string().starts_with("entry 1 repeats the coordinates [0, 1, 1] of entry 0"), "{e}");
    let e = Coo3::try_new([2, 2, 2], vec![0, 0, 5], vec![1]).err().unwrap();
    assert_eq!(e.to_string(), "entry 0: index 5 on axis 2 is out of range for extent 2");
    assert_eq!(e.parts, (vec![0, 0, 5], vec![1]));
    // ColMajor order: sorted by the last axis first.
    let ok =
        Tensor::<i32, ext![_, _], ColMajor, mdtensor::sparse::Coo<i32>>::try_new([2, 2], vec![1, 0, 0, 1], vec![1, 2]);
    assert!(ok.is_ok());
    let e = CooTensor::<i32, ext![_, _]>::try_from_entries([2, 2], [([0, 2], 1)]).err().unwrap();
    assert_eq!(e.to_string(), "entry 0: index 2 on axis 1 is out of range for extent 2");
}

#[test]
fn coo_rank_zero_and_dynamic_rank() {
    let s = CooTensor::<i32, ()>::from_unsorted((), vec![], vec![2, 3]);
    assert_eq!(s.value([]), Some(5));
    assert_eq!(s.nnz(), 1);
    let e = CooTensor::<i32, ()>::try_new((), vec![], vec![2, 3]).err().unwrap();
    assert!(matches!(e.error, SparseError::EntryDuplicate { entry: 1, .. }));
    let d = CooTensor::<i32, mdtensor::DynRank>::from_entries(vec![2, 3], [(vec![1, 2], 7), (vec![0, 0], 1)]);
    assert_eq!(d.coords(), [0, 0, 1, 2]);
    assert_eq!(d.to_dense().to_vec(), [1, 0, 0, 0, 0, 7]);
}

#[test]
fn map_that_is_not_zero_preserving_is_refused() {
    let a = tensor![[1.0, 0.0], [0.0, 2.0]].to_csr();
    assert_eq!(a.try_sparse_map(|x: f64| x.cos()).err(), Some(SparseError::NotZeroPreserving));
    let r = std::panic::catch_unwind(|| a.sparse_map(|x| x + 1.0));
    let msg = *r.err().unwrap().downcast::<String>().unwrap();
    assert!(msg.starts_with("sparse_map: f(0) is not zero"), "{msg}");
    // `f(0) == 0` but some stored values map to zero: they are dropped.
    assert_eq!(a.sparse_map(|x| if x == 1.0 { 0.0 } else { x }).nnz(), 1);
}

#[test]
fn dynamic_shape_mismatches_are_errors() {
    let a = CsrMatrix::<f64>::from_triplets([2, 3], &[0usize], &[2usize], &[1.0]);
    let x = Tensor::<f64, ext![_]>::from_vec([2], vec![1.0, 2.0]);
    let e = a.try_matvec(&x).err().unwrap();
    assert_eq!(
        e.to_string(),
        "matvec: shapes [2, 3] and [2] are incompatible: the matrix has 3 columns but the right operand has 2 rows"
    );
    let b = Tensor::<f64, ext![_, _]>::zeros([4, 2]);
    assert!(a.try_matmat(&b).is_err());
    let mut y = Tensor::<f64, ext![_]>::zeros([3]);
    let e = a.try_matvec_into_with(&Tensor::<f64, ext![_]>::zeros([3]), &mut y, Par::Seq).err().unwrap();
    assert!(e.to_string().contains("the matrix has 2 rows but the output has 3"), "{e}");
    let other = CsrMatrix::<f64>::from_triplets([3, 2], &[0usize], &[0usize], &[1.0]);
    let e = a.try_sparse_add(&other).err().unwrap();
    assert!(e.to_string().starts_with("sparse_add: shapes [2, 3] and [3, 2] are incompatible"), "{e}");
    assert!(a.try_sparse_mul(&other).is_err());
    let r = std::panic::catch_unwind(|| a.matvec(&x));
    let msg = *r.err().unwrap().downcast::<String>().unwrap();
    assert!(msg.contains("the matrix has 3 columns"), "{msg}");
}

#[test]
fn static_extents_flow_through() {
    let a = CsrMatrix::<f64, ext![3, 4]>::from_triplets(ext![3, 4], &[0usize, 2], &[3usize, 1], &[1.0, 2.0]);
    let y = a.matvec(&tensor![1.0, 2.0, 3.0, 4.0]);
    let _: &ext![3] = y.extents();
    assert_eq!(y.to_vec(), [4.0, 0.0, 4.0]);
    let t = a.sparse_t();
    let _: &ext![4, 3] = t.extents();
    let z = t.matvec(&tensor![1.0, 1.0, 1.0]);
    let _: &ext![4] = z.extents();
    assert_eq!(z.to_vec(), [0.0, 2.0, 0.0, 1.0]);
    let c = a.matmat(&Tensor::<f64, ext![4, 2]>::from_fn(ext![4, 2], |[i, j]| (i * 2 + j) as f64));
    let _: &ext![3, 2] = c.extents();
    let s = a.sparse_add(&a.to_csc());
    let _: &ext![3, 4] = s.extents();
    let owned_csc = a.clone().reversed_axes();
    let _: &ext![4, 3] = owned_csc.extents();
    assert_eq!(owned_csc.col(2).indices(), [1]);
    let _: Tensor<f64, ext![4]> = a.sum_axis::<0>();
}

#[test]
fn lanes_and_access() {
    let a = tensor![[0, 5, 0], [7, 0, 9]].to_csr();
    let r = a.row(1);
    assert_eq!((r.len(), r.nnz()), (3, 2));
    assert_eq!(r.iter().map(|(j, &v)| (j, v)).collect::<Vec<_>>(), [(0, 7), (2, 9)]);
    assert_eq!(r.value(3), None);
    assert_eq!(r.dot(&tensor![1, 1, 1]), Some(16));
    assert_eq!(r.dot(&tensor![1, 1]), None);
    assert!(a.try_outer_view(2).is_err());
    let mut a = a;
    a.values_mut()[0] = 6;
    assert_eq!(a.value([0, 1]), Some(6));
    assert_eq!(
        a.try_value([2, 0]).unwrap_err().to_string(),
        "index: index 2 is out of bounds for axis 0 with extent 2"
    );
    let (indptr, indices, values) = a.into_parts();
    assert_eq!((indptr, indices, values), (vec![0, 1, 3], vec![1, 0, 2], vec![6, 7, 9]));
    let e = a_view_entries();
    assert_eq!(e, [(0, 1, 5), (1, 0, 7), (1, 2, 9)]);
}

fn a_view_entries() -> Vec<(usize, usize, i32)> {
    let a = tensor![[0, 5, 0], [7, 0, 9]].to_csr();
    let v = a.sparse_view();
    v.entries().map(|(i, j, &x)| (i, j, x)).collect()
}

#[test]
fn empty_matrices() {
    for (r, c) in [(0, 3), (3, 0), (0, 0)] {
        let a = Csr::from_triplets([r, c], &[] as &[usize], &[], &[]);
        assert_eq!(a.indptr().len(), r + 1);
        assert_eq!(a.matvec(&Tensor::<f64, ext![_]>::zeros([c])).to_vec(), vec![0.0; r]);
        assert_eq!(a.to_csc().matmat(&Tensor::<f64, ext![_, _]>::zeros([c, 2])).dims(), [r, 2]);
        assert_eq!(a.density(), 0.0);
        assert_eq!(a.sparse_t().dims(), [c, r]);
    }
}

#[test]
fn unchecked_constructor_trusts_valid_input() {
    // SAFETY: a valid 2×2 CSR structure.
    let a =
        unsafe { Csr::new_unchecked((mdtensor::Dyn(2), mdtensor::Dyn(2)), vec![0, 1, 2], vec![1, 0], vec![3.0, 4.0]) };
    assert_eq!(a.to_dense().to_vec(), [0.0, 3.0, 4.0, 0.0]);
}

/// Sparse and band tensors are `Debug` (so `unwrap_err` and `assert_eq!` work on results
/// holding them): the header, the stored-entry count and the entries in storage order.
#[test]
fn sparse_and_band_tensors_are_debug() {
    let a = mdtensor::tensor![[0, 5, 0], [7, 0, 0]].to_csr();
    let text = format!("{a:?}");
    assert!(text.starts_with("Tensor { extents: ") && text.contains("nnz: 2 }"), "{text}");
    assert!(text.contains("[0, 1] = 5") && text.contains("[1, 0] = 7"), "{text}");
    let wide = Tensor::<i32, ext![_, _]>::from_fn([1, 30], |[_, j]| j as i32 + 1).to_coo();
    assert!(format!("{wide:?}").contains("… 10 more"), "{wide:?}");
    let band = mdtensor::BandMatrix::<i32>::from_dense(&mdtensor::tensor![[1, 2], [0, 3]], 0, 1);
    assert!(format!("{band:?}").contains("nnz: "), "{band:?}");
    // `unwrap_err` compiles on results holding sparse tensors.
    let bad = CsrMatrix::<f64>::try_new([1, 1], vec![0, 1], vec![3], vec![1.0]);
    assert!(bad.unwrap_err().to_string().contains("out of range"));
}
