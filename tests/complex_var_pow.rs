//! Variance and standard deviation of complex numbers (numpy's `mean(|z - mean(z)|²)`, a
//! real result, with `ddof`) and powers with a complex exponent (numpy's `z ** w`), whole
//! and along axes, on random strided views and broadcast operands, against plain loops
//! and values numpy gives.

use mdtensor::prelude::*;
use mdtensor::{ext, tensor, Complex, DynRank, SliceElem, Strided, Tensor, TensorView};
use proptest::prelude::*;

mod common;
use common::strided::{strided_case, StridedCase};
use common::{all_indices, config, lane};

type C64 = Complex<f64>;

fn elem(x: i64) -> C64 {
    Complex::new((x % 64) as f64 / 4.0, ((x * 7) % 29) as f64 / 2.0)
}

fn source(case: &StridedCase) -> Tensor<C64, DynRank> {
    Tensor::from_vec(case.shape.clone(), case.data.iter().map(|&x| elem(x)).collect())
}

fn view<'a>(case: &StridedCase, t: &'a Tensor<C64, DynRank>) -> TensorView<'a, C64, DynRank, Strided> {
    let elems: Vec<SliceElem> =
        case.steps.iter().map(|&step| SliceElem::Range { start: None, end: None, step }).collect();
    t.try_slice_dyn(&elems).unwrap().try_into_permuted(&case.perm).unwrap()
}

/// Two-pass variance: `Σ |x - mean|² / max(n - ddof, 0)`.
fn var_ref(xs: &[C64], ddof: f64) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().fold(Complex::new(0.0, 0.0), |s, &x| s + x) / n;
    let ss: f64 = xs.iter().map(|&x| (x - mean).norm_sqr()).sum();
    ss / (n - ddof).max(0.0)
}

/// Equal as numpy's values: the same non-finite class, or within a relative 1e-12 (one
/// pass here, two in the reference).
fn same(got: f64, want: f64) -> bool {
    if !want.is_finite() {
        return got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan());
    }
    (got - want).abs() <= 1e-12 * want.abs().max(1e-300)
}

/// numpy's `z ** w` written from its documented cases: `w == 0` gives 1; a zero base gives
/// 0 for `Re w > 0`, else NaN; otherwise `exp(w ln z)` (close to, not bit-equal with, the
/// repeated products numpy takes for small integer exponents).
fn pow_ref(z: C64, w: C64) -> C64 {
    if w == Complex::new(0.0, 0.0) {
        Complex::new(1.0, 0.0)
    } else if z == Complex::new(0.0, 0.0) {
        if w.re > 0.0 {
            Complex::new(0.0, 0.0)
        } else {
            Complex::new(f64::NAN, f64::NAN)
        }
    } else {
        (w * z.ln()).exp()
    }
}

fn close(got: C64, want: C64) -> bool {
    if want.re.is_nan() || want.im.is_nan() {
        return got.re.is_nan() && got.im.is_nan();
    }
    (got - want).norm() <= 1e-9 * want.norm().max(1e-300)
}

