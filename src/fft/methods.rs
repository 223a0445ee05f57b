//! The transforms as tensor methods: one axis (`fft`, `ifft`, `rfft`, `irfft`), several
//! (`fftn`, `ifftn`, `fft2`, `ifft2`), and the shifts (`fftshift`, `ifftshift`).

use num_complex::Complex;

use super::lanes::{transform_lanes, ComplexLanes, InverseRealLanes, LaneFft, RealLanes, Source};
use super::plan::FftReal;
use super::static_len::RfftAxis;
use super::{FftElem, Norm};
use crate::alloc::try_vec_with_capacity;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::exec::Par;
use crate::extents::{Axis, AxisAt, DynRank, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// Which transform of one axis.
#[derive(Clone, Copy)]
enum Kind {
    Fft,
    Ifft,
    Rfft,
    Irfft,
}

impl Kind {
    fn op(self) -> &'static str {
        match self {
            Kind::Fft => "fft",
            Kind::Ifft => "ifft",
            Kind::Rfft => "rfft",
            Kind::Irfft => "irfft",
        }
    }
}

/// The transform `lanes(n)` of every lane along `axis` (each made into the transform's
/// input by `conv`), as a row-major [`DynRank`] tensor.
fn along<T: FftElem, E: Extents, S: Layout<E>, St: DenseStorage<T>, L: LaneFft<T::Real>>(
    t: &Tensor<T, E, S, St>,
    (n, axis, norm): (Option<usize>, Axis, Norm),
    kind: Kind,
    par: Par,
    lanes: impl FnOnce(usize) -> L,
    conv: impl Fn(T) -> L::In + Sync,
) -> Result<Tensor<L::Out, DynRank>, ShapeError> {
    let op = kind.op();
    let axis = axis.resolve(op, t.rank())?;
    let dims = t.shape();
    let m = dims[axis];
    let n = match (n, kind) {
        (Some(n), _) => n,
        // numpy's default for irfft: the real signal whose spectrum has m terms.
        (None, Kind::Irfft) => 2 * m.saturating_sub(1),
        (None, _) => m,
    };
    if n == 0 {
        return Err(ShapeError::InvalidArgument {
            op,
            reason: format!("{n} points along axis {axis} (extent {m}): an FFT needs at least one"),
        });
    }
    // Row-major operands are read in place; any other layout is copied once.
    let owned;
    let src = match t.as_slice() {
        Some(s) => s,
        None => {
            owned = t.to_vec_op(op)?;
            &owned[..]
        }
    };
    // Planning allocates about n points outside the crate's fallible allocation: ask
    // for the result's room first, so that a length too large is an `Err`, not an abort.
    let keep = if matches!(kind, Kind::Rfft) { n / 2 + 1 } else { n };
    let room = dims.iter().enumerate().try_fold(1usize, |p, (k, &d)| p.checked_mul(if k == axis { keep } else { d }));
    let room = room.ok_or_else(|| ShapeError::Overflow { op, dims: dims.clone() })?;
    drop(try_vec_with_capacity::<Complex<T::Real>>(op, room.max(n))?);
    let lf = lanes(n);
    let scale = norm.scale::<T::Real>(n, matches!(kind, Kind::Ifft | Kind::Irfft));
    let out = transform_lanes(op, &Source { src, dims: &dims, axis, conv }, &lf, scale, par)?;
    let mut out_dims = dims;
    out_dims[axis] = lf.out_len();
    Tensor::try_from_vec(DynRank::new(out_dims), out).map_err(|(e, _)| e)
}

/// `fft` (or `ifft`) along one axis.
fn complex_along<T: FftElem, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    (n, axis): (Option<usize>, Axis),
    norm: Norm,
    inverse: bool,
    par: Par,
) -> Result<Tensor<Complex<T::Real>, DynRank>, ShapeError> {
    let kind = if inverse { Kind::Ifft } else { Kind::Fft };
    along(t, (n, axis, norm), kind, par, |n| ComplexLanes::new(n, inverse), |x: T| x.to_complex())
}

