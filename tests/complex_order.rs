//! numpy's order of complex numbers against a plain reference: `min`, `max`, `argmin`,
//! `argmax` (whole, along one axis, over several axes, on any number of threads) and
//! `sort`/`argsort` along an axis, on random strided views whose elements repeat (ties)
//! and hold NaN parts. The reference is written from numpy's documentation, not from the
//! crate's `NanOrd`: lexicographic order (real parts first), the first NaN (either part)
//! wins an extreme, and sorting puts `[R + Rj, R + nanj, nan + Rj, nan + nanj]` in that
//! order, each class by its parts that are not NaN, stably.

use mdtensor::prelude::*;
use mdtensor::{ext, tensor, Complex, DynRank, SliceElem, Strided, Tensor, TensorView};
use proptest::prelude::*;
use std::cmp::Ordering;

mod common;
use common::strided::{strided_case, StridedCase};
use common::{all_indices, config, lane};

type C64 = Complex<f64>;

/// A case's integer as a complex element: few distinct parts (so ties are common), and
/// with `nans`, NaN real or imaginary parts for some integers.
fn elem(x: i64, nans: bool) -> C64 {
    let re = (x.rem_euclid(5) as f64 - 2.0) / 2.0;
    let im = ((x * 7).rem_euclid(9) as f64 - 4.0) / 4.0;
    let re = if nans && x.rem_euclid(31) == 3 { f64::NAN } else { re };
    let im = if nans && x.rem_euclid(37) == 5 { f64::NAN } else { im };
    Complex::new(re, im)
}

fn has_nan(z: C64) -> bool {
    z.re.is_nan() || z.im.is_nan()
}

/// `a > b` lexicographically, for numbers without NaN parts.
fn greater(a: C64, b: C64) -> bool {
    a.re > b.re || (a.re == b.re && a.im > b.im)
}

/// numpy's `argmax` (`MAX`) or `argmin` of a sequence: the first NaN, else the first
/// extreme; `None` when empty.
fn extreme<const MAX: bool>(xs: &[C64]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, &x) in xs.iter().enumerate() {
        if has_nan(x) {
            return Some(i);
        }
        match best {
            Some(b) if !(if MAX { greater(x, xs[b]) } else { greater(xs[b], x) }) => {}
            _ => best = Some(i),
        }
    }
    best
}

/// numpy's sort key: the NaN class, then the parts that are not NaN.
fn sort_cmp(a: &C64, b: &C64) -> Ordering {
    let class = |z: &C64| 2 * u8::from(z.re.is_nan()) + u8::from(z.im.is_nan());
    let part = |x: f64| if x.is_nan() { 0.0 } else { x };
    class(a)
        .cmp(&class(b))
        .then(part(a.re).partial_cmp(&part(b.re)).unwrap())
        .then(part(a.im).partial_cmp(&part(b.im)).unwrap())
}

/// The stable sorting permutation of `xs` in numpy's order.
fn argsort(xs: &[C64]) -> Vec<usize> {
    let mut p: Vec<usize> = (0..xs.len()).collect();
    p.sort_by(|&i, &j| sort_cmp(&xs[i], &xs[j]));
    p
}

/// Equal bit for bit, NaN equal to NaN whatever its payload.
fn same(a: &[C64], b: &[C64]) -> bool {
    let bits = |x: f64| if x.is_nan() { u64::MAX } else { x.to_bits() };
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| bits(x.re) == bits(y.re) && bits(x.im) == bits(y.im))
}

fn source(case: &StridedCase, nans: bool) -> Tensor<C64, DynRank> {
    Tensor::from_vec(case.shape.clone(), case.data.iter().map(|&x| elem(x, nans)).collect())
}

