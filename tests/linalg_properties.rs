//! Property tests of the dense linear-algebra routines (feature `linalg`) against plain
//! references: reconstructions (`P·L·U`, `Q·R` with `QᴴQ = I`, `U·S·Vᴴ`, `V·Λ·Vᴴ`,
//! `L·Lᴴ`), solve residuals and determinants by cofactor expansion, on random shapes and on
//! row-major, transposed, step-2 sliced and flipped views of the same matrix.
#![cfg(feature = "linalg")]

use mdtensor::linalg::{QrMode, Uplo};
use mdtensor::{ext, s, Complex64, LinalgError, Tensor};
use proptest::prelude::*;

fn config() -> ProptestConfig {
    ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(48) }
}

/// `a` (`m × k`, row-major) times `b` (`k × n`).
fn mm(a: &[f64], m: usize, k: usize, b: &[f64], n: usize) -> Vec<f64> {
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..k).map(|l| a[i * k + l] * b[l * n + j]).sum();
        }
    }
    c
}

fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol * (1.0 + y.abs()))
}

/// The determinant by cofactor expansion along the first row.
fn det_ref(a: &[f64], n: usize) -> f64 {
    if n == 0 {
        return 1.0;
    }
    if n == 1 {
        return a[0];
    }
    (0..n)
        .map(|j| {
            let minor: Vec<f64> =
                (1..n).flat_map(|i| (0..n).filter(move |&c| c != j).map(move |c| a[i * n + c])).collect();
            let sign = if j % 2 == 0 { 1.0 } else { -1.0 };
            sign * a[j] * det_ref(&minor, n - 1)
        })
        .sum()
}

/// Runs `$body` with `$a` bound to the `m × n` row-major matrix `data` in four layouts:
/// an owned row-major tensor, a transposed view, a step-2 column slice and a flipped view.
macro_rules! with_views {
    ($m:expr, $n:expr, $data:expr, |$a:ident| $body:block) => {{
        let (m, n, data): (usize, usize, &Vec<f64>) = ($m, $n, $data);
        {
            let $a = Tensor::<f64, ext![_, _]>::from_vec([m, n], data.clone());
            $body
        }
        {
            let tr: Vec<f64> = (0..n * m).map(|k| data[(k % m) * n + k / m]).collect();
            let base = Tensor::<f64, ext![_, _]>::from_vec([n, m], tr);
            let $a = base.t();
            $body
        }
        {
            let wide: Vec<f64> = (0..m * 2 * n).map(|k| if k % 2 == 0 { data[k / 2] } else { f64::NAN }).collect();
            let base = Tensor::<f64, ext![_, _]>::from_vec([m, 2 * n], wide);
            let $a = base.slice(s![.., ..;2]);
            $body
        }
        {
            let flipped: Vec<f64> = (0..m * n).map(|k| data[(m - 1 - k / n) * n + k % n]).collect();
            let base = Tensor::<f64, ext![_, _]>::from_vec([m, n], flipped);
            let $a = base.slice(s![..;-1, ..]);
            $body
        }
    }};
}

fn matrix(max: usize) -> impl Strategy<Value = (usize, usize, Vec<f64>)> {
    (1..=max, 1..=max).prop_flat_map(|(m, n)| (Just(m), Just(n), prop::collection::vec(-1.0f64..1.0, m * n)))
}

/// A square matrix made well conditioned by a dominant diagonal.
fn square(max: usize) -> impl Strategy<Value = (usize, Vec<f64>)> {
    (1..=max).prop_flat_map(|n| (Just(n), prop::collection::vec(-1.0f64..1.0, n * n))).prop_map(|(n, mut a)| {
        for i in 0..n {
            a[i * n + i] += n as f64 + 1.0;
        }
        (n, a)
    })
}

/// A symmetric positive-definite matrix `B Bᵀ + n I`.
fn spd(max: usize) -> impl Strategy<Value = (usize, Vec<f64>)> {
    (1..=max).prop_flat_map(spd_of)
}

