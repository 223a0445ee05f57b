//! `softmax` and `log_softmax` of device tensors along one axis: the host's names,
//! axis rules (`::<I>` checked by the type, `_dyn` at run time) and stable algorithm
//! (each fiber shifted by its maximum), one block per fiber ([`softmax_source_for`](super::softmax_source_for)).

use super::eval::materialize;
use super::kernel::DeviceExpr;
use super::launch::{launch, KArg};
use super::reduce::DeviceTensor;
use super::reduce_kernel::{
    reduce_block, reduce_grid, softmax_source_for, ReduceIndex, ReducePlan, REDUCE_BLOCK_MAX, REDUCE_KERNEL,
    SOFTMAX_REGS,
};
use super::reduce_program::plan_args;
use super::storage::{Cuda, DeviceElem, DeviceStorage};
use super::tensor::alloc;
use crate::error::{DeviceError, ShapeError};
use crate::exec::forms::forms;
use crate::extents::{Axis, AxisAt, Extents};
use crate::layout::{Layout, RowMajor};
use crate::tensor::Tensor;
use cudarc::driver::{DevicePtr, DevicePtrMut};

/// `softmax` (`log_softmax` when `log`) of `x` along `axis`, into a new row-major tensor.
fn softmax_along<T: DeviceElem, E: Extents, S: Layout<E>, St: DeviceStorage<T>>(
    x: &Tensor<T, E, S, St>,
    op: &'static str,
    axis: usize,
    log: bool,
) -> Result<DeviceTensor<T, E>, DeviceError> {
    let rank = x.rank();
    if axis >= rank {
        return Err(DeviceError::Shape(ShapeError::AxisOutOfRange { op, axis, rank }));
    }
    let dev = x.device().clone();
    let ext = x.extents().clone();
    let n = ext.checked_numel(op, core::mem::size_of::<T>())?;
    let mut out = alloc::<T>(&dev, n)?;
    let dims = x.dims();
    let mask: Vec<bool> = (0..rank).map(|d| d == axis).collect();
    let plan = ReducePlan::new(dims.as_ref(), x.strides().as_ref(), &mask);
    let ostrides = <RowMajor as Layout<E>>::strides(&ext, &());
    match reduce_grid(plan.n_out, dev.max_blocks()) {
        Some(grid) if plan.len > 0 => {
            // Output positions are below `n_out * len` too, so the plan's width covers them.
            let ix = ReduceIndex::of(&plan);
            let cached = plan.len <= REDUCE_BLOCK_MAX as usize * SOFTMAX_REGS;
            let tree = match (log, cached) {
                (false, false) => "mdt_softmax",
                (false, true) => "mdt_softmax/cached",
                (true, false) => "mdt_log_softmax",
                (true, true) => "mdt_log_softmax/cached",
            };
            let key = ix.kernel_key(tree, T::C_TYPE);
            let f = dev.kernel(key, REDUCE_KERNEL, || softmax_source_for::<T>(log, &ix, cached))?;
            let stream = dev.stream();
            let (buf, start, _) = x.storage.region();
            let first = (start + S::offset(&x.mapping)) as u64 * core::mem::size_of::<T>() as u64;
            let (in_ptr, in_sync) = buf.device_ptr(stream);
            let (out_ptr, out_sync) = out.device_ptr_mut(stream);
            let args = softmax_args::<T>(&plan, ostrides.as_ref());
            // SAFETY: `softmax_args` follows `softmax_source`'s list (slot 0 the input at
            // its first element, slot 1 the output); the kernel reads the elements of `x`
            // (valid indices decomposed by the plan, inside the region by the dense
            // invariant) and writes each of the `n` row-major outputs once; the buffers
            // and their stream events live until the launch is queued.
            unsafe { launch(&dev, &f, (grid, reduce_block(plan.len)), &args, &[in_ptr + first, out_ptr], op)? };
            drop((in_sync, out_sync));
        }
        // No fibers, or empty ones: no elements to write.
        _ => {}
    }
    // SAFETY: `n` row-major elements, all written above (none when empty).
    Ok(unsafe { Tensor::from_parts_unchecked(Cuda { buf: out, dev }, ext, ()) })
}

/// The arguments of [`softmax_source`](super::softmax_source)'s kernel for the fibers of `plan` (the softmax
/// axis reduced), writing a row-major output of `out_strides`: buffer slot 0 is the input
/// at its element `[0, …, 0]`, slot 1 the output.
///
/// ```
/// use mdtensor::device::{softmax_args, KArg, ReducePlan};
/// let plan = ReducePlan::new(&[2, 3], &[3, 1], &[false, true]);
/// let a = softmax_args::<f32>(&plan, &[3, 1]);
/// assert_eq!(a[..3], [KArg::Buf(0), KArg::Buf(1), KArg::Elem(f32::NEG_INFINITY)]);
/// assert_eq!(a[3..5], [KArg::Int(2), KArg::Int(3)]); // fibers, fiber length
/// ```
pub fn softmax_args<T: DeviceElem>(plan: &ReducePlan, out_strides: &[isize]) -> Vec<KArg<T>> {
    let mut args = vec![KArg::Buf(0), KArg::Buf(1), KArg::Elem(T::neg_infinity())];
    args.extend(plan_args(plan));
    args.extend(out_strides.iter().map(|&s| KArg::Int(s as i64)));
    args
}

