//! Generic functions as a user first writes them from the docs: over any layout and
//! storage (`S: Layout<E>`, `St: DenseStorage<T>`), over `DenseTensor`, and over any
//! extents. Each must compile as written and return what its signature names; the values
//! are checked against plain loops on row-major, column-major, transposed and stepped
//! inputs.

use mdtensor::extents::{ConcatAlong, StackAxis};
use mdtensor::layout::DenseOf;
use mdtensor::prelude::*;
use mdtensor::{s, stack, ColMajor, DenseStorage, DenseTensor, DynRank, Extents, Layout, StridePolicy, Tensor};

fn normalize<E: Extents, S: Layout<E>, St: DenseStorage<f64> + Sync>(t: &Tensor<f64, E, S, St>) -> Tensor<f64, E> {
    let s = t.sum();
    (t / s).eval()
}

fn doubled<E: Extents, S: Layout<E>, St: DenseStorage<f64>>(t: &Tensor<f64, E, S, St>) -> Tensor<f64, E> {
    t.mapv(|x| 2.0 * x)
}

fn labels<E: Extents, S: Layout<E>, St: DenseStorage<f64>>(t: &Tensor<f64, E, S, St>) -> Tensor<String, E> {
    t.map(|x| format!("{x}"))
}

fn clipped<E: Extents, S: Layout<E>, St: DenseStorage<f64>>(t: &Tensor<f64, E, S, St>) -> Tensor<f64, E> {
    t.clip(2.0, 5.0)
}

fn diff<E: Extents, S: Layout<E>, St: DenseStorage<f64>>(t: &Tensor<f64, E, S, St>) -> Tensor<f64, E> {
    t.zip_with(t, |a, b| a * b - 1.0)
}

fn standardize<X: DenseTensor<Elem = f64>>(x: &X) -> Tensor<f64, X::Extents> {
    let v = x.view();
    let m = v.mean();
    let s = v.std(0);
    ((&v - m) / s).eval()
}

fn exp_shifted<E: Extents, S: Layout<E>, St: DenseStorage<f64>>(t: &Tensor<f64, E, S, St>) -> Tensor<f64, E> {
    (t - t.max().unwrap_or(0.0)).exp().eval()
}

/// The order-following form, spelled out in generic code.
fn doubled_in_order<E: Extents, S: Layout<E>, St: DenseStorage<f64>>(
    t: &Tensor<f64, E, S, St>,
) -> Tensor<f64, E, DenseOf<<S as StridePolicy>::Order, E>> {
    t.mapv_in_order(|x| 2.0 * x)
}

/// Joins with the one bound rustc suggests for each (`E: Extents + ConcatAlong<0, E>`,
/// `E: Extents + StackAxis<0>`), written as it suggests them.
fn append_rows<E: Extents + mdtensor::extents::ConcatAlong<0, E>>(
    a: &Tensor<f32, E>,
    b: &Tensor<f32, E>,
) -> Tensor<f32, <E as ConcatAlong<0, E>>::Output> {
    a.concatenate::<0, _>(b)
}

fn pair<E: Extents + mdtensor::extents::StackAxis<0>>(
    a: &Tensor<f32, E>,
    b: &Tensor<f32, E>,
) -> Tensor<f32, <E as StackAxis<0>>::Output> {
    stack::<0, _, _, _, _>(&[a, b])
}

fn plain_std(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    (m, (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n).sqrt())
}

fn close(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-12 * (1.0 + y.abs()))
}

/// Row-major, column-major, a transposed view and a stepped view of the same values
/// `1..=12` in a 3×4 logical layout (the stepped one: 3×2).
fn inputs() -> (Tensor<f64, mdtensor::ext![_, _]>, Tensor<f64, mdtensor::ext![_, _], ColMajor>) {
    let r = Tensor::<f64, mdtensor::ext![_, _]>::from_fn([3, 4], |[i, j]| (i * 4 + j + 1) as f64);
    let c = Tensor::<f64, mdtensor::ext![_, _], ColMajor>::from_fn([3, 4], |[i, j]| (i * 4 + j + 1) as f64);
    (r, c)
}

fn check_all(v: &[f64], got: &[Vec<f64>]) {
    let sum: f64 = v.iter().sum();
    let (m, sd) = plain_std(v);
    assert!(close(&got[0], &v.iter().map(|x| x / sum).collect::<Vec<_>>()));
    assert_eq!(got[1], v.iter().map(|x| 2.0 * x).collect::<Vec<_>>());
    assert_eq!(got[2], v.iter().map(|x| x.clamp(2.0, 5.0)).collect::<Vec<_>>());
    assert_eq!(got[3], v.iter().map(|x| x * x - 1.0).collect::<Vec<_>>());
    assert!(close(&got[4], &v.iter().map(|x| (x - m) / sd).collect::<Vec<_>>()));
    let top = v.iter().copied().fold(f64::MIN, f64::max);
    assert!(close(&got[5], &v.iter().map(|x| (x - top).exp()).collect::<Vec<_>>()));
}

