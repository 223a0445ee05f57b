//! Sums of sparse tensors: of every stored entry, and along one axis (a dense result).

use crate::extents::{Extents, RemoveAxis};
use crate::layout::{Layout, RowMajor};
use crate::sparse::{SparseElem, SparseStorage};
use crate::storage::ReadStorage;
use crate::tensor::{or_panic, Tensor};

impl<T: SparseElem, E: Extents, S: Layout<E>, St: SparseStorage<T> + ReadStorage<T, E, S>> Tensor<T, E, S, St> {
    /// Sum of all elements (of the stored ones: the others are zero).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// assert_eq!(tensor![[0, 3], [4, 0]].to_csr().sum(), 7);
    /// ```
    pub fn sum(&self) -> T {
        let mut s = T::zero();
        self.for_each_stored(|_, &v| s = s + v);
        s
    }

    /// Sums along axis `AX` into a dense tensor without that axis (a dense result: a sum
    /// along an axis is rarely sparse).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let a = tensor![[1, 0, 2], [0, 3, 0]].to_csc();
    /// assert_eq!(a.sum_axis::<0>().to_vec(), [1, 3, 2]);
    /// assert_eq!(a.sum_axis::<1>().to_vec(), [3, 3]);
    /// ```
    #[track_caller]
    pub fn sum_axis<const AX: usize>(&self) -> Tensor<T, <E as RemoveAxis<AX>>::Output>
    where
        E: RemoveAxis<AX>,
    {
        let ext = or_panic(self.extents().remove_axis());
        let strides = <RowMajor as Layout<_>>::strides(&ext, &());
        let mut out = Tensor::<T, _>::full(ext, T::zero());
        let buf = out.as_slice_mut().expect("a fresh row-major tensor is contiguous");
        self.for_each_stored(|idx, &v| {
            let rest = idx[..AX].iter().chain(&idx[AX + 1..]);
            let pos: isize = rest.zip(strides.as_ref()).map(|(&i, &s)| i as isize * s).sum();
            buf[pos as usize] = buf[pos as usize] + v;
        });
        out
    }
}