/// A random symmetric positive-definite `n × n` matrix, row-major.
fn spd_of(n: usize) -> impl Strategy<Value = (usize, Vec<f64>)> {
    (Just(n), prop::collection::vec(-1.0f64..1.0, n * n)).prop_map(|(n, b)| {
        let bt: Vec<f64> = (0..n * n).map(|k| b[(k % n) * n + k / n]).collect();
        let mut a = mm(&b, n, n, &bt, n);
        for i in 0..n {
            a[i * n + i] += n as f64;
        }
        (n, a)
    })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn solve_and_inv_have_small_residuals((n, a) in square(9), rhs in prop::collection::vec(-1.0f64..1.0, 27)) {
        let b = &rhs[..n];
        with_views!(n, n, &a, |t| {
            let x = t.solve(&Tensor::<f64, ext![_]>::from_vec([n], b.to_vec()));
            prop_assert!(close(&mm(&a, n, n, &x.to_vec(), 1), b, 1e-10));
            let bm = Tensor::<f64, ext![_, _]>::from_vec([n, 3], rhs[..3 * n].to_vec());
            let xm = t.solve(&bm);
            prop_assert_eq!(xm.shape(), vec![n, 3]);
            prop_assert!(close(&mm(&a, n, n, &xm.to_vec(), 3), &rhs[..3 * n], 1e-10));
            let i = t.inv();
            let eye: Vec<f64> = (0..n * n).map(|k| if k / n == k % n { 1.0 } else { 0.0 }).collect();
            prop_assert!(close(&mm(&a, n, n, &i.to_vec(), n), &eye, 1e-10));
            let lu = t.lu_factor();
            prop_assert!(close(&lu.solve(&bm).to_vec(), &xm.to_vec(), 1e-10));
        });
    }

    #[test]
    fn det_and_slogdet_match_cofactors((n, data) in (1usize..=5).prop_flat_map(|n| (Just(n), prop::collection::vec(-2.0f64..2.0, n * n)))) {
        let want = det_ref(&data, n);
        with_views!(n, n, &data, |t| {
            let d = t.det();
            prop_assert!((d - want).abs() <= 1e-10 * (1.0 + want.abs()), "{} vs {}", d, want);
            let (sign, logabs) = t.slogdet();
            if want.abs() > 1e-9 {
                prop_assert!((sign * logabs.exp() - want).abs() <= 1e-9 * (1.0 + want.abs()));
            }
        });
    }

    #[test]
    fn lu_reconstructs((m, n, a) in matrix(7)) {
        with_views!(m, n, &a, |t| {
            let (p, l, u) = t.lu();
            let k = m.min(n);
            prop_assert_eq!((p.shape(), l.shape(), u.shape()), (vec![m, m], vec![m, k], vec![k, n]));
            let back = mm(&mm(&p.to_vec(), m, m, &l.to_vec(), k), m, k, &u.to_vec(), n);
            prop_assert!(close(&back, &a, 1e-12));
            prop_assert!((0..m).all(|i| (0..k).all(|j| j <= i || l[[i, j]] == 0.0) && (i >= k || l[[i, i]] == 1.0)));
            prop_assert!((0..k).all(|i| (0..i.min(n)).all(|j| u[[i, j]] == 0.0)));
        });
    }

    #[test]
    fn cholesky_reconstructs((n, a) in spd(8), rhs in prop::collection::vec(-1.0f64..1.0, 8)) {
        with_views!(n, n, &a, |t| {
            let l = t.cholesky();
            let lv = l.to_vec();
            prop_assert!((0..n).all(|i| (i + 1..n).all(|j| lv[i * n + j] == 0.0)));
            let lt: Vec<f64> = (0..n * n).map(|k| lv[(k % n) * n + k / n]).collect();
            prop_assert!(close(&mm(&lv, n, n, &lt, n), &a, 1e-12));
            let x = t.cho_factor().solve(&Tensor::<f64, ext![_]>::from_vec([n], rhs[..n].to_vec()));
            prop_assert!(close(&mm(&a, n, n, &x.to_vec(), 1), &rhs[..n], 1e-10));
        });
    }

    #[test]
    fn cholesky_across_tiles_reads_only_the_lower_triangle((n, a) in (15usize..=40).prop_flat_map(spd_of), junk in -9.0f64..9.0) {
        // Orders across the 16 × 16 tiles of the copies; above the diagonal the input holds
        // junk, which must not reach the factor.
        let mut given = a.clone();
        for i in 0..n {
            for j in i + 1..n {
                given[i * n + j] = junk + (i * n + j) as f64;
            }
        }
        with_views!(n, n, &given, |t| {
            let lv = t.cholesky().to_vec();
            prop_assert!((0..n).all(|i| (i + 1..n).all(|j| lv[i * n + j] == 0.0)));
            let lt: Vec<f64> = (0..n * n).map(|k| lv[(k % n) * n + k / n]).collect();
            prop_assert!(close(&mm(&lv, n, n, &lt, n), &a, 1e-11));
        });
    }

    #[test]
    fn qr_reconstructs_with_orthonormal_q((m, n, a) in matrix(7)) {
        with_views!(m, n, &a, |t| {
            let k = m.min(n);
            for (mode, qc) in [(QrMode::Reduced, k), (QrMode::Complete, m)] {
                let (q, r) = t.qr(mode);
                let q = q.unwrap();
                prop_assert_eq!((q.shape(), r.shape()), (vec![m, qc], vec![qc, n]));
                prop_assert!(close(&mm(&q.to_vec(), m, qc, &r.to_vec(), n), &a, 1e-12));
                let qv = q.to_vec();
                let qt: Vec<f64> = (0..qc * m).map(|x| qv[(x % m) * qc + x / m]).collect();
                let eye: Vec<f64> = (0..qc * qc).map(|x| if x / qc == x % qc { 1.0 } else { 0.0 }).collect();
                prop_assert!(close(&mm(&qt, qc, m, &qv, qc), &eye, 1e-12));
                prop_assert!((0..qc).all(|i| (0..i.min(n)).all(|j| r[[i, j]].abs() == 0.0)));
            }
            let (none, r) = t.qr(QrMode::R);
            prop_assert!(none.is_none());
            prop_assert_eq!(r.shape(), vec![k, n]);
        });
    }

    #[test]
    fn svd_reconstructs((m, n, a) in matrix(7)) {
        with_views!(m, n, &a, |t| {
            let k = m.min(n);
            let (u, s, vh) = t.svd(false);
            prop_assert_eq!((u.shape(), s.shape(), vh.shape()), (vec![m, k], vec![k], vec![k, n]));
            let sv = s.to_vec();
            prop_assert!(sv.windows(2).all(|w| w[0] >= w[1]) && sv.iter().all(|&x| x >= 0.0));
            let us: Vec<f64> = (0..m * k).map(|x| u.to_vec()[x] * sv[x % k]).collect();
            prop_assert!(close(&mm(&us, m, k, &vh.to_vec(), n), &a, 1e-12));
            prop_assert!(close(&t.svdvals().to_vec(), &sv, 1e-12));
            let (uf, sf, vhf) = t.svd(true);
            prop_assert_eq!((uf.shape(), sf.shape(), vhf.shape()), (vec![m, m], vec![k], vec![n, n]));
        });
    }

    #[test]
    fn eigh_reconstructs((n, b) in (1usize..=7).prop_flat_map(|n| (Just(n), prop::collection::vec(-1.0f64..1.0, n * n)))) {
        let a: Vec<f64> = (0..n * n).map(|k| b[k] + b[(k % n) * n + k / n]).collect();
        with_views!(n, n, &a, |t| {
            for uplo in [Uplo::Lower, Uplo::Upper] {
                let (w, v) = t.eigh(uplo);
                let wv = w.to_vec();
                prop_assert!(wv.windows(2).all(|p| p[0] <= p[1]));
                let vv = v.to_vec();
                let vl: Vec<f64> = (0..n * n).map(|x| vv[x] * wv[x % n]).collect();
                let vt: Vec<f64> = (0..n * n).map(|x| vv[(x % n) * n + x / n]).collect();
                prop_assert!(close(&mm(&vl, n, n, &vt, n), &a, 1e-11));
                prop_assert!(close(&t.eigvalsh(uplo).to_vec(), &wv, 1e-11));
            }
        });
    }

    #[test]
    fn eig_satisfies_av_equals_wv((n, a) in (1usize..=6).prop_flat_map(|n| (Just(n), prop::collection::vec(-1.0f64..1.0, n * n)))) {
        with_views!(n, n, &a, |t| {
            let (w, v) = t.eig();
            for j in 0..n {
                for i in 0..n {
                    let av: Complex64 = (0..n).map(|l| v[[l, j]] * a[i * n + l]).sum();
                    prop_assert!((av - w[[j]] * v[[i, j]]).norm() < 1e-9);
                }
            }
            let mut s1: Vec<f64> = w.to_vec().iter().map(|z| z.re).collect();
            let mut s2: Vec<f64> = t.eigvals().to_vec().iter().map(|z| z.re).collect();
            s1.sort_by(f64::total_cmp);
            s2.sort_by(f64::total_cmp);
            prop_assert!(close(&s1, &s2, 1e-9));
        });
    }

    #[test]
    fn small_static_matches_general((n, a) in (2usize..=4).prop_flat_map(|n| (Just(n), prop::collection::vec(-1.0f64..1.0, n * n))), b in prop::collection::vec(-1.0f64..1.0, 4)) {
        let dynamic = Tensor::<f64, ext![_, _]>::from_vec([n, n], a.clone());
        let bd = Tensor::<f64, ext![_]>::from_vec([n], b[..n].to_vec());
        macro_rules! check {
            ($n:literal) => {{
                let st = mdtensor::StackTensor::<f64, ext![$n, $n]>::from_slice(ext![$n, $n], &a);
                let bs = mdtensor::StackTensor::<f64, ext![$n]>::from_slice(ext![$n], &b[..$n]);
                prop_assert!((st.det() - dynamic.det()).abs() < 1e-12);
                prop_assert!(close(&st.solve(&bs).to_vec(), &dynamic.solve(&bd).to_vec(), 1e-8));
                prop_assert!(close(&st.inv().to_vec(), &dynamic.inv().to_vec(), 1e-8));
                prop_assert!(close(&st.t().inv().to_vec(), &dynamic.t().inv().to_vec(), 1e-8));
                // A Gram matrix plus the identity: positive definite.
                let g = st.t().matmul(&st);
                let spd = mdtensor::StackTensor::<f64, ext![$n, $n]>::from_fn(ext![$n, $n], |[i, j]| g[[i, j]] + if i == j { 1.0 } else { 0.0 });
                let gd = Tensor::<f64, ext![_, _]>::from_vec([$n, $n], spd.to_vec());
                prop_assert!(close(&spd.cholesky().to_vec(), &gd.cholesky().to_vec(), 1e-10));
                prop_assert_eq!(spd.cholesky().to_vec(), spd.view().cholesky().to_vec());
            }};
        }
        match n { 2 => check!(2), 3 => check!(3), _ => check!(4) }
    }
}

