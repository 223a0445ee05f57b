//! Band matrices: validation (every error names its numbers), access rules, static and
//! dynamic extents, rectangular shapes, and the generic storage API on a band.

use mdtensor::{ext, tensor, Band, BandError, BandMatrix, ShapeError, Tensor};

type Vector<T> = Tensor<T, ext![_]>;

// Band tensors do not implement `Debug` (the dense `Debug` impl is generic over every
// storage, so coherence rejects a second one), hence `.err().expect(..)` below instead of
// `.unwrap_err()`.

#[test]
fn bandwidths_wider_than_the_matrix_are_accepted_as_lapack_does() {
    // LAPACK's ?gbmv takes any kl, ku >= 0: the diagonals beyond the matrix are padding.
    let mut a = BandMatrix::<f64>::try_with_bandwidths([3, 4], 3, 5).expect("a wide band");
    assert_eq!((a.ldab(), a.as_lapack_slice().len()), (9, 36));
    let dense = Tensor::<f64, ext![3, 4]>::from_fn(ext![3, 4], |[i, j]| (1 + i * 4 + j) as f64);
    for i in 0..3 {
        for j in 0..4 {
            a.try_set([i, j], dense[[i, j]]).expect("every element is inside a band this wide");
        }
    }
    assert_eq!(a.to_dense().to_vec(), dense.to_vec());
    let x = tensor![1.0, -1.0, 2.0, 0.5];
    let want: Vec<f64> = (0..3).map(|i| (0..4).map(|j| dense[[i, j]] * x[[j]]).sum()).collect();
    assert_eq!(a.matvec(&x).to_vec(), want);
    // Built from the LAPACK buffer too; an empty matrix takes any bandwidth.
    let (kl, ku, data) = a.into_parts();
    assert!(BandMatrix::<f64>::try_from_parts([3, 4], kl, ku, data).is_ok());
    assert!(BandMatrix::<f64>::try_with_bandwidths([0, 3], 1, 0).is_ok());
}

#[test]
fn buffer_of_the_wrong_length_is_returned_with_the_error() {
    let (err, data) = BandMatrix::<i32>::try_from_parts([4, 4], 1, 2, vec![0; 15]).expect_err("an error");
    assert_eq!(data.len(), 15);
    assert_eq!(err, BandError::LengthMismatch { rows: 4, cols: 4, kl: 1, ku: 2, expected: 16, found: 15 });
    assert!(err.to_string().contains("(kl + ku + 1)·4 = 16 elements, but 15 were given"), "{err}");
}

#[test]
fn overflowing_extents_are_an_error() {
    let err = BandMatrix::<f64>::try_with_bandwidths([usize::MAX / 2, 3], 0, 0).expect_err("an error");
    assert!(matches!(err, BandError::Overflow { rows, cols: 3, .. } if rows == usize::MAX / 2), "{err}");
    assert!(err.to_string().contains("isize::MAX"), "{err}");
    // The matrix fits but the band buffer (ldab·cols) does not.
    let n = 1usize << 32;
    let err = BandMatrix::<u8>::try_with_bandwidths([1, n], 0, n - 1).expect_err("an error");
    assert!(matches!(err, BandError::Overflow { .. }), "{err}");
    let (err, _) = BandMatrix::<f64>::try_from_parts([usize::MAX, 2], 0, 0, vec![]).expect_err("an error");
    assert!(matches!(err, BandError::Overflow { .. }), "{err}");
}

#[test]
fn static_extents_are_checked() {
    let err = BandMatrix::<f64, ext![3, 3]>::try_with_bandwidths(&[3, 4][..], 1, 1).expect_err("an error");
    assert!(matches!(err, BandError::Shape(ShapeError::StaticMismatch { .. })), "{err}");
    assert!(std::error::Error::source(&err).is_some());
    let a = BandMatrix::<i32, ext![3, 3]>::from_dense(&tensor![[1, 2, 0], [3, 4, 5], [0, 6, 7]], 1, 1);
    let y = a.matvec(&tensor![1, 1, 1]);
    let _: &ext![3] = y.extents();
    assert_eq!(y.to_vec(), [3, 12, 13]);
}

