//! `approx` (feature `approx`) and `==` on dense tensors: shapes first (different shapes
//! are never equal), then elements in logical order with the element type's rule, for any
//! stride policy and dense storage on either side.
#![cfg(feature = "approx")]

mod common;

use approx::{
    abs_diff_eq, assert_abs_diff_eq, assert_relative_eq, relative_eq, ulps_eq, AbsDiffEq, RelativeEq, UlpsEq,
};
use common::strided::strided_case;
use mdtensor::{ext, s, tensor, ColMajor, DynRank, StackTensor, Tensor};
use proptest::prelude::*;

#[test]
fn different_shapes_are_never_equal() {
    let a = tensor![[0.0f64, 0.0, 0.0], [0.0, 0.0, 0.0]]; // 2×3
    let b = Tensor::<f64, ext![3, 2]>::zeros(ext![3, 2]);
    let c = Tensor::<f64, ext![6]>::zeros(ext![6]);
    assert!(!abs_diff_eq!(a, b, epsilon = f64::INFINITY));
    assert!(!relative_eq!(a, b, epsilon = f64::INFINITY, max_relative = f64::INFINITY));
    assert!(!ulps_eq!(a, c, epsilon = f64::INFINITY, max_ulps = u32::MAX));
    assert_ne!(a, b);
    assert!(abs_diff_eq!(a, a.t().t(), epsilon = 0.0));
}

#[test]
fn tolerances_apply_per_element() {
    let a = tensor![1.0f32, 2.0, 3.0];
    let b = tensor![1.0f32, 2.0 + 1e-4, 3.0];
    assert!(a.abs_diff_eq(&b, 1e-3));
    assert!(!a.abs_diff_eq(&b, 1e-5));
    assert!(a.relative_eq(&b, 0.0, 1e-4));
    assert!(!a.relative_eq(&b, 0.0, 1e-6));
    let next = f32::from_bits(2.0f32.to_bits() + 2);
    let c = tensor![1.0f32, next, 3.0];
    assert!(a.ulps_eq(&c, 0.0, 2));
    assert!(!a.ulps_eq(&c, 0.0, 1));
    assert!(a.abs_diff_eq(&a, <Tensor<f32, ext![3]> as AbsDiffEq>::default_epsilon()));
    assert_eq!(<Tensor<f32, ext![3]> as RelativeEq>::default_max_relative(), f32::EPSILON);
    assert_eq!(<Tensor<f32, ext![3]> as UlpsEq>::default_max_ulps(), 4);
    let nan = tensor![f32::NAN];
    assert!(!nan.abs_diff_eq(&nan, 1.0), "NaN is equal to nothing, as for f32");
}

#[test]
fn any_policy_and_storage_on_either_side() {
    let a = tensor![[1.0f64, 2.0], [3.0, 4.0]];
    let col = Tensor::<f64, ext![2, 2], ColMajor>::from_vec(ext![2, 2], vec![1.0, 3.0, 2.0, 4.0 + 1e-12]);
    let stack = StackTensor::<f64, ext![2, 2]>::from_slice(ext![2, 2], &[1.0, 2.0, 3.0, 4.0]);
    let shared = a.clone().into_shared();
    let dynr = Tensor::<f64, DynRank>::from_vec(vec![2, 2], vec![1.0, 2.0, 3.0, 4.0]);
    assert_abs_diff_eq!(a, col, epsilon = 1e-9);
    assert_abs_diff_eq!(col, stack, epsilon = 1e-9);
    assert_relative_eq!(stack.view(), shared, max_relative = 0.0);
    assert_relative_eq!(shared, dynr.view(), max_relative = 0.0);
    let mut m = a.clone();
    assert_abs_diff_eq!(m.view_mut(), a.slice(s![.., ..]), epsilon = 0.0);
    assert!(!abs_diff_eq!(a, a.slice(s![.., ..;-1]), epsilon = 0.5));
    assert!(abs_diff_eq!(a.slice(s![..;-1, ..]), tensor![[3.0, 4.0], [1.0, 2.0]], epsilon = 0.0));
}

proptest! {
    #![proptest_config(common::config())]

    /// A strided view equals (exactly and approximately) the reference's elements in a
    /// fresh tensor of the same shape; perturbing one element by more than epsilon, or
    /// reshaping, breaks equality.
    #[test]
    fn strided_views_compare_like_the_reference(case in strided_case(3, 4), bump in 0usize..64) {
        let t = case.tensor();
        let v = case.view(&t);
        let want = Tensor::<i64, DynRank>::from_vec(case.view_shape(), case.view_elements());
        prop_assert_eq!(&v, &want);
        let vf = Tensor::<f64, DynRank>::from_vec(case.view_shape(), case.view_elements().iter().map(|&x| x as f64).collect());
        let mut wf = vf.clone();
        prop_assert!(vf.abs_diff_eq(&wf, 0.0));
        if !wf.is_empty() {
            let k = bump % wf.numel();
            wf.as_slice_mut().unwrap()[k] += 0.5;
            prop_assert!(!vf.abs_diff_eq(&wf, 0.25));
            prop_assert!(vf.abs_diff_eq(&wf, 0.75));
        }
        let flat = Tensor::<i64, DynRank>::from_vec(vec![want.numel()], case.view_elements());
        prop_assert_eq!(v == flat, case.view_shape() == vec![want.numel()]);
    }
}
