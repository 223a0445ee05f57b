//! `matvec_into` writes a 3×3 band product into a vector of length 2.
use mdtensor::{ext, tensor, BandMatrix, Tensor};

fn main() {
    let a = BandMatrix::<f64, ext![3, 3]>::from_dense(&tensor![[2.0, 1.0, 0.0], [1.0, 2.0, 1.0], [0.0, 1.0, 2.0]], 1, 1);
    let x = tensor![1.0, 2.0, 3.0];
    let mut y = Tensor::<f64, ext![2]>::zeros(ext![2]);
    a.matvec_into(&x, &mut y);
}
