//! CUDA device storage (feature `cuda`): tensors in GPU memory with every compile-time
//! shape check of host tensors.
//!
//! A device is a storage policy: `Tensor<f32, ext![M, N], RowMajor, Cuda<f32>>` has the
//! extents, stride policy and shape rules of any tensor; only where its elements live
//! differs. Host-only operations (indexing, `iter`, `as_slice`, `to_vec`, closures,
//! files, ndarray/nalgebra views) need the host storage traits, which [`Cuda`] does not
//! implement, so on a device tensor they are compile errors; [`Tensor::to_host`](crate::Tensor::to_host) copies
//! back first.
//!
//! * [`Device::new`] opens a GPU and never panics: the [`probe`] looks for the driver,
//!   NVRTC and cuBLAS before cudarc loads them, and every failure is a
//!   [`DeviceError`](crate::error::DeviceError) saying what was not found and where it
//!   looked.
//! * Moves are explicit and checked: [`Tensor::to_device`](crate::Tensor::to_device), [`Tensor::to_host`](crate::Tensor::to_host),
//!   [`Tensor::copy_from_host`](crate::Tensor::copy_from_host), [`Tensor::copy_to_host`](crate::Tensor::copy_to_host).
//! * Expressions keep the host's operator syntax (`&a + &b * 2.0`), with the same static
//!   shape rules ([`ExprShape`](crate::ops::ExprShape) is shared); [`DeviceEval::eval_on`]
//!   and [`Tensor::device_assign`](crate::Tensor::device_assign) run the whole tree as one generated CUDA kernel,
//!   compiled by NVRTC at run time and cached on the device per expression type, element
//!   type, rank and layout class of its walk plan (the walk with axes merged
//!   and, where positions fit, 32-bit arithmetic). The host's `.eval()` and `.to_vec()` of
//!   a device expression ([`DeviceEvalHint`]) and a host tensor inside one are compile
//!   errors that say what to call instead (`.eval_on(&dev)`, `.to_device(&dev)`).
//! * Views never copy, and they are the host's own methods: `view`, `view_mut`, `t`,
//!   `slice` (`s![..]`), `slice_static`, `index_axis`, `flip`, `permute`, `squeeze`,
//!   `reshape`, `split_at`, `diag` and `broadcast_to` of a device tensor give `CudaRef`
//!   (`CudaMut`) views of the same buffer, with the host's static checks; every device
//!   operation reads them in place (the view machinery is written over
//!   [`Viewable`](crate::storage::Viewable), which the device storages implement).
//!
//! * Reductions ([`DeviceReductions`]: `sum`, `prod`, `mean`, `var(ddof)`, `std(ddof)`,
//!   `max`, `min`, `argmax`, `argmin` over everything, `::<I>`, `_dyn`, `_axes`, `_axes_keepdims`) and `softmax` /
//!   `log_softmax` ([`DeviceSoftmax`]) keep the host's names, results and result extents
//!   (the host's `RemoveAxis`, `RemoveAxisDyn`, `AxisAt`); each is one generated kernel
//!   per operation, element type, mode and index specialisation (the axes it decomposes, 32- or
//!   64-bit), on any strides; a schedule picks one block per output,
//!   one thread per output (when the outputs are the inner axes in memory), and cuts
//!   long reduced ranges into chunks combined by a second launch when there are too few
//!   outputs to fill the GPU. Values stay on the device; positions
//!   (`argmax_axis`) and whole-tensor results come back to the host.
//! * Compound assignment: `t += x`, `-=`, `*=`, `/=`, `%=` with a scalar, a device tensor
//!   or a device expression broadcast to `t` (`try_device_add_assign`, … for the
//!   `Result`), one fused kernel that reads each element of `t` where it writes it.
//! * Reductions and softmax of a device expression (`(&a * 2.0).sum()`) evaluate it once
//!   into a temporary with the fused kernel, then reduce that.
//! * Comparisons (`gt`, `ge`, `lt`, `le`, `eq_elem`, `ne_elem` of [`DeviceMath`]) and
//!   [`select`] are nodes of the fused kernel, as on the host.
//! * Products of any rank ([`DeviceMatmul`]: numpy's `matmul` rule through the host's
//!   `MatMulShape`, batch axes broadcast) run as cuBLAS strided-batched gemm
//!   (one call per run of batch axes), into a new tensor or an existing one of any layout (`matmul_into`);
//!   `f32` uses TF32 only with [`Precision::Tf32`].
//!
//! These are trait methods rather than inherent ones: the host's `sum` and `sum_axis` are
//! inherent over every storage of the crate (through `SumStorage`), and a second inherent
//! method of one name cannot be added for the device storages. Import them with
//! [`prelude`] (`use mdtensor::device::prelude::*`, beside `mdtensor::prelude::*`).
//!
//! Operations run in order on the device's one stream ([`Device::stream`]): where host
//! operations take a [`Par`](crate::Par) for threads, device operations take the
//! stream of their tensors' device.
//!
//! ```no_run
//! use mdtensor::device::{Device, DeviceEval, DeviceMath};
//! use mdtensor::{ext, Tensor};
//! let dev = match Device::new(0) {
//!     Ok(d) => d,
//!     Err(e) => { eprintln!("{e}"); return Ok(()); }
//! };
//! let x = Tensor::<f32, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| (i + j) as f32).to_device(&dev)?;
//! let y = (&x * 0.5 + 1.0).exp().eval_on(&dev)?;
//! let back = y.to_host()?;
//! assert_eq!(back.dims(), [2, 3]);
//! # Ok::<(), mdtensor::Error>(())
//! ```

