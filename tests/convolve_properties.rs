//! Property tests of `convolve` and `correlate` against numpy's definitions written as
//! plain loops, on random lengths, strided views and every mode; the FFT route (feature
//! `fft`) against the same reference.

mod common;

use common::config;
use mdtensor::ops::{ConvMethod, ConvMode};
use mdtensor::{ext, s, Complex64, Par, Tensor};
use proptest::prelude::*;

/// numpy's `convolve` from its definition: the full sum, then the mode's window.
fn reference<T: Copy + Default + std::ops::Add<Output = T> + std::ops::Mul<Output = T>>(
    a: &[T],
    v: &[T],
    mode: ConvMode,
) -> Vec<T> {
    let (n, k) = (a.len(), v.len());
    let mut full = vec![T::default(); n + k - 1];
    for i in 0..n {
        for j in 0..k {
            full[i + j] = full[i + j] + a[i] * v[j];
        }
    }
    let (long, short) = (n.max(k), n.min(k));
    let (start, len) = match mode {
        ConvMode::Full => (0, n + k - 1),
        ConvMode::Same => ((short - 1) / 2, long),
        ConvMode::Valid => (short - 1, long - short + 1),
    };
    full[start..start + len].to_vec()
}

/// numpy's `correlate`: `c[k] = Σₙ a[n + k]·conj(v[n])`, over the same windows as numpy
/// (it swaps the inputs when `v` is longer and reverses and conjugates the result).
fn reference_corr(a: &[Complex64], v: &[Complex64], mode: ConvMode) -> Vec<Complex64> {
    let rev = |x: &[Complex64]| x.iter().rev().map(|z| z.conj()).collect::<Vec<_>>();
    if a.len() >= v.len() {
        reference(a, &rev(v), mode)
    } else {
        let mut c = reference(v, &rev(a), mode);
        c.reverse();
        c.iter().map(|z| z.conj()).collect()
    }
}

fn mode_of(k: u8) -> ConvMode {
    [ConvMode::Full, ConvMode::Same, ConvMode::Valid][k as usize % 3]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if cfg!(miri) { 4 } else { 64 }, ..config() })]

    #[test]
    fn integer_convolution_is_exact(a in proptest::collection::vec(-50i64..50, 1..40), v in proptest::collection::vec(-50i64..50, 1..40), k in 0u8..3, rev in any::<bool>()) {
        let mode = mode_of(k);
        // A view of a buffer twice as long, every other element: forwards, or backwards
        // (a negative step) over a buffer laid out so that it reads `a` reversed.
        let v_t = Tensor::<i64, ext![_]>::from_vec([v.len()], v.clone());
        let (view_data, got) = if rev {
            let doubled: Vec<i64> = a.iter().flat_map(|&x| [0, x]).collect();
            let buf = Tensor::<i64, ext![_]>::from_vec([doubled.len()], doubled);
            let mut d = a.clone();
            d.reverse();
            (d, buf.slice(s![..;-2]).convolve(&v_t, mode, ConvMethod::Auto))
        } else {
            let doubled: Vec<i64> = a.iter().flat_map(|&x| [x, 0]).collect();
            let buf = Tensor::<i64, ext![_]>::from_vec([doubled.len()], doubled);
            (a.clone(), buf.slice(s![..;2]).convolve(&v_t, mode, ConvMethod::Auto))
        };
        prop_assert_eq!(got.to_vec(), reference(&view_data, &v, mode));
    }

    #[test]
    fn float_paths_agree(a in proptest::collection::vec(-1.0f64..1.0, 1..300), v in proptest::collection::vec(-1.0f64..1.0, 1..300), k in 0u8..3) {
        let mode = mode_of(k);
        let (at, vt) = (Tensor::<f64, ext![_]>::from_vec([a.len()], a.clone()), Tensor::<f64, ext![_]>::from_vec([v.len()], v.clone()));
        let want = reference(&a, &v, mode);
        for method in [ConvMethod::Auto, ConvMethod::Direct, ConvMethod::Fft] {
            let got = at.convolve(&vt, mode, method).to_vec();
            prop_assert_eq!(got.len(), want.len());
            prop_assert!(got.iter().zip(&want).all(|(g, w)| (g - w).abs() < 1e-9), "{:?}", method);
        }
    }

    #[test]
    fn complex_correlation_conjugates(a in proptest::collection::vec((-5i32..5, -5i32..5), 1..12), v in proptest::collection::vec((-5i32..5, -5i32..5), 1..12), k in 0u8..3) {
        let mode = mode_of(k);
        let c = |x: &[(i32, i32)]| x.iter().map(|&(r, i)| Complex64::new(r as f64, i as f64)).collect::<Vec<_>>();
        let (a, v) = (c(&a), c(&v));
        let (at, vt) = (Tensor::<Complex64, ext![_]>::from_vec([a.len()], a.clone()), Tensor::<Complex64, ext![_]>::from_vec([v.len()], v.clone()));
        prop_assert_eq!(at.correlate(&vt, mode, ConvMethod::Auto).to_vec(), reference_corr(&a, &v, mode));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if cfg!(miri) { 1 } else { 12 }, ..config() })]

    /// A long signal and a shorter kernel (either order): the FFT route's overlap-save
    /// blocks, on one thread and on rayon's, against the plain sum.
    #[test]
    fn long_signals_in_blocks_match_the_sum(n in 1000usize..6000, k in 1usize..400, swap in any::<bool>(), mode in 0u8..3, seed in any::<u32>()) {
        let gen = |len: usize, salt: u64| -> Vec<f64> {
            (0..len).map(|i| ((i as u64 * 2654435761 + salt + seed as u64) % 997) as f64 / 498.5 - 1.0).collect()
        };
        let (a, v) = (gen(n, 1), gen(k, 7));
        let (a, v) = if swap { (v, a) } else { (a, v) };
        let mode = mode_of(mode);
        let want = reference(&a, &v, mode);
        let (at, vt) = (Tensor::<f64, ext![_]>::from_vec([a.len()], a.clone()), Tensor::<f64, ext![_]>::from_vec([v.len()], v.clone()));
        for par in [Par::Seq, Par::Rayon] {
            let got = at.convolve_with(&vt, mode, ConvMethod::Fft, par).to_vec();
            prop_assert_eq!(got.len(), want.len());
            prop_assert!(got.iter().zip(&want).all(|(g, w)| (g - w).abs() < 1e-9 * (k as f64)), "{:?}", par);
        }
    }
}

#[test]
fn empty_inputs_are_errors() {
    let e = Tensor::<f64, ext![_]>::zeros([0]);
    let one = Tensor::<f64, ext![_]>::zeros([1]);
    assert!(one.try_convolve(&e, ConvMode::Full, ConvMethod::Auto).is_err());
    assert!(e.try_correlate(&one, ConvMode::Valid, ConvMethod::Direct).is_err());
}