/// The result with the operand's rank as its extents type.
fn with_rank<X, E: Extents>(t: Tensor<X, DynRank>) -> Result<Tensor<X, E::Dynamic>, ShapeError> {
    t.try_into_extents::<E::Dynamic>().map_err(|(e, _)| e)
}

/// The result with static extents `E2` (the same values, checked again at run time).
fn with_extents<X, E2: Extents>(t: Tensor<X, DynRank>) -> Result<Tensor<X, E2>, ShapeError> {
    t.try_into_extents::<E2>().map_err(|(e, _)| e)
}

/// The axes and lengths of an n-dimensional transform, as numpy's `fftn` reads `s` and
/// `axes`: all axes by default, the last `len(s)` when only `s` is given.
fn axes_and_lengths(
    op: &'static str,
    dims: &[usize],
    s: Option<&[usize]>,
    axes: Option<&[isize]>,
) -> Result<Vec<(usize, Option<usize>)>, ShapeError> {
    let rank = dims.len();
    let axes: Vec<usize> = match (axes, s) {
        (Some(a), _) => a.iter().map(|&x| Axis::from(x).resolve(op, rank)).collect::<Result<_, _>>()?,
        (None, Some(s)) if s.len() > rank => {
            return Err(ShapeError::InvalidArgument {
                op,
                reason: format!("{} lengths in `s` for a tensor of rank {rank}", s.len()),
            })
        }
        (None, Some(s)) => (rank - s.len()..rank).collect(),
        (None, None) => (0..rank).collect(),
    };
    match s {
        Some(s) if s.len() != axes.len() => Err(ShapeError::InvalidArgument {
            op,
            reason: format!("{} lengths in `s` for {} axes", s.len(), axes.len()),
        }),
        Some(s) => Ok(axes.into_iter().zip(s.iter().map(|&n| Some(n))).collect()),
        None => Ok(axes.into_iter().map(|a| (a, None)).collect()),
    }
}

/// numpy's `fftn`/`ifftn`: one-axis transforms, one after another.
fn along_axes<T: FftElem, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    s: Option<&[usize]>,
    axes: Option<&[isize]>,
    norm: Norm,
    kind: Kind,
    par: Par,
) -> Result<Tensor<Complex<T::Real>, DynRank>, ShapeError> {
    let plan = axes_and_lengths(kind.op(), &t.shape(), s, axes)?;
    let Some((&(a0, n0), rest)) = plan.split_first() else {
        // No axes: numpy returns the input unchanged (as complex).
        let mut data = try_vec_with_capacity(kind.op(), t.numel())?;
        data.extend(t.iter().map(|x| x.to_complex()));
        return Tensor::try_from_vec(DynRank::new(t.shape()), data).map_err(|(e, _)| e);
    };
    let inverse = matches!(kind, Kind::Ifft);
    let mut out = complex_along(t, (n0, Axis::from(a0)), norm, inverse, par)?;
    for &(a, n) in rest {
        out = complex_along(&out, (n, Axis::from(a)), norm, inverse, par)?;
    }
    Ok(out)
}

/// numpy's `rfftn`: `rfft` along the last of the axes, then `fft` along the others.
fn real_axes<R: FftReal + FftElem<Real = R>, E: Extents, S: Layout<E>, St: DenseStorage<R>>(
    t: &Tensor<R, E, S, St>,
    (s, axes): (Option<&[usize]>, Option<&[isize]>),
    norm: Norm,
    par: Par,
) -> Result<Tensor<Complex<R>, DynRank>, ShapeError> {
    let plan = axes_and_lengths("rfftn", &t.shape(), s, axes)?;
    let Some((&(last, n), rest)) = plan.split_last() else {
        return Err(no_axes("rfftn"));
    };
    let mut out = along(t, (n, Axis::from(last), norm), Kind::Rfft, par, RealLanes::new, |x: R| x)?;
    for &(a, n) in rest.iter().rev() {
        out = complex_along(&out, (n, Axis::from(a)), norm, false, par)?;
    }
    Ok(out)
}

