//! Reductions of device tensors: `sum`, `prod`, `mean`, `var`, `std`, `max`, `min`,
//! `argmax`, `argmin` over every element, along one axis (static `::<I>` or run-time
//! `_dyn`) and over several run-time axes (`_axes`, `_axes_keepdims`), with the host's
//! names, results and shape rules (the result extents come from the host's
//! `RemoveAxis`/`RemoveAxisDyn`). One generated kernel per operation, element type,
//! mode and index specialisation ([`reduce_source_for`]), on the schedule [`ReduceSchedule`] picks; any
//! strides.

use super::eval::materialize;
use super::handle::{driver_error, guard, Device};
use super::kernel::DeviceExpr;
use super::launch::launch;
use super::reduce_kernel::{reduce_source_for, ReduceMode, ReduceOp, ReducePlan, REDUCE_KERNEL};
use super::reduce_program::reduce_program;
use super::reduce_schedule::ReduceSchedule;
use super::storage::{Cuda, DeviceElem, DeviceStorage};
use super::tensor::{alloc, download};
use crate::error::{DeviceError, ShapeError};
use crate::exec::forms::forms;
use crate::extents::{Axis, DynRank, Extents, RemoveAxis, RemoveAxisDyn};
use crate::layout::{Layout, RowMajor};
use crate::ops::{reduced_mask, rename, var_divisor, Ddof};
use crate::tensor::Tensor;
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut};

/// A row-major tensor in device memory: what reductions, softmax and products return.
pub type DeviceTensor<T, E> = Tensor<T, E, RowMajor, Cuda<T>>;

/// The outputs of one reduction launch: `n_out` values and, for an extreme, positions.
struct Launched<T: DeviceElem> {
    vals: CudaSlice<T>,
    pos: Option<CudaSlice<i64>>,
    n_out: usize,
    dev: Device,
}

/// One reduction to launch: the operation and, for a variance, its `ddof` (unused by the
/// other operations).
#[derive(Clone, Copy)]
struct Red<T> {
    op: ReduceOp,
    ddof: T,
}

impl<T: DeviceElem> From<ReduceOp> for Red<T> {
    fn from(op: ReduceOp) -> Self {
        Red { op, ddof: T::zero() }
    }
}

/// A variance (`Var`, or `Std` when `std`) with `ddof` in the element type, converted as
/// the host's `Var` converts it (a value out of range becomes NaN).
fn var_op<T: DeviceElem>(std: bool, ddof: impl Into<Ddof>) -> Red<T> {
    Red { op: if std { ReduceOp::Std } else { ReduceOp::Var }, ddof: ddof.into().to_float() }
}

/// The variance of no elements (the sum of squared deviations is 0): `0 / max(0 - ddof,
/// 0)`, the value the kernel gives for an empty reduced axis.
fn var_of_none<T: DeviceElem>(red: Red<T>) -> T {
    let v = T::zero() / var_divisor(T::zero(), red.ddof);
    if red.op == ReduceOp::Std {
        v.sqrt()
    } else {
        v
    }
}

/// Positions buffer of `n` entries on `dev`.
fn alloc_positions(dev: &Device, n: usize) -> Result<CudaSlice<i64>, DeviceError> {
    let bytes = n.saturating_mul(8);
    // SAFETY: every launch that allocates positions writes all `n` before they are read.
    guard("cuMemAlloc", || unsafe { dev.stream().alloc::<i64>(n.max(1)) })?.map_err(|e| driver_error("alloc", bytes, e))
}

