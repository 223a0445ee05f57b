//! numpy as the oracle for the order statistics: every quantile method, `median`,
//! `nanmedian` and `nanquantile` of float64 and float32 arrays, along the last axis and
//! over all elements, compared bit for bit. The fixtures are written by
//! `tests/fixtures/ring/make_fixtures.py`.

use mdtensor::ops::QuantileMethod;
use mdtensor::{DynRank, Tensor};
use std::path::PathBuf;

fn method(name: &str) -> QuantileMethod {
    use QuantileMethod as M;
    match name {
        "inverted_cdf" => M::InvertedCdf,
        "averaged_inverted_cdf" => M::AveragedInvertedCdf,
        "closest_observation" => M::ClosestObservation,
        "interpolated_inverted_cdf" => M::InterpolatedInvertedCdf,
        "hazen" => M::Hazen,
        "weibull" => M::Weibull,
        "linear" | "-" => M::Linear,
        "median_unbiased" => M::MedianUnbiased,
        "normal_unbiased" => M::NormalUnbiased,
        "lower" => M::Lower,
        "higher" => M::Higher,
        "midpoint" => M::Midpoint,
        "nearest" => M::Nearest,
        other => panic!("unknown method {other}"),
    }
}

/// One case's result as f64 bits of the element type (f32 results widened exactly).
fn run<T: mdtensor::Real + Into<f64>>(
    func: &str,
    m: QuantileMethod,
    shape: Vec<usize>,
    axis: Option<isize>,
    q: f64,
    data: Vec<T>,
) -> Vec<f64> {
    let a = Tensor::<T, DynRank>::from_vec(shape, data);
    let all = |x: T| vec![x.into()];
    let lanes = |t: Tensor<T, DynRank>| t.to_vec().into_iter().map(Into::into).collect();
    match (func, axis) {
        ("quantile", None) => all(a.quantile(q, m)),
        ("quantile", Some(ax)) => lanes(a.quantile_axis_dyn(q, ax, m)),
        ("median", None) => all(a.median()),
        ("median", Some(ax)) => lanes(a.median_axis_dyn(ax)),
        ("nanmedian", None) => all(a.nanmedian()),
        ("nanmedian", Some(ax)) => lanes(a.nanmedian_axis_dyn(ax)),
        ("nanquantile", None) => all(a.nanquantile(q, m)),
        ("nanquantile", Some(ax)) => lanes(a.nanquantile_axis_dyn(q, ax, m)),
        _ => panic!("unknown function {func}"),
    }
}

fn same(got: &[f64], want: &[f64]) -> bool {
    got.len() == want.len()
        && got.iter().zip(want).all(|(g, w)| g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()))
}

#[test]
fn quantiles_medians_match_numpy_bit_for_bit() {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ring/quantiles.txt");
    let text = std::fs::read_to_string(&p).unwrap();
    let (mut checked, mut failed) = (0, Vec::new());
    for line in text.lines() {
        let f: Vec<&str> = line.split('|').collect();
        let shape: Vec<usize> = f[3].split(',').map(|d| d.parse().unwrap()).collect();
        let axis = if f[4] == "none" { None } else { Some(f[4].parse().unwrap()) };
        let q: f64 = f[5].parse().unwrap();
        let words = |s: &str| s.split(',').map(|b| u64::from_str_radix(b, 16).unwrap()).collect::<Vec<_>>();
        let (data, want) = (words(f[6]), words(f[7]));
        let (got, want): (Vec<f64>, Vec<f64>) = if f[2] == "float64" {
            (
                run(f[0], method(f[1]), shape, axis, q, data.iter().map(|&b| f64::from_bits(b)).collect()),
                want.iter().map(|&b| f64::from_bits(b)).collect(),
            )
        } else {
            (
                run(f[0], method(f[1]), shape, axis, q, data.iter().map(|&b| f32::from_bits(b as u32)).collect()),
                want.iter().map(|&b| f32::from_bits(b as u32) as f64).collect(),
            )
        };
        checked += 1;
        if !same(&got, &want) {
            failed.push(format!("{line}\n  got {got:?}\n  want {want:?}"));
        }
    }
    assert!(checked > 2000, "only {checked} cases read");
    assert!(
        failed.is_empty(),
        "{} of {checked} cases differ:\n{}",
        failed.len(),
        failed[..failed.len().min(8)].join("\n")
    );
}
