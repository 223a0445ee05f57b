//! Property tests of band matrices against a plain dense reference: a row-major
//! `Vec<Vec<_>>` matrix whose elements outside the band are zero.
//!
//! Shapes cover `m, n` from 0 to 9 (square and rectangular), every `kl`, `ku` from 0 to
//! `m - 1`, `n - 1`, and all-zero bands. Integer results are compared exactly. The solve
//! is compared with a textbook dense Gaussian elimination with partial pivoting (the same
//! pivot rule: the first largest `|a|` in the column), so the two agree on which matrices
//! are singular and at which column; solutions are checked by their residual.

use mdtensor::{ext, BandError, BandMatrix, Par, Tensor};
use proptest::collection::vec;
use proptest::prelude::*;

mod common;
use common::config;

type Dense<T> = Vec<Vec<T>>;
type Vector<T> = Tensor<T, ext![_]>;

/// A random `m × n` band matrix as the reference sees it, with its bandwidths.
#[derive(Clone, Debug)]
struct Case<T> {
    m: usize,
    n: usize,
    kl: usize,
    ku: usize,
    dense: Dense<T>,
}

fn in_band(i: usize, j: usize, kl: usize, ku: usize) -> bool {
    i + ku >= j && i <= j + kl
}

/// Shapes and bandwidths: empty axes, a single element, `kl = 0`, `ku = 0`, full width.
fn band_shape(max: usize) -> impl Strategy<Value = (usize, usize, usize, usize)> {
    (0..=max, 0..=max).prop_flat_map(|(m, n)| (Just(m), Just(n), 0..m.max(1), 0..n.max(1)))
}

/// A band case whose elements come from `elem`; `zero_band` makes every element zero.
fn case<T: Clone + Default + std::fmt::Debug>(
    max: usize,
    elem: impl Strategy<Value = T> + Clone,
) -> impl Strategy<Value = Case<T>> {
    (band_shape(max), any::<bool>()).prop_flat_map(move |((m, n, kl, ku), zero_band)| {
        vec(elem.clone(), m * n).prop_map(move |vals| {
            let dense =
                (0..m)
                    .map(|i| {
                        (0..n)
                            .map(|j| {
                                if in_band(i, j, kl, ku) && !zero_band {
                                    vals[i * n + j].clone()
                                } else {
                                    T::default()
                                }
                            })
                            .collect()
                    })
                    .collect();
            Case { m, n, kl, ku, dense }
        })
    })
}

fn small_int() -> impl Strategy<Value = i64> + Clone {
    prop_oneof![1 => Just(0i64), 3 => -9i64..=9]
}

fn to_tensor<T: Clone>(c: &Case<T>) -> Tensor<T, ext![_, _]> {
    Tensor::from_vec([c.m, c.n], c.dense.iter().flatten().cloned().collect())
}

fn band_of<T: Clone + num_traits::Zero>(c: &Case<T>) -> BandMatrix<T> {
    BandMatrix::<T>::from_dense(&to_tensor(c), c.kl, c.ku)
}

fn ref_matvec(d: &Dense<i64>, x: &[i64]) -> Vec<i64> {
    d.iter().map(|row| row.iter().zip(x).map(|(a, b)| a * b).sum()).collect()
}

/// Dense Gaussian elimination with partial pivoting (first largest `|a|` below the
/// diagonal), then column-oriented substitutions; `Err(column)` for a zero pivot.
#[allow(clippy::needless_range_loop)] // textbook indices are the point of a reference
fn ref_solve(a: &Dense<f64>, b: &[f64]) -> Result<Vec<f64>, usize> {
    let n = a.len();
    let (mut a, mut b) = (a.clone(), b.to_vec());
    for j in 0..n {
        let mut p = j;
        for i in j + 1..n {
            if a[i][j].abs() > a[p][j].abs() {
                p = i;
            }
        }
        if a[p][j] == 0.0 {
            return Err(j);
        }
        a.swap(j, p);
        b.swap(j, p);
        for i in j + 1..n {
            let l = a[i][j] / a[j][j];
            for c in j..n {
                a[i][c] -= l * a[j][c];
            }
            b[i] -= l * b[j];
        }
    }
    for j in (0..n).rev() {
        b[j] /= a[j][j];
        for i in 0..j {
            b[i] -= a[i][j] * b[j];
        }
    }
    Ok(b)
}

