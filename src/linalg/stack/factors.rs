//! The reusable factorizations of every matrix of a stack (scipy's batched `lu_factor` and
//! `cho_factor`): one [`LuFactor`] or [`ChoFactor`] per matrix, kept with the batch shape
//! so that a solve pairs and broadcasts its right-hand side as `solve` does.

use super::super::cholesky::ChoFactor;
use super::super::lu::LuFactor;
use super::super::scalar::LinalgScalar;
use super::driver::{batch_count, gather, map_stack, operand, rename, Stacked};
use crate::error::{LinalgError, ShapeError};
use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::extents::{matmul_dims, DynRank, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;
use faer::MatMut;

/// The factorizations of every matrix of a stack `(..., M, M)`, row-major over the batch
/// axes: what `lu_factor` and `cho_factor` of a stack return ([`LuFactor`] or
/// [`ChoFactor`] per matrix). `solve` takes what [`Tensor::solve`] of the stack takes (a
/// vector `(M,)`, a matrix `(M, K)`, or a stack `(..., M, K)` whose batch axes broadcast
/// with the factors'), and its result is a [`DynRank`] tensor of numpy's shape.
///
/// ```
/// use mdtensor::{DynRank, Tensor};
/// let a = Tensor::<f64, DynRank>::from_vec(&[2, 2, 2][..], vec![2.0, 0.0, 0.0, 2.0, 4.0, 0.0, 0.0, 1.0]);
/// let lu = a.lu_factor();
/// assert_eq!((lu.batch_shape(), lu.order(), lu.len()), (&[2][..], 2, 2));
/// let x = lu.solve(&Tensor::<f64, DynRank>::from_vec(&[2][..], vec![4.0, 2.0]));
/// assert_eq!((x.shape(), x.to_vec()), (vec![2, 2], vec![2.0, 1.0, 1.0, 2.0]));
/// assert_eq!(lu.det().to_vec(), [4.0, 4.0]);
/// ```
///
/// [`Tensor::solve`]: crate::Tensor::solve
#[derive(Clone, Debug, PartialEq)]
pub struct Factors<F> {
    batch: Vec<usize>,
    /// `batch` as extents, checked when the stack was factored.
    batch_extents: DynRank,
    order: usize,
    items: Vec<F>,
}

impl<F> Factors<F> {
    /// The batch shape: the stack's leading axes (empty for one matrix).
    pub fn batch_shape(&self) -> &[usize] {
        &self.batch
    }

    /// The order `M` of every matrix.
    pub fn order(&self) -> usize {
        self.order
    }

    /// The number of matrices.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the stack holds no matrix (a batch axis of length 0).
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The factorization of the matrix at batch index `index` (one entry per batch axis);
    /// `None` outside the batch shape.
    pub fn get(&self, index: &[usize]) -> Option<&F> {
        if index.len() != self.batch.len() || index.iter().zip(&self.batch).any(|(&i, &d)| i >= d) {
            return None;
        }
        self.items.get(index.iter().zip(&self.batch).fold(0, |p, (&i, &d)| p * d + i))
    }

    /// The factorizations, row-major over the batch axes.
    pub fn iter(&self) -> core::slice::Iter<'_, F> {
        self.items.iter()
    }
}

