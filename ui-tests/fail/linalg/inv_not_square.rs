//! `inv` of a static 2×3 matrix does not compile: it is not square.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f64, ext![2, 3]>::zeros(ext![2, 3]);
    let _i = a.inv();
}
