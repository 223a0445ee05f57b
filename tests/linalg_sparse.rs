//! Sparse solvers (feature `linalg`): `splu`/`spsolve`, `cho_factor` and `cg` on CSR and
//! CSC matrices against dense solves and dense products of their own solutions
//! (residuals), a refactor with the kept symbolic analysis, and the hostile cases.
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
    assert!(matches!(
        a.try_cg(&b, Some(1e-10), Some(2)),
        Err(LinalgError::NoConvergence { op: "cg", iterations: 2, matrix: None, .. })
    ));
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

/// A random symmetric positive-definite matrix: a positive diagonal that dominates the
/// mirrored off-diagonal entries, as sorted triplets and as a dense row-major copy.
fn random_spd(n: usize, extra: &[(usize, usize, f64)], diag: &[f64]) -> (Vec<usize>, Vec<usize>, Vec<f64>, Vec<f64>) {
    let mut entries = std::collections::BTreeMap::new();
    for &(i, j, v) in extra {
        let (i, j) = (i % n, j % n);
        if i != j {
            entries.insert((i, j), v);
            entries.insert((j, i), v);
        }
    }
    for (i, d) in diag.iter().enumerate().take(n) {
        let off: f64 = entries.iter().filter(|(k, _)| k.0 == i && k.1 != i).map(|(_, v)| f64::abs(*v)).sum();
        entries.insert((i, i), off + 0.1 + d);
    }
    let mut dense = vec![0.0; n * n];
    entries.iter().for_each(|(&(i, j), &v)| dense[i * n + j] = v);
    let rows = entries.keys().map(|k| k.0).collect();
    let cols = entries.keys().map(|k| k.1).collect();
    (rows, cols, entries.values().copied().collect(), dense)
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(24) })]

    #[test]
    fn cho_factor_agrees_with_dense_solves(
        n in 1usize..30,
        extra in prop::collection::vec((0usize..30, 0usize..30, -1.0f64..1.0), 0..80),
        diag in prop::collection::vec(0.0f64..3.0, 30),
        rhs in prop::collection::vec(-1.0f64..1.0, 60),
    ) {
        let (rows, cols, vals, dense) = random_spd(n, &extra, &diag);
        let a = Tensor::<f64, ext![_, _]>::from_vec([n, n], dense);
        let b = Tensor::<f64, ext![_]>::from_vec([n], rhs[..n].to_vec());
        let b2 = Tensor::<f64, ext![_, _]>::from_vec([n, 2], rhs[..2 * n].to_vec());
        let (x, x2) = (a.solve(&b), a.solve(&b2));
        let csr = CsrMatrix::<f64>::from_triplets([n, n], &rows, &cols, &vals);
        let csc = CscMatrix::<f64>::from_triplets([n, n], &rows, &cols, &vals);
        for f in [csr.cho_factor(), csc.cho_factor()] {
            prop_assert_eq!(f.order(), n);
            prop_assert!(max_diff(&f.solve(&b).to_vec(), &x.to_vec()) < 1e-10);
            let y2 = f.solve(&b2);
            prop_assert_eq!(y2.shape(), vec![n, 2]);
            prop_assert!(max_diff(&y2.to_vec(), &x2.to_vec()) < 1e-10);
        }
        prop_assert!(max_diff(&csr.solve(&b).to_vec(), &x.to_vec()) < 1e-10);
    }

    #[test]
    fn cho_factor_reads_only_the_lower_triangle(
        n in 1usize..20,
        extra in prop::collection::vec((0usize..20, 0usize..20, -1.0f64..1.0), 0..40),
        diag in prop::collection::vec(0.0f64..3.0, 20),
        rhs in prop::collection::vec(-1.0f64..1.0, 20),
        junk in -100.0f64..100.0,
    ) {
        let (rows, cols, vals, _) = random_spd(n, &extra, &diag);
        let b = Tensor::<f64, ext![_]>::from_vec([n], rhs[..n].to_vec());
        let full = CscMatrix::<f64>::from_triplets([n, n], &rows, &cols, &vals).cho_factor().solve(&b);
        // The same lower triangle with junk above the diagonal: the same factor.
        let spoiled: Vec<f64> = rows.iter().zip(&cols).zip(&vals).map(|((i, j), &v)| if i < j { junk } else { v }).collect();
        for x in [
            CsrMatrix::<f64>::from_triplets([n, n], &rows, &cols, &spoiled).cho_factor().solve(&b),
            CscMatrix::<f64>::from_triplets([n, n], &rows, &cols, &spoiled).cho_factor().solve(&b),
        ] {
            prop_assert!(max_diff(&x.to_vec(), &full.to_vec()) < 1e-10);
        }
    }
}

