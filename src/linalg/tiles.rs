//! Copies between the row-major matrices of tensors and the column-major working copies
//! of factorizations. A transpose element by element reads or writes one cache line per
//! element, and the rows of a 1024² `f64` matrix lie 8 KiB apart, so that the lines of a
//! 16 × 16 block fall in the same few sets of the L1 cache and evict each other. Here every
//! block is read as whole row segments into a small buffer and written as whole segments.

use super::scalar::LinalgScalar;
use faer::{MatMut, MatRef};

/// The side of the blocks.
pub(crate) const TILE: usize = 16;

/// Copies `src` into `dst` (the same shape), only the lower triangle when `lower` (with
/// some elements above it where a block crosses the diagonal).
#[allow(clippy::needless_range_loop, reason = "a row index of one operand is a column index of the block")]
pub(crate) fn copy_tiled<T: LinalgScalar>(mut dst: MatMut<'_, T>, src: MatRef<'_, T>, lower: bool) {
    let (m, n) = (src.nrows(), src.ncols());
    let same = (src.row_stride() == 1 && dst.row_stride() == 1) || (src.col_stride() == 1 && dst.col_stride() == 1);
    if same && !lower {
        dst.copy_from(src);
        return;
    }
    if !lower && src.row_stride() == 1 && dst.col_stride() == 1 {
        // Columns into rows: rows into columns of the two transposes.
        return copy_tiled(dst.transpose_mut(), src.transpose(), false);
    }
    let rows_to_cols = src.col_stride() == 1 && dst.row_stride() == 1;
    let mut tile = [[T::zero(); TILE]; TILE];
    for j in (0..n).step_by(TILE) {
        let bn = TILE.min(n - j);
        let first = if lower { j } else { 0 };
        for i in (first..m).step_by(TILE) {
            let bm = TILE.min(m - i);
            if rows_to_cols {
                // Rows of `src` in, columns of `dst` out.
                for r in 0..bm {
                    let row = src.row(i + r).try_as_row_major().map(|x| x.as_slice()).unwrap_or_default();
                    for (c, &x) in row[j..j + bn].iter().enumerate() {
                        tile[c][r] = x;
                    }
                }
                for (c, t) in tile.iter().enumerate().take(bn) {
                    if let Some(col) = dst.as_mut().col_mut(j + c).try_as_col_major_mut() {
                        col.as_slice_mut()[i..i + bm].copy_from_slice(&t[..bm]);
                    }
                }
            } else {
                dst.as_mut().submatrix_mut(i, j, bm, bn).copy_from(src.submatrix(i, j, bm, bn));
            }
        }
    }
}

/// Moves the upper triangle of the row-major `n × n` matrix `w` (diagonal kept) to its
/// lower triangle, transposed, and zeroes what is above the diagonal: `Lᵀ` read row-major
/// becomes `L`.
pub(crate) fn lower_from_upper<T: LinalgScalar>(w: &mut [T], n: usize) {
    let mut tile = [[T::zero(); TILE]; TILE];
    for i in (0..n).step_by(TILE) {
        let bi = TILE.min(n - i);
        for j in (0..i).step_by(TILE) {
            let bj = TILE.min(n - j);
            // The block above the diagonal (rows j.., columns i..) in, zeroed; its
            // transpose out to the block below (rows i.., columns j..).
            for r in 0..bj {
                let row = &mut w[(j + r) * n + i..(j + r) * n + i + bi];
                for (c, x) in row.iter_mut().enumerate() {
                    tile[c][r] = core::mem::replace(x, T::zero());
                }
            }
            for (c, t) in tile.iter().enumerate().take(bi) {
                w[(i + c) * n + j..(i + c) * n + j + bj].copy_from_slice(&t[..bj]);
            }
        }
        // The block on the diagonal: within it, element by element.
        for r in 0..bi {
            for c in 0..r {
                w[(i + r) * n + i + c] = core::mem::replace(&mut w[(i + c) * n + i + r], T::zero());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_move_every_element_once() {
        for n in [0usize, 1, 5, 16, 17, 40] {
            let mut w: Vec<f64> = (0..n * n).map(|k| k as f64).collect();
            lower_from_upper(&mut w, n);
            for r in 0..n {
                for c in 0..n {
                    let want = if c > r { 0.0 } else { (c * n + r) as f64 };
                    assert_eq!(w[r * n + c], want, "n = {n}, ({r}, {c})");
                }
            }
            for (m, lower) in [(n, true), (n, false), (n + 3, false)] {
                let src: Vec<f64> = (0..m * n).map(|k| k as f64 + 0.5).collect();
                let mut dst = vec![-1.0; m * n];
                copy_tiled(
                    MatMut::from_column_major_slice_mut(&mut dst, m, n),
                    MatRef::from_row_major_slice(&src, m, n),
                    lower,
                );
                for r in 0..m {
                    for c in 0..n {
                        if !lower || r >= c {
                            assert_eq!(dst[c * m + r], src[r * n + c], "{m}×{n} lower {lower}: ({r}, {c})");
                        }
                    }
                }
            }
        }
    }
}
