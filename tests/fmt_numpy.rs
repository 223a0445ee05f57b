//! `Display` wraps rows at 75 columns as numpy does (`linewidth=75`), continuing under the
//! first element with one space per open bracket, and summarises tensors above 1000
//! elements with `...`. Each expected string was printed by numpy 2.4
//! (`np.array2string(a, separator=", ")`, the crate's separator) for the same values.

use mdtensor::{DynRank, Tensor};

/// numpy 2.4: `np.array2string(a, separator=", ")` of the case of the same name.
#[test]
fn float_1d_40() {
    let t = Tensor::<f64, DynRank>::from_vec(vec![40], (0..40).map(|i| i as f64).collect());
    assert_eq!(t.to_string(), "[ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13., 14.,\n 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27., 28., 29.,\n 30., 31., 32., 33., 34., 35., 36., 37., 38., 39.]");
}

/// numpy 2.4: `np.array2string(a, separator=", ")` of the case of the same name.
#[test]
fn int_1d_30() {
    let t = Tensor::<i64, DynRank>::from_vec(vec![30], (0..30).collect());
    assert_eq!(t.to_string(), "[ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,\n 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29]");
}

/// numpy 2.4: `np.array2string(a, separator=", ")` of the case of the same name.
#[test]
fn int_2d_2x30() {
    let t = Tensor::<i64, DynRank>::from_vec(vec![2, 30], (0..60).collect());
    assert_eq!(t.to_string(), "[[ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,\n  18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29],\n [30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,\n  48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59]]");
}

/// numpy 2.4: `np.array2string(a, separator=", ")` of the case of the same name.
#[test]
fn float_2d_3x20_div7() {
    let t = Tensor::<f64, DynRank>::from_vec(vec![3, 20], (0..60).map(|i| i as f64 / 7.0).collect());
    assert_eq!(t.to_string(), "[[0.        , 0.14285714, 0.28571429, 0.42857143, 0.57142857, 0.71428571,\n  0.85714286, 1.        , 1.14285714, 1.28571429, 1.42857143, 1.57142857,\n  1.71428571, 1.85714286, 2.        , 2.14285714, 2.28571429, 2.42857143,\n  2.57142857, 2.71428571],\n [2.85714286, 3.        , 3.14285714, 3.28571429, 3.42857143, 3.57142857,\n  3.71428571, 3.85714286, 4.        , 4.14285714, 4.28571429, 4.42857143,\n  4.57142857, 4.71428571, 4.85714286, 5.        , 5.14285714, 5.28571429,\n  5.42857143, 5.57142857],\n [5.71428571, 5.85714286, 6.        , 6.14285714, 6.28571429, 6.42857143,\n  6.57142857, 6.71428571, 6.85714286, 7.        , 7.14285714, 7.28571429,\n  7.42857143, 7.57142857, 7.71428571, 7.85714286, 8.        , 8.14285714,\n  8.28571429, 8.42857143]]");
}

/// numpy 2.4: `np.array2string(a, separator=", ")` of the case of the same name.
#[test]
fn int_3d_2x2x20() {
    let t = Tensor::<i64, DynRank>::from_vec(vec![2, 2, 20], (0..80).collect());
    assert_eq!(t.to_string(), "[[[ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,\n   17, 18, 19],\n  [20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36,\n   37, 38, 39]],\n\n [[40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56,\n   57, 58, 59],\n  [60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76,\n   77, 78, 79]]]");
}

/// numpy 2.4: `np.array2string(a, separator=", ")` of the case of the same name.
#[test]
fn int_1d_2000() {
    let t = Tensor::<i64, DynRank>::from_vec(vec![2000], (0..2000).collect());
    assert_eq!(t.to_string(), "[   0,    1,    2, ..., 1997, 1998, 1999]");
}

