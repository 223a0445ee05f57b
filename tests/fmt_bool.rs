//! `bool` tensors print as numpy prints them: `True` and `False`, right-aligned in a
//! column as wide as `False` (numpy's `BoolFormat`), wrapped and summarised like other
//! elements. Each expected string was printed by numpy 2.4
//! (`tests/fixtures/display/bool_cases.py`: `np.array2string(a, separator=", ")`, the
//! crate's separator; `str` of a scalar).

use mdtensor::{tensor, DynRank, Tensor};

fn dyn_bools(shape: &[usize], f: impl Fn(usize) -> bool) -> Tensor<bool, DynRank> {
    let n = shape.iter().product();
    Tensor::from_vec(shape.to_vec(), (0..n).map(f).collect())
}

#[test]
fn pair_and_matrix() {
    assert_eq!(tensor![true, false].to_string(), "[ True, False]");
    assert_eq!(
        tensor![[true, false, true], [false, false, true]].to_string(),
        "[[ True, False,  True],\n [False, False,  True]]"
    );
}

#[test]
fn all_true_keeps_the_width_of_false() {
    assert_eq!(tensor![true, true].to_string(), "[ True,  True]");
}

#[test]
fn scalar() {
    assert_eq!(Tensor::<bool, DynRank>::from_vec(vec![], vec![true]).to_string(), "True");
    assert_eq!(Tensor::<bool, DynRank>::from_vec(vec![], vec![false]).to_string(), "False");
}

#[test]
fn long_rows_wrap() {
    assert_eq!(
        dyn_bools(&[40], |i| i % 3 == 0).to_string(),
        "[ True, False, False,  True, False, False,  True, False, False,  True,\n False, False,  True, False, False,  True, False, False,  True, False,\n False,  True, False, False,  True, False, False,  True, False, False,\n  True, False, False,  True, False, False,  True, False, False,  True]"
    );
}

#[test]
fn large_tensors_are_summarised() {
    assert_eq!(dyn_bools(&[2000], |i| i % 2 == 0).to_string(), "[ True, False,  True, ..., False,  True, False]");
}

#[test]
fn rank_three() {
    assert_eq!(
        dyn_bools(&[2, 2, 2], |i| i % 3 == 1).to_string(),
        "[[[False,  True],\n  [False, False]],\n\n [[ True, False],\n  [False,  True]]]"
    );
}

#[test]
fn precision_flags_and_debug_keep_the_words() {
    // A precision would cut Rust's `true` to `t`; numpy's words are kept whole.
    assert_eq!(format!("{:.1}", tensor![true, false]), "[ True, False]");
    let d = format!("{:?}", tensor![false, true]);
    assert!(d.ends_with("[False,  True]"), "{d}");
    // Views and transposes print their logical order.
    let m = tensor![[true, false], [false, false]];
    assert_eq!(m.t().to_string(), "[[ True, False],\n [False, False]]");
}
