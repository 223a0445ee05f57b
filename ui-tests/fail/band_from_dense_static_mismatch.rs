//! A 2×2 dense matrix cannot become a 3×3 band matrix.
use mdtensor::{ext, tensor, BandMatrix};

fn main() {
    let two_by_two = tensor![[1.0, 2.0], [3.0, 4.0]];
    let _b = BandMatrix::<f64, ext![3, 3]>::from_dense(&two_by_two, 1, 1);
}
