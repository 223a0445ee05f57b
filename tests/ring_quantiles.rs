//! Several quantiles at once (`quantiles`, `percentiles` and their NaN forms) against the
//! one-quantile forms and a sorting reference, on random strided views of dynamic rank 0
//! to 4 (steps ±1, ±2, axes permuted), every method; the result layout (quantile axis
//! first), the static extents, the threaded and tiled lane paths, and hostile input.

use mdtensor::ops::QuantileMethod;
use mdtensor::{ext, Dyn, DynRank, SliceElem, Tensor};
use proptest::prelude::*;

mod common;
use common::strided::{strided_case, StridedCase};
use common::{all_indices, config, lane};

const METHODS: [QuantileMethod; 13] = {
    use QuantileMethod as M;
    [
        M::InvertedCdf,
        M::AveragedInvertedCdf,
        M::ClosestObservation,
        M::InterpolatedInvertedCdf,
        M::Hazen,
        M::Weibull,
        M::Linear,
        M::MedianUnbiased,
        M::NormalUnbiased,
        M::Lower,
        M::Higher,
        M::Midpoint,
        M::Nearest,
    ]
};

fn float_base(c: &StridedCase, nan: bool) -> Tensor<f64, DynRank> {
    let data = c.data.iter().map(|&x| if nan && x % 5 == 0 { f64::NAN } else { (x % 40) as f64 / 4.0 }).collect();
    Tensor::<f64, DynRank>::from_vec(c.shape.clone(), data)
}

/// Bit for bit, NaN matching NaN.
fn same(got: &[f64], want: &[f64]) -> bool {
    got.len() == want.len()
        && got.iter().zip(want).all(|(g, w)| g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()))
}

