//! numpy's `convolve` and `correlate` of two vectors (modes `full`, `same`, `valid`): a
//! direct sum for short kernels and, with the `fft` feature, products of FFTs for long
//! ones (scipy's `method`: [`ConvMethod`]).

use crate::alloc::{try_vec_filled, try_vec_with_capacity};
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::exec::par::for_each_chunk_mut;
use crate::exec::Par;
use crate::extents::{Dim, Dyn};
use crate::kernels::gemm::GemmElem;
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// numpy's `mode` of `convolve` and `correlate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConvMode {
    /// Every overlap: `n + k − 1` terms (numpy's default for `convolve`).
    Full,
    /// As long as the longer input, centred on the full result.
    Same,
    /// Only full overlaps: `max(n, k) − min(n, k) + 1` terms (numpy's default for
    /// `correlate`).
    Valid,
}

/// How the sums are computed (scipy's `method`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ConvMethod {
    /// FFTs when the `fft` feature is on, the element type is `f32` or `f64` and the
    /// shorter input has at least [`FFT_FROM`] elements; the direct sum otherwise.
    #[default]
    Auto,
    /// The direct sum (exact for integers).
    Direct,
    /// FFTs where available (as `Auto` says), the direct sum otherwise.
    Fft,
}

/// The shorter input's length from which [`ConvMethod::Auto`] uses FFTs. The direct sum
/// costs `n·k` multiply-adds, the FFT route (overlap-save blocks) about `n log k`; the
/// bench `convolve_crossover` (benches/numpy2.rs) finds them equal near 64 taps
/// (docs/DESIGN.md, "Einsum and FFT", has the run).
pub const FFT_FROM: usize = 64;

/// An element `convolve` and `correlate` take: every matrix-product element type.
pub trait ConvElem: GemmElem {
    /// The complex conjugate (the element itself for real types).
    fn conj(self) -> Self;
    /// The full convolution through FFTs, where this type has them (`f32`, `f64` with the
    /// `fft` feature).
    #[doc(hidden)]
    fn fft_full(_a: &[Self], _v: &[Self], _par: Par) -> Option<Result<Vec<Self>, ShapeError>> {
        None
    }
}
macro_rules! conv_real {
    ($($t:ty),*) => {$( impl ConvElem for $t { fn conj(self) -> Self { self } } )*};
}
conv_real!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);
#[cfg(not(feature = "fft"))]
conv_real!(f32, f64);
impl<R: num_traits::Float + Send + Sync + 'static> ConvElem for num_complex::Complex<R>
where
    num_complex::Complex<R>: GemmElem,
{
    fn conj(self) -> Self {
        num_complex::Complex::conj(&self)
    }
}

/// Output elements per task of the direct sum: a block of the result stays in L1 while
/// every tap adds to it.
const BLOCK: usize = 2048;

/// The full convolution of `a` and `v` (both non-empty).
fn full<T: ConvElem>(a: &[T], v: &[T], method: ConvMethod, par: Par) -> Result<Vec<T>, ShapeError> {
    let (n, k) = (a.len(), v.len());
    if method != ConvMethod::Direct && (method == ConvMethod::Fft || n.min(k) >= FFT_FROM) {
        if let Some(r) = T::fft_full(a, v, par) {
            return r;
        }
    }
    let len = n + k - 1;
    let mut out = try_vec_filled("convolve", len, T::zero())?;
    let parallel = par.parallel_for(n.saturating_mul(k));
    for_each_chunk_mut(&mut out, BLOCK, parallel, |lo, chunk| {
        let hi = lo + chunk.len();
        for (j, &vj) in v.iter().enumerate() {
            // Output index o takes a[o − j] · v[j] for o − j inside a.
            let (o0, o1) = (lo.max(j), hi.min(j + n));
            if o0 < o1 {
                for (o, &x) in chunk[o0 - lo..o1 - lo].iter_mut().zip(&a[o0 - j..o1 - j]) {
                    *o = *o + x * vj;
                }
            }
        }
    });
    Ok(out)
}

/// The part of a full result of inputs of lengths `n` and `k` that `mode` keeps.
fn window(n: usize, k: usize, mode: ConvMode) -> (usize, usize) {
    let (long, short) = (n.max(k), n.min(k));
    match mode {
        ConvMode::Full => (0, n + k - 1),
        ConvMode::Same => ((short - 1) / 2, long),
        ConvMode::Valid => (short - 1, long - short + 1),
    }
}

fn gather<T: Copy, D: Dim, S: Layout<(D,)>, St: DenseStorage<T>>(
    op: &'static str,
    t: &Tensor<T, (D,), S, St>,
) -> Result<Vec<T>, ShapeError> {
    if t.numel() == 0 {
        return Err(ShapeError::InvalidArgument { op, reason: "an input is empty".into() });
    }
    let mut v = try_vec_with_capacity(op, t.numel())?;
    v.extend(t.iter().copied());
    Ok(v)
}

