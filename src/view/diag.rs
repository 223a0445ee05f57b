//! The diagonal as a view (ndarray's `diag`, numpy's `np.diagonal` / `np.diag(m)`), and a
//! square matrix built from a diagonal (ndarray's `from_diag`, numpy's `np.diag(v)`).

use crate::extents::{Dim, Dyn, Extents};
use crate::layout::{Layout, Strided};
use crate::storage::{DenseStorage, ViewMutOf, ViewOf, Viewable, ViewableMut};
use crate::tensor::Tensor;
use num_traits::Zero;

/// Length and stride of the diagonal `[i, i, …, i]`: the shortest extent (1 for rank 0),
/// the sum of the strides.
fn diag_geometry(dims: &[usize], strides: &[isize]) -> (usize, isize) {
    let len = dims.iter().copied().min().unwrap_or(1);
    // The strides of a live tensor reach inside it; their sum is the step of an index
    // that exists whenever len > 1, so it fits. An empty diagonal takes stride 0.
    let step = if len > 1 { strides.iter().sum() } else { 0 };
    (len, step)
}

/// # The diagonal
impl<T, E: Extents, S: Layout<E>, St: Viewable<T>> Tensor<T, E, S, St> {
    /// The elements `[i, i, …, i]` as a 1-D view, as long as the shortest axis (ndarray's
    /// `diag`; numpy's `np.diagonal(m)` for a matrix).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let m = tensor![[1, 2, 3], [4, 5, 6]];
    /// assert_eq!(m.diag().to_vec(), [1, 5]);
    /// assert_eq!(m.t().diag().to_vec(), [1, 5]);
    /// ```
    pub fn diag(&self) -> Tensor<T, (Dyn,), Strided, ViewOf<'_, T, St>> {
        let (len, step) = diag_geometry(self.dims().as_ref(), self.strides().as_ref());
        // SAFETY: index `i` of the diagonal is index `[i, …, i]` of the tensor, valid for
        // every `i < len` (the shortest extent).
        unsafe { self.view().relayout((Dyn(len),), [step], 0) }.expect("a strided mapping takes any strides")
    }
}

impl<T, E: Extents, S: Layout<E>, St: ViewableMut<T>> Tensor<T, E, S, St> {
    /// The diagonal as a mutable 1-D view (ndarray's `diag_mut`).
    ///
    /// ```
    /// use mdtensor::{ext, Tensor};
    /// let mut m = Tensor::<i32, ext![3, 3]>::zeros(ext![3, 3]);
    /// m.diag_mut().fill(7);
    /// assert_eq!(m.to_vec(), [7, 0, 0, 0, 7, 0, 0, 0, 7]);
    /// ```
    pub fn diag_mut(&mut self) -> Tensor<T, (Dyn,), Strided, ViewMutOf<'_, T, St>> {
        let (len, step) = diag_geometry(self.dims().as_ref(), self.strides().as_ref());
        // SAFETY: as in `diag`; distinct diagonal indices are distinct indices of the
        // tensor, so distinct elements of a writable (unique) layout.
        unsafe { self.view_mut().relayout((Dyn(len),), [step], 0) }.expect("a strided mapping takes any strides")
    }
}

impl<T: Clone + Zero> Tensor<T, (Dyn, Dyn)> {
    /// The square matrix with `diag` on its diagonal and zeros elsewhere (ndarray's
    /// `Array2::from_diag`, numpy's `np.diag(v)` for a vector).
    ///
    /// ```
    /// use mdtensor::{ext, tensor, Tensor};
    /// let m = Tensor::<i32, ext![_, _]>::from_diag(&tensor![1, 2]);
    /// assert_eq!(m.to_vec(), [1, 0, 0, 2]);
    /// ```
    pub fn from_diag<D: Dim, S2: Layout<(D,)>, St2: DenseStorage<T>>(diag: &Tensor<T, (D,), S2, St2>) -> Self {
        let n = diag.numel();
        let mut m = Tensor::zeros([n, n]);
        m.diag_mut().iter_mut().zip(diag.iter()).for_each(|(d, x)| *d = x.clone());
        m
    }
}