#[test]
fn writes_outside_the_band_are_errors_and_reads_are_zero() {
    let mut a = BandMatrix::<i32>::with_bandwidths([4, 5], 1, 0);
    a.set([1, 0], 7);
    a.set([3, 3], 9);
    let err = a.try_set([0, 1], 1).unwrap_err();
    assert_eq!(err, BandError::OutsideBand { op: "set", row: 0, col: 1, kl: 1, ku: 0 });
    assert!(err.to_string().contains("(0, 1) lies outside the band kl = 1, ku = 0"), "{err}");
    let err = a.try_set([4, 0], 1).unwrap_err();
    assert!(err.to_string().contains("index (4, 0) is out of bounds for a 4×5 matrix"), "{err}");
    assert_eq!(a.stored_mut([2, 0]), None);
    *a.stored_mut([2, 1]).unwrap() = 5;
    assert_eq!(a.value([1, 0]), Some(7));
    assert_eq!(a.value([0, 3]), Some(0));
    assert_eq!(a.value([4, 0]), None);
    assert_eq!(
        a.try_value([0, 5]).unwrap_err().to_string(),
        "index: index 5 is out of bounds for axis 1 with extent 5"
    );
    assert_eq!(a.to_dense().to_vec(), [0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 9, 0]);
}

#[test]
#[should_panic(expected = "set: element (0, 2) lies outside the band kl = 0, ku = 1")]
fn set_outside_the_band_panics_with_the_index() {
    BandMatrix::<f64>::with_bandwidths([3, 3], 0, 1).set([0, 2], 1.0);
}

#[test]
fn cells_outside_the_matrix_are_zeroed() {
    // 3×3, kl = 1, ku = 1: AB(0, 0) and AB(2, 2) lie outside the matrix.
    let a = BandMatrix::<i32>::from_parts([3, 3], 1, 1, vec![99, 1, 2, 3, 4, 5, 6, 7, 99]);
    assert_eq!(a.as_lapack_slice(), [0, 1, 2, 3, 4, 5, 6, 7, 0]);
    assert_eq!(a.ldab(), 3);
    assert_eq!(a.to_dense().to_vec(), [1, 3, 0, 2, 4, 6, 0, 5, 7]);
}

#[test]
fn rectangular_products() {
    // 3×5 with ku = 2 (wide) and 5×3 with kl = 2 (tall): against the dense product.
    for (rows, cols, kl, ku) in [(3, 5, 0, 2), (5, 3, 2, 0), (2, 6, 1, 4), (6, 2, 4, 1)] {
        let d = Tensor::<i64, ext![_, _]>::from_fn([rows, cols], |[i, j]| {
            if i + ku >= j && i <= j + kl {
                (i * 10 + j) as i64
            } else {
                0
            }
        });
        let a = BandMatrix::<i64>::from_dense(&d, kl, ku);
        let x = Vector::<i64>::from_fn([cols], |[j]| j as i64 + 1);
        assert_eq!(a.matvec(&x).to_vec(), d.matmul(&x).to_vec(), "{rows}×{cols}");
        assert_eq!(a.to_dense().to_vec(), d.to_vec());
    }
}

#[test]
fn length_mismatches_are_errors() {
    let a = BandMatrix::<f64>::with_bandwidths([3, 4], 1, 1);
    let err = a.try_matvec(&Vector::<f64>::zeros([3])).unwrap_err();
    assert_eq!(err, BandError::DimensionMismatch { op: "matvec", rows: 3, cols: 4, expected: 4, found: 3 });
    assert!(err.to_string().contains("the 3×4 band matrix needs a vector of length 4, but its length is 3"));
    let mut y = Vector::<f64>::zeros([4]);
    let err = a.try_matvec_into(&Vector::<f64>::zeros([4]), &mut y).unwrap_err();
    assert!(matches!(err, BandError::DimensionMismatch { expected: 3, found: 4, .. }), "{err}");
    // A non-contiguous output.
    let mut m = Tensor::<f64, ext![_, _]>::zeros([3, 2]);
    let mut col = m.slice_mut(mdtensor::s![.., 0]);
    let err = a.try_matvec_into(&Vector::<f64>::zeros([4]), &mut col).unwrap_err();
    assert!(matches!(err, BandError::Shape(ShapeError::NotContiguous { .. })), "{err}");
}

