//! Sparse solvers (feature `linalg`): `splu`/`spsolve` and `cg` on CSR and CSC matrices
//! against dense products of their own solutions (residuals), a refactor with the kept
//! symbolic analysis, and the hostile cases.
#![cfg(feature = "linalg")]

use mdtensor::{ext, CscMatrix, CsrMatrix, LinalgError, Tensor};
use proptest::prelude::*;

/// The 5-point Laplacian of a `k × k` grid (symmetric positive definite), as triplets.
fn laplacian(k: usize) -> (Vec<usize>, Vec<usize>, Vec<f64>) {
    let (mut r, mut c, mut v) = (vec![], vec![], vec![]);
    for i in 0..k {
        for j in 0..k {
            let p = i * k + j;
            let mut push = |q: usize, x: f64| {
                r.push(p);
                c.push(q);
                v.push(x);
            };
            if i > 0 {
                push(p - k, -1.0);
            }
            if j > 0 {
                push(p - 1, -1.0);
            }
            push(p, 4.0);
            if j + 1 < k {
                push(p + 1, -1.0);
            }
            if i + 1 < k {
                push(p + k, -1.0);
            }
        }
    }
    (r, c, v)
}

fn residual(rows: &[usize], cols: &[usize], vals: &[f64], x: &[f64], b: &[f64]) -> f64 {
    let mut ax = vec![0.0; b.len()];
    for ((&i, &j), &v) in rows.iter().zip(cols).zip(vals) {
        ax[i] += v * x[j];
    }
    ax.iter().zip(b).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max)
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(16) })]

    #[test]
    fn splu_and_cg_solve_random_systems(n in 1usize..30, extra in prop::collection::vec((0usize..30, 0usize..30, -1.0f64..1.0), 0..60), rhs in prop::collection::vec(-1.0f64..1.0, 30)) {
        // A diagonally dominant symmetric pattern: the diagonal plus mirrored extras.
        let mut entries = std::collections::BTreeMap::new();
        for i in 0..n {
            entries.insert((i, i), 2.0 * n as f64);
        }
        for &(i, j, v) in &extra {
            let (i, j) = (i % n, j % n);
            if i != j {
                entries.insert((i, j), v);
                entries.insert((j, i), v);
            }
        }
        let rows: Vec<usize> = entries.keys().map(|k| k.0).collect();
        let cols: Vec<usize> = entries.keys().map(|k| k.1).collect();
        let vals: Vec<f64> = entries.values().copied().collect();
        let b = Tensor::<f64, ext![_]>::from_vec([n], rhs[..n].to_vec());
        let csr = CsrMatrix::<f64>::from_triplets([n, n], &rows, &cols, &vals);
        let csc = CscMatrix::<f64>::from_triplets([n, n], &rows, &cols, &vals);
        for x in [csr.spsolve(&b), csc.spsolve(&b), csr.splu().solve(&b)] {
            prop_assert!(residual(&rows, &cols, &vals, &x.to_vec(), &rhs[..n]) < 1e-10);
        }
        let x = csr.cg(&b, Some(1e-12), None);
        prop_assert!(residual(&rows, &cols, &vals, &x.to_vec(), &rhs[..n]) < 1e-9);
    }
}

#[test]
fn nonsymmetric_csr_and_csc_agree_with_their_transposes() {
    // [[2, 1, 0], [0, 3, 1], [1, 0, 4]]: a CSR matrix is read as its transpose's CSC.
    let (r, c, v) = (vec![0usize, 0, 1, 1, 2, 2], vec![0usize, 1, 1, 2, 0, 2], vec![2.0, 1.0, 3.0, 1.0, 1.0, 4.0]);
    let b = Tensor::<f64, ext![_]>::from_vec([3], vec![3.0, 4.0, 5.0]);
    for x in [
        CsrMatrix::<f64>::from_triplets([3, 3], &r, &c, &v).spsolve(&b),
        CscMatrix::<f64>::from_triplets([3, 3], &r, &c, &v).spsolve(&b),
    ] {
        assert!(residual(&r, &c, &v, &x.to_vec(), &[3.0, 4.0, 5.0]) < 1e-12);
    }
}

#[test]
fn laplacian_refactor_and_hostile_inputs() {
    let k = 12;
    let n = k * k;
    let (r, c, v) = laplacian(k);
    let a = CsrMatrix::<f64>::from_triplets([n, n], &r, &c, &v);
    let b = Tensor::<f64, ext![_]>::from_vec([n], (0..n).map(|i| (i % 7) as f64).collect());
    let mut lu = a.splu();
    let x = lu.solve(&b);
    assert!(residual(&r, &c, &v, &x.to_vec(), &b.to_vec()) < 1e-10);
    // Same pattern, doubled values: the kept symbolic analysis refactors; x halves.
    let doubled: Vec<f64> = a.values().iter().map(|x| 2.0 * x).collect();
    lu.refactor(&doubled).unwrap();
    let y = lu.solve(&b);
    assert!(x.iter().zip(y.iter()).all(|(x, y)| (x - 2.0 * y).abs() < 1e-10));
    assert!(lu.refactor(&doubled[1..]).is_err());
    let xc = a.cg(&b, Some(1e-10), None);
    assert!(residual(&r, &c, &v, &xc.to_vec(), &b.to_vec()) < 1e-8);
    assert!(matches!(a.try_cg(&b, Some(1e-10), Some(2)), Err(LinalgError::NoConvergence { op: "cg", iterations: 2 })));
    let short = Tensor::<f64, ext![_]>::from_vec([3], vec![1.0; 3]);
    assert!(matches!(a.try_spsolve(&short), Err(LinalgError::Shape(_))));
    assert!(matches!(a.try_cg(&short, None, None), Err(LinalgError::Shape(_))));
    // An empty row and column: structurally singular.
    let s = CsrMatrix::<f64>::from_triplets([3, 3], &[0usize, 2], &[0usize, 2], &[1.0, 1.0]);
    assert!(matches!(s.try_splu(), Err(LinalgError::Singular { op: "splu", .. })));
    let wide = CsrMatrix::<f64>::from_triplets([2, 3], &[0usize], &[0usize], &[1.0]);
    assert!(matches!(wide.try_splu(), Err(LinalgError::Shape(_))));
    let zero = Tensor::<f64, ext![_]>::from_vec([n], vec![0.0; n]);
    assert!(a.cg(&zero, None, None).iter().all(|&x| x == 0.0));
}
