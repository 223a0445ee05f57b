//! numpy's batched routines over a stack operand, each the rank-2 routine on every matrix
//! through the [driver](super::driver), its results gathered in numpy's shapes: a matrix
//! result `(..., P, Q)`, a vector `(..., P)`, a scalar per matrix the batch shape.

use super::super::decomp::{QrMode, Uplo};
use super::super::derived::MatrixOrd;
use super::super::scalar::LinalgScalar;
use super::driver::{batch_count, cat, gather, map_stack, per_matrix, rename, stack_dims, Operand, Stack, Stacked};
use crate::error::LinalgError;
use crate::exec::par::Par;
use crate::extents::matmul_dims;

/// The sign and `ln |det|` of every matrix (numpy's `slogdet`).
pub(crate) fn slogdet<T: LinalgScalar>(a: &Operand<'_, T>, par: Par) -> Result<(Stack<T>, Stack<T::Re>), LinalgError> {
    let op = "slogdet";
    let (batch, _, _, parts) = per_matrix(op, a, true, par, |m, _| m.try_slogdet())?;
    let signs = gather(op, batch.clone(), parts.iter().map(|p| core::slice::from_ref(&p.0)))?;
    let logs = gather(op, batch, parts.iter().map(|p| core::slice::from_ref(&p.1)))?;
    Ok((signs, logs))
}

/// The lower Cholesky factor of every matrix.
pub(crate) fn cholesky<T: LinalgScalar>(a: &Operand<'_, T>, par: Par) -> Result<Stack<T>, LinalgError> {
    let op = "cholesky";
    let (batch, m, n, parts) = per_matrix(op, a, true, par, |m, p| Ok(m.try_cholesky_with(p)?.into_vec()))?;
    gather(op, cat(&batch, &[m, n]), parts.iter().map(|p| &p[..]))
}

/// `A^k` of every matrix.
pub(crate) fn matrix_power<T: LinalgScalar>(a: &Operand<'_, T>, k: i64, par: Par) -> Result<Stack<T>, LinalgError> {
    let op = "matrix_power";
    let (batch, m, n, parts) = per_matrix(op, a, true, par, |m, p| Ok(m.try_matrix_power_with(k, p)?.into_vec()))?;
    gather(op, cat(&batch, &[m, n]), parts.iter().map(|p| &p[..]))
}

/// `exp(A)` of every matrix.
pub(crate) fn expm<T: LinalgScalar>(a: &Operand<'_, T>, par: Par) -> Result<Stack<T>, LinalgError> {
    let op = "expm";
    let (batch, m, n, parts) = per_matrix(op, a, true, par, |m, p| Ok(m.try_expm_with(p)?.into_vec()))?;
    gather(op, cat(&batch, &[m, n]), parts.iter().map(|p| &p[..]))
}

/// `Q` (unless `mode` is `R`) and `R` of every matrix.
#[allow(clippy::type_complexity)] // the two factors
pub(crate) fn qr<T: LinalgScalar>(
    a: &Operand<'_, T>,
    mode: QrMode,
    par: Par,
) -> Result<(Option<Stack<T>>, Stack<T>), LinalgError> {
    let op = "qr";
    let (batch, m, n, parts) = per_matrix(op, a, false, par, |x, _| {
        let (q, r) = x.try_qr(mode)?;
        Ok((q.map(|q| q.into_vec()), r.into_vec()))
    })?;
    let k = m.min(n);
    let (qd, rd) = match mode {
        QrMode::Complete => ([m, m], [m, n]),
        _ => ([m, k], [k, n]),
    };
    let q = match mode {
        QrMode::R => None,
        _ => Some(gather(op, cat(&batch, &qd), parts.iter().map(|p| p.0.as_deref().unwrap_or(&[])))?),
    };
    Ok((q, gather(op, cat(&batch, &rd), parts.iter().map(|p| &p.1[..]))?))
}

