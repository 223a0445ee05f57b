//! The stack driver: one operand of a stack `(..., M, N)` read through its strides (zero
//! along broadcast batch axes), each of its matrices handed to the rank-2 routine as a
//! view, the stack cut into pieces for several threads under the one [`Par`] rule (each
//! matrix then computed on one thread), and the per-matrix results gathered into one
//! row-major buffer of numpy's result shape. The first error (lowest matrix) wins.

use super::super::scalar::LinalgScalar;
use crate::error::{LinalgError, ShapeError};
use crate::exec::par::{map_pieces, Par, Work};
use crate::extents::{broadcast_strides, extents_from, Dyn, DynRank, Extents};
use crate::layout::{Layout, Strided};
use crate::storage::{DenseStorage, View};
use crate::tensor::{view_parts, Tensor};
use faer::MatRef;

/// A matrix of a stack, as the rank-2 routines read it: a view through its own strides.
pub(crate) type MatView<'a, T> = Tensor<T, (Dyn, Dyn), Strided, View<'a, T>>;

/// A dense operand of any rank and layout, with its extents type forgotten: what the
/// stack routines of every extents type (dynamic or fixed rank) share.
pub(crate) struct Operand<'a, T> {
    pub ptr: *const T,
    pub dims: Vec<usize>,
    pub strides: Vec<isize>,
    _borrow: core::marker::PhantomData<&'a T>,
}

/// The tensor `t` as a stack operand (borrowed for the operand's life).
pub(crate) fn operand<T, E: Extents, S: Layout<E>, St: DenseStorage<T>>(t: &Tensor<T, E, S, St>) -> Operand<'_, T> {
    Operand {
        ptr: t.as_ptr(),
        dims: t.shape(),
        strides: t.strides().as_ref().to_vec(),
        _borrow: core::marker::PhantomData,
    }
}

/// One operand of a stack: its first element, strides along the stack's batch axes, and
/// the strides of each matrix (a vector is one column).
pub(crate) struct Stacked<T> {
    pub ptr: *const T,
    pub batch_strides: Vec<isize>,
    pub rows: usize,
    pub cols: usize,
    pub rs: isize,
    pub cs: isize,
}
// SAFETY: read-only access to the elements of a tensor borrowed for the whole call.
unsafe impl<T: Sync> Sync for Stacked<T> {}

impl<T> Stacked<T> {
    pub(crate) fn new(
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

    /// The offset of matrix `bi` (row-major over `batch`) from the first element.
    fn offset(&self, batch: &[usize], bi: usize) -> isize {
        let mut rest = bi;
        let mut off = 0isize;
        for (d, &s) in batch.iter().zip(&self.batch_strides).rev() {
            off += (rest % d) as isize * s;
            rest /= d;
        }
        off
    }

    /// Matrix `bi` (row-major over `batch`) of the stack, as faer reads it.
    pub(crate) fn at(&self, batch: &[usize], bi: usize) -> MatRef<'_, T> {
        let off = self.offset(batch, bi);
        // SAFETY: every batch index is inside the broadcast batch shape, whose strides are
        // the operand's own (0 where broadcast), so the matrix lies inside the operand's
        // elements (the dense invariant).
        unsafe { MatRef::from_raw_parts(self.ptr.wrapping_offset(off), self.rows, self.cols, self.rs, self.cs) }
    }

    /// Matrix `bi` of the stack as a tensor view, for the rank-2 routines.
    pub(crate) fn matrix(&self, batch: &[usize], bi: usize) -> Result<MatView<'_, T>, ShapeError> {
        let off = self.offset(batch, bi);
        let parts =
            view_parts::<(Dyn, Dyn), Strided>("stack", &[self.rows, self.cols], &[self.rs, self.cs], "Strided")?;
        // SAFETY: as in `at`, the matrix's elements lie inside the operand's, which is
        // borrowed (read only) for the view's life; `low` (≤ 0) and `len` bound the
        // smallest region holding them, so the view's storage starts at its lowest element.
        let storage = unsafe { View::from_raw(self.ptr.wrapping_offset(off + parts.low), parts.len) };
        // SAFETY: the mapping was checked against that region by `view_parts`.
        Ok(unsafe { Tensor::from_parts_unchecked(storage, parts.ext, parts.mapping) })
    }
}

/// `e` with `op` as the operation's name (the shape rules name their own).
pub(crate) fn rename(op: &'static str, e: ShapeError) -> ShapeError {
    match e {
        ShapeError::Incompatible { lhs, rhs, reason, .. } => ShapeError::Incompatible { op, lhs, rhs, reason },
        other => other,
    }
}

/// `Err` unless `dims` is a stack of matrices `(..., M, N)`; `M` and `N`.
pub(crate) fn stack_dims(op: &'static str, dims: &[usize], square: bool) -> Result<(usize, usize), LinalgError> {
    match *dims {
        [.., m, n] if m == n || !square => Ok((m, n)),
        _ => Err(ShapeError::Incompatible {
            op,
            lhs: dims.to_vec(),
            rhs: vec![],
            reason: if square {
                format!("{op} needs a stack of square matrices (..., M, M)")
            } else {
                format!("{op} needs a stack of matrices (..., M, N)")
            },
        }
        .into()),
    }
}

