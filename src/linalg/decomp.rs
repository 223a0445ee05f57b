//! QR, SVD and eigendecompositions through faer, with numpy's modes and result order:
//! singular values descending, Hermitian eigenvalues ascending, `Vᴴ` (not `V`) from `svd`.

use super::dense::LinalgStorage;
use super::dense::{build, extents, mat_ref, square};
use super::scalar::LinalgScalar;
use crate::error::LinalgError;
use crate::exec::forms::forms;
use crate::extents::{Dim, Dyn, EigSquare};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;
use faer::{MatRef, Side};

/// A matrix of dynamic extents.
type Mat<T> = Tensor<T, (Dyn, Dyn)>;
/// A vector of dynamic length.
type Vector<T> = Tensor<T, (Dyn,)>;

/// numpy's `mode` of `linalg.qr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum QrMode {
    /// `Q` is `m × k`, `R` is `k × n` with `k = min(m, n)` (numpy's default).
    #[default]
    Reduced,
    /// `Q` is `m × m`, `R` is `m × n`.
    Complete,
    /// `R` alone (`k × n`); `Q` is not formed.
    R,
}

/// Which triangle of a Hermitian matrix is read (numpy's `UPLO`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Uplo {
    /// The lower triangle (numpy's default, `'L'`).
    #[default]
    Lower,
    /// The upper triangle (`'U'`).
    Upper,
}

fn dense<T: LinalgScalar>(op: &'static str, m: MatRef<'_, T>) -> Result<Mat<T>, LinalgError> {
    let (r, c) = (m.nrows(), m.ncols());
    let cols = c.max(1);
    Ok(build(op, extents(op, &[r, c])?, |k| m[(k / cols, k % cols)])?)
}

fn vector<T>(op: &'static str, n: usize, f: impl FnMut(usize) -> T) -> Result<Vector<T>, LinalgError> {
    Ok(build(op, extents(op, &[n])?, f)?)
}

fn no_convergence(op: &'static str) -> LinalgError {
    LinalgError::NoConvergence { op, iterations: 0 }
}

/// `(w, v)`: eigenvalues and the eigenvectors as the columns of `v`.
pub type Eig<W, V> = (Vector<W>, Mat<V>);

/// # Linear algebra: QR, SVD, eigenvalues (feature `linalg`)
impl<T: LinalgScalar, M: Dim, N: Dim, S: Layout<(M, N)>, St: DenseStorage<T> + LinalgStorage> Tensor<T, (M, N), S, St> {
    forms! {
        /// numpy's `linalg.qr(a, mode)`: `(Some(Q), R)` with `A = Q R`, `QᴴQ = I`, or
        /// `(None, R)` for [`QrMode::R`].
        #[allow(clippy::type_complexity)] // the two factors
        pub fn try_qr[](&self, mode: QrMode) -> Result<(Option<Mat<T>>, Mat<T>), LinalgError>
        where []
        {
            let a = mat_ref(self);
            let qr = a.qr();
            let r = qr.thin_R();
            let r = match mode {
                // numpy's complete R is m × n: the thin R over zero rows.
                QrMode::Complete => {
                    let (k, n) = (r.nrows(), r.ncols());
                    let cols = n.max(1);
                    build("qr", extents("qr", &[a.nrows(), n])?, |x| {
                        let (i, j) = (x / cols, x % cols);
                        if i < k { r[(i, j)] } else { T::zero() }
                    })?
                }
                _ => dense("qr", r)?,
            };
            let q = match mode {
                QrMode::Reduced => Some(dense("qr", qr.compute_thin_Q().as_ref())?),
                QrMode::Complete => Some(dense("qr", qr.compute_Q().as_ref())?),
                QrMode::R => None,
            };
            Ok((q, r))
        }
        /// numpy's `linalg.qr`.
        ///
        /// ```
        /// use mdtensor::{linalg::QrMode, tensor};
        /// let a = tensor![[1.0_f64, 2.0], [3.0, 4.0], [5.0, 6.0]];
        /// let (q, r) = a.qr(QrMode::Reduced);
        /// let q = q.unwrap();
        /// assert_eq!((q.shape(), r.shape()), (vec![3, 2], vec![2, 2]));
        /// let back = q.matmul(&r);
        /// assert!(back.iter().zip(a.iter()).all(|(x, y)| (x - y).abs() < 1e-12));
        /// ```
        pub fn qr;
    }

