//! Stacks `(..., M, N)` (feature `linalg`): `solve`, `inv` and `det` of a [`DynRank`] stack
//! match the same routine matrix by matrix, with leading axes broadcast between operands
//! (numpy's rule), for small (inline path) and larger (faer) orders, on several threads and one.
#![cfg(feature = "linalg")]

use mdtensor::{ext, DynRank, LinalgError, Par, Tensor};
use proptest::prelude::*;

fn config() -> ProptestConfig {
    ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(32) }
}

/// The index of batch position `idx` in an operand with leading dims `lead` (broadcast).
fn flat(lead: &[usize], batch: &[usize], idx: &[usize]) -> usize {
    let off = batch.len() - lead.len();
    lead.iter().enumerate().fold(0, |p, (i, &d)| p * d + if d == 1 { 0 } else { idx[off + i] })
}

fn unravel(mut k: usize, dims: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; dims.len()];
    for (i, &d) in dims.iter().enumerate().rev() {
        idx[i] = k % d;
        k /= d;
    }
    idx
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn stacks_match_matrix_by_matrix(
        n in 1usize..7,
        k in 1usize..3,
        lead_a in prop::collection::vec(1usize..4, 0..3),
        lead_b in prop::collection::vec(1usize..4, 0..3),
        seed in prop::collection::vec(-1.0f64..1.0, 64),
        par in prop::sample::select(vec![Par::Seq, Par::Rayon, Par::Auto]),
    ) {
        // Make the leading axes broadcastable: where both have an axis, keep one of them or 1.
        let r = lead_a.len().max(lead_b.len());
        let la = lead_a.clone();
        let mut lb = lead_b.clone();
        for i in 0..r {
            let (ia, ib) = (i as isize - (r - la.len()) as isize, i as isize - (r - lb.len()) as isize);
            if ia >= 0 && ib >= 0 {
                let (x, y) = (la[ia as usize], lb[ib as usize]);
                if x != y && x != 1 && y != 1 {
                    lb[ib as usize] = 1;
                }
            }
        }
        let batch: Vec<usize> = (0..r).map(|i| {
            let x = if i >= r - la.len() { la[i - (r - la.len())] } else { 1 };
            let y = if i >= r - lb.len() { lb[i - (r - lb.len())] } else { 1 };
            x.max(y)
        }).collect();
        let ca: usize = la.iter().product();
        let cb: usize = lb.iter().product();
        let mut adata = Vec::new();
        for c in 0..ca {
            for q in 0..n * n {
                let v = seed[(c * 7 + q) % 64];
                adata.push(if q / n == q % n { v + n as f64 + 1.0 } else { v });
            }
        }
        let bdata: Vec<f64> = (0..cb * n * k).map(|q| seed[(q * 5 + 3) % 64]).collect();
        let mut ad = la.clone();
        ad.extend([n, n]);
        let mut bd = lb.clone();
        bd.extend([n, k]);
        let a = Tensor::<f64, DynRank>::from_vec(&ad[..], adata.clone());
        let b = Tensor::<f64, DynRank>::from_vec(&bd[..], bdata.clone());
        let x = a.solve_with(&b, par);
        let mut want_shape = batch.clone();
        want_shape.extend([n, k]);
        prop_assert_eq!(x.shape(), want_shape);
        let xv = x.to_vec();
        let count: usize = batch.iter().product();
        for bi in 0..count {
            let idx = unravel(bi, &batch);
            let (ia, ib) = (flat(&la, &batch, &idx), flat(&lb, &batch, &idx));
            let am = Tensor::<f64, ext![_, _]>::from_vec([n, n], adata[ia * n * n..(ia + 1) * n * n].to_vec());
            let bm = Tensor::<f64, ext![_, _]>::from_vec([n, k], bdata[ib * n * k..(ib + 1) * n * k].to_vec());
            let want = am.solve(&bm).to_vec();
            let got = &xv[bi * n * k..(bi + 1) * n * k];
            prop_assert!(want.iter().zip(got).all(|(w, g)| (w - g).abs() < 1e-10));
        }
        let inv = a.inv_with(par).to_vec();
        let det = a.det().to_vec();
        prop_assert_eq!(det.len(), ca);
        for c in 0..ca {
            let am = Tensor::<f64, ext![_, _]>::from_vec([n, n], adata[c * n * n..(c + 1) * n * n].to_vec());
            prop_assert!(am.inv().to_vec().iter().zip(&inv[c * n * n..(c + 1) * n * n]).all(|(w, g)| (w - g).abs() < 1e-10));
            prop_assert!((am.det() - det[c]).abs() < 1e-10 * (1.0 + det[c].abs()));
        }
        // A vector right-hand side (numpy's `b.ndim == 1`) is broadcast to every matrix.
        let v = Tensor::<f64, DynRank>::from_vec(&[n][..], bdata[..n].to_vec());
        let mut vs = la.clone();
        vs.push(n);
        prop_assert_eq!(a.solve(&v).shape(), vs);
    }
}

#[test]
fn broadcast_example_and_errors() {
    let a = Tensor::<f64, DynRank>::from_vec(
        &[3, 1, 4, 4][..],
        (0..48).map(|i| if (i % 16) % 5 == 0 { 2.0 } else { 0.0 }).collect(),
    );
    let b = Tensor::<f64, DynRank>::from_vec(&[2, 4, 1][..], (0..8).map(f64::from).collect());
    let x = a.solve(&b);
    assert_eq!(x.shape(), [3, 2, 4, 1]);
    assert_eq!(x.to_vec()[4..8], [2.0, 2.5, 3.0, 3.5]);
    let bad = Tensor::<f64, DynRank>::from_vec(&[2, 5, 1][..], vec![0.0; 10]);
    assert!(matches!(a.try_solve(&bad), Err(LinalgError::Shape(_))));
    let not_square = Tensor::<f64, DynRank>::from_vec(&[2, 3, 4][..], vec![0.0; 24]);
    assert!(matches!(not_square.try_inv(), Err(LinalgError::Shape(_))));
    assert!(matches!(not_square.try_det(), Err(LinalgError::Shape(_))));
    let singular = Tensor::<f64, DynRank>::from_vec(&[2, 2, 2][..], vec![1.0, 0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 4.0]);
    assert!(matches!(singular.try_inv(), Err(LinalgError::Singular { op: "inv", .. })));
    assert_eq!(singular.det().to_vec(), [1.0, 0.0]);
    let empty = Tensor::<f64, DynRank>::from_vec(&[0, 3, 3][..], vec![]);
    assert_eq!(empty.inv().shape(), [0, 3, 3]);
    assert_eq!(empty.det().shape(), [0]);
}
