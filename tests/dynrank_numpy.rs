//! numpy as the oracle for the DynRank path and for fixed-rank types: matmul batching
//! (1-D promotion, broadcast batch axes, the pairs numpy rejects), reductions over several
//! axes with and without keepdims, argmax and softmax along a run-time axis. The fixtures
//! are written by `tests/fixtures/dynrank/make_fixtures.py`.

use mdtensor::io::load_npy;
use mdtensor::{ext, DynRank, Tensor};
use std::path::PathBuf;

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dynrank").join(name)
}
fn load(name: &str) -> Tensor<f64, DynRank> {
    load_npy(path(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}
fn lines(name: &str) -> Vec<String> {
    std::fs::read_to_string(path(name)).unwrap().lines().map(str::to_owned).collect()
}
fn numbers(s: &str) -> Vec<usize> {
    s.split_whitespace().map(|x| x.parse().unwrap()).collect()
}

#[test]
fn dynrank_matmul_agrees_with_numpy() {
    for name in lines("matmul_cases.txt") {
        let (a, b) = (load(&format!("matmul_{name}_a.npy")), load(&format!("matmul_{name}_b.npy")));
        let want = load(&format!("matmul_{name}_out.npy"));
        let got = a.try_matmul(&b).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(got.shape(), want.shape(), "{name}");
        assert_eq!(got.to_vec(), want.to_vec(), "{name}");
        // The same product into an existing output.
        let mut out = Tensor::<f64, DynRank>::zeros(DynRank::new(want.shape()));
        a.matmul_into(&b, &mut out);
        assert_eq!(out.to_vec(), want.to_vec(), "{name}: matmul_into");
    }
}

#[test]
fn dynrank_matmul_rejects_what_numpy_rejects() {
    for line in lines("matmul_fail.txt") {
        let (sa, sb) = line.split_once(';').unwrap();
        let a = Tensor::<f64, DynRank>::zeros(DynRank::new(numbers(sa)));
        let b = Tensor::<f64, DynRank>::zeros(DynRank::new(numbers(sb)));
        let err = a.try_matmul(&b).unwrap_err();
        let msg = err.to_string();
        assert!(msg.starts_with("matmul:") && msg.contains(&format!("{:?}", a.shape())), "{line}: {msg}");
    }
}

#[test]
fn fixed_rank_matmul_agrees_with_numpy() {
    // numpy's [3,3,2,4] @ [3,1,4,4]: two broadcast batch axes, in the type.
    let (a, b) = (load("matmul_batch_bcast2_a.npy"), load("matmul_batch_bcast2_b.npy"));
    let want = load("matmul_batch_bcast2_out.npy");
    let a4 = a.try_into_extents::<ext![3, 3, 2, 4]>().unwrap();
    let b4 = b.try_into_extents::<ext![3, 1, 4, 4]>().unwrap();
    let c = a4.matmul(&b4);
    let _: &ext![3, 3, 2, 4] = c.extents();
    assert_eq!(c.to_vec(), want.to_vec());
    // (H, W, 3) @ (3,), with dynamic H, W.
    let (a, b) = (load("matmul_hw3_vec_a.npy"), load("matmul_hw3_vec_b.npy"));
    let want = load("matmul_hw3_vec_out.npy");
    let img = a.try_into_extents::<ext![_, _, 3]>().unwrap();
    let w = b.try_into_extents::<ext![3]>().unwrap();
    let c = img.matmul(&w);
    let _: &ext![_, _] = c.extents();
    assert_eq!((c.shape(), c.to_vec()), (want.shape(), want.to_vec()));
    // Batched vector·matrix and matrix·batch.
    for (name, ra, rb) in [("vec_batch", 1, 3), ("batch_vec", 3, 1), ("mat_batch", 2, 3)] {
        let (a, b) = (load(&format!("matmul_{name}_a.npy")), load(&format!("matmul_{name}_b.npy")));
        let want = load(&format!("matmul_{name}_out.npy"));
        let got = match (ra, rb) {
            (1, 3) => a.try_into_rank::<1>().unwrap().matmul(&b.try_into_rank::<3>().unwrap()).into_dyn(),
            (3, 1) => a.try_into_rank::<3>().unwrap().matmul(&b.try_into_rank::<1>().unwrap()).into_dyn(),
            _ => a.try_into_rank::<2>().unwrap().matmul(&b.try_into_rank::<3>().unwrap()).into_dyn(),
        };
        assert_eq!((got.shape(), got.to_vec()), (want.shape(), want.to_vec()), "{name}");
    }
}

#[test]
fn multi_axis_reductions_agree_with_numpy() {
    let x = load("reduce_x.npy");
    let x4 = x.clone().try_into_extents::<ext![2, 3, 4, 5]>().unwrap();
    let xt = x.permute(&[3, 2, 1, 0]); // a strided view: axes reversed
    for line in lines("reduce_cases.txt") {
        let mut words = line.split_whitespace();
        let name = words.next().unwrap();
        let axes: Vec<usize> = words.map(|w| w.parse().unwrap()).collect();
        let rev: Vec<usize> = axes.iter().map(|&a| 3 - a).collect();
        let f = |kind: &str| load(&format!("reduce_{name}_{kind}.npy"));
        let close = |got: &[f64], want: &[f64], what: &str| {
            assert_eq!(got.len(), want.len(), "{name} {what}");
            for (g, w) in got.iter().zip(want) {
                assert!((g - w).abs() <= 1e-12 * w.abs().max(1.0), "{name} {what}: {g} vs {w}");
            }
        };
        let sum = f("sum");
        assert_eq!((x.sum_axes(&axes).shape(), x.sum_axes(&axes).to_vec()), (sum.shape(), sum.to_vec()), "{name}");
        assert_eq!(x4.sum_axes(&axes).to_vec(), sum.to_vec(), "{name}: static extents");
        // The reversed view reduced over the mirrored axes holds the same sums, with the
        // kept axes reversed.
        let kept_rev = xt.sum_axes(&rev);
        let back: Vec<usize> = (0..kept_rev.rank()).rev().collect();
        assert_eq!(kept_rev.permute(&back).to_vec(), sum.to_vec(), "{name}: strided view");
        close(&x.mean_axes(&axes).to_vec(), &f("mean").to_vec(), "mean");
        assert_eq!(x.max_axes(&axes).to_vec(), f("max").to_vec(), "{name}: max");
        close(&x.var_axes(&axes, 1).to_vec(), &f("var").to_vec(), "var");
        let keep = x4.sum_axes_keepdims(&axes);
        let _: &ext![_, _, _, _] = keep.extents();
        let want = f("sum_keep");
        assert_eq!((keep.shape(), keep.to_vec()), (want.shape(), want.to_vec()), "{name}: keepdims");
    }
}

#[test]
fn runtime_axis_argmax_and_softmax_agree_with_numpy() {
    let x = load("reduce_x.npy");
    for axis in 0..4 {
        let want: Tensor<i64, DynRank> = load_npy(path(&format!("argmax_{axis}.npy"))).unwrap();
        let got: Vec<i64> = x.argmax_axis_dyn(axis).iter().map(|&i| i as i64).collect();
        assert_eq!(got, want.to_vec(), "argmax axis {axis}");
        let want = load(&format!("softmax_{axis}.npy"));
        for (g, w) in x.softmax_dyn(axis).iter().zip(want.iter()) {
            assert!((g - w).abs() < 1e-14, "softmax axis {axis}: {g} vs {w}");
        }
    }
    assert!(x.try_argmax_axis_dyn(4).is_err());
    assert!(x.try_softmax_dyn(4).is_err());
}