#[test]
fn complex_and_single_precision() {
    let a = Tensor::<Complex64, ext![_, _]>::from_vec(
        [2, 2],
        vec![Complex64::new(2.0, 0.0), Complex64::new(0.0, 1.0), Complex64::new(0.0, -1.0), Complex64::new(3.0, 0.0)],
    );
    let l = a.cholesky(); // Hermitian positive definite
    let back = l.matmul(&l.t().map(|z| z.conj()));
    assert!(back.iter().zip(a.iter()).all(|(x, y)| (x - y).norm() < 1e-12));
    let i = a.inv();
    let e = a.matmul(&i);
    assert!((e[[0, 0]] - 1.0).norm() < 1e-12 && e[[0, 1]].norm() < 1e-12);
    assert!((a.det() - Complex64::new(5.0, 0.0)).norm() < 1e-12);
    let f = Tensor::<f32, ext![_, _]>::from_vec([2, 2], vec![3.0, 1.0, 1.0, 2.0]);
    let x = f.solve(&Tensor::<f32, ext![_]>::from_vec([2], vec![9.0, 8.0]));
    assert!((x[[0]] - 2.0).abs() < 1e-5 && (x[[1]] - 3.0).abs() < 1e-5);
    let (w, _) = f.eigh(Uplo::Lower);
    assert!((w[[0]] + w[[1]] - 5.0).abs() < 1e-5);
}

