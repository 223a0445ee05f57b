//! Out of memory is an `Err` in linear algebra (feature `linalg`): a huge broadcast view
//! (which uses no memory) asks every routine for buffers and workspaces no machine has,
//! and each `try_` form returns `OutOfMemory` naming itself
//! instead of aborting.
#![cfg(feature = "linalg")]
#![cfg(not(miri))] // Miri aborts on allocations larger than the address space it models

use mdtensor::linalg::{QrMode, Uplo};
use mdtensor::{Dyn, LinalgError, ShapeError, Tensor};

/// Rows and columns of the huge matrix: 8 TiB of `f64`.
const N: usize = 1 << 20;

fn refused<R>(r: Result<R, LinalgError>, op: &str) {
    match r {
        Err(LinalgError::Shape(ShapeError::OutOfMemory { op: got, bytes })) => {
            assert_eq!(got, op);
            assert!(bytes > 0, "{op}");
        }
        Err(LinalgError::Shape(ShapeError::Overflow { op: got, .. })) => assert_eq!(got, op),
        Err(e) => panic!("{op}: expected OutOfMemory, got {e}"),
        Ok(_) => panic!("{op}: expected OutOfMemory, got a result"),
    }
}

#[test]
fn decompositions_of_a_huge_matrix_are_refused() {
    let one = Tensor::<f64, (Dyn, Dyn)>::from_vec([1, 1], vec![1.0]);
    let a = one.broadcast_to::<(Dyn, Dyn)>([N, N]);
    let tall = one.broadcast_to::<(Dyn, Dyn)>([N, 3]);
    for mode in [QrMode::Reduced, QrMode::Complete, QrMode::R] {
        refused(a.try_qr(mode), "qr");
    }
    refused(a.try_svd(false), "svd");
    refused(a.try_svd(true), "svd");
    // Tall: U of the full SVD is N × N even though the matrix itself is small.
    refused(tall.try_svd(true), "svd");
    refused(tall.try_qr(QrMode::Complete), "qr");
    refused(a.try_svdvals(), "svdvals");
    refused(a.try_eigh(Uplo::Lower), "eigh");
    refused(a.try_eigh(Uplo::Upper), "eigh");
    refused(a.try_eigvalsh(Uplo::Lower), "eigvalsh");
    refused(a.try_eig(), "eig");
    refused(a.try_eigvals(), "eigvals");
    refused(a.try_pinv(None), "pinv");
    refused(a.try_matrix_rank(None), "svdvals");
    refused(a.try_cholesky(), "cholesky");
    refused(a.try_inv(), "inv");
    refused(a.try_det(), "det");
    let b = one.broadcast_to::<(Dyn, Dyn)>([N, 1]);
    refused(a.try_solve(&b), "solve");
    refused(a.try_lstsq(&b, None), "lstsq");
}

#[test]
fn small_results_still_come_back() {
    // The fallible paths give faer's answers on an ordinary matrix (a broadcast view too).
    let one = Tensor::<f64, (Dyn, Dyn)>::from_vec([1, 1], vec![2.0]);
    let a = one.broadcast_to::<(Dyn, Dyn)>([3, 3]);
    let s = a.svdvals().to_vec();
    assert!((s[0] - 6.0).abs() < 1e-12 && s[1].abs() < 1e-12);
    let w = a.eigvalsh(Uplo::Upper).to_vec();
    assert!((w[2] - 6.0).abs() < 1e-12 && w[0].abs() < 1e-12);
    assert_eq!(a.matrix_rank(None), 1);
}
