//! Band matrix × vector against sprs 0.11 CSR SpMV of the same matrix, `n = 10^6`, with
//! 3 diagonals (`kl = ku = 1`) and 5 diagonals (`kl = ku = 2`), in `f64` and `f32`.
//!
//! Each group holds, for one element type and bandwidth:
//! * `mdtensor_band` — `matvec_into` on the LAPACK band buffer (`Par::Auto`: rayon here);
//! * `mdtensor_band_seq` — the same on one thread (`Par::Seq`);
//! * `mdtensor_band_1t` — `matvec_into` (`Par::Auto`) in an explicit rayon pool of 1 thread,
//!   the comparison with the serial `axpy_per_diagonal`;
//! * `sprs_csr` — sprs's `mul_acc_mat_vec_csr` into a zeroed output (sprs accumulates);
//! * `axpy_per_diagonal` — a plain serial loop, one axpy per diagonal stored as its own
//!   contiguous vector (the layout a hand-written tridiagonal code would use).
//!
//! Ratios (peer time / mdtensor time) are read from one run.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkGroup, Criterion, SamplingMode};
use mdtensor::{BandMatrix, Par, Tensor};
use sprs::{CsMat, TriMat};
use std::time::Duration;

const N: usize = 1_000_000;

/// Element `(i, j)` of the band: small integers, exact in `f32` sums.
fn value(i: usize, j: usize) -> f64 {
    ((i * 7 + j * 3) % 11) as f64 - 5.0
}

fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name);
    g.sampling_mode(SamplingMode::Flat);
    g.measurement_time(Duration::from_secs(3));
    g.warm_up_time(Duration::from_secs(1));
    g.sample_size(20);
    g
}

trait Elem: Copy + Send + Sync + num_traits::Zero + PartialEq + std::fmt::Debug + 'static {
    const NAME: &'static str;
    fn from_f64(v: f64) -> Self;
}
impl Elem for f64 {
    const NAME: &'static str = "f64";
    fn from_f64(v: f64) -> Self {
        v
    }
}
impl Elem for f32 {
    const NAME: &'static str = "f32";
    fn from_f64(v: f64) -> Self {
        v as f32
    }
}

fn bench_band<T>(c: &mut Criterion, k: usize)
where
    T: Elem + mdtensor::traits::BandElem + sprs::MulAcc + std::ops::AddAssign,
{
    let band = {
        let mut b = BandMatrix::<T>::with_bandwidths([N, N], k, k);
        for j in 0..N {
            for i in j.saturating_sub(k)..(j + k + 1).min(N) {
                b.set([i, j], T::from_f64(value(i, j)));
            }
        }
        b
    };
    let csr: CsMat<T> = {
        let mut tri = TriMat::new((N, N));
        for ([i, j], &v) in band.entries() {
            tri.add_triplet(i, j, v);
        }
        tri.to_csr()
    };
    // One contiguous vector per diagonal d = i - j in -k..=k, for the axpy loop.
    let diagonals: Vec<(isize, Vec<T>)> = (-(k as isize)..=k as isize)
        .map(|d| {
            let rows = (d.max(0) as usize)..(N as isize + d.min(0)) as usize;
            (d, rows.map(|i| T::from_f64(value(i, (i as isize - d) as usize))).collect())
        })
        .collect();
    let x = Tensor::<T, mdtensor::ext![_]>::from_fn([N], |[j]| T::from_f64((j % 13) as f64 - 6.0));
    let xs = x.as_slice().unwrap();

    let mut y = Tensor::<T, mdtensor::ext![_]>::zeros([N]);
    let mut ys = vec![T::zero(); N];
    band.matvec_into(&x, &mut y);
    sprs::prod::mul_acc_mat_vec_csr(csr.view(), xs, &mut ys[..]);
    assert!(y.as_slice().unwrap() == &ys[..], "band and CSR products disagree");
    let mut yd = vec![T::zero(); N];
    axpy_per_diagonal(&diagonals, xs, &mut yd);
    assert!(yd == ys, "axpy loop and CSR product disagree");

    let mut g = group(c, &format!("band_matvec_{}diag_{}", 2 * k + 1, T::NAME));
    g.bench_function("mdtensor_band", |b| b.iter(|| band.matvec_into(black_box(&x), &mut y)));
    g.bench_function("mdtensor_band_seq", |b| {
        b.iter(|| band.try_matvec_into_with(black_box(&x), &mut y, Par::Seq).unwrap())
    });
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a rayon pool");
    g.bench_function("mdtensor_band_1t", |b| one.install(|| b.iter(|| band.matvec_into(black_box(&x), &mut y))));
    g.bench_function("sprs_csr", |b| {
        b.iter(|| {
            ys.fill(T::zero());
            sprs::prod::mul_acc_mat_vec_csr(csr.view(), black_box(xs), &mut ys[..]);
        })
    });
    g.bench_function("axpy_per_diagonal", |b| b.iter(|| axpy_per_diagonal(&diagonals, black_box(xs), &mut yd)));
    g.finish();
}

/// `y = A x` with each diagonal `d` as its own vector: `y[i] += diag[i - max(d, 0)] · x[i - d]`.
fn axpy_per_diagonal<T: Elem + std::ops::AddAssign + std::ops::Mul<Output = T>>(
    diagonals: &[(isize, Vec<T>)],
    x: &[T],
    y: &mut [T],
) {
    y.fill(T::zero());
    for (d, a) in diagonals {
        let (r0, c0) = if *d >= 0 { (*d as usize, 0) } else { (0, (-d) as usize) };
        let len = a.len();
        for ((yi, &ai), &xj) in y[r0..r0 + len].iter_mut().zip(a).zip(&x[c0..c0 + len]) {
            *yi += ai * xj;
        }
    }
}

fn band_matvec(c: &mut Criterion) {
    bench_band::<f64>(c, 1);
    bench_band::<f64>(c, 2);
    bench_band::<f32>(c, 1);
    bench_band::<f32>(c, 2);
}

criterion_group!(benches, band_matvec);
criterion_main!(benches);
