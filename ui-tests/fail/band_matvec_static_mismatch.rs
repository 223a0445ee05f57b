//! A 3×3 band matrix times a 2-vector: both lengths are static, so the mismatch is a
//! type error, as for dense `matmul`.
use mdtensor::{ext, tensor, BandMatrix};

fn main() {
    let a = BandMatrix::<f64, ext![3, 3]>::with_bandwidths(ext![3, 3], 1, 1);
    let _ = a.matvec(&tensor![1.0, 2.0]);
}
