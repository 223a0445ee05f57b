//! Running sums and products along an axis: numpy's `cumsum(a, axis)` and
//! `cumprod(a, axis)`, for any stride policy; the result has the input's extents. Without
//! an axis numpy flattens first: [`Tensor::cumsum_flat`], [`Tensor::cumprod_flat`].

use super::along::{around, check_axis};
use crate::error::ShapeError;
use crate::extents::{Axis, AxisAt, Dyn, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::{or_panic, Tensor};
use core::ops::{Add, Mul};

/// `x[…, j, …] = f(x[…, j - 1, …], x[…, j, …])` along `axis`, in a row-major copy.
fn scan<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    op: &'static str,
    axis: usize,
    f: impl Fn(&T, &T) -> T,
) -> Result<Tensor<T, E>, ShapeError> {
    check_axis(op, axis, t.rank())?;
    let mut v = t.to_vec();
    let (outer, n, inner) = around(t.dims().as_ref(), axis);
    for o in 0..outer {
        let block = o * n * inner;
        for p in block + inner..block + n * inner {
            v[p] = f(&v[p - inner], &v[p]);
        }
    }
    Tensor::try_from_vec(t.extents().clone(), v).map_err(|(e, _)| e)
}

/// Running `f` over all elements in logical order: numpy's cumulative functions without an
/// axis.
fn scan_flat<T: Clone>(mut v: Vec<T>, f: impl Fn(&T, &T) -> T) -> Tensor<T, (Dyn,)> {
    for p in 1..v.len() {
        v[p] = f(&v[p - 1], &v[p]);
    }
    Tensor::from_vec([v.len()], v)
}

/// # Cumulative sums and products
impl<T: Clone, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// Running sums of all elements in logical (row-major) order, a vector (numpy's
    /// `cumsum(a)` without an axis).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// assert_eq!(tensor![[1, 2], [3, 4]].t().cumsum_flat().to_vec(), [1, 4, 6, 10]);
    /// ```
    pub fn cumsum_flat(&self) -> Tensor<T, (Dyn,)>
    where
        T: Add<Output = T>,
    {
        scan_flat(self.to_vec(), |a, b| a.clone() + b.clone())
    }
    /// Running products of all elements in logical order (numpy's `cumprod(a)`).
    pub fn cumprod_flat(&self) -> Tensor<T, (Dyn,)>
    where
        T: Mul<Output = T>,
    {
        scan_flat(self.to_vec(), |a, b| a.clone() * b.clone())
    }
    /// See [`Tensor::cumsum`]; `Err` only for a [`DynRank`](crate::DynRank) tensor without
    /// axis `I`.
    pub fn try_cumsum<const I: usize>(&self) -> Result<Tensor<T, E>, ShapeError>
    where
        E: AxisAt<I>,
        T: Add<Output = T>,
    {
        scan(self, "cumsum", I, |a, b| a.clone() + b.clone())
    }
    /// Running sums along axis `I` (numpy's `cumsum(a, axis=I)`).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let a = tensor![[1, 2, 3], [4, 5, 6]];
    /// assert_eq!(a.cumsum::<1>().to_vec(), [1, 3, 6, 4, 9, 15]);
    /// assert_eq!(a.cumsum::<0>().to_vec(), [1, 2, 3, 5, 7, 9]);
    /// ```
    #[track_caller]
    pub fn cumsum<const I: usize>(&self) -> Tensor<T, E>
    where
        E: AxisAt<I>,
        T: Add<Output = T>,
    {
        or_panic(self.try_cumsum::<I>())
    }
    /// [`Tensor::cumsum`] along a run-time axis; `Err` outside `-rank..rank` (a negative axis counts from the end).
    pub fn try_cumsum_dyn(&self, axis: impl Into<Axis>) -> Result<Tensor<T, E>, ShapeError>
    where
        T: Add<Output = T>,
    {
        let axis = axis.into().resolve("cumsum_dyn", self.rank())?;
        scan(self, "cumsum_dyn", axis, |a, b| a.clone() + b.clone())
    }
    /// [`Tensor::cumsum`] along a run-time axis.
    #[track_caller]
    pub fn cumsum_dyn(&self, axis: impl Into<Axis>) -> Tensor<T, E>
    where
        T: Add<Output = T>,
    {
        or_panic(self.try_cumsum_dyn(axis))
    }
    /// See [`Tensor::cumprod`].
    pub fn try_cumprod<const I: usize>(&self) -> Result<Tensor<T, E>, ShapeError>
    where
        E: AxisAt<I>,
        T: Mul<Output = T>,
    {
        scan(self, "cumprod", I, |a, b| a.clone() * b.clone())
    }
    /// Running products along axis `I` (numpy's `cumprod(a, axis=I)`).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// assert_eq!(tensor![1, 2, 3, 4].cumprod::<0>().to_vec(), [1, 2, 6, 24]);
    /// ```
    #[track_caller]
    pub fn cumprod<const I: usize>(&self) -> Tensor<T, E>
    where
        E: AxisAt<I>,
        T: Mul<Output = T>,
    {
        or_panic(self.try_cumprod::<I>())
    }
    /// [`Tensor::cumprod`] along a run-time axis; `Err` outside `-rank..rank` (a negative axis counts from the end).
    pub fn try_cumprod_dyn(&self, axis: impl Into<Axis>) -> Result<Tensor<T, E>, ShapeError>
    where
        T: Mul<Output = T>,
    {
        let axis = axis.into().resolve("cumprod_dyn", self.rank())?;
        scan(self, "cumprod_dyn", axis, |a, b| a.clone() * b.clone())
    }
    /// [`Tensor::cumprod`] along a run-time axis.
    #[track_caller]
    pub fn cumprod_dyn(&self, axis: impl Into<Axis>) -> Tensor<T, E>
    where
        T: Mul<Output = T>,
    {
        or_panic(self.try_cumprod_dyn(axis))
    }
}
