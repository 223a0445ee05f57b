//! Behaviour of the compute layer that users rely on: accuracy and determinism of sums,
//! numpy's NaN and empty-input semantics, stable softmax, readable shape errors, static
//! extents in result types, stack tensors in and out, no copies of inputs, aligned
//! results, and serial and parallel evaluation agreeing bit for bit.
//!
//! Tests named `bug_*` are `#[ignore]`d reproductions of known defects.

// Views and stack tensors are `Copy`, so clippy calls `&a + &b` needless; it is the
// crate's documented way to use operands without moving them.
#![allow(clippy::op_ref)]

use mdtensor::ops::{select, Extreme, Sum};
use mdtensor::prelude::*;
use mdtensor::storage::DenseStorage;
use mdtensor::{ColMajor, DynRank, Extents, Heap, Inline, Layout, ShapeError, StackTensor, Tensor};

#[path = "support/alloc_probe.rs"]
mod alloc_probe;

#[global_allocator]
static GLOBAL: alloc_probe::Probe = alloc_probe::Probe;

/// Runs `f` on this thread and returns its result, the bytes it allocated and the number
/// of allocations.
fn allocated<R>(f: impl FnOnce() -> R) -> (R, usize, usize) {
    let (r, seen) = alloc_probe::measure(f);
    (r, seen.bytes, seen.calls)
}

/// The crate's alignment rule for the buffers it allocates: 64-byte aligned from
/// `ALIGNED_FROM_BYTES` up (smaller ones keep the element's own alignment).
fn aligned<T, E: Extents, S: Layout<E>, St: DenseStorage<T>>(t: &Tensor<T, E, S, St>) -> bool {
    let bytes = t.numel() * std::mem::size_of::<T>();
    bytes < mdtensor::alloc::ALIGNED_FROM_BYTES || (t.as_ptr() as usize).is_multiple_of(64)
}

/// Values in [0, 1) from a 64-bit LCG: 24 random bits, exact in `f32`.
fn unit_f32(n: usize, seed: u64) -> Vec<f32> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 40) as f32 / (1u64 << 24) as f32
        })
        .collect()
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
}

// ---------------------------------------------------------------------------------------
// Accuracy and determinism of sums
// ---------------------------------------------------------------------------------------

#[test]
fn f32_sum_of_ten_million_is_accurate_and_thread_count_independent() {
    let n = 10_000_000;
    let data = unit_f32(n, 42);
    let exact: f64 = data.iter().map(|&x| x as f64).sum();
    let rel = |s: f32| ((s as f64 - exact) / exact).abs();
    // The test can fail: a plain running f32 sum is far off.
    let naive = data.iter().fold(0.0f32, |a, &x| a + x);
    assert!(rel(naive) > 1e-5, "the naive sum should be inaccurate: {}", rel(naive));

    let t = Tensor::<f32, ext![_]>::from_vec([n], data);
    let s = t.sum();
    assert!(rel(s) <= 1e-6, "relative error {:e}", rel(s));
    let bits = s.to_bits();
    for threads in [1, 2, 3] {
        let p = pool(threads).install(|| t.sum());
        assert_eq!(p.to_bits(), bits, "sum in a pool of {threads} threads: {p} vs {s}");
    }
    assert_eq!(t.sum_with(Par::Seq).to_bits(), bits);
    assert_eq!(t.sum_with(Par::Rayon).to_bits(), bits);
    assert_eq!(pool(2).install(|| t.sum_with(Par::Rayon)).to_bits(), bits);
}

#[test]
fn f32_sums_of_views_and_axes_are_thread_count_independent() {
    let data = unit_f32(600 * 700, 7);
    let m = Tensor::<f32, ext![_, _]>::from_vec([600, 700], data);
    let view = m.slice(s![..;2, 1..]); // strided: the general path
    let one = pool(1).install(|| (view.sum(), m.sum_axis::<0>(), m.t().sum_axis::<0>(), (&m * 2.0f32).sum()));
    let two = pool(2).install(|| (view.sum(), m.sum_axis::<0>(), m.t().sum_axis::<0>(), (&m * 2.0f32).sum()));
    assert_eq!(one.0.to_bits(), two.0.to_bits());
    assert_eq!(one.1.to_vec(), two.1.to_vec());
    assert_eq!(one.2.to_vec(), two.2.to_vec());
    assert_eq!(one.3.to_bits(), two.3.to_bits());
    let seq = view.try_reduce_with(Sum, Par::Seq).unwrap();
    let par = view.try_reduce_with(Sum, Par::Rayon).unwrap();
    assert_eq!(seq.to_bits(), par.to_bits());
    let seq = m.try_reduce_axis_with::<_, 1>(Sum, Par::Seq).unwrap();
    let par = m.try_reduce_axis_with::<_, 1>(Sum, Par::Rayon).unwrap();
    assert_eq!(seq.to_vec(), par.to_vec());
}

// ---------------------------------------------------------------------------------------
// NaN (numpy semantics)
// ---------------------------------------------------------------------------------------

