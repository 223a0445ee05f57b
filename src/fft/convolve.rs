//! The FFT route of `convolve` and `correlate` for `f32` and `f64`: both inputs
//! transformed at a length with small prime factors, multiplied, transformed back.

use num_complex::Complex;

use super::plan::{run_lanes, FftReal, Fill};
use crate::alloc::try_vec_with_capacity;
use crate::error::ShapeError;
use crate::exec::Par;
use crate::ops::ConvElem;

/// The smallest `2^a·3^b·5^c` from `n` on: rustfft's fastest lengths, at most 25% past
/// `n` (a power of two can be twice as long).
fn smooth_from(n: usize) -> usize {
    let mut m = n.max(1);
    loop {
        let mut r = m;
        for p in [2, 3, 5] {
            while r.is_multiple_of(p) {
                r /= p;
            }
        }
        if r == 1 {
            return m;
        }
        m += 1;
    }
}

/// The full convolution of real `a` and `v` through FFTs.
fn fft_full<R: FftReal>(a: &[R], v: &[R], par: Par) -> Result<Vec<R>, ShapeError> {
    const OP: &str = "convolve";
    let len = a.len() + v.len() - 1;
    let n = smooth_from(len);
    let spectrum = |x: &[R]| -> Result<Vec<Complex<R>>, ShapeError> {
        let mut c = try_vec_with_capacity(OP, x.len())?;
        c.extend(x.iter().map(|&r| Complex::new(r, R::zero())));
        run_lanes(OP, &c, 1, x.len(), n, n, Fill::Crop, false, R::one(), par)
    };
    let (mut fa, fv) = (spectrum(a)?, spectrum(v)?);
    for (x, y) in fa.iter_mut().zip(&fv) {
        *x = *x * *y;
    }
    let scale = R::one() / R::from(n).unwrap_or_else(R::infinity);
    let back = run_lanes(OP, &fa, 1, n, n, len, Fill::Crop, true, scale, par)?;
    let mut out = try_vec_with_capacity(OP, len)?;
    out.extend(back.iter().map(|z| z.re));
    Ok(out)
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

    #[test]
    #[cfg_attr(miri, ignore = "rustfft's SIMD kernels are not this crate's unsafe code")]
    fn smooth_lengths() {
        assert_eq!(smooth_from(1), 1);
        assert_eq!(smooth_from(7), 8);
        assert_eq!(smooth_from(1_004_096), 1_012_500);
        let direct: Vec<f64> = {
            let (a, v) = ([1.0, 2.0, 3.0], [0.0, 1.0, 0.5]);
            let mut o = vec![0.0; 5];
            for i in 0..3 {
                for j in 0..3 {
                    o[i + j] += a[i] * v[j];
                }
            }
            o
        };
        let got = fft_full(&[1.0, 2.0, 3.0], &[0.0, 1.0, 0.5], Par::Seq).unwrap();
        assert!(got.iter().zip(&direct).all(|(g, d)| (g - d).abs() < 1e-12), "{got:?}");
    }
}
