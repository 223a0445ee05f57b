//! `solve` of a static 3×3 matrix with a right-hand side of length 4 does not compile.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f64, ext![3, 3]>::eye(ext![3, 3]);
    let b = Tensor::<f64, ext![4]>::zeros(ext![4]);
    let _x = a.solve(&b);
}