/// The exponent a case's integer becomes: integers (repeated products), zero, halves and
/// complex numbers.
fn exponent(x: i64) -> C64 {
    match x.rem_euclid(5) {
        0 => Complex::new((x % 7) as f64, 0.0),
        1 => Complex::new(0.0, 0.0),
        2 => Complex::new(0.5, 0.0),
        3 => Complex::new(0.25, (x % 3) as f64 / 2.0),
        _ => Complex::new(-1.5, 0.75),
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn prop_var_and_std_whole_and_along_axes(case in strided_case(3, 5), ddof in 0u8..3) {
        let t = source(&case);
        let a = view(&case, &t);
        let r: Vec<C64> = case.view_elements().into_iter().map(elem).collect();
        let d = f64::from(ddof);
        let want = var_ref(&r, d);
        let got: f64 = a.var(ddof);
        prop_assert!(same(got, want), "{got} vs {want}");
        prop_assert!(same(a.std(ddof), want.sqrt()));
        for par in [Par::Seq, Par::Rayon] {
            prop_assert!(same(a.var_with(ddof, par), want));
        }
        // A fused expression: shifting every element leaves the variance.
        prop_assert!(same((&a + Complex::new(3.0, -2.0)).var(ddof), want));
        let shape = case.view_shape();
        for axis in 0..shape.len() {
            let mut out_shape = shape.clone();
            out_shape.remove(axis);
            let want: Vec<f64> = all_indices(&out_shape).iter().map(|j| var_ref(&lane(&r, &shape, axis, j), d)).collect();
            let v = a.var_axis_dyn(axis, ddof);
            prop_assert_eq!(v.shape(), out_shape.clone());
            let v = v.to_vec();
            prop_assert!(v.iter().zip(&want).all(|(&g, &w)| same(g, w)), "{:?} vs {:?}", v, want);
            let s = a.std_axes(&[axis], ddof).to_vec();
            prop_assert!(s.iter().zip(&want).all(|(&g, &w)| same(g, w.sqrt())));
            let k = a.var_axes_keepdims(&[axis], ddof);
            prop_assert_eq!(k.shape()[axis], 1);
            prop_assert!(k.to_vec().iter().zip(&want).all(|(&g, &w)| same(g, w)));
        }
        if !shape.is_empty() {
            let want: Vec<f64> = all_indices(&shape[1..]).iter().map(|j| var_ref(&lane(&r, &shape, 0, j), d)).collect();
            let v = a.var_axis::<0>(ddof).to_vec();
            prop_assert!(v.iter().zip(&want).all(|(&g, &w)| same(g, w)));
            let s = a.std_axis::<0>(ddof).to_vec();
            prop_assert!(s.iter().zip(&want).all(|(&g, &w)| same(g, w.sqrt())));
        }
    }

    #[test]
    fn prop_powc_elementwise_scalar_and_broadcast(case in strided_case(3, 5), seed in -50i64..50) {
        let t = source(&case);
        let a = view(&case, &t);
        let r: Vec<C64> = case.view_elements().into_iter().map(elem).collect();
        let shape = case.view_shape();
        // Scalar exponents of every kind.
        for k in 0..5 {
            let w = exponent(seed + k);
            let got = a.powc(w).eval().to_vec();
            prop_assert!(got.iter().zip(&r).all(|(&g, &z)| close(g, pow_ref(z, w))), "w = {w}");
        }
        // Small integer exponents are repeated products: exact for these parts.
        prop_assert_eq!(a.powc(Complex::new(2.0, 0.0)).eval().to_vec(), r.iter().map(|&z| z * z).collect::<Vec<_>>());
        prop_assert_eq!(a.powc(Complex::new(1.0, 0.0)).eval().to_vec(), r.clone());
        // An elementwise exponent of the same shape, then one broadcast along the last axis.
        let wt = Tensor::<C64, DynRank>::from_fn(shape.clone(), |i| exponent(seed + i.iter().sum::<usize>() as i64));
        let got = a.powc(&wt).eval().to_vec();
        let ws = wt.to_vec();
        prop_assert!(got.iter().zip(&r).zip(&ws).all(|((&g, &z), &w)| close(g, pow_ref(z, w))));
        if let Some(&last) = shape.last() {
            let row = Tensor::<C64, DynRank>::from_fn(vec![last], |i| exponent(seed - i[0] as i64));
            let p = a.powc(&row).eval();
            prop_assert_eq!(p.shape(), shape.clone());
            let rv = row.to_vec();
            for (i, (&g, &z)) in p.to_vec().iter().zip(&r).enumerate() {
                prop_assert!(close(g, pow_ref(z, rv[i % last])));
            }
        }
        // Lazily fused: (a * 0.5) ** w without a temporary, and a real base.
        let w = Complex::new(0.5, -0.25);
        let got = (&a * 0.5).powc(w).eval().to_vec();
        prop_assert!(got.iter().zip(&r).all(|(&g, &z)| close(g, pow_ref(z * 0.5, w))));
        let re = a.real().eval();
        let got = re.powc(w).eval().to_vec();
        prop_assert!(got.iter().zip(&r).all(|(&g, &z)| close(g, pow_ref(Complex::new(z.re, 0.0), w))));
    }
}

#[test]
fn numpy_known_variances() {
    let c = Complex::new;
    let z = tensor![c(1.0, 1.0), c(2.0, -1.0), c(0.0, 3.0)];
    let v: f64 = z.var(0);
    assert!((v - 3.3333333333333335).abs() < 1e-15); // np.var
    assert!((z.std(1) - 2.23606797749979).abs() < 1e-15); // np.std(ddof=1)
                                                          // A complex64 tensor's variance is an f32.
    let f = Tensor::<Complex<f32>, ext![2, 2]>::from_fn(ext![2, 2], |[i, j]| Complex::new(i as f32, j as f32));
    let v: f32 = f.var(0);
    assert_eq!(v, 0.5);
    assert_eq!(f.var_axis::<0>(0).to_vec(), [0.25, 0.25]);
    // No elements: NaN; ddof >= n: inf (NaN for equal elements), as for reals.
    assert!(Tensor::<C64, DynRank>::zeros(vec![0]).var(0).is_nan());
    assert_eq!(z.var(3), f64::INFINITY);
    assert!(tensor![c(1.0, 1.0), c(1.0, 1.0)].var(2).is_nan());
}

#[test]
fn numpy_known_powers() {
    let c = Complex::new;
    let near = |g: C64, w: C64| (g - w).norm() <= 4.0 * f64::EPSILON * w.norm();
    // numpy 2.4: np.array(z) ** np.array(w)
    let z = tensor![c(0.0, 0.0), c(1.0, 1.0), c(0.0, 0.0), c(0.0, 1.0), c(2.0, 0.0), c(0.0, 0.0), c(-1.5, 0.0)];
    let w = tensor![c(0.0, 0.0), c(2.0, 0.0), c(2.0, 0.0), c(0.0, 1.0), c(-1.0, 0.0), c(0.5, 1.0), c(3.0, 0.0)];
    let p = z.powc(&w).eval().to_vec();
    assert_eq!(p[..3], [c(1.0, 0.0), c(0.0, 2.0), c(0.0, 0.0)]);
    assert!(near(p[3], c(0.20787957635076193, 0.0)));
    assert_eq!(p[4..], [c(0.5, 0.0), c(0.0, 0.0), c(-3.375, 0.0)]);
    // 0 ** w with Re w <= 0: nan+nanj.
    for w in [c(0.0, 1.0), c(-1.0, 0.0), c(-1.0, 1.0)] {
        let p = tensor![c(0.0, 0.0)].powc(w).eval().to_vec()[0];
        assert!(p.re.is_nan() && p.im.is_nan(), "{w}");
    }
    let one = |z: C64, w: C64| tensor![z].powc(w).eval().to_vec()[0];
    assert!(near(one(c(1.0, 1.0), c(0.0, 1.0)), c(0.4288290062943678, 0.15487175246424675)));
    assert!(near(one(c(1.5, -2.0), c(0.25, 0.75)), c(2.2638265509334494, 1.1086535006461253)));
    assert_eq!(one(c(1.5, -2.0), c(7.0, 0.0)), c(597.2109375, -125.96875));
    assert_eq!(one(c(3.0, 1.0), c(-2.0, 0.0)), c(0.08, -0.06));
    assert!(near(one(c(1.0, 2.0), c(-3.0, 0.0)), c(-0.08800000000000001, 0.016)));
    assert_eq!(one(c(f64::NAN, 1.0), c(0.0, 0.0)), c(1.0, 0.0));
    let f = tensor![Complex::new(1.0f32, 1.0)].powc(Complex::new(0.5f32, 0.5)).eval().to_vec()[0];
    assert!((f - Complex::new(0.67777246f32, 0.43060228)).norm() < 1e-6);
}
