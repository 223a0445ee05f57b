//! `solve` with a static 2×3 matrix does not compile.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f64, ext![2, 3]>::zeros(ext![2, 3]);
    let b = Tensor::<f64, ext![2]>::zeros(ext![2]);
    let _x = a.solve(&b);
}
