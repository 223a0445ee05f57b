//! Evaluating device expressions: one launch of the fused kernel, into a new device
//! tensor or into an existing one (any stride policy).

use super::handle::{driver_error, guard, Device, KernelKey, LayoutClass};
use super::kernel::{kernel_source, launch_grid, Args, DeviceExpr, KERNEL_NAME};
use super::storage::{Cuda, DeviceElem, DeviceStorageMut};
use crate::error::DeviceError;
use crate::extents::{broadcast_strides, BroadcastTo, Extents};
use crate::layout::{Layout, RowMajor};
use crate::ops::{ExprShape, IntoExpr};
use crate::tensor::Tensor;
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut, LaunchConfig, PushKernelArg};

/// Where and how a launch writes: the output buffer, the position of element
/// `[0, …, 0]`, dims and strides.
struct Out<'a, T: DeviceElem> {
    buf: &'a mut CudaSlice<T>,
    first: usize,
    dims: &'a [usize],
    strides: &'a [isize],
    row_major: bool,
}

/// The layout class of a launch: flat when the output and every tensor leaf are
/// row-major contiguous with the output's dims.
pub fn layout_class(out_dims: &[usize], out_row_major: bool, leaves: &[(Vec<usize>, bool)]) -> LayoutClass {
    if out_row_major && leaves.iter().all(|(d, rm)| *rm && d.as_slice() == out_dims) {
        LayoutClass::Flat
    } else {
        LayoutClass::Strided
    }
}

enum Arg<T> {
    Ptr(u64),
    Int(i64),
    Elem(T),
}

fn launch<X: DeviceExpr>(x: &X, dev: &Device, out: Out<'_, X::Item>) -> Result<(), DeviceError> {
    let n: usize = out.dims.iter().product();
    let Some((blocks, threads)) = launch_grid(n, dev.max_blocks()) else {
        return Ok(());
    };
    let mut args = Args { leaves: Vec::new(), params: Vec::new() };
    x.collect(&mut args);
    if args.leaves.iter().any(|l| l.dev != dev) {
        return Err(DeviceError::Driver(
            "the operands of a device expression live on different devices; copy them to one device first".into(),
        ));
    }
    let rank = out.dims.len();
    let info: Vec<(Vec<usize>, bool)> = args.leaves.iter().map(|l| (l.dims.clone(), l.row_major)).collect();
    let class = layout_class(out.dims, out.row_major, &info);
    let key = KernelKey { tree: core::any::type_name::<X>(), elem: X::Item::C_TYPE, rank, class };
    let f = dev.kernel(key, KERNEL_NAME, || kernel_source::<X>(class, rank))?;
    let stream = dev.stream();
    let size = core::mem::size_of::<X::Item>() as u64;
    let strided = class == LayoutClass::Strided;
    let mut vals: Vec<Arg<X::Item>> = Vec::new();
    let (out_ptr, _out_sync) = out.buf.device_ptr_mut(stream);
    vals.push(Arg::Ptr(out_ptr + out.first as u64 * size));
    if strided {
        vals.extend(out.strides.iter().map(|&s| Arg::Int(s as i64)));
    }
    let mut syncs = Vec::new();
    for l in &args.leaves {
        let (p, sync) = l.buf.device_ptr(stream);
        syncs.push(sync);
        vals.push(Arg::Ptr(p + l.first as u64 * size));
        if strided {
            let mut s = vec![0isize; rank];
            broadcast_strides("device expression", &l.dims, &l.strides, out.dims, &mut s)
                .map_err(DeviceError::Shape)?;
            vals.extend(s.into_iter().map(|s| Arg::Int(s as i64)));
        }
    }
    vals.extend(args.params.iter().map(|&p| Arg::Elem(p)));
    if strided {
        vals.extend(out.dims.iter().map(|&d| Arg::Int(d as i64)));
    }
    vals.push(Arg::Int(n as i64));
    let mut b = stream.launch_builder(&f);
    for v in &vals {
        match v {
            Arg::Ptr(p) => b.arg(p),
            Arg::Int(i) => b.arg(i),
            Arg::Elem(e) => b.arg(e),
        };
    }
    let cfg = LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (threads, 1, 1), shared_mem_bytes: 0 };
    // SAFETY: the arguments follow `kernel_source`'s order and C types (pointers as
    // 64-bit device addresses, strides and dims as `long long`, scalars as the element
    // type); every position the kernel computes is inside its buffer by the dense
    // invariant of each operand and of the output, whose buffers stay borrowed (and
    // their stream events recorded by `syncs`) until the launch is queued.
    let res = guard("cuLaunchKernel", || unsafe { b.launch(cfg) })?;
    drop(syncs);
    res.map(|_| ()).map_err(|e| DeviceError::Launch {
        kernel: format!("{KERNEL_NAME} for {}", core::any::type_name::<X>()),
        reason: e.to_string(),
    })
}

