//! Rank-6 tuple extents multiply with numpy's rule; batch axes of extents 3 and 2 (aligned from the right) do not broadcast.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 1, 3, 1, 3, 4]>::zeros(ext![2, 1, 3, 1, 3, 4]);
    let b = Tensor::<f32, ext![3, 2, 1, 4, 5]>::zeros(ext![3, 2, 1, 4, 5]);
    let _ = a.matmul(&b);
}
