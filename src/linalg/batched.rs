//! Stacks of matrices `(..., M, N)` as numpy batches them: a [`DynRank`] operand is a stack
//! of matrices along its last two axes, the leading axes of two operands broadcast by the
//! matmul rule ([`matmul_dims`]), and the stack runs on several threads under the one
//! [`Par`] rule. Small matrices (2×2 to 4×4) take the inline path, the rest faer's.

use super::dense::{buffer, col_major, col_major_mut, owned_copy, LinalgStorage};
use super::lu::LuFactor;
use super::scalar::LinalgScalar;
use super::stack::driver::{batch_count, operand, rename, stack_dims, Operand, Stack, Stacked};
use crate::error::LinalgError;
use crate::exec::forms::forms;
use crate::exec::par::{for_each_chunk_mut, Par, Work};
use crate::extents::{matmul_dims, DynRank, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;
use std::sync::Mutex;

/// Solves every system of the stack into the row-major `out` (blocks of `m × k`).
fn solve_stack<T: LinalgScalar>(
    op: &'static str,
    a: &Stacked<T>,
    b: &Stacked<T>,
    batch: &[usize],
    out: &mut [T],
    par: Par,
) -> Result<(), LinalgError> {
    let (m, k) = (a.rows, b.cols);
    let block = m * k;
    let count: usize = batch.iter().product();
    if block == 0 || count == 0 {
        return Ok(());
    }
    let work = count.saturating_mul(m.saturating_mul(m).saturating_mul(m + k));
    let across = count > 1 && par.tasks(Work::MultiplyAdds(work)) > 1;
    let inner = if across { Par::Seq } else { par };
    // The lowest failing matrix wins, whichever thread finds it first.
    let failed: Mutex<Option<(usize, LinalgError)>> = Mutex::new(None);
    let one = |bi: usize, dst: &mut [T]| -> Result<(), LinalgError> {
        let (ai, rhs) = (a.at(batch, bi), b.at(batch, bi));
        if let Some(r) = super::small::solve_block(ai, rhs, dst) {
            return r.map_err(|column| LinalgError::Singular { op, column, matrix: None });
        }
        let lu = LuFactor::new(op, ai, inner)?.nonsingular(op)?;
        let mut w = owned_copy(op, rhs)?;
        lu.solve_mat(op, col_major_mut(&mut w, m, k), inner)?;
        let cm = col_major(&w, m, k);
        dst.iter_mut().enumerate().for_each(|(q, x)| *x = cm[(q / k, q % k)]);
        Ok(())
    };
    for_each_chunk_mut(out, block, across, |start, dst| {
        let bi = start / block;
        if let Err(e) = one(bi, dst) {
            let mut slot = failed.lock().unwrap_or_else(|p| p.into_inner());
            if slot.as_ref().is_none_or(|&(first, _)| bi < first) {
                *slot = Some((bi, e));
            }
        }
    });
    match failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some((bi, e)) if !batch.is_empty() => Err(e.in_matrix(bi)),
        Some((_, e)) => Err(e),
        None => Ok(()),
    }
}

/// numpy's `solve(a, b)` of two stack operands (`b` a stack or a vector).
pub(crate) fn solve<T: LinalgScalar>(
    a: &Operand<'_, T>,
    b: &Operand<'_, T>,
    par: Par,
) -> Result<Stack<T>, LinalgError> {
    let op = "solve";
    stack_dims(op, &a.dims, true)?;
    let d = matmul_dims(&a.dims, &b.dims).map_err(|e| rename(op, e))?;
    let sa = Stacked::new(op, a.ptr, &a.dims, &a.strides, &d.batch)?;
    let sb = Stacked::new(op, b.ptr, &b.dims, &b.strides, &d.batch)?;
    let dims = d.out();
    let total = DynRank::from_dims(&dims)
        .and_then(|e| e.checked_numel(op, core::mem::size_of::<T>()))
        .map_err(|e| rename(op, e))?;
    let mut data = crate::alloc::try_vec_filled(op, total, T::zero())?;
    solve_stack(op, &sa, &sb, &d.batch, &mut data, par)?;
    Ok(Stack { dims, data })
}

