//! A matrix product with a rank-0 (scalar) operand: numpy's `matmul` rejects scalars too;
//! multiply elementwise instead.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![]>::zeros(ext![]);
    let b = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let _ = a.matmul(&b);
}
