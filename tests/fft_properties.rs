//! Property tests of the FFTs (feature `fft`) against a plain O(n²) DFT, on random
//! shapes, layouts (permuted, reversed and stepped views), axes (negative too), lengths
//! `n` (cropping and padding) and `norm` modes.
#![cfg(feature = "fft")]

mod common;

use common::strided::{strided_case, StridedCase};
use common::{all_indices, config};
use mdtensor::fft::{fftfreq, rfftfreq, Norm};
use mdtensor::{Complex64, DynRank, Par, SliceElem, Strided, Tensor, TensorView};
use proptest::prelude::*;

fn dft(x: &[Complex64], inverse: bool) -> Vec<Complex64> {
    let n = x.len();
    let sign = if inverse { 1.0 } else { -1.0 };
    (0..n)
        .map(|k| {
            x.iter()
                .enumerate()
                .map(|(j, v)| {
                    v * Complex64::from_polar(1.0, sign * 2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64)
                })
                .sum()
        })
        .collect()
}

fn scale(norm: Norm, n: usize, inverse: bool) -> f64 {
    match (norm, inverse) {
        (Norm::Backward, false) | (Norm::Forward, true) => 1.0,
        (Norm::Ortho, _) => 1.0 / (n as f64).sqrt(),
        _ => 1.0 / n as f64,
    }
}

/// The case's view as f64 elements (the same slicing and permutation of an f64 copy).
fn view_of<'a>(c: &StridedCase, t: &'a Tensor<f64, DynRank>) -> TensorView<'a, f64, DynRank, Strided> {
    let elems: Vec<SliceElem> = c.steps.iter().map(|&step| SliceElem::Range { start: None, end: None, step }).collect();
    t.try_slice_dyn(&elems).unwrap().try_into_permuted(&c.perm).unwrap()
}

/// Applies `f` to every lane along `axis` of the row-major `data` of `shape`; the lanes of
/// the result have `out_len` elements.
fn per_lane(
    data: &[Complex64],
    shape: &[usize],
    axis: usize,
    out_len: usize,
    f: impl Fn(Vec<Complex64>) -> Vec<Complex64>,
) -> (Vec<usize>, Vec<Complex64>) {
    let mut out_shape = shape.to_vec();
    out_shape[axis] = out_len;
    let mut out = vec![Complex64::new(0.0, 0.0); out_shape.iter().product()];
    let pos = |idx: &[usize], s: &[usize]| idx.iter().zip(s).fold(0, |p, (&i, &d)| p * d + i);
    let mut outer = shape.to_vec();
    outer[axis] = 1;
    for mut idx in all_indices(&outer) {
        let lane: Vec<Complex64> = (0..shape[axis])
            .map(|k| {
                idx[axis] = k;
                data[pos(&idx, shape)]
            })
            .collect();
        for (k, v) in f(lane).into_iter().enumerate() {
            idx[axis] = k;
            out[pos(&idx, &out_shape)] = v;
        }
    }
    (out_shape, out)
}

fn close(a: &[Complex64], b: &[Complex64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).norm() <= 1e-9 * (1.0 + y.norm()) * 64.0)
}

fn norm_of(k: u8) -> Norm {
    [Norm::Backward, Norm::Ortho, Norm::Forward][k as usize % 3]
}

