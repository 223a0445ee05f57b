//! numpy's second ring: einsum and FFTs, each beside a peer in its group. numpy's times for
//! the same rows come from `scripts/numpy2_bench.py` (same machine, same thread count).
//!
//! * `einsum_bij_bjk` — `einsum("bij,bjk->bik")` of 64×128×128 `f64` (peer: the batched
//!   `matmul` it plans to).
//! * `einsum_chain` — `einsum("ij,jk,kl->il")` of three 512² `f64` (peer: two `matmul`s).
//! * `fft_1d` — `rfft` and `fft` of 2^20 `f64` (peers: rustfft and realfft on a plain
//!   `Vec`, planned outside the loop).
//! * `fft_axis` — `fft` along axis 0 and axis 1 of a 1024² `f64` matrix, on rayon's
//!   threads and on one (numpy's FFT uses one thread).
//! * `convolve` — `convolve` of 10⁶ `f64` with 31 and 4097 taps (`ConvMethod::Auto`), on
//!   rayon's threads and on one (numpy's `convolve` uses one thread).
//! * `convolve_crossover` — 2^18 `f64` with 32 to 256 taps, direct and through FFTs: where
//!   the two cross is `ops::FFT_FROM`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use mdtensor::fft::Norm;
use mdtensor::ops::{ConvMethod, ConvMode};
use mdtensor::{einsum, ext, Complex64, DynRank, Par, Tensor};

fn filled(dims: &[usize]) -> Tensor<f64, DynRank> {
    let mut k = 0u64;
    Tensor::from_fn(DynRank::new(dims.to_vec()), |_| {
        k = k.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (k >> 40) as f64 / (1u64 << 24) as f64 - 0.5
    })
}

fn einsum_rows(c: &mut Criterion) {
    let mut g = c.benchmark_group("einsum_bij_bjk");
    let (a, b) = (filled(&[64, 128, 128]), filled(&[64, 128, 128]));
    g.bench_function("mdtensor einsum", |bench| bench.iter(|| black_box(einsum("bij,bjk->bik", &[&a, &b]))));
    g.bench_function("mdtensor matmul", |bench| bench.iter(|| black_box(a.matmul(&b))));
    g.finish();
    let mut g = c.benchmark_group("einsum_chain");
    let (x, y, z) = (filled(&[512, 512]), filled(&[512, 512]), filled(&[512, 512]));
    g.bench_function("mdtensor einsum", |bench| bench.iter(|| black_box(einsum("ij,jk,kl->il", &[&x, &y, &z]))));
    g.bench_function("mdtensor matmul", |bench| bench.iter(|| black_box(x.matmul(&y).matmul(&z))));
    g.finish();
}

fn fft_rows(c: &mut Criterion) {
    let n = 1 << 20;
    let x = filled(&[n]);
    let mut g = c.benchmark_group("fft_1d");
    g.sample_size(20);
    g.bench_function("mdtensor rfft", |bench| bench.iter(|| black_box(x.rfft(None, 0, Norm::Backward))));
    g.bench_function("mdtensor fft", |bench| bench.iter(|| black_box(x.fft(None, 0, Norm::Backward))));
    let plan = rustfft::FftPlanner::<f64>::new().plan_fft_forward(n);
    let data: Vec<Complex64> = x.iter().map(|&v| Complex64::new(v, 0.0)).collect();
    g.bench_function("rustfft fft", |bench| {
        bench.iter(|| {
            let mut buf = data.clone();
            plan.process(&mut buf);
            black_box(buf)
        })
    });
    let real = realfft::RealFftPlanner::<f64>::new().plan_fft_forward(n);
    let (signal, mut spectrum) = (x.to_vec(), real.make_output_vec());
    let mut scratch = real.make_scratch_vec();
    g.bench_function("realfft rfft", |bench| {
        bench.iter(|| {
            let mut buf = signal.clone();
            real.process_with_scratch(&mut buf, &mut spectrum, &mut scratch).unwrap();
            black_box(&spectrum);
        })
    });
    g.finish();
    let m = filled(&[1024, 1024]);
    let mut g = c.benchmark_group("fft_axis");
    g.sample_size(20);
    g.bench_function("mdtensor axis 0", |bench| bench.iter(|| black_box(m.fft(None, 0, Norm::Backward))));
    g.bench_function("mdtensor axis 1", |bench| bench.iter(|| black_box(m.fft(None, 1, Norm::Backward))));
    for axis in [0, 1] {
        g.bench_function(format!("mdtensor axis {axis} one thread"), |bench| {
            bench.iter(|| black_box(m.fft_with(None, axis, Norm::Backward, Par::Seq)))
        });
    }
    g.finish();
}

fn vector(n: usize) -> Tensor<f64, ext![_]> {
    let d = filled(&[n]);
    Tensor::from_vec([n], d.to_vec())
}

fn convolve_rows(c: &mut Criterion) {
    let a = vector(1_000_000);
    let mut g = c.benchmark_group("convolve");
    g.sample_size(10);
    for k in [31, 4097] {
        let v = vector(k);
        g.bench_function(format!("mdtensor 1e6 x {k}"), |bench| {
            bench.iter(|| black_box(a.convolve(&v, ConvMode::Full, ConvMethod::Auto)))
        });
        g.bench_function(format!("mdtensor 1e6 x {k} one thread"), |bench| {
            bench.iter(|| black_box(a.convolve_with(&v, ConvMode::Full, ConvMethod::Auto, Par::Seq)))
        });
    }
    g.finish();
    let a = vector(1 << 18);
    let mut g = c.benchmark_group("convolve_crossover");
    g.sample_size(10);
    for k in [32, 64, 128, 256] {
        let v = vector(k);
        for (name, method) in [("direct", ConvMethod::Direct), ("fft", ConvMethod::Fft)] {
            g.bench_function(format!("{name} 2^18 x {k}"), |bench| {
                bench.iter(|| black_box(a.convolve(&v, ConvMode::Full, method)))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, einsum_rows, fft_rows, convolve_rows);
criterion_main!(benches);
