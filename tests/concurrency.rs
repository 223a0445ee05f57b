//! Several threads on the same data: readers of a `Shared` tensor while another handle
//! copies on write, and rayon kernels (elementwise, reductions, matrix and sparse
//! products) called at once from several threads on shared inputs. Every result is
//! compared with a sequential reference. Runs under Miri (`.ci/run`), which checks the
//! `unsafe` kernels for data races and aliasing on these interleavings.

use mdtensor::prelude::*;
use mdtensor::{ext, CsrMatrix, Par, SharedTensor, Tensor};
use std::sync::Barrier;

/// Small under Miri (its parallel thresholds are tiny too, so rayon still splits the work).
const N: usize = if cfg!(miri) { 8 } else { 128 };
const READERS: usize = if cfg!(miri) { 2 } else { 6 };

fn grid() -> SharedTensor<i64, ext![_, _]> {
    Tensor::<i64, ext![_, _]>::from_fn([N, N], |[i, j]| (i * N + j) as i64).into_shared()
}

fn grid_sum() -> i64 {
    let n = (N * N) as i64;
    n * (n - 1) / 2
}

#[test]
fn readers_see_the_original_while_a_writer_copies_on_write() {
    let original = grid();
    let barrier = Barrier::new(READERS + 1);
    std::thread::scope(|s| {
        for _ in 0..READERS {
            let mine = original.clone();
            let barrier = &barrier;
            s.spawn(move || {
                barrier.wait();
                for _ in 0..3 {
                    assert_eq!(mine.iter().copied().sum::<i64>(), grid_sum());
                    assert_eq!(mine[[N - 1, N - 1]], (N * N - 1) as i64);
                }
            });
        }
        let mut writer = original.clone();
        let barrier = &barrier;
        s.spawn(move || {
            barrier.wait();
            // The first write copies: the readers' buffer is never touched.
            writer[[0, 0]] = -1;
            writer.map_inplace(|x| *x *= 2);
            assert_eq!(writer[[0, 0]], -2);
            assert_eq!(writer.iter().copied().sum::<i64>(), 2 * grid_sum() - 2);
            assert!(!writer.storage().is_shared(), "the writer holds its own copy");
        });
    });
    assert_eq!(original.iter().copied().sum::<i64>(), grid_sum());
    assert_eq!(original[[0, 0]], 0);
}

#[test]
fn rayon_kernels_on_shared_inputs_from_several_threads() {
    let a = grid();
    let b = grid();
    let seq_sum = a.sum_with(Par::Seq);
    let seq_eval = (&a * 3 + b.t()).try_eval_with(Par::Seq).unwrap();
    let seq_mm = a.try_matmul_with(&b, Par::Seq).unwrap();
    let barrier = Barrier::new(READERS);
    std::thread::scope(|s| {
        for t in 0..READERS {
            let (a, b, barrier) = (&a, &b, &barrier);
            let (seq_eval, seq_mm) = (&seq_eval, &seq_mm);
            s.spawn(move || {
                barrier.wait();
                assert_eq!(a.sum_with(Par::Rayon), seq_sum);
                assert_eq!(a.t().sum_with(Par::Rayon), seq_sum);
                let e = (a * 3 + b.t()).try_eval_with(Par::Rayon).unwrap();
                assert_eq!(e.to_vec(), seq_eval.to_vec(), "thread {t}");
                if t % 2 == 0 {
                    let m = a.try_matmul_with(b, Par::Rayon).unwrap();
                    assert_eq!(m.to_vec(), seq_mm.to_vec(), "thread {t}");
                }
            });
        }
    });
}

#[test]
fn sparse_products_on_a_shared_matrix_from_several_threads() {
    let rows: Vec<usize> = (0..N).flat_map(|i| [i, i, (i * 7) % N]).collect();
    let cols: Vec<usize> = (0..N).flat_map(|i| [i, (i + 1) % N, (i * 3) % N]).collect();
    let vals: Vec<f64> = (0..3 * N).map(|k| (k % 5) as f64 - 2.0).collect();
    let a = CsrMatrix::<f64, ext![_, _]>::from_triplets([N, N], &rows, &cols, &vals);
    let x = Tensor::<f64, ext![_]>::from_fn([N], |[i]| i as f64 * 0.5);
    let want = a.try_matvec_with(&x, Par::Seq).unwrap().to_vec();
    let barrier = Barrier::new(READERS);
    std::thread::scope(|s| {
        for _ in 0..READERS {
            let (a, x, want, barrier) = (&a, &x, &want, &barrier);
            s.spawn(move || {
                barrier.wait();
                assert_eq!(&a.try_matvec_with(x, Par::Rayon).unwrap().to_vec(), want);
            });
        }
    });
}