#[test]
#[should_panic(expected = "needs a vector of length 2, but its length is 5")]
fn matvec_panics_with_the_lengths() {
    let a = BandMatrix::<f64>::with_bandwidths([2, 2], 1, 1);
    let _ = a.matvec(&Vector::<f64>::zeros([5]));
}

#[test]
fn solve_checks_shapes() {
    let a = BandMatrix::<f64>::with_bandwidths([3, 4], 1, 1);
    assert_eq!(a.factorize().unwrap_err(), BandError::NotSquare { rows: 3, cols: 4 });
    let a = BandMatrix::<f64>::from_triplets([2, 2], 0, 0, &[(0, 0, 1.0), (1, 1, 2.0)]);
    let err = a.try_solve(&Vector::<f64>::zeros([3])).unwrap_err();
    assert!(matches!(err, BandError::DimensionMismatch { op: "solve", expected: 2, found: 3, .. }), "{err}");
    let err = a.factorize().unwrap().solve_in_place(&mut [1.0]).unwrap_err();
    assert!(err.to_string().contains("length 2, but its length is 1"), "{err}");
}

#[test]
fn solve_takes_matrix_right_hand_sides_as_dense_solve() {
    // A tridiagonal 5×5 with pivoting (small diagonal), three right-hand sides at once,
    // against the vector solves one column at a time.
    let dense = Tensor::<f64, ext![_, _]>::from_fn([5, 5], |[i, j]| match i.abs_diff(j) {
        0 => 0.5 + i as f64,
        1 => 2.0 + (i + j) as f64 * 0.25,
        _ => 0.0,
    });
    let a = BandMatrix::<f64>::from_dense(&dense, 1, 1);
    let b = Tensor::<f64, ext![_, 3]>::from_fn([5, 3], |[i, j]| (i * 3 + j) as f64 - 4.0);
    let x = a.solve(&b);
    assert_eq!(x.shape(), [5, 3]);
    for c in 0..3 {
        let col = Tensor::<f64, ext![_]>::from_fn([5], |[i]| b[[i, c]]);
        let xc = a.solve(&col);
        assert!((0..5).all(|i| (x[[i, c]] - xc[[i]]).abs() < 1e-12));
        // The residual of the dense product.
        assert!((0..5).all(|i| ((0..5).map(|j| dense[[i, j]] * x[[j, c]]).sum::<f64>() - b[[i, c]]).abs() < 1e-10));
    }
    // A transposed (column-major) right-hand side, a DynRank one, and the errors.
    let bt = Tensor::<f64, ext![_, _]>::from_fn([3, 5], |[j, i]| b[[i, j]]);
    assert_eq!(a.solve(&bt.t()).to_vec(), x.to_vec());
    assert_eq!(a.solve(&b.clone().into_dyn()).to_vec(), x.to_vec());
    let cube = Tensor::<f64, mdtensor::DynRank>::zeros(&[5, 1, 1][..]);
    assert!(matches!(a.try_solve(&cube), Err(BandError::Shape(ShapeError::Incompatible { .. }))));
    let short = Tensor::<f64, ext![_, _]>::zeros([4, 2]);
    assert!(matches!(a.try_solve(&short), Err(BandError::DimensionMismatch { expected: 5, found: 4, .. })));
}

#[test]
fn triplets_outside_are_errors() {
    let err = BandMatrix::<i32>::try_from_triplets([3, 3], 1, 0, &[(0, 0, 1), (0, 2, 0)]).expect_err("an error");
    assert_eq!(err, BandError::OutsideBand { op: "from_triplets", row: 0, col: 2, kl: 1, ku: 0 });
    let err = BandMatrix::<i32>::try_from_triplets([3, 3], 1, 0, &[(3, 0, 1)]).expect_err("an error");
    assert!(matches!(err, BandError::IndexOutOfBounds { row: 3, col: 0, .. }), "{err}");
}

#[test]
#[should_panic(expected = "map: f(0) is not zero")]
fn map_that_fills_the_matrix_panics() {
    let a = BandMatrix::<f64>::with_bandwidths([2, 2], 0, 0);
    let _ = a.map_stored(|v| v + 1.0);
}