/// Complex SVD, QR, `eigh` (both triangles) and `eig` rebuild their input: the conjugations
/// (`Vᴴ`, `Qᴴ`, the upper triangle read as the lower one of `Aᵀ`) are where real tests see nothing.
#[test]
fn complex_decompositions_reconstruct() {
    type C = Tensor<Complex64, ext![_, _]>;
    let z = |k: usize| Complex64::new(((k * 7 + 3) % 11) as f64 - 5.0, ((k * 5 + 1) % 13) as f64 - 6.0);
    let near = |x: &C, y: &C| x.shape() == y.shape() && x.iter().zip(y.iter()).all(|(p, q)| (p - q).norm() < 1e-10);
    let herm = |x: &C| x.t().map(|v| v.conj());
    for (m, n) in [(5, 3), (3, 5), (4, 4)] {
        let a = C::from_vec([m, n], (0..m * n).map(z).collect());
        let k = m.min(n);
        let (u, s, vh) = a.svd(false);
        let (uv, sv) = (u.to_vec(), s.to_vec());
        let us = C::from_vec([m, k], (0..m * k).map(|x| uv[x] * sv[x % k]).collect());
        assert!(near(&us.matmul(&vh), &a), "svd {m}×{n}");
        assert!(near(
            &vh.matmul(&herm(&vh)),
            &C::from_vec([k, k], (0..k * k).map(|x| Complex64::from(if x / k == x % k { 1.0 } else { 0.0 })).collect())
        ));
        for mode in [QrMode::Reduced, QrMode::Complete] {
            let (q, r) = a.qr(mode);
            assert!(near(&q.unwrap().matmul(&r), &a), "qr {m}×{n} {mode:?}");
        }
    }
    let b = C::from_vec([4, 4], (0..16).map(z).collect());
    let h = b.matmul(&herm(&b));
    let hv = h.to_vec();
    // Each triangle alone defines the matrix: the other one is scrambled.
    let lower = C::from_vec([4, 4], (0..16).map(|x| if x % 4 > x / 4 { z(x + 40) } else { hv[x] }).collect());
    let upper = C::from_vec([4, 4], (0..16).map(|x| if x % 4 < x / 4 { z(x + 40) } else { hv[x] }).collect());
    for (t, uplo) in [(&lower, Uplo::Lower), (&upper, Uplo::Upper)] {
        let (w, v) = t.eigh(uplo);
        let (vv, wv) = (v.to_vec(), w.to_vec());
        let vw = C::from_vec([4, 4], (0..16).map(|x| vv[x] * wv[x % 4]).collect());
        assert!(near(&vw.matmul(&herm(&v)), &h), "eigh {uplo:?}");
    }
    let (w, v) = b.eig();
    let (vv, wv) = (v.to_vec(), w.to_vec());
    let vw = C::from_vec([4, 4], (0..16).map(|x| vv[x] * wv[x % 4]).collect());
    assert!(near(&b.matmul(&v), &vw), "eig");
}

