//! Evaluating device expressions: one launch of the fused kernel, into a new device
//! tensor or into an existing one (any stride policy).

use super::elementwise_plan::ElementwisePlan;
use super::handle::{driver_error, guard, Device};
use super::kernel::{kernel_source, launch_grid, Args, DeviceExpr, KERNEL_NAME};
use super::launch::launch as launch_kernel;
use super::storage::{Cuda, DeviceElem, DeviceStorageMut};
use crate::error::DeviceError;
use crate::extents::{broadcast_strides, BroadcastTo, Extents};
use crate::layout::{DenseOf, Layout, RowMajor};
use crate::ops::{ExprShape, IntoExpr};
use crate::tensor::Tensor;
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut};

/// Where a launch writes: the output buffer, the position of element `[0, …, 0]`, dims
/// and strides.
struct Out<'a, T: DeviceElem> {
    buf: &'a mut CudaSlice<T>,
    first: usize,
    dims: &'a [usize],
    strides: &'a [isize],
}

fn launch<X: DeviceExpr>(x: &X, dev: &Device, out: Out<'_, X::Item>) -> Result<(), DeviceError> {
    let mut args = Args { leaves: Vec::new(), params: Vec::new() };
    x.collect(&mut args);
    if args.leaves.iter().any(|l| l.dev != dev) {
        return Err(DeviceError::Driver(
            "the operands of a device expression live on different devices; copy them to one device first".into(),
        ));
    }
    let mut strides = vec![out.strides.to_vec()];
    for l in &args.leaves {
        let mut s = vec![0isize; out.dims.len()];
        broadcast_strides("device expression", &l.dims, &l.strides, out.dims, &mut s).map_err(DeviceError::Shape)?;
        strides.push(s);
    }
    let plan = ElementwisePlan::new(out.dims, &strides);
    let Some(grid) = launch_grid(plan.n, dev.max_blocks()) else {
        return Ok(());
    };
    // One signature gives the cache key and the arguments; the source declares the same
    // parameters from the same counts.
    let sig = plan.signature(args.leaves.len(), args.params.len());
    let key = sig.key(core::any::type_name::<X>(), X::Item::C_TYPE);
    let f = dev.kernel(key, KERNEL_NAME, || kernel_source::<X>(plan.class, plan.rank()))?;
    let stream = dev.stream();
    let size = core::mem::size_of::<X::Item>() as u64;
    let (out_ptr, out_sync) = out.buf.device_ptr_mut(stream);
    let mut addrs = vec![out_ptr + out.first as u64 * size];
    let mut syncs = Vec::new();
    for l in &args.leaves {
        let (p, sync) = l.buf.device_ptr(stream);
        syncs.push(sync);
        addrs.push(p + l.first as u64 * size);
    }
    let kargs = sig.args(&plan, &args.params);
    let kernel = format!("{KERNEL_NAME} for {}", core::any::type_name::<X>());
    // SAFETY: `sig.args` follows `kernel_source`'s parameter list, which `KernelSig`
    // declares from the tree's own leaf and scalar counts (collected above in `emit`'s
    // order) at the plan's class and rank (slot 0 the output, slot k + 1 leaf k, at their
    // first elements); the plan keeps
    // every element's position, so each position the kernel computes is an element of
    // its operand, inside its buffer by the dense invariant of each operand and of the
    // output. The buffers stay borrowed (their stream events held by the syncs) until the
    // launch is queued.
    let res = unsafe { launch_kernel(dev, &f, grid, &kargs, &addrs, &kernel) };
    drop((out_sync, syncs));
    res
}

/// A new device tensor in the layout `L` holding `x`, written by one launch.
fn eval_dense<X: DeviceExpr, L: Layout<X::Extents>>(
    x: &X,
    dev: &Device,
) -> Result<Tensor<X::Item, X::Extents, L, Cuda<X::Item>>, DeviceError> {
    let dims = x.shape().map_err(DeviceError::Shape)?;
    let ext = <X::Extents as Extents>::from_dims(dims.as_ref()).map_err(DeviceError::Shape)?;
    let n = ext.checked_numel("eval_on", core::mem::size_of::<X::Item>()).map_err(DeviceError::Shape)?;
    let bytes = n * core::mem::size_of::<X::Item>();
    // At least one element, as the driver refuses zero-byte allocations. SAFETY: the
    // launch below writes every element before the tensor is returned.
    let mut buf = guard("cuMemAlloc", || unsafe { dev.stream().alloc::<X::Item>(n.max(1)) })?
        .map_err(|e| driver_error("alloc", bytes, e))?;
    let mapping = L::dense_mapping(&ext);
    let strides = L::strides(&ext, &mapping);
    let d = ext.dims();
    launch(x, dev, Out { buf: &mut buf, first: 0, dims: d.as_ref(), strides: strides.as_ref() })?;
    // SAFETY: the `n` elements of `L`'s fresh dense mapping, all written by the launch.
    Ok(unsafe { Tensor::from_parts_unchecked(Cuda { buf, dev: dev.clone() }, ext, mapping) })
}

