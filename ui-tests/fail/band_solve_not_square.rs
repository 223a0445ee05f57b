//! A band system must be square: a static 3×4 band matrix has no solve.
use mdtensor::{ext, tensor, BandMatrix};

fn main() {
    let a = BandMatrix::<f64, ext![3, 4]>::from_dense(&mdtensor::Tensor::<f64, ext![3, 4]>::zeros(ext![3, 4]), 1, 1);
    let _x = a.solve(&tensor![1.0, 2.0, 3.0]);
}