#[test]
fn nan_propagates_through_min_max_and_sums() {
    let nan = f64::NAN;
    let x = Tensor::<f64, ext![_]>::from_vec([5], vec![1.0, nan, 5.0, nan, -2.0]);
    assert!(x.max().unwrap().is_nan());
    assert!(x.min().unwrap().is_nan());
    assert_eq!(x.argmax(), Some(1), "the first NaN");
    assert_eq!(x.argmin(), Some(1), "the first NaN");
    assert!(x.sum().is_nan());
    assert!(x.mean().is_nan());
    assert!(x.var(0).is_nan());
    // NaN first, and NaN after the extreme.
    let y = Tensor::<f64, ext![_]>::from_vec([3], vec![nan, 10.0, -10.0]);
    assert_eq!((y.argmax(), y.argmin()), (Some(0), Some(0)));
    let z = Tensor::<f32, ext![_]>::from_vec([3], vec![10.0, -10.0, f32::NAN]);
    assert_eq!((z.argmax(), z.argmin()), (Some(2), Some(2)));
    assert!(z.max().unwrap().is_nan());
    // Infinities are ordinary values.
    let w = Tensor::<f64, ext![_]>::from_vec([3], vec![f64::NEG_INFINITY, 1.0, f64::INFINITY]);
    assert_eq!(
        (w.argmax(), w.argmin(), w.max(), w.min()),
        (Some(2), Some(0), Some(f64::INFINITY), Some(f64::NEG_INFINITY))
    );
}

#[test]
fn nan_positions_across_lanes_chunks_and_threads() {
    // Positions beyond the 16 accumulator lanes and the 4096-element chunks: the first NaN
    // still wins, whichever lane or chunk holds it and however many threads run.
    let mut v = vec![0.0f64; 20_000];
    v[19_999] = 100.0;
    v[12_345] = f64::NAN;
    v[17_000] = f64::NAN;
    v[3] = -100.0;
    let t = Tensor::<f64, ext![_]>::from_vec([20_000], v);
    for par in [Par::Seq, Par::Rayon] {
        let (_, pos) = t.try_reduce_with(Extreme::<true>, par).unwrap().unwrap();
        assert_eq!(pos, 12_345, "{par:?}");
        let (_, pos) = t.try_reduce_with(Extreme::<false>, par).unwrap().unwrap();
        assert_eq!(pos, 12_345, "{par:?}");
    }
    assert_eq!(pool(1).install(|| t.argmax()), Some(12_345));
    assert!(t.sum().is_nan());
    let flipped = t.flip_axis(0); // the first NaN from the other end
    assert_eq!(flipped.argmax(), Some(20_000 - 1 - 17_000));
}

#[test]
fn nan_along_axes() {
    let nan = f64::NAN;
    let m = Tensor::<f64, ext![2, 3]>::from_vec(ext![2, 3], vec![1.0, nan, 3.0, 4.0, 5.0, nan]);
    let mx1 = m.max_axis::<1>().to_vec();
    assert!(mx1[0].is_nan() && mx1[1].is_nan());
    let mx0 = m.max_axis::<0>().to_vec();
    assert_eq!(mx0[0], 4.0);
    assert!(mx0[1].is_nan() && mx0[2].is_nan());
    assert_eq!(m.argmax_axis::<1>().to_vec(), [1, 2]);
    assert_eq!(m.argmin_axis::<0>().to_vec(), [0, 0, 1]);
    assert_eq!(m.t().argmin_axis::<1>().to_vec(), [0, 0, 1], "through a transposed view");
    let s = m.sum_axis::<0>().to_vec();
    assert_eq!(s[0], 5.0);
    assert!(s[1].is_nan() && s[2].is_nan());
    // A fiber longer than the lanes, NaN late in it.
    let mut long = vec![1.0f32; 2 * 40];
    long[40 + 33] = f32::NAN;
    long[40 + 35] = 9.0;
    long[7] = 9.0;
    let l = Tensor::<f32, ext![2, 40]>::from_vec(ext![2, 40], long);
    assert_eq!(l.argmax_axis::<1>().to_vec(), [7, 33]);
}

// ---------------------------------------------------------------------------------------
// Empty inputs
// ---------------------------------------------------------------------------------------

