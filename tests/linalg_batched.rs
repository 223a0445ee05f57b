//! Stacks `(..., M, N)` (feature `linalg`): every batched routine of a [`DynRank`] stack
//! (row-major or a strided view with permuted axes) and of a fixed-rank stack matches the
//! rank-2 routine matrix by matrix, factors reconstruct their matrices, and leading axes
//! broadcast between operands (numpy's rule), for small (inline path) and larger (faer)
//! orders, on several threads and one.
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

fn near(got: &[f64], want: &[f64], tol: f64) -> bool {
    got.len() == want.len() && got.iter().zip(want).all(|(g, w)| (g - w).abs() <= tol * (1.0 + w.abs()))
}

/// A stack of shape `batch ++ [m, n]` stored with its axes permuted by the rotation `rot`:
/// the owned base and the axes whose `permute` views it in that shape (strided, not
/// row-major, whenever `rot > 0`).
fn stacked(
    batch: &[usize],
    m: usize,
    n: usize,
    rot: usize,
    f: impl Fn(&[usize]) -> f64,
) -> (Tensor<f64, DynRank>, Vec<usize>) {
    let mut want = batch.to_vec();
    want.extend([m, n]);
    let r = want.len();
    // View axis j reads base axis axes[j]: base dims are the view's, rotated.
    let axes: Vec<usize> = (0..r).map(|j| (j + rot) % r).collect();
    let mut base_dims = vec![0; r];
    for j in 0..r {
        base_dims[axes[j]] = want[j];
    }
    let count: usize = base_dims.iter().product();
    let data = (0..count)
        .map(|k| {
            let bidx = unravel(k, &base_dims);
            let vidx: Vec<usize> = (0..r).map(|j| bidx[axes[j]]).collect();
            f(&vidx)
        })
        .collect();
    (Tensor::from_vec(&base_dims[..], data), axes)
}

/// The matrices of a stack (row-major elements), each as a rank-2 tensor.
fn matrices(elems: &[f64], m: usize, n: usize) -> Vec<Tensor<f64, ext![_, _]>> {
    elems.chunks(m * n).map(|c| Tensor::from_vec([m, n], c.to_vec())).collect()
}

