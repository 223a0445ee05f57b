//! The bridge between dense tensors and faer: a matrix of any layout as a faer `MatRef`
//! over the tensor's own memory (its strides, negative ones included), fallible buffers
//! and workspaces, the thread rule, and results written into the crate's storages.

use super::scalar::LinalgScalar;
use super::tiles::copy_tiled;
use crate::alloc::AlignedBuf;
use crate::error::{LinalgError, ShapeError};
use crate::exec::par::{Par, Work, PAR_MULTIPLY_ADDS};
use crate::extents::{Dim, Extents, RhsExtents};
use crate::layout::{Layout, RowMajor};
use crate::storage::{DenseStorage, Heap, Inline, InlineExtents, OwnedStorage, Shared, View, ViewMut};
use crate::tensor::Tensor;
use faer::dyn_stack::{MemBuffer, StackReq};
use faer::{MatMut, MatRef};

/// The matrix `a` as faer sees it: its own elements, through its strides (no copy).
pub(crate) fn mat_ref<T, M: Dim, N: Dim, S: Layout<(M, N)>, St: DenseStorage<T>>(
    a: &Tensor<T, (M, N), S, St>,
) -> MatRef<'_, T> {
    let [m, n] = a.dims();
    let [rs, cs] = a.strides();
    // SAFETY: every index `(i, j)` below `(m, n)` addresses an element of `a` through its
    // strides (the dense invariant: offset and strides stay inside the buffer), and the
    // borrow of `a` outlives the view.
    unsafe { MatRef::from_raw_parts(a.as_ptr(), m, n, rs, cs) }
}

/// The right-hand side `b` as faer sees it (a vector as one column), through its strides,
/// once its rows are checked against `rows`; `lhs` and `reason` name the matrix in the error.
pub(crate) fn rhs_ref<'a, T, E2: RhsExtents, S2: Layout<E2>, St2: DenseStorage<T>>(
    op: &'static str,
    b: &'a Tensor<T, E2, S2, St2>,
    rows: usize,
    lhs: [usize; 2],
    reason: impl FnOnce(usize) -> String,
) -> Result<MatRef<'a, T>, ShapeError> {
    let dims = b.shape();
    let strides = b.strides();
    let strides = strides.as_ref();
    let (r, k, rs, cs) = match *dims.as_slice() {
        [r] => (r, 1, strides[0], 1),
        [r, k] => (r, k, strides[0], strides[1]),
        _ => {
            let reason =
                format!("the right-hand side must be a vector or a matrix (rank 1 or 2); it has rank {}", dims.len());
            return Err(ShapeError::Incompatible { op, lhs: lhs.to_vec(), rhs: dims, reason });
        }
    };
    if r != rows {
        return Err(ShapeError::Incompatible { op, lhs: lhs.to_vec(), rhs: dims, reason: reason(r) });
    }
    // SAFETY: every index below `(r, k)` addresses an element of `b` through its strides
    // (the dense invariant), and the borrow of `b` outlives the view.
    Ok(unsafe { MatRef::from_raw_parts(b.as_ptr(), r, k, rs, cs) })
}

/// faer's threads for work of about `n³` multiply-adds under the crate's `Par` rule.
pub(crate) fn faer_par(par: Par, n: usize) -> faer::Par {
    faer_par_work(par, n.saturating_mul(n).saturating_mul(n))
}

/// faer's threads for `work` multiply-adds under the crate's `Par` rule.
pub(crate) fn faer_par_work(par: Par, work: usize) -> faer::Par {
    match par {
        Par::Seq => faer::Par::Seq,
        #[cfg(feature = "rayon")]
        Par::Rayon => faer::Par::rayon(0),
        #[cfg(feature = "rayon")]
        Par::Auto if work >= PAR_MULTIPLY_ADDS && par.tasks(Work::MultiplyAdds(work)) > 1 => faer::Par::rayon(0),
        _ => faer::Par::Seq,
    }
}

