//! The linear-algebra routines (feature `linalg`) against numpy's and scipy's own results:
//! fixtures written by `tests/fixtures/linalg/make_fixtures.py`, read through the public
//! API on the fixed-rank (`ext![_, _]`) and the dynamic-rank (`DynRank` stack) paths.
#![cfg(feature = "linalg")]

use mdtensor::linalg::{MatrixOrd, Uplo};
use mdtensor::{ext, io, DynRank, Tensor};
use std::path::PathBuf;

fn load(name: &str) -> Tensor<f64, DynRank> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/linalg").join(format!("{name}.npy"));
    io::load_npy(p).unwrap_or_else(|e| panic!("{name}: {e}"))
}
fn load_i(name: &str) -> i64 {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/linalg").join(format!("{name}.npy"));
    let t: Tensor<i64, DynRank> = io::load_npy(p).unwrap_or_else(|e| panic!("{name}: {e}"));
    t.to_vec()[0]
}
fn mat(name: &str) -> Tensor<f64, ext![_, _]> {
    let t = load(name);
    let s = t.shape();
    Tensor::from_vec([s[0], s[1]], t.to_vec())
}
fn close(got: &[f64], want: &[f64], tol: f64, ctx: &str) {
    assert_eq!(got.len(), want.len(), "{ctx}");
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= tol * (1.0 + w.abs()), "{ctx}: {got:?} vs {want:?}");
    }
}

#[test]
fn dense_routines_match_numpy() {
    let a = mat("a");
    close(&a.solve(&mat("b")).to_vec(), &load("solve").to_vec(), 1e-12, "solve");
    close(&a.inv().to_vec(), &load("inv").to_vec(), 1e-12, "inv");
    close(&[a.det()], &load("det").to_vec(), 1e-12, "det");
    let (sign, logdet) = a.slogdet();
    close(&[sign, logdet], &load("slogdet").to_vec(), 1e-12, "slogdet");
    close(&mat("spd").cholesky().to_vec(), &load("cholesky").to_vec(), 1e-12, "cholesky");
    close(&mat("sym").eigvalsh(Uplo::Lower).to_vec(), &load("eigvalsh").to_vec(), 1e-12, "eigvalsh");
    // numpy read the upper triangle of `triu(a) + triu(a, 1)ᵀ`, which is `a`'s own upper triangle.
    close(&a.eigvalsh(Uplo::Upper).to_vec(), &load("eigvalsh_u").to_vec(), 1e-12, "eigvalsh U");
    close(&a.svdvals().to_vec(), &load("svdvals").to_vec(), 1e-12, "svdvals");
    close(&a.expm().to_vec(), &load("expm").to_vec(), 1e-11, "expm");
    let a3 = Tensor::<f64, ext![_, _]>::from_vec([5, 5], a.to_vec().iter().map(|x| 3.0 * x).collect());
    close(&a3.expm().to_vec(), &load("expm_big").to_vec(), 1e-9, "expm scaled");
    close(&a.matrix_power(-3).to_vec(), &load("power_m3").to_vec(), 1e-10, "matrix_power");
    let cond =
        [a.cond(None), a.cond(Some(MatrixOrd::One)), a.cond(Some(MatrixOrd::MinusTwo)), a.cond(Some(MatrixOrd::Fro))];
    close(&cond, &load("cond").to_vec(), 1e-11, "cond");
    use MatrixOrd::*;
    let norms: Vec<f64> =
        [Two, MinusTwo, Nuc, Fro, One, MinusOne, Inf, MinusInf].iter().map(|&o| a.matrix_norm(o)).collect();
    close(&norms, &load("norms").to_vec(), 1e-12, "matrix_norm");
    let tall = mat("tall");
    let y = load("y");
    let y = Tensor::<f64, ext![_]>::from_vec([7], y.to_vec());
    let r = tall.lstsq(&y, None);
    close(&r.x.to_vec(), &load("lstsq_x").to_vec(), 1e-12, "lstsq x");
    close(&r.residuals.to_vec(), &load("lstsq_res").to_vec(), 1e-11, "lstsq residuals");
    assert_eq!(r.rank as i64, load_i("lstsq_rank"));
    close(&tall.pinv(None).to_vec(), &load("pinv").to_vec(), 1e-12, "pinv");
    assert_eq!(mat("low").matrix_rank(None) as i64, load_i("rank_low"));
    let mut w: Vec<(f64, f64)> = a.eigvals().to_vec().iter().map(|z| (z.re, z.im)).collect();
    // numpy's sort_complex: by real part, then imaginary part.
    w.sort_by(|p, q| p.0.total_cmp(&q.0).then(p.1.total_cmp(&q.1)));
    let re: Vec<f64> = w.iter().map(|p| p.0).collect();
    let im: Vec<f64> = w.iter().map(|p| p.1).collect();
    close(&re, &load("eigvals_re").to_vec(), 1e-10, "eigvals re");
    close(&im, &load("eigvals_im").to_vec(), 1e-10, "eigvals im");
}