fn residual_ok(a: &Dense<f64>, x: &[f64], b: &[f64]) -> bool {
    let norm_a = a.iter().map(|r| r.iter().map(|v| v.abs()).sum::<f64>()).fold(0.0, f64::max);
    let norm = |v: &[f64]| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let r: Vec<f64> =
        a.iter().zip(b).map(|(row, bi)| row.iter().zip(x).map(|(p, q)| p * q).sum::<f64>() - bi).collect();
    norm(&r) <= 1e-10 * (norm_a * norm(x) + norm(b)).max(1.0)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn reads_agree_with_dense(c in case(9, small_int())) {
        let band = band_of(&c);
        let band_cells = (0..c.m).flat_map(|i| (0..c.n).map(move |j| (i, j)))
            .filter(|&(i, j)| in_band(i, j, c.kl, c.ku)).count();
        prop_assert_eq!(band.to_dense().to_vec(), to_tensor(&c).to_vec());
        for i in 0..=c.m {
            for j in 0..=c.n {
                let want = (i < c.m && j < c.n).then(|| c.dense[i][j]);
                prop_assert_eq!(band.value([i, j]), want, "value({}, {})", i, j);
            }
        }
        prop_assert_eq!(band.nnz(), band_cells);
        let mut seen = vec![vec![0; c.n]; c.m];
        band.for_each_stored(|idx, &v| {
            seen[idx[0]][idx[1]] += 1;
            assert_eq!(v, c.dense[idx[0]][idx[1]]);
        });
        for (i, row) in seen.iter().enumerate() {
            for (j, &k) in row.iter().enumerate() {
                prop_assert_eq!(k, usize::from(in_band(i, j, c.kl, c.ku)), "visits of ({}, {})", i, j);
            }
        }
    }

    #[test]
    fn layout_is_lapack_general_band(c in case(9, small_int())) {
        let band = band_of(&c);
        let ldab = c.kl + c.ku + 1;
        prop_assert_eq!(band.ldab(), ldab);
        let ab = band.as_lapack_slice();
        prop_assert_eq!(ab.len(), ldab * c.n);
        for j in 0..c.n {
            for r in 0..ldab {
                // AB(ku + i - j, j) = A(i, j); cells outside the matrix are zero.
                let i = (j + r).checked_sub(c.ku).filter(|&i| i < c.m);
                let want = i.map_or(0, |i| c.dense[i][j]);
                prop_assert_eq!(ab[r + j * ldab], want, "AB({}, {})", r, j);
            }
        }
        let (kl, ku, data) = band.clone().into_parts();
        let rebuilt = BandMatrix::<i64>::try_from_parts([c.m, c.n], kl, ku, data).unwrap();
        prop_assert_eq!(rebuilt.to_dense().to_vec(), band.to_dense().to_vec());
    }

    #[test]
    fn triplets_round_trip(c in case(9, small_int())) {
        let band = band_of(&c);
        let t = band.to_triplets();
        prop_assert_eq!(t.len(), band.nnz());
        let back = BandMatrix::<i64>::from_triplets([c.m, c.n], c.kl, c.ku, &t);
        prop_assert_eq!(back.as_lapack_slice(), band.as_lapack_slice());
        // Duplicates add up.
        let doubled: Vec<_> = t.iter().chain(&t).cloned().collect();
        let twice = BandMatrix::<i64>::from_triplets([c.m, c.n], c.kl, c.ku, &doubled);
        prop_assert_eq!(twice.to_dense().to_vec(), band.scale(2).to_dense().to_vec());
    }

    #[test]
    fn matvec_agrees_with_dense(c in case(9, small_int()), xs in vec(-9i64..=9, 9)) {
        let band = band_of(&c);
        let x = Vector::<i64>::from_vec([c.n], xs[..c.n].to_vec());
        let want = ref_matvec(&c.dense, &xs[..c.n]);
        prop_assert_eq!(band.matvec(&x).to_vec(), want.clone());
        for par in [Par::Seq, Par::Rayon] {
            let mut y = Vector::<i64>::full([c.m], 99);
            band.try_matvec_into_with(&x, &mut y, par).unwrap();
            prop_assert_eq!(y.to_vec(), want.clone());
        }
        // A non-contiguous x (a reversed view, negative stride) is read correctly too.
        let reversed = Vector::<i64>::from_vec([c.n], xs[..c.n].iter().rev().copied().collect());
        prop_assert_eq!(band.matvec(&reversed.slice(mdtensor::s![..;-1])).to_vec(), want);
    }

    #[test]
    fn scale_map_and_sums_agree_with_dense(c in case(9, small_int()), alpha in -5i64..=5) {
        let band = band_of(&c);
        let scaled = band.scale(alpha);
        prop_assert_eq!(scaled.kl(), c.kl);
        let want: Vec<i64> = c.dense.iter().flatten().map(|v| v * alpha).collect();
        prop_assert_eq!(scaled.to_dense().to_vec(), want);
        let mapped = band.map_stored(|v| v * v - 2 * v);
        let want: Vec<i64> = c.dense.iter().flatten().map(|v| v * v - 2 * v).collect();
        prop_assert_eq!(mapped.to_dense().to_vec(), want);
        prop_assert_eq!(mapped.as_lapack_slice().len(), band.as_lapack_slice().len());
        prop_assert!(matches!(band.try_map_stored(|v| v + 1), Err(BandError::NotZeroPreserving)));
        let col_sums: Vec<i64> = (0..c.n).map(|j| (0..c.m).map(|i| c.dense[i][j]).sum()).collect();
        let row_sums: Vec<i64> = c.dense.iter().map(|r| r.iter().sum()).collect();
        prop_assert_eq!(band.sum_axis::<0>().to_vec(), col_sums);
        prop_assert_eq!(band.sum_axis::<1>().to_vec(), row_sums);
    }

    #[test]
    fn from_dense_names_the_first_element_outside_the_band(c in case(7, small_int()), pick in any::<prop::sample::Index>(), v in 1i64..9) {
        let outside: Vec<(usize, usize)> = (0..c.m).flat_map(|i| (0..c.n).map(move |j| (i, j)))
            .filter(|&(i, j)| !in_band(i, j, c.kl, c.ku)).collect();
        prop_assume!(!outside.is_empty());
        let (pi, pj) = outside[pick.index(outside.len())];
        let mut d = c.dense.clone();
        d[pi][pj] = v;
        let first = outside.iter().copied().find(|&(i, j)| d[i][j] != 0).unwrap();
        let t = to_tensor(&Case { dense: d, ..c.clone() });
        match BandMatrix::<i64>::try_from_dense(&t, c.kl, c.ku) {
            Err(BandError::OutsideBand { row, col, kl, ku, .. }) => {
                prop_assert_eq!((row, col, kl, ku), (first.0, first.1, c.kl, c.ku));
            }
            other => prop_assert!(false, "expected OutsideBand, got {:?}", other.map(|b| b.to_triplets())),
        }
    }

    #[test]
    fn solve_agrees_with_dense_elimination(
        c in band_shape(8).prop_flat_map(|(n, _, kl, _)| {
            let ku = if n == 0 { 0 } else { kl.min(n - 1) };
            case_square(n, kl, ku)
        }),
        xs in vec(-9i64..=9, 8),
    ) {
        let band = band_of(&c);
        let x_true: Vec<f64> = xs[..c.n].iter().map(|&v| v as f64).collect();
        let b: Vec<f64> = c.dense.iter().map(|r| r.iter().zip(&x_true).map(|(a, x)| a * x).sum()).collect();
        let bt = Vector::<f64>::from_vec([c.n], b.clone());
        match (band.try_solve(&bt), ref_solve(&c.dense, &b)) {
            (Ok(x), Ok(_)) => prop_assert!(residual_ok(&c.dense, &x.to_vec(), &b), "residual too large"),
            (Err(BandError::Singular { column }), Err(col)) => prop_assert_eq!(column, col),
            (got, want) => prop_assert!(false, "band {:?} vs dense {:?}", got.map(|x| x.to_vec()), want),
        }
    }

    #[test]
    fn well_conditioned_solves_have_small_residuals(
        c in band_shape(9).prop_flat_map(|(n, _, kl, ku)| case_square(n, kl, ku.min(n.saturating_sub(1)))),
        bs in vec(-100.0f64..100.0, 9),
    ) {
        // Diagonal dominance makes the matrix non-singular and well conditioned.
        let mut d = c.dense.clone();
        for (i, row) in d.iter_mut().enumerate() {
            let off: f64 = row.iter().map(|v| v.abs()).sum();
            row[i] = off + 1.0;
        }
        let c = Case { dense: d, ..c };
        let band = band_of(&c);
        let b = &bs[..c.n];
        let x = band.solve(&Vector::<f64>::from_vec([c.n], b.to_vec()));
        prop_assert!(residual_ok(&c.dense, &x.to_vec(), b));
        let lu = band.factorize().unwrap();
        prop_assert_eq!(lu.ldab(), 2 * c.kl + c.ku + 1);
        let mut again = b.to_vec();
        lu.solve_in_place(&mut again).unwrap();
        prop_assert_eq!(again, x.to_vec());
    }
}