/// scipy's `P`, `L`, `U` of every matrix: `(..., M, M)`, `(..., M, K)`, `(..., K, N)`.
#[allow(clippy::type_complexity)] // the three factors
pub(crate) fn lu<T: LinalgScalar>(a: &Operand<'_, T>) -> Result<(Stack<T>, Stack<T>, Stack<T>), LinalgError> {
    let op = "lu";
    let (batch, m, n, parts) = per_matrix(op, a, false, Par::Auto, |x, _| {
        let (p, l, u) = x.try_lu()?;
        Ok((p.into_vec(), l.into_vec(), u.into_vec()))
    })?;
    let k = m.min(n);
    Ok((
        gather(op, cat(&batch, &[m, m]), parts.iter().map(|p| &p.0[..]))?,
        gather(op, cat(&batch, &[m, k]), parts.iter().map(|p| &p.1[..]))?,
        gather(op, cat(&batch, &[k, n]), parts.iter().map(|p| &p.2[..]))?,
    ))
}

/// `U`, `S`, `Vᴴ` of every matrix (`full`: square `U` and `Vᴴ`).
#[allow(clippy::type_complexity)] // the three factors
pub(crate) fn svd<T: LinalgScalar>(
    a: &Operand<'_, T>,
    full: bool,
    par: Par,
) -> Result<(Stack<T>, Stack<T::Re>, Stack<T>), LinalgError> {
    let op = "svd";
    let (batch, m, n, parts) = per_matrix(op, a, false, par, |x, _| {
        let (u, s, vh) = x.try_svd(full)?;
        Ok((u.into_vec(), s.into_vec(), vh.into_vec()))
    })?;
    let k = m.min(n);
    let (ud, vd) = if full { ([m, m], [n, n]) } else { ([m, k], [k, n]) };
    Ok((
        gather(op, cat(&batch, &ud), parts.iter().map(|p| &p.0[..]))?,
        gather(op, cat(&batch, &[k]), parts.iter().map(|p| &p.1[..]))?,
        gather(op, cat(&batch, &vd), parts.iter().map(|p| &p.2[..]))?,
    ))
}

/// The singular values of every matrix, descending.
pub(crate) fn svdvals<T: LinalgScalar>(a: &Operand<'_, T>, par: Par) -> Result<Stack<T::Re>, LinalgError> {
    let op = "svdvals";
    let (batch, m, n, parts) = per_matrix(op, a, false, par, |x, _| Ok(x.try_svdvals()?.into_vec()))?;
    gather(op, cat(&batch, &[m.min(n)]), parts.iter().map(|p| &p[..]))
}

/// Eigenvalues (ascending) and eigenvectors of every Hermitian matrix.
pub(crate) fn eigh<T: LinalgScalar>(
    a: &Operand<'_, T>,
    uplo: Uplo,
    par: Par,
) -> Result<(Stack<T::Re>, Stack<T>), LinalgError> {
    let op = "eigh";
    let (batch, _, n, parts) = per_matrix(op, a, true, par, |x, _| {
        let (w, v) = x.try_eigh(uplo)?;
        Ok((w.into_vec(), v.into_vec()))
    })?;
    Ok((
        gather(op, cat(&batch, &[n]), parts.iter().map(|p| &p.0[..]))?,
        gather(op, cat(&batch, &[n, n]), parts.iter().map(|p| &p.1[..]))?,
    ))
}

/// The eigenvalues of every Hermitian matrix, ascending.
pub(crate) fn eigvalsh<T: LinalgScalar>(a: &Operand<'_, T>, uplo: Uplo, par: Par) -> Result<Stack<T::Re>, LinalgError> {
    let op = "eigvalsh";
    let (batch, _, n, parts) = per_matrix(op, a, true, par, |x, _| Ok(x.try_eigvalsh(uplo)?.into_vec()))?;
    gather(op, cat(&batch, &[n]), parts.iter().map(|p| &p[..]))
}

/// Eigenvalues and right eigenvectors of every matrix, complex.
#[allow(clippy::type_complexity)] // the two results
pub(crate) fn eig<T: LinalgScalar>(
    a: &Operand<'_, T>,
    par: Par,
) -> Result<(Stack<T::Complex>, Stack<T::Complex>), LinalgError> {
    let op = "eig";
    let (batch, _, n, parts) = per_matrix(op, a, true, par, |x, _| {
        let (w, v) = x.try_eig()?;
        Ok((w.into_vec(), v.into_vec()))
    })?;
    Ok((
        gather(op, cat(&batch, &[n]), parts.iter().map(|p| &p.0[..]))?,
        gather(op, cat(&batch, &[n, n]), parts.iter().map(|p| &p.1[..]))?,
    ))
}

