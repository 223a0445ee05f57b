//! Lists of run-time axes take negative axes as numpy does (`normalize_axis_tuple`): each
//! `-k` is axis `rank - k`, a list naming one axis twice (in either spelling) is `Err`,
//! and the result equals the one of the normalised list. Covers the `*_axes` reductions,
//! `permute`, `squeeze_axes` and `unsqueeze_axes`, on random strided views.

use mdtensor::{AxisList, DynRank, ShapeError, Tensor};
use proptest::prelude::*;

mod common;
use common::strided::strided_case;

fn config() -> ProptestConfig {
    ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(if cfg!(miri) { 2 } else { 48 }) }
}

/// A subset of `0..rank` (in shuffled order) and, for each, whether to spell it negative.
fn axes_case() -> impl Strategy<Value = (u64, u64)> {
    (any::<u64>(), any::<u64>())
}

fn pick(rank: usize, bits: u64, order: u64) -> Vec<usize> {
    let mut v: Vec<usize> = (0..rank).filter(|k| (bits >> k) & 1 == 1).collect();
    if !v.is_empty() {
        let r = (order as usize) % v.len();
        v.rotate_left(r);
    }
    v
}

fn spell(axes: &[usize], rank: usize, neg: u64) -> Vec<i64> {
    axes.iter().enumerate().map(|(i, &a)| if (neg >> i) & 1 == 1 { a as i64 - rank as i64 } else { a as i64 }).collect()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn reductions_take_negative_axes(c in strided_case(4, 3), (bits, neg) in axes_case()) {
        let t = c.tensor();
        let v = c.view(&t);
        let f = v.mapv(|x| x as f64);
        let rank = v.rank();
        let axes = pick(rank, bits, neg >> 32);
        let signed = spell(&axes, rank, neg);
        prop_assert_eq!(v.sum_axes(&signed).to_vec(), v.sum_axes(&axes).to_vec());
        prop_assert_eq!(v.sum_axes(&signed).shape(), v.sum_axes(&axes).shape());
        prop_assert_eq!(v.sum_axes_keepdims(&signed).shape(), v.sum_axes_keepdims(&axes).shape());
        // Products in floats: integer products of these values overflow.
        let to_bits = |t: Tensor<f64, DynRank>| t.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        prop_assert_eq!(to_bits(f.prod_axes(&signed)), to_bits(f.prod_axes(&axes)));
        let (m1, m2) = (f.mean_axes(&signed), f.mean_axes(&axes));
        prop_assert_eq!(m1.shape(), m2.shape());
        prop_assert!(m1.iter().zip(m2.iter()).all(|(a, b)| a.to_bits() == b.to_bits()));
        prop_assert_eq!(f.var_axes_keepdims(&signed, 0).shape(), f.var_axes_keepdims(&axes, 0).shape());
        prop_assert_eq!(v.try_max_axes(&signed).ok().map(|x| x.to_vec()), v.try_max_axes(&axes).ok().map(|x| x.to_vec()));
        prop_assert_eq!(v.try_min_axes_keepdims(&signed).ok().map(|x| x.to_vec()), v.try_min_axes_keepdims(&axes).ok().map(|x| x.to_vec()));
        // The sparse path (stored entries) for rank 2.
        if rank == 2 {
            let csr = v.to_owned().try_into_rank::<2>().unwrap().to_csr();
            prop_assert_eq!(csr.sum_axes(&signed).to_vec(), v.sum_axes(&axes).to_vec());
        }
        if rank > 0 {
            // One axis in both spellings: repeated after normalising.
            let a = (bits as usize) % rank;
            let twice = [a as i64, a as i64 - rank as i64];
            let repeated = matches!(v.try_sum_axes(&twice), Err(ShapeError::InvalidArgument { .. }));
            prop_assert!(repeated);
            prop_assert!(f.try_mean_axes(&twice).is_err());
            prop_assert!(v.try_permute(&twice).is_err());
        }
        // Out of range on either side.
        let below = matches!(v.try_sum_axes(&[-(rank as i64) - 1]), Err(ShapeError::NegativeAxisOutOfRange { .. }));
        prop_assert!(below);
        let above = matches!(v.try_sum_axes(&[rank as i64]), Err(ShapeError::AxisOutOfRange { .. }));
        prop_assert!(above);
    }

    #[test]
    fn permute_takes_negative_axes(c in strided_case(4, 3), order in any::<u64>(), neg in any::<u64>()) {
        let t = c.tensor();
        let v = c.view(&t);
        let rank = v.rank();
        let mut perm: Vec<usize> = (0..rank).collect();
        if rank > 0 {
            perm.rotate_left(order as usize % rank);
            if order & 1 == 1 { perm.reverse(); }
        }
        let signed = spell(&perm, rank, neg);
        let p = v.permute(&signed);
        let q = v.permute(&perm);
        prop_assert_eq!(p.shape(), q.shape());
        prop_assert_eq!(p.to_vec(), q.to_vec());
    }

    #[test]
    fn squeeze_and_unsqueeze_lists(c in strided_case(3, 2), bits in any::<u64>(), neg in any::<u64>()) {
        let t = c.tensor();
        let v = c.view(&t);
        let rank = v.rank();
        let data = v.to_vec();
        // Insert axes at a subset of the result's positions, spelled either way.
        let extra = (bits % 3) as usize;
        let out_rank = rank + extra;
        let pos = pick(out_rank, bits >> 2, neg >> 40).into_iter().take(extra).collect::<Vec<_>>();
        if pos.len() == extra {
            let signed = spell(&pos, out_rank, neg);
            let u = v.unsqueeze_axes(&signed);
            let mut want = Vec::new();
            let mut src = v.shape().into_iter();
            for k in 0..out_rank {
                want.push(if pos.contains(&k) { 1 } else { src.next().unwrap() });
            }
            prop_assert_eq!(u.shape(), want);
            prop_assert_eq!(u.to_vec(), data.clone());
            // And squeezing them again gives the view back.
            let s = u.squeeze_axes(&spell(&pos, out_rank, !neg));
            prop_assert_eq!(s.shape(), v.shape());
            prop_assert_eq!(s.to_vec(), data.clone());
        }
        // A squeeze of an axis whose extent is not 1 is an error.
        if let Some(k) = v.shape().iter().position(|&d| d != 1) {
            prop_assert!(v.try_squeeze_axes(&[k as i64 - rank as i64]).is_err());
        }
    }
}

