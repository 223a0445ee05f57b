//! Matrix products against faer (and ndarray in the same groups), `f32`.
//!
//! faer's build is heavy (minutes), so it is an optional dependency behind the
//! `bench-faer` feature and this bench only builds with it:
//! `cargo bench --features bench-faer --bench faer`.
//!
//! * `matmul_faer` — square products, faer on rayon's threads (`Par::rayon(0)`);
//! * `matmul_faer_serial` — 64² single-threaded, where a product must stay serial.

use criterion::{black_box, criterion_group, criterion_main, Criterion, SamplingMode};
use mdtensor::prelude::*;
use mdtensor::Tensor;
use std::time::Duration;

type Mat = Tensor<f32, ext![_, _]>;

/// Small integers: every product and partial sum is exact in `f32` at these sizes.
fn value(i: usize, j: usize) -> f32 {
    ((i * 7 + j * 3) % 11) as f32
}
fn value2(i: usize, j: usize) -> f32 {
    ((i * 5 + j * 13) % 7) as f32
}

fn faer_product(a: &faer::Mat<f32>, b: &faer::Mat<f32>, par: faer::Par) -> faer::Mat<f32> {
    let mut c = faer::Mat::<f32>::zeros(a.nrows(), b.ncols());
    faer::linalg::matmul::matmul(c.as_mut(), faer::Accum::Replace, a.as_ref(), b.as_ref(), 1.0, par);
    c
}

fn inputs(n: usize) -> (Mat, Mat, faer::Mat<f32>, faer::Mat<f32>, ndarray::Array2<f32>, ndarray::Array2<f32>) {
    let a = Mat::from_fn([n, n], |[i, j]| value(i, j));
    let b = Mat::from_fn([n, n], |[i, j]| value2(i, j));
    let fa = faer::Mat::<f32>::from_fn(n, n, value);
    let fb = faer::Mat::<f32>::from_fn(n, n, value2);
    let na = ndarray::Array2::from_shape_fn((n, n), |(i, j)| value(i, j));
    let nb = ndarray::Array2::from_shape_fn((n, n), |(i, j)| value2(i, j));
    let (c, fc) = (a.matmul(&b), faer_product(&fa, &fb, faer::Par::Seq));
    assert!((0..n).all(|i| (0..n).all(|j| c[[i, j]] == fc[(i, j)])), "mdtensor and faer disagree at {n}²");
    (a, b, fa, fb, na, nb)
}

fn matmul_faer(c: &mut Criterion) {
    let mut g = c.benchmark_group("matmul_faer");
    g.warm_up_time(Duration::from_secs(1));
    let par = faer::Par::rayon(0);
    for n in [64usize, 256, 1024, 2048] {
        let (a, b, fa, fb, na, nb) = inputs(n);
        if n >= 1024 {
            g.sampling_mode(SamplingMode::Flat);
            g.sample_size(10);
            g.measurement_time(Duration::from_secs(if n >= 2048 { 8 } else { 4 }));
        } else {
            g.sampling_mode(SamplingMode::Auto);
            g.sample_size(30);
            g.measurement_time(Duration::from_secs(3));
        }
        g.bench_function(format!("mdtensor_{n}"), |bch| bch.iter(|| black_box(&a).matmul(black_box(&b))));
        g.bench_function(format!("faer_{n}"), |bch| bch.iter(|| faer_product(black_box(&fa), black_box(&fb), par)));
        g.bench_function(format!("ndarray_{n}"), |bch| bch.iter(|| black_box(&na).dot(black_box(&nb))));
    }
    g.finish();
}

fn matmul_faer_serial(c: &mut Criterion) {
    let mut g = c.benchmark_group("matmul_faer_serial");
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(3));
    let (a, b, fa, fb, _, _) = inputs(64);
    g.bench_function("mdtensor_64", |bch| bch.iter(|| black_box(&a).matmul(black_box(&b))));
    g.bench_function("faer_64_seq", |bch| bch.iter(|| faer_product(black_box(&fa), black_box(&fb), faer::Par::Seq)));
    g.finish();
}

criterion_group!(benches, matmul_faer, matmul_faer_serial);
criterion_main!(benches);
