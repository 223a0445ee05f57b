//! The matrix-product kernel (`kernels::gemm`) through `matmul`: every size around the
//! blocking edges of the micro-kernels (tile rows and columns, depth blocks), operands in
//! every layout (row-major, transposed, flipped, stepped views), against a plain triple
//! loop; and results bit-identical whatever the thread count.
//!
//! Inputs are small integers, so every product and partial sum is exact in `f32` and the
//! comparison with the reference is `==`. Under Miri the blocking constants are tiny
//! (`kernels::gemm`), so small sizes reach the same edges.

use mdtensor::exec::par::Par;
use mdtensor::prelude::*;
use mdtensor::{s, Tensor};
use proptest::prelude::*;

mod common;

type Mat<T> = Tensor<T, ext![_, _]>;

/// How an operand is stored: its view has the same logical values in every case.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Lay {
    Row,
    /// `.t()` of the transpose: column-major strides.
    Trans,
    /// `.flip_axis(0)` / `.flip_axis(1)` of the data reversed: a negative stride.
    FlipRows,
    FlipCols,
    /// `s![..;2, 1..]` of a larger tensor: row stride twice the width plus one.
    Step,
}
const LAYS: [Lay; 5] = [Lay::Row, Lay::Trans, Lay::FlipRows, Lay::FlipCols, Lay::Step];

/// The storage behind a `rows × cols` operand of values `f(i, j)` laid out as `lay`.
fn store<T: Copy + From<i8>>(lay: Lay, rows: usize, cols: usize, f: impl Fn(usize, usize) -> T) -> Mat<T> {
    match lay {
        Lay::Row => Mat::from_fn([rows, cols], |[i, j]| f(i, j)),
        Lay::Trans => Mat::from_fn([cols, rows], |[j, i]| f(i, j)),
        Lay::FlipRows => Mat::from_fn([rows, cols], |[i, j]| f(rows - 1 - i, j)),
        Lay::FlipCols => Mat::from_fn([rows, cols], |[i, j]| f(i, cols - 1 - j)),
        Lay::Step => Mat::from_fn([2 * rows, cols + 1], |[i, j]| {
            if i % 2 == 0 && j > 0 {
                f(i / 2, j - 1)
            } else {
                T::from(99) // never read
            }
        }),
    }
}

/// Runs `$body` with `$v` bound to the view of `$st` that `$lay` describes.
macro_rules! with_view {
    ($lay:expr, $st:expr, |$v:ident| $body:expr) => {
        match $lay {
            Lay::Row => {
                let $v = $st.view();
                $body
            }
            Lay::Trans => {
                let $v = $st.t();
                $body
            }
            Lay::FlipRows => {
                let $v = $st.flip_axis(0);
                $body
            }
            Lay::FlipCols => {
                let $v = $st.flip_axis(1);
                $body
            }
            Lay::Step => {
                let $v = $st.slice(s![..;2, 1..]);
                $body
            }
        }
    };
}

/// Small signed integers with no pattern that lines up with the tile sizes.
fn ival(seed: usize, i: usize, j: usize) -> i8 {
    ((i * 7 + j * 13 + seed * 5 + (i * j) % 5) % 11) as i8 - 5
}

/// `A·B` in the layouts given, as a row-major `m × n` vector, next to the plain triple loop.
fn product<T>(m: usize, k: usize, n: usize, la: Lay, lb: Lay, par: Par) -> (Vec<T>, Vec<T>)
where
    T: mdtensor::ops::GemmElem + From<i8> + PartialEq + core::fmt::Debug,
{
    let a = store(la, m, k, |i, p| T::from(ival(1, i, p)));
    let b = store(lb, k, n, |p, j| T::from(ival(2, p, j)));
    let got = with_view!(la, a, |av| with_view!(lb, b, |bv| {
        assert_eq!(av.dims(), [m, k]);
        assert_eq!(bv.dims(), [k, n]);
        av.try_matmul_with(&bv, par).unwrap().to_vec()
    }));
    let mut want = vec![T::zero(); m * n];
    for i in 0..m {
        for j in 0..n {
            let mut acc = T::zero();
            for p in 0..k {
                acc = acc + T::from(ival(1, i, p)) * T::from(ival(2, p, j));
            }
            want[i * n + j] = acc;
        }
    }
    (got, want)
}