#[test]
fn numpy_cases() {
    // numpy: a = np.arange(24).reshape(2, 3, 4)
    let a = Tensor::<i64, DynRank>::from_vec(vec![2, 3, 4], (0..24).collect());
    // a.sum(axis=(-1, 0)) == [60, 92, 124]
    assert_eq!(a.sum_axes(&[-1, 0]).to_vec(), [60, 92, 124]);
    // a.mean(axis=(-1, 0)) == [7.5, 11.5, 15.5]
    assert_eq!(a.mapv(|x| x as f64).mean_axes(&[-1, 0]).to_vec(), [7.5, 11.5, 15.5]);
    // a.max(axis=(-2,), keepdims=True).shape == (2, 1, 4)
    assert_eq!(a.max_axes_keepdims(&[-2]).shape(), [2, 1, 4]);
    // np.transpose(a, (-1, 0, -2)).shape == (4, 2, 3)
    assert_eq!(a.permute(&[-1, 0, -2]).shape(), [4, 2, 3]);
    // np.sum(a, axis=(0, -3)) raises: repeated axis
    let err = a.try_sum_axes(&[0, -3]).unwrap_err();
    assert!(err.to_string().contains("axis 0 is given twice"), "{err}");
    // np.expand_dims(a, (0, -1)).shape == (1, 2, 3, 4, 1)
    assert_eq!(a.unsqueeze_axes(&[0, -1]).shape(), [1, 2, 3, 4, 1]);
    // np.squeeze(np.expand_dims(a, (0, -1)), axis=(-1, 0)).shape == (2, 3, 4)
    assert_eq!(a.unsqueeze_axes(&[0, -1]).squeeze_axes(&[-1, 0]).shape(), [2, 3, 4]);
    // Lists of every element type and container.
    let v: Vec<usize> = vec![2];
    assert_eq!(a.sum_axes(&v).shape(), [2, 3]);
    assert_eq!(a.sum_axes(&v[..]).shape(), [2, 3]);
    assert_eq!(a.sum_axes(&[-1isize]).shape(), [2, 3]);
    assert_eq!(a.sum_axes(&[mdtensor::Axis::from(-1)][..]).shape(), [2, 3]);
    assert_eq!(a.sum_axes(&[0usize; 0]).shape(), [2, 3, 4]);
    assert_eq!((&[-1i32, 0]).resolve_axes("t", 3), Ok(vec![2, 0]));
}
