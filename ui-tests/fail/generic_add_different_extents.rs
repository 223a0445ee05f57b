//! Same-shape elementwise work over generic extents needs both operands to have the same
//! extents type: `E` and `F` are unrelated.
use mdtensor::{Extents, Tensor};

fn add<E: Extents, F: Extents>(a: &Tensor<f32, E>, b: &Tensor<f32, F>) -> Tensor<f32, E> {
    (a + b).eval()
}

fn main() {}