fn fit(mut lane: Vec<Complex64>, n: usize) -> Vec<Complex64> {
    lane.resize(n, Complex64::new(0.0, 0.0));
    lane
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if cfg!(miri) { 4 } else { 64 }, ..config() })]

    #[test]
    fn one_axis_transforms_match_the_dft(c in strided_case(3, 5), pick in 0usize..6, n_pick in 0usize..12, k in 0u8..3) {
        prop_assume!(!c.shape.is_empty());
        let base = Tensor::<f64, DynRank>::from_vec(c.shape.clone(), c.data.iter().map(|&x| x as f64 / 7.0).collect());
        let v = view_of(&c, &base);
        let shape = c.view_shape();
        let rank = shape.len();
        let axis = pick % rank;
        // Half the cases name the axis from the end.
        let arg = if pick >= rank { axis as isize - rank as isize } else { axis as isize };
        let m = shape[axis];
        let n = if n_pick == 0 { None } else { Some(n_pick) };
        let pts = n.unwrap_or(m);
        let norm = norm_of(k);
        let data: Vec<Complex64> = c.view_elements().iter().map(|&x| Complex64::new(x as f64 / 7.0, 0.0)).collect();
        let got = v.try_fft(n, arg, norm);
        if pts == 0 {
            prop_assert!(got.is_err());
            return Ok(());
        }
        let got = got.unwrap();
        let s = scale(norm, pts, false);
        let (want_shape, want) = per_lane(&data, &shape, axis, pts, |l| dft(&fit(l, pts), false).into_iter().map(|z| z * s).collect());
        prop_assert_eq!(got.shape(), want_shape.clone());
        prop_assert!(close(&got.to_vec(), &want));
        // rfft: the first n/2 + 1 terms of the same transform.
        let r = v.rfft(n, arg, norm);
        let keep = pts / 2 + 1;
        let (_, want_r) = per_lane(&data, &shape, axis, keep, |l| dft(&fit(l, pts), false).into_iter().take(keep).map(|z| z * s).collect());
        prop_assert!(close(&r.to_vec(), &want_r));
        // ifft of the complex result, and irfft back to the (cropped or padded) signal.
        let si = scale(norm, pts, true);
        let gi = got.ifft(None, arg, norm);
        let (_, want_i) = per_lane(&got.to_vec(), &want_shape, axis, pts, |l| dft(&l, true).into_iter().map(|z| z * si).collect());
        prop_assert!(close(&gi.to_vec(), &want_i));
        let back = r.irfft(Some(pts), arg, norm);
        let (_, signal) = per_lane(&data, &shape, axis, pts, |l| fit(l, pts));
        let back: Vec<Complex64> = back.iter().map(|&x| Complex64::new(x, 0.0)).collect();
        prop_assert!(close(&back, &signal));
    }

    #[test]
    fn fftn_is_one_axis_after_another_and_shifts_roll(c in strided_case(3, 4), k in 0u8..3) {
        let base = Tensor::<f64, DynRank>::from_vec(c.shape.clone(), c.data.iter().map(|&x| x as f64).collect());
        let v = view_of(&c, &base);
        let shape = c.view_shape();
        prop_assume!(shape.iter().all(|&d| d > 0));
        let norm = norm_of(k);
        let mut want = v.to_standard_layout().map(|&x| Complex64::new(x, 0.0));
        for a in 0..shape.len() {
            want = want.fft(None, a, norm);
        }
        prop_assert!(close(&v.fftn(None, None, norm).to_vec(), &want.to_vec()));
        let back = want.ifftn(None, None, norm);
        prop_assert!(close(&back.to_vec(), &v.iter().map(|&x| Complex64::new(x, 0.0)).collect::<Vec<_>>()));
        // fftshift rolls every axis by half its extent.
        let sh = v.fftshift(None);
        for idx in all_indices(&shape) {
            let src: Vec<usize> = idx.iter().zip(&shape).map(|(&i, &d)| (i + d - d / 2) % d).collect();
            prop_assert_eq!(sh[&idx[..]], v[&src[..]]);
        }
        prop_assert_eq!(sh.ifftshift(None).to_vec(), v.to_vec());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if cfg!(miri) { 4 } else { 64 }, ..config() })]

    /// `rfftn` is `fftn` (checked against the DFT above) keeping the first `s/2 + 1` terms
    /// of its last axis, and `irfftn` brings the (cropped or padded) signal back.
    #[test]
    fn rfftn_is_fftn_halved_and_irfftn_inverts_it(c in strided_case(3, 4), picks in proptest::collection::vec(0usize..6, 1..4), lens in proptest::collection::vec(1usize..7, 3), use_s in any::<bool>(), k in 0u8..3) {
        let base = Tensor::<f64, DynRank>::from_vec(c.shape.clone(), c.data.iter().map(|&x| x as f64).collect());
        let v = view_of(&c, &base);
        let shape = c.view_shape();
        let rank = shape.len() as isize;
        prop_assume!(rank > 0);
        // Distinct axes, some named from the end.
        let mut axes: Vec<isize> = Vec::new();
        for &p in &picks {
            let a = p as isize % rank;
            if !axes.iter().any(|&b| b.rem_euclid(rank) == a) {
                axes.push(if p as isize >= rank { a - rank } else { a });
            }
        }
        let s: Vec<usize> = lens[..axes.len()].to_vec();
        let s_arg = use_s.then_some(&s[..]);
        let norm = norm_of(k);
        let last = axes[axes.len() - 1].rem_euclid(rank) as usize;
        let pts: Vec<usize> = axes.iter().enumerate().map(|(j, &a)| if use_s { s[j] } else { shape[a.rem_euclid(rank) as usize] }).collect();
        let got = v.try_rfftn(s_arg, Some(&axes), norm);
        if pts.contains(&0) {
            prop_assert!(got.is_err());
            return Ok(());
        }
        let got = got.unwrap();
        let full = v.fftn(Some(&pts), Some(&axes), norm);
        let keep = pts[pts.len() - 1] / 2 + 1;
        let want: Vec<Complex64> = all_indices(&full.shape()).into_iter().filter(|i| i[last] < keep).map(|i| full[&i[..]]).collect();
        prop_assert_eq!(got.shape()[last], keep);
        prop_assert!(close(&got.to_vec(), &want));
        let back = got.irfftn(Some(&pts), Some(&axes), norm);
        let signal = full.ifftn(None, Some(&axes), norm);
        prop_assert_eq!(back.shape(), signal.shape());
        prop_assert!(close(&back.iter().map(|&x| Complex64::new(x, 0.0)).collect::<Vec<_>>(), &signal.to_vec()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if cfg!(miri) { 1 } else { 8 }, ..config() })]

    /// Shapes big enough for the batched, blocked and threaded paths: every axis of a
    /// rank-3 tensor (the first with few outer blocks, so its columns are split across
    /// threads), on one thread and on rayon's.
    #[test]
    fn large_batches_on_threads_match_the_dft(outer in 2usize..5, m in 8usize..48, inner in 64usize..320, n_pick in 0usize..60, k in 0u8..3, seed in any::<u32>()) {
        let shape = vec![outer, m, inner];
        let len = outer * m * inner;
        let data: Vec<f64> = (0..len).map(|i| ((i as u64 * 2654435761 + seed as u64) % 1000) as f64 / 250.0 - 2.0).collect();
        let x = Tensor::<f64, DynRank>::from_vec(shape.clone(), data.clone());
        let cdata: Vec<Complex64> = data.iter().map(|&r| Complex64::new(r, 0.0)).collect();
        let norm = norm_of(k);
        for axis in 0..3 {
            let pts = if n_pick == 0 { shape[axis] } else { n_pick };
            let s = scale(norm, pts, false);
            let (_, want) = per_lane(&cdata, &shape, axis, pts, |l| dft(&fit(l, pts), false).into_iter().map(|z| z * s).collect());
            let keep = pts / 2 + 1;
            let (_, want_r) = per_lane(&cdata, &shape, axis, keep, |l| dft(&fit(l, pts), false).into_iter().take(keep).map(|z| z * s).collect());
            let (_, signal) = per_lane(&cdata, &shape, axis, pts, |l| fit(l, pts));
            for par in [Par::Seq, Par::Rayon] {
                prop_assert!(close(&x.fft_with(Some(pts), axis, norm, par).to_vec(), &want), "fft axis {}", axis);
                let r = x.rfft_with(Some(pts), axis, norm, par);
                prop_assert!(close(&r.to_vec(), &want_r), "rfft axis {}", axis);
                let back: Vec<Complex64> = r.irfft_with(Some(pts), axis, norm, par).iter().map(|&v| Complex64::new(v, 0.0)).collect();
                prop_assert!(close(&back, &signal), "irfft axis {}", axis);
            }
        }
    }
}

