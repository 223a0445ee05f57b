//! numpy's batched routines on [`DynRank`] stacks `(..., M, N)`: each a few lines over the
//! [routines](super::routines), results `DynRank` tensors of numpy's shapes.

use super::super::decomp::{QrMode, Uplo};
use super::super::dense::LinalgStorage;
use super::super::derived::MatrixOrd;
use super::super::scalar::LinalgScalar;
use super::driver::operand;
use super::routines as r;
use crate::error::LinalgError;
use crate::exec::forms::forms;
use crate::extents::{DynRank, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// A stack of results.
type Stacks<X> = Tensor<X, DynRank>;

/// # Linear algebra on stacks `(..., M, N)`: factorizations, eigenvalues, norms (feature `linalg`)
impl<T: LinalgScalar, S: Layout<DynRank>, St: DenseStorage<T> + LinalgStorage> Tensor<T, DynRank, S, St> {
    forms! {
        /// numpy's `linalg.slogdet` of every matrix of a stack `(..., M, M)`, with an explicit
        /// choice of threads: the signs and `ln |det|`, each of the batch shape.
        #[allow(clippy::type_complexity)] // the two results
        pub fn try_slogdet_with[](&self) with par -> Result<(Stacks<T>, Stacks<T::Re>), LinalgError>
        where []
        {
            let (s, l) = r::slogdet(&operand(self), par)?;
            Ok((s.into_tensor("slogdet")?, l.into_tensor("slogdet")?))
        }
        /// See [`Tensor::try_slogdet_with`].
        pub fn try_slogdet;
        /// numpy's `linalg.slogdet` of every matrix of a stack.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 2, 2][..], vec![1.0, 2.0, 3.0, 4.0, 2.0, 0.0, 0.0, 2.0]);
        /// let (sign, logdet) = a.slogdet();
        /// assert_eq!((sign.to_vec(), sign.shape()), (vec![-1.0, 1.0], vec![2]));
        /// assert!((logdet.to_vec()[1] - 4f64.ln()).abs() < 1e-12);
        /// ```
        pub fn slogdet;
        /// [`Tensor::slogdet`] of a stack with an explicit choice of threads.
        pub fn slogdet_with;
    }

    forms! {
        /// numpy's `linalg.cholesky` of every matrix of a stack `(..., M, M)`, with an
        /// explicit choice of threads: the lower factors, the stack's shape.
        pub fn try_cholesky_with[](&self) with par -> Result<Stacks<T>, LinalgError>
        where []
        {
            r::cholesky(&operand(self), par)?.into_tensor("cholesky")
        }
        /// See [`Tensor::try_cholesky_with`].
        pub fn try_cholesky;
        /// numpy's `linalg.cholesky` of every matrix of a stack.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 2, 2][..], vec![4.0, 2.0, 2.0, 2.0, 9.0, 0.0, 0.0, 1.0]);
        /// assert_eq!(a.cholesky().to_vec(), [2.0, 0.0, 1.0, 1.0, 3.0, 0.0, 0.0, 1.0]);
        /// ```
        pub fn cholesky;
        /// [`Tensor::cholesky`] of a stack with an explicit choice of threads.
        pub fn cholesky_with;
    }

    forms! {
        /// numpy's `linalg.matrix_power(a, k)` of every matrix of a stack `(..., M, M)`,
        /// with an explicit choice of threads.
        pub fn try_matrix_power_with[](&self, k: i64) with par -> Result<Stacks<T>, LinalgError>
        where []
        {
            r::matrix_power(&operand(self), k, par)?.into_tensor("matrix_power")
        }
        /// See [`Tensor::try_matrix_power_with`].
        pub fn try_matrix_power;
        /// numpy's `linalg.matrix_power` of every matrix of a stack.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 1, 1][..], vec![2.0, 4.0]);
        /// assert_eq!(a.matrix_power(3).to_vec(), [8.0, 64.0]);
        /// assert_eq!(a.matrix_power(-1).to_vec(), [0.5, 0.25]);
        /// ```
        pub fn matrix_power;
        /// [`Tensor::matrix_power`] of a stack with an explicit choice of threads.
        pub fn matrix_power_with;
    }

    forms! {
        /// scipy's `linalg.expm` of every matrix of a stack `(..., M, M)`, with an explicit
        /// choice of threads.
        pub fn try_expm_with[](&self) with par -> Result<Stacks<T>, LinalgError>
        where []
        {
            r::expm(&operand(self), par)?.into_tensor("expm")
        }
        /// See [`Tensor::try_expm_with`].
        pub fn try_expm;
        /// scipy's `linalg.expm` of every matrix of a stack.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 1, 1][..], vec![0.0, 1.0]);
        /// let e = a.expm().to_vec();
        /// assert!((e[0] - 1.0).abs() < 1e-14 && (e[1] - 1f64.exp()).abs() < 1e-14);
        /// ```
        pub fn expm;
        /// [`Tensor::expm`] of a stack with an explicit choice of threads.
        pub fn expm_with;
    }

    forms! {
        /// numpy's `linalg.qr(a, mode)` of every matrix of a stack `(..., M, N)`, with an
        /// explicit choice of threads: `Q` `(..., M, K)` and `R` `(..., K, N)` (`K = min(M, N)`;
        /// complete: `(..., M, M)` and `(..., M, N)`; `R` mode: no `Q`).
        #[allow(clippy::type_complexity)] // the two factors
        pub fn try_qr_with[](&self, mode: QrMode) with par -> Result<(Option<Stacks<T>>, Stacks<T>), LinalgError>
        where []
        {
            let (q, rr) = r::qr(&operand(self), mode, par)?;
            Ok((q.map(|q| q.into_tensor("qr")).transpose()?, rr.into_tensor("qr")?))
        }
        /// See [`Tensor::try_qr_with`].
        pub fn try_qr;
        /// numpy's `linalg.qr` of every matrix of a stack.
        ///
        /// ```
        /// use mdtensor::{linalg::QrMode, DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_vec(&[4, 3, 2][..], (0..24).map(f64::from).collect());
        /// let (q, r) = a.qr(QrMode::Reduced);
        /// assert_eq!((q.unwrap().shape(), r.shape()), (vec![4, 3, 2], vec![4, 2, 2]));
        /// ```
        pub fn qr;
        /// [`Tensor::qr`] of a stack with an explicit choice of threads.
        pub fn qr_with;
    }

    forms! {
        /// numpy's `linalg.svd(a, full_matrices)` of every matrix of a stack `(..., M, N)`,
        /// with an explicit choice of threads: `U` `(..., M, K)`, `S` `(..., K)`, `Vᴴ`
        /// `(..., K, N)` (`full`: `(..., M, M)` and `(..., N, N)`).
        #[allow(clippy::type_complexity)] // the three factors
        pub fn try_svd_with[](&self, full: bool) with par -> Result<(Stacks<T>, Stacks<T::Re>, Stacks<T>), LinalgError>
        where []
        {
            let (u, s, vh) = r::svd(&operand(self), full, par)?;
            Ok((u.into_tensor("svd")?, s.into_tensor("svd")?, vh.into_tensor("svd")?))
        }
        /// See [`Tensor::try_svd_with`].
        pub fn try_svd;
        /// numpy's `linalg.svd` of every matrix of a stack.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 3, 2][..], (0..12).map(f64::from).collect());
        /// let (u, s, vh) = a.svd(false);
        /// assert_eq!((u.shape(), s.shape(), vh.shape()), (vec![2, 3, 2], vec![2, 2], vec![2, 2, 2]));
        /// ```
        pub fn svd;
        /// [`Tensor::svd`] of a stack with an explicit choice of threads.
        pub fn svd_with;
    }

    forms! {
        /// The singular values of every matrix of a stack, descending, `(..., K)`, with an
        /// explicit choice of threads.
        pub fn try_svdvals_with[](&self) with par -> Result<Stacks<T::Re>, LinalgError>
        where []
        {
            r::svdvals(&operand(self), par)?.into_tensor("svdvals")
        }
        /// See [`Tensor::try_svdvals_with`].
        pub fn try_svdvals;
        /// The singular values of every matrix of a stack.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 2, 2][..], vec![0.0, 2.0, 1.0, 0.0, 3.0, 0.0, 0.0, 1.0]);
        /// assert_eq!(a.svdvals().to_vec(), [2.0, 1.0, 3.0, 1.0]);
        /// ```
        pub fn svdvals;
        /// [`Tensor::svdvals`] of a stack with an explicit choice of threads.
        pub fn svdvals_with;
    }

    forms! {
        /// numpy's `linalg.eigh(a, UPLO)` of every Hermitian matrix of a stack `(..., M, M)`,
        /// with an explicit choice of threads: eigenvalues `(..., M)` ascending and
        /// eigenvectors `(..., M, M)` (columns).
        #[allow(clippy::type_complexity)] // the two results
        pub fn try_eigh_with[](&self, uplo: Uplo) with par -> Result<(Stacks<T::Re>, Stacks<T>), LinalgError>
        where []
        {
            let (w, v) = r::eigh(&operand(self), uplo, par)?;
            Ok((w.into_tensor("eigh")?, v.into_tensor("eigh")?))
        }
        /// See [`Tensor::try_eigh_with`].
        pub fn try_eigh;
        /// numpy's `linalg.eigh` of every matrix of a stack.
        ///
        /// ```
        /// use mdtensor::{linalg::Uplo, DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_vec(&[1, 2, 2][..], vec![2.0, 1.0, 1.0, 2.0]);
        /// let (w, v) = a.eigh(Uplo::Lower);
        /// assert!((w.to_vec()[0] - 1.0).abs() < 1e-12 && v.shape() == [1, 2, 2]);
        /// ```
        pub fn eigh;
        /// [`Tensor::eigh`] of a stack with an explicit choice of threads.
        pub fn eigh_with;
    }

    forms! {
        /// numpy's `linalg.eigvalsh(a, UPLO)` of every matrix of a stack, `(..., M)`
        /// ascending, with an explicit choice of threads.
        pub fn try_eigvalsh_with[](&self, uplo: Uplo) with par -> Result<Stacks<T::Re>, LinalgError>
        where []
        {
            r::eigvalsh(&operand(self), uplo, par)?.into_tensor("eigvalsh")
        }
        /// See [`Tensor::try_eigvalsh_with`].
        pub fn try_eigvalsh;
        /// numpy's `linalg.eigvalsh` of every matrix of a stack.
        ///
        /// ```
        /// use mdtensor::{linalg::Uplo, DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 1, 1][..], vec![3.0, -1.0]);
        /// assert_eq!(a.eigvalsh(Uplo::Lower).to_vec(), [3.0, -1.0]);
        /// ```
        pub fn eigvalsh;
        /// [`Tensor::eigvalsh`] of a stack with an explicit choice of threads.
        pub fn eigvalsh_with;
    }

    forms! {
        /// numpy's `linalg.eig` of every matrix of a stack `(..., M, M)`, with an explicit
        /// choice of threads: complex eigenvalues `(..., M)` and eigenvectors `(..., M, M)`.
        #[allow(clippy::type_complexity)] // the two results
        pub fn try_eig_with[](&self) with par -> Result<(Stacks<T::Complex>, Stacks<T::Complex>), LinalgError>
        where []
        {
            let (w, v) = r::eig(&operand(self), par)?;
            Ok((w.into_tensor("eig")?, v.into_tensor("eig")?))
        }
        /// See [`Tensor::try_eig_with`].
        pub fn try_eig;
        /// numpy's `linalg.eig` of every matrix of a stack.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_vec(&[1, 2, 2][..], vec![0.0, -1.0, 1.0, 0.0]);
        /// let (w, v) = a.eig();
        /// assert!((w.to_vec()[0].im.abs() - 1.0).abs() < 1e-12 && v.shape() == [1, 2, 2]);
        /// ```
        pub fn eig;
        /// [`Tensor::eig`] of a stack with an explicit choice of threads.
        pub fn eig_with;
    }

    forms! {
        /// numpy's `linalg.eigvals` of every matrix of a stack, complex, `(..., M)`, with
        /// an explicit choice of threads.
        pub fn try_eigvals_with[](&self) with par -> Result<Stacks<T::Complex>, LinalgError>
        where []
        {
            r::eigvals(&operand(self), par)?.into_tensor("eigvals")
        }
        /// See [`Tensor::try_eigvals_with`].
        pub fn try_eigvals;
        /// numpy's `linalg.eigvals` of every matrix of a stack.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 1, 1][..], vec![3.0, 5.0]);
        /// assert_eq!(a.eigvals().to_vec().iter().map(|z| z.re).collect::<Vec<_>>(), [3.0, 5.0]);
        /// ```
        pub fn eigvals;
        /// [`Tensor::eigvals`] of a stack with an explicit choice of threads.
        pub fn eigvals_with;
    }

    forms! {
        /// numpy's `linalg.pinv(a, rcond)` of every matrix of a stack `(..., M, N)`:
        /// `(..., N, M)`, with an explicit choice of threads.
        pub fn try_pinv_with[](&self, rcond: Option<T::Re>) with par -> Result<Stacks<T>, LinalgError>
        where []
        {
            r::pinv(&operand(self), rcond, par)?.into_tensor("pinv")
        }
        /// See [`Tensor::try_pinv_with`].
        pub fn try_pinv;
        /// numpy's `linalg.pinv` of every matrix of a stack.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 1, 2][..], vec![2.0, 0.0, 0.0, 4.0]);
        /// let p = a.pinv(None);
        /// assert_eq!((p.shape(), p.to_vec()), (vec![2, 2, 1], vec![0.5, 0.0, 0.0, 0.25]));
        /// ```
        pub fn pinv;
        /// [`Tensor::pinv`] of a stack with an explicit choice of threads.
        pub fn pinv_with;
    }

    forms! {
        /// numpy's `linalg.matrix_rank(a, tol)` of every matrix of a stack: the batch
        /// shape, with an explicit choice of threads.
        pub fn try_matrix_rank_with[](&self, tol: Option<T::Re>) with par -> Result<Stacks<usize>, LinalgError>
        where []
        {
            r::matrix_rank(&operand(self), tol, par)?.into_tensor("matrix_rank")
        }
        /// See [`Tensor::try_matrix_rank_with`].
        pub fn try_matrix_rank;
        /// numpy's `linalg.matrix_rank` of every matrix of a stack.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 2, 2][..], vec![1.0, 2.0, 2.0, 4.0, 1.0, 0.0, 0.0, 1.0]);
        /// assert_eq!(a.matrix_rank(None).to_vec(), [1, 2]);
        /// ```
        pub fn matrix_rank;
        /// [`Tensor::matrix_rank`] of a stack with an explicit choice of threads.
        pub fn matrix_rank_with;
    }

    forms! {
        /// numpy's `linalg.cond(a, p)` of every matrix of a stack: the batch shape, with an
        /// explicit choice of threads.
        pub fn try_cond_with[](&self, p: Option<MatrixOrd>) with par -> Result<Stacks<T::Re>, LinalgError>
        where []
        {
            r::cond(&operand(self), p, par)?.into_tensor("cond")
        }
        /// See [`Tensor::try_cond_with`].
        pub fn try_cond;
        /// numpy's `linalg.cond` of every matrix of a stack.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_vec(&[1, 2, 2][..], vec![2.0, 0.0, 0.0, 0.5]);
        /// assert_eq!(a.cond(None).to_vec(), [4.0]);
        /// ```
        pub fn cond;
        /// [`Tensor::cond`] of a stack with an explicit choice of threads.
        pub fn cond_with;
    }

    forms! {
        /// numpy's `linalg.matrix_norm(a, ord)` of every matrix of a stack: the batch shape,
        /// with an explicit choice of threads.
        pub fn try_matrix_norm_with[](&self, ord: MatrixOrd) with par -> Result<Stacks<T::Re>, LinalgError>
        where []
        {
            r::matrix_norm(&operand(self), ord, par)?.into_tensor("matrix_norm")
        }
        /// See [`Tensor::try_matrix_norm_with`].
        pub fn try_matrix_norm;
        /// numpy's `linalg.matrix_norm` of every matrix of a stack.
        ///
        /// ```
        /// use mdtensor::{linalg::MatrixOrd, DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 1, 2][..], vec![3.0, 4.0, 1.0, 0.0]);
        /// assert_eq!(a.matrix_norm(MatrixOrd::Fro).to_vec(), [5.0, 1.0]);
        /// ```
        pub fn matrix_norm;
        /// [`Tensor::matrix_norm`] of a stack with an explicit choice of threads.
        pub fn matrix_norm_with;
    }

    forms! {
        /// scipy's `linalg.solve_triangular(a, b, lower, unit_diagonal)` on stacks, with an
        /// explicit choice of threads: `a` `(..., M, M)`, `b` `(..., M, K)` or `(M,)`, the
        /// leading axes broadcast as [`Tensor::solve`]'s.
        pub fn try_solve_triangular_with[E2, S2, St2](&self, b: &Tensor<T, E2, S2, St2>, lower: bool, unit_diagonal: bool) with par
            -> Result<Stacks<T>, LinalgError>
        where [E2: Extents, S2: Layout<E2>, St2: DenseStorage<T>]
        {
            r::solve_triangular(&operand(self), &operand(b), lower, unit_diagonal, par)?.into_tensor("solve_triangular")
        }
        /// See [`Tensor::try_solve_triangular_with`].
        pub fn try_solve_triangular;
        /// scipy's `linalg.solve_triangular` on stacks.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let l = Tensor::<f64, DynRank>::from_vec(&[2, 2, 2][..], vec![2.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 4.0]);
        /// let b = Tensor::<f64, DynRank>::from_vec(&[2][..], vec![4.0, 3.0]);
        /// assert_eq!(l.solve_triangular(&b, true, false).to_vec(), [2.0, 1.0, 4.0, 0.75]);
        /// ```
        pub fn solve_triangular;
        /// [`Tensor::solve_triangular`] on stacks with an explicit choice of threads.
        pub fn solve_triangular_with;
    }
}