#[test]
fn reductions_of_empty_tensors() {
    let e = Tensor::<f64, ext![_]>::zeros([0]);
    assert_eq!(e.sum(), 0.0);
    assert_eq!(e.prod(), 1.0);
    assert_eq!((e.min(), e.max(), e.argmin(), e.argmax()), (None, None, None, None));
    assert!(e.mean().is_nan());
    assert!(e.var(0).is_nan());
    assert!(e.gt(0.0).all());
    assert!(!e.gt(0.0).any());

    let m = Tensor::<i64, ext![_, _]>::zeros([3, 0]);
    assert_eq!((m.sum(), m.prod(), m.max(), m.argmin()), (0, 1, None, None));
    assert_eq!(m.t().sum(), 0);
    assert_eq!(m.sum_axis::<1>().to_vec(), [0, 0, 0]);
    assert_eq!(m.prod_axis::<1>().to_vec(), [1, 1, 1]);
    assert!(m.try_max_axis::<1>().is_err());
    assert!(m.try_min_axis::<1>().is_err());
    assert!(m.try_argmax_axis::<1>().is_err());
    let err = m.try_argmin_axis::<1>().unwrap_err();
    assert!(err.to_string().contains("empty"), "{err}");
    // Reducing the other axis is fine: an empty result, as in numpy.
    assert_eq!(m.max_axis::<0>().shape(), vec![0]);
    assert_eq!(m.argmax_axis::<0>().shape(), vec![0]);
    let f = Tensor::<f64, ext![_, _]>::zeros([3, 0]);
    assert!(f.mean_axis::<1>().iter().all(|x| x.is_nan()));

    let s = Tensor::<f32, ext![0, 4]>::zeros(ext![0, 4]);
    assert_eq!((s.sum(), s.max()), (0.0, None));
    let _: &ext![4] = s.sum_axis::<0>().extents();
    assert_eq!(s.sum_axis::<0>().to_vec(), [0.0; 4]);
    let d = Tensor::<f32, DynRank>::zeros(vec![2, 0, 3]);
    assert_eq!((d.sum(), d.argmax()), (0.0, None));
    assert!(d.try_max_axis::<1>().is_err());
}

#[test]
#[should_panic(expected = "the reduced axis is empty")]
fn max_along_an_empty_axis_panics() {
    let m = Tensor::<i64, ext![_, _]>::zeros([3, 0]);
    let _ = m.max_axis::<1>();
}

#[test]
fn elementwise_operations_on_empty_tensors() {
    let z = Tensor::<i64, ext![_, _]>::zeros([0, 3]);
    let row = Tensor::<i64, ext![_]>::from_vec([3], vec![1, 2, 3]);
    let e = (&z + &row).eval();
    assert_eq!(e.shape(), vec![0, 3]);
    assert!(aligned(&e));
    let mut t = z.clone();
    t += &row;
    t.assign(&row * 2i64);
    assert_eq!(t.shape(), vec![0, 3]);
    assert_eq!(z.matmul(&Tensor::<i64, ext![_, _]>::zeros([3, 2])).shape(), vec![0, 2]);
    // An empty inner dimension: numpy gives zeros.
    let a = Tensor::<f64, ext![_, _]>::zeros([2, 0]);
    let b = Tensor::<f64, ext![_, _]>::zeros([0, 3]);
    assert_eq!(a.matmul(&b).to_vec(), [0.0; 6]);
}

/// Whole reductions of an expression with broadcasting (or of any expression that is not
/// one contiguous block) and no elements panic with "attempt to calculate the remainder
/// with a divisor of zero" in `kernels::elementwise::unravel`: `reduce_all` → `chunk` →
/// `for_each_run(dims, 0, 0)` unravels position 0 in extents containing 0 before checking
/// that the range is empty. Expected: 0 / `None` / NaN, as for empty tensors.
#[test]
fn whole_reduction_of_an_empty_broadcast_expression() {
    let z = Tensor::<i64, ext![_, _]>::zeros([0, 3]);
    let row = Tensor::<i64, ext![_]>::zeros([3]);
    assert_eq!((&z + &row).sum(), 0);
    assert_eq!((&z + &row).max(), None);
    assert_eq!((&z * &row).argmin(), None);
    assert!((&z + &row).gt(0i64).all());
    let f = Tensor::<f64, ext![_, _]>::zeros([0, 3]);
    let frow = Tensor::<f64, ext![_]>::zeros([3]);
    assert!((&f + &frow).mean().is_nan());
}

/// `eval_in` of an empty expression that is not one contiguous block panics the same way
/// (`sequential` → `for_each_run(dims, 0, 0)`); `eval` of the same expression works.
#[test]
fn eval_in_of_an_empty_broadcast_expression() {
    let z = Tensor::<i64, ext![_, _]>::zeros([0, 3]);
    let row = Tensor::<i64, ext![_]>::zeros([3]);
    assert_eq!((&z + &row).eval().shape(), vec![0, 3]);
    let h = (&z + &row).eval_in::<Heap<i64>>();
    assert_eq!(h.shape(), vec![0, 3]);
}

// ---------------------------------------------------------------------------------------
// softmax
// ---------------------------------------------------------------------------------------