/// A square `n × n` case with small integer values as `f64` (some exactly zero).
fn case_square(n: usize, kl: usize, ku: usize) -> impl Strategy<Value = Case<f64>> {
    vec(prop_oneof![1 => Just(0.0f64), 3 => (-9i32..=9).prop_map(f64::from)], n * n).prop_map(move |vals| {
        let dense = (0..n)
            .map(|i| (0..n).map(|j| if in_band(i, j, kl, ku) { vals[i * n + j] } else { 0.0 }).collect())
            .collect();
        Case { m: n, n, kl, ku, dense }
    })
}

#[test]
fn upper_band_with_unit_diagonal_solves_exactly() {
    // kl = 0, unit diagonal: back substitution in integers, exact in f64.
    let n = 12;
    let (kl, ku) = (0, 3);
    let a = BandMatrix::<f64>::from_fn_band(n, kl, ku);
    let x_true: Vec<f64> = (0..n).map(|i| (i as f64) - 5.0).collect();
    let b = a.matvec(&Vector::from_vec([n], x_true.clone()));
    assert_eq!(a.solve(&b).to_vec(), x_true);
}

trait FromFnBand {
    fn from_fn_band(n: usize, kl: usize, ku: usize) -> Self;
}
impl FromFnBand for BandMatrix<f64> {
    fn from_fn_band(n: usize, kl: usize, ku: usize) -> Self {
        let mut a = BandMatrix::<f64>::with_bandwidths([n, n], kl, ku);
        for j in 0..n {
            for i in j.saturating_sub(ku)..(j + kl + 1).min(n) {
                a.set([i, j], if i == j { 1.0 } else { ((i * 3 + j) % 7) as f64 - 3.0 });
            }
        }
        a
    }
}