    forms! {
        /// numpy's `linalg.svd(a, full_matrices)`: `(U, S, Vᴴ)` with `A = U diag(S) Vᴴ`, `S`
        /// descending; `full` gives square `U` (`m × m`) and `Vᴴ` (`n × n`), otherwise
        /// `m × k` and `k × n`.
        #[allow(clippy::type_complexity)] // the three factors
        pub fn try_svd[](&self, full: bool) -> Result<(Mat<T>, Vector<T::Re>, Mat<T>), LinalgError>
        where []
        {
            let a = mat_ref(self);
            let svd = if full { a.svd() } else { a.thin_svd() }.map_err(|_| no_convergence("svd"))?;
            let u = dense("svd", svd.U())?;
            let s = svd.S().column_vector();
            let s = vector("svd", s.nrows(), |i| s[i].real_part())?;
            let v = svd.V();
            let (vr, vc) = (v.ncols(), v.nrows());
            let v = build("svd", extents("svd", &[vr, vc])?, |k| v[(k % vc.max(1), k / vc.max(1))].conjugate())?;
            Ok((u, s, v))
        }
        /// numpy's `linalg.svd`.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let (u, s, vh) = tensor![[3.0_f64, 0.0], [0.0, -2.0]].svd(false);
        /// assert_eq!(s.to_vec(), [3.0, 2.0]);
        /// assert_eq!((u.shape(), vh.shape()), (vec![2, 2], vec![2, 2]));
        /// ```
        pub fn svd;
    }

    forms! {
        /// The singular values alone, descending (numpy's `svd(a, compute_uv=False)`).
        pub fn try_svdvals[](&self) -> Result<Vector<T::Re>, LinalgError>
        where []
        {
            let s = mat_ref(self).singular_values().map_err(|_| no_convergence("svdvals"))?;
            vector("svdvals", s.len(), |i| T::real_from_faer(s[i].clone()))
        }
        /// The singular values, descending.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[0.0_f64, 2.0], [1.0, 0.0]].svdvals().to_vec(), [2.0, 1.0]);
        /// ```
        pub fn svdvals;
    }

    forms! {
        /// numpy's `linalg.eigh(a, UPLO)`: eigenvalues ascending and orthonormal
        /// eigenvectors (the columns of `v`) of a Hermitian matrix, reading one triangle.
        pub fn try_eigh[](&self, uplo: Uplo) -> Result<Eig<T::Re, T>, LinalgError>
        where [M: EigSquare<N>]
        {
            let [m, n] = self.dims();
            square("eigh", m, n)?;
            let e = mat_ref(self).self_adjoint_eigen(side(uplo)).map_err(|_| no_convergence("eigh"))?;
            let w = e.S().column_vector();
            let w = vector("eigh", w.nrows(), |i| w[i].real_part())?;
            Ok((w, dense("eigh", e.U())?))
        }
        /// numpy's `linalg.eigh`.
        ///
        /// ```
        /// use mdtensor::{linalg::Uplo, tensor};
        /// let (w, v) = tensor![[2.0_f64, 1.0], [1.0, 2.0]].eigh(Uplo::Lower);
        /// assert!((w[[0]] - 1.0).abs() < 1e-12 && (w[[1]] - 3.0).abs() < 1e-12);
        /// assert_eq!(v.shape(), [2, 2]);
        /// ```
        pub fn eigh;
    }

