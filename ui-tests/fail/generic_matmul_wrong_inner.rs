//! In generic code the rule still holds: a `(O, I)` matrix times a vector of length `O`.
use mdtensor::{ext, Tensor};

fn layer<const I: usize, const O: usize>(w: &Tensor<f32, ext![O, I]>, x: &Tensor<f32, ext![O]>) -> Tensor<f32, ext![O]> {
    w.matmul(x)
}

fn main() {}