/// `U diag(S) Vᴴ` of row-major factors `m × k`, `k`, `k × n`.
fn usv(u: &[f64], s: &[f64], vh: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
    (0..m * n).map(|q| (0..k).map(|l| u[(q / n) * k + l] * s[l] * vh[l * n + q % n]).sum()).collect()
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

    #[test]
    fn stack_routines_match_matrix_by_matrix(
        m in 1usize..6,
        n in 1usize..6,
        batch in prop::collection::vec(1usize..4, 0..3),
        rot in 0usize..4,
        seed in prop::collection::vec(-1.0f64..1.0, 97),
        par in prop::sample::select(vec![Par::Seq, Par::Rayon, Par::Auto]),
    ) {
        use mdtensor::linalg::{MatrixOrd, QrMode};
        let h = |idx: &[usize]| seed[idx.iter().fold(3usize, |p, &i| p * 31 + i) % 97];
        let (base, axes) = stacked(&batch, m, n, rot, h);
        let a = base.permute(&axes);
        let elems = a.to_vec();
        let mats = matrices(&elems, m, n);
        let k = m.min(n);
        let count: usize = batch.iter().product();
        let mut bk = batch.clone();
        bk.push(k);
        let sv = a.svdvals_with(par);
        prop_assert_eq!(sv.shape(), bk.clone());
        let (u, s, vh) = a.svd_with(false, par);
        let (uf, _, vf) = a.svd_with(true, par);
        let pinv = a.pinv_with(None, par);
        let rank = a.matrix_rank_with(None, par);
        let cond = a.cond_with(None, par);
        let (q, r) = a.qr_with(QrMode::Reduced, par);
        let q = q.unwrap();
        let (qc, rc) = a.qr(QrMode::Complete);
        let qc = qc.unwrap();
        let (none, ro) = a.qr(QrMode::R);
        prop_assert!(none.is_none());
        let (lp, ll, lu) = a.lu();
        prop_assert_eq!((lp.shape(), ll.shape(), lu.shape()), ([&batch[..], &[m, m]].concat(), [&batch[..], &[m, k]].concat(), [&batch[..], &[k, n]].concat()));
        let (lp, ll, lu) = (lp.to_vec(), ll.to_vec(), lu.to_vec());
        prop_assert_eq!(pinv.shape(), [&batch[..], &[n, m]].concat());
        prop_assert_eq!((uf.shape(), vf.shape()), ([&batch[..], &[m, m]].concat(), [&batch[..], &[n, n]].concat()));
        prop_assert_eq!((qc.shape(), rc.shape()), ([&batch[..], &[m, m]].concat(), [&batch[..], &[m, n]].concat()));
        prop_assert_eq!(ro.shape(), r.shape());
        let (sv, u, s, vh, pinv, q, r) = (sv.to_vec(), u.to_vec(), s.to_vec(), vh.to_vec(), pinv.to_vec(), q.to_vec(), r.to_vec());
        for (i, am) in mats.iter().enumerate() {
            prop_assert!(near(&sv[i * k..(i + 1) * k], &am.svdvals().to_vec(), 1e-10));
            prop_assert!(near(&usv(&u[i * m * k..], &s[i * k..], &vh[i * k * n..], m, k, n), &am.to_vec(), 1e-10));
            prop_assert!(near(&pinv[i * m * n..(i + 1) * m * n], &am.pinv(None).to_vec(), 1e-8));
            prop_assert_eq!(rank.to_vec()[i], am.matrix_rank(None));
            let c = am.cond(None);
            prop_assert!(near(&[cond.to_vec()[i]], &[c], 1e-8) || !c.is_finite());
            let qr: Vec<f64> = (0..m * n).map(|x| (0..k).map(|l| q[i * m * k + (x / n) * k + l] * r[i * k * n + l * n + x % n]).sum()).collect();
            prop_assert!(near(&qr, &am.to_vec(), 1e-10));
            let (p1, l1, u1) = am.lu();
            prop_assert_eq!(&lp[i * m * m..(i + 1) * m * m], &p1.to_vec()[..]);
            prop_assert_eq!(&ll[i * m * k..(i + 1) * m * k], &l1.to_vec()[..]);
            prop_assert_eq!(&lu[i * k * n..(i + 1) * k * n], &u1.to_vec()[..]);
            for ord in [MatrixOrd::Two, MatrixOrd::MinusTwo, MatrixOrd::Nuc, MatrixOrd::Fro, MatrixOrd::One, MatrixOrd::MinusOne, MatrixOrd::Inf, MatrixOrd::MinusInf] {
                prop_assert!(near(&[a.matrix_norm_with(ord, par).to_vec()[i]], &[am.matrix_norm(ord)], 1e-10));
            }
        }
        prop_assert_eq!(mats.len(), count);
        // The fixed-rank path reads the same strided view.
        if batch.len() == 1 {
            let f = a.view().try_into_extents::<ext![_, _, _]>().unwrap();
            prop_assert_eq!(f.svdvals().to_vec(), sv.clone());
            prop_assert_eq!(f.pinv(None).to_vec(), pinv.clone());
            prop_assert_eq!(f.matrix_rank(None).to_vec(), rank.to_vec());
        }
        if batch.len() == 2 {
            let f = a.view().try_into_extents::<ext![_, _, _, _]>().unwrap();
            prop_assert_eq!(f.svdvals().to_vec(), sv.clone());
            let (fq, fr) = f.qr(QrMode::Reduced);
            prop_assert_eq!((fq.unwrap().to_vec(), fr.to_vec()), (q.clone(), r.clone()));
            let (fp, fl, fu) = f.lu();
            prop_assert_eq!((fp.to_vec(), fl.to_vec(), fu.to_vec()), (lp.clone(), ll.clone(), lu.clone()));
        }
    }

    #[test]
    fn square_stack_routines_match_matrix_by_matrix(
        n in 1usize..7,
        batch in prop::collection::vec(1usize..4, 0..3),
        rot in 0usize..4,
        power in -2i64..4,
        kb in 1usize..3,
        seed in prop::collection::vec(-1.0f64..1.0, 97),
        par in prop::sample::select(vec![Par::Seq, Par::Rayon, Par::Auto]),
    ) {
        use mdtensor::linalg::Uplo;
        // Symmetric and diagonally dominant with a positive diagonal: positive definite.
        let r = batch.len();
        let h = |idx: &[usize]| {
            let (i, j) = (idx[r], idx[r + 1]);
            let key = idx[..r].iter().fold(5usize, |p, &x| p * 31 + x) * 53 + i.min(j) * 7 + i.max(j);
            if i == j { n as f64 + 1.5 + seed[key % 97] } else { seed[key % 97] }
        };
        let (base, axes) = stacked(&batch, n, n, rot, h);
        let a = base.permute(&axes);
        let elems = a.to_vec();
        let mats = matrices(&elems, n, n);
        let nn = n * n;
        let chol = a.cholesky_with(par).to_vec();
        let (sign, logdet) = a.slogdet_with(par);
        let (w, v) = a.eigh_with(Uplo::Lower, par);
        let wu = a.eigvalsh(Uplo::Upper).to_vec();
        let ev = a.eigvals_with(par).to_vec();
        let (ew, evec) = a.eig();
        let pw = a.matrix_power_with(power, par).to_vec();
        let ex = a.expm_with(par).to_vec();
        prop_assert_eq!(w.shape(), [&batch[..], &[n]].concat());
        prop_assert_eq!(evec.shape(), a.shape());
        let (w, v, ew) = (w.to_vec(), v.to_vec(), ew.to_vec());
        for (i, am) in mats.iter().enumerate() {
            prop_assert!(near(&chol[i * nn..(i + 1) * nn], &am.cholesky().to_vec(), 1e-12));
            let (s1, l1) = am.slogdet();
            prop_assert_eq!(sign.to_vec()[i], s1);
            prop_assert!(near(&[logdet.to_vec()[i]], &[l1], 1e-12));
            prop_assert!(near(&w[i * n..(i + 1) * n], &am.eigvalsh(Uplo::Lower).to_vec(), 1e-10));
            prop_assert!(near(&wu[i * n..(i + 1) * n], &am.eigvalsh(Uplo::Upper).to_vec(), 1e-10));
            // V Λ Vᵀ = A.
            let back: Vec<f64> = (0..nn).map(|q| (0..n).map(|l| v[i * nn + (q / n) * n + l] * w[i * n + l] * v[i * nn + (q % n) * n + l]).sum()).collect();
            prop_assert!(near(&back, &am.to_vec(), 1e-10));
            let want: Vec<f64> = am.eigvals().to_vec().iter().map(|z| z.re).collect();
            let got: Vec<f64> = ev[i * n..(i + 1) * n].iter().map(|z| z.re).collect();
            prop_assert!(near(&got, &want, 1e-10));
            // A symmetric matrix: real eigenvalues, in whatever order each routine gives them.
            let sorted = |z: &[mdtensor::num_complex::Complex<f64>]| {
                let mut r: Vec<f64> = z.iter().map(|z| z.re).collect();
                r.sort_by(f64::total_cmp);
                r
            };
            prop_assert!(near(&sorted(&ew[i * n..(i + 1) * n]), &sorted(&ev[i * n..(i + 1) * n]), 1e-10));
            prop_assert!(near(&pw[i * nn..(i + 1) * nn], &am.matrix_power(power).to_vec(), 1e-9));
            prop_assert!(near(&ex[i * nn..(i + 1) * nn], &am.expm().to_vec(), 1e-9));
        }
        // solve_triangular broadcasts as solve: a (..., n, n) with b (kb, 1, ..., n, 2).
        let mut bd = vec![kb];
        bd.extend(std::iter::repeat_n(1, r));
        bd.extend([n, 2]);
        let bcount: usize = bd.iter().product();
        let b = Tensor::<f64, DynRank>::from_vec(&bd[..], (0..bcount).map(|q| seed[(q * 11 + 1) % 97]).collect());
        let x = a.solve_triangular_with(&b, true, false, par);
        let count = mats.len();
        prop_assert_eq!(x.shape(), [&[kb][..], &batch[..], &[n, 2]].concat());
        let (xv, bv) = (x.to_vec(), b.to_vec());
        for j in 0..kb {
            let bm = Tensor::<f64, ext![_, _]>::from_vec([n, 2], bv[j * n * 2..(j + 1) * n * 2].to_vec());
            for (i, am) in mats.iter().enumerate() {
                let off = (j * count + i) * n * 2;
                prop_assert!(near(&xv[off..off + n * 2], &am.solve_triangular(&bm, true, false).to_vec(), 1e-12));
            }
        }
        if r == 1 {
            let f = a.view().try_into_extents::<ext![_, _, _]>().unwrap();
            prop_assert_eq!(f.inv().to_vec(), a.inv().to_vec());
            prop_assert_eq!(f.det().to_vec(), a.det().to_vec());
            prop_assert_eq!(f.cholesky().to_vec(), chol.clone());
            prop_assert_eq!(f.matrix_power(power).to_vec(), pw.clone());
            let b3 = Tensor::<f64, ext![_, _, _]>::from_vec([1, n, 2], bv[..n * 2].to_vec());
            let x3 = f.solve(&b3);
            prop_assert_eq!(x3.shape(), [batch[0], n, 2]);
            prop_assert_eq!(x3.to_vec(), a.solve(&b3).to_vec());
        }
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
    assert!(matches!(singular.try_inv(), Err(LinalgError::Singular { op: "inv", matrix: Some(1), .. })));
    assert_eq!(singular.det().to_vec(), [1.0, 0.0]);
    let empty = Tensor::<f64, DynRank>::from_vec(&[0, 3, 3][..], vec![]);
    assert_eq!(empty.inv().shape(), [0, 3, 3]);
    assert_eq!(empty.det().shape(), [0]);
}

#[test]
fn stack_errors_and_fixed_extents() {
    use mdtensor::linalg::Uplo;
    let not_pd = Tensor::<f64, DynRank>::from_vec(&[2, 2, 2][..], vec![1.0, 0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 1.0]);
    assert!(matches!(not_pd.try_cholesky(), Err(LinalgError::NotPositiveDefinite { op: "cholesky", .. })));
    let rect = Tensor::<f64, DynRank>::from_vec(&[2, 2, 3][..], vec![0.0; 12]);
    assert!(matches!(rect.try_eigh(Uplo::Lower), Err(LinalgError::Shape(_))));
    assert!(matches!(rect.try_matrix_power(2), Err(LinalgError::Shape(_))));
    let vector = Tensor::<f64, DynRank>::from_vec(&[3][..], vec![1.0; 3]);
    assert!(matches!(vector.try_svdvals(), Err(LinalgError::Shape(_))));
    let singular = Tensor::<f64, DynRank>::from_vec(&[2, 2, 2][..], vec![1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
    let b = Tensor::<f64, DynRank>::from_vec(&[2][..], vec![1.0, 1.0]);
    assert!(matches!(singular.try_solve_triangular(&b, true, false), Err(LinalgError::Singular { .. })));
    assert_eq!(singular.slogdet().1.to_vec()[1], f64::NEG_INFINITY);
    // Empty stacks keep numpy's shapes.
    let empty = Tensor::<f64, DynRank>::from_vec(&[0, 3, 2][..], vec![]);
    let (u, s, vh) = empty.svd(false);
    assert_eq!((u.shape(), s.shape(), vh.shape()), (vec![0, 3, 2], vec![0, 2], vec![0, 2, 2]));
    // Fixed rank keeps what is static.
    let a = Tensor::<f64, ext![2, 3, 3]>::from_fn(ext![2, 3, 3], |[b, i, j]| if i == j { 2.0 + b as f64 } else { 0.0 });
    let _: Tensor<f64, ext![2, 3, 3]> = a.inv();
    let _: Tensor<f64, ext![2]> = a.det();
    let (w, _): (Tensor<f64, ext![2, 3]>, Tensor<f64, ext![2, 3, 3]>) = a.eigh(Uplo::Lower);
    assert_eq!(w.to_vec(), [2.0, 2.0, 2.0, 3.0, 3.0, 3.0]);
    let a4 = Tensor::<f64, ext![2, 1, 2, 2]>::from_vec(ext![2, 1, 2, 2], vec![2.0, 0.0, 0.0, 2.0, 4.0, 0.0, 0.0, 1.0]);
    let _: Tensor<f64, ext![2, 1]> = a4.det();
    assert_eq!(a4.inv().to_vec(), [0.5, 0.0, 0.0, 0.5, 0.25, 0.0, 0.0, 1.0]);
    let dynamic = Tensor::<f64, ext![_, _, _]>::from_vec([1, 2, 3], vec![0.0; 6]);
    assert!(matches!(dynamic.try_inv(), Err(LinalgError::Shape(_))));
}

/// The driver's matrix views over permuted, flipped (negative strides) and broadcast (zero
/// strides) stacks, through a routine that needs no factorization (small enough for Miri).
#[test]
fn stack_views_read_every_layout() {
    use mdtensor::linalg::MatrixOrd;
    let base = Tensor::<f64, DynRank>::from_vec(&[2, 3, 4][..], (0..24).map(|i| f64::from(i) - 11.5).collect());
    let permuted = base.permute(&[2, 0, 1]); // (4, 2, 3)
    let flipped = permuted.flip_dyn(2);
    let wide = Tensor::<f64, DynRank>::from_vec(&[1, 2, 3][..], (0..6).map(f64::from).collect());
    let broadcast: Tensor<f64, DynRank, _, _> = wide.broadcast_to(&[3, 2, 3][..]);
    let inf = |elems: Vec<f64>| -> Vec<f64> {
        elems
            .chunks(6)
            .map(|m| m.chunks(3).map(|r| r.iter().map(|x| x.abs()).sum::<f64>()).fold(0.0, f64::max))
            .collect()
    };
    assert_eq!(permuted.matrix_norm(MatrixOrd::Inf).to_vec(), inf(permuted.to_vec()));
    assert_eq!(flipped.matrix_norm(MatrixOrd::Inf).to_vec(), inf(flipped.to_vec()));
    assert_eq!(broadcast.matrix_norm_with(MatrixOrd::Inf, Par::Rayon).to_vec(), [12.0; 3]);
    let want = inf(flipped.to_vec());
    let fixed = flipped.try_into_extents::<ext![_, _, _]>().unwrap();
    assert_eq!(fixed.matrix_norm(MatrixOrd::Inf).to_vec(), want);
}

/// An error in a stack names the matrix (row-major over the leading axes), the lowest one
/// when several fail, whichever thread meets it first; one matrix names none.
#[test]
fn stack_errors_name_the_lowest_failing_matrix() {
    use mdtensor::Par;
    let (count, n) = (64usize, 24usize);
    let singular_at = [37usize, 41, 60];
    let data: Vec<f64> = (0..count)
        .flat_map(|m| {
            (0..n * n).map(move |q| {
                let (i, j) = (q / n, q % n);
                if singular_at.contains(&m) && i == n - 1 {
                    0.0 // a zero last row
                } else if i == j {
                    12.0 + m as f64 // above every row's off-diagonal sum: positive definite
                } else {
                    ((i * 7 + j * 3 + m) % 5) as f64 * 0.1
                }
            })
        })
        .collect();
    let a = Tensor::<f64, DynRank>::from_vec(&[4, 16, n, n][..], data);
    let b = Tensor::<f64, DynRank>::from_vec(&[n][..], vec![1.0; n]);
    for par in [Par::Seq, Par::Auto, Par::Rayon] {
        let e = a.try_solve_with(&b, par).unwrap_err();
        assert!(matches!(e, LinalgError::Singular { op: "solve", matrix: Some(37), .. }), "{e:?}");
        assert!(e.to_string().contains("at position 37 of the stack"), "{e}");
        let e = a.try_inv_with(par).unwrap_err();
        assert!(matches!(e, LinalgError::Singular { op: "inv", matrix: Some(37), .. }), "{e:?}");
        let e = a.try_cholesky_with(par).unwrap_err();
        assert!(matches!(e, LinalgError::NotPositiveDefinite { op: "cholesky", matrix: Some(37), .. }), "{e:?}");
    }
    let one = Tensor::<f64, DynRank>::from_vec(&[2, 2][..], vec![1.0, 2.0, 2.0, 4.0]);
    let e = one.try_inv().unwrap_err();
    assert!(matches!(e, LinalgError::Singular { matrix: None, .. }), "{e:?}");
    assert!(!e.to_string().contains("stack"), "{e}");
}

/// A fixed-rank stack pairs with every right-hand side numpy takes (a vector per matrix, a
/// matrix shared by all, a stack of lower, equal or higher rank), keeps the static axes it
/// can, and agrees with the `DynRank` path entry for entry.
#[test]
fn fixed_rank_stacks_pair_with_every_right_hand_side() {
    let f = |k: usize| ((k * 7 + 3) % 11) as f64 / 11.0;
    let a3 = Tensor::<f64, ext![2, 3, 3]>::from_fn(ext![2, 3, 3], |[b, i, j]| {
        f(b * 9 + i * 3 + j) + if i == j { 3.0 } else { 0.0 }
    });
    let a4 = Tensor::<f64, ext![2, 2, 3, 3]>::from_fn(ext![2, 2, 3, 3], |[c, b, i, j]| {
        f(c * 18 + b * 9 + i * 3 + j + 5) + if i == j { 3.0 } else { 0.0 }
    });
    let v = Tensor::<f64, ext![3]>::from_fn(ext![3], |[i]| f(i + 1));
    let m = Tensor::<f64, ext![3, 2]>::from_fn(ext![3, 2], |[i, j]| f(i * 2 + j + 2));
    let s3 = Tensor::<f64, ext![2, 3, 2]>::from_fn(ext![2, 3, 2], |[b, i, j]| f(b * 6 + i * 2 + j + 4));
    let s4 = Tensor::<f64, ext![2, 1, 3, 1]>::from_fn(ext![2, 1, 3, 1], |[c, b, i, _]| f(c * 3 + b + i + 6));
    let same = |got: Vec<f64>, a: Tensor<f64, DynRank>, b: Tensor<f64, DynRank>, shape: &[usize]| {
        let want = a.solve(&b);
        assert_eq!(want.shape(), shape);
        assert!(near(&got, &want.to_vec(), 1e-12), "{got:?} vs {:?}", want.to_vec());
    };
    let x: Tensor<f64, ext![2, 3]> = a3.solve(&v);
    same(x.to_vec(), a3.clone().into_dyn(), v.clone().into_dyn(), &[2, 3]);
    let x: Tensor<f64, ext![2, 3, 2]> = a3.solve(&m);
    same(x.to_vec(), a3.clone().into_dyn(), m.clone().into_dyn(), &[2, 3, 2]);
    let x: Tensor<f64, ext![_, 3, 2]> = a3.solve(&s3);
    same(x.to_vec(), a3.clone().into_dyn(), s3.clone().into_dyn(), &[2, 3, 2]);
    let x: Tensor<f64, ext![2, _, 3, 1]> = a3.solve(&s4);
    same(x.to_vec(), a3.clone().into_dyn(), s4.clone().into_dyn(), &[2, 2, 3, 1]);
    let x: Tensor<f64, ext![2, 2, 3]> = a4.solve(&v);
    same(x.to_vec(), a4.clone().into_dyn(), v.clone().into_dyn(), &[2, 2, 3]);
    let x: Tensor<f64, ext![2, 2, 3, 2]> = a4.solve(&m);
    same(x.to_vec(), a4.clone().into_dyn(), m.clone().into_dyn(), &[2, 2, 3, 2]);
    let x: Tensor<f64, ext![2, _, 3, 2]> = a4.solve(&s3);
    same(x.to_vec(), a4.clone().into_dyn(), s3.clone().into_dyn(), &[2, 2, 3, 2]);
    let x: Tensor<f64, ext![_, _, 3, 1]> = a4.solve(&s4);
    same(x.to_vec(), a4.clone().into_dyn(), s4.clone().into_dyn(), &[2, 2, 3, 1]);
    let x: Tensor<f64, DynRank> = a3.solve(&s4.clone().into_dyn());
    assert_eq!(x.shape(), [2, 2, 3, 1]);
    // Triangular systems pair the same way.
    let l3 = Tensor::<f64, ext![2, 3, 3]>::from_fn(ext![2, 3, 3], |[b, i, j]| if j <= i { a3[[b, i, j]] } else { 0.0 });
    let x: Tensor<f64, ext![2, 3]> = l3.solve_triangular(&v, true, false);
    same(x.to_vec(), l3.clone().into_dyn(), v.clone().into_dyn(), &[2, 3]);
    // Batch axes both operands have are checked at run time.
    let s3_bad = Tensor::<f64, ext![_, 3, 2]>::from_vec([3, 3, 2], vec![1.0; 18]);
    assert!(matches!(a3.try_solve(&s3_bad), Err(LinalgError::Shape(_))));
}

/// A matrix's `solve` takes a `DynRank` right-hand side: a vector, a matrix, or a stack
/// `(..., N, K)` (numpy's broadcasting); the factors' solves take rank 1 or 2, and a scalar
/// or a stack is `Err` there, never a panic.
#[test]
fn a_matrix_solves_dyn_rank_right_hand_sides() {
    let a = Tensor::<f64, ext![3, 3]>::from_fn(ext![3, 3], |[i, j]| if i == j { 4.0 } else { 1.0 });
    let stack = Tensor::<f64, DynRank>::from_vec(&[2, 3, 2][..], (0..12).map(f64::from).collect());
    let x = a.solve(&stack);
    assert_eq!(x.shape(), [2, 3, 2]);
    let want = a.clone().into_dyn().solve(&stack);
    assert!(near(&x.to_vec(), &want.to_vec(), 1e-12));
    let m = Tensor::<f64, DynRank>::from_vec(&[3, 2][..], (0..6).map(f64::from).collect());
    let xm = a.solve(&m);
    assert_eq!(xm.shape(), [3, 2]);
    assert!(near(&a.matmul(&xm.clone().into_dyn()).to_vec(), &m.to_vec(), 1e-12));
    let v = Tensor::<f64, DynRank>::from_vec(&[3][..], vec![1.0, 2.0, 3.0]);
    assert_eq!(a.solve(&v).shape(), [3]);
    let big = Tensor::<f64, ext![_, _]>::from_fn([6, 6], |[i, j]| if i == j { 7.0 } else { 1.0 / (1 + i + j) as f64 });
    let s6 = Tensor::<f64, DynRank>::from_vec(&[2, 1, 6, 1][..], (0..12).map(f64::from).collect());
    let x6 = big.solve(&s6);
    assert_eq!(x6.shape(), [2, 1, 6, 1]);
    assert!(near(&x6.to_vec(), &big.clone().into_dyn().solve(&s6).to_vec(), 1e-12));
    let scalar = Tensor::<f64, DynRank>::from_vec(&[][..], vec![1.0]);
    assert!(matches!(a.try_solve(&scalar), Err(LinalgError::Shape(_))));
    assert!(matches!(big.try_solve(&scalar), Err(LinalgError::Shape(_))));
    let wrong = Tensor::<f64, DynRank>::from_vec(&[2, 4, 1][..], vec![0.0; 8]);
    assert!(matches!(a.try_solve(&wrong), Err(LinalgError::Shape(_))));
    let lu = big.lu_factor();
    assert!(matches!(lu.try_solve(&s6), Err(LinalgError::Shape(_))));
    assert!(matches!(big.try_lstsq(&scalar, None), Err(LinalgError::Shape(_))));
    // Two equal rows: an exactly zero pivot, and numpy's +0 determinant (never -0).
    let twin = Tensor::<f64, ext![_, _]>::from_fn([5, 5], |[i, j]| {
        ((i.min(3) * 7 + j * 3) % 5) as f64 + (i.min(3) == j) as u8 as f64
    });
    let d = twin.det();
    assert!(d == 0.0 && d.is_sign_positive(), "{d}");
    assert!(twin.lu_factor().det().is_sign_positive());
    let v6 = Tensor::<f64, DynRank>::from_vec(&[6][..], (0..6).map(f64::from).collect());
    assert!(near(&lu.solve(&v6).to_vec(), &big.solve(&v6).to_vec(), 1e-12));
}

/// `lu_factor` and `cho_factor` of a stack keep one factor per matrix: their solves pair
/// and broadcast right-hand sides as `solve` does and agree with it, `det` and `slogdet`
/// agree with the stack's, `get` finds each matrix's factor, and a matrix that is not
/// positive definite is named.
#[test]
fn stack_factors_solve_as_solve_does() {
    use mdtensor::linalg::Factors;
    let f = |k: usize| ((k * 5 + 1) % 13) as f64 / 13.0;
    for (batch, n) in [(vec![3usize], 3usize), (vec![2, 2], 6), (vec![], 4), (vec![0], 2)] {
        let (base, axes) = stacked(&batch, n, n, 1, |idx| {
            let k = idx.iter().fold(0, |p, &i| p * 7 + i);
            let (i, j) = (idx[idx.len() - 2], idx[idx.len() - 1]);
            f(k) * 0.5 + f(i + j) * 0.5 + if i == j { n as f64 } else { 0.0 }
        });
        let a = base.permute(&axes);
        let spd = a.matmul(&a.swapaxes_dyn(-1, -2));
        let lu: Factors<_> = a.lu_factor();
        let cho = spd.cho_factor();
        assert_eq!((lu.batch_shape(), lu.order(), lu.len()), (&batch[..], n, batch.iter().product::<usize>()));
        let mut rhs_shapes = vec![vec![n], vec![n, 2]];
        let mut lead = batch.clone();
        lead.extend([n, 1]);
        rhs_shapes.push(lead);
        if !batch.is_empty() {
            let mut b1 = vec![2];
            b1.extend(vec![1; batch.len()]);
            b1.extend([n, 2]);
            rhs_shapes.push(b1);
        }
        for shape in rhs_shapes {
            let count: usize = shape.iter().product();
            let b = Tensor::<f64, DynRank>::from_vec(&shape[..], (0..count).map(|k| f(k + 3)).collect());
            let want = a.solve(&b);
            let got = lu.solve(&b);
            assert_eq!(got.shape(), want.shape(), "{batch:?} {shape:?}");
            assert!(near(&got.to_vec(), &want.to_vec(), 1e-10));
            let want = spd.solve(&b);
            assert!(near(&cho.solve(&b).to_vec(), &want.to_vec(), 1e-9));
        }
        assert!(near(&lu.det().to_vec(), &a.det().to_vec(), 1e-10));
        let (s, l) = lu.slogdet();
        let (ws, wl) = a.slogdet();
        assert_eq!((s.to_vec(), s.shape()), (ws.to_vec(), ws.shape()));
        assert!(near(&l.to_vec(), &wl.to_vec(), 1e-12));
        if let Some(first) = lu.get(&vec![0; batch.len()]) {
            assert_eq!(first.order(), n);
        }
        assert!(lu.get(&vec![9; batch.len().max(1)]).is_none());
        let wrong = Tensor::<f64, DynRank>::from_vec(&[n + 1][..], vec![1.0; n + 1]);
        assert!(matches!(lu.try_solve(&wrong), Err(LinalgError::Shape(_))));
    }
    let not_pd = Tensor::<f64, DynRank>::from_vec(
        &[3, 2, 2][..],
        vec![1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 1.0],
    );
    assert!(matches!(
        not_pd.try_cho_factor(),
        Err(LinalgError::NotPositiveDefinite { op: "cho_factor", matrix: Some(2), .. })
    ));
    let rect = Tensor::<f64, DynRank>::from_vec(&[2, 2, 3][..], vec![0.0; 12]);
    assert!(matches!(rect.try_lu_factor(), Err(LinalgError::Shape(_))));
    // Fixed rank: the same factors, the static square rule kept.
    let a3 = Tensor::<f64, ext![2, 2, 2]>::from_vec(ext![2, 2, 2], vec![2.0, 1.0, 1.0, 3.0, 4.0, 0.0, 1.0, 1.0]);
    let b = Tensor::<f64, ext![2]>::from_vec(ext![2], vec![1.0, 2.0]);
    assert!(near(&a3.lu_factor().solve(&b).to_vec(), &a3.solve(&b).to_vec(), 1e-12));
}

/// `lstsq` of a `DynRank` matrix is the rank-2 routine's; numpy's `lstsq` takes one matrix,
/// so a stack is `Err`.
#[test]
fn dyn_rank_lstsq_takes_one_matrix() {
    let a = Tensor::<f64, ext![_, _]>::from_fn([5, 3], |[i, j]| {
        ((i * 3 + j * 7) % 5) as f64 + if i == j { 2.0 } else { 0.0 }
    });
    let b = Tensor::<f64, ext![_, _]>::from_fn([5, 2], |[i, j]| (i + 2 * j) as f64);
    let want = a.lstsq(&b, None);
    let got = a.clone().into_dyn().lstsq(&b.clone().into_dyn(), None);
    assert_eq!((got.x.shape(), got.rank), (vec![3, 2], want.rank));
    assert!(near(&got.x.to_vec(), &want.x.to_vec(), 1e-12));
    assert!(near(&got.residuals.to_vec(), &want.residuals.to_vec(), 1e-12));
    let t = a.t().to_owned().into_dyn();
    let c = Tensor::<f64, ext![_]>::from_fn([3], |[i]| i as f64 - 1.0);
    assert!(near(&t.lstsq(&c, None).x.to_vec(), &a.t().lstsq(&c, None).x.to_vec(), 1e-12));
    // A strided view (the transpose) is read in place.
    let tv = a.clone().into_dyn();
    assert!(near(&tv.t().lstsq(&c, None).x.to_vec(), &a.t().lstsq(&c, None).x.to_vec(), 1e-12));
    let stack = Tensor::<f64, DynRank>::from_vec(&[2, 5, 3][..], vec![1.0; 30]);
    assert!(matches!(stack.try_lstsq(&b, None), Err(LinalgError::Shape(_))));
}
