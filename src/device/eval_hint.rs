//! `.eval()` and `.to_vec()` spelled on trees that read device memory, so that the host's
//! names, called on one, are one error saying what to call (`.eval_on(&dev)`, `.to_host()`).
//!
//! Through [`Expr::eval`] alone, `(&d * 2.0).eval()` or `(&h + &d).eval()` is "method
//! exists but its trait bounds were not satisfied" (E0599) on the whole tree, without a
//! hint. This trait gives every tree with a device operand ([`ReadsDevice`]) an `eval` of
//! the same signature behind `Self: Expr`: the call resolves, and the unmet bound is
//! reported on the device operand, whose message names `.eval_on(&dev)` and `.to_host()`.
//! Host trees have no device operand, so their `.eval()` stays [`Expr::eval`] and is
//! inferred as before.

use super::reduce::DeviceReductions;
use super::storage::{Cuda, CudaRef};
use crate::extents::Extents;
use crate::layout::Layout;
use crate::ops::{Binary, Ddof, Expr, ExprShape, Owned, ScalarLeaf, Unary};
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// `eval` of device expressions: host evaluation, which needs every operand in host
/// memory. On a device expression its bound is unmet, and the error says to evaluate it
/// with [`DeviceEval::eval_on`](super::DeviceEval::eval_on) (or to copy the operands back
/// with `.to_host()`). In both preludes, so that the mistake gets that message wherever it
/// is made.
///
/// ```no_run
/// use mdtensor::device::prelude::*;
/// use mdtensor::prelude::*;
/// use mdtensor::Tensor;
/// let dev = Device::new(0)?;
/// let d = Tensor::<f32, ext![2, 3]>::ones(ext![2, 3]).to_device(&dev)?;
/// // `(&d * 2.0).eval()` does not compile: the operand is in device memory.
/// let y = (&d * 2.0).eval_on(&dev)?;
/// assert_eq!(y.to_host()?.to_vec(), [2.0; 6]);
/// # Ok::<(), mdtensor::Error>(())
/// ```
pub trait DeviceEvalHint: ExprShape {
    /// Evaluates on the host ([`Expr::eval`]): only an expression whose operands are all in
    /// host memory has it; a device expression is evaluated with
    /// [`eval_on`](super::DeviceEval::eval_on).
    #[track_caller]
    fn eval(self) -> Tensor<<Self as ExprShape>::Elem, <Self as ExprShape>::Extents>
    where
        Self: Expr,
    {
        Expr::eval(self)
    }

    /// The elements in row-major order, evaluated on the host ([`Expr::to_vec`]): as
    /// [`eval`](DeviceEvalHint::eval), a device expression is evaluated with
    /// [`eval_on`](super::DeviceEval::eval_on) and copied back with `.to_host()`.
    #[track_caller]
    fn to_vec(self) -> Vec<<Self as ExprShape>::Elem>
    where
        Self: Expr,
    {
        Expr::to_vec(self)
    }
}
impl<X: ExprShape + ReadsDevice<Device = Yes>> DeviceEvalHint for X {}

/// Whether an expression tree has an operand in device memory ([`Yes`] or [`No`]): what
/// selects the trees that get [`DeviceEvalHint`]. Only that hint reads it, so a tree type
/// without an impl merely goes without the hint.
pub trait ReadsDevice {
    /// [`Yes`] when some operand is a device tensor.
    type Device;
    /// [`Yes`] when some operand is a host tensor.
    type Host;
}

/// A tree with a device operand.
pub struct Yes;
/// A tree without one.
pub struct No;

/// The logical or of two [`ReadsDevice`] answers.
pub trait Either<R> {
    /// `Yes` when either is.
    type Out;
}
impl<R> Either<R> for Yes {
    type Out = Yes;
}
impl<R> Either<R> for No {
    type Out = R;
}