#[test]
fn softmax_of_large_inputs_is_finite_and_right() {
    let x = Tensor::<f64, ext![3, 3]>::from_vec(
        ext![3, 3],
        vec![1000.0, -1000.0, 1000.0, -1000.0, -1000.0, -1000.0, 0.0, 1000.0, -1000.0],
    );
    let s = x.softmax::<1>();
    assert!(s.iter().all(|v| v.is_finite()));
    let want = [0.5, 0.0, 0.5, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0, 0.0, 1.0, 0.0];
    for (g, w) in s.to_vec().iter().zip(want) {
        assert!((g - w).abs() <= 1e-15, "{g} vs {w}");
    }
    let l = x.log_softmax::<1>();
    assert!(l.iter().all(|v| v.is_finite()));
    let (ln2, ln3) = (std::f64::consts::LN_2, 3f64.ln());
    let want = [-ln2, -2000.0 - ln2, -ln2, -ln3, -ln3, -ln3, -1000.0, 0.0, -2000.0];
    for (g, w) in l.to_vec().iter().zip(want) {
        assert!((g - w).abs() <= 1e-12 * w.abs().max(1.0), "{g} vs {w}");
    }
    // Along the other axis, through a transposed view, and in f32.
    let s0 = x.t().softmax::<0>();
    let _: &ext![3, 3] = s0.extents();
    assert_eq!(s0.t().to_owned().to_vec(), s.to_vec());
    let f = Tensor::<f32, ext![_]>::from_vec([3], vec![1000.0, -1000.0, 1000.0]);
    assert_eq!(f.softmax::<0>().to_vec(), [0.5, 0.0, 0.5]);
    let g = Tensor::<f32, ext![_]>::from_vec([2], vec![-1000.0, -1000.0]);
    assert_eq!(g.log_softmax::<0>().to_vec(), [-std::f32::consts::LN_2; 2]);
}

// ---------------------------------------------------------------------------------------
// Shape errors
// ---------------------------------------------------------------------------------------