/// `x` evaluated into a new row-major tensor on the device of its operands: what the
/// reductions and softmax of a device expression read. `Err` when it has no tensor
/// operand (a scalar alone has no device) or they live on different devices.
pub(crate) fn materialize<X: DeviceExpr>(
    x: &X,
) -> Result<Tensor<X::Item, X::Extents, RowMajor, Cuda<X::Item>>, DeviceError> {
    let dev = {
        let mut args = Args { leaves: Vec::new(), params: Vec::new() };
        x.collect(&mut args);
        match args.leaves.first() {
            Some(l) => l.dev.clone(),
            None => {
                return Err(DeviceError::Driver(
                    "a device expression without a device tensor operand has no device to run on".into(),
                ))
            }
        }
    };
    eval_dense(x, &dev)
}

/// The tensor [`DeviceEval::eval_in_order_on`] returns for `X`: dense in the order of its
/// operands ([`DeviceExpr::Order`]), on the device.
pub type DeviceEvaluated<X> = Tensor<
    <X as DeviceExpr>::Item,
    <X as ExprShape>::Extents,
    DenseOf<<X as DeviceExpr>::Order, <X as ExprShape>::Extents>,
    Cuda<<X as DeviceExpr>::Item>,
>;

/// The row-major device tensor [`DeviceEval::eval_on`] returns for `X`.
pub type DeviceResult<X> =
    Tensor<<X as DeviceExpr>::Item, <X as ExprShape>::Extents, RowMajor, Cuda<<X as DeviceExpr>::Item>>;

/// Evaluation of device expressions. Every expression has the methods, and their bound
/// `Self: DeviceExpr` is checked after the call is resolved: a host operand in the tree is
/// then one unmet bound on that operand, whose message says to move it with
/// `.to_device(&dev)`, rather than "method exists but its trait bounds were not satisfied"
/// on the whole tree.
pub trait DeviceEval: ExprShape {
    /// Evaluates into a new row-major device tensor with one fused kernel (compiled on
    /// first use of this expression's type, then cached on `dev`), as the host's
    /// [`Expr::eval`](crate::ops::Expr::eval); `Err` when dynamic extents do not broadcast
    /// or the device fails.
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
    fn eval_on(self, dev: &Device) -> Result<DeviceResult<Self>, DeviceError>
    where
        Self: DeviceExpr,
    {
        eval_dense(&self, dev)
    }

    /// Evaluates into a new device tensor dense in the operands' order, as the host's
    /// [`Expr::eval_in_order`](crate::ops::Expr::eval_in_order) (numpy's `order='K'`): the
    /// order of the first operand that has one (column-major operands give a column-major
    /// result, written flat), row-major when none has.
    ///
    /// ```no_run
    /// use mdtensor::device::{Device, DeviceEval};
    /// use mdtensor::{tensor, ColMajor};
    /// let dev = Device::new(0)?;
    /// let a = tensor![[1.0f64, 2.0], [3.0, 4.0]].to_device(&dev)?;
    /// let t = (&a.t() * 2.0).eval_in_order_on(&dev)?; // column-major, like `a.t()`
    /// assert_eq!(t.to_host()?.to_vec(), [2.0, 6.0, 4.0, 8.0]);
    /// # Ok::<(), mdtensor::Error>(())
    /// ```
    fn eval_in_order_on(self, dev: &Device) -> Result<DeviceEvaluated<Self>, DeviceError>
    where
        Self: DeviceExpr,
    {
        eval_dense(&self, dev)
    }

    /// The same as [`eval_on`](DeviceEval::eval_on): a row-major result whatever the
    /// operands' order (numpy's `ascontiguousarray`, the host's `eval_row_major`).
    ///
    /// ```no_run
    /// use mdtensor::device::{Device, DeviceEval};
    /// use mdtensor::{tensor, RowMajor};
    /// let dev = Device::new(0)?;
    /// let a = tensor![[1.0f64, 2.0], [3.0, 4.0]].to_device(&dev)?;
    /// let t = a.t().eval_row_major_on(&dev)?; // a column-major view, copied row-major
    /// assert_eq!(t.to_host()?.to_vec(), [1.0, 3.0, 2.0, 4.0]);
    /// # Ok::<(), mdtensor::Error>(())
    /// ```
    fn eval_row_major_on(self, dev: &Device) -> Result<DeviceResult<Self>, DeviceError>
    where
        Self: DeviceExpr,
    {
        eval_dense(&self, dev)
    }
}
impl<X: ExprShape> DeviceEval for X {}

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
    let off = S::offset(&dst.mapping);
    let dev = dst.storage.device().clone();
    let (buf, start, _) = dst.storage.region_mut();
    launch(&x, &dev, Out { buf, first: start + off, dims: dims.as_ref(), strides: strides.as_ref() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::ScalarLeaf;

    #[test]
    fn an_expression_without_a_tensor_has_no_device() {
        let Err(e) = materialize(&ScalarLeaf(1.0f32)) else { panic!("a scalar alone found a device") };
        assert!(e.to_string().contains("no device"), "{e}");
    }
}