impl<T, E: Extents, S: Layout<E>, St: DenseStorage<T>> ReadsDevice for &Tensor<T, E, S, St> {
    type Device = No;
    type Host = Yes;
}
impl<T, E: Extents, S: Layout<E>, St: DenseStorage<T>> ReadsDevice for Owned<Tensor<T, E, S, St>> {
    type Device = No;
    type Host = Yes;
}
// One impl per device storage and element type, as the device leaves' own impls: a
// generic one would overlap, for coherence, with the host impls over every `DenseStorage`.
macro_rules! reads_device {
    ($([$($g:tt)*] $T:ty, $St:ty),*) => {$(
        impl<$($g)* E: Extents, S: Layout<E>> ReadsDevice for &Tensor<$T, E, S, $St> {
            type Device = Yes;
            type Host = No;
        }
        impl<$($g)* E: Extents, S: Layout<E>> ReadsDevice for Owned<Tensor<$T, E, S, $St>> {
            type Device = Yes;
            type Host = No;
        }
    )*};
}
reads_device!([] f32, Cuda<f32>, [] f64, Cuda<f64>, ['b,] f32, CudaRef<'b, f32>, ['b,] f64, CudaRef<'b, f64>);
impl<T> ReadsDevice for ScalarLeaf<T> {
    type Device = No;
    type Host = No;
}
impl<L: ReadsDevice, R: ReadsDevice, Op> ReadsDevice for Binary<L, R, Op>
where
    L::Device: Either<R::Device>,
    L::Host: Either<R::Host>,
{
    type Device = <L::Device as Either<R::Device>>::Out;
    type Host = <L::Host as Either<R::Host>>::Out;
}
impl<X: ReadsDevice, F> ReadsDevice for Unary<X, F> {
    type Device = X::Device;
    type Host = X::Host;
}

/// The device's reductions spelled on trees that mix host and device operands, so that
/// `(&h + &d).sum()` is one error on the host operand saying to move it with
/// `.to_device(&dev)`, not "method exists but its trait bounds were not satisfied" (E0599)
/// on the whole tree. Trees of device operands alone reduce through
/// [`DeviceReductions`] (this trait has no impl for them, so the names do not clash) and
/// host trees through `.eval()` first.
///
/// ```no_run
/// use mdtensor::device::prelude::*;
/// use mdtensor::Tensor;
/// let dev = Device::new(0)?;
/// let h = Tensor::<f32, mdtensor::ext![3]>::ones(mdtensor::ext![3]);
/// let d = h.to_device(&dev)?;
/// // `(&h + &d).sum()` does not compile: `h` is in host memory.
/// assert_eq!((&h.to_device(&dev)? + &d).sum(), 6.0);
/// # Ok::<(), mdtensor::Error>(())
/// ```
pub trait MixedReductionHint {
    /// [`DeviceReductions::sum`], which needs every operand on the device.
    #[track_caller]
    fn sum(&self) -> <Self as DeviceReductions>::Elem
    where
        Self: DeviceReductions,
    {
        DeviceReductions::sum(self)
    }
    /// [`DeviceReductions::mean`], which needs every operand on the device.
    #[track_caller]
    fn mean(&self) -> <Self as DeviceReductions>::Elem
    where
        Self: DeviceReductions,
    {
        DeviceReductions::mean(self)
    }
    /// [`DeviceReductions::prod`], which needs every operand on the device.
    #[track_caller]
    fn prod(&self) -> <Self as DeviceReductions>::Elem
    where
        Self: DeviceReductions,
    {
        DeviceReductions::prod(self)
    }
    /// [`DeviceReductions::max`], which needs every operand on the device.
    #[track_caller]
    fn max(&self) -> Option<<Self as DeviceReductions>::Elem>
    where
        Self: DeviceReductions,
    {
        DeviceReductions::max(self)
    }
    /// [`DeviceReductions::min`], which needs every operand on the device.
    #[track_caller]
    fn min(&self) -> Option<<Self as DeviceReductions>::Elem>
    where
        Self: DeviceReductions,
    {
        DeviceReductions::min(self)
    }
    /// [`DeviceReductions::var`], which needs every operand on the device.
    #[track_caller]
    fn var(&self, ddof: impl Into<Ddof>) -> <Self as DeviceReductions>::Elem
    where
        Self: DeviceReductions,
    {
        DeviceReductions::var(self, ddof)
    }
    /// [`DeviceReductions::std`], which needs every operand on the device.
    #[track_caller]
    fn std(&self, ddof: impl Into<Ddof>) -> <Self as DeviceReductions>::Elem
    where
        Self: DeviceReductions,
    {
        DeviceReductions::std(self, ddof)
    }
}
impl<X: ExprShape + ReadsDevice<Device = Yes, Host = Yes>> MixedReductionHint for X {}
