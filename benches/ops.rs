//! Compute benchmarks against ndarray and nalgebra (all `f32`).
//!
//! Each comparison puts mdtensor and its peer in the same criterion group, so their ratio
//! (mdtensor time / peer time) can be read from one run even on a noisy machine.
//!
//! * `add_new_2p24` — `a + b` into a new 4096×4096 tensor; into an existing one (vs a
//!   hand-written rayon loop over slices); `a += b` in place.
//! * `fused_new` — `a * 2 + b * c` into a new tensor (one pass vs ndarray's temporaries).
//! * `mixed_layout` — `a + bᵀ`, and a row-major copy of a transposed view
//!   (`to_standard_layout`, and `mapv(|x| x)`).
//! * `broadcast_new` — adding a row `[N]` and a column `[N, 1]` to an N×N matrix.
//! * `reduce` — whole sum, and sums along axis 0 and axis 1 (also in a 1-thread pool).
//! * `matmul` — square products from 64² to 2048².
//! * `small_static` — 4×4 stack matmul and add vs nalgebra `Matrix4`, 3-vector dot vs
//!   `Vector3`; `small_dynamic` — a dynamic 4×4 add into a new tensor vs ndarray's `Array2`.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkGroup, Criterion, SamplingMode};
use mdtensor::prelude::*;
use mdtensor::{StackTensor, Tensor};
use ndarray::{Array1, Array2, Axis, ShapeBuilder};
use rayon::prelude::*;
use std::time::Duration;

/// Side of the large square matrices: 4096² = 2^24 elements (64 MiB of `f32`).
const N: usize = 4096;

type Mat = Tensor<f32, ext![_, _]>;

/// Element `[i, j]` of the test matrices; small integers so sums are exact in `f32`
/// (whole-matrix sums stay below 2^24 · 16, exact enough for the asserts below).
fn value(i: usize, j: usize) -> f32 {
    ((i * 7 + j * 3) % 11) as f32
}
fn value2(i: usize, j: usize) -> f32 {
    ((i * 5 + j * 13) % 7) as f32
}
fn value3(i: usize, j: usize) -> f32 {
    ((i + j * 2) % 5) as f32
}

fn md_mat(n: usize, f: fn(usize, usize) -> f32) -> Mat {
    Mat::from_fn([n, n], |[i, j]| f(i, j))
}
fn nd_mat(n: usize, f: fn(usize, usize) -> f32) -> Array2<f32> {
    Array2::from_shape_fn((n, n), |(i, j)| f(i, j))
}

/// Asserts that an mdtensor result and an ndarray result hold the same elements in the
/// same logical order.
#[track_caller]
fn assert_same(md: &[f32], nd: &Array2<f32>) {
    let nd = nd.as_standard_layout();
    let nd = nd.as_slice().expect("standard layout");
    assert_eq!(md.len(), nd.len());
    assert!(md == nd, "mdtensor and ndarray disagree");
}

/// Settings for groups whose iterations take milliseconds.
fn big_group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name);
    g.sampling_mode(SamplingMode::Flat);
    g.measurement_time(Duration::from_secs(4));
    g.warm_up_time(Duration::from_secs(1));
    g.sample_size(15);
    g
}

