//! The batched routines' methods, written once for every stack type: [`DynRank`] stacks
//! and the fixed ranks 3 and 4. Each stack type names its result extents (what it keeps
//! static) and its static square rules; the bodies are the [routines](super::routines).
//!
//! [`DynRank`]: crate::DynRank

/// The methods of one stack type `$ty` (impl generics `$gen`): result extents `same` (the
/// stack's own), `batch` (one scalar per matrix), `order` (one vector of length `M`), `k`
/// (length `min(M, N)`), `q` (`M × K`), `r` (`K × N`), `pinv` (`N × M`), `perm` (`M × M`), and the bounds
/// of the square-only routines.
macro_rules! stack_routines {
    (
        $(#[$doc:meta])*
        impl[$($gen:tt)*] $ty:ty;
        same: $same:ty, batch: $batch:ty, order: $order:ty, k: $k:ty, q: $q:ty, r: $r:ty, pinv: $pinv:ty, perm: $perm:ty;
        inv: [$($inv:tt)*], det: [$($det:tt)*], cholesky: [$($chol:tt)*], power: [$($pow:tt)*],
        expm: [$($expm:tt)*], eig: [$($eig:tt)*], lu_factor: [$($luf:tt)*];
    ) => {
        $(#[$doc])*
        impl<$($gen)*> $ty {
            $crate::exec::forms::forms! {
                /// numpy's `linalg.inv` of every matrix of a stack `(..., M, M)`, in the
                /// stack's extents, with an explicit choice of threads.
                pub fn try_inv_with[](&self) with par -> Result<Tensor<T, $same>, LinalgError>
                where [$($inv)*]
                {
                    super::super::batched::inv(&operand(self), par)?.into_tensor("inv")
                }
                /// See [`Tensor::try_inv_with`].
                pub fn try_inv;
                /// numpy's `linalg.inv` of every matrix of a stack (`DynRank`, or fixed
                /// rank 3 or 4 keeping its extents). A singular matrix is `Err(Singular)`
                /// from `try_inv`.
                ///
                /// ```
                /// use mdtensor::{ext, DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 1, 1][..], vec![2.0, 4.0]);
                /// assert_eq!(a.inv().to_vec(), [0.5, 0.25]);
                /// let f = Tensor::<f64, ext![2, 1, 1]>::from_vec(ext![2, 1, 1], vec![2.0, 4.0]);
                /// let i: Tensor<f64, ext![2, 1, 1]> = f.inv();
                /// assert_eq!(i.to_vec(), [0.5, 0.25]);
                /// ```
                pub fn inv;
                /// [`Tensor::inv`] of a stack with an explicit choice of threads.
                pub fn inv_with;
            }

            $crate::exec::forms::forms! {
                /// scipy's `lu_factor` of every matrix of a stack `(..., M, M)`, with an
                /// explicit choice of threads: one [`LuFactor`](crate::linalg::LuFactor)
                /// per matrix, to solve for many right-hand sides.
                pub fn try_lu_factor_with[](&self) with par -> Result<Factors<LuFactor<T>>, LinalgError>
                where [$($luf)*]
                {
                    factor_stack("lu_factor", &operand(self), par, |m, p| Ok(LuFactor::new("lu_factor", m, p)?))
                }
                /// See [`Tensor::try_lu_factor_with`].
                pub fn try_lu_factor;
                /// scipy's `lu_factor` of every matrix of a stack; see [`Factors`].
                ///
                /// ```
                /// use mdtensor::{ext, Tensor};
                /// let a = Tensor::<f64, ext![2, 2, 2]>::from_vec(ext![2, 2, 2], vec![2.0, 0.0, 0.0, 2.0, 0.0, 1.0, 1.0, 0.0]);
                /// let lu = a.lu_factor();
                /// let b = Tensor::<f64, ext![2, 2, 1]>::from_vec(ext![2, 2, 1], vec![2.0, 4.0, 3.0, 5.0]);
                /// assert_eq!(lu.solve(&b).to_vec(), [1.0, 2.0, 5.0, 3.0]);
                /// assert_eq!(lu.solve(&b).to_vec(), a.solve(&b).to_vec());
                /// ```
                pub fn lu_factor;
                /// [`Tensor::lu_factor`] of a stack with an explicit choice of threads.
                pub fn lu_factor_with;
            }

            $crate::exec::forms::forms! {
                /// scipy's `cho_factor` of every matrix of a stack `(..., M, M)`, with an
                /// explicit choice of threads: one [`ChoFactor`](crate::linalg::ChoFactor)
                /// per matrix; a matrix that is not positive definite is
                /// `Err(NotPositiveDefinite)` naming its position.
                pub fn try_cho_factor_with[](&self) with par -> Result<Factors<ChoFactor<T>>, LinalgError>
                where [$($chol)*]
                {
                    factor_stack("cho_factor", &operand(self), par, |m, p| ChoFactor::new("cho_factor", m, p))
                }
                /// See [`Tensor::try_cho_factor_with`].
                pub fn try_cho_factor;
                /// scipy's `cho_factor` of every matrix of a stack; see [`Factors`].
                ///
                /// ```
                /// use mdtensor::{DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 2, 2][..], vec![4.0, 2.0, 2.0, 3.0, 1.0, 0.0, 0.0, 4.0]);
                /// let c = a.cho_factor();
                /// let x = c.solve(&Tensor::<f64, DynRank>::from_vec(&[2][..], vec![6.0, 5.0]));
                /// assert_eq!(x.shape(), [2, 2]);
                /// assert!((x.to_vec()[0] - 1.0).abs() < 1e-12 && (x.to_vec()[3] - 1.25).abs() < 1e-12);
                /// ```
                pub fn cho_factor;
                /// [`Tensor::cho_factor`] of a stack with an explicit choice of threads.
                pub fn cho_factor_with;
            }

            $crate::exec::forms::forms! {
                /// numpy's `linalg.det` of every matrix of a stack `(..., M, M)`: the batch
                /// shape (0 for a singular matrix).
                pub fn try_det[](&self) -> Result<Tensor<T, $batch>, LinalgError>
                where [$($det)*]
                {
                    super::super::batched::det(&operand(self))?.into_tensor("det")
                }
                /// numpy's `linalg.det` of every matrix of a stack.
                ///
                /// ```
                /// use mdtensor::{ext, DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 2, 2][..], vec![1.0, 2.0, 3.0, 4.0, 2.0, 0.0, 0.0, 2.0]);
                /// let d = a.det().to_vec();
                /// assert!((d[0] + 2.0).abs() < 1e-12 && (d[1] - 4.0).abs() < 1e-12);
                /// let f = Tensor::<f64, ext![2, 2, 2]>::from_vec(ext![2, 2, 2], a.to_vec());
                /// let _: Tensor<f64, ext![2]> = f.det();
                /// ```
                pub fn det;
            }

            $crate::exec::forms::forms! {
                /// numpy's `linalg.slogdet` of every matrix of a stack `(..., M, M)`, with an
                /// explicit choice of threads: the signs and `ln |det|`, each of the batch shape.
                #[allow(clippy::type_complexity)] // the two results
                pub fn try_slogdet_with[](&self) with par -> Result<(Tensor<T, $batch>, Tensor<T::Re, $batch>), LinalgError>
                where [$($det)*]
                {
                    let (s, l) = routines::slogdet(&operand(self), par)?;
                    Ok((s.into_tensor("slogdet")?, l.into_tensor("slogdet")?))
                }
                /// See [`Tensor::try_slogdet_with`].
                pub fn try_slogdet;
                /// numpy's `linalg.slogdet` of every matrix of a stack.
                ///
                /// ```
                /// use mdtensor::{ext, DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 2, 2][..], vec![1.0, 2.0, 3.0, 4.0, 2.0, 0.0, 0.0, 2.0]);
                /// let (sign, logdet) = a.slogdet();
                /// assert_eq!((sign.to_vec(), sign.shape()), (vec![-1.0, 1.0], vec![2]));
                /// assert!((logdet.to_vec()[1] - 4f64.ln()).abs() < 1e-12);
                /// let f = Tensor::<f64, ext![2, 2, 2]>::from_vec(ext![2, 2, 2], a.to_vec());
                /// let (_, l): (_, Tensor<f64, ext![2]>) = f.slogdet();
                /// assert_eq!(l.to_vec(), logdet.to_vec());
                /// ```
                pub fn slogdet;
                /// [`Tensor::slogdet`] of a stack with an explicit choice of threads.
                pub fn slogdet_with;
            }

            $crate::exec::forms::forms! {
                /// numpy's `linalg.cholesky` of every matrix of a stack `(..., M, M)`, with an
                /// explicit choice of threads: the lower factors, in the stack's extents.
                pub fn try_cholesky_with[](&self) with par -> Result<Tensor<T, $same>, LinalgError>
                where [$($chol)*]
                {
                    routines::cholesky(&operand(self), par)?.into_tensor("cholesky")
                }
                /// See [`Tensor::try_cholesky_with`].
                pub fn try_cholesky;
                /// numpy's `linalg.cholesky` of every matrix of a stack.
                ///
                /// ```
                /// use mdtensor::{ext, DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 2, 2][..], vec![4.0, 2.0, 2.0, 2.0, 9.0, 0.0, 0.0, 1.0]);
                /// assert_eq!(a.cholesky().to_vec(), [2.0, 0.0, 1.0, 1.0, 3.0, 0.0, 0.0, 1.0]);
                /// let f = Tensor::<f64, ext![2, 2, 2]>::from_vec(ext![2, 2, 2], a.to_vec());
                /// let l: Tensor<f64, ext![2, 2, 2]> = f.cholesky();
                /// assert_eq!(l.to_vec(), a.cholesky().to_vec());
                /// ```
                pub fn cholesky;
                /// [`Tensor::cholesky`] of a stack with an explicit choice of threads.
                pub fn cholesky_with;
            }

            $crate::exec::forms::forms! {
                /// numpy's `linalg.matrix_power(a, k)` of every matrix of a stack `(..., M, M)`,
                /// in the stack's extents, with an explicit choice of threads.
                pub fn try_matrix_power_with[](&self, k: i64) with par -> Result<Tensor<T, $same>, LinalgError>
                where [$($pow)*]
                {
                    routines::matrix_power(&operand(self), k, par)?.into_tensor("matrix_power")
                }
                /// See [`Tensor::try_matrix_power_with`].
                pub fn try_matrix_power;
                /// numpy's `linalg.matrix_power` of every matrix of a stack.
                ///
                /// ```
                /// use mdtensor::{ext, DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 1, 1][..], vec![2.0, 4.0]);
                /// assert_eq!(a.matrix_power(3).to_vec(), [8.0, 64.0]);
                /// assert_eq!(a.matrix_power(-1).to_vec(), [0.5, 0.25]);
                /// let f = Tensor::<f64, ext![2, 1, 1]>::from_vec(ext![2, 1, 1], vec![2.0, 3.0]);
                /// assert_eq!(f.matrix_power(2).to_vec(), [4.0, 9.0]);
                /// ```
                pub fn matrix_power;
                /// [`Tensor::matrix_power`] of a stack with an explicit choice of threads.
                pub fn matrix_power_with;
            }

            $crate::exec::forms::forms! {
                /// scipy's `linalg.expm` of every matrix of a stack `(..., M, M)`, in the
                /// stack's extents, with an explicit choice of threads.
                pub fn try_expm_with[](&self) with par -> Result<Tensor<T, $same>, LinalgError>
                where [$($expm)*]
                {
                    routines::expm(&operand(self), par)?.into_tensor("expm")
                }
                /// See [`Tensor::try_expm_with`].
                pub fn try_expm;
                /// scipy's `linalg.expm` of every matrix of a stack.
                ///
                /// ```
                /// use mdtensor::{ext, DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 1, 1][..], vec![0.0, 1.0]);
                /// let e = a.expm().to_vec();
                /// assert!((e[0] - 1.0).abs() < 1e-14 && (e[1] - 1f64.exp()).abs() < 1e-14);
                /// let f = Tensor::<f64, ext![1, 2, 2]>::from_vec(ext![1, 2, 2], vec![0.0, 1.0, 0.0, 0.0]);
                /// assert!(f.expm().iter().zip([1.0, 1.0, 0.0, 1.0]).all(|(x, y)| (x - y).abs() < 1e-14));
                /// ```
                pub fn expm;
                /// [`Tensor::expm`] of a stack with an explicit choice of threads.
                pub fn expm_with;
            }

            $crate::exec::forms::forms! {
                /// numpy's `linalg.qr(a, mode)` of every matrix of a stack `(..., M, N)`, with
                /// an explicit choice of threads: `Q` `(..., M, K)` and `R` `(..., K, N)`
                /// (`K = min(M, N)`; complete: `(..., M, M)` and `(..., M, N)`; `R` mode: no `Q`).
                #[allow(clippy::type_complexity)] // the two factors
                pub fn try_qr_with[](&self, mode: QrMode) with par -> Result<(Option<Tensor<T, $q>>, Tensor<T, $r>), LinalgError>
                where []
                {
                    let (q, r) = routines::qr(&operand(self), mode, par)?;
                    Ok((q.map(|q| q.into_tensor("qr")).transpose()?, r.into_tensor("qr")?))
                }
                /// See [`Tensor::try_qr_with`].
                pub fn try_qr;
                /// numpy's `linalg.qr` of every matrix of a stack.
                ///
                /// ```
                /// use mdtensor::{ext, linalg::QrMode, DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[4, 3, 2][..], (0..24).map(f64::from).collect());
                /// let (q, r) = a.qr(QrMode::Reduced);
                /// assert_eq!((q.unwrap().shape(), r.shape()), (vec![4, 3, 2], vec![4, 2, 2]));
                /// let f = Tensor::<f64, ext![4, 3, 2]>::from_vec(ext![4, 3, 2], a.to_vec());
                /// let (q, _) = f.qr(QrMode::Complete);
                /// assert_eq!(q.unwrap().shape(), [4, 3, 3]);
                /// ```
                pub fn qr;
                /// [`Tensor::qr`] of a stack with an explicit choice of threads.
                pub fn qr_with;
            }

            $crate::exec::forms::forms! {
                /// scipy's `linalg.lu` of every matrix of a stack `(..., M, N)`: `P`
                /// `(..., M, M)`, `L` `(..., M, K)` (unit diagonal) and `U` `(..., K, N)`,
                /// `K = min(M, N)`, with `A = P L U` for each matrix.
                #[allow(clippy::type_complexity)] // the three factors
                pub fn try_lu[](&self) -> Result<(Tensor<T, $perm>, Tensor<T, $q>, Tensor<T, $r>), LinalgError>
                where []
                {
                    let (p, l, u) = routines::lu(&operand(self))?;
                    Ok((p.into_tensor("lu")?, l.into_tensor("lu")?, u.into_tensor("lu")?))
                }
                /// scipy's `linalg.lu` of every matrix of a stack; see [`Tensor::try_lu`].
                ///
                /// ```
                /// use mdtensor::{ext, DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 3, 2][..], vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 1.0, 0.0, 2.0, 2.0]);
                /// let (p, l, u) = a.lu();
                /// assert_eq!((p.shape(), l.shape(), u.shape()), (vec![2, 3, 3], vec![2, 3, 2], vec![2, 2, 2]));
                /// let f = Tensor::<f64, ext![2, 3, 2]>::from_vec(ext![2, 3, 2], a.to_vec());
                /// let (fp, _, _) = f.lu();
                /// let _: &(mdtensor::Const<2>, mdtensor::Const<3>, mdtensor::Const<3>) = fp.extents();
                /// ```
                pub fn lu;
            }

            $crate::exec::forms::forms! {
                /// numpy's `linalg.svd(a, full_matrices)` of every matrix of a stack
                /// `(..., M, N)`, with an explicit choice of threads: `U` `(..., M, K)`, `S`
                /// `(..., K)`, `Vᴴ` `(..., K, N)` (`full`: `(..., M, M)` and `(..., N, N)`).
                #[allow(clippy::type_complexity)] // the three factors
                pub fn try_svd_with[](&self, full: bool) with par
                    -> Result<(Tensor<T, $q>, Tensor<T::Re, $k>, Tensor<T, $r>), LinalgError>
                where []
                {
                    let (u, s, vh) = routines::svd(&operand(self), full, par)?;
                    Ok((u.into_tensor("svd")?, s.into_tensor("svd")?, vh.into_tensor("svd")?))
                }
                /// See [`Tensor::try_svd_with`].
                pub fn try_svd;
                /// numpy's `linalg.svd` of every matrix of a stack.
                ///
                /// ```
                /// use mdtensor::{ext, DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 3, 2][..], (0..12).map(f64::from).collect());
                /// let (u, s, vh) = a.svd(false);
                /// assert_eq!((u.shape(), s.shape(), vh.shape()), (vec![2, 3, 2], vec![2, 2], vec![2, 2, 2]));
                /// let f = Tensor::<f64, ext![2, 3, 2]>::from_vec(ext![2, 3, 2], a.to_vec());
                /// let (u, _, _) = f.svd(true);
                /// assert_eq!(u.shape(), [2, 3, 3]);
                /// ```
                pub fn svd;
                /// [`Tensor::svd`] of a stack with an explicit choice of threads.
                pub fn svd_with;
            }

            $crate::exec::forms::forms! {
                /// The singular values of every matrix of a stack, descending, `(..., K)`,
                /// with an explicit choice of threads.
                pub fn try_svdvals_with[](&self) with par -> Result<Tensor<T::Re, $k>, LinalgError>
                where []
                {
                    routines::svdvals(&operand(self), par)?.into_tensor("svdvals")
                }
                /// See [`Tensor::try_svdvals_with`].
                pub fn try_svdvals;
                /// The singular values of every matrix of a stack.
                ///
                /// ```
                /// use mdtensor::{ext, DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 2, 2][..], vec![0.0, 2.0, 1.0, 0.0, 3.0, 0.0, 0.0, 1.0]);
                /// assert_eq!(a.svdvals().to_vec(), [2.0, 1.0, 3.0, 1.0]);
                /// let f = Tensor::<f64, ext![2, 2, 2]>::from_vec(ext![2, 2, 2], a.to_vec());
                /// assert_eq!(f.svdvals().shape(), [2, 2]);
                /// ```
                pub fn svdvals;
                /// [`Tensor::svdvals`] of a stack with an explicit choice of threads.
                pub fn svdvals_with;
            }

            $crate::exec::forms::forms! {
                /// numpy's `linalg.eigh(a, UPLO)` of every Hermitian matrix of a stack
                /// `(..., M, M)`, with an explicit choice of threads: eigenvalues `(..., M)`
                /// ascending and eigenvectors `(..., M, M)` (columns).
                #[allow(clippy::type_complexity)] // the two results
                pub fn try_eigh_with[](&self, uplo: Uplo) with par -> Result<(Tensor<T::Re, $order>, Tensor<T, $same>), LinalgError>
                where [$($eig)*]
                {
                    let (w, v) = routines::eigh(&operand(self), uplo, par)?;
                    Ok((w.into_tensor("eigh")?, v.into_tensor("eigh")?))
                }
                /// See [`Tensor::try_eigh_with`].
                pub fn try_eigh;
                /// numpy's `linalg.eigh` of every matrix of a stack.
                ///
                /// ```
                /// use mdtensor::{ext, linalg::Uplo, DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[1, 2, 2][..], vec![2.0, 1.0, 1.0, 2.0]);
                /// let (w, v) = a.eigh(Uplo::Lower);
                /// assert!((w.to_vec()[0] - 1.0).abs() < 1e-12 && v.shape() == [1, 2, 2]);
                /// let f = Tensor::<f64, ext![1, 2, 2]>::from_vec(ext![1, 2, 2], a.to_vec());
                /// let (w, _): (Tensor<f64, ext![1, 2]>, _) = f.eigh(Uplo::Lower);
                /// assert!((w[[0, 1]] - 3.0).abs() < 1e-12);
                /// ```
                pub fn eigh;
                /// [`Tensor::eigh`] of a stack with an explicit choice of threads.
                pub fn eigh_with;
            }

            $crate::exec::forms::forms! {
                /// numpy's `linalg.eigvalsh(a, UPLO)` of every matrix of a stack, `(..., M)`
                /// ascending, with an explicit choice of threads.
                pub fn try_eigvalsh_with[](&self, uplo: Uplo) with par -> Result<Tensor<T::Re, $order>, LinalgError>
                where [$($eig)*]
                {
                    routines::eigvalsh(&operand(self), uplo, par)?.into_tensor("eigvalsh")
                }
                /// See [`Tensor::try_eigvalsh_with`].
                pub fn try_eigvalsh;
                /// numpy's `linalg.eigvalsh` of every matrix of a stack.
                ///
                /// ```
                /// use mdtensor::{ext, linalg::Uplo, DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 1, 1][..], vec![3.0, -1.0]);
                /// assert_eq!(a.eigvalsh(Uplo::Lower).to_vec(), [3.0, -1.0]);
                /// let f = Tensor::<f64, ext![1, 2, 2]>::from_vec(ext![1, 2, 2], vec![2.0, 0.0, 0.0, 1.0]);
                /// assert_eq!(f.eigvalsh(Uplo::Lower).to_vec(), [1.0, 2.0]);
                /// ```
                pub fn eigvalsh;
                /// [`Tensor::eigvalsh`] of a stack with an explicit choice of threads.
                pub fn eigvalsh_with;
            }

            $crate::exec::forms::forms! {
                /// numpy's `linalg.eig` of every matrix of a stack `(..., M, M)`, with an
                /// explicit choice of threads: complex eigenvalues `(..., M)` and
                /// eigenvectors `(..., M, M)`.
                #[allow(clippy::type_complexity)] // the two results
                pub fn try_eig_with[](&self) with par -> Result<(Tensor<T::Complex, $order>, Tensor<T::Complex, $same>), LinalgError>
                where [$($eig)*]
                {
                    let (w, v) = routines::eig(&operand(self), par)?;
                    Ok((w.into_tensor("eig")?, v.into_tensor("eig")?))
                }
                /// See [`Tensor::try_eig_with`].
                pub fn try_eig;
                /// numpy's `linalg.eig` of every matrix of a stack.
                ///
                /// ```
                /// use mdtensor::{ext, DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[1, 2, 2][..], vec![0.0, -1.0, 1.0, 0.0]);
                /// let (w, v) = a.eig();
                /// assert!((w.to_vec()[0].im.abs() - 1.0).abs() < 1e-12 && v.shape() == [1, 2, 2]);
                /// let f = Tensor::<f64, ext![1, 2, 2]>::from_vec(ext![1, 2, 2], a.to_vec());
                /// assert_eq!(f.eig().0.shape(), [1, 2]);
                /// ```
                pub fn eig;
                /// [`Tensor::eig`] of a stack with an explicit choice of threads.
                pub fn eig_with;
            }

            $crate::exec::forms::forms! {
                /// numpy's `linalg.eigvals` of every matrix of a stack, complex, `(..., M)`,
                /// with an explicit choice of threads.
                pub fn try_eigvals_with[](&self) with par -> Result<Tensor<T::Complex, $order>, LinalgError>
                where [$($eig)*]
                {
                    routines::eigvals(&operand(self), par)?.into_tensor("eigvals")
                }
                /// See [`Tensor::try_eigvals_with`].
                pub fn try_eigvals;
                /// numpy's `linalg.eigvals` of every matrix of a stack.
                ///
                /// ```
                /// use mdtensor::{ext, DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 1, 1][..], vec![3.0, 5.0]);
                /// assert_eq!(a.eigvals().to_vec().iter().map(|z| z.re).collect::<Vec<_>>(), [3.0, 5.0]);
                /// let f = Tensor::<f64, ext![2, 1, 1]>::from_vec(ext![2, 1, 1], vec![3.0, 5.0]);
                /// assert_eq!(f.eigvals().shape(), [2, 1]);
                /// ```
                pub fn eigvals;
                /// [`Tensor::eigvals`] of a stack with an explicit choice of threads.
                pub fn eigvals_with;
            }

            $crate::exec::forms::forms! {
                /// numpy's `linalg.pinv(a, rcond)` of every matrix of a stack `(..., M, N)`:
                /// `(..., N, M)`, with an explicit choice of threads.
                pub fn try_pinv_with[](&self, rcond: Option<T::Re>) with par -> Result<Tensor<T, $pinv>, LinalgError>
                where []
                {
                    routines::pinv(&operand(self), rcond, par)?.into_tensor("pinv")
                }
                /// See [`Tensor::try_pinv_with`].
                pub fn try_pinv;
                /// numpy's `linalg.pinv` of every matrix of a stack.
                ///
                /// ```
                /// use mdtensor::{ext, DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 1, 2][..], vec![2.0, 0.0, 0.0, 4.0]);
                /// let p = a.pinv(None);
                /// assert_eq!((p.shape(), p.to_vec()), (vec![2, 2, 1], vec![0.5, 0.0, 0.0, 0.25]));
                /// let f = Tensor::<f64, ext![2, 1, 2]>::from_vec(ext![2, 1, 2], a.to_vec());
                /// let _: Tensor<f64, ext![2, 2, 1]> = f.pinv(None);
                /// ```
                pub fn pinv;
                /// [`Tensor::pinv`] of a stack with an explicit choice of threads.
                pub fn pinv_with;
            }

            $crate::exec::forms::forms! {
                /// numpy's `linalg.matrix_rank(a, tol)` of every matrix of a stack: the batch
                /// shape, with an explicit choice of threads.
                pub fn try_matrix_rank_with[](&self, tol: Option<T::Re>) with par -> Result<Tensor<usize, $batch>, LinalgError>
                where []
                {
                    routines::matrix_rank(&operand(self), tol, par)?.into_tensor("matrix_rank")
                }
                /// See [`Tensor::try_matrix_rank_with`].
                pub fn try_matrix_rank;
                /// numpy's `linalg.matrix_rank` of every matrix of a stack.
                ///
                /// ```
                /// use mdtensor::{ext, DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 2, 2][..], vec![1.0, 2.0, 2.0, 4.0, 1.0, 0.0, 0.0, 1.0]);
                /// assert_eq!(a.matrix_rank(None).to_vec(), [1, 2]);
                /// let f = Tensor::<f64, ext![2, 2, 2]>::from_vec(ext![2, 2, 2], a.to_vec());
                /// assert_eq!(f.matrix_rank(None).to_vec(), [1, 2]);
                /// ```
                pub fn matrix_rank;
                /// [`Tensor::matrix_rank`] of a stack with an explicit choice of threads.
                pub fn matrix_rank_with;
            }

            $crate::exec::forms::forms! {
                /// numpy's `linalg.cond(a, p)` of every matrix of a stack: the batch shape,
                /// with an explicit choice of threads.
                pub fn try_cond_with[](&self, p: Option<MatrixOrd>) with par -> Result<Tensor<T::Re, $batch>, LinalgError>
                where []
                {
                    routines::cond(&operand(self), p, par)?.into_tensor("cond")
                }
                /// See [`Tensor::try_cond_with`].
                pub fn try_cond;
                /// numpy's `linalg.cond` of every matrix of a stack.
                ///
                /// ```
                /// use mdtensor::{ext, DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[1, 2, 2][..], vec![2.0, 0.0, 0.0, 0.5]);
                /// assert_eq!(a.cond(None).to_vec(), [4.0]);
                /// let f = Tensor::<f64, ext![1, 2, 2]>::from_vec(ext![1, 2, 2], a.to_vec());
                /// assert_eq!(f.cond(None).to_vec(), [4.0]);
                /// ```
                pub fn cond;
                /// [`Tensor::cond`] of a stack with an explicit choice of threads.
                pub fn cond_with;
            }

            $crate::exec::forms::forms! {
                /// numpy's `linalg.matrix_norm(a, ord)` of every matrix of a stack: the batch
                /// shape, with an explicit choice of threads.
                pub fn try_matrix_norm_with[](&self, ord: MatrixOrd) with par -> Result<Tensor<T::Re, $batch>, LinalgError>
                where []
                {
                    routines::matrix_norm(&operand(self), ord, par)?.into_tensor("matrix_norm")
                }
                /// See [`Tensor::try_matrix_norm_with`].
                pub fn try_matrix_norm;
                /// numpy's `linalg.matrix_norm` of every matrix of a stack.
                ///
                /// ```
                /// use mdtensor::{ext, linalg::MatrixOrd, DynRank, Tensor};
                /// let a = Tensor::<f64, DynRank>::from_vec(&[2, 1, 2][..], vec![3.0, 4.0, 1.0, 0.0]);
                /// assert_eq!(a.matrix_norm(MatrixOrd::Fro).to_vec(), [5.0, 1.0]);
                /// let f = Tensor::<f64, ext![2, 1, 2]>::from_vec(ext![2, 1, 2], a.to_vec());
                /// assert_eq!(f.matrix_norm(MatrixOrd::Inf).to_vec(), [7.0, 1.0]);
                /// ```
                pub fn matrix_norm;
                /// [`Tensor::matrix_norm`] of a stack with an explicit choice of threads.
                pub fn matrix_norm_with;
            }
        }
    };
}

pub(super) use stack_routines;
