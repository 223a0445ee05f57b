//! `inv` of `ext![3, 3]` is `ext![3, 3]`: it cannot be taken as a 4×4 matrix.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f64, ext![3, 3]>::eye(ext![3, 3]);
    let _i: Tensor<f64, ext![4, 4]> = a.inv();
}
