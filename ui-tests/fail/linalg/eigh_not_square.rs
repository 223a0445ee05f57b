//! `eigh` of a static 3×2 matrix does not compile.
use mdtensor::{ext, linalg::Uplo, Tensor};

fn main() {
    let a = Tensor::<f64, ext![3, 2]>::zeros(ext![3, 2]);
    let _e = a.eigh(Uplo::Lower);
}
