//! Matrix products against faer (and ndarray in the two-thread `f32` group), `f32` and
//! `f64`, on explicit rayon pools of one and two threads.
//!
//! faer's build is heavy (minutes), so it is an optional dependency behind this package's
//! `faer` feature and this bench only builds with it:
//! `cargo bench -p mdtensor-benches --features faer --bench faer`.
//!
//! * `matmul_faer`, `matmul_faer_f64` — square products 64²–2048² on a pool of two
//!   threads: mdtensor with `Par::Auto`, faer with `Par::rayon(0)` (the current pool's
//!   thread count, so both run inside `pool.install`);
//! * `matmul_faer_1t`, `matmul_faer_1t_f64` — the same on one thread (mdtensor
//!   `Par::Seq`, faer `Par::Seq`), with throughput in elements/s = FLOP/s (2n³ per product);
//! * `matmul_faer_serial` — 64², mdtensor's default (`Par::Auto`, which must stay serial
//!   there) against faer's `Par::Seq`, `f32` and `f64`;
//! * `matmul_faer_busy`, `matmul_faer_busy_f64` — 1024² and 2048² on two threads while a
//!   third thread spins on the last CPU (pinned there on Linux): one core shared with other
//!   work, as on a busy machine, where a product split in fixed halves waits for the half
//!   on the shared core.
//!
//! Time ratios (faer / mdtensor) are read from one run: the machine is shared.

use criterion::measurement::WallTime;
use criterion::{black_box, criterion_group, criterion_main, BenchmarkGroup, Criterion, SamplingMode, Throughput};
use mdtensor::exec::par::Par;
use mdtensor::ops::GemmElem;
use mdtensor::prelude::*;
use mdtensor::Tensor;
use std::time::Duration;

type Mat<T> = Tensor<T, ext![_, _]>;

