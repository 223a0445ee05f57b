//! QR, SVD and eigendecompositions through faer, with numpy's modes and result order:
//! singular values descending, Hermitian eigenvalues ascending, `Vᴴ` (not `V`) from `svd`.
//! faer's lower-level routines are called with buffers and workspaces allocated
//! fallibly, so that running out of memory is an `Err`, not an abort.

use super::dense::LinalgStorage;
use super::dense::{
    buffer, build, build_copy, col_major, col_major_mut, extents, faer_par, mat_ref, owned_copy, square, workspace,
};
use super::scalar::LinalgScalar;
use crate::error::LinalgError;
use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::extents::{Dim, Dyn, EigSquare};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;
use faer::dyn_stack::MemStack;
use faer::linalg::evd::{self, ComputeEigenvectors};
use faer::linalg::householder;
use faer::linalg::qr::no_pivoting::factor as qr_factor;
use faer::linalg::svd::{self, ComputeSvdVectors};
use faer::{Conj, MatRef};

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
    Ok(build_copy(op, extents(op, &[m.nrows(), m.ncols()])?, m)?)
}

fn vector<T>(op: &'static str, n: usize, f: impl FnMut(usize) -> T) -> Result<Vector<T>, LinalgError> {
    Ok(build(op, extents(op, &[n])?, f)?)
}

fn no_convergence(op: &'static str) -> LinalgError {
    LinalgError::NoConvergence { op, iterations: 0, matrix: None }
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
            let op = "qr";
            let a = mat_ref(self);
            let (m, n) = (a.nrows(), a.ncols());
            let k = m.min(n);
            let fpar = faer_par(Par::Auto, k);
            // faer's blocked Householder QR in place: R above the diagonal, the
            // reflectors' essential parts below it, their block coefficients in `coeff`.
            let mut qr = owned_copy(op, a)?;
            let bs = qr_factor::recommended_block_size::<T>(m, n);
            let mut coeff = buffer::<T>(op, bs, k)?;
            {
                let mut mem = workspace(op, qr_factor::qr_in_place_scratch::<T>(m, n, bs, fpar, Default::default()))?;
                qr_factor::qr_in_place(
                    col_major_mut(&mut qr, m, n),
                    col_major_mut(&mut coeff, bs, k),
                    fpar,
                    MemStack::new(&mut mem),
                    Default::default(),
                );
            }
            let rm = col_major(&qr, m, n);
            let rows = if mode == QrMode::Complete { m } else { k };
            // R is the upper triangle of the factor's first `rows` rows (rows past `k` are
            // below the diagonal): a tiled copy, then the part below the diagonal zeroed.
            let mut r = build_copy(op, extents(op, &[rows, n])?, rm.get(..rows, ..))?;
            if let Some(w) = r.as_slice_mut() {
                w.chunks_exact_mut(n.max(1)).enumerate().for_each(|(i, row)| row[..i.min(n)].fill(T::zero()));
            }
            let q = match mode {
                QrMode::R => None,
                QrMode::Reduced | QrMode::Complete => {
                    let qcols = if mode == QrMode::Complete { m } else { k };
                    let mut q = buffer::<T>(op, m, qcols)?;
                    (0..qcols.min(m)).for_each(|i| q[i + i * m] = T::one());
                    let mut mem = workspace(op, householder::apply_block_householder_sequence_on_the_left_in_place_scratch::<T>(m, bs, qcols))?;
                    householder::apply_block_householder_sequence_on_the_left_in_place_with_conj(
                        rm.get(.., ..k),
                        col_major(&coeff, bs, k),
                        Conj::No,
                        col_major_mut(&mut q, m, qcols),
                        fpar,
                        MemStack::new(&mut mem),
                    );
                    Some(dense(op, col_major(&q, m, qcols))?)
                }
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
            let vectors = if full { ComputeSvdVectors::Full } else { ComputeSvdVectors::Thin };
            let svd = svd_parts("svd", mat_ref(self), vectors)?;
            let u = dense("svd", svd.u())?;
            let s = svd.s();
            let s = vector("svd", s.nrows(), |i| s[i].real_part())?;
            let (vr, vc) = (svd.v().ncols(), svd.v().nrows());
            let vh = svd.vh_conj_data();
            let v = build("svd", extents("svd", &[vr, vc])?, |k| vh[k].conjugate())?;
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
            let svd = svd_parts("svdvals", mat_ref(self), ComputeSvdVectors::No)?;
            let s = svd.s();
            vector("svdvals", s.nrows(), |i| s[i].real_part())
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
            let n = square("eigh", m, n)?;
            let (w, u) = hermitian_eigen("eigh", mat_ref(self), uplo, true)?;
            let w = vector("eigh", n, |i| w[i].real_part())?;
            Ok((w, dense("eigh", col_major(&u, n, n))?))
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
            let n = square("eigvalsh", m, n)?;
            let (w, _) = hermitian_eigen("eigvalsh", mat_ref(self), uplo, false)?;
            vector("eigvalsh", n, |i| w[i].real_part())
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
            Ok((vector("eig", n, |i| w[i])?, build_copy("eig", extents("eig", &[n, n])?, col_major(&v, n, n))?))
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

/// faer's SVD of `a` in fallible column-major buffers (faer's own `svd` methods allocate
/// theirs infallibly): `S` descending, `U` and `V` as `vectors` asks (`Thin`: `k`
/// columns, `Full`: square, `No`: empty).
pub(super) struct SvdParts<T> {
    s: Vec<T>,
    u: Vec<T>,
    v: Vec<T>,
    shape: (usize, usize, usize, usize),
}

impl<T: LinalgScalar> SvdParts<T> {
    /// The singular values (real, in `T`).
    pub(super) fn s(&self) -> faer::ColRef<'_, T> {
        faer::ColRef::from_slice(&self.s)
    }
    /// `U`, `m × ku`.
    pub(super) fn u(&self) -> MatRef<'_, T> {
        col_major(&self.u, self.shape.0, self.shape.2)
    }
    /// `V` (not `Vᴴ`), `n × kv`.
    pub(super) fn v(&self) -> MatRef<'_, T> {
        col_major(&self.v, self.shape.1, self.shape.3)
    }
    /// `V`'s column-major elements, which are `Vᴴ`'s row-major ones conjugated.
    pub(super) fn vh_conj_data(&self) -> &[T] {
        &self.v
    }
}

