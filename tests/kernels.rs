//! Drives every `unsafe` path of the compute kernels at sizes just past their thresholds,
//! small enough to run under Miri (`cargo +nightly miri test --test kernels`): flat,
//! strided, tiled and parallel elementwise evaluation, compound stores, inline results,
//! serial and parallel reductions, both matrix-product paths and the row split.

use mdtensor::prelude::*;
use mdtensor::{ColMajor, Par, StackTensor, Tensor};

fn grid(rows: usize, cols: usize) -> Tensor<i64, ext![_, _]> {
    Tensor::<i64, ext![_, _]>::from_fn([rows, cols], |[i, j]| (i * 131 + j * 7) as i64 % 97 - 40)
}

/// More than one parallel chunk (16384 elements; 64 under Miri, which shrinks the chunks).
const ROWS: usize = if cfg!(miri) { 9 } else { 129 };
const COLS: usize = if cfg!(miri) { 15 } else { 255 };

#[test]
fn elementwise_paths_agree_with_a_reference() {
    let a = grid(ROWS, COLS);
    let b = grid(COLS, ROWS); // read transposed: the tiled path
    let col = Tensor::<i64, ext![_, 1]>::from_fn([ROWS, 1], |[i, _]| i as i64); // zero inner stride
    let want = |i: usize, j: usize| a[[i, j]] * 3 + b[[j, i]] - col[[i, 0]];
    for par in [Par::Seq, Par::Rayon] {
        let flat = (&a * 3).try_eval_with(par).unwrap();
        let mixed = (&a * 3 + b.t() - &col).try_eval_with(par).unwrap();
        for i in 0..ROWS {
            for j in 0..COLS {
                assert_eq!(flat[[i, j]], a[[i, j]] * 3);
                assert_eq!(mixed[[i, j]], want(i, j), "({i}, {j}) with {par:?}");
            }
        }
    }
}

#[test]
fn stores_into_strided_and_transposed_destinations() {
    let a = grid(ROWS, COLS);
    let mut d = Tensor::<i64, ext![_, _], ColMajor>::zeros([ROWS, COLS]); // output not row-major
    d.assign(&a);
    d += &a; // read-modify-write through the same positions
    let mut s = Tensor::<i64, ext![_, _]>::zeros([ROWS, 2 * COLS]);
    s.slice_mut(mdtensor::s![.., ..;2]).assign(&a * 2);
    for i in 0..ROWS {
        for j in 0..COLS {
            assert_eq!(d[[i, j]], 2 * a[[i, j]]);
            assert_eq!((s[[i, 2 * j]], s[[i, 2 * j + 1]]), (2 * a[[i, j]], 0));
        }
    }
}

#[test]
fn tiled_evaluation_over_mixed_layouts_and_edges() {
    // Sizes that leave partial tiles on both axes; a batch axis in front; operands read
    // transposed, flipped (negative strides) and broadcast; outputs row- and column-major.
    let (b, r, c) = if cfg!(miri) { (2, 5, 19) } else { (3, 37, 21) };
    let x = Tensor::<i64, ext![_, _, _]>::from_fn([b, c, r], |[k, i, j]| (k * 1000 + i * 31 + j * 7) as i64 % 89);
    let y = Tensor::<i64, ext![_, _, _]>::from_fn([b, r, c], |[k, i, j]| (k * 17 + i * 5 + j * 3) as i64 % 41 - 20);
    let row = Tensor::<i64, ext![_]>::from_fn([c], |[j]| j as i64 * 2 - 9);
    let xt = x.permute_axes::<(mdtensor::Ax<0>, mdtensor::Ax<2>, mdtensor::Ax<1>)>(); // [b, r, c], fast axis second-to-last
    let y1 = y.flip_axis(1);
    let yf = y1.flip_axis(2);
    let want = |k: usize, i: usize, j: usize| x[[k, j, i]] * 2 - y[[k, r - 1 - i, c - 1 - j]] + row[[j]];
    for par in [Par::Seq, Par::Rayon] {
        let e = (&xt * 2 - &yf + &row).try_eval_with(par).unwrap();
        let mut cm = Tensor::<i64, ext![_, _, _], ColMajor>::zeros([b, r, c]);
        cm.assign(&xt * 2 - &yf + &row);
        cm += &xt; // compound store through a transposed tile
        for k in 0..b {
            for i in 0..r {
                for j in 0..c {
                    assert_eq!(e[[k, i, j]], want(k, i, j), "({k}, {i}, {j}) with {par:?}");
                    assert_eq!(cm[[k, i, j]], want(k, i, j) + x[[k, j, i]], "column-major ({k}, {i}, {j})");
                }
            }
        }
    }
    // Owned copies keep the view's order when it is already dense in the owned policy's
    // order, and reorder otherwise.
    let m = grid(ROWS, COLS);
    let t = m.t().to_owned();
    let mf = m.flip_axis(0);
    let f = mf.t().to_owned();
    for i in 0..COLS {
        for j in 0..ROWS {
            assert_eq!((t[[i, j]], f[[i, j]]), (m[[j, i]], m[[ROWS - 1 - j, i]]));
        }
    }
}