/// The number of matrices of a batch shape.
pub(crate) fn batch_count(op: &'static str, batch: &[usize]) -> Result<usize, ShapeError> {
    batch
        .iter()
        .try_fold(1usize, |p, &d| p.checked_mul(d))
        .ok_or_else(|| ShapeError::Overflow { op, dims: batch.to_vec() })
}

/// `f(bi, par)` for every matrix `bi < count`, the results in order. When the whole stack
/// (`work` multiply-adds per matrix) is worth several threads under `par`, its pieces
/// run on them and each matrix gets `Par::Seq`; otherwise the matrices run in turn, each
/// with `par`. The first error (lowest matrix) wins, said of its matrix when `named` (a
/// stack with leading axes, not one matrix).
pub(crate) fn map_stack<R: Send>(
    op: &'static str,
    count: usize,
    named: bool,
    work: usize,
    par: Par,
    f: impl Fn(usize, Par) -> Result<R, LinalgError> + Send + Sync,
) -> Result<Vec<R>, LinalgError> {
    let total = Work::MultiplyAdds(count.saturating_mul(work.max(1)));
    let pieces = if count > 1 { par.pieces(total, 4).clamp(1, count) } else { 1 };
    let inner = if pieces > 1 { Par::Seq } else { par };
    let mut ranges = crate::alloc::try_vec_with_capacity(op, pieces)?;
    ranges.extend((0..pieces).map(|p| p * count / pieces..(p + 1) * count / pieces));
    let done = map_pieces(ranges, |r: core::ops::Range<usize>| -> Result<Vec<R>, LinalgError> {
        let mut v = crate::alloc::try_vec_with_capacity(op, r.len())?;
        for bi in r {
            v.push(f(bi, inner).map_err(|e| if named { e.in_matrix(bi) } else { e })?);
        }
        Ok(v)
    });
    let mut out = crate::alloc::try_vec_with_capacity(op, count)?;
    for piece in done {
        out.extend(piece?);
    }
    Ok(out)
}

/// A result of a stack routine: numpy's shape and the elements in row-major order.
pub(crate) struct Stack<X> {
    pub dims: Vec<usize>,
    pub data: Vec<X>,
}

impl<X> Stack<X> {
    /// The result as a tensor of extents `E` (`DynRank`, or the fixed-rank extents whose
    /// static axes the caller knows to match).
    pub(crate) fn into_tensor<E: Extents>(self, op: &'static str) -> Result<Tensor<X, E>, LinalgError> {
        let ext: E = extents_from(op, &self.dims)?;
        Tensor::try_from_vec(ext, self.data).map_err(|(e, _)| LinalgError::Shape(rename(op, e)))
    }
}

/// `batch` followed by `item`: the shape of a stack of per-matrix results.
pub(crate) fn cat(batch: &[usize], item: &[usize]) -> Vec<usize> {
    batch.iter().chain(item).copied().collect()
}

/// The per-matrix results `parts` (row-major, each of `dims`' trailing shape) one after
/// the other in a tensor of shape `dims`.
pub(crate) fn gather<'p, X: Copy + 'p>(
    op: &'static str,
    dims: Vec<usize>,
    parts: impl Iterator<Item = &'p [X]>,
) -> Result<Stack<X>, LinalgError> {
    let total = DynRank::from_dims(&dims)
        .and_then(|e| e.checked_numel(op, core::mem::size_of::<X>()))
        .map_err(|e| rename(op, e))?;
    let mut data = crate::alloc::try_vec_with_capacity(op, total)?;
    parts.for_each(|p| data.extend_from_slice(p));
    Ok(Stack { dims, data })
}

/// The matrices of the stack `a` (square ones when `square`), each handed to `f` with the
/// threads it may use: the batch shape, `M`, `N` and the results in order.
pub(crate) fn per_matrix<T: LinalgScalar, R: Send>(
    op: &'static str,
    a: &Operand<'_, T>,
    square: bool,
    par: Par,
    f: impl Fn(MatView<'_, T>, Par) -> Result<R, LinalgError> + Send + Sync,
) -> Result<(Vec<usize>, usize, usize, Vec<R>), LinalgError> {
    let (m, n) = stack_dims(op, &a.dims, square)?;
    let batch = &a.dims[..a.dims.len() - 2];
    let sa = Stacked::new(op, a.ptr, &a.dims, &a.strides, batch)?;
    let count = batch_count(op, batch)?;
    let work = m.saturating_mul(n).saturating_mul(m.max(n));
    let parts = map_stack(op, count, !batch.is_empty(), work, par, |bi, p| f(sa.matrix(batch, bi)?, p))?;
    Ok((batch.to_vec(), m, n, parts))
}
