//! numpy's `cov` and `corrcoef` of variables in rows (numpy's default `rowvar=True`): for
//! `k` variables of `n` observations, the `k × k` covariance `Σ (x_i - x̄_i)(x_j - x̄_j) /
//! (n - ddof)` and the correlation `c_ij / √(c_ii c_jj)`, clipped to `[-1, 1]` as numpy's.
//! A matrix `(R, C)` gives `(R, R)`, static where `R` is; a [`DynRank`] input of rank 1 is
//! one variable (a rank-0 result, as numpy's), of rank 2 a matrix. numpy's `cov` takes
//! `ddof=1` by default (`bias=False`); here `ddof` is explicit, as in `var`. A divisor
//! `n - ddof <= 0` divides by zero (`inf`/NaN), where numpy warns and does the same; a
//! variable of zero variance gives NaN correlations.
//!
//! ```
//! use mdtensor::tensor;
//! let x = tensor![[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]];
//! assert_eq!(x.cov(1).to_vec(), [1.0, -1.0, -1.0, 1.0]);
//! assert_eq!(x.corrcoef().to_vec(), [1.0, -1.0, -1.0, 1.0]);
//! ```

use super::ddof::{var_divisor, Ddof};
use crate::alloc::try_vec_with_capacity;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Dim, DynRank};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Real;
use crate::tensor::Tensor;

/// The `k × k` covariance of the `k` rows of `x` (row-major, `n` a row), in place of `x`'s
/// deviations; with `corr`, the correlation.
fn cov_rows<T: Real>(
    op: &'static str,
    mut x: Vec<T>,
    k: usize,
    n: usize,
    ddof: Ddof,
    corr: bool,
) -> Result<Vec<T>, ShapeError> {
    let nf = T::from_usize(n).unwrap_or_else(T::nan);
    if n > 0 {
        for row in x.chunks_exact_mut(n) {
            let mean = row.iter().fold(T::zero(), |s, &v| s + v) / nf;
            row.iter_mut().for_each(|v| *v = *v - mean);
        }
    }
    let div = var_divisor(nf, ddof.to_float::<T>());
    let len = k.checked_mul(k).ok_or_else(|| ShapeError::Overflow { op, dims: vec![k, k] })?;
    let mut c = try_vec_with_capacity(op, len)?;
    c.resize(len, T::zero());
    for i in 0..k {
        for j in i..k {
            let (a, b) = (&x[i * n..(i + 1) * n], &x[j * n..(j + 1) * n]);
            let s = a.iter().zip(b).fold(T::zero(), |s, (&p, &q)| s + p * q) / div;
            c[i * k + j] = s;
            c[j * k + i] = s;
        }
    }
    if corr {
        let d: Vec<T> = (0..k).map(|i| c[i * k + i].sqrt()).collect();
        for i in 0..k {
            for j in 0..k {
                let r = c[i * k + j] / d[i] / d[j];
                // numpy clips rounding excursions past ±1 (NaN stays NaN).
                c[i * k + j] = if r > T::one() {
                    T::one()
                } else if r < -T::one() {
                    -T::one()
                } else {
                    r
                };
            }
        }
    }
    x.clear();
    Ok(c)
}