#[test]
fn diagonally_dominant_tridiagonal_solves_exactly() {
    // 4 on the diagonal, 1 beside it, b = A·1: every step of the elimination is exact for
    // x = 1 … but the quotients are not integers, so compare to 1 within a few ulps.
    let n = 50;
    let a = BandMatrix::<f64>::from_triplets(
        [n, n],
        1,
        1,
        &(0..n)
            .flat_map(|i| {
                let mut t = vec![(i, i, 4.0)];
                if i > 0 {
                    t.push((i, i - 1, 1.0));
                    t.push((i - 1, i, 1.0));
                }
                t
            })
            .collect::<Vec<_>>(),
    );
    let ones = Vector::<f64>::full([n], 1.0);
    let x = a.solve(&a.matvec(&ones));
    assert!(x.iter().all(|&v| (v - 1.0).abs() < 1e-14), "{:?}", x.to_vec());
    assert!(a.factorize().unwrap().pivots().iter().enumerate().all(|(j, &p)| p == j), "no pivoting needed");
}

#[test]
fn small_pivot_is_swapped() {
    // Without pivoting, 1e-20 as the first pivot loses the answer entirely.
    let d = Tensor::<f64, ext![_, _]>::from_vec([3, 3], vec![1e-20, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 2.0]);
    let a = BandMatrix::<f64>::from_dense(&d, 1, 1);
    let lu = a.factorize().unwrap();
    assert_eq!(lu.pivots()[0], 1);
    let b = Vector::<f64>::from_vec([3], vec![1.0, 3.0, 3.0]); // x = [1, 1, 1] (to 1e-20)
    let x = lu.solve(&b).unwrap().to_vec();
    assert!(x.iter().all(|v| (v - 1.0).abs() < 1e-12), "{x:?}");
}

