//! Matrix products on one thread against matrixmultiply, per instruction set.
//!
//! matrixmultiply (0.3.11) picks its widest kernel at run time: AVX-512 on a CPU that has
//! it (its default `avx512` feature), else AVX2 + FMA, else SSE2. `MDTENSOR_MAX_ISA` caps
//! mdtensor's tier (the group and bench names carry it); matrixmultiply's test-only,
//! compile-time switch `MMTEST_FEATURE` caps its own, so a like-for-like run of each tier
//! builds the bench once per cap, in its own target directory:
//!
//! ```text
//! cargo bench -p mdtensor-benches --bench matmul_isa
//! MMTEST_FEATURE=sse2,avx,avx2,fma CARGO_TARGET_DIR=target/mm-avx2 \
//!     MDTENSOR_MAX_ISA=avx2 cargo bench -p mdtensor-benches --bench matmul_isa
//! MMTEST_FEATURE=sse2 CARGO_TARGET_DIR=target/mm-sse2 \
//!     MDTENSOR_MAX_ISA=baseline cargo bench -p mdtensor-benches --bench matmul_isa
//! ```
//!
//! Both sides compute `C = A·B` into an existing row-major C from row-major operands
//! (mdtensor through `try_matmul_into`) on one thread: rayon's global pool has one thread
//! here, as matrixmultiply (without its `threading` feature) has. Time ratios
//! (matrixmultiply / mdtensor) are read from one run.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use mdtensor::exec::MAX_ISA_VAR;
use mdtensor::prelude::*;
use mdtensor::Tensor;
use std::time::Duration;

type Mat<T> = Tensor<T, ext![_, _]>;

/// The tier this process runs, as the environment caps it.
fn tier() -> String {
    std::env::var(MAX_ISA_VAR).unwrap_or_else(|_| "native".into())
}

macro_rules! products {
    ($fn_name:ident, $t:ty, $mm:path) => {
        fn $fn_name(c: &mut Criterion) {
            // One thread for `Par::Auto` (once per process; later calls find the pool built).
            let _ = rayon::ThreadPoolBuilder::new().num_threads(1).build_global();
            assert_eq!(rayon::current_num_threads(), 1, "rayon's global pool must have one thread");
            let mut g = c.benchmark_group(format!("matmul_isa_{}_{}", stringify!($t), tier()));
            g.warm_up_time(Duration::from_secs(1));
            g.measurement_time(Duration::from_secs(3));
            g.sample_size(20);
            for n in [96usize, 256, 1024] {
                let a = Mat::<$t>::from_fn([n, n], |[i, j]| ((i * 7 + j * 3) % 11) as $t);
                let b = Mat::<$t>::from_fn([n, n], |[i, j]| ((i * 5 + j * 13) % 7) as $t);
                let mut out = Mat::<$t>::zeros([n, n]);
                let mut theirs = vec![0.0 as $t; n * n];
                g.throughput(Throughput::Elements(2 * (n as u64).pow(3)));
                g.bench_function(format!("mdtensor_{n}"), |bch| {
                    bch.iter(|| black_box(&a).try_matmul_into(black_box(&b), &mut out).unwrap())
                });
                let (pa, pb) = (a.as_slice().unwrap().as_ptr(), b.as_slice().unwrap().as_ptr());
                let mm = |out: &mut [$t]| {
                    // SAFETY: A, B and C are n × n row-major buffers of n² elements.
                    unsafe {
                        $mm(n, n, n, 1.0, pa, n as isize, 1, pb, n as isize, 1, 0.0, out.as_mut_ptr(), n as isize, 1)
                    }
                };
                g.bench_function(format!("matrixmultiply_{n}"), |bch| bch.iter(|| mm(black_box(&mut theirs))));
                // Same sums of small integers: both sides exact.
                a.try_matmul_into(&b, &mut out).unwrap();
                mm(&mut theirs);
                let differ = out.as_slice().unwrap().iter().zip(&theirs).filter(|(x, y)| x != y).count();
                assert_eq!(differ, 0, "mdtensor and matrixmultiply disagree at {n}²");
            }
            g.finish();
        }
    };
}
products!(matmul_isa_f32, f32, matrixmultiply::sgemm);
products!(matmul_isa_f64, f64, matrixmultiply::dgemm);

criterion_group!(benches, matmul_isa_f32, matmul_isa_f64);
criterion_main!(benches);
