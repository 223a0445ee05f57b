//! Concatenating a matrix with a vector: numpy needs the same rank for both operands.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let b = Tensor::<f32, ext![3]>::zeros(ext![3]);
    let _ = a.concatenate::<0, _>(&b);
}