fn add_new_2p24(c: &mut Criterion) {
    let (a, b) = (md_mat(N, value), md_mat(N, value2));
    let (na, nb) = (nd_mat(N, value), nd_mat(N, value2));
    assert_same((&a + &b).eval().as_slice().unwrap(), &(&na + &nb));

    let mut g = big_group(c, "add_new_2p24");
    // New result.
    g.bench_function("mdtensor_eval", |bch| bch.iter(|| (black_box(&a) + black_box(&b)).eval()));
    g.bench_function("ndarray_new", |bch| bch.iter(|| black_box(&na) + black_box(&nb)));

    // Into an existing tensor.
    let mut out = Mat::zeros([N, N]);
    out.assign(&a + &b);
    g.bench_function("mdtensor_assign", |bch| bch.iter(|| out.assign(black_box(&a) + black_box(&b))));
    let (sa, sb) = (a.as_slice().unwrap(), b.as_slice().unwrap());
    let mut out_slice: Vec<f32> = sa.iter().zip(sb).map(|(&x, &y)| x + y).collect();
    g.bench_function("rayon_loop_assign", |bch| {
        bch.iter(|| {
            out_slice
                .par_iter_mut()
                .zip(black_box(sa).par_iter())
                .zip(black_box(sb).par_iter())
                .for_each(|((o, &x), &y)| *o = x + y)
        })
    });
    let mut nout = Array2::<f32>::zeros((N, N));
    g.bench_function("ndarray_zip_assign_serial", |bch| {
        bch.iter(|| {
            ndarray::Zip::from(&mut nout).and(black_box(&na)).and(black_box(&nb)).for_each(|o, &x, &y| *o = x + y)
        })
    });

    // In place.
    let mut acc = a.clone();
    g.bench_function("mdtensor_add_assign", |bch| bch.iter(|| acc += black_box(&b)));
    let mut nacc = na.clone();
    g.bench_function("ndarray_add_assign", |bch| bch.iter(|| nacc += black_box(&nb)));
    g.finish();

    // Still right after being overwritten by every iteration (or never, when filtered out).
    assert_same(out.as_slice().unwrap(), &(&na + &nb));
    assert!(out.as_slice().unwrap() == out_slice.as_slice());
}

fn fused_new(c: &mut Criterion) {
    let (a, b, cc) = (md_mat(N, value), md_mat(N, value2), md_mat(N, value3));
    let (na, nb, nc) = (nd_mat(N, value), nd_mat(N, value2), nd_mat(N, value3));
    assert_same((&a * 2.0f32 + &b * &cc).eval().as_slice().unwrap(), &(&na * 2.0 + &nb * &nc));

    let mut g = big_group(c, "fused_new");
    g.bench_function("mdtensor_eval", |bch| {
        bch.iter(|| (black_box(&a) * 2.0f32 + black_box(&b) * black_box(&cc)).eval())
    });
    g.bench_function("ndarray_new", |bch| bch.iter(|| black_box(&na) * 2.0 + black_box(&nb) * black_box(&nc)));
    g.finish();
}

fn mixed_layout(c: &mut Criterion) {
    let (a, b) = (md_mat(N, value), md_mat(N, value2));
    let (na, nb) = (nd_mat(N, value), nd_mat(N, value2));
    assert_same((&a + b.t()).eval().as_slice().unwrap(), &(&na + &nb.t()));
    // A transposed row-major matrix is a column-major view: `mapv_in_order` keeps that
    // order (as ndarray's `mapv` does), so the copy is the same memory;
    // `to_standard_layout` transposes.
    let copy = a.t().mapv_in_order(|x| x);
    assert_eq!(copy.as_slice_memory_order(), a.as_slice());
    assert_same(a.t().to_standard_layout().as_slice().unwrap(), &na.t().as_standard_layout().into_owned());

    let mut g = big_group(c, "mixed_layout");
    g.bench_function("mdtensor_add_transposed", |bch| bch.iter(|| (black_box(&a) + black_box(&b).t()).eval()));
    g.bench_function("ndarray_add_transposed", |bch| bch.iter(|| black_box(&na) + &black_box(&nb).t()));
    g.bench_function("mdtensor_t_mapv", |bch| bch.iter(|| black_box(&a).t().mapv_in_order(|x| x)));
    g.bench_function("mdtensor_t_to_standard_layout", |bch| bch.iter(|| black_box(&a).t().to_standard_layout()));
    g.bench_function("ndarray_t_standard_layout", |bch| {
        bch.iter(|| black_box(&na).t().as_standard_layout().into_owned())
    });
    g.finish();
}