/// Sizes around the tile edges: AVX-512 tiles are 12 × 32 (f32) and 12 × 16 (f64), depth
/// blocks 256. Under Miri the portable kernel's: tiles 4 × 8, blocks of 9 rows, 17
/// columns and depth 5.
fn edge_sizes() -> Vec<usize> {
    if cfg!(miri) {
        vec![3, 9, 18]
    } else {
        vec![1, 3, 11, 12, 13, 16, 17, 31, 32, 33, 47, 64, 70]
    }
}

fn check_edges<T>()
where
    T: mdtensor::ops::GemmElem + From<i8> + PartialEq + core::fmt::Debug,
{
    let sizes = edge_sizes();
    let ks: &[usize] = if cfg!(miri) { &[1, 5, 11] } else { &[1, 7, 255, 256, 257, 600] };
    for &m in &sizes {
        for &n in &sizes {
            for &k in ks {
                for par in [Par::Seq, Par::Rayon] {
                    let (got, want) = product::<T>(m, k, n, Lay::Row, Lay::Row, par);
                    assert_eq!(got, want, "{m}×{k}·{k}×{n} row-major, {par:?}");
                }
            }
        }
    }
}

#[test]
fn f32_every_edge_against_the_triple_loop() {
    check_edges::<f32>();
}

#[test]
fn f64_every_edge_against_the_triple_loop() {
    check_edges::<f64>();
}

/// Every pair of layouts, on sizes past the small-product loop with ragged edges: with a
/// depth of one block (operands read in place) and of two (packed).
#[test]
fn every_operand_layout() {
    let shapes: &[(usize, usize, usize)] =
        if cfg!(miri) { &[(7, 4, 10), (7, 6, 10)] } else { &[(45, 100, 77), (45, 261, 77)] };
    for &(m, k, n) in shapes {
        for la in LAYS {
            for lb in LAYS {
                for par in [Par::Seq, Par::Rayon] {
                    let (got, want) = product::<f32>(m, k, n, la, lb, par);
                    assert_eq!(got, want, "f32 A {la:?}, B {lb:?}, {par:?}");
                    let (got, want) = product::<f64>(n, k, m, la, lb, par);
                    assert_eq!(got, want, "f64 A {la:?}, B {lb:?}, {par:?}");
                }
            }
        }
    }
}

/// Tall and wide products (the threads split the longer side of C) and inner dimension 0.
#[test]
fn tall_wide_and_empty_inner() {
    let shapes: &[(usize, usize, usize)] = if cfg!(miri) {
        &[(40, 3, 2), (2, 3, 40), (1, 30, 9)]
    } else {
        &[(1000, 40, 3), (3, 40, 1000), (1, 1000, 700), (700, 1000, 1), (2, 3000, 2)]
    };
    for &(m, k, n) in shapes {
        for par in [Par::Seq, Par::Rayon] {
            let (got, want) = product::<f32>(m, k, n, Lay::Trans, Lay::Row, par);
            assert_eq!(got, want, "{m}×{k}·{k}×{n}, {par:?}");
        }
    }
    let a = Mat::<f64>::zeros([300, 0]);
    let b = Mat::<f64>::zeros([0, 200]);
    let c = a.try_matmul_with(&b, Par::Rayon).unwrap();
    assert_eq!(c.dims(), [300, 200]);
    assert!(c.iter().all(|&x| x == 0.0), "an empty sum is zero");
}