#[test]
fn static_shapes_compile_only_the_paths_their_types_allow() {
    // Static row-major leaves of the output's extents compile only the flat loop; any
    // broadcast, other rank or other layout keeps the general paths. Each case checks the
    // values against element-wise indexing.
    type M = Tensor<i64, ext![3, 5]>;
    let a = M::from_fn(ext![3, 5], |[i, j]| (i * 5 + j) as i64);
    let b = M::from_fn(ext![3, 5], |[i, j]| (i as i64 - 2) * (j as i64 + 1));
    let row = Tensor::<i64, ext![5]>::from_fn(ext![5], |[j]| j as i64 * 10);
    let col = Tensor::<i64, ext![3, 1]>::from_fn(ext![3, 1], |[i, _]| i as i64 * 100);
    let cm = Tensor::<i64, ext![3, 5], ColMajor>::from_fn(ext![3, 5], |[i, j]| (i + j) as i64);
    let flat = (&a * 2 + &b).eval();
    let mut assigned = M::zeros(ext![3, 5]);
    assigned.assign(&a - &b);
    assigned += &a;
    let mut broadcast = M::zeros(ext![3, 5]);
    broadcast.assign(&row + &col);
    let mixed = (&a + &cm).eval();
    let mut into_cm = Tensor::<i64, ext![3, 5], ColMajor>::zeros(ext![3, 5]);
    into_cm.assign(&a * 3);
    for i in 0..3 {
        for j in 0..5 {
            assert_eq!(flat[[i, j]], a[[i, j]] * 2 + b[[i, j]]);
            assert_eq!(assigned[[i, j]], 2 * a[[i, j]] - b[[i, j]]);
            assert_eq!(broadcast[[i, j]], row[[j]] + col[[i, 0]]);
            assert_eq!(mixed[[i, j]], a[[i, j]] + cm[[i, j]]);
            assert_eq!(into_cm[[i, j]], 3 * a[[i, j]]);
        }
    }
}

#[test]
fn inline_results_are_filled_completely() {
    let a = StackTensor::<f32, ext![4, 4]>::from_fn(ext![4, 4], |[i, j]| (i * 4 + j) as f32);
    let flat: StackTensor<f32, ext![4, 4]> = (a + a).eval_stack();
    let strided: StackTensor<f32, ext![4, 4]> = (&a.t() + 1.0).eval_stack();
    let prod: StackTensor<f32, ext![4, 4]> = a.matmul(&a);
    for i in 0..4 {
        for j in 0..4 {
            assert_eq!(flat[[i, j]], 2.0 * a[[i, j]]);
            assert_eq!(strided[[i, j]], a[[j, i]] + 1.0);
            assert_eq!(prod[[i, j]], (0..4).map(|k| a[[i, k]] * a[[k, j]]).sum::<f32>());
        }
    }
}

#[test]
fn reductions_serial_and_parallel() {
    let a = grid(ROWS, COLS);
    let total: i64 = a.iter().sum();
    assert_eq!(a.sum_with(Par::Seq), total);
    assert_eq!(a.sum_with(Par::Rayon), total);
    assert_eq!(a.t().sum_with(Par::Rayon), total, "strided whole reduction");
    let rows = a.sum_axis::<1>();
    let cols = a.sum_axis::<0>();
    let trows = a.t().sum_axis::<0>();
    for i in 0..ROWS {
        let r: i64 = (0..COLS).map(|j| a[[i, j]]).sum();
        assert_eq!((rows[[i]], trows[[i]]), (r, r));
    }
    for j in 0..COLS {
        assert_eq!(cols[[j]], (0..ROWS).map(|i| a[[i, j]]).sum::<i64>());
    }
    assert_eq!(
        a.argmax(),
        a.iter()
            .enumerate()
            .fold(None, |best: Option<(usize, i64)>, (k, &v)| match best {
                Some((_, bv)) if bv >= v => best,
                _ => Some((k, v)),
            })
            .map(|(k, _)| k)
    );
}