fn view<'a>(case: &StridedCase, t: &'a Tensor<C64, DynRank>) -> TensorView<'a, C64, DynRank, Strided> {
    let elems: Vec<SliceElem> =
        case.steps.iter().map(|&step| SliceElem::Range { start: None, end: None, step }).collect();
    t.try_slice_dyn(&elems).unwrap().try_into_permuted(&case.perm).unwrap()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn prop_whole_extremes_follow_numpy(case in strided_case(3, 5), nans in any::<bool>()) {
        let t = source(&case, nans);
        let a = view(&case, &t);
        let r: Vec<C64> = case.view_elements().into_iter().map(|x| elem(x, nans)).collect();
        let (imax, imin) = (extreme::<true>(&r), extreme::<false>(&r));
        prop_assert_eq!(a.argmax(), imax);
        prop_assert_eq!(a.argmin(), imin);
        for par in [Par::Auto, Par::Seq, Par::Rayon] {
            prop_assert_eq!(a.argmax_with(par), imax);
            prop_assert_eq!(a.argmin_with(par), imin);
            prop_assert!(same(&a.max_with(par).into_iter().collect::<Vec<_>>(), &imax.map(|i| r[i]).into_iter().collect::<Vec<_>>()));
            prop_assert!(same(&a.min_with(par).into_iter().collect::<Vec<_>>(), &imin.map(|i| r[i]).into_iter().collect::<Vec<_>>()));
        }
        // A fused expression: the extremes of -a are the reversed extremes of a, NaN first.
        let neg: Vec<C64> = r.iter().map(|&z| -z).collect();
        prop_assert_eq!((-&a).argmax(), extreme::<true>(&neg));
        // Over every axis at once: the whole-tensor value, as a rank-0 tensor.
        if !r.is_empty() {
            let all: Vec<usize> = (0..case.shape.len()).collect();
            let m = a.max_axes(&all[..]);
            prop_assert!(same(&m.to_vec(), &[r[imax.unwrap()]]));
        }
    }

    #[test]
    fn prop_axis_extremes_and_sorts_follow_numpy(case in strided_case(3, 5), nans in any::<bool>()) {
        let t = source(&case, nans);
        let a = view(&case, &t);
        let r: Vec<C64> = case.view_elements().into_iter().map(|x| elem(x, nans)).collect();
        let shape = case.view_shape();
        for axis in 0..shape.len() {
            let mut out_shape = shape.clone();
            out_shape.remove(axis);
            let outs = all_indices(&out_shape);
            let lanes: Vec<Vec<C64>> = outs.iter().map(|j| lane(&r, &shape, axis, j)).collect();
            if shape[axis] == 0 {
                prop_assert!(a.try_max_axis_dyn(axis).is_err());
                prop_assert!(a.try_argmin_axis_dyn(axis).is_err());
            } else {
                let imax: Vec<usize> = lanes.iter().map(|l| extreme::<true>(l).unwrap()).collect();
                let imin: Vec<usize> = lanes.iter().map(|l| extreme::<false>(l).unwrap()).collect();
                let vmax: Vec<C64> = lanes.iter().zip(&imax).map(|(l, &i)| l[i]).collect();
                let vmin: Vec<C64> = lanes.iter().zip(&imin).map(|(l, &i)| l[i]).collect();
                prop_assert_eq!(a.argmax_axis_dyn(axis).to_vec(), imax);
                prop_assert_eq!(a.argmin_axis_dyn(axis).to_vec(), imin);
                let m = a.max_axis_dyn(axis);
                prop_assert_eq!(m.shape(), out_shape.clone());
                prop_assert!(same(&m.to_vec(), &vmax));
                prop_assert!(same(&a.min_axis_dyn(axis).to_vec(), &vmin));
                prop_assert!(same(&a.max_axes(&[axis]).to_vec(), &vmax));
                prop_assert!(same(&a.min_axes_keepdims(&[axis]).to_vec(), &vmin));
            }
            // Sorting along the axis: the lanes sorted, written back in place of each lane.
            let (mut want, mut want_idx) = (r.clone(), vec![0usize; r.len()]);
            for (j, l) in outs.iter().zip(&lanes) {
                for (k, &src) in argsort(l).iter().enumerate() {
                    let mut i = j.clone();
                    i.insert(axis, k);
                    let at = i.iter().zip(&shape).fold(0, |p, (&x, &d)| p * d + x);
                    want[at] = l[src];
                    want_idx[at] = src;
                }
            }
            prop_assert!(same(&a.sort_axis_dyn(axis).to_vec(), &want));
            prop_assert_eq!(a.argsort_axis_dyn(axis).to_vec(), want_idx);
        }
        // The static-axis forms along axis 0.
        if !shape.is_empty() && shape[0] > 0 {
            let lanes: Vec<Vec<C64>> = all_indices(&shape[1..]).iter().map(|j| lane(&r, &shape, 0, j)).collect();
            let imax: Vec<usize> = lanes.iter().map(|l| extreme::<true>(l).unwrap()).collect();
            prop_assert_eq!(a.argmax_axis::<0>().to_vec(), imax);
            let vmin: Vec<C64> = lanes.iter().map(|l| l[extreme::<false>(l).unwrap()]).collect();
            prop_assert!(same(&a.min_axis::<0>().to_vec(), &vmin));
        }
    }
}