/// # Covariance and correlation of a matrix's rows
impl<T: Real, R: Dim, C: Dim, S: Layout<(R, C)>, St: DenseStorage<T>> Tensor<T, (R, C), S, St> {
    fn cov_matrix(&self, op: &'static str, ddof: Ddof, corr: bool) -> Result<Tensor<T, (R, R)>, ShapeError> {
        let (r, c) = *self.extents();
        let v = cov_rows(op, self.to_vec_op(op)?, r.size(), c.size(), ddof, corr)?;
        Tensor::try_from_vec((r, r), v).map_err(|(e, _)| e)
    }
    forms! {
        /// See [`Tensor::cov`]; `Err` only when the allocator refuses the result.
        pub fn try_cov[](&self, ddof: impl Into<Ddof>) -> Result<Tensor<T, (R, R)>, ShapeError>
        {
            self.cov_matrix("cov", ddof.into(), false)
        }
        /// The covariance matrix of the rows (numpy's `cov(m, ddof=…)`; numpy's default is
        /// `ddof = 1`).
        ///
        /// ```
        /// use mdtensor::{ext, tensor, Tensor};
        /// let x = tensor![[1.0, 3.0], [1.0, 1.0]];
        /// let c: Tensor<f64, ext![2, 2]> = x.cov(0);
        /// assert_eq!(c.to_vec(), [1.0, 0.0, 0.0, 0.0]);
        /// assert_eq!(x.cov(1).to_vec()[0], 2.0);
        /// ```
        pub fn cov;
    }
    forms! {
        /// See [`Tensor::corrcoef`]; `Err` only when the allocator refuses the result.
        pub fn try_corrcoef[](&self) -> Result<Tensor<T, (R, R)>, ShapeError>
        {
            self.cov_matrix("corrcoef", Ddof(0.0), true)
        }
        /// The correlation coefficients of the rows (numpy's `corrcoef(m)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let r: Vec<f64> = tensor![[1.0, 2.0, 3.0], [2.0, 4.0, 7.0]].corrcoef().to_vec();
        /// assert!((r[0] - 1.0).abs() < 1e-15);
        /// assert!((r[1] - 0.9933992677987828).abs() < 1e-12);
        /// ```
        pub fn corrcoef;
    }
}

/// # Covariance and correlation at dynamic rank
impl<T: Real, S: Layout<DynRank>, St: DenseStorage<T>> Tensor<T, DynRank, S, St> {
    fn cov_dyn_rank(&self, op: &'static str, ddof: Ddof, corr: bool) -> Result<Tensor<T, DynRank>, ShapeError> {
        let dims = self.shape();
        let (k, n, out) = match dims[..] {
            [n] => (1, n, vec![]),
            [k, n] => (k, n, vec![k, k]),
            _ => {
                return Err(ShapeError::InvalidArgument {
                    op,
                    reason: format!("needs 1 or 2 axes, not {}", dims.len()),
                })
            }
        };
        let v = cov_rows(op, self.to_vec_op(op)?, k, n, ddof, corr)?;
        Tensor::try_from_vec(DynRank::new(out), v).map_err(|(e, _)| e)
    }
    forms! {
        /// See [`Tensor::cov_dyn`]; `Err` for a rank other than 1 or 2.
        pub fn try_cov_dyn[](&self, ddof: impl Into<Ddof>) -> Result<Tensor<T, DynRank>, ShapeError>
        {
            self.cov_dyn_rank("cov_dyn", ddof.into(), false)
        }
        /// [`Tensor::cov`] of a dynamic-rank tensor: rank 1 is one variable (a rank-0
        /// result, its variance), rank 2 variables in rows.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let v = Tensor::<f64, DynRank>::from_vec(vec![3], vec![1.0, 2.0, 3.0]);
        /// assert_eq!(v.cov_dyn(1).dims(), [0usize; 0]);
        /// assert_eq!(v.cov_dyn(1).to_vec(), [1.0]);
        /// ```
        pub fn cov_dyn;
    }
    forms! {
        /// See [`Tensor::corrcoef_dyn`]; `Err` for a rank other than 1 or 2.
        pub fn try_corrcoef_dyn[](&self) -> Result<Tensor<T, DynRank>, ShapeError>
        {
            self.cov_dyn_rank("corrcoef_dyn", Ddof(0.0), true)
        }
        /// [`Tensor::corrcoef`] of a dynamic-rank tensor (rank 1 or 2).
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let m = Tensor::<f64, DynRank>::from_vec(vec![2, 2], vec![1.0, 2.0, 2.0, 1.0]);
        /// assert_eq!(m.corrcoef_dyn().to_vec(), [1.0, -1.0, -1.0, 1.0]);
        /// ```
        pub fn corrcoef_dyn;
    }
}
