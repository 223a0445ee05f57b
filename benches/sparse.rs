//! Sparse benchmarks against sprs 0.11 (single-threaded: built without its `multi_thread`
//! feature), on a 10⁶ × 10⁶ matrix with 10 random non-zeros per row.
//!
//! Each comparison puts mdtensor and sprs in the same criterion group, so their ratio can
//! be read from one run.
//!
//! * `spmv_f64`, `spmv_f32` — CSR × dense vector, `usize` indices: mdtensor in a rayon pool
//!   of 1 thread (`mdtensor_1t`) and of 2 threads (`mdtensor_2t`), sprs (1 thread).
//! * `csc_spmv_f64` — `Aᵀ x` without building `Aᵀ`: mdtensor's CSC view `a.sparse_t()` ×
//!   vector (1 and 2 threads) against sprs's `a.transpose_view()` × vector, and against
//!   mdtensor's CSR × vector of `Aᵀ` built beforehand (`csr_of_t_*`, same entries).
//! * `spmm16_f64`, `spmm16_f32` — CSR × dense 10⁶ × 16 row-major matrix.
//! * `build_csr_1e7` — CSR from 10⁷ unsorted triplets (with repeats), `usize` and `u32`
//!   indices (mdtensor: two-pass blocked counting sort on rayon; sprs: `TriMat::to_csr`).

use criterion::{black_box, criterion_group, criterion_main, BenchmarkGroup, Criterion, SamplingMode};
use mdtensor::sparse::CsrMatrix;
use mdtensor::{ext, Tensor};
use ndarray::{Array1, Array2};
use sprs::{CsMatI, TriMatI};
use std::time::Duration;

/// A rayon pool of `k` threads: the thread counts of the comparisons are explicit, not
/// the machine's.
fn pool(k: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(k).build().expect("a rayon pool")
}

const ROWS: usize = 1_000_000;
const PER_ROW: usize = 10;
const DENSE_COLS: usize = 16;

/// A xorshift generator: the same matrix every run, no extra dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Triplets of the test matrix in random order; values are small integers so that sums
/// are exact in `f32` and both libraries must agree bit for bit.
fn triplets<I: TryFrom<usize>>() -> (Vec<I>, Vec<I>, Vec<f64>) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let n = ROWS * PER_ROW;
    let (mut r, mut c, mut v) = (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
    let conv = |x: usize| I::try_from(x).ok().expect("fits");
    for _ in 0..n {
        r.push(conv((rng.next() % ROWS as u64) as usize));
        c.push(conv((rng.next() % ROWS as u64) as usize));
        v.push((rng.next() % 7) as f64 - 3.0);
    }
    (r, c, v)
}

fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name);
    g.sampling_mode(SamplingMode::Flat);
    g.measurement_time(Duration::from_secs(4));
    g.warm_up_time(Duration::from_secs(1));
    g.sample_size(10);
    g
}

/// The same matrix in both libraries, with element type `T`.
fn matrices<T>() -> (CsrMatrix<T>, CsMatI<T, usize>)
where
    T: mdtensor::sparse::SparseElem + From<i8> + Clone + core::ops::Add<Output = T>,
{
    let (r, c, v) = triplets::<usize>();
    let v: Vec<T> = v.iter().map(|&x| T::from(x as i8)).collect();
    let ours = CsrMatrix::<T>::from_triplets([ROWS, ROWS], &r, &c, &v);
    let theirs = TriMatI::<T, usize>::from_triplets((ROWS, ROWS), r, c, v).to_csr::<usize>();
    assert_eq!(ours.indptr(), theirs.indptr().raw_storage());
    assert_eq!(ours.indices(), theirs.indices());
    (ours, theirs)
}