/// Many elements: the parallel reduction merges pieces, and the first NaN or the first
/// of equal extremes still wins.
#[test]
fn large_tensors_keep_the_first_extreme_across_threads() {
    let n = 200_003;
    let mut v: Vec<C64> = (0..n).map(|i| Complex::new((i % 1000) as f64, -((i % 7) as f64))).collect();
    let want_max = (0..n).position(|i| i % 1000 == 999 && i % 7 == 0).unwrap();
    let want_min = (0..n).position(|i| i % 1000 == 0 && i % 7 == 6).unwrap();
    let t = Tensor::<C64, DynRank>::from_vec(vec![n], v.clone());
    for par in [Par::Auto, Par::Seq, Par::Rayon] {
        assert_eq!(t.argmax_with(par), Some(want_max));
        assert_eq!(t.argmin_with(par), Some(want_min));
    }
    v[150_000] = Complex::new(1.0, f64::NAN);
    v[170_000] = Complex::new(f64::NAN, 0.0);
    let t = Tensor::<C64, DynRank>::from_vec(vec![n], v);
    for par in [Par::Auto, Par::Seq, Par::Rayon] {
        assert_eq!(t.argmax_with(par), Some(150_000));
        assert_eq!(t.argmin_with(par), Some(150_000));
        assert!(t.max_with(par).unwrap().im.is_nan());
    }
}

/// Values numpy gives (numpy 2.4): `np.sort`, `np.argsort(kind='stable')`, `np.max`,
/// `np.argmax`, `np.min`, `np.argmin`.
#[test]
fn numpy_known_values() {
    let nan = f64::NAN;
    let c = Complex::new;
    let z = tensor![
        c(1.0, nan),
        c(2.0, 0.0),
        c(nan, 0.0),
        c(1.0, 1.0),
        c(1.0, nan),
        c(nan, nan),
        c(1.0, -1.0),
        c(nan, -1.0),
        c(0.0, nan)
    ];
    // np.argsort(z, kind='stable') == [6 3 1 8 0 4 7 2 5]
    assert_eq!(z.argsort_axis::<0>().to_vec(), [6, 3, 1, 8, 0, 4, 7, 2, 5]);
    let s = z.sort_axis::<0>().to_vec();
    assert_eq!(&s[..3], [c(1.0, -1.0), c(1.0, 1.0), c(2.0, 0.0)]);
    assert!(s[3].re == 0.0 && s[3].im.is_nan() && s[8].re.is_nan() && s[8].im.is_nan());
    // np.max(z) == 1+nanj, np.argmax(z) == 0, np.min likewise.
    assert_eq!((z.argmax(), z.argmin()), (Some(0), Some(0)));
    assert!(z.max().unwrap().re == 1.0 && z.max().unwrap().im.is_nan());
    let w = tensor![c(1.0, 1.0), c(1.0, 2.0), c(0.0, 5.0)];
    assert_eq!(w.max(), Some(c(1.0, 2.0))); // np.max == (1+2j)
    assert_eq!(w.argmin(), Some(2)); // np.argmin == 2
                                     // np.max(..., axis=0) of [[1, 0+nanj], [nan+1j, 2]]: [nan+1j, 0+nanj]
    let m = tensor![[c(1.0, 0.0), c(0.0, nan)], [c(nan, 1.0), c(2.0, 0.0)]];
    let mx = m.max_axis::<0>().to_vec();
    assert!(mx[0].re.is_nan() && mx[0].im == 1.0 && mx[1].re == 0.0 && mx[1].im.is_nan());
    // Equal numbers: the first is kept (np.max of [0-0j, -0+0j] prints -0j).
    let zeros = tensor![c(0.0, -0.0), c(-0.0, 0.0)];
    assert!(zeros.max().unwrap().im.is_sign_negative());
    assert_eq!(zeros.argmax(), Some(0));
    // Static extents and complex64.
    let f = Tensor::<Complex<f32>, ext![2, 2]>::from_fn(ext![2, 2], |[i, j]| Complex::new(j as f32, -(i as f32)));
    assert_eq!(f.max(), Some(Complex::new(1.0, 0.0)));
    assert_eq!(f.argmin_axis::<1>().to_vec(), [0, 0]);
    assert_eq!(f.sort_axis::<0>().to_vec()[0], Complex::new(0.0, -1.0));
}