#[test]
fn cho_factor_of_a_laplacian_refactors_and_matches_splu() {
    let k = 20;
    let n = k * k;
    let (r, c, v) = laplacian(k);
    let b = Tensor::<f64, ext![_]>::from_vec([n], (0..n).map(|i| ((i * 13) % 11) as f64 - 5.0).collect());
    let csr = CsrMatrix::<f64>::from_triplets([n, n], &r, &c, &v);
    let csc = CscMatrix::<f64>::from_triplets([n, n], &r, &c, &v);
    let lu = csr.splu().solve(&b);
    for mut f in [csr.cho_factor(), csc.cho_factor()] {
        let x = f.solve(&b);
        assert!(residual(&r, &c, &v, &x.to_vec(), &b.to_vec()) < 1e-10);
        assert!(max_diff(&x.to_vec(), &lu.to_vec()) < 1e-10);
        // The ordering keeps the fill far below a dense factor's n(n+1)/2.
        assert!(f.nnz_l() < n * (n + 1) / 8, "{}", f.nnz_l());
        let tripled: Vec<f64> = csr.values().iter().map(|x| 3.0 * x).collect();
        f.refactor(&tripled).unwrap();
        let y = f.solve(&b);
        assert!(x.iter().zip(y.iter()).all(|(x, y)| (x - 3.0 * y).abs() < 1e-10));
        assert!(matches!(f.refactor(&tripled[1..]), Err(LinalgError::Shape(_))));
        // A negated matrix is negative definite: the refactor reports it.
        let negated: Vec<f64> = csr.values().iter().map(|x| -x).collect();
        assert!(matches!(f.refactor(&negated), Err(LinalgError::NotPositiveDefinite { op: "refactor", .. })));
    }
    let x = csr.factorized().solve(&b);
    assert!(max_diff(&x.to_vec(), &lu.to_vec()) < 1e-12);
}

#[test]
fn cho_factor_of_a_complex_hermitian_matrix() {
    use mdtensor::Complex64 as C;
    // [[4, 1+2i, 0], [1-2i, 5, -i], [0, i, 3]]: Hermitian positive definite.
    let (r, c) = ([0usize, 0, 1, 1, 1, 2, 2], [0usize, 1, 0, 1, 2, 1, 2]);
    let v = [
        C::new(4.0, 0.0),
        C::new(1.0, 2.0),
        C::new(1.0, -2.0),
        C::new(5.0, 0.0),
        C::new(0.0, -1.0),
        C::new(0.0, 1.0),
        C::new(3.0, 0.0),
    ];
    let b = Tensor::<C, ext![_]>::from_vec([3], vec![C::new(1.0, 1.0), C::new(-2.0, 0.5), C::new(0.0, 3.0)]);
    let mut dense = vec![C::new(0.0, 0.0); 9];
    r.iter().zip(&c).zip(&v).for_each(|((&i, &j), &x)| dense[i * 3 + j] = x);
    let x = Tensor::<C, ext![_, _]>::from_vec([3, 3], dense).solve(&b);
    for y in [
        CsrMatrix::<C>::from_triplets([3, 3], &r, &c, &v).cho_factor().solve(&b),
        CscMatrix::<C>::from_triplets([3, 3], &r, &c, &v).cho_factor().solve(&b),
    ] {
        assert!(y.iter().zip(x.iter()).all(|(y, x)| (y - x).norm() < 1e-12), "{:?} {:?}", y.to_vec(), x.to_vec());
    }
    // `solve` takes the Cholesky here (CSR: the conjugated factor), and a matrix of
    // right-hand sides column by column.
    let bm = Tensor::<C, ext![_, _]>::from_fn([3, 2], |[i, j]| C::new(i as f64 - j as f64, (i * j) as f64 + 0.5));
    let want = Tensor::<C, ext![_, _]>::from_fn([3, 3], |[i, j]| {
        r.iter().zip(&c).zip(&v).find(|((&ri, &ci), _)| ri == i && ci == j).map_or(C::new(0.0, 0.0), |(_, &x)| x)
    })
    .solve(&bm);
    for y in [
        CsrMatrix::<C>::from_triplets([3, 3], &r, &c, &v).solve(&bm),
        CscMatrix::<C>::from_triplets([3, 3], &r, &c, &v).solve(&bm),
    ] {
        assert!(y.iter().zip(want.iter()).all(|(y, x)| (y - x).norm() < 1e-12), "{:?} {:?}", y.to_vec(), want.to_vec());
    }
}