#[test]
fn incompatible_dynamic_broadcast_is_an_error_naming_both_shapes() {
    let a = Tensor::<f64, ext![_, _]>::zeros([2, 3]);
    let b = Tensor::<f64, ext![_]>::zeros([4]);
    let e = (&a + &b).try_eval().unwrap_err();
    assert!(matches!(e, ShapeError::Incompatible { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains("[2, 3]") && msg.contains("[4]"), "{msg}");
    let msg = (&a * 2.0 - &b).try_eval().unwrap_err().to_string();
    assert!(msg.contains("[2, 3]") && msg.contains("[4]"), "{msg}");
    let msg = a.try_zip_with(&b, |x, y| x + y).unwrap_err().to_string();
    assert!(msg.contains("[2, 3]") && msg.contains("[4]"), "{msg}");
    // Dynamic rank, numpy's example: [4, 1, 3] with [5, 1] is fine, [4, 2, 3] is not.
    let c = Tensor::<f64, DynRank>::zeros(vec![4, 1, 3]);
    let d = Tensor::<f64, DynRank>::zeros(vec![5, 1]);
    assert_eq!((&c + &d).eval().shape(), vec![4, 5, 3]);
    let c2 = Tensor::<f64, DynRank>::zeros(vec![4, 2, 3]);
    let msg = (&c2 + &d).try_eval().unwrap_err().to_string();
    assert!(msg.contains("[4, 2, 3]") && msg.contains("[5, 1]"), "{msg}");
    // Static against dynamic: checked when evaluated.
    let s = Tensor::<f64, ext![2, 3]>::zeros(ext![2, 3]);
    let msg = (&s + &b).try_eval().unwrap_err().to_string();
    assert!(msg.contains("[2, 3]") && msg.contains("[4]"), "{msg}");
    // Reductions of such an expression: the same error.
    assert!((&a + &b).try_reduce_with(Sum, Par::Auto).is_err());
}

#[test]
fn assignment_errors_name_both_shapes_and_leave_the_target_alone() {
    let mut t = Tensor::<i64, ext![_, _]>::from_fn([2, 3], |[i, j]| (i * 3 + j) as i64);
    let before = t.to_vec();
    let wide = Tensor::<i64, ext![_]>::zeros([4]);
    let msg = t.try_assign(&wide).unwrap_err().to_string();
    assert!(msg.contains("[2, 3]") && msg.contains("[4]"), "{msg}");
    let msg = t.try_add_assign(&wide * 2i64).unwrap_err().to_string();
    assert!(msg.contains("[2, 3]") && msg.contains("[4]"), "{msg}");
    assert_eq!(t.to_vec(), before);
    // A right-hand side with more axes cannot shrink into the target (dynamic rank: an
    // error; static rank: a compile error).
    let mut d = Tensor::<i64, DynRank>::ones(vec![2, 3]);
    let deeper = Tensor::<i64, DynRank>::zeros(vec![1, 2, 3]);
    let msg = d.try_mul_assign(&deeper).unwrap_err().to_string();
    assert!(msg.contains("[2, 3]") && msg.contains("[1, 2, 3]"), "{msg}");
    assert_eq!(d.to_vec(), [1; 6]);
}

#[test]
#[should_panic(expected = "[2, 3]")]
fn eval_of_incompatible_shapes_panics_naming_them() {
    let a = Tensor::<f64, ext![_, _]>::zeros([2, 3]);
    let b = Tensor::<f64, ext![_]>::zeros([4]);
    let _ = (&a + &b).eval();
}

#[test]
fn matmul_inner_mismatch_is_an_error() {
    let a = Tensor::<f64, ext![_, _]>::zeros([2, 3]);
    let b = Tensor::<f64, ext![_, _]>::zeros([4, 5]);
    let msg = a.try_matmul(&b).unwrap_err().to_string();
    assert!(msg.contains("inner dimensions 3 and 4 differ"), "{msg}");
    assert!(msg.contains("[2, 3]") && msg.contains("[4, 5]"), "{msg}");
    let v = Tensor::<f64, ext![_]>::zeros([4]);
    assert!(a.try_matmul(&v).unwrap_err().to_string().contains("inner dimensions 3 and 4 differ"));
    let batch = Tensor::<f64, ext![_, _, _]>::zeros([2, 2, 3]);
    let other = Tensor::<f64, ext![_, _, _]>::zeros([3, 3, 1]);
    let msg = batch.try_matmul(&other).unwrap_err().to_string();
    assert!(msg.contains("batch"), "{msg}");
}

#[test]
#[should_panic(expected = "inner dimensions 3 and 4 differ")]
fn matmul_inner_mismatch_panics() {
    let a = Tensor::<f64, ext![_, _]>::zeros([2, 3]);
    let b = Tensor::<f64, ext![_, _]>::zeros([4, 5]);
    let _ = a.matmul(&b);
}

#[test]
#[should_panic(expected = "inner dimensions 3 and 4 differ")]
fn matmul_inner_mismatch_of_static_and_dynamic_panics() {
    let a = Tensor::<f64, ext![2, 3]>::zeros(ext![2, 3]);
    let b = Tensor::<f64, ext![_, 5]>::zeros([4, 5]);
    let _ = a.matmul(&b);
}

// ---------------------------------------------------------------------------------------
// Static extents in result types
// ---------------------------------------------------------------------------------------

#[test]
fn static_extents_flow_into_result_types() {
    let a = Tensor::<f64, ext![3, 4]>::from_fn(ext![3, 4], |[i, j]| (i + j) as f64);
    let b = Tensor::<f64, ext![4, 3]>::from_fn(ext![4, 3], |[i, j]| (i * j) as f64);
    let p = a.matmul(&b);
    let _: &ext![3, 3] = p.extents();
    assert_eq!(p[[2, 2]], (0..4).map(|k| ((2 + k) * (k * 2)) as f64).sum::<f64>());
    let t = Tensor::<i32, ext![4, 3]>::from_fn(ext![4, 3], |[i, j]| (i * 3 + j) as i32);
    let s = t.sum_axis::<0>();
    let _: &ext![3] = s.extents();
    assert_eq!(s.to_vec(), [18, 22, 26]);
    let _: &ext![4] = t.argmax_axis::<1>().extents();
    let _: &ext![1, 3] = t.sum_axis::<0>().keepdims::<0>().extents();
    // Broadcasting: ext![2, 1] with ext![3] gives ext![2, 3].
    let x = Tensor::<f32, ext![2, 1]>::from_vec(ext![2, 1], vec![1.0, 2.0]);
    let y = Tensor::<f32, ext![3]>::from_vec(ext![3], vec![10.0, 20.0, 30.0]);
    let z = (&x + &y).eval();
    let _: &ext![2, 3] = z.extents();
    assert_eq!(z.to_vec(), [11.0, 21.0, 31.0, 12.0, 22.0, 32.0]);
    let _: &ext![2, 3] = x.zip_with(&y, |a, b| a * b).extents();
    let _: &Tensor<bool, ext![2, 3]> = &x.gt(&y).eval();
    let _: &Tensor<i32, ext![2, 3]> = &(&x * &y).cast::<i32>().eval();
    let _: &ext![2, 3] = select(x.gt(&y), &x, &y).eval().extents();
    // Mixed static and dynamic axes: a static extent wins over a dynamic one.
    let m = Tensor::<f32, ext![2, _]>::zeros([2, 5]);
    let v = Tensor::<f32, ext![_]>::zeros([5]);
    let _: &ext![2, _] = (&m + &v).eval().extents();
    let col = Tensor::<f32, ext![_, 1]>::zeros([4, 1]);
    let _: &ext![_, 3] = (&col + &y).eval().extents();
    let _: &ext![2, _] = (&Tensor::<f32, ext![_, _]>::zeros([2, 3]) + &x).eval().extents();
    // Products of every shape rule.
    let _: &ext![3] = a.matmul(&Tensor::<f64, ext![4]>::zeros(ext![4])).extents();
    let _: &ext![4] = Tensor::<f64, ext![3]>::zeros(ext![3]).matmul(&a).extents();
    let _: &ext![2, 3, 5] = Tensor::<f64, ext![2, 3, 4]>::zeros(ext![2, 3, 4])
        .matmul(&Tensor::<f64, ext![4, 5]>::zeros(ext![4, 5]))
        .extents();
    let _: &ext![2, 3, 5] = Tensor::<f64, ext![1, 3, 4]>::zeros(ext![1, 3, 4])
        .matmul(&Tensor::<f64, ext![2, 4, 5]>::zeros(ext![2, 4, 5]))
        .extents();
    let o = Tensor::<i32, ext![2]>::from_vec(ext![2], vec![1, 2])
        .outer(&Tensor::<i32, ext![3]>::from_vec(ext![3], vec![1, 2, 3]));
    let _: &ext![2, 3] = o.extents();
    let _: &ext![3, 4] = a.softmax::<1>().extents();
}

/// numpy's `sum(x, axis=0, keepdims=True)` of a vector gives shape `(1,)`. With dynamic
/// rank this works; with a rank-1 tuple (`ext![_]`, `ext![5]`) `keepdims::<0>()` does not
/// compile, because `()` has no `InsertAxis<0, _>` (the rank-0 arm of `axis_impls!` in
/// `extents/axis.rs` emits nothing), so neither does `unsqueeze::<0>()` of a rank-0
/// tensor.
#[test]
fn keepdims_after_reducing_a_vector() {
    let v = Tensor::<f64, DynRank>::from_vec(vec![3], vec![1.0, 2.0, 3.0]);
    let k = v.sum_axis::<0>().keepdims::<0>();
    assert_eq!((k.shape(), k.to_vec()), (vec![1], vec![6.0]));
    // Static rank too: the sum of a vector has extents `()`, and keepdims gives `ext![1]`.
    let t = Tensor::<f64, ext![_]>::from_vec([3], vec![1.0, 2.0, 3.0]);
    let k: Tensor<f64, ext![1]> = t.sum_axis::<0>().keepdims::<0>();
    assert_eq!(k.to_vec(), [6.0]);
}

// ---------------------------------------------------------------------------------------
// Stack tensors
// ---------------------------------------------------------------------------------------

#[test]
fn stack_tensor_operands_give_stack_results_without_allocating() {
    let a = StackTensor::<f32, ext![4, 4]>::from_fn(ext![4, 4], |[i, j]| (i * 4 + j) as f32);
    let b = StackTensor::<f32, ext![4, 4]>::from_fn(ext![4, 4], |[i, j]| if i == j { 2.0 } else { (i + j) as f32 });
    let ((c, d, v), bytes, calls) = allocated(|| {
        let c: StackTensor<f32, ext![4, 4]> = a.matmul(&b);
        let d = (&a + &b).eval_in::<Inline<f32, _>>();
        let v: StackTensor<f32, ext![4]> = a.matmul(&StackTensor::<f32, ext![4]>::ones(ext![4]));
        (c, d, v)
    });
    assert_eq!((bytes, calls), (0, 0), "stack operands and results must not touch the heap");
    let _: &StackTensor<f32, ext![4, 4]> = &d;
    for i in 0..4 {
        for j in 0..4 {
            let want: f32 = (0..4).map(|k| a[[i, k]] * b[[k, j]]).sum();
            assert_eq!(c[[i, j]], want);
            assert_eq!(d[[i, j]], a[[i, j]] + b[[i, j]]);
        }
        assert_eq!(v[[i]], (0..4).map(|k| a[[i, k]]).sum::<f32>());
    }
    // A transposed stack operand, and an expression with broadcasting into a stack result.
    let at = a.reversed_axes(); // an owned column-major stack tensor (a copy: stack tensors are `Copy`)
    let (e, bytes, _) = allocated(|| -> StackTensor<f32, ext![4, 4]> { at.matmul(&b) });
    assert_eq!(bytes, 0);
    assert_eq!(e[[1, 2]], (0..4).map(|k| a[[k, 1]] * b[[k, 2]]).sum::<f32>());
    let row = StackTensor::<f32, ext![4]>::ones(ext![4]);
    let f: StackTensor<f32, ext![4, 4]> = (&a * 2.0f32 - &row).eval_in::<Inline<f32, _>>();
    assert_eq!(f[[3, 3]], 29.0);
}

// ---------------------------------------------------------------------------------------
// Views are read in place; results are aligned
// ---------------------------------------------------------------------------------------

#[test]
fn views_share_memory_and_expressions_never_copy_them() {
    let (rows, cols) = (500, 400);
    let a = Tensor::<f64, ext![_, _]>::from_fn([rows, cols], |[i, j]| (i * cols + j) as f64);
    let b = Tensor::<f64, ext![_, _]>::from_fn([cols, rows], |[i, j]| (i + j) as f64);
    let row = Tensor::<f64, ext![_]>::from_fn([cols], |[j]| j as f64);
    // Views point into their source.
    let p = a.as_ptr();
    assert_eq!(a.t().as_ptr(), p);
    assert_eq!(a.slice(s![1.., ..;2]).as_ptr(), p.wrapping_add(cols));
    assert_eq!(a.flip_axis(0).as_ptr(), p.wrapping_add((rows - 1) * cols));
    assert_eq!(row.broadcast_to::<ext![_, _]>([rows, cols]).as_ptr(), row.as_ptr());
    // Evaluating views allocates the result and a little bookkeeping, never a copy of an
    // input (each input is 1.6 MB).
    let input = rows * cols * 8;
    let bt = b.t();
    let (r, bytes, _) = allocated(|| (&a * 2.0 + &bt - &row).try_eval_with(Par::Seq).unwrap());
    assert!(bytes < input + (64 << 10), "{bytes} bytes allocated for a {input}-byte result");
    assert_eq!(r[[3, 7]], (3 * cols + 7) as f64 * 2.0 + (7 + 3) as f64 - 7.0);
    let flipped = a.flip_axis(1);
    let (s, bytes, _) = allocated(|| (&flipped * &bt).try_reduce_with(Sum, Par::Seq).unwrap());
    assert!(bytes < 64 << 10, "{bytes} bytes allocated by a reduction of views");
    assert!(s > 0.0);
    let sliced = a.slice(s![..;2, ..]);
    let (m, bytes, _) = allocated(|| sliced.try_reduce_axis_with::<_, 0>(Sum, Par::Seq).unwrap());
    assert!(bytes < cols * 8 + (64 << 10), "{bytes} bytes allocated by an axis reduction of a view");
    assert_eq!(m.shape(), vec![cols]);
    let ai = Tensor::<i64, ext![_, _]>::from_fn([60, 50], |[i, j]| (i + 2 * j) as i64);
    let at = ai.t();
    let (prod, bytes, _) = allocated(|| at.try_matmul_with(&ai, Par::Seq).unwrap());
    assert!(bytes < 50 * 50 * 8 + (16 << 10), "{bytes} bytes allocated by a product of views");
    assert_eq!(prod[[1, 2]], (0..60).map(|k| (k + 2) * (k + 4)).sum::<i64>());
    // Writes through mutable views land in the source.
    let mut t = Tensor::<i64, ext![_, _]>::zeros([3, 4]);
    t.t_mut().assign(&Tensor::<i64, ext![_]>::from_vec([3], vec![1, 2, 3])); // row i of t is i + 1
    let mut odd = t.slice_mut(s![.., 1..;2]);
    odd += 10i64;
    assert_eq!(t.to_vec(), [1, 11, 1, 11, 2, 12, 2, 12, 3, 13, 3, 13]);
}

#[test]
fn results_are_64_byte_aligned_from_the_threshold_up() {
    // 1024 `f32` are the 4 KiB threshold; 1023 fall just short of it.
    for n in [0usize, 1, 3, 17, 1000, 1023, 1024, 70_001] {
        let a = Tensor::<f32, ext![_]>::from_fn([n], |[i]| i as f32);
        let m = Tensor::<u8, ext![_, _]>::from_fn([std::cmp::min(n, 50), 3], |[i, j]| ((i + j) % 2) as u8);
        assert!(aligned(&(&a + 1.0f32).eval()), "eval of {n}");
        assert!(aligned(&(&a * &a).try_eval_with(Par::Rayon).unwrap()), "parallel eval of {n}");
        assert!(aligned(&a.flip_axis(0).mapv(|x| x * 2.0)), "mapv of {n}");
        assert!(aligned(&a.map(|&x| x as f64)), "map of {n}");
        assert!(aligned(&a.zip_with(&a, |x, y| x - y)), "zip_with of {n}");
        assert!(aligned(&a.gt(0.5f32).eval()), "bool eval of {n}");
        assert!(aligned(&a.cast::<i8>().eval()), "cast of {n}");
        assert!(aligned(&(&m + 1u8).eval()), "u8 eval of {n}");
        assert!(aligned(&m.sum_axis::<0>()), "sum_axis of {n}");
        assert!(aligned(&m.t().argmax_axis::<0>()), "argmax_axis of {n}");
        assert!(aligned(&m.sum_axis::<1>().keepdims::<1>()), "keepdims of {n}");
        assert!(aligned(&a.softmax::<0>()), "softmax of {n}");
        assert!(aligned(&a.outer(&a.slice(s![..3;2]))), "outer of {n}");
        let sq =
            Tensor::<f64, ext![_, _]>::from_fn([std::cmp::min(n, 40), std::cmp::min(n, 40)], |[i, j]| (i + j) as f64);
        assert!(aligned(&sq.matmul(&sq.t())), "matmul of {n}");
    }
}

// ---------------------------------------------------------------------------------------
// Serial and parallel evaluation
// ---------------------------------------------------------------------------------------

#[test]
fn serial_and_parallel_evaluation_agree_bit_for_bit() {
    let n = 300;
    let a = Tensor::<f32, ext![_, _]>::from_fn([n, n], |[i, j]| ((i * 31 + j * 17) % 101) as f32 / 7.0 - 5.0);
    let b = Tensor::<f32, ext![_, _], ColMajor>::from_fn([n, n], |[i, j]| ((i * 13 + j * 5) % 89) as f32 / 11.0);
    let row = Tensor::<f32, ext![_]>::from_fn([n], |[j]| j as f32 / 300.0);
    let (bt, af) = (b.t(), a.flip_axis(0));
    let expr = || ((&a * 2.0f32 + &bt).exp() / (&b - &row + 10.0f32)).tanh() - &af;
    let seq = expr().try_eval_with(Par::Seq).unwrap();
    let par = expr().try_eval_with(Par::Rayon).unwrap();
    let auto = expr().eval();
    let one = pool(1).install(|| expr().eval());
    let bits = |t: &Tensor<f32, ext![_, _]>| t.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    assert_eq!(bits(&seq), bits(&par));
    assert_eq!(bits(&seq), bits(&auto));
    assert_eq!(bits(&seq), bits(&one));
    // The same formula element by element.
    for (i, j) in [(0, 0), (17, 250), (299, 1), (150, 150)] {
        let want = ((a[[i, j]] * 2.0 + b[[j, i]]).exp() / (b[[i, j]] - row[[j]] + 10.0)).tanh() - a[[n - 1 - i, j]];
        assert_eq!(seq[[i, j]].to_bits(), want.to_bits(), "({i}, {j})");
    }
    // Assignment (parallel under `Par::Auto` at this size) into a column-major target.
    let mut out = Tensor::<f32, ext![_, _], ColMajor>::zeros([n, n]);
    out.assign(expr());
    assert_eq!(out.iter().map(|x| x.to_bits()).collect::<Vec<u32>>(), bits(&seq));
    out -= &seq;
    assert!(out.iter().all(|&x| x == 0.0));
    // Parallel and serial products agree exactly for integers and closely for floats.
    let ai = Tensor::<i64, ext![_, _]>::from_fn([n, 64], |[i, j]| ((i * 7 + j) % 13) as i64 - 6);
    let pi = ai.try_matmul_with(&ai.t(), Par::Rayon).unwrap();
    assert_eq!(pi.to_vec(), ai.try_matmul_with(&ai.t(), Par::Seq).unwrap().to_vec());
}

/// `try_eval_in` into an `Inline` array of the wrong length is an error, as it should be,
/// but its message reports the element count as both what is needed and what was given:
/// "eval_in: extents [4, 4] need 16 elements but 16 were given" (`ops/eval.rs` builds
/// `LengthMismatch { expected: n, found: n }`). Expected: the storage's capacity (8) as
/// `found`.
#[test]
fn eval_in_capacity_error_reports_the_storage_length() {
    let a = StackTensor::<f32, ext![4, 4]>::zeros(ext![4, 4]);
    let err = (&a + 1.0f32).try_eval_in::<Inline<f32, ext![2, 4]>>().unwrap_err();
    assert!(err.to_string().contains("but 8 were given"), "{err}");
}

#[test]
fn cross_products_static_dynamic_and_errors() {
    use mdtensor::StackTensor;
    let a = StackTensor::<i64, ext![3]>::from_slice(ext![3], &[2, 3, 4]);
    let b = StackTensor::<i64, ext![3]>::from_slice(ext![3], &[5, 6, 7]);
    let c: StackTensor<i64, ext![3]> = a.cross(&b); // stack operands give a stack result
    assert_eq!(c.to_vec(), [3 * 7 - 4 * 6, 4 * 5 - 2 * 7, 2 * 6 - 3 * 5]);
    // Anti-commutative, and orthogonal to both operands.
    assert_eq!(b.cross(&a).to_vec(), c.to_vec().iter().map(|x| -x).collect::<Vec<_>>());
    assert_eq!((c.dot(&a), c.dot(&b)), (0, 0));
    let d = Tensor::<i64, ext![_]>::from_vec([3], vec![2, 3, 4]);
    assert_eq!(d.cross(&b).to_vec(), c.to_vec());
    let e = Tensor::<i64, ext![_]>::from_vec([4], vec![1, 2, 3, 4]);
    let err = e.try_cross(&b).unwrap_err().to_string();
    assert!(err.contains("length 3") && err.contains("4"), "{err}");
}

/// A scalar literal on the left of an operator takes the elements' type (`2.0 / &t` with
/// `f32` or `f64` elements, `1 - &t` with integers, a real beside complex elements), as
/// numpy's `2.0 / t` does, and computes what the typed scalar computes.
#[test]
fn scalar_literals_on_the_left_infer_their_type() {
    use mdtensor::num_complex::Complex;
    let t = Tensor::<f64, mdtensor::ext![3]>::from_fn(mdtensor::ext![3], |[i]| i as f64 + 1.0);
    assert_eq!((2.0 / &t).eval().to_vec(), [2.0, 1.0, 2.0 / 3.0]);
    assert_eq!((1.0 - &t * &t).eval().to_vec(), [0.0, -3.0, -8.0]);
    assert_eq!((2.0 * (&t + 1.0)).eval().to_vec(), [4.0, 6.0, 8.0]);
    assert_eq!((3.0 - -&t).eval().to_vec(), [4.0, 5.0, 6.0]);
    let s = t.mapv(|x| x as f32);
    assert_eq!((2.0 / &s).eval().to_vec(), [2.0_f32, 1.0, 2.0 / 3.0]);
    assert_eq!((0.5 * s.clone()).eval().to_vec(), [0.5_f32, 1.0, 1.5]);
    let i = t.mapv(|x| x as i64);
    assert_eq!((10 % &i).eval().to_vec(), [0, 0, 1]);
    assert_eq!((1 - &i).eval().to_vec(), [0, -1, -2]);
    let z = t.mapv(|x| Complex::new(x, -x));
    assert_eq!((2.0 * &z).eval().to_vec()[1], Complex::new(4.0, -4.0));
    assert_eq!((Complex::new(0.0, 1.0) * &t).eval().to_vec()[0], Complex::new(0.0, 1.0));
    let d = t.clone().into_dyn();
    assert_eq!((2.0 / &d).eval().to_vec(), (2.0_f64 / &t).eval().to_vec());
}
