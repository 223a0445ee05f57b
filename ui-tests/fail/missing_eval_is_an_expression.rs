//! `a + b` is a lazy expression, not a tensor: returning it where a tensor is expected is a
//! type mismatch whose note names the expression type; `.eval()` makes the tensor.
use mdtensor::{ext, Tensor};

fn add(a: &Tensor<f32, ext![2]>, b: &Tensor<f32, ext![2]>) -> Tensor<f32, ext![2]> {
    a + b
}

fn main() {}
