//! Linear algebra against faer called directly and nalgebra's fixed-size matrices, `f64`,
//! on explicit rayon pools of one thread (mdtensor `Par::Seq`, faer `Par::Seq`) and two.
//! `benches/linalg_numpy.py` prints numpy's rows for the same inputs.
//!
//! `cargo bench -p mdtensor-benches --features linalg --bench linalg` (faer's build takes
//! minutes).
//!
//! * `linalg_dense_{n}` — `solve`, `cholesky`, `eigh`, `svd`, `qr` (R only), `inv`, `det`
//!   at n = 8 and 1024: mdtensor beside faer's own calls;
//! * `linalg_small` — `StackTensor` 2×2 to 4×4 `inv`, `det`, `solve` beside nalgebra's
//!   `SMatrix` (`try_inverse`, `determinant`, `lu().solve`), and `cholesky`;
//! * `linalg_batched` — 10^5 independent 3×3 solves: one mdtensor `DynRank` stack call
//!   (one and two threads) beside a loop of nalgebra solves;
//! * `linalg_sparse` — the 5-point Laplacian of a 316 × 316 grid (~10^5 unknowns), factor
//!   and solve: mdtensor's `spsolve` (sparse LU), `cho_factor` + `solve` (sparse
//!   Cholesky) and `solve` (which picks the Cholesky here) beside faer's `sp_lu` and
//!   `sp_cholesky` called directly.
//!
//! Time ratios are read from one run: the machine is shared.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use faer::linalg::solvers::{DenseSolveCore, Solve};
use mdtensor::exec::par::Par;
use mdtensor::linalg::{QrMode, Uplo};
use mdtensor::{ext, DynRank, StackTensor, Tensor};
use std::time::Duration;

type Mat = Tensor<f64, ext![_, _]>;

/// A well-conditioned symmetric positive-definite test matrix (diagonally dominant).
fn value(n: usize, i: usize, j: usize) -> f64 {
    let x = (((i * 7 + j * 3) % 11) as f64 + ((j * 7 + i * 3) % 11) as f64) / 22.0;
    if i == j {
        x + n as f64
    } else {
        x
    }
}

fn dense(c: &mut Criterion) {
    for n in [8usize, 1024] {
        let a = Mat::from_fn([n, n], |[i, j]| value(n, i, j));
        let b = Tensor::<f64, ext![_]>::from_fn([n], |[i]| (i % 5) as f64);
        let fa = faer::Mat::<f64>::from_fn(n, n, |i, j| value(n, i, j));
        let fb = faer::Mat::<f64>::from_fn(n, 1, |i, _| (i % 5) as f64);
        let mut g = c.benchmark_group(format!("linalg_dense_{n}"));
        if n > 100 {
            g.sample_size(10).measurement_time(Duration::from_secs(10));
        }
        for (threads, name) in [(1usize, "1t"), (2, "2t")] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let (mpar, fpar) =
                if threads == 1 { (Par::Seq, faer::Par::Seq) } else { (Par::Rayon, faer::Par::rayon(0)) };
            faer::set_global_parallelism(fpar);
            g.bench_function(format!("mdtensor_solve_{name}"), |x| {
                pool.install(|| x.iter(|| black_box(&a).solve_with(&b, mpar)))
            });
            g.bench_function(format!("faer_solve_{name}"), |x| {
                pool.install(|| x.iter(|| fa.partial_piv_lu().solve(&fb)))
            });
            g.bench_function(format!("mdtensor_cholesky_{name}"), |x| {
                pool.install(|| x.iter(|| black_box(&a).cholesky_with(mpar)))
            });
            g.bench_function(format!("faer_cholesky_{name}"), |x| {
                pool.install(|| x.iter(|| fa.llt(faer::Side::Lower).unwrap()))
            });
            g.bench_function(format!("mdtensor_inv_{name}"), |x| {
                pool.install(|| x.iter(|| black_box(&a).inv_with(mpar)))
            });
            g.bench_function(format!("faer_inv_{name}"), |x| pool.install(|| x.iter(|| fa.partial_piv_lu().inverse())));
            g.bench_function(format!("mdtensor_det_{name}"), |x| pool.install(|| x.iter(|| black_box(&a).det())));
            g.bench_function(format!("faer_det_{name}"), |x| pool.install(|| x.iter(|| fa.determinant())));
            g.bench_function(format!("mdtensor_qr_r_{name}"), |x| {
                pool.install(|| x.iter(|| black_box(&a).qr(QrMode::R)))
            });
            g.bench_function(format!("faer_qr_r_{name}"), |x| pool.install(|| x.iter(|| fa.qr().R().to_owned())));
            g.bench_function(format!("mdtensor_eigh_{name}"), |x| {
                pool.install(|| x.iter(|| black_box(&a).eigh(Uplo::Lower)))
            });
            g.bench_function(format!("faer_eigh_{name}"), |x| {
                pool.install(|| x.iter(|| fa.self_adjoint_eigen(faer::Side::Lower).unwrap()))
            });
            g.bench_function(format!("mdtensor_svd_{name}"), |x| pool.install(|| x.iter(|| black_box(&a).svd(false))));
            g.bench_function(format!("faer_svd_{name}"), |x| pool.install(|| x.iter(|| fa.thin_svd().unwrap())));
        }
        g.finish();
    }
}

