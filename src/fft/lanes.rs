//! The lane engine: the transform of every lane along one axis of a row-major buffer,
//! written straight into a row-major result with the axis in place.
//!
//! Lanes are transformed in batches through reused buffers (one set per task, none per
//! lane). Contiguous lanes (the last axis) are gathered a batch at a time and transformed
//! straight into the result; strided lanes (any other axis) are gathered a few
//! neighbouring lanes at a time, so that each read and each write touches a run of
//! consecutive elements rather than one element per cache line. Tasks split the lanes
//! (or, when there are few outer blocks, the columns of each block) across rayon's threads.

use std::sync::{Arc, Mutex, PoisonError};

use core::ops::Mul;

use num_complex::Complex;
use num_traits::Zero;
use realfft::{ComplexToReal, RealToComplex};
use rustfft::Fft;

use super::plan::{plan, plan_c2r, plan_r2c, FftReal};
use crate::alloc::{try_vec_filled, try_vec_with_capacity};
use crate::error::ShapeError;
use crate::exec::par::{for_each_chunk_mut, map_pieces, Work};
use crate::exec::Par;

/// Elements of a batch buffer: big enough to amortise a call, small enough for L2.
const BATCH: usize = 1 << 14;
/// Neighbouring strided lanes gathered together (a run of this many elements per read).
const STRIDED: usize = 16;

/// One transform of lanes: what a lane reads, what it writes, and the call between.
pub(crate) trait LaneFft<R: FftReal>: Sync {
    /// The element of a prepared input lane.
    type In: Copy + Send + Sync + Zero;
    /// The element of a result lane.
    type Out: Copy + Send + Sync + Zero + Mul<R, Output = Self::Out>;
    /// Elements of a prepared input lane.
    fn in_len(&self) -> usize;
    /// Elements of a result lane.
    fn out_len(&self) -> usize;
    /// Complex scratch elements of one call.
    fn scratch_len(&self) -> usize;
    /// Makes a gathered lane a valid input (`irfft`: the imaginary parts numpy ignores).
    fn prepare(&self, _lane: &mut [Self::In]) {}
    /// Transforms whole lanes of `input` (clobbered) into `output`.
    fn run(&self, input: &mut [Self::In], output: &mut [Self::Out], scratch: &mut [Complex<R>]) -> Result<(), String>;
}

/// Complex to complex (`fft`, `ifft`) of `n` points.
pub(crate) struct ComplexLanes<R: FftReal>(Arc<dyn Fft<R>>);

impl<R: FftReal> ComplexLanes<R> {
    pub(crate) fn new(n: usize, inverse: bool) -> Self {
        ComplexLanes(plan(n, inverse))
    }
}

impl<R: FftReal> LaneFft<R> for ComplexLanes<R> {
    type In = Complex<R>;
    type Out = Complex<R>;
    fn in_len(&self) -> usize {
        self.0.len()
    }
    fn out_len(&self) -> usize {
        self.0.len()
    }
    fn scratch_len(&self) -> usize {
        self.0.get_outofplace_scratch_len()
    }
    fn run(
        &self,
        input: &mut [Complex<R>],
        output: &mut [Complex<R>],
        scratch: &mut [Complex<R>],
    ) -> Result<(), String> {
        // One call for the whole batch: rustfft loops over the lanes itself.
        self.0.process_outofplace_with_scratch(input, output, scratch);
        Ok(())
    }
}

