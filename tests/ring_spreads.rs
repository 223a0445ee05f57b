//! `nanvar`/`nanstd`, `ptp`, `nancumsum`/`nancumprod`, weighted `average` and
//! `cov`/`corrcoef` against plain references on
//! random strided views of dynamic rank 0 to 4 (steps ±1, ±2, axes permuted), with NaN,
//! and their hostile inputs.

use mdtensor::{ext, Dyn, DynRank, Tensor};
use proptest::prelude::*;

mod common;
use common::strided::{strided_case, StridedCase};
use common::{all_indices, config, lane};

fn float_base(c: &StridedCase, nan: bool) -> Tensor<f64, DynRank> {
    let data = c.data.iter().map(|&x| if nan && x % 4 == 0 { f64::NAN } else { x as f64 / 8.0 }).collect();
    Tensor::<f64, DynRank>::from_vec(c.shape.clone(), data)
}

fn close(got: &[f64], want: &[f64]) -> bool {
    got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(g, w)| g == w || (g.is_nan() && w.is_nan()) || (g - w).abs() <= 1e-10 * (1.0 + w.abs()))
}

/// numpy's two-pass `nanvar` of a lane.
fn nanvar_ref(l: &[f64], ddof: f64) -> f64 {
    let v: Vec<f64> = l.iter().copied().filter(|x| !x.is_nan()).collect();
    let n = v.len() as f64;
    if n - ddof <= 0.0 {
        return f64::NAN;
    }
    let mean = v.iter().sum::<f64>() / n;
    v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - ddof)
}

/// `f` of every lane along `axis`, row-major over the other axes.
fn per_lane<U>(r: &[f64], shape: &[usize], axis: usize, f: impl Fn(Vec<f64>) -> U) -> Vec<U> {
    let mut other = shape.to_vec();
    other.remove(axis);
    all_indices(&other).iter().map(|j| f(lane(r, shape, axis, j))).collect()
}