#[test]
fn broadcast_stack_matches_numpy() {
    let (sa, sb) = (load("stack_a"), load("stack_b"));
    let x = sa.solve(&sb);
    assert_eq!(x.shape(), load("stack_x").shape());
    close(&x.to_vec(), &load("stack_x").to_vec(), 1e-12, "stack solve");
    let d = sa.det();
    assert_eq!(d.shape(), load("stack_det").shape());
    close(&d.to_vec(), &load("stack_det").to_vec(), 1e-12, "stack det");
}

#[test]
fn batched_routines_match_numpy() {
    let bt = load("bt");
    let same = |got: Tensor<f64, DynRank>, want: &str, tol: f64| {
        let w = load(want);
        assert_eq!(got.shape(), w.shape(), "{want}");
        close(&got.to_vec(), &w.to_vec(), tol, want);
    };
    same(bt.svdvals(), "bt_svdvals", 1e-12);
    same(bt.pinv(None), "bt_pinv", 1e-11);
    same(bt.matrix_norm(MatrixOrd::Nuc), "bt_nuc", 1e-12);
    same(bt.cond(None), "bt_cond", 1e-11);
    let rank = bt.matrix_rank(None);
    let want: Tensor<i64, DynRank> =
        io::load_npy(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/linalg/bt_rank.npy")).unwrap();
    assert_eq!(rank.shape(), want.shape());
    assert_eq!(rank.to_vec().iter().map(|&r| r as i64).collect::<Vec<_>>(), want.to_vec());
    let bs = load("bs");
    let (sign, logdet) = bs.slogdet();
    let both: Vec<f64> = sign.to_vec().into_iter().chain(logdet.to_vec()).collect();
    close(&both, &load("bs_slogdet").to_vec(), 1e-12, "slogdet");
    same(bs.eigvalsh(Uplo::Upper), "bs_eigvalsh_u", 1e-12);
    same(load("bs_spd").cholesky(), "bs_cholesky", 1e-12);
    same(bs.matrix_power(-2), "bs_power_m2", 1e-10);
    let mut ev: Vec<(f64, f64)> = bs.eigvals().to_vec().iter().map(|z| (z.re, z.im)).collect();
    // numpy's sort_complex within each matrix: by real part, then imaginary (the real
    // parts of a conjugate pair compared to rounding, as they may differ in the last bits).
    for m in ev.chunks_mut(4) {
        m.sort_by(|a, b| ((a.0 * 1e9).round(), a.1).partial_cmp(&((b.0 * 1e9).round(), b.1)).unwrap());
    }
    let re: Vec<f64> = ev.iter().map(|z| z.0).collect();
    let im: Vec<f64> = ev.iter().map(|z| z.1).collect();
    close(&re, &load("bs_eigvals_re").to_vec(), 1e-10, "eigvals re");
    close(&im, &load("bs_eigvals_im").to_vec(), 1e-10, "eigvals im");
    // The fixed-rank path reads the same stack.
    let tri = load("bs_tri");
    let x = tri.solve_triangular(&load("bs_rhs"), true, false);
    same(x, "bs_trsolve", 1e-12);
    let fixed = Tensor::<f64, ext![3, 4, 4]>::from_vec(ext![3, 4, 4], bs.to_vec());
    let (fs, fl) = fixed.slogdet();
    let both: Vec<f64> = fs.to_vec().into_iter().chain(fl.to_vec()).collect();
    close(&both, &load("bs_slogdet").to_vec(), 1e-12, "fixed slogdet");
    close(&fixed.eigvalsh(Uplo::Upper).to_vec(), &load("bs_eigvalsh_u").to_vec(), 1e-12, "fixed eigvalsh");
}
