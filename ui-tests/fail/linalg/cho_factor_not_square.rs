//! `cho_factor` shares `cholesky`'s rule: a static 3×1 matrix does not compile.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f64, ext![3, 1]>::zeros(ext![3, 1]);
    let _c = a.cho_factor();
}
