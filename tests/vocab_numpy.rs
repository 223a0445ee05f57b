//! numpy's own results for the everyday vocabulary (sort/argsort NaN order, cumsum,
//! cumprod, concatenate/stack/split, norms, take, clip), through the dynamic-rank path and
//! through fixed-rank types. The fixtures come from `tests/fixtures/vocab/make_fixtures.py`.

use mdtensor::ops::Norm;
use mdtensor::{concatenate_dyn, ext, io, stack_dyn, DynRank, Tensor};
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/vocab").join(format!("{name}.npy"))
}
fn load_f(name: &str) -> Tensor<f64, DynRank> {
    io::load_npy(fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}
fn load_i(name: &str) -> Tensor<i64, DynRank> {
    io::load_npy(fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}
/// Equal shapes and elements, NaN equal to NaN.
fn same(got: &[f64], want: &[f64], ctx: &str) {
    assert_eq!(got.len(), want.len(), "{ctx}");
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(g == w || (g.is_nan() && w.is_nan()), "{ctx}: element {k}: {g} vs {w}");
    }
}

#[test]
fn sort_and_argsort_put_nan_last_and_are_stable() {
    let s = load_f("sort_in");
    let fixed: Tensor<f64, ext![3, 5]> = io::load_npy(fixture("sort_in")).unwrap();
    for axis in 0..2 {
        let want = load_f(&format!("sort_ax{axis}"));
        let order = load_i(&format!("argsort_ax{axis}"));
        let got = s.sort_axis_dyn(axis);
        assert_eq!(got.shape(), want.shape());
        same(&got.to_vec(), &want.to_vec(), "sort");
        let ord: Vec<i64> = s.argsort_axis_dyn(axis).iter().map(|&x| x as i64).collect();
        assert_eq!(ord, order.to_vec(), "argsort axis {axis}");
        // The same through a transposed view of a fixed-rank tensor.
        let t = fixed.t();
        let back = t.argsort_axis_dyn(1 - axis);
        let back: Vec<i64> = back.t().iter().map(|&x| x as i64).collect();
        assert_eq!(back, order.to_vec(), "argsort of the transpose, axis {axis}");
    }
    same(&fixed.sort_axis::<1>().to_vec(), &load_f("sort_ax1").to_vec(), "static sort");
}

#[test]
fn cumsum_and_cumprod_match_numpy() {
    let c = load_i("cum_in");
    let fixed: Tensor<i64, ext![2, 3, 4]> = io::load_npy(fixture("cum_in")).unwrap();
    for axis in 0..3 {
        assert_eq!(c.cumsum_dyn(axis).to_vec(), load_i(&format!("cumsum_ax{axis}")).to_vec(), "axis {axis}");
        let small = c.mapv(|x| x.rem_euclid(3) + 1);
        assert_eq!(small.cumprod_dyn(axis).to_vec(), load_i(&format!("cumprod_ax{axis}")).to_vec(), "axis {axis}");
    }
    assert_eq!(fixed.cumsum::<2>().to_vec(), load_i("cumsum_ax2").to_vec());
    assert_eq!(fixed.t().cumsum_flat().to_vec(), {
        let mut acc = 0;
        fixed
            .t()
            .iter()
            .map(|&x| {
                acc += x;
                acc
            })
            .collect::<Vec<_>>()
    });
    assert_eq!(c.cumsum_flat().to_vec(), load_i("cumsum_flat").to_vec());
    let mixed: Tensor<i64, ext![2, _, 4]> = io::load_npy(fixture("cum_in")).unwrap();
    assert_eq!(mixed.cumsum::<1>().to_vec(), load_i("cumsum_ax1").to_vec());
}

#[test]
fn concatenate_stack_split_match_numpy() {
    let (a, b, c) = (load_f("cat_a"), load_f("cat_b"), load_f("cat_c"));
    let ab = concatenate_dyn(0, &[&a, &b]);
    assert_eq!(ab.shape(), [6, 3]);
    same(&ab.to_vec(), &load_f("cat_ab_ax0").to_vec(), "concatenate axis 0");
    same(&concatenate_dyn(1, &[&a, &c]).to_vec(), &load_f("cat_ac_ax1").to_vec(), "concatenate axis 1");
    // Static: the joined extents are computed in the type.
    let sa: Tensor<f64, ext![2, 3]> = io::load_npy(fixture("cat_a")).unwrap();
    let sb: Tensor<f64, ext![4, 3]> = io::load_npy(fixture("cat_b")).unwrap();
    let sab = sa.concatenate::<0, _>(&sb);
    let _: &ext![6, 3] = sab.extents();
    same(&sab.to_vec(), &load_f("cat_ab_ax0").to_vec(), "static concatenate");
    let (a10, a100) = (a.mapv(|x| x * 10.0), a.mapv(|x| x * 100.0));
    for axis in 0..3 {
        let s = stack_dyn(axis, &[&a, &a10, &a100]);
        let want = load_f(&format!("stack_aa_ax{axis}"));
        assert_eq!(s.shape(), want.shape(), "stack axis {axis}");
        same(&s.to_vec(), &want.to_vec(), "stack");
    }
    let x = load_f("split_in");
    for (k, p) in x.array_split_dyn(0, 3).iter().enumerate() {
        let want = load_f(&format!("array_split_ax0_{k}"));
        assert_eq!(p.shape(), want.shape());
        same(&p.to_vec(), &want.to_vec(), "array_split");
    }
    let fx: Tensor<f64, ext![7, 4]> = io::load_npy(fixture("split_in")).unwrap();
    for (k, p) in fx.split::<1>(2).iter().enumerate() {
        same(&p.to_vec(), &load_f(&format!("split_ax1_{k}")).to_vec(), "split");
    }
    assert!(fx.try_split::<0>(2).is_err(), "7 rows do not split in 2 (numpy raises)");
    let pieces = x.split_indices_dyn(0, &[2, 5, 3, 9]);
    assert_eq!(pieces.len(), 5);
    for (k, p) in pieces.iter().enumerate() {
        let want = load_f(&format!("split_idx_ax0_{k}"));
        assert_eq!(p.shape(), want.shape(), "split at indices, piece {k}");
        same(&p.to_vec(), &want.to_vec(), "split at indices");
    }
}

#[test]
fn norms_take_clip_match_numpy() {
    let (v, m) = (load_f("norm_v"), load_f("norm_m"));
    let want = load_f("norms").to_vec();
    let got = [v.norm(Norm::L1), v.norm(Norm::L2), v.norm(Norm::Max), m.norm(Norm::Fro)];
    for (g, w) in got.iter().zip(&want) {
        assert!((g - w).abs() <= 1e-12 * w.abs(), "{got:?} vs {want:?}");
    }
    let fm: Tensor<f64, ext![3, 3]> = io::load_npy(fixture("norm_m")).unwrap();
    let by_axis = load_f("norm_axis").to_vec();
    let kinds = [Norm::L1, Norm::L2, Norm::Max];
    for (row, (axis, kind)) in [0, 1].iter().flat_map(|&a| kinds.iter().map(move |&k| (a, k))).enumerate() {
        let got = m.norm_axis_dyn(axis, kind).to_vec();
        let want = &by_axis[row * 3..row * 3 + 3];
        assert!(
            got.iter().zip(want).all(|(g, w)| (g - w).abs() <= 1e-12 * w.abs()),
            "{axis} {kind:?}: {got:?} vs {want:?}"
        );
    }
    let s1 = fm.norm_axis::<1>(Norm::L2);
    let _: &ext![3] = s1.extents();
    assert!(s1.iter().zip(&by_axis[12..15]).all(|(g, w)| (g - w).abs() <= 1e-12 * w.abs()));
    same(&fm.take::<1>(&[2, 0, 2]).to_vec(), &load_f("take_ax1").to_vec(), "take");
    same(&m.take_dyn(1, &[2, 0, 2]).to_vec(), &load_f("take_ax1").to_vec(), "take_dyn");
    let x = mdtensor::tensor![-3.0, f64::NAN, 0.2, 9.0];
    same(&x.clip(-1.0, 1.0).to_vec(), &load_f("clip").to_vec(), "clip");
}