#[test]
fn singular_matrices_name_the_zero_pivot_column() {
    let d = Tensor::<f64, ext![_, _]>::from_vec([3, 3], vec![1.0, 2.0, 0.0, 2.0, 4.0, 0.0, 0.0, 0.0, 1.0]);
    let a = BandMatrix::<f64>::from_dense(&d, 1, 1);
    let err = a.factorize().unwrap_err();
    assert_eq!(err, BandError::Singular { column: 1 });
    assert!(err.to_string().contains("column 1") && err.to_string().contains("INFO = 2"), "{err}");
    let zero = BandMatrix::<f64>::with_bandwidths([4, 4], 1, 2);
    assert_eq!(zero.factorize().unwrap_err(), BandError::Singular { column: 0 });
}

#[test]
fn empty_and_single_element_solves() {
    let a = BandMatrix::<f64>::with_bandwidths([0, 0], 0, 0);
    assert_eq!(a.solve(&Vector::<f64>::from_vec([0], vec![])).to_vec(), Vec::<f64>::new());
    let one = BandMatrix::<f64>::from_triplets([1, 1], 0, 0, &[(0, 0, 4.0)]);
    assert_eq!(one.solve(&Vector::<f64>::from_vec([1], vec![2.0])).to_vec(), [0.5]);
}

#[test]
fn parallel_matvec_agrees_with_serial_and_dense() {
    // Large enough that `Par::Rayon` splits the rows into several tasks.
    let n = if cfg!(miri) { 40 } else { 40_000 };
    let (kl, ku) = (2, 1);
    let mut a = BandMatrix::<i64>::with_bandwidths([n, n + 3], kl, ku);
    let mut triplets = Vec::new();
    for ([i, j], _) in a.entries() {
        triplets.push((i, j, ((i * 7 + j * 3) % 11) as i64 - 5));
    }
    for &(i, j, v) in &triplets {
        a.set([i, j], v);
    }
    let x = Vector::<i64>::from_fn([n + 3], |[j]| (j % 13) as i64 - 6);
    let mut want = vec![0i64; n];
    for &(i, j, v) in &triplets {
        want[i] += v * x[[j]];
    }
    for par in [Par::Seq, Par::Rayon, Par::Auto] {
        let mut y = Vector::<i64>::zeros([n]);
        a.try_matvec_into_with(&x, &mut y, par).unwrap();
        assert_eq!(y.to_vec(), want, "{par:?}");
    }
}

#[test]
fn edge_shapes_agree_with_dense() {
    // Empty axes, a single element, and bandwidths at both extremes, deterministically
    // (the random shapes above reach them only by chance).
    for (m, n, kl, ku) in
        [(0, 0, 0, 0), (0, 3, 0, 2), (3, 0, 2, 0), (1, 1, 0, 0), (1, 4, 0, 3), (4, 1, 3, 0), (5, 5, 4, 4)]
    {
        let dense: Dense<i64> = (0..m)
            .map(|i| (0..n).map(|j| if in_band(i, j, kl, ku) { (i * n + j) as i64 + 1 } else { 0 }).collect())
            .collect();
        let c = Case { m, n, kl, ku, dense };
        let band = band_of(&c);
        assert_eq!(band.to_dense().to_vec(), to_tensor(&c).to_vec(), "{m}×{n}");
        let xs: Vec<i64> = (0..n as i64).map(|j| 3 - j).collect();
        assert_eq!(band.matvec(&Vector::from_vec([n], xs.clone())).to_vec(), ref_matvec(&c.dense, &xs), "{m}×{n}");
        let row_sums: Vec<i64> = c.dense.iter().map(|r| r.iter().sum()).collect();
        assert_eq!(band.sum_axis::<1>().to_vec(), row_sums);
        assert_eq!(band.sum_axis::<0>().numel(), n);
    }
}