#[test]
fn hostile_inputs_are_errors_or_nan_never_panics() {
    let singular = Tensor::<f64, ext![_, _]>::from_vec([3, 3], vec![1.0, 2.0, 3.0, 2.0, 4.0, 6.0, 1.0, 0.0, 1.0]);
    let b = Tensor::<f64, ext![_]>::from_vec([3], vec![1.0, 1.0, 1.0]);
    assert!(matches!(singular.try_solve(&b), Err(LinalgError::Singular { op: "solve", .. })));
    assert!(matches!(singular.try_inv(), Err(LinalgError::Singular { op: "inv", .. })));
    assert_eq!(singular.det(), 0.0);
    assert_eq!(singular.slogdet(), (0.0, f64::NEG_INFINITY));
    let small = mdtensor::tensor![[1.0, 2.0], [2.0, 4.0]];
    assert!(matches!(small.try_cholesky(), Err(LinalgError::NotPositiveDefinite { order: 2, .. })));
    let small_nan = mdtensor::tensor![[f64::NAN, 0.0], [0.0, 1.0]];
    assert!(matches!(small_nan.try_cholesky(), Err(LinalgError::NotPositiveDefinite { order: 1, .. })));
    assert!(matches!(small.try_inv(), Err(LinalgError::Singular { .. })));
    assert_eq!(small.det(), 0.0);
    let indefinite = Tensor::<f64, ext![_, _]>::from_vec([2, 2], vec![1.0, 2.0, 2.0, 1.0]);
    assert!(matches!(indefinite.try_cholesky(), Err(LinalgError::NotPositiveDefinite { order: 2, .. })));
    let nan = Tensor::<f64, ext![_, _]>::from_vec([2, 2], vec![f64::NAN, 1.0, 1.0, 2.0]);
    assert!(nan.det().is_nan());
    assert!(nan.solve(&Tensor::<f64, ext![_]>::from_vec([2], vec![1.0, 1.0])).iter().all(|x| x.is_nan()));
    assert!(matches!(nan.try_cholesky(), Err(LinalgError::NotPositiveDefinite { .. })));
    let empty = Tensor::<f64, ext![_, _]>::from_vec([0, 0], vec![]);
    assert_eq!(empty.det(), 1.0);
    assert_eq!(empty.inv().shape(), vec![0, 0]);
    assert_eq!(empty.svdvals().shape(), vec![0]);
    let wide = Tensor::<f64, ext![_, _]>::from_vec([2, 3], vec![1.0; 6]);
    for r in [
        wide.try_det().map(|_| ()),
        wide.try_inv().map(|_| ()),
        wide.try_cholesky().map(|_| ()),
        wide.try_eigh(Uplo::Lower).map(|_| ()),
    ] {
        assert!(matches!(r, Err(LinalgError::Shape(_))), "{r:?}");
    }
    let sq = Tensor::<f64, ext![_, _]>::from_vec([2, 2], vec![1.0, 0.0, 0.0, 1.0]);
    assert!(matches!(sq.try_solve(&b), Err(LinalgError::Shape(_))));
    let msg = singular.try_solve(&b).unwrap_err().to_string();
    assert!(msg.starts_with("solve: the matrix is singular"), "{msg}");
}

