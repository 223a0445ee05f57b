//! `.eval()` and `.to_vec()` spelled on device expressions, so that the host's names, called
//! on a tree whose operands live on the device, are one error saying to call `.eval_on(&dev)`.
//!
//! Through [`Expr::eval`] alone, `(&d * 2.0).eval()` is "method exists but its trait
//! bounds were not satisfied" (E0599), without a hint. This trait gives device trees an
//! `eval` of the same signature behind `Self: Expr`: the call resolves, and the unmet bound
//! is reported on the device operand, whose message names `.eval_on(&dev)` and
//! `.to_host()`. Host trees are not device expressions, so their `.eval()` stays
//! [`Expr::eval`] and is inferred as before.

use super::kernel::DeviceExpr;
use crate::ops::{Expr, ExprShape};
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
pub trait DeviceEvalHint: DeviceExpr {
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
impl<X: DeviceExpr> DeviceEvalHint for X {}
