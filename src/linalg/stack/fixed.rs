//! numpy's batched routines on stacks of fixed rank, `(A, M, N)` and `(A, B, M, N)` of
//! any [`Dim`]s: the static square rules of the rank-2 routines (so `inv` of
//! `ext![2, 3, 4]` does not compile), and result extents that keep what is static
//! (`inv` of `(A, M, M)` is `(A, M, M)`, `det` is `(A,)`); a length the type does not know
//! (`K = min(M, N)`, a broadcast batch axis) is `Dyn`.

use super::super::batched;
use super::super::decomp::{QrMode, Uplo};
use super::super::dense::LinalgStorage;
use super::super::derived::MatrixOrd;
use super::super::scalar::LinalgScalar;
use super::driver::operand;
use super::routines as r;
use crate::error::LinalgError;
use crate::exec::forms::forms;
use crate::extents::{
    CholeskySquare, DetSquare, Dim, Dyn, EigSquare, ExpmSquare, InvSquare, PowerSquare, SolveRhs, SolveSquare,
    TriangularSquare,
};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// `Dyn`, one per batch axis of a broadcast result (its length is known at run time only).
macro_rules! broadcast_dyn {
    ($c:ident) => {
        Dyn
    };
}

/// The routines on one fixed rank: batch axes `$b` (the right-hand side's `$c`).
macro_rules! fixed_rank_stacks {
    ($rank:literal; $($b:ident),+; $($c:ident),+) => {
        #[doc = concat!("# Linear algebra on stacks of rank ", $rank, " (feature `linalg`)")]
        impl<T: LinalgScalar, $($b: Dim,)+ M: Dim, N: Dim, S: Layout<($($b,)+ M, N)>, St: DenseStorage<T> + LinalgStorage>
            Tensor<T, ($($b,)+ M, N), S, St>
        {
            forms! {
                /// numpy's `linalg.solve` on a fixed-rank stack with an explicit choice of
                /// threads: `b` a stack of the same rank, the batch axes broadcast (`Dyn` in
                /// the result), `M` and `K` kept.
                pub fn try_solve_with[$($c,)+ R, K, S2, St2](&self, b: &Tensor<T, ($($c,)+ R, K), S2, St2>) with par
                    -> Result<Tensor<T, ($(broadcast_dyn!($c),)+ M, K)>, LinalgError>
                where [M: SolveSquare<N> + SolveRhs<R>, $($c: Dim,)+ R: Dim, K: Dim, S2: Layout<($($c,)+ R, K)>, St2: DenseStorage<T>]
                {
                    batched::solve(&operand(self), &operand(b), par)?.into_tensor("solve")
                }
                /// See [`Tensor::try_solve_with`].
                pub fn try_solve;
                /// numpy's `linalg.solve` on a fixed-rank stack; a non-square static matrix
                /// or a right-hand side of the wrong static length does not compile.
                ///
                /// ```
                /// use mdtensor::{ext, Tensor};
                /// let a = Tensor::<f64, ext![2, 2, 2]>::from_vec(ext![2, 2, 2], vec![2.0, 0.0, 0.0, 2.0, 1.0, 0.0, 0.0, 4.0]);
                /// let b = Tensor::<f64, ext![1, 2, 1]>::from_vec(ext![1, 2, 1], vec![2.0, 4.0]);
                /// let x = a.solve(&b);
                /// assert_eq!((x.shape(), x.to_vec()), (vec![2, 2, 1], vec![1.0, 2.0, 2.0, 1.0]));
                /// ```
                pub fn solve;
                /// [`Tensor::solve`] on a fixed-rank stack with an explicit choice of threads.
                pub fn solve_with;
            }

            forms! {
                /// scipy's `solve_triangular` on a fixed-rank stack with an explicit choice of
                /// threads, broadcast as [`Tensor::solve`].
                pub fn try_solve_triangular_with[$($c,)+ R, K, S2, St2](&self, b: &Tensor<T, ($($c,)+ R, K), S2, St2>, lower: bool, unit_diagonal: bool) with par
                    -> Result<Tensor<T, ($(broadcast_dyn!($c),)+ M, K)>, LinalgError>
                where [M: TriangularSquare<N> + SolveRhs<R>, $($c: Dim,)+ R: Dim, K: Dim, S2: Layout<($($c,)+ R, K)>, St2: DenseStorage<T>]
                {
                    r::solve_triangular(&operand(self), &operand(b), lower, unit_diagonal, par)?.into_tensor("solve_triangular")
                }
                /// See [`Tensor::try_solve_triangular_with`].
                pub fn try_solve_triangular;
                /// scipy's `solve_triangular` on a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, Tensor};
                /// let l = Tensor::<f64, ext![1, 2, 2]>::from_vec(ext![1, 2, 2], vec![2.0, 0.0, 1.0, 1.0]);
                /// let b = Tensor::<f64, ext![1, 2, 1]>::from_vec(ext![1, 2, 1], vec![4.0, 3.0]);
                /// assert_eq!(l.solve_triangular(&b, true, false).to_vec(), [2.0, 1.0]);
                /// ```
                pub fn solve_triangular;
                /// [`Tensor::solve_triangular`] with an explicit choice of threads.
                pub fn solve_triangular_with;
            }

            forms! {
                /// numpy's `linalg.inv` of every matrix, in the stack's extents, with an
                /// explicit choice of threads.
                pub fn try_inv_with[](&self) with par -> Result<Tensor<T, ($($b,)+ M, N)>, LinalgError>
                where [M: InvSquare<N>]
                {
                    batched::inv(&operand(self), par)?.into_tensor("inv")
                }
                /// See [`Tensor::try_inv_with`].
                pub fn try_inv;
                /// numpy's `linalg.inv` of every matrix of a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, Tensor};
                /// let a = Tensor::<f64, ext![2, 1, 1]>::from_vec(ext![2, 1, 1], vec![2.0, 4.0]);
                /// let i: Tensor<f64, ext![2, 1, 1]> = a.inv();
                /// assert_eq!(i.to_vec(), [0.5, 0.25]);
                /// ```
                pub fn inv;
                /// [`Tensor::inv`] with an explicit choice of threads.
                pub fn inv_with;
            }

            forms! {
                /// numpy's `linalg.det` of every matrix: the batch axes' extents.
                pub fn try_det[](&self) -> Result<Tensor<T, ($($b,)+)>, LinalgError>
                where [M: DetSquare<N>]
                {
                    batched::det(&operand(self))?.into_tensor("det")
                }
                /// numpy's `linalg.det` of every matrix of a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, Tensor};
                /// let a = Tensor::<f64, ext![2, 2, 2]>::from_vec(ext![2, 2, 2], vec![1.0, 2.0, 3.0, 4.0, 2.0, 0.0, 0.0, 2.0]);
                /// let d: Tensor<f64, ext![2]> = a.det();
                /// assert!((d[[0]] + 2.0).abs() < 1e-12 && (d[[1]] - 4.0).abs() < 1e-12);
                /// ```
                pub fn det;
            }

            forms! {
                /// numpy's `linalg.slogdet` of every matrix with an explicit choice of
                /// threads: signs and `ln |det|` in the batch axes' extents.
                #[allow(clippy::type_complexity)] // the two results
                pub fn try_slogdet_with[](&self) with par
                    -> Result<(Tensor<T, ($($b,)+)>, Tensor<T::Re, ($($b,)+)>), LinalgError>
                where [M: DetSquare<N>]
                {
                    let (s, l) = r::slogdet(&operand(self), par)?;
                    Ok((s.into_tensor("slogdet")?, l.into_tensor("slogdet")?))
                }
                /// See [`Tensor::try_slogdet_with`].
                pub fn try_slogdet;
                /// numpy's `linalg.slogdet` of every matrix of a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, Tensor};
                /// let a = Tensor::<f64, ext![1, 2, 2]>::from_vec(ext![1, 2, 2], vec![1.0, 2.0, 3.0, 4.0]);
                /// let (sign, logdet) = a.slogdet();
                /// assert_eq!(sign[[0]], -1.0);
                /// assert!((logdet[[0]] - 2f64.ln()).abs() < 1e-12);
                /// ```
                pub fn slogdet;
                /// [`Tensor::slogdet`] with an explicit choice of threads.
                pub fn slogdet_with;
            }

            forms! {
                /// numpy's `linalg.cholesky` of every matrix, in the stack's extents, with an
                /// explicit choice of threads.
                pub fn try_cholesky_with[](&self) with par -> Result<Tensor<T, ($($b,)+ M, N)>, LinalgError>
                where [M: CholeskySquare<N>]
                {
                    r::cholesky(&operand(self), par)?.into_tensor("cholesky")
                }
                /// See [`Tensor::try_cholesky_with`].
                pub fn try_cholesky;
                /// numpy's `linalg.cholesky` of every matrix of a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, Tensor};
                /// let a = Tensor::<f64, ext![1, 2, 2]>::from_vec(ext![1, 2, 2], vec![4.0, 2.0, 2.0, 2.0]);
                /// assert_eq!(a.cholesky().to_vec(), [2.0, 0.0, 1.0, 1.0]);
                /// ```
                pub fn cholesky;
                /// [`Tensor::cholesky`] with an explicit choice of threads.
                pub fn cholesky_with;
            }

            forms! {
                /// numpy's `linalg.matrix_power(a, k)` of every matrix, in the stack's
                /// extents, with an explicit choice of threads.
                pub fn try_matrix_power_with[](&self, k: i64) with par -> Result<Tensor<T, ($($b,)+ M, N)>, LinalgError>
                where [M: PowerSquare<N>]
                {
                    r::matrix_power(&operand(self), k, par)?.into_tensor("matrix_power")
                }
                /// See [`Tensor::try_matrix_power_with`].
                pub fn try_matrix_power;
                /// numpy's `linalg.matrix_power` of every matrix of a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, Tensor};
                /// let a = Tensor::<f64, ext![2, 1, 1]>::from_vec(ext![2, 1, 1], vec![2.0, 3.0]);
                /// assert_eq!(a.matrix_power(2).to_vec(), [4.0, 9.0]);
                /// ```
                pub fn matrix_power;
                /// [`Tensor::matrix_power`] with an explicit choice of threads.
                pub fn matrix_power_with;
            }

            forms! {
                /// scipy's `linalg.expm` of every matrix, in the stack's extents, with an
                /// explicit choice of threads.
                pub fn try_expm_with[](&self) with par -> Result<Tensor<T, ($($b,)+ M, N)>, LinalgError>
                where [M: ExpmSquare<N>]
                {
                    r::expm(&operand(self), par)?.into_tensor("expm")
                }
                /// See [`Tensor::try_expm_with`].
                pub fn try_expm;
                /// scipy's `linalg.expm` of every matrix of a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, Tensor};
                /// let a = Tensor::<f64, ext![1, 2, 2]>::from_vec(ext![1, 2, 2], vec![0.0, 1.0, 0.0, 0.0]);
                /// assert!(a.expm().iter().zip([1.0, 1.0, 0.0, 1.0]).all(|(x, y)| (x - y).abs() < 1e-14));
                /// ```
                pub fn expm;
                /// [`Tensor::expm`] with an explicit choice of threads.
                pub fn expm_with;
            }

            forms! {
                /// numpy's `linalg.qr(a, mode)` of every matrix with an explicit choice of
                /// threads: `Q` `(…, M, Dyn)` and `R` `(…, Dyn, N)`.
                #[allow(clippy::type_complexity)] // the two factors
                pub fn try_qr_with[](&self, mode: QrMode) with par
                    -> Result<(Option<Tensor<T, ($($b,)+ M, Dyn)>>, Tensor<T, ($($b,)+ Dyn, N)>), LinalgError>
                where []
                {
                    let (q, rr) = r::qr(&operand(self), mode, par)?;
                    Ok((q.map(|q| q.into_tensor("qr")).transpose()?, rr.into_tensor("qr")?))
                }
                /// See [`Tensor::try_qr_with`].
                pub fn try_qr;
                /// numpy's `linalg.qr` of every matrix of a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, linalg::QrMode, Tensor};
                /// let a = Tensor::<f64, ext![2, 3, 2]>::from_vec(ext![2, 3, 2], (0..12).map(f64::from).collect());
                /// let (q, r) = a.qr(QrMode::Reduced);
                /// assert_eq!((q.unwrap().shape(), r.shape()), (vec![2, 3, 2], vec![2, 2, 2]));
                /// ```
                pub fn qr;
                /// [`Tensor::qr`] with an explicit choice of threads.
                pub fn qr_with;
            }

            forms! {
                /// numpy's `linalg.svd(a, full_matrices)` of every matrix with an explicit
                /// choice of threads: `U` `(…, M, Dyn)`, `S` `(…, Dyn)`, `Vᴴ` `(…, Dyn, N)`.
                #[allow(clippy::type_complexity)] // the three factors
                pub fn try_svd_with[](&self, full: bool) with par
                    -> Result<(Tensor<T, ($($b,)+ M, Dyn)>, Tensor<T::Re, ($($b,)+ Dyn)>, Tensor<T, ($($b,)+ Dyn, N)>), LinalgError>
                where []
                {
                    let (u, s, vh) = r::svd(&operand(self), full, par)?;
                    Ok((u.into_tensor("svd")?, s.into_tensor("svd")?, vh.into_tensor("svd")?))
                }
                /// See [`Tensor::try_svd_with`].
                pub fn try_svd;
                /// numpy's `linalg.svd` of every matrix of a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, Tensor};
                /// let a = Tensor::<f64, ext![2, 3, 2]>::from_vec(ext![2, 3, 2], (0..12).map(f64::from).collect());
                /// let (u, s, vh) = a.svd(true);
                /// assert_eq!((u.shape(), s.shape(), vh.shape()), (vec![2, 3, 3], vec![2, 2], vec![2, 2, 2]));
                /// ```
                pub fn svd;
                /// [`Tensor::svd`] with an explicit choice of threads.
                pub fn svd_with;
            }

            forms! {
                /// The singular values of every matrix, descending, with an explicit choice
                /// of threads.
                pub fn try_svdvals_with[](&self) with par -> Result<Tensor<T::Re, ($($b,)+ Dyn)>, LinalgError>
                where []
                {
                    r::svdvals(&operand(self), par)?.into_tensor("svdvals")
                }
                /// See [`Tensor::try_svdvals_with`].
                pub fn try_svdvals;
                /// The singular values of every matrix of a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, Tensor};
                /// let a = Tensor::<f64, ext![1, 2, 2]>::from_vec(ext![1, 2, 2], vec![0.0, 2.0, 1.0, 0.0]);
                /// assert_eq!(a.svdvals().to_vec(), [2.0, 1.0]);
                /// ```
                pub fn svdvals;
                /// [`Tensor::svdvals`] with an explicit choice of threads.
                pub fn svdvals_with;
            }

            forms! {
                /// numpy's `linalg.eigh(a, UPLO)` of every Hermitian matrix with an explicit
                /// choice of threads: eigenvalues `(…, M)` and eigenvectors `(…, M, N)`.
                #[allow(clippy::type_complexity)] // the two results
                pub fn try_eigh_with[](&self, uplo: Uplo) with par
                    -> Result<(Tensor<T::Re, ($($b,)+ M)>, Tensor<T, ($($b,)+ M, N)>), LinalgError>
                where [M: EigSquare<N>]
                {
                    let (w, v) = r::eigh(&operand(self), uplo, par)?;
                    Ok((w.into_tensor("eigh")?, v.into_tensor("eigh")?))
                }
                /// See [`Tensor::try_eigh_with`].
                pub fn try_eigh;
                /// numpy's `linalg.eigh` of every matrix of a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, linalg::Uplo, Tensor};
                /// let a = Tensor::<f64, ext![1, 2, 2]>::from_vec(ext![1, 2, 2], vec![2.0, 1.0, 1.0, 2.0]);
                /// let (w, _v) = a.eigh(Uplo::Lower);
                /// assert!((w[[0, 0]] - 1.0).abs() < 1e-12 && (w[[0, 1]] - 3.0).abs() < 1e-12);
                /// ```
                pub fn eigh;
                /// [`Tensor::eigh`] with an explicit choice of threads.
                pub fn eigh_with;
            }

            forms! {
                /// numpy's `linalg.eigvalsh(a, UPLO)` of every matrix, `(…, M)`, with an
                /// explicit choice of threads.
                pub fn try_eigvalsh_with[](&self, uplo: Uplo) with par -> Result<Tensor<T::Re, ($($b,)+ M)>, LinalgError>
                where [M: EigSquare<N>]
                {
                    r::eigvalsh(&operand(self), uplo, par)?.into_tensor("eigvalsh")
                }
                /// See [`Tensor::try_eigvalsh_with`].
                pub fn try_eigvalsh;
                /// numpy's `linalg.eigvalsh` of every matrix of a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, linalg::Uplo, Tensor};
                /// let a = Tensor::<f64, ext![1, 2, 2]>::from_vec(ext![1, 2, 2], vec![2.0, 0.0, 0.0, 1.0]);
                /// assert_eq!(a.eigvalsh(Uplo::Lower).to_vec(), [1.0, 2.0]);
                /// ```
                pub fn eigvalsh;
                /// [`Tensor::eigvalsh`] with an explicit choice of threads.
                pub fn eigvalsh_with;
            }

            forms! {
                /// numpy's `linalg.eig` of every matrix with an explicit choice of threads:
                /// complex eigenvalues `(…, M)` and eigenvectors `(…, M, N)`.
                #[allow(clippy::type_complexity)] // the two results
                pub fn try_eig_with[](&self) with par
                    -> Result<(Tensor<T::Complex, ($($b,)+ M)>, Tensor<T::Complex, ($($b,)+ M, N)>), LinalgError>
                where [M: EigSquare<N>]
                {
                    let (w, v) = r::eig(&operand(self), par)?;
                    Ok((w.into_tensor("eig")?, v.into_tensor("eig")?))
                }
                /// See [`Tensor::try_eig_with`].
                pub fn try_eig;
                /// numpy's `linalg.eig` of every matrix of a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, Tensor};
                /// let a = Tensor::<f64, ext![1, 2, 2]>::from_vec(ext![1, 2, 2], vec![0.0, -1.0, 1.0, 0.0]);
                /// let (w, _v) = a.eig();
                /// assert!((w[[0, 0]].im.abs() - 1.0).abs() < 1e-12);
                /// ```
                pub fn eig;
                /// [`Tensor::eig`] with an explicit choice of threads.
                pub fn eig_with;
            }

            forms! {
                /// numpy's `linalg.eigvals` of every matrix, complex, `(…, M)`, with an
                /// explicit choice of threads.
                pub fn try_eigvals_with[](&self) with par -> Result<Tensor<T::Complex, ($($b,)+ M)>, LinalgError>
                where [M: EigSquare<N>]
                {
                    r::eigvals(&operand(self), par)?.into_tensor("eigvals")
                }
                /// See [`Tensor::try_eigvals_with`].
                pub fn try_eigvals;
                /// numpy's `linalg.eigvals` of every matrix of a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, Tensor};
                /// let a = Tensor::<f64, ext![1, 2, 2]>::from_vec(ext![1, 2, 2], vec![2.0, 0.0, 0.0, 3.0]);
                /// assert_eq!(a.eigvals().to_vec().iter().map(|z| z.re).sum::<f64>(), 5.0);
                /// ```
                pub fn eigvals;
                /// [`Tensor::eigvals`] with an explicit choice of threads.
                pub fn eigvals_with;
            }

            forms! {
                /// numpy's `linalg.pinv(a, rcond)` of every matrix, `(…, N, M)`, with an
                /// explicit choice of threads.
                pub fn try_pinv_with[](&self, rcond: Option<T::Re>) with par -> Result<Tensor<T, ($($b,)+ N, M)>, LinalgError>
                where []
                {
                    r::pinv(&operand(self), rcond, par)?.into_tensor("pinv")
                }
                /// See [`Tensor::try_pinv_with`].
                pub fn try_pinv;
                /// numpy's `linalg.pinv` of every matrix of a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, Tensor};
                /// let a = Tensor::<f64, ext![1, 1, 2]>::from_vec(ext![1, 1, 2], vec![2.0, 0.0]);
                /// let p: Tensor<f64, ext![1, 2, 1]> = a.pinv(None);
                /// assert_eq!(p.to_vec(), [0.5, 0.0]);
                /// ```
                pub fn pinv;
                /// [`Tensor::pinv`] with an explicit choice of threads.
                pub fn pinv_with;
            }

            forms! {
                /// numpy's `linalg.matrix_rank(a, tol)` of every matrix, in the batch axes'
                /// extents, with an explicit choice of threads.
                pub fn try_matrix_rank_with[](&self, tol: Option<T::Re>) with par -> Result<Tensor<usize, ($($b,)+)>, LinalgError>
                where []
                {
                    r::matrix_rank(&operand(self), tol, par)?.into_tensor("matrix_rank")
                }
                /// See [`Tensor::try_matrix_rank_with`].
                pub fn try_matrix_rank;
                /// numpy's `linalg.matrix_rank` of every matrix of a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, Tensor};
                /// let a = Tensor::<f64, ext![2, 2, 2]>::from_vec(ext![2, 2, 2], vec![1.0, 2.0, 2.0, 4.0, 1.0, 0.0, 0.0, 1.0]);
                /// assert_eq!(a.matrix_rank(None).to_vec(), [1, 2]);
                /// ```
                pub fn matrix_rank;
                /// [`Tensor::matrix_rank`] with an explicit choice of threads.
                pub fn matrix_rank_with;
            }

            forms! {
                /// numpy's `linalg.cond(a, p)` of every matrix, in the batch axes' extents,
                /// with an explicit choice of threads.
                pub fn try_cond_with[](&self, p: Option<MatrixOrd>) with par -> Result<Tensor<T::Re, ($($b,)+)>, LinalgError>
                where []
                {
                    r::cond(&operand(self), p, par)?.into_tensor("cond")
                }
                /// See [`Tensor::try_cond_with`].
                pub fn try_cond;
                /// numpy's `linalg.cond` of every matrix of a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, Tensor};
                /// let a = Tensor::<f64, ext![1, 2, 2]>::from_vec(ext![1, 2, 2], vec![2.0, 0.0, 0.0, 0.5]);
                /// assert_eq!(a.cond(None).to_vec(), [4.0]);
                /// ```
                pub fn cond;
                /// [`Tensor::cond`] with an explicit choice of threads.
                pub fn cond_with;
            }

            forms! {
                /// numpy's `linalg.matrix_norm(a, ord)` of every matrix, in the batch axes'
                /// extents, with an explicit choice of threads.
                pub fn try_matrix_norm_with[](&self, ord: MatrixOrd) with par -> Result<Tensor<T::Re, ($($b,)+)>, LinalgError>
                where []
                {
                    r::matrix_norm(&operand(self), ord, par)?.into_tensor("matrix_norm")
                }
                /// See [`Tensor::try_matrix_norm_with`].
                pub fn try_matrix_norm;
                /// numpy's `linalg.matrix_norm` of every matrix of a fixed-rank stack.
                ///
                /// ```
                /// use mdtensor::{ext, linalg::MatrixOrd, Tensor};
                /// let a = Tensor::<f64, ext![2, 1, 2]>::from_vec(ext![2, 1, 2], vec![3.0, 4.0, 1.0, 0.0]);
                /// assert_eq!(a.matrix_norm(MatrixOrd::Fro).to_vec(), [5.0, 1.0]);
                /// ```
                pub fn matrix_norm;
                /// [`Tensor::matrix_norm`] with an explicit choice of threads.
                pub fn matrix_norm_with;
            }
        }
    };
}

fixed_rank_stacks!(3; A; A2);
fixed_rank_stacks!(4; A, B; A2, B2);
