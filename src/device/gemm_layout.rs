//! How cuBLAS reads a matrix operand: its layout (row- or column-major with a leading
//! dimension) and the transposes and leading dimensions of a row-major product computed
//! column-major. The products themselves are in `matmul.rs`.

use cudarc::cublas::sys::cublasOperation_t;

/// How a matrix operand sits in memory, for cuBLAS (which reads column-major with a
/// leading dimension): row-major with row stride `ld`, or column-major with column
/// stride `ld`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatLayout {
    /// Rows are contiguous; consecutive rows are `ld` elements apart.
    Row(usize),
    /// Columns are contiguous; consecutive columns are `ld` elements apart.
    Col(usize),
}

/// The [`MatLayout`] of a `rows × cols` matrix with these strides, or `None` when cuBLAS
/// cannot read it in place (a copy is made then). An axis of extent 1 may have any
/// stride.
///
pub(crate) fn mat_layout(rows: usize, cols: usize, strides: [isize; 2]) -> Option<MatLayout> {
    let [s0, s1] = strides;
    if (cols <= 1 || s1 == 1) && (rows <= 1 || s0 == cols as isize) {
        Some(MatLayout::Row(cols.max(1)))
    } else if (rows <= 1 || s0 == 1) && (cols <= 1 || s1 == rows as isize) {
        Some(MatLayout::Col(rows.max(1)))
    } else {
        None
    }
}

/// The cuBLAS arguments of the row-major product `C (m×n) = A (m×k) · B (k×n)`, computed
/// as the column-major `Cᵀ = Bᵀ·Aᵀ` (so `C` needs no transpose): `(transa, lda)` for `B`,
/// `(transb, ldb)` for `A`, and `ldc`.
pub(crate) fn gemm_args(
    a: MatLayout,
    b: MatLayout,
    n: usize,
) -> ((cublasOperation_t, usize), (cublasOperation_t, usize), usize) {
    use cublasOperation_t::{CUBLAS_OP_N, CUBLAS_OP_T};
    // Read column-major, a row-major B (k×n, ld) is Bᵀ (n×k): the first operand as is.
    let first = match b {
        MatLayout::Row(ld) => (CUBLAS_OP_N, ld),
        MatLayout::Col(ld) => (CUBLAS_OP_T, ld),
    };
    // A row-major A (m×k, ld) read column-major is Aᵀ (k×m): the second operand as is.
    let second = match a {
        MatLayout::Row(ld) => (CUBLAS_OP_N, ld),
        MatLayout::Col(ld) => (CUBLAS_OP_T, ld),
    };
    (first, second, n.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_matrix_is_row_or_column_major_with_its_leading_dimension() {
        assert_eq!(mat_layout(2, 3, [3, 1]), Some(MatLayout::Row(3)));
        assert_eq!(mat_layout(2, 3, [1, 2]), Some(MatLayout::Col(2)));
        assert_eq!(mat_layout(2, 3, [6, 2]), None);
        // An axis of extent 1 may have any stride.
        assert_eq!(mat_layout(1, 3, [99, 1]), Some(MatLayout::Row(3)));
    }

    #[test]
    fn a_row_major_product_is_read_column_major_without_a_transposed_output() {
        // Both row-major (A 2×3, B 3×4): no transposes, leading dimensions n and k.
        let ((tb, ldb), (ta, lda), ldc) = gemm_args(MatLayout::Row(3), MatLayout::Row(4), 4);
        assert_eq!(format!("{tb:?} {ldb} {ta:?} {lda} {ldc}"), "CUBLAS_OP_N 4 CUBLAS_OP_N 3 4");
        // A column-major A (a transposed view) is read transposed.
        let (_, (ta, lda), _) = gemm_args(MatLayout::Col(2), MatLayout::Row(4), 4);
        assert_eq!(format!("{ta:?} {lda}"), "CUBLAS_OP_T 2");
    }
}
