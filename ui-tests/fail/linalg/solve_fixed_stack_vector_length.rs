//! `solve` of a stack of 3×3 matrices with one vector of length 4 (numpy's `(M,)`
//! right-hand side, one per matrix) does not compile.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f64, ext![2, 3, 3]>::zeros(ext![2, 3, 3]);
    let b = Tensor::<f64, ext![4]>::zeros(ext![4]);
    let _x = a.solve(&b);
}