macro_rules! run_all {
    ($t:expr) => {{
        let t = $t;
        let rows = [normalize(&t), doubled(&t), clipped(&t), diff(&t), standardize(&t), exp_shifted(&t)];
        for r in &rows {
            assert!(r.is_standard_layout(), "a generic result is the row-major Tensor<T, E> it names");
        }
        let l = labels(&t);
        assert_eq!(l.to_vec(), t.to_vec().iter().map(|x| format!("{x}")).collect::<Vec<_>>());
        check_all(&t.to_vec(), &rows.iter().map(|r| r.to_vec()).collect::<Vec<_>>());
    }};
}

#[test]
fn generic_functions_compile_and_compute_over_every_layout() {
    let (r, c) = inputs();
    run_all!(r.clone());
    run_all!(c.clone());
    run_all!(r.t());
    run_all!(c.t());
    run_all!(r.slice(s![..;2, 1..;2]));
    run_all!(c.slice(s![..;-1, ..]));
    let stat = mdtensor::tensor![[1.0, -2.0, 3.5], [0.0, 7.0, 2.5]];
    run_all!(stat.clone());
    run_all!(stat.t());
}

#[test]
fn column_major_results_are_reachable_and_exact() {
    let (r, c) = inputs();
    // Column-major operands keep their order through the `_in_order` forms, and the
    // values equal the row-major result's element by element.
    let k = doubled_in_order(&c);
    let _: &Tensor<f64, mdtensor::ext![_, _], ColMajor> = &k;
    assert_eq!(k.strides(), [1, 3]);
    assert_eq!(k.to_vec(), doubled(&c).to_vec());
    assert_eq!(k.to_vec(), doubled(&r).to_vec());
    // Memory order: columns of 2·(1..=12) laid out 3×4.
    let want: Vec<f64> = (0..4).flat_map(|j| (0..3).map(move |i| 2.0 * (i * 4 + j + 1) as f64)).collect();
    assert_eq!(k.as_slice_memory_order(), Some(&want[..]));
    let m: Tensor<f64, _, ColMajor> = c.mapv_in_order(|x| x - 1.0);
    assert_eq!(m.as_slice_memory_order().map(<[f64]>::to_vec), Some(want.iter().map(|x| x / 2.0 - 1.0).collect()));
    let e: Tensor<f64, _, ColMajor> = (&c + &c).exp().eval_in_order();
    assert!(close(&e.to_vec(), &r.to_vec().iter().map(|x| (2.0 * x).exp()).collect::<Vec<_>>()));
    // A row-major operand keeps the row-major order.
    assert!(doubled_in_order(&r).is_standard_layout());
    // `eval` of the same column-major expression is row-major, with the same values.
    let rm = (&c * 2.0).eval();
    assert!(rm.is_standard_layout());
    assert_eq!(rm.to_vec(), k.to_vec());
}

#[test]
fn generic_joins_compile_with_the_suggested_bound() {
    let a = Tensor::<f32, mdtensor::ext![_, _]>::from_fn([2, 3], |[i, j]| (i * 3 + j) as f32);
    let b = Tensor::<f32, mdtensor::ext![_, _]>::from_fn([2, 3], |[i, j]| (10 + i * 3 + j) as f32);
    let c = append_rows(&a, &b);
    assert_eq!(c.shape(), [4, 3]);
    assert_eq!(c.to_vec(), a.to_vec().into_iter().chain(b.to_vec()).collect::<Vec<_>>());
    let p = pair(&a, &b);
    assert_eq!(p.shape(), [2, 2, 3]);
    assert_eq!(p.to_vec(), c.to_vec());
    // Static extents: the joined axis is added in the type.
    let s = mdtensor::tensor![[1.0f32, 2.0], [3.0, 4.0]];
    let j: Tensor<f32, mdtensor::ext![4, 2]> = append_rows(&s, &s);
    assert_eq!(j.to_vec(), [1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0]);
    assert_eq!(pair(&s, &s).shape(), [2, 2, 2]);
    // Dynamic rank: the same functions, checked at run time.
    let d = Tensor::<f32, DynRank>::from_vec(vec![3], vec![1.0, 2.0, 3.0]);
    assert_eq!(append_rows(&d, &d).to_vec(), [1.0, 2.0, 3.0, 1.0, 2.0, 3.0]);
    assert_eq!(pair(&d, &d).shape(), [2, 3]);
    let e = Tensor::<f32, DynRank>::from_vec(vec![1, 3], vec![1.0, 2.0, 3.0]);
    assert!(d.try_concatenate::<0, _>(&e).is_err());
}
