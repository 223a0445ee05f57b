//! The right-hand side of a 3×3 band system must have 3 entries.
use mdtensor::{ext, tensor, BandMatrix};

fn main() {
    let a = BandMatrix::<f64, ext![3, 3]>::from_dense(&tensor![[2.0, 1.0, 0.0], [1.0, 2.0, 1.0], [0.0, 1.0, 2.0]], 1, 1);
    let _x = a.solve(&tensor![1.0, 2.0]);
}
