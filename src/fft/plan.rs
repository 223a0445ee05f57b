//! Plans and the lane engine: rustfft plans cached per length and direction, and FFTs of
//! every lane of a buffer whose lanes are contiguous.

use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use num_complex::Complex;
use rustfft::{Fft, FftDirection, FftNum, FftPlanner};

use crate::alloc::try_vec_filled;
use crate::error::ShapeError;
use crate::exec::par::for_each_chunk_mut;
use crate::exec::Par;

/// The real element types of FFTs: `f32` and `f64`.
pub trait FftReal: FftNum + num_traits::Float {
    /// The process-wide planner of this type (rustfft keeps one plan per length and
    /// direction, so a length planned once is reused by every later call).
    #[doc(hidden)]
    fn planner() -> &'static Mutex<FftPlanner<Self>>;
}

macro_rules! fft_real {
    ($($t:ty),*) => {$(
        impl FftReal for $t {
            fn planner() -> &'static Mutex<FftPlanner<$t>> {
                static PLANNER: OnceLock<Mutex<FftPlanner<$t>>> = OnceLock::new();
                PLANNER.get_or_init(|| Mutex::new(FftPlanner::new()))
            }
        }
    )*};
}
fft_real!(f32, f64);

/// The plan of a length and direction, from the cache (planned on first use).
pub(crate) fn plan<R: FftReal>(n: usize, inverse: bool) -> Arc<dyn Fft<R>> {
    let mut planner = R::planner().lock().unwrap_or_else(PoisonError::into_inner);
    planner.plan_fft(n, if inverse { FftDirection::Inverse } else { FftDirection::Forward })
}

/// How a lane of the FFT's input is made from a lane of the operand.
#[derive(Clone, Copy)]
pub(crate) enum Fill {
    /// The first `n` elements, zero-padded (numpy's `n` for `fft`/`ifft`/`rfft`).
    Crop,
    /// The full spectrum of a real signal of length `n` from its first `n/2 + 1` terms
    /// (`irfft`): the imaginary parts of the zero and Nyquist terms are ignored, as numpy's.
    Hermitian,
}

/// FFTs of `lanes` lanes of `m` elements (contiguous, one after another in `input`), each
/// made into `n` points by `fill`, transformed, scaled by `scale`, and the first `keep`
/// results stored: the output holds `lanes` lanes of `keep` elements.
#[allow(clippy::too_many_arguments)] // the lane geometry, the transform and the threads
pub(crate) fn run_lanes<R: FftReal>(
    op: &'static str,
    input: &[Complex<R>],
    lanes: usize,
    m: usize,
    n: usize,
    keep: usize,
    fill: Fill,
    inverse: bool,
    scale: R,
    par: Par,
) -> Result<Vec<Complex<R>>, ShapeError> {
    let total = lanes.checked_mul(keep).ok_or(ShapeError::Overflow { op, dims: vec![lanes, keep] })?;
    let zero = Complex::new(R::zero(), R::zero());
    let mut out = try_vec_filled(op, total, zero)?;
    if total == 0 {
        return Ok(out);
    }
    let fft = plan::<R>(n, inverse);
    let scratch_len = fft.get_inplace_scratch_len();
    // Lanes per task: enough work per task to pay for the hand-off.
    let per = (1 << 15) / n.max(1);
    let per = per.clamp(1, lanes);
    let parallel = par.parallel_for(lanes.saturating_mul(n));
    let failed: Mutex<Option<ShapeError>> = Mutex::new(None);
    for_each_chunk_mut(&mut out, per * keep, parallel, |first, chunk| {
        let bufs = try_vec_filled(op, n, zero).and_then(|b| Ok((b, try_vec_filled(op, scratch_len, zero)?)));
        let (mut buf, mut scratch) = match bufs {
            Ok(b) => b,
            Err(e) => {
                *failed.lock().unwrap_or_else(PoisonError::into_inner) = Some(e);
                return;
            }
        };
        for (k, dst) in chunk.chunks_mut(keep).enumerate() {
            let lane = first / keep + k;
            let src = &input[lane * m..(lane + 1) * m];
            match fill {
                Fill::Crop => {
                    let c = m.min(n);
                    buf[..c].copy_from_slice(&src[..c]);
                    buf[c..].fill(zero);
                }
                Fill::Hermitian => {
                    let half = n / 2 + 1;
                    let c = m.min(half);
                    buf.fill(zero);
                    buf[..c].copy_from_slice(&src[..c]);
                    buf[0].im = R::zero();
                    if n.is_multiple_of(2) && c == half {
                        buf[n / 2].im = R::zero();
                    }
                    for j in 1..half {
                        if n - j >= half {
                            buf[n - j] = buf[j].conj();
                        }
                    }
                }
            }
            fft.process_with_scratch(&mut buf, &mut scratch);
            for (d, s) in dst.iter_mut().zip(&buf) {
                *d = *s * scale;
            }
        }
    });
    match failed.into_inner().unwrap_or_else(PoisonError::into_inner) {
        Some(e) => Err(e),
        None => Ok(out),
    }
}