/// numpy's `irfftn`: `ifft` along all but the last of the axes, then `irfft` along it.
fn inverse_real_axes<R: FftReal, E: Extents, S: Layout<E>, St: DenseStorage<Complex<R>>>(
    t: &Tensor<Complex<R>, E, S, St>,
    (s, axes): (Option<&[usize]>, Option<&[isize]>),
    norm: Norm,
    par: Par,
) -> Result<Tensor<R, DynRank>, ShapeError> {
    let plan = axes_and_lengths("irfftn", &t.shape(), s, axes)?;
    let Some((&(last, n), rest)) = plan.split_last() else {
        return Err(no_axes("irfftn"));
    };
    let Some((&(a0, n0), others)) = rest.split_first() else {
        return along(t, (n, Axis::from(last), norm), Kind::Irfft, par, InverseRealLanes::new, |x: Complex<R>| x);
    };
    let mut out = complex_along(t, (n0, Axis::from(a0)), norm, true, par)?;
    for &(a, n) in others {
        out = complex_along(&out, (n, Axis::from(a)), norm, true, par)?;
    }
    along(&out, (n, Axis::from(last), norm), Kind::Irfft, par, InverseRealLanes::new, |x: Complex<R>| x)
}

fn no_axes(op: &'static str) -> ShapeError {
    ShapeError::InvalidArgument { op, reason: "no axes: the real transform needs a last axis".into() }
}

