//! Stacks of matrices `(..., M, N)` as numpy batches them: a [`DynRank`] operand is a stack
//! of matrices along its last two axes, the leading axes of two operands broadcast by the
//! matmul rule ([`matmul_dims`]), and the stack runs on several threads under the one
//! [`Par`] rule. Small matrices (2×2 to 4×4) take the inline path, the rest faer's.

use super::dense::{buffer, col_major, col_major_mut, owned_copy, LinalgStorage};
use super::lu::LuFactor;
use super::scalar::LinalgScalar;
use crate::error::{LinalgError, ShapeError};
use crate::exec::forms::forms;
use crate::exec::par::{for_each_chunk_mut, Par, Work};
use crate::extents::{broadcast_strides, matmul_dims, DynRank, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;
use faer::MatRef;
use std::sync::Mutex;

/// One operand of a stack: its first element, strides along the stack's batch axes, and
/// the strides of each matrix (a vector is one column).
struct Stacked<T> {
    ptr: *const T,
    batch_strides: Vec<isize>,
    rows: usize,
    cols: usize,
    rs: isize,
    cs: isize,
}
// SAFETY: read-only access to the elements of a tensor borrowed for the whole call.
unsafe impl<T: Sync> Sync for Stacked<T> {}

impl<T> Stacked<T> {
    fn new(
        op: &'static str,
        ptr: *const T,
        dims: &[usize],
        strides: &[isize],
        batch: &[usize],
    ) -> Result<Self, ShapeError> {
        let r = dims.len();
        let (rows, cols, rs, cs, lead) = if r == 1 {
            (dims[0], 1, strides[0], 1, 0)
        } else {
            (dims[r - 2], dims[r - 1], strides[r - 2], strides[r - 1], r - 2)
        };
        let mut batch_strides = vec![0; batch.len()];
        broadcast_strides(op, &dims[..lead], &strides[..lead], batch, &mut batch_strides)?;
        Ok(Stacked { ptr, batch_strides, rows, cols, rs, cs })
    }

    /// Matrix `bi` (row-major over `batch`) of the stack.
    fn at(&self, batch: &[usize], bi: usize) -> MatRef<'_, T> {
        let mut rest = bi;
        let mut off = 0isize;
        for (d, &s) in batch.iter().zip(&self.batch_strides).rev() {
            off += (rest % d) as isize * s;
            rest /= d;
        }
        // SAFETY: every batch index is inside the broadcast batch shape, whose strides are
        // the operand's own (0 where broadcast), so the matrix lies inside the operand's
        // elements (the dense invariant).
        unsafe { MatRef::from_raw_parts(self.ptr.wrapping_offset(off), self.rows, self.cols, self.rs, self.cs) }
    }
}

fn rename(op: &'static str, e: ShapeError) -> ShapeError {
    match e {
        ShapeError::Incompatible { lhs, rhs, reason, .. } => ShapeError::Incompatible { op, lhs, rhs, reason },
        other => other,
    }
}

