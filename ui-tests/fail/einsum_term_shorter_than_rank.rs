//! Two labels for a tensor of rank 3.
use mdtensor::{einsum, ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3, 4]>::zeros(ext![2, 3, 4]);
    let _ = einsum!(i j -> i; &a);
}
