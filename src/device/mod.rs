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
//!   type, rank and [`LayoutClass`] of its [`ElementwisePlan`] (the walk with axes merged
//!   and, where positions fit, 32-bit arithmetic).
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
//!   per operation, element type, mode and [`ReduceIndex`] (the axes it decomposes, 32- or
//!   64-bit: [`reduce_source_for`], [`softmax_source_for`]), on any strides; [`ReduceSchedule`] picks one block per output,
//!   one thread per output (when the outputs are the inner axes in memory), and cuts
//!   long reduced ranges into chunks combined by a second launch when there are too few
//!   outputs to fill the GPU. Values stay on the device; positions
//!   (`argmax_axis`) and whole-tensor results come back to the host.
//! * Comparisons (`gt`, `ge`, `lt`, `le`, `eq_elem`, `ne_elem` of [`DeviceMath`]) and
//!   [`select`] are nodes of the fused kernel, as on the host.
//! * Products of any rank ([`DeviceMatmul`]: numpy's `matmul` rule through the host's
//!   `MatMulShape`, batch axes broadcast) run as cuBLAS strided-batched gemm
//!   ([`gemm_plan`]), into a new tensor or an existing one of any layout (`matmul_into`);
//!   `f32` uses TF32 only with [`Precision::Tf32`].
//!
//! These are trait methods rather than inherent ones: the host's `sum` and `sum_axis` are
//! inherent over every storage of the crate (through `SumStorage`), and a second inherent
//! method of one name cannot be added for the device storages. Import the traits (or
//! write `use mdtensor::device::*`).
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
mod storage;
mod tensor;

#[doc(hidden)]
pub use compound::compound_source;
pub use elementwise_plan::ElementwisePlan;
pub use eval::{DeviceEval, DeviceEvaluated};
pub use gemm_layout::{gemm_args, mat_layout, MatLayout};
pub use handle::{compile_cubin, compile_ptx, Device, IndexWidth, KernelKey, LayoutClass};
pub use kernel::{
    kernel_source, launch_grid, Args, DeviceExpr, DeviceMath, Gen, Leaf, LeafArg, BLOCK, FLAT_UNROLL, KERNEL_NAME,
};
pub use launch::KArg;
pub use matmul::{gemm_plan, operand_layout, DeviceMatmul, GemmPlan, MatMulInto, Precision};
pub use reduce::{DeviceReductions, DeviceTensor};
pub use reduce_kernel::{
    reduce_block, reduce_grid, reduce_source, reduce_source_for, reduce_source_mode, softmax_source,
    softmax_source_for, ReduceIndex, ReduceLayout, ReduceMode, ReduceOp, ReducePlan, ReduceStage, REDUCE_BLOCK_MAX,
    REDUCE_KERNEL, SOFTMAX_REGS,
};
pub use reduce_program::{reduce_program, ReduceProgram, ReduceSlot, ReduceStep};
pub use reduce_schedule::{reduce_launch, ReduceSchedule, BLOCK_CHUNK_MIN, THREAD_CHUNK_MIN};
pub use select::{select, DeviceCond};
pub use softmax::{softmax_args, DeviceSoftmax};
pub use storage::{Cuda, CudaMut, CudaRef, DeviceElem, DeviceStorage, DeviceStorageMut};
pub use tensor::PINNED_THRESHOLD_BYTES;