/// Column-major operands: mdtensor's `eval_in_order` result is column-major (written in
/// memory order), as ndarray's for Fortran-order arrays; `eval_row_major` (the same as
/// `eval`) is the row-major result of the same expression (a transposing copy).
fn col_major(c: &mut Criterion) {
    type ColMat = Tensor<f32, ext![_, _], mdtensor::ColMajor>;
    let (a, b) = (ColMat::from_fn([N, N], |[i, j]| value(i, j)), ColMat::from_fn([N, N], |[i, j]| value2(i, j)));
    let row = Tensor::<f32, ext![_]>::from_fn([N], |[j]| value3(0, j));
    let (na, nb) = (nd_mat(N, value).reversed_axes(), nd_mat(N, value2).reversed_axes());
    let (na, nb) = (na.as_standard_layout().reversed_axes(), nb.as_standard_layout().reversed_axes());
    let (na, nb) = (na.to_owned(), nb.to_owned());
    assert!(na.t().is_standard_layout());
    let nrow = Array1::from_shape_fn(N, |j| value3(0, j));
    let sum = (&a + &b).eval_in_order();
    assert_same(sum.to_standard_layout().as_slice().unwrap(), &(&na + &nb));
    assert_eq!(sum.strides(), [1, N as isize]);
    assert_same((&a + &row).eval_row_major().as_slice().unwrap(), &(&na + &nrow));

    let mut g = big_group(c, "col_major");
    g.bench_function("mdtensor_add", |bch| bch.iter(|| (black_box(&a) + black_box(&b)).eval_in_order()));
    g.bench_function("mdtensor_add_row_major_result", |bch| {
        bch.iter(|| (black_box(&a) + black_box(&b)).eval_row_major())
    });
    g.bench_function("ndarray_add", |bch| bch.iter(|| black_box(&na) + black_box(&nb)));
    g.bench_function("mdtensor_add_row", |bch| bch.iter(|| (black_box(&a) + black_box(&row)).eval_in_order()));
    g.bench_function("ndarray_add_row", |bch| bch.iter(|| black_box(&na) + black_box(&nrow)));
    g.bench_function("mdtensor_mapv", |bch| bch.iter(|| black_box(&a).mapv_in_order(|x| x * 2.0 + 1.0)));
    g.bench_function("ndarray_mapv", |bch| bch.iter(|| black_box(&na).mapv(|x| x * 2.0 + 1.0)));
    g.finish();

    // Products of two column-major 512² matrices: column-major results on both sides.
    const M: usize = 512;
    let (pa, pb) = (ColMat::from_fn([M, M], |[i, j]| value(i, j)), ColMat::from_fn([M, M], |[i, j]| value2(i, j)));
    let npa = Array2::from_shape_fn((M, M).f(), |(i, j)| value(i, j));
    let npb = Array2::from_shape_fn((M, M).f(), |(i, j)| value2(i, j));
    let (p, np) = (pa.matmul(&pb), npa.dot(&npb));
    assert!(np.t().is_standard_layout() && p.strides() == [1, M as isize]);
    assert_same(p.to_standard_layout().as_slice().unwrap(), &np);
    let mut g = c.benchmark_group("col_major_matmul_512");
    g.bench_function("mdtensor", |bch| bch.iter(|| black_box(&pa).matmul(black_box(&pb))));
    g.bench_function("ndarray", |bch| bch.iter(|| black_box(&npa).dot(black_box(&npb))));
    g.finish();
}

fn broadcast_new(c: &mut Criterion) {
    let a = md_mat(N, value);
    let row = Tensor::<f32, ext![_]>::from_fn([N], |[j]| value2(0, j));
    let col = Mat::from_fn([N, 1], |[i, _]| value3(i, 0));
    let na = nd_mat(N, value);
    let nrow = Array1::from_shape_fn(N, |j| value2(0, j));
    let ncol = Array2::from_shape_fn((N, 1), |(i, _)| value3(i, 0));
    assert_same((&a + &row).eval().as_slice().unwrap(), &(&na + &nrow));
    assert_same((&a + &col).eval().as_slice().unwrap(), &(&na + &ncol));

    let mut g = big_group(c, "broadcast_new");
    g.bench_function("mdtensor_row", |bch| bch.iter(|| (black_box(&a) + black_box(&row)).eval()));
    g.bench_function("ndarray_row", |bch| bch.iter(|| black_box(&na) + black_box(&nrow)));
    g.bench_function("mdtensor_col", |bch| bch.iter(|| (black_box(&a) + black_box(&col)).eval()));
    g.bench_function("ndarray_col", |bch| bch.iter(|| black_box(&na) + black_box(&ncol)));
    g.finish();
}