/// Values whose sums round: the order of the additions shows in the bits, and it must not
/// depend on the threads (splits are over rows and columns of C, never the depth).
#[test]
fn bit_identical_across_thread_counts() {
    let sizes: &[(usize, usize, usize)] =
        if cfg!(miri) { &[(9, 11, 13)] } else { &[(64, 64, 64), (200, 300, 100), (257, 513, 129), (31, 700, 500)] };
    let x = |i: usize, j: usize| ((i * 31 + j * 17) as f64 * 0.618).sin() / 3.0;
    for &(m, k, n) in sizes {
        let a32 = Mat::<f32>::from_fn([m, k], |[i, p]| x(i, p) as f32);
        let b32 = Mat::<f32>::from_fn([k, n], |[p, j]| x(p + 5, j) as f32);
        let a64 = Mat::<f64>::from_fn([m, k], |[i, p]| x(i, p));
        let b64 = Mat::<f64>::from_fn([k, n], |[p, j]| x(p + 5, j));
        let bits32 = |par: Par| a32.try_matmul_with(&b32, par).unwrap().iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        let bits64 = |par: Par| a64.try_matmul_with(&b64, par).unwrap().iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        let (s32, s64) = (bits32(Par::Seq), bits64(Par::Seq));
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| {
                for par in [Par::Rayon, Par::Auto] {
                    assert!(bits32(par) == s32, "f32 {m}×{k}·{k}×{n}: {threads} threads, {par:?}");
                    assert!(bits64(par) == s64, "f64 {m}×{k}·{k}×{n}: {threads} threads, {par:?}");
                }
            });
        }
        // And the values are the product (to rounding).
        let c = a64.matmul(&b64);
        for (i, j) in [(0, 0), (m - 1, n - 1), (m / 2, n / 3)] {
            let want: f64 = (0..k).map(|p| x(i, p) * x(p + 5, j)).sum();
            assert!((c[[i, j]] - want).abs() < 1e-12 * k as f64, "({i}, {j})");
        }
    }
}

/// A batched product through the kernel, and `matmul_into` a column-major output (the
/// product goes through a row-major buffer and is copied in).
#[test]
fn batched_and_into_a_transposed_output() {
    let (b, m, k, n) = if cfg!(miri) { (2, 5, 6, 7) } else { (3, 40, 50, 60) };
    let a = Tensor::<f32, ext![_, _, _]>::from_fn([b, m, k], |[q, i, p]| ival(q, i, p) as f32);
    let w = Mat::<f32>::from_fn([k, n], |[p, j]| ival(9, p, j) as f32);
    let c = a.matmul(&w);
    let mut out = Mat::<f32>::zeros([n, m]);
    a.slice(s![1, .., ..]).matmul_into(&w, &mut out.t_mut());
    for q in 0..b {
        for i in 0..m {
            for j in 0..n {
                let want: f32 = (0..k).map(|p| (ival(q, i, p) * ival(9, p, j)) as f32).sum();
                assert_eq!(c[[q, i, j]], want, "batch {q} ({i}, {j})");
                if q == 1 {
                    assert_eq!(out[[j, i]], want, "into ({i}, {j})");
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(common::config())]

    /// Random shapes (past the small-product loop) and layouts against the triple loop.
    #[test]
    fn random_shapes_and_layouts(
        m in 1usize..if cfg!(miri) { 12 } else { 90 },
        k in 1usize..if cfg!(miri) { 12 } else { 300 },
        n in 1usize..if cfg!(miri) { 12 } else { 90 },
        la in 0usize..5,
        lb in 0usize..5,
        rayon in any::<bool>(),
        double in any::<bool>(),
    ) {
        let par = if rayon { Par::Rayon } else { Par::Seq };
        if double {
            let (got, want) = product::<f64>(m, k, n, LAYS[la], LAYS[lb], par);
            prop_assert_eq!(got, want);
        } else {
            let (got, want) = product::<f32>(m, k, n, LAYS[la], LAYS[lb], par);
            prop_assert_eq!(got, want);
        }
    }
}