#[test]
fn frequencies_and_errors_as_numpy() {
    assert_eq!(fftfreq(8, 0.1).to_vec(), [0.0, 1.25, 2.5, 3.75, -5.0, -3.75, -2.5, -1.25]);
    assert_eq!(rfftfreq(5, 1.0).to_vec(), [0.0, 0.2, 0.4]);
    assert_eq!(fftfreq(0, 1.0).shape(), [0]);
    let a = Tensor::<f64, DynRank>::zeros(DynRank::new(vec![2, 0]));
    assert!(a.try_fft(None, 1, Norm::Backward).is_err()); // no points
    assert_eq!(a.fft(None, 0, Norm::Backward).shape(), [2, 0]); // empty lanes, none to do
    assert!(a.try_fft(None, 2, Norm::Backward).is_err());
    assert!(a.try_fft(None, -3, Norm::Backward).is_err());
    let one = Tensor::<Complex64, DynRank>::zeros(DynRank::new(vec![1]));
    assert!(one.try_irfft(None, 0, Norm::Backward).is_err()); // numpy: 0 points
    assert!(a.try_fftn(Some(&[1, 2, 3]), None, Norm::Backward).is_err());
    assert!(a.try_fftn(Some(&[1]), Some(&[0, 1]), Norm::Backward).is_err());
    // f32 and complex inputs.
    let x = Tensor::<f32, DynRank>::from_vec(vec![4], vec![1.0, 2.0, 3.0, 4.0]);
    assert_eq!(x.fft(None, 0, Norm::Backward).to_vec()[0], mdtensor::Complex32::new(10.0, 0.0));
}

#[test]
fn lengths_too_large_are_errors_not_aborts() {
    let x = Tensor::<f64, DynRank>::from_vec(vec![2, 3], vec![1.0; 6]);
    for n in [usize::MAX / 2, 1 << 60] {
        assert!(x.try_fft(Some(n), 1, Norm::Backward).is_err());
        assert!(x.try_rfft(Some(n), 0, Norm::Backward).is_err());
        assert!(x.try_rfftn(Some(&[2, n]), None, Norm::Backward).is_err());
        assert!(x.fft(None, 0, Norm::Backward).try_irfft(Some(n), 0, Norm::Backward).is_err());
    }
}