    forms! {
        /// numpy's `linalg.eigvalsh(a, UPLO)`: the eigenvalues of a Hermitian matrix, ascending.
        pub fn try_eigvalsh[](&self, uplo: Uplo) -> Result<Vector<T::Re>, LinalgError>
        where [M: EigSquare<N>]
        {
            let [m, n] = self.dims();
            square("eigvalsh", m, n)?;
            let w = mat_ref(self).self_adjoint_eigenvalues(side(uplo)).map_err(|_| no_convergence("eigvalsh"))?;
            vector("eigvalsh", w.len(), |i| T::real_from_faer(w[i].clone()))
        }
        /// numpy's `linalg.eigvalsh`.
        ///
        /// ```
        /// use mdtensor::{linalg::Uplo, tensor};
        /// let w = tensor![[2.0_f64, 0.0], [0.0, 1.0]].eigvalsh(Uplo::Lower);
        /// assert_eq!(w.to_vec(), [1.0, 2.0]);
        /// ```
        pub fn eigvalsh;
    }

    forms! {
        /// numpy's `linalg.eig`: eigenvalues and right eigenvectors (unit columns of `v`),
        /// complex for real input too.
        pub fn try_eig[](&self) -> Result<Eig<T::Complex, T::Complex>, LinalgError>
        where [M: EigSquare<N>]
        {
            let [m, n] = self.dims();
            let n = square("eig", m, n)?;
            let a = mat_ref(self);
            let (w, v) = general_eigen(a, true)?;
            let cols = n.max(1);
            Ok((vector("eig", n, |i| w[i])?, build("eig", extents("eig", &[n, n])?, |k| v[(k / cols) + (k % cols) * n])?))
        }
        /// numpy's `linalg.eig`.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let (w, _v) = tensor![[0.0_f64, -1.0], [1.0, 0.0]].eig(); // a rotation: ±i
        /// assert!((w[[0]].im.abs() - 1.0).abs() < 1e-12);
        /// ```
        pub fn eig;
    }

    forms! {
        /// numpy's `linalg.eigvals`: the eigenvalues, complex for real input too.
        pub fn try_eigvals[](&self) -> Result<Vector<T::Complex>, LinalgError>
        where [M: EigSquare<N>]
        {
            let [m, n] = self.dims();
            let n = square("eigvals", m, n)?;
            let (w, _) = general_eigen(mat_ref(self), false)?;
            vector("eigvals", n, |i| w[i])
        }
        /// numpy's `linalg.eigvals`.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let w = tensor![[2.0_f64, 0.0], [0.0, 3.0]].eigvals();
        /// assert_eq!(w.to_vec().iter().map(|z| z.re).sum::<f64>(), 5.0);
        /// ```
        pub fn eigvals;
    }
}

fn side(uplo: Uplo) -> Side {
    match uplo {
        Uplo::Lower => Side::Lower,
        Uplo::Upper => Side::Upper,
    }
}

/// Eigenvalues and (when `vectors`) eigenvectors, column-major `n × n`, of a general
/// matrix, in the complex type of `T`'s precision.
#[allow(clippy::type_complexity)]
fn general_eigen<T: LinalgScalar>(
    a: MatRef<'_, T>,
    vectors: bool,
) -> Result<(Vec<T::Complex>, Vec<T::Complex>), LinalgError> {
    // faer's general eigensolver takes complex input; a real matrix is widened first
    // (faer's own real path returns the same values).
    let n = a.nrows();
    let mut c = super::dense::buffer::<T::Complex>("eig", n, n)?;
    for j in 0..n {
        for i in 0..n {
            c[i + j * n] = a[(i, j)].to_complex();
        }
    }
    let cm = super::dense::col_major(&c, n, n);
    if vectors {
        let e = cm.eigen().map_err(|_| no_convergence("eig"))?;
        let w = e.S().column_vector();
        let u = e.U();
        let mut v = super::dense::buffer::<T::Complex>("eig", n, n)?;
        for j in 0..n {
            for i in 0..n {
                v[i + j * n] = T::complex_from_faer(u[(i, j)].clone());
            }
        }
        let mut values = crate::alloc::try_vec_with_capacity("eig", n)?;
        values.extend((0..n).map(|i| T::complex_from_faer(w[i].clone())));
        Ok((values, v))
    } else {
        let w = cm.eigenvalues().map_err(|_| no_convergence("eigvals"))?;
        Ok((w.into_iter().map(T::complex_from_faer).collect(), Vec::new()))
    }
}