/// numpy's `inv` of every matrix of a stack operand.
pub(crate) fn inv<T: LinalgScalar>(a: &Operand<'_, T>, par: Par) -> Result<Stack<T>, LinalgError> {
    let op = "inv";
    let (n, _) = stack_dims(op, &a.dims, true)?;
    let batch = &a.dims[..a.dims.len() - 2];
    let sa = Stacked::new(op, a.ptr, &a.dims, &a.strides, batch)?;
    let mut eye = buffer::<T>(op, n, n)?;
    for i in 0..n {
        eye[i * n + i] = T::one();
    }
    let ident =
        Stacked { ptr: eye.as_ptr(), batch_strides: vec![0; batch.len()], rows: n, cols: n, rs: 1, cs: n as isize };
    let total = DynRank::from_dims(&a.dims)
        .and_then(|e| e.checked_numel(op, core::mem::size_of::<T>()))
        .map_err(|e| rename(op, e))?;
    let mut data = crate::alloc::try_vec_filled(op, total, T::zero())?;
    solve_stack(op, &sa, &ident, batch, &mut data, par)?;
    Ok(Stack { dims: a.dims.clone(), data })
}

/// numpy's `det` of every matrix of a stack operand: the batch shape.
pub(crate) fn det<T: LinalgScalar>(a: &Operand<'_, T>) -> Result<Stack<T>, LinalgError> {
    let op = "det";
    stack_dims(op, &a.dims, true)?;
    let batch = &a.dims[..a.dims.len() - 2];
    let sa = Stacked::new(op, a.ptr, &a.dims, &a.strides, batch)?;
    let count = batch_count(op, batch)?;
    let mut data = crate::alloc::try_vec_with_capacity(op, count)?;
    for bi in 0..count {
        let m = sa.at(batch, bi);
        data.push(match super::small::det_block(m) {
            Some(d) => d,
            None => LuFactor::new(op, m, Par::Auto)?.det(),
        });
    }
    Ok(Stack { dims: batch.to_vec(), data })
}

/// # Linear algebra on stacks `(..., M, N)` (feature `linalg`)
impl<T: LinalgScalar, S: Layout<DynRank>, St: DenseStorage<T> + LinalgStorage> Tensor<T, DynRank, S, St> {
    forms! {
        /// numpy's `linalg.solve(a, b)` on stacks, with an explicit choice of threads:
        /// `a` is `(..., M, M)`, `b` is `(..., M, K)` or a vector `(M,)`, and their leading
        /// axes broadcast (`(3, 1, 4, 4)` with `(2, 4, 1)` gives `(3, 2, 4, 1)`).
        pub fn try_solve_with[E2, S2, St2](&self, b: &Tensor<T, E2, S2, St2>) with par
            -> Result<Tensor<T, DynRank>, LinalgError>
        where [E2: Extents, S2: Layout<E2>, St2: DenseStorage<T>]
        {
            solve(&operand(self), &operand(b), par)?.into_tensor("solve")
        }
        /// See [`Tensor::try_solve_with`].
        pub fn try_solve;
        /// numpy's `linalg.solve` on a stack of matrices; see [`Tensor::try_solve_with`].
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let eye2 = [2.0, 0.0, 0.0, 2.0];
        /// let a = Tensor::<f64, DynRank>::from_vec(&[3, 1, 2, 2][..], eye2.repeat(3));
        /// let b = Tensor::<f64, DynRank>::from_vec(&[2, 2, 1][..], vec![2.0, 4.0, 6.0, 8.0]);
        /// let x = a.solve(&b);
        /// assert_eq!(x.shape(), [3, 2, 2, 1]);
        /// assert_eq!(x.to_vec()[..4], [1.0, 2.0, 3.0, 4.0]);
        /// ```
        pub fn solve;
        /// [`Tensor::solve`] on stacks with an explicit choice of threads.
        pub fn solve_with;
    }
}
