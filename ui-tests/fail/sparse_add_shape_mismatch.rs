//! Adding two sparse matrices of different static extents (3×4 and 4×3).
use mdtensor::{ext, sparse::CsrMatrix};

fn main() {
    let a = CsrMatrix::<f64, ext![3, 4]>::from_triplets(ext![3, 4], &[0usize], &[1usize], &[1.0]);
    let b = CsrMatrix::<f64, ext![4, 3]>::from_triplets(ext![4, 3], &[0usize], &[1usize], &[1.0]);
    let _ = a.sparse_add(&b);
}