/// Evaluation of device expressions (blanket: every [`DeviceExpr`] has it).
pub trait DeviceEval: DeviceExpr {
    /// Evaluates into a new row-major device tensor with one fused kernel (compiled on
    /// first use of this expression's type, then cached on `dev`); `Err` when dynamic
    /// extents do not broadcast or the device fails.
    ///
    /// ```no_run
    /// use mdtensor::device::{Device, DeviceEval};
    /// use mdtensor::tensor;
    /// let dev = Device::new(0)?;
    /// let a = tensor![[1.0f32, 2.0], [3.0, 4.0]].to_device(&dev)?;
    /// let b = tensor![10.0f32, 20.0].to_device(&dev)?;
    /// let c = (&a + &b * 2.0).eval_on(&dev)?; // broadcast, one kernel
    /// assert_eq!(c.to_host()?.to_vec(), [21.0, 42.0, 23.0, 44.0]);
    /// # Ok::<(), mdtensor::Error>(())
    /// ```
    fn eval_on(
        self,
        dev: &Device,
    ) -> Result<Tensor<Self::Item, Self::Extents, RowMajor, Cuda<Self::Item>>, DeviceError> {
        let dims = self.shape().map_err(DeviceError::Shape)?;
        let ext = <Self::Extents as Extents>::from_dims(dims.as_ref()).map_err(DeviceError::Shape)?;
        let n = ext.checked_numel("eval_on", core::mem::size_of::<Self::Item>()).map_err(DeviceError::Shape)?;
        let bytes = n * core::mem::size_of::<Self::Item>();
        // At least one element, as the driver refuses zero-byte allocations. SAFETY: the
        // launch below writes every element before the tensor is returned.
        let mut buf = guard("cuMemAlloc", || unsafe { dev.stream().alloc::<Self::Item>(n.max(1)) })?
            .map_err(|e| driver_error("alloc", bytes, e))?;
        let strides = <RowMajor as Layout<Self::Extents>>::strides(&ext, &());
        let d = ext.dims();
        launch(
            &self,
            dev,
            Out { buf: &mut buf, first: 0, dims: d.as_ref(), strides: strides.as_ref(), row_major: true },
        )?;
        // SAFETY: `n` elements in row-major order, all written by the launch.
        Ok(unsafe { Tensor::from_parts_unchecked(Cuda { buf, dev: dev.clone() }, ext, ()) })
    }
}
impl<X: DeviceExpr> DeviceEval for X {}

/// # Device: evaluating into a tensor (feature `cuda`)
impl<T: DeviceElem, E: Extents, S: Layout<E>, St: DeviceStorageMut<T>> Tensor<T, E, S, St> {
    /// Writes `x` (broadcast to this tensor's shape) into every element with one fused
    /// kernel on this tensor's device, through any stride policy (numpy's `t[...] = x`).
    /// Named apart from the host's `assign`, whose bounds are the host storage traits.
    ///
    /// ```no_run
    /// use mdtensor::{device::Device, tensor};
    /// let dev = Device::new(0)?;
    /// let mut a = tensor![[1.0f64, 2.0], [3.0, 4.0]].to_device(&dev)?;
    /// let b = tensor![[1.0f64, 1.0], [1.0, 1.0]].to_device(&dev)?;
    /// a.view_mut().device_assign(&b * 3.0)?;
    /// assert_eq!(a.to_host()?.to_vec(), [3.0; 4]);
    /// # Ok::<(), mdtensor::Error>(())
    /// ```
    pub fn device_assign<X: IntoExpr>(&mut self, x: X) -> Result<(), DeviceError>
    where
        X::Expr: DeviceExpr<Item = T>,
        <X::Expr as ExprShape>::Extents: BroadcastTo<E>,
    {
        let x = x.into_expr();
        let xd = x.shape().map_err(DeviceError::Shape)?;
        let dims = self.dims();
        let mut probe = vec![0isize; dims.as_ref().len()];
        let xs = vec![0isize; xd.as_ref().len()];
        // The dynamic part of the broadcast rule (static extents were checked by the bound).
        broadcast_strides("device_assign", xd.as_ref(), &xs, dims.as_ref(), &mut probe).map_err(DeviceError::Shape)?;
        assign_tree(self, x)
    }
}

/// Launches `x` into `dst`; `x`'s shape must broadcast to `dst`'s (checked by the caller).
pub(crate) fn assign_tree<T: DeviceElem, E: Extents, S: Layout<E>, St: DeviceStorageMut<T>, X: DeviceExpr<Item = T>>(
    dst: &mut Tensor<T, E, S, St>,
    x: X,
) -> Result<(), DeviceError> {
    let dims = dst.dims();
    let strides = dst.strides();
    let row_major = S::is_row_major_contiguous(&dst.extents, &dst.mapping);
    let off = S::offset(&dst.mapping);
    let dev = dst.storage.device().clone();
    let (buf, start, _) = dst.storage.region_mut();
    launch(&x, &dev, Out { buf, first: start + off, dims: dims.as_ref(), strides: strides.as_ref(), row_major })
}
