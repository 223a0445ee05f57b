//! Elementwise work, transposes and axis reductions on one thread against ndarray and
//! hand-written loops, `f32`, 4096² = 2^24 elements (BENCHMARKS.md's first table).
//!
//! rayon's global pool has exactly one thread in this benchmark (set before the first
//! group), so mdtensor's `Par::Auto` cannot use a second core that the peer does not use. Each mdtensor row has its peer in
//! the same group; where no crate is the peer, a hand-written loop is:
//!
//! * `elementwise_1t` — `c.assign(&a + &b)` vs ndarray's `Zip::for_each`; `a += &b` vs
//!   ndarray's `+=`; `(&a + &b).eval()` vs a hand loop into a fresh huge-page buffer;
//!   `out.assign(&a + &row)` vs a hand loop over row slices.
//! * `mixed_layout_1t` — `c.assign(&a + b.t())` and `c.assign(a.t())` vs hand 8×8-tile
//!   AVX2 loops; `a.t().to_owned()` and `(&a + b.t()).eval()` vs ndarray.
//! * `sum_axis0_1t` — `sum_axis::<0>()` vs ndarray's `sum_axis(Axis(0))`.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkGroup, Criterion, SamplingMode};
use mdtensor::prelude::*;
use mdtensor::Tensor;
use ndarray::{Array1, Array2, Axis};
use std::time::Duration;

const N: usize = 4096;
type Mat = Tensor<f32, ext![_, _]>;

fn value(i: usize, j: usize) -> f32 {
    ((i * 7 + j * 3) % 11) as f32
}
fn value2(i: usize, j: usize) -> f32 {
    ((i * 5 + j * 13) % 7) as f32
}

fn md_mat(f: fn(usize, usize) -> f32) -> Mat {
    Mat::from_fn([N, N], |[i, j]| f(i, j))
}
fn nd_mat(f: fn(usize, usize) -> f32) -> Array2<f32> {
    Array2::from_shape_fn((N, N), |(i, j)| f(i, j))
}

/// Makes rayon's global pool one thread (once per process; later calls find it built).
fn one_thread() {
    let _ = rayon::ThreadPoolBuilder::new().num_threads(1).build_global();
    assert_eq!(rayon::current_num_threads(), 1, "rayon's global pool must have one thread");
}

fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name);
    g.sampling_mode(SamplingMode::Flat);
    g.measurement_time(Duration::from_secs(3));
    g.warm_up_time(Duration::from_secs(1));
    g.sample_size(12);
    g
}

/// A fresh 2 MiB-aligned buffer with huge-page advice, as a careful hand-written program
/// would allocate an output (freed by `HugeBuf::drop`).
struct HugeBuf {
    ptr: *mut f32,
    layout: std::alloc::Layout,
}
impl HugeBuf {
    fn new(n: usize) -> HugeBuf {
        let layout = std::alloc::Layout::from_size_align(n * 4, 2 << 20).expect("layout");
        // SAFETY: non-zero size.
        let ptr = unsafe { std::alloc::alloc(layout) };
        assert!(!ptr.is_null());
        #[cfg(target_os = "linux")]
        // SAFETY: the range is the allocation just made.
        unsafe {
            libc::madvise(ptr.cast(), layout.size(), libc::MADV_HUGEPAGE);
        }
        HugeBuf { ptr: ptr.cast(), layout }
    }
}
impl Drop for HugeBuf {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { std::alloc::dealloc(self.ptr.cast(), self.layout) }
    }
}