#[test]
fn lstsq_rcond_follows_numpy() {
    // numpy 2.4: `lstsq(diag([1, 3e-16]), [1, 1], rcond)` has rank 1 for None and 0.5, and
    // rank 2 (x₁ = 1/3e-16) for -1 (machine precision) and NaN (nothing is cut).
    let a = Tensor::<f64, ext![_, _]>::from_vec([2, 2], vec![1.0, 0.0, 0.0, 3e-16]);
    let b = Tensor::<f64, ext![_]>::from_vec([2], vec![1.0, 1.0]);
    for (rcond, rank) in [(None, 1), (Some(0.5), 1), (Some(-1.0), 2), (Some(f64::NAN), 2)] {
        let r = a.lstsq(&b, rcond);
        assert_eq!(r.rank, rank, "rcond {rcond:?}");
        let x1 = if rank == 2 { 1.0 / 3e-16 } else { 0.0 };
        assert!(
            (r.x[[0]] - 1.0).abs() < 1e-12 && (r.x[[1]] - x1).abs() <= 1e-12 * x1,
            "rcond {rcond:?}: {:?}",
            r.x.to_vec()
        );
    }
}

/// `exp(A)` by its Taylor series (for matrices of small norm).
fn expm_ref(a: &[f64], n: usize) -> Vec<f64> {
    let mut term: Vec<f64> = (0..n * n).map(|k| if k / n == k % n { 1.0 } else { 0.0 }).collect();
    let mut sum = term.clone();
    for k in 1..40 {
        term = mm(&term, n, n, a, n).iter().map(|x| x / k as f64).collect();
        sum.iter_mut().zip(&term).for_each(|(s, t)| *s += t);
    }
    sum
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn least_squares_pinv_rank_and_norms((m, n, a) in matrix(7), rhs in prop::collection::vec(-1.0f64..1.0, 7)) {
        with_views!(m, n, &a, |t| {
            let p = t.pinv(None);
            prop_assert_eq!(p.shape(), vec![n, m]);
            let apa = mm(&mm(&a, m, n, &p.to_vec(), m), m, m, &a, n);
            prop_assert!(close(&apa, &a, 1e-9));
            // The least-squares solution is pinv(A) b, and A's residual is orthogonal to its columns.
            let b = Tensor::<f64, ext![_]>::from_vec([m], rhs[..m].to_vec());
            let r = t.lstsq(&b, None);
            prop_assert!(close(&r.x.to_vec(), &mm(&p.to_vec(), n, m, &rhs[..m], 1), 1e-8));
            let s = t.svdvals().to_vec();
            prop_assert_eq!(r.s.to_vec(), s.clone());
            prop_assert_eq!(r.rank, t.matrix_rank(None));
            if r.rank == n && m > n {
                let ax = mm(&a, m, n, &r.x.to_vec(), 1);
                let res: f64 = ax.iter().zip(&rhs[..m]).map(|(x, y)| (x - y) * (x - y)).sum();
                prop_assert!((r.residuals[[0]] - res).abs() < 1e-9);
            } else {
                prop_assert_eq!(r.residuals.shape(), vec![0]);
            }
            use mdtensor::linalg::MatrixOrd::*;
            let col = (0..n).map(|j| (0..m).map(|i| a[i * n + j].abs()).sum::<f64>()).fold(f64::MIN, f64::max);
            let row = (0..m).map(|i| (0..n).map(|j| a[i * n + j].abs()).sum::<f64>()).fold(f64::MIN, f64::max);
            prop_assert!((t.matrix_norm(One) - col).abs() < 1e-12 && (t.matrix_norm(Inf) - row).abs() < 1e-12);
            prop_assert!((t.matrix_norm(Two) - s[0]).abs() < 1e-12);
            prop_assert!((t.matrix_norm(Nuc) - s.iter().sum::<f64>()).abs() < 1e-12);
            let fro = a.iter().map(|x| x * x).sum::<f64>().sqrt();
            prop_assert!((t.matrix_norm(Fro) - fro).abs() < 1e-12);
            prop_assert!((t.cond(None) - s[0] / s[s.len() - 1]).abs() <= 1e-9 * t.cond(None));
        });
    }

    #[test]
    fn low_rank_products_have_their_rank(m in 2usize..7, n in 2usize..7, r in 1usize..3, data in prop::collection::vec(-1.0f64..1.0, 28)) {
        let r = r.min(m).min(n);
        let a = mm(&data[..m * r], m, r, &data[14..14 + r * n], n);
        let t = Tensor::<f64, ext![_, _]>::from_vec([m, n], a);
        prop_assert!(t.matrix_rank(None) <= r);
    }

    #[test]
    fn powers_triangular_solves_and_expm((n, a) in square(6), rhs in prop::collection::vec(-1.0f64..1.0, 6), small in prop::collection::vec(-0.3f64..0.3, 36)) {
        with_views!(n, n, &a, |t| {
            let a3 = mm(&mm(&a, n, n, &a, n), n, n, &a, n);
            prop_assert!(close(&t.matrix_power(3).to_vec(), &a3, 1e-10));
            let back = mm(&t.matrix_power(-2).to_vec(), n, n, &mm(&a, n, n, &a, n), n);
            let eye: Vec<f64> = (0..n * n).map(|k| if k / n == k % n { 1.0 } else { 0.0 }).collect();
            prop_assert!(close(&back, &eye, 1e-9));
            prop_assert_eq!(t.matrix_power(0).to_vec(), eye.clone());
            for (lower, unit) in [(true, false), (true, true), (false, false), (false, true)] {
                let tri: Vec<f64> = (0..n * n).map(|k| {
                    let (i, j) = (k / n, k % n);
                    if i == j { if unit { 1.0 } else { a[k] } } else if (i > j) == lower { a[k] } else { 0.0 }
                }).collect();
                let x = t.solve_triangular(&Tensor::<f64, ext![_]>::from_vec([n], rhs[..n].to_vec()), lower, unit);
                prop_assert!(close(&mm(&tri, n, n, &x.to_vec(), 1), &rhs[..n], 1e-9));
            }
        });
        let s = &small[..n * n].to_vec();
        with_views!(n, n, s, |t| {
            prop_assert!(close(&t.expm().to_vec(), &expm_ref(s, n), 1e-12));
        });
    }
}

