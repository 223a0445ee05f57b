//! `lu_factor` needs a square matrix (`lu` takes any shape): 2×3 does not compile.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f64, ext![2, 3]>::zeros(ext![2, 3]);
    let _f = a.lu_factor();
}