/// numpy's linear quantile by sorting; NaN when the lane holds one.
fn linear_sorted(mut v: Vec<f64>, q: f64) -> f64 {
    if v.iter().any(|x| x.is_nan()) {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let i = (v.len() as f64 - 1.0) * q;
    let lo = i.floor() as usize;
    let hi = (lo + 1).min(v.len() - 1);
    let (g, d) = (i - lo as f64, v[hi] - v[lo]);
    if g >= 0.5 {
        v[hi] - d * (1.0 - g)
    } else {
        v[lo] + d * g
    }
}

fn qs_strategy() -> impl Strategy<Value = Vec<f64>> {
    proptest::collection::vec(prop_oneof![Just(0.0), Just(1.0), Just(0.5), 0.0f64..=1.0], 0..6)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn quantiles_stack_the_one_quantile_forms(c in strided_case(4, 5), ax in 0usize..8, qs in qs_strategy(), nan in any::<bool>(), mi in 0usize..13) {
        let base = float_base(&c, nan);
        let f = c.view(&base);
        let shape = f.dims().to_vec();
        let m = METHODS[mi];
        let stack = |one: &dyn Fn(f64) -> Vec<f64>| qs.iter().flat_map(|&q| one(q)).collect::<Vec<f64>>();
        // Over all elements.
        if f.numel() > 0 {
            prop_assert!(same(&f.quantiles(&qs[..], m).to_vec(), &stack(&|q| vec![f.quantile(q, m)])));
            prop_assert!(same(&f.nanquantiles(qs.clone(), m).to_vec(), &stack(&|q| vec![f.nanquantile(q, m)])));
            let ps: Vec<f64> = qs.iter().map(|q| q * 100.0).collect();
            prop_assert!(same(&f.percentiles(&ps[..], m).to_vec(), &stack(&|q| vec![f.percentile(q * 100.0, m)])));
            prop_assert!(same(&f.nanpercentiles(&ps[..], m).to_vec(), &stack(&|q| vec![f.nanpercentile(q * 100.0, m)])));
        } else {
            prop_assert_eq!(f.try_quantiles(&qs[..], m).is_ok(), false);
        }
        let Some(axis) = (!shape.is_empty()).then(|| ax % shape.len()) else { return Ok(()) };
        let lanes: usize = shape.iter().enumerate().filter(|&(k, _)| k != axis).map(|(_, &d)| d).product();
        if shape[axis] == 0 && lanes > 0 {
            prop_assert!(f.try_quantiles_axis_dyn(&qs[..], axis, m).is_err());
            return Ok(());
        }
        let got = f.quantiles_axis_dyn(&qs[..], axis, m);
        let mut want_shape = vec![qs.len()];
        want_shape.extend(shape.iter().enumerate().filter(|&(k, _)| k != axis).map(|(_, &d)| d));
        prop_assert_eq!(got.dims().to_vec(), want_shape);
        prop_assert!(same(&got.to_vec(), &stack(&|q| f.quantile_axis_dyn(q, axis, m).to_vec())));
        let neg = axis as isize - shape.len() as isize;
        prop_assert!(same(&f.nanquantiles_axis_dyn(&qs[..], neg, m).to_vec(), &stack(&|q| f.nanquantile_axis_dyn(q, axis, m).to_vec())));
        let ps: Vec<f64> = qs.iter().map(|q| q * 100.0).collect();
        prop_assert!(same(&f.percentiles_axis_dyn(&ps[..], axis, m).to_vec(), &stack(&|q| f.percentile_axis_dyn(q * 100.0, axis, m).to_vec())));
        prop_assert!(same(&f.nanpercentiles_axis_dyn(&ps[..], axis, m).to_vec(), &stack(&|q| f.nanpercentile_axis_dyn(q * 100.0, axis, m).to_vec())));
        // And the linear method against sorting each lane.
        if m == QuantileMethod::Linear {
            let r = f.to_vec();
            let mut other = shape.clone();
            other.remove(axis);
            let want: Vec<f64> = qs.iter().flat_map(|&q| all_indices(&other).into_iter().map(move |j| (q, j))).map(|(q, j)| linear_sorted(lane(&r, &shape, axis, &j), q)).collect();
            prop_assert!(same(&got.to_vec(), &want));
        }
    }
}

#[test]
fn static_lists_give_static_extents() {
    let a = Tensor::<f64, ext![2, 5]>::from_fn(ext![2, 5], |[i, j]| ((i * 3 + j * 7) % 5) as f64);
    let q: Tensor<f64, ext![3, 2]> = a.quantiles_axis::<1, _>([0.0, 0.5, 1.0], QuantileMethod::Linear);
    assert_eq!(q.to_vec(), [0.0, 0.0, 2.0, 2.0, 4.0, 4.0]);
    let w: Tensor<f64, ext![2, 5]> = a.quantiles_axis::<0, _>(&[0.0, 1.0], QuantileMethod::Lower);
    assert_eq!(
        w.to_vec()[..5],
        a.to_vec()[..5].iter().zip(&a.to_vec()[5..]).map(|(x, y)| x.min(*y)).collect::<Vec<_>>()[..]
    );
    let all: Tensor<f64, ext![2]> = a.percentiles([0.0, 100.0], QuantileMethod::Linear);
    assert_eq!(all.to_vec(), [0.0, 4.0]);
    let d: Tensor<f64, (Dyn, Dyn)> = a.quantiles_axis_dyn(vec![0.5; 4], 0, QuantileMethod::Linear);
    assert_eq!(d.dims(), [4, 5]);
    let r: Tensor<f64, (Dyn,)> = a.nanquantiles(&[0.5][..], QuantileMethod::Linear);
    assert_eq!(r.to_vec(), [2.0]);
    // The static-axis NaN and percentile forms agree with the run-time-axis ones.
    let m = QuantileMethod::Weibull;
    let n: Tensor<f64, ext![2, 2]> = a.nanquantiles_axis::<1, _>([0.2, 0.7], m);
    assert_eq!(n.to_vec(), a.nanquantiles_axis_dyn([0.2, 0.7], 1, m).to_vec());
    let p: Tensor<f64, ext![3, 5]> = a.percentiles_axis::<0, _>([5.0, 50.0, 95.0], m);
    assert_eq!(p.to_vec(), a.percentiles_axis_dyn([5.0, 50.0, 95.0], 0, m).to_vec());
    let np: Tensor<f64, (Dyn, mdtensor::Const<2>)> = a.nanpercentiles_axis::<1, _>(vec![10.0, 60.0], m);
    assert_eq!(np.to_vec(), a.nanpercentiles_axis_dyn(vec![10.0, 60.0], -1, m).to_vec());
}

#[test]
fn large_inputs_threaded_and_tiled_agree_with_sorting() {
    // 600 × 301: above the parallel threshold; axis 0 takes the tiled gather, axis 1 the
    // contiguous copy; a column view and a reversed view take the strided paths.
    let (m, n) = (600, 301);
    let a =
        Tensor::<f64, DynRank>::from_fn(DynRank::new(vec![m, n]), |i| ((i[0] * 7919 + i[1] * 104_729) % 1009) as f64);
    let data = a.to_vec();
    let qs = [0.0, 0.3, 0.5, 0.99, 1.0];
    for axis in 0..2 {
        let other = if axis == 0 { n } else { m };
        let lane_of = |k: usize| -> Vec<f64> {
            if axis == 0 {
                (0..m).map(|i| data[i * n + k]).collect()
            } else {
                data[k * n..(k + 1) * n].to_vec()
            }
        };
        let want: Vec<f64> = qs
            .iter()
            .flat_map(|&q| (0..other).map(move |k| (q, k)))
            .map(|(q, k)| linear_sorted(lane_of(k), q))
            .collect();
        assert!(same(&a.quantiles_axis_dyn(qs, axis, QuantileMethod::Linear).to_vec(), &want), "axis {axis}");
        let med: Vec<f64> = (0..other).map(|k| linear_sorted(lane_of(k), 0.5)).collect();
        assert!(same(&a.median_axis_dyn(axis).to_vec(), &med), "median axis {axis}");
        let t = a.t();
        assert!(same(&t.median_axis_dyn(1 - axis).to_vec(), &med), "transposed, axis {axis}");
    }
    let rev = a
        .try_slice_dyn(&[
            SliceElem::Range { start: None, end: None, step: -1 },
            SliceElem::Range { start: None, end: None, step: -2 },
        ])
        .unwrap();
    let owned = rev.to_owned();
    for axis in 0..2 {
        assert!(same(&rev.median_axis_dyn(axis).to_vec(), &owned.median_axis_dyn(axis).to_vec()));
        assert!(same(
            &rev.quantiles_axis_dyn(qs, axis, QuantileMethod::Hazen).to_vec(),
            &owned.quantiles_axis_dyn(qs, axis, QuantileMethod::Hazen).to_vec()
        ));
    }
}

#[test]
fn hostile_lists_are_errors() {
    let a = Tensor::<f64, DynRank>::from_vec(vec![2, 2], vec![1.0, f64::NAN, f64::NAN, f64::NAN]);
    let m = QuantileMethod::Linear;
    assert!(a.try_quantiles([0.5, 1.5], m).is_err());
    assert!(a.try_quantiles([f64::NAN], m).is_err());
    assert!(a.try_percentiles([-1.0], m).is_err());
    assert!(a.try_nanpercentiles([100.5], m).is_err());
    assert!(a.try_quantiles_axis_dyn([0.5], 2, m).is_err());
    assert!(a.try_quantiles_axis_dyn([0.5], -3, m).is_err());
    assert!(a.try_nanpercentile_axis_dyn(101.0, 0, m).is_err());
    assert!(Tensor::<f64, DynRank>::from_vec(vec![0], vec![]).try_quantiles([0.5], m).is_err());
    // NaN lanes give NaN for every quantile; a list of none gives an empty axis.
    let q = a.nanquantiles_axis_dyn([0.0, 1.0], 1, m).to_vec();
    assert_eq!(q[0], 1.0);
    assert!(q[1].is_nan() && q[3].is_nan());
    assert!(a.quantiles([0.1, 0.9], m).to_vec().iter().all(|x| x.is_nan()));
    assert_eq!(a.quantiles_axis_dyn(&[][..], 0, m).dims(), [0, 2]);
    assert_eq!(a.nanpercentile_axis_dyn(50.0, 0, m).to_vec()[0], 1.0);
}

#[test]
fn out_of_memory_is_an_error() {
    // A broadcast view of 2^45 elements (stride 0: no memory of its own): a lane's scratch,
    // the whole-array copy and the result of 2^44 lanes cannot be allocated, and say so.
    let one = Tensor::<f64, DynRank>::from_vec(vec![1, 1], vec![1.0]);
    let m = QuantileMethod::Linear;
    let long = one.broadcast_to::<DynRank>(&[1, 1 << 45][..]);
    assert!(long.try_median_axis_dyn(1).is_err());
    assert!(long.try_quantiles_axis_dyn([0.5, 0.9], -1, m).is_err());
    assert!(long.try_median().is_err());
    assert!(long.try_nanquantiles([0.5], m).is_err());
    let wide = one.broadcast_to::<DynRank>(&[1 << 44, 2][..]);
    assert!(wide.try_quantile_axis_dyn(0.5, 1, m).is_err());
    assert!(wide.try_percentiles_axis_dyn(vec![10.0; 3], 1, m).is_err());
}

#[test]
fn large_whole_inputs_bracket_or_fall_back_and_agree_with_sorting() {
    // Above the size where all-element statistics bracket in place instead of copying.
    let n: usize = (1 << 20) + 7;
    let scrambled: Vec<f64> = (0..n).map(|i| ((i.wrapping_mul(2_654_435_761) % 1_000_003) as f64) / 8.0).collect();
    // Every element the sample reads (the positions `bracket.rs` hashes to) set huge: the
    // bracket misses and the copy answers.
    let mut hostile = scrambled.clone();
    for i in 0..1u64 << 16 {
        hostile[(i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % n as u64) as usize] = 1e12;
    }
    // The benchmark's matrix pattern, whose columns repeat with a period.
    let pattern: Vec<f64> = (0..n)
        .map(|t| (((t / 1024).wrapping_mul(2_654_435_761) ^ (t % 1024).wrapping_mul(40503)) % 100_003) as f64)
        .collect();
    let ascending: Vec<f64> = (0..n).map(|i| i as f64).collect();
    for data in [scrambled, hostile, ascending, pattern] {
        let mut sorted = data.clone();
        sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let a = Tensor::<f64, DynRank>::from_vec(vec![n], data.clone());
        let even = Tensor::<f64, DynRank>::from_vec(vec![n - 1], data[..n - 1].to_vec());
        assert_eq!(a.median(), sorted[n / 2]);
        let mut se = data[..n - 1].to_vec();
        se.sort_by(|a, b| a.partial_cmp(b).unwrap());
        assert_eq!(even.median(), (se[(n - 1) / 2 - 1] + se[(n - 1) / 2]) / 2.0);
        for q in [0.0, 0.3, 0.5, 0.999, 1.0] {
            assert_eq!(a.quantile(q, QuantileMethod::Linear), linear_sorted(sorted.clone(), q), "q {q}");
            assert_eq!(a.percentile(q * 100.0, QuantileMethod::Higher), sorted[((n - 1) as f64 * q).ceil() as usize]);
        }
        // A 2-D view in another order holds the same elements.
        let m = Tensor::<f64, DynRank>::from_vec(vec![1, n], data);
        assert_eq!(m.t().median(), sorted[n / 2]);
    }
    let mut with_nan: Vec<f64> = (0..n).map(|i| i as f64).collect();
    with_nan[n / 3] = f64::NAN;
    let a = Tensor::<f64, DynRank>::from_vec(vec![n], with_nan);
    assert!(a.median().is_nan() && a.quantile(0.2, QuantileMethod::Linear).is_nan());
    assert_eq!(a.nanmedian(), {
        let mut v: Vec<f64> = (0..n).filter(|&i| i != n / 3).map(|i| i as f64).collect();
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        (v[v.len() / 2 - 1] + v[v.len() / 2]) / 2.0
    });
}
