//! Matrix products of fixed-rank (tuple) extents of rank 5 and 6, with broadcast batch axes,
//! against a plain reference of numpy's `matmul` rule, and against the `DynRank` path.

use mdtensor::{ext, Tensor};

mod common;
use common::all_indices;

/// numpy's `matmul`, written out: a vector operand is promoted (a row on the left, a
/// column on the right) and its axis dropped; batch axes align right and stretch from 1.
fn reference(a: &[usize], ad: &[i64], b: &[usize], bd: &[i64]) -> (Vec<usize>, Vec<i64>) {
    let (av, bv) = (a.len() == 1, b.len() == 1);
    let a2: Vec<usize> = if av { vec![1, a[0]] } else { a.to_vec() };
    let b2: Vec<usize> = if bv { vec![b[0], 1] } else { b.to_vec() };
    let (ra, rb) = (a2.len(), b2.len());
    let (m, k, n) = (a2[ra - 2], a2[ra - 1], b2[rb - 1]);
    assert_eq!(k, b2[rb - 2]);
    let nb = (ra - 2).max(rb - 2);
    let pad = |s: &[usize]| -> Vec<usize> {
        let batch = &s[..s.len() - 2];
        std::iter::repeat_n(1, nb - batch.len()).chain(batch.iter().copied()).collect()
    };
    let (pa, pb) = (pad(&a2), pad(&b2));
    let batch: Vec<usize> = pa.iter().zip(&pb).map(|(&x, &y)| if x == 1 { y } else { x }).collect();
    let flat = |idx: &[usize], shape: &[usize]| idx.iter().zip(shape).fold(0, |p, (&i, &d)| p * d + i);
    let mut full = batch.clone();
    full.extend([m, n]);
    let data = all_indices(&full)
        .iter()
        .map(|ix| {
            let (bi, i, j) = (&ix[..nb], ix[nb], ix[nb + 1]);
            let ia: Vec<usize> = bi.iter().zip(&pa).map(|(&x, &d)| if d == 1 { 0 } else { x }).collect();
            let ib: Vec<usize> = bi.iter().zip(&pb).map(|(&x, &d)| if d == 1 { 0 } else { x }).collect();
            (0..k)
                .map(|p| {
                    let mut la = ia[nb - (ra - 2)..].to_vec();
                    la.extend([i, p]);
                    let mut lb = ib[nb - (rb - 2)..].to_vec();
                    lb.extend([p, j]);
                    ad[flat(&la, &a2)] * bd[flat(&lb, &b2)]
                })
                .sum()
        })
        .collect();
    let mut out = batch;
    if !av {
        out.push(m);
    }
    if !bv {
        out.push(n);
    }
    (out, data)
}

fn data(n: usize, seed: i64) -> Vec<i64> {
    (0..n as i64).map(|i| (i * 7 + seed) % 11 - 5).collect()
}

macro_rules! check {
    ($a:expr, $b:expr) => {{
        let (a, b) = (&$a, &$b);
        let got = a.matmul(b);
        let (shape, want) = reference(&a.shape(), &a.to_vec(), &b.shape(), &b.to_vec());
        assert_eq!(got.shape(), shape);
        assert_eq!(got.to_vec(), want);
        // The run-time rank path agrees.
        let dynamic = a.to_owned().into_dyn().matmul(&b.to_owned().into_dyn());
        assert_eq!(dynamic.shape(), shape);
        assert_eq!(dynamic.to_vec(), want);
        got
    }};
}

