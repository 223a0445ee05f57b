//! Rank-5 tuple extents whose inner dimensions (4 and 3) differ.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 1, 2, 3, 4]>::zeros(ext![2, 1, 2, 3, 4]);
    let b = Tensor::<f32, ext![2, 3, 5]>::zeros(ext![2, 3, 5]);
    let _ = a.matmul(&b);
}