macro_rules! small_rows {
    ($g:expr, $n:literal) => {{
        let data: Vec<f64> = (0..$n * $n).map(|k| value($n, k / $n, k % $n)).collect();
        let a = StackTensor::<f64, ext![$n, $n]>::from_slice(ext![$n, $n], &data);
        let b = StackTensor::<f64, ext![$n]>::from_slice(ext![$n], &data[..$n]);
        let na = nalgebra::SMatrix::<f64, $n, $n>::from_row_slice(&data);
        let nb = nalgebra::SVector::<f64, $n>::from_column_slice(&data[..$n]);
        $g.bench_function(concat!("mdtensor_inv_", $n), |x| x.iter(|| black_box(&a).inv()));
        $g.bench_function(concat!("nalgebra_inv_", $n), |x| x.iter(|| black_box(&na).try_inverse()));
        $g.bench_function(concat!("mdtensor_det_", $n), |x| x.iter(|| black_box(&a).det()));
        $g.bench_function(concat!("nalgebra_det_", $n), |x| x.iter(|| black_box(&na).determinant()));
        $g.bench_function(concat!("mdtensor_solve_", $n), |x| x.iter(|| black_box(&a).solve(black_box(&b))));
        $g.bench_function(concat!("nalgebra_solve_", $n), |x| x.iter(|| black_box(&na).lu().solve(black_box(&nb))));
        $g.bench_function(concat!("mdtensor_cholesky_", $n), |x| x.iter(|| black_box(&a).cholesky()));
        $g.bench_function(concat!("nalgebra_cholesky_", $n), |x| x.iter(|| black_box(na).cholesky()));
    }};
}

fn small(c: &mut Criterion) {
    let mut g = c.benchmark_group("linalg_small");
    small_rows!(g, 2);
    small_rows!(g, 3);
    small_rows!(g, 4);
    g.finish();
}