/// Runs reduction `op` of `x` over the axes where `mask` is true: the launches of
/// [`reduce_program`] on the schedule [`ReduceSchedule::new`] picks, their buffers
/// allocated here and named by slot.
fn run<T: DeviceElem, E: Extents, S: Layout<E>, St: DeviceStorage<T>>(
    x: &Tensor<T, E, S, St>,
    red: Red<T>,
    mask: &[bool],
) -> Result<Launched<T>, DeviceError> {
    let op = red.op;
    let dev = x.device().clone();
    let dims = x.dims();
    let strides = x.strides();
    let plan = ReducePlan::new(dims.as_ref(), strides.as_ref(), mask).coalesced();
    let mut vals = alloc::<T>(&dev, plan.n_out)?;
    let mut pos = if op.has_positions() { Some(alloc_positions(&dev, plan.n_out)?) } else { None };
    if plan.n_out == 0 {
        return Ok(Launched { vals, pos, n_out: plan.n_out, dev });
    }
    let sched = ReduceSchedule::new(&plan, dev.max_blocks());
    let prog = reduce_program(op, red.ddof, &plan, &sched).ok_or_else(|| DeviceError::Launch {
        kernel: op.key_in(ReduceMode::BLOCK).to_owned(),
        reason: "too many partial results".into(),
    })?;
    let split = prog.n_part > 0;
    let mut part = if split { Some(alloc::<T>(&dev, prog.n_part)?) } else { None };
    let mut ppos = if split && op.has_positions() { Some(alloc_positions(&dev, prog.n_part)?) } else { None };
    let mut means = if prog.means { Some(alloc::<T>(&dev, plan.n_out)?) } else { None };
    let stream = dev.stream();
    let (buf, start, _) = x.storage.region();
    let first = (start + S::offset(&x.mapping)) as u64 * core::mem::size_of::<T>() as u64;
    let (in_ptr, in_sync) = buf.device_ptr(stream);
    let (vals_ptr, vals_sync) = vals.device_ptr_mut(stream);
    let pos_ptr = pos.as_mut().map(|p| p.device_ptr_mut(stream));
    let part_ptr = part.as_mut().map(|p| p.device_ptr_mut(stream));
    let ppos_ptr = ppos.as_mut().map(|p| p.device_ptr_mut(stream));
    let means_ptr = means.as_mut().map(|p| p.device_ptr_mut(stream));
    // In `ReduceSlot` order; a slot the program does not name is never read.
    let addr = |p: &Option<(u64, _)>| p.as_ref().map_or(0, |(a, _)| *a);
    let addrs = [in_ptr + first, vals_ptr, addr(&pos_ptr), addr(&part_ptr), addr(&ppos_ptr), addr(&means_ptr)];
    for step in &prog.steps {
        let Some(grid) = step.grid(dev.max_blocks()) else { continue };
        let name = step.op.key_in(step.mode);
        let key = step.index.kernel_key(name, T::C_TYPE);
        let f = dev.kernel(key, REDUCE_KERNEL, || reduce_source_for::<T>(step.op, &step.index, step.mode))?;
        // SAFETY: `reduce_program` lists each stage's arguments in `reduce_source_for`'s
        // order for its op, mode and index, naming the buffers allocated above with the
        // sizes it asked for (`n_out` results and positions, `n_part` partials and
        // positions, `n_out` means). A whole or partial launch reads elements of `x` only
        // (the plan decomposes valid indices; chunks lie inside `0..len`), inside its
        // region by the dense invariant; a combine launch reads the partials through the
        // `[n_chunk, n_out]` plan. The buffers and their stream events live until every
        // launch is queued; the stream orders the launches.
        unsafe { launch(&dev, &f, grid, &step.args, &addrs, name)? };
    }
    drop((in_sync, vals_sync, pos_ptr, part_ptr, ppos_ptr, means_ptr));
    Ok(Launched { vals, pos, n_out: plan.n_out, dev })
}

/// The positions of an extreme's launch, on the host.
fn positions_to_host(l: &Launched<impl DeviceElem>, op: &'static str) -> Result<Vec<usize>, DeviceError> {
    let pos = l.pos.as_ref().ok_or_else(|| DeviceError::Driver(format!("{op}: no positions were computed")))?;
    let mut raw: Vec<i64> = crate::alloc::try_vec_with_capacity(op, l.n_out)?;
    raw.resize(l.n_out, 0);
    if l.n_out > 0 {
        let s = pos.slice(0..l.n_out);
        guard("cuMemcpyDtoH", || l.dev.stream().memcpy_dtoh(&s, &mut raw[..]))?
            .map_err(|e| driver_error("copy to host", l.n_out * 8, e))?;
        l.dev.synchronize()?;
    }
    let mut out: Vec<usize> = crate::alloc::try_vec_with_capacity(op, l.n_out)?;
    for p in raw {
        out.push(usize::try_from(p).map_err(|_| DeviceError::Launch {
            kernel: op.to_owned(),
            reason: format!("the kernel reported position {p}"),
        })?);
    }
    Ok(out)
}

fn empty_axis(op: &'static str) -> DeviceError {
    DeviceError::Shape(ShapeError::InvalidArgument { op, reason: "the reduced axis is empty".into() })
}

fn reduced_empty(dims: &[usize], mask: &[bool]) -> bool {
    dims.iter().zip(mask).any(|(&d, &m)| m && d == 0)
}

/// The values of `op` over `mask` as a device tensor of extents `ext` (the kept axes);
/// an extreme over an empty axis is `Err`, as on the host.
fn values<T: DeviceElem, E: Extents, S: Layout<E>, St: DeviceStorage<T>, E2: Extents>(
    x: &Tensor<T, E, S, St>,
    red: impl Into<Red<T>>,
    mask: &[bool],
    ext: E2,
    name: &'static str,
) -> Result<DeviceTensor<T, E2>, DeviceError> {
    let red = red.into();
    if red.op.has_positions() && reduced_empty(x.dims().as_ref(), mask) {
        return Err(empty_axis(name));
    }
    let l = run(x, red, mask)?;
    debug_assert_eq!(l.n_out, ext.numel());
    // SAFETY: `n_out` (= the kept axes' element count) values, row-major over the kept
    // axes, which are `ext`'s axes (reduced axes, if kept, have extent 1).
    Ok(unsafe { Tensor::from_parts_unchecked(Cuda { buf: l.vals, dev: l.dev }, ext, ()) })
}

