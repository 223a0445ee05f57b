//! numpy's `kron`: the Kronecker product, every element of `a` times the whole of `b`,
//! the operands' ranks first made equal with leading axes of extent 1 (numpy's rule), so
//! the result has extents `a.dims[k] · b.dims[k]`. Integer products wrap as numpy's do
//! ([`Accumulate`]).

use super::cumulative::Accumulate;
use crate::alloc::try_vec_with_capacity;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{DynRank, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// `dims` with leading ones up to `rank`.
fn promoted(dims: &[usize], rank: usize) -> Vec<usize> {
    let mut d = vec![1usize; rank - dims.len()];
    d.extend_from_slice(dims);
    d
}

/// # The Kronecker product
impl<T: Accumulate, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::kron`]; `Err` for a result that does not fit.
        pub fn try_kron[E2: Extents, S2: Layout<E2>, St2: DenseStorage<T>](&self, b: &Tensor<T, E2, S2, St2>) -> Result<Tensor<T, DynRank>, ShapeError>
        {
            let op = "kron";
            let rank = self.rank().max(b.rank());
            let (da, db) = (promoted(self.dims().as_ref(), rank), promoted(b.dims().as_ref(), rank));
            let too_big = || ShapeError::InvalidArgument { op, reason: "the product's extents overflow usize".into() };
            let dims: Vec<usize> = da.iter().zip(&db).map(|(&x, &y)| x.checked_mul(y).ok_or_else(too_big)).collect::<Result<_, _>>()?;
            let out = DynRank::new(dims.clone());
            let count = out.checked_numel(op, core::mem::size_of::<T>())?;
            let (va, vb) = (self.to_vec_op(op)?, b.to_vec_op(op)?);
            let mut v: Vec<T> = try_vec_with_capacity(op, count)?;
            // Result index i splits per axis into (i_k / db_k, i_k % db_k): a's and b's.
            let mut idx = vec![0usize; rank];
            for _ in 0..count {
                let (mut pa, mut pb) = (0, 0);
                for k in 0..rank {
                    pa = pa * da[k] + idx[k] / db[k];
                    pb = pb * db[k] + idx[k] % db[k];
                }
                v.push(va[pa].acc_mul(&vb[pb]));
                for k in (0..rank).rev() {
                    idx[k] += 1;
                    if idx[k] < dims[k] {
                        break;
                    }
                    idx[k] = 0;
                }
            }
            Tensor::try_from_vec(out, v).map_err(|(e, _)| e)
        }
        /// The Kronecker product (numpy's `kron(a, b)`): block `[i, j]` is `a[i, j] · b`.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2], [3, 4]];
        /// let k = a.kron(&tensor![[0, 1], [1, 0]]);
        /// assert_eq!(k.dims(), [4, 4]);
        /// assert_eq!(k.to_vec(), [0, 1, 0, 2, 1, 0, 2, 0, 0, 3, 0, 4, 3, 0, 4, 0]);
        /// assert_eq!(tensor![1, 10].kron(&tensor![[1, 2]]).to_vec(), [1, 2, 10, 20]);
        /// ```
        pub fn kron;
    }
}