/// Axis reductions that keep the last axis split it into column blocks (4096 columns; 8
/// under Miri) and, when there are few blocks, the reduced axis into chunks (256; 4 under
/// Miri) combined afterwards: ragged blocks and chunks, parallel tasks.
#[test]
fn axis_reductions_over_column_blocks() {
    let (tall, narrow) = if cfg!(miri) { (10, 9) } else { (600, 130) };
    let t = grid(tall, narrow);
    let (sums, maxes, arg) = (t.sum_axis::<0>(), t.max_axis::<0>(), t.argmax_axis::<0>());
    for j in 0..narrow {
        let col: Vec<i64> = (0..tall).map(|i| t[[i, j]]).collect();
        let best = col.iter().copied().max().unwrap();
        assert_eq!((sums[[j]], maxes[[j]]), (col.iter().sum::<i64>(), best), "column {j}");
        assert_eq!(arg[[j]], col.iter().position(|&v| v == best).unwrap(), "argmax of column {j}: the first maximum");
    }
    let (rows, cols) = if cfg!(miri) { (9, 20) } else { (70, 4500) };
    let a = grid(rows, cols);
    let cols_sum = a.sum_axis::<0>();
    for j in 0..cols {
        assert_eq!(cols_sum[[j]], (0..rows).map(|i| a[[i, j]]).sum::<i64>(), "column {j}");
    }
    // A middle axis of a 3-D tensor: outer positions times column blocks.
    let b = Tensor::<i64, ext![_, _, _]>::from_fn([3, rows / 3, cols], |[i, j, k]| a[[i * (rows / 3) + j, k]]);
    let mid = b.max_axis::<1>();
    for i in 0..3 {
        for k in 0..cols {
            let want = (0..rows / 3).map(|j| b[[i, j, k]]).max().unwrap();
            assert_eq!(mid[[i, k]], want, "outer {i}, column {k}");
        }
    }
}

/// A reduced middle axis longer than one chunk of the cut path, with enough outputs that
/// the axis is not cut (at least 16 outer positions): every position of the axis counts,
/// on either side of the threshold, for every reducer and thread choice.
#[test]
fn uncut_axis_reductions_fold_the_whole_axis() {
    let (chunk, outputs) = (if cfg!(miri) { 4 } else { 256 }, 16);
    for &(outer, len, inner) in &[
        (outputs - 1, chunk + 1, 1),
        (outputs, chunk + 1, 1),
        (outputs + 3, 2 * chunk + 5, 2),
        (outputs, chunk, 3),
        (2, chunk + 9, outputs * 3),
    ] {
        let t = Tensor::<i64, ext![_, _, _]>::from_fn([outer, len, inner], |[i, j, k]| {
            ((i * 7919 + j * 131 + k * 17) % 1013) as i64 - 500
        });
        for par in [Par::Seq, Par::Rayon] {
            let sums = t.sum_axis_with::<1>(par);
            let maxes = t.max_axis_with::<1>(par);
            let arg = t.argmin_axis_with::<1>(par);
            for i in 0..outer {
                for k in 0..inner {
                    let lane: Vec<i64> = (0..len).map(|j| t[[i, j, k]]).collect();
                    let at = format!("[{outer}, {len}, {inner}] at ({i}, {k}) with {par:?}");
                    assert_eq!(sums[[i, k]], lane.iter().sum::<i64>(), "sum {at}");
                    assert_eq!(maxes[[i, k]], *lane.iter().max().unwrap(), "max {at}");
                    let low = *lane.iter().min().unwrap();
                    assert_eq!(arg[[i, k]], lane.iter().position(|&v| v == low).unwrap(), "argmin {at}");
                }
            }
        }
    }
}