mod compound;
mod elementwise_plan;
mod eval;
mod eval_hint;
mod gemm_layout;
mod handle;
mod kernel;
mod launch;
mod matmul;
pub mod probe;
mod reduce;
mod reduce_kernel;
mod reduce_program;
mod reduce_schedule;
mod select;
mod signature;
mod softmax;
mod staging;
mod storage;
mod tensor;

pub use crate::ops::select;
pub use eval::{DeviceEval, DeviceEvaluated, DeviceResult};
pub use eval_hint::{DeviceEvalHint, MixedReductionHint};
pub use handle::{Device, StreamSync};
pub use kernel::{DeviceExpr, DeviceMath};
pub use matmul::{DeviceMatmul, MatMulInto, Precision};
pub use reduce::{DeviceReductions, DeviceTensor};
pub use select::DeviceCond;
pub use softmax::DeviceSoftmax;
pub use storage::{Cuda, CudaMut, CudaRef, DeviceElem, DeviceStorage, DeviceStorageMut};
pub use tensor::PINNED_THRESHOLD_BYTES;

// Code generation and launch planning: public for the crate's GPU-free tests (sources,
// argument lists, plans, schedules, run on the CPU emulator) and benches, not part of
// the documented surface.
#[doc(hidden)]
pub use compound::compound_source;
#[doc(hidden)]
pub use elementwise_plan::ElementwisePlan;
#[doc(hidden)]
pub use handle::{compile_cubin, compile_ptx, IndexWidth, LayoutClass};
#[doc(hidden)]
pub use kernel::{kernel_source, launch_grid, BLOCK, KERNEL_NAME};
#[doc(hidden)]
pub use launch::KArg;
#[doc(hidden)]
pub use matmul::{gemm_plan, operand_layout, GemmPlan};
#[doc(hidden)]
pub use reduce_kernel::{
    reduce_block, reduce_grid, reduce_source, reduce_source_for, reduce_source_mode, softmax_source,
    softmax_source_for, ReduceIndex, ReduceLayout, ReduceMode, ReduceOp, ReducePlan, ReduceStage, REDUCE_BLOCK_MAX,
    REDUCE_KERNEL, SOFTMAX_REGS,
};
#[doc(hidden)]
pub use reduce_program::{reduce_program, ReduceSlot};
#[doc(hidden)]
pub use reduce_schedule::{reduce_launch, ReduceSchedule, BLOCK_CHUNK_MIN, THREAD_CHUNK_MIN};
#[doc(hidden)]
pub use softmax::softmax_args;

/// What device code imports: the device, its storages and every device trait a forward
/// pass calls (evaluation, math and comparisons, products, reductions, softmax).
/// `use mdtensor::device::prelude::*` sits beside `use mdtensor::prelude::*` without a
/// clash: the traits are implemented for device expressions only, and `select` is the
/// host's own function.
///
/// ```no_run
/// use mdtensor::device::prelude::*;
/// use mdtensor::prelude::*;
/// use mdtensor::Tensor;
/// let dev = Device::new(0)?;
/// let x = Tensor::<f32, ext![2, 3]>::ones(ext![2, 3]).to_device(&dev)?;
/// let w = Tensor::<f32, ext![3, 4]>::ones(ext![3, 4]).to_device(&dev)?;
/// let mut h = select(x.gt(0.0f32), &x, 0.0f32).eval_on(&dev)?;
/// h *= 0.5f32;
/// let p = (x.try_matmul(&w)? * 2.0f32).relu().eval_on(&dev)?.softmax::<1>();
/// assert_eq!(p.sum_axis::<1>().to_host()?.dims(), [2]);
/// # Ok::<(), mdtensor::Error>(())
/// ```
pub mod prelude {
    pub use super::{
        Cuda, CudaMut, CudaRef, Device, DeviceEval, DeviceEvalHint, DeviceMath, DeviceMatmul, DeviceReductions,
        DeviceSoftmax, MixedReductionHint, Precision,
    };
    pub use crate::ops::select;
}