/// The eigenvalues of every matrix, complex.
pub(crate) fn eigvals<T: LinalgScalar>(a: &Operand<'_, T>, par: Par) -> Result<Stack<T::Complex>, LinalgError> {
    let op = "eigvals";
    let (batch, _, n, parts) = per_matrix(op, a, true, par, |x, _| Ok(x.try_eigvals()?.into_vec()))?;
    gather(op, cat(&batch, &[n]), parts.iter().map(|p| &p[..]))
}

/// The pseudo-inverse of every matrix, `(..., N, M)`.
pub(crate) fn pinv<T: LinalgScalar>(
    a: &Operand<'_, T>,
    rcond: Option<T::Re>,
    par: Par,
) -> Result<Stack<T>, LinalgError> {
    let op = "pinv";
    let (batch, m, n, parts) = per_matrix(op, a, false, par, |x, _| Ok(x.try_pinv(rcond)?.into_vec()))?;
    gather(op, cat(&batch, &[n, m]), parts.iter().map(|p| &p[..]))
}

/// One scalar per matrix of the stack: `f` of each matrix, in the batch shape.
fn scalars<T: LinalgScalar, X: Copy + Send>(
    op: &'static str,
    a: &Operand<'_, T>,
    par: Par,
    f: impl Fn(super::driver::MatView<'_, T>) -> Result<X, LinalgError> + Send + Sync,
) -> Result<Stack<X>, LinalgError> {
    let (batch, _, _, parts) = per_matrix(op, a, false, par, |x, _| f(x))?;
    gather(op, batch, parts.iter().map(core::slice::from_ref))
}

/// The rank of every matrix (numpy's tolerance unless `tol`).
pub(crate) fn matrix_rank<T: LinalgScalar>(
    a: &Operand<'_, T>,
    tol: Option<T::Re>,
    par: Par,
) -> Result<Stack<usize>, LinalgError> {
    scalars("matrix_rank", a, par, |x| x.try_matrix_rank(tol))
}

/// The condition number of every matrix.
pub(crate) fn cond<T: LinalgScalar>(
    a: &Operand<'_, T>,
    p: Option<MatrixOrd>,
    par: Par,
) -> Result<Stack<T::Re>, LinalgError> {
    scalars("cond", a, par, |x| x.try_cond(p))
}

/// A matrix norm of every matrix.
pub(crate) fn matrix_norm<T: LinalgScalar>(
    a: &Operand<'_, T>,
    ord: MatrixOrd,
    par: Par,
) -> Result<Stack<T::Re>, LinalgError> {
    scalars("matrix_norm", a, par, |x| x.try_matrix_norm(ord))
}

/// scipy's `solve_triangular` on stacks, `b` a stack or a vector, the leading axes
/// broadcast as `solve`'s.
pub(crate) fn solve_triangular<T: LinalgScalar>(
    a: &Operand<'_, T>,
    b: &Operand<'_, T>,
    lower: bool,
    unit_diagonal: bool,
    par: Par,
) -> Result<Stack<T>, LinalgError> {
    let op = "solve_triangular";
    let (m, _) = stack_dims(op, &a.dims, true)?;
    let d = matmul_dims(&a.dims, &b.dims).map_err(|e| rename(op, e))?;
    let sa = Stacked::new(op, a.ptr, &a.dims, &a.strides, &d.batch)?;
    let sb = Stacked::new(op, b.ptr, &b.dims, &b.strides, &d.batch)?;
    let count = batch_count(op, &d.batch)?;
    let work = m.saturating_mul(m).saturating_mul(sb.cols);
    let parts = map_stack(op, count, !d.batch.is_empty(), work, par, |bi, _| {
        let (x, y) = (sa.matrix(&d.batch, bi)?, sb.matrix(&d.batch, bi)?);
        Ok(x.try_solve_triangular(&y, lower, unit_diagonal)?.into_vec())
    })?;
    gather(op, d.out(), parts.iter().map(|p| &p[..]))
}