/// Running `f` with NaN replaced by `by`.
fn running(l: &[f64], by: f64, f: fn(f64, f64) -> f64) -> Vec<f64> {
    let mut acc = None;
    l.iter()
        .map(|&x| {
            let x = if x.is_nan() { by } else { x };
            let a = acc.map_or(x, |a| f(a, x));
            acc = Some(a);
            a
        })
        .collect()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn spreads_and_running_sums_match_reference(c in strided_case(4, 5), ax in 0usize..8, ddof in 0usize..3, nan in any::<bool>()) {
        let base = float_base(&c, nan);
        let f = c.view(&base);
        let shape = f.dims().to_vec();
        let r = f.to_vec();
        let d = ddof as f64;
        prop_assert!(close(&[f.nanvar(ddof)], &[nanvar_ref(&r, d)]));
        prop_assert!(close(&[f.nanstd(d)], &[nanvar_ref(&r, d).sqrt()]));
        let ptp = |l: &[f64]| if l.iter().any(|x| x.is_nan()) { f64::NAN } else { l.iter().copied().fold(f64::MIN, f64::max) - l.iter().copied().fold(f64::MAX, f64::min) };
        if r.is_empty() {
            prop_assert!(f.try_ptp().is_err());
        } else {
            prop_assert!(close(&[f.ptp()], &[ptp(&r)]));
        }
        prop_assert!(close(&f.nancumsum_flat().to_vec(), &running(&r, 0.0, |a, b| a + b)));
        prop_assert!(close(&f.nancumprod_flat().to_vec(), &running(&r, 1.0, |a, b| a * b)));
        let Some(axis) = (!shape.is_empty()).then(|| ax % shape.len()) else { return Ok(()) };
        let neg = axis as isize - shape.len() as isize;
        prop_assert!(close(&f.nanvar_axis_dyn(axis, ddof).to_vec(), &per_lane(&r, &shape, axis, |l| nanvar_ref(&l, d))));
        prop_assert!(close(&f.nanstd_axis_dyn(neg, ddof).to_vec(), &per_lane(&r, &shape, axis, |l| nanvar_ref(&l, d).sqrt())));
        let lanes = per_lane(&r, &shape, axis, |l| l);
        if shape[axis] == 0 && !lanes.is_empty() {
            prop_assert!(f.try_ptp_axis_dyn(axis).is_err());
        } else {
            prop_assert!(close(&f.ptp_axis_dyn(neg).to_vec(), &lanes.iter().map(|l| ptp(l)).collect::<Vec<_>>()));
        }
        // Running sums keep the shape: compare lane by lane.
        let sums = f.nancumsum_dyn(axis);
        prop_assert_eq!(sums.dims().to_vec(), shape.clone());
        let got = per_lane(&sums.to_vec(), &shape, axis, |l| l);
        prop_assert!(lanes.iter().zip(&got).all(|(l, g)| close(g, &running(l, 0.0, |a, b| a + b))));
        let prods = per_lane(&f.nancumprod_dyn(neg).to_vec(), &shape, axis, |l| l);
        prop_assert!(lanes.iter().zip(&prods).all(|(l, g)| close(g, &running(l, 1.0, |a, b| a * b))));
        // Weighted averages: positive weights from the position, so they never sum to 0.
        let n = shape[axis];
        let w = Tensor::<f64, (Dyn,)>::from_vec([n], (0..n).map(|k| 1.0 + (k % 3) as f64).collect());
        let wavg = |l: &[f64]| l.iter().zip(w.to_vec()).map(|(x, w)| x * w).sum::<f64>() / w.to_vec().iter().sum::<f64>();
        if n == 0 && !lanes.is_empty() {
            prop_assert!(f.try_average_axis_dyn(&w, axis).is_err());
        } else {
            prop_assert!(close(&f.average_axis_dyn(&w, neg).to_vec(), &lanes.iter().map(|l| wavg(l)).collect::<Vec<_>>()));
        }
        let ww = Tensor::<f64, DynRank>::from_vec(shape.clone(), (0..r.len()).map(|k| 0.5 + (k % 4) as f64).collect());
        let want = r.iter().zip(ww.to_vec()).map(|(x, w)| x * w).sum::<f64>() / ww.to_vec().iter().sum::<f64>();
        if r.is_empty() {
            prop_assert!(f.try_average(&ww).is_err());
        } else {
            prop_assert!(close(&[f.average(&ww)], &[want]));
        }
    }
}

/// numpy's `cov` of the rows of a row-major `k × n` matrix, two-pass.
fn cov_ref(x: &[f64], k: usize, n: usize, ddof: f64) -> Vec<f64> {
    let means: Vec<f64> = (0..k).map(|i| x[i * n..(i + 1) * n].iter().sum::<f64>() / n as f64).collect();
    let div = (n as f64 - ddof).max(0.0);
    let mut c = vec![0.0; k * k];
    for i in 0..k {
        for j in 0..k {
            c[i * k + j] = (0..n).map(|t| (x[i * n + t] - means[i]) * (x[j * n + t] - means[j])).sum::<f64>() / div;
        }
    }
    c
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn cov_and_corrcoef_match_reference(c in strided_case(2, 6), ddof in 0usize..3) {
        let base = float_base(&c, false);
        let f = c.view(&base);
        let shape = f.dims().to_vec();
        let r = f.to_vec();
        let (k, n) = match shape[..] {
            [n] => (1, n),
            [k, n] => (k, n),
            _ => {
                prop_assert!(f.try_cov_dyn(1).is_err() && f.try_corrcoef_dyn().is_err());
                return Ok(());
            }
        };
        let want = cov_ref(&r, k, n, ddof as f64);
        let got = f.cov_dyn(ddof);
        prop_assert_eq!(got.rank(), shape.len() * 2 - 2);
        prop_assert!(close(&got.to_vec(), &want));
        // The divisor cancels in the correlation (numpy's takes none).
        let c0 = cov_ref(&r, k, n, 0.0);
        let corr: Vec<f64> = (0..k * k).map(|p| (c0[p] / c0[p / k * k + p / k].sqrt() / c0[p % k * k + p % k].sqrt()).clamp(-1.0, 1.0)).collect();
        prop_assert!(close(&f.corrcoef_dyn().to_vec(), &corr));
    }
}