#[test]
fn expm_scales_and_squares_large_matrices() {
    // A rotation generator: exp([[0, -θ], [θ, 0]]) = [[cos θ, -sin θ], [sin θ, cos θ]], for
    // θ below and above the Padé-13 bound (the second is scaled and squared).
    for theta in [0.01, 0.2, 0.9, 2.0, 5.0, 40.0] {
        let g = Tensor::<f64, ext![_, _]>::from_vec([2, 2], vec![0.0, -theta, theta, 0.0]);
        let e = g.expm().to_vec();
        let want = [theta.cos(), -theta.sin(), theta.sin(), theta.cos()];
        assert!(close(&e, &want, 1e-12), "{theta}: {e:?}");
    }
    let d = Tensor::<f64, ext![3, 3]>::from_slice(ext![3, 3], &[10.0, 0.0, 0.0, 0.0, -3.0, 0.0, 0.0, 0.0, 0.5]);
    let e = d.expm();
    assert!(close(&[e[[0, 0]], e[[1, 1]], e[[2, 2]]], &[10f64.exp(), (-3f64).exp(), 0.5f64.exp()], 1e-12));
    let singular = Tensor::<f64, ext![_, _]>::from_vec([2, 2], vec![1.0, 2.0, 2.0, 4.0]);
    assert!(matches!(singular.try_matrix_power(-1), Err(LinalgError::Singular { .. })));
    assert_eq!(singular.cond(Some(mdtensor::linalg::MatrixOrd::One)), f64::INFINITY);
    let zero_diag = Tensor::<f64, ext![_, _]>::from_vec([2, 2], vec![0.0, 0.0, 1.0, 1.0]);
    let b = Tensor::<f64, ext![_]>::from_vec([2], vec![1.0, 1.0]);
    assert!(matches!(zero_diag.try_solve_triangular(&b, true, false), Err(LinalgError::Singular { column: 0, .. })));
}

