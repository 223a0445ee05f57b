//! The FFT route of `convolve` and `correlate` for `f32` and `f64`: real-input transforms
//! (realfft) of both inputs multiplied and transformed back, in one block or, for a long
//! signal and a shorter kernel, in overlap-save blocks that stay in cache and go to
//! rayon's threads.

use num_complex::Complex;

use super::plan::{plan_c2r, plan_r2c, FftReal};
use crate::alloc::try_vec_filled;
use crate::error::ShapeError;
use crate::exec::par::{for_each_chunk_mut, Work};
use crate::exec::Par;
use crate::ops::ConvElem;

const OP: &str = "convolve";

/// Whether `m`'s prime factors are all 2, 3, 5 or 7 (the radices rustfft has kernels for).
fn smooth(mut m: usize) -> bool {
    for p in [2, 3, 5, 7] {
        while m.is_multiple_of(p) {
            m /= p;
        }
    }
    m == 1
}

/// The smallest even `2^a·3^b·5^c·7^d` from `n` on: realfft halves an even length into a
/// complex transform, which rustfft runs fastest at such lengths.
fn fast_len(n: usize) -> usize {
    let mut m = n.max(2).next_multiple_of(2);
    while !smooth(m) {
        m += 2;
    }
    m
}

/// Work of a real transform of `n` points, in units of `n·log₂ n`.
fn cost(n: usize) -> f64 {
    let n = n as f64;
    n * n.log2()
}

/// The block length for a full result of `len` points with a kernel of `k`: overlap-save
/// blocks (two transforms each, `n − k + 1` results) of `2^p` or `3·2^p` points, or one
/// block for the whole result (three transforms), whichever costs least.
fn block_len(len: usize, k: usize) -> usize {
    let whole = fast_len(len);
    // The whole signal's transform misses the cache: counted half again.
    let mut best = (3.0 * 1.5 * cost(whole), whole);
    let mut n = (2 * k).next_power_of_two().max(64);
    while n < whole {
        for b in [n, n / 2 * 3] {
            if b >= 2 * k && b < whole {
                let c = 2.0 * len.div_ceil(b - k + 1) as f64 * cost(b);
                if c < best.0 {
                    best = (c, b);
                }
            }
        }
        n *= 2;
    }
    best.1
}

fn failed(e: realfft::FftError) -> ShapeError {
    ShapeError::InvalidArgument { op: OP, reason: e.to_string() }
}

