//! numpy as the oracle for the order statistics: every quantile method, `median`,
//! `nanmedian` and `nanquantile` of float64 and float32 arrays, along the last axis and
//! over all elements, compared bit for bit; lists of quantiles and percentiles along every
//! axis, and `nanvar`/`nanstd`. The fixtures are written by the scripts in
//! `tests/fixtures/ring/`.

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

fn list<T: std::str::FromStr>(s: &str) -> Vec<T>
where
    T::Err: std::fmt::Debug,
{
    s.split(',').filter(|x| !x.is_empty()).map(|x| x.parse().unwrap()).collect()
}

fn floats(s: &str) -> Vec<f64> {
    s.split(',').filter(|x| !x.is_empty()).map(|b| f64::from_bits(u64::from_str_radix(b, 16).unwrap())).collect()
}

/// pad, tile, repeat, kron, unique, searchsorted, interp, histogram and bincount against
/// numpy (`tests/fixtures/ring/make_more_fixtures.py`).
#[test]
fn padding_tiling_counting_searching_match_numpy() {
    use mdtensor::ops::{Bins, PadMode, Side};
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ring/cases.txt");
    let text = std::fs::read_to_string(&p).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let f: Vec<&str> = line.split('|').collect();
        let (func, args, shape, data, want_shape, want) = (f[0], f[1], list::<usize>(f[2]), f[3], f[4], f[5]);
        let ints = || Tensor::<i64, DynRank>::from_vec(shape.clone(), list(data));
        let check = |got_shape: Vec<usize>, got: Vec<i64>| {
            assert_eq!(got_shape, list::<usize>(want_shape), "{line}");
            assert_eq!(got, list::<i64>(want), "{line}");
        };
        match func {
            "pad" => {
                let (mode, widths) = args.split_once(':').unwrap();
                let w: Vec<(usize, usize)> = widths
                    .split(';')
                    .filter(|s| !s.is_empty())
                    .map(|p| {
                        let v: Vec<usize> = list(p);
                        (v[0], v[1])
                    })
                    .collect();
                let mode = match mode {
                    "constant" => PadMode::Constant(7),
                    "edge" => PadMode::Edge,
                    "reflect" => PadMode::Reflect,
                    "symmetric" => PadMode::Symmetric,
                    _ => PadMode::Wrap,
                };
                let r = ints().pad_dyn(&w, mode);
                check(r.dims().to_vec(), r.to_vec());
            }
            "tile" => {
                let r = ints().tile_dyn(&list::<usize>(args));
                check(r.dims().to_vec(), r.to_vec());
            }
            "repeat" | "repeat_each" => {
                let (c, axis) = args.split_once(':').unwrap();
                let axis: isize = axis.parse().unwrap();
                let r = if func == "repeat" {
                    ints().repeat_dyn(c.parse().unwrap(), axis)
                } else {
                    ints().repeat_each_dyn(&list::<usize>(c), axis)
                };
                check(r.dims().to_vec(), r.to_vec());
            }
            "kron" => {
                let (bs, bd) = args.split_once(':').unwrap();
                let b = Tensor::<i64, DynRank>::from_vec(list::<usize>(bs), list(bd));
                let r = ints().kron(&b);
                check(r.dims().to_vec(), r.to_vec());
            }
            "unique" => {
                let u = ints().unique_all();
                let w: Vec<&str> = want.split(';').collect();
                assert_eq!(u.values.to_vec(), list::<i64>(w[0]), "{line}");
                assert_eq!(u.indices.to_vec(), list::<usize>(w[1]), "{line}");
                assert_eq!(u.inverse.to_vec(), list::<usize>(w[2]), "{line}");
                assert_eq!(u.counts.to_vec(), list::<usize>(w[3]), "{line}");
            }
            "searchsorted" => {
                let (side, grid) = args.split_once(':').unwrap();
                let side = if side == "left" { Side::Left } else { Side::Right };
                let g = Tensor::<f64, (mdtensor::Dyn,)>::from_vec([floats(grid).len()], floats(grid));
                let v = Tensor::<f64, DynRank>::from_vec(shape.clone(), floats(data));
                let r = g.searchsorted(&v, side);
                assert_eq!(r.to_vec(), list::<usize>(want), "{line}");
            }
            "interp" => {
                let (xp, fp) = args.split_once(':').unwrap();
                let xp = Tensor::<f64, (mdtensor::Dyn,)>::from_vec([floats(xp).len()], floats(xp));
                let fp = Tensor::<f64, (mdtensor::Dyn,)>::from_vec([floats(fp).len()], floats(fp));
                let x = Tensor::<f64, DynRank>::from_vec(shape.clone(), floats(data));
                let got = x.interp(&xp, &fp).to_vec();
                assert!(same(&got, &floats(want)), "{line}\n got {got:?}");
            }
            "histogram" | "histogram_range" => {
                let a = Tensor::<f64, DynRank>::from_vec(shape.clone(), floats(data));
                let range = (func == "histogram_range").then_some((-1.0, 2.5));
                let (c, e) = a.histogram(Bins::Count(args.parse().unwrap()), range);
                let (wc, we) = want.split_once(';').unwrap();
                assert_eq!(c.to_vec(), list::<usize>(wc), "{line}");
                assert!(same(&e.to_vec(), &floats(we)), "{line}\n got {:?}", e.to_vec());
                // The same counts through the edges.
                let (c2, _) = a.histogram(Bins::Edges(&floats(we)), None);
                assert_eq!(c2.to_vec(), list::<usize>(wc), "{line}");
            }
            "bincount" => {
                let x = Tensor::<i64, (mdtensor::Dyn,)>::from_vec([list::<i64>(data).len()], list(data));
                let r = x.bincount(args.parse().unwrap());
                assert_eq!(r.to_vec(), list::<usize>(want), "{line}");
            }
            other => panic!("unknown case {other}"),
        }
        checked += 1;
    }
    assert!(checked > 150, "only {checked} cases read");
}