/// Element types benchmarked on both sides.
trait Elem: GemmElem + faer::traits::ComplexField + From<u8> + PartialEq {
    const NAME: &'static str;
    /// ndarray's product of the same inputs (only `f32`: the group the lead compares in).
    fn ndarray(_: &mut BenchmarkGroup<'_, WallTime>, _: usize, _: &rayon::ThreadPool) {}
}
impl Elem for f32 {
    const NAME: &'static str = "f32";
    fn ndarray(g: &mut BenchmarkGroup<'_, WallTime>, n: usize, pool: &rayon::ThreadPool) {
        let na = ndarray::Array2::from_shape_fn((n, n), |(i, j)| value::<f32>(i, j));
        let nb = ndarray::Array2::from_shape_fn((n, n), |(i, j)| value2::<f32>(i, j));
        g.bench_function(format!("ndarray_{n}"), |bch| {
            pool.install(|| bch.iter(|| black_box(&na).dot(black_box(&nb))))
        });
    }
}
impl Elem for f64 {
    const NAME: &'static str = "f64";
}

/// Small integers: every product and partial sum is exact at these sizes.
fn value<T: Elem>(i: usize, j: usize) -> T {
    T::from(((i * 7 + j * 3) % 11) as u8)
}
fn value2<T: Elem>(i: usize, j: usize) -> T {
    T::from(((i * 5 + j * 13) % 7) as u8)
}

fn faer_product<T: Elem>(a: &faer::Mat<T>, b: &faer::Mat<T>, par: faer::Par) -> faer::Mat<T> {
    let mut c = faer::Mat::<T>::zeros(a.nrows(), b.ncols());
    faer::linalg::matmul::matmul(c.as_mut(), faer::Accum::Replace, a.as_ref(), b.as_ref(), T::from(1), par);
    c
}

struct Inputs<T: Elem> {
    a: Mat<T>,
    b: Mat<T>,
    fa: faer::Mat<T>,
    fb: faer::Mat<T>,
}

fn inputs<T: Elem>(n: usize) -> Inputs<T> {
    let a = Mat::<T>::from_fn([n, n], |[i, j]| value(i, j));
    let b = Mat::<T>::from_fn([n, n], |[i, j]| value2(i, j));
    let fa = faer::Mat::<T>::from_fn(n, n, value);
    let fb = faer::Mat::<T>::from_fn(n, n, value2);
    let (c, fc) = (a.matmul(&b), faer_product(&fa, &fb, faer::Par::Seq));
    assert!((0..n).all(|i| (0..n).all(|j| c[[i, j]] == fc[(i, j)])), "mdtensor and faer disagree at {n}²");
    Inputs { a, b, fa, fb }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a rayon pool")
}

fn sizing(g: &mut BenchmarkGroup<'_, WallTime>, n: usize) {
    if n >= 1024 {
        g.sampling_mode(SamplingMode::Flat);
        g.sample_size(10);
        g.measurement_time(Duration::from_secs(if n >= 2048 { 8 } else { 4 }));
    } else {
        g.sampling_mode(SamplingMode::Auto);
        g.sample_size(30);
        g.measurement_time(Duration::from_secs(2));
    }
}

/// Square products on a pool of `threads` threads, mdtensor (`Par::Auto`, or `Par::Seq` on
/// one thread) against faer (`Par::rayon(0)`, or `Par::Seq`).
fn square<T: Elem>(c: &mut Criterion, group: &str, threads: usize, sizes: &[usize], with_ndarray: bool) {
    let mut g = c.benchmark_group(group);
    g.warm_up_time(Duration::from_secs(1));
    let pool = pool(threads);
    let ours = if threads == 1 { Par::Seq } else { Par::Auto };
    for &n in sizes {
        let x = inputs::<T>(n);
        sizing(&mut g, n);
        g.throughput(Throughput::Elements(2 * (n as u64).pow(3)));
        g.bench_function(format!("mdtensor_{n}"), |bch| {
            pool.install(|| bch.iter(|| black_box(&x.a).try_matmul_with(black_box(&x.b), ours).unwrap()))
        });
        g.bench_function(format!("faer_{n}"), |bch| {
            pool.install(|| {
                let par = if threads == 1 { faer::Par::Seq } else { faer::Par::rayon(0) };
                bch.iter(|| faer_product(black_box(&x.fa), black_box(&x.fb), par))
            })
        });
        if with_ndarray {
            T::ndarray(&mut g, n, &pool);
        }
    }
    g.finish();
}

fn matmul_faer(c: &mut Criterion) {
    square::<f32>(c, "matmul_faer", 2, &[64, 256, 1024, 2048], true);
}
fn matmul_faer_f64(c: &mut Criterion) {
    square::<f64>(c, "matmul_faer_f64", 2, &[64, 256, 1024, 2048], false);
}
fn matmul_faer_1t(c: &mut Criterion) {
    square::<f32>(c, "matmul_faer_1t", 1, &[64, 256, 1024, 2048], false);
}
fn matmul_faer_1t_f64(c: &mut Criterion) {
    square::<f64>(c, "matmul_faer_1t_f64", 1, &[64, 256, 1024, 2048], false);
}

/// 64², where a product must stay serial: mdtensor's default against faer's `Par::Seq`.
fn serial<T: Elem>(g: &mut BenchmarkGroup<'_, WallTime>) {
    let x = inputs::<T>(64);
    let name = T::NAME;
    g.bench_function(format!("mdtensor_64_{name}"), |bch| bch.iter(|| black_box(&x.a).matmul(black_box(&x.b))));
    g.bench_function(format!("faer_64_seq_{name}"), |bch| {
        bch.iter(|| faer_product(black_box(&x.fa), black_box(&x.fb), faer::Par::Seq))
    });
}
fn matmul_faer_serial(c: &mut Criterion) {
    let mut g = c.benchmark_group("matmul_faer_serial");
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(3));
    serial::<f32>(&mut g);
    serial::<f64>(&mut g);
    g.finish();
}

/// Runs `f` while another thread spins on the machine's last CPU.
fn with_busy_core(f: impl FnOnce()) {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let stop = Arc::new(AtomicBool::new(false));
    let spinning = Arc::clone(&stop);
    let hog = std::thread::spawn(move || {
        #[cfg(target_os = "linux")]
        // SAFETY: a zeroed `cpu_set_t` is the empty set; CPU_SET writes inside it, and
        // sched_setaffinity reads `size_of` bytes of it (its failure only leaves the
        // thread unpinned).
        unsafe {
            let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpus - 1, &mut set);
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
        }
        while !spinning.load(Ordering::Relaxed) {
            std::hint::spin_loop();
        }
    });
    f();
    stop.store(true, Ordering::Relaxed);
    hog.join().expect("the spinning thread");
}

fn matmul_faer_busy(c: &mut Criterion) {
    with_busy_core(|| square::<f32>(c, "matmul_faer_busy", 2, &[1024, 2048], false));
}
fn matmul_faer_busy_f64(c: &mut Criterion) {
    with_busy_core(|| square::<f64>(c, "matmul_faer_busy_f64", 2, &[1024], false));
}

criterion_group!(
    benches,
    matmul_faer,
    matmul_faer_f64,
    matmul_faer_1t,
    matmul_faer_1t_f64,
    matmul_faer_serial,
    matmul_faer_busy,
    matmul_faer_busy_f64
);
criterion_main!(benches);