/// # FFT (feature `fft`)
impl<T: FftElem, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// [`Tensor::fft`] with an explicit choice of threads; `Err` for an axis out of
        /// range or no points (`n == 0`, or an empty axis without `n`).
        pub fn try_fft_with[](&self, n: Option<usize>, axis: impl Into<Axis>, norm: Norm) with par
            -> Result<Tensor<Complex<T::Real>, E::Dynamic>, ShapeError>
        {
            with_rank::<_, E>(complex_along(self, (n, axis.into()), norm, false, par)?)
        }
        /// See [`Tensor::fft`].
        ///
        /// ```
        /// use mdtensor::{fft::Norm, tensor};
        /// assert!(tensor![1.0, 2.0].try_fft(Some(0), 0, Norm::Backward).is_err());
        /// assert!(tensor![1.0, 2.0].try_fft(None, 1, Norm::Backward).is_err());
        /// ```
        pub fn try_fft;
        /// numpy's `fft(a, n, axis, norm)`: the discrete Fourier transform of every lane along
        /// `axis`, each cropped or zero-padded to `n` points first (`None`: the axis's extent).
        ///
        /// ```
        /// use mdtensor::{fft::Norm, tensor, Complex64};
        /// let a = tensor![[1.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]];
        /// let f = a.fft(None, -1, Norm::Backward);
        /// assert_eq!(f.to_vec()[..4], [Complex64::new(1.0, 0.0); 4]);
        /// assert_eq!(f.to_vec()[4..], [Complex64::new(4.0, 0.0), Complex64::new(0.0, 0.0), Complex64::new(0.0, 0.0), Complex64::new(0.0, 0.0)]);
        /// assert_eq!(a.fft(Some(8), 1, Norm::Ortho).shape(), [2, 8]);
        /// ```
        pub fn fft;
        /// See [`Tensor::fft`].
        pub fn fft_with;
    }

    forms! {
        /// [`Tensor::ifft`] with an explicit choice of threads; `Err` as [`Tensor::try_fft`].
        pub fn try_ifft_with[](&self, n: Option<usize>, axis: impl Into<Axis>, norm: Norm) with par
            -> Result<Tensor<Complex<T::Real>, E::Dynamic>, ShapeError>
        {
            with_rank::<_, E>(complex_along(self, (n, axis.into()), norm, true, par)?)
        }
        /// See [`Tensor::ifft`].
        pub fn try_ifft;
        /// numpy's `ifft(a, n, axis, norm)`: the inverse transform (scaled by `1/n` with
        /// [`Norm::Backward`]).
        ///
        /// ```
        /// use mdtensor::{fft::Norm, tensor};
        /// let x = tensor![1.0_f64, -2.0, 0.5];
        /// let back = x.fft(None, 0, Norm::Ortho).ifft(None, 0, Norm::Ortho);
        /// assert!(back.iter().zip(x.iter()).all(|(b, x)| (b.re - x).abs() < 1e-12 && b.im.abs() < 1e-12));
        /// ```
        pub fn ifft;
        /// See [`Tensor::ifft`].
        pub fn ifft_with;
    }

    forms! {
        /// [`Tensor::fft_axis`] with an explicit choice of threads; `Err` for an empty
        /// axis, or a [`DynRank`] tensor without axis `I`.
        pub fn try_fft_axis_with[const I: usize]::<I>(&self, norm: Norm) with par
            -> Result<Tensor<Complex<T::Real>, E>, ShapeError>
        where [E: AxisAt<I>]
        {
            with_extents(complex_along(self, (None, Axis::from(I)), norm, false, par)?)
        }
        /// See [`Tensor::fft_axis`].
        pub fn try_fft_axis;
        /// [`Tensor::fft`] along axis `I` named at compile time, of every point (numpy's
        /// `n=None`): the result keeps the operand's extents in its type.
        ///
        /// ```
        /// use mdtensor::{ext, fft::Norm, tensor};
        /// let a = tensor![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
        /// let f = a.fft_axis::<1>(Norm::Backward);
        /// let _: &ext![2, 3] = f.extents();
        /// assert_eq!(f.to_vec(), a.fft(None, 1, Norm::Backward).to_vec());
        /// ```
        pub fn fft_axis;
        /// See [`Tensor::fft_axis`].
        pub fn fft_axis_with;
    }

    forms! {
        /// [`Tensor::ifft_axis`] with an explicit choice of threads; `Err` as
        /// [`Tensor::try_fft_axis`].
        pub fn try_ifft_axis_with[const I: usize]::<I>(&self, norm: Norm) with par
            -> Result<Tensor<Complex<T::Real>, E>, ShapeError>
        where [E: AxisAt<I>]
        {
            with_extents(complex_along(self, (None, Axis::from(I)), norm, true, par)?)
        }
        /// See [`Tensor::ifft_axis`].
        pub fn try_ifft_axis;
        /// [`Tensor::ifft`] along axis `I` named at compile time, of every point: the
        /// result keeps the operand's extents in its type.
        ///
        /// ```
        /// use mdtensor::{ext, fft::Norm, tensor};
        /// let a = tensor![1.0_f64, 2.0, 3.0];
        /// let back = a.fft_axis::<0>(Norm::Ortho).ifft_axis::<0>(Norm::Ortho);
        /// let _: &ext![3] = back.extents();
        /// assert!(back.iter().zip(a.iter()).all(|(b, x)| (b.re - x).abs() < 1e-12));
        /// ```
        pub fn ifft_axis;
        /// See [`Tensor::ifft_axis`].
        pub fn ifft_axis_with;
    }

    forms! {
        /// [`Tensor::fftn`] with an explicit choice of threads; `Err` for a bad axis, lengths
        /// that do not pair with the axes, or no points along an axis.
        pub fn try_fftn_with[](&self, s: Option<&[usize]>, axes: Option<&[isize]>, norm: Norm) with par
            -> Result<Tensor<Complex<T::Real>, E::Dynamic>, ShapeError>
        {
            with_rank::<_, E>(along_axes(self, s, axes, norm, Kind::Fft, par)?)
        }
        /// See [`Tensor::fftn`].
        pub fn try_fftn;
        /// numpy's `fftn(a, s, axes, norm)`: the transform over several axes (all by
        /// default; the last `s.len()` when only `s` is given), `s` cropping or padding each.
        ///
        /// ```
        /// use mdtensor::{fft::Norm, tensor, Complex64};
        /// let a = tensor![[1.0, 2.0], [3.0, 4.0]];
        /// let f = a.fftn(None, None, Norm::Backward);
        /// assert_eq!(f.to_vec()[0], Complex64::new(10.0, 0.0));
        /// assert_eq!(f, a.fft(None, 0, Norm::Backward).fft(None, 1, Norm::Backward));
        /// ```
        pub fn fftn;
        /// See [`Tensor::fftn`].
        pub fn fftn_with;
    }

    forms! {
        /// [`Tensor::ifftn`] with an explicit choice of threads; `Err` as [`Tensor::try_fftn`].
        pub fn try_ifftn_with[](&self, s: Option<&[usize]>, axes: Option<&[isize]>, norm: Norm) with par
            -> Result<Tensor<Complex<T::Real>, E::Dynamic>, ShapeError>
        {
            with_rank::<_, E>(along_axes(self, s, axes, norm, Kind::Ifft, par)?)
        }
        /// See [`Tensor::ifftn`].
        pub fn try_ifftn;
        /// numpy's `ifftn(a, s, axes, norm)`.
        ///
        /// ```
        /// use mdtensor::{fft::Norm, tensor};
        /// let a = tensor![[1.0_f64, 2.0, 3.0], [4.0, 5.0, 6.0]];
        /// let back = a.fftn(None, None, Norm::Backward).ifftn(None, None, Norm::Backward);
        /// assert!(back.iter().zip(a.iter()).all(|(b, x)| (b.re - x).abs() < 1e-12));
        /// ```
        pub fn ifftn;
        /// See [`Tensor::ifftn`].
        pub fn ifftn_with;
    }

    forms! {
        /// See [`Tensor::fft2`]; `Err` as [`Tensor::try_fftn`] (and for rank below 2).
        pub fn try_fft2[](&self, s: Option<&[usize]>, norm: Norm) -> Result<Tensor<Complex<T::Real>, E::Dynamic>, ShapeError>
        {
            self.try_fftn_with(s, Some(&[-2, -1]), norm, Par::Auto)
        }
        /// numpy's `fft2(a, s, norm)`: [`Tensor::fftn`] over the last two axes.
        ///
        /// ```
        /// use mdtensor::{fft::Norm, tensor};
        /// let a = tensor![[1.0, 2.0], [3.0, 4.0]];
        /// assert_eq!(a.fft2(None, Norm::Backward), a.fftn(None, None, Norm::Backward));
        /// ```
        pub fn fft2;
    }

    forms! {
        /// See [`Tensor::ifft2`]; `Err` as [`Tensor::try_fft2`].
        pub fn try_ifft2[](&self, s: Option<&[usize]>, norm: Norm) -> Result<Tensor<Complex<T::Real>, E::Dynamic>, ShapeError>
        {
            self.try_ifftn_with(s, Some(&[-2, -1]), norm, Par::Auto)
        }
        /// numpy's `ifft2(a, s, norm)`: [`Tensor::ifftn`] over the last two axes.
        ///
        /// ```
        /// use mdtensor::{fft::Norm, tensor};
        /// let a = tensor![[1.0, 2.0], [3.0, 4.0]];
        /// assert_eq!(a.ifft2(None, Norm::Forward), a.fft2(None, Norm::Backward).map(|z| z.conj()));
        /// ```
        pub fn ifft2;
    }
}