/// `f(input lane, result lane)` for each lane of a batch (realfft takes one lane a call).
fn per_lane<R: FftReal, L: LaneFft<R>>(
    lf: &L,
    input: &mut [L::In],
    output: &mut [L::Out],
    mut f: impl FnMut(&mut [L::In], &mut [L::Out]) -> Result<(), realfft::FftError>,
) -> Result<(), String> {
    for (i, o) in input.chunks_exact_mut(lf.in_len()).zip(output.chunks_exact_mut(lf.out_len())) {
        f(i, o).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Real to complex (`rfft`): `n` reals in, `n/2 + 1` terms out.
pub(crate) struct RealLanes<R: FftReal>(Arc<dyn RealToComplex<R>>);

impl<R: FftReal> RealLanes<R> {
    pub(crate) fn new(n: usize) -> Self {
        RealLanes(plan_r2c(n))
    }
}

impl<R: FftReal> LaneFft<R> for RealLanes<R> {
    type In = R;
    type Out = Complex<R>;
    fn in_len(&self) -> usize {
        self.0.len()
    }
    fn out_len(&self) -> usize {
        self.0.len() / 2 + 1
    }
    fn scratch_len(&self) -> usize {
        self.0.get_scratch_len()
    }
    fn run(&self, input: &mut [R], output: &mut [Complex<R>], scratch: &mut [Complex<R>]) -> Result<(), String> {
        per_lane(self, input, output, |i, o| self.0.process_with_scratch(i, o, scratch))
    }
}

/// Complex to real (`irfft`): `n/2 + 1` terms in, `n` reals out.
pub(crate) struct InverseRealLanes<R: FftReal>(Arc<dyn ComplexToReal<R>>);

impl<R: FftReal> InverseRealLanes<R> {
    pub(crate) fn new(n: usize) -> Self {
        InverseRealLanes(plan_c2r(n))
    }
}

impl<R: FftReal> LaneFft<R> for InverseRealLanes<R> {
    type In = Complex<R>;
    type Out = R;
    fn in_len(&self) -> usize {
        self.0.len() / 2 + 1
    }
    fn out_len(&self) -> usize {
        self.0.len()
    }
    fn scratch_len(&self) -> usize {
        self.0.get_scratch_len()
    }
    fn prepare(&self, lane: &mut [Complex<R>]) {
        // The zero term and (even n) the Nyquist term of a real signal are real; numpy
        // drops their imaginary parts, realfft would refuse them.
        lane[0].im = R::zero();
        if self.0.len().is_multiple_of(2) {
            lane[lane.len() - 1].im = R::zero();
        }
    }
    fn run(&self, input: &mut [Complex<R>], output: &mut [R], scratch: &mut [Complex<R>]) -> Result<(), String> {
        per_lane(self, input, output, |i, o| self.0.process_with_scratch(i, o, scratch))
    }
}

/// The row-major operand of a transform along `axis`: `src` holds `dims` in row-major
/// order, `conv` turns an element into the transform's input.
pub(crate) struct Source<'a, T, C> {
    pub(crate) src: &'a [T],
    pub(crate) dims: &'a [usize],
    pub(crate) axis: usize,
    pub(crate) conv: C,
}

/// The batch buffers of one task.
struct Buffers<I, O, R> {
    input: Vec<I>,
    output: Vec<O>,
    scratch: Vec<Complex<R>>,
}

fn buffers<R: FftReal, L: LaneFft<R>>(
    op: &'static str,
    lf: &L,
    lanes: usize,
    staged: bool,
) -> Result<Buffers<L::In, L::Out, R>, ShapeError> {
    // Big fresh buffers cost their page faults: the result buffer only where results are
    // staged before going to their strided places.
    let size = |len: usize| lanes.checked_mul(len).ok_or(ShapeError::Overflow { op, dims: vec![lanes, len] });
    Ok(Buffers {
        input: try_vec_filled(op, size(lf.in_len())?, L::In::zero())?,
        output: try_vec_filled(op, if staged { size(lf.out_len())? } else { 0 }, L::Out::zero())?,
        scratch: try_vec_filled(op, lf.scratch_len(), Complex::new(R::zero(), R::zero()))?,
    })
}

/// The first error a task met.
struct Failure(Mutex<Option<ShapeError>>);

impl Failure {
    fn keep(&self, r: Result<(), ShapeError>) {
        if let Err(e) = r {
            self.0.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert(e);
        }
    }
    fn into_result<V>(self, v: V) -> Result<V, ShapeError> {
        match self.0.into_inner().unwrap_or_else(PoisonError::into_inner) {
            Some(e) => Err(e),
            None => Ok(v),
        }
    }
}

fn failed(op: &'static str, reason: String) -> ShapeError {
    ShapeError::InvalidArgument { op, reason }
}

/// The transform `lf` of every lane along `s.axis`, each lane cropped or zero-padded to
/// the transform's input length, the results scaled by `scale`: a row-major buffer of
/// the operand's extents with the axis's extent replaced by `lf.out_len()`.
pub(crate) fn transform_lanes<R, T, C, L>(
    op: &'static str,
    s: &Source<'_, T, C>,
    lf: &L,
    scale: R,
    par: Par,
) -> Result<Vec<L::Out>, ShapeError>
where
    R: FftReal,
    T: Copy + Sync,
    C: Fn(T) -> L::In + Sync,
    L: LaneFft<R>,
{
    let (outer, inner): (usize, usize) = (s.dims[..s.axis].iter().product(), s.dims[s.axis + 1..].iter().product());
    let keep = lf.out_len();
    let overflow = || ShapeError::Overflow { op, dims: vec![outer, keep, inner] };
    let total = outer.checked_mul(keep).and_then(|x| x.checked_mul(inner)).ok_or_else(overflow)?;
    let mut out = try_vec_filled(op, total, L::Out::zero())?;
    if total == 0 {
        return Ok(out);
    }
    let lanes = outer * inner;
    let job = Job { op, s, lf, scale };
    let work = lanes.saturating_mul(lf.in_len().max(keep));
    let pieces = par.pieces(Work::Elements(work), 4);
    let failure = Failure(Mutex::new(None));
    if inner == 1 {
        // Contiguous lanes: each task owns whole result lanes.
        let per = lanes.div_ceil(pieces);
        for_each_chunk_mut(&mut out, per * keep, pieces > 1, |first, chunk| {
            failure.keep(job.contiguous(first / keep, chunk));
        });
    } else if pieces <= 1 || outer >= pieces {
        let per = outer.div_ceil(pieces);
        for_each_chunk_mut(&mut out, per * keep * inner, pieces > 1, |first, chunk| {
            let r = (|| {
                let mut bufs = buffers(op, lf, STRIDED.min(inner), true)?;
                for (k, block) in chunk.chunks_mut(keep * inner).enumerate() {
                    let mut rows = try_vec_with_capacity(op, keep)?;
                    rows.extend(block.chunks_mut(inner));
                    job.strided((first / (keep * inner) + k, 0), &mut rows, &mut bufs)?;
                }
                Ok(())
            })();
            failure.keep(r);
        });
    } else {
        // Few outer blocks (the first axis of a matrix): split each block's columns.
        let cols = pieces.div_ceil(outer).min(inner.div_ceil(STRIDED));
        let width = inner.div_ceil(cols).div_ceil(STRIDED) * STRIDED;
        let cols = inner.div_ceil(width);
        let mut tasks = try_vec_with_capacity(op, outer * cols)?;
        for (o, block) in out.chunks_mut(keep * inner).enumerate() {
            let first = tasks.len();
            for c in 0..cols {
                tasks.push((o, c * width, try_vec_with_capacity(op, keep)?));
            }
            for row in block.chunks_mut(inner) {
                for (c, part) in row.chunks_mut(width).enumerate() {
                    tasks[first + c].2.push(part);
                }
            }
        }
        for r in map_pieces(tasks, |(o, i0, mut rows)| -> Result<(), ShapeError> {
            let mut bufs = buffers(op, lf, STRIDED.min(inner), true)?;
            job.strided((o, i0), &mut rows, &mut bufs)
        }) {
            failure.keep(r);
        }
    }
    failure.into_result(out)
}

/// Copies `c` elements of a source lane and pads the rest of the input lane.
fn fill<T: Copy, I: Copy>(dst: &mut [I], src: impl Iterator<Item = T>, conv: &impl Fn(T) -> I, zero: I) {
    let mut k = 0;
    for (d, x) in dst.iter_mut().zip(src) {
        *d = conv(x);
        k += 1;
    }
    dst[k..].fill(zero);
}

/// One transform of every lane: the operand, the transform, the scale.
struct Job<'a, 'b, R, T, C, L> {
    op: &'static str,
    s: &'a Source<'b, T, C>,
    lf: &'a L,
    scale: R,
}

impl<R, T, C, L> Job<'_, '_, R, T, C, L>
where
    R: FftReal,
    T: Copy,
    C: Fn(T) -> L::In,
    L: LaneFft<R>,
{
    /// The lanes `lane0..` of contiguous lanes, into `chunk` (whole result lanes).
    fn contiguous(&self, lane0: usize, chunk: &mut [L::Out]) -> Result<(), ShapeError> {
        let Job { op, s, lf, scale } = *self;
        let (n, keep, m) = (lf.in_len(), lf.out_len(), s.dims[s.axis]);
        let batch = (BATCH / n.max(1)).clamp(1, chunk.len() / keep);
        let mut bufs = buffers(op, lf, batch, false)?;
        for (b, dst) in chunk.chunks_mut(batch * keep).enumerate() {
            let count = dst.len() / keep;
            let input = &mut bufs.input[..count * n];
            for (k, lane) in input.chunks_exact_mut(n).enumerate() {
                let start = (lane0 + b * batch + k) * m;
                fill(lane, s.src[start..start + m].iter().copied(), &s.conv, L::In::zero());
                lf.prepare(lane);
            }
            lf.run(input, dst, &mut bufs.scratch).map_err(|e| failed(op, e))?;
            if scale != R::one() {
                dst.iter_mut().for_each(|x| *x = *x * scale);
            }
        }
        Ok(())
    }

    /// The lanes of outer block `o` at columns `i0..i0 + width` (`rows[j]` is step `j` of the
    /// result at those columns), [`STRIDED`] neighbouring lanes per batch.
    fn strided(
        &self,
        (o, i0): (usize, usize),
        rows: &mut [&mut [L::Out]],
        bufs: &mut Buffers<L::In, L::Out, R>,
    ) -> Result<(), ShapeError> {
        let Job { op, s, lf, scale } = *self;
        let (n, keep, m) = (lf.in_len(), lf.out_len(), s.dims[s.axis]);
        let inner = s.dims[s.axis + 1..].iter().product::<usize>();
        let width = rows.first().map_or(0, |r| r.len());
        let c = m.min(n);
        for ib in (0..width).step_by(STRIDED) {
            let bw = STRIDED.min(width - ib);
            let base = o * m * inner + i0 + ib;
            let input = &mut bufs.input[..bw * n];
            for j in 0..c {
                let run = &s.src[base + j * inner..base + j * inner + bw];
                for (b, &x) in run.iter().enumerate() {
                    input[b * n + j] = (s.conv)(x);
                }
            }
            for lane in input.chunks_exact_mut(n) {
                lane[c..].fill(L::In::zero());
                lf.prepare(lane);
            }
            let output = &mut bufs.output[..bw * keep];
            lf.run(input, output, &mut bufs.scratch).map_err(|e| failed(op, e))?;
            for (j, row) in rows.iter_mut().enumerate() {
                for (b, d) in row[ib..ib + bw].iter_mut().enumerate() {
                    *d = output[b * keep + j] * scale;
                }
            }
        }
        Ok(())
    }
}