fn elementwise_1t(c: &mut Criterion) {
    one_thread();
    let (a, b) = (md_mat(value), md_mat(value2));
    let (na, nb) = (nd_mat(value), nd_mat(value2));
    let row = Tensor::<f32, ext![_]>::from_fn([N], |[j]| value2(0, j));
    let (sa, sb, srow) = (a.as_slice().unwrap(), b.as_slice().unwrap(), row.as_slice().unwrap());

    // Each output starts with the value its rows write, so that the checks after the
    // group hold whichever rows a filter runs.
    let mut out = (&a + &b).eval();
    let mut out_row = (&a + &row).eval();
    let mut nout = &na + &nb;
    let mut acc = a.clone();
    let mut nacc = na.clone();
    let mut hand_row = out_row.to_vec();

    let mut g = group(c, "elementwise_1t");
    {
        g.bench_function("mdtensor_assign", |bch| bch.iter(|| out.assign(black_box(&a) + black_box(&b))));
        g.bench_function("ndarray_zip_assign", |bch| {
            bch.iter(|| {
                ndarray::Zip::from(&mut nout).and(black_box(&na)).and(black_box(&nb)).for_each(|o, &x, &y| *o = x + y)
            })
        });
        g.bench_function("mdtensor_add_assign", |bch| bch.iter(|| acc += black_box(&b)));
        g.bench_function("ndarray_add_assign", |bch| bch.iter(|| nacc += black_box(&nb)));
        g.bench_function("mdtensor_eval", |bch| bch.iter(|| (black_box(&a) + black_box(&b)).eval()));
        g.bench_function("hand_hugepage_eval", |bch| {
            bch.iter(|| {
                let buf = HugeBuf::new(N * N);
                let (x, y) = (black_box(sa), black_box(sb));
                for i in 0..N * N {
                    // SAFETY: i < N², the buffer's length.
                    unsafe { buf.ptr.add(i).write(x[i] + y[i]) };
                }
                buf
            })
        });
        g.bench_function("mdtensor_assign_row", |bch| bch.iter(|| out_row.assign(black_box(&a) + black_box(&row))));
        g.bench_function("hand_row_loop", |bch| {
            bch.iter(|| {
                for (o, x) in hand_row.chunks_exact_mut(N).zip(black_box(sa).chunks_exact(N)) {
                    for ((o, &x), &r) in o.iter_mut().zip(x).zip(srow) {
                        *o = x + r;
                    }
                }
            })
        });
    }
    g.finish();
    // Every row overwrote its output with the same values on each iteration.
    let expect = (&na + &Array1::from_shape_fn(N, |j| value2(0, j))).into_raw_vec_and_offset().0;
    assert!(out_row.as_slice().unwrap() == expect.as_slice() && hand_row == expect);
    assert!(out.as_slice().unwrap() == (&na + &nb).as_slice().unwrap() && nout == &na + &nb);
}

/// `out[i, j] = a[i, j] + b[j, i]` (`b = None`: `out[i, j] = a[j, i]`) in 8×8 tiles
/// transposed in AVX2 registers: the reference loop for mixed layouts.
#[cfg(target_arch = "x86_64")]
mod tiles {
    use std::arch::x86_64::*;

    /// Transposes the 8×8 block of `src` (row stride `ld`) at `p` into 8 registers.
    #[target_feature(enable = "avx2")]
    unsafe fn load_t(p: *const f32, ld: usize) -> [__m256; 8] {
        // SAFETY: the caller guarantees 8 rows of 8 readable floats from `p`.
        unsafe {
            let r: [__m256; 8] = core::array::from_fn(|i| _mm256_loadu_ps(p.add(i * ld)));
            let t0 = _mm256_unpacklo_ps(r[0], r[1]);
            let t1 = _mm256_unpackhi_ps(r[0], r[1]);
            let t2 = _mm256_unpacklo_ps(r[2], r[3]);
            let t3 = _mm256_unpackhi_ps(r[2], r[3]);
            let t4 = _mm256_unpacklo_ps(r[4], r[5]);
            let t5 = _mm256_unpackhi_ps(r[4], r[5]);
            let t6 = _mm256_unpacklo_ps(r[6], r[7]);
            let t7 = _mm256_unpackhi_ps(r[6], r[7]);
            let s0 = _mm256_shuffle_ps::<0x44>(t0, t2);
            let s1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
            let s2 = _mm256_shuffle_ps::<0x44>(t1, t3);
            let s3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
            let s4 = _mm256_shuffle_ps::<0x44>(t4, t6);
            let s5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
            let s6 = _mm256_shuffle_ps::<0x44>(t5, t7);
            let s7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
            [
                _mm256_permute2f128_ps::<0x20>(s0, s4),
                _mm256_permute2f128_ps::<0x20>(s1, s5),
                _mm256_permute2f128_ps::<0x20>(s2, s6),
                _mm256_permute2f128_ps::<0x20>(s3, s7),
                _mm256_permute2f128_ps::<0x31>(s0, s4),
                _mm256_permute2f128_ps::<0x31>(s1, s5),
                _mm256_permute2f128_ps::<0x31>(s2, s6),
                _mm256_permute2f128_ps::<0x31>(s3, s7),
            ]
        }
    }