/// numpy 2.4: `np.array2string(a, separator=", ")` of the case of the same name.
#[test]
fn float_2d_3x1000_div3() {
    let t = Tensor::<f64, DynRank>::from_vec(vec![3, 1000], (0..3000).map(|i| i as f64 / 3.0).collect());
    assert_eq!(t.to_string(), "[[0.00000000e+00, 3.33333333e-01, 6.66666667e-01, ..., 3.32333333e+02,\n  3.32666667e+02, 3.33000000e+02],\n [3.33333333e+02, 3.33666667e+02, 3.34000000e+02, ..., 6.65666667e+02,\n  6.66000000e+02, 6.66333333e+02],\n [6.66666667e+02, 6.67000000e+02, 6.67333333e+02, ..., 9.99000000e+02,\n  9.99333333e+02, 9.99666667e+02]]");
}

/// numpy 2.4: `np.array2string(a, separator=", ")` of the case of the same name.
#[test]
fn neg_int_1d_40_x1000() {
    let t = Tensor::<i64, DynRank>::from_vec(vec![40], (-20..20).map(|i| i * 1000).collect());
    assert_eq!(t.to_string(), "[-20000, -19000, -18000, -17000, -16000, -15000, -14000, -13000, -12000,\n -11000, -10000,  -9000,  -8000,  -7000,  -6000,  -5000,  -4000,  -3000,\n  -2000,  -1000,      0,   1000,   2000,   3000,   4000,   5000,   6000,\n   7000,   8000,   9000,  10000,  11000,  12000,  13000,  14000,  15000,\n  16000,  17000,  18000,  19000]");
}

/// numpy 2.4: `np.array2string(a, separator=", ")` of the case of the same name.
#[test]
fn sci_1d_25_cube_div3() {
    let t = Tensor::<f64, DynRank>::from_vec(vec![25], (1..26).map(|i| (i * i * i) as f64 / 3.0).collect());
    assert_eq!(t.to_string(), "[3.33333333e-01, 2.66666667e+00, 9.00000000e+00, 2.13333333e+01,\n 4.16666667e+01, 7.20000000e+01, 1.14333333e+02, 1.70666667e+02,\n 2.43000000e+02, 3.33333333e+02, 4.43666667e+02, 5.76000000e+02,\n 7.32333333e+02, 9.14666667e+02, 1.12500000e+03, 1.36533333e+03,\n 1.63766667e+03, 1.94400000e+03, 2.28633333e+03, 2.66666667e+03,\n 3.08700000e+03, 3.54933333e+03, 4.05566667e+03, 4.60800000e+03,\n 5.20833333e+03]");
}

/// numpy 2.4: `np.array2string(a, separator=", ")` of the case of the same name.
#[test]
fn float_1d_26_big() {
    let t = Tensor::<f64, DynRank>::from_vec(vec![26], (0..26).map(|i| i as f64 * 123456.25).collect());
    assert_eq!(t.to_string(), "[      0.  ,  123456.25,  246912.5 ,  370368.75,  493825.  ,  617281.25,\n  740737.5 ,  864193.75,  987650.  , 1111106.25, 1234562.5 , 1358018.75,\n 1481475.  , 1604931.25, 1728387.5 , 1851843.75, 1975300.  , 2098756.25,\n 2222212.5 , 2345668.75, 2469125.  , 2592581.25, 2716037.5 , 2839493.75,\n 2962950.  , 3086406.25]");
}

/// Wrapping follows the element width: a row that fits in 75 columns is not wrapped, and a
/// view (another stride policy) prints as its copy.
#[test]
fn wrapping_of_views_and_exact_fits() {
    let t = Tensor::<i64, DynRank>::from_vec(vec![2, 30], (0..60).collect());
    let v = t.try_permute(&[1, 0]).unwrap();
    assert_eq!(v.to_string(), v.to_owned().to_string());
    // numpy: np.arange(18) fits: "[ 0,  1, ..., 17]" is 72 columns.
    let fits = Tensor::<i64, DynRank>::from_vec(vec![18], (0..18).collect());
    assert!(!fits.to_string().contains('\n'));
    assert_eq!(fits.to_string().len(), 72);
    // Every line of a wide print stays within 75 columns.
    let wide = Tensor::<f64, DynRank>::from_vec(vec![4, 50], (0..200).map(|i| i as f64 / 9.0).collect());
    assert!(wide.to_string().lines().all(|l| l.chars().count() <= 75));
}
