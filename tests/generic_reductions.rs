//! Whole-tensor reductions through the one-bound traits: `ReadTensor` (any storage) and
//! `DenseTensor` carry `sum`, `mean`, `min` and `max`, with the values (bits included) of
//! the concrete methods for dense tensors and numpy's values (zeros counted) for sparse
//! and band tensors.

use mdtensor::traits::*;
use mdtensor::{ext, tensor, BandMatrix, Tensor};

fn total(x: &impl ReadTensor<Elem = f64>) -> f64 {
    x.sum()
}
fn stats<X: ReadTensor<Elem = f64>>(x: &X) -> (f64, f64, Option<f64>, Option<f64>) {
    (x.sum(), x.mean(), x.min(), x.max())
}
fn dense_stats<T: Real, X: DenseTensor<Elem = T>>(x: &X) -> (T, T, Option<T>, Option<T>) {
    (x.sum(), x.mean(), x.min(), x.max())
}
fn int_total<X: ReadTensor<Elem = i64>>(x: &X) -> (i64, Option<i64>) {
    (x.sum(), x.max())
}

#[test]
fn dense_agrees_with_the_concrete_methods_bit_for_bit() {
    // Enough elements for the pairwise kernel's blocks to matter.
    let a = Tensor::<f64, ext![_, _]>::from_fn([70, 130], |[i, j]| ((i * 131 + j * 7) % 97) as f64 * 0.1 - 3.3);
    let want = (a.sum(), a.mean(), a.min(), a.max());
    assert_eq!(stats(&a), want);
    assert_eq!(dense_stats(&a), want);
    let t = a.t();
    assert_eq!(stats(&t), (t.sum(), t.mean(), t.min(), t.max()));
    let s = a.slice(mdtensor::s![1..;3, ..;-2]);
    assert_eq!(stats(&s), (s.sum(), s.mean(), s.min(), s.max()));
    let f32s = tensor![[1.5f32, -2.0], [4.0, 0.25]];
    assert_eq!(dense_stats(&f32s), (3.75, 0.9375, Some(-2.0), Some(4.0)));
}

#[test]
fn sparse_and_band_count_their_zeros() {
    let d = tensor![[0.0, 3.0, 0.0], [-2.0, 0.0, 5.0]];
    let want = (6.0, 1.0, Some(-2.0), Some(5.0));
    assert_eq!(stats(&d), want);
    assert_eq!(stats(&d.to_csr()), want);
    assert_eq!(stats(&d.to_csc()), want);
    assert_eq!(stats(&d.to_coo()), want);
    // Every stored entry positive: the unstored zero is the minimum.
    let p = tensor![[0.0, 3.0], [2.0, 0.0]].to_csr();
    assert_eq!((p.min(), p.max()), (Some(0.0), Some(3.0)));
    // Every element stored and negative: no zero enters.
    let n = tensor![[-1.0, -3.0], [-2.0, -4.0]].to_csr();
    assert_eq!((ReadTensor::min(&n), ReadTensor::max(&n)), (Some(-4.0), Some(-1.0)));
    let band = BandMatrix::<f64>::from_dense(&tensor![[1.0, 2.0, 0.0], [3.0, 4.0, 5.0], [0.0, 6.0, 7.0]], 1, 1);
    assert_eq!(stats(&band), (28.0, 28.0 / 9.0, Some(0.0), Some(7.0)));
    assert_eq!(total(&band), 28.0);
    // Integers.
    let i = tensor![[0i64, 7], [-3, 0]];
    assert_eq!(int_total(&i), (4, Some(7)));
    assert_eq!(int_total(&i.to_csr()), (4, Some(7)));
}

#[test]
fn nan_and_empty() {
    let e = Tensor::<f64, ext![_, _]>::zeros([0, 3]);
    let (s, m, lo, hi) = stats(&e);
    assert_eq!((s, lo, hi), (0.0, None, None));
    assert!(m.is_nan());
    let (_, _, lo, hi) = stats(&e.to_csr());
    assert_eq!((lo, hi), (None, None));
    let nan = tensor![[1.0, f64::NAN], [0.0, 2.0]];
    assert!(stats(&nan).2.unwrap().is_nan());
    assert!(stats(&nan.to_csr()).3.unwrap().is_nan());
}
