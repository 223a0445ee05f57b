//! `cholesky` of a static 2×4 matrix does not compile.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f64, ext![2, 4]>::zeros(ext![2, 4]);
    let _l = a.cholesky();
}
