//! Plans: rustfft's complex plans and realfft's real-input ones, cached per length and
//! direction for the process.

use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use realfft::{ComplexToReal, RealFftPlanner, RealToComplex};
use rustfft::{Fft, FftDirection, FftNum, FftPlanner};

/// The real element types of FFTs: `f32` and `f64`.
pub trait FftReal: FftNum + num_traits::Float {
    /// The process-wide planner of this type (rustfft keeps one plan per length and
    /// direction, so a length planned once is reused by every later call).
    #[doc(hidden)]
    fn planner() -> &'static Mutex<FftPlanner<Self>>;
    /// The process-wide planner of real-input transforms (realfft caches as rustfft).
    #[doc(hidden)]
    fn real_planner() -> &'static Mutex<RealFftPlanner<Self>>;
}

macro_rules! fft_real {
    ($($t:ty),*) => {$(
        impl FftReal for $t {
            fn planner() -> &'static Mutex<FftPlanner<$t>> {
                static PLANNER: OnceLock<Mutex<FftPlanner<$t>>> = OnceLock::new();
                PLANNER.get_or_init(|| Mutex::new(FftPlanner::new()))
            }
            fn real_planner() -> &'static Mutex<RealFftPlanner<$t>> {
                static PLANNER: OnceLock<Mutex<RealFftPlanner<$t>>> = OnceLock::new();
                PLANNER.get_or_init(|| Mutex::new(RealFftPlanner::new()))
            }
        }
    )*};
}
fft_real!(f32, f64);

/// The complex plan of a length and direction, from the cache (planned on first use).
pub(crate) fn plan<R: FftReal>(n: usize, inverse: bool) -> Arc<dyn Fft<R>> {
    let mut planner = R::planner().lock().unwrap_or_else(PoisonError::into_inner);
    planner.plan_fft(n, if inverse { FftDirection::Inverse } else { FftDirection::Forward })
}

/// The real-to-complex plan of `n` points (`n/2 + 1` terms out), from the cache.
pub(crate) fn plan_r2c<R: FftReal>(n: usize) -> Arc<dyn RealToComplex<R>> {
    R::real_planner().lock().unwrap_or_else(PoisonError::into_inner).plan_fft_forward(n)
}

/// The complex-to-real plan of `n` points (`n/2 + 1` terms in), from the cache.
pub(crate) fn plan_c2r<R: FftReal>(n: usize) -> Arc<dyn ComplexToReal<R>> {
    R::real_planner().lock().unwrap_or_else(PoisonError::into_inner).plan_fft_inverse(n)
}