/// # FFT (feature `fft`): real signals
impl<R: FftReal + FftElem<Real = R>, E: Extents, S: Layout<E>, St: DenseStorage<R>> Tensor<R, E, S, St> {
    forms! {
        /// [`Tensor::rfft`] with an explicit choice of threads; `Err` as [`Tensor::try_fft`].
        pub fn try_rfft_with[](&self, n: Option<usize>, axis: impl Into<Axis>, norm: Norm) with par
            -> Result<Tensor<Complex<R>, E::Dynamic>, ShapeError>
        {
            with_rank::<_, E>(along(self, (n, axis.into(), norm), Kind::Rfft, par, RealLanes::new, |x: R| x)?)
        }
        /// See [`Tensor::rfft`].
        pub fn try_rfft;
        /// numpy's `rfft(a, n, axis, norm)`: the transform of a real signal, its first
        /// `n/2 + 1` terms (the rest are their conjugates).
        ///
        /// ```
        /// use mdtensor::{fft::Norm, tensor, Complex64};
        /// let x = tensor![1.0, 2.0, 3.0, 4.0, 5.0];
        /// let r = x.rfft(None, 0, Norm::Backward);
        /// assert_eq!(r.shape(), [3]);
        /// assert_eq!(r.to_vec()[..], x.fft(None, 0, Norm::Backward).to_vec()[..3]);
        /// ```
        pub fn rfft;
        /// See [`Tensor::rfft`].
        pub fn rfft_with;
    }