#[test]
fn cho_factor_hostile_inputs() {
    // Eigenvalues 3 and -1: not positive definite, at the second pivot.
    let indef = CsrMatrix::<f64>::from_triplets([2, 2], &[0usize, 0, 1, 1], &[0usize, 1, 0, 1], &[1.0, 2.0, 2.0, 1.0]);
    assert!(matches!(indef.try_cho_factor(), Err(LinalgError::NotPositiveDefinite { op: "cho_factor", order: 2, .. })));
    // The order of the failing minor, on faer's simplicial path (a small matrix) and on its
    // supernodal one (a dense pattern): both orderings of `indef` fail at its second pivot,
    // and a negative diagonal fails at the first whatever the ordering.
    let n = 120;
    let (mut r, mut c, mut v) = (vec![], vec![], vec![]);
    for i in 0..n {
        for j in 0..n {
            r.push(i);
            c.push(j);
            v.push(if i == j { -1.0 } else { 1e-3 });
        }
    }
    let dense_neg = CsrMatrix::<f64>::from_triplets([n, n], &r, &c, &v);
    assert!(matches!(dense_neg.try_cho_factor(), Err(LinalgError::NotPositiveDefinite { order: 1, .. })));
    let diag_neg = CsrMatrix::<f64>::from_triplets([3, 3], &[0usize, 1, 2], &[0usize, 1, 2], &[-1.0; 3]);
    assert!(matches!(diag_neg.try_cho_factor(), Err(LinalgError::NotPositiveDefinite { order: 1, .. })));
    let msg = std::panic::catch_unwind(|| drop(indef.cho_factor())).unwrap_err();
    assert!(msg.downcast_ref::<String>().is_some_and(|m| m.contains("not positive definite")));
    // A NaN on the diagonal or below it is not positive definite (numpy raises too).
    let nan = CscMatrix::<f64>::from_triplets([2, 2], &[0usize, 1, 1], &[0usize, 0, 1], &[4.0, f64::NAN, 3.0]);
    assert!(matches!(nan.try_cho_factor(), Err(LinalgError::NotPositiveDefinite { .. })));
    // A zero (missing) diagonal entry.
    let hole = CscMatrix::<f64>::from_triplets([2, 2], &[0usize], &[0usize], &[1.0]);
    assert!(matches!(hole.try_cho_factor(), Err(LinalgError::NotPositiveDefinite { .. })));
    let wide = CsrMatrix::<f64>::from_triplets([2, 3], &[0usize], &[0usize], &[1.0]);
    assert!(matches!(wide.try_cho_factor(), Err(LinalgError::Shape(_))));
    assert!(matches!(wide.try_solve(&Tensor::<f64, ext![_]>::from_vec([2], vec![1.0; 2])), Err(LinalgError::Shape(_))));
    let eye = CsrMatrix::<f64>::from_triplets([2, 2], &[0usize, 1], &[0usize, 1], &[1.0, 1.0]).cho_factor();
    let short = Tensor::<f64, ext![_]>::from_vec([3], vec![1.0; 3]);
    assert!(matches!(eye.try_solve(&short), Err(LinalgError::Shape(_))));
    // The empty matrix factors, and solves the empty system.
    let empty_matrix = CsrMatrix::<f64>::from_triplets([0, 0], &[] as &[usize], &[] as &[usize], &[]);
    let none = Tensor::<f64, ext![_]>::from_vec([0], vec![]);
    assert_eq!(empty_matrix.cho_factor().solve(&none).shape(), vec![0]);
    assert_eq!(empty_matrix.solve(&none).shape(), vec![0]);
    // Through `solve`: an infinite diagonal passes the test and fails the Cholesky, so the
    // LU answers (with inf/NaN, as scipy's); a NaN goes to the LU at once. Never a panic.
    let b = Tensor::<f64, ext![_]>::from_vec([2], vec![1.0, 1.0]);
    let inf = CsrMatrix::<f64>::from_triplets(
        [2, 2],
        &[0usize, 0, 1, 1],
        &[0usize, 1, 0, 1],
        &[f64::INFINITY, 1.0, 1.0, 2.0],
    );
    assert!(inf.try_solve(&b).is_ok());
    assert!(nan.try_solve(&b).is_ok());
    assert!(indef.try_solve(&b).unwrap().iter().all(|x| (x - 1.0 / 3.0).abs() < 1e-15));
}

