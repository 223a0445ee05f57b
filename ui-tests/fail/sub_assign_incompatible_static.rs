//! `-=` with a 3×2 right-hand side on a 2×3 tensor: one error, not one per axis.
use mdtensor::{ext, Tensor};

fn main() {
    let mut a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let b = Tensor::<f32, ext![3, 2]>::zeros(ext![3, 2]);
    a -= &b;
}