/// The window `(start, len)` of a full result, in place.
fn cut<T>(mut full: Vec<T>, (start, len): (usize, usize)) -> Vec<T> {
    full.truncate(start + len);
    full.drain(..start);
    full
}

fn finish<T>(full: Vec<T>, w: (usize, usize)) -> Result<Tensor<T, (Dyn,)>, ShapeError> {
    Tensor::try_from_vec((Dyn(w.1),), cut(full, w)).map_err(|(e, _)| e)
}

/// # Signals: convolution and correlation
impl<T: ConvElem, D: Dim, S: Layout<(D,)>, St: DenseStorage<T>> Tensor<T, (D,), S, St> {
    forms! {
        /// [`Tensor::convolve`] with an explicit choice of threads; `Err` when an input is
        /// empty (numpy raises) or the allocator refuses the result.
        pub fn try_convolve_with[D2: Dim, S2: Layout<(D2,)>, St2: DenseStorage<T>](
            &self,
            v: &Tensor<T, (D2,), S2, St2>,
            mode: ConvMode,
            method: ConvMethod,
        ) with par -> Result<Tensor<T, (Dyn,)>, ShapeError>
        {
            let (a, v) = (gather("convolve", self)?, gather("convolve", v)?);
            let w = window(a.len(), v.len(), mode);
            finish(full(&a, &v, method, par)?, w)
        }
        /// See [`Tensor::convolve`].
        ///
        /// ```
        /// use mdtensor::{ops::{ConvMethod, ConvMode}, tensor, Tensor};
        /// let empty = Tensor::<f64, mdtensor::ext![_]>::zeros([0]);
        /// assert!(tensor![1.0].try_convolve(&empty, ConvMode::Full, ConvMethod::Auto).is_err());
        /// ```
        pub fn try_convolve;
        /// numpy's `convolve(a, v, mode)`: `out[i] = Σⱼ a[i − j]·v[j]`, over every overlap
        /// (`Full`), centred to the longer input's length (`Same`), or full overlaps only
        /// (`Valid`); `method` as scipy's.
        ///
        /// ```
        /// use mdtensor::{ops::{ConvMethod, ConvMode}, tensor};
        /// let a = tensor![1.0, 2.0, 3.0];
        /// let v = tensor![0.0, 1.0, 0.5];
        /// assert_eq!(a.convolve(&v, ConvMode::Full, ConvMethod::Auto).to_vec(), [0.0, 1.0, 2.5, 4.0, 1.5]);
        /// assert_eq!(a.convolve(&v, ConvMode::Same, ConvMethod::Auto).to_vec(), [1.0, 2.5, 4.0]);
        /// assert_eq!(a.convolve(&v, ConvMode::Valid, ConvMethod::Direct).to_vec(), [2.5]);
        /// ```
        pub fn convolve;
        /// See [`Tensor::convolve`].
        pub fn convolve_with;
    }

    forms! {
        /// [`Tensor::correlate`] with an explicit choice of threads; `Err` as
        /// [`Tensor::try_convolve`].
        pub fn try_correlate_with[D2: Dim, S2: Layout<(D2,)>, St2: DenseStorage<T>](
            &self,
            v: &Tensor<T, (D2,), S2, St2>,
            mode: ConvMode,
            method: ConvMethod,
        ) with par -> Result<Tensor<T, (Dyn,)>, ShapeError>
        {
            let (a, v) = (gather("correlate", self)?, gather("correlate", v)?);
            let w = window(a.len(), v.len(), mode);
            if a.len() >= v.len() {
                // c[k] = Σₙ a[n + k]·conj(v[n]): a convolution with v reversed and conjugated.
                let r: Vec<T> = v.iter().rev().map(|x| x.conj()).collect();
                finish(full(&a, &r, method, par)?, w)
            } else {
                // numpy swaps the inputs, then reverses and conjugates the result.
                let r: Vec<T> = a.iter().rev().map(|x| x.conj()).collect();
                let mut c = cut(full(&v, &r, method, par)?, w);
                c.reverse();
                c.iter_mut().for_each(|x| *x = x.conj());
                Tensor::try_from_vec((Dyn(w.1),), c).map_err(|(e, _)| e)
            }
        }
        /// See [`Tensor::correlate`].
        pub fn try_correlate;
        /// numpy's `correlate(a, v, mode)`: `c[k] = Σₙ a[n + k]·conj(v[n])` (numpy's default
        /// mode is `Valid`).
        ///
        /// ```
        /// use mdtensor::{ops::{ConvMethod, ConvMode}, tensor};
        /// let a = tensor![1.0, 2.0, 3.0];
        /// let v = tensor![0.0, 1.0, 0.5];
        /// assert_eq!(a.correlate(&v, ConvMode::Valid, ConvMethod::Auto).to_vec(), [3.5]);
        /// assert_eq!(a.correlate(&v, ConvMode::Full, ConvMethod::Auto).to_vec(), [0.5, 2.0, 3.5, 3.0, 0.0]);
        /// ```
        pub fn correlate;
        /// See [`Tensor::correlate`].
        pub fn correlate_with;
    }
}