    forms! {
        /// [`Tensor::rfft_axis`] with an explicit choice of threads; `Err` as
        /// [`Tensor::try_fft_axis`].
        pub fn try_rfft_axis_with[const I: usize]::<I>(&self, norm: Norm) with par
            -> Result<Tensor<Complex<R>, <E as RfftAxis<I>>::Output>, ShapeError>
        where [E: RfftAxis<I>]
        {
            with_extents(along(self, (None, Axis::from(I), norm), Kind::Rfft, par, RealLanes::new, |x: R| x)?)
        }
        /// See [`Tensor::rfft_axis`].
        pub fn try_rfft_axis;
        /// [`Tensor::rfft`] along axis `I` named at compile time, of every point: a static
        /// extent `N` gives `N/2 + 1` terms in the result's type ([`RfftAxis`]).
        ///
        /// ```
        /// use mdtensor::{ext, fft::Norm, tensor};
        /// let x = tensor![[1.0, 2.0, 3.0, 4.0, 5.0], [0.0, 1.0, 0.0, 1.0, 0.0]];
        /// let r = x.rfft_axis::<1>(Norm::Backward);
        /// let _: &ext![2, 3] = r.extents();
        /// assert_eq!(r.to_vec(), x.rfft(None, 1, Norm::Backward).to_vec());
        /// ```
        pub fn rfft_axis;
        /// See [`Tensor::rfft_axis`].
        pub fn rfft_axis_with;
    }

    forms! {
        /// [`Tensor::rfftn`] with an explicit choice of threads; `Err` as
        /// [`Tensor::try_fftn`], and for no axes.
        pub fn try_rfftn_with[](&self, s: Option<&[usize]>, axes: Option<&[isize]>, norm: Norm) with par
            -> Result<Tensor<Complex<R>, E::Dynamic>, ShapeError>
        {
            with_rank::<_, E>(real_axes(self, (s, axes), norm, par)?)
        }
        /// See [`Tensor::rfftn`].
        ///
        /// ```
        /// use mdtensor::{fft::Norm, tensor};
        /// assert!(tensor![[1.0, 2.0]].try_rfftn(None, Some(&[]), Norm::Backward).is_err());
        /// ```
        pub fn try_rfftn;
        /// numpy's `rfftn(a, s, axes, norm)`: [`Tensor::rfft`] along the last of the axes
        /// (all by default; the last `s.len()` when only `s` is given), then
        /// [`Tensor::fft`] along the others; the last axis keeps `s[-1]/2 + 1` terms.
        ///
        /// ```
        /// use mdtensor::{fft::Norm, tensor};
        /// let a = tensor![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
        /// let r = a.rfftn(None, None, Norm::Backward);
        /// assert_eq!(r.shape(), [2, 2]);
        /// let full = a.fftn(None, None, Norm::Backward);
        /// for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
        ///     assert!((r[[i, j]] - full[[i, j]]).norm() < 1e-12);
        /// }
        /// ```
        pub fn rfftn;
        /// See [`Tensor::rfftn`].
        pub fn rfftn_with;
    }

    forms! {
        /// See [`Tensor::rfft2`]; `Err` as [`Tensor::try_rfftn`] (and for rank below 2).
        pub fn try_rfft2[](&self, s: Option<&[usize]>, norm: Norm) -> Result<Tensor<Complex<R>, E::Dynamic>, ShapeError>
        {
            self.try_rfftn_with(s, Some(&[-2, -1]), norm, Par::Auto)
        }
        /// numpy's `rfft2(a, s, norm)`: [`Tensor::rfftn`] over the last two axes.
        ///
        /// ```
        /// use mdtensor::{fft::Norm, tensor};
        /// let a = tensor![[1.0, 2.0], [3.0, 4.0]];
        /// assert_eq!(a.rfft2(None, Norm::Backward), a.rfftn(None, None, Norm::Backward));
        /// ```
        pub fn rfft2;
    }
}