/// `Err` unless `dims` is a stack of square matrices; their order.
fn stack_order(op: &'static str, dims: &[usize]) -> Result<usize, LinalgError> {
    match *dims {
        [.., m, n] if m == n => Ok(n),
        _ => Err(ShapeError::Incompatible {
            op,
            lhs: dims.to_vec(),
            rhs: vec![],
            reason: format!("{op} needs a stack of square matrices (..., M, M)"),
        }
        .into()),
    }
}

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
    let failed: Mutex<Option<LinalgError>> = Mutex::new(None);
    let one = |bi: usize, dst: &mut [T]| -> Result<(), LinalgError> {
        let (ai, rhs) = (a.at(batch, bi), b.at(batch, bi));
        if let Some(r) = super::small::solve_block(ai, rhs, dst) {
            return r.map_err(|column| LinalgError::Singular { op, column });
        }
        let lu = LuFactor::new(op, ai, inner)?.nonsingular(op)?;
        let mut w = owned_copy(op, rhs)?;
        lu.solve_mat(op, col_major_mut(&mut w, m, k), inner)?;
        let cm = col_major(&w, m, k);
        dst.iter_mut().enumerate().for_each(|(q, x)| *x = cm[(q / k, q % k)]);
        Ok(())
    };
    for_each_chunk_mut(out, block, across, |start, dst| {
        if let Err(e) = one(start / block, dst) {
            let mut slot = failed.lock().unwrap_or_else(|p| p.into_inner());
            slot.get_or_insert(e);
        }
    });
    match failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn dyn_tensor<T: LinalgScalar>(
    op: &'static str,
    dims: &[usize],
    data: Vec<T>,
) -> Result<Tensor<T, DynRank>, LinalgError> {
    Tensor::try_from_vec(dims, data).map_err(|(e, _)| LinalgError::Shape(rename(op, e)))
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
            let op = "solve";
            let (ad, bd) = (self.shape(), b.shape());
            stack_order(op, &ad)?;
            let d = matmul_dims(&ad, &bd).map_err(|e| rename(op, e))?;
            let sa = Stacked::new(op, self.as_ptr(), &ad, self.strides().as_ref(), &d.batch)?;
            let sb = Stacked::new(op, b.as_ptr(), &bd, b.strides().as_ref(), &d.batch)?;
            let out_dims = d.out();
            let total = DynRank::from_dims(&out_dims)
                .and_then(|e| e.checked_numel(op, core::mem::size_of::<T>()))
                .map_err(|e| rename(op, e))?;
            let mut out = crate::alloc::try_vec_filled(op, total, T::zero())?;
            solve_stack(op, &sa, &sb, &d.batch, &mut out, par)?;
            dyn_tensor(op, &out_dims, out)
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

    forms! {
        /// numpy's `linalg.inv` of every matrix of a stack `(..., M, M)`, with an explicit
        /// choice of threads.
        pub fn try_inv_with[](&self) with par -> Result<Tensor<T, DynRank>, LinalgError>
        where []
        {
            let op = "inv";
            let ad = self.shape();
            let n = stack_order(op, &ad)?;
            let batch = &ad[..ad.len() - 2];
            let sa = Stacked::new(op, self.as_ptr(), &ad, self.strides().as_ref(), batch)?;
            let mut eye = buffer::<T>(op, n, n)?;
            for i in 0..n {
                eye[i * n + i] = T::one();
            }
            let ident = Stacked { ptr: eye.as_ptr(), batch_strides: vec![0; batch.len()], rows: n, cols: n, rs: 1, cs: n as isize };
            let total = DynRank::from_dims(&ad)
                .and_then(|e| e.checked_numel(op, core::mem::size_of::<T>()))
                .map_err(|e| rename(op, e))?;
            let mut out = crate::alloc::try_vec_filled(op, total, T::zero())?;
            solve_stack(op, &sa, &ident, batch, &mut out, par)?;
            dyn_tensor(op, &ad, out)
        }
        /// See [`Tensor::try_inv_with`].
        pub fn try_inv;
        /// numpy's `linalg.inv` of every matrix of a stack.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 1, 1][..], vec![2.0, 4.0]);
        /// assert_eq!(a.inv().to_vec(), [0.5, 0.25]);
        /// ```
        pub fn inv;
        /// [`Tensor::inv`] of a stack with an explicit choice of threads.
        pub fn inv_with;
    }

    forms! {
        /// numpy's `linalg.det` of every matrix of a stack `(..., M, M)`: a tensor of the
        /// leading axes' shape.
        pub fn try_det[](&self) -> Result<Tensor<T, DynRank>, LinalgError>
        where []
        {
            let op = "det";
            let ad = self.shape();
            stack_order(op, &ad)?;
            let batch = &ad[..ad.len() - 2];
            let sa = Stacked::new(op, self.as_ptr(), &ad, self.strides().as_ref(), batch)?;
            let count = batch.iter().try_fold(1usize, |p, &d| p.checked_mul(d))
                .ok_or_else(|| ShapeError::Overflow { op, dims: batch.to_vec() })?;
            let mut out = crate::alloc::try_vec_with_capacity(op, count)?;
            for bi in 0..count {
                let a = sa.at(batch, bi);
                out.push(match super::small::det_block(a) {
                    Some(d) => d,
                    None => LuFactor::new(op, a, Par::Auto)?.det(),
                });
            }
            dyn_tensor(op, batch, out)
        }
        /// numpy's `linalg.det` of every matrix of a stack.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 2, 2][..], vec![1.0, 2.0, 3.0, 4.0, 2.0, 0.0, 0.0, 2.0]);
        /// let d = a.det().to_vec();
        /// assert!((d[0] + 2.0).abs() < 1e-12 && (d[1] - 4.0).abs() < 1e-12);
        /// ```
        pub fn det;
    }
}