#[test]
fn solve_takes_the_cholesky_or_the_lu_and_both_solve() {
    // A Laplacian (Cholesky), [[1, 2], [2, 1]] (symmetric, positive diagonal, indefinite:
    // the Cholesky fails and the LU solves), and a nonsymmetric matrix (LU at once).
    let k = 9;
    let (r, c, v) = laplacian(k);
    let n = k * k;
    let rhs: Vec<f64> = (0..n).map(|i| (i % 5) as f64 - 2.0).collect();
    let b = Tensor::<f64, ext![_]>::from_vec([n], rhs.clone());
    for x in [
        CsrMatrix::<f64>::from_triplets([n, n], &r, &c, &v).solve(&b),
        CscMatrix::<f64>::from_triplets([n, n], &r, &c, &v).solve(&b),
    ] {
        assert!(residual(&r, &c, &v, &x.to_vec(), &rhs) < 1e-10);
    }
    let (r, c, v) = (vec![0usize, 0, 1, 1], vec![0usize, 1, 0, 1], vec![1.0, 2.0, 2.0, 1.0]);
    let indefinite = CsrMatrix::<f64>::from_triplets([2, 2], &r, &c, &v);
    assert!(indefinite.try_cho_factor().is_err());
    let x = indefinite.solve(&Tensor::<f64, ext![_]>::from_vec([2], vec![3.0, 3.0]));
    assert!(residual(&r, &c, &v, &x.to_vec(), &[3.0, 3.0]) < 1e-12);
    let (r, c, v) = (vec![0usize, 0, 1], vec![0usize, 1, 1], vec![2.0, 1.0, 4.0]);
    let upper = CscMatrix::<f64>::from_triplets([2, 2], &r, &c, &v);
    let x = upper.solve(&Tensor::<f64, ext![_]>::from_vec([2], vec![3.0, 4.0]));
    assert!(residual(&r, &c, &v, &x.to_vec(), &[3.0, 4.0]) < 1e-12);
    // The rules of the LU path hold on both: a wrong length, a wide matrix.
    let short = Tensor::<f64, ext![_]>::from_vec([3], vec![1.0; 3]);
    assert!(matches!(indefinite.try_solve(&short), Err(LinalgError::Shape(_))));
    let (r, c, v) = laplacian(k);
    let spd = CsrMatrix::<f64>::from_triplets([n, n], &r, &c, &v);
    assert!(matches!(spd.try_solve(&short), Err(LinalgError::Shape(_))));
    let wide = CsrMatrix::<f64>::from_triplets([2, 3], &[0usize], &[0usize], &[1.0]);
    assert!(matches!(wide.try_solve(&short), Err(LinalgError::Shape(_))));
}

#[test]
fn sparse_solvers_take_matrix_right_hand_sides_as_dense_solve() {
    // scipy's spsolve(A, B) with a 2-D B: one column per right-hand side, in B's extents.
    let k = 6;
    let n = k * k;
    let (r, c, v) = laplacian(k);
    let cols = 3;
    let b = Tensor::<f64, ext![_, 3]>::from_fn([n, 3], |[i, j]| ((i * 3 + j) % 7) as f64 - 3.0);
    let dense = Tensor::<f64, ext![_, _]>::from_fn([n, n], |[i, j]| {
        r.iter().zip(&c).zip(&v).filter(|((&ri, &ci), _)| ri == i && ci == j).map(|(_, &x)| x).sum()
    });
    let want = dense.solve(&b);
    let csr = CsrMatrix::<f64>::from_triplets([n, n], &r, &c, &v);
    let csc = CscMatrix::<f64>::from_triplets([n, n], &r, &c, &v);
    let results: [Tensor<f64, ext![_, 3]>; 5] =
        [csr.solve(&b), csc.solve(&b), csr.spsolve(&b), csc.splu().solve(&b), csr.cho_factor().solve(&b)];
    for x in results {
        assert_eq!(x.shape(), [n, cols]);
        assert!(x.iter().zip(want.iter()).all(|(x, y)| (x - y).abs() < 1e-10));
    }
    // A vector keeps its static length; a right-hand side of the wrong rows is `Err`.
    let bv = Tensor::<f64, ext![36]>::from_fn(ext![36], |[i]| i as f64);
    let xv: Tensor<f64, ext![36]> = csr.spsolve(&bv);
    assert_eq!(xv.shape(), [36]);
    let short = Tensor::<f64, ext![_, _]>::from_vec([3, 2], vec![1.0; 6]);
    assert!(matches!(csr.try_solve(&short), Err(LinalgError::Shape(_))));
    assert!(matches!(csr.splu().try_solve(&short), Err(LinalgError::Shape(_))));
}