/// `x` with `A x = b` for a factor of order `n`: `b` (a vector or a matrix of columns) is
/// checked, copied column-major, solved in place by `solve`, and returned in `b`'s extents.
pub(crate) fn solve_rhs<T: LinalgScalar, E2: RhsExtents, S2: Layout<E2>, St2: DenseStorage<T>, Out: OwnedStorage<T>>(
    op: &'static str,
    n: usize,
    b: &Tensor<T, E2, S2, St2>,
    solve: impl FnOnce(MatMut<'_, T>) -> Result<(), LinalgError>,
) -> Result<Tensor<T, E2, RowMajor, Out>, LinalgError> {
    let bref =
        rhs_ref(op, b, n, [n, n], |rows| format!("the right-hand side has {rows} rows; the matrix's order is {n}"))?;
    let (rows, k) = (bref.nrows(), bref.ncols());
    let mut w = owned_copy(op, bref)?;
    solve(col_major_mut(&mut w, rows, k))?;
    Ok(build_copy(op, b.extents().clone(), col_major(&w, rows, k))?)
}

/// A zeroed column-major `m × n` buffer, allocated fallibly.
pub(crate) fn buffer<T: LinalgScalar>(op: &'static str, m: usize, n: usize) -> Result<Vec<T>, ShapeError> {
    let len = m.checked_mul(n).ok_or_else(|| ShapeError::Overflow { op, dims: vec![m, n] })?;
    crate::alloc::try_vec_filled(op, len, T::zero())
}

/// A zeroed `m × n` working matrix for a factorization, allocated fallibly and 64-byte
/// aligned from 4 KiB: faer's kernels load whole vectors, and a 1024² LU or Cholesky in a
/// `Vec` (whose large blocks start 16 bytes past a page) takes 5–10% longer.
pub(crate) fn work_buffer<T: LinalgScalar>(op: &'static str, m: usize, n: usize) -> Result<AlignedBuf<T>, ShapeError> {
    let len = m.checked_mul(n).ok_or_else(|| ShapeError::Overflow { op, dims: vec![m, n] })?;
    AlignedBuf::try_from_fn(len, |_| T::zero()).map_err(|e| e.with_op(op))
}

/// A column-major copy of `a` in a fresh buffer (the working matrix of a factorization).
pub(crate) fn owned_copy<T: LinalgScalar>(op: &'static str, a: MatRef<'_, T>) -> Result<AlignedBuf<T>, ShapeError> {
    let (m, n) = (a.nrows(), a.ncols());
    let mut v = work_buffer(op, m, n)?;
    copy_tiled(col_major_mut(&mut v, m, n), a, false);
    Ok(v)
}

/// A column-major buffer of `m × n` elements as a faer matrix.
pub(crate) fn col_major_mut<T>(v: &mut [T], m: usize, n: usize) -> MatMut<'_, T> {
    MatMut::from_column_major_slice_mut(v, m, n)
}

/// A column-major buffer of `m × n` elements as a faer matrix.
pub(crate) fn col_major<T>(v: &[T], m: usize, n: usize) -> MatRef<'_, T> {
    MatRef::from_column_major_slice(v, m, n)
}

/// faer's workspace for `req`, allocated fallibly.
pub(crate) fn workspace(op: &'static str, req: StackReq) -> Result<MemBuffer, ShapeError> {
    MemBuffer::try_new(req).map_err(|_| ShapeError::OutOfMemory { op, bytes: req.unaligned_bytes_required() })
}