#[test]
fn map_stored_changes_the_element_type() {
    let a = BandMatrix::<i32>::from_dense(&tensor![[1, 2], [0, 3]], 0, 1);
    let b: BandMatrix<f64> = a.map_stored(|&v| f64::from(v) / 2.0);
    assert_eq!(b.to_dense().to_vec(), [0.5, 1.0, 0.0, 1.5]);
    assert_eq!((b.kl(), b.ku()), (0, 1));
}

#[test]
fn generic_storage_api_on_a_band() {
    let a = BandMatrix::<i32>::from_dense(&tensor![[1, 2, 0], [3, 4, 5], [0, 6, 7]], 1, 1);
    assert_eq!(a.nnz(), 7);
    assert!((a.density() - 7.0 / 9.0).abs() < 1e-12);
    let entries: Vec<_> = a.entries().map(|(idx, &v)| (idx, v)).collect();
    assert_eq!(entries[..3], [([0, 0], 1), ([1, 0], 3), ([0, 1], 2)]);
    assert_eq!(a.to_triplets().len(), 7);
    let (kl, ku, data) = a.clone().into_parts();
    assert_eq!((kl, ku, data.len()), (1, 1, 9));
    assert_eq!(a.storage().ldab(), 3);
}

#[test]
fn from_storage_asks_the_band_whether_it_fits() {
    let a = BandMatrix::<i32>::from_dense(&tensor![[1, 2], [3, 4]], 1, 1);
    let band: Band<i32> = a.storage().clone();
    let again = BandMatrix::<i32>::try_from_storage(band.clone(), [2, 2]).map_err(|(e, _)| e).unwrap();
    assert_eq!(again.to_dense().to_vec(), [1, 2, 3, 4]);
    // Same buffer length, one more row: the padding cell AB(2, 1) becomes element (2, 1).
    let taller = BandMatrix::<i32>::try_from_storage(band.clone(), [3, 2]).map_err(|(e, _)| e).unwrap();
    assert_eq!(taller.to_dense().to_vec(), [1, 2, 3, 4, 0, 0]);
    let (err, _) = BandMatrix::<i32>::try_from_storage(band.clone(), [2, 3]).expect_err("an error");
    assert!(err.to_string().contains("needs a buffer of (kl + ku + 1)·3 = 9 elements, but 6"), "{err}");
    // One row, two columns: kl = 1 reaches past the single row, which LAPACK allows; the
    // cells below it are padding and must be zero (here they hold 3 and 4).
    let (err, _) = BandMatrix::<i32>::try_from_storage(band, [1, 2]).expect_err("an error");
    assert!(err.to_string().contains("cells outside the matrix must be zero"), "{err}");
}

#[test]
fn float_products_sum_each_row_in_one_order_for_every_bandwidth() {
    // Every row is summed from zero over its columns from i + ku down to i - kl, in the
    // vectorized interior (fixed bandwidths up to ldab = 7, passes of 256 rows) and in the
    // general and edge loops alike: the bits of a plain loop in that order.
    let n = if cfg!(miri) { 40 } else { 700 };
    for (kl, ku) in [(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 3), (3, 3), (4, 4), (2, 6)] {
        let (rows, cols) = (n, n + 3);
        // Inexact quotients (so the order of the additions shows in the bits), computed
        // with arithmetic only: Miri perturbs `sin` and friends on every call.
        let value = |i: usize, j: usize| ((i * 31 + j * 17) % 97) as f64 / 7.0 - 6.0;
        let mut a = BandMatrix::<f64>::with_bandwidths([rows, cols], kl, ku);
        for i in 0..rows {
            for j in i.saturating_sub(kl)..(i + ku + 1).min(cols) {
                a.set([i, j], value(i, j));
            }
        }
        let x = Vector::<f64>::from_fn([cols], |[j]| (j % 13) as f64 / 3.0 - 2.0);
        let want: Vec<u64> = (0..rows)
            .map(|i| {
                let mut acc = 0.0;
                for j in (i.saturating_sub(kl)..(i + ku + 1).min(cols)).rev() {
                    acc += value(i, j) * x[[j]];
                }
                acc.to_bits()
            })
            .collect();
        let got: Vec<u64> = a.matvec(&x).to_vec().into_iter().map(f64::to_bits).collect();
        assert_eq!(got, want, "kl = {kl}, ku = {ku}");
    }
}