/// The positions of extreme `op` over `mask`, on the host with extents `ext`.
fn positions<T: DeviceElem, E: Extents, S: Layout<E>, St: DeviceStorage<T>, E2: Extents>(
    x: &Tensor<T, E, S, St>,
    op: ReduceOp,
    mask: &[bool],
    ext: E2,
    name: &'static str,
) -> Result<Tensor<usize, E2>, DeviceError> {
    if reduced_empty(x.dims().as_ref(), mask) {
        return Err(empty_axis(name));
    }
    let l = run(x, op.into(), mask)?;
    let p = positions_to_host(&l, name)?;
    Tensor::try_from_vec(ext, p).map_err(|(e, _)| DeviceError::Shape(e))
}

/// `op` over every element: the value and the row-major position (`None` for an empty
/// extreme).
fn whole<T: DeviceElem, E: Extents, S: Layout<E>, St: DeviceStorage<T>>(
    x: &Tensor<T, E, S, St>,
    red: impl Into<Red<T>>,
    name: &'static str,
) -> Result<Option<(T, usize)>, DeviceError> {
    let red = red.into();
    let op = red.op;
    if x.numel() == 0 {
        return Ok(match op {
            ReduceOp::Sum => Some((T::zero(), 0)),
            ReduceOp::Prod => Some((T::one(), 0)),
            ReduceOp::Mean => Some((T::nan(), 0)),
            ReduceOp::Var | ReduceOp::Std => Some((var_of_none(red), 0)),
            ReduceOp::Max | ReduceOp::Min => None,
        });
    }
    let mask = vec![true; x.rank()];
    let l = run(x, red, &mask)?;
    let mut v = [T::zero()];
    download(&l.dev, &l.vals, 0, &mut v)?;
    let p = if op.has_positions() { positions_to_host(&l, name)?[0] } else { 0 };
    Ok(Some((v[0], p)))
}

/// The mask of static axis `I` and the extents without it.
fn static_axis<E: RemoveAxis<I>, const I: usize>(
    e: &E,
    name: &'static str,
) -> Result<(Vec<bool>, E::Output), DeviceError> {
    let out = e.remove_axis().map_err(|err| rename(err, name))?;
    Ok(((0..e.rank()).map(|d| d == I).collect(), out))
}

/// The mask of the run-time `axis` and the extents without it.
fn dyn_axis<E: RemoveAxisDyn>(
    e: &E,
    axis: impl Into<Axis>,
    name: &'static str,
) -> Result<(Vec<bool>, E::Output), DeviceError> {
    let axis = axis.into().resolve(name, e.rank())?;
    let out = e.remove_axis_dyn(name, axis)?;
    Ok(((0..e.rank()).map(|d| d == axis).collect(), out))
}

/// The mask of `axes` and the kept dims.
fn axes_mask<E: Extents>(e: &E, axes: &[usize], name: &'static str) -> Result<(Vec<bool>, DynRank), DeviceError> {
    let mask = reduced_mask(name, axes, e.rank()).map_err(|err| rename(err, name))?;
    let dims = e.dims();
    let kept = dims.as_ref().iter().zip(&mask).filter(|&(_, &m)| !m).map(|(&d, _)| d).collect();
    Ok((mask, DynRank::new(kept)))
}

/// The mask of `axes` and the extents with them kept at extent 1.
fn axes_keep_mask<E: Extents>(
    e: &E,
    axes: &[usize],
    name: &'static str,
) -> Result<(Vec<bool>, E::Dynamic), DeviceError> {
    let mask = reduced_mask(name, axes, e.rank()).map_err(|err| rename(err, name))?;
    let mut dims = e.dims();
    dims.as_mut().iter_mut().zip(&mask).filter(|(_, &m)| m).for_each(|(d, _)| *d = 1);
    Ok((mask, E::Dynamic::from_dims(dims.as_ref())?))
}