macro_rules! spmv_spmm {
    ($name:ident, $T:ty, $spmv:literal, $spmm:literal) => {
        fn $name(c: &mut Criterion) {
            let (ours, theirs) = matrices::<$T>();
            let x = Tensor::<$T, ext![_]>::from_fn([ROWS], |[j]| (j % 5) as $T - 2.0);
            let nx = Array1::from_vec(x.to_vec());
            assert_eq!(ours.matvec(&x).to_vec(), (&theirs * &nx).to_vec());
            let mut g = group(c, $spmv);
            for k in [1, 2] {
                let p = pool(k);
                g.bench_function(format!("mdtensor_{k}t"), |b| {
                    p.install(|| b.iter(|| black_box(&ours).matvec(black_box(&x))))
                });
            }
            g.bench_function("sprs", |b| b.iter(|| black_box(&theirs) * black_box(&nx)));
            g.finish();

            let bm = Tensor::<$T, ext![_, _]>::from_fn([ROWS, DENSE_COLS], |[j, k]| ((j + k) % 3) as $T - 1.0);
            let nb = Array2::from_shape_vec((ROWS, DENSE_COLS), bm.to_vec()).unwrap();
            assert_eq!(ours.matmat(&bm).to_vec(), (&theirs * &nb).into_raw_vec_and_offset().0);
            let mut g = group(c, $spmm);
            g.bench_function("mdtensor", |b| b.iter(|| black_box(&ours).matmat(black_box(&bm))));
            g.bench_function("sprs", |b| b.iter(|| black_box(&theirs) * black_box(&nb)));
            g.finish();
        }
    };
}
spmv_spmm!(products_f64, f64, "spmv_f64", "spmm16_f64");
spmv_spmm!(products_f32, f32, "spmv_f32", "spmm16_f32");

/// `Aᵀ x` for the CSR matrix `A`: through the CSC view (no copy), through sprs's
/// transposed view, and through a CSR of `Aᵀ` built beforehand (the same entries, explicit
/// zeros included, so both do the same arithmetic).
fn csc_spmv(c: &mut Criterion) {
    let (r, cc, v) = triplets::<usize>();
    let ours = CsrMatrix::<f64>::from_triplets([ROWS, ROWS], &r, &cc, &v);
    let ours_t = CsrMatrix::<f64>::from_triplets([ROWS, ROWS], &cc, &r, &v);
    let theirs = TriMatI::<f64, usize>::from_triplets((ROWS, ROWS), r, cc, v).to_csr::<usize>();
    assert_eq!(ours_t.nnz(), ours.nnz());
    let x = Tensor::<f64, ext![_]>::from_fn([ROWS], |[j]| (j % 5) as f64 - 2.0);
    let nx = Array1::from_vec(x.to_vec());
    let want = (&theirs.transpose_view() * &nx).to_vec();
    assert_eq!(ours.sparse_t().matvec(&x).to_vec(), want);
    assert_eq!(ours_t.matvec(&x).to_vec(), want);
    let mut g = group(c, "csc_spmv_f64");
    for k in [1, 2] {
        let p = pool(k);
        g.bench_function(format!("mdtensor_csc_view_{k}t"), |b| {
            p.install(|| b.iter(|| black_box(&ours).sparse_t().matvec(black_box(&x))))
        });
        g.bench_function(format!("mdtensor_csr_of_t_{k}t"), |b| {
            p.install(|| b.iter(|| black_box(&ours_t).matvec(black_box(&x))))
        });
    }
    g.bench_function("sprs_transpose_view", |b| b.iter(|| &black_box(&theirs).transpose_view() * black_box(&nx)));
    g.finish();
}

fn build(c: &mut Criterion) {
    let mut g = group(c, "build_csr_1e7");
    let (r, cc, v) = triplets::<usize>();
    let tri = TriMatI::<f64, usize>::from_triplets((ROWS, ROWS), r.clone(), cc.clone(), v.clone());
    g.bench_function("mdtensor_usize", |b| {
        b.iter(|| CsrMatrix::<f64>::from_triplets([ROWS, ROWS], black_box(&r), black_box(&cc), black_box(&v)))
    });
    g.bench_function("sprs_usize", |b| b.iter(|| black_box(&tri).to_csr::<usize>()));
    drop(tri);
    let (r, cc, v) = triplets::<u32>();
    let tri = TriMatI::<f64, u32>::from_triplets((ROWS, ROWS), r.clone(), cc.clone(), v.clone());
    let ours = CsrMatrix::<f64, ext![_, _], u32>::from_triplets([ROWS, ROWS], &r, &cc, &v);
    let theirs = tri.to_csr::<u32>();
    assert_eq!(ours.indices(), theirs.indices());
    assert_eq!(ours.values(), theirs.data());
    g.bench_function("mdtensor_u32", |b| {
        b.iter(|| {
            CsrMatrix::<f64, ext![_, _], u32>::from_triplets([ROWS, ROWS], black_box(&r), black_box(&cc), black_box(&v))
        })
    });
    g.bench_function("sprs_u32", |b| b.iter(|| black_box(&tri).to_csr::<u32>()));
    g.finish();
}

criterion_group!(benches, products_f64, products_f32, csc_spmv, build);
criterion_main!(benches);