#[test]
fn matrix_products_small_large_and_split() {
    // 40³ multiply-adds: past the small-product loop, into the blocked kernel; Par::Rayon
    // splits the rows across threads.
    let (m, k, n) = if cfg!(miri) { (17, 6, 5) } else { (40, 40, 40) };
    let a = Tensor::<f64, ext![_, _]>::from_fn([m, k], |[i, p]| (i as f64 - p as f64) * 0.5);
    let b = Tensor::<f64, ext![_, _]>::from_fn([k, n], |[p, j]| (p * j % 7) as f64);
    let reference = |i: usize, j: usize| (0..k).map(|p| a[[i, p]] * b[[p, j]]).sum::<f64>();
    for par in [Par::Seq, Par::Rayon] {
        let c = a.try_matmul_with(&b, par).unwrap();
        let ct = b.t().try_matmul_with(&a.t(), par).unwrap(); // (A·B)ᵀ from transposed views
        for i in 0..m {
            for j in 0..n {
                assert!((c[[i, j]] - reference(i, j)).abs() < 1e-9);
                assert!((ct[[j, i]] - reference(i, j)).abs() < 1e-9);
            }
        }
    }
    let ai = grid(6, 5);
    let bi = grid(5, 3);
    let ci = ai.matmul(&bi);
    assert_eq!(ci[[5, 2]], (0..5).map(|p| ai[[5, p]] * bi[[p, 2]]).sum::<i64>());
    // Small widths have exact-width row kernels: every width around them, with B read
    // directly, transposed and flipped.
    // Under Miri one (m, k) for every width: each width's kernel is still run.
    let sizes: &[(usize, usize)] = if cfg!(miri) { &[(3, 2)] } else { &[(1, 1), (3, 2), (5, 7)] };
    for n in 1..=9 {
        for &(m, k) in sizes {
            let a = grid(m, k);
            let b = grid(k, n);
            let bt = grid(n, k);
            let bf = b.flip_axis(1);
            let want =
                |b: &dyn Fn(usize, usize) -> i64, i: usize, j: usize| (0..k).map(|p| a[[i, p]] * b(p, j)).sum::<i64>();
            let (c, ct, cf) = (a.matmul(&b), a.matmul(&bt.t()), a.matmul(&bf));
            for i in 0..m {
                for j in 0..n {
                    assert_eq!(c[[i, j]], want(&|p, j| b[[p, j]], i, j), "{m}×{k}·{k}×{n}");
                    assert_eq!(ct[[i, j]], want(&|p, j| bt[[j, p]], i, j), "transposed B, n = {n}");
                    assert_eq!(cf[[i, j]], want(&|p, j| b[[p, n - 1 - j]], i, j), "flipped B, n = {n}");
                }
            }
        }
    }
}

#[test]
fn softmax_fibers() {
    let x = Tensor::<f64, ext![_, _]>::from_fn([7, 9], |[i, j]| (i * 9 + j) as f64 * 10.0);
    for s in [x.softmax::<1>(), x.t().softmax::<0>().t().to_standard_layout()] {
        for i in 0..7 {
            let row: f64 = (0..9).map(|j| s[[i, j]]).sum();
            assert!((row - 1.0).abs() < 1e-12);
        }
    }
}

#[test]
fn small_static_extents_give_the_bits_of_dynamic_extents() {
    // Static extents of at most 4096 elements run the baseline copy of the loops only;
    // dynamic extents run the copy picked for the CPU (AVX2 where present). The order of
    // operations is the same, so every result is bit-identical.
    type S = Tensor<f32, ext![24, 40]>;
    // Arithmetic only: Miri perturbs `sin`, `exp` and friends on every call.
    let value = |i: usize, j: usize| ((i * 40 + j) % 23) as f32 / 7.0 - 1.5;
    let s = S::from_fn(ext![24, 40], |[i, j]| value(i, j));
    let d = Tensor::<f32, ext![_, _]>::from_fn([24, 40], |[i, j]| value(i, j));
    let sr = Tensor::<f32, ext![40]>::from_fn(ext![40], |[j]| j as f32 * 0.5 - 3.0);
    let dr = Tensor::<f32, ext![_]>::from_fn([40], |[j]| j as f32 * 0.5 - 3.0);
    let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<_>>();
    assert_eq!(bits(s.sum_axis::<0>().to_vec()), bits(d.sum_axis::<0>().to_vec()));
    assert_eq!(bits(s.sum_axis::<1>().to_vec()), bits(d.sum_axis::<1>().to_vec()));
    assert_eq!(s.argmax_axis::<1>().to_vec(), d.argmax_axis::<1>().to_vec());
    assert_eq!(s.sum().to_bits(), d.sum().to_bits());
    if !cfg!(miri) {
        // (Under Miri two calls of `exp` on one value may differ.)
        assert_eq!(bits(s.softmax::<1>().to_vec()), bits(d.softmax::<1>().to_vec()));
        assert_eq!(bits(s.log_softmax::<0>().to_vec()), bits(d.log_softmax::<0>().to_vec()));
    }
    assert_eq!(bits((&s + &sr).eval().to_vec()), bits((&d + &dr).eval().to_vec()));
    assert_eq!(bits((&s.t() * 2.0).eval().to_vec()), bits((&d.t() * 2.0).eval().to_vec()));
    let (mut sa, mut da) = (s.clone(), d.clone());
    sa += &s * 0.25;
    da += &d * 0.25;
    assert_eq!(bits(sa.to_vec()), bits(da.to_vec()));
}