/// The full convolution of real `a` and `v` through FFTs.
fn fft_full<R: FftReal>(a: &[R], v: &[R], par: Par) -> Result<Vec<R>, ShapeError> {
    // The convolution is symmetric: the longer input is the signal, the shorter the kernel.
    let (a, v) = if a.len() >= v.len() { (a, v) } else { (v, a) };
    let (n, k) = (a.len(), v.len());
    let len = n + k - 1;
    let block = block_len(len, k);
    let (r2c, c2r) = (plan_r2c::<R>(block), plan_c2r::<R>(block));
    let (half, zero) = (block / 2 + 1, Complex::new(R::zero(), R::zero()));
    let scratch_len = r2c.get_scratch_len().max(c2r.get_scratch_len());
    // The kernel's spectrum, with the inverse transform's 1/block folded in.
    let mut kernel = try_vec_filled(OP, half, zero)?;
    {
        let mut x = try_vec_filled(OP, block, R::zero())?;
        x[..k].copy_from_slice(v);
        let mut scratch = try_vec_filled(OP, scratch_len, zero)?;
        r2c.process_with_scratch(&mut x, &mut kernel, &mut scratch).map_err(failed)?;
        let s = R::one() / R::from(block).unwrap_or_else(R::infinity);
        kernel.iter_mut().for_each(|z| *z = *z * s);
    }
    let mut out = try_vec_filled(OP, len, R::zero())?;
    // One block: the signal from its start, the whole result (the padding takes the
    // wrap-around). Several: each block starts k − 1 points before its first result.
    let (lead, step) = if block >= len { (0, len) } else { (k - 1, block - (k - 1)) };
    let blocks = len.div_ceil(step);
    let pieces = par.pieces(Work::Elements(len), 2).min(blocks);
    let per = blocks.div_ceil(pieces);
    let failure = std::sync::Mutex::new(None);
    for_each_chunk_mut(&mut out, per * step, pieces > 1, |first, chunk| {
        let r = (|| -> Result<(), ShapeError> {
            let mut x = try_vec_filled(OP, block, R::zero())?;
            let mut spec = try_vec_filled(OP, half, zero)?;
            let mut scratch = try_vec_filled(OP, scratch_len, zero)?;
            for (b, dst) in chunk.chunks_mut(step).enumerate() {
                let o0 = first + b * step;
                // x[p] = a[o0 − lead + p], zero outside a.
                let pre = lead.saturating_sub(o0);
                let start = (o0 + pre - lead).min(n);
                let avail = (n - start).min(block - pre);
                x[..pre].fill(R::zero());
                x[pre..pre + avail].copy_from_slice(&a[start..start + avail]);
                x[pre + avail..].fill(R::zero());
                r2c.process_with_scratch(&mut x, &mut spec, &mut scratch).map_err(failed)?;
                for (s, q) in spec.iter_mut().zip(&kernel) {
                    *s = *s * *q;
                }
                // The product of real signals' spectra: real zero and Nyquist terms.
                spec[0].im = R::zero();
                spec[half - 1].im = R::zero();
                c2r.process_with_scratch(&mut spec, &mut x, &mut scratch).map_err(failed)?;
                dst.copy_from_slice(&x[lead..lead + dst.len()]);
            }
            Ok(())
        })();
        if let Err(e) = r {
            failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get_or_insert(e);
        }
    });
    match failure.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

macro_rules! conv_fft {
    ($($t:ty),*) => {$(
        impl ConvElem for $t {
            fn conj(self) -> Self {
                self
            }
            fn fft_full(a: &[Self], v: &[Self], par: Par) -> Option<Result<Vec<Self>, ShapeError>> {
                Some(fft_full(a, v, par))
            }
        }
    )*};
}
conv_fft!(f32, f64);

#[cfg(test)]
mod tests {
    use super::*;

    fn direct(a: &[f64], v: &[f64]) -> Vec<f64> {
        let mut o = vec![0.0; a.len() + v.len() - 1];
        for (i, x) in a.iter().enumerate() {
            for (j, y) in v.iter().enumerate() {
                o[i + j] += x * y;
            }
        }
        o
    }

    #[test]
    fn fast_lengths_are_the_least_even_seven_smooth() {
        for n in [1, 2, 7, 97, 1000, 4097, 1_004_096] {
            let m = fast_len(n);
            assert!(m >= n && m.is_multiple_of(2) && smooth(m), "{n} -> {m}");
            assert!((n.max(2)..m).all(|x| !x.is_multiple_of(2) || !smooth(x)), "{n} -> {m}");
        }
    }

    #[test]
    fn long_signals_take_overlap_save_blocks() {
        let (len, k) = (1_004_096, 4097);
        let b = block_len(len, k);
        assert!(b >= 2 * k && b < fast_len(len), "{b}");
        assert_eq!(block_len(5, 3), fast_len(5));
    }

    #[test]
    #[cfg_attr(miri, ignore = "rustfft's SIMD kernels are not this crate's unsafe code")]
    fn one_block_and_many_blocks_match_the_direct_sum() {
        let a: Vec<f64> = (0..5000).map(|i| ((i * 7919) % 113) as f64 / 17.0 - 3.0).collect();
        for k in [1, 3, 40, 300] {
            let v: Vec<f64> = (0..k).map(|i| ((i * 31) % 11) as f64 - 5.0).collect();
            let want = direct(&a, &v);
            for (x, y) in [(&a[..], &v[..]), (&v[..], &a[..])] {
                let got = fft_full(x, y, Par::Rayon).unwrap();
                assert_eq!(got.len(), want.len());
                let tol = 1e-9 * want.iter().fold(1.0_f64, |m, w| m.max(w.abs()));
                assert!(got.iter().zip(&want).all(|(g, w)| (g - w).abs() <= tol), "k = {k}");
            }
        }
    }
}