/// The SVD of `a`; see [`SvdParts`].
pub(super) fn svd_parts<T: LinalgScalar>(
    op: &'static str,
    a: MatRef<'_, T>,
    vectors: ComputeSvdVectors,
) -> Result<SvdParts<T>, LinalgError> {
    let (m, n) = (a.nrows(), a.ncols());
    let k = m.min(n);
    let (ku, kv) = match vectors {
        ComputeSvdVectors::No => (0, 0),
        ComputeSvdVectors::Thin => (k, k),
        ComputeSvdVectors::Full => (m, n),
    };
    let fpar = faer_par(Par::Auto, k);
    let mut p = SvdParts { s: buffer(op, k, 1)?, u: buffer(op, m, ku)?, v: buffer(op, n, kv)?, shape: (m, n, ku, kv) };
    let mut mem = workspace(op, svd::svd_scratch::<T>(m, n, vectors, vectors, fpar, Default::default()))?;
    let with = vectors != ComputeSvdVectors::No;
    svd::svd(
        a,
        faer::ColMut::from_slice_mut(&mut p.s).as_diagonal_mut(),
        with.then(|| col_major_mut(&mut p.u, m, ku)),
        with.then(|| col_major_mut(&mut p.v, n, kv)),
        fpar,
        MemStack::new(&mut mem),
        Default::default(),
    )
    .map_err(|_| no_convergence(op))?;
    Ok(p)
}

/// The eigenvalues (real, in `T`, ascending) and, when `vectors`, the eigenvectors
/// (column-major `n × n`, empty otherwise) of the Hermitian matrix whose `uplo` triangle
/// `a` holds, in fallible buffers.
#[allow(clippy::type_complexity)] // the two buffers
fn hermitian_eigen<T: LinalgScalar>(
    op: &'static str,
    a: MatRef<'_, T>,
    uplo: Uplo,
    vectors: bool,
) -> Result<(Vec<T>, Vec<T>), LinalgError> {
    let n = a.nrows();
    // faer reads the lower triangle; the upper one is the lower one of `Aᵀ = conj(A)`,
    // whose eigenvectors are the conjugates of `A`'s.
    let a = if uplo == Uplo::Upper { a.transpose() } else { a };
    let fpar = faer_par(Par::Auto, n);
    let mut w = buffer::<T>(op, n, 1)?;
    let mut u = buffer::<T>(op, if vectors { n } else { 0 }, n)?;
    let compute = if vectors { ComputeEigenvectors::Yes } else { ComputeEigenvectors::No };
    let mut mem = workspace(op, evd::self_adjoint_evd_scratch::<T>(n, compute, fpar, Default::default()))?;
    evd::self_adjoint_evd(
        a,
        faer::ColMut::from_slice_mut(&mut w).as_diagonal_mut(),
        vectors.then(|| col_major_mut(&mut u, n, n)),
        fpar,
        MemStack::new(&mut mem),
        Default::default(),
    )
    .map_err(|_| no_convergence(op))?;
    if uplo == Uplo::Upper {
        u.iter_mut().for_each(|x| *x = x.conjugate());
    }
    Ok((w, u))
}

/// Eigenvalues and (when `vectors`) eigenvectors, column-major `n × n`, of a general
/// matrix, in the complex type of `T`'s precision, in fallible buffers.
#[allow(clippy::type_complexity)]
fn general_eigen<T: LinalgScalar>(
    a: MatRef<'_, T>,
    vectors: bool,
) -> Result<(Vec<T::Complex>, Vec<T::Complex>), LinalgError> {
    let op = if vectors { "eig" } else { "eigvals" };
    // faer's general eigensolver is run on complex input; a real matrix is widened first
    // (faer's own real path returns the same values).
    let n = a.nrows();
    let mut c = buffer::<T::Complex>(op, n, n)?;
    for j in 0..n {
        for i in 0..n {
            c[i + j * n] = a[(i, j)].to_complex();
        }
    }
    let mut w = buffer::<T::Complex>(op, n, 1)?;
    let mut v = buffer::<T::Complex>(op, if vectors { n } else { 0 }, n)?;
    let fpar = faer_par(Par::Auto, n);
    let compute = if vectors { ComputeEigenvectors::Yes } else { ComputeEigenvectors::No };
    let mut mem =
        workspace(op, evd::evd_scratch::<T::Complex>(n, ComputeEigenvectors::No, compute, fpar, Default::default()))?;
    T::complex_evd(
        col_major(&c, n, n),
        &mut w,
        vectors.then(|| col_major_mut(&mut v, n, n)),
        fpar,
        MemStack::new(&mut mem),
    )
    .map_err(|_| no_convergence(op))?;
    Ok((w, v))
}