#[test]
fn cov_keeps_static_rows() {
    let x = Tensor::<f64, ext![3, 4]>::from_fn(ext![3, 4], |[i, j]| ((i * 5 + j * j) % 7) as f64);
    let c: Tensor<f64, ext![3, 3]> = x.cov(1);
    assert!(close(&c.to_vec(), &cov_ref(&x.to_vec(), 3, 4, 1.0)));
    let r: Tensor<f64, ext![3, 3]> = x.corrcoef();
    assert!((0..3).all(|i| (r.to_vec()[i * 4] - 1.0).abs() < 1e-15));
    let d = Tensor::<f64, (Dyn, Dyn)>::from_vec([2, 0], vec![]);
    assert!(d.cov(1).to_vec().iter().all(|x| x.is_nan()));
}

#[test]
fn integer_ptp_wraps_as_numpy() {
    let a = Tensor::<i8, (Dyn,)>::from_vec([3], vec![-128, 0, 127]);
    assert_eq!(a.ptp(), -1);
    let u = Tensor::<u8, DynRank>::from_vec(vec![2, 2], vec![3, 250, 7, 1]);
    assert_eq!(u.ptp_axis_dyn(0).to_vec(), [4, 249]);
}

#[test]
fn hostile_inputs_are_errors_or_documented_values() {
    let a = Tensor::<f64, DynRank>::from_vec(vec![2, 2], vec![1.0, f64::NAN, f64::NAN, f64::NAN]);
    assert!(a.try_nanvar_axis_dyn(2, 0).is_err());
    assert!(a.try_nanstd_axis_dyn(-3, 0).is_err());
    assert!(a.try_ptp_axis_dyn(5).is_err());
    assert!(a.try_nancumsum_dyn(2).is_err());
    assert!(a.try_nancumprod_dyn(-3).is_err());
    // numpy's all-NaN and ddof >= count slices: NaN, not inf.
    assert!(a.nanvar_axis_dyn(1, 0).to_vec()[1].is_nan());
    assert!(a.nanvar_axis_dyn(1, 1).to_vec()[0].is_nan());
    assert!(a.nanvar(f64::NAN).is_nan());
    assert_eq!(a.nanvar(-1), 0.0);
    let e = Tensor::<f64, DynRank>::from_vec(vec![0, 3], vec![]);
    assert!(e.try_ptp().is_err());
    assert!(e.try_ptp_axis_dyn(0).is_err());
    assert_eq!(e.ptp_axis_dyn(1).dims(), [0]);
    assert!(e.nanvar(0).is_nan());
    assert_eq!(e.nancumsum_dyn(0).dims(), [0, 3]);
    assert_eq!(a.nancumsum_dyn(0).to_vec(), [1.0, 0.0, 1.0, 0.0]);
    // Weights: wrong shape, wrong length, not 1-D, summing to zero.
    let w2 = Tensor::<f64, (Dyn,)>::from_vec([2], vec![1.0, -1.0]);
    assert!(a.try_average(&w2).is_err());
    assert!(a.try_average_axis_dyn(&w2, 0).is_err());
    assert!(a.try_average_axis_dyn(&Tensor::<f64, (Dyn,)>::from_vec([3], vec![1.0; 3]), 0).is_err());
    assert!(a.try_average_axis_dyn(&a, 0).is_err());
    assert!(a.try_average_axis_dyn(&w2, 2).is_err());
    assert!(a.try_average(&Tensor::<f64, DynRank>::from_vec(vec![2, 2], vec![1.0, -1.0, 0.0, 0.0])).is_err());
    assert!(a.average(&Tensor::<f64, DynRank>::from_vec(vec![2, 2], vec![1.0; 4])).is_nan());
}
