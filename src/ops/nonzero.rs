//! Where a tensor is nonzero: numpy's `nonzero` (one index vector per axis) and
//! `argwhere` (one row of indices per nonzero element), in logical order; indices are
//! `usize`. An element is nonzero when it differs from `T::default()`: 0 for numbers,
//! `false` for `bool`, so a mask from a comparison works directly.

use crate::alloc::try_vec_with_capacity;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Dyn, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// # Nonzero elements
impl<T: PartialEq + Default, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// The multi-indices of the nonzero elements, flattened row by row, and their count.
    fn nonzero_rows(&self, op: &'static str) -> Result<(Vec<usize>, usize), ShapeError> {
        let zero = T::default();
        let rank = self.rank();
        let count = self.iter().filter(|x| **x != zero).count();
        let len = count.checked_mul(rank).ok_or(ShapeError::OutOfMemory { op, bytes: usize::MAX })?;
        let mut rows: Vec<usize> = try_vec_with_capacity(op, len)?;
        let dims = self.dims();
        let dims = dims.as_ref();
        let mut idx = vec![0usize; rank];
        for x in self.iter() {
            if *x != zero {
                rows.extend_from_slice(&idx);
            }
            for k in (0..rank).rev() {
                idx[k] += 1;
                if idx[k] < dims[k] {
                    break;
                }
                idx[k] = 0;
            }
        }
        Ok((rows, count))
    }
    forms! {
        /// See [`Tensor::argwhere`]; `Err` only when the allocator refuses.
        pub fn try_argwhere[](&self) -> Result<Tensor<usize, (Dyn, Dyn)>, ShapeError>
        {
            let (rows, count) = self.nonzero_rows("argwhere")?;
            Tensor::try_from_vec([count, self.rank()], rows).map_err(|(e, _)| e)
        }
        /// The indices of the nonzero elements, one row each, in logical order (numpy's
        /// `argwhere(a)`: shape `(count, rank)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[0, 3], [4, 0]];
        /// let w = a.argwhere();
        /// assert_eq!(w.dims(), [2, 2]);
        /// assert_eq!(w.to_vec(), [0, 1, 1, 0]);
        /// ```
        pub fn argwhere;
    }
    forms! {
        /// See [`Tensor::nonzero`]; `Err` only when the allocator refuses.
        pub fn try_nonzero[](&self) -> Result<Vec<Tensor<usize, (Dyn,)>>, ShapeError>
        {
            let op = "nonzero";
            let (rows, count) = self.nonzero_rows(op)?;
            let rank = self.rank();
            let mut out = try_vec_with_capacity(op, rank)?;
            for k in 0..rank {
                let mut col: Vec<usize> = try_vec_with_capacity(op, count)?;
                col.extend(rows.iter().skip(k).step_by(rank).copied());
                out.push(Tensor::try_from_vec([count], col).map_err(|(e, _)| e)?);
            }
            Ok(out)
        }
        /// One vector per axis holding that axis' index of each nonzero element (numpy's
        /// `nonzero(a)`, a tuple there), so `(rows[i], cols[i])` is the `i`-th nonzero.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[0.0, 1.5], [2.0, 3.0]];
        /// let nz = a.nonzero();
        /// assert_eq!(nz[0].to_vec(), [0, 1, 1]);
        /// assert_eq!(nz[1].to_vec(), [1, 0, 1]);
        /// assert_eq!(tensor![true, false, true].nonzero()[0].to_vec(), [0, 2]);
        /// ```
        pub fn nonzero;
    }
}