/// `softmax` and `log_softmax` of device tensors along one axis, with the host's names
/// and results (within rounding): each fiber is shifted by its maximum before
/// exponentiation, so inputs of ±1000 are fine; a NaN in a fiber makes it NaN. The static
/// axis `::<I>` must exist (`I` past a static rank does not compile); `_dyn` takes a
/// run-time axis, negative from the end. Results are new row-major device tensors.
///
/// ```no_run
/// use mdtensor::device::{Device, DeviceSoftmax};
/// use mdtensor::tensor;
/// let dev = Device::new(0)?;
/// let x = tensor![[1000.0f64, 1000.0], [0.0, f64::ln(3.0)]].to_device(&dev)?;
/// let s = x.softmax::<1>().to_host()?;
/// assert!((s[[1, 1]] - 0.75).abs() < 1e-12);
/// let l = x.log_softmax_dyn(-1).to_host()?;
/// assert!((l[[0, 0]] + std::f64::consts::LN_2).abs() < 1e-12);
/// # Ok::<(), mdtensor::Error>(())
/// ```
pub trait DeviceSoftmax {
    /// The element type.
    type Elem: DeviceElem;
    /// The extents (kept by the result).
    type Extents: Extents;
    /// `exp(x) / Σ exp(x)` along axis `I`; `Err` for [`DynRank`](crate::DynRank) when
    /// `I >= rank`, or when the device fails.
    fn try_softmax<const I: usize>(&self) -> Result<DeviceTensor<Self::Elem, Self::Extents>, DeviceError>
    where
        Self::Extents: AxisAt<I>;
    /// `exp(x) / Σ exp(x)` along axis `I`.
    fn softmax<const I: usize>(&self) -> DeviceTensor<Self::Elem, Self::Extents>
    where
        Self::Extents: AxisAt<I>;
    /// `exp(x) / Σ exp(x)` along the run-time axis `axis`; `Err` outside `-rank..rank`.
    fn try_softmax_dyn(&self, axis: impl Into<Axis>) -> Result<DeviceTensor<Self::Elem, Self::Extents>, DeviceError>;
    /// `exp(x) / Σ exp(x)` along the run-time axis `axis`.
    fn softmax_dyn(&self, axis: impl Into<Axis>) -> DeviceTensor<Self::Elem, Self::Extents>;
    /// `x - log Σ exp(x)` along axis `I`; `Err` as [`DeviceSoftmax::try_softmax`].
    fn try_log_softmax<const I: usize>(&self) -> Result<DeviceTensor<Self::Elem, Self::Extents>, DeviceError>
    where
        Self::Extents: AxisAt<I>;
    /// `x - log Σ exp(x)` along axis `I`.
    fn log_softmax<const I: usize>(&self) -> DeviceTensor<Self::Elem, Self::Extents>
    where
        Self::Extents: AxisAt<I>;
    /// `x - log Σ exp(x)` along the run-time axis `axis`; `Err` outside `-rank..rank`.
    fn try_log_softmax_dyn(
        &self,
        axis: impl Into<Axis>,
    ) -> Result<DeviceTensor<Self::Elem, Self::Extents>, DeviceError>;
    /// `x - log Σ exp(x)` along the run-time axis `axis`.
    fn log_softmax_dyn(&self, axis: impl Into<Axis>) -> DeviceTensor<Self::Elem, Self::Extents>;
}

/// Writes the `try_` and plain forms of the two impls from one list, through `forms!`.
macro_rules! softmax_impls {
    ($this:ident, rank $rank:expr, |$x:ident, $op:ident, $axis:ident, $log:ident| $run:expr) => {
        forms! {
            fn try_softmax[const I: usize]::<I>(&$this) -> Result<DeviceTensor<Self::Elem, Self::Extents>, DeviceError>
            where [Self::Extents: AxisAt<I>]
            {
                let ($x, $op, $axis, $log) = ($this, "softmax", I, false);
                $run
            }
            fn softmax;
        }
        forms! {
            fn try_softmax_dyn[](&$this, axis: impl Into<Axis>) -> Result<DeviceTensor<Self::Elem, Self::Extents>, DeviceError>
            {
                let ($x, $op, $log) = ($this, "softmax_dyn", false);
                let $axis = axis.into().resolve($op, $rank)?;
                $run
            }
            fn softmax_dyn;
        }
        forms! {
            fn try_log_softmax[const I: usize]::<I>(&$this) -> Result<DeviceTensor<Self::Elem, Self::Extents>, DeviceError>
            where [Self::Extents: AxisAt<I>]
            {
                let ($x, $op, $axis, $log) = ($this, "log_softmax", I, true);
                $run
            }
            fn log_softmax;
        }
        forms! {
            fn try_log_softmax_dyn[](&$this, axis: impl Into<Axis>) -> Result<DeviceTensor<Self::Elem, Self::Extents>, DeviceError>
            {
                let ($x, $op, $log) = ($this, "log_softmax_dyn", true);
                let $axis = axis.into().resolve($op, $rank)?;
                $run
            }
            fn log_softmax_dyn;
        }
    };
}

impl<T: DeviceElem, E: Extents, S: Layout<E>, St: DeviceStorage<T>> DeviceSoftmax for Tensor<T, E, S, St> {
    type Elem = T;
    type Extents = E;
    softmax_impls!(self, rank self.rank(), |x, op, axis, log| softmax_along(x, op, axis, log));
}

/// A device expression is evaluated once, with one fused elementwise kernel, into a
/// row-major temporary on its operands' device, whose fibers are then normalised.
impl<X: DeviceExpr> DeviceSoftmax for X {
    type Elem = X::Item;
    type Extents = X::Extents;
    softmax_impls!(self, rank self.shape()?.as_ref().len(), |x, op, axis, log| softmax_along(
        &materialize(x)?,
        op,
        axis,
        log
    ));
}
