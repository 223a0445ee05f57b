//! `solve` of a stack of 3×3 matrices with right-hand sides of 4 rows does not compile.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f64, ext![2, 3, 3]>::zeros(ext![2, 3, 3]);
    let b = Tensor::<f64, ext![2, 4, 1]>::zeros(ext![2, 4, 1]);
    let _x = a.solve(&b);
}
