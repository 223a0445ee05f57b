//! SpMV of a 3×4 CSR matrix with a 3-vector: the vector's static length must equal the
//! matrix's static column count.
use mdtensor::{ext, sparse::CsrMatrix, tensor};

fn main() {
    let a = CsrMatrix::<f64, ext![3, 4]>::from_triplets(ext![3, 4], &[0usize], &[1usize], &[1.0]);
    let _ = a.matvec(&tensor![1.0, 2.0, 3.0]);
}