/// # FFT (feature `fft`): real signals
impl<R: FftReal, E: Extents, S: Layout<E>, St: DenseStorage<Complex<R>>> Tensor<Complex<R>, E, S, St> {
    forms! {
        /// [`Tensor::irfft`] with an explicit choice of threads; `Err` as
        /// [`Tensor::try_fft`] (numpy's default `n` of an axis of extent 1 is 0 points).
        pub fn try_irfft_with[](&self, n: Option<usize>, axis: impl Into<Axis>, norm: Norm) with par
            -> Result<Tensor<R, E::Dynamic>, ShapeError>
        {
            with_rank::<_, E>(along(self, (n, axis.into(), norm), Kind::Irfft, par, InverseRealLanes::new, |x: Complex<R>| x)?)
        }
        /// See [`Tensor::irfft`].
        pub fn try_irfft;
        /// numpy's `irfft(a, n, axis, norm)`: the real signal of `n` points (default
        /// `2·(m − 1)` for `m` terms) whose [`Tensor::rfft`] is this spectrum.
        ///
        /// ```
        /// use mdtensor::{fft::Norm, tensor};
        /// let x = tensor![1.0_f64, 2.0, 3.0, 4.0, 5.0];
        /// let back = x.rfft(None, 0, Norm::Backward).irfft(Some(5), 0, Norm::Backward);
        /// assert!(back.iter().zip(x.iter()).all(|(b, x)| (b - x).abs() < 1e-12));
        /// ```
        pub fn irfft;
        /// See [`Tensor::irfft`].
        pub fn irfft_with;
    }

    forms! {
        /// [`Tensor::irfftn`] with an explicit choice of threads; `Err` as
        /// [`Tensor::try_rfftn`].
        pub fn try_irfftn_with[](&self, s: Option<&[usize]>, axes: Option<&[isize]>, norm: Norm) with par
            -> Result<Tensor<R, E::Dynamic>, ShapeError>
        {
            with_rank::<_, E>(inverse_real_axes(self, (s, axes), norm, par)?)
        }
        /// See [`Tensor::irfftn`].
        pub fn try_irfftn;
        /// numpy's `irfftn(a, s, axes, norm)`: [`Tensor::ifft`] along all but the last of
        /// the axes, then [`Tensor::irfft`] along it (`s[-1]` points, by default
        /// `2·(m − 1)` for `m` terms).
        ///
        /// ```
        /// use mdtensor::{fft::Norm, tensor};
        /// let a = tensor![[1.0_f64, 2.0, 3.0], [4.0, 5.0, 6.0]];
        /// let back = a.rfftn(None, None, Norm::Ortho).irfftn(Some(&[2, 3]), None, Norm::Ortho);
        /// assert!(back.iter().zip(a.iter()).all(|(b, x)| (b - x).abs() < 1e-12));
        /// ```
        pub fn irfftn;
        /// See [`Tensor::irfftn`].
        pub fn irfftn_with;
    }

    forms! {
        /// See [`Tensor::irfft2`]; `Err` as [`Tensor::try_irfftn`] (and for rank below 2).
        pub fn try_irfft2[](&self, s: Option<&[usize]>, norm: Norm) -> Result<Tensor<R, E::Dynamic>, ShapeError>
        {
            self.try_irfftn_with(s, Some(&[-2, -1]), norm, Par::Auto)
        }
        /// numpy's `irfft2(a, s, norm)`: [`Tensor::irfftn`] over the last two axes.
        ///
        /// ```
        /// use mdtensor::{fft::Norm, tensor};
        /// let a = tensor![[1.0_f64, 2.0], [3.0, 4.0]];
        /// let back = a.rfft2(None, Norm::Backward).irfft2(Some(&[2, 2]), Norm::Backward);
        /// assert!(back.iter().zip(a.iter()).all(|(b, x)| (b - x).abs() < 1e-12));
        /// ```
        pub fn irfft2;
    }
}