    /// # Safety
    /// The CPU has AVX2; `a`, `b` and `out` hold n² elements, n a multiple of 8.
    #[target_feature(enable = "avx2")]
    pub unsafe fn add_t(n: usize, a: Option<&[f32]>, b: &[f32], out: &mut [f32]) {
        assert!(n.is_multiple_of(8) && b.len() == n * n && out.len() == n * n);
        for i in (0..n).step_by(8) {
            for j in (0..n).step_by(8) {
                // SAFETY: the tile (i..i+8, j..j+8) and its transpose are inside n×n.
                unsafe {
                    let t = load_t(b.as_ptr().add(j * n + i), n);
                    for (r, &v) in t.iter().enumerate() {
                        let o = out.as_mut_ptr().add((i + r) * n + j);
                        let v = match a {
                            Some(a) => _mm256_add_ps(v, _mm256_loadu_ps(a.as_ptr().add((i + r) * n + j))),
                            None => v,
                        };
                        _mm256_storeu_ps(o, v);
                    }
                }
            }
        }
    }
}

fn mixed_layout_1t(c: &mut Criterion) {
    one_thread();
    let (a, b) = (md_mat(value), md_mat(value2));
    let (na, nb) = (nd_mat(value), nd_mat(value2));
    let mut out = a.t().to_standard_layout();
    let mut out_add = (&a + b.t()).eval();
    let mut hand = vec![0.0f32; N * N];
    let has_avx2 = cfg!(target_arch = "x86_64") && std::arch::is_x86_feature_detected!("avx2");

    let mut g = group(c, "mixed_layout_1t");
    {
        g.bench_function("mdtensor_assign_add_t", |bch| bch.iter(|| out_add.assign(black_box(&a) + black_box(&b).t())));
        #[cfg(target_arch = "x86_64")]
        if has_avx2 {
            let (sa, sb) = (a.as_slice().unwrap(), b.as_slice().unwrap());
            // SAFETY: AVX2 checked; n² elements each, n a multiple of 8.
            unsafe { tiles::add_t(N, Some(sa), sb, &mut hand) };
            assert!(hand == (&na + &nb.t()).into_raw_vec_and_offset().0);
            g.bench_function("hand_tile8_assign_add_t", |bch| {
                bch.iter(|| unsafe { tiles::add_t(N, Some(black_box(sa)), black_box(sb), &mut hand) })
            });
        }
        g.bench_function("mdtensor_assign_t", |bch| bch.iter(|| out.assign(black_box(&a).t())));
        #[cfg(target_arch = "x86_64")]
        if has_avx2 {
            let sa = a.as_slice().unwrap();
            g.bench_function("hand_tile8_assign_t", |bch| {
                // SAFETY: as above.
                bch.iter(|| unsafe { tiles::add_t(N, None, black_box(sa), &mut hand) })
            });
        }
        g.bench_function("mdtensor_t_to_owned", |bch| bch.iter(|| black_box(&a).t().to_owned()));
        g.bench_function("ndarray_t_to_owned", |bch| bch.iter(|| black_box(&na).t().to_owned()));
        g.bench_function("mdtensor_eval_add_t", |bch| bch.iter(|| (black_box(&a) + black_box(&b).t()).eval()));
        g.bench_function("ndarray_add_t", |bch| bch.iter(|| black_box(&na) + &black_box(&nb).t()));
    }
    g.finish();
    let owned = a.t().to_owned();
    assert!((0..N).step_by(97).all(|i| (0..N).step_by(89).all(|j| owned[[i, j]] == na[[j, i]])));
    assert!(out.as_slice().unwrap() == na.t().as_standard_layout().as_slice().unwrap());
    assert!(out_add.as_slice().unwrap() == (&na + &nb.t()).as_slice().unwrap());
}

fn sum_axis0_1t(c: &mut Criterion) {
    one_thread();
    let a = md_mat(value);
    let na = nd_mat(value);
    assert_eq!(a.sum_axis::<0>().as_slice().unwrap(), na.sum_axis(Axis(0)).as_slice().unwrap());
    let mut g = group(c, "sum_axis0_1t");
    {
        g.bench_function("mdtensor", |bch| bch.iter(|| black_box(&a).sum_axis::<0>()));
        g.bench_function("ndarray", |bch| bch.iter(|| black_box(&na).sum_axis(Axis(0))));
    }
    g.finish();
}

criterion_group!(benches, elementwise_1t, mixed_layout_1t, sum_axis0_1t);
criterion_main!(benches);
