//! A diagonal `i i` of a 2×3 matrix: the two axes of one label differ.
use mdtensor::{einsum, ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let _ = einsum!(i i -> i; &a);
}
