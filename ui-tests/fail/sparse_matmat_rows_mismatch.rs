//! A 3×4 CSR matrix times a dense 3×2 matrix: the dense operand needs 4 rows.
use mdtensor::{ext, CsrMatrix, Tensor};

fn main() {
    let a: CsrMatrix<f64, ext![3, 4]> = Tensor::<f64, ext![3, 4]>::zeros(ext![3, 4]).to_csr();
    let b = Tensor::<f64, ext![3, 2]>::zeros(ext![3, 2]);
    let _c = a.matmat(&b);
}
