//! Compressed (CSR/CSC) storage is for matrices: asking for it with rank-3 extents does not
//! compile (COO holds any rank).
use mdtensor::{ext, sparse::Compressed, RowMajor, Tensor};

fn main() {
    let _ = Tensor::<f64, ext![2, 3, 4], RowMajor, Compressed<f64>>::try_new(ext![2, 3, 4], vec![0], vec![], vec![]);
}