/// One `multi.txt` case's result, as f64 (f32 results widened exactly), with its shape.
fn run_multi<T: mdtensor::Real + Into<f64>>(
    func: &str,
    m: &str,
    shape: Vec<usize>,
    axis: Option<isize>,
    arg: &str,
    data: Vec<T>,
) -> (Vec<usize>, Vec<f64>) {
    let a = Tensor::<T, DynRank>::from_vec(shape, data);
    let out = |t: Tensor<T, DynRank>| (t.dims().to_vec(), t.to_vec().into_iter().map(Into::into).collect());
    let one = |x: T| (vec![], vec![x.into()]);
    let list = |t: Tensor<T, (mdtensor::Dyn,)>| (t.dims().to_vec(), t.to_vec().into_iter().map(Into::into).collect());
    let qs: Vec<f64> = arg.split(',').map(|x| x.parse().unwrap()).collect();
    let m = method(m);
    match (func, axis) {
        ("quantiles", None) => list(a.quantiles(&qs[..], m)),
        ("quantiles", Some(ax)) => out(a.quantiles_axis_dyn(&qs[..], ax, m)),
        ("nanquantiles", None) => list(a.nanquantiles(&qs[..], m)),
        ("nanquantiles", Some(ax)) => out(a.nanquantiles_axis_dyn(&qs[..], ax, m)),
        ("percentiles", None) => list(a.percentiles(&qs[..], m)),
        ("percentiles", Some(ax)) => out(a.percentiles_axis_dyn(&qs[..], ax, m)),
        ("nanpercentiles", None) => list(a.nanpercentiles(&qs[..], m)),
        ("nanpercentiles", Some(ax)) => out(a.nanpercentiles_axis_dyn(&qs[..], ax, m)),
        ("nanvar", None) => one(a.nanvar(qs[0])),
        ("nanvar", Some(ax)) => out(a.nanvar_axis_dyn(ax, qs[0])),
        ("nanstd", None) => one(a.nanstd(qs[0])),
        ("nanstd", Some(ax)) => out(a.nanstd_axis_dyn(ax, qs[0])),
        _ => panic!("unknown function {func}"),
    }
}

/// Several quantiles/percentiles at once (bit for bit, every method) and `nanvar`/`nanstd`
/// (to rounding: numpy sums twice, the reducer updates a running mean) against numpy
/// (`tests/fixtures/ring/make_multi_fixtures.py`), over all elements and along every axis.
#[test]
fn quantile_lists_and_nan_spreads_match_numpy() {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ring/multi.txt");
    let text = std::fs::read_to_string(&p).unwrap();
    let (mut checked, mut failed) = (0, Vec::new());
    for line in text.lines() {
        let f: Vec<&str> = line.split('|').collect();
        let shape: Vec<usize> = list(f[3]);
        let axis = if f[4] == "none" { None } else { Some(f[4].parse().unwrap()) };
        let words = |s: &str| s.split(',').map(|b| u64::from_str_radix(b, 16).unwrap()).collect::<Vec<_>>();
        let (data, want) = (words(f[6]), words(f[8]));
        let (f32s, tol) = (f[2] == "float32", if f[2] == "float32" { 1e-5 } else { 1e-12 });
        let ((got_shape, got), want): ((Vec<usize>, Vec<f64>), Vec<f64>) = if f32s {
            (
                run_multi(f[0], f[1], shape, axis, f[5], data.iter().map(|&b| f32::from_bits(b as u32)).collect()),
                want.iter().map(|&b| f32::from_bits(b as u32) as f64).collect(),
            )
        } else {
            (
                run_multi(f[0], f[1], shape, axis, f[5], data.iter().map(|&b| f64::from_bits(b)).collect()),
                want.iter().map(|&b| f64::from_bits(b)).collect(),
            )
        };
        let spread = f[0].starts_with("nanvar") || f[0].starts_with("nanstd");
        let close = |g: &f64, w: &f64| (g.is_nan() && w.is_nan()) || (g - w).abs() <= tol * (1.0 + w.abs());
        let ok = got_shape == list::<usize>(f[7])
            && if spread {
                got.len() == want.len() && got.iter().zip(&want).all(|(g, w)| close(g, w))
            } else {
                same(&got, &want)
            };
        checked += 1;
        if !ok {
            failed.push(format!("{line}\n  got {got_shape:?} {got:?}\n  want {want:?}"));
        }
    }
    assert!(checked > 2000, "only {checked} cases read");
    assert!(
        failed.is_empty(),
        "{} of {checked} cases differ:\n{}",
        failed.len(),
        failed[..failed.len().min(6)].join("\n")
    );
}
