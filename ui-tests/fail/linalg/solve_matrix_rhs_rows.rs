//! A matrix right-hand side needs one row per row of the matrix: 3×3 with 2×5 does not compile.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f64, ext![3, 3]>::eye(ext![3, 3]);
    let b = Tensor::<f64, ext![2, 5]>::zeros(ext![2, 5]);
    let _x = a.try_solve(&b);
}