/// Writes the trait's declarations and its impls from one list of `try_` forms, each
/// with its plain form through `forms!`, so that none can drift apart.
macro_rules! device_reductions {
    ($(
        $(#[$m:meta])*
        fn $try:ident [$($g:tt)*] $(::<$($fish:tt),*>)? (&$this:tt $(, $a:ident: $at:ty)*)
            -> Result<$out:ty, DeviceError> $([where $($w:tt)*])? $body:block
        $(#[$pm:meta])*
        fn $plain:ident;
    )*) => {
        /// Reductions of device tensors, with the host's names and results: over every
        /// element (`sum`, `prod`, `mean`, `var(ddof)`, `std(ddof)`, `max`, `min`, `argmax`,
        /// `argmin`: scalars copied back),
        /// along a static axis (`sum_axis::<I>()`: the result's extents in the type, an
        /// axis past a static rank does not compile), along a run-time axis
        /// (`sum_axis_dyn(axis)`, negative from the end) and over several run-time axes
        /// (`sum_axes`, `sum_axes_keepdims`). Values stay on the device (row-major
        /// [`DeviceTensor`]s); positions (`argmax_axis`, …) come back as host tensors of
        /// `usize`, as device tensors hold floats only. numpy's `keepdims=True` for one
        /// axis is the host's `keepdims::<I>()`, which serves every storage.
        ///
        /// Each has a `try_` form returning `Err` (a dynamic axis out of range, an
        /// extreme over an empty axis, a device failure) and a plain form that panics at
        /// the caller's line. NaN propagates as on the host (the first NaN is the
        /// extreme); sums add in a different order than the host's pairwise kernel, so
        /// they agree within rounding. `var` and `std` take numpy's `ddof` ([`Ddof`]: an
        /// integer or a float) and read each output's elements twice, the mean first, then
        /// the squared deviations from it (no `E[x²] - E[x]²` cancellation); they agree with
        /// the host's one-pass update within rounding.
        ///
        /// ```no_run
        /// use mdtensor::device::{Device, DeviceReductions};
        /// use mdtensor::{ext, tensor};
        /// let dev = Device::new(0)?;
        /// let d = tensor![[1.0f32, 5.0, 3.0], [4.0, 2.0, 6.0]].to_device(&dev)?;
        /// assert_eq!(d.sum(), 21.0);
        /// assert_eq!(d.argmax(), Some(5));
        /// let m = d.max_axis::<0>(); // on the device, ext![3]
        /// let _: &ext![3] = m.extents();
        /// assert_eq!(m.to_host()?.to_vec(), [4.0, 5.0, 6.0]);
        /// assert_eq!(d.argmin_axis_dyn(-1).to_vec(), [0, 1]);
        /// assert_eq!(d.try_sum_axes(&[0, 1])?.to_host()?.to_vec(), [21.0]);
        /// let k = d.mean_axis::<1>().keepdims::<1>(); // ext![2, 1]
        /// assert_eq!(k.to_host()?.to_vec(), [3.0, 4.0]);
        /// assert_eq!(d.prod(), 720.0);
        /// assert_eq!(d.prod_axis::<1>().to_host()?.to_vec(), [15.0, 48.0]);
        /// assert_eq!(d.var(0), 35.0 / 12.0);
        /// assert_eq!(d.var_axis_dyn(0, 1).to_host()?.to_vec(), [4.5, 4.5, 4.5]);
        /// assert_eq!(d.std_axes(&[0, 1], 6).to_host()?.to_vec(), [f32::INFINITY]); // ddof >= n
        /// assert_eq!(d.try_var_axes_keepdims(&[1], 0.5)?.shape(), [2, 1]);
        /// # Ok::<(), mdtensor::Error>(())
        /// ```
        pub trait DeviceReductions {
            /// The element type.
            type Elem: DeviceElem;
            /// The extents of the tensor reduced.
            type Extents: Extents;
            $(
                $(#[$m])*
                fn $try<$($g)*>(&self $(, $a: $at)*) -> Result<$out, DeviceError> $(where $($w)*)?;
                $(#[$pm])*
                #[track_caller]
                fn $plain<$($g)*>(&self $(, $a: $at)*) -> $out $(where $($w)*)?;
            )*
        }

        impl<T: DeviceElem, E: Extents, S: Layout<E>, St: DeviceStorage<T>> DeviceReductions for Tensor<T, E, S, St> {
            type Elem = T;
            type Extents = E;
            $(
                forms! {
                    fn $try[$($g)*] $(::<$($fish),*>)? (&$this $(, $a: $at)*) -> Result<$out, DeviceError>
                    $(where [$($w)*])?
                    $body
                    fn $plain;
                }
            )*
        }

        /// A device expression is evaluated once, with one fused elementwise kernel, into a
        /// row-major temporary on its operands' device, which is then reduced.
        impl<X: DeviceExpr> DeviceReductions for X {
            type Elem = X::Item;
            type Extents = X::Extents;
            $(
                forms! {
                    fn $try[$($g)*] $(::<$($fish),*>)? (&$this $(, $a: $at)*) -> Result<$out, DeviceError>
                    $(where [$($w)*])?
                    { materialize($this)?.$try::<$($($fish),*)?>($($a),*) }
                    fn $plain;
                }
            )*
        }
    };
}

/// A device tensor reduced along static axis `I`.
type AxisOut<X, const I: usize> =
    DeviceTensor<<X as DeviceReductions>::Elem, <<X as DeviceReductions>::Extents as RemoveAxis<I>>::Output>;
/// Positions along static axis `I`, on the host.
type AxisPos<X, const I: usize> = Tensor<usize, <<X as DeviceReductions>::Extents as RemoveAxis<I>>::Output>;
/// A device tensor reduced along a run-time axis.
type DynOut<X> =
    DeviceTensor<<X as DeviceReductions>::Elem, <<X as DeviceReductions>::Extents as RemoveAxisDyn>::Output>;
/// Positions along a run-time axis, on the host.
type DynPos<X> = Tensor<usize, <<X as DeviceReductions>::Extents as RemoveAxisDyn>::Output>;
/// A device tensor reduced over several axes.
type AxesOut<X> = DeviceTensor<<X as DeviceReductions>::Elem, DynRank>;
/// A device tensor reduced over several axes, kept with extent 1.
type KeepOut<X> = DeviceTensor<<X as DeviceReductions>::Elem, <<X as DeviceReductions>::Extents as Extents>::Dynamic>;

device_reductions! {
    /// Sum of all elements (0 when empty).
    fn try_sum[](&self) -> Result<Self::Elem, DeviceError> {
        Ok(whole(self, ReduceOp::Sum, "sum")?.map_or(T::zero(), |v| v.0))
    }
    /// Sum of all elements (0 when empty); panics if the device fails.
    fn sum;
    /// Arithmetic mean (NaN when empty).
    fn try_mean[](&self) -> Result<Self::Elem, DeviceError> {
        Ok(whole(self, ReduceOp::Mean, "mean")?.map_or(T::nan(), |v| v.0))
    }
    /// Arithmetic mean (NaN when empty); panics if the device fails.
    fn mean;
    /// Product of all elements (1 when empty).
    fn try_prod[](&self) -> Result<Self::Elem, DeviceError> {
        Ok(whole(self, ReduceOp::Prod, "prod")?.map_or(T::one(), |v| v.0))
    }
    /// Product of all elements (1 when empty); panics if the device fails.
    fn prod;
    /// Variance with `ddof` delta degrees of freedom (numpy's `var(ddof=…)`: [`Ddof`]):
    /// the sum of squared deviations from the mean divided by `max(n - ddof, 0)`, so
    /// `ddof >= n` gives `inf` (NaN when every element is equal, and when there are none
    /// unless `ddof < 0`).
    fn try_var[](&self, ddof: impl Into<Ddof>) -> Result<Self::Elem, DeviceError> {
        Ok(whole(self, var_op(false, ddof), "var")?.map_or(T::nan(), |v| v.0))
    }
    /// Variance with `ddof` delta degrees of freedom; panics if the device fails.
    fn var;
    /// Standard deviation with `ddof` delta degrees of freedom: the square root of
    /// [`DeviceReductions::try_var`].
    fn try_std[](&self, ddof: impl Into<Ddof>) -> Result<Self::Elem, DeviceError> {
        Ok(whole(self, var_op(true, ddof), "std")?.map_or(T::nan(), |v| v.0))
    }
    /// Standard deviation with `ddof` delta degrees of freedom; panics if the device fails.
    fn std;
    /// Largest element; NaN if any is NaN; `None` when empty.
    fn try_max[](&self) -> Result<Option<Self::Elem>, DeviceError> {
        Ok(whole(self, ReduceOp::Max, "max")?.map(|v| v.0))
    }
    /// Largest element; NaN if any is NaN; `None` when empty.
    fn max;
    /// Smallest element; NaN if any is NaN; `None` when empty.
    fn try_min[](&self) -> Result<Option<Self::Elem>, DeviceError> {
        Ok(whole(self, ReduceOp::Min, "min")?.map(|v| v.0))
    }
    /// Smallest element; NaN if any is NaN; `None` when empty.
    fn min;
    /// Row-major position of the first largest element (of the first NaN, if any).
    fn try_argmax[](&self) -> Result<Option<usize>, DeviceError> {
        Ok(whole(self, ReduceOp::Max, "argmax")?.map(|v| v.1))
    }
    /// Row-major position of the first largest element (of the first NaN, if any).
    fn argmax;
    /// Row-major position of the first smallest element (of the first NaN, if any).
    fn try_argmin[](&self) -> Result<Option<usize>, DeviceError> {
        Ok(whole(self, ReduceOp::Min, "argmin")?.map(|v| v.1))
    }
    /// Row-major position of the first smallest element (of the first NaN, if any).
    fn argmin;

    /// Sum along axis `I`; `Err` only for [`DynRank`] when `I >= rank`, or when the
    /// device fails.
    fn try_sum_axis[const I: usize]::<I>(&self) -> Result<AxisOut<Self, I>, DeviceError> [where Self::Extents: RemoveAxis<I>] {
        let (mask, ext) = static_axis::<E, I>(self.extents(), "sum_axis")?;
        values(self, ReduceOp::Sum, &mask, ext, "sum_axis")
    }
    /// Sum along axis `I`.
    fn sum_axis;
    /// Mean along axis `I` (NaN along an empty axis); `Err` as [`DeviceReductions::try_sum_axis`].
    fn try_mean_axis[const I: usize]::<I>(&self) -> Result<AxisOut<Self, I>, DeviceError> [where Self::Extents: RemoveAxis<I>] {
        let (mask, ext) = static_axis::<E, I>(self.extents(), "mean_axis")?;
        values(self, ReduceOp::Mean, &mask, ext, "mean_axis")
    }
    /// Mean along axis `I` (NaN along an empty axis).
    fn mean_axis;
    /// Product along axis `I` (1 along an empty axis); `Err` as [`DeviceReductions::try_sum_axis`].
    fn try_prod_axis[const I: usize]::<I>(&self) -> Result<AxisOut<Self, I>, DeviceError> [where Self::Extents: RemoveAxis<I>] {
        let (mask, ext) = static_axis::<E, I>(self.extents(), "prod_axis")?;
        values(self, ReduceOp::Prod, &mask, ext, "prod_axis")
    }
    /// Product along axis `I` (1 along an empty axis).
    fn prod_axis;
    /// Variance along axis `I` with `ddof` delta degrees of freedom (the rule of
    /// [`DeviceReductions::try_var`]); `Err` as [`DeviceReductions::try_sum_axis`].
    fn try_var_axis[const I: usize]::<I>(&self, ddof: impl Into<Ddof>) -> Result<AxisOut<Self, I>, DeviceError> [where Self::Extents: RemoveAxis<I>] {
        let (mask, ext) = static_axis::<E, I>(self.extents(), "var_axis")?;
        values(self, var_op(false, ddof), &mask, ext, "var_axis")
    }
    /// Variance along axis `I` with `ddof` delta degrees of freedom.
    fn var_axis;
    /// Standard deviation along axis `I` with `ddof` delta degrees of freedom; `Err` as
    /// [`DeviceReductions::try_sum_axis`].
    fn try_std_axis[const I: usize]::<I>(&self, ddof: impl Into<Ddof>) -> Result<AxisOut<Self, I>, DeviceError> [where Self::Extents: RemoveAxis<I>] {
        let (mask, ext) = static_axis::<E, I>(self.extents(), "std_axis")?;
        values(self, var_op(true, ddof), &mask, ext, "std_axis")
    }
    /// Standard deviation along axis `I` with `ddof` delta degrees of freedom.
    fn std_axis;
    /// Largest element along axis `I` (NaN propagates); `Err` for an empty axis.
    fn try_max_axis[const I: usize]::<I>(&self) -> Result<AxisOut<Self, I>, DeviceError> [where Self::Extents: RemoveAxis<I>] {
        let (mask, ext) = static_axis::<E, I>(self.extents(), "max_axis")?;
        values(self, ReduceOp::Max, &mask, ext, "max_axis")
    }
    /// Largest element along axis `I`; panics for an empty axis.
    fn max_axis;
    /// Smallest element along axis `I` (NaN propagates); `Err` for an empty axis.
    fn try_min_axis[const I: usize]::<I>(&self) -> Result<AxisOut<Self, I>, DeviceError> [where Self::Extents: RemoveAxis<I>] {
        let (mask, ext) = static_axis::<E, I>(self.extents(), "min_axis")?;
        values(self, ReduceOp::Min, &mask, ext, "min_axis")
    }
    /// Smallest element along axis `I`; panics for an empty axis.
    fn min_axis;
    /// Index along axis `I` of the first largest element (first NaN), on the host; `Err`
    /// for an empty axis.
    fn try_argmax_axis[const I: usize]::<I>(&self) -> Result<AxisPos<Self, I>, DeviceError> [where Self::Extents: RemoveAxis<I>] {
        let (mask, ext) = static_axis::<E, I>(self.extents(), "argmax_axis")?;
        positions(self, ReduceOp::Max, &mask, ext, "argmax_axis")
    }
    /// Index along axis `I` of the first largest element, on the host; panics for an empty axis.
    fn argmax_axis;
    /// Index along axis `I` of the first smallest element (first NaN), on the host; `Err`
    /// for an empty axis.
    fn try_argmin_axis[const I: usize]::<I>(&self) -> Result<AxisPos<Self, I>, DeviceError> [where Self::Extents: RemoveAxis<I>] {
        let (mask, ext) = static_axis::<E, I>(self.extents(), "argmin_axis")?;
        positions(self, ReduceOp::Min, &mask, ext, "argmin_axis")
    }
    /// Index along axis `I` of the first smallest element, on the host; panics for an empty axis.
    fn argmin_axis;

    /// Sum along the run-time axis `axis` (negative counts from the end); `Err` outside
    /// `-rank..rank`.
    fn try_sum_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<DynOut<Self>, DeviceError> [where Self::Extents: RemoveAxisDyn] {
        let (mask, ext) = dyn_axis(self.extents(), axis, "sum_axis_dyn")?;
        values(self, ReduceOp::Sum, &mask, ext, "sum_axis_dyn")
    }
    /// Sum along the run-time axis `axis`.
    fn sum_axis_dyn;
    /// Mean along the run-time axis `axis`; `Err` outside `-rank..rank`.
    fn try_mean_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<DynOut<Self>, DeviceError> [where Self::Extents: RemoveAxisDyn] {
        let (mask, ext) = dyn_axis(self.extents(), axis, "mean_axis_dyn")?;
        values(self, ReduceOp::Mean, &mask, ext, "mean_axis_dyn")
    }
    /// Mean along the run-time axis `axis`.
    fn mean_axis_dyn;
    /// Product along the run-time axis `axis`; `Err` outside `-rank..rank`.
    fn try_prod_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<DynOut<Self>, DeviceError> [where Self::Extents: RemoveAxisDyn] {
        let (mask, ext) = dyn_axis(self.extents(), axis, "prod_axis_dyn")?;
        values(self, ReduceOp::Prod, &mask, ext, "prod_axis_dyn")
    }
    /// Product along the run-time axis `axis`.
    fn prod_axis_dyn;
    /// Variance along the run-time axis `axis` with `ddof` delta degrees of freedom; `Err`
    /// outside `-rank..rank`.
    fn try_var_axis_dyn[](&self, axis: impl Into<Axis>, ddof: impl Into<Ddof>) -> Result<DynOut<Self>, DeviceError> [where Self::Extents: RemoveAxisDyn] {
        let (mask, ext) = dyn_axis(self.extents(), axis, "var_axis_dyn")?;
        values(self, var_op(false, ddof), &mask, ext, "var_axis_dyn")
    }
    /// Variance along the run-time axis `axis` with `ddof` delta degrees of freedom.
    fn var_axis_dyn;
    /// Standard deviation along the run-time axis `axis` with `ddof` delta degrees of
    /// freedom; `Err` outside `-rank..rank`.
    fn try_std_axis_dyn[](&self, axis: impl Into<Axis>, ddof: impl Into<Ddof>) -> Result<DynOut<Self>, DeviceError> [where Self::Extents: RemoveAxisDyn] {
        let (mask, ext) = dyn_axis(self.extents(), axis, "std_axis_dyn")?;
        values(self, var_op(true, ddof), &mask, ext, "std_axis_dyn")
    }
    /// Standard deviation along the run-time axis `axis` with `ddof` delta degrees of freedom.
    fn std_axis_dyn;
    /// Largest element along the run-time axis `axis`; `Err` outside `-rank..rank` or
    /// for an empty axis.
    fn try_max_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<DynOut<Self>, DeviceError> [where Self::Extents: RemoveAxisDyn] {
        let (mask, ext) = dyn_axis(self.extents(), axis, "max_axis_dyn")?;
        values(self, ReduceOp::Max, &mask, ext, "max_axis_dyn")
    }
    /// Largest element along the run-time axis `axis`.
    fn max_axis_dyn;
    /// Smallest element along the run-time axis `axis`; `Err` outside `-rank..rank` or
    /// for an empty axis.
    fn try_min_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<DynOut<Self>, DeviceError> [where Self::Extents: RemoveAxisDyn] {
        let (mask, ext) = dyn_axis(self.extents(), axis, "min_axis_dyn")?;
        values(self, ReduceOp::Min, &mask, ext, "min_axis_dyn")
    }
    /// Smallest element along the run-time axis `axis`.
    fn min_axis_dyn;
    /// Index along the run-time axis `axis` of the first largest element, on the host;
    /// `Err` outside `-rank..rank` or for an empty axis.
    fn try_argmax_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<DynPos<Self>, DeviceError> [where Self::Extents: RemoveAxisDyn] {
        let (mask, ext) = dyn_axis(self.extents(), axis, "argmax_axis_dyn")?;
        positions(self, ReduceOp::Max, &mask, ext, "argmax_axis_dyn")
    }
    /// Index along the run-time axis `axis` of the first largest element, on the host.
    fn argmax_axis_dyn;
    /// Index along the run-time axis `axis` of the first smallest element, on the host;
    /// `Err` outside `-rank..rank` or for an empty axis.
    fn try_argmin_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<DynPos<Self>, DeviceError> [where Self::Extents: RemoveAxisDyn] {
        let (mask, ext) = dyn_axis(self.extents(), axis, "argmin_axis_dyn")?;
        positions(self, ReduceOp::Min, &mask, ext, "argmin_axis_dyn")
    }
    /// Index along the run-time axis `axis` of the first smallest element, on the host.
    fn argmin_axis_dyn;

    /// Sum over the axes `axes` in one pass (numpy's `axis=(…)`); `Err` for an axis out of
    /// range or repeated.
    fn try_sum_axes[](&self, axes: &[usize]) -> Result<AxesOut<Self>, DeviceError> {
        let (mask, ext) = axes_mask(self.extents(), axes, "sum_axes")?;
        values(self, ReduceOp::Sum, &mask, ext, "sum_axes")
    }
    /// Sum over the axes `axes` in one pass.
    fn sum_axes;
    /// Mean over the axes `axes`; `Err` as [`DeviceReductions::try_sum_axes`].
    fn try_mean_axes[](&self, axes: &[usize]) -> Result<AxesOut<Self>, DeviceError> {
        let (mask, ext) = axes_mask(self.extents(), axes, "mean_axes")?;
        values(self, ReduceOp::Mean, &mask, ext, "mean_axes")
    }
    /// Mean over the axes `axes`.
    fn mean_axes;
    /// Product over the axes `axes`; `Err` as [`DeviceReductions::try_sum_axes`].
    fn try_prod_axes[](&self, axes: &[usize]) -> Result<AxesOut<Self>, DeviceError> {
        let (mask, ext) = axes_mask(self.extents(), axes, "prod_axes")?;
        values(self, ReduceOp::Prod, &mask, ext, "prod_axes")
    }
    /// Product over the axes `axes`.
    fn prod_axes;
    /// Variance over the axes `axes` with `ddof` delta degrees of freedom (`n` counts the
    /// elements of all of them); `Err` as [`DeviceReductions::try_sum_axes`].
    fn try_var_axes[](&self, axes: &[usize], ddof: impl Into<Ddof>) -> Result<AxesOut<Self>, DeviceError> {
        let (mask, ext) = axes_mask(self.extents(), axes, "var_axes")?;
        values(self, var_op(false, ddof), &mask, ext, "var_axes")
    }
    /// Variance over the axes `axes` with `ddof` delta degrees of freedom.
    fn var_axes;
    /// Standard deviation over the axes `axes` with `ddof` delta degrees of freedom; `Err`
    /// as [`DeviceReductions::try_sum_axes`].
    fn try_std_axes[](&self, axes: &[usize], ddof: impl Into<Ddof>) -> Result<AxesOut<Self>, DeviceError> {
        let (mask, ext) = axes_mask(self.extents(), axes, "std_axes")?;
        values(self, var_op(true, ddof), &mask, ext, "std_axes")
    }
    /// Standard deviation over the axes `axes` with `ddof` delta degrees of freedom.
    fn std_axes;
    /// Largest element over the axes `axes`; `Err` as [`DeviceReductions::try_sum_axes`]
    /// or when a reduced axis is empty.
    fn try_max_axes[](&self, axes: &[usize]) -> Result<AxesOut<Self>, DeviceError> {
        let (mask, ext) = axes_mask(self.extents(), axes, "max_axes")?;
        values(self, ReduceOp::Max, &mask, ext, "max_axes")
    }
    /// Largest element over the axes `axes`.
    fn max_axes;
    /// Smallest element over the axes `axes`; `Err` as [`DeviceReductions::try_max_axes`].
    fn try_min_axes[](&self, axes: &[usize]) -> Result<AxesOut<Self>, DeviceError> {
        let (mask, ext) = axes_mask(self.extents(), axes, "min_axes")?;
        values(self, ReduceOp::Min, &mask, ext, "min_axes")
    }
    /// Smallest element over the axes `axes`.
    fn min_axes;
    /// Sum over the axes `axes`, which stay with extent 1 (numpy's `keepdims=True`).
    fn try_sum_axes_keepdims[](&self, axes: &[usize]) -> Result<KeepOut<Self>, DeviceError> {
        let (mask, ext) = axes_keep_mask(self.extents(), axes, "sum_axes_keepdims")?;
        values(self, ReduceOp::Sum, &mask, ext, "sum_axes_keepdims")
    }
    /// Sum over the axes `axes`, kept with extent 1.
    fn sum_axes_keepdims;
    /// Mean over the axes `axes`, which stay with extent 1.
    fn try_mean_axes_keepdims[](&self, axes: &[usize]) -> Result<KeepOut<Self>, DeviceError> {
        let (mask, ext) = axes_keep_mask(self.extents(), axes, "mean_axes_keepdims")?;
        values(self, ReduceOp::Mean, &mask, ext, "mean_axes_keepdims")
    }
    /// Mean over the axes `axes`, kept with extent 1.
    fn mean_axes_keepdims;
    /// Product over the axes `axes`, which stay with extent 1.
    fn try_prod_axes_keepdims[](&self, axes: &[usize]) -> Result<KeepOut<Self>, DeviceError> {
        let (mask, ext) = axes_keep_mask(self.extents(), axes, "prod_axes_keepdims")?;
        values(self, ReduceOp::Prod, &mask, ext, "prod_axes_keepdims")
    }
    /// Product over the axes `axes`, kept with extent 1.
    fn prod_axes_keepdims;
    /// Variance over the axes `axes` with `ddof` delta degrees of freedom, which stay with
    /// extent 1.
    fn try_var_axes_keepdims[](&self, axes: &[usize], ddof: impl Into<Ddof>) -> Result<KeepOut<Self>, DeviceError> {
        let (mask, ext) = axes_keep_mask(self.extents(), axes, "var_axes_keepdims")?;
        values(self, var_op(false, ddof), &mask, ext, "var_axes_keepdims")
    }
    /// Variance over the axes `axes` with `ddof` delta degrees of freedom, kept with extent 1.
    fn var_axes_keepdims;
    /// Standard deviation over the axes `axes` with `ddof` delta degrees of freedom, which
    /// stay with extent 1.
    fn try_std_axes_keepdims[](&self, axes: &[usize], ddof: impl Into<Ddof>) -> Result<KeepOut<Self>, DeviceError> {
        let (mask, ext) = axes_keep_mask(self.extents(), axes, "std_axes_keepdims")?;
        values(self, var_op(true, ddof), &mask, ext, "std_axes_keepdims")
    }
    /// Standard deviation over the axes `axes` with `ddof` delta degrees of freedom, kept
    /// with extent 1.
    fn std_axes_keepdims;
    /// Largest element over the axes `axes`, which stay with extent 1.
    fn try_max_axes_keepdims[](&self, axes: &[usize]) -> Result<KeepOut<Self>, DeviceError> {
        let (mask, ext) = axes_keep_mask(self.extents(), axes, "max_axes_keepdims")?;
        values(self, ReduceOp::Max, &mask, ext, "max_axes_keepdims")
    }
    /// Largest element over the axes `axes`, kept with extent 1.
    fn max_axes_keepdims;
    /// Smallest element over the axes `axes`, which stay with extent 1.
    fn try_min_axes_keepdims[](&self, axes: &[usize]) -> Result<KeepOut<Self>, DeviceError> {
        let (mask, ext) = axes_keep_mask(self.extents(), axes, "min_axes_keepdims")?;
        values(self, ReduceOp::Min, &mask, ext, "min_axes_keepdims")
    }
    /// Smallest element over the axes `axes`, kept with extent 1.
    fn min_axes_keepdims;
}
