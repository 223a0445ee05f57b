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

use super::storage::{Cuda, CudaRef};
use crate::extents::Extents;
use crate::layout::Layout;
use crate::ops::{Binary, Expr, ExprShape, Owned, ScalarLeaf, Unary};
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
}
impl<T, E: Extents, S: Layout<E>, St: DenseStorage<T>> ReadsDevice for Owned<Tensor<T, E, S, St>> {
    type Device = No;
}
// One impl per device storage and element type, as the device leaves' own impls: a
// generic one would overlap, for coherence, with the host impls over every `DenseStorage`.
macro_rules! reads_device {
    ($([$($g:tt)*] $T:ty, $St:ty),*) => {$(
        impl<$($g)* E: Extents, S: Layout<E>> ReadsDevice for &Tensor<$T, E, S, $St> {
            type Device = Yes;
        }
        impl<$($g)* E: Extents, S: Layout<E>> ReadsDevice for Owned<Tensor<$T, E, S, $St>> {
            type Device = Yes;
        }
    )*};
}
reads_device!([] f32, Cuda<f32>, [] f64, Cuda<f64>, ['b,] f32, CudaRef<'b, f32>, ['b,] f64, CudaRef<'b, f64>);
impl<T> ReadsDevice for ScalarLeaf<T> {
    type Device = No;
}
impl<L: ReadsDevice, R: ReadsDevice, Op> ReadsDevice for Binary<L, R, Op>
where
    L::Device: Either<R::Device>,
{
    type Device = <L::Device as Either<R::Device>>::Out;
}
impl<X: ReadsDevice, F> ReadsDevice for Unary<X, F> {
    type Device = X::Device;
}