impl<'a, F> IntoIterator for &'a Factors<F> {
    type Item = &'a F;
    type IntoIter = core::slice::Iter<'a, F>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

/// The factorizations of every matrix of the stack `a`, each by `f`.
pub(crate) fn factor_stack<T: LinalgScalar, F: Send>(
    op: &'static str,
    a: &super::driver::Operand<'_, T>,
    par: Par,
    f: impl Fn(faer::MatRef<'_, T>, Par) -> Result<F, LinalgError> + Send + Sync,
) -> Result<Factors<F>, LinalgError> {
    let (m, _) = super::driver::stack_dims(op, &a.dims, true)?;
    let batch = a.dims[..a.dims.len() - 2].to_vec();
    let sa = Stacked::new(op, a.ptr, &a.dims, &a.strides, &batch)?;
    let count = batch_count(op, &batch)?;
    let work = m.saturating_mul(m).saturating_mul(m);
    let items = map_stack(op, count, !batch.is_empty(), work, par, |bi, p| f(sa.at(&batch, bi), p))?;
    let batch_extents = DynRank::from_dims(&batch).map_err(|e| rename(op, e))?;
    Ok(Factors { batch, batch_extents, order: m, items })
}

/// The index of the factor that output matrix `bi` (row-major over `out`) reads: the
/// factors' batch axes align with `out`'s from the right, a length-1 axis broadcast.
fn factor_index(batch: &[usize], out: &[usize], mut bi: usize) -> usize {
    let off = out.len() - batch.len();
    let mut idx = 0;
    let mut scale = 1;
    for (j, &d) in out.iter().enumerate().rev() {
        let i = bi % d;
        bi /= d;
        if j >= off {
            let fd = batch[j - off];
            idx += if fd == 1 { 0 } else { i } * scale;
            scale *= fd;
        }
    }
    idx
}

impl<F: Sync> Factors<F> {
    /// `A x = b` for every matrix: `b` paired and broadcast as [`Tensor::solve`]'s, each
    /// system solved in place by `solve` on a column-major copy of its right-hand side.
    fn solve_stack<T: LinalgScalar, E2: Extents, S2: Layout<E2>, St2: DenseStorage<T>>(
        &self,
        op: &'static str,
        b: &Tensor<T, E2, S2, St2>,
        par: Par,
        solve: impl Fn(&F, MatMut<'_, T>, Par) -> Result<(), ShapeError> + Send + Sync,
    ) -> Result<Tensor<T, DynRank>, LinalgError> {
        let mut lhs = self.batch.clone();
        lhs.extend([self.order, self.order]);
        let b = operand(b);
        let d = matmul_dims(&lhs, &b.dims).map_err(|e| rename(op, e))?;
        let sb = Stacked::new(op, b.ptr, &b.dims, &b.strides, &d.batch)?;
        let (m, k) = (self.order, sb.cols);
        let count = batch_count(op, &d.batch)?;
        let work = m.saturating_mul(m).saturating_mul(k);
        let parts = map_stack(op, count, !d.batch.is_empty(), work, par, |bi, p| {
            let rhs = sb.at(&d.batch, bi);
            let mut w = super::super::dense::owned_copy(op, rhs)?;
            solve(
                &self.items[factor_index(&self.batch, &d.batch, bi)],
                super::super::dense::col_major_mut(&mut w, m, k),
                p,
            )?;
            let cm = super::super::dense::col_major(&w, m, k);
            Ok((0..m * k).map(|q| cm[(q / k.max(1), q % k.max(1))]).collect::<Vec<T>>())
        })?;
        gather(op, d.out(), parts.iter().map(|p| &p[..]))?.into_tensor(op)
    }
}

/// `solve` of a stack of factors `$f`, named `$op` in errors.
macro_rules! factors_solve {
    ($f:ident, $op:literal, $doc:literal) => {
        impl<T: LinalgScalar> Factors<$f<T>> {
            forms! {
                #[doc = $doc]
                #[doc = ""]
                #[doc = "With an explicit choice of threads; `b` is paired and broadcast as [`Tensor::solve`](crate::Tensor::solve)'s."]
                pub fn try_solve_with[E2, S2, St2](&self, b: &Tensor<T, E2, S2, St2>) with par
                    -> Result<Tensor<T, DynRank>, LinalgError>
                where [E2: Extents, S2: Layout<E2>, St2: DenseStorage<T>]
                {
                    self.solve_stack($op, b, par, |f, rhs, p| f.solve_mat($op, rhs, p))
                }
                /// See [`Factors::try_solve_with`].
                pub fn try_solve;
                /// See [`Factors::try_solve_with`]; panics with its message.
                pub fn solve;
                /// See [`Factors::try_solve_with`]; panics with its message.
                pub fn solve_with;
            }
        }
    };
}
factors_solve!(LuFactor, "lu_solve", "scipy's `lu_solve` on a stack of LU factors.");
factors_solve!(ChoFactor, "cho_solve", "scipy's `cho_solve` on a stack of Cholesky factors.");

impl<T: LinalgScalar> Factors<LuFactor<T>> {
    /// The determinant of every matrix, in the batch shape (0 for a singular matrix).
    pub fn det(&self) -> Tensor<T, DynRank> {
        Tensor::from_vec(self.batch_extents.clone(), self.items.iter().map(LuFactor::det).collect())
    }

    /// The sign and `ln |det|` of every matrix (numpy's `slogdet`), each in the batch shape.
    pub fn slogdet(&self) -> (Tensor<T, DynRank>, Tensor<T::Re, DynRank>) {
        let (signs, logs): (Vec<T>, Vec<T::Re>) = self.items.iter().map(LuFactor::slogdet).unzip();
        (Tensor::from_vec(self.batch_extents.clone(), signs), Tensor::from_vec(self.batch_extents.clone(), logs))
    }
}