fn reduce(c: &mut Criterion) {
    let a = md_mat(N, value);
    let na = nd_mat(N, value);
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    assert_eq!(a.sum(), na.sum());
    let s0 = a.sum_axis::<0>();
    assert_eq!(s0.as_slice().unwrap(), na.sum_axis(Axis(0)).as_slice().unwrap());
    let s1 = a.sum_axis::<1>();
    assert_eq!(s1.as_slice().unwrap(), na.sum_axis(Axis(1)).as_slice().unwrap());
    assert_eq!(one.install(|| a.sum_axis::<1>()).as_slice(), s1.as_slice());

    let mut g = big_group(c, "reduce");
    g.sample_size(20);
    g.bench_function("mdtensor_sum", |bch| bch.iter(|| black_box(&a).sum()));
    g.bench_function("ndarray_sum", |bch| bch.iter(|| black_box(&na).sum()));
    g.bench_function("mdtensor_sum_axis0", |bch| bch.iter(|| black_box(&a).sum_axis::<0>()));
    g.bench_function("ndarray_sum_axis0", |bch| bch.iter(|| black_box(&na).sum_axis(Axis(0))));
    g.bench_function("mdtensor_sum_axis1_1thread", |bch| bch.iter(|| one.install(|| black_box(&a).sum_axis::<1>())));
    g.bench_function("mdtensor_sum_axis1", |bch| bch.iter(|| black_box(&a).sum_axis::<1>()));
    g.bench_function("ndarray_sum_axis1", |bch| bch.iter(|| black_box(&na).sum_axis(Axis(1))));
    g.finish();
}

fn matmul(c: &mut Criterion) {
    let mut g = c.benchmark_group("matmul");
    g.warm_up_time(Duration::from_secs(1));
    for n in [64usize, 256, 1024, 2048] {
        let (a, b) = (md_mat(n, value), md_mat(n, value2));
        let (na, nb) = (nd_mat(n, value), nd_mat(n, value2));
        // Small integers: every product and partial sum is exact in f32 at these sizes.
        assert_same(a.matmul(&b).as_slice().unwrap(), &na.dot(&nb));
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
        g.bench_function(format!("ndarray_{n}"), |bch| bch.iter(|| black_box(&na).dot(black_box(&nb))));
    }
    g.finish();
}

type Stack4 = StackTensor<f32, ext![4, 4]>;
type Stack3 = StackTensor<f32, ext![3]>;

fn small_static(c: &mut Criterion) {
    let a = Stack4::from_fn(ext![4, 4], |[i, j]| value(i, j));
    let b = Stack4::from_fn(ext![4, 4], |[i, j]| value2(i, j));
    let na = nalgebra::Matrix4::<f32>::from_fn(value);
    let nb = nalgebra::Matrix4::<f32>::from_fn(value2);
    let (v, w) = (Stack3::from_fn(ext![3], |[i]| value(i, 1)), Stack3::from_fn(ext![3], |[i]| value2(i, 1)));
    let (nv, nw) =
        (nalgebra::Vector3::<f32>::from_fn(|i, _| value(i, 1)), nalgebra::Vector3::<f32>::from_fn(|i, _| value2(i, 1)));

    let same = |md: &[f32], nd: nalgebra::Matrix4<f32>| {
        // nalgebra stores column-major: compare by index.
        (0..4).all(|i| (0..4).all(|j| md[i * 4 + j] == nd[(i, j)]))
    };
    let prod: Stack4 = a.matmul(&b);
    assert!(same(&prod.to_vec(), na * nb));
    let sum: Stack4 = (a + b).eval_stack();
    assert!(same(&sum.to_vec(), na + nb));
    assert_eq!(v.dot(&w), nv.dot(&nw));
    let cr: Stack3 = v.cross(&w);
    assert_eq!(cr.to_vec(), nv.cross(&nw).as_slice());

    let mut g = c.benchmark_group("small_static");
    g.measurement_time(Duration::from_secs(3));
    g.warm_up_time(Duration::from_secs(1));
    g.bench_function("mdtensor_matmul_4x4", |bch| bch.iter(|| black_box(&a).matmul(black_box(&b))));
    g.bench_function("nalgebra_matmul_4x4", |bch| bch.iter(|| black_box(&na) * black_box(&nb)));
    g.bench_function("mdtensor_add_4x4", |bch| bch.iter(|| (black_box(&a) + black_box(&b)).eval_stack()));
    g.bench_function("nalgebra_add_4x4", |bch| bch.iter(|| black_box(&na) + black_box(&nb)));
    g.bench_function("mdtensor_dot_3", |bch| bch.iter(|| black_box(&v).dot(black_box(&w))));
    g.bench_function("nalgebra_dot_3", |bch| bch.iter(|| black_box(&nv).dot(black_box(&nw))));
    g.bench_function("mdtensor_cross_3", |bch| bch.iter(|| black_box(&v).cross(black_box(&w))));
    g.bench_function("nalgebra_cross_3", |bch| bch.iter(|| black_box(&nv).cross(black_box(&nw))));
    g.finish();

    // Dynamic 4×4, allocating a new result (ndarray's `&a + &b`).
    let (da, db) = (md_mat(4, value), md_mat(4, value2));
    let (nda, ndb) = (nd_mat(4, value), nd_mat(4, value2));
    assert_same((&da + &db).eval().as_slice().unwrap(), &(&nda + &ndb));
    let mut g = c.benchmark_group("small_dynamic");
    g.measurement_time(Duration::from_secs(3));
    g.warm_up_time(Duration::from_secs(1));
    g.bench_function("mdtensor_add_4x4", |bch| bch.iter(|| (black_box(&da) + black_box(&db)).eval()));
    g.bench_function("ndarray_add_4x4", |bch| bch.iter(|| black_box(&nda) + black_box(&ndb)));
    g.finish();
}

