//! `det` of a rank-4 stack `(A, B, M, N)` needs `M = N` in the type.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f64, ext![2, 5, 3, 2]>::zeros(ext![2, 5, 3, 2]);
    let _d = a.det();
}
