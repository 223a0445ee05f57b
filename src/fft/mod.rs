//! numpy's `fft` module (feature `fft`): discrete Fourier transforms along any axis of any
//! dense tensor, through rustfft.
//!
//! | numpy | here |
//! |---|---|
//! | `np.fft.fft(a, n, axis, norm)`, `ifft` | [`fft`](crate::Tensor::fft), [`ifft`](crate::Tensor::ifft) |
//! | `rfft` (real input), `irfft` (real output) | [`rfft`](crate::Tensor::rfft), [`irfft`](crate::Tensor::irfft) |
//! | `fftn(a, s, axes, norm)`, `ifftn`, `fft2`, `ifft2` | [`fftn`](crate::Tensor::fftn), [`ifftn`](crate::Tensor::ifftn), [`fft2`](crate::Tensor::fft2), [`ifft2`](crate::Tensor::ifft2) |
//! | `rfftn(a, s, axes, norm)`, `irfftn`, `rfft2`, `irfft2` | [`rfftn`](crate::Tensor::rfftn), [`irfftn`](crate::Tensor::irfftn), [`rfft2`](crate::Tensor::rfft2), [`irfft2`](crate::Tensor::irfft2) |
//! | `fft(a, axis=I)`, `ifft`, `rfft` with static extents | [`fft_axis::<I>`](crate::Tensor::fft_axis), [`ifft_axis::<I>`](crate::Tensor::ifft_axis), [`rfft_axis::<I>`](crate::Tensor::rfft_axis) ([`RfftAxis`]: `N` points give `N/2 + 1` terms in the type) |
//! | `fftfreq(n, d)`, `rfftfreq(n, d)` | [`fftfreq`], [`rfftfreq`] |
//! | `fftshift(x, axes)`, `ifftshift` | [`fftshift`](crate::Tensor::fftshift), [`ifftshift`](crate::Tensor::ifftshift) |
//!
//! Inputs may be `f32`, `f64`, [`Complex32`](crate::Complex32) or
//! [`Complex64`](crate::Complex64) elements ([`FftElem`]); results are complex (real for
//! `irfft`), row-major, with the operand's rank (dynamic extents). `n` crops or zero-pads
//! the axis as numpy's; [`Norm`] is numpy's `norm`. Negative axes count from the end.
//!
//! How it runs: row-major operands are read in place (other layouts copied once); lanes
//! are gathered in batches into reused buffers (neighbouring lanes together when the axis
//! is not the last) and transformed by rustfft plans, or realfft's for `rfft`/`irfft`
//! (half the work of a complex transform), planned once per length and direction and kept
//! for the process; results go straight to a row-major output, and lanes are split across
//! rayon's threads when the work is large enough (`Par`).
//!
//! ```
//! use mdtensor::{fft::Norm, tensor, Complex64};
//! let x = tensor![1.0, 2.0, 3.0, 4.0];
//! let f = x.fft(None, -1, Norm::Backward);
//! assert_eq!(f.to_vec()[0], Complex64::new(10.0, 0.0));
//! let back = f.ifft(None, -1, Norm::Backward);
//! assert!((back.to_vec()[3].re - 4.0).abs() < 1e-12);
//! assert_eq!(x.rfft(None, 0, Norm::Backward).shape(), [3]);
//! ```

mod convolve;
mod freq;
mod lanes;
mod methods;
mod plan;
mod static_len;

pub use freq::{fftfreq, rfftfreq, try_fftfreq, try_rfftfreq};
pub use plan::FftReal;
pub use static_len::{RfftAxis, RfftDim};

use num_complex::Complex;

/// numpy's `norm` argument: which direction is scaled, and by what.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Norm {
    /// numpy's default: the forward transform unscaled, the inverse by `1/n`.
    #[default]
    Backward,
    /// Both directions by `1/√n` (unitary).
    Ortho,
    /// The forward transform by `1/n`, the inverse unscaled.
    Forward,
}

impl Norm {
    /// The factor of a transform of `n` points in the given direction.
    fn scale<R: FftReal>(self, n: usize, inverse: bool) -> R {
        let n = R::from(n).unwrap_or_else(R::infinity);
        match (self, inverse) {
            (Norm::Backward, false) | (Norm::Forward, true) => R::one(),
            (Norm::Ortho, _) => R::one() / n.sqrt(),
            (Norm::Backward, true) | (Norm::Forward, false) => R::one() / n,
        }
    }
}

/// An element an FFT takes: real (`f32`, `f64`) or complex; turned into a complex number.
pub trait FftElem: Copy + Send + Sync {
    /// The real type of the complex result.
    type Real: FftReal;
    /// The element as a complex number.
    fn to_complex(self) -> Complex<Self::Real>;
}
impl FftElem for f32 {
    type Real = f32;
    fn to_complex(self) -> Complex<f32> {
        Complex::new(self, 0.0)
    }
}
impl FftElem for f64 {
    type Real = f64;
    fn to_complex(self) -> Complex<f64> {
        Complex::new(self, 0.0)
    }
}
impl<R: FftReal> FftElem for Complex<R> {
    type Real = R;
    fn to_complex(self) -> Complex<R> {
        self
    }
}