/// The price of compiling small static work once (`exec::cpu::NARROW_MAX`):
/// a 64×64 (4,096-element) static tensor runs the baseline copy of the loops, the same
/// shape with dynamic extents the copy picked for the CPU (AVX2 here); ndarray compiles
/// its loops for the baseline only.
fn narrow_static(c: &mut Criterion) {
    type S = Tensor<f32, ext![64, 64]>;
    let (sa, sb, sc) = (
        S::from_fn(ext![64, 64], |[i, j]| value(i, j)),
        S::from_fn(ext![64, 64], |[i, j]| value2(i, j)),
        S::from_fn(ext![64, 64], |[i, j]| value3(i, j)),
    );
    let (da, db, dc) = (md_mat(64, value), md_mat(64, value2), md_mat(64, value3));
    let (na, nb, nc) = (nd_mat(64, value), nd_mat(64, value2), nd_mat(64, value3));
    assert_same((&sa * &sb + &sc).eval().as_slice().unwrap(), &(&na * &nb + &nc));
    assert_same((&da * &db + &dc).eval().as_slice().unwrap(), &(&na * &nb + &nc));
    assert_eq!(sa.sum_axis::<0>().to_vec(), da.sum_axis::<0>().to_vec());

    let mut g = c.benchmark_group("narrow_static_64x64");
    g.measurement_time(Duration::from_secs(3));
    g.warm_up_time(Duration::from_secs(1));
    g.bench_function("mdtensor_static_fma", |b| b.iter(|| (black_box(&sa) * black_box(&sb) + black_box(&sc)).eval()));
    g.bench_function("mdtensor_dynamic_fma", |b| b.iter(|| (black_box(&da) * black_box(&db) + black_box(&dc)).eval()));
    g.bench_function("ndarray_fma", |b| b.iter(|| black_box(&na) * black_box(&nb) + black_box(&nc)));
    g.bench_function("mdtensor_static_exp_sum", |b| b.iter(|| black_box(&sa).exp().sum()));
    g.bench_function("mdtensor_dynamic_exp_sum", |b| b.iter(|| black_box(&da).exp().sum()));
    g.bench_function("ndarray_exp_sum", |b| b.iter(|| black_box(&na).mapv(f32::exp).sum()));
    g.bench_function("mdtensor_static_sum_axis0", |b| b.iter(|| black_box(&sa).sum_axis::<0>()));
    g.bench_function("mdtensor_dynamic_sum_axis0", |b| b.iter(|| black_box(&da).sum_axis::<0>()));
    g.bench_function("ndarray_sum_axis0", |b| b.iter(|| black_box(&na).sum_axis(Axis(0))));
    g.finish();
}

criterion_group!(
    benches,
    add_new_2p24,
    fused_new,
    mixed_layout,
    col_major,
    broadcast_new,
    reduce,
    matmul,
    small_static,
    narrow_static
);
criterion_main!(benches);