#[test]
fn rank5_batches_broadcast() {
    let a = Tensor::<i64, ext![2, 1, 3, 2, 4]>::from_vec(ext![2, 1, 3, 2, 4], data(48, 1));
    let b = Tensor::<i64, ext![1, 2, 3, 4, 5]>::from_vec(ext![1, 2, 3, 4, 5], data(120, 3));
    let c: Tensor<i64, ext![2, 2, 3, 2, 5]> = check!(a, b);
    assert_eq!(c.dims(), [2, 2, 3, 2, 5]);
    // Rank 5 with every lower rank, on both sides.
    let m = Tensor::<i64, ext![4, 5]>::from_vec(ext![4, 5], data(20, 2));
    let _: Tensor<i64, ext![2, 1, 3, 2, 5]> = check!(a, m);
    let v = Tensor::<i64, ext![4]>::from_vec(ext![4], data(4, 5));
    let _: Tensor<i64, ext![2, 1, 3, 2]> = check!(a, v);
    let row = Tensor::<i64, ext![3]>::from_vec(ext![3], data(3, 4));
    let e = Tensor::<i64, ext![2, 2, 1, 3, 4]>::from_vec(ext![2, 2, 1, 3, 4], data(48, 6));
    let _: Tensor<i64, ext![2, 2, 1, 4]> = check!(row, e);
    let l3 = Tensor::<i64, ext![3, 2, 3]>::from_vec(ext![3, 2, 3], data(18, 7));
    let _: Tensor<i64, ext![2, 2, 3, 2, 4]> = check!(l3, e);
    let l4 = Tensor::<i64, ext![2, 1, 5, 3]>::from_vec(ext![2, 1, 5, 3], data(30, 8));
    let _: Tensor<i64, ext![2, 2, 1, 5, 4]> = check!(l4, e);
}

#[test]
fn rank6_batches_broadcast() {
    let a = Tensor::<i64, ext![2, 1, 2, 1, 3, 4]>::from_vec(ext![2, 1, 2, 1, 3, 4], data(48, 1));
    let b = Tensor::<i64, ext![1, 3, 1, 2, 4, 2]>::from_vec(ext![1, 3, 1, 2, 4, 2], data(48, 2));
    let _: Tensor<i64, ext![2, 3, 2, 2, 3, 2]> = check!(a, b);
    let b3 = Tensor::<i64, ext![2, 4, 5]>::from_vec(ext![2, 4, 5], data(40, 3));
    let _: Tensor<i64, ext![2, 1, 2, 2, 3, 5]> = check!(a, b3);
    let v = Tensor::<i64, ext![3]>::from_vec(ext![3], data(3, 9));
    let _: Tensor<i64, ext![2, 1, 2, 1, 4]> = check!(v, a);
    let a5 = Tensor::<i64, ext![3, 1, 2, 2, 4]>::from_vec(ext![3, 1, 2, 2, 4], data(48, 4));
    let _: Tensor<i64, ext![1, 3, 1, 2, 2, 2]> = check!(a5, b);
}

#[test]
fn dynamic_axes_and_views() {
    // Dynamic extents in a rank-5 tuple are checked at run time.
    let a = Tensor::<i64, ext![_, 1, 3, _, 4]>::from_vec([2, 1, 3, 2, 4], data(48, 1));
    let b = Tensor::<i64, ext![1, _, 3, 4, _]>::from_vec([1, 2, 3, 4, 5], data(120, 3));
    let c = check!(a, b);
    assert_eq!(c.dims(), [2, 2, 3, 2, 5]);
    let wrong = Tensor::<i64, ext![1, _, 3, _, _]>::from_vec([1, 2, 3, 3, 5], data(90, 3));
    assert!(a.try_matmul(&wrong).is_err());
    let bad_batch = Tensor::<i64, ext![_, _, 3, 4, _]>::from_vec([3, 2, 3, 4, 5], data(360, 3));
    assert!(a.try_matmul(&bad_batch).is_err());
    // A strided rank-6 view (every operand axis reversed by `t()`).
    let big = Tensor::<i64, ext![4, 3, 1, 2, 1, 2]>::from_vec(ext![4, 3, 1, 2, 1, 2], data(48, 5));
    let tv = big.t();
    let rhs = Tensor::<i64, ext![1, 2, 1, 1, 4, 5]>::from_vec(ext![1, 2, 1, 1, 4, 5], data(40, 6));
    let _: Tensor<i64, ext![2, 2, 2, 1, 3, 5]> = check!(tv, rhs);
}
