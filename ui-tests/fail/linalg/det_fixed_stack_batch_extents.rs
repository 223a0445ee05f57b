//! `det` of a stack `ext![2, 3, 3]` is `ext![2]` (one per matrix), not `ext![3]`.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f64, ext![2, 3, 3]>::zeros(ext![2, 3, 3]);
    let _d: Tensor<f64, ext![3]> = a.det();
}
