//! `softmax` and `log_softmax` along an axis, numerically stable: each fiber is shifted by
//! its maximum before exponentiation, so inputs of ±1000 neither overflow nor lose the
//! result. The axis is a const generic (`softmax::<1>()`) or a run-time value
//! (`softmax_dyn(1)`); each has a `try_` form. The result's storage follows the input's
//! ([`ResultStorage`]): a static stack tensor's softmax is a stack tensor, with no heap
//! allocation.

use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::exec::paths::with_known_paths;
use crate::extents::{Axis, AxisAt, Extents};
use crate::kernels::softmax::softmax_fibers;
use crate::layout::Layout;
use crate::layout::RowMajor;
use crate::ops::expr::{Expr, SizePaths};
use crate::storage::{DenseStorage, DenseStorageMut, ResultStorage};
use crate::tensor::Tensor;
use num_traits::Float;

/// The result of a softmax of a tensor of storage `St`: row-major, in the storage
/// [`ResultStorage`] picks (inline for a static stack tensor, the heap otherwise).
pub type Softmaxed<T, E, St> = Tensor<T, E, RowMajor, <St as ResultStorage<T, E>>::Out>;

/// # Softmax along an axis
impl<T: Float + Send + Sync, E: Extents, S: Layout<E>, St: DenseStorage<T> + ResultStorage<T, E>> Tensor<T, E, S, St> {
    /// `softmax` (or `log_softmax` when `log`) along `axis`, the engine of every form.
    fn softmax_along(
        &self,
        op: &'static str,
        axis: usize,
        log: bool,
        par: Par,
    ) -> Result<Softmaxed<T, E, St>, ShapeError> {
        if axis >= self.rank() {
            return Err(ShapeError::AxisOutOfRange { op, axis, rank: self.rank() });
        }
        // A row-major copy through the expression engine, then the kernel in place: both
        // are shared by every shape (see `kernels::softmax`).
        let mut out = Expr::try_eval_in::<St::Out>(self)?;
        let (dims, strides) = (out.dims(), out.strides());
        let data = out.storage.as_mut_ptr();
        // SAFETY: `out` is a fresh row-major tensor with these extents and strides, borrowed
        // mutably for the call; `axis < rank` was checked above.
        with_known_paths!(SizePaths<E>, - - wide, K => unsafe {
            softmax_fibers::<T, K>(data, dims.as_ref(), strides.as_ref(), axis, log, par)
        });
        Ok(out)
    }

    forms! {
        /// `exp(x) / Σ exp(x)` along axis `I` with an explicit choice of threads (the same
        /// result whatever the threads); `Err` only for [`DynRank`](crate::DynRank) when
        /// `I >= rank`.
        pub fn try_softmax_with[const I: usize]::<I>(&self) with par -> Result<Softmaxed<T, E, St>, ShapeError>
        where [E: AxisAt<I>]
        {
            self.softmax_along("softmax", I, false, par)
        }
        /// `exp(x) / Σ exp(x)` along axis `I`; `Err` only for [`DynRank`](crate::DynRank) when
        /// `I >= rank`.
        pub fn try_softmax;
        /// `exp(x) / Σ exp(x)` along axis `I`, computed stably (inputs of 1000 are fine).
        ///
        /// ```
        /// use mdtensor::{prelude::*, tensor, Par};
        /// let x = tensor![[1000.0, 1000.0], [0.0, f64::ln(3.0)]];
        /// let s = x.softmax::<1>();
        /// assert_eq!(s.to_vec(), [0.5, 0.5, 0.25, 0.75]);
        /// assert!((s.sum_axis::<1>().to_vec()[1] - 1.0f64).abs() < 1e-12);
        /// assert_eq!(x.softmax_with::<1>(Par::Seq), s);
        /// ```
        pub fn softmax;
        /// [`Tensor::softmax`] with an explicit choice of threads.
        pub fn softmax_with;
    }

    forms! {
        /// `exp(x) / Σ exp(x)` along the run-time axis `axis` with an explicit choice of
        /// threads; `Err` outside `-rank..rank` (a negative axis counts from the end).
        pub fn try_softmax_dyn_with[](&self, axis: impl Into<Axis>) with par -> Result<Softmaxed<T, E, St>, ShapeError>
        {
            let axis = axis.into().resolve("softmax_dyn", self.rank())?;
            self.softmax_along("softmax_dyn", axis, false, par)
        }
        /// `exp(x) / Σ exp(x)` along the run-time axis `axis`; `Err` outside `-rank..rank`.
        pub fn try_softmax_dyn;
        /// `exp(x) / Σ exp(x)` along the run-time axis `axis`, computed stably.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let x = Tensor::<f64, DynRank>::from_vec(DynRank::new(vec![2, 2]), vec![0.0, 0.0, 1.0, 1.0]);
        /// assert_eq!(x.softmax_dyn(1).to_vec(), [0.5, 0.5, 0.5, 0.5]);
        /// assert_eq!(x.softmax_dyn(-1).to_vec(), [0.5, 0.5, 0.5, 0.5]);
        /// assert!(x.try_softmax_dyn(2).is_err());
        /// ```
        pub fn softmax_dyn;
        /// [`Tensor::softmax_dyn`] with an explicit choice of threads.
        pub fn softmax_dyn_with;
    }

    forms! {
        /// `x - log Σ exp(x)` along axis `I` with an explicit choice of threads; `Err` only
        /// for [`DynRank`](crate::DynRank) when `I >= rank`.
        pub fn try_log_softmax_with[const I: usize]::<I>(&self) with par -> Result<Softmaxed<T, E, St>, ShapeError>
        where [E: AxisAt<I>]
        {
            self.softmax_along("log_softmax", I, true, par)
        }
        /// `x - log Σ exp(x)` along axis `I`; `Err` only for [`DynRank`](crate::DynRank)
        /// when `I >= rank`.
        pub fn try_log_softmax;
        /// `x - log Σ exp(x)` along axis `I`, computed stably.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let x = tensor![[-1000.0, -1000.0]];
        /// let l = x.log_softmax::<1>();
        /// assert!((l[[0, 0]] - (-std::f64::consts::LN_2)).abs() < 1e-12);
        /// ```
        pub fn log_softmax;
        /// [`Tensor::log_softmax`] with an explicit choice of threads.
        pub fn log_softmax_with;
    }

    forms! {
        /// `x - log Σ exp(x)` along the run-time axis `axis` with an explicit choice of
        /// threads; `Err` outside `-rank..rank` (a negative axis counts from the end).
        pub fn try_log_softmax_dyn_with[](&self, axis: impl Into<Axis>) with par
            -> Result<Softmaxed<T, E, St>, ShapeError>
        {
            let axis = axis.into().resolve("log_softmax_dyn", self.rank())?;
            self.softmax_along("log_softmax_dyn", axis, true, par)
        }
        /// `x - log Σ exp(x)` along the run-time axis `axis`; `Err` outside `-rank..rank`.
        pub fn try_log_softmax_dyn;
        /// `x - log Σ exp(x)` along the run-time axis `axis`, computed stably.
        pub fn log_softmax_dyn;
        /// [`Tensor::log_softmax_dyn`] with an explicit choice of threads.
        pub fn log_softmax_dyn_with;
    }
}
