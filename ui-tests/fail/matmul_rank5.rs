//! A matrix product of rank-5 tuple extents: tuple extents take vectors, matrices and
//! batches with up to two batch axes (rank 1 to 4); beyond that the operands go through
//! `DynRank` (`into_dyn()`), where numpy's rule is checked at run time.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 2, 2, 3, 4]>::zeros(ext![2, 2, 2, 3, 4]);
    let b = Tensor::<f32, ext![2, 2, 2, 4, 5]>::zeros(ext![2, 2, 2, 4, 5]);
    let _ = a.matmul(&b);
}
