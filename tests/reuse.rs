//! Large results stay right when their memory is a block an earlier result gave back.
//!
//! Buffers of 4–64 MiB are kept after a drop for the next buffer of the same size
//! (`alloc::reuse`), so an operation's output may start as the bytes of an earlier one
//! (debug builds fill such a block with `0xFF` bytes, NaN in every float). A path that read
//! its output before writing all of it, and so relied on fresh pages being zero, fails here.
//! Each check computes a result, drops it, computes it again into the kept block and
//! compares both with a plain loop. The tests run one at a time (a lock), so the block a
//! test frees is the one its next result gets.

use mdtensor::prelude::*;
use mdtensor::Tensor;
use std::sync::Mutex;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

type Mat<T> = Tensor<T, ext![_, _]>;

/// 1024 × 1024 `f32` and 1024 × 512 `f64`: 4 MiB, the smallest kept size.
const N: usize = 1024;

fn value(i: usize, j: usize) -> f32 {
    ((i * 7 + j * 3) % 11) as f32 - 5.0
}

/// Computes `make()` twice and checks both against `expected` (row-major). `make` copies
/// its tensor out and drops it, so the second call's tensor gets the first one's block.
fn twice<T: Copy + PartialEq + std::fmt::Debug>(what: &str, expected: &[T], make: impl Fn() -> Vec<T>) {
    let first = make();
    assert!(first == expected, "{what}: first result differs from the plain loop");
    let again = make();
    assert!(again == expected, "{what}: a result written into a reused block differs from the plain loop");
}

#[test]
fn a_freed_large_block_is_handed_to_the_next_result_of_its_size() {
    let _serial = ONE_AT_A_TIME.lock().unwrap();
    let a = Mat::<f32>::from_fn([N, N], |[i, j]| value(i, j));
    let first = (&a + &a).eval();
    let at = first.as_ptr();
    drop(first);
    let again = (&a + &a).eval();
    assert_eq!(again.as_ptr(), at, "the block given back was not reused");
    assert!(again.to_vec().iter().zip(a.to_vec()).all(|(s, x)| *s == x + x));
}

#[test]
fn elementwise_results_in_reused_blocks() {
    let _serial = ONE_AT_A_TIME.lock().unwrap();
    let a = Mat::<f32>::from_fn([N, N], |[i, j]| value(i, j));
    let b = Mat::<f32>::from_fn([N, N], |[i, j]| value(j, i) * 0.5);
    let row = Tensor::<f32, ext![_]>::from_fn([N], |[j]| j as f32);
    let (av, bv) = (a.to_vec(), b.to_vec());

    let sum: Vec<f32> = av.iter().zip(&bv).map(|(x, y)| x + y).collect();
    twice("(&a + &b).eval()", &sum, || (&a + &b).eval().to_vec());

    let with_row: Vec<f32> = (0..N * N).map(|k| av[k] + (k % N) as f32).collect();
    twice("(&a + &row).eval()", &with_row, || (&a + &row).eval().to_vec());

    let transposed_sum: Vec<f32> = (0..N * N).map(|k| av[k] + bv[(k % N) * N + k / N]).collect();
    twice("(&a + b.t()).eval()", &transposed_sum, || (&a + b.t()).eval().to_vec());

    let scaled: Vec<f32> = av.iter().map(|x| x * 3.0 - 1.0).collect();
    twice("map", &scaled, || a.map(|x| x * 3.0 - 1.0).to_vec());

    twice("clone", &av, || a.clone().to_vec());
}

#[test]
fn copies_of_views_in_reused_blocks() {
    let _serial = ONE_AT_A_TIME.lock().unwrap();
    let a = Mat::<f32>::from_fn([N, N], |[i, j]| value(i, j));
    let av = a.to_vec();
    let t: Vec<f32> = (0..N * N).map(|k| av[(k % N) * N + k / N]).collect();
    twice("a.t().to_owned()", &t, || a.t().to_owned().to_vec());
}

#[test]
fn products_in_reused_blocks() {
    let _serial = ONE_AT_A_TIME.lock().unwrap();
    // A short depth keeps the debug build quick; the output is the 4 MiB block.
    let k = 6;
    let a = Mat::<f32>::from_fn([N, k], |[i, p]| value(i, p));
    let b = Mat::<f32>::from_fn([k, N], |[p, j]| value(j, p + 1));
    let (av, bv) = (a.to_vec(), b.to_vec());
    let c: Vec<f32> = (0..N * N).map(|at| (0..k).map(|p| av[(at / N) * k + p] * bv[p * N + at % N]).sum()).collect();
    twice("f32 matmul", &c, || a.matmul(&b).to_vec());

    let a64 = Mat::<f64>::from_fn([N, k], |[i, p]| f64::from(value(i, p)));
    let b64 = Mat::<f64>::from_fn([k, N / 2], |[p, j]| f64::from(value(j, p + 1)));
    let (av, bv) = (a64.to_vec(), b64.to_vec());
    let m = N / 2;
    let c64: Vec<f64> = (0..N * m).map(|at| (0..k).map(|p| av[(at / m) * k + p] * bv[p * m + at % m]).sum()).collect();
    twice("f64 matmul", &c64, || a64.matmul(&b64).to_vec());
}
