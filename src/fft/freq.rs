//! The frequencies of a transform's terms (`fftfreq`, `rfftfreq`) and the shifts that put
//! the zero frequency in the middle (`fftshift`, `ifftshift`).

use crate::alloc::try_vec_with_capacity;
use crate::error::{or_panic, ShapeError};
use crate::extents::{Axis, Dyn, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// See [`fftfreq`]; `Err` only when the allocator refuses `n` elements.
pub fn try_fftfreq(n: usize, d: f64) -> Result<Tensor<f64, (Dyn,)>, ShapeError> {
    let mut v = try_vec_with_capacity("fftfreq", n)?;
    let step = 1.0 / (n as f64 * d);
    let pos = n.div_ceil(2);
    v.extend((0..pos).map(|k| k as f64 * step));
    v.extend((0..n - pos).map(|k| -((n / 2 - k) as f64) * step));
    Tensor::try_from_vec((Dyn(n),), v).map_err(|(e, _)| e)
}

/// numpy's `fftfreq(n, d)`: the frequency of each term of an `n`-point transform with
/// sample spacing `d`, `[0, 1, …, ⌈n/2⌉ − 1, −⌊n/2⌋, …, −1] / (d·n)`.
///
/// ```
/// use mdtensor::fft::fftfreq;
/// assert_eq!(fftfreq(4, 0.5).to_vec(), [0.0, 0.5, -1.0, -0.5]);
/// assert_eq!(fftfreq(5, 1.0).to_vec(), [0.0, 0.2, 0.4, -0.4, -0.2]);
/// ```
#[track_caller]
pub fn fftfreq(n: usize, d: f64) -> Tensor<f64, (Dyn,)> {
    or_panic(try_fftfreq(n, d))
}

/// See [`rfftfreq`]; `Err` only when the allocator refuses the result.
pub fn try_rfftfreq(n: usize, d: f64) -> Result<Tensor<f64, (Dyn,)>, ShapeError> {
    let len = n / 2 + 1;
    let mut v = try_vec_with_capacity("rfftfreq", len)?;
    v.extend((0..len).map(|k| k as f64 / (n as f64 * d)));
    Tensor::try_from_vec((Dyn(len),), v).map_err(|(e, _)| e)
}

/// numpy's `rfftfreq(n, d)`: the frequencies of the `n/2 + 1` terms of an `rfft`.
///
/// ```
/// use mdtensor::fft::rfftfreq;
/// assert_eq!(rfftfreq(4, 0.5).to_vec(), [0.0, 0.5, 1.0]);
/// ```
#[track_caller]
pub fn rfftfreq(n: usize, d: f64) -> Tensor<f64, (Dyn,)> {
    or_panic(try_rfftfreq(n, d))
}

/// The tensor rolled along `axes` (all by default) by half of each extent, forwards
/// (`fftshift`) or back.
fn shifted<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    axes: Option<&[isize]>,
    forward: bool,
) -> Result<Tensor<T, E>, ShapeError> {
    let dims = t.shape();
    let rank = dims.len();
    let mut shift = vec![0usize; rank];
    let axes: Vec<usize> = match axes {
        Some(a) => a.iter().map(|&x| Axis::from(x).resolve(op, rank)).collect::<Result<_, _>>()?,
        None => (0..rank).collect(),
    };
    for a in axes {
        let n = dims[a];
        // Repeated axes roll twice, as numpy's.
        let by = if forward { n / 2 } else { n - n / 2 };
        shift[a] = if n == 0 { 0 } else { (shift[a] + by) % n };
    }
    let mut out = try_vec_with_capacity(op, t.numel())?;
    if t.numel() > 0 {
        let mut idx = vec![0usize; rank];
        let mut src = vec![0usize; rank];
        loop {
            for k in 0..rank {
                // out[i] = in[i − shift], as numpy's roll.
                src[k] = (idx[k] + dims[k] - shift[k]) % dims[k];
            }
            out.push(t.try_get_dyn(&src).expect("an index inside the extents").clone());
            let mut k = rank;
            loop {
                if k == 0 {
                    return Tensor::try_from_vec(t.extents().clone(), out).map_err(|(e, _)| e);
                }
                k -= 1;
                idx[k] += 1;
                if idx[k] < dims[k] {
                    break;
                }
                idx[k] = 0;
            }
        }
    }
    Tensor::try_from_vec(t.extents().clone(), out).map_err(|(e, _)| e)
}

/// # FFT (feature `fft`): shifts
impl<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    crate::exec::forms::forms! {
        /// See [`Tensor::fftshift`]; `Err` for an axis out of range.
        pub fn try_fftshift[](&self, axes: Option<&[isize]>) -> Result<Tensor<T, E>, ShapeError>
        {
            shifted(self, "fftshift", axes, true)
        }
        /// numpy's `fftshift(x, axes)`: each axis (all by default) rolled by half its
        /// extent, so the zero frequency sits in the middle.
        ///
        /// ```
        /// use mdtensor::{fft::fftfreq, tensor};
        /// assert_eq!(fftfreq(5, 1.0).fftshift(None).to_vec(), [-0.4, -0.2, 0.0, 0.2, 0.4]);
        /// let a = tensor![[1, 2, 3], [4, 5, 6]];
        /// assert_eq!(a.fftshift(Some(&[1])).to_vec(), [3, 1, 2, 6, 4, 5]);
        /// ```
        pub fn fftshift;
    }
    crate::exec::forms::forms! {
        /// See [`Tensor::ifftshift`]; `Err` for an axis out of range.
        pub fn try_ifftshift[](&self, axes: Option<&[isize]>) -> Result<Tensor<T, E>, ShapeError>
        {
            shifted(self, "ifftshift", axes, false)
        }
        /// numpy's `ifftshift(x, axes)`: the inverse of [`Tensor::fftshift`].
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![1, 2, 3, 4, 5];
        /// assert_eq!(a.fftshift(None).ifftshift(None), a);
        /// ```
        pub fn ifftshift;
    }
}