/// A row-major tensor of extents `ext` whose element `k` (in row-major order) is `f(k)`,
/// in the storage `St` (inline for a static result of an inline operand).
pub(crate) fn build<T, E: Extents, St: OwnedStorage<T>>(
    op: &'static str,
    ext: E,
    f: impl FnMut(usize) -> T,
) -> Result<Tensor<T, E, RowMajor, St>, ShapeError> {
    let n = ext.checked_numel(op, core::mem::size_of::<T>())?;
    let storage = St::try_from_fn_linear(op, n, f)?.ok_or_else(|| ShapeError::InvalidArgument {
        op,
        reason: format!("the result's storage cannot hold {n} elements"),
    })?;
    // SAFETY: a fresh storage of exactly numel(ext) elements in row-major order.
    Ok(unsafe { Tensor::from_parts_unchecked(storage, ext, ()) })
}

/// A row-major tensor of extents `ext` (an `m × n` matrix, in the storage `St`), zeroed,
/// then written by `fill` through its elements in row-major order.
pub(crate) fn build_matrix<T: LinalgScalar, E: Extents, St: OwnedStorage<T>, Er: From<ShapeError>>(
    op: &'static str,
    ext: E,
    [m, n]: [usize; 2],
    fill: impl FnOnce(&mut [T]) -> Result<(), Er>,
) -> Result<Tensor<T, E, RowMajor, St>, Er> {
    let mut t = build(op, ext, |_| T::zero())?;
    let Some(w) = t.as_slice_mut().filter(|w| Some(w.len()) == m.checked_mul(n)) else {
        return Err(
            ShapeError::InvalidArgument { op, reason: format!("the result cannot hold a {m}×{n} matrix") }.into()
        );
    };
    fill(w)?;
    Ok(t)
}

/// A row-major tensor of extents `ext` (an `m × n` matrix, in the storage `St`) holding
/// `src`, copied in tiles ([`copy_tiled`]).
pub(crate) fn build_copy<T: LinalgScalar, E: Extents, St: OwnedStorage<T>>(
    op: &'static str,
    ext: E,
    src: MatRef<'_, T>,
) -> Result<Tensor<T, E, RowMajor, St>, ShapeError> {
    let (m, n) = (src.nrows(), src.ncols());
    build_matrix(op, ext, [m, n], |w| {
        copy_tiled(MatMut::from_row_major_slice_mut(w, m, n), src, false);
        Ok(())
    })
}

/// Extents of type `E` from run-time dims, with `op` in the error.
pub(crate) fn extents<E: Extents>(op: &'static str, dims: &[usize]) -> Result<E, ShapeError> {
    crate::extents::extents_from(op, dims)
}

/// `Err` unless the matrix is square (inlined: the small static routines pass through it).
#[inline(always)]
pub(crate) fn square(op: &'static str, m: usize, n: usize) -> Result<usize, LinalgError> {
    if m == n {
        Ok(n)
    } else {
        Err(not_square(op, m, n))
    }
}

#[cold]
#[inline(never)]
fn not_square(op: &'static str, m: usize, n: usize) -> LinalgError {
    ShapeError::Incompatible {
        op,
        lhs: vec![m, n],
        rhs: vec![],
        reason: format!("{op} needs a square matrix, not {m}×{n}"),
    }
    .into()
}

/// The storages whose tensors the dense routines read: every dense storage of this crate
/// (band and compressed matrices have routines of their own, under the same names).
///
/// A marker without type parameters, so that the dense routines and the band matrix's
/// `solve` can share a name: no crate can make a band storage "dense" for them.
///
/// ```
/// fn order<St: mdtensor::linalg::LinalgStorage>() {}
/// order::<mdtensor::Heap<f64>>();
/// ```
pub trait LinalgStorage {}
impl<T> LinalgStorage for Heap<T> {}
impl<T> LinalgStorage for Shared<T> {}
impl<T> LinalgStorage for View<'_, T> {}
impl<T> LinalgStorage for ViewMut<'_, T> {}
impl<T, E: InlineExtents> LinalgStorage for Inline<T, E> {}
#[cfg(feature = "mmap")]
impl<T> LinalgStorage for crate::storage::Mmap<T> {}
#[cfg(feature = "mmap")]
impl<T> LinalgStorage for crate::storage::MmapMut<T> {}