#[test]
fn small_static_singular_and_complex_match_the_general_path() {
    use mdtensor::{Complex64 as C, StackTensor};
    // Rank 2 with integer entries: the closed forms see an exactly zero determinant.
    let s = StackTensor::<f64, ext![4, 4]>::from_fn(ext![4, 4], |[i, j]| (i * 4 + j) as f64);
    assert_eq!(s.det(), 0.0);
    assert!(matches!(s.try_inv(), Err(LinalgError::Singular { op: "inv", .. })));
    let z = |i: usize, j: usize| {
        C::new(((i * 5 + j * 3) % 7) as f64 - 3.0 + if i == j { 6.0 } else { 0.0 }, ((i + 2 * j) % 5) as f64 - 2.0)
    };
    let st = StackTensor::<C, ext![4, 4]>::from_fn(ext![4, 4], |[i, j]| z(i, j));
    let dy = Tensor::<C, ext![_, _]>::from_fn([4, 4], |[i, j]| z(i, j));
    assert!((st.det() - dy.det()).norm() < 1e-9 * dy.det().norm());
    let (a, b) = (st.inv().to_vec(), dy.inv().to_vec());
    assert!(a.iter().zip(&b).all(|(x, y)| (x - y).norm() < 1e-12), "{a:?} {b:?}");
}
