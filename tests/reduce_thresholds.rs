//! Reductions along run-time and static axes on shapes that straddle the reduction
//! kernel's thresholds (the cut of a long axis into chunks of 256 positions, 16 output
//! blocks, column blocks of 4096), against plain loops: random sizes around each
//! threshold, every axis of a rank-3 tensor, serial and parallel, and transposed views.

use mdtensor::{DynRank, Par, Tensor};
use proptest::prelude::*;

fn config() -> ProptestConfig {
    ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(if cfg!(miri) { 1 } else { 24 }) }
}

/// A size near one of the thresholds, or a small one.
fn near() -> impl Strategy<Value = usize> {
    prop_oneof![1usize..6, 14usize..19, 250usize..262, 510usize..516]
}

/// `(outer, len, inner)` with the element count kept moderate; now and then a row wider
/// than one column block.
fn shape() -> impl Strategy<Value = [usize; 3]> {
    prop_oneof![
        4 => (near(), near(), 1usize..4).prop_map(|(a, b, c)| [a, b, c]),
        1 => (1usize..3, 1usize..20, 4090usize..4100).prop_map(|(a, b, c)| [a, b, c]),
    ]
}

fn value(idx: &[usize], salt: u64) -> i64 {
    let h = idx.iter().fold(salt, |h, &i| h.wrapping_mul(6364136223846793005).wrapping_add(i as u64 + 1));
    ((h >> 33) % 2001) as i64 - 1000
}

/// The reduction of `t` along `axis` by plain loops: sums, maxima and first positions of
/// the minimum, row-major over the other axes.
fn reference(t: &Tensor<i64, DynRank>, axis: usize) -> (Vec<i64>, Vec<i64>, Vec<usize>) {
    let dims = t.shape();
    let out: Vec<usize> = (0..3).filter(|&a| a != axis).collect();
    let (mut sums, mut maxes, mut args) = (vec![], vec![], vec![]);
    for i in 0..dims[out[0]] {
        for j in 0..dims[out[1]] {
            let lane: Vec<i64> = (0..dims[axis])
                .map(|k| {
                    let mut idx = [0usize; 3];
                    idx[out[0]] = i;
                    idx[out[1]] = j;
                    idx[axis] = k;
                    t[&idx[..]]
                })
                .collect();
            sums.push(lane.iter().sum());
            maxes.push(*lane.iter().max().unwrap());
            let low = *lane.iter().min().unwrap();
            args.push(lane.iter().position(|&v| v == low).unwrap());
        }
    }
    (sums, maxes, args)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn axis_reductions_match_plain_loops(dims in shape(), salt in any::<u64>(), axis in 0usize..3) {
        let t = Tensor::<i64, DynRank>::from_fn(DynRank::new(dims.to_vec()), |i| value(&i, salt));
        let (sums, maxes, args) = reference(&t, axis);
        for par in [Par::Seq, Par::Rayon] {
            let s = t.reduce_axis_dyn_with(mdtensor::ops::Sum, axis, par);
            prop_assert_eq!(s.to_vec(), sums.clone(), "sum along {} of {:?} with {:?}", axis, dims, par);
        }
        prop_assert_eq!(t.max_axis_dyn(axis).to_vec(), maxes.clone());
        prop_assert_eq!(t.argmin_axis_dyn(axis).to_vec(), args);
        prop_assert_eq!(t.sum_axes(&[axis]).to_vec(), sums.clone());
        // The same reductions read through a reversed-axes view (other strides, other paths).
        let v = t.permute(&[2, 1, 0]);
        prop_assert_eq!(v.sum_axis_dyn(2 - axis).to_vec().len(), sums.len());
        let (vs, vm, _) = {
            let owned = v.to_owned();
            reference(&owned, 2 - axis)
        };
        prop_assert_eq!(v.sum_axis_dyn(2 - axis).to_vec(), vs);
        prop_assert_eq!(v.max_axis_dyn(2 - axis).to_vec(), vm);
        // The static-axis forms agree with the run-time ones.
        let fixed = t.clone().try_into_rank::<3>().map_err(|(e, _)| e).unwrap();
        let stat = match axis {
            0 => fixed.sum_axis::<0>().to_vec(),
            1 => fixed.sum_axis::<1>().to_vec(),
            _ => fixed.sum_axis::<2>().to_vec(),
        };
        prop_assert_eq!(stat, sums);
    }
}
