//! Complex elements against ndarray 0.17, whose `dot` multiplies `Complex<f32>` and
//! `Complex<f64>` matrices with matrixmultiply's `cgemm`/`zgemm` kernels, on one thread.
//!
//! Each group holds, for one element type and size:
//! * `mdtensor` — `a.matmul_with(&b, Par::Seq)` (the blocked nest around the portable
//!   complex tile kernel);
//! * `ndarray` — `a.dot(&b)` (single-threaded: ndarray's default build).
//!
//! and `complex_mul_add/…`: `(&a * &b + &c).eval()` against ndarray's `&a * &b + &c`
//! (one fused pass against two allocating passes).
//!
//! Ratios (peer time / mdtensor time) are read from one run.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkGroup, Criterion, SamplingMode};
use mdtensor::{Complex, DynRank, Expr, Par, Tensor};
use ndarray::Array2;
use std::time::Duration;

fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name);
    g.sampling_mode(SamplingMode::Flat);
    g.measurement_time(Duration::from_secs(3));
    g.warm_up_time(Duration::from_secs(1));
    g.sample_size(15);
    g
}

/// A deterministic complex value at `(i, j)`: small parts, exact in `f32`.
fn value(i: usize, j: usize, salt: usize) -> (f64, f64) {
    (((i * 7 + j * 3 + salt) % 11) as f64 - 5.0, ((i * 5 + j * 11 + salt) % 13) as f64 - 6.0)
}

macro_rules! complex_benches {
    ($name:ident, $t:ty, $label:literal) => {
        fn $name(c: &mut Criterion) {
            let make = |n: usize, salt: usize| {
                let m = Tensor::<Complex<$t>, DynRank>::from_fn(DynRank::new(vec![n, n]), |ix| {
                    let (re, im) = value(ix[0], ix[1], salt);
                    Complex::new(re as $t, im as $t)
                });
                let nd = Array2::from_shape_fn((n, n), |(i, j)| {
                    let (re, im) = value(i, j, salt);
                    Complex::new(re as $t, im as $t)
                });
                (m, nd)
            };
            for n in [64usize, 256, 512] {
                let ((a, na), (b, nb)) = (make(n, 1), make(n, 2));
                let mut g = group(c, &format!("complex_matmul/{}_{n}", $label));
                g.bench_function("mdtensor", |bch| bch.iter(|| black_box(a.matmul_with(&b, Par::Seq))));
                g.bench_function("ndarray", |bch| bch.iter(|| black_box(na.dot(&nb))));
                g.finish();
            }
            let n = 1024;
            let ((a, na), (b, nb), (cc, nc)) = (make(n, 1), make(n, 2), make(n, 3));
            let mut g = group(c, &format!("complex_mul_add/{}_{n}", $label));
            g.bench_function("mdtensor", |bch| bch.iter(|| black_box((&a * &b + &cc).eval_with(Par::Seq))));
            g.bench_function("ndarray", |bch| bch.iter(|| black_box(&na * &nb + &nc)));
            g.finish();
        }
    };
}
complex_benches!(bench_c64, f64, "c128");
complex_benches!(bench_c32, f32, "c64");

criterion_group!(benches, bench_c64, bench_c32);
criterion_main!(benches);
