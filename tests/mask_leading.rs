//! numpy's `a[mask]` with a mask over the leading axes (`mask.shape == a.shape[:k]`):
//! `masked_select_leading` against a plain reference on random strided views, the fixed
//! numpy cases, and the errors.

use mdtensor::{ext, tensor, DynRank, ShapeError, Tensor};
use proptest::prelude::*;

mod common;
use common::strided::strided_case;
use common::{all_indices, numel};

fn config() -> ProptestConfig {
    ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(if cfg!(miri) { 2 } else { 64 }) }
}

proptest! {
    #![proptest_config(config())]

    /// Every prefix length `k` of a random strided view (negative steps, permuted axes):
    /// the blocks whose leading index the mask keeps, in row-major order.
    #[test]
    fn leading_mask_matches_reference(c in strided_case(4, 4), seed in any::<u64>()) {
        let t = c.tensor();
        let v = c.view(&t);
        let shape = c.view_shape();
        let data = c.view_elements();
        for k in 0..=shape.len() {
            let lead = &shape[..k];
            let bits: Vec<bool> = (0..numel(lead)).map(|i| (seed >> (i % 64)) & 1 == 1).collect();
            let mask = Tensor::<bool, DynRank>::from_vec(lead.to_vec(), bits.clone());
            let got = v.masked_select_leading(&mask);
            let block = numel(&shape[k..]);
            let count = bits.iter().filter(|&&b| b).count();
            let mut want_shape = vec![count];
            want_shape.extend_from_slice(&shape[k..]);
            let want: Vec<i64> = bits
                .iter()
                .enumerate()
                .filter(|(_, &b)| b)
                .flat_map(|(i, _)| data[i * block..(i + 1) * block].iter().copied())
                .collect();
            prop_assert_eq!(got.shape(), want_shape);
            prop_assert_eq!(got.to_vec(), want);
            // A mask read through strides of its own (a transposed view) selects by its
            // logical index, not its memory order.
            if k == 2 {
                let mt = Tensor::<bool, DynRank>::from_vec(vec![lead[1], lead[0]], {
                    all_indices(&[lead[1], lead[0]]).iter().map(|i| bits[i[1] * lead[1] + i[0]]).collect()
                });
                let transposed = mt.view().try_into_permuted(&[1, 0]).unwrap();
                prop_assert_eq!(v.masked_select_leading(&transposed).to_vec(), got.to_vec());
            }
            // A mask that is not a prefix of the shape.
            if k < shape.len() {
                let mut wrong = lead.to_vec();
                wrong.push(shape[k] + 1);
                let m = Tensor::<bool, DynRank>::from_vec(wrong.clone(), vec![true; numel(&wrong)]);
                prop_assert!(v.try_masked_select_leading(&m).is_err());
            }
        }
    }
}

/// numpy: `a = np.arange(24).reshape(2, 3, 4); a[np.array([[True, False, True], [False, True, False]])]`
/// is `[[0..4], [8..12], [16..20]]`, shape (3, 4); `a[np.array([False, True])]` has shape (1, 3, 4).
#[test]
fn numpy_cases() {
    let a = Tensor::<i32, ext![2, 3, 4]>::from_fn(ext![2, 3, 4], |[i, j, k]: [usize; 3]| (i * 12 + j * 4 + k) as i32);
    let m = tensor![[true, false, true], [false, true, false]];
    let got = a.masked_select_leading(&m);
    assert_eq!(got.dims(), [3, 4]);
    assert_eq!(got.to_vec(), [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19]);
    let got = a.masked_select_leading(&tensor![false, true]);
    assert_eq!(got.dims(), [1, 3, 4]);
    assert_eq!(got.to_vec(), (12..24).collect::<Vec<_>>());
    // All false: numpy gives shape (0, 3, 4).
    assert_eq!(a.masked_select_leading(&tensor![false, false]).dims(), [0, 3, 4]);
    // The full-shape mask is masked_select's.
    let full = a.mapv(|x| x % 5 == 0);
    assert_eq!(a.masked_select_leading(&full).to_vec(), a.masked_select(&full).to_vec());
    // On a column view (strides (12, 4, 1) sliced to the last column, transposed).
    let col = a.t();
    assert_eq!(col.dims(), [4, 3, 2]);
    let got = col.masked_select_leading(&tensor![true, false, false, true]);
    assert_eq!(got.dims(), [2, 3, 2]);
    assert_eq!(got.to_vec(), [0, 12, 4, 16, 8, 20, 3, 15, 7, 19, 11, 23]);
}

#[test]
fn non_prefix_mask_is_an_error() {
    let a = Tensor::<i32, ext![2, 3]>::zeros(ext![2, 3]);
    let err = a.try_masked_select_leading(&tensor![true, false, true]).unwrap_err();
    assert!(matches!(err, ShapeError::Incompatible { op: "masked_select_leading", .. }), "{err}");
    assert!(err.to_string().contains("leading extents"), "{err}");
    let deeper = Tensor::<bool, ext![2, 3, 1]>::full(ext![2, 3, 1], true);
    assert!(a.try_masked_select_leading(&deeper).is_err());
    let r = std::panic::catch_unwind(|| a.masked_select_leading(&tensor![true]));
    assert!(r.is_err());
}