fn batched(c: &mut Criterion) {
    let count = 100_000;
    let data: Vec<f64> = (0..count * 9).map(|k| value(3, (k % 9) / 3, k % 3) + (k % 13) as f64 * 0.01).collect();
    let rhs: Vec<f64> = (0..count * 3).map(|k| (k % 7) as f64).collect();
    let a = Tensor::<f64, DynRank>::from_vec(&[count, 3, 3][..], data.clone());
    let b = Tensor::<f64, DynRank>::from_vec(&[count, 3, 1][..], rhs.clone());
    let na: Vec<nalgebra::Matrix3<f64>> = data.chunks(9).map(nalgebra::Matrix3::from_row_slice).collect();
    let nb: Vec<nalgebra::Vector3<f64>> = rhs.chunks(3).map(nalgebra::Vector3::from_column_slice).collect();
    let mut g = c.benchmark_group("linalg_batched");
    g.sample_size(10);
    for threads in [1usize, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let par = if threads == 1 { Par::Seq } else { Par::Rayon };
        g.bench_function(format!("mdtensor_solve_3x3_{threads}t"), |x| {
            pool.install(|| x.iter(|| black_box(&a).solve_with(&b, par)))
        });
    }
    g.bench_function("nalgebra_loop_solve_3x3_1t", |x| {
        x.iter(|| na.iter().zip(&nb).map(|(m, v)| m.lu().solve(v)).collect::<Vec<_>>())
    });
    g.finish();
}

/// The 5-point Laplacian of a `k × k` grid, as `(row, col, value)` triplets in row order.
fn laplacian(k: usize) -> Vec<(usize, usize, f64)> {
    let mut t = Vec::with_capacity(5 * k * k);
    for i in 0..k {
        for j in 0..k {
            let p = i * k + j;
            let near = [(i > 0, p.wrapping_sub(k)), (j > 0, p.wrapping_sub(1)), (j + 1 < k, p + 1), (i + 1 < k, p + k)];
            t.push((p, p, 4.0));
            t.extend(near.iter().filter(|(ok, _)| *ok).map(|&(_, q)| (p, q, -1.0)));
        }
    }
    t
}

fn sparse(c: &mut Criterion) {
    let k = 316;
    let n = k * k;
    let t = laplacian(k);
    let (rows, cols, vals): (Vec<usize>, Vec<usize>, Vec<f64>) =
        (t.iter().map(|e| e.0).collect(), t.iter().map(|e| e.1).collect(), t.iter().map(|e| e.2).collect());
    let csr = mdtensor::CsrMatrix::<f64>::from_triplets([n, n], &rows, &cols, &vals);
    let csc = mdtensor::CscMatrix::<f64>::from_triplets([n, n], &rows, &cols, &vals);
    let b = Tensor::<f64, ext![_]>::from_fn([n], |[i]| (i % 7) as f64);
    let triplets: Vec<_> = t.iter().map(|&(r, c, v)| faer::sparse::Triplet::new(r, c, v)).collect();
    let fa = faer::sparse::SparseColMat::<usize, f64>::try_new_from_triplets(n, n, &triplets).unwrap();
    let fb = faer::Mat::<f64>::from_fn(n, 1, |i, _| (i % 7) as f64);
    faer::set_global_parallelism(faer::Par::Seq);
    let mut g = c.benchmark_group("linalg_sparse");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("mdtensor_spsolve_laplacian_316", |x| x.iter(|| black_box(&csc).spsolve(&b)));
    g.bench_function("mdtensor_spsolve_csr_laplacian_316", |x| x.iter(|| black_box(&csr).spsolve(&b)));
    // `solve` finds the Laplacian Hermitian with a positive diagonal: the Cholesky path.
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        g.bench_function(format!("mdtensor_solve_csr_laplacian_316_{threads}t"), |x| {
            pool.install(|| x.iter(|| black_box(&csr).solve(&b)))
        });
    }
    g.bench_function("faer_sp_lu_solve_laplacian_316", |x| x.iter(|| black_box(&fa).sp_lu().unwrap().solve(&fb)));
    g.bench_function("mdtensor_cho_factor_solve_laplacian_316", |x| {
        x.iter(|| black_box(&csc).cho_factor_with(Par::Seq).solve_with(&b, Par::Seq))
    });
    g.bench_function("faer_sp_cholesky_solve_laplacian_316", |x| {
        x.iter(|| black_box(&fa).sp_cholesky(faer::Side::Lower).unwrap().solve(&fb))
    });
    g.finish();
}

criterion_group!(benches, dense, small, batched, sparse);
criterion_main!(benches);
